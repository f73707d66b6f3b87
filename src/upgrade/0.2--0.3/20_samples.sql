/*
 * Issue 12, samples that do not lie.
 *
 * pgbenchx.samples gains covered_s: the seconds of the measured interval a
 * row covers, 1 but for the last second of a run (less for a run bounded by
 * transactions or cancelled, about 1 for a timed run), whose tps is
 * now a rate over that time.  A row stored before 0.3 reads covered_s = 1:
 * the rows stay as they were stored (the last row of a run cancelled under
 * 0.2 holds its count in tps; that of a run bounded by transactions, its
 * rate), since the time they covered was not recorded.  Adding a column
 * with a constant default rewrites no row.
 *
 * chart_run draws a sample at the end of the time it covered, and single
 * points as markers; replays are drawn and reported in queries per minute
 * (chart_run, chart_sweeps, sweep_report, compare, sweep_points'
 * median_qpm); import reads covered_s, and a document of 0.2 without it as
 * 1.  sweep_report and compare gain a qpm column: their result type
 * changes, so they are dropped and created again, and whoever could
 * execute them still can.
 */

ALTER TABLE pgbenchx.samples
    ADD COLUMN covered_s float8 NOT NULL DEFAULT 1 CHECK (covered_s OPERATOR(pg_catalog.>) 0::pg_catalog.float8);

-- sweep_points gains median_qpm, at the end
-- One row per (sweep, client count) with completed runs: n runs, the
-- median, min and max tps, spread = (max - min) / median, the median p99
-- latency, the checkpoints and autovacuum runs that fell inside its runs,
-- and whether the point is unstable, with the reason: its spread exceeds
-- pgbenchx.unstable_spread (default 0.10 = 10%), or a checkpoint happened
-- during one of its runs; for a replay, the median of runs.qpm (queries
-- per minute; NULL for a benchmark sweep).  Readable by roles granted SELECT.
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

/*
 * chart_sweeps: an SVG of tps against the number of clients, one line per
 * sweep in the order given, with a marker per client count, the sweep's
 * label in the legend ("sweep N" without one), axis titles with units and
 * round ticks.  Only completed runs are drawn; the legend counts the others
 * (cancelled, failed, aborted, running) as "not drawn".  With repeats, the
 * point is the median tps of the client count's completed runs and a
 * whisker spans their min and max.
 *
 * The clients axis is log2 when the largest client count is at least 4
 * times the smallest (the ladder 1, 2, 4, 8 ... 80 then gets equal room per
 * doubling: on a linear axis 1, 2, 4 and 8 clients would share the first
 * tenth of the width), with ticks at the powers of two and at the smallest
 * and largest counts; else it is linear with round integer ticks.
 * Replays (runs.replay) are drawn in queries per minute (runs.qpm); a
 * chart does not mix them with benchmark sweeps, whose rate is tps.
 * Returns the SVG document as text.  Caller: a role granted EXECUTE that
 * may read pgbenchx.sweeps and pgbenchx.runs.
 */
-- pgbenchx.chart_sweeps: re-created once, with this change in it, by 40_refuse.sql

/*
 * chart_run: an SVG of one run over time, as seed 001 draws it: tps in each
 * second (pgbenchx.samples, left axis) and the p99 latency of each second
 * in ms (right axis, dashed), with the run's overall tps as a dotted line.
 * A sample is drawn at the end of the time it covered (second - 1 +
 * covered_s: the last second of a run may be partial) with its rate over
 * that time.  A replay is drawn in queries per minute, (transactions +
 * failed) * 60 / covered_s, with the run's qpm as the dotted line.  Short
 * series, and a series of one point (a line needs two), get a marker per
 * point, for tps and p99 alike.  Works on a run in progress too (the
 * seconds so far).  Returns the SVG document as text.  Caller: a role
 * granted EXECUTE that may read pgbenchx.runs and pgbenchx.samples.
 */
-- pgbenchx.chart_run: re-created once, with this change in it, by 64_charts.sql

-- import(doc): loads a document written by export() into this database.
-- Sweeps and runs get new ids from pgbenchx.id_seq; environments are
-- matched by env_hash (an existing one is reused); each sweep and run
-- records its origin in pgbenchx.imports.  A sweep whose origin is already
-- there is not loaded again.  Returns the local sweep_ids, in the
-- document's order (new or existing).  A malformed document is refused
-- before anything is loaded.  Callers: roles granted EXECUTE (grant_runner).
-- SECURITY DEFINER: it writes as the extension's owner (runners only read
-- the results); the sweeps and runs it loads belong to the caller
-- (pgbenchx.caller_role()), whatever owner the document names.
-- pgbenchx.import: re-created once, with this change in it, by 65_hist.sql

-- Who may execute sweep_report and compare (grant_runner's runners, or any
-- grant of the user's), kept for the new functions in a setting of this
-- transaction.
SELECT pg_catalog.set_config('pgbenchx_upgrade.grants', coalesce(pg_catalog.string_agg(
           pg_catalog.format('%s=%s', p.proname, a.grantee), ','), ''), true)
FROM pg_catalog.pg_proc p
CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
WHERE p.oid OPERATOR(pg_catalog.=) ANY (ARRAY['pgbenchx.sweep_report(bigint)'::pg_catalog.regprocedure,
                                              'pgbenchx.compare(bigint, bigint)'::pg_catalog.regprocedure]::pg_catalog.oid[])
  AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text
  AND a.grantee OPERATOR(pg_catalog.<>) p.proowner;

DROP FUNCTION pgbenchx.sweep_report(bigint);
DROP FUNCTION pgbenchx.compare(bigint, bigint);

/*
 * sweep_report: a sweep as a table for psql, one row per client count:
 * the completed runs counted, the tps (the median over repeats), the p99
 * latency in ms (the median over repeats) and a bar of up to 40 characters
 * proportional to tps / the sweep's highest tps (block characters in a
 * UTF8 database, '#' otherwise).  A client count with no completed run has
 * NULL figures and its runs' statuses in place of the bar.  A replay's
 * rate is queries per minute: its tps is NULL and qpm (the median of
 * runs.qpm) holds the rate, which the bar shows; qpm is NULL for a
 * benchmark sweep.  Caller: a role granted EXECUTE that may read
 * pgbenchx.sweeps and pgbenchx.runs.
 */
CREATE FUNCTION pgbenchx.sweep_report(sweep_id bigint)
RETURNS TABLE (clients int, runs int, tps numeric, p99_ms numeric, bar text, qpm numeric)
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
#variable_conflict use_column
DECLARE
    utf8 constant boolean := pg_catalog.getdatabaseencoding() = 'UTF8';
    width constant int := 40;
BEGIN
    IF sweep_report.sweep_id IS NULL THEN
        RAISE EXCEPTION 'argument "sweep_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'sweep_report shows one sweep.',
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps x WHERE x.sweep_id = sweep_report.sweep_id) THEN
        RAISE EXCEPTION 'no sweep has id %', sweep_report.sweep_id
            USING ERRCODE = 'undefined_object',
                  DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.runs r WHERE r.run_id = sweep_report.sweep_id)
                                THEN format('Id %s is a run, not a sweep.', sweep_report.sweep_id)
                                ELSE format('pgbenchx.sweeps has no row with sweep_id %s.', sweep_report.sweep_id) END,
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;

    RETURN QUERY
    WITH kind AS (
        SELECT coalesce(bool_or(r.replay), false) AS replay
        FROM pgbenchx.runs r WHERE r.sweep_id = sweep_report.sweep_id),
    per AS (
        SELECT r.clients,
               count(*) FILTER (WHERE r.status = 'completed' AND v.rate IS NOT NULL)::int AS n,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY v.rate)
                   FILTER (WHERE r.status = 'completed' AND v.rate IS NOT NULL) AS rate,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_p99_ms)
                   FILTER (WHERE r.status = 'completed' AND v.rate IS NOT NULL) AS p99,
               string_agg(DISTINCT r.status, ', ') AS statuses
        FROM pgbenchx.runs r CROSS JOIN kind
        CROSS JOIN LATERAL (SELECT CASE WHEN kind.replay THEN r.qpm ELSE r.tps END AS rate) v
        WHERE r.sweep_id = sweep_report.sweep_id
        GROUP BY r.clients),
    top AS (SELECT max(per.rate) AS m FROM per)
    SELECT per.clients, per.n,
           CASE WHEN NOT kind.replay THEN round(per.rate::numeric, 1) END,
           round(per.p99::numeric, 3),
           CASE
               WHEN per.n = 0 THEN '(' || per.statuses || ')'
               WHEN top.m <= 0 THEN ''
               WHEN utf8 THEN
                   repeat(U&'\2588', floor(per.rate / top.m * width)::int)
                   || coalesce((ARRAY[U&'\258F', U&'\258E', U&'\258D', U&'\258C',
                                      U&'\258B', U&'\258A', U&'\2589'])
                                   [floor((per.rate / top.m * width - floor(per.rate / top.m * width)) * 8)::int], '')
               ELSE repeat('#', round(per.rate / top.m * width)::int)
           END,
           CASE WHEN kind.replay THEN round(per.rate::numeric, 1) END
    FROM per, top, kind
    ORDER BY per.clients;
END $$;

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

REVOKE ALL ON FUNCTION pgbenchx.sweep_report(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.compare(bigint, bigint) FROM PUBLIC;

/*
 * The grants kept above, again.  A GRANT in an extension script is recorded
 * in pg_init_privs as the extension's own initial privilege, which pg_dump
 * does not dump; the initial privileges are put back to what a fresh
 * CREATE EXTENSION records (the REVOKE above), so that pg_dump keeps these
 * grants as the user's.
 */
DO $$
DECLARE
    f    pg_catalog.regprocedure;
    g    record;
    init pg_catalog.aclitem[];
BEGIN
    FOREACH f IN ARRAY ARRAY['pgbenchx.sweep_report(bigint)'::pg_catalog.regprocedure,
                             'pgbenchx.compare(bigint, bigint)'::pg_catalog.regprocedure]
    LOOP
        SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
        WHERE i.objoid OPERATOR(pg_catalog.=) f::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
        FOR g IN
            SELECT DISTINCT pg_catalog.split_part(x, '=', 2)::pg_catalog.oid AS grantee
            FROM pg_catalog.unnest(pg_catalog.string_to_array(
                     pg_catalog.current_setting('pgbenchx_upgrade.grants'), ',')) x
            WHERE pg_catalog.split_part(x, '=', 1) OPERATOR(pg_catalog.=)
                  (SELECT p.proname::pg_catalog.text FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) f::pg_catalog.oid)
            ORDER BY 1
        LOOP
            EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s', f,
                                      CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                           ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
        END LOOP;
        UPDATE pg_catalog.pg_init_privs i SET initprivs = init
        WHERE i.objoid OPERATOR(pg_catalog.=) f::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
    END LOOP;
END $$;
