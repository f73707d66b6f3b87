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
 * Nothing here is executable by PUBLIC: a superuser grants what a runner
 * needs with SELECT pgbenchx.grant_runner('role') (see README,
 * "Privileges").  Runners only read the tables; every write goes through
 * the extension's functions, which check ownership and write as the
 * extension's owner.
 */

\echo Use "CREATE EXTENSION pgbenchx" to load this file. \quit

/*
 * search_path (PostgreSQL's "Security Considerations for Extensions"): no
 * object another role created may run in place of a pg_catalog one.  Every
 * SQL and PL/pgSQL function carries SET search_path = pg_catalog, pg_temp and
 * names the extension's own objects with their schema; check_tpcb, which must
 * find the pgbench tables through the caller's search_path, qualifies every
 * function, operator and type instead.  Views and column defaults are bound
 * while this script runs, with the target schema (often public) on
 * search_path: in them every operator and function call is either an exact
 * match of pg_catalog's (which is searched first) or qualified, as
 * OPERATOR(pg_catalog.>) or pg_catalog.format(...).  The SQL that the C code
 * sends follows the same rule (src/searchpath.c).
 */

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
                 DEFAULT pg_catalog.nextval('pgbenchx.id_seq'::pg_catalog.regclass),
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
    environment_id bigint REFERENCES pgbenchx.environments,
    owner        name            -- the role that started it (cancel follows pg_cancel_backend's rule)
);
COMMENT ON TABLE pgbenchx.sweeps IS 'one row per sweep of client counts';

-- One row per benchmark run (one client count for one duration).
CREATE TABLE pgbenchx.runs (
    run_id             bigint PRIMARY KEY
                       DEFAULT pg_catalog.nextval('pgbenchx.id_seq'::pg_catalog.regclass),
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
    qpm                float8,   -- run_replay: statements per minute until the last client finished
    tpcb_consistent    boolean,  -- check_tpcb => true: the TPC-B invariant held over the run; NULL if not checked
    owner              name,     -- the role that started it (cancel follows pg_cancel_backend's rule)
    notices            bigint,   -- notices and warnings the server sent the clients (never logged)
    notice_samples     text[],   -- the first few of them, each cut to 200 bytes
    samples_lost       int,      -- seconds whose samples were lost (the coordinator could not write for longer than the ring): not stored
    samples_lost_transactions bigint  -- transactions in no stored sample: sum(samples.transactions) + this = transactions
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
    tags         jsonb DEFAULT NULL,
    check_tpcb   boolean DEFAULT false)
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
    repeats      int DEFAULT 1,
    check_tpcb   boolean DEFAULT false)
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
    repeats      int DEFAULT 1,
    check_tpcb   boolean DEFAULT false)
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

-- The TPC-B invariant on the pgbench tables of the caller's search_path:
-- every tpcb-like transaction adds the same delta to one account, one teller
-- and one branch and logs it in pgbench_history, so sum(abalance) =
-- sum(tbalance) = sum(bbalance) = sum(delta) as long as history is only
-- appended to (run_bench's vacuum => true truncates it before every run, as
-- pgbench does: from then on the history part no longer holds; see
-- run_bench(..., check_tpcb => true), which checks per run).  Reads the four
-- tables in one snapshot; run it while no run is writing them.
-- Caller: a role granted EXECUTE that may read the pgbench tables.
CREATE FUNCTION pgbenchx.check_tpcb(
    OUT accounts_sum bigint, OUT branches_sum bigint,
    OUT tellers_sum bigint, OUT history_sum bigint, OUT consistent boolean)
RETURNS record
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED AS $$
-- Not pinned to a search_path: the pgbench tables are found through the
-- caller's, as pgbench finds them.  So every function, operator and type
-- here is qualified with pg_catalog, and nothing else can resolve to an
-- object of another schema.
DECLARE
    missing pg_catalog.text;
BEGIN
    SELECT pg_catalog.string_agg(u.t, ', ' ORDER BY u.ord) INTO missing
    FROM pg_catalog.unnest(ARRAY['pgbench_accounts', 'pgbench_branches', 'pgbench_tellers',
                                 'pgbench_history']::pg_catalog.text[]) WITH ORDINALITY u(t, ord)
    WHERE pg_catalog.to_regclass(u.t) IS NULL;
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'the pgbench tables are missing'
            USING ERRCODE = 'undefined_table',
                  DETAIL = pg_catalog.format('Not found in search_path (%s): %s.',
                                             pg_catalog.current_setting('search_path'), missing),
                  HINT = 'Create them first, for example with SELECT pgbench_init(scale => 10), or set search_path to their schema.';
    END IF;
    SELECT (SELECT coalesce(pg_catalog.sum(a.abalance), 0) FROM pgbench_accounts a),
           (SELECT coalesce(pg_catalog.sum(b.bbalance), 0) FROM pgbench_branches b),
           (SELECT coalesce(pg_catalog.sum(t.tbalance), 0) FROM pgbench_tellers t),
           (SELECT coalesce(pg_catalog.sum(h.delta), 0) FROM pgbench_history h)
      INTO accounts_sum, branches_sum, tellers_sum, history_sum;
    consistent := accounts_sum OPERATOR(pg_catalog.=) branches_sum
                  AND branches_sum OPERATOR(pg_catalog.=) tellers_sum
                  AND tellers_sum OPERATOR(pg_catalog.=) history_sum;
END
$$;

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
    updated_at  timestamptz,
    owner       name NOT NULL   -- the role that registered it
);
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.custom_scripts', '');

-- pgbench's built-in scripts: name, description, text.
CREATE FUNCTION pgbenchx.builtin_scripts(OUT name text, OUT description text, OUT body text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgbenchx_builtin_scripts'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Every script a run can use, built-in or registered (with its owner).
CREATE VIEW pgbenchx.scripts AS
SELECT name, description, body, true AS builtin, NULL::name AS owner FROM pgbenchx.builtin_scripts()
UNION ALL
SELECT name, NULL, body, false, owner FROM pgbenchx.custom_scripts;

-- Registers a script after checking it parses as pgbench would parse it
-- (a syntax error is refused with pgbench's line, column and caret);
-- replace => true replaces one of the same name.  Returns the name.  The
-- caller becomes its owner; only a role with the privileges of the owner
-- (the owner, its members, superusers) replaces or drops it, and runs it.
-- No name may be a built-in's or a prefix of one (built-ins resolve first).
CREATE FUNCTION pgbenchx.add_script(name text, body text, replace boolean DEFAULT false)
RETURNS text
AS 'MODULE_PATHNAME', 'pgbenchx_add_script'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

-- Drops a registered script, if the caller has the privileges of its owner.
-- In C: the check tests the caller itself, and only the delete runs as the
-- extension's owner (runners cannot write custom_scripts).
CREATE FUNCTION pgbenchx.drop_script(name text) RETURNS void
AS 'MODULE_PATHNAME', 'pgbenchx_drop_script'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

-- The text of a script, like pgbench --show-script (built-ins by prefix).
CREATE FUNCTION pgbenchx.script_text(name text) RETURNS text
AS 'MODULE_PATHNAME', 'pgbenchx_script_text'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- Whether pid is a live pgbenchx coordinator, from the server's background
-- worker slots: the same answer for every role (pg_stat_activity hides
-- other roles' rows from a role without pg_read_all_stats).  NULL: false.
CREATE FUNCTION pgbenchx.coordinator_alive(pid int) RETURNS boolean
AS 'MODULE_PATHNAME', 'pgbenchx_coordinator_alive'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED;

-- The role in effect outside every SECURITY DEFINER function: import,
-- which runs as the extension's owner, records it as the owner of what it
-- loads.  Internal: runners are not granted it.
CREATE FUNCTION pgbenchx.caller_role() RETURNS name
AS 'MODULE_PATHNAME', 'pgbenchx_caller_role'
LANGUAGE C STABLE PARALLEL RESTRICTED;

-- The live state of the run in progress, from any session.
CREATE VIEW pgbenchx.progress AS
SELECT r.run_id, r.sweep_id, r.script, r.clients, r.jobs, r.duration,
       pg_catalog.round(extract(epoch FROM pg_catalog.clock_timestamp() OPERATOR(pg_catalog.-) r.started_at)::numeric, 1) AS elapsed_s,
       coalesce(s.transactions, 0) AS transactions,
       s.tps AS current_tps,
       s.latency_p99_ms AS current_p99_ms,
       s.seconds AS seconds_sampled
FROM pgbenchx.runs r
LEFT JOIN LATERAL (
    SELECT pg_catalog.sum(x.transactions)::bigint AS transactions,
           (pg_catalog.array_agg(x.tps ORDER BY x.second DESC))[1] AS tps,
           (pg_catalog.array_agg(x.latency_p99_ms ORDER BY x.second DESC))[1] AS latency_p99_ms,
           pg_catalog.max(x.second) AS seconds
    FROM pgbenchx.samples x WHERE x.run_id OPERATOR(pg_catalog.=) r.run_id) s ON true
WHERE r.status OPERATOR(pg_catalog.=) 'running'
  -- a run whose coordinator is gone (immediate shutdown, crash) is not in
  -- progress; pgbenchx.wait, pgbenchx.cancel or the next run mark it aborted
  AND pgbenchx.coordinator_alive(r.coordinator_pid);

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
-- granted EXECUTE; the row is written as the extension's owner.
CREATE FUNCTION pgbenchx.capture_environment() RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_capture_environment'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

-- The environment_id of a sweep or a run (one sequence numbers both).
-- Refuses an id that names neither, and one whose environment was not
-- recorded.  Caller: a role that may read pgbenchx.sweeps and runs.
CREATE FUNCTION pgbenchx.environment_of(id bigint) RETURNS bigint
SET search_path = pg_catalog, pg_temp
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
SET search_path = pg_catalog, pg_temp
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

REVOKE ALL ON FUNCTION run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.sweep_ladder(int, int) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint) FROM PUBLIC;
REVOKE ALL ON PROCEDURE pgbenchx.wait(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.cancel(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.check_tpcb() FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.eval(text, jsonb, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.builtin_scripts() FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.add_script(text, text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.drop_script(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.script_text(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.coordinator_alive(int) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.caller_role() FROM PUBLIC;

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
SET search_path = pg_catalog, pg_temp
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
SET search_path = pg_catalog, pg_temp
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
SET search_path = pg_catalog, pg_temp
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
SET search_path = pg_catalog, pg_temp
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
SET search_path = pg_catalog, pg_temp
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
SET search_path = pg_catalog, pg_temp
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

/*
 * Provenance of imported results (pgbenchx.import): one row per sweep or
 * run that came from another database, naming the server (its
 * pg_control_system() system identifier), the database and the id it was
 * measured under.  That origin is unique: importing the same document
 * twice finds it and adds nothing.  A sweep or run exported again from
 * here keeps its first origin.  Deleting the sweep deletes its rows here.
 */
CREATE TABLE pgbenchx.imports (
    origin_system_identifier bigint NOT NULL,  -- the server that measured it
    origin_database text NOT NULL,
    origin_id       bigint NOT NULL,           -- its sweep_id or run_id there
    sweep_id        bigint UNIQUE REFERENCES pgbenchx.sweeps ON DELETE CASCADE,  -- here
    run_id          bigint UNIQUE REFERENCES pgbenchx.runs ON DELETE CASCADE,    -- here
    exported_from_system_identifier bigint NOT NULL,  -- the server the document came from
    exported_from_database text NOT NULL,
    exported_at     timestamptz,
    exported_pgbenchx_version text,
    imported_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (origin_system_identifier, origin_database, origin_id),
    CHECK ((sweep_id IS NULL) <> (run_id IS NULL))
);
COMMENT ON TABLE pgbenchx.imports IS 'where imported sweeps and runs were measured, and their ids there';
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.imports', '');

/*
 * Comparing.  Only completed runs count.  A point is one client count of one
 * sweep; with repeats (run_sweep(..., repeats => N)) it has N runs and its
 * tps is their median (percentile_cont(0.5): the mean of the middle two for
 * an even N).
 */

-- One row per (sweep, client count) with completed runs: n runs, the
-- median, min and max tps, spread = (max - min) / median, the median p99
-- latency, the checkpoints and autovacuum runs that fell inside its runs,
-- and whether the point is unstable, with the reason: its spread exceeds
-- pgbenchx.unstable_spread (default 0.10 = 10%), or a checkpoint happened
-- during one of its runs.  Readable by roles granted SELECT.
CREATE VIEW pgbenchx.sweep_points AS
WITH pts AS (
    SELECT r.sweep_id, r.clients,
           pg_catalog.count(*)::int AS n,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.tps) AS median_tps,
           pg_catalog.min(r.tps) AS min_tps,
           pg_catalog.max(r.tps) AS max_tps,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.latency_p99_ms) AS median_p99_ms,
           pg_catalog.sum(r.checkpoints)::int AS checkpoints,
           pg_catalog.sum(r.autovacuums)::int AS autovacuums,
           pg_catalog.array_agg(r.run_id ORDER BY r.run_id) AS run_ids,
           pg_catalog.array_agg(r.run_id ORDER BY r.run_id) FILTER (WHERE r.checkpoints OPERATOR(pg_catalog.>) 0) AS checkpoint_run_ids
    FROM pgbenchx.runs r
    WHERE r.status OPERATOR(pg_catalog.=) 'completed' AND r.sweep_id IS NOT NULL
    GROUP BY r.sweep_id, r.clients
), thr AS (
    SELECT coalesce(nullif(pg_catalog.current_setting('pgbenchx.unstable_spread', true), ''::text)::float8,
                    0.10::float8) AS spread
), flagged AS (
    SELECT p.*,
           (p.max_tps OPERATOR(pg_catalog.-) p.min_tps) OPERATOR(pg_catalog./) nullif(p.median_tps, 0::float8) AS spread,
           t.spread AS threshold
    FROM pts p CROSS JOIN thr t
)
SELECT f.sweep_id, f.clients, f.n, f.median_tps, f.min_tps, f.max_tps, f.spread,
       f.median_p99_ms, f.checkpoints, f.autovacuums,
       coalesce(f.spread OPERATOR(pg_catalog.>) f.threshold, false) OR f.checkpoint_run_ids IS NOT NULL AS unstable,
       nullif(pg_catalog.concat_ws('; ',
           CASE WHEN f.spread OPERATOR(pg_catalog.>) f.threshold THEN
               pg_catalog.format('spread %s%% > %s%%', pg_catalog.round((f.spread OPERATOR(pg_catalog.*) 100::float8)::numeric, 1)::float8,
                      pg_catalog.round((f.threshold OPERATOR(pg_catalog.*) 100::float8)::numeric, 2)::float8) END,
           CASE WHEN f.checkpoint_run_ids IS NOT NULL THEN
               pg_catalog.format('checkpoint during run%s %s',
                      CASE WHEN pg_catalog.cardinality(f.checkpoint_run_ids) OPERATOR(pg_catalog.>) 1 THEN 's' ELSE '' END,
                      pg_catalog.array_to_string(f.checkpoint_run_ids, ', ')) END), ''::text) AS unstable_reason,
       f.run_ids
FROM flagged f;
COMMENT ON VIEW pgbenchx.sweep_points IS 'per sweep and client count: median, min, max and spread of tps over repeats, and unstable points';

-- One row per sweep: its peak tps (the highest median of a point) and the
-- client count reaching it (the lowest on a tie), the tps at the highest
-- client count measured and its percent of the peak (seed 003: "79% of
-- peak at 64 connections"), its runs, unstable points, where it came from
-- when imported, and the key facts of its environment (NULL when none was
-- recorded).  Readable by roles granted SELECT.
CREATE VIEW pgbenchx.sweep_summary AS
SELECT s.sweep_id, s.label, s.status, s.script, s.repeats,
       (SELECT pg_catalog.count(*) FROM pgbenchx.runs r WHERE r.sweep_id OPERATOR(pg_catalog.=) s.sweep_id)::int AS runs,
       (SELECT pg_catalog.count(*) FROM pgbenchx.runs r WHERE r.sweep_id OPERATOR(pg_catalog.=) s.sweep_id AND r.status OPERATOR(pg_catalog.=) 'completed')::int AS completed_runs,
       pk.median_tps AS peak_tps,
       pk.clients AS peak_clients,
       hi.clients AS highest_clients,
       hi.median_tps AS tps_at_highest,
       pg_catalog.round((100::float8 OPERATOR(pg_catalog.*) hi.median_tps OPERATOR(pg_catalog./) nullif(pk.median_tps, 0::float8))::numeric, 1) AS pct_of_peak_at_highest,
       (SELECT pg_catalog.count(*) FROM pgbenchx.sweep_points p WHERE p.sweep_id OPERATOR(pg_catalog.=) s.sweep_id AND p.unstable)::int AS unstable_points,
       s.tags,
       s.started_at,
       s.environment_id,
       e.os_sysname, e.os_release, e.data_fstype, e.data_mount_options,
       e.cpu_model, e.cpu_count,
       e.settings OPERATOR(pg_catalog.->>) 'shared_buffers'::text AS shared_buffers,
       i.origin_system_identifier
FROM pgbenchx.sweeps s
LEFT JOIN LATERAL (
    SELECT p.clients, p.median_tps FROM pgbenchx.sweep_points p
    WHERE p.sweep_id OPERATOR(pg_catalog.=) s.sweep_id ORDER BY p.median_tps DESC NULLS LAST, p.clients LIMIT 1) pk ON true
LEFT JOIN LATERAL (
    SELECT p.clients, p.median_tps FROM pgbenchx.sweep_points p
    WHERE p.sweep_id OPERATOR(pg_catalog.=) s.sweep_id ORDER BY p.clients DESC LIMIT 1) hi ON true
LEFT JOIN pgbenchx.environments e ON e.environment_id OPERATOR(pg_catalog.=) s.environment_id
LEFT JOIN pgbenchx.imports i ON i.sweep_id OPERATOR(pg_catalog.=) s.sweep_id;
COMMENT ON VIEW pgbenchx.sweep_summary IS 'per sweep: peak tps, percent of peak at the highest client count, environment';

-- compare(sweep_a, sweep_b): one row per client count measured (completed
-- runs) in either sweep: the median tps of each (1 decimal), ratio =
-- tps_b / tps_a (4 decimals), pct_diff = 100 * (tps_b - tps_a) / tps_a
-- (2 decimals), and the median p99 latency of each (ms, 3 decimals); ratio
-- and pct_diff are computed before rounding.  sweep_points has the
-- unrounded medians.  A count measured in only one sweep has
-- NULLs for the other.  An unknown id is an ERROR.  Callers: roles granted
-- EXECUTE and SELECT on the results.
CREATE FUNCTION pgbenchx.compare(sweep_a bigint, sweep_b bigint)
RETURNS TABLE (clients int, tps_a float8, tps_b float8, ratio float8,
               pct_diff float8, p99_a float8, p99_b float8)
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
#variable_conflict use_column
DECLARE
    arg text;
    id bigint;
BEGIN
    FOREACH arg IN ARRAY ARRAY['sweep_a', 'sweep_b'] LOOP
        id := CASE arg WHEN 'sweep_a' THEN compare.sweep_a ELSE compare.sweep_b END;
        IF id IS NULL THEN
            RAISE EXCEPTION 'argument "%" must not be null', arg
                USING ERRCODE = 'null_value_not_allowed',
                      HINT = 'Pass the sweep_id of a sweep.';
        END IF;
        IF NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps s WHERE s.sweep_id = id) THEN
            RAISE EXCEPTION 'no sweep has id %', id
                USING ERRCODE = 'undefined_object',
                      DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.runs r WHERE r.run_id = id)
                                    THEN format('%s is the id of a run, not of a sweep (argument "%s").', id, arg)
                                    ELSE format('pgbenchx.sweeps has no row with sweep_id %s (argument "%s").', id, arg) END,
                      HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweep_summary lists the sweeps.';
        END IF;
    END LOOP;

    RETURN QUERY
    SELECT coalesce(a.clients, b.clients),
           round(a.median_tps::numeric, 1)::float8, round(b.median_tps::numeric, 1)::float8,
           round((b.median_tps / nullif(a.median_tps, 0))::numeric, 4)::float8,
           round((100 * (b.median_tps - a.median_tps) / nullif(a.median_tps, 0))::numeric, 2)::float8,
           round(a.median_p99_ms::numeric, 3)::float8, round(b.median_p99_ms::numeric, 3)::float8
    FROM (SELECT p.* FROM pgbenchx.sweep_points p WHERE p.sweep_id = compare.sweep_a) a
    FULL JOIN (SELECT p.* FROM pgbenchx.sweep_points p WHERE p.sweep_id = compare.sweep_b) b
        ON a.clients = b.clients
    ORDER BY 1;
END $$;

/*
 * Across servers.  export() writes sweeps with everything measured under
 * them into one jsonb document; import() loads such a document into this
 * database under new ids.  The document:
 *   { "format": "pgbenchx-export", "format_version": 1,
 *     "provenance": { "system_identifier", "database", "exported_at",
 *                     "pgbenchx_version", "server_version" },
 *     "environments": [...], "sweeps": [...], "runs": [...],
 *     "samples": [...], "statement_stats": [...], "imports": [...] }
 * Each array holds the table rows as to_jsonb() writes them; "imports"
 * carries the origin of sweeps and runs that were themselves imported.
 */

-- export(sweep_ids): the sweeps (in the order given, duplicates once),
-- all their runs (whatever their status), samples, per-statement
-- latencies, the environments they reference, and provenance.  Unknown ids
-- and running sweeps are refused.  Callers: roles granted EXECUTE and
-- SELECT on the results.
CREATE FUNCTION pgbenchx.export(sweep_ids bigint[])
RETURNS jsonb
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
DECLARE
    ids bigint[];
    missing bigint[];
    running bigint;
BEGIN
    IF sweep_ids IS NULL OR cardinality(sweep_ids) = 0 THEN
        RAISE EXCEPTION 'no sweep to export'
            USING ERRCODE = CASE WHEN sweep_ids IS NULL THEN 'null_value_not_allowed' ELSE 'invalid_parameter_value' END,
                  DETAIL = 'sweep_ids must name at least one sweep.',
                  HINT = 'Pass ARRAY[sweep_id, ...]; SELECT sweep_id, label FROM pgbenchx.sweep_summary lists them.';
    END IF;
    IF array_position(sweep_ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'sweep_ids must not contain NULL'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Pass only the sweep_id of existing sweeps.';
    END IF;
    SELECT array_agg(u.id ORDER BY u.first) INTO ids
    FROM (SELECT x.id, min(x.ord) AS first
          FROM unnest(sweep_ids) WITH ORDINALITY x(id, ord) GROUP BY x.id) u;
    SELECT array_agg(x ORDER BY x) INTO missing
    FROM unnest(ids) x WHERE NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps s WHERE s.sweep_id = x);
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION '%', CASE WHEN cardinality(missing) = 1 THEN 'no sweep has id ' || missing[1]
                                   ELSE 'no sweeps have ids ' || array_to_string(missing, ', ') END
            USING ERRCODE = 'undefined_object',
                  DETAIL = 'Only sweeps can be exported, with all their runs.',
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweep_summary lists the sweeps.';
    END IF;
    SELECT s.sweep_id INTO running FROM pgbenchx.sweeps s
    WHERE s.sweep_id = ANY (ids) AND s.status = 'running' ORDER BY 1 LIMIT 1;
    IF running IS NOT NULL THEN
        RAISE EXCEPTION 'sweep % is still running', running
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'An export holds finished sweeps only: what it holds must not change after it is taken.',
                  HINT = format('CALL pgbenchx.wait(%s), then export it.', running);
    END IF;

    RETURN jsonb_build_object(
        'format', 'pgbenchx-export',
        'format_version', 1,
        'provenance', jsonb_build_object(
            'system_identifier', (SELECT c.system_identifier::text FROM pg_catalog.pg_control_system() c),
            'database', current_database(),
            'exported_at', now(),
            'pgbenchx_version', (SELECT x.extversion FROM pg_catalog.pg_extension x WHERE x.extname = 'pgbenchx'),
            'server_version', current_setting('server_version')),
        'environments', coalesce((
            SELECT jsonb_agg(to_jsonb(e) ORDER BY e.environment_id)
            FROM pgbenchx.environments e
            WHERE e.environment_id IN (
                SELECT s.environment_id FROM pgbenchx.sweeps s WHERE s.sweep_id = ANY (ids)
                UNION
                SELECT r.environment_id FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids))), '[]'),
        'sweeps', (
            SELECT jsonb_agg(to_jsonb(s) ORDER BY array_position(ids, s.sweep_id))
            FROM pgbenchx.sweeps s WHERE s.sweep_id = ANY (ids)),
        'runs', coalesce((
            SELECT jsonb_agg(to_jsonb(r) ORDER BY r.run_id)
            FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids)), '[]'),
        'samples', coalesce((
            SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.second)
            FROM pgbenchx.samples x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'statement_stats', coalesce((
            SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.script, x.command)
            FROM pgbenchx.statement_stats x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'imports', coalesce((
            SELECT jsonb_agg(jsonb_build_object(
                       'sweep_id', i.sweep_id, 'run_id', i.run_id,
                       'origin_system_identifier', i.origin_system_identifier::text,
                       'origin_database', i.origin_database,
                       'origin_id', i.origin_id)
                   ORDER BY i.sweep_id, i.run_id)
            FROM pgbenchx.imports i
            WHERE i.sweep_id = ANY (ids)
               OR i.run_id IN (SELECT r.run_id FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids))), '[]'));
END $$;

-- import(doc): loads a document written by export() into this database.
-- Sweeps and runs get new ids from pgbenchx.id_seq; environments are
-- matched by env_hash (an existing one is reused); each sweep and run
-- records its origin in pgbenchx.imports.  A sweep whose origin is already
-- there is not loaded again.  Returns the local sweep_ids, in the
-- document's order (new or existing).  A malformed document is refused
-- before anything is loaded.  Callers: roles granted EXECUTE (grant_runner).
-- SECURITY DEFINER: it writes as the extension's owner (runners only read
-- the results); the sweeps and runs it loads belong to the caller
-- (pgbenchx.caller_role()), whatever owner the document names.
CREATE FUNCTION pgbenchx.import(doc jsonb)
RETURNS bigint[]
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    prov jsonb;
    src_sysid bigint;
    src_db text;
    k text;
    want text;
    req text[];
    bad record;
    e jsonb;
    o jsonb;
    lo numeric;
    hi numeric;
    nullable boolean;
    imports_by_sweep jsonb;
    imports_by_run jsonb;
    old_ids text[] := '{}';
    new_ids bigint[] := '{}';
    new_id bigint;
    existing bigint;
    env_cols text;
    env_map jsonb := '{}';
    sweep_map jsonb := '{}';
    run_map jsonb := '{}';
    result bigint[] := '{}';
    hint_export CONSTANT text := 'Pass the jsonb that pgbenchx.export() returned, unchanged.';
BEGIN
    -- the document as a whole
    IF doc IS NULL THEN
        RAISE EXCEPTION 'argument "doc" must not be null'
            USING ERRCODE = 'null_value_not_allowed', HINT = hint_export;
    END IF;
    IF jsonb_typeof(doc) <> 'object' THEN
        RAISE EXCEPTION 'the import document must be a JSON object, not %', jsonb_typeof(doc)
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    IF doc->'format' IS DISTINCT FROM '"pgbenchx-export"' THEN
        RAISE EXCEPTION 'not a pgbenchx export document'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format('Its key "format" is %s, not "pgbenchx-export".', coalesce((doc->'format')::text, 'missing')),
                  HINT = hint_export;
    END IF;
    IF doc->'format_version' IS DISTINCT FROM '1' THEN
        RAISE EXCEPTION 'unsupported export format version %', coalesce((doc->'format_version')::text, '(missing)')
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'This pgbenchx reads format version 1.',
                  HINT = 'Export the sweeps again with this version of pgbenchx, or import them with the version that exported them.';
    END IF;
    FOREACH k IN ARRAY ARRAY['provenance', 'environments', 'sweeps', 'runs', 'samples', 'statement_stats'] LOOP
        IF NOT doc ? k THEN
            RAISE EXCEPTION 'the import document lacks the key "%"', k
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = 'A pgbenchx export holds provenance, environments, sweeps, runs, samples and statement_stats.',
                      HINT = hint_export;
        END IF;
        want := CASE k WHEN 'provenance' THEN 'object' ELSE 'array' END;
        IF jsonb_typeof(doc->k) <> want THEN
            RAISE EXCEPTION 'key "%" of the import document must be an %, not %', k, want, jsonb_typeof(doc->k)
                USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
        END IF;
    END LOOP;
    IF doc ? 'imports' AND jsonb_typeof(doc->'imports') <> 'array' THEN
        RAISE EXCEPTION 'key "imports" of the import document must be an array, not %', jsonb_typeof(doc->'imports')
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    prov := doc->'provenance';
    IF coalesce(prov->>'system_identifier', '') !~ '^[0-9]{1,20}$'
       OR jsonb_typeof(prov->'database') IS DISTINCT FROM 'string' THEN
        RAISE EXCEPTION 'the provenance of the import document is incomplete'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'provenance needs "system_identifier" (digits) and "database" (a string): where the results come from.',
                  HINT = hint_export;
    END IF;
    src_sysid := (prov->>'system_identifier')::numeric::bigint;
    src_db := prov->>'database';
    IF jsonb_array_length(doc->'sweeps') = 0 THEN
        RAISE EXCEPTION 'the import document holds no sweep'
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;

    -- every element: an object with the keys it needs
    FOR k, req IN VALUES
        ('environments', ARRAY['environment_id', 'env_hash']),
        ('sweeps', ARRAY['sweep_id', 'status', 'script', 'clients', 'started_at']),
        ('runs', ARRAY['run_id', 'sweep_id', 'status', 'script', 'clients', 'jobs', 'started_at']),
        ('samples', ARRAY['run_id', 'second', 'transactions']),
        ('statement_stats', ARRAY['run_id', 'script', 'command', 'command_text', 'executions'])
    LOOP
        SELECT x.i, x.e, key INTO bad
        FROM jsonb_array_elements(doc->k) WITH ORDINALITY x(e, i)
        LEFT JOIN LATERAL unnest(req) key
            ON jsonb_typeof(x.e) = 'object' AND coalesce(jsonb_typeof(x.e->key), 'null') = 'null'
        WHERE jsonb_typeof(x.e) <> 'object' OR key IS NOT NULL
        ORDER BY x.i LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'element % of "%" in the import document %', bad.i, k,
                  CASE WHEN jsonb_typeof(bad.e) <> 'object' THEN 'is not an object'
                       WHEN bad.e ? bad.key THEN format('has a null "%s"', bad.key)
                       ELSE format('lacks the key "%s"', bad.key) END
                USING ERRCODE = CASE WHEN jsonb_typeof(bad.e) = 'object' AND bad.e ? bad.key
                                     THEN 'null_value_not_allowed' ELSE 'invalid_parameter_value' END,
                      DETAIL = format('Each element of "%s" needs %s.', k, array_to_string(req, ', ')),
                      HINT = hint_export;
        END IF;
    END LOOP;

    -- references inside the document, and nothing unfinished
    SELECT x->>'sweep_id' AS id INTO bad FROM jsonb_array_elements(doc->'sweeps') x
    GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'sweep % appears twice in the import document', bad.id
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    SELECT x->>'run_id' AS id INTO bad FROM jsonb_array_elements(doc->'runs') x
    GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'run % appears twice in the import document', bad.id
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    SELECT 'sweep' AS what, x->>'sweep_id' AS id INTO bad FROM jsonb_array_elements(doc->'sweeps') x
    WHERE x->>'status' = 'running'
    UNION ALL
    SELECT 'run', x->>'run_id' FROM jsonb_array_elements(doc->'runs') x
    WHERE x->>'status' = 'running'
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% % of the import document is still running', bad.what, bad.id
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Only finished sweeps and runs can be imported.',
                  HINT = 'Export the sweep again once it has finished.';
    END IF;
    SELECT format('run %s names sweep %s', x->>'run_id', x->>'sweep_id') AS what INTO bad
    FROM jsonb_array_elements(doc->'runs') x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'sweeps') s WHERE s->'sweep_id' = x->'sweep_id')
    UNION ALL
    SELECT format('a sample names run %s', x->>'run_id') FROM jsonb_array_elements(doc->'samples') x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a statement_stats row names run %s', x->>'run_id') FROM jsonb_array_elements(doc->'statement_stats') x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('%s names environment %s', coalesce('run ' || (x->>'run_id'), 'sweep ' || (x->>'sweep_id')), x->>'environment_id')
    FROM (SELECT s FROM jsonb_array_elements(doc->'sweeps') s
          UNION ALL SELECT r - 'sweep_id' FROM jsonb_array_elements(doc->'runs') r) y(x)
    WHERE coalesce(jsonb_typeof(x->'environment_id'), 'null') <> 'null'
      AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'environments') v WHERE v->'environment_id' = x->'environment_id')
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'the import document is inconsistent: % that it does not hold', bad.what
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;

    -- every value one that a run could have produced (nullable: true, it may
    -- be null or absent; NULL, it may be absent), refused with the
    -- errcodes of the bad-input table before anything is loaded: integers
    -- in range (22004 null, 22023 not an integer or too small, 22003 too
    -- large), client lists, statuses, protocols, tags, timestamps.  Each
    -- check is one pass over its array: the time grows linearly.
    FOR k, want, lo, hi, nullable IN VALUES
        ('environments', 'environment_id', 1, 9223372036854775807, false),
        ('sweeps', 'sweep_id', 1, 9223372036854775807, false),
        ('sweeps', 'environment_id', 1, 9223372036854775807, true),
        ('sweeps', 'duration', 1, 2147483647, true),
        ('sweeps', 'transactions', 1, 9223372036854775807, true),
        ('sweeps', 'jobs', 1, 2147483647, true),
        ('sweeps', 'repeats', 1, 256, true),
        ('runs', 'run_id', 1, 9223372036854775807, false),
        ('runs', 'sweep_id', 1, 9223372036854775807, false),
        ('runs', 'environment_id', 1, 9223372036854775807, true),
        ('runs', 'clients', 1, 100000, false),
        ('runs', 'jobs', 1, 100000, false),
        ('runs', 'duration', 1, 2147483647, true),
        ('runs', 'transactions_per_client', 1, 9223372036854775807, true),
        ('runs', 'scale', 1, 2147483647, true),
        ('runs', 'repeat', 1, 256, true),
        ('runs', 'max_tries', 0, 2147483647, true),
        ('runs', 'transactions', 0, 9223372036854775807, true),
        ('runs', 'failed', 0, 9223372036854775807, true),
        ('runs', 'aborted_clients', 0, 100000, true),
        ('runs', 'serialization_failures', 0, 9223372036854775807, true),
        ('runs', 'deadlock_failures', 0, 9223372036854775807, true),
        ('runs', 'retried', 0, 9223372036854775807, true),
        ('runs', 'retries', 0, 9223372036854775807, true),
        ('runs', 'skipped', 0, 9223372036854775807, true),
        ('runs', 'late', 0, 9223372036854775807, true),
        ('runs', 'checkpoints', 0, 2147483647, true),
        ('runs', 'autovacuums', 0, 2147483647, true),
        ('runs', 'samples_lost', 0, 2147483647, true),
        ('runs', 'samples_lost_transactions', 0, 9223372036854775807, true),
        ('samples', 'run_id', 1, 9223372036854775807, false),
        ('samples', 'second', 1, 2147483647, false),
        ('samples', 'transactions', 0, 9223372036854775807, false),
        ('samples', 'failed', 0, 9223372036854775807, NULL),
        ('statement_stats', 'run_id', 1, 9223372036854775807, false),
        ('statement_stats', 'command', 1, 2147483647, false),
        ('statement_stats', 'executions', 0, 9223372036854775807, false),
        ('statement_stats', 'failures', 0, 9223372036854775807, NULL),
        ('statement_stats', 'retries', 0, 9223372036854775807, NULL)
    LOOP
        SELECT x.i, x.e->want AS v INTO bad
        FROM pg_catalog.jsonb_array_elements(doc->k) WITH ORDINALITY x(e, i)
        WHERE NOT ((coalesce(nullable, false) AND coalesce(pg_catalog.jsonb_typeof(x.e->want), 'null') = 'null')
                   OR (nullable IS NULL AND NOT x.e ? want)
                   OR (pg_catalog.jsonb_typeof(x.e->want) = 'number'
                       AND (x.e->>want) OPERATOR(pg_catalog.~) '^-?[0-9]+$'
                       AND (x.e->>want)::numeric OPERATOR(pg_catalog.>=) lo
                       AND (x.e->>want)::numeric OPERATOR(pg_catalog.<=) hi))
        ORDER BY x.i LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION '"%" of element % of "%" in the import document is %', want, bad.i, k,
                  CASE WHEN coalesce(pg_catalog.jsonb_typeof(bad.v), 'null') = 'null' THEN 'null'
                       WHEN pg_catalog.jsonb_typeof(bad.v) <> 'number' OR bad.v::text !~ '^-?[0-9]+$'
                           THEN 'not an integer: ' || pg_catalog.left(bad.v::text, 40)
                       WHEN bad.v::text::numeric < lo THEN pg_catalog.format('%s, below %s', bad.v, lo)
                       ELSE pg_catalog.format('%s, above %s', bad.v, hi) END
                USING ERRCODE = CASE WHEN coalesce(pg_catalog.jsonb_typeof(bad.v), 'null') = 'null' THEN '22004'
                                     WHEN pg_catalog.jsonb_typeof(bad.v) = 'number' AND bad.v::text ~ '^-?[0-9]+$'
                                          AND bad.v::text::numeric > hi THEN '22003'
                                     ELSE '22023' END,
                      DETAIL = pg_catalog.format('"%s" of "%s" is an integer from %s to %s%s.', want, k, lo, hi,
                                                 CASE WHEN nullable THEN ', or null'
                                                      WHEN nullable IS NULL THEN ', or absent' ELSE '' END),
                      HINT = hint_export;
        END IF;
    END LOOP;
    -- a sweep's clients: a one-dimensional list of 1 to 256 client counts
    SELECT y.i, y.why, y.code INTO bad FROM (
        SELECT x.i,
               CASE WHEN pg_catalog.jsonb_typeof(x.e->'clients') <> 'array' THEN 'is not an array'
                    WHEN pg_catalog.jsonb_array_length(x.e->'clients') = 0 THEN 'is empty'
                    WHEN pg_catalog.jsonb_array_length(x.e->'clients') > 256 THEN 'has more than 256 client counts'
                    ELSE (SELECT CASE pg_catalog.jsonb_typeof(c) WHEN 'array' THEN 'is multidimensional'
                                      WHEN 'null' THEN 'holds a NULL'
                                      ELSE 'holds ' || pg_catalog.left(c::text, 40) || ', not a client count from 1 to 100000' END
                          FROM pg_catalog.jsonb_array_elements(x.e->'clients') c
                          WHERE pg_catalog.jsonb_typeof(c) IS DISTINCT FROM 'number' OR c::text !~ '^[0-9]+$'
                             OR c::text::numeric NOT BETWEEN 1 AND 100000
                          LIMIT 1) END AS why,
               CASE WHEN pg_catalog.jsonb_typeof(x.e->'clients') = 'array'
                         AND pg_catalog.jsonb_array_length(x.e->'clients') > 0 THEN
                   (SELECT CASE WHEN pg_catalog.jsonb_typeof(c) = 'array' THEN '2202E'
                                WHEN pg_catalog.jsonb_typeof(c) = 'null' THEN '22004'
                                WHEN pg_catalog.jsonb_typeof(c) = 'number' AND c::text ~ '^[0-9]+$' THEN '22003'
                                ELSE '22023' END
                    FROM pg_catalog.jsonb_array_elements(x.e->'clients') c
                    WHERE pg_catalog.jsonb_typeof(c) IS DISTINCT FROM 'number' OR c::text !~ '^[0-9]+$'
                       OR c::text::numeric NOT BETWEEN 1 AND 100000
                    LIMIT 1) END AS code
        FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY x(e, i)) y
    WHERE y.why IS NOT NULL ORDER BY y.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"clients" of element % of "sweeps" in the import document %', bad.i, bad.why
            USING ERRCODE = coalesce(bad.code, '22023'),
                  DETAIL = 'A sweep''s clients are a one-dimensional list of 1 to 256 client counts, each from 1 to 100000.',
                  HINT = hint_export;
    END IF;
    -- statuses, protocols and tags as a run records them
    SELECT y.k, y.i, y.key, y.v INTO bad FROM (
        SELECT 'sweeps' AS k, x.i, x.e FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY x(e, i)
        UNION ALL
        SELECT 'runs', x.i, x.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY x(e, i)) z,
        LATERAL (SELECT z.k, z.i, f.key, z.e->f.key AS v FROM (VALUES ('status'), ('protocol'), ('tags')) f(key)) y
    WHERE CASE y.key
            WHEN 'status' THEN coalesce(y.v->>0, '') NOT IN ('completed', 'cancelled', 'failed', 'aborted')
                               OR pg_catalog.jsonb_typeof(y.v) <> 'string'
            WHEN 'protocol' THEN coalesce(pg_catalog.jsonb_typeof(y.v), 'null') <> 'null'
                               AND (pg_catalog.jsonb_typeof(y.v) <> 'string'
                                    OR y.v->>0 NOT IN ('simple', 'extended', 'prepared'))
            ELSE coalesce(pg_catalog.jsonb_typeof(y.v), 'null') NOT IN ('null', 'object') END
    ORDER BY y.k DESC, y.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"%" of element % of "%" in the import document is not valid: %', bad.key, bad.i, bad.k,
              pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A status is completed, cancelled, failed or aborted; a protocol simple, extended or prepared; tags a JSON object.',
                  HINT = hint_export;
    END IF;
    -- timestamps: finite, and timestamps
    BEGIN
        SELECT y.what, y.t INTO bad FROM (
            SELECT pg_catalog.format('"%s" of element %s of "%s"', f.key, x.i, x.k) AS what, x.e->f.key AS t
            FROM (SELECT 'sweeps' AS k, s.i, s.e FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY s(e, i)
                  UNION ALL
                  SELECT 'runs', r.i, r.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY r(e, i)) x,
                 (VALUES ('started_at'), ('finished_at')) f(key)
            UNION ALL
            SELECT '"exported_at" of the provenance', prov->'exported_at') y
        WHERE coalesce(pg_catalog.jsonb_typeof(y.t), 'null') NOT IN ('string', 'null')
           OR (pg_catalog.jsonb_typeof(y.t) = 'string' AND NOT pg_catalog.isfinite((y.t->>0)::timestamptz))
        LIMIT 1;
    EXCEPTION WHEN data_exception THEN
        RAISE EXCEPTION 'a timestamp of the import document is not valid: %', SQLERRM
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'started_at, finished_at and exported_at are finite timestamps.',
                  HINT = hint_export;
    END;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not a finite timestamp: %', bad.what, pg_catalog.left(bad.t::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'started_at, finished_at and exported_at are finite timestamps.',
                  HINT = hint_export;
    END IF;
    -- one sample per second of a run, one row per command
    SELECT pg_catalog.format('second %s of run %s', x->>'second', x->>'run_id') AS what INTO bad
    FROM pg_catalog.jsonb_array_elements(doc->'samples') x
    GROUP BY x->'run_id', x->'second', x->>'second', x->>'run_id' HAVING count(*) > 1 LIMIT 1;
    IF NOT FOUND THEN
        SELECT pg_catalog.format('command %s of script %s of run %s', x->>'command', x->>'script', x->>'run_id') AS what INTO bad
        FROM pg_catalog.jsonb_array_elements(doc->'statement_stats') x
        GROUP BY x->'run_id', x->'script', x->'command', x->>'command', x->>'script', x->>'run_id'
        HAVING count(*) > 1 LIMIT 1;
    END IF;
    IF FOUND THEN
        RAISE EXCEPTION '% appears twice in the import document', bad.what
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    -- the imports of the document, each origin found by key (hashed, once)
    SELECT pg_catalog.jsonb_object_agg(i->>'sweep_id', i) FILTER (WHERE i->>'sweep_id' IS NOT NULL),
           pg_catalog.jsonb_object_agg(i->>'run_id', i) FILTER (WHERE i->>'run_id' IS NOT NULL)
    INTO imports_by_sweep, imports_by_run
    FROM (SELECT DISTINCT ON (coalesce(i->>'sweep_id', ''), coalesce(i->>'run_id', '')) i
          FROM pg_catalog.jsonb_array_elements(coalesce(doc->'imports', '[]')) WITH ORDINALITY x(i, n)
          WHERE pg_catalog.jsonb_typeof(i) = 'object'
          ORDER BY coalesce(i->>'sweep_id', ''), coalesce(i->>'run_id', ''), n) d;

    -- one import at a time, so that two loading the same sweeps cannot both add them
    LOCK TABLE pgbenchx.imports IN SHARE ROW EXCLUSIVE MODE;

    -- environments: reuse the one with the same env_hash, else add it under a
    -- new id, with the columns the element has (the others take their defaults)
    FOR e IN SELECT x FROM jsonb_array_elements(doc->'environments') x LOOP
        SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO env_cols
        FROM pg_catalog.pg_attribute a
        WHERE a.attrelid = 'pgbenchx.environments'::regclass AND a.attnum > 0
          AND NOT a.attisdropped AND a.attname <> 'environment_id' AND e ? a.attname;
        EXECUTE format('INSERT INTO pgbenchx.environments (%1$s) SELECT %1$s '
                       'FROM jsonb_populate_record(NULL::pgbenchx.environments, $1) '
                       'ON CONFLICT (env_hash) DO NOTHING', env_cols) USING e;
        SELECT v.environment_id INTO new_id FROM pgbenchx.environments v WHERE v.env_hash = e->>'env_hash';
        old_ids := pg_catalog.array_append(old_ids, e->>'environment_id');
        new_ids := pg_catalog.array_append(new_ids, new_id);
    END LOOP;
    -- the maps are built once (appending to a jsonb would copy it every time)
    SELECT coalesce(pg_catalog.jsonb_object_agg(o_id, n_id), '{}') INTO env_map
    FROM ROWS FROM (pg_catalog.unnest(old_ids), pg_catalog.unnest(new_ids)) m(o_id, n_id);
    old_ids := '{}';
    new_ids := '{}';

    -- sweeps: an origin already imported maps to its existing sweep
    FOR e IN SELECT x FROM jsonb_array_elements(doc->'sweeps') x LOOP
        o := coalesce(
            imports_by_sweep->(e->>'sweep_id'),
            jsonb_build_object('origin_system_identifier', src_sysid::text, 'origin_database', src_db,
                               'origin_id', e->'sweep_id'));
        SELECT i.sweep_id INTO existing FROM pgbenchx.imports i
        WHERE i.origin_system_identifier = (o->>'origin_system_identifier')::numeric::bigint
          AND i.origin_database = o->>'origin_database'
          AND i.origin_id = (o->>'origin_id')::bigint;
        IF FOUND THEN
            result := result || existing;
            CONTINUE;
        END IF;
        new_id := nextval('pgbenchx.id_seq');
        INSERT INTO pgbenchx.sweeps
        SELECT r.* FROM jsonb_populate_record(NULL::pgbenchx.sweeps,
            '{"repeats": 1}' || e || jsonb_build_object(
                'sweep_id', new_id, 'coordinator_pid', NULL, 'owner', pgbenchx.caller_role(),
                'environment_id', env_map->(e->>'environment_id'))) r;
        INSERT INTO pgbenchx.imports (origin_system_identifier, origin_database, origin_id, sweep_id,
                                      exported_from_system_identifier, exported_from_database,
                                      exported_at, exported_pgbenchx_version)
        VALUES ((o->>'origin_system_identifier')::numeric::bigint, o->>'origin_database',
                (o->>'origin_id')::bigint, new_id, src_sysid, src_db,
                (prov->>'exported_at')::timestamptz, prov->>'pgbenchx_version');
        old_ids := pg_catalog.array_append(old_ids, e->>'sweep_id');
        new_ids := pg_catalog.array_append(new_ids, new_id);
        result := result || new_id;
    END LOOP;
    SELECT coalesce(pg_catalog.jsonb_object_agg(o_id, n_id), '{}') INTO sweep_map
    FROM ROWS FROM (pg_catalog.unnest(old_ids), pg_catalog.unnest(new_ids)) m(o_id, n_id);
    old_ids := '{}';
    new_ids := '{}';

    -- the runs of the sweeps added, their samples and per-statement latencies
    FOR e IN SELECT x FROM jsonb_array_elements(doc->'runs') x
             WHERE sweep_map ? (x->>'sweep_id') ORDER BY (x->>'run_id')::bigint LOOP
        o := coalesce(
            imports_by_run->(e->>'run_id'),
            jsonb_build_object('origin_system_identifier', src_sysid::text, 'origin_database', src_db,
                               'origin_id', e->'run_id'));
        new_id := nextval('pgbenchx.id_seq');
        INSERT INTO pgbenchx.runs
        SELECT r.* FROM jsonb_populate_record(NULL::pgbenchx.runs,
            '{"protocol": "simple", "repeat": 1}' || e || jsonb_build_object(
                'run_id', new_id, 'sweep_id', sweep_map->(e->>'sweep_id'), 'coordinator_pid', NULL,
                'owner', pgbenchx.caller_role(),
                'environment_id', env_map->(e->>'environment_id'))) r;
        INSERT INTO pgbenchx.imports (origin_system_identifier, origin_database, origin_id, run_id,
                                      exported_from_system_identifier, exported_from_database,
                                      exported_at, exported_pgbenchx_version)
        VALUES ((o->>'origin_system_identifier')::numeric::bigint, o->>'origin_database',
                (o->>'origin_id')::bigint, new_id, src_sysid, src_db,
                (prov->>'exported_at')::timestamptz, prov->>'pgbenchx_version');
        old_ids := pg_catalog.array_append(old_ids, e->>'run_id');
        new_ids := pg_catalog.array_append(new_ids, new_id);
    END LOOP;
    SELECT coalesce(pg_catalog.jsonb_object_agg(o_id, n_id), '{}') INTO run_map
    FROM ROWS FROM (pg_catalog.unnest(old_ids), pg_catalog.unnest(new_ids)) m(o_id, n_id);
    INSERT INTO pgbenchx.samples
    SELECT r.* FROM jsonb_array_elements(doc->'samples') x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.samples,
             '{"failed": 0}' || x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');
    INSERT INTO pgbenchx.statement_stats
    SELECT r.* FROM jsonb_array_elements(doc->'statement_stats') x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.statement_stats,
             '{"failures": 0, "retries": 0}' || x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');

    RETURN result;
END $$;

REVOKE ALL ON FUNCTION pgbenchx.compare(bigint, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.export(bigint[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.import(jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.capture_environment() FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.environment_of(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.env_diff(bigint, bigint) FROM PUBLIC;

/*
 * Runners.  grant_runner(role) grants, in one call, exactly what a runner
 * needs: USAGE on the schema pgbenchx, EXECUTE on every function and
 * procedure of the extension (the entry points pgbench_init, run_bench,
 * both run_sweep and run_replay in the extension's schema, and the
 * pgbenchx routines) but those of runner_exclusions below, and SELECT on
 * every table and view of the extension.  Nothing else: no write privilege
 * (every write goes through the functions, which check ownership and write
 * as the extension's owner) and nothing on the sequences.  The list is
 * driven by the catalogue of the extension's members (pg_depend deptype
 * 'e'), so a routine added later is covered.  revoke_runner(role) revokes
 * every privilege the role holds on every member.  pgbench_init also needs
 * CREATE on the schema the pgbench tables go to, which neither gives.
 * Callers: a superuser or the extension's owner (a role with its
 * privileges); EXECUTE is not granted to anyone else.
 */
CREATE FUNCTION pgbenchx.grant_runner(role regrole) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    m record;
BEGIN
    FOR m IN SELECT * FROM pgbenchx.runner_members(role, 'grant_runner') LOOP
        IF m.kind = 'routine' AND NOT m.excluded THEN
            EXECUTE format('GRANT EXECUTE ON ROUTINE %s TO %s', m.object, role);
        ELSIF m.kind = 'table' THEN
            EXECUTE format('GRANT SELECT ON TABLE %s TO %s', m.object, role);
        ELSIF m.kind = 'schema' THEN
            EXECUTE format('GRANT USAGE ON SCHEMA %s TO %s', m.object, role);
        END IF;
    END LOOP;
END $$;

CREATE FUNCTION pgbenchx.revoke_runner(role regrole) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    m record;
BEGIN
    FOR m IN SELECT * FROM pgbenchx.runner_members(role, 'revoke_runner') LOOP
        EXECUTE format('REVOKE ALL ON %s %s FROM %s', upper(m.kind), m.object, role);
    END LOOP;
END $$;

-- The extension's members as grant_runner and revoke_runner see them, after
-- checking the caller and the role: kind (routine, table, sequence,
-- schema), the object's name as GRANT takes it, and whether a runner is
-- kept from it.  Internal.
CREATE FUNCTION pgbenchx.runner_members(role regrole, caller text,
                                        OUT kind text, OUT object text, OUT excluded boolean)
RETURNS SETOF record
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    ext_owner oid;
    -- routines a runner never gets: these, and internal helpers that only
    -- run inside SECURITY DEFINER functions
    runner_exclusions CONSTANT regprocedure[] := ARRAY[
        'pgbenchx.grant_runner(regrole)'::regprocedure,
        'pgbenchx.revoke_runner(regrole)'::regprocedure,
        'pgbenchx.runner_members(regrole, text)'::regprocedure,
        'pgbenchx.caller_role()'::regprocedure];
BEGIN
    IF role IS NULL THEN
        RAISE EXCEPTION 'argument "role" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = format('Pass a role: SELECT pgbenchx.%s(''alice'').', caller);
    END IF;
    IF role OPERATOR(pg_catalog.=) 0::oid::regrole THEN
        RAISE EXCEPTION 'pgbenchx.% takes a role, not PUBLIC', caller
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Nothing of pgbenchx is granted to PUBLIC; name the role that may benchmark.';
    END IF;
    SELECT e.extowner INTO ext_owner FROM pg_catalog.pg_extension e
    WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::name;
    IF NOT pg_catalog.pg_has_role(current_user, ext_owner, 'USAGE') THEN
        RAISE EXCEPTION 'permission denied for pgbenchx.%', caller
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = format('Only a superuser or the owner of extension pgbenchx (role %s) grants and revokes runners.',
                                  ext_owner::regrole),
                  HINT = 'Ask a superuser to run it.';
    END IF;
    RETURN QUERY
    SELECT CASE WHEN d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::regclass THEN 'routine'
                WHEN d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::regclass THEN 'schema'
                WHEN c.relkind OPERATOR(pg_catalog.=) 'S'::"char" THEN 'sequence'
                ELSE 'table' END,
           CASE WHEN d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::regclass
                     THEN d.objid::regprocedure::text
                WHEN d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::regclass
                     THEN d.objid::regnamespace::text
                ELSE d.objid::regclass::text END,
           d.objid OPERATOR(pg_catalog.=) ANY (runner_exclusions::oid[])
    FROM pg_catalog.pg_depend d
    LEFT JOIN pg_catalog.pg_class c
           ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::regclass
          AND c.oid OPERATOR(pg_catalog.=) d.objid
    WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::regclass
      AND d.refobjid OPERATOR(pg_catalog.=)
          (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::name)
      AND d.deptype OPERATOR(pg_catalog.=) 'e'::"char"
      AND (d.classid OPERATOR(pg_catalog.=) ANY (ARRAY['pg_catalog.pg_proc'::regclass,
                                                       'pg_catalog.pg_namespace'::regclass]::oid[])
           OR c.relkind OPERATOR(pg_catalog.=) ANY (ARRAY['r', 'p', 'v', 'm', 'f', 'S']::"char"[]))
    ORDER BY 1, 2;
END $$;

REVOKE ALL ON FUNCTION pgbenchx.grant_runner(regrole) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.revoke_runner(regrole) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.runner_members(regrole, text) FROM PUBLIC;
