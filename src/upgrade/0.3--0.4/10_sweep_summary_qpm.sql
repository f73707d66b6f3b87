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
