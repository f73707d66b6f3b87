/*
 * Issue 23: every figure with its uncertainty.  runs gets the 95% interval
 * of its throughput (pgbenchx.ci_seconds over its samples, written with
 * the final row; NULL for runs recorded before 0.5 and for runs shorter
 * than 20 s); sweep_report's result gains tps_ci_low and tps_ci_high
 * (the interval across a point's runs) and compare's the interval of the
 * ratio, its significance, method and conclusion, so both functions are
 * dropped here and created again by the routines (explain_compare calls
 * compare at run time only).  sweep_points gains tps_ci_low and
 * tps_ci_high at its end: CREATE OR REPLACE VIEW adds them.
 */
ALTER TABLE pgbenchx.runs ADD COLUMN tps_ci_low float8,
                          ADD COLUMN tps_ci_high float8;

DROP FUNCTION pgbenchx.sweep_report(bigint);

-- compare gains ratio_low, ratio_high, significant, method and conclusion
DROP FUNCTION pgbenchx.compare(bigint, bigint);
