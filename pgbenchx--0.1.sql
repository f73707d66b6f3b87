/*
 * pgbenchx--0.1.sql: the SQL surface of pgbenchx 0.1.
 *
 * Entry points (pgbench_init, later run_bench and run_sweep) are created in
 * the schema named by CREATE EXTENSION, so that they work unqualified right
 * after CREATE EXTENSION pgbenchx.  Results and helpers live in the schema
 * pgbenchx, which the extension creates and DROP EXTENSION removes.  The
 * pgbench tables themselves belong to the user and are never members of the
 * extension.
 *
 * Nothing here is executable by PUBLIC: a superuser grants EXECUTE to the
 * roles that may benchmark (see README, "Privileges").
 */

\echo Use "CREATE EXTENSION pgbenchx" to load this file. \quit

CREATE SCHEMA pgbenchx;
COMMENT ON SCHEMA pgbenchx IS 'pgbenchx results, progress and helpers';

/*
 * Results.  Every table and sequence is marked with pg_extension_config_dump
 * so that pg_dump keeps the results a user has gathered.
 */

-- One sequence numbers both sweeps and runs, so that an id names exactly one
-- of them (pgbenchx.wait(id) and pgbenchx.cancel(id) take either).
CREATE SEQUENCE pgbenchx.id_seq;

-- One row per distinct environment a sweep or run was measured in, as the
-- server itself sees it: OS, CPU, memory, file systems and mount options of
-- the data directory and of pg_wal, the build, the settings.  Deduplicated
-- by env_hash (an md5 over every field but the id and the capture time).
CREATE TABLE pgbenchx.environments (
    environment_id    bigserial PRIMARY KEY,
    env_hash          text NOT NULL UNIQUE,
    captured_at       timestamptz NOT NULL DEFAULT now(),
    hostname          text,
    os_sysname        text,      -- uname: Linux, FreeBSD, DragonFly ...
    os_release        text,
    os_version        text,
    os_machine        text,      -- x86_64, amd64, aarch64 ...
    os_distribution   text,      -- e.g. "Debian GNU/Linux 12 (bookworm)"
    cpu_model         text,
    cpu_count         int,       -- online CPUs
    memory_bytes      bigint,
    virtualization    text,      -- a hint: kvm, xen, vmware, container, none ...
    data_fstype       text,      -- for data_directory
    data_mount_options text,
    data_device       text,
    wal_fstype        text,      -- for pg_wal (it may be another mount)
    wal_mount_options text,
    wal_device        text,
    pg_version        text,      -- version()
    pointer_bits      int,       -- 32 or 64
    block_size        int,       -- BLCKSZ
    wal_block_size    int,
    segment_size      bigint,    -- RELSEG_SIZE * BLCKSZ
    integer_datetimes boolean,
    settings          jsonb      -- every setting not at its default, and the key ones always
);
COMMENT ON TABLE pgbenchx.environments IS 'the environments sweeps and runs were measured in';

-- One row per run_sweep() call: the ladder of client counts it runs.
CREATE TABLE pgbenchx.sweeps (
    sweep_id     bigint PRIMARY KEY
                 DEFAULT nextval('pgbenchx.id_seq'),
    status       text NOT NULL DEFAULT 'running'
                 CHECK (status IN ('running', 'completed', 'cancelled',
                                   'failed', 'aborted')),
    script       text NOT NULL,
    clients      int[] NOT NULL,
    duration     int,
    label        text,
    started_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz,
    protocol     text,
    jobs         int,            -- NULL: chosen per run
    transactions bigint,         -- per client, instead of a duration
    conninfo     text,           -- extra libpq parameters of the clients
    coordinator_pid int,         -- while running
    error        text,
    tags         jsonb,          -- free tags naming what is compared
    repeats      int NOT NULL DEFAULT 1, -- each client count run this many times, interleaved
    environment_id bigint REFERENCES pgbenchx.environments
);
COMMENT ON TABLE pgbenchx.sweeps IS 'one row per sweep of client counts';

-- One row per benchmark run (one client count for one duration).
CREATE TABLE pgbenchx.runs (
    run_id             bigint PRIMARY KEY
                       DEFAULT nextval('pgbenchx.id_seq'),
    sweep_id           bigint REFERENCES pgbenchx.sweeps ON DELETE CASCADE,
    status             text NOT NULL DEFAULT 'running'
                       CHECK (status IN ('running', 'completed', 'cancelled',
                                         'failed', 'aborted')),
    script             text NOT NULL,
    protocol           text NOT NULL DEFAULT 'simple'
                       CHECK (protocol IN ('simple', 'extended', 'prepared')),
    scale              int,
    clients            int NOT NULL,
    jobs               int NOT NULL,
    duration           int,
    started_at         timestamptz NOT NULL DEFAULT now(),
    finished_at        timestamptz,
    transactions       bigint,
    failed             bigint,
    tps                float8,   -- excluding initial connection time
    tps_incl_conn      float8,   -- including connections establishing
    latency_avg_ms     float8,
    latency_stddev_ms  float8,
    latency_p50_ms     float8,
    latency_p90_ms     float8,
    latency_p95_ms     float8,
    latency_p99_ms     float8,
    latency_max_ms     float8,
    conn_time_ms       float8,
    error              text,
    -- added beyond DESIGN.md's list
    label              text,
    transactions_per_client bigint,  -- -t; NULL when bounded by duration
    aborted_clients    int,
    driver_cpu_s       float8,   -- CPU seconds of the driver workers
    bench_duration_s   float8,   -- measured interval tps is computed over
    random_seed        numeric,
    conninfo           text,     -- the caller's extra conninfo
    coordinator_pid    int,      -- while running
    rate               float8,   -- -R target tps
    latency_limit_ms   float8,   -- -L
    max_tries          int,      -- --max-tries (0 = unlimited)
    connect_per_transaction boolean, -- -C
    serialization_failures bigint,
    deadlock_failures  bigint,
    retried            bigint,   -- transactions retried
    retries            bigint,   -- retries in all
    skipped            bigint,   -- -R with -L: too late to start
    late               bigint,   -- latency above -L
    lag_avg_ms         float8,   -- -R: schedule lag
    lag_max_ms         float8,
    tags               jsonb,
    repeat             int NOT NULL DEFAULT 1,  -- which repeat of a sweep's client count
    checkpoints        int,      -- checkpoints that happened during the run
    autovacuums        int,      -- autovacuum/autoanalyze runs during the run (its database)
    environment_id     bigint REFERENCES pgbenchx.environments,
    replay             boolean NOT NULL DEFAULT false,  -- run_replay: a transaction is a statement
    qpm                float8    -- run_replay: statements per minute until the last client finished
);

-- Per-statement latencies of each run, as pgbench -r reports them.
CREATE TABLE pgbenchx.statement_stats (
    run_id          bigint NOT NULL REFERENCES pgbenchx.runs ON DELETE CASCADE,
    script          text NOT NULL,
    command         int NOT NULL,       -- 1-based within the script
    command_text    text NOT NULL,      -- its first line, as -r shows it
    executions      bigint NOT NULL,
    latency_avg_ms  float8,             -- NULL for commands not timed (\set, \if ...)
    failures        bigint NOT NULL DEFAULT 0,
    retries         bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, script, command)
);
COMMENT ON TABLE pgbenchx.statement_stats IS 'per-statement latencies of every run (pgbench -r)';
CREATE INDEX runs_sweep_id_idx ON pgbenchx.runs (sweep_id);
COMMENT ON TABLE pgbenchx.runs IS 'one row per benchmark run';

-- One row per second of a run (second 1 is the first second).
CREATE TABLE pgbenchx.samples (
    run_id          bigint NOT NULL REFERENCES pgbenchx.runs ON DELETE CASCADE,
    second          int NOT NULL CHECK (second >= 1),
    transactions    bigint NOT NULL,
    tps             float8,
    latency_avg_ms  float8,
    latency_p99_ms  float8,
    failed          bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, second)
);
COMMENT ON TABLE pgbenchx.samples IS 'per-second series of every run';

SELECT pg_catalog.pg_extension_config_dump('pgbenchx.environments', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.environments_environment_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.sweeps', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.runs', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.samples', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.statement_stats', '');

/*
 * pgbench_init: drops and recreates pgbench_branches, pgbench_tellers,
 * pgbench_accounts and pgbench_history in the current schema (the first
 * schema of search_path), exactly as "pgbench -i -s scale" with the same
 * options would, and fills them server-side.  Everything happens in the
 * caller's transaction: an error or a cancel leaves the old tables as they
 * were.  Returns pgbench's "done in ..." line with the time of each step.
 * Caller: a role granted EXECUTE that may drop the old tables (owner) and
 * create tables in the schema.
 */
CREATE FUNCTION pgbench_init(
    scale            int DEFAULT 1,
    fillfactor       int DEFAULT 100,
    partitions       int DEFAULT 0,
    partition_method text DEFAULT 'range',
    unlogged         boolean DEFAULT false,
    foreign_keys     boolean DEFAULT false)
RETURNS text
AS 'MODULE_PATHNAME', 'pgbench_init'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION pgbench_init(int, int, int, text, boolean, boolean) FROM PUBLIC;

/*
 * The benchmark engine.
 *
 * run_bench and run_sweep validate everything they can (arguments, the
 * pgbench tables, free connections and worker slots, a test login of the
 * clients), start a coordinator background worker, and return its id once
 * the run has really started.  They refuse to run inside a transaction
 * block.  The run continues after the calling session ends; wait for it
 * with CALL pgbenchx.wait(id), stop it with pgbenchx.cancel(id).
 * Callers: roles granted EXECUTE; clients log in as the calling role.
 */

-- One run of clients for duration seconds (or transactions per client).
-- Returns its run_id.
CREATE FUNCTION run_bench(
    clients      int,
    duration     int DEFAULT NULL,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_run_bench'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

-- One run per client count of pgbenchx.sweep_ladder(min_clients,
-- max_clients), one after the other.  Returns its sweep_id.
CREATE FUNCTION run_sweep(
    min_clients  int,
    max_clients  int,
    duration     int DEFAULT NULL,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL,
    repeats      int DEFAULT 1)
RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_run_sweep'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

-- The same, for an explicit list of client counts, in the order given.
CREATE FUNCTION run_sweep(
    clients      int[],
    duration     int DEFAULT NULL,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL,
    repeats      int DEFAULT 1)
RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_run_sweep_list'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

-- Replays a list of SQL statements (the text, or with from_file => true the
-- name of a server-side file, which needs pg_read_server_files) over the
-- client ladder of run_sweep(min_clients, max_clients): every client runs the
-- whole list once, in order or (shuffle) in an order of its own.  Each
-- statement counts as one transaction: runs.transactions is the statements
-- executed, runs.failed those that failed (counted, and the replay goes on),
-- runs.qpm the queries per minute; the completion time is bench_duration_s.
-- Returns the sweep_id.
CREATE FUNCTION run_replay(
    queries      text,
    min_clients  int,
    max_clients  int,
    from_file    boolean DEFAULT false,
    shuffle      boolean DEFAULT false,
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    tags         jsonb DEFAULT NULL,
    random_seed  bigint DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_run_replay'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

-- The client counts run_sweep(min, max, ...) runs: 1, 2, 4, 8, 12, 16, 20,
-- 24, 28, 32, 40, 48, 64, 80, then doubling, within [min, max], starting at
-- min and ending at max.
CREATE FUNCTION pgbenchx.sweep_ladder(min_clients int, max_clients int)
RETURNS int[]
AS 'MODULE_PATHNAME', 'pgbenchx_sweep_ladder'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Waits for a run or a sweep to end, printing a NOTICE about every 5 s and
-- one per finished run.  A procedure, so that it holds no snapshot while it
-- sleeps: call it with CALL, outside a transaction block.  Cancelling it
-- stops only the wait.
CREATE PROCEDURE pgbenchx.wait(id bigint)
AS 'MODULE_PATHNAME', 'pgbenchx_wait'
LANGUAGE C;

-- Stops a running run or sweep (a run of a sweep stops its sweep) within
-- about a second, keeping what was measured.  Returns true if a running
-- run or sweep was signalled.
CREATE FUNCTION pgbenchx.cancel(id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'pgbenchx_cancel'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

-- Evaluates one expression exactly as pgbench's \set would, with the given
-- variables (as pgbench -D: string values, typed lazily) and random seed
-- (one client: the values stock pgbench --random-seed gives client 0).
-- Returns pgbench's string form of the value, NULL for NULL.  debug()
-- prints a NOTICE.  Anyone granted EXECUTE may call it; it touches nothing.
CREATE FUNCTION pgbenchx.eval(expression text, variables jsonb DEFAULT '{}',
                              random_seed bigint DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'pgbenchx_eval'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL SAFE;

/*
 * Scripts.  The built-ins are pgbench's own, in C; scripts registered with
 * add_script live in pgbenchx.custom_scripts (kept by pg_dump).
 */
CREATE TABLE pgbenchx.custom_scripts (
    name        text PRIMARY KEY,
    body        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz
);
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.custom_scripts', '');

-- pgbench's built-in scripts: name, description, text.
CREATE FUNCTION pgbenchx.builtin_scripts(OUT name text, OUT description text, OUT body text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgbenchx_builtin_scripts'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Every script a run can use, built-in or registered.
CREATE VIEW pgbenchx.scripts AS
SELECT name, description, body, true AS builtin FROM pgbenchx.builtin_scripts()
UNION ALL
SELECT name, NULL, body, false FROM pgbenchx.custom_scripts;

-- Registers a script after checking it parses as pgbench would parse it
-- (a syntax error is refused with pgbench's line, column and caret);
-- replace => true replaces one of the same name.  Returns the name.
CREATE FUNCTION pgbenchx.add_script(name text, body text, replace boolean DEFAULT false)
RETURNS text
AS 'MODULE_PATHNAME', 'pgbenchx_add_script'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

-- Drops a registered script.
CREATE FUNCTION pgbenchx.drop_script(name text) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT AS $$
BEGIN
    DELETE FROM pgbenchx.custom_scripts s WHERE s.name = drop_script.name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no registered script named "%"', drop_script.name
            USING ERRCODE = 'undefined_object',
                  DETAIL = 'Built-in scripts cannot be dropped; registered ones are listed in pgbenchx.custom_scripts.',
                  HINT = 'SELECT name FROM pgbenchx.scripts WHERE NOT builtin lists them.';
    END IF;
END $$;

-- The text of a script, like pgbench --show-script (built-ins by prefix).
CREATE FUNCTION pgbenchx.script_text(name text) RETURNS text
AS 'MODULE_PATHNAME', 'pgbenchx_script_text'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- The live state of the run in progress, from any session.
CREATE VIEW pgbenchx.progress AS
SELECT r.run_id, r.sweep_id, r.script, r.clients, r.jobs, r.duration,
       round(extract(epoch FROM clock_timestamp() - r.started_at)::numeric, 1) AS elapsed_s,
       coalesce(s.transactions, 0) AS transactions,
       s.tps AS current_tps,
       s.latency_p99_ms AS current_p99_ms,
       s.seconds AS seconds_sampled
FROM pgbenchx.runs r
LEFT JOIN LATERAL (
    SELECT sum(x.transactions)::bigint AS transactions,
           (array_agg(x.tps ORDER BY x.second DESC))[1] AS tps,
           (array_agg(x.latency_p99_ms ORDER BY x.second DESC))[1] AS latency_p99_ms,
           max(x.second) AS seconds
    FROM pgbenchx.samples x WHERE x.run_id = r.run_id) s ON true
WHERE r.status = 'running';

REVOKE ALL ON FUNCTION run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.sweep_ladder(int, int) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint) FROM PUBLIC;
REVOKE ALL ON PROCEDURE pgbenchx.wait(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.cancel(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.eval(text, jsonb, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.builtin_scripts() FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.add_script(text, text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.drop_script(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.script_text(text) FROM PUBLIC;

/*
 * Pictures: SVG charts of sweeps and runs, and a text report for the
 * terminal.  Written in SQL and PL/pgSQL so that they read on their own;
 * they only read pgbenchx.sweeps, runs and samples.  Every piece of user
 * text (labels, script names) goes into the SVG through
 * pgbenchx.xml_escape, never spliced in as it is.  The SVG is
 * self-contained: no scripts, no external fonts or styles (font-family is
 * the generic sans-serif), so a browser, an image viewer or a document can
 * show it as a file.
 */

-- Text made safe for XML character data and attribute values: & < > " '
-- become entities, and the characters XML 1.0 forbids (control characters
-- other than tab, newline and carriage return; U+FFFE and U+FFFF) are
-- dropped.  Returns NULL for NULL.  Anyone granted EXECUTE may call it.
CREATE FUNCTION pgbenchx.xml_escape(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT replace(replace(replace(replace(replace(
           regexp_replace(
               CASE WHEN pg_catalog.getdatabaseencoding() = 'UTF8'
                    THEN translate(t, chr(65534) || chr(65535), '') ELSE t END,
               E'[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f]', '', 'g'),
           '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')
$$;

-- A round step for an axis from 0 (or lo) to span in about `intervals`
-- steps: 1, 2, 2.5 or 5 times a power of ten.  Used by the charts.
CREATE FUNCTION pgbenchx.chart_step(span float8, intervals int) RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT m * CASE WHEN r <= 1 THEN 1 WHEN r <= 2 THEN 2 WHEN r <= 2.5 THEN 2.5
                WHEN r <= 5 THEN 5 ELSE 10 END
FROM (SELECT raw / m AS r, m
      FROM (SELECT raw, 10 ^ floor(log(raw)) AS m
            FROM (SELECT greatest(span, 1e-9) / greatest(intervals, 1) AS raw) a) b) c
$$;

-- A tick label: v in thousands ("12.5k") when the axis goes to 10000 or
-- more, in millions ("2M") from 10 million, else as it is ("0.25", "800").
CREATE FUNCTION pgbenchx.chart_number(v float8, axis_top float8) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT CASE WHEN v = 0 THEN '0'
            WHEN axis_top >= 1e7 THEN trim_scale(round((v / 1e6)::numeric, 3))::text || 'M'
            WHEN axis_top >= 1e4 THEN trim_scale(round((v / 1e3)::numeric, 3))::text || 'k'
            ELSE trim_scale(round(v::numeric, 3))::text END
$$;

/*
 * chart_sweeps: an SVG of tps against the number of clients, one line per
 * sweep in the order given, with a marker per client count, the sweep's
 * label in the legend ("sweep N" without one), axis titles with units and
 * round ticks.  Only completed runs are drawn; the legend counts the others
 * (cancelled, failed, aborted, running) as "not drawn".  With repeats, the
 * point is the median tps of the client count's completed runs and a
 * whisker spans their min and max.
 *
 * The clients axis is log2 when the largest client count is at least 4
 * times the smallest (the ladder 1, 2, 4, 8 ... 80 then gets equal room per
 * doubling: on a linear axis 1, 2, 4 and 8 clients would share the first
 * tenth of the width), with ticks at the powers of two and at the smallest
 * and largest counts; else it is linear with round integer ticks.
 * Returns the SVG document as text.  Caller: a role granted EXECUTE that
 * may read pgbenchx.sweeps and pgbenchx.runs.
 */
CREATE FUNCTION pgbenchx.chart_sweeps(sweep_ids bigint[]) RETURNS text
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
DECLARE
    palette constant text[] := ARRAY['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e',
        '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
    w constant float8 := 900;          -- width
    px0 constant float8 := 90;         -- plot area: left, right, top, bottom
    px1 constant float8 := 870;
    py0 constant float8 := 70;
    py1 constant float8 := 410;
    pad constant float8 := 16;         -- inset of the first and last client count
    ids bigint[];
    missing bigint;
    missing_kind text;
    h float8;
    cmin int; cmax int;
    ymax float8; ystep float8; ytop float8;
    logx boolean;
    xa float8; xb float8;              -- x = xa + xb * f(clients)
    tick float8;
    last_x float8;
    xstep int;
    xp float8;
    yp float8;
    npts int;
    peak float8;
    peak_clients int;
    pts_all jsonb;
    durations text;
    svg text;
    legend text := '';
    plot text := '';
    subtitle text;
    any_repeats boolean;
    s record;
    p record;
    i int := 0;
    color text;
    pts text;
    ly float8;
BEGIN
    IF sweep_ids IS NULL OR array_position(sweep_ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'sweep_ids must not be null or contain nulls'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'chart_sweeps draws one line per sweep id given.',
                  HINT = 'Pass the ids of sweeps, for example ARRAY[1, 17]; SELECT sweep_id, label FROM pgbenchx.sweeps lists them.';
    END IF;
    IF cardinality(sweep_ids) = 0 THEN
        RAISE EXCEPTION 'sweep_ids must not be empty'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'chart_sweeps draws one line per sweep id given, and none was given.',
                  HINT = 'Pass the ids of sweeps, for example ARRAY[1, 17]; SELECT sweep_id, label FROM pgbenchx.sweeps lists them.';
    END IF;

    -- the ids in the order given, each once
    SELECT array_agg(id ORDER BY ord) INTO ids
    FROM (SELECT id, min(ord) AS ord FROM unnest(sweep_ids) WITH ORDINALITY u(id, ord)
          GROUP BY id) d;

    SELECT u.id INTO missing FROM unnest(ids) WITH ORDINALITY u(id, ord)
    WHERE NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps sw WHERE sw.sweep_id = u.id)
    ORDER BY u.ord LIMIT 1;
    IF missing IS NOT NULL THEN
        missing_kind := CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.runs r WHERE r.run_id = missing)
                             THEN format('Id %s is a run, not a sweep: pgbenchx.chart_run(%s) draws it.', missing, missing)
                             ELSE format('pgbenchx.sweeps has no row with sweep_id %s.', missing) END;
        RAISE EXCEPTION 'no sweep has id %', missing
            USING ERRCODE = 'undefined_object',
                  DETAIL = missing_kind,
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;

    -- the points: per sweep (ord) and client count, over completed runs
    SELECT coalesce(jsonb_agg(jsonb_build_object('ord', ord, 'clients', clients,
               'med', med, 'lo', lo, 'hi', hi, 'n', n)), '[]')
    INTO pts_all
    FROM (SELECT u.ord, r.clients,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY r.tps) AS med,
                 min(r.tps) AS lo, max(r.tps) AS hi, count(*) AS n
          FROM unnest(ids) WITH ORDINALITY u(id, ord)
          JOIN pgbenchx.runs r ON r.sweep_id = u.id
          WHERE r.status = 'completed' AND r.tps IS NOT NULL
          GROUP BY u.ord, r.clients) q;

    SELECT min(clients), max(clients), max(hi), bool_or(n > 1)
    INTO cmin, cmax, ymax, any_repeats
    FROM jsonb_to_recordset(pts_all) AS q(clients int, hi float8, n int);
    IF cmin IS NULL THEN
        -- nothing completed: the x axis of the client counts planned
        SELECT min(c), max(c) INTO cmin, cmax
        FROM pgbenchx.sweeps sw, unnest(sw.clients) c WHERE sw.sweep_id = ANY (ids);
        cmin := coalesce(cmin, 1);
        cmax := coalesce(cmax, 1);
    END IF;

    -- y: 0 to a round top, about 6 intervals
    ystep := pgbenchx.chart_step(greatest(coalesce(ymax, 0), 1), 6);
    ytop := ystep * greatest(ceil(greatest(coalesce(ymax, 0), 1) / ystep), 1);

    -- x: log2 over a range of 4 times or more, else linear
    logx := cmax >= 4 * cmin;
    IF cmax = cmin THEN
        xb := 0;
        xa := (px0 + px1) / 2;
    ELSIF logx THEN
        xb := (px1 - px0 - 2 * pad) / (ln(cmax) - ln(cmin));
        xa := px0 + pad - xb * ln(cmin);
    ELSE
        xb := (px1 - px0 - 2 * pad) / (cmax - cmin);
        xa := px0 + pad - xb * cmin;
    END IF;

    h := py1 + 78 + 22 * cardinality(ids);

    SELECT string_agg(DISTINCT pgbenchx.xml_escape(sw.script), ', '),
           CASE WHEN count(DISTINCT sw.duration) = 1 AND min(sw.duration) IS NOT NULL
                THEN min(sw.duration) || ' s per run' END
    INTO subtitle, durations
    FROM pgbenchx.sweeps sw WHERE sw.sweep_id = ANY (ids);
    subtitle := 'script ' || subtitle || coalesce(', ' || durations, '')
        || CASE WHEN any_repeats THEN '; median of repeats, whiskers from min to max' ELSE '' END;

    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || E'\n<title>transactions per second by number of clients</title>'
        || format(E'\n<rect width="%s" height="%s" fill="#ffffff"/>', w, h)
        || format(E'\n<text class="title" x="%s" y="28" text-anchor="middle" font-size="17" font-weight="bold">Transactions per second by number of clients</text>', w / 2)
        || format(E'\n<text class="subtitle" x="%s" y="48" text-anchor="middle" fill="#555555">%s</text>', w / 2, subtitle);

    -- horizontal grid and tps ticks
    tick := 0;
    WHILE tick <= ytop * (1 + 1e-9) LOOP
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-y" x="%s" y="%s" text-anchor="end" fill="#333333">%s</text>',
                   px0, round((py1 - tick / ytop * (py1 - py0))::numeric, 1),
                   px1, round((py1 - tick / ytop * (py1 - py0))::numeric, 1),
                   px0 - 6, round((py1 - tick / ytop * (py1 - py0) + 4)::numeric, 1),
                   pgbenchx.chart_number(tick, ytop));
        tick := tick + ystep;
    END LOOP;

    -- client ticks: the smallest and largest counts, and between them the
    -- powers of two (log2) or round integers (linear) that leave room
    xstep := greatest(ceil(pgbenchx.chart_step(cmax - cmin, 8)), 1)::int;
    FOR tick IN
        SELECT t FROM (
            SELECT cmin::float8 AS t, 0 AS pri
            UNION SELECT cmax, 0
            UNION SELECT 2 ^ e, 1 FROM generate_series(0, 30) e
                WHERE logx AND 2 ^ e > cmin AND 2 ^ e < cmax
            UNION SELECT v * xstep, 1 FROM generate_series(1, 100) v
                WHERE NOT logx AND v * xstep > cmin AND v * xstep < cmax) q
        WHERE pri = 0
           OR (abs(xb * CASE WHEN logx THEN ln(t) - ln(cmin) ELSE t - cmin END) >= 24
               AND abs(xb * CASE WHEN logx THEN ln(cmax) - ln(t) ELSE cmax - t END) >= 24)
        ORDER BY t
    LOOP
        xp := xa + xb * CASE WHEN logx THEN ln(tick) ELSE tick END;
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-x" x="%s" y="%s" text-anchor="middle" fill="#333333">%s</text>',
                   round(xp::numeric, 1), py0, round(xp::numeric, 1), py1,
                   round(xp::numeric, 1), py1 + 18, tick::bigint);
    END LOOP;

    -- axes and their titles
    svg := svg || format(E'\n<path class="axis" d="M%s %sV%sH%s" fill="none" stroke="#333333"/>',
                         px0, py0, py1, px1)
        || format(E'\n<text class="axis-title" x="%s" y="%s" text-anchor="middle">%s</text>',
                  (px0 + px1) / 2, py1 + 40,
                  CASE WHEN logx THEN 'clients (log2 scale)' ELSE 'clients' END)
        || format(E'\n<text class="axis-title" transform="translate(%s %s) rotate(-90)" text-anchor="middle">transactions per second</text>',
                  24, (py0 + py1) / 2);

    -- one line, its markers and whiskers, and a legend entry per sweep
    FOR s IN
        SELECT u.ord, sw.sweep_id, sw.label,
               (SELECT count(*) FROM pgbenchx.runs r
                WHERE r.sweep_id = sw.sweep_id
                  AND (r.status <> 'completed' OR r.tps IS NULL)) AS not_drawn
        FROM unnest(ids) WITH ORDINALITY u(id, ord)
        JOIN pgbenchx.sweeps sw ON sw.sweep_id = u.id
        ORDER BY u.ord
    LOOP
        color := palette[1 + (s.ord - 1) % cardinality(palette)];
        pts := '';
        npts := 0;
        peak := NULL;
        FOR p IN
            SELECT * FROM jsonb_to_recordset(pts_all)
                AS q(ord int, clients int, med float8, lo float8, hi float8, n int)
            WHERE q.ord = s.ord ORDER BY q.clients
        LOOP
            xp := xa + xb * CASE WHEN logx THEN ln(p.clients) ELSE p.clients END;
            yp := py1 - p.med / ytop * (py1 - py0);
            pts := pts || CASE WHEN npts > 0 THEN ' ' ELSE '' END
                || round(xp::numeric, 1) || ',' || round(yp::numeric, 1);
            npts := npts + 1;
            IF peak IS NULL OR p.med > peak THEN
                peak := p.med;
                peak_clients := p.clients;
            END IF;
            IF p.n > 1 AND p.hi > p.lo THEN
                plot := plot || format(E'\n<path class="whisker" d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="%s" fill="none"/>',
                    round(xp::numeric, 1), round((py1 - p.lo / ytop * (py1 - py0))::numeric, 1),
                    round((py1 - p.hi / ytop * (py1 - py0))::numeric, 1),
                    round((xp - 4)::numeric, 1), round((py1 - p.lo / ytop * (py1 - py0))::numeric, 1),
                    round((xp + 4)::numeric, 1),
                    round((xp - 4)::numeric, 1), round((py1 - p.hi / ytop * (py1 - py0))::numeric, 1),
                    round((xp + 4)::numeric, 1), color);
            END IF;
            plot := plot || format(E'\n<circle class="point" cx="%s" cy="%s" r="3.5" fill="%s"><title>%s: %s %s, %s tps%s</title></circle>',
                round(xp::numeric, 1), round(yp::numeric, 1), color,
                pgbenchx.xml_escape(coalesce(s.label, 'sweep ' || s.sweep_id)), p.clients,
                CASE WHEN p.clients = 1 THEN 'client' ELSE 'clients' END,
                round(p.med::numeric, 1),
                CASE WHEN p.n > 1 THEN format(' (median of %s runs, %s to %s)', p.n,
                                              round(p.lo::numeric, 1), round(p.hi::numeric, 1))
                     ELSE '' END);
        END LOOP;
        IF npts > 0 THEN
            plot := format(E'\n<polyline class="sweep" data-sweep-id="%s" points="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"/>',
                           s.sweep_id, pts, color) || plot;
        END IF;
        svg := svg || plot;
        plot := '';

        ly := py1 + 70 + 22 * (s.ord - 1);
        legend := legend
            || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/><circle cx="%s" cy="%s" r="3.5" fill="%s"/>',
                      px0, ly - 4, px0 + 28, ly - 4, color, px0 + 14, ly - 4, color)
            || format('<text class="legend" x="%s" y="%s">%s<tspan fill="#555555"> (sweep %s: %s%s)</tspan></text>',
                      px0 + 36, ly,
                      pgbenchx.xml_escape(left(coalesce(s.label, 'sweep ' || s.sweep_id), 100)),
                      s.sweep_id,
                      CASE WHEN npts = 0 THEN 'no completed runs'
                           ELSE format('peak %s tps at %s clients', round(peak::numeric), peak_clients) END,
                      CASE WHEN s.not_drawn > 0
                           THEN format('; %s %s not completed, not drawn', s.not_drawn,
                                       CASE WHEN s.not_drawn = 1 THEN 'run' ELSE 'runs' END)
                           ELSE '' END);
    END LOOP;

    RETURN svg || legend || E'\n</svg>\n';
END $$;

/*
 * chart_run: an SVG of one run over time, as seed 001 draws it: tps in each
 * second (pgbenchx.samples, left axis) and the p99 latency of each second
 * in ms (right axis, dashed), with the run's overall tps as a dotted line.
 * Works on a run in progress too (the seconds so far).  Returns the SVG
 * document as text.  Caller: a role granted EXECUTE that may read
 * pgbenchx.runs and pgbenchx.samples.
 */
CREATE FUNCTION pgbenchx.chart_run(run_id bigint) RETURNS text
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
DECLARE
    tps_color constant text := '#1f77b4';
    p99_color constant text := '#d62728';
    w constant float8 := 900;
    px0 constant float8 := 90;
    px1 constant float8 := 810;
    py0 constant float8 := 70;
    py1 constant float8 := 410;
    h constant float8 := 520;
    r record;
    smax int;
    ymax float8; ystep float8; ytop float8; intervals int;
    lmax float8; lstep float8; ltop float8;
    xstep float8;
    tick float8;
    xp float8;
    i int;
    tps_pts text;
    p99_pts text;
    n_tps int;
    n_p99 int;
    markers text := '';
    svg text;
BEGIN
    IF chart_run.run_id IS NULL THEN
        RAISE EXCEPTION 'run_id must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'chart_run draws the per-second samples of one run.',
                  HINT = 'SELECT run_id, sweep_id, clients, status FROM pgbenchx.runs lists the runs.';
    END IF;
    SELECT * INTO r FROM pgbenchx.runs rr WHERE rr.run_id = chart_run.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no run has id %', chart_run.run_id
            USING ERRCODE = 'undefined_object',
                  DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.sweeps s WHERE s.sweep_id = chart_run.run_id)
                                THEN format('Id %s is a sweep, not a run: pgbenchx.chart_sweeps(ARRAY[%s]) draws it.',
                                            chart_run.run_id, chart_run.run_id)
                                ELSE format('pgbenchx.runs has no row with run_id %s.', chart_run.run_id) END,
                  HINT = 'SELECT run_id, sweep_id, clients, status FROM pgbenchx.runs lists the runs.';
    END IF;

    SELECT max(s.second), max(coalesce(s.tps, s.transactions)), max(s.latency_p99_ms)
    INTO smax, ymax, lmax
    FROM pgbenchx.samples s WHERE s.run_id = chart_run.run_id;
    IF smax IS NULL THEN
        RAISE EXCEPTION 'run % has no per-second samples', chart_run.run_id
            USING ERRCODE = 'no_data_found',
                  DETAIL = format('Its status is %s%s; samples are written from its first measured second on.',
                                  r.status, coalesce(': ' || r.error, '')),
                  HINT = 'Chart a run once it has run for a second; SELECT run_id, second FROM pgbenchx.samples shows which runs have samples.';
    END IF;

    -- left: tps from 0 to a round top in about 5 intervals; right: p99 ms
    -- with the same number of intervals, so that both share the grid lines
    ymax := greatest(coalesce(ymax, 0), r.tps, 1);
    ystep := pgbenchx.chart_step(ymax, 5);
    intervals := greatest(ceil(ymax / ystep), 1)::int;
    ytop := ystep * intervals;
    lmax := greatest(coalesce(lmax, 0), 0.001);
    lstep := pgbenchx.chart_step(lmax, intervals);
    WHILE lstep * intervals < lmax LOOP
        lstep := pgbenchx.chart_step(lstep * 1.01, 1);
    END LOOP;
    ltop := lstep * intervals;
    xstep := greatest(pgbenchx.chart_step(smax, 10), 1);

    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || E'\n<title>transactions per second and p99 latency over the run</title>'
        || format(E'\n<rect width="%s" height="%s" fill="#ffffff"/>', w, h)
        || format(E'\n<text class="title" x="%s" y="28" text-anchor="middle" font-size="17" font-weight="bold">Run %s: %s</text>',
                  w / 2, r.run_id, pgbenchx.xml_escape(coalesce(r.label, r.script)))
        || format(E'\n<text class="subtitle" x="%s" y="48" text-anchor="middle" fill="#555555">%s</text>',
                  w / 2, pgbenchx.xml_escape(
                      concat_ws(', ', 'script ' || r.script, r.clients || ' clients',
                                r.jobs || CASE WHEN r.jobs = 1 THEN ' job' ELSE ' jobs' END,
                                r.protocol || ' protocol',
                                CASE WHEN r.sweep_id IS NOT NULL THEN 'sweep ' || r.sweep_id END,
                                r.status)));

    -- grid: tps ticks on the left, p99 ticks on the right
    FOR i IN 0 .. intervals LOOP
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-y" x="%s" y="%s" text-anchor="end" fill="%s">%s</text>'
                             '<text class="tick-y2" x="%s" y="%s" text-anchor="start" fill="%s">%s</text>',
                   px0, round((py1 - i * (py1 - py0) / intervals)::numeric, 1),
                   px1, round((py1 - i * (py1 - py0) / intervals)::numeric, 1),
                   px0 - 6, round((py1 - i * (py1 - py0) / intervals + 4)::numeric, 1),
                   tps_color, pgbenchx.chart_number(i * ystep, ytop),
                   px1 + 6, round((py1 - i * (py1 - py0) / intervals + 4)::numeric, 1),
                   p99_color, pgbenchx.chart_number(i * lstep, ltop));
    END LOOP;
    tick := 0;
    WHILE tick <= smax LOOP
        xp := px0 + tick / smax * (px1 - px0);
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-x" x="%s" y="%s" text-anchor="middle" fill="#333333">%s</text>',
                   round(xp::numeric, 1), py0, round(xp::numeric, 1), py1,
                   round(xp::numeric, 1), py1 + 18, pgbenchx.chart_number(tick, 0));
        tick := tick + xstep;
    END LOOP;

    svg := svg || format(E'\n<path class="axis" d="M%s %sV%sH%sV%s" fill="none" stroke="#333333"/>',
                         px0, py0, py1, px1, py0)
        || format(E'\n<text class="axis-title" x="%s" y="%s" text-anchor="middle">time since all clients connected (s)</text>',
                  (px0 + px1) / 2, py1 + 40)
        || format(E'\n<text class="axis-title" transform="translate(%s %s) rotate(-90)" text-anchor="middle" fill="%s">transactions per second</text>',
                  24, (py0 + py1) / 2, tps_color)
        || format(E'\n<text class="axis-title" transform="translate(%s %s) rotate(90)" text-anchor="middle" fill="%s">p99 latency (ms)</text>',
                  w - 24, (py0 + py1) / 2, p99_color);

    -- second s is drawn at x = s: the end of the second it counts
    SELECT string_agg(round((px0 + s.second::float8 / smax * (px1 - px0))::numeric, 1) || ','
                      || round((py1 - coalesce(s.tps, s.transactions) / ytop * (py1 - py0))::numeric, 1),
                      ' ' ORDER BY s.second),
           count(*),
           string_agg(round((px0 + s.second::float8 / smax * (px1 - px0))::numeric, 1) || ','
                      || round((py1 - s.latency_p99_ms / ltop * (py1 - py0))::numeric, 1),
                      ' ' ORDER BY s.second) FILTER (WHERE s.latency_p99_ms IS NOT NULL),
           count(s.latency_p99_ms)
    INTO tps_pts, n_tps, p99_pts, n_p99
    FROM pgbenchx.samples s WHERE s.run_id = chart_run.run_id;

    IF r.tps IS NOT NULL THEN
        svg := svg || format(E'\n<line class="run-tps" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-dasharray="2 3" opacity="0.7"/>',
                             px0, round((py1 - r.tps / ytop * (py1 - py0))::numeric, 1),
                             px1, round((py1 - r.tps / ytop * (py1 - py0))::numeric, 1), tps_color);
    END IF;
    svg := svg || format(E'\n<polyline class="tps" points="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"/>',
                         tps_pts, tps_color);
    IF n_p99 > 0 THEN
        svg := svg || format(E'\n<polyline class="p99" points="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-dasharray="6 3" stroke-linejoin="round"/>',
                             p99_pts, p99_color);
    END IF;
    -- short runs: a marker per second, so that even 1 or 2 seconds show
    IF n_tps <= 60 THEN
        SELECT string_agg(format(E'\n<circle class="tps-point" cx="%s" cy="%s" r="3" fill="%s"><title>second %s: %s tps, p99 %s ms</title></circle>',
                                 round((px0 + s.second::float8 / smax * (px1 - px0))::numeric, 1),
                                 round((py1 - coalesce(s.tps, s.transactions) / ytop * (py1 - py0))::numeric, 1),
                                 tps_color, s.second, round(coalesce(s.tps, s.transactions)::numeric, 1),
                                 coalesce(round(s.latency_p99_ms::numeric, 3)::text, '-')),
                          '' ORDER BY s.second)
        INTO markers
        FROM pgbenchx.samples s WHERE s.run_id = chart_run.run_id;
        svg := svg || markers;
    END IF;

    -- legend
    svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/><text class="legend" x="%s" y="%s">transactions per second</text>',
                         px0, h - 34, px0 + 28, h - 34, tps_color, px0 + 36, h - 30)
        || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" stroke-dasharray="6 3"/><text class="legend" x="%s" y="%s">p99 latency of each second (ms)</text>',
                  px0 + 230, h - 34, px0 + 258, h - 34, p99_color, px0 + 266, h - 30)
        || CASE WHEN r.tps IS NOT NULL THEN
               format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-dasharray="2 3"/><text class="legend" x="%s" y="%s">whole run: %s tps, p99 %s ms</text>',
                      px0 + 480, h - 34, px0 + 508, h - 34, tps_color, px0 + 516, h - 30,
                      round(r.tps::numeric, 1), coalesce(trim_scale(round(r.latency_p99_ms::numeric, 3))::text, '-'))
           ELSE '' END;

    RETURN svg || E'\n</svg>\n';
END $$;

/*
 * sweep_report: a sweep as a table for psql, one row per client count:
 * the completed runs counted, the tps (the median over repeats), the p99
 * latency in ms (the median over repeats) and a bar of up to 40 characters
 * proportional to tps / the sweep's highest tps (block characters in a
 * UTF8 database, '#' otherwise).  A client count with no completed run has
 * NULL figures and its runs' statuses in place of the bar.  Caller: a role
 * granted EXECUTE that may read pgbenchx.sweeps and pgbenchx.runs.
 */
CREATE FUNCTION pgbenchx.sweep_report(sweep_id bigint)
RETURNS TABLE (clients int, runs int, tps numeric, p99_ms numeric, bar text)
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
#variable_conflict use_column
DECLARE
    utf8 constant boolean := pg_catalog.getdatabaseencoding() = 'UTF8';
    width constant int := 40;
BEGIN
    IF sweep_report.sweep_id IS NULL THEN
        RAISE EXCEPTION 'sweep_id must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'sweep_report shows one sweep.',
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps x WHERE x.sweep_id = sweep_report.sweep_id) THEN
        RAISE EXCEPTION 'no sweep has id %', sweep_report.sweep_id
            USING ERRCODE = 'undefined_object',
                  DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.runs r WHERE r.run_id = sweep_report.sweep_id)
                                THEN format('Id %s is a run, not a sweep.', sweep_report.sweep_id)
                                ELSE format('pgbenchx.sweeps has no row with sweep_id %s.', sweep_report.sweep_id) END,
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;

    RETURN QUERY
    WITH per AS (
        SELECT r.clients,
               count(*) FILTER (WHERE r.status = 'completed' AND r.tps IS NOT NULL)::int AS n,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY r.tps)
                   FILTER (WHERE r.status = 'completed' AND r.tps IS NOT NULL) AS tps,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_p99_ms)
                   FILTER (WHERE r.status = 'completed' AND r.tps IS NOT NULL) AS p99,
               string_agg(DISTINCT r.status, ', ') AS statuses
        FROM pgbenchx.runs r
        WHERE r.sweep_id = sweep_report.sweep_id
        GROUP BY r.clients),
    top AS (SELECT max(per.tps) AS m FROM per)
    SELECT per.clients, per.n, round(per.tps::numeric, 1), round(per.p99::numeric, 3),
           CASE
               WHEN per.n = 0 THEN '(' || per.statuses || ')'
               WHEN top.m <= 0 THEN ''
               WHEN utf8 THEN
                   repeat(U&'\2588', floor(per.tps / top.m * width)::int)
                   || coalesce((ARRAY[U&'\258F', U&'\258E', U&'\258D', U&'\258C',
                                      U&'\258B', U&'\258A', U&'\2589'])
                                   [floor((per.tps / top.m * width - floor(per.tps / top.m * width)) * 8)::int], '')
               ELSE repeat('#', round(per.tps / top.m * width)::int)
           END
    FROM per, top
    ORDER BY per.clients;
END $$;

REVOKE ALL ON FUNCTION pgbenchx.xml_escape(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.chart_step(float8, int) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.chart_number(float8, float8) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.chart_sweeps(bigint[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.chart_run(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.sweep_report(bigint) FROM PUBLIC;
