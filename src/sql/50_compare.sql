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
-- per minute; NULL for a benchmark sweep).  Readable by roles granted SELECT.
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
           pg_catalog.array_agg(r.run_id ORDER BY r.run_id) FILTER (WHERE r.checkpoints OPERATOR(pg_catalog.>) 0) AS checkpoint_run_ids,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.qpm) FILTER (WHERE r.replay) AS median_qpm
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
       f.median_qpm
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
-- NULLs for the other.  Two replays compare in queries per minute: tps_a
-- and tps_b are NULL, qpm_a and qpm_b hold the median qpm (1 decimal) and
-- ratio and pct_diff are over them; a replay is not compared with a
-- benchmark sweep.  An unknown id is an ERROR.  Callers: roles granted
-- EXECUTE and SELECT on the results.
CREATE FUNCTION pgbenchx.compare(sweep_a bigint, sweep_b bigint)
RETURNS TABLE (clients int, tps_a float8, tps_b float8, ratio float8,
               pct_diff float8, p99_a float8, p99_b float8, qpm_a float8, qpm_b float8)
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

    RETURN QUERY
    SELECT coalesce(a.clients, b.clients),
           CASE WHEN NOT replay_a THEN round(a.median_tps::numeric, 1)::float8 END,
           CASE WHEN NOT replay_a THEN round(b.median_tps::numeric, 1)::float8 END,
           round((b.rate / nullif(a.rate, 0))::numeric, 4)::float8,
           round((100 * (b.rate - a.rate) / nullif(a.rate, 0))::numeric, 2)::float8,
           round(a.median_p99_ms::numeric, 3)::float8, round(b.median_p99_ms::numeric, 3)::float8,
           CASE WHEN replay_a THEN round(a.median_qpm::numeric, 1)::float8 END,
           CASE WHEN replay_a THEN round(b.median_qpm::numeric, 1)::float8 END
    FROM (SELECT p.*, CASE WHEN replay_a THEN p.median_qpm ELSE p.median_tps END AS rate
          FROM pgbenchx.sweep_points p WHERE p.sweep_id = compare.sweep_a) a
    FULL JOIN (SELECT p.*, CASE WHEN replay_a THEN p.median_qpm ELSE p.median_tps END AS rate
               FROM pgbenchx.sweep_points p WHERE p.sweep_id = compare.sweep_b) b
        ON a.clients = b.clients
    ORDER BY 1;
END $$;

REVOKE ALL ON FUNCTION pgbenchx.compare(bigint, bigint) FROM PUBLIC;
