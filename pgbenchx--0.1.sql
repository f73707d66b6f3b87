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
    environment_id     bigint REFERENCES pgbenchx.environments
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

/*
 * Environments.  The coordinator captures the environment at the start of
 * every sweep and of every run (src/environment.c) and sets their
 * environment_id; these functions capture it on demand and compare.
 */

-- Captures the environment now, as this server process sees it (OS, CPU,
-- memory, virtualization, file systems and mount options of data_directory
-- and pg_wal, version() and build facts, settings not at their default plus
-- the key ones), inserts it into pgbenchx.environments unless a row with the
-- same env_hash exists, and returns its environment_id.  Caller: a role
-- granted EXECUTE, with INSERT on pgbenchx.environments and USAGE on its
-- sequence.
CREATE FUNCTION pgbenchx.capture_environment() RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_capture_environment'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

-- The environment_id of a sweep or a run (one sequence numbers both).
-- Refuses an id that names neither, and one whose environment was not
-- recorded.  Caller: a role that may read pgbenchx.sweeps and runs.
CREATE FUNCTION pgbenchx.environment_of(id bigint) RETURNS bigint
LANGUAGE plpgsql STABLE STRICT AS $$
DECLARE
    env  bigint;
    kind text := 'sweep';
BEGIN
    SELECT s.environment_id INTO env FROM pgbenchx.sweeps s WHERE s.sweep_id = id;
    IF NOT FOUND THEN
        kind := 'run';
        SELECT r.environment_id INTO env FROM pgbenchx.runs r WHERE r.run_id = id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'no run or sweep has id %', id
                USING ERRCODE = 'undefined_object',
                      HINT = 'SELECT run_id, sweep_id, status FROM pgbenchx.runs lists them.';
        END IF;
    END IF;
    IF env IS NULL THEN
        RAISE EXCEPTION '% % has no recorded environment', kind, id
            USING ERRCODE = 'no_data_found',
                  DETAIL = 'None was recorded when it started; a capture that fails leaves a WARNING in the server log.',
                  HINT = 'Compare with a sweep or run that has an environment_id.';
    END IF;
    RETURN env;
END $$;

-- What differs between the environments of two sweeps or runs (a and b are
-- sweep or run ids): one row per differing attribute of
-- pgbenchx.environments, in column order, then one per differing setting as
-- 'setting:<name>', by name.  A NULL value: not recorded on that side (for
-- a setting: at its default there).  The id, env_hash and captured_at are
-- not compared.  No rows: the same environment.
CREATE FUNCTION pgbenchx.env_diff(a bigint, b bigint)
RETURNS TABLE (attribute text, a text, b text)
LANGUAGE sql STABLE STRICT AS $$
WITH ea AS (SELECT pg_catalog.to_jsonb(e) AS j FROM pgbenchx.environments e
            WHERE e.environment_id = pgbenchx.environment_of($1)),
     eb AS (SELECT pg_catalog.to_jsonb(e) AS j FROM pgbenchx.environments e
            WHERE e.environment_id = pgbenchx.environment_of($2)),
     d AS (
        SELECT att.attname::text AS attribute, att.attnum::int AS ord, ''::text AS setting,
               ea.j ->> att.attname::text AS va, eb.j ->> att.attname::text AS vb
        FROM pg_catalog.pg_attribute att, ea, eb
        WHERE att.attrelid = 'pgbenchx.environments'::pg_catalog.regclass
          AND att.attnum > 0 AND NOT att.attisdropped
          AND att.attname NOT IN ('environment_id', 'env_hash', 'captured_at', 'settings')
        UNION ALL
        SELECT 'setting:' || k.name, 32767, k.name,
               ea.j -> 'settings' ->> k.name, eb.j -> 'settings' ->> k.name
        FROM ea, eb,
             (SELECT pg_catalog.jsonb_object_keys(ea.j -> 'settings') FROM ea
              UNION
              SELECT pg_catalog.jsonb_object_keys(eb.j -> 'settings') FROM eb) AS k(name))
SELECT d.attribute, d.va, d.vb FROM d
WHERE d.va IS DISTINCT FROM d.vb
ORDER BY d.ord, d.setting
$$;

REVOKE ALL ON FUNCTION run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.sweep_ladder(int, int) FROM PUBLIC;
REVOKE ALL ON PROCEDURE pgbenchx.wait(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.cancel(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.eval(text, jsonb, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.builtin_scripts() FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.add_script(text, text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.drop_script(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.script_text(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.capture_environment() FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.environment_of(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.env_diff(bigint, bigint) FROM PUBLIC;
