/*
 * 0.2 -> 0.3, issue 14 (groundwork): the stored latency histograms,
 * runs.latency_hist and samples.latency_hist, and the functions that read
 * and merge them (src/sql/48_hist.sql).  Rows recorded before read NULL.
 */
ALTER TABLE pgbenchx.runs ADD COLUMN latency_hist bytea;
ALTER TABLE pgbenchx.samples ADD COLUMN latency_hist bytea;
COMMENT ON COLUMN pgbenchx.runs.latency_hist IS 'the latency histogram of the whole run (log-linear, exact counts): pgbenchx.latency_percentile(latency_hist, 99) recomputes latency_p99_ms, pgbenchx.latency_merge merges runs exactly; NULL for runs recorded before 0.3';
COMMENT ON COLUMN pgbenchx.samples.latency_hist IS 'the latency histogram of that second: pgbenchx.latency_percentile(latency_hist, 99) recomputes latency_p99_ms; NULL for samples recorded before 0.3';

-- latency_percentile(hist, p): the p-th percentile (0 < p <= 100) in ms,
-- as the coordinator computes runs.latency_pNN_ms; NULL when empty.
CREATE FUNCTION pgbenchx.latency_percentile(hist bytea, p float8) RETURNS float8
AS 'MODULE_PATHNAME', 'pgbenchx_latency_percentile'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- latency_merge(a, b): the histogram of the union of both, exactly; also
-- the state function of the aggregate latency_merge(bytea).
CREATE FUNCTION pgbenchx.latency_merge(a bytea, b bytea) RETURNS bytea
AS 'MODULE_PATHNAME', 'pgbenchx_latency_merge2'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- latency_merge(hist): aggregate, the histogram of all rows' latencies
-- (NULLs skipped; NULL when every row is NULL).
CREATE AGGREGATE pgbenchx.latency_merge(bytea) (
    SFUNC = pgbenchx.latency_merge,
    STYPE = bytea,
    COMBINEFUNC = pgbenchx.latency_merge,
    PARALLEL = SAFE
);

-- latency_buckets(hist): its non-empty buckets, [lower_ms, upper_ms) and
-- the number of latencies in each; sum(count) is the histogram's count.
CREATE FUNCTION pgbenchx.latency_buckets(hist bytea,
                                         OUT lower_ms float8, OUT upper_ms float8, OUT count bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgbenchx_latency_buckets'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;

REVOKE ALL ON FUNCTION pgbenchx.latency_percentile(bytea, float8) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.latency_merge(bytea, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.latency_merge(bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.latency_buckets(bytea) FROM PUBLIC;

/*
 * The roles that may execute pgbenchx.wait (grant_runner's runners, or any
 * grant of the user's) get EXECUTE on the new functions, which grant_runner
 * would have given them had they existed; the initial privileges recorded
 * for them are put back to what a fresh CREATE EXTENSION records (the
 * REVOKEs above), as 10_report.sql does for report.
 */
DO $$
DECLARE
    g    record;
    f    pg_catalog.regprocedure;
    init pg_catalog.aclitem[];
BEGIN
    FOREACH f IN ARRAY ARRAY['pgbenchx.latency_percentile(bytea, float8)',
                             'pgbenchx.latency_merge(bytea, bytea)',
                             'pgbenchx.latency_merge(bytea)',
                             'pgbenchx.latency_buckets(bytea)']::pg_catalog.regprocedure[] LOOP
        SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
        WHERE i.objoid OPERATOR(pg_catalog.=) f::pg_catalog.oid
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
            EXECUTE pg_catalog.format('GRANT EXECUTE ON ROUTINE %s TO %s', f,
                                      CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                           ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
        END LOOP;
        UPDATE pg_catalog.pg_init_privs i SET initprivs = init
        WHERE i.objoid OPERATOR(pg_catalog.=) f::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
    END LOOP;
END $$;
