/*
 * src/sql/50_compare.sql: the views over repeated points (sweep_points,
 * sweep_summary) and compare(sweep_a, sweep_b).  Stateless.
 */

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
-- during one of its runs; for a replay, the median of runs.qpm (queries
-- per minute; NULL for a benchmark sweep); and the medians of the runs'
-- figures of issue 13 (runs.wal_bytes_per_tx ... iowait_avg: NULL where
-- none was recorded); and the 95% confidence interval of the mean tps over
-- the point's runs (pgbenchx.ci_repeats, a t-interval; NULL with one run:
-- docs/comparing.md).  Readable by roles granted SELECT.
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
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.iowait_avg) AS iowait_avg,
           pgbenchx.ci_repeats(pg_catalog.array_agg(r.tps ORDER BY r.run_id)) AS ci
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
       f.server_cpu_ms_per_tx, f.driver_cpu_ms_per_tx, f.iowait_avg,
       (f.ci).low AS tps_ci_low, (f.ci).high AS tps_ci_high
FROM flagged f;
COMMENT ON VIEW pgbenchx.sweep_points IS 'per sweep and client count: median, min, max and spread of tps over repeats, and unstable points';

-- One row per sweep: its peak tps (the highest median of a point) and the
-- client count reaching it (the lowest on a tie), the tps at the highest
-- client count measured and its percent of the peak (seed 003: "79% of
-- peak at 64 connections"), its runs, unstable points, where it came from
-- when imported, and the key facts of its environment (NULL when none was
-- recorded); for a replay, the peak and the last point in queries per
-- minute too (the unit replays are read in).  Readable by roles granted
-- SELECT.
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
COMMENT ON VIEW pgbenchx.sweep_summary IS 'per sweep: peak tps, percent of peak at the highest client count, environment';

-- compare(sweeps_a, sweeps_b): sweeps against sweeps (issue 35), one row
-- per client count measured (completed runs) on either side.  tps_a and
-- tps_b: each side's geometric mean (1 decimal): per sweep, the geometric
-- mean of its runs' tps at that client count, then the geometric mean of
-- those over the side's sweeps; ratio = tps_b / tps_a (4 decimals),
-- pct_diff = 100 * (ratio - 1) (2 decimals), both before rounding; the
-- median p99 latency of each side's runs (ms, 3 decimals).  A count
-- measured on one side only has NULLs for the other.  Two replays compare
-- in queries per minute: tps_a and tps_b are NULL, qpm_a and qpm_b hold
-- the geometric means (1 decimal); a replay is not compared with a
-- benchmark sweep.
--
-- Is the difference real?  The unit of replication is the sweep: runs of
-- one sweep share what the machine was doing then (other work, its
-- caches, the temperature), which no interval over them can see, so that
-- one sweep against one cannot tell the machine's drift from the effect:
-- with one sweep on a side the ratio is given and not tested.  With two
-- or more sweeps on each side (interleaved in time, ABBA: A B B A),
-- each sweep's geometric mean is one observation, and the ratio gets
-- Student's t-interval on the log scale (pooled variance, sweeps - 2
-- degrees of freedom; pgbenchx.ci_log_ratio): ratio_low_unadjusted and
-- ratio_high_unadjusted (4 decimals).  significant: by Holm's procedure
-- over the client counts tested in this comparison (pgbenchx.ci_holm), and
-- ratio_low/ratio_high the interval at the level Holm tested it at, which
-- excludes 1 exactly when it is significant; method names the unit, the
-- estimator, the correction and the numbers of sweeps and runs;
-- conclusion says it in one sentence, never more than the method
-- supports.  An unknown id is an ERROR.  Callers: roles granted EXECUTE
-- and SELECT on the results.
CREATE OR REPLACE FUNCTION pgbenchx.compare(sweeps_a bigint[], sweeps_b bigint[])
RETURNS TABLE (clients int, tps_a float8, tps_b float8, ratio float8,
               pct_diff float8, p99_a float8, p99_b float8, qpm_a float8, qpm_b float8,
               ratio_low float8, ratio_high float8, significant boolean, method text,
               conclusion text, ratio_low_unadjusted float8, ratio_high_unadjusted float8)
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
#variable_conflict use_column
DECLARE
    arg text;
    ids bigint[];
    id bigint;
    is_replay boolean;
    kinds record;
    name_a text;
    name_b text;
BEGIN
    FOREACH arg IN ARRAY ARRAY['sweeps_a', 'sweeps_b'] LOOP
        ids := CASE arg WHEN 'sweeps_a' THEN compare.sweeps_a ELSE compare.sweeps_b END;
        IF ids IS NULL OR cardinality(ids) = 0 THEN
            RAISE EXCEPTION 'argument "%" must name at least one sweep', arg
                USING ERRCODE = CASE WHEN ids IS NULL THEN 'null_value_not_allowed' ELSE 'invalid_parameter_value' END,
                      HINT = 'Pass an array of sweep ids, such as ARRAY[3, 6].';
        END IF;
        IF array_position(ids, NULL) IS NOT NULL THEN
            RAISE EXCEPTION 'argument "%" must not hold a null', arg
                USING ERRCODE = 'null_value_not_allowed',
                      DETAIL = format('Element %s is null.', array_position(ids, NULL)),
                      HINT = 'Pass the sweep_id of each sweep.';
        END IF;
        FOREACH id IN ARRAY ids LOOP
            IF NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps s WHERE s.sweep_id = id) THEN
                RAISE EXCEPTION 'no sweep has id %', id
                    USING ERRCODE = 'undefined_object',
                          DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.runs r WHERE r.run_id = id)
                                        THEN format('%s is the id of a run, not of a sweep (argument "%s").', id, arg)
                                        ELSE format('pgbenchx.sweeps has no row with sweep_id %s (argument "%s").', id, arg) END,
                          HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweep_summary lists the sweeps.';
            END IF;
        END LOOP;
    END LOOP;

    -- a replay's rate is queries per minute, a benchmark's tps: not comparable
    SELECT min(s.id) FILTER (WHERE s.replay) AS a_replay, min(s.id) FILTER (WHERE NOT s.replay) AS a_bench
    INTO kinds
    FROM (SELECT u.id, coalesce((SELECT bool_or(r.replay) FROM pgbenchx.runs r WHERE r.sweep_id = u.id), false) AS replay
          FROM unnest(compare.sweeps_a || compare.sweeps_b) AS u(id)) s;
    IF kinds.a_replay IS NOT NULL AND kinds.a_bench IS NOT NULL THEN
        RAISE EXCEPTION 'cannot compare a replay with a benchmark sweep'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format('Sweep %s is a replay, measured in queries per minute; sweep %s a benchmark, in transactions per second.',
                                  kinds.a_replay, kinds.a_bench),
                  HINT = 'Compare two replays or two benchmark sweeps.';
    END IF;
    is_replay := kinds.a_replay IS NOT NULL;
    name_a := CASE WHEN cardinality(compare.sweeps_a) = 1 THEN 'sweep ' || compare.sweeps_a[1]
                   ELSE 'sweeps ' || array_to_string(compare.sweeps_a, ', ') END;
    name_b := CASE WHEN cardinality(compare.sweeps_b) = 1 THEN 'sweep ' || compare.sweeps_b[1]
                   ELSE 'sweeps ' || array_to_string(compare.sweeps_b, ', ') END;

    RETURN QUERY
    WITH sw AS (
        SELECT DISTINCT 'a'::text AS side, u.id AS sweep_id FROM unnest(compare.sweeps_a) AS u(id)
        UNION
        SELECT DISTINCT 'b'::text, u.id FROM unnest(compare.sweeps_b) AS u(id)
    ), rr AS (
        SELECT w.side, r.sweep_id, r.clients, r.latency_p99_ms, v.rate
        FROM sw w JOIN pgbenchx.runs r ON r.sweep_id = w.sweep_id AND r.status = 'completed'
        CROSS JOIN LATERAL (SELECT CASE WHEN is_replay THEN r.qpm ELSE r.tps END AS rate) v
    ), per_sweep AS (
        -- one observation per sweep and client count: its geometric mean
        SELECT x.side, x.sweep_id, x.clients, count(*)::int AS n,
               coalesce(bool_and(x.rate > 0), false) AS positive,
               avg(ln(greatest(x.rate, 1e-300))) AS lm
        FROM rr x WHERE x.rate IS NOT NULL
        GROUP BY x.side, x.sweep_id, x.clients
    ), side AS (
        SELECT p.side, p.clients, count(*)::int AS k, sum(p.n)::int AS n, bool_and(p.positive) AS positive,
               avg(p.lm) AS lm, array_agg(exp(p.lm) ORDER BY p.sweep_id) AS obs,
               (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY y.latency_p99_ms)
                  FROM rr y WHERE y.side = p.side AND y.clients = p.clients) AS p99
        FROM per_sweep p
        GROUP BY p.side, p.clients
    ), j AS (
        SELECT coalesce(a.clients, b.clients) AS clients,
               a.k AS k_a, b.k AS k_b, a.n AS n_a, b.n AS n_b, a.p99 AS p99_a, b.p99 AS p99_b,
               CASE WHEN a.positive THEN exp(a.lm) WHEN NOT a.positive THEN 0 END AS g_a,
               CASE WHEN b.positive THEN exp(b.lm) WHEN NOT b.positive THEN 0 END AS g_b,
               coalesce(a.positive AND b.positive, false) AS positive,
               l.ratio AS lr_ratio, l.low AS lr_low, l.high AS lr_high,
               l.log_ratio AS lr_log, l.se AS lr_se, l.df AS lr_df, l.p AS lr_p
        FROM (SELECT * FROM side WHERE side.side = 'a') a
        FULL JOIN (SELECT * FROM side WHERE side.side = 'b') b ON a.clients = b.clients
        LEFT JOIN LATERAL pgbenchx.ci_log_ratio(a.obs, b.obs, false) l
            ON a.k >= 2 AND b.k >= 2 AND a.positive AND b.positive
    ), holm AS (
        SELECT h.clients, h.level, count(*) OVER ()::int AS m
        FROM (SELECT array_agg(t.clients ORDER BY t.clients) AS cl,
                     pgbenchx.ci_holm(array_agg(t.lr_p ORDER BY t.clients)) AS lv
              FROM j t WHERE t.lr_p IS NOT NULL) q
        CROSS JOIN LATERAL unnest(q.cl, q.lv) AS h(clients, level)
    ), x AS (
        SELECT j.*, h.level, h.m, adj.low AS adj_low, adj.high AS adj_high,
               j.g_b / nullif(j.g_a, 0) AS r
        FROM j LEFT JOIN holm h ON h.clients = j.clients
        LEFT JOIN LATERAL pgbenchx.ci_log_bounds(j.lr_log, j.lr_se, j.lr_df, h.level) adj ON h.level IS NOT NULL
    )
    SELECT x.clients,
           CASE WHEN NOT is_replay THEN round(x.g_a::numeric, 1)::float8 END,
           CASE WHEN NOT is_replay THEN round(x.g_b::numeric, 1)::float8 END,
           round(x.r::numeric, 4)::float8,
           round((100 * (x.r - 1))::numeric, 2)::float8,
           round(x.p99_a::numeric, 3)::float8, round(x.p99_b::numeric, 3)::float8,
           CASE WHEN is_replay THEN round(x.g_a::numeric, 1)::float8 END,
           CASE WHEN is_replay THEN round(x.g_b::numeric, 1)::float8 END,
           round(x.adj_low::numeric, 4)::float8,
           round(x.adj_high::numeric, 4)::float8,
           CASE WHEN x.level IS NOT NULL THEN x.lr_p < x.level END,
           CASE WHEN x.k_a IS NULL OR x.k_b IS NULL THEN NULL
                WHEN x.k_a = 1 AND x.k_b = 1 THEN
                    format('one sweep per side: ratio of the geometric means of %s and %s runs; not tested, the sweep is the unit of replication',
                           x.n_a, x.n_b)
                WHEN x.k_a < 2 OR x.k_b < 2 THEN
                    format('%s and %s sweeps: ratio of the geometric means; not tested, 2 or more sweeps on each side are needed',
                           x.k_a, x.k_b)
                WHEN NOT x.positive THEN 'not tested: a run without throughput has no logarithm'
                ELSE format('t on log %s over sweeps, each sweep''s geometric mean one observation (%s and %s sweeps, %s and %s runs; pooled variance, %s degrees of freedom), geometric-mean ratio; %s',
                            CASE WHEN is_replay THEN 'qpm' ELSE 'tps' END, x.k_a, x.k_b, x.n_a, x.n_b, x.k_a + x.k_b - 2,
                            CASE WHEN x.m = 1 THEN 'one client count tested: no correction'
                                 ELSE format('Holm''s correction over the %s client counts tested', x.m) END) END,
           CASE WHEN x.k_a IS NULL OR x.k_b IS NULL THEN NULL
                WHEN x.k_a = 1 AND x.k_b = 1 THEN
                    'not tested: one sweep per side cannot separate the machine''s drift from the effect; use run_experiment or repeated, interleaved sweeps'
                WHEN x.k_a < 2 OR x.k_b < 2 THEN
                    format('not tested: %s and %s sweeps; with one sweep on a side the machine''s drift cannot be separated from the effect; use run_experiment or 2 or more interleaved sweeps a side',
                           x.k_a, x.k_b)
                WHEN NOT x.positive THEN 'not tested: a run without throughput'
                WHEN NOT (x.lr_p < x.level) THEN
                    format('no significant difference (B/A 95%% interval%s %s to %s)',
                           CASE WHEN x.m > 1 THEN ', Holm-adjusted,' ELSE '' END,
                           round(x.adj_low::numeric, 3), round(x.adj_high::numeric, 3))
                ELSE format('%s %s %s%% %s than %s (95%% interval%s %s%% to %s%%)',
                            name_b, CASE WHEN cardinality(compare.sweeps_b) = 1 THEN 'is' ELSE 'are' END,
                            round(abs(100 * (x.lr_ratio - 1))::numeric, 1),
                            CASE WHEN x.lr_ratio > 1 THEN 'faster' ELSE 'slower' END,
                            name_a,
                            CASE WHEN x.m > 1 THEN ', Holm-adjusted,' ELSE '' END,
                            round(abs(100 * (CASE WHEN x.lr_ratio > 1 THEN x.adj_low ELSE x.adj_high END - 1))::numeric, 1),
                            round(abs(100 * (CASE WHEN x.lr_ratio > 1 THEN x.adj_high ELSE x.adj_low END - 1))::numeric, 1)) END,
           round(x.lr_low::numeric, 4)::float8,
           round(x.lr_high::numeric, 4)::float8
    FROM x
    ORDER BY 1;
END $$;

-- compare(sweep_a, sweep_b): compare(ARRAY[sweep_a], ARRAY[sweep_b]), one
-- sweep against one: the ratio of their geometric means per client
-- count, not tested (one sweep per side cannot separate the machine's
-- drift from the effect).  The same errors, naming sweep_a or sweep_b.
CREATE OR REPLACE FUNCTION pgbenchx.compare(sweep_a bigint, sweep_b bigint)
RETURNS TABLE (clients int, tps_a float8, tps_b float8, ratio float8,
               pct_diff float8, p99_a float8, p99_b float8, qpm_a float8, qpm_b float8,
               ratio_low float8, ratio_high float8, significant boolean, method text,
               conclusion text, ratio_low_unadjusted float8, ratio_high_unadjusted float8)
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
#variable_conflict use_column
DECLARE
    arg text;
    id bigint;
    replay_a boolean;
    replay_b boolean;
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

    -- a replay's rate is queries per minute, a benchmark's tps: not comparable
    SELECT coalesce(bool_or(r.replay), false) INTO replay_a FROM pgbenchx.runs r WHERE r.sweep_id = compare.sweep_a;
    SELECT coalesce(bool_or(r.replay), false) INTO replay_b FROM pgbenchx.runs r WHERE r.sweep_id = compare.sweep_b;
    IF replay_a <> replay_b THEN
        RAISE EXCEPTION 'cannot compare a replay with a benchmark sweep'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format('Sweep %s is a replay, measured in queries per minute; sweep %s a benchmark, in transactions per second.',
                                  CASE WHEN replay_a THEN compare.sweep_a ELSE compare.sweep_b END,
                                  CASE WHEN replay_a THEN compare.sweep_b ELSE compare.sweep_a END),
                  HINT = 'Compare two replays or two benchmark sweeps.';
    END IF;

    RETURN QUERY SELECT * FROM pgbenchx.compare(ARRAY[compare.sweep_a], ARRAY[compare.sweep_b]);
END $$;

/*
 * explain_compare(sweep_a, sweep_b): why two sweeps differ, per client
 * count measured in both or either (completed runs): the ratios b/a of the
 * medians of their runs' WAL bytes, blocks read and server CPU per
 * transaction and of their average iowait (4 decimals, NULL where either
 * side has no figure); the wait event whose share of the client backends'
 * sampled time differs most between them (all of the point's runs pooled;
 * on-CPU time is not a wait, nor is Client:ClientRead, a backend idle
 * until its client sends the next statement), its share in each (4 decimals) and their
 * ratio; and one sentence that says it in words, naming only the figures
 * that differ by at least 10%, are not negligible on both sides and, when
 * each side has 2 or more runs, differ beyond their own noise over those
 * runs (pgbenchx.beyond_noise: the 95% interval of the ratio of the runs'
 * means excludes 1; issue 23: select-only's WAL per transaction went from
 * 0.3 to 498 bytes run to run), such as "sweep 8 writes 1.8× the WAL per
 * transaction of sweep 7 and waits 3.0× as long on LWLock:WALWrite (12% of
 * sampled time against 4%)".  The same arguments and errors as compare;
 * env_diff compares the settings.  Callers: roles granted EXECUTE and
 * SELECT on the results.
 */
CREATE OR REPLACE FUNCTION pgbenchx.explain_compare(sweep_a bigint, sweep_b bigint)
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
    w_real boolean;
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
               coalesce(b.wal_bytes_per_tx, b.blocks_read_per_tx, b.server_cpu_ms_per_tx, b.iowait_avg) IS NOT NULL AS has_b,
               pgbenchx.beyond_noise(ra.wal, rb.wal) AS wal_real,
               pgbenchx.beyond_noise(ra.br, rb.br) AS br_real,
               pgbenchx.beyond_noise(ra.cpu, rb.cpu) AS cpu_real,
               pgbenchx.beyond_noise(ra.iowait, rb.iowait) AS iowait_real
        FROM (SELECT * FROM pgbenchx.sweep_points x WHERE x.sweep_id = explain_compare.sweep_a) a
        FULL JOIN (SELECT * FROM pgbenchx.sweep_points x WHERE x.sweep_id = explain_compare.sweep_b) b
            ON a.clients = b.clients
        -- each figure over the runs of each side, to judge it against its own noise
        LEFT JOIN LATERAL (
            SELECT array_agg(r.wal_bytes_per_tx) AS wal, array_agg(r.blocks_read_per_tx) AS br,
                   array_agg(r.server_cpu_ms_per_tx) AS cpu, array_agg(r.iowait_avg) AS iowait
            FROM pgbenchx.runs r
            WHERE r.sweep_id = explain_compare.sweep_a AND r.clients = a.clients AND r.status = 'completed') ra ON true
        LEFT JOIN LATERAL (
            SELECT array_agg(r.wal_bytes_per_tx) AS wal, array_agg(r.blocks_read_per_tx) AS br,
                   array_agg(r.server_cpu_ms_per_tx) AS cpu, array_agg(r.iowait_avg) AS iowait
            FROM pgbenchx.runs r
            WHERE r.sweep_id = explain_compare.sweep_b AND r.clients = b.clients AND r.status = 'completed') rb ON true
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
        /* that event's share in each run of each side, against its own noise */
        WITH per_run AS (
            SELECT x.sweep_id,
                   coalesce(sum(ws.samples) FILTER (WHERE ws.wait_event_type || ':' || ws.wait_event = w.ev), 0)::float8
                       / nullif(sum(ws.samples), 0) AS share
            FROM pgbenchx.runs x JOIN pgbenchx.wait_samples ws ON ws.run_id = x.run_id
            WHERE x.sweep_id IN (explain_compare.sweep_a, explain_compare.sweep_b)
              AND x.clients = p.clients AND x.status = 'completed'
            GROUP BY x.sweep_id, x.run_id)
        SELECT pgbenchx.beyond_noise(array_agg(r.share) FILTER (WHERE r.sweep_id = explain_compare.sweep_a),
                                     array_agg(r.share) FILTER (WHERE r.sweep_id = explain_compare.sweep_b))
        INTO w_real
        FROM per_run r;

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
                    (1, p.wal, 'writes %s the WAL per transaction', p.wal_max >= wal_min AND p.wal_real),
                    (2, p.br, 'reads %s the blocks per transaction', p.br_max >= blocks_min AND p.br_real),
                    (3, p.cpu, 'spends %s the server CPU per transaction', p.cpu_real),
                    (4, p.iowait, 'has %s the iowait', p.iowait_max >= iowait_min AND p.iowait_real)) f(n, ratio, words, worth)
                WHERE (f.ratio >= differ OR f.ratio <= 1 / differ) AND f.worth
                ORDER BY f.n
            LOOP
                parts := parts || format(fig.words, pgbenchx.explain_times(fig.ratio));
            END LOOP;
            IF w.ev IS NOT NULL AND (w.b_share >= differ * w.a_share OR w.a_share >= differ * w.b_share)
               AND greatest(w.a_share, w.b_share) >= 0.01 AND coalesce(w_real, true) THEN
                parts := parts || CASE WHEN w.a_share = 0
                    THEN format('waits on %s (%s%% of sampled time) where sweep %s did not', w.ev,
                                round((100 * w.b_share)::numeric), explain_compare.sweep_a)
                    WHEN w.b_share = 0
                    THEN format('does not wait on %s, where sweep %s spent %s%% of sampled time', w.ev,
                                explain_compare.sweep_a, round((100 * w.a_share)::numeric))
                    ELSE format('waits %s as long on %s (%s%% of sampled time against %s%%)', pgbenchx.explain_times(w.b_share / w.a_share),
                                w.ev, round((100 * w.b_share)::numeric), round((100 * w.a_share)::numeric)) END;
            END IF;
            IF cardinality(parts) = 0 AND (
                   (coalesce(p.wal >= differ OR p.wal <= 1 / differ, false) AND p.wal_max >= wal_min AND NOT p.wal_real)
                   OR (coalesce(p.br >= differ OR p.br <= 1 / differ, false) AND p.br_max >= blocks_min AND NOT p.br_real)
                   OR (coalesce(p.cpu >= differ OR p.cpu <= 1 / differ, false) AND NOT p.cpu_real)
                   OR (coalesce(p.iowait >= differ OR p.iowait <= 1 / differ, false) AND p.iowait_max >= iowait_min AND NOT p.iowait_real)
                   OR (w.ev IS NOT NULL AND (w.b_share >= differ * w.a_share OR w.a_share >= differ * w.b_share)
                       AND greatest(w.a_share, w.b_share) >= 0.01 AND NOT coalesce(w_real, true))) THEN
                explanation := format('sweep %s and sweep %s do the same work per transaction and wait alike (within 10%%, within the run-to-run noise of each, or too little to matter)',
                                      explain_compare.sweep_b, explain_compare.sweep_a);
            ELSIF cardinality(parts) = 0 THEN
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

-- A ratio as explain_compare writes it: 1.8×, 12×, 0.45× (x for × in a
-- database whose encoding is not UTF8).  Internal.
CREATE OR REPLACE FUNCTION pgbenchx.explain_times(ratio float8) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
SELECT CASE WHEN ratio OPERATOR(pg_catalog.>=) 10::float8 THEN pg_catalog.round(ratio::numeric)::text
            WHEN ratio OPERATOR(pg_catalog.>=) 1::float8 THEN pg_catalog.round(ratio::numeric, 1)::text
            ELSE pg_catalog.round(ratio::numeric, 2)::text END
       OPERATOR(pg_catalog.||) CASE WHEN pg_catalog.getdatabaseencoding() OPERATOR(pg_catalog.=) 'UTF8'
                                    THEN pg_catalog.chr(215) ELSE 'x' END
$$;
