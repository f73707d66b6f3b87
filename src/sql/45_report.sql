/*
 * src/sql/45_report.sql: pgbenchx.report(id), the text a pgbench user
 * expects to read at the end of a run, built from the stored results only.
 * Stateless: every upgrade script re-creates it in full.
 */

/*
 * report(id): for a run, the summary stock pgbench prints at the end of a
 * run, line for line, in its words, order and number formats (%.3f ms,
 * tps = %f, %.3f%%): the pgbench of the major the run ran on (its
 * environment's version(); this server's when it has none), as 15, 16 and
 * 17 print it or as 18 and later do (src/README.md, "pgbench per major": 18
 * goes on past the failed lines when only failures were counted, and stops
 * before them when nothing was, counts a script's failed and skipped
 * transactions in its " - N transactions" line, then prints its processed
 * count and tps on a line of their own, and puts one space, not two,
 * after a statement's failures and retries columns), then a part of
 * pgbenchx's own after a line
 * "-- pgbenchx --": the latency percentiles, the 95% confidence interval
 * of the tps when the run has one (runs.tps_ci_low/high, from 120 seconds
 * of samples: the precision of this run, not a comparison), the driver's CPU and its
 * saturation warning, the status when the run did not complete, and (issue
 * 13) a line "limit: ..." with the run's verdict (or "no evident limit")
 * and its per-transaction figures, then its top wait events.
 *
 * pgbenchx measures every transaction's latency and samples every second, as
 * pgbench -P does, so the latency lines are those pgbench prints with -P
 * (average and stddev, measured); the statement latencies are those of -r,
 * which pgbenchx always gathers; the per-script blocks ("SQL script N")
 * come with several scripts, in the mix's order, from runs.script_stats.
 * Partitioning is not stored, so the "partition method" lines pgbench
 * prints for a partitioned pgbench_accounts are not.
 *
 * For a replay (run_replay) pgbench has no equivalent: statements and
 * queries per minute (qpm) take the place of transactions and tps.  For a
 * sweep: one table row per run (clients, tps, tps including connections,
 * latency average, p99, failed, and the verdict of each run when the sweep
 * recorded what the server did), then the peak and the share of the peak
 * reached at the highest client count (medians over repeats, as
 * sweep_report).
 *
 * Numbers are printed from the stored values with one rule: milliseconds
 * and percentages to 3 decimals, tps and qpm to 6 (pgbench's %.3f and %f),
 * by round(value::numeric, n), as pgbenchx.wait prints them.  Caller: a
 * role granted EXECUTE that may read the result tables.
 */
CREATE OR REPLACE FUNCTION pgbenchx.report(id bigint) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
#variable_conflict use_column
DECLARE
    r          pgbenchx.runs;
    w          pgbenchx.sweeps;
    lines      text[] := '{}';
    mix        record;
    st         record;
    nscripts   int;
    total_w    numeric;
    total_cnt  numeric;
    failed     bigint;
    skipped    bigint;
    tries      int;
    per_script boolean;
    ss         jsonb;
    s_cnt      numeric;
    s_failed   numeric;
    s_total    numeric;
    share      float8;
    peak       record;
    top        record;
    is_replay  boolean;
    unit       text;
    explained  boolean;
    limit_col  text;
    major      int;
    executed   boolean;
BEGIN
    IF report.id IS NULL THEN
        RAISE EXCEPTION 'id must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'report shows one run or one sweep.',
                  HINT = 'Pass the id run_bench, run_sweep or run_replay returned.';
    END IF;
    SELECT * INTO r FROM pgbenchx.runs x WHERE x.run_id = report.id;
    IF NOT FOUND THEN
        SELECT * INTO w FROM pgbenchx.sweeps x WHERE x.sweep_id = report.id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'no run or sweep has id %', report.id
                USING ERRCODE = 'undefined_object',
                      DETAIL = format('Neither pgbenchx.runs nor pgbenchx.sweeps has a row with id %s.', report.id),
                      HINT = 'SELECT run_id, sweep_id, status FROM pgbenchx.runs lists them.';
        END IF;

        /*
         * an experiment (issue 23): per client count and configuration,
         * experiment_report's counted runs, median, ratio to the baseline
         * and its interval
         */
        IF w.configs IS NOT NULL THEN
            lines := lines || format('experiment %s: %s, %s, %s configurations%s%s', w.sweep_id, w.script, w.status,
                                     jsonb_array_length(w.configs),
                                     CASE WHEN w.warmup > 0 THEN format(', %s warm-up%s each (not counted)', w.warmup,
                                                                       CASE WHEN w.warmup = 1 THEN '' ELSE 's' END) ELSE '' END,
                                     CASE WHEN w.target_ci IS NOT NULL
                                          THEN format(', target_ci %s within %s s: stopped by %s', w.target_ci, w.budget_s,
                                                      coalesce(w.stopped_by, '-')) ELSE '' END);
            lines := lines || format('%7s  %-20s  %4s  %14s  %25s  %8s  %19s  %s', 'clients', 'configuration', 'runs',
                                     'median tps', 'tps 95% interval', 'ratio', 'ratio 95% interval', 'significant');
            FOR st IN
                SELECT e.clients, left(e.name, 20) AS name, e.runs,
                       coalesce(round(e.median_tps::numeric, 3)::text, '-') AS med,
                       coalesce(round(e.tps_ci_low::numeric, 3) || ' to ' || round(e.tps_ci_high::numeric, 3), '-') AS ci,
                       coalesce(round(e.ratio::numeric, 4)::text, '-') AS ratio,
                       coalesce(round(e.ratio_low::numeric, 4) || ' to ' || round(e.ratio_high::numeric, 4), '-') AS rci,
                       CASE WHEN e.config = 1 THEN 'baseline'
                            WHEN e.significant IS NULL THEN e.method
                            WHEN e.significant THEN 'yes' ELSE 'no' END AS sig
                FROM pgbenchx.experiment_report(w.sweep_id) e
            LOOP
                lines := lines || format('%7s  %-20s  %4s  %14s  %25s  %8s  %19s  %s', st.clients, st.name, st.runs,
                                         st.med, st.ci, st.ratio, st.rci, st.sig);
            END LOOP;
            IF w.error IS NOT NULL THEN
                lines := lines || ('error: ' || w.error);
            END IF;
            RETURN array_to_string(lines, E'\n');
        END IF;

        /* a sweep: one row per run, then the peak */
        lines := lines || format('sweep %s: %s, %s', w.sweep_id, w.script, w.status);
        /* a replay's rate is in queries per minute, with no connection variant */
        is_replay := EXISTS (SELECT 1 FROM pgbenchx.runs x WHERE x.sweep_id = w.sweep_id AND x.replay);
        unit := CASE WHEN is_replay THEN 'qpm' ELSE 'tps' END;
        /* a column "limit" (runs.verdict) when a run of the sweep recorded what the server did */
        explained := EXISTS (SELECT 1 FROM pgbenchx.runs x WHERE x.sweep_id = w.sweep_id AND x.record_system);
        lines := lines || (CASE WHEN is_replay
            THEN format('%7s  %16s  %14s  %10s  %8s  %s', 'clients', 'qpm', 'latency avg ms', 'p99 ms', 'failed',
                        CASE WHEN explained THEN rpad('run', 14) ELSE 'run' END)
            ELSE format('%7s  %16s  %16s  %14s  %10s  %8s  %s', 'clients', 'tps', 'tps incl. conn',
                        'latency avg ms', 'p99 ms', 'failed', CASE WHEN explained THEN rpad('run', 14) ELSE 'run' END) END
            || CASE WHEN explained THEN '  limit' ELSE '' END);
        FOR st IN
            SELECT x.clients::text AS clients,
                   coalesce(round((CASE WHEN is_replay THEN x.qpm ELSE x.tps END)::numeric, 6)::text, '-') AS rate,
                   coalesce(round(x.tps_incl_conn::numeric, 6)::text, '-') AS incl,
                   coalesce(round(x.latency_avg_ms::numeric, 3)::text, '-') AS lat,
                   coalesce(round(x.latency_p99_ms::numeric, 3)::text, '-') AS p99,
                   coalesce(x.failed::text, '-') AS nfailed,
                   x.run_id || CASE WHEN x.status = 'completed' THEN '' ELSE ' ' || x.status END AS run,
                   CASE WHEN x.verdict IS NOT NULL THEN x.verdict
                        WHEN x.record_system AND (x.top_waits IS NOT NULL OR x.iowait_avg IS NOT NULL
                                                  OR x.server_cpu_ms_per_tx IS NOT NULL OR x.wal_bytes_per_tx IS NOT NULL
                                                  OR x.blocks_read_per_tx IS NOT NULL OR x.blocks_written_per_tx IS NOT NULL)
                            THEN 'no evident limit'
                        ELSE '-' END AS verdict
            FROM pgbenchx.runs x WHERE x.sweep_id = w.sweep_id ORDER BY x.clients, x.repeat, x.run_id
        LOOP
            limit_col := CASE WHEN explained THEN rpad(st.run, 14) || '  ' || st.verdict ELSE st.run END;
            lines := lines || CASE WHEN is_replay
                THEN format('%7s  %16s  %14s  %10s  %8s  %s', st.clients, st.rate, st.lat, st.p99, st.nfailed, limit_col)
                ELSE format('%7s  %16s  %16s  %14s  %10s  %8s  %s', st.clients, st.rate, st.incl, st.lat,
                            st.p99, st.nfailed, limit_col) END;
        END LOOP;
        WITH per AS (
            SELECT x.clients, count(*) AS n,
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY CASE WHEN is_replay THEN x.qpm ELSE x.tps END) AS tps
            FROM pgbenchx.runs x
            WHERE x.sweep_id = w.sweep_id AND x.status = 'completed'
              AND CASE WHEN is_replay THEN x.qpm ELSE x.tps END IS NOT NULL
            GROUP BY x.clients)
        SELECT per.clients, per.n, per.tps INTO peak FROM per ORDER BY per.tps DESC, per.clients LIMIT 1;
        IF FOUND THEN
            SELECT x.clients,
                   count(*) FILTER (WHERE x.status = 'completed'
                                      AND CASE WHEN is_replay THEN x.qpm ELSE x.tps END IS NOT NULL) AS n,
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY CASE WHEN is_replay THEN x.qpm ELSE x.tps END)
                       FILTER (WHERE x.status = 'completed'
                                 AND CASE WHEN is_replay THEN x.qpm ELSE x.tps END IS NOT NULL) AS tps
            INTO top FROM pgbenchx.runs x
            WHERE x.sweep_id = w.sweep_id
            GROUP BY x.clients ORDER BY x.clients DESC LIMIT 1;
            lines := lines || format('peak: %s %s at %s client%s%s', round(peak.tps::numeric, 6), unit, peak.clients,
                                     CASE WHEN peak.clients = 1 THEN '' ELSE 's' END,
                                     CASE WHEN peak.n > 1 THEN format(' (median of %s runs)', peak.n) ELSE '' END);
            IF top.n > 0 AND peak.tps > 0 THEN
                lines := lines || format('at the highest client count, %s: %s %s, %s%% of the peak',
                                         top.clients, round(top.tps::numeric, 6), unit,
                                         round((100 * top.tps / peak.tps)::numeric, 3));
            ELSE
                lines := lines || format('at the highest client count, %s: no completed run', top.clients);
            END IF;
        ELSE
            lines := lines || 'peak: no completed run'::text;
        END IF;
        IF w.error IS NOT NULL THEN
            lines := lines || ('error: ' || w.error);
        END IF;
        RETURN array_to_string(lines, E'\n');
    END IF;

    failed := coalesce(r.failed, 0);
    skipped := coalesce(r.skipped, 0);
    tries := coalesce(r.max_tries, 1);
    total_cnt := coalesce(r.transactions, 0) + skipped + failed;
    /* the words of the pgbench of the major the run ran on */
    major := coalesce((SELECT substring(e.pg_version FROM '^PostgreSQL ([0-9]+)')::int
                       FROM pgbenchx.environments e WHERE e.environment_id = r.environment_id),
                      current_setting('server_version_num')::int / 10000);

    IF r.replay THEN
        /* pgbench has no replay: its words, with statements and qpm */
        lines := lines || 'transaction type: replay (each statement counts as one transaction)'::text;
        lines := lines || ('query mode: ' || r.protocol);
        lines := lines || ('number of clients: ' || r.clients);
        lines := lines || ('number of threads: ' || r.jobs);
        IF r.transactions IS NOT NULL THEN
            lines := lines || ('number of statements actually processed: ' || r.transactions);
            lines := lines || format('number of failed statements: %s (%s%%)', failed,
                                     round(CASE WHEN total_cnt > 0 THEN 100 * failed / total_cnt ELSE 0 END, 3));
            IF r.latency_avg_ms IS NOT NULL AND r.latency_avg_ms::text <> 'NaN' THEN
                lines := lines || ('latency average = ' || round(r.latency_avg_ms::numeric, 3) || ' ms');
                lines := lines || ('latency stddev = ' || round(r.latency_stddev_ms::numeric, 3) || ' ms');
            END IF;
            lines := lines || ('initial connection time = ' || coalesce(round(r.conn_time_ms::numeric, 3)::text, '-') || ' ms');
            lines := lines || ('qpm = ' || coalesce(round(r.qpm::numeric, 6)::text, '-') || ' (without initial connection time)');
        END IF;
    ELSE
        /* the scripts of the mix, in its order: "name" or "name@weight, ..." */
        nscripts := 0;
        total_w := 0;
        FOR mix IN
            SELECT m.n::int AS n,
                   regexp_replace(m.item, '@[0-9]+$', '') AS name,
                   coalesce(substring(m.item FROM '@([0-9]+)$')::bigint, 1) AS weight
            FROM regexp_split_to_table(r.script, ',\s*') WITH ORDINALITY AS m(item, n)
        LOOP
            nscripts := nscripts + 1;
            total_w := total_w + mix.weight;
        END LOOP;
        per_script := nscripts > 1;

        lines := lines || ('transaction type: ' ||
                           CASE WHEN per_script THEN 'multiple scripts'
                                ELSE coalesce((SELECT b.description FROM pgbenchx.builtin_scripts() b
                                               WHERE b.name = r.script), r.script) END);
        lines := lines || ('scaling factor: ' || coalesce(r.scale::text, '1'));
        lines := lines || ('query mode: ' || r.protocol);
        lines := lines || ('number of clients: ' || r.clients);
        lines := lines || ('number of threads: ' || r.jobs);
        IF tries <> 0 THEN
            lines := lines || ('maximum number of tries: ' || tries);
        END IF;
        IF r.transactions_per_client IS NOT NULL THEN
            lines := lines || ('number of transactions per client: ' || r.transactions_per_client);
            lines := lines || format('number of transactions actually processed: %s/%s',
                                     coalesce(r.transactions, 0), r.transactions_per_client * r.clients);
        ELSE
            lines := lines || ('duration: ' || coalesce(r.duration, 0) || ' s');
            lines := lines || ('number of transactions actually processed: ' || coalesce(r.transactions, 0));
        END IF;
        /*
         * pgbench 15 to 17 print the failed lines whatever was counted (0/0
         * prints NaN) and stop after them when nothing succeeded or was
         * skipped; 18 stops before them when nothing at all was counted
         */
        executed := CASE WHEN major >= 18 THEN total_cnt > 0
                         ELSE coalesce(r.transactions, 0) + skipped > 0 END;
        IF major < 18 OR executed THEN
            lines := lines || format('number of failed transactions: %s (%s%%)', failed,
                                     CASE WHEN total_cnt > 0 THEN round(100 * failed / total_cnt, 3)::text ELSE 'NaN' END);
            IF tries <> 1 THEN
                lines := lines || format('number of transactions retried: %s (%s%%)', coalesce(r.retried, 0),
                                         CASE WHEN total_cnt > 0 THEN round(100 * coalesce(r.retried, 0) / total_cnt, 3)::text ELSE 'NaN' END);
                lines := lines || ('total number of retries: ' || coalesce(r.retries, 0));
            END IF;
        END IF;

        IF executed THEN
            IF r.rate IS NOT NULL AND r.latency_limit_ms IS NOT NULL THEN
                lines := lines || format('number of transactions skipped: %s (%s%%)', skipped,
                                         round(CASE WHEN total_cnt > 0 THEN 100 * skipped / total_cnt ELSE 0 END, 3));
            END IF;
            IF r.latency_limit_ms IS NOT NULL THEN
                lines := lines || format('number of transactions above the %s ms latency limit: %s/%s (%s%%)',
                                         round(r.latency_limit_ms::numeric, 1), coalesce(r.late, 0), r.transactions,
                                         CASE WHEN r.transactions > 0 THEN round(100.0 * coalesce(r.late, 0) / r.transactions, 3)::text ELSE '0.000' END);
            END IF;
            IF r.transactions > 0 THEN
                lines := lines || ('latency average = ' || round(r.latency_avg_ms::numeric, 3) || ' ms');
                lines := lines || ('latency stddev = ' || round(r.latency_stddev_ms::numeric, 3) || ' ms');
            END IF;
            IF r.rate IS NOT NULL THEN
                lines := lines || format('rate limit schedule lag: avg %s (max %s) ms',
                                         round(coalesce(r.lag_avg_ms, 0)::numeric, 3), round(coalesce(r.lag_max_ms, 0)::numeric, 3));
            END IF;
            IF r.connect_per_transaction THEN
                lines := lines || ('average connection time = ' || coalesce(round(r.conn_time_ms::numeric, 3)::text, '-') || ' ms');
                lines := lines || ('tps = ' || coalesce(round(r.tps::numeric, 6)::text, '-') || ' (including reconnection times)');
            ELSE
                lines := lines || ('initial connection time = ' || coalesce(round(r.conn_time_ms::numeric, 3)::text, '-') || ' ms');
                lines := lines || ('tps = ' || coalesce(round(r.tps::numeric, 6)::text, '-') || ' (without initial connection time)');
            END IF;

            /* per script (several scripts) and per statement (-r) */
            FOR mix IN
                SELECT m.n::int AS n,
                       regexp_replace(m.item, '@[0-9]+$', '') AS name,
                       coalesce(substring(m.item FROM '@([0-9]+)$')::bigint, 1) AS weight
                FROM regexp_split_to_table(r.script, ',\s*') WITH ORDINALITY AS m(item, n)
                ORDER BY m.n
            LOOP
                IF per_script THEN
                    ss := r.script_stats -> (mix.n - 1);
                    s_cnt := coalesce((ss ->> 'transactions')::numeric, 0);
                    s_failed := coalesce((ss ->> 'failed')::numeric, 0);
                    s_total := s_cnt + s_failed + coalesce((ss ->> 'skipped')::numeric, 0);
                    lines := lines || format('SQL script %s: %s', mix.n,
                                             coalesce((SELECT b.description FROM pgbenchx.builtin_scripts() b
                                                       WHERE b.name = mix.name), mix.name));
                    lines := lines || format(' - weight: %s (targets %s%% of total)', mix.weight,
                                             round(CASE WHEN total_w > 0 THEN 100 * mix.weight / total_w ELSE 0 END, 1));
                    IF ss IS NULL THEN
                        /* a run recorded before runs.script_stats: no per-script figures */
                        lines := lines || ' - transactions: not recorded'::text;
                    END IF;
                END IF;
                IF per_script AND ss IS NOT NULL THEN
                    IF major >= 18 THEN
                        /* every transaction of the script, then those processed */
                        lines := lines || format(' - %s transactions (%s%% of total)', s_total,
                                                 round(100 * s_total / total_cnt, 1));
                        IF s_total > 0 THEN
                            lines := lines || format(' - number of transactions actually processed: %s (tps = %s)', s_cnt,
                                                     coalesce(round((s_cnt / nullif(r.bench_duration_s, 0)::numeric), 6)::text, '-'));
                        END IF;
                    ELSE
                        lines := lines || format(' - %s transactions (%s%% of total, tps = %s)', s_cnt,
                                                 CASE WHEN r.transactions > 0 THEN round(100 * s_cnt / r.transactions, 1)::text ELSE 'NaN' END,
                                                 coalesce(round((s_cnt / nullif(r.bench_duration_s, 0)::numeric), 6)::text, '-'));
                    END IF;
                    IF major < 18 OR s_total > 0 THEN
                        lines := lines || format(' - number of failed transactions: %s (%s%%)', s_failed,
                                                 CASE WHEN s_total > 0 THEN round(100 * s_failed / s_total, 3)::text ELSE 'NaN' END);
                    END IF;
                    IF tries <> 1 AND (major < 18 OR s_total > 0) THEN
                        lines := lines || format(' - number of transactions retried: %s (%s%%)',
                                                 coalesce(ss ->> 'retried', '0'),
                                                 CASE WHEN s_total > 0 THEN round(100 * coalesce((ss ->> 'retried')::numeric, 0) / s_total, 3)::text ELSE 'NaN' END);
                        lines := lines || (' - total number of retries: ' || coalesce(ss ->> 'retries', '0'));
                    END IF;
                    IF r.rate IS NOT NULL AND r.latency_limit_ms IS NOT NULL AND s_total > 0 THEN
                        lines := lines || format(' - number of transactions skipped: %s (%s%%)',
                                                 coalesce(ss ->> 'skipped', '0'),
                                                 round(100 * coalesce((ss ->> 'skipped')::numeric, 0) / s_total, 3));
                    END IF;
                    IF s_cnt > 0 AND ss ->> 'latency_avg_ms' IS NOT NULL THEN
                        lines := lines || (' - latency average = ' || round((ss ->> 'latency_avg_ms')::numeric, 3) || ' ms');
                        lines := lines || (' - latency stddev = ' || round((ss ->> 'latency_stddev_ms')::numeric, 3) || ' ms');
                    END IF;
                END IF;
                IF EXISTS (SELECT 1 FROM pgbenchx.statement_stats x WHERE x.run_id = r.run_id AND x.script = mix.name) THEN
                    lines := lines || format('%sstatement latencies in milliseconds%s:',
                                             CASE WHEN per_script THEN ' - ' ELSE '' END,
                                             CASE WHEN tries = 1 THEN ' and failures' ELSE ', failures and retries' END);
                    FOR st IN
                        SELECT x.* FROM pgbenchx.statement_stats x
                        WHERE x.run_id = r.run_id AND x.script = mix.name ORDER BY x.command
                    LOOP
                        /* pgbench 18 puts one space before each column after the latency's */
                        lines := lines || CASE WHEN tries = 1
                            THEN format(CASE WHEN major >= 18 THEN '   %11s  %10s %s' ELSE '   %11s  %10s  %s' END,
                                        round(coalesce(st.latency_avg_ms, 0)::numeric, 3),
                                        st.failures, st.command_text)
                            ELSE format(CASE WHEN major >= 18 THEN '   %11s  %10s %10s %s' ELSE '   %11s  %10s  %10s  %s' END,
                                        round(coalesce(st.latency_avg_ms, 0)::numeric, 3),
                                        st.failures, st.retries, st.command_text) END;
                    END LOOP;
                END IF;
            END LOOP;
        END IF;
    END IF;

    /* pgbenchx's own, which pgbench lacks */
    lines := lines || '-- pgbenchx --'::text;
    IF r.status <> 'completed' THEN
        lines := lines || ('status: ' || r.status || coalesce(': ' || r.error, ''));
    END IF;
    IF r.latency_p50_ms IS NOT NULL AND r.latency_p50_ms::text <> 'NaN' THEN
        lines := lines || format('latency percentiles: p50 = %s ms, p90 = %s ms, p95 = %s ms, p99 = %s ms, max = %s ms',
                                 round(r.latency_p50_ms::numeric, 3), round(r.latency_p90_ms::numeric, 3),
                                 round(r.latency_p95_ms::numeric, 3), round(r.latency_p99_ms::numeric, 3),
                                 coalesce(round(r.latency_max_ms::numeric, 3)::text, '-'));
    END IF;
    /*
     * issue 23: the interval of the mean per-second tps, from 120 samples;
     * issue 35: said as this run's precision, never as a comparison
     */
    IF r.tps_ci_low IS NOT NULL THEN
        lines := lines || format('tps 95%% confidence interval of this run: %s to %s (its precision, from its per-second samples; another run varies more: compare repeats)',
                                 round(r.tps_ci_low::numeric, 6), round(r.tps_ci_high::numeric, 6));
    END IF;
    IF coalesce(r.aborted_clients, 0) > 0 THEN
        lines := lines || format('aborted clients: %s', r.aborted_clients);
    END IF;
    IF r.driver_cpu_s IS NOT NULL THEN
        share := CASE WHEN r.bench_duration_s >= 1 THEN r.driver_cpu_s / (r.bench_duration_s * r.jobs) END;
        lines := lines || format('driver CPU = %s s%s', round(r.driver_cpu_s::numeric, 3),
                                 CASE WHEN share IS NOT NULL
                                      THEN format(' (%s%% of %s job%s over %s s)', round((100 * share)::numeric, 3), r.jobs,
                                                  CASE WHEN r.jobs = 1 THEN '' ELSE 's' END,
                                                  round(r.bench_duration_s::numeric, 3))
                                      ELSE '' END);
        -- the same threshold as pgbenchx.wait's notice (wait.c, WAIT_DRIVER_BOUND_SHARE)
        IF share > 0.9 THEN
            lines := lines || format('warning: the driver workers were busy %s%% of the time: the load generator, not the server, may have been the limit; pass more jobs, or run the clients from another machine',
                                     round((100 * share)::numeric));
        END IF;
    END IF;
    /* why (issue 13): the verdict of explain_run and the per-transaction figures */
    IF r.record_system THEN
        /* the driver's CPU alone (runs.driver_cpu_s) tells nothing of the server */
        IF r.verdict IS NULL AND coalesce(r.wal_bytes_per_tx, r.blocks_read_per_tx, r.blocks_written_per_tx,
                                          r.server_cpu_ms_per_tx, r.iowait_avg) IS NULL AND r.top_waits IS NULL THEN
            lines := lines || 'limit: not known (nothing was recorded about the machine and the server)'::text;
        ELSE
            lines := lines || format('limit: %s; per transaction: WAL %s bytes, %s blocks read, %s blocks written, server CPU %s ms, driver CPU %s ms; iowait %s',
                                     coalesce(r.verdict, 'no evident limit'),
                                     coalesce(round(r.wal_bytes_per_tx::numeric, 1)::text, '-'),
                                     coalesce(round(r.blocks_read_per_tx::numeric, 3)::text, '-'),
                                     coalesce(round(r.blocks_written_per_tx::numeric, 3)::text, '-'),
                                     coalesce(round(r.server_cpu_ms_per_tx::numeric, 3)::text, '-'),
                                     coalesce(round(r.driver_cpu_ms_per_tx::numeric, 3)::text, '-'),
                                     coalesce(round((100 * r.iowait_avg)::numeric, 1) || '%', '-'));
        END IF;
        IF jsonb_typeof(r.top_waits) = 'array' AND jsonb_array_length(r.top_waits) > 0 THEN
            lines := lines || ('top waits: ' ||
                               (SELECT string_agg(format('%s:%s %s%%', e ->> 'wait_event_type', e ->> 'wait_event',
                                                         round(100 * (e ->> 'share')::numeric, 1)), ', ' ORDER BY n)
                                FROM jsonb_array_elements(r.top_waits) WITH ORDINALITY AS x(e, n)));
        END IF;
    ELSIF NOT r.record_system THEN
        lines := lines || 'limit: not recorded (record_system => false)'::text;
    END IF;
    RETURN array_to_string(lines, E'\n');
END $$;
