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

CREATE SEQUENCE pgbenchx.sweeps_sweep_id_seq;
CREATE SEQUENCE pgbenchx.runs_run_id_seq;

-- One row per run_sweep() call: the ladder of client counts it runs.
CREATE TABLE pgbenchx.sweeps (
    sweep_id     bigint PRIMARY KEY
                 DEFAULT nextval('pgbenchx.sweeps_sweep_id_seq'),
    status       text NOT NULL DEFAULT 'running'
                 CHECK (status IN ('running', 'completed', 'cancelled',
                                   'failed', 'aborted')),
    script       text NOT NULL,
    clients      int[] NOT NULL,
    duration     int,
    label        text,
    started_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz
);
ALTER SEQUENCE pgbenchx.sweeps_sweep_id_seq OWNED BY pgbenchx.sweeps.sweep_id;
COMMENT ON TABLE pgbenchx.sweeps IS 'one row per sweep of client counts';

-- One row per benchmark run (one client count for one duration).
CREATE TABLE pgbenchx.runs (
    run_id             bigint PRIMARY KEY
                       DEFAULT nextval('pgbenchx.runs_run_id_seq'),
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
    error              text
);
ALTER SEQUENCE pgbenchx.runs_run_id_seq OWNED BY pgbenchx.runs.run_id;
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

SELECT pg_catalog.pg_extension_config_dump('pgbenchx.sweeps', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.sweeps_sweep_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.runs', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.runs_run_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.samples', '');

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
