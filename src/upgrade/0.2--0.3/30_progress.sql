/*
 * Issue 12 section 3: the phase, step and expected end of the run in
 * progress.  pgbenchx.progress_state() reads what the coordinator publishes;
 * the progress view gains phase, step, steps and eta at the end of its
 * columns.  The roles that may wait for runs (grant_runner's runners, or
 * any grant of the user's on pgbenchx.wait) may read the new function, as
 * the view calls it with their privileges; its initial privileges are put
 * back to what a fresh CREATE EXTENSION records (the REVOKE), so that
 * pg_dump keeps these grants as the user's.
 */

-- The run in progress as its coordinator publishes it in shared memory:
-- its phase (maintenance, checkpoint, connecting, measuring, finishing),
-- its step (a lone run is step 1 of 1) and the expected end of the whole
-- run or sweep (NULL while unknown).  One row, or none.  Internal to the
-- progress view; the same for every role.
CREATE FUNCTION pgbenchx.progress_state(
    OUT run_id bigint, OUT sweep_id bigint, OUT phase text,
    OUT step int, OUT steps int, OUT eta timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgbenchx_progress_state'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED ROWS 1;

-- The live state of the run in progress, from any session: phase, step
-- and steps, and eta (the expected end of the run or of the whole sweep,
-- counting only what is known; NULL while unknown) from pgbenchx.progress_state().
CREATE OR REPLACE VIEW pgbenchx.progress AS
SELECT r.run_id, r.sweep_id, r.script, r.clients, r.jobs, r.duration,
       pg_catalog.round(extract(epoch FROM pg_catalog.clock_timestamp() OPERATOR(pg_catalog.-) r.started_at)::numeric, 1) AS elapsed_s,
       coalesce(s.transactions, 0) AS transactions,
       s.tps AS current_tps,
       s.latency_p99_ms AS current_p99_ms,
       s.seconds AS seconds_sampled,
       p.phase, p.step, p.steps, p.eta
FROM pgbenchx.runs r
LEFT JOIN LATERAL (
    SELECT pg_catalog.sum(x.transactions)::bigint AS transactions,
           (pg_catalog.array_agg(x.tps ORDER BY x.second DESC))[1] AS tps,
           (pg_catalog.array_agg(x.latency_p99_ms ORDER BY x.second DESC))[1] AS latency_p99_ms,
           pg_catalog.max(x.second) AS seconds
    FROM pgbenchx.samples x WHERE x.run_id OPERATOR(pg_catalog.=) r.run_id) s ON true
LEFT JOIN pgbenchx.progress_state() p ON p.run_id OPERATOR(pg_catalog.=) r.run_id
WHERE r.status OPERATOR(pg_catalog.=) 'running'
  -- a run whose coordinator is gone (immediate shutdown, crash) is not in
  -- progress; pgbenchx.wait, pgbenchx.cancel or the next run mark it aborted
  AND pgbenchx.coordinator_alive(r.coordinator_pid);

-- the progress view's columns from progress_state() (described where \d+ shows them)
COMMENT ON COLUMN pgbenchx.progress.phase IS 'what the coordinator is doing: maintenance (vacuum, truncate, check_tpcb''s sums), checkpoint, connecting, measuring, finishing (the totals and rows stored)';
COMMENT ON COLUMN pgbenchx.progress.step IS 'this run''s place in its sweep, from 1; 1 for a lone run';
COMMENT ON COLUMN pgbenchx.progress.steps IS 'the runs of the sweep (client counts times repeats); 1 for a lone run';
COMMENT ON COLUMN pgbenchx.progress.eta IS 'when the whole run or sweep is expected to end: the durations left, and for the steps to come what the last finished step spent beyond its duration; NULL while unknown (bounded by transactions, before the last step measures)';

REVOKE ALL ON FUNCTION pgbenchx.progress_state() FROM PUBLIC;

-- EXECUTE for the runners who had pgbenchx.wait: 90_runner_grants.sql
