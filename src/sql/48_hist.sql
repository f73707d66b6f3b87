/*
 * src/sql/48_hist.sql: functions over the stored latency histograms
 * (runs.latency_hist, samples.latency_hist; issue 14), in C (hist_sql.c,
 * format in histcodec.h).  Percentiles of several runs or seconds are read
 * from their merged histogram, never averaged:
 *
 *   SELECT pgbenchx.latency_percentile(pgbenchx.latency_merge(latency_hist), 99)
 *   FROM pgbenchx.runs WHERE sweep_id = 7;
 *
 * Stateless: every upgrade script re-creates them in full.  Bad bytes:
 * 22P03 with the reason as detail.
 */

-- latency_percentile(hist, p): the p-th percentile (0 < p <= 100) in ms,
-- as the coordinator computes runs.latency_pNN_ms; NULL when empty.
CREATE OR REPLACE FUNCTION pgbenchx.latency_percentile(hist bytea, p float8) RETURNS float8
AS 'MODULE_PATHNAME', 'pgbenchx_latency_percentile'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- latency_merge(a, b): the histogram of the union of both, exactly; also
-- the state function of the aggregate latency_merge(bytea).
CREATE OR REPLACE FUNCTION pgbenchx.latency_merge(a bytea, b bytea) RETURNS bytea
AS 'MODULE_PATHNAME', 'pgbenchx_latency_merge2'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- latency_merge(hist): aggregate, the histogram of all rows' latencies
-- (NULLs skipped; NULL when every row is NULL).
CREATE OR REPLACE AGGREGATE pgbenchx.latency_merge(bytea) (
    SFUNC = pgbenchx.latency_merge,
    STYPE = bytea,
    COMBINEFUNC = pgbenchx.latency_merge,
    PARALLEL = SAFE
);

-- latency_buckets(hist): its non-empty buckets, [lower_ms, upper_ms) and
-- the number of latencies in each; sum(count) is the histogram's count.
CREATE OR REPLACE FUNCTION pgbenchx.latency_buckets(hist bytea,
                                         OUT lower_ms float8, OUT upper_ms float8, OUT count bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgbenchx_latency_buckets'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
