/*
 * pgbenchx--X.Y.sql: the SQL surface of pgbenchx, the install script.
 * Generated: the Makefile concatenates the files of src/sql in name order;
 * edit those.  Each SQL body is written once (Makefile, "The SQL surface";
 * src/README.md):
 *   - this file is the schema: the schema pgbenchx, its sequence, the
 *     tables and their indexes, created once.  An upgrade changes them
 *     with a hand-written delta (the files of src/upgrade/A--B): a column
 *     is added here AND in the next upgrade's delta (its comment goes to
 *     80_comments.sql only);
 *   - the other files are the routines: functions, procedures, aggregates,
 *     views, comments and grants, written re-runnable (CREATE OR REPLACE;
 *     the install script has them as plain CREATE).  Every upgrade script
 *     is its delta followed by all of them, so a routine changes in one
 *     file, and only a changed signature or view columns need a DROP in the
 *     delta.
 * The scripts of the releases are committed and frozen: pgbenchx--0.1.sql
 * and the upgrades to 0.2, 0.3 and 0.4.
 *
 * src/sql/00_schema.sql: the schema pgbenchx, its sequence and every table
 * of results (environments, sweeps, runs, statement_stats, samples,
 * custom_scripts, imports), each marked for pg_dump.
 *
 * Entry points (pgbench_init, run_bench, run_sweep, run_replay) are created
 * in the schema named by CREATE EXTENSION, so that they work unqualified
 * right after CREATE EXTENSION pgbenchx.  Results and helpers live in the
 * schema pgbenchx, which the extension creates and DROP EXTENSION removes.
 * The pgbench tables themselves belong to the user and are never members of
 * the extension.
 *
 * Nothing here is executable by PUBLIC (90_grants.sql, last, revokes it
 * from every routine the script created): a superuser grants what a runner
 * needs with SELECT pgbenchx.grant_runner('role') (see docs/security.md,
 * "Granting a runner").  Runners only read the tables; every write goes through
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
 * sends follows the same rule (src/common/searchpath.c).
 */

/*
 * A schema pgbenchx that is there already is another role's (DROP
 * EXTENSION removes ours): whatever it holds could run in place of the
 * extension's routines, so it is refused by name, not reused.
 */
DO $pre$
BEGIN
    IF EXISTS (SELECT FROM pg_catalog.pg_namespace n
               WHERE n.nspname OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.name) THEN
        RAISE EXCEPTION 'schema "pgbenchx" already exists'
            USING ERRCODE = 'duplicate_schema',
                  DETAIL = pg_catalog.format('It is owned by role %s; pgbenchx creates its own schema of that name and never uses one it finds.',
                                             (SELECT n.nspowner::pg_catalog.regrole FROM pg_catalog.pg_namespace n
                                              WHERE n.nspname OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.name)),
                  HINT = 'Read what it holds, drop it (DROP SCHEMA pgbenchx CASCADE) or rename it, and run CREATE EXTENSION again.';
    END IF;
END
$pre$;

CREATE SCHEMA pgbenchx;

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
-- by env_hash (an md5 over every field but the id, the capture time and
-- imported_by) among the rows of one provenance: those this server
-- captured (imported_by NULL), and those each role's import() added
-- (imported_by that role).  A capture never finds an imported row, and an
-- import finds only its own role's rows, or a captured one it equals in
-- every field: what a document claims is kept apart from what was measured
-- here.
CREATE TABLE pgbenchx.environments (
    environment_id    bigserial PRIMARY KEY,
    env_hash          text NOT NULL,
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
    settings          jsonb,     -- every setting not at its default, and the key ones always
    imported_by       name       -- NULL: captured by this server; else the role whose import() added it
);
CREATE UNIQUE INDEX environments_captured_hash ON pgbenchx.environments (env_hash)
    WHERE imported_by IS NULL;
CREATE UNIQUE INDEX environments_imported_hash ON pgbenchx.environments (imported_by, env_hash)
    WHERE imported_by IS NOT NULL;

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
    owner        name,           -- the role that started it (cancel follows pg_cancel_backend's rule)
    configs      jsonb,          -- run_experiment: its configurations (passwords removed); NULL for a sweep
    warmup       int,            -- run_experiment: warm-up runs per configuration and client count
    target_ci    float8,         -- run_experiment: blocks added until each ratio is within +-this
    budget_s     int,            -- run_experiment: the time budget with target_ci
    stopped_by   text            -- run_experiment with target_ci: 'target', 'budget' or 'run limit'
);

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
    samples_lost_transactions bigint,  -- transactions in no stored sample: sum(samples.transactions) + this = transactions
    script_stats       jsonb,    -- per script of the mix, in its order: transactions, failed, retried, retries, skipped, latency_avg_ms, latency_stddev_ms (pgbench's "SQL script N" blocks)
    tpcb_consistent_before boolean, -- check_tpcb => true: the balances of accounts, branches and tellers agreed before the run; NULL if not read
    -- why the numbers are what they are (issue 13), from system_samples and wait_samples
    record_system      boolean,  -- record_system => true: what the machine and the server did was recorded
    system_notes       text[],   -- why a figure of system_samples is NULL: one line per cause, once per run
    wait_sample_hz     float8,   -- wait-event samples per second actually taken
    wal_bytes_per_tx   float8,
    blocks_read_per_tx float8,   -- shared blocks read (not found in shared_buffers)
    blocks_written_per_tx float8, -- buffers written by the checkpointer, the bgwriter and the backends
    server_cpu_ms_per_tx float8, -- CPU of the client backends
    driver_cpu_ms_per_tx float8, -- CPU of the driver workers
    iowait_avg         float8,   -- average share of machine CPU time in iowait
    top_waits          jsonb,    -- the top wait events as shares of the client backends' sampled time
    verdict            text,     -- the limit when one is evident (load generator, CPU, I/O, locks, LWLocks); NULL when none is
    latency_hist       bytea,    -- the run's latency histogram (issue 14): pgbenchx.latency_percentile / latency_merge / latency_buckets read it
    tps_ci_low         float8,   -- 95% interval of the run's mean per-second tps, its own precision (issues 23, 35: pgbenchx.ci_seconds); NULL under 120 s
    tps_ci_high        float8,
    config             int,      -- run_experiment: the configuration, 1-based in sweeps.configs; NULL otherwise
    warmup             boolean NOT NULL DEFAULT false  -- run_experiment: a warm-up run, stored and not counted
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
CREATE INDEX runs_sweep_id_idx ON pgbenchx.runs (sweep_id);

-- One row per second of a run (second 1 is the first second, from the
-- start of the measured interval).  The last second of a run covers the
-- time from its start to the end of the measured interval (covered_s: less
-- than 1 for a run bounded by transactions or cancelled; about 1 for a
-- timed run, whose transactions in flight at the end count in it); tps is
-- always a rate, transactions / covered_s.  Rows from before 0.3 read
-- covered_s = 1.
CREATE TABLE pgbenchx.samples (
    run_id          bigint NOT NULL REFERENCES pgbenchx.runs ON DELETE CASCADE,
    second          int NOT NULL CHECK (second >= 1),
    transactions    bigint NOT NULL,
    tps             float8,   -- transactions / covered_s (a replay: statements that succeeded, per second)
    latency_avg_ms  float8,
    latency_p99_ms  float8,
    failed          bigint NOT NULL DEFAULT 0,
    covered_s       float8 NOT NULL DEFAULT 1 CHECK (covered_s OPERATOR(pg_catalog.>) 0::pg_catalog.float8),  -- seconds of the measured interval this row covers
    latency_hist    bytea,    -- that second's latency histogram (issue 14)
    skipped         bigint,   -- -R with -L: transactions too late to start (0.5; NULL before)
    retried         bigint,   -- transactions retried (0.5; NULL before)
    retries         bigint,   -- retries in all (0.5; NULL before)
    lag_sum_ms      float8,   -- -R: the schedule lags summed, ms (0.5; NULL before)
    PRIMARY KEY (run_id, second)
);

/*
 * A run driven from several load generators (issue 14: run_bench(...,
 * generators => ...)): one row per generator that took part, with its own
 * figures as its part's runs row on that generator recorded them, its
 * clock offset from this server, and its environment, so that a slow or
 * failing generator can be spotted.  The recorder's runs row holds the
 * merged figures.
 */
CREATE TABLE pgbenchx.run_generators (
    run_id               bigint NOT NULL REFERENCES pgbenchx.runs ON DELETE CASCADE,
    generator            int NOT NULL CHECK (generator >= 1),
    conninfo             text NOT NULL,
    system_identifier    text,
    part_run_id          bigint,
    clients              int NOT NULL,
    jobs                 int,
    first_client         int NOT NULL,
    clock_offset_ms      float8,
    clock_uncertainty_ms float8,
    status               text NOT NULL DEFAULT 'running',
    error                text,
    transactions         bigint,
    failed_transactions  bigint,
    tps                  float8,
    latency_avg_ms       float8,
    latency_stddev_ms    float8,
    latency_p50_ms       float8,
    latency_p99_ms       float8,
    latency_max_ms       float8,
    conn_time_ms         float8,
    bench_duration_s     float8,
    driver_cpu_s         float8,
    aborted_clients      int,
    latency_hist         bytea,
    environment          jsonb,
    part_run             jsonb,
    PRIMARY KEY (run_id, generator)
);

SELECT pg_catalog.pg_extension_config_dump('pgbenchx.run_generators', '');

SELECT pg_catalog.pg_extension_config_dump('pgbenchx.environments', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.environments_environment_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.sweeps', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.runs', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.samples', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.statement_stats', '');

/*
 * Why the numbers are what they are (issue 13): what the machine and the
 * server did in each second of a run, beside its samples, and the wait
 * events of its client backends.  Recorded unless a run is started with
 * record_system => false.  A figure the system cannot give is NULL, never
 * zero, and runs.system_notes says why, once per run.
 */
CREATE TABLE pgbenchx.system_samples (
    run_id              bigint NOT NULL REFERENCES pgbenchx.runs ON DELETE CASCADE,
    second              int NOT NULL CHECK (second OPERATOR(pg_catalog.>=) 1),
    covered_s           float8,   -- the time these counters cover (1 but for a partial last second)
    cpu_user            float8,   -- machine CPU over all cores, fractions of the interval (user + nice)
    cpu_system          float8,   -- system + irq + softirq
    cpu_iowait          float8,
    cpu_steal           float8,
    cpu_idle            float8,
    driver_cpu_s        float8,   -- CPU seconds of the driver workers in this second
    backend_cpu_s       float8,   -- CPU seconds of the run's client backends together
    data_reads          bigint,   -- the device holding data_directory: read operations completed
    data_read_bytes     bigint,
    data_writes         bigint,
    data_write_bytes    bigint,
    data_await_ms       float8,   -- average time per operation (read and write)
    data_queue          float8,   -- average queue depth
    wal_reads           bigint,   -- the device holding pg_wal, the same figures
    wal_read_bytes      bigint,
    wal_writes          bigint,
    wal_write_bytes     bigint,
    wal_await_ms        float8,
    wal_queue           float8,
    wal_records         bigint,   -- pg_stat_wal, delta in this second
    wal_fpi             bigint,
    wal_bytes           numeric,
    wal_write           bigint,
    wal_sync            bigint,
    blks_hit            bigint,   -- pg_stat_database of the run's database
    blks_read           bigint,
    temp_bytes          bigint,
    deadlocks           bigint,
    buffers_checkpoint  bigint,   -- pg_stat_bgwriter
    buffers_clean       bigint,
    buffers_backend     bigint,
    checkpoints_begun   int,
    checkpoints_done    int,
    PRIMARY KEY (run_id, second)
);

-- The wait events of the run's client backends, sampled many times a
-- second (runs.wait_sample_hz) from the server's process state: per second,
-- how many samples found a backend in each (wait_event_type, wait_event);
-- an active backend waiting on nothing counts as ('CPU', 'on CPU').
CREATE TABLE pgbenchx.wait_samples (
    run_id          bigint NOT NULL REFERENCES pgbenchx.runs ON DELETE CASCADE,
    second          int NOT NULL CHECK (second OPERATOR(pg_catalog.>=) 1),
    wait_event_type text NOT NULL,
    wait_event      text NOT NULL,
    samples         int NOT NULL,
    PRIMARY KEY (run_id, second, wait_event_type, wait_event)
);

SELECT pg_catalog.pg_extension_config_dump('pgbenchx.system_samples', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.wait_samples', '');

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

/*
 * Provenance of imported results (pgbenchx.import): one row per sweep or
 * run that came from another database, naming the server (its
 * pg_control_system() system identifier), the database and the id it was
 * measured under, as the document claims them, and the role that imported
 * it.  That origin is unique per importing role: the same role importing
 * the same document twice finds it and adds nothing, and another role
 * claiming the same origin never maps onto these rows (an origin is a
 * claim, not a proof).  imported_by is '' (no role has that name) only in
 * rows restored from a dump taken before 0.5, whose COPY has no such
 * column: those count as imported by the owner of their sweep or run.  A sweep or run exported
 * again from here keeps its first origin.  Deleting the sweep deletes its rows here.
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
    imported_by     name NOT NULL DEFAULT '',  -- the role that imported it; '': restored from a dump taken before 0.5
    PRIMARY KEY (origin_system_identifier, origin_database, origin_id, imported_by),
    CHECK ((sweep_id IS NULL) <> (run_id IS NULL))
);
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.imports', '');
