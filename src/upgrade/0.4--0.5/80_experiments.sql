/*
 * Issue 23, experiments: run_experiment alternates configurations at each
 * client count.  An experiment is a sweep with its configurations
 * (sweeps.configs, sweeps.warmup), whose runs name theirs (runs.config,
 * 1-based) and say whether they were warm-ups (runs.warmup).
 * run_experiment, launch_experiment and experiment_report are new: the
 * routines create them.
 */
ALTER TABLE pgbenchx.sweeps ADD COLUMN configs jsonb,
                            ADD COLUMN warmup int,
                            ADD COLUMN target_ci float8,
                            ADD COLUMN budget_s int,
                            ADD COLUMN stopped_by text;
ALTER TABLE pgbenchx.runs ADD COLUMN config int,
                          ADD COLUMN warmup boolean NOT NULL DEFAULT false;
