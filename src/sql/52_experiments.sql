/*
 * src/sql/52_experiments.sql: reading an experiment (run_experiment, issue
 * 23).  An experiment is a sweep with configurations (sweeps.configs) whose
 * runs name theirs (runs.config, 1-based) and say whether they were
 * warm-ups (runs.warmup: stored, never counted here).
 */

-- experiment_report(id): per client count and configuration, the counted
-- runs' median tps and the 95% t-interval of their mean (ci_repeats: this
-- configuration's runs at this client count, not a comparison), and the
-- ratio to the baseline (the first configuration), what the configuration
-- sets (its entry of sweeps.configs, name left out) and where its tables
-- were (the tablespace keys of its runs' environment).
--
-- The ratio (issue 35): the unit of replication is the ABBA pair, a
-- counted run of the baseline and one of the configuration in the same
-- round (runs.repeat), measured next to each other so that the machine's
-- drift between rounds cancels out of their ratio.  ratio = exp(mean of
-- the pairs' log(tps / baseline tps)), a geometric-mean ratio (with fewer
-- than 2 pairs, of the geometric means of the counted runs);
-- ratio_low_unadjusted/high_unadjusted its 95% t-interval (pairs - 1
-- degrees of freedom, pgbenchx.ci_log_ratio), from 2 pairs; significant
-- only with 4 pairs or more, by Holm's procedure over every ratio of the
-- experiment so tested (its client counts and configurations,
-- pgbenchx.ci_holm), and ratio_low/high the interval at the level Holm
-- tested it at, which excludes 1 exactly when it is significant; method
-- names the unit, the estimator, the correction and the number of pairs;
-- conclusion says it in words, never more than the method supports.  An
-- experiment with target_ci (more blocks until each interval was narrow
-- enough) has its intervals and tests at 97%, not 95%: stopping when an
-- interval happens to be narrow leaves intervals that cover less (92 to
-- 94% at 95% in simulation, 94 to 97% at 97%; docs/comparing.md).
CREATE OR REPLACE FUNCTION pgbenchx.experiment_report(experiment_id bigint)
RETURNS TABLE (clients int, config int, name text, runs int, warmups int,
               median_tps float8, tps_ci_low float8, tps_ci_high float8,
               ratio float8, ratio_low float8, ratio_high float8,
               significant boolean, method text, sets jsonb, environment jsonb,
               pairs int, ratio_low_unadjusted float8, ratio_high_unadjusted float8,
               conclusion text)
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
#variable_conflict use_column
DECLARE
    cfgs jsonb;
    alpha float8;
BEGIN
    IF experiment_report.experiment_id IS NULL THEN
        RAISE EXCEPTION 'argument "experiment_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Pass the id run_experiment returned.';
    END IF;
    /*
     * issue 35: an experiment with target_ci stopped when its intervals were
     * narrow enough, an optional stopping that narrow-by-chance intervals
     * end early: its intervals and tests are at 97% (alpha 0.03), which
     * kept their coverage at 95% or more in test/unit/test_ci_sim.c
     * (at 95% it was 92 to 94%).
     */
    SELECT s.configs, CASE WHEN s.target_ci IS NOT NULL THEN 0.03 ELSE 0.05 END
      INTO cfgs, alpha
      FROM pgbenchx.sweeps s WHERE s.sweep_id = experiment_report.experiment_id;
    IF cfgs IS NULL THEN
        RAISE EXCEPTION 'no experiment has id %', experiment_report.experiment_id
            USING ERRCODE = 'undefined_object',
                  DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.sweeps s WHERE s.sweep_id = experiment_report.experiment_id)
                                THEN format('%s is the id of a sweep, not of an experiment.', experiment_report.experiment_id)
                                ELSE format('pgbenchx.sweeps has no row with sweep_id %s.', experiment_report.experiment_id) END,
                  HINT = 'SELECT sweep_id, label FROM pgbenchx.sweeps WHERE configs IS NOT NULL lists the experiments.';
    END IF;

    RETURN QUERY
    WITH c AS (
        SELECT o.ord::int AS config, coalesce(o.cfg ->> 'name', 'configuration ' || o.ord) AS name, o.cfg - 'name' AS sets
        FROM jsonb_array_elements(cfgs) WITH ORDINALITY AS o(cfg, ord)
    ), r AS (
        SELECT r.clients, r.config, r.tps, r.warmup, r.status, r.environment_id, r.run_id, r.repeat,
               NOT r.warmup AND r.status = 'completed' AND r.tps IS NOT NULL AS counted
        FROM pgbenchx.runs r WHERE r.sweep_id = experiment_report.experiment_id
    ), pts AS (
        SELECT k.clients, c.config, c.name, c.sets,
               count(*) FILTER (WHERE r.counted)::int AS runs,
               count(*) FILTER (WHERE r.warmup)::int AS warmups,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY r.tps) FILTER (WHERE r.counted) AS median_tps,
               pgbenchx.ci_repeats(coalesce(array_agg(r.tps) FILTER (WHERE r.counted), '{}')) AS ci,
               avg(ln(r.tps)) FILTER (WHERE r.counted AND r.tps > 0) AS log_mean,
               (array_agg(r.environment_id ORDER BY r.run_id DESC)
                   FILTER (WHERE r.environment_id IS NOT NULL))[1] AS environment_id
        FROM (SELECT DISTINCT r.clients FROM r) k
        CROSS JOIN c
        LEFT JOIN r ON r.clients = k.clients AND r.config = c.config
        GROUP BY k.clients, c.config, c.name, c.sets
    ), rounds AS (
        -- a configuration's counted tps in one round (the geometric mean
        -- if a round holds more than one run of it; 0 when one had none)
        SELECT r.clients, r.config, r.repeat,
               CASE WHEN bool_and(r.tps > 0) THEN exp(avg(ln(greatest(r.tps, 1e-300)))) ELSE 0 END AS tps
        FROM r WHERE r.counted
        GROUP BY r.clients, r.config, r.repeat
    ), prs AS (
        SELECT g.clients, g.config, g.n, l.ratio AS lr_ratio,
               CASE WHEN alpha = 0.05 THEN l.low ELSE u.low END AS lr_low,
               CASE WHEN alpha = 0.05 THEN l.high ELSE u.high END AS lr_high,
               l.log_ratio AS lr_log, l.se AS lr_se, l.df AS lr_df, l.p AS lr_p
        FROM (SELECT x.clients, x.config, count(*)::int AS n,
                     array_agg(b.tps ORDER BY b.repeat) AS a, array_agg(x.tps ORDER BY b.repeat) AS b
              FROM rounds b JOIN rounds x ON x.clients = b.clients AND x.repeat = b.repeat
              WHERE b.config = 1 AND x.config > 1
              GROUP BY x.clients, x.config) g
        LEFT JOIN LATERAL pgbenchx.ci_log_ratio(g.a, g.b, true) l ON true
        LEFT JOIN LATERAL pgbenchx.ci_log_bounds(l.log_ratio, l.se, l.df, alpha) u ON alpha <> 0.05
    ), holm AS (
        SELECT h.clients, h.config, h.level, count(*) OVER ()::int AS m
        FROM (SELECT array_agg(t.clients ORDER BY t.clients, t.config) AS cl,
                     array_agg(t.config ORDER BY t.clients, t.config) AS cf,
                     pgbenchx.ci_holm(array_agg(t.lr_p ORDER BY t.clients, t.config), alpha) AS lv
              FROM prs t WHERE t.n >= 4 AND t.lr_p IS NOT NULL) a
        CROSS JOIN LATERAL unnest(a.cl, a.cf, a.lv) AS h(clients, config, level)
    ), rep AS (
        SELECT p.*, b.name AS base_name, b.log_mean AS base_log_mean, coalesce(q.n, 0) AS n,
               q.lr_ratio, q.lr_low, q.lr_high, q.lr_p, h.level, h.m, adj.low AS adj_low, adj.high AS adj_high
        FROM pts p
        JOIN pts b ON b.clients = p.clients AND b.config = 1
        LEFT JOIN prs q ON q.clients = p.clients AND q.config = p.config
        LEFT JOIN holm h ON h.clients = p.clients AND h.config = p.config
        LEFT JOIN LATERAL pgbenchx.ci_log_bounds(q.lr_log, q.lr_se, q.lr_df, h.level) adj ON h.level IS NOT NULL
    )
    SELECT x.clients, x.config, x.name, x.runs, x.warmups, x.median_tps,
           (x.ci).low, (x.ci).high,
           CASE WHEN x.config = 1 THEN 1.0::float8
                ELSE coalesce(x.lr_ratio, exp(x.log_mean - x.base_log_mean)) END,
           x.adj_low, x.adj_high,
           CASE WHEN x.level IS NOT NULL THEN x.lr_p < x.level END,
           CASE WHEN x.config = 1 THEN 'baseline'
                WHEN x.level IS NOT NULL THEN
                    format('paired t on log tps over %s ABBA pairs (a run of each configuration in the same round; %s degrees of freedom), geometric-mean ratio; %s%s',
                           x.n, x.n - 1,
                           CASE WHEN x.m = 1 THEN 'the only ratio tested: no correction'
                                ELSE format('Holm''s correction over the %s ratios tested', x.m) END,
                           CASE WHEN alpha <> 0.05 THEN '; 97% intervals and tests, since target_ci stopped it when they were narrow enough'
                                ELSE '' END)
                WHEN x.n >= 2 AND x.lr_p IS NULL THEN 'not tested: a run without throughput has no logarithm'
                WHEN x.n >= 2 THEN
                    format('not tested: %s ABBA pairs, 4 or more are needed (repeats => 4 or more); the unadjusted interval is a paired t on log tps (%s degree%s of freedom)',
                           x.n, x.n - 1, CASE WHEN x.n = 2 THEN '' ELSE 's' END)
                ELSE format('not tested: %s ABBA pair%s (a counted run of both configurations in the same round), 4 or more are needed; the ratio is of the geometric means of the runs',
                            x.n, CASE WHEN x.n = 1 THEN '' ELSE 's' END) END,
           x.sets,
           (SELECT jsonb_object_agg(e.key, e.value)
              FROM pgbenchx.environments v, jsonb_each(v.settings) e
             WHERE v.environment_id = x.environment_id AND e.key LIKE 'tablespace%'),
           CASE WHEN x.config > 1 THEN x.n END,
           CASE WHEN x.config > 1 THEN x.lr_low END,
           CASE WHEN x.config > 1 THEN x.lr_high END,
           CASE WHEN x.config = 1 THEN 'baseline'
                WHEN x.level IS NULL THEN
                    format('not tested: %s', CASE WHEN x.n >= 2 AND x.lr_p IS NULL THEN 'a run without throughput'
                                                  ELSE format('%s ABBA pair%s, 4 or more are needed', x.n,
                                                              CASE WHEN x.n = 1 THEN '' ELSE 's' END) END)
                WHEN NOT x.lr_p < x.level THEN
                    format('no significant difference from %s (%s%% interval%s %s to %s)', x.base_name,
                           round(100 * (1 - alpha)),
                           CASE WHEN x.m > 1 THEN ', Holm-adjusted,' ELSE '' END,
                           round(x.adj_low::numeric, 3), round(x.adj_high::numeric, 3))
                ELSE format('%s is %s%% %s than %s (%s%% interval%s %s%% to %s%%)',
                            x.name, round(abs(100 * (x.lr_ratio - 1))::numeric, 1),
                            CASE WHEN x.lr_ratio > 1 THEN 'faster' ELSE 'slower' END, x.base_name,
                            round(100 * (1 - alpha)),
                            CASE WHEN x.m > 1 THEN ', Holm-adjusted,' ELSE '' END,
                            round(abs(100 * (CASE WHEN x.lr_ratio > 1 THEN x.adj_low ELSE x.adj_high END - 1))::numeric, 1),
                            round(abs(100 * (CASE WHEN x.lr_ratio > 1 THEN x.adj_high ELSE x.adj_low END - 1))::numeric, 1)) END
    FROM rep x
    ORDER BY x.clients, x.config;
END
$$;
