/*
 * src/sql/52_experiments.sql: reading an experiment (run_experiment, issue
 * 23).  An experiment is a sweep with configurations (sweeps.configs) whose
 * runs name theirs (runs.config, 1-based) and say whether they were
 * warm-ups (runs.warmup: stored, never counted here).
 */

-- experiment_report(id): per client count and configuration, the counted
-- runs' median tps and the 95% interval of their mean (ci_repeats), the
-- ratio of their mean to the baseline's (the first configuration) with its
-- 95% interval by Fieller (ci_ratio) and whether it excludes 1, and what
-- the configuration sets (its entry of sweeps.configs, name left out) and
-- where its tables were (the tablespace keys of its runs' environment).
CREATE OR REPLACE FUNCTION pgbenchx.experiment_report(experiment_id bigint)
RETURNS TABLE (clients int, config int, name text, runs int, warmups int,
               median_tps float8, tps_ci_low float8, tps_ci_high float8,
               ratio float8, ratio_low float8, ratio_high float8,
               significant boolean, method text, sets jsonb, environment jsonb)
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
#variable_conflict use_column
DECLARE
    cfgs jsonb;
BEGIN
    IF experiment_report.experiment_id IS NULL THEN
        RAISE EXCEPTION 'argument "experiment_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Pass the id run_experiment returned.';
    END IF;
    SELECT s.configs INTO cfgs FROM pgbenchx.sweeps s WHERE s.sweep_id = experiment_report.experiment_id;
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
        SELECT o.ord::int AS config, o.cfg ->> 'name' AS name, o.cfg - 'name' AS sets
        FROM jsonb_array_elements(cfgs) WITH ORDINALITY AS o(cfg, ord)
    ), r AS (
        SELECT r.clients, r.config, r.tps, r.warmup, r.status, r.environment_id, r.run_id
        FROM pgbenchx.runs r WHERE r.sweep_id = experiment_report.experiment_id
    ), pts AS (
        SELECT k.clients, c.config, c.name, c.sets,
               count(*) FILTER (WHERE NOT r.warmup AND r.status = 'completed')::int AS runs,
               count(*) FILTER (WHERE r.warmup)::int AS warmups,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY r.tps)
                   FILTER (WHERE NOT r.warmup AND r.status = 'completed') AS median_tps,
               pgbenchx.ci_repeats(coalesce(array_agg(r.tps)
                   FILTER (WHERE NOT r.warmup AND r.status = 'completed'), '{}')) AS ci,
               (array_agg(r.environment_id ORDER BY r.run_id DESC)
                   FILTER (WHERE r.environment_id IS NOT NULL))[1] AS environment_id
        FROM (SELECT DISTINCT r.clients FROM r) k
        CROSS JOIN c
        LEFT JOIN r ON r.clients = k.clients AND r.config = c.config
        GROUP BY k.clients, c.config, c.name, c.sets
    )
    SELECT p.clients, p.config, p.name, p.runs, p.warmups, p.median_tps,
           (p.ci).low, (p.ci).high,
           CASE WHEN p.config = 1 THEN 1.0::float8
                ELSE coalesce(x.ratio, (p.ci).tps / NULLIF((b.ci).tps, 0)) END,
           CASE WHEN p.config = 1 THEN NULL ELSE x.low END,
           CASE WHEN p.config = 1 THEN NULL ELSE x.high END,
           CASE WHEN p.config = 1 THEN NULL ELSE x.significant END,
           CASE WHEN p.config = 1 THEN 'baseline'
                WHEN p.runs < 2 OR b.runs < 2 THEN 'not tested: fewer than 2 completed runs on a side'
                WHEN x.ratio IS NULL THEN 'not tested: the baseline''s runs are too spread'
                ELSE format('Fieller, %s and %s runs', b.runs, p.runs) END,
           p.sets,
           (SELECT jsonb_object_agg(e.key, e.value)
              FROM pgbenchx.environments v, jsonb_each(v.settings) e
             WHERE v.environment_id = p.environment_id AND e.key LIKE 'tablespace%')
    FROM pts p
    JOIN pts b ON b.clients = p.clients AND b.config = 1
    LEFT JOIN LATERAL (SELECT * FROM pgbenchx.ci_ratio((b.ci).tps, (b.ci).se, (b.ci).df,
                                                       (p.ci).tps, (p.ci).se, (p.ci).df)) x
           ON p.config > 1
    ORDER BY p.clients, p.config;
END
$$;
