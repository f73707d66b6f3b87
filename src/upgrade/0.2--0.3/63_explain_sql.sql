
/*
 * 63_explain_sql (issue 13): the SQL face of the explanation.  run_bench,
 * both run_sweep and run_replay gain record_system (the last parameter,
 * default true), so they are dropped and created again with the grants
 * they had; pgbenchx.explain_run computes a run's figures and verdict (the
 * coordinator calls it at the end of each run), pgbenchx.explain_compare
 * compares two sweeps by them (explain_times writes its ratios);
 * sweep_points gains the medians of the figures, report a line with the
 * verdict, export and import carry system_samples, wait_samples and the
 * runs' new columns.
 */

-- Who may execute the four entry points (grant_runner's runners, or any
-- grant of the user's), kept for their new versions in a setting of this
-- transaction.
SELECT pg_catalog.set_config('pgbenchx_upgrade.entry_grants', coalesce(pg_catalog.string_agg(
           pg_catalog.format('%s=%s', w.entry, a.grantee), ','), ''), true)
FROM (VALUES
      ('run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean)'::pg_catalog.regprocedure, 'bench'),
      ('run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean)'::pg_catalog.regprocedure, 'sweep'),
      ('run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean)'::pg_catalog.regprocedure, 'sweep_list'),
      ('run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint)'::pg_catalog.regprocedure, 'replay')) w(f, entry)
JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) w.f::pg_catalog.oid
CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
WHERE a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text
  AND a.grantee OPERATOR(pg_catalog.<>) p.proowner;

DROP FUNCTION run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean);
DROP FUNCTION run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean);
DROP FUNCTION run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean);
DROP FUNCTION run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint);

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
    record_system boolean DEFAULT true)
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
             'check_tpcb', check_tpcb, 'record_system', record_system)
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
    record_system boolean DEFAULT true)
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
             'record_system', record_system)
         || CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

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
    record_system boolean DEFAULT true)
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
             'record_system', record_system)
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
    record_system boolean DEFAULT true)
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
             'random_seed', random_seed, 'record_system', record_system)
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

REVOKE ALL ON FUNCTION run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint, boolean) FROM PUBLIC;

CREATE FUNCTION pgbenchx.explain_run(run_id bigint) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT AS $$
#variable_conflict use_column
DECLARE
    lock_share_min       CONSTANT float8 := 0.5;
    driver_share_min     CONSTANT float8 := 0.9;  -- as wait.c's WAIT_DRIVER_BOUND_SHARE and report's warning
    iowait_min           CONSTANT float8 := 0.2;
    queue_min            CONSTANT float8 := 2.0;
    idle_max             CONSTANT float8 := 0.05;
    clientread_share_min CONSTANT float8 := 0.7;  -- "dominating": the backends mostly wait for their clients
    r          pgbenchx.runs;
    tx         numeric;
    s          record;
    total      numeric;
    top        jsonb;
    wt         record;
    clientread float8;
    driver_s   float8;
    per_job    float8;
    v          text;
BEGIN
    IF explain_run.run_id IS NULL THEN
        RAISE EXCEPTION 'run_id must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'explain_run computes the figures of one run.',
                  HINT = 'Pass the id of a run: SELECT run_id FROM pgbenchx.runs lists them.';
    END IF;
    SELECT * INTO r FROM pgbenchx.runs x WHERE x.run_id = explain_run.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no run has id %', explain_run.run_id
            USING ERRCODE = 'undefined_object',
                  DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.sweeps w WHERE w.sweep_id = explain_run.run_id)
                                THEN format('%s is the id of a sweep, not of a run.', explain_run.run_id)
                                ELSE format('pgbenchx.runs has no row with run_id %s.', explain_run.run_id) END,
                  HINT = 'SELECT run_id, sweep_id, status FROM pgbenchx.runs lists them.';
    END IF;
    IF NOT has_table_privilege('pgbenchx.runs', 'UPDATE') THEN
        RAISE EXCEPTION 'permission denied for pgbenchx.explain_run'
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = 'explain_run stores its figures in pgbenchx.runs, which only the extension''s owner writes; the coordinator calls it at the end of every run.',
                  HINT = 'Read the figures from pgbenchx.runs, or ask the extension''s owner to recompute them.';
    END IF;
    IF r.status = 'running' THEN
        RAISE EXCEPTION 'run % is still running', r.run_id
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'Its figures are computed once its last second is recorded.',
                  HINT = format('CALL pgbenchx.wait(%s); the coordinator computes them at the end of the run.', r.run_id);
    END IF;

    IF coalesce(r.record_system, false) THEN
        tx := nullif(r.transactions, 0);
        SELECT sum(x.wal_bytes) AS wal_bytes,
               sum(x.blks_read) AS blks_read,
               sum(x.buffers_checkpoint + x.buffers_clean + x.buffers_backend) AS blks_written,
               sum(x.backend_cpu_s) AS backend_cpu_s,
               sum(x.driver_cpu_s) AS driver_cpu_s,
               sum(x.cpu_iowait * coalesce(x.covered_s, 1))
                   / nullif(sum(coalesce(x.covered_s, 1)) FILTER (WHERE x.cpu_iowait IS NOT NULL), 0) AS iowait,
               sum(x.cpu_idle * coalesce(x.covered_s, 1))
                   / nullif(sum(coalesce(x.covered_s, 1)) FILTER (WHERE x.cpu_idle IS NOT NULL), 0) AS idle,
               sum(x.data_queue * coalesce(x.covered_s, 1))
                   / nullif(sum(coalesce(x.covered_s, 1)) FILTER (WHERE x.data_queue IS NOT NULL), 0) AS data_queue,
               sum(x.wal_queue * coalesce(x.covered_s, 1))
                   / nullif(sum(coalesce(x.covered_s, 1)) FILTER (WHERE x.wal_queue IS NOT NULL), 0) AS wal_queue
        INTO s
        FROM pgbenchx.system_samples x WHERE x.run_id = r.run_id;

        SELECT sum(x.samples) INTO total FROM pgbenchx.wait_samples x WHERE x.run_id = r.run_id;
        total := nullif(total, 0);
        SELECT jsonb_agg(jsonb_build_object('wait_event_type', q.t, 'wait_event', q.e,
                                            'share', round(q.n / total, 4))
                         ORDER BY q.n DESC, q.t, q.e)
        INTO top
        FROM (SELECT x.wait_event_type AS t, x.wait_event AS e, sum(x.samples) AS n
              FROM pgbenchx.wait_samples x WHERE x.run_id = r.run_id
              GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 5) q
        WHERE total IS NOT NULL;

        driver_s := coalesce(s.driver_cpu_s, r.driver_cpu_s);
        per_job := CASE WHEN r.bench_duration_s >= 1 AND r.jobs > 0
                        THEN driver_s / (r.bench_duration_s * r.jobs) END;

        /* the share of each kind of wait, and its largest event */
        IF total IS NOT NULL THEN
            FOR wt IN
                SELECT k.t, k.n / total AS share,
                       (SELECT x.wait_event FROM pgbenchx.wait_samples x
                        WHERE x.run_id = r.run_id AND x.wait_event_type = k.t
                        GROUP BY x.wait_event ORDER BY sum(x.samples) DESC, x.wait_event LIMIT 1) AS event,
                       (SELECT sum(x.samples) FROM pgbenchx.wait_samples x
                        WHERE x.run_id = r.run_id AND x.wait_event_type = k.t
                        GROUP BY x.wait_event ORDER BY sum(x.samples) DESC, x.wait_event LIMIT 1) / total AS event_share
                FROM (SELECT x.wait_event_type AS t, sum(x.samples) AS n FROM pgbenchx.wait_samples x
                      WHERE x.run_id = r.run_id AND x.wait_event_type IN ('Lock', 'LWLock')
                      GROUP BY 1) k
                ORDER BY CASE k.t WHEN 'Lock' THEN 1 ELSE 2 END
            LOOP
                IF v IS NULL AND wt.share >= lock_share_min THEN
                    v := format('%s (%s waits %s%% of sampled time, %s:%s %s%%)',
                                CASE wt.t WHEN 'Lock' THEN 'locks' ELSE 'LWLocks' END, wt.t,
                                round(100 * wt.share), wt.t, wt.event, round(100 * wt.event_share));
                END IF;
            END LOOP;
        END IF;
        IF v IS NULL AND per_job >= driver_share_min THEN
            v := format('load generator (driver CPU %s%% of a core per job)', round((100 * per_job)::numeric));
        END IF;
        IF v IS NULL AND total IS NOT NULL THEN
            SELECT format('I/O (IO waits %s%% of sampled time, IO:%s %s%%)',
                          round(100 * k.n / total), k.e, round(100 * k.top / total)) INTO v
            FROM (SELECT sum(x.samples) AS n,
                         (array_agg(x.wait_event ORDER BY x.samples DESC, x.wait_event))[1] AS e,
                         max(x.samples) AS top
                  FROM (SELECT y.wait_event, sum(y.samples) AS samples FROM pgbenchx.wait_samples y
                        WHERE y.run_id = r.run_id AND y.wait_event_type = 'IO' GROUP BY 1) x) k
            WHERE k.n / total >= lock_share_min;
        END IF;
        IF v IS NULL AND s.iowait >= iowait_min THEN
            v := format('I/O (iowait %s%% of CPU time)', round((100 * s.iowait)::numeric));
        END IF;
        IF v IS NULL AND greatest(s.data_queue, s.wal_queue) >= queue_min THEN
            v := CASE WHEN coalesce(s.wal_queue, 0) > coalesce(s.data_queue, 0)
                      THEN format('I/O (WAL device queue depth %s)', round(s.wal_queue::numeric, 1))
                      ELSE format('I/O (data device queue depth %s)', round(s.data_queue::numeric, 1)) END;
        END IF;
        IF v IS NULL AND s.idle < idle_max THEN
            v := format('CPU (machine idle %s%%)', round((100 * s.idle)::numeric, 1));
        END IF;
        IF v IS NULL AND total IS NOT NULL THEN
            SELECT sum(x.samples) / total INTO clientread FROM pgbenchx.wait_samples x
            WHERE x.run_id = r.run_id AND x.wait_event_type = 'Client' AND x.wait_event = 'ClientRead';
            IF clientread >= clientread_share_min THEN
                v := format('load generator (Client:ClientRead %s%% of sampled time)', round((100 * clientread)::numeric));
            END IF;
        END IF;

        UPDATE pgbenchx.runs x SET
            wal_bytes_per_tx = s.wal_bytes / tx,
            blocks_read_per_tx = s.blks_read / tx,
            blocks_written_per_tx = s.blks_written / tx,
            server_cpu_ms_per_tx = 1000 * s.backend_cpu_s / tx,
            driver_cpu_ms_per_tx = 1000 * driver_s / tx,
            iowait_avg = s.iowait,
            top_waits = top,
            verdict = v
        WHERE x.run_id = r.run_id;
    ELSE
        UPDATE pgbenchx.runs x SET
            wal_bytes_per_tx = NULL, blocks_read_per_tx = NULL, blocks_written_per_tx = NULL,
            server_cpu_ms_per_tx = NULL, driver_cpu_ms_per_tx = NULL, iowait_avg = NULL,
            top_waits = NULL, verdict = NULL
        WHERE x.run_id = r.run_id;
    END IF;
    RETURN v;
END $$;

REVOKE ALL ON FUNCTION pgbenchx.explain_run(bigint) FROM PUBLIC;

CREATE OR REPLACE VIEW pgbenchx.sweep_points AS
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
           pg_catalog.array_agg(r.run_id ORDER BY r.run_id) FILTER (WHERE r.checkpoints OPERATOR(pg_catalog.>) 0) AS checkpoint_run_ids,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.qpm) FILTER (WHERE r.replay) AS median_qpm,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.wal_bytes_per_tx) AS wal_bytes_per_tx,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.blocks_read_per_tx) AS blocks_read_per_tx,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.blocks_written_per_tx) AS blocks_written_per_tx,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.server_cpu_ms_per_tx) AS server_cpu_ms_per_tx,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.driver_cpu_ms_per_tx) AS driver_cpu_ms_per_tx,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.iowait_avg) AS iowait_avg
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
       f.run_ids,
       f.median_qpm,
       f.wal_bytes_per_tx, f.blocks_read_per_tx, f.blocks_written_per_tx,
       f.server_cpu_ms_per_tx, f.driver_cpu_ms_per_tx, f.iowait_avg
FROM flagged f;

COMMENT ON COLUMN pgbenchx.sweep_points.wal_bytes_per_tx IS 'median of those runs'' WAL bytes per transaction (runs.wal_bytes_per_tx)';
COMMENT ON COLUMN pgbenchx.sweep_points.blocks_read_per_tx IS 'median of their blocks read per transaction';
COMMENT ON COLUMN pgbenchx.sweep_points.blocks_written_per_tx IS 'median of their blocks written per transaction';
COMMENT ON COLUMN pgbenchx.sweep_points.server_cpu_ms_per_tx IS 'median of their client backends'' CPU per transaction, ms';
COMMENT ON COLUMN pgbenchx.sweep_points.driver_cpu_ms_per_tx IS 'median of their driver workers'' CPU per transaction, ms';
COMMENT ON COLUMN pgbenchx.sweep_points.iowait_avg IS 'median of their average iowait';

CREATE FUNCTION pgbenchx.explain_compare(sweep_a bigint, sweep_b bigint)
RETURNS TABLE (clients int, wal_per_tx_ratio float8, blocks_read_per_tx_ratio float8,
               server_cpu_per_tx_ratio float8, iowait_ratio float8, wait_event text,
               wait_share_a float8, wait_share_b float8, wait_ratio float8, explanation text)
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
#variable_conflict use_column
DECLARE
    differ CONSTANT float8 := 1.1;   -- a figure is named when b/a >= 1.1 or <= 1/1.1
    -- ... and when it is not negligible on both sides: less than a WAL
    -- record header per transaction, a block read per hundred
    -- transactions, or 1% iowait, is no difference worth a word
    wal_min    CONSTANT float8 := 8;
    blocks_min CONSTANT float8 := 0.01;
    iowait_min CONSTANT float8 := 0.01;
    p      record;
    parts  text[];
    fig    record;
    w      record;
BEGIN
    -- the same checks and errors as compare (nulls, unknown ids, a replay against a benchmark)
    PERFORM 1 FROM pgbenchx.compare(explain_compare.sweep_a, explain_compare.sweep_b) LIMIT 1;

    FOR p IN
        SELECT coalesce(a.clients, b.clients) AS clients,
               b.wal_bytes_per_tx / nullif(a.wal_bytes_per_tx, 0) AS wal,
               b.blocks_read_per_tx / nullif(a.blocks_read_per_tx, 0) AS br,
               b.server_cpu_ms_per_tx / nullif(a.server_cpu_ms_per_tx, 0) AS cpu,
               b.iowait_avg / nullif(a.iowait_avg, 0) AS iowait,
               greatest(a.wal_bytes_per_tx, b.wal_bytes_per_tx) AS wal_max,
               greatest(a.blocks_read_per_tx, b.blocks_read_per_tx) AS br_max,
               greatest(a.iowait_avg, b.iowait_avg) AS iowait_max,
               a.clients IS NOT NULL AND b.clients IS NOT NULL AS both_sides,
               a.clients IS NOT NULL AS in_a,
               coalesce(a.wal_bytes_per_tx, a.blocks_read_per_tx, a.server_cpu_ms_per_tx, a.iowait_avg) IS NOT NULL AS has_a,
               coalesce(b.wal_bytes_per_tx, b.blocks_read_per_tx, b.server_cpu_ms_per_tx, b.iowait_avg) IS NOT NULL AS has_b
        FROM (SELECT * FROM pgbenchx.sweep_points x WHERE x.sweep_id = explain_compare.sweep_a) a
        FULL JOIN (SELECT * FROM pgbenchx.sweep_points x WHERE x.sweep_id = explain_compare.sweep_b) b
            ON a.clients = b.clients
        ORDER BY 1
    LOOP
        /* the wait event whose share differs most, the runs of each point pooled */
        WITH shares AS (
            SELECT x.sweep_id, ws.wait_event_type || ':' || ws.wait_event AS ev,
                   sum(ws.samples)::float8 / nullif(sum(sum(ws.samples)) OVER (PARTITION BY x.sweep_id), 0) AS share
            FROM pgbenchx.runs x JOIN pgbenchx.wait_samples ws ON ws.run_id = x.run_id
            WHERE x.sweep_id IN (explain_compare.sweep_a, explain_compare.sweep_b)
              AND x.clients = p.clients AND x.status = 'completed'
            GROUP BY x.sweep_id, ws.wait_event_type, ws.wait_event)
        SELECT e.ev,
               coalesce(sa.share, 0) AS a_share, coalesce(sb.share, 0) AS b_share
        INTO w
        FROM (SELECT DISTINCT s.ev FROM shares s
              WHERE s.ev <> 'CPU:on CPU' AND s.ev NOT LIKE 'Client:%') e
        LEFT JOIN shares sa ON sa.ev = e.ev AND sa.sweep_id = explain_compare.sweep_a
        LEFT JOIN shares sb ON sb.ev = e.ev AND sb.sweep_id = explain_compare.sweep_b
        WHERE EXISTS (SELECT 1 FROM shares s WHERE s.sweep_id = explain_compare.sweep_a)
          AND EXISTS (SELECT 1 FROM shares s WHERE s.sweep_id = explain_compare.sweep_b)
        ORDER BY abs(coalesce(sb.share, 0) - coalesce(sa.share, 0)) DESC, e.ev
        LIMIT 1;

        parts := '{}';
        IF NOT p.both_sides THEN
            explanation := format('%s clients were measured in sweep %s only', p.clients,
                                  CASE WHEN p.in_a THEN explain_compare.sweep_a ELSE explain_compare.sweep_b END);
        ELSIF NOT p.has_a OR NOT p.has_b THEN
            explanation := CASE WHEN NOT p.has_a AND NOT p.has_b
                                THEN format('neither sweep %s nor sweep %s recorded what the server did', explain_compare.sweep_a, explain_compare.sweep_b)
                                ELSE format('sweep %s did not record what the server did',
                                            CASE WHEN p.has_a THEN explain_compare.sweep_b ELSE explain_compare.sweep_a END) END;
        ELSE
            FOR fig IN
                SELECT f.ratio, f.words FROM (VALUES
                    (1, p.wal, 'writes %s the WAL per transaction', p.wal_max >= wal_min),
                    (2, p.br, 'reads %s the blocks per transaction', p.br_max >= blocks_min),
                    (3, p.cpu, 'spends %s the server CPU per transaction', true),
                    (4, p.iowait, 'has %s the iowait', p.iowait_max >= iowait_min)) f(n, ratio, words, worth)
                WHERE (f.ratio >= differ OR f.ratio <= 1 / differ) AND f.worth
                ORDER BY f.n
            LOOP
                parts := parts || format(fig.words, pgbenchx.explain_times(fig.ratio));
            END LOOP;
            IF w.ev IS NOT NULL AND (w.b_share >= differ * w.a_share OR w.a_share >= differ * w.b_share)
               AND greatest(w.a_share, w.b_share) >= 0.01 THEN
                parts := parts || CASE WHEN w.a_share = 0
                    THEN format('waits on %s (%s%% of sampled time) where sweep %s did not', w.ev,
                                round((100 * w.b_share)::numeric), explain_compare.sweep_a)
                    WHEN w.b_share = 0
                    THEN format('does not wait on %s, where sweep %s spent %s%% of sampled time', w.ev,
                                explain_compare.sweep_a, round((100 * w.a_share)::numeric))
                    ELSE format('waits %s as long on %s (%s%% of sampled time against %s%%)', pgbenchx.explain_times(w.b_share / w.a_share),
                                w.ev, round((100 * w.b_share)::numeric), round((100 * w.a_share)::numeric)) END;
            END IF;
            IF cardinality(parts) = 0 THEN
                explanation := format('sweep %s and sweep %s do the same work per transaction and wait alike (within 10%%, or too little to matter)',
                                      explain_compare.sweep_b, explain_compare.sweep_a);
            ELSE
                /* "of sweep A" after the first figure, "and" before the last */
                parts[1] := CASE WHEN parts[1] LIKE 'waits on %' OR parts[1] LIKE 'does not wait on %' THEN parts[1]
                                 WHEN parts[1] LIKE 'waits %' THEN replace(parts[1], ' as long on ', ' as long as sweep ' || explain_compare.sweep_a || ' on ')
                                 ELSE parts[1] || ' of sweep ' || explain_compare.sweep_a END;
                explanation := format('sweep %s %s', explain_compare.sweep_b,
                                      CASE WHEN cardinality(parts) = 1 THEN parts[1]
                                           ELSE array_to_string(parts[1:cardinality(parts) - 1], ', ')
                                                || ' and ' || parts[cardinality(parts)] END);
            END IF;
        END IF;
        clients := p.clients;
        wal_per_tx_ratio := round(p.wal::numeric, 4)::float8;
        blocks_read_per_tx_ratio := round(p.br::numeric, 4)::float8;
        server_cpu_per_tx_ratio := round(p.cpu::numeric, 4)::float8;
        iowait_ratio := round(p.iowait::numeric, 4)::float8;
        wait_event := w.ev;
        wait_share_a := round(w.a_share::numeric, 4)::float8;
        wait_share_b := round(w.b_share::numeric, 4)::float8;
        wait_ratio := round((w.b_share / nullif(w.a_share, 0))::numeric, 4)::float8;
        RETURN NEXT;
    END LOOP;
END $$;

CREATE FUNCTION pgbenchx.explain_times(ratio float8) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
SELECT CASE WHEN ratio OPERATOR(pg_catalog.>=) 10::float8 THEN pg_catalog.round(ratio::numeric)::text
            WHEN ratio OPERATOR(pg_catalog.>=) 1::float8 THEN pg_catalog.round(ratio::numeric, 1)::text
            ELSE pg_catalog.round(ratio::numeric, 2)::text END
       OPERATOR(pg_catalog.||) CASE WHEN pg_catalog.getdatabaseencoding() OPERATOR(pg_catalog.=) 'UTF8'
                                    THEN pg_catalog.chr(215) ELSE 'x' END
$$;

REVOKE ALL ON FUNCTION pgbenchx.explain_compare(bigint, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.explain_times(float8) FROM PUBLIC;

-- pgbenchx.report: re-created once, with this change in it, by 10_report.sql

-- pgbenchx.export: re-created once, with this change in it, by 65_hist.sql

-- pgbenchx.import: re-created once, with this change in it, by 65_hist.sql

/*
 * The grants: the four entry points get back those they had (the new
 * routines get theirs in 90_runner_grants.sql).  A GRANT in an extension script is recorded in
 * pg_init_privs as the extension's own initial privilege, which pg_dump
 * does not dump; the initial privileges are put back to what a fresh
 * CREATE EXTENSION records (the REVOKE above), so that pg_dump keeps these
 * grants as the user's.
 */
DO $$
DECLARE
    f    record;
    g    record;
    init pg_catalog.aclitem[];
BEGIN
    FOR f IN
        SELECT x.entry, x.sig::pg_catalog.regprocedure AS sig
        FROM (VALUES
                     ('bench', 'run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean, boolean)'),
                     ('sweep', 'run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean)'),
                     ('sweep_list', 'run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean)'),
                     ('replay', 'run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint, boolean)')) x(entry, sig)
    LOOP
        SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
        WHERE i.objoid OPERATOR(pg_catalog.=) f.sig::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
        FOR g IN
            SELECT DISTINCT pg_catalog.split_part(x, '=', 2)::pg_catalog.oid AS grantee
            FROM pg_catalog.unnest(pg_catalog.string_to_array(
                     pg_catalog.current_setting('pgbenchx_upgrade.entry_grants'), ',')) x
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
