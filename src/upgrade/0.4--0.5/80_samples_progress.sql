/*
 * Issue 24: pgbenchx -P prints pgbench's progress line in full, with the
 * window's lag (-R), skipped (-R with -L) and retries (--max-tries): each
 * second's sample keeps them.  NULL for samples recorded before 0.5.
 */
ALTER TABLE pgbenchx.samples ADD COLUMN skipped bigint,
                             ADD COLUMN retried bigint,
                             ADD COLUMN retries bigint,
                             ADD COLUMN lag_sum_ms float8;
