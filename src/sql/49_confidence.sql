/*
 * src/sql/49_confidence.sql: the 95% confidence intervals of throughput
 * (issue 23), in C (src/results/ci_sql.c over src/lang/ci.c, where the
 * methods are described; docs/comparing.md for users).  Deterministic: the
 * same values give the same interval.  NULL where there is no interval.
 * Stateless: every upgrade script re-creates them in full.
 */

-- ci_seconds(seconds): one run's mean per-second throughput from its
-- samples' tps in the order of their seconds (array_agg(tps ORDER BY
-- second)), and the interval of this run's precision: the t-interval of
-- 10 batch means of the last 10 * floor(n / 10) seconds, or, when the
-- seconds are strongly autocorrelated for batches that short, the wider
-- AR(1)-corrected interval (src/lang/ci.h; se and df for a ratio).  NULL
-- with fewer than 120 seconds, seconds that move as one for about as long
-- as the run, or a NULL or non-finite one.  runs.tps_ci_low/high are these.
CREATE OR REPLACE FUNCTION pgbenchx.ci_seconds(seconds float8[],
                                               OUT tps float8, OUT low float8, OUT high float8,
                                               OUT se float8, OUT df float8)
RETURNS record
AS 'MODULE_PATHNAME', 'pgbenchx_ci_seconds'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- ci_repeats(runs): the mean of repeated runs' throughputs and its
-- t-interval (df = runs - 1).  NULL with fewer than 2 values or a NULL or
-- non-finite one.  sweep_points.tps_ci_low/high are these.
CREATE OR REPLACE FUNCTION pgbenchx.ci_repeats(runs float8[],
                                               OUT tps float8, OUT low float8, OUT high float8,
                                               OUT se float8, OUT df float8)
RETURNS record
AS 'MODULE_PATHNAME', 'pgbenchx_ci_repeats'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- ci_ratio(a, a_se, a_df, b, b_se, b_df): b / a of two independent
-- estimates (each with its standard error and degrees of freedom, as
-- ci_seconds and ci_repeats give them), its 95% interval by Fieller's
-- theorem (t at the Welch-Satterthwaite degrees of freedom), and whether
-- the interval excludes 1.  NULL when a is not distinguishable from 0 at
-- 95% (the interval is then unbounded) or an argument is out of range.
CREATE OR REPLACE FUNCTION pgbenchx.ci_ratio(a float8, a_se float8, a_df float8,
                                             b float8, b_se float8, b_df float8,
                                             OUT ratio float8, OUT low float8, OUT high float8,
                                             OUT significant boolean)
RETURNS record
AS 'MODULE_PATHNAME', 'pgbenchx_ci_ratio'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- beyond_noise(a, b): whether two sides' per-run values of a figure differ
-- beyond the figure's own noise over the runs of each side (issue 23,
-- explain_compare): the 95% interval of the ratio of their means, b/a or
-- else a/b (the one whose denominator is distinguishable from 0), excludes
-- 1.  With fewer than 2 values on a side the noise is not known: true (the
-- caller's other rules decide, as before 0.5).  NULLs are left out.
-- Internal.
CREATE OR REPLACE FUNCTION pgbenchx.beyond_noise(a float8[], b float8[]) RETURNS boolean
SET search_path = pg_catalog, pg_temp
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT CASE
    WHEN coalesce(pg_catalog.cardinality(pg_catalog.array_remove(a, NULL)), 0) OPERATOR(pg_catalog.<) 2
      OR coalesce(pg_catalog.cardinality(pg_catalog.array_remove(b, NULL)), 0) OPERATOR(pg_catalog.<) 2 THEN true
    ELSE coalesce((SELECT coalesce((pgbenchx.ci_ratio((x.ca).tps, (x.ca).se, (x.ca).df,
                                                      (x.cb).tps, (x.cb).se, (x.cb).df)).significant,
                                   (pgbenchx.ci_ratio((x.cb).tps, (x.cb).se, (x.cb).df,
                                                      (x.ca).tps, (x.ca).se, (x.ca).df)).significant)
                   FROM (SELECT pgbenchx.ci_repeats(pg_catalog.array_remove(a, NULL)) AS ca,
                                pgbenchx.ci_repeats(pg_catalog.array_remove(b, NULL)) AS cb) x),
                  false) END
$$;

-- ci_log_ratio(a, b, paired): the throughput ratio B/A on the log scale
-- (issue 35), as compare() and experiment_report compute it: ratio =
-- exp(mean log b - mean log a), a ratio of geometric means; low and high
-- its 95% interval (always bounded and positive); log_ratio, se and df
-- the t-interval on the log scale it comes from; p the two-sided p-value
-- of "B/A = 1".  paired => true: a[i] and b[i] are a pair (the same round
-- of an experiment), the t-interval of the mean of log(b[i] / a[i]) with
-- pairs - 1 degrees of freedom; false: two independent samples (each
-- sweep's geometric mean), Student's t with the pooled variance and
-- na + nb - 2 degrees of freedom.  NULL with fewer than 2 values (pairs)
-- on a side or a NULL, non-finite or non-positive value.
CREATE OR REPLACE FUNCTION pgbenchx.ci_log_ratio(a float8[], b float8[], paired boolean,
                                                 OUT ratio float8, OUT low float8, OUT high float8,
                                                 OUT log_ratio float8, OUT se float8, OUT df float8,
                                                 OUT p float8)
RETURNS record
AS 'MODULE_PATHNAME', 'pgbenchx_ci_log_ratio'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- ci_log_bounds(log_ratio, se, df, alpha): the interval of exp(log_ratio)
-- at level 1 - alpha (Holm's adjusted intervals).  NULL when alpha is not
-- in (0, 1), se < 0 or df <= 0.
CREATE OR REPLACE FUNCTION pgbenchx.ci_log_bounds(log_ratio float8, se float8, df float8, alpha float8,
                                                  OUT low float8, OUT high float8)
RETURNS record
AS 'MODULE_PATHNAME', 'pgbenchx_ci_log_bounds'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- ci_holm(p, alpha): Holm's step-down procedure over the non-NULL
-- p-values of one comparison: the level each is tested at (alpha / (m - j
-- + 1) for the j-th smallest while they are rejected, then the level of
-- the first that is not, for it and every later one), NULL where p is.
-- Significant where p < its level; the interval at that level excludes 1
-- exactly then.  The chance of any false "significant" among them is at
-- most alpha, whatever their dependence.
CREATE OR REPLACE FUNCTION pgbenchx.ci_holm(p float8[], alpha float8 DEFAULT 0.05)
RETURNS float8[]
AS 'MODULE_PATHNAME', 'pgbenchx_ci_holm'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
