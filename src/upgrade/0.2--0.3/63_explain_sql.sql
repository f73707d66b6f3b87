
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
        lines := lines || format('number of failed transactions: %s (%s%%)', failed,
                                 round(CASE WHEN total_cnt > 0 THEN 100 * failed / total_cnt ELSE 0 END, 3));
        IF tries <> 1 THEN
            lines := lines || format('number of transactions retried: %s (%s%%)', coalesce(r.retried, 0),
                                     round(CASE WHEN total_cnt > 0 THEN 100 * coalesce(r.retried, 0) / total_cnt ELSE 0 END, 3));
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
                                         round(CASE WHEN r.transactions > 0 THEN 100.0 * coalesce(r.late, 0) / r.transactions ELSE 0 END, 3));
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
                                             round(CASE WHEN r.transactions > 0 THEN 100 * s_cnt / r.transactions ELSE 0 END, 1),
                                             coalesce(round((s_cnt / nullif(r.bench_duration_s, 0)::numeric), 6)::text, '-'));
                    lines := lines || format(' - number of failed transactions: %s (%s%%)', s_failed,
                                             round(CASE WHEN s_total > 0 THEN 100 * s_failed / s_total ELSE 0 END, 3));
                    IF tries <> 1 THEN
                        lines := lines || format(' - number of transactions retried: %s (%s%%)',
                                                 coalesce(ss ->> 'retried', '0'),
                                                 round(CASE WHEN s_total > 0 THEN 100 * coalesce((ss ->> 'retried')::numeric, 0) / s_total ELSE 0 END, 3));
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
    FOREACH k IN ARRAY ARRAY['imports', 'system_samples', 'wait_samples'] LOOP
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
        ('wait_samples', ARRAY['run_id', 'second', 'wait_event_type', 'wait_event', 'samples'])
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
        ('wait_samples', 'samples', 0, 2147483647, false)
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
        ('system_samples', 'wal_queue', 0, 1e15, false)
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
    -- latency histograms (absent from a 0.2 document): base64 text or null,
    -- and bytes that pgbenchx.latency_percentile decodes (src/histcodec.h)
    SELECT y.what, y.v INTO bad FROM (
        SELECT pg_catalog.format('"latency_hist" of element %s of "%s"', x.i, x.k) AS what, x.e->'latency_hist' AS v
        FROM (SELECT 'runs' AS k, r.i, r.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY r(e, i)
              UNION ALL
              SELECT 'samples', s.i, s.e FROM pg_catalog.jsonb_array_elements(doc->'samples') WITH ORDINALITY s(e, i)) x
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
              SELECT s FROM pg_catalog.jsonb_array_elements(doc->'samples') s) y(x)
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

    RETURN result;
END $$;

/*
 * The grants: the four entry points get back those they had; the new
 * routines go to every role that may run pgbenchx.wait (grant_runner ran
 * before they existed).  A GRANT in an extension script is recorded in
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
                     ('replay', 'run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint, boolean)'),
                     (NULL, 'pgbenchx.explain_run(bigint)'),
                     (NULL, 'pgbenchx.explain_compare(bigint, bigint)'),
                     (NULL, 'pgbenchx.explain_times(float8)')) x(entry, sig)
    LOOP
        SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
        WHERE i.objoid OPERATOR(pg_catalog.=) f.sig::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
        FOR g IN
            SELECT DISTINCT pg_catalog.split_part(x, '=', 2)::pg_catalog.oid AS grantee
            FROM pg_catalog.unnest(pg_catalog.string_to_array(
                     pg_catalog.current_setting('pgbenchx_upgrade.entry_grants'), ',')) x
            WHERE f.entry IS NOT NULL
              AND pg_catalog.split_part(x, '=', 1) OPERATOR(pg_catalog.=) f.entry
            UNION
            SELECT a.grantee
            FROM pg_catalog.pg_proc p
            CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
            WHERE f.entry IS NULL
              AND p.oid OPERATOR(pg_catalog.=) 'pgbenchx.wait(bigint)'::pg_catalog.regprocedure::pg_catalog.oid
              AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text
              AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
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
