/*
 * pgbenchx--0.3--0.4.sql: ALTER EXTENSION pgbenchx UPDATE from 0.3 to 0.4.
 * Generated: the Makefile concatenates the files of src/upgrade/0.3--0.4 in
 * name order, one per change; once 0.4 is released they are frozen, and a
 * later change ships as pgbenchx--0.4--0.5.sql.
 *
 * The rules of src/upgrade/0.2--0.3/00_header.sql hold: tables change as
 * deltas, so that every stored result stays; routines and views are
 * re-created in full, each once, by the last fragment that changes it, with
 * src/sql's body (python3 scripts/upgrade_sync.py); a view only gains
 * columns at its end; no GRANT or REVOKE on an existing routine (it would
 * be recorded as an initial privilege); new routines reach existing
 * runners in one fragment at the end.  test/t/036_upgrade.pl checks that
 * 0.1 + UPDATE has the catalogue of a fresh CREATE EXTENSION, and
 * test/t/037, 038 and 049 update real 0.1, 0.2 and 0.3 installs with
 * their results.
 */

\echo Use "ALTER EXTENSION pgbenchx UPDATE TO '0.4'" to load this file. \quit
/*
 * sweep_summary of a replay in queries per minute (left over from issue
 * 12: replays are read in qpm everywhere else): two columns at the end,
 * peak_qpm and qpm_at_highest, NULL for a benchmark sweep.
 */
CREATE OR REPLACE VIEW pgbenchx.sweep_summary AS
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
       i.origin_system_identifier,
       pk.median_qpm AS peak_qpm,
       hi.median_qpm AS qpm_at_highest
FROM pgbenchx.sweeps s
LEFT JOIN LATERAL (
    SELECT p.clients, p.median_tps, p.median_qpm FROM pgbenchx.sweep_points p
    WHERE p.sweep_id OPERATOR(pg_catalog.=) s.sweep_id ORDER BY p.median_tps DESC NULLS LAST, p.clients LIMIT 1) pk ON true
LEFT JOIN LATERAL (
    SELECT p.clients, p.median_tps, p.median_qpm FROM pgbenchx.sweep_points p
    WHERE p.sweep_id OPERATOR(pg_catalog.=) s.sweep_id ORDER BY p.clients DESC LIMIT 1) hi ON true
LEFT JOIN pgbenchx.environments e ON e.environment_id OPERATOR(pg_catalog.=) s.environment_id
LEFT JOIN pgbenchx.imports i ON i.sweep_id OPERATOR(pg_catalog.=) s.sweep_id;

COMMENT ON COLUMN pgbenchx.sweep_summary.peak_qpm IS 'a replay: the median queries per minute at peak_clients; NULL for a benchmark sweep';
COMMENT ON COLUMN pgbenchx.sweep_summary.qpm_at_highest IS 'a replay: the median queries per minute at highest_clients; NULL for a benchmark sweep';
/*
 * 20_part (issue 14, the generator side): pgbenchx.launch_part starts this
 * server's share of a run a recorder drives from several generators, and
 * pgbenchx.part_go starts its measured interval at the recorder's moment.
 * The progress view's phase gains 'ready' (a part waiting for its go); the
 * view itself is unchanged.  Runners who had pgbenchx.wait get EXECUTE on
 * the two new routines in 90_runner_grants.sql.
 */

/*
 * A part: this server's share of a run that a recorder drives from several
 * generator servers (run_bench(..., generators => ...)); the recorder's
 * coordinator calls these over libpq, as the calling role, on each
 * generator.  launch_part takes launch_bench's options (not vacuum,
 * checkpoint, check_tpcb: the recorder does the maintenance once) and
 * first_client, total_clients (the part's clients are those of one run of
 * total_clients), scripts (the mix inline: [{"name", "body", "weight"}]) or
 * script or replay_queries (with shuffle), part_of ({"recorder": "<system
 * identifier>/<database>", "run_id", "generator"}, stored in runs.tags) and
 * go_timeout_s (default 60).  It returns the part's run id once its
 * coordinator has started; the part connects its clients, shows the phase
 * 'ready' in progress_state(), and waits for part_go(run_id, start_at): it
 * then starts measuring at start_at on this server's clock.  A go more than
 * 200 ms late, or none within go_timeout_s, fails the part.  part_go is
 * allowed to whoever may cancel the part.  Callers: runners (grant_runner).
 */
CREATE FUNCTION pgbenchx.launch_part(options jsonb) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_launch_part'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

CREATE FUNCTION pgbenchx.part_go(run_id bigint, start_at timestamptz) RETURNS void
AS 'MODULE_PATHNAME', 'pgbenchx_part_go'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION pgbenchx.launch_part(jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.part_go(bigint, timestamptz) FROM PUBLIC;

COMMENT ON COLUMN pgbenchx.progress.phase IS 'what the coordinator is doing: maintenance (vacuum, truncate, check_tpcb''s sums), checkpoint, connecting, ready (a part connected, waiting for pgbenchx.part_go), measuring, finishing (the totals and rows stored)';

-- the runners get EXECUTE on both in 90_runner_grants.sql

/*
 * 30_generators (issue 14, the recorder side): run_bench, both run_sweep
 * and run_replay gain generators and max_clock_offset_ms (the last
 * parameters), so they are dropped and created again with the grants they
 * had; pgbenchx.generator_status() is what a recorder asks each generator
 * before a run; pgbenchx.run_generators keeps one row per generator of a
 * run.  Runners who had pgbenchx.wait get EXECUTE on generator_status
 * (90_runner_grants.sql) and those who could read pgbenchx.samples get
 * SELECT on run_generators, as grant_runner gives them; the initial
 * privileges are put back to what a fresh CREATE EXTENSION records, so that
 * pg_dump keeps these grants as the user's.  export() and import() carry run_generators.
 */

-- Who may execute the four entry points, kept for their new versions in a
-- setting of this transaction.
SELECT pg_catalog.set_config('pgbenchx_upgrade.generator_entry_grants', coalesce(pg_catalog.string_agg(
           pg_catalog.format('%s=%s', w.entry, a.grantee), ','), ''), true)
FROM (VALUES
      ('run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean, boolean)'::pg_catalog.regprocedure, 'bench'),
      ('run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean)'::pg_catalog.regprocedure, 'sweep'),
      ('run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean)'::pg_catalog.regprocedure, 'sweep_list'),
      ('run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint, boolean)'::pg_catalog.regprocedure, 'replay')) w(f, entry)
JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) w.f::pg_catalog.oid
CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
WHERE a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text
  AND a.grantee OPERATOR(pg_catalog.<>) p.proowner;

DROP FUNCTION run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean, boolean);
DROP FUNCTION run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean);
DROP FUNCTION run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean);
DROP FUNCTION run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint, boolean);

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
    check_tpcb   boolean DEFAULT false,
    record_system boolean DEFAULT true,
    generators   text[] DEFAULT NULL,
    max_clock_offset_ms float8 DEFAULT 100)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
AS $$
BEGIN
    RETURN pgbenchx.launch_bench(
         pg_catalog.jsonb_build_object(
             'clients', clients, 'duration', duration, 'script', script,
             'jobs', jobs, 'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'check_tpcb', check_tpcb, 'record_system', record_system,
             'generators', generators, 'max_clock_offset_ms', max_clock_offset_ms)
         || CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

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
    check_tpcb   boolean DEFAULT false,
    record_system boolean DEFAULT true,
    generators   text[] DEFAULT NULL,
    max_clock_offset_ms float8 DEFAULT 100)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
AS $$
BEGIN
    RETURN pgbenchx.launch_sweep(
         pg_catalog.jsonb_build_object(
             'min_clients', min_clients, 'max_clients', max_clients,
             'duration', duration, 'script', script, 'jobs', jobs,
             'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'repeats', repeats, 'check_tpcb', check_tpcb,
             'record_system', record_system,
             'generators', generators, 'max_clock_offset_ms', max_clock_offset_ms)
         || CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

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
    check_tpcb   boolean DEFAULT false,
    record_system boolean DEFAULT true,
    generators   text[] DEFAULT NULL,
    max_clock_offset_ms float8 DEFAULT 100)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
AS $$
BEGIN
    RETURN pgbenchx.launch_sweep(
         pg_catalog.jsonb_build_object(
             'clients', clients, 'duration', duration, 'script', script,
             'jobs', jobs, 'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'repeats', repeats, 'check_tpcb', check_tpcb,
             'record_system', record_system,
             'generators', generators, 'max_clock_offset_ms', max_clock_offset_ms)
         || CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

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
    random_seed  bigint DEFAULT NULL,
    record_system boolean DEFAULT true,
    generators   text[] DEFAULT NULL,
    max_clock_offset_ms float8 DEFAULT 100)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN pgbenchx.launch_replay(
         pg_catalog.jsonb_build_object(
             'queries', queries, 'min_clients', min_clients,
             'max_clients', max_clients, 'from_file', from_file,
             'shuffle', shuffle, 'jobs', jobs, 'protocol', protocol,
             'checkpoint', checkpoint, 'label', label, 'conninfo', conninfo,
             'random_seed', random_seed, 'record_system', record_system,
             'generators', generators, 'max_clock_offset_ms', max_clock_offset_ms)
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

REVOKE ALL ON FUNCTION run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean, boolean, text[], float8) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean, text[], float8) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean, text[], float8) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint, boolean, text[], float8) FROM PUBLIC;

DO $$
DECLARE
    f    record;
    g    record;
    init pg_catalog.aclitem[];
BEGIN
    FOR f IN
        SELECT x.entry, x.sig::pg_catalog.regprocedure AS sig
        FROM (VALUES
                     ('bench', 'run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean, boolean, text[], float8)'),
                     ('sweep', 'run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean, text[], float8)'),
                     ('sweep_list', 'run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean, text[], float8)'),
                     ('replay', 'run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint, boolean, text[], float8)')) x(entry, sig)
    LOOP
        SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
        WHERE i.objoid OPERATOR(pg_catalog.=) f.sig::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
        FOR g IN
            SELECT DISTINCT pg_catalog.split_part(x, '=', 2)::pg_catalog.oid AS grantee
            FROM pg_catalog.unnest(pg_catalog.string_to_array(
                     pg_catalog.current_setting('pgbenchx_upgrade.generator_entry_grants'), ',')) x
            WHERE pg_catalog.split_part(x, '=', 1) OPERATOR(pg_catalog.=) f.entry
            ORDER BY 1
        LOOP
            EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s', f.sig,
                                      CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                           ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
        END LOOP;
        UPDATE pg_catalog.pg_init_privs i SET initprivs = init
        WHERE i.objoid OPERATOR(pg_catalog.=) f.sig::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
    END LOOP;
END $$;

-- What a recorder asks a generator before a run driven from several servers
-- (run_bench(..., generators => ...)): the versions of pgbenchx's SQL and
-- library here, the run or sweep in progress on this server (any role's;
-- 0 while one is starting; NULL if none), the free background worker slots
-- and connections, the CPUs, the system identifier and this server's
-- clock.  One row, the same for every role.  Callers: runners, and the
-- recorder's calling role over libpq.
CREATE FUNCTION pgbenchx.generator_status(
    OUT sql_version text, OUT library_version text, OUT running bigint,
    OUT free_worker_slots int, OUT free_connections int, OUT ncpus int,
    OUT system_identifier text, OUT now timestamptz)
RETURNS record
AS 'MODULE_PATHNAME', 'pgbenchx_generator_status'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

REVOKE ALL ON FUNCTION pgbenchx.generator_status() FROM PUBLIC;

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
COMMENT ON TABLE pgbenchx.run_generators IS 'the load generators of a run driven from several servers, one row each';

SELECT pg_catalog.pg_extension_config_dump('pgbenchx.run_generators', '');

COMMENT ON COLUMN pgbenchx.run_generators.run_id IS 'the recorder''s run (runs.run_id on this server)';
COMMENT ON COLUMN pgbenchx.run_generators.generator IS 'its 1-based position in the generators array of the call';
COMMENT ON COLUMN pgbenchx.run_generators.conninfo IS 'its conninfo as given, passwords masked';
COMMENT ON COLUMN pgbenchx.run_generators.system_identifier IS 'the generator server''s system identifier';
COMMENT ON COLUMN pgbenchx.run_generators.part_run_id IS 'the run id of its part in the generator''s own pgbenchx.runs';
COMMENT ON COLUMN pgbenchx.run_generators.clients IS 'the clients it drove';
COMMENT ON COLUMN pgbenchx.run_generators.jobs IS 'its driver workers';
COMMENT ON COLUMN pgbenchx.run_generators.first_client IS 'the number of its first client within the run (0-based): its clients are first_client .. first_client + clients - 1';
COMMENT ON COLUMN pgbenchx.run_generators.clock_offset_ms IS 'its clock minus this server''s at the start of the step, ms, from the libpq round trip of smallest delay';
COMMENT ON COLUMN pgbenchx.run_generators.clock_uncertainty_ms IS 'half that round trip, ms: the offset is known to within this';
COMMENT ON COLUMN pgbenchx.run_generators.status IS 'its part''s final status (completed, cancelled, failed, aborted), or lost when the recorder lost the generator';
COMMENT ON COLUMN pgbenchx.run_generators.error IS 'why its part failed, or how the generator was lost';
COMMENT ON COLUMN pgbenchx.run_generators.transactions IS 'transactions its clients completed';
COMMENT ON COLUMN pgbenchx.run_generators.failed_transactions IS 'transactions of its clients that failed (serialization, deadlock)';
COMMENT ON COLUMN pgbenchx.run_generators.tps IS 'its own tps, over its own measured interval';
COMMENT ON COLUMN pgbenchx.run_generators.latency_avg_ms IS 'average latency of its transactions, ms';
COMMENT ON COLUMN pgbenchx.run_generators.latency_stddev_ms IS 'standard deviation of its latencies, ms';
COMMENT ON COLUMN pgbenchx.run_generators.latency_p50_ms IS 'median latency of its transactions, ms';
COMMENT ON COLUMN pgbenchx.run_generators.latency_p99_ms IS '99th percentile latency of its transactions, ms';
COMMENT ON COLUMN pgbenchx.run_generators.latency_max_ms IS 'largest latency of its transactions, ms';
COMMENT ON COLUMN pgbenchx.run_generators.conn_time_ms IS 'the time its clients took to connect, ms';
COMMENT ON COLUMN pgbenchx.run_generators.bench_duration_s IS 'its measured interval, s';
COMMENT ON COLUMN pgbenchx.run_generators.driver_cpu_s IS 'CPU seconds of its driver workers: near bench_duration_s * jobs, the generator was saturated';
COMMENT ON COLUMN pgbenchx.run_generators.aborted_clients IS 'its clients that aborted';
COMMENT ON COLUMN pgbenchx.run_generators.latency_hist IS 'its latency histogram (the format of runs.latency_hist): the run''s is their merge';
COMMENT ON COLUMN pgbenchx.run_generators.environment IS 'the generator''s environment as it recorded it (its pgbenchx.environments row)';
COMMENT ON COLUMN pgbenchx.run_generators.part_run IS 'its part''s whole runs row on the generator, as jsonb, with its statement_stats rows under the key statement_stats (the run''s statement_stats are their sums)';

-- SELECT on run_generators for those who may read samples; initial
-- privileges as a fresh CREATE EXTENSION records them (generator_status
-- reaches the runners in 90_runner_grants.sql).
DO $$
DECLARE
    g    record;
BEGIN
    FOR g IN
        SELECT DISTINCT a.grantee
        FROM pg_catalog.pg_class c
        CROSS JOIN LATERAL pg_catalog.aclexplode(c.relacl) a
        WHERE c.oid OPERATOR(pg_catalog.=) 'pgbenchx.samples'::pg_catalog.regclass
          AND a.privilege_type OPERATOR(pg_catalog.=) 'SELECT'::pg_catalog.text
          AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
        ORDER BY 1
    LOOP
        EXECUTE pg_catalog.format('GRANT SELECT ON TABLE pgbenchx.run_generators TO %s',
                                  CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                       ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
    END LOOP;
    DELETE FROM pg_catalog.pg_init_privs i
    WHERE i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid
      AND i.objoid OPERATOR(pg_catalog.=) 'pgbenchx.run_generators'::pg_catalog.regclass::pg_catalog.oid;
END $$;

-- export() and import() carry run_generators (absent from older documents).
CREATE OR REPLACE FUNCTION pgbenchx.export(sweep_ids bigint[])
RETURNS jsonb
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
DECLARE
    ids bigint[];
    missing bigint[];
    running bigint;
BEGIN
    IF sweep_ids IS NULL OR cardinality(sweep_ids) = 0 THEN
        RAISE EXCEPTION '%', CASE WHEN sweep_ids IS NULL THEN 'argument "sweep_ids" must not be null'
                                  ELSE 'argument "sweep_ids" must not be empty' END
            USING ERRCODE = CASE WHEN sweep_ids IS NULL THEN 'null_value_not_allowed' ELSE 'invalid_parameter_value' END,
                  DETAIL = 'sweep_ids must name at least one sweep.',
                  HINT = 'Pass ARRAY[sweep_id, ...]; SELECT sweep_id, label FROM pgbenchx.sweep_summary lists them.';
    END IF;
    IF array_position(sweep_ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'argument "sweep_ids" must not contain NULL'
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
            SELECT jsonb_agg(to_jsonb(r) || jsonb_build_object('latency_hist', translate(encode(r.latency_hist, 'base64'), E'\n', ''))
                             ORDER BY r.run_id)
            FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids)), '[]'),
        'samples', coalesce((
            SELECT jsonb_agg(to_jsonb(x) || jsonb_build_object('latency_hist', translate(encode(x.latency_hist, 'base64'), E'\n', ''))
                             ORDER BY x.run_id, x.second)
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
               OR i.run_id IN (SELECT r.run_id FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids))), '[]'),
        'system_samples', coalesce((
            SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.second)
            FROM pgbenchx.system_samples x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'wait_samples', coalesce((
            SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.second, x.wait_event_type, x.wait_event)
            FROM pgbenchx.wait_samples x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'run_generators', coalesce((
            SELECT jsonb_agg(to_jsonb(x) || jsonb_build_object('latency_hist', translate(encode(x.latency_hist, 'base64'), E'\n', ''))
                             ORDER BY x.run_id, x.generator)
            FROM pgbenchx.run_generators x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'));
END $$;

CREATE OR REPLACE FUNCTION pgbenchx.import(doc jsonb)
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
    strict_lo boolean;
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
    FOREACH k IN ARRAY ARRAY['imports', 'system_samples', 'wait_samples', 'run_generators'] LOOP
        IF doc ? k AND jsonb_typeof(doc->k) <> 'array' THEN
            RAISE EXCEPTION 'key "%" of the import document must be an array, not %', k, jsonb_typeof(doc->k)
                USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
        END IF;
    END LOOP;
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
        ('statement_stats', ARRAY['run_id', 'script', 'command', 'command_text', 'executions']),
        ('system_samples', ARRAY['run_id', 'second']),
        ('wait_samples', ARRAY['run_id', 'second', 'wait_event_type', 'wait_event', 'samples']),
        ('run_generators', ARRAY['run_id', 'generator', 'conninfo', 'clients', 'first_client', 'status'])
    LOOP
        SELECT x.i, x.e, key INTO bad
        FROM jsonb_array_elements(coalesce(doc->k, '[]')) WITH ORDINALITY x(e, i)
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
    SELECT format('a system_samples row names run %s', x->>'run_id') FROM jsonb_array_elements(coalesce(doc->'system_samples', '[]')) x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a wait_samples row names run %s', x->>'run_id') FROM jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a run_generators row names run %s', x->>'run_id') FROM jsonb_array_elements(coalesce(doc->'run_generators', '[]')) x
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
        ('statement_stats', 'retries', 0, 9223372036854775807, NULL),
        ('system_samples', 'run_id', 1, 9223372036854775807, false),
        ('system_samples', 'second', 1, 2147483647, false),
        ('system_samples', 'data_reads', 0, 9223372036854775807, true),
        ('system_samples', 'data_read_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'data_writes', 0, 9223372036854775807, true),
        ('system_samples', 'data_write_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_reads', 0, 9223372036854775807, true),
        ('system_samples', 'wal_read_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_writes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_write_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_records', 0, 9223372036854775807, true),
        ('system_samples', 'wal_fpi', 0, 9223372036854775807, true),
        ('system_samples', 'wal_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_write', 0, 9223372036854775807, true),
        ('system_samples', 'wal_sync', 0, 9223372036854775807, true),
        ('system_samples', 'blks_hit', 0, 9223372036854775807, true),
        ('system_samples', 'blks_read', 0, 9223372036854775807, true),
        ('system_samples', 'temp_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'deadlocks', 0, 9223372036854775807, true),
        ('system_samples', 'buffers_checkpoint', 0, 9223372036854775807, true),
        ('system_samples', 'buffers_clean', 0, 9223372036854775807, true),
        ('system_samples', 'buffers_backend', 0, 9223372036854775807, true),
        ('system_samples', 'checkpoints_begun', 0, 2147483647, true),
        ('system_samples', 'checkpoints_done', 0, 2147483647, true),
        ('wait_samples', 'run_id', 1, 9223372036854775807, false),
        ('wait_samples', 'second', 1, 2147483647, false),
        ('wait_samples', 'samples', 0, 2147483647, false),
        ('run_generators', 'run_id', 1, 9223372036854775807, false),
        ('run_generators', 'generator', 1, 64, false),
        ('run_generators', 'clients', 1, 100000, false),
        ('run_generators', 'first_client', 0, 100000, false),
        ('run_generators', 'jobs', 1, 100000, true),
        ('run_generators', 'part_run_id', 1, 9223372036854775807, true),
        ('run_generators', 'transactions', 0, 9223372036854775807, true),
        ('run_generators', 'failed_transactions', 0, 9223372036854775807, true),
        ('run_generators', 'aborted_clients', 0, 100000, true)
    LOOP
        SELECT x.i, x.e->want AS v INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->k, '[]')) WITH ORDINALITY x(e, i)
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
    -- a sample's covered_s: the seconds it covered, above 0; absent in a
    -- document from pgbenchx 0.2, where every sample reads as a whole second
    SELECT x.i, x.e->'covered_s' AS v INTO bad
    FROM pg_catalog.jsonb_array_elements(doc->'samples') WITH ORDINALITY x(e, i)
    WHERE x.e ? 'covered_s'
      AND NOT (pg_catalog.jsonb_typeof(x.e->'covered_s') = 'number'
               AND (x.e->>'covered_s')::numeric OPERATOR(pg_catalog.>) 0
               AND (x.e->>'covered_s')::numeric OPERATOR(pg_catalog.<=) 86400)
    ORDER BY x.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"covered_s" of element % of "samples" in the import document is %', bad.i,
              CASE WHEN pg_catalog.jsonb_typeof(bad.v) = 'null' THEN 'null'
                   WHEN pg_catalog.jsonb_typeof(bad.v) <> 'number' THEN 'not a number: ' || pg_catalog.left(bad.v::text, 40)
                   WHEN bad.v::text::numeric <= 0 THEN pg_catalog.format('%s, not above 0', bad.v)
                   ELSE pg_catalog.format('%s, above 86400', bad.v) END
            USING ERRCODE = CASE WHEN pg_catalog.jsonb_typeof(bad.v) = 'null' THEN '22004'
                                 WHEN pg_catalog.jsonb_typeof(bad.v) = 'number' AND bad.v::text::numeric > 86400 THEN '22003'
                                 ELSE '22023' END,
                  DETAIL = '"covered_s" of "samples" is a number of seconds above 0, at most 86400, or absent (read as 1).',
                  HINT = hint_export;
    END IF;
    -- the measured figures of issue 13: numbers in their range, or null
    -- (strict_lo: above lo, not equal to it), and the texts and lists of
    -- the wait samples and of the runs' new columns
    FOR k, want, lo, hi, strict_lo IN VALUES
        ('runs', 'wait_sample_hz', 0, 1e9, false),
        ('runs', 'wal_bytes_per_tx', 0, 1e15, false),
        ('runs', 'blocks_read_per_tx', 0, 1e15, false),
        ('runs', 'blocks_written_per_tx', 0, 1e15, false),
        ('runs', 'server_cpu_ms_per_tx', 0, 1e15, false),
        ('runs', 'driver_cpu_ms_per_tx', 0, 1e15, false),
        ('runs', 'iowait_avg', 0, 1, false),
        ('system_samples', 'covered_s', 0, 86400, true),
        ('system_samples', 'cpu_user', 0, 1, false),
        ('system_samples', 'cpu_system', 0, 1, false),
        ('system_samples', 'cpu_iowait', 0, 1, false),
        ('system_samples', 'cpu_steal', 0, 1, false),
        ('system_samples', 'cpu_idle', 0, 1, false),
        ('system_samples', 'driver_cpu_s', 0, 1e9, false),
        ('system_samples', 'backend_cpu_s', 0, 1e9, false),
        ('system_samples', 'data_await_ms', 0, 1e15, false),
        ('system_samples', 'data_queue', 0, 1e15, false),
        ('system_samples', 'wal_await_ms', 0, 1e15, false),
        ('system_samples', 'wal_queue', 0, 1e15, false),
        ('run_generators', 'clock_offset_ms', -1e12, 1e12, false),
        ('run_generators', 'clock_uncertainty_ms', 0, 1e12, false),
        ('run_generators', 'tps', 0, 1e12, false),
        ('run_generators', 'latency_avg_ms', 0, 1e12, false),
        ('run_generators', 'latency_stddev_ms', 0, 1e12, false),
        ('run_generators', 'latency_p50_ms', 0, 1e12, false),
        ('run_generators', 'latency_p99_ms', 0, 1e12, false),
        ('run_generators', 'latency_max_ms', 0, 1e12, false),
        ('run_generators', 'conn_time_ms', 0, 1e15, false),
        ('run_generators', 'bench_duration_s', 0, 1e9, false),
        ('run_generators', 'driver_cpu_s', 0, 1e9, false)
    LOOP
        SELECT x.i, x.e->want AS v INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->k, '[]')) WITH ORDINALITY x(e, i)
        WHERE coalesce(pg_catalog.jsonb_typeof(x.e->want), 'null') <> 'null'
          AND NOT (pg_catalog.jsonb_typeof(x.e->want) = 'number'
                   AND (x.e->>want)::numeric OPERATOR(pg_catalog.>=) lo
                   AND (x.e->>want)::numeric OPERATOR(pg_catalog.<=) hi
                   AND NOT (strict_lo AND (x.e->>want)::numeric OPERATOR(pg_catalog.=) lo))
        ORDER BY x.i LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION '"%" of element % of "%" in the import document is %', want, bad.i, k,
                  CASE WHEN pg_catalog.jsonb_typeof(bad.v) <> 'number' THEN 'not a number: ' || pg_catalog.left(bad.v::text, 40)
                       WHEN bad.v::text::numeric < lo THEN pg_catalog.format('%s, below %s', bad.v, lo)
                       WHEN bad.v::text::numeric = lo THEN pg_catalog.format('%s, not above %s', bad.v, lo)
                       ELSE pg_catalog.format('%s, above %s', bad.v, hi) END
                USING ERRCODE = CASE WHEN pg_catalog.jsonb_typeof(bad.v) = 'number' AND bad.v::text::numeric > hi
                                     THEN '22003' ELSE '22023' END,
                      DETAIL = pg_catalog.format('"%s" of "%s" is a number %s, or null.', want, k,
                                                 CASE WHEN strict_lo THEN pg_catalog.format('of seconds above %s, at most %s', lo, hi)
                                                      ELSE pg_catalog.format('from %s to %s', lo, hi) END),
                      HINT = hint_export;
        END IF;
    END LOOP;
    SELECT y.what, y.v INTO bad FROM (
        SELECT pg_catalog.format('"%s" of element %s of "wait_samples"', f.key, x.i) AS what, x.e->f.key AS v,
               pg_catalog.jsonb_typeof(x.e->f.key) = 'string' AND pg_catalog.length(x.e->>f.key) BETWEEN 1 AND 64 AS ok
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) WITH ORDINALITY x(e, i),
             (VALUES ('wait_event_type'), ('wait_event')) f(key)
        UNION ALL
        SELECT pg_catalog.format('"%s" of element %s of "runs"', f.key, x.i), x.e->f.key,
               coalesce(pg_catalog.jsonb_typeof(x.e->f.key), 'null') = 'null'
               OR CASE f.key
                    WHEN 'record_system' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'boolean'
                    WHEN 'verdict' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'string'
                    WHEN 'system_notes' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'array'
                         AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(x.e->f.key) n
                                         WHERE pg_catalog.jsonb_typeof(n) <> 'string')
                    ELSE pg_catalog.jsonb_typeof(x.e->f.key) = 'array'
                         AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(x.e->f.key) n
                                         WHERE pg_catalog.jsonb_typeof(n) <> 'object'
                                            OR pg_catalog.jsonb_typeof(n->'share') IS DISTINCT FROM 'number'
                                            OR pg_catalog.jsonb_typeof(n->'wait_event_type') IS DISTINCT FROM 'string'
                                            OR pg_catalog.jsonb_typeof(n->'wait_event') IS DISTINCT FROM 'string') END
        FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY x(e, i),
             (VALUES ('record_system'), ('verdict'), ('system_notes'), ('top_waits')) f(key)) y
    WHERE NOT y.ok LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not valid: %', bad.what, pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A wait sample''s wait_event_type and wait_event are texts of 1 to 64 characters; a run''s record_system a boolean, verdict a text, system_notes a list of texts and top_waits a list of {"wait_event_type", "wait_event", "share"}, each or null.',
                  HINT = hint_export;
    END IF;
    -- a run's generators (0.4): each once per run; texts, a status and
    -- objects as the recorder writes them
    SELECT y.what, y.v INTO bad FROM (
        SELECT pg_catalog.format('"%s" of element %s of "run_generators"', f.key, x.i) AS what, x.e->f.key AS v,
               CASE f.key
                    WHEN 'conninfo' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'string'
                         AND pg_catalog.length(x.e->>f.key) OPERATOR(pg_catalog.<=) 4096
                    WHEN 'status' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'string'
                         AND (x.e->>f.key) OPERATOR(pg_catalog.=) ANY (ARRAY['completed', 'cancelled', 'failed', 'aborted', 'lost'])
                    WHEN 'error' THEN coalesce(pg_catalog.jsonb_typeof(x.e->f.key), 'null') IN ('null', 'string')
                    WHEN 'system_identifier' THEN coalesce(pg_catalog.jsonb_typeof(x.e->f.key), 'null') = 'null'
                         OR (x.e->>f.key) OPERATOR(pg_catalog.~) '^[0-9]{1,20}$'
                    ELSE coalesce(pg_catalog.jsonb_typeof(x.e->f.key), 'null') IN ('null', 'object') END AS ok
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'run_generators', '[]')) WITH ORDINALITY x(e, i),
             (VALUES ('conninfo'), ('status'), ('error'), ('system_identifier'), ('environment'), ('part_run')) f(key)) y
    WHERE NOT y.ok LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not valid: %', bad.what, pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A run generator''s conninfo is a text of at most 4096 characters, its status completed, cancelled, failed, aborted or lost, its error a text, its system_identifier digits, its environment and part_run objects, each but conninfo and status or null.',
                  HINT = hint_export;
    END IF;
    SELECT (x->>'run_id') || '/' || (x->>'generator') AS id INTO bad
    FROM pg_catalog.jsonb_array_elements(coalesce(doc->'run_generators', '[]')) x
    GROUP BY x->>'run_id', x->>'generator' HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'generator % appears twice in the import document', bad.id
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    -- latency histograms (absent from a 0.2 document): base64 text or null,
    -- and bytes that pgbenchx.latency_percentile decodes (src/histcodec.h)
    SELECT y.what, y.v INTO bad FROM (
        SELECT pg_catalog.format('"latency_hist" of element %s of "%s"', x.i, x.k) AS what, x.e->'latency_hist' AS v
        FROM (SELECT 'runs' AS k, r.i, r.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY r(e, i)
              UNION ALL
              SELECT 'samples', s.i, s.e FROM pg_catalog.jsonb_array_elements(doc->'samples') WITH ORDINALITY s(e, i)
              UNION ALL
              SELECT 'run_generators', g.i, g.e
              FROM pg_catalog.jsonb_array_elements(coalesce(doc->'run_generators', '[]')) WITH ORDINALITY g(e, i)) x
        WHERE coalesce(pg_catalog.jsonb_typeof(x.e->'latency_hist'), 'null') NOT IN ('string', 'null')) y
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not valid: %', bad.what, pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A latency histogram is the base64 text of its bytes, or null.',
                  HINT = hint_export;
    END IF;
    DECLARE
        why text;
    BEGIN
        PERFORM pgbenchx.latency_percentile(pg_catalog.decode(x->>'latency_hist', 'base64'), 100)
        FROM (SELECT r FROM pg_catalog.jsonb_array_elements(doc->'runs') r
              UNION ALL
              SELECT s FROM pg_catalog.jsonb_array_elements(doc->'samples') s
              UNION ALL
              SELECT g FROM pg_catalog.jsonb_array_elements(coalesce(doc->'run_generators', '[]')) g) y(x)
        WHERE pg_catalog.jsonb_typeof(x->'latency_hist') = 'string';
    EXCEPTION WHEN invalid_parameter_value OR invalid_binary_representation THEN
        GET STACKED DIAGNOSTICS why = PG_EXCEPTION_DETAIL;
        RAISE EXCEPTION 'a latency histogram of the import document is not valid'
            USING ERRCODE = 'invalid_binary_representation',
                  DETAIL = coalesce(nullif(why, ''), SQLERRM || '.'),
                  HINT = hint_export;
    END;
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
    IF NOT FOUND THEN
        SELECT pg_catalog.format('the system sample of second %s of run %s', x->>'second', x->>'run_id') AS what INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'system_samples', '[]')) x
        GROUP BY x->'run_id', x->'second', x->>'second', x->>'run_id' HAVING count(*) > 1 LIMIT 1;
    END IF;
    IF NOT FOUND THEN
        SELECT pg_catalog.format('wait event %s:%s of second %s of run %s', x->>'wait_event_type', x->>'wait_event',
                                 x->>'second', x->>'run_id') AS what INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) x
        GROUP BY x->'run_id', x->'second', x->'wait_event_type', x->'wait_event',
                 x->>'wait_event_type', x->>'wait_event', x->>'second', x->>'run_id'
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
                'latency_hist', '\x' || encode(decode(e->>'latency_hist', 'base64'), 'hex'),
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
             '{"failed": 0, "covered_s": 1}' || x || jsonb_build_object('run_id', run_map->(x->>'run_id'),
                 'latency_hist', '\x' || encode(decode(x->>'latency_hist', 'base64'), 'hex'))) r
    WHERE run_map ? (x->>'run_id');
    INSERT INTO pgbenchx.statement_stats
    SELECT r.* FROM jsonb_array_elements(doc->'statement_stats') x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.statement_stats,
             '{"failures": 0, "retries": 0}' || x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');
    -- what the machine and the server did (absent from a 0.2 document: none)
    INSERT INTO pgbenchx.system_samples
    SELECT r.* FROM jsonb_array_elements(coalesce(doc->'system_samples', '[]')) x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.system_samples,
             x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');
    INSERT INTO pgbenchx.wait_samples
    SELECT r.* FROM jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.wait_samples,
             x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');
    INSERT INTO pgbenchx.run_generators
    SELECT r.* FROM jsonb_array_elements(coalesce(doc->'run_generators', '[]')) x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.run_generators,
             x || jsonb_build_object('run_id', run_map->(x->>'run_id'),
                 'latency_hist', '\x' || encode(decode(x->>'latency_hist', 'base64'), 'hex'))) r
    WHERE run_map ? (x->>'run_id');

    RETURN result;
END $$;

/*
 * 40_init_jobs (issue 15): pgbench_init gains jobs (the last parameter,
 * default NULL), the background workers that generate pgbench_accounts.
 * It is dropped and created again with the grants it had, as
 * 0.2--0.3/63_explain_sql.sql does for the entry points.
 */

-- Who may execute pgbench_init (any grant of the user's, or grant_runner's
-- runners), kept for its new version in a setting of this transaction.
SELECT pg_catalog.set_config('pgbenchx_upgrade.init_grants', coalesce(pg_catalog.string_agg(
           a.grantee::pg_catalog.text, ','), ''), true)
FROM pg_catalog.pg_proc p
CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
WHERE p.oid OPERATOR(pg_catalog.=) 'pgbench_init(int, int, int, text, boolean, boolean)'::pg_catalog.regprocedure::pg_catalog.oid
  AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text
  AND a.grantee OPERATOR(pg_catalog.<>) p.proowner;

DROP FUNCTION pgbench_init(int, int, int, text, boolean, boolean);

CREATE FUNCTION pgbench_init(
    scale            int DEFAULT 1,
    fillfactor       int DEFAULT 100,
    partitions       int DEFAULT 0,
    partition_method text DEFAULT 'range',
    unlogged         boolean DEFAULT false,
    foreign_keys     boolean DEFAULT false,
    jobs             int DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'pgbench_init'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION pgbench_init(int, int, int, text, boolean, boolean, int) FROM PUBLIC;

/*
 * The grants it had, back on the new version.  A GRANT in an extension
 * script is recorded in pg_init_privs as the extension's initial
 * privilege, which pg_dump does not dump; the initial privileges are put
 * back to what a fresh CREATE EXTENSION records (the REVOKE above), so
 * that pg_dump keeps these grants as the user's.
 */
DO $$
DECLARE
    sig  pg_catalog.regprocedure := 'pgbench_init(int, int, int, text, boolean, boolean, int)'::pg_catalog.regprocedure;
    g    record;
    init pg_catalog.aclitem[];
BEGIN
    SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
    WHERE i.objoid OPERATOR(pg_catalog.=) sig::pg_catalog.oid
      AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
      AND i.objsubid OPERATOR(pg_catalog.=) 0;
    FOR g IN
        SELECT DISTINCT x::pg_catalog.oid AS grantee
        FROM pg_catalog.unnest(pg_catalog.string_to_array(
                 pg_catalog.current_setting('pgbenchx_upgrade.init_grants'), ',')) x
        ORDER BY 1
    LOOP
        EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s', sig,
                                  CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                       ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
    END LOOP;
    UPDATE pg_catalog.pg_init_privs i SET initprivs = init
    WHERE i.objoid OPERATOR(pg_catalog.=) sig::pg_catalog.oid
      AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
      AND i.objsubid OPERATOR(pg_catalog.=) 0;
END $$;
/*
 * report(id) prints pgbench's NaN where pgbench divides by a count of zero
 * (the failed and retried shares of a run that processed nothing, a script
 * of a mix that ran no transaction): test/t/053_pgbench_cases.pl compares
 * its summary lines with stock pgbench's.  Re-created in full, as
 * src/sql/45_report.sql creates it.
 */
CREATE OR REPLACE FUNCTION pgbenchx.report(id bigint) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
#variable_conflict use_column
DECLARE
    r          pgbenchx.runs;
    w          pgbenchx.sweeps;
    lines      text[] := '{}';
    mix        record;
    st         record;
    nscripts   int;
    total_w    numeric;
    total_cnt  numeric;
    failed     bigint;
    skipped    bigint;
    tries      int;
    per_script boolean;
    ss         jsonb;
    s_cnt      numeric;
    s_failed   numeric;
    s_total    numeric;
    share      float8;
    peak       record;
    top        record;
    is_replay  boolean;
    unit       text;
    explained  boolean;
    limit_col  text;
BEGIN
    IF report.id IS NULL THEN
        RAISE EXCEPTION 'id must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'report shows one run or one sweep.',
                  HINT = 'Pass the id run_bench, run_sweep or run_replay returned.';
    END IF;
    SELECT * INTO r FROM pgbenchx.runs x WHERE x.run_id = report.id;
    IF NOT FOUND THEN
        SELECT * INTO w FROM pgbenchx.sweeps x WHERE x.sweep_id = report.id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'no run or sweep has id %', report.id
                USING ERRCODE = 'undefined_object',
                      DETAIL = format('Neither pgbenchx.runs nor pgbenchx.sweeps has a row with id %s.', report.id),
                      HINT = 'SELECT run_id, sweep_id, status FROM pgbenchx.runs lists them.';
        END IF;

        /* a sweep: one row per run, then the peak */
        lines := lines || format('sweep %s: %s, %s', w.sweep_id, w.script, w.status);
        /* a replay's rate is in queries per minute, with no connection variant */
        is_replay := EXISTS (SELECT 1 FROM pgbenchx.runs x WHERE x.sweep_id = w.sweep_id AND x.replay);
        unit := CASE WHEN is_replay THEN 'qpm' ELSE 'tps' END;
        /* a column "limit" (runs.verdict) when a run of the sweep recorded what the server did */
        explained := EXISTS (SELECT 1 FROM pgbenchx.runs x WHERE x.sweep_id = w.sweep_id AND x.record_system);
        lines := lines || (CASE WHEN is_replay
            THEN format('%7s  %16s  %14s  %10s  %8s  %s', 'clients', 'qpm', 'latency avg ms', 'p99 ms', 'failed',
                        CASE WHEN explained THEN rpad('run', 14) ELSE 'run' END)
            ELSE format('%7s  %16s  %16s  %14s  %10s  %8s  %s', 'clients', 'tps', 'tps incl. conn',
                        'latency avg ms', 'p99 ms', 'failed', CASE WHEN explained THEN rpad('run', 14) ELSE 'run' END) END
            || CASE WHEN explained THEN '  limit' ELSE '' END);
        FOR st IN
            SELECT x.clients::text AS clients,
                   coalesce(round((CASE WHEN is_replay THEN x.qpm ELSE x.tps END)::numeric, 6)::text, '-') AS rate,
                   coalesce(round(x.tps_incl_conn::numeric, 6)::text, '-') AS incl,
                   coalesce(round(x.latency_avg_ms::numeric, 3)::text, '-') AS lat,
                   coalesce(round(x.latency_p99_ms::numeric, 3)::text, '-') AS p99,
                   coalesce(x.failed::text, '-') AS nfailed,
                   x.run_id || CASE WHEN x.status = 'completed' THEN '' ELSE ' ' || x.status END AS run,
                   CASE WHEN x.verdict IS NOT NULL THEN x.verdict
                        WHEN x.record_system AND (x.top_waits IS NOT NULL OR x.iowait_avg IS NOT NULL
                                                  OR x.server_cpu_ms_per_tx IS NOT NULL OR x.wal_bytes_per_tx IS NOT NULL
                                                  OR x.blocks_read_per_tx IS NOT NULL OR x.blocks_written_per_tx IS NOT NULL)
                            THEN 'no evident limit'
                        ELSE '-' END AS verdict
            FROM pgbenchx.runs x WHERE x.sweep_id = w.sweep_id ORDER BY x.clients, x.repeat, x.run_id
        LOOP
            limit_col := CASE WHEN explained THEN rpad(st.run, 14) || '  ' || st.verdict ELSE st.run END;
            lines := lines || CASE WHEN is_replay
                THEN format('%7s  %16s  %14s  %10s  %8s  %s', st.clients, st.rate, st.lat, st.p99, st.nfailed, limit_col)
                ELSE format('%7s  %16s  %16s  %14s  %10s  %8s  %s', st.clients, st.rate, st.incl, st.lat,
                            st.p99, st.nfailed, limit_col) END;
        END LOOP;
        WITH per AS (
            SELECT x.clients, count(*) AS n,
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY CASE WHEN is_replay THEN x.qpm ELSE x.tps END) AS tps
            FROM pgbenchx.runs x
            WHERE x.sweep_id = w.sweep_id AND x.status = 'completed'
              AND CASE WHEN is_replay THEN x.qpm ELSE x.tps END IS NOT NULL
            GROUP BY x.clients)
        SELECT per.clients, per.n, per.tps INTO peak FROM per ORDER BY per.tps DESC, per.clients LIMIT 1;
        IF FOUND THEN
            SELECT x.clients,
                   count(*) FILTER (WHERE x.status = 'completed'
                                      AND CASE WHEN is_replay THEN x.qpm ELSE x.tps END IS NOT NULL) AS n,
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY CASE WHEN is_replay THEN x.qpm ELSE x.tps END)
                       FILTER (WHERE x.status = 'completed'
                                 AND CASE WHEN is_replay THEN x.qpm ELSE x.tps END IS NOT NULL) AS tps
            INTO top FROM pgbenchx.runs x
            WHERE x.sweep_id = w.sweep_id
            GROUP BY x.clients ORDER BY x.clients DESC LIMIT 1;
            lines := lines || format('peak: %s %s at %s client%s%s', round(peak.tps::numeric, 6), unit, peak.clients,
                                     CASE WHEN peak.clients = 1 THEN '' ELSE 's' END,
                                     CASE WHEN peak.n > 1 THEN format(' (median of %s runs)', peak.n) ELSE '' END);
            IF top.n > 0 AND peak.tps > 0 THEN
                lines := lines || format('at the highest client count, %s: %s %s, %s%% of the peak',
                                         top.clients, round(top.tps::numeric, 6), unit,
                                         round((100 * top.tps / peak.tps)::numeric, 3));
            ELSE
                lines := lines || format('at the highest client count, %s: no completed run', top.clients);
            END IF;
        ELSE
            lines := lines || 'peak: no completed run'::text;
        END IF;
        IF w.error IS NOT NULL THEN
            lines := lines || ('error: ' || w.error);
        END IF;
        RETURN array_to_string(lines, E'\n');
    END IF;

    failed := coalesce(r.failed, 0);
    skipped := coalesce(r.skipped, 0);
    tries := coalesce(r.max_tries, 1);
    total_cnt := coalesce(r.transactions, 0) + skipped + failed;

    IF r.replay THEN
        /* pgbench has no replay: its words, with statements and qpm */
        lines := lines || 'transaction type: replay (each statement counts as one transaction)'::text;
        lines := lines || ('query mode: ' || r.protocol);
        lines := lines || ('number of clients: ' || r.clients);
        lines := lines || ('number of threads: ' || r.jobs);
        IF r.transactions IS NOT NULL THEN
            lines := lines || ('number of statements actually processed: ' || r.transactions);
            lines := lines || format('number of failed statements: %s (%s%%)', failed,
                                     round(CASE WHEN total_cnt > 0 THEN 100 * failed / total_cnt ELSE 0 END, 3));
            IF r.latency_avg_ms IS NOT NULL AND r.latency_avg_ms::text <> 'NaN' THEN
                lines := lines || ('latency average = ' || round(r.latency_avg_ms::numeric, 3) || ' ms');
                lines := lines || ('latency stddev = ' || round(r.latency_stddev_ms::numeric, 3) || ' ms');
            END IF;
            lines := lines || ('initial connection time = ' || coalesce(round(r.conn_time_ms::numeric, 3)::text, '-') || ' ms');
            lines := lines || ('qpm = ' || coalesce(round(r.qpm::numeric, 6)::text, '-') || ' (without initial connection time)');
        END IF;
    ELSE
        /* the scripts of the mix, in its order: "name" or "name@weight, ..." */
        nscripts := 0;
        total_w := 0;
        FOR mix IN
            SELECT m.n::int AS n,
                   regexp_replace(m.item, '@[0-9]+$', '') AS name,
                   coalesce(substring(m.item FROM '@([0-9]+)$')::bigint, 1) AS weight
            FROM regexp_split_to_table(r.script, ',\s*') WITH ORDINALITY AS m(item, n)
        LOOP
            nscripts := nscripts + 1;
            total_w := total_w + mix.weight;
        END LOOP;
        per_script := nscripts > 1;

        lines := lines || ('transaction type: ' ||
                           CASE WHEN per_script THEN 'multiple scripts'
                                ELSE coalesce((SELECT b.description FROM pgbenchx.builtin_scripts() b
                                               WHERE b.name = r.script), r.script) END);
        lines := lines || ('scaling factor: ' || coalesce(r.scale::text, '1'));
        lines := lines || ('query mode: ' || r.protocol);
        lines := lines || ('number of clients: ' || r.clients);
        lines := lines || ('number of threads: ' || r.jobs);
        IF tries <> 0 THEN
            lines := lines || ('maximum number of tries: ' || tries);
        END IF;
        IF r.transactions_per_client IS NOT NULL THEN
            lines := lines || ('number of transactions per client: ' || r.transactions_per_client);
            lines := lines || format('number of transactions actually processed: %s/%s',
                                     coalesce(r.transactions, 0), r.transactions_per_client * r.clients);
        ELSE
            lines := lines || ('duration: ' || coalesce(r.duration, 0) || ' s');
            lines := lines || ('number of transactions actually processed: ' || coalesce(r.transactions, 0));
        END IF;
        /* pgbench divides by the count as it is: 0/0 prints NaN */
        lines := lines || format('number of failed transactions: %s (%s%%)', failed,
                                 CASE WHEN total_cnt > 0 THEN round(100 * failed / total_cnt, 3)::text ELSE 'NaN' END);
        IF tries <> 1 THEN
            lines := lines || format('number of transactions retried: %s (%s%%)', coalesce(r.retried, 0),
                                     CASE WHEN total_cnt > 0 THEN round(100 * coalesce(r.retried, 0) / total_cnt, 3)::text ELSE 'NaN' END);
            lines := lines || ('total number of retries: ' || coalesce(r.retries, 0));
        END IF;

        /* pgbench stops here when nothing was executed */
        IF coalesce(r.transactions, 0) + skipped > 0 THEN
            IF r.rate IS NOT NULL AND r.latency_limit_ms IS NOT NULL THEN
                lines := lines || format('number of transactions skipped: %s (%s%%)', skipped,
                                         round(CASE WHEN total_cnt > 0 THEN 100 * skipped / total_cnt ELSE 0 END, 3));
            END IF;
            IF r.latency_limit_ms IS NOT NULL THEN
                lines := lines || format('number of transactions above the %s ms latency limit: %s/%s (%s%%)',
                                         round(r.latency_limit_ms::numeric, 1), coalesce(r.late, 0), r.transactions,
                                         CASE WHEN r.transactions > 0 THEN round(100.0 * coalesce(r.late, 0) / r.transactions, 3)::text ELSE 'NaN' END);
            END IF;
            IF r.transactions > 0 THEN
                lines := lines || ('latency average = ' || round(r.latency_avg_ms::numeric, 3) || ' ms');
                lines := lines || ('latency stddev = ' || round(r.latency_stddev_ms::numeric, 3) || ' ms');
            END IF;
            IF r.rate IS NOT NULL THEN
                lines := lines || format('rate limit schedule lag: avg %s (max %s) ms',
                                         round(coalesce(r.lag_avg_ms, 0)::numeric, 3), round(coalesce(r.lag_max_ms, 0)::numeric, 3));
            END IF;
            IF r.connect_per_transaction THEN
                lines := lines || ('average connection time = ' || coalesce(round(r.conn_time_ms::numeric, 3)::text, '-') || ' ms');
                lines := lines || ('tps = ' || coalesce(round(r.tps::numeric, 6)::text, '-') || ' (including reconnection times)');
            ELSE
                lines := lines || ('initial connection time = ' || coalesce(round(r.conn_time_ms::numeric, 3)::text, '-') || ' ms');
                lines := lines || ('tps = ' || coalesce(round(r.tps::numeric, 6)::text, '-') || ' (without initial connection time)');
            END IF;

            /* per script (several scripts) and per statement (-r) */
            FOR mix IN
                SELECT m.n::int AS n,
                       regexp_replace(m.item, '@[0-9]+$', '') AS name,
                       coalesce(substring(m.item FROM '@([0-9]+)$')::bigint, 1) AS weight
                FROM regexp_split_to_table(r.script, ',\s*') WITH ORDINALITY AS m(item, n)
                ORDER BY m.n
            LOOP
                IF per_script THEN
                    ss := r.script_stats -> (mix.n - 1);
                    s_cnt := coalesce((ss ->> 'transactions')::numeric, 0);
                    s_failed := coalesce((ss ->> 'failed')::numeric, 0);
                    s_total := s_cnt + s_failed + coalesce((ss ->> 'skipped')::numeric, 0);
                    lines := lines || format('SQL script %s: %s', mix.n,
                                             coalesce((SELECT b.description FROM pgbenchx.builtin_scripts() b
                                                       WHERE b.name = mix.name), mix.name));
                    lines := lines || format(' - weight: %s (targets %s%% of total)', mix.weight,
                                             round(CASE WHEN total_w > 0 THEN 100 * mix.weight / total_w ELSE 0 END, 1));
                    IF ss IS NULL THEN
                        /* a run recorded before runs.script_stats: no per-script figures */
                        lines := lines || ' - transactions: not recorded'::text;
                    END IF;
                END IF;
                IF per_script AND ss IS NOT NULL THEN
                    lines := lines || format(' - %s transactions (%s%% of total, tps = %s)', s_cnt,
                                             CASE WHEN r.transactions > 0 THEN round(100 * s_cnt / r.transactions, 1)::text ELSE 'NaN' END,
                                             coalesce(round((s_cnt / nullif(r.bench_duration_s, 0)::numeric), 6)::text, '-'));
                    lines := lines || format(' - number of failed transactions: %s (%s%%)', s_failed,
                                             CASE WHEN s_total > 0 THEN round(100 * s_failed / s_total, 3)::text ELSE 'NaN' END);
                    IF tries <> 1 THEN
                        lines := lines || format(' - number of transactions retried: %s (%s%%)',
                                                 coalesce(ss ->> 'retried', '0'),
                                                 CASE WHEN s_total > 0 THEN round(100 * coalesce((ss ->> 'retried')::numeric, 0) / s_total, 3)::text ELSE 'NaN' END);
                        lines := lines || (' - total number of retries: ' || coalesce(ss ->> 'retries', '0'));
                    END IF;
                    IF r.rate IS NOT NULL AND r.latency_limit_ms IS NOT NULL AND s_total > 0 THEN
                        lines := lines || format(' - number of transactions skipped: %s (%s%%)',
                                                 coalesce(ss ->> 'skipped', '0'),
                                                 round(100 * coalesce((ss ->> 'skipped')::numeric, 0) / s_total, 3));
                    END IF;
                    IF s_cnt > 0 AND ss ->> 'latency_avg_ms' IS NOT NULL THEN
                        lines := lines || (' - latency average = ' || round((ss ->> 'latency_avg_ms')::numeric, 3) || ' ms');
                        lines := lines || (' - latency stddev = ' || round((ss ->> 'latency_stddev_ms')::numeric, 3) || ' ms');
                    END IF;
                END IF;
                IF EXISTS (SELECT 1 FROM pgbenchx.statement_stats x WHERE x.run_id = r.run_id AND x.script = mix.name) THEN
                    lines := lines || format('%sstatement latencies in milliseconds%s:',
                                             CASE WHEN per_script THEN ' - ' ELSE '' END,
                                             CASE WHEN tries = 1 THEN ' and failures' ELSE ', failures and retries' END);
                    FOR st IN
                        SELECT x.* FROM pgbenchx.statement_stats x
                        WHERE x.run_id = r.run_id AND x.script = mix.name ORDER BY x.command
                    LOOP
                        lines := lines || CASE WHEN tries = 1
                            THEN format('   %11s  %10s  %s', round(coalesce(st.latency_avg_ms, 0)::numeric, 3),
                                        st.failures, st.command_text)
                            ELSE format('   %11s  %10s  %10s  %s', round(coalesce(st.latency_avg_ms, 0)::numeric, 3),
                                        st.failures, st.retries, st.command_text) END;
                    END LOOP;
                END IF;
            END LOOP;
        END IF;
    END IF;

    /* pgbenchx's own, which pgbench lacks */
    lines := lines || '-- pgbenchx --'::text;
    IF r.status <> 'completed' THEN
        lines := lines || ('status: ' || r.status || coalesce(': ' || r.error, ''));
    END IF;
    IF r.latency_p50_ms IS NOT NULL AND r.latency_p50_ms::text <> 'NaN' THEN
        lines := lines || format('latency percentiles: p50 = %s ms, p90 = %s ms, p95 = %s ms, p99 = %s ms, max = %s ms',
                                 round(r.latency_p50_ms::numeric, 3), round(r.latency_p90_ms::numeric, 3),
                                 round(r.latency_p95_ms::numeric, 3), round(r.latency_p99_ms::numeric, 3),
                                 coalesce(round(r.latency_max_ms::numeric, 3)::text, '-'));
    END IF;
    IF coalesce(r.aborted_clients, 0) > 0 THEN
        lines := lines || format('aborted clients: %s', r.aborted_clients);
    END IF;
    IF r.driver_cpu_s IS NOT NULL THEN
        share := CASE WHEN r.bench_duration_s >= 1 THEN r.driver_cpu_s / (r.bench_duration_s * r.jobs) END;
        lines := lines || format('driver CPU = %s s%s', round(r.driver_cpu_s::numeric, 3),
                                 CASE WHEN share IS NOT NULL
                                      THEN format(' (%s%% of %s job%s over %s s)', round((100 * share)::numeric, 3), r.jobs,
                                                  CASE WHEN r.jobs = 1 THEN '' ELSE 's' END,
                                                  round(r.bench_duration_s::numeric, 3))
                                      ELSE '' END);
        -- the same threshold as pgbenchx.wait's notice (wait.c, WAIT_DRIVER_BOUND_SHARE)
        IF share > 0.9 THEN
            lines := lines || format('warning: the driver workers were busy %s%% of the time: the load generator, not the server, may have been the limit; pass more jobs, or run the clients from another machine',
                                     round((100 * share)::numeric));
        END IF;
    END IF;
    /* why (issue 13): the verdict of explain_run and the per-transaction figures */
    IF r.record_system THEN
        /* the driver's CPU alone (runs.driver_cpu_s) tells nothing of the server */
        IF r.verdict IS NULL AND coalesce(r.wal_bytes_per_tx, r.blocks_read_per_tx, r.blocks_written_per_tx,
                                          r.server_cpu_ms_per_tx, r.iowait_avg) IS NULL AND r.top_waits IS NULL THEN
            lines := lines || 'limit: not known (nothing was recorded about the machine and the server)'::text;
        ELSE
            lines := lines || format('limit: %s; per transaction: WAL %s bytes, %s blocks read, %s blocks written, server CPU %s ms, driver CPU %s ms; iowait %s',
                                     coalesce(r.verdict, 'no evident limit'),
                                     coalesce(round(r.wal_bytes_per_tx::numeric, 1)::text, '-'),
                                     coalesce(round(r.blocks_read_per_tx::numeric, 3)::text, '-'),
                                     coalesce(round(r.blocks_written_per_tx::numeric, 3)::text, '-'),
                                     coalesce(round(r.server_cpu_ms_per_tx::numeric, 3)::text, '-'),
                                     coalesce(round(r.driver_cpu_ms_per_tx::numeric, 3)::text, '-'),
                                     coalesce(round((100 * r.iowait_avg)::numeric, 1) || '%', '-'));
        END IF;
        IF jsonb_typeof(r.top_waits) = 'array' AND jsonb_array_length(r.top_waits) > 0 THEN
            lines := lines || ('top waits: ' ||
                               (SELECT string_agg(format('%s:%s %s%%', e ->> 'wait_event_type', e ->> 'wait_event',
                                                         round(100 * (e ->> 'share')::numeric, 1)), ', ' ORDER BY n)
                                FROM jsonb_array_elements(r.top_waits) WITH ORDINALITY AS x(e, n)));
        END IF;
    ELSIF NOT r.record_system THEN
        lines := lines || 'limit: not recorded (record_system => false)'::text;
    END IF;
    RETURN array_to_string(lines, E'\n');
END $$;

/*
 * 90_runner_grants: the routines 0.4 adds, for the roles that already run
 * benchmarks (the pattern of 0.2--0.3's 90_runner_grants.sql).
 * grant_runner gives a runner EXECUTE on every routine of the extension; a
 * runner granted under 0.3 holds EXECUTE on pgbenchx.wait, and gets the new
 * routines here, as grant_runner would have given them.  A GRANT in an
 * extension script is recorded in pg_init_privs as the extension's own
 * initial privilege, which pg_dump does not dump: the initial privileges
 * are put back to what a fresh CREATE EXTENSION records (each routine's
 * REVOKE ... FROM PUBLIC), so that pg_dump keeps these grants as the
 * user's.  (The entry points and pgbench_init, dropped and re-created by
 * 30_generators.sql and 40_init_jobs.sql, get back the grants they had
 * there; run_generators gets its SELECT grants in 30_generators.sql.)
 */
DO $$
DECLARE
    g    record;
    f    pg_catalog.regprocedure;
    init pg_catalog.aclitem[];
BEGIN
    FOREACH f IN ARRAY ARRAY['pgbenchx.launch_part(jsonb)',
                             'pgbenchx.part_go(bigint, timestamptz)',
                             'pgbenchx.generator_status()']::pg_catalog.regprocedure[] LOOP
        SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
        WHERE i.objoid OPERATOR(pg_catalog.=) f::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
        FOR g IN
            SELECT DISTINCT a.grantee
            FROM pg_catalog.pg_proc p
            CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
            WHERE p.oid OPERATOR(pg_catalog.=) 'pgbenchx.wait(bigint)'::pg_catalog.regprocedure::pg_catalog.oid
              AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text
              AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
            ORDER BY a.grantee
        LOOP
            EXECUTE pg_catalog.format('GRANT EXECUTE ON ROUTINE %s TO %s', f,
                                      CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                           ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
        END LOOP;
        UPDATE pg_catalog.pg_init_privs i SET initprivs = init
        WHERE i.objoid OPERATOR(pg_catalog.=) f::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
    END LOOP;
END $$;
