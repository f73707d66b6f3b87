
/*
 * 30_generators (issue 14, the recorder side): run_bench, both run_sweep
 * and run_replay gain generators and max_clock_offset_ms (the last
 * parameters), so they are dropped and created again with the grants they
 * had; pgbenchx.generator_status() is what a recorder asks each generator
 * before a run; pgbenchx.run_generators keeps one row per generator of a
 * run.  Runners who had pgbenchx.wait get EXECUTE on generator_status and
 * those who could read pgbenchx.samples get SELECT on run_generators, as
 * grant_runner gives them; the initial privileges are put back to what a
 * fresh CREATE EXTENSION records, so that pg_dump keeps these grants as the
 * user's.
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

-- generator_status for the runners (those holding EXECUTE on wait), and
-- SELECT on run_generators for those who may read samples; initial
-- privileges as a fresh CREATE EXTENSION records them.
DO $$
DECLARE
    g    record;
    init pg_catalog.aclitem[];
BEGIN
    SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
    WHERE i.objoid OPERATOR(pg_catalog.=) 'pgbenchx.generator_status()'::pg_catalog.regprocedure::pg_catalog.oid
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
        EXECUTE pg_catalog.format('GRANT EXECUTE ON ROUTINE pgbenchx.generator_status() TO %s',
                                  CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                       ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
    END LOOP;
    UPDATE pg_catalog.pg_init_privs i SET initprivs = init
    WHERE i.objoid OPERATOR(pg_catalog.=) 'pgbenchx.generator_status()'::pg_catalog.regprocedure::pg_catalog.oid
      AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
      AND i.objsubid OPERATOR(pg_catalog.=) 0;

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
