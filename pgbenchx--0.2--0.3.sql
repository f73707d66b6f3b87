/*
 * pgbenchx--0.2--0.3.sql: ALTER EXTENSION pgbenchx UPDATE from 0.2 to 0.3.
 * Generated: the Makefile concatenates the files of src/upgrade/0.2--0.3 in
 * name order, one per change; once 0.3 is released they are frozen, and a
 * later change ships as pgbenchx--0.3--0.4.sql.
 *
 * Tables change as deltas (ALTER TABLE ... ADD COLUMN), so that every
 * stored result stays; stateless functions and views are re-created in
 * full, as the install script (src/sql) creates them.  A routine that
 * several changes touch is re-created once, by the last fragment that
 * changes it (or the one that must DROP and CREATE it), with its final body
 * (python3 scripts/upgrade_sync.py keeps those bodies equal to src/sql's);
 * the earlier fragments say where.  A view whose columns grow in steps is
 * the exception: each step adds its columns at the end.  test/t/036_upgrade.pl
 * checks that 0.1 + UPDATE has the catalogue of a fresh CREATE EXTENSION,
 * and test/t/037 and 038 update real 0.1 and 0.2 installs with results.
 */

\echo Use "ALTER EXTENSION pgbenchx UPDATE TO '0.3'" to load this file. \quit
/*
 * 10_report.sql (issue 12, pgbench's summary from the stored results):
 * runs.script_stats, pgbench's per-script figures, and pgbenchx.report(id)
 * as src/sql/45_report.sql creates it.  Runs recorded before have no
 * script_stats: their report says so in its per-script blocks.
 */

ALTER TABLE pgbenchx.runs ADD COLUMN script_stats jsonb;

/*
 * report(id): for a run, the summary stock pgbench 15 prints at the end of a
 * run, line for line, in its words, order and number formats (%.3f ms,
 * tps = %f, %.3f%%), then a part of pgbenchx's own after a line
 * "-- pgbenchx --": the latency percentiles, the driver's CPU and its
 * saturation warning, and the status when the run did not complete.
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
 * latency average, p99, failed), then the peak and the share of the peak
 * reached at the highest client count (medians over repeats, as
 * sweep_report).
 *
 * Numbers are printed from the stored values with one rule: milliseconds
 * and percentages to 3 decimals, tps and qpm to 6 (pgbench's %.3f and %f),
 * by round(value::numeric, n), as pgbenchx.wait prints them.  Caller: a
 * role granted EXECUTE that may read the result tables.
 */
CREATE FUNCTION pgbenchx.report(id bigint) RETURNS text
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
        lines := lines || format('number of failed transactions: %s (%s%%)', failed,
                                 round(CASE WHEN total_cnt > 0 THEN 100 * failed / total_cnt ELSE 0 END, 3));
        IF tries <> 1 THEN
            lines := lines || format('number of transactions retried: %s (%s%%)', coalesce(r.retried, 0),
                                     round(CASE WHEN total_cnt > 0 THEN 100 * coalesce(r.retried, 0) / total_cnt ELSE 0 END, 3));
            lines := lines || ('total number of retries: ' || coalesce(r.retries, 0));
        END IF;

        /* pgbench stops here when nothing was executed */
        IF coalesce(r.transactions, 0) + skipped > 0 THEN
            IF r.rate IS NOT NULL AND r.latency_limit_ms IS NOT NULL THEN
                lines := lines || format('number of transactions skipped: %s (%s%%)', skipped,
                                         round(CASE WHEN total_cnt > 0 THEN 100 * skipped / total_cnt ELSE 0 END, 3));
            END IF;
            IF r.latency_limit_ms IS NOT NULL THEN
                lines := lines || format('number of transactions above the %s ms latency limit: %s/%s (%s%%)',
                                         round(r.latency_limit_ms::numeric, 1), coalesce(r.late, 0), r.transactions,
                                         round(CASE WHEN r.transactions > 0 THEN 100.0 * coalesce(r.late, 0) / r.transactions ELSE 0 END, 3));
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
                    lines := lines || format(' - %s transactions (%s%% of total, tps = %s)', s_cnt,
                                             round(CASE WHEN r.transactions > 0 THEN 100 * s_cnt / r.transactions ELSE 0 END, 1),
                                             coalesce(round((s_cnt / nullif(r.bench_duration_s, 0)::numeric), 6)::text, '-'));
                    lines := lines || format(' - number of failed transactions: %s (%s%%)', s_failed,
                                             round(CASE WHEN s_total > 0 THEN 100 * s_failed / s_total ELSE 0 END, 3));
                    IF tries <> 1 THEN
                        lines := lines || format(' - number of transactions retried: %s (%s%%)',
                                                 coalesce(ss ->> 'retried', '0'),
                                                 round(CASE WHEN s_total > 0 THEN 100 * coalesce((ss ->> 'retried')::numeric, 0) / s_total ELSE 0 END, 3));
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
                        lines := lines || CASE WHEN tries = 1
                            THEN format('   %11s  %10s  %s', round(coalesce(st.latency_avg_ms, 0)::numeric, 3),
                                        st.failures, st.command_text)
                            ELSE format('   %11s  %10s  %10s  %s', round(coalesce(st.latency_avg_ms, 0)::numeric, 3),
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

REVOKE ALL ON FUNCTION pgbenchx.report(bigint) FROM PUBLIC;

-- EXECUTE for the runners who had pgbenchx.wait: 90_runner_grants.sql
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
/*
 * Issue 12 section 3: the phase, step and expected end of the run in
 * progress.  pgbenchx.progress_state() reads what the coordinator publishes;
 * the progress view gains phase, step, steps and eta at the end of its
 * columns.  The roles that may wait for runs (grant_runner's runners, or
 * any grant of the user's on pgbenchx.wait) may read the new function, as
 * the view calls it with their privileges; its initial privileges are put
 * back to what a fresh CREATE EXTENSION records (the REVOKE), so that
 * pg_dump keeps these grants as the user's.
 */

-- The run in progress as its coordinator publishes it in shared memory:
-- its phase (maintenance, checkpoint, connecting, measuring, finishing),
-- its step (a lone run is step 1 of 1) and the expected end of the whole
-- run or sweep (NULL while unknown).  One row, or none.  Internal to the
-- progress view; the same for every role.
CREATE FUNCTION pgbenchx.progress_state(
    OUT run_id bigint, OUT sweep_id bigint, OUT phase text,
    OUT step int, OUT steps int, OUT eta timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgbenchx_progress_state'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED ROWS 1;

-- The live state of the run in progress, from any session: phase, step
-- and steps, and eta (the expected end of the run or of the whole sweep,
-- counting only what is known; NULL while unknown) from pgbenchx.progress_state().
CREATE OR REPLACE VIEW pgbenchx.progress AS
SELECT r.run_id, r.sweep_id, r.script, r.clients, r.jobs, r.duration,
       pg_catalog.round(extract(epoch FROM pg_catalog.clock_timestamp() OPERATOR(pg_catalog.-) r.started_at)::numeric, 1) AS elapsed_s,
       coalesce(s.transactions, 0) AS transactions,
       s.tps AS current_tps,
       s.latency_p99_ms AS current_p99_ms,
       s.seconds AS seconds_sampled,
       p.phase, p.step, p.steps, p.eta
FROM pgbenchx.runs r
LEFT JOIN LATERAL (
    SELECT pg_catalog.sum(x.transactions)::bigint AS transactions,
           (pg_catalog.array_agg(x.tps ORDER BY x.second DESC))[1] AS tps,
           (pg_catalog.array_agg(x.latency_p99_ms ORDER BY x.second DESC))[1] AS latency_p99_ms,
           pg_catalog.max(x.second) AS seconds
    FROM pgbenchx.samples x WHERE x.run_id OPERATOR(pg_catalog.=) r.run_id) s ON true
LEFT JOIN pgbenchx.progress_state() p ON p.run_id OPERATOR(pg_catalog.=) r.run_id
WHERE r.status OPERATOR(pg_catalog.=) 'running'
  -- a run whose coordinator is gone (immediate shutdown, crash) is not in
  -- progress; pgbenchx.wait, pgbenchx.cancel or the next run mark it aborted
  AND pgbenchx.coordinator_alive(r.coordinator_pid);

-- the progress view's columns from progress_state() (described where \d+ shows them)
COMMENT ON COLUMN pgbenchx.progress.phase IS 'what the coordinator is doing: maintenance (vacuum, truncate, check_tpcb''s sums), checkpoint, connecting, measuring, finishing (the totals and rows stored)';
COMMENT ON COLUMN pgbenchx.progress.step IS 'this run''s place in its sweep, from 1; 1 for a lone run';
COMMENT ON COLUMN pgbenchx.progress.steps IS 'the runs of the sweep (client counts times repeats); 1 for a lone run';
COMMENT ON COLUMN pgbenchx.progress.eta IS 'when the whole run or sweep is expected to end: the durations left, and for the steps to come what the last finished step spent beyond its duration; NULL while unknown (bounded by transactions, before the last step measures)';

REVOKE ALL ON FUNCTION pgbenchx.progress_state() FROM PUBLIC;

-- EXECUTE for the runners who had pgbenchx.wait: 90_runner_grants.sql

-- 40_refuse (issue 12 §4): check_tpcb records whether the TPC-B invariant
-- already did not hold before the run (an earlier simple-update run breaks
-- it), so that a false runs.tpcb_consistent says why.
ALTER TABLE pgbenchx.runs ADD COLUMN tpcb_consistent_before boolean;

-- The same words for the same mistake: a NULL, NULL-holding or empty
-- argument reads 'argument "x" must not be null' (contain NULL, be empty)
-- everywhere; singular counts in the charts' texts.  CREATE OR REPLACE
-- keeps each routine's privileges, PUBLIC's already revoked: no REVOKE
-- here, which would record a runner's grants as the extension's initial
-- privileges (pg_init_privs).

CREATE OR REPLACE FUNCTION pgbenchx.chart_sweeps(sweep_ids bigint[]) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
DECLARE
    palette constant text[] := ARRAY['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e',
        '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
    w constant float8 := 900;          -- width
    px0 constant float8 := 90;         -- plot area: left, right, top, bottom
    px1 constant float8 := 870;
    py0 constant float8 := 70;
    py1 constant float8 := 410;
    pad constant float8 := 16;         -- inset of the first and last client count
    ids bigint[];
    missing bigint;
    missing_kind text;
    is_replay boolean;
    mixed boolean;
    unit text;
    rate_name text;
    h float8;
    cmin int; cmax int;
    ymax float8; ystep float8; ytop float8;
    logx boolean;
    xa float8; xb float8;              -- x = xa + xb * f(clients)
    tick float8;
    last_x float8;
    xstep int;
    xp float8;
    yp float8;
    npts int;
    peak float8;
    peak_clients int;
    pts_all jsonb;
    durations text;
    svg text;
    legend text := '';
    plot text := '';
    subtitle text;
    any_repeats boolean;
    s record;
    p record;
    i int := 0;
    color text;
    pts text;
    ly float8;
BEGIN
    IF sweep_ids IS NULL OR array_position(sweep_ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION '%', CASE WHEN sweep_ids IS NULL THEN 'argument "sweep_ids" must not be null'
                                  ELSE 'argument "sweep_ids" must not contain NULL' END
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'chart_sweeps draws one line per sweep id given.',
                  HINT = 'Pass the ids of sweeps, for example ARRAY[1, 17]; SELECT sweep_id, label FROM pgbenchx.sweeps lists them.';
    END IF;
    IF cardinality(sweep_ids) = 0 THEN
        RAISE EXCEPTION 'argument "sweep_ids" must not be empty'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'chart_sweeps draws one line per sweep id given, and none was given.',
                  HINT = 'Pass the ids of sweeps, for example ARRAY[1, 17]; SELECT sweep_id, label FROM pgbenchx.sweeps lists them.';
    END IF;

    -- the ids in the order given, each once
    SELECT array_agg(id ORDER BY ord) INTO ids
    FROM (SELECT id, min(ord) AS ord FROM unnest(sweep_ids) WITH ORDINALITY u(id, ord)
          GROUP BY id) d;

    SELECT u.id INTO missing FROM unnest(ids) WITH ORDINALITY u(id, ord)
    WHERE NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps sw WHERE sw.sweep_id = u.id)
    ORDER BY u.ord LIMIT 1;
    IF missing IS NOT NULL THEN
        missing_kind := CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.runs r WHERE r.run_id = missing)
                             THEN format('Id %s is a run, not a sweep: pgbenchx.chart_run(%s) draws it.', missing, missing)
                             ELSE format('pgbenchx.sweeps has no row with sweep_id %s.', missing) END;
        RAISE EXCEPTION 'no sweep has id %', missing
            USING ERRCODE = 'undefined_object',
                  DETAIL = missing_kind,
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;

    -- a replay's rate is queries per minute: one unit per chart
    SELECT bool_or(r.replay), bool_or(NOT r.replay) AND bool_or(r.replay)
    INTO is_replay, mixed
    FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids);
    IF mixed THEN
        RAISE EXCEPTION 'cannot draw replays and benchmark sweeps in one chart'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = (SELECT format(CASE WHEN count(DISTINCT r.sweep_id) = 1 THEN 'Sweep %s is a replay'
                                               ELSE 'Sweeps %s are replays' END
                                          || ', measured in queries per minute; the others in transactions per second.',
                                          string_agg(DISTINCT r.sweep_id::text, ', '))
                            FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids) AND r.replay),
                  HINT = 'Chart the replays and the benchmark sweeps separately.';
    END IF;
    is_replay := coalesce(is_replay, false);
    unit := CASE WHEN is_replay THEN 'qpm' ELSE 'tps' END;
    rate_name := CASE WHEN is_replay THEN 'queries per minute' ELSE 'transactions per second' END;

    -- the points: per sweep (ord) and client count, over completed runs
    SELECT coalesce(jsonb_agg(jsonb_build_object('ord', ord, 'clients', clients,
               'med', med, 'lo', lo, 'hi', hi, 'n', n)), '[]')
    INTO pts_all
    FROM (SELECT u.ord, r.clients,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY v.rate) AS med,
                 min(v.rate) AS lo, max(v.rate) AS hi, count(*) AS n
          FROM unnest(ids) WITH ORDINALITY u(id, ord)
          JOIN pgbenchx.runs r ON r.sweep_id = u.id
          CROSS JOIN LATERAL (SELECT CASE WHEN is_replay THEN r.qpm ELSE r.tps END AS rate) v
          WHERE r.status = 'completed' AND v.rate IS NOT NULL
          GROUP BY u.ord, r.clients) q;

    SELECT min(clients), max(clients), max(hi), bool_or(n > 1)
    INTO cmin, cmax, ymax, any_repeats
    FROM jsonb_to_recordset(pts_all) AS q(clients int, hi float8, n int);
    IF cmin IS NULL THEN
        -- nothing completed: the x axis of the client counts planned
        SELECT min(c), max(c) INTO cmin, cmax
        FROM pgbenchx.sweeps sw, unnest(sw.clients) c WHERE sw.sweep_id = ANY (ids);
        cmin := coalesce(cmin, 1);
        cmax := coalesce(cmax, 1);
    END IF;

    -- y: 0 to a round top, about 6 intervals
    ystep := pgbenchx.chart_step(greatest(coalesce(ymax, 0), 1), 6);
    ytop := ystep * greatest(ceil(greatest(coalesce(ymax, 0), 1) / ystep), 1);

    -- x: log2 over a range of 4 times or more, else linear
    logx := cmax >= 4 * cmin;
    IF cmax = cmin THEN
        xb := 0;
        xa := (px0 + px1) / 2;
    ELSIF logx THEN
        xb := (px1 - px0 - 2 * pad) / (ln(cmax) - ln(cmin));
        xa := px0 + pad - xb * ln(cmin);
    ELSE
        xb := (px1 - px0 - 2 * pad) / (cmax - cmin);
        xa := px0 + pad - xb * cmin;
    END IF;

    h := py1 + 78 + 22 * cardinality(ids);

    SELECT string_agg(DISTINCT pgbenchx.xml_escape(sw.script), ', '),
           CASE WHEN count(DISTINCT sw.duration) = 1 AND min(sw.duration) IS NOT NULL
                THEN min(sw.duration) || ' s per run' END
    INTO subtitle, durations
    FROM pgbenchx.sweeps sw WHERE sw.sweep_id = ANY (ids);
    subtitle := 'script ' || subtitle || coalesce(', ' || durations, '')
        || CASE WHEN any_repeats THEN '; median of repeats, whiskers from min to max' ELSE '' END;

    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || format(E'\n<title>%s by number of clients</title>', rate_name)
        || format(E'\n<rect width="%s" height="%s" fill="#ffffff"/>', w, h)
        || format(E'\n<text class="title" x="%s" y="28" text-anchor="middle" font-size="17" font-weight="bold">%s by number of clients</text>',
                  w / 2, upper(left(rate_name, 1)) || substr(rate_name, 2))
        || format(E'\n<text class="subtitle" x="%s" y="48" text-anchor="middle" fill="#555555">%s</text>', w / 2, subtitle);

    -- horizontal grid and tps ticks
    tick := 0;
    WHILE tick <= ytop * (1 + 1e-9) LOOP
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-y" x="%s" y="%s" text-anchor="end" fill="#333333">%s</text>',
                   px0, round((py1 - tick / ytop * (py1 - py0))::numeric, 1),
                   px1, round((py1 - tick / ytop * (py1 - py0))::numeric, 1),
                   px0 - 6, round((py1 - tick / ytop * (py1 - py0) + 4)::numeric, 1),
                   pgbenchx.chart_number(tick, ytop));
        tick := tick + ystep;
    END LOOP;

    -- client ticks: the smallest and largest counts, and between them the
    -- powers of two (log2) or round integers (linear) that leave room
    xstep := greatest(ceil(pgbenchx.chart_step(cmax - cmin, 8)), 1)::int;
    FOR tick IN
        SELECT t FROM (
            SELECT cmin::float8 AS t, 0 AS pri
            UNION SELECT cmax, 0
            UNION SELECT 2 ^ e, 1 FROM generate_series(0, 30) e
                WHERE logx AND 2 ^ e > cmin AND 2 ^ e < cmax
            UNION SELECT v * xstep, 1 FROM generate_series(1, 100) v
                WHERE NOT logx AND v * xstep > cmin AND v * xstep < cmax) q
        WHERE pri = 0
           OR (abs(xb * CASE WHEN logx THEN ln(t) - ln(cmin) ELSE t - cmin END) >= 24
               AND abs(xb * CASE WHEN logx THEN ln(cmax) - ln(t) ELSE cmax - t END) >= 24)
        ORDER BY t
    LOOP
        xp := xa + xb * CASE WHEN logx THEN ln(tick) ELSE tick END;
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-x" x="%s" y="%s" text-anchor="middle" fill="#333333">%s</text>',
                   round(xp::numeric, 1), py0, round(xp::numeric, 1), py1,
                   round(xp::numeric, 1), py1 + 18, tick::bigint);
    END LOOP;

    -- axes and their titles
    svg := svg || format(E'\n<path class="axis" d="M%s %sV%sH%s" fill="none" stroke="#333333"/>',
                         px0, py0, py1, px1)
        || format(E'\n<text class="axis-title" x="%s" y="%s" text-anchor="middle">%s</text>',
                  (px0 + px1) / 2, py1 + 40,
                  CASE WHEN logx THEN 'clients (log2 scale)' ELSE 'clients' END)
        || format(E'\n<text class="axis-title" transform="translate(%s %s) rotate(-90)" text-anchor="middle">%s</text>',
                  24, (py0 + py1) / 2, rate_name);

    -- one line, its markers and whiskers, and a legend entry per sweep
    FOR s IN
        SELECT u.ord, sw.sweep_id, sw.label,
               (SELECT count(*) FROM pgbenchx.runs r
                WHERE r.sweep_id = sw.sweep_id
                  AND (r.status <> 'completed' OR (CASE WHEN is_replay THEN r.qpm ELSE r.tps END) IS NULL)) AS not_drawn
        FROM unnest(ids) WITH ORDINALITY u(id, ord)
        JOIN pgbenchx.sweeps sw ON sw.sweep_id = u.id
        ORDER BY u.ord
    LOOP
        color := palette[1 + (s.ord - 1) % cardinality(palette)];
        pts := '';
        npts := 0;
        peak := NULL;
        FOR p IN
            SELECT * FROM jsonb_to_recordset(pts_all)
                AS q(ord int, clients int, med float8, lo float8, hi float8, n int)
            WHERE q.ord = s.ord ORDER BY q.clients
        LOOP
            xp := xa + xb * CASE WHEN logx THEN ln(p.clients) ELSE p.clients END;
            yp := py1 - p.med / ytop * (py1 - py0);
            pts := pts || CASE WHEN npts > 0 THEN ' ' ELSE '' END
                || round(xp::numeric, 1) || ',' || round(yp::numeric, 1);
            npts := npts + 1;
            IF peak IS NULL OR p.med > peak THEN
                peak := p.med;
                peak_clients := p.clients;
            END IF;
            IF p.n > 1 AND p.hi > p.lo THEN
                plot := plot || format(E'\n<path class="whisker" d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="%s" fill="none"/>',
                    round(xp::numeric, 1), round((py1 - p.lo / ytop * (py1 - py0))::numeric, 1),
                    round((py1 - p.hi / ytop * (py1 - py0))::numeric, 1),
                    round((xp - 4)::numeric, 1), round((py1 - p.lo / ytop * (py1 - py0))::numeric, 1),
                    round((xp + 4)::numeric, 1),
                    round((xp - 4)::numeric, 1), round((py1 - p.hi / ytop * (py1 - py0))::numeric, 1),
                    round((xp + 4)::numeric, 1), color);
            END IF;
            plot := plot || format(E'\n<circle class="point" cx="%s" cy="%s" r="3.5" fill="%s"><title>%s: %s %s, %s %s%s</title></circle>',
                round(xp::numeric, 1), round(yp::numeric, 1), color,
                pgbenchx.xml_escape(coalesce(s.label, 'sweep ' || s.sweep_id)), p.clients,
                CASE WHEN p.clients = 1 THEN 'client' ELSE 'clients' END,
                round(p.med::numeric, 1), unit,
                CASE WHEN p.n > 1 THEN format(' (median of %s runs, %s to %s)', p.n,
                                              round(p.lo::numeric, 1), round(p.hi::numeric, 1))
                     ELSE '' END);
        END LOOP;
        IF npts > 0 THEN
            plot := format(E'\n<polyline class="sweep" data-sweep-id="%s" points="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"/>',
                           s.sweep_id, pts, color) || plot;
        END IF;
        svg := svg || plot;
        plot := '';

        ly := py1 + 70 + 22 * (s.ord - 1);
        legend := legend
            || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/><circle cx="%s" cy="%s" r="3.5" fill="%s"/>',
                      px0, ly - 4, px0 + 28, ly - 4, color, px0 + 14, ly - 4, color)
            || format('<text class="legend" x="%s" y="%s">%s<tspan fill="#555555"> (sweep %s: %s%s)</tspan></text>',
                      px0 + 36, ly,
                      pgbenchx.xml_escape(left(coalesce(s.label, 'sweep ' || s.sweep_id), 100)),
                      s.sweep_id,
                      CASE WHEN npts = 0 THEN 'no completed runs'
                           ELSE format('peak %s %s at %s %s', round(peak::numeric), unit, peak_clients,
                                       CASE WHEN peak_clients = 1 THEN 'client' ELSE 'clients' END) END,
                      CASE WHEN s.not_drawn > 0
                           THEN format('; %s %s not completed, not drawn', s.not_drawn,
                                       CASE WHEN s.not_drawn = 1 THEN 'run' ELSE 'runs' END)
                           ELSE '' END);
    END LOOP;

    RETURN svg || legend || E'\n</svg>\n';
END $$;


-- pgbenchx.chart_run: re-created once, with this change in it, by 64_charts.sql


-- pgbenchx.sweep_report: re-created once, with this change in it, by 20_samples.sql (its DROP and CREATE)


-- pgbenchx.export: re-created once, with this change in it, by 65_hist.sql

/*
 * 50_comments.sql: 0.3 describes every column of every table and view in
 * the catalogue, with the statements of src/sql/80_comments.sql (0.2 had no
 * column comments).  A column added by a later fragment of 0.2--0.3 gets its
 * comment in that fragment.
 */

-- pgbenchx.environments
COMMENT ON COLUMN pgbenchx.environments.environment_id IS 'the id sweeps and runs point at';
COMMENT ON COLUMN pgbenchx.environments.env_hash IS 'md5 of every field but environment_id, env_hash and captured_at: an identical environment is stored once';
COMMENT ON COLUMN pgbenchx.environments.captured_at IS 'when this environment was first captured';
COMMENT ON COLUMN pgbenchx.environments.hostname IS 'uname(2) nodename';
COMMENT ON COLUMN pgbenchx.environments.os_sysname IS 'uname(2) sysname: Linux, FreeBSD, DragonFly ...';
COMMENT ON COLUMN pgbenchx.environments.os_release IS 'uname(2) release';
COMMENT ON COLUMN pgbenchx.environments.os_version IS 'uname(2) version';
COMMENT ON COLUMN pgbenchx.environments.os_machine IS 'uname(2) machine: x86_64, amd64, aarch64 ...';
COMMENT ON COLUMN pgbenchx.environments.os_distribution IS 'PRETTY_NAME of /etc/os-release';
COMMENT ON COLUMN pgbenchx.environments.cpu_model IS 'CPU model';
COMMENT ON COLUMN pgbenchx.environments.cpu_count IS 'online CPUs';
COMMENT ON COLUMN pgbenchx.environments.memory_bytes IS 'total memory';
COMMENT ON COLUMN pgbenchx.environments.virtualization IS 'a hint: the hypervisor (kvm, xen, vm ...) and the container (docker, lxc, jail ...), none if neither is seen';
COMMENT ON COLUMN pgbenchx.environments.data_fstype IS 'file system type of data_directory (ext4, xfs, zfs ...)';
COMMENT ON COLUMN pgbenchx.environments.data_mount_options IS 'mount options of data_directory, as findmnt shows them';
COMMENT ON COLUMN pgbenchx.environments.data_device IS 'device of data_directory';
COMMENT ON COLUMN pgbenchx.environments.wal_fstype IS 'file system type of pg_wal, its symbolic link resolved';
COMMENT ON COLUMN pgbenchx.environments.wal_mount_options IS 'mount options of pg_wal';
COMMENT ON COLUMN pgbenchx.environments.wal_device IS 'device of pg_wal';
COMMENT ON COLUMN pgbenchx.environments.pg_version IS 'version()';
COMMENT ON COLUMN pgbenchx.environments.pointer_bits IS 'a 32- or 64-bit build';
COMMENT ON COLUMN pgbenchx.environments.block_size IS 'BLCKSZ, bytes';
COMMENT ON COLUMN pgbenchx.environments.wal_block_size IS 'XLOG_BLCKSZ, bytes';
COMMENT ON COLUMN pgbenchx.environments.segment_size IS 'RELSEG_SIZE × BLCKSZ, bytes';
COMMENT ON COLUMN pgbenchx.environments.integer_datetimes IS 'integer_datetimes of the build';
COMMENT ON COLUMN pgbenchx.environments.settings IS 'name → value as SHOW shows it: every setting not at its default, and the key ones always (see Environments)';

-- pgbenchx.sweeps
COMMENT ON COLUMN pgbenchx.sweeps.sweep_id IS 'the id run_sweep returned (one sequence numbers sweeps and runs)';
COMMENT ON COLUMN pgbenchx.sweeps.status IS 'running, completed, cancelled, failed or aborted';
COMMENT ON COLUMN pgbenchx.sweeps.script IS 'the script or weighted mix, as given';
COMMENT ON COLUMN pgbenchx.sweeps.clients IS 'the client counts of its runs, in order';
COMMENT ON COLUMN pgbenchx.sweeps.duration IS 'seconds per run (-T); NULL when bounded by transactions';
COMMENT ON COLUMN pgbenchx.sweeps.label IS 'free text given with label =>';
COMMENT ON COLUMN pgbenchx.sweeps.started_at IS 'when run_sweep was called';
COMMENT ON COLUMN pgbenchx.sweeps.finished_at IS 'when its last run ended';
COMMENT ON COLUMN pgbenchx.sweeps.protocol IS 'simple, extended or prepared (-M)';
COMMENT ON COLUMN pgbenchx.sweeps.jobs IS 'driver workers per run (-j); NULL: chosen per run';
COMMENT ON COLUMN pgbenchx.sweeps.transactions IS 'transactions per client (-t), instead of a duration';
COMMENT ON COLUMN pgbenchx.sweeps.conninfo IS 'extra libpq parameters of the clients, secrets masked';
COMMENT ON COLUMN pgbenchx.sweeps.coordinator_pid IS 'pid of its coordinator worker, while running';
COMMENT ON COLUMN pgbenchx.sweeps.error IS 'why it failed, was cancelled or aborted';
COMMENT ON COLUMN pgbenchx.sweeps.tags IS 'free jsonb naming what is compared';
COMMENT ON COLUMN pgbenchx.sweeps.repeats IS 'each client count run this many times, the ladder interleaved';
COMMENT ON COLUMN pgbenchx.sweeps.environment_id IS 'the environment captured when it started (pgbenchx.environments)';
COMMENT ON COLUMN pgbenchx.sweeps.owner IS 'the role that started it (cancel follows pg_cancel_backend''s rule)';

-- pgbenchx.runs
COMMENT ON COLUMN pgbenchx.runs.run_id IS 'the id run_bench or run_replay returned, or a step of a sweep';
COMMENT ON COLUMN pgbenchx.runs.sweep_id IS 'its sweep; NULL for a lone run';
COMMENT ON COLUMN pgbenchx.runs.status IS 'running, completed, cancelled, failed or aborted';
COMMENT ON COLUMN pgbenchx.runs.script IS 'the script or weighted mix, as given';
COMMENT ON COLUMN pgbenchx.runs.protocol IS 'simple, extended or prepared (-M)';
COMMENT ON COLUMN pgbenchx.runs.scale IS 'scaling factor the built-in scripts read (count of pgbench_branches)';
COMMENT ON COLUMN pgbenchx.runs.clients IS 'simulated clients (-c)';
COMMENT ON COLUMN pgbenchx.runs.jobs IS 'driver workers used (-j)';
COMMENT ON COLUMN pgbenchx.runs.duration IS 'seconds asked for (-T); NULL when bounded by transactions';
COMMENT ON COLUMN pgbenchx.runs.started_at IS 'when the run started (before its maintenance)';
COMMENT ON COLUMN pgbenchx.runs.finished_at IS 'when it ended';
COMMENT ON COLUMN pgbenchx.runs.transactions IS 'transactions processed, all clients together';
COMMENT ON COLUMN pgbenchx.runs.failed IS 'transactions failed (serialization or deadlock failures not retried)';
COMMENT ON COLUMN pgbenchx.runs.tps IS 'transactions per second, without initial connection time';
COMMENT ON COLUMN pgbenchx.runs.tps_incl_conn IS 'transactions per second including connections establishing';
COMMENT ON COLUMN pgbenchx.runs.latency_avg_ms IS 'latency average, ms';
COMMENT ON COLUMN pgbenchx.runs.latency_stddev_ms IS 'latency standard deviation, ms';
COMMENT ON COLUMN pgbenchx.runs.latency_p50_ms IS 'median latency, ms';
COMMENT ON COLUMN pgbenchx.runs.latency_p90_ms IS '90th percentile latency, ms';
COMMENT ON COLUMN pgbenchx.runs.latency_p95_ms IS '95th percentile latency, ms';
COMMENT ON COLUMN pgbenchx.runs.latency_p99_ms IS '99th percentile latency, ms';
COMMENT ON COLUMN pgbenchx.runs.latency_max_ms IS 'highest latency, ms';
COMMENT ON COLUMN pgbenchx.runs.conn_time_ms IS 'initial connection time, ms (with connect_per_transaction: the average connection time)';
COMMENT ON COLUMN pgbenchx.runs.error IS 'why it failed, was cancelled or aborted';
COMMENT ON COLUMN pgbenchx.runs.label IS 'free text given with label =>';
COMMENT ON COLUMN pgbenchx.runs.transactions_per_client IS 'transactions per client (-t); NULL when bounded by duration';
COMMENT ON COLUMN pgbenchx.runs.aborted_clients IS 'clients aborted by an error (pgbench''s aborted clients)';
COMMENT ON COLUMN pgbenchx.runs.driver_cpu_s IS 'CPU seconds the driver workers used';
COMMENT ON COLUMN pgbenchx.runs.bench_duration_s IS 'the measured interval tps is computed over, seconds';
COMMENT ON COLUMN pgbenchx.runs.random_seed IS 'the seed of the scripts'' random functions (--random-seed)';
COMMENT ON COLUMN pgbenchx.runs.conninfo IS 'extra libpq parameters of the clients, secrets masked';
COMMENT ON COLUMN pgbenchx.runs.coordinator_pid IS 'pid of its coordinator worker, while running';
COMMENT ON COLUMN pgbenchx.runs.rate IS 'target transactions per second (-R)';
COMMENT ON COLUMN pgbenchx.runs.latency_limit_ms IS 'latency limit, ms (-L)';
COMMENT ON COLUMN pgbenchx.runs.max_tries IS 'maximum number of tries (--max-tries; 0: unlimited)';
COMMENT ON COLUMN pgbenchx.runs.connect_per_transaction IS 'a new connection for each transaction (-C)';
COMMENT ON COLUMN pgbenchx.runs.serialization_failures IS 'transactions failed on a serialization failure';
COMMENT ON COLUMN pgbenchx.runs.deadlock_failures IS 'transactions failed on a deadlock';
COMMENT ON COLUMN pgbenchx.runs.retried IS 'transactions retried at least once (max_tries)';
COMMENT ON COLUMN pgbenchx.runs.retries IS 'retries in all';
COMMENT ON COLUMN pgbenchx.runs.skipped IS 'transactions skipped: with rate and latency_limit, already too late to start';
COMMENT ON COLUMN pgbenchx.runs.late IS 'transactions above latency_limit';
COMMENT ON COLUMN pgbenchx.runs.lag_avg_ms IS 'with rate: average schedule lag, ms';
COMMENT ON COLUMN pgbenchx.runs.lag_max_ms IS 'with rate: highest schedule lag, ms';
COMMENT ON COLUMN pgbenchx.runs.tags IS 'free jsonb naming what is compared';
COMMENT ON COLUMN pgbenchx.runs.repeat IS 'which repeat of its client count in a sweep with repeats, from 1';
COMMENT ON COLUMN pgbenchx.runs.checkpoints IS 'checkpoints that happened during the run';
COMMENT ON COLUMN pgbenchx.runs.autovacuums IS 'autovacuum and autoanalyze runs in its database during the run';
COMMENT ON COLUMN pgbenchx.runs.environment_id IS 'the environment captured when it started (pgbenchx.environments)';
COMMENT ON COLUMN pgbenchx.runs.replay IS 'a run_replay run: a transaction is a statement of the list';
COMMENT ON COLUMN pgbenchx.runs.qpm IS 'run_replay: statements per minute until the last client finished';
COMMENT ON COLUMN pgbenchx.runs.tpcb_consistent IS 'check_tpcb => true: whether the TPC-B invariant held over the run; NULL if not checked';
COMMENT ON COLUMN pgbenchx.runs.owner IS 'the role that started it (cancel follows pg_cancel_backend''s rule)';
COMMENT ON COLUMN pgbenchx.runs.notices IS 'notices and warnings the server sent the clients (never logged)';
COMMENT ON COLUMN pgbenchx.runs.notice_samples IS 'the first three of those notices, each cut to 200 bytes';
COMMENT ON COLUMN pgbenchx.runs.samples_lost IS 'seconds whose samples were lost (the coordinator could not write in time): not stored';
COMMENT ON COLUMN pgbenchx.runs.samples_lost_transactions IS 'transactions in no stored sample: sum(samples.transactions) + this = transactions';
COMMENT ON COLUMN pgbenchx.runs.script_stats IS 'per script of the mix, in its order: transactions, failed, retried, retries, skipped, latency_avg_ms, latency_stddev_ms (pgbench''s "SQL script N" blocks); NULL for runs recorded before 0.3';
COMMENT ON COLUMN pgbenchx.runs.tpcb_consistent_before IS 'check_tpcb => true: whether the balances of accounts, branches and tellers agreed before the run (false after a simple-update run, say); NULL if not checked';

-- pgbenchx.statement_stats
COMMENT ON COLUMN pgbenchx.statement_stats.run_id IS 'the run';
COMMENT ON COLUMN pgbenchx.statement_stats.script IS 'the script of the mix the command belongs to';
COMMENT ON COLUMN pgbenchx.statement_stats.command IS 'the command''s number within its script, from 1';
COMMENT ON COLUMN pgbenchx.statement_stats.command_text IS 'its first line, as pgbench -r shows it';
COMMENT ON COLUMN pgbenchx.statement_stats.executions IS 'times it was executed';
COMMENT ON COLUMN pgbenchx.statement_stats.latency_avg_ms IS 'average latency, ms; NULL for commands not timed (\set, \if ...)';
COMMENT ON COLUMN pgbenchx.statement_stats.failures IS 'failures at this command';
COMMENT ON COLUMN pgbenchx.statement_stats.retries IS 'retries after a failure at this command';

-- pgbenchx.samples
COMMENT ON COLUMN pgbenchx.samples.run_id IS 'the run';
COMMENT ON COLUMN pgbenchx.samples.second IS 'second of the measured interval, from 1';
COMMENT ON COLUMN pgbenchx.samples.transactions IS 'transactions that ended in that second';
COMMENT ON COLUMN pgbenchx.samples.tps IS 'a rate: transactions / covered_s (a replay: statements that succeeded, per second)';
COMMENT ON COLUMN pgbenchx.samples.latency_avg_ms IS 'latency average of that second, ms';
COMMENT ON COLUMN pgbenchx.samples.latency_p99_ms IS '99th percentile latency of that second, ms';
COMMENT ON COLUMN pgbenchx.samples.failed IS 'transactions that failed in that second';
COMMENT ON COLUMN pgbenchx.samples.covered_s IS 'seconds of the measured interval this row covers: 1, but for a last second cut short (rows from before 0.3 read 1)';

-- pgbenchx.custom_scripts
COMMENT ON COLUMN pgbenchx.custom_scripts.name IS 'the name runs use (script => name)';
COMMENT ON COLUMN pgbenchx.custom_scripts.body IS 'the script in pgbench''s language, as registered';
COMMENT ON COLUMN pgbenchx.custom_scripts.created_at IS 'when add_script registered it';
COMMENT ON COLUMN pgbenchx.custom_scripts.updated_at IS 'when add_script(..., replace => true) last replaced it';
COMMENT ON COLUMN pgbenchx.custom_scripts.owner IS 'the role that registered it: only roles with its privileges run, replace or drop it';

-- pgbenchx.imports
COMMENT ON COLUMN pgbenchx.imports.origin_system_identifier IS 'system identifier of the server that measured it';
COMMENT ON COLUMN pgbenchx.imports.origin_database IS 'the database it was measured in';
COMMENT ON COLUMN pgbenchx.imports.origin_id IS 'its sweep_id or run_id there';
COMMENT ON COLUMN pgbenchx.imports.sweep_id IS 'the imported sweep here';
COMMENT ON COLUMN pgbenchx.imports.run_id IS 'the imported lone run here';
COMMENT ON COLUMN pgbenchx.imports.exported_from_system_identifier IS 'system identifier of the server the document came from';
COMMENT ON COLUMN pgbenchx.imports.exported_from_database IS 'the database the document came from';
COMMENT ON COLUMN pgbenchx.imports.exported_at IS 'when export() wrote the document';
COMMENT ON COLUMN pgbenchx.imports.exported_pgbenchx_version IS 'the pgbenchx version that wrote the document';
COMMENT ON COLUMN pgbenchx.imports.imported_at IS 'when import() loaded it';

-- pgbenchx.progress (view)
COMMENT ON COLUMN pgbenchx.progress.run_id IS 'the run in progress';
COMMENT ON COLUMN pgbenchx.progress.sweep_id IS 'its sweep; NULL for a lone run';
COMMENT ON COLUMN pgbenchx.progress.script IS 'the script or mix';
COMMENT ON COLUMN pgbenchx.progress.clients IS 'simulated clients';
COMMENT ON COLUMN pgbenchx.progress.jobs IS 'driver workers';
COMMENT ON COLUMN pgbenchx.progress.duration IS 'seconds asked for; NULL when bounded by transactions';
COMMENT ON COLUMN pgbenchx.progress.elapsed_s IS 'seconds since the run started, maintenance included';
COMMENT ON COLUMN pgbenchx.progress.transactions IS 'transactions in the seconds sampled so far';
COMMENT ON COLUMN pgbenchx.progress.current_tps IS 'tps of the last second sampled';
COMMENT ON COLUMN pgbenchx.progress.current_p99_ms IS '99th percentile latency of the last second sampled, ms';
COMMENT ON COLUMN pgbenchx.progress.seconds_sampled IS 'seconds of the measured interval sampled so far';

-- pgbenchx.scripts (view)
COMMENT ON COLUMN pgbenchx.scripts.name IS 'the script''s name';
COMMENT ON COLUMN pgbenchx.scripts.description IS 'what a built-in does; NULL for a registered script';
COMMENT ON COLUMN pgbenchx.scripts.body IS 'its text in pgbench''s language';
COMMENT ON COLUMN pgbenchx.scripts.builtin IS 'one of pgbench''s built-in scripts';
COMMENT ON COLUMN pgbenchx.scripts.owner IS 'the role that registered it; NULL for a built-in';

-- pgbenchx.sweep_points (view)
COMMENT ON COLUMN pgbenchx.sweep_points.sweep_id IS 'the sweep';
COMMENT ON COLUMN pgbenchx.sweep_points.clients IS 'the client count of this point';
COMMENT ON COLUMN pgbenchx.sweep_points.n IS 'completed runs at this point';
COMMENT ON COLUMN pgbenchx.sweep_points.median_tps IS 'median tps of those runs';
COMMENT ON COLUMN pgbenchx.sweep_points.min_tps IS 'lowest tps of those runs';
COMMENT ON COLUMN pgbenchx.sweep_points.max_tps IS 'highest tps of those runs';
COMMENT ON COLUMN pgbenchx.sweep_points.spread IS '(max_tps - min_tps) / median_tps';
COMMENT ON COLUMN pgbenchx.sweep_points.median_p99_ms IS 'median of their p99 latencies, ms';
COMMENT ON COLUMN pgbenchx.sweep_points.checkpoints IS 'checkpoints during those runs';
COMMENT ON COLUMN pgbenchx.sweep_points.autovacuums IS 'autovacuum and autoanalyze runs during those runs';
COMMENT ON COLUMN pgbenchx.sweep_points.unstable IS 'spread above pgbenchx.unstable_spread (default 0.10), or a checkpoint during one of its runs';
COMMENT ON COLUMN pgbenchx.sweep_points.unstable_reason IS 'why it is unstable; NULL when stable';
COMMENT ON COLUMN pgbenchx.sweep_points.run_ids IS 'its completed runs';
COMMENT ON COLUMN pgbenchx.sweep_points.median_qpm IS 'a replay: median of the runs'' queries per minute (runs.qpm); NULL for a benchmark sweep';

-- pgbenchx.sweep_summary (view)
COMMENT ON COLUMN pgbenchx.sweep_summary.sweep_id IS 'the sweep';
COMMENT ON COLUMN pgbenchx.sweep_summary.label IS 'its label';
COMMENT ON COLUMN pgbenchx.sweep_summary.status IS 'its status';
COMMENT ON COLUMN pgbenchx.sweep_summary.script IS 'its script or mix';
COMMENT ON COLUMN pgbenchx.sweep_summary.repeats IS 'runs per client count';
COMMENT ON COLUMN pgbenchx.sweep_summary.runs IS 'its runs';
COMMENT ON COLUMN pgbenchx.sweep_summary.completed_runs IS 'its completed runs';
COMMENT ON COLUMN pgbenchx.sweep_summary.peak_tps IS 'the highest median tps of a point';
COMMENT ON COLUMN pgbenchx.sweep_summary.peak_clients IS 'the client count reaching it (the lowest on a tie)';
COMMENT ON COLUMN pgbenchx.sweep_summary.highest_clients IS 'the highest client count measured';
COMMENT ON COLUMN pgbenchx.sweep_summary.tps_at_highest IS 'median tps at highest_clients';
COMMENT ON COLUMN pgbenchx.sweep_summary.pct_of_peak_at_highest IS 'tps_at_highest as a percentage of peak_tps';
COMMENT ON COLUMN pgbenchx.sweep_summary.unstable_points IS 'its unstable points (sweep_points.unstable)';
COMMENT ON COLUMN pgbenchx.sweep_summary.tags IS 'its tags';
COMMENT ON COLUMN pgbenchx.sweep_summary.started_at IS 'when it started';
COMMENT ON COLUMN pgbenchx.sweep_summary.environment_id IS 'its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.os_sysname IS 'environments.os_sysname of its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.os_release IS 'environments.os_release of its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.data_fstype IS 'environments.data_fstype of its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.data_mount_options IS 'environments.data_mount_options of its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.cpu_model IS 'environments.cpu_model of its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.cpu_count IS 'environments.cpu_count of its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.shared_buffers IS 'shared_buffers in its environment''s settings';
COMMENT ON COLUMN pgbenchx.sweep_summary.origin_system_identifier IS 'imported: the system identifier of the server that measured it; NULL otherwise';

/*
 * 60_explain (issue 13): why the numbers are what they are.  Per second,
 * beside samples, what the machine and the server did (system_samples)
 * and the wait events of the run's client backends (wait_samples); per
 * run, the figures derived from them and a verdict.  Runs recorded before
 * 0.3 have none of it: their new columns are NULL, record_system too.
 */
ALTER TABLE pgbenchx.runs
    ADD COLUMN record_system boolean,
    ADD COLUMN system_notes text[],
    ADD COLUMN wait_sample_hz float8,
    ADD COLUMN wal_bytes_per_tx float8,
    ADD COLUMN blocks_read_per_tx float8,
    ADD COLUMN blocks_written_per_tx float8,
    ADD COLUMN server_cpu_ms_per_tx float8,
    ADD COLUMN driver_cpu_ms_per_tx float8,
    ADD COLUMN iowait_avg float8,
    ADD COLUMN top_waits jsonb,
    ADD COLUMN verdict text;

/*
 * Why the numbers are what they are (issue 13): what the machine and the
 * server did in each second of a run, beside its samples, and the wait
 * events of its client backends.  Recorded unless a run is started with
 * record_system => false.  A figure the system cannot give is NULL, never
 * zero, and runs.system_notes says why, once per run.
 */
CREATE TABLE pgbenchx.system_samples (
    run_id              bigint NOT NULL REFERENCES pgbenchx.runs ON DELETE CASCADE,
    second              int NOT NULL CHECK (second OPERATOR(pg_catalog.>=) 1),
    covered_s           float8,   -- the time these counters cover (1 but for a partial last second)
    cpu_user            float8,   -- machine CPU over all cores, fractions of the interval (user + nice)
    cpu_system          float8,   -- system + irq + softirq
    cpu_iowait          float8,
    cpu_steal           float8,
    cpu_idle            float8,
    driver_cpu_s        float8,   -- CPU seconds of the driver workers in this second
    backend_cpu_s       float8,   -- CPU seconds of the run's client backends together
    data_reads          bigint,   -- the device holding data_directory: read operations completed
    data_read_bytes     bigint,
    data_writes         bigint,
    data_write_bytes    bigint,
    data_await_ms       float8,   -- average time per operation (read and write)
    data_queue          float8,   -- average queue depth
    wal_reads           bigint,   -- the device holding pg_wal, the same figures
    wal_read_bytes      bigint,
    wal_writes          bigint,
    wal_write_bytes     bigint,
    wal_await_ms        float8,
    wal_queue           float8,
    wal_records         bigint,   -- pg_stat_wal, delta in this second
    wal_fpi             bigint,
    wal_bytes           numeric,
    wal_write           bigint,
    wal_sync            bigint,
    blks_hit            bigint,   -- pg_stat_database of the run's database
    blks_read           bigint,
    temp_bytes          bigint,
    deadlocks           bigint,
    buffers_checkpoint  bigint,   -- pg_stat_bgwriter
    buffers_clean       bigint,
    buffers_backend     bigint,
    checkpoints_begun   int,
    checkpoints_done    int,
    PRIMARY KEY (run_id, second)
);
COMMENT ON TABLE pgbenchx.system_samples IS 'what the machine and the server did in each second of a run';

-- The wait events of the run's client backends, sampled many times a
-- second (runs.wait_sample_hz) from the server's process state: per second,
-- how many samples found a backend in each (wait_event_type, wait_event);
-- an active backend waiting on nothing counts as ('CPU', 'on CPU').
CREATE TABLE pgbenchx.wait_samples (
    run_id          bigint NOT NULL REFERENCES pgbenchx.runs ON DELETE CASCADE,
    second          int NOT NULL CHECK (second OPERATOR(pg_catalog.>=) 1),
    wait_event_type text NOT NULL,
    wait_event      text NOT NULL,
    samples         int NOT NULL,
    PRIMARY KEY (run_id, second, wait_event_type, wait_event)
);
COMMENT ON TABLE pgbenchx.wait_samples IS 'wait events of the client backends, sampled many times a second';

SELECT pg_catalog.pg_extension_config_dump('pgbenchx.system_samples', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.wait_samples', '');

COMMENT ON COLUMN pgbenchx.runs.record_system IS 'record_system => true (the default): system_samples and wait_samples were recorded for this run; NULL for runs recorded before 0.3';
COMMENT ON COLUMN pgbenchx.runs.system_notes IS 'why a figure of system_samples is NULL (cannot be read on this system, no block device ...): one line per cause, once per run';
COMMENT ON COLUMN pgbenchx.runs.wait_sample_hz IS 'wait-event samples per second actually taken over the measured interval';
COMMENT ON COLUMN pgbenchx.runs.wal_bytes_per_tx IS 'WAL bytes per transaction (pg_stat_wal over the run)';
COMMENT ON COLUMN pgbenchx.runs.blocks_read_per_tx IS 'shared blocks read (not found in shared_buffers) per transaction, in the run''s database';
COMMENT ON COLUMN pgbenchx.runs.blocks_written_per_tx IS 'buffers written by the checkpointer, the bgwriter and the backends per transaction';
COMMENT ON COLUMN pgbenchx.runs.server_cpu_ms_per_tx IS 'CPU of the client backends per transaction, ms';
COMMENT ON COLUMN pgbenchx.runs.driver_cpu_ms_per_tx IS 'CPU of the driver workers per transaction, ms';
COMMENT ON COLUMN pgbenchx.runs.iowait_avg IS 'average share of the machine''s CPU time in iowait over the run';
COMMENT ON COLUMN pgbenchx.runs.top_waits IS 'the top wait events of the client backends as shares of their sampled time: [{"wait_event_type", "wait_event", "share"}], largest first';
COMMENT ON COLUMN pgbenchx.runs.verdict IS 'the limit when one is evident: load generator, CPU, I/O, locks or LWLocks, with the figure that shows it; NULL when none is';
-- pgbenchx.system_samples
COMMENT ON COLUMN pgbenchx.system_samples.run_id IS 'the run';
COMMENT ON COLUMN pgbenchx.system_samples.second IS 'the second of the measured interval, from 1, as in samples';
COMMENT ON COLUMN pgbenchx.system_samples.covered_s IS 'seconds these counters cover: 1, but for a last second cut short';
COMMENT ON COLUMN pgbenchx.system_samples.cpu_user IS 'the machine''s CPU time in user mode (user + nice), a fraction of all cores'' time';
COMMENT ON COLUMN pgbenchx.system_samples.cpu_system IS 'in the kernel (system + irq + softirq), a fraction';
COMMENT ON COLUMN pgbenchx.system_samples.cpu_iowait IS 'idle waiting for I/O, a fraction';
COMMENT ON COLUMN pgbenchx.system_samples.cpu_steal IS 'taken by the hypervisor, a fraction';
COMMENT ON COLUMN pgbenchx.system_samples.cpu_idle IS 'idle, a fraction';
COMMENT ON COLUMN pgbenchx.system_samples.driver_cpu_s IS 'CPU seconds of the driver workers in this second';
COMMENT ON COLUMN pgbenchx.system_samples.backend_cpu_s IS 'CPU seconds of the run''s client backends together in this second';
COMMENT ON COLUMN pgbenchx.system_samples.data_reads IS 'read operations completed by the device that holds the data directory';
COMMENT ON COLUMN pgbenchx.system_samples.data_read_bytes IS 'bytes read from it';
COMMENT ON COLUMN pgbenchx.system_samples.data_writes IS 'write operations completed by it';
COMMENT ON COLUMN pgbenchx.system_samples.data_write_bytes IS 'bytes written to it';
COMMENT ON COLUMN pgbenchx.system_samples.data_await_ms IS 'its average time per operation, reads and writes, ms';
COMMENT ON COLUMN pgbenchx.system_samples.data_queue IS 'its average queue depth';
COMMENT ON COLUMN pgbenchx.system_samples.wal_reads IS 'read operations completed by the device that holds pg_wal';
COMMENT ON COLUMN pgbenchx.system_samples.wal_read_bytes IS 'bytes read from it';
COMMENT ON COLUMN pgbenchx.system_samples.wal_writes IS 'write operations completed by it';
COMMENT ON COLUMN pgbenchx.system_samples.wal_write_bytes IS 'bytes written to it';
COMMENT ON COLUMN pgbenchx.system_samples.wal_await_ms IS 'its average time per operation, ms';
COMMENT ON COLUMN pgbenchx.system_samples.wal_queue IS 'its average queue depth';
COMMENT ON COLUMN pgbenchx.system_samples.wal_records IS 'WAL records generated (pg_stat_wal, this second)';
COMMENT ON COLUMN pgbenchx.system_samples.wal_fpi IS 'WAL full page images';
COMMENT ON COLUMN pgbenchx.system_samples.wal_bytes IS 'WAL bytes';
COMMENT ON COLUMN pgbenchx.system_samples.wal_write IS 'WAL buffers written out (pg_stat_wal.wal_write)';
COMMENT ON COLUMN pgbenchx.system_samples.wal_sync IS 'WAL files synced (pg_stat_wal.wal_sync)';
COMMENT ON COLUMN pgbenchx.system_samples.blks_hit IS 'shared buffer hits in the run''s database (pg_stat_database)';
COMMENT ON COLUMN pgbenchx.system_samples.blks_read IS 'blocks read in the run''s database';
COMMENT ON COLUMN pgbenchx.system_samples.temp_bytes IS 'bytes written to temporary files in the run''s database';
COMMENT ON COLUMN pgbenchx.system_samples.deadlocks IS 'deadlocks detected in the run''s database';
COMMENT ON COLUMN pgbenchx.system_samples.buffers_checkpoint IS 'buffers written by the checkpointer (pg_stat_bgwriter)';
COMMENT ON COLUMN pgbenchx.system_samples.buffers_clean IS 'buffers written by the background writer';
COMMENT ON COLUMN pgbenchx.system_samples.buffers_backend IS 'buffers written by backends themselves';
COMMENT ON COLUMN pgbenchx.system_samples.checkpoints_begun IS 'checkpoints that began in this second';
COMMENT ON COLUMN pgbenchx.system_samples.checkpoints_done IS 'checkpoints that ended in this second';
-- pgbenchx.wait_samples
COMMENT ON COLUMN pgbenchx.wait_samples.run_id IS 'the run';
COMMENT ON COLUMN pgbenchx.wait_samples.second IS 'the second of the measured interval, from 1, as in samples';
COMMENT ON COLUMN pgbenchx.wait_samples.wait_event_type IS 'as pg_stat_activity.wait_event_type; CPU for an active backend waiting on nothing';
COMMENT ON COLUMN pgbenchx.wait_samples.wait_event IS 'as pg_stat_activity.wait_event; on CPU for an active backend waiting on nothing';
COMMENT ON COLUMN pgbenchx.wait_samples.samples IS 'how many of this second''s samples found a client backend in this wait (a backend counts once per sample)';

/*
 * Runners (grant_runner) read every table: a role that may read
 * pgbenchx.samples may read the new tables too.  A GRANT in an extension
 * script is recorded in pg_init_privs as the extension's initial privilege,
 * which pg_dump does not dump; a fresh CREATE EXTENSION records none for
 * these tables, so the rows are removed and pg_dump keeps these grants as
 * the user's.
 */
DO $$
DECLARE
    g record;
BEGIN
    FOR g IN
        SELECT DISTINCT a.grantee
        FROM pg_catalog.pg_class c
        CROSS JOIN LATERAL pg_catalog.aclexplode(c.relacl) a
        WHERE c.oid OPERATOR(pg_catalog.=) 'pgbenchx.samples'::pg_catalog.regclass
          AND a.privilege_type OPERATOR(pg_catalog.=) 'SELECT'::pg_catalog.text
          AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
        ORDER BY 1
    LOOP
        EXECUTE pg_catalog.format('GRANT SELECT ON TABLE pgbenchx.system_samples, pgbenchx.wait_samples TO %s',
                                  CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                       ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
    END LOOP;
    DELETE FROM pg_catalog.pg_init_privs i
    WHERE i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid
      AND i.objoid OPERATOR(pg_catalog.=) ANY (ARRAY['pgbenchx.system_samples'::pg_catalog.regclass,
                                                     'pgbenchx.wait_samples'::pg_catalog.regclass]::pg_catalog.oid[]);
END $$;

/*
 * 63_explain_sql (issue 13): the SQL face of the explanation.  run_bench,
 * both run_sweep and run_replay gain record_system (the last parameter,
 * default true), so they are dropped and created again with the grants
 * they had; pgbenchx.explain_run computes a run's figures and verdict (the
 * coordinator calls it at the end of each run), pgbenchx.explain_compare
 * compares two sweeps by them (explain_times writes its ratios);
 * sweep_points gains the medians of the figures, report a line with the
 * verdict, export and import carry system_samples, wait_samples and the
 * runs' new columns.
 */

-- Who may execute the four entry points (grant_runner's runners, or any
-- grant of the user's), kept for their new versions in a setting of this
-- transaction.
SELECT pg_catalog.set_config('pgbenchx_upgrade.entry_grants', coalesce(pg_catalog.string_agg(
           pg_catalog.format('%s=%s', w.entry, a.grantee), ','), ''), true)
FROM (VALUES
      ('run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean)'::pg_catalog.regprocedure, 'bench'),
      ('run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean)'::pg_catalog.regprocedure, 'sweep'),
      ('run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean)'::pg_catalog.regprocedure, 'sweep_list'),
      ('run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint)'::pg_catalog.regprocedure, 'replay')) w(f, entry)
JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) w.f::pg_catalog.oid
CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
WHERE a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text
  AND a.grantee OPERATOR(pg_catalog.<>) p.proowner;

DROP FUNCTION run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean);
DROP FUNCTION run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean);
DROP FUNCTION run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean);
DROP FUNCTION run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint);

CREATE FUNCTION run_bench(
    clients      int,
    duration     int DEFAULT NULL,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL,
    check_tpcb   boolean DEFAULT false,
    record_system boolean DEFAULT true)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
AS $$
BEGIN
    RETURN pgbenchx.launch_bench(
         pg_catalog.jsonb_build_object(
             'clients', clients, 'duration', duration, 'script', script,
             'jobs', jobs, 'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'check_tpcb', check_tpcb, 'record_system', record_system)
         || CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

CREATE FUNCTION run_sweep(
    min_clients  int,
    max_clients  int,
    duration     int DEFAULT NULL,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL,
    repeats      int DEFAULT 1,
    check_tpcb   boolean DEFAULT false,
    record_system boolean DEFAULT true)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
AS $$
BEGIN
    RETURN pgbenchx.launch_sweep(
         pg_catalog.jsonb_build_object(
             'min_clients', min_clients, 'max_clients', max_clients,
             'duration', duration, 'script', script, 'jobs', jobs,
             'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'repeats', repeats, 'check_tpcb', check_tpcb,
             'record_system', record_system)
         || CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

CREATE FUNCTION run_sweep(
    clients      int[],
    duration     int DEFAULT NULL,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL,
    repeats      int DEFAULT 1,
    check_tpcb   boolean DEFAULT false,
    record_system boolean DEFAULT true)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
AS $$
BEGIN
    RETURN pgbenchx.launch_sweep(
         pg_catalog.jsonb_build_object(
             'clients', clients, 'duration', duration, 'script', script,
             'jobs', jobs, 'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'repeats', repeats, 'check_tpcb', check_tpcb,
             'record_system', record_system)
         || CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

CREATE FUNCTION run_replay(
    queries      text,
    min_clients  int,
    max_clients  int,
    from_file    boolean DEFAULT false,
    shuffle      boolean DEFAULT false,
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    tags         jsonb DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    record_system boolean DEFAULT true)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN pgbenchx.launch_replay(
         pg_catalog.jsonb_build_object(
             'queries', queries, 'min_clients', min_clients,
             'max_clients', max_clients, 'from_file', from_file,
             'shuffle', shuffle, 'jobs', jobs, 'protocol', protocol,
             'checkpoint', checkpoint, 'label', label, 'conninfo', conninfo,
             'random_seed', random_seed, 'record_system', record_system)
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

REVOKE ALL ON FUNCTION run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint, boolean) FROM PUBLIC;

CREATE FUNCTION pgbenchx.explain_run(run_id bigint) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT AS $$
#variable_conflict use_column
DECLARE
    lock_share_min       CONSTANT float8 := 0.5;
    driver_share_min     CONSTANT float8 := 0.9;  -- as wait.c's WAIT_DRIVER_BOUND_SHARE and report's warning
    iowait_min           CONSTANT float8 := 0.2;
    queue_min            CONSTANT float8 := 2.0;
    idle_max             CONSTANT float8 := 0.05;
    clientread_share_min CONSTANT float8 := 0.7;  -- "dominating": the backends mostly wait for their clients
    r          pgbenchx.runs;
    tx         numeric;
    s          record;
    total      numeric;
    top        jsonb;
    wt         record;
    clientread float8;
    driver_s   float8;
    per_job    float8;
    v          text;
BEGIN
    IF explain_run.run_id IS NULL THEN
        RAISE EXCEPTION 'run_id must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'explain_run computes the figures of one run.',
                  HINT = 'Pass the id of a run: SELECT run_id FROM pgbenchx.runs lists them.';
    END IF;
    SELECT * INTO r FROM pgbenchx.runs x WHERE x.run_id = explain_run.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no run has id %', explain_run.run_id
            USING ERRCODE = 'undefined_object',
                  DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.sweeps w WHERE w.sweep_id = explain_run.run_id)
                                THEN format('%s is the id of a sweep, not of a run.', explain_run.run_id)
                                ELSE format('pgbenchx.runs has no row with run_id %s.', explain_run.run_id) END,
                  HINT = 'SELECT run_id, sweep_id, status FROM pgbenchx.runs lists them.';
    END IF;
    IF NOT has_table_privilege('pgbenchx.runs', 'UPDATE') THEN
        RAISE EXCEPTION 'permission denied for pgbenchx.explain_run'
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = 'explain_run stores its figures in pgbenchx.runs, which only the extension''s owner writes; the coordinator calls it at the end of every run.',
                  HINT = 'Read the figures from pgbenchx.runs, or ask the extension''s owner to recompute them.';
    END IF;
    IF r.status = 'running' THEN
        RAISE EXCEPTION 'run % is still running', r.run_id
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'Its figures are computed once its last second is recorded.',
                  HINT = format('CALL pgbenchx.wait(%s); the coordinator computes them at the end of the run.', r.run_id);
    END IF;

    IF coalesce(r.record_system, false) THEN
        tx := nullif(r.transactions, 0);
        SELECT sum(x.wal_bytes) AS wal_bytes,
               sum(x.blks_read) AS blks_read,
               sum(x.buffers_checkpoint + x.buffers_clean + x.buffers_backend) AS blks_written,
               sum(x.backend_cpu_s) AS backend_cpu_s,
               sum(x.driver_cpu_s) AS driver_cpu_s,
               sum(x.cpu_iowait * coalesce(x.covered_s, 1))
                   / nullif(sum(coalesce(x.covered_s, 1)) FILTER (WHERE x.cpu_iowait IS NOT NULL), 0) AS iowait,
               sum(x.cpu_idle * coalesce(x.covered_s, 1))
                   / nullif(sum(coalesce(x.covered_s, 1)) FILTER (WHERE x.cpu_idle IS NOT NULL), 0) AS idle,
               sum(x.data_queue * coalesce(x.covered_s, 1))
                   / nullif(sum(coalesce(x.covered_s, 1)) FILTER (WHERE x.data_queue IS NOT NULL), 0) AS data_queue,
               sum(x.wal_queue * coalesce(x.covered_s, 1))
                   / nullif(sum(coalesce(x.covered_s, 1)) FILTER (WHERE x.wal_queue IS NOT NULL), 0) AS wal_queue
        INTO s
        FROM pgbenchx.system_samples x WHERE x.run_id = r.run_id;

        SELECT sum(x.samples) INTO total FROM pgbenchx.wait_samples x WHERE x.run_id = r.run_id;
        total := nullif(total, 0);
        SELECT jsonb_agg(jsonb_build_object('wait_event_type', q.t, 'wait_event', q.e,
                                            'share', round(q.n / total, 4))
                         ORDER BY q.n DESC, q.t, q.e)
        INTO top
        FROM (SELECT x.wait_event_type AS t, x.wait_event AS e, sum(x.samples) AS n
              FROM pgbenchx.wait_samples x WHERE x.run_id = r.run_id
              GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 5) q
        WHERE total IS NOT NULL;

        driver_s := coalesce(s.driver_cpu_s, r.driver_cpu_s);
        per_job := CASE WHEN r.bench_duration_s >= 1 AND r.jobs > 0
                        THEN driver_s / (r.bench_duration_s * r.jobs) END;

        /* the share of each kind of wait, and its largest event */
        IF total IS NOT NULL THEN
            FOR wt IN
                SELECT k.t, k.n / total AS share,
                       (SELECT x.wait_event FROM pgbenchx.wait_samples x
                        WHERE x.run_id = r.run_id AND x.wait_event_type = k.t
                        GROUP BY x.wait_event ORDER BY sum(x.samples) DESC, x.wait_event LIMIT 1) AS event,
                       (SELECT sum(x.samples) FROM pgbenchx.wait_samples x
                        WHERE x.run_id = r.run_id AND x.wait_event_type = k.t
                        GROUP BY x.wait_event ORDER BY sum(x.samples) DESC, x.wait_event LIMIT 1) / total AS event_share
                FROM (SELECT x.wait_event_type AS t, sum(x.samples) AS n FROM pgbenchx.wait_samples x
                      WHERE x.run_id = r.run_id AND x.wait_event_type IN ('Lock', 'LWLock')
                      GROUP BY 1) k
                ORDER BY CASE k.t WHEN 'Lock' THEN 1 ELSE 2 END
            LOOP
                IF v IS NULL AND wt.share >= lock_share_min THEN
                    v := format('%s (%s waits %s%% of sampled time, %s:%s %s%%)',
                                CASE wt.t WHEN 'Lock' THEN 'locks' ELSE 'LWLocks' END, wt.t,
                                round(100 * wt.share), wt.t, wt.event, round(100 * wt.event_share));
                END IF;
            END LOOP;
        END IF;
        IF v IS NULL AND per_job >= driver_share_min THEN
            v := format('load generator (driver CPU %s%% of a core per job)', round((100 * per_job)::numeric));
        END IF;
        IF v IS NULL AND total IS NOT NULL THEN
            SELECT format('I/O (IO waits %s%% of sampled time, IO:%s %s%%)',
                          round(100 * k.n / total), k.e, round(100 * k.top / total)) INTO v
            FROM (SELECT sum(x.samples) AS n,
                         (array_agg(x.wait_event ORDER BY x.samples DESC, x.wait_event))[1] AS e,
                         max(x.samples) AS top
                  FROM (SELECT y.wait_event, sum(y.samples) AS samples FROM pgbenchx.wait_samples y
                        WHERE y.run_id = r.run_id AND y.wait_event_type = 'IO' GROUP BY 1) x) k
            WHERE k.n / total >= lock_share_min;
        END IF;
        IF v IS NULL AND s.iowait >= iowait_min THEN
            v := format('I/O (iowait %s%% of CPU time)', round((100 * s.iowait)::numeric));
        END IF;
        IF v IS NULL AND greatest(s.data_queue, s.wal_queue) >= queue_min THEN
            v := CASE WHEN coalesce(s.wal_queue, 0) > coalesce(s.data_queue, 0)
                      THEN format('I/O (WAL device queue depth %s)', round(s.wal_queue::numeric, 1))
                      ELSE format('I/O (data device queue depth %s)', round(s.data_queue::numeric, 1)) END;
        END IF;
        IF v IS NULL AND s.idle < idle_max THEN
            v := format('CPU (machine idle %s%%)', round((100 * s.idle)::numeric, 1));
        END IF;
        IF v IS NULL AND total IS NOT NULL THEN
            SELECT sum(x.samples) / total INTO clientread FROM pgbenchx.wait_samples x
            WHERE x.run_id = r.run_id AND x.wait_event_type = 'Client' AND x.wait_event = 'ClientRead';
            IF clientread >= clientread_share_min THEN
                v := format('load generator (Client:ClientRead %s%% of sampled time)', round((100 * clientread)::numeric));
            END IF;
        END IF;

        UPDATE pgbenchx.runs x SET
            wal_bytes_per_tx = s.wal_bytes / tx,
            blocks_read_per_tx = s.blks_read / tx,
            blocks_written_per_tx = s.blks_written / tx,
            server_cpu_ms_per_tx = 1000 * s.backend_cpu_s / tx,
            driver_cpu_ms_per_tx = 1000 * driver_s / tx,
            iowait_avg = s.iowait,
            top_waits = top,
            verdict = v
        WHERE x.run_id = r.run_id;
    ELSE
        UPDATE pgbenchx.runs x SET
            wal_bytes_per_tx = NULL, blocks_read_per_tx = NULL, blocks_written_per_tx = NULL,
            server_cpu_ms_per_tx = NULL, driver_cpu_ms_per_tx = NULL, iowait_avg = NULL,
            top_waits = NULL, verdict = NULL
        WHERE x.run_id = r.run_id;
    END IF;
    RETURN v;
END $$;

REVOKE ALL ON FUNCTION pgbenchx.explain_run(bigint) FROM PUBLIC;

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
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.qpm) FILTER (WHERE r.replay) AS median_qpm,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.wal_bytes_per_tx) AS wal_bytes_per_tx,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.blocks_read_per_tx) AS blocks_read_per_tx,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.blocks_written_per_tx) AS blocks_written_per_tx,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.server_cpu_ms_per_tx) AS server_cpu_ms_per_tx,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.driver_cpu_ms_per_tx) AS driver_cpu_ms_per_tx,
           pg_catalog.percentile_cont(0.5::float8) WITHIN GROUP (ORDER BY r.iowait_avg) AS iowait_avg
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
       f.median_qpm,
       f.wal_bytes_per_tx, f.blocks_read_per_tx, f.blocks_written_per_tx,
       f.server_cpu_ms_per_tx, f.driver_cpu_ms_per_tx, f.iowait_avg
FROM flagged f;

COMMENT ON COLUMN pgbenchx.sweep_points.wal_bytes_per_tx IS 'median of those runs'' WAL bytes per transaction (runs.wal_bytes_per_tx)';
COMMENT ON COLUMN pgbenchx.sweep_points.blocks_read_per_tx IS 'median of their blocks read per transaction';
COMMENT ON COLUMN pgbenchx.sweep_points.blocks_written_per_tx IS 'median of their blocks written per transaction';
COMMENT ON COLUMN pgbenchx.sweep_points.server_cpu_ms_per_tx IS 'median of their client backends'' CPU per transaction, ms';
COMMENT ON COLUMN pgbenchx.sweep_points.driver_cpu_ms_per_tx IS 'median of their driver workers'' CPU per transaction, ms';
COMMENT ON COLUMN pgbenchx.sweep_points.iowait_avg IS 'median of their average iowait';

CREATE FUNCTION pgbenchx.explain_compare(sweep_a bigint, sweep_b bigint)
RETURNS TABLE (clients int, wal_per_tx_ratio float8, blocks_read_per_tx_ratio float8,
               server_cpu_per_tx_ratio float8, iowait_ratio float8, wait_event text,
               wait_share_a float8, wait_share_b float8, wait_ratio float8, explanation text)
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
#variable_conflict use_column
DECLARE
    differ CONSTANT float8 := 1.1;   -- a figure is named when b/a >= 1.1 or <= 1/1.1
    -- ... and when it is not negligible on both sides: less than a WAL
    -- record header per transaction, a block read per hundred
    -- transactions, or 1% iowait, is no difference worth a word
    wal_min    CONSTANT float8 := 8;
    blocks_min CONSTANT float8 := 0.01;
    iowait_min CONSTANT float8 := 0.01;
    p      record;
    parts  text[];
    fig    record;
    w      record;
BEGIN
    -- the same checks and errors as compare (nulls, unknown ids, a replay against a benchmark)
    PERFORM 1 FROM pgbenchx.compare(explain_compare.sweep_a, explain_compare.sweep_b) LIMIT 1;

    FOR p IN
        SELECT coalesce(a.clients, b.clients) AS clients,
               b.wal_bytes_per_tx / nullif(a.wal_bytes_per_tx, 0) AS wal,
               b.blocks_read_per_tx / nullif(a.blocks_read_per_tx, 0) AS br,
               b.server_cpu_ms_per_tx / nullif(a.server_cpu_ms_per_tx, 0) AS cpu,
               b.iowait_avg / nullif(a.iowait_avg, 0) AS iowait,
               greatest(a.wal_bytes_per_tx, b.wal_bytes_per_tx) AS wal_max,
               greatest(a.blocks_read_per_tx, b.blocks_read_per_tx) AS br_max,
               greatest(a.iowait_avg, b.iowait_avg) AS iowait_max,
               a.clients IS NOT NULL AND b.clients IS NOT NULL AS both_sides,
               a.clients IS NOT NULL AS in_a,
               coalesce(a.wal_bytes_per_tx, a.blocks_read_per_tx, a.server_cpu_ms_per_tx, a.iowait_avg) IS NOT NULL AS has_a,
               coalesce(b.wal_bytes_per_tx, b.blocks_read_per_tx, b.server_cpu_ms_per_tx, b.iowait_avg) IS NOT NULL AS has_b
        FROM (SELECT * FROM pgbenchx.sweep_points x WHERE x.sweep_id = explain_compare.sweep_a) a
        FULL JOIN (SELECT * FROM pgbenchx.sweep_points x WHERE x.sweep_id = explain_compare.sweep_b) b
            ON a.clients = b.clients
        ORDER BY 1
    LOOP
        /* the wait event whose share differs most, the runs of each point pooled */
        WITH shares AS (
            SELECT x.sweep_id, ws.wait_event_type || ':' || ws.wait_event AS ev,
                   sum(ws.samples)::float8 / nullif(sum(sum(ws.samples)) OVER (PARTITION BY x.sweep_id), 0) AS share
            FROM pgbenchx.runs x JOIN pgbenchx.wait_samples ws ON ws.run_id = x.run_id
            WHERE x.sweep_id IN (explain_compare.sweep_a, explain_compare.sweep_b)
              AND x.clients = p.clients AND x.status = 'completed'
            GROUP BY x.sweep_id, ws.wait_event_type, ws.wait_event)
        SELECT e.ev,
               coalesce(sa.share, 0) AS a_share, coalesce(sb.share, 0) AS b_share
        INTO w
        FROM (SELECT DISTINCT s.ev FROM shares s
              WHERE s.ev <> 'CPU:on CPU' AND s.ev NOT LIKE 'Client:%') e
        LEFT JOIN shares sa ON sa.ev = e.ev AND sa.sweep_id = explain_compare.sweep_a
        LEFT JOIN shares sb ON sb.ev = e.ev AND sb.sweep_id = explain_compare.sweep_b
        WHERE EXISTS (SELECT 1 FROM shares s WHERE s.sweep_id = explain_compare.sweep_a)
          AND EXISTS (SELECT 1 FROM shares s WHERE s.sweep_id = explain_compare.sweep_b)
        ORDER BY abs(coalesce(sb.share, 0) - coalesce(sa.share, 0)) DESC, e.ev
        LIMIT 1;

        parts := '{}';
        IF NOT p.both_sides THEN
            explanation := format('%s clients were measured in sweep %s only', p.clients,
                                  CASE WHEN p.in_a THEN explain_compare.sweep_a ELSE explain_compare.sweep_b END);
        ELSIF NOT p.has_a OR NOT p.has_b THEN
            explanation := CASE WHEN NOT p.has_a AND NOT p.has_b
                                THEN format('neither sweep %s nor sweep %s recorded what the server did', explain_compare.sweep_a, explain_compare.sweep_b)
                                ELSE format('sweep %s did not record what the server did',
                                            CASE WHEN p.has_a THEN explain_compare.sweep_b ELSE explain_compare.sweep_a END) END;
        ELSE
            FOR fig IN
                SELECT f.ratio, f.words FROM (VALUES
                    (1, p.wal, 'writes %s the WAL per transaction', p.wal_max >= wal_min),
                    (2, p.br, 'reads %s the blocks per transaction', p.br_max >= blocks_min),
                    (3, p.cpu, 'spends %s the server CPU per transaction', true),
                    (4, p.iowait, 'has %s the iowait', p.iowait_max >= iowait_min)) f(n, ratio, words, worth)
                WHERE (f.ratio >= differ OR f.ratio <= 1 / differ) AND f.worth
                ORDER BY f.n
            LOOP
                parts := parts || format(fig.words, pgbenchx.explain_times(fig.ratio));
            END LOOP;
            IF w.ev IS NOT NULL AND (w.b_share >= differ * w.a_share OR w.a_share >= differ * w.b_share)
               AND greatest(w.a_share, w.b_share) >= 0.01 THEN
                parts := parts || CASE WHEN w.a_share = 0
                    THEN format('waits on %s (%s%% of sampled time) where sweep %s did not', w.ev,
                                round((100 * w.b_share)::numeric), explain_compare.sweep_a)
                    WHEN w.b_share = 0
                    THEN format('does not wait on %s, where sweep %s spent %s%% of sampled time', w.ev,
                                explain_compare.sweep_a, round((100 * w.a_share)::numeric))
                    ELSE format('waits %s as long on %s (%s%% of sampled time against %s%%)', pgbenchx.explain_times(w.b_share / w.a_share),
                                w.ev, round((100 * w.b_share)::numeric), round((100 * w.a_share)::numeric)) END;
            END IF;
            IF cardinality(parts) = 0 THEN
                explanation := format('sweep %s and sweep %s do the same work per transaction and wait alike (within 10%%, or too little to matter)',
                                      explain_compare.sweep_b, explain_compare.sweep_a);
            ELSE
                /* "of sweep A" after the first figure, "and" before the last */
                parts[1] := CASE WHEN parts[1] LIKE 'waits on %' OR parts[1] LIKE 'does not wait on %' THEN parts[1]
                                 WHEN parts[1] LIKE 'waits %' THEN replace(parts[1], ' as long on ', ' as long as sweep ' || explain_compare.sweep_a || ' on ')
                                 ELSE parts[1] || ' of sweep ' || explain_compare.sweep_a END;
                explanation := format('sweep %s %s', explain_compare.sweep_b,
                                      CASE WHEN cardinality(parts) = 1 THEN parts[1]
                                           ELSE array_to_string(parts[1:cardinality(parts) - 1], ', ')
                                                || ' and ' || parts[cardinality(parts)] END);
            END IF;
        END IF;
        clients := p.clients;
        wal_per_tx_ratio := round(p.wal::numeric, 4)::float8;
        blocks_read_per_tx_ratio := round(p.br::numeric, 4)::float8;
        server_cpu_per_tx_ratio := round(p.cpu::numeric, 4)::float8;
        iowait_ratio := round(p.iowait::numeric, 4)::float8;
        wait_event := w.ev;
        wait_share_a := round(w.a_share::numeric, 4)::float8;
        wait_share_b := round(w.b_share::numeric, 4)::float8;
        wait_ratio := round((w.b_share / nullif(w.a_share, 0))::numeric, 4)::float8;
        RETURN NEXT;
    END LOOP;
END $$;

CREATE FUNCTION pgbenchx.explain_times(ratio float8) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
SELECT CASE WHEN ratio OPERATOR(pg_catalog.>=) 10::float8 THEN pg_catalog.round(ratio::numeric)::text
            WHEN ratio OPERATOR(pg_catalog.>=) 1::float8 THEN pg_catalog.round(ratio::numeric, 1)::text
            ELSE pg_catalog.round(ratio::numeric, 2)::text END
       OPERATOR(pg_catalog.||) CASE WHEN pg_catalog.getdatabaseencoding() OPERATOR(pg_catalog.=) 'UTF8'
                                    THEN pg_catalog.chr(215) ELSE 'x' END
$$;

REVOKE ALL ON FUNCTION pgbenchx.explain_compare(bigint, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.explain_times(float8) FROM PUBLIC;

-- pgbenchx.report: re-created once, with this change in it, by 10_report.sql

-- pgbenchx.export: re-created once, with this change in it, by 65_hist.sql

-- pgbenchx.import: re-created once, with this change in it, by 65_hist.sql

/*
 * The grants: the four entry points get back those they had (the new
 * routines get theirs in 90_runner_grants.sql).  A GRANT in an extension script is recorded in
 * pg_init_privs as the extension's own initial privilege, which pg_dump
 * does not dump; the initial privileges are put back to what a fresh
 * CREATE EXTENSION records (the REVOKE above), so that pg_dump keeps these
 * grants as the user's.
 */
DO $$
DECLARE
    f    record;
    g    record;
    init pg_catalog.aclitem[];
BEGIN
    FOR f IN
        SELECT x.entry, x.sig::pg_catalog.regprocedure AS sig
        FROM (VALUES
                     ('bench', 'run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean, boolean)'),
                     ('sweep', 'run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean)'),
                     ('sweep_list', 'run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean)'),
                     ('replay', 'run_replay(text, int, int, boolean, boolean, int, text, boolean, text, text, jsonb, bigint, boolean)')) x(entry, sig)
    LOOP
        SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
        WHERE i.objoid OPERATOR(pg_catalog.=) f.sig::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
        FOR g IN
            SELECT DISTINCT pg_catalog.split_part(x, '=', 2)::pg_catalog.oid AS grantee
            FROM pg_catalog.unnest(pg_catalog.string_to_array(
                     pg_catalog.current_setting('pgbenchx_upgrade.entry_grants'), ',')) x
            WHERE pg_catalog.split_part(x, '=', 1) OPERATOR(pg_catalog.=) f.entry
            ORDER BY 1
        LOOP
            EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s', f.sig,
                                      CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                           ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
        END LOOP;
        UPDATE pg_catalog.pg_init_privs i SET initprivs = init
        WHERE i.objoid OPERATOR(pg_catalog.=) f.sig::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
    END LOOP;
END $$;

/*
 * 64_charts (issue 13): chart_run gains panels under the tps line (CPU by
 * kind, disk throughput, WAL bytes, wait events by type) from
 * system_samples and wait_samples; chart_waits draws a sweep's wait events
 * by client count; chart_wait_color gives both the same colours.  The
 * bodies are copies of src/sql/40_charts.sql (scripts/upgrade_sync.py).
 */
CREATE FUNCTION pgbenchx.chart_wait_color(wait_event_type text, ord int) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT CASE wait_event_type
           WHEN 'CPU' THEN '#59a14f' WHEN 'Lock' THEN '#e15759' WHEN 'LWLock' THEN '#b07aa1'
           WHEN 'IO' THEN '#f28e2b' WHEN 'IPC' THEN '#76b7b2' WHEN 'Client' THEN '#bab0ac'
           WHEN 'Activity' THEN '#9c755f' WHEN 'BufferPin' THEN '#ff9da7' WHEN 'Extension' THEN '#edc948'
           WHEN 'Timeout' THEN '#4e79a7'
           ELSE (ARRAY['#1f77b4', '#d62728', '#8c564b', '#17becf', '#7f7f7f', '#bcbd22'])
                    [1 OPERATOR(pg_catalog.+) (coalesce(ord, 1) OPERATOR(pg_catalog.+) 5) OPERATOR(pg_catalog.%) 6] END
$$;

CREATE OR REPLACE FUNCTION pgbenchx.chart_run(run_id bigint) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
DECLARE
    tps_color constant text := '#1f77b4';
    p99_color constant text := '#d62728';
    w constant float8 := 900;
    px0 constant float8 := 90;
    px1 constant float8 := 810;
    py0 constant float8 := 70;
    py1 constant float8 := 410;
    base_h constant float8 := 520;     -- the tps chart and its legend
    ph constant float8 := 100;         -- a panel's plot height
    panel_h constant float8 := 176;    -- a panel: title, plot, ticks, legend
    h float8;
    r record;
    smax float8;
    sys_rows jsonb;                       -- system_samples, one object per second
    panels jsonb := '[]';              -- the panels drawn, in order
    notes jsonb := '[]';               -- the panels left out: {panels, why}
    no_system text;                    -- why a run has no system figures
    pj jsonb;
    pn record;
    sr record;
    pt float8; pb float8;              -- a panel's plot: top and bottom
    pmax float8; pstep float8; pdiv float8; punit text;
    lx float8;
    unit text;
    rate_name text;
    run_rate float8;
    pts jsonb;
    ymax float8; ystep float8; ytop float8; intervals int;
    lmax float8; lstep float8; ltop float8;
    xstep float8;
    tick float8;
    xp float8;
    i int;
    tps_pts text;
    p99_pts text;
    n_tps int;
    n_p99 int;
    markers text := '';
    svg text;
BEGIN
    IF chart_run.run_id IS NULL THEN
        RAISE EXCEPTION 'argument "run_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'chart_run draws the per-second samples of one run.',
                  HINT = 'SELECT run_id, sweep_id, clients, status FROM pgbenchx.runs lists the runs.';
    END IF;
    SELECT * INTO r FROM pgbenchx.runs rr WHERE rr.run_id = chart_run.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no run has id %', chart_run.run_id
            USING ERRCODE = 'undefined_object',
                  DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.sweeps s WHERE s.sweep_id = chart_run.run_id)
                                THEN format('Id %s is a sweep, not a run: pgbenchx.chart_sweeps(ARRAY[%s]) draws it.',
                                            chart_run.run_id, chart_run.run_id)
                                ELSE format('pgbenchx.runs has no row with run_id %s.', chart_run.run_id) END,
                  HINT = 'SELECT run_id, sweep_id, clients, status FROM pgbenchx.runs lists the runs.';
    END IF;

    -- the points: x at the end of the time each sample covered, its rate
    -- over that time (a replay: queries per minute, failed ones included)
    unit := CASE WHEN r.replay THEN 'qpm' ELSE 'tps' END;
    rate_name := CASE WHEN r.replay THEN 'queries per minute' ELSE 'transactions per second' END;
    run_rate := CASE WHEN r.replay THEN r.qpm ELSE r.tps END;
    SELECT jsonb_agg(jsonb_build_object(
               'second', s.second, 'x', s.second - 1 + s.covered_s, 'covered_s', s.covered_s,
               'rate', CASE WHEN r.replay THEN (s.transactions + s.failed) * 60 / s.covered_s
                            ELSE coalesce(s.tps, s.transactions / s.covered_s) END,
               'p99', s.latency_p99_ms) ORDER BY s.second)
    INTO pts
    FROM pgbenchx.samples s WHERE s.run_id = chart_run.run_id;
    SELECT max(p.x), max(p.rate), max(p.p99)
    INTO smax, ymax, lmax
    FROM jsonb_to_recordset(pts) AS p(x float8, rate float8, p99 float8);
    IF smax IS NULL THEN
        RAISE EXCEPTION 'run % has no per-second samples', chart_run.run_id
            USING ERRCODE = 'no_data_found',
                  DETAIL = format('Its status is %s%s; samples are written from its first measured second on.',
                                  r.status, coalesce(': ' || r.error, '')),
                  HINT = 'Chart a run once it has run for a second; SELECT run_id, second FROM pgbenchx.samples shows which runs have samples.';
    END IF;

    -- left: tps from 0 to a round top in about 5 intervals; right: p99 ms
    -- with the same number of intervals, so that both share the grid lines
    ymax := greatest(coalesce(ymax, 0), run_rate, 1);
    ystep := pgbenchx.chart_step(ymax, 5);
    intervals := greatest(ceil(ymax / ystep), 1)::int;
    ytop := ystep * intervals;
    lmax := greatest(coalesce(lmax, 0), 0.001);
    lstep := pgbenchx.chart_step(lmax, intervals);
    WHILE lstep * intervals < lmax LOOP
        lstep := pgbenchx.chart_step(lstep * 1.01, 1);
    END LOOP;
    ltop := lstep * intervals;
    xstep := greatest(pgbenchx.chart_step(smax, 10), 1);

    -- the panels: per second of system_samples within the tps line's time
    -- (x0 = second - 1, x1 = the end of the time it covered, as samples say)
    SELECT jsonb_agg(jsonb_build_object(
               'second', ss.second, 'x0', ss.second - 1,
               'x1', least(ss.second - 1 + coalesce(sm.covered_s, ss.covered_s, 1), smax),
               'cov', coalesce(ss.covered_s, sm.covered_s, 1),
               'usr', ss.cpu_user, 'sys', ss.cpu_system, 'iowait', ss.cpu_iowait, 'steal', ss.cpu_steal,
               'dr', ss.data_read_bytes, 'dw', ss.data_write_bytes,
               'wr', ss.wal_read_bytes, 'ww', ss.wal_write_bytes, 'wal', ss.wal_bytes) ORDER BY ss.second)
    INTO sys_rows
    FROM pgbenchx.system_samples ss
    LEFT JOIN pgbenchx.samples sm ON sm.run_id = ss.run_id AND sm.second = ss.second
    WHERE ss.run_id = chart_run.run_id AND ss.second - 1 < smax;
    no_system := CASE WHEN r.record_system IS NULL THEN 'recorded before pgbenchx 0.3 (or imported from it)'
                      WHEN NOT r.record_system THEN 'not recorded (record_system => false)'
                      WHEN r.system_notes IS NOT NULL AND cardinality(r.system_notes) > 0
                          THEN array_to_string(r.system_notes, '; ')
                      ELSE 'no figures recorded for this run' END;

    -- CPU by kind, shares of the machine: idle is the rest
    SELECT jsonb_build_object('id', 'cpu', 'kind', 'stack',
               'title', 'CPU of the machine by kind (share of all cores)',
               'series', (SELECT jsonb_agg(jsonb_build_object('key', v.k, 'label', v.l, 'color', v.c) ORDER BY v.o)
                          FROM (VALUES (1, 'usr', 'user', '#4e79a7'), (2, 'sys', 'system', '#e15759'),
                                       (3, 'iowait', 'iowait', '#f28e2b'), (4, 'steal', 'steal', '#b07aa1'),
                                       (5, 'idle', 'idle', '#dddddd')) v(o, k, l, c)
                          WHERE v.k = 'idle'
                             OR EXISTS (SELECT 1 FROM jsonb_array_elements(sys_rows) e WHERE e.value ->> v.k IS NOT NULL)),
               'rows', jsonb_agg(jsonb_build_object('second', p.second, 'x0', p.x0, 'x1', p.x1,
                                                    'ord', k.ord, 'key', k.key, 'share', k.v / greatest(t.busy, 1))
                                 ORDER BY p.second, k.ord))
    INTO pj
    FROM jsonb_to_recordset(sys_rows) AS p(second int, x0 float8, x1 float8, usr float8, sys float8, iowait float8, steal float8)
    CROSS JOIN LATERAL (SELECT coalesce(p.usr, 0) + coalesce(p.sys, 0) + coalesce(p.iowait, 0) + coalesce(p.steal, 0) AS busy) t
    CROSS JOIN LATERAL (VALUES (1, 'usr', p.usr), (2, 'sys', p.sys), (3, 'iowait', p.iowait), (4, 'steal', p.steal),
                               (5, 'idle', greatest(1 - t.busy, 0))) k(ord, key, v)
    WHERE p.usr IS NOT NULL AND k.v IS NOT NULL AND p.x1 > p.x0;
    IF jsonb_typeof(pj -> 'rows') = 'array' THEN
        panels := panels || jsonb_build_array(pj);
    ELSE
        notes := notes || jsonb_build_array(jsonb_build_object('panel', 'CPU', 'why', no_system));
    END IF;

    -- disk throughput of the data and WAL devices, bytes/s
    SELECT jsonb_build_object('id', 'disk', 'kind', 'lines', 'title', 'Disk throughput of the data and WAL devices',
               'series', (SELECT jsonb_agg(jsonb_build_object('key', v.k, 'label', v.l, 'color', v.c, 'dash', v.d) ORDER BY v.o)
                          FROM (VALUES (1, 'dr', 'data read', '#4e79a7', ''), (2, 'dw', 'data write', '#e15759', ''),
                                       (3, 'wr', 'WAL read', '#59a14f', '5 3'), (4, 'ww', 'WAL write', '#f28e2b', '5 3')) v(o, k, l, c, d)
                          WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(sys_rows) e WHERE e.value ->> v.k IS NOT NULL)),
               'rows', jsonb_agg(jsonb_build_object('second', p.second, 'x1', p.x1, 'key', k.key, 'v', k.v / p.cov)
                                 ORDER BY p.second, k.key))
    INTO pj
    FROM jsonb_to_recordset(sys_rows) AS p(second int, x1 float8, cov float8, dr float8, dw float8, wr float8, ww float8)
    CROSS JOIN LATERAL (VALUES ('dr', p.dr), ('dw', p.dw), ('wr', p.wr), ('ww', p.ww)) k(key, v)
    WHERE k.v IS NOT NULL AND p.cov > 0;
    IF jsonb_typeof(pj -> 'rows') = 'array' THEN
        panels := panels || jsonb_build_array(pj);
    ELSE
        notes := notes || jsonb_build_array(jsonb_build_object('panel', 'disk throughput', 'why', no_system));
    END IF;

    -- WAL bytes per second (pg_stat_wal)
    SELECT jsonb_build_object('id', 'wal', 'kind', 'lines', 'title', 'WAL generated (pg_stat_wal)',
               'series', jsonb_build_array(jsonb_build_object('key', 'wal', 'label', 'WAL bytes', 'color', '#76b7b2', 'dash', '')),
               'rows', jsonb_agg(jsonb_build_object('second', p.second, 'x1', p.x1, 'key', 'wal', 'v', p.wal / p.cov)
                                 ORDER BY p.second))
    INTO pj
    FROM jsonb_to_recordset(sys_rows) AS p(second int, x1 float8, cov float8, wal float8)
    WHERE p.wal IS NOT NULL AND p.cov > 0;
    IF jsonb_typeof(pj -> 'rows') = 'array' THEN
        panels := panels || jsonb_build_array(pj);
    ELSE
        notes := notes || jsonb_build_array(jsonb_build_object('panel', 'WAL', 'why', no_system));
    END IF;

    -- wait events of the client backends by type, shares of the sampled
    -- time in each second, CPU first and then the most sampled
    WITH ws AS (
        SELECT x.second, x.wait_event_type AS key, sum(x.samples)::float8 AS n
        FROM pgbenchx.wait_samples x
        WHERE x.run_id = chart_run.run_id AND x.second - 1 < smax AND x.samples > 0
        GROUP BY x.second, x.wait_event_type),
    tot AS (SELECT ws.second, sum(ws.n) AS t FROM ws GROUP BY ws.second),
    ord AS (SELECT ws.key, row_number() OVER (ORDER BY ws.key <> 'CPU', sum(ws.n) DESC, ws.key) AS o
            FROM ws GROUP BY ws.key)
    SELECT jsonb_build_object('id', 'waits', 'kind', 'stack',
               'title', 'Wait events of the client backends by type (share of sampled time)',
               'series', (SELECT jsonb_agg(jsonb_build_object('key', ord.key, 'label', ord.key,
                                                              'color', pgbenchx.chart_wait_color(ord.key, ord.o::int))
                                           ORDER BY ord.o) FROM ord),
               'rows', jsonb_agg(jsonb_build_object('second', ws.second, 'x0', ws.second - 1,
                                                    'x1', least(ws.second - 1 + coalesce(sm.covered_s, ss.covered_s, 1), smax),
                                                    'ord', ord.o, 'key', ws.key, 'share', ws.n / tot.t)
                                 ORDER BY ws.second, ord.o))
    INTO pj
    FROM ws JOIN tot ON tot.second = ws.second JOIN ord ON ord.key = ws.key
    LEFT JOIN pgbenchx.samples sm ON sm.run_id = chart_run.run_id AND sm.second = ws.second
    LEFT JOIN pgbenchx.system_samples ss ON ss.run_id = chart_run.run_id AND ss.second = ws.second;
    IF jsonb_typeof(pj -> 'rows') = 'array' THEN
        panels := panels || jsonb_build_array(pj);
    ELSE
        notes := notes || jsonb_build_array(jsonb_build_object('panel', 'wait events',
            'why', CASE WHEN r.record_system IS NOT TRUE THEN no_system
                        ELSE 'no client backend was sampled' END));
    END IF;

    -- one note per reason, naming the panels it leaves out
    SELECT coalesce(jsonb_agg(q.line ORDER BY q.first), '[]') INTO notes
    FROM (SELECT min(n.ord) AS first,
                 'Panels left out (' || string_agg(n.e ->> 'panel', ', ' ORDER BY n.ord) || '): ' || (n.e ->> 'why') AS line
          FROM jsonb_array_elements(notes) WITH ORDINALITY n(e, ord)
          GROUP BY n.e ->> 'why') q;
    h := base_h + CASE WHEN jsonb_array_length(notes) > 0 THEN 8 + 18 * jsonb_array_length(notes) ELSE 0 END
         + panel_h * jsonb_array_length(panels);

    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || format(E'\n<title>%s and p99 latency over the run</title>', rate_name)
        || format(E'\n<rect width="%s" height="%s" fill="#ffffff"/>', w, h)
        || format(E'\n<text class="title" x="%s" y="28" text-anchor="middle" font-size="17" font-weight="bold">Run %s: %s</text>',
                  w / 2, r.run_id, pgbenchx.xml_escape(coalesce(r.label, r.script)))
        || format(E'\n<text class="subtitle" x="%s" y="48" text-anchor="middle" fill="#555555">%s</text>',
                  w / 2, pgbenchx.xml_escape(
                      concat_ws(', ', 'script ' || r.script,
                                r.clients || CASE WHEN r.clients = 1 THEN ' client' ELSE ' clients' END,
                                r.jobs || CASE WHEN r.jobs = 1 THEN ' job' ELSE ' jobs' END,
                                r.protocol || ' protocol',
                                CASE WHEN r.sweep_id IS NOT NULL THEN 'sweep ' || r.sweep_id END,
                                r.status)));

    -- grid: tps ticks on the left, p99 ticks on the right
    FOR i IN 0 .. intervals LOOP
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-y" x="%s" y="%s" text-anchor="end" fill="%s">%s</text>'
                             '<text class="tick-y2" x="%s" y="%s" text-anchor="start" fill="%s">%s</text>',
                   px0, round((py1 - i * (py1 - py0) / intervals)::numeric, 1),
                   px1, round((py1 - i * (py1 - py0) / intervals)::numeric, 1),
                   px0 - 6, round((py1 - i * (py1 - py0) / intervals + 4)::numeric, 1),
                   tps_color, pgbenchx.chart_number(i * ystep, ytop),
                   px1 + 6, round((py1 - i * (py1 - py0) / intervals + 4)::numeric, 1),
                   p99_color, pgbenchx.chart_number(i * lstep, ltop));
    END LOOP;
    tick := 0;
    WHILE tick <= smax LOOP
        xp := px0 + tick / smax * (px1 - px0);
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-x" x="%s" y="%s" text-anchor="middle" fill="#333333">%s</text>',
                   round(xp::numeric, 1), py0, round(xp::numeric, 1), py1,
                   round(xp::numeric, 1), py1 + 18, pgbenchx.chart_number(tick, 0));
        tick := tick + xstep;
    END LOOP;

    svg := svg || format(E'\n<path class="axis" d="M%s %sV%sH%sV%s" fill="none" stroke="#333333"/>',
                         px0, py0, py1, px1, py0)
        || format(E'\n<text class="axis-title" x="%s" y="%s" text-anchor="middle">time since all clients connected (s)</text>',
                  (px0 + px1) / 2, py1 + 40)
        || format(E'\n<text class="axis-title" transform="translate(%s %s) rotate(-90)" text-anchor="middle" fill="%s">%s</text>',
                  24, (py0 + py1) / 2, tps_color, rate_name)
        || format(E'\n<text class="axis-title" transform="translate(%s %s) rotate(90)" text-anchor="middle" fill="%s">p99 latency (ms)</text>',
                  w - 24, (py0 + py1) / 2, p99_color);

    -- a sample is drawn at x = the end of the time it covered
    SELECT string_agg(round((px0 + p.x / smax * (px1 - px0))::numeric, 1) || ','
                      || round((py1 - p.rate / ytop * (py1 - py0))::numeric, 1),
                      ' ' ORDER BY p.second),
           count(*),
           string_agg(round((px0 + p.x / smax * (px1 - px0))::numeric, 1) || ','
                      || round((py1 - p.p99 / ltop * (py1 - py0))::numeric, 1),
                      ' ' ORDER BY p.second) FILTER (WHERE p.p99 IS NOT NULL),
           count(p.p99)
    INTO tps_pts, n_tps, p99_pts, n_p99
    FROM jsonb_to_recordset(pts) AS p(second int, x float8, rate float8, p99 float8);

    IF run_rate IS NOT NULL THEN
        svg := svg || format(E'\n<line class="run-tps" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-dasharray="2 3" opacity="0.7"/>',
                             px0, round((py1 - run_rate / ytop * (py1 - py0))::numeric, 1),
                             px1, round((py1 - run_rate / ytop * (py1 - py0))::numeric, 1), tps_color);
    END IF;
    svg := svg || format(E'\n<polyline class="tps" points="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"/>',
                         tps_pts, tps_color);
    IF n_p99 > 0 THEN
        svg := svg || format(E'\n<polyline class="p99" points="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-dasharray="6 3" stroke-linejoin="round"/>',
                             p99_pts, p99_color);
    END IF;
    -- short runs: a marker per second, so that even 1 or 2 seconds show (a
    -- polyline of one point draws nothing); p99 markers are hollow
    IF n_tps <= 60 THEN
        SELECT string_agg(format(E'\n<circle class="tps-point" cx="%s" cy="%s" r="3" fill="%s"><title>second %s%s: %s %s, p99 %s ms</title></circle>',
                                 round((px0 + p.x / smax * (px1 - px0))::numeric, 1),
                                 round((py1 - p.rate / ytop * (py1 - py0))::numeric, 1),
                                 tps_color, p.second,
                                 CASE WHEN p.covered_s <> 1 THEN format(' (%s s)', round(p.covered_s::numeric, 3)) ELSE '' END,
                                 round(p.rate::numeric, 1), unit,
                                 coalesce(round(p.p99::numeric, 3)::text, '-')),
                          '' ORDER BY p.second)
        INTO markers
        FROM jsonb_to_recordset(pts) AS p(second int, x float8, covered_s float8, rate float8, p99 float8);
        svg := svg || markers;
    END IF;
    IF n_p99 <= 60 AND n_p99 > 0 THEN
        SELECT string_agg(format(E'\n<circle class="p99-point" cx="%s" cy="%s" r="3" fill="#ffffff" stroke="%s" stroke-width="1.5"><title>second %s: p99 %s ms</title></circle>',
                                 round((px0 + p.x / smax * (px1 - px0))::numeric, 1),
                                 round((py1 - p.p99 / ltop * (py1 - py0))::numeric, 1),
                                 p99_color, p.second, round(p.p99::numeric, 3)),
                          '' ORDER BY p.second)
        INTO markers
        FROM jsonb_to_recordset(pts) AS p(second int, x float8, p99 float8)
        WHERE p.p99 IS NOT NULL;
        svg := svg || markers;
    END IF;

    -- legend
    svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/><text class="legend" x="%s" y="%s">%s</text>',
                         px0, base_h - 34, px0 + 28, base_h - 34, tps_color, px0 + 36, base_h - 30, rate_name)
        || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" stroke-dasharray="6 3"/><text class="legend" x="%s" y="%s">p99 latency of each second (ms)</text>',
                  px0 + 230, base_h - 34, px0 + 258, base_h - 34, p99_color, px0 + 266, base_h - 30)
        || CASE WHEN run_rate IS NOT NULL THEN
               format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-dasharray="2 3"/><text class="legend" x="%s" y="%s">whole run: %s %s, p99 %s ms</text>',
                      px0 + 480, base_h - 34, px0 + 508, base_h - 34, tps_color, px0 + 516, base_h - 30,
                      round(run_rate::numeric, 1), unit, coalesce(trim_scale(round(r.latency_p99_ms::numeric, 3))::text, '-'))
           ELSE '' END;

    -- the notes: why a panel is left out, one line per reason
    FOR i IN 0 .. jsonb_array_length(notes) - 1 LOOP
        svg := svg || format(E'\n<text class="panel-note" x="%s" y="%s" fill="#555555">%s</text>',
                             px0, base_h + 2 + 18 * i, pgbenchx.xml_escape(notes ->> i));
    END LOOP;

    -- the panels, on the tps line's x scale
    FOR pn IN
        SELECT e.ord - 1 AS k, e.p ->> 'id' AS id, e.p ->> 'kind' AS kind, e.p ->> 'title' AS title,
               e.p -> 'series' AS series, e.p -> 'rows' AS rows
        FROM jsonb_array_elements(panels) WITH ORDINALITY e(p, ord)
        ORDER BY e.ord
    LOOP
        pt := base_h + CASE WHEN jsonb_array_length(notes) > 0 THEN 8 + 18 * jsonb_array_length(notes) ELSE 0 END
              + panel_h * pn.k + 30;
        pb := pt + ph;
        IF pn.kind = 'stack' THEN
            pdiv := 1; punit := '%'; pmax := 1; pstep := 0.5;
        ELSE
            SELECT max(q.v) INTO pmax FROM jsonb_to_recordset(pn.rows) AS q(v float8);
            pmax := greatest(coalesce(pmax, 0), 1);
            pdiv := CASE WHEN pmax >= 1e9 THEN 1e9 WHEN pmax >= 1e6 THEN 1e6 WHEN pmax >= 1e3 THEN 1e3 ELSE 1 END;
            punit := CASE pdiv WHEN 1e9 THEN 'GB/s' WHEN 1e6 THEN 'MB/s' WHEN 1e3 THEN 'kB/s' ELSE 'B/s' END;
            pstep := pgbenchx.chart_step(pmax / pdiv, 2);
            pmax := pstep * greatest(ceil(pmax / pdiv / pstep), 1);
        END IF;
        svg := svg || format(E'\n<g class="panel" data-panel="%s" data-y0="%s" data-y1="%s">', pn.id, pt, pb)
            || format(E'\n<text class="panel-title" x="%s" y="%s" font-weight="bold">%s%s</text>',
                      px0, pt - 10, pn.title, CASE WHEN pn.kind = 'lines' THEN ', ' || punit ELSE '' END);
        -- grid: the tps chart's time ticks, and the panel's own y ticks
        tick := 0;
        WHILE tick <= smax LOOP
            xp := px0 + tick / smax * (px1 - px0);
            svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                                 '<text class="panel-tick-x" x="%s" y="%s" text-anchor="middle" fill="#333333">%s</text>',
                       round(xp::numeric, 1), pt, round(xp::numeric, 1), pb,
                       round(xp::numeric, 1), pb + 16, pgbenchx.chart_number(tick, 0));
            tick := tick + xstep;
        END LOOP;
        tick := 0;
        WHILE tick <= pmax * (1 + 1e-9) LOOP
            svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                                 '<text class="panel-tick-y" x="%s" y="%s" text-anchor="end" fill="#333333">%s</text>',
                       px0, round((pb - tick / pmax * ph)::numeric, 1), px1, round((pb - tick / pmax * ph)::numeric, 1),
                       px0 - 6, round((pb - tick / pmax * ph + 4)::numeric, 1),
                       CASE WHEN pn.kind = 'stack' THEN round(100 * tick) || '%' ELSE pgbenchx.chart_number(tick, pmax) END);
            tick := tick + pstep;
        END LOOP;

        IF pn.kind = 'stack' THEN
            -- a bar per second from the start to the end of the time it
            -- covered; each kind from the running total of the shares below
            -- it, so the bars of a second add up to the panel's height
            SELECT string_agg(format(E'\n<rect class="stack" data-second="%s" data-key="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>second %s: %s %s%%</title></rect>',
                                     b.second, pgbenchx.xml_escape(b.key), b.xl, b.yhi, b.xr - b.xl, b.ylo - b.yhi, b.color,
                                     b.second, pgbenchx.xml_escape(b.label), round((100 * b.share)::numeric, 1)),
                              '' ORDER BY b.second, b.ord)
            INTO markers
            FROM (SELECT q.second, q.ord, q.key, q.share, se.label, se.color,
                         round((px0 + q.x0 / smax * (px1 - px0))::numeric, 1) AS xl,
                         round((px0 + q.x1 / smax * (px1 - px0))::numeric, 1) AS xr,
                         round((pb - (sum(q.share) OVER w - q.share) * ph)::numeric, 1) AS ylo,
                         round((pb - sum(q.share) OVER w * ph)::numeric, 1) AS yhi
                  FROM jsonb_to_recordset(pn.rows) AS q(second int, x0 float8, x1 float8, ord int, key text, share float8)
                  JOIN jsonb_to_recordset(pn.series) AS se(key text, label text, color text) ON se.key = q.key
                  WINDOW w AS (PARTITION BY q.second ORDER BY q.ord ROWS UNBOUNDED PRECEDING)) b
            WHERE b.ylo > b.yhi AND b.xr > b.xl;
            svg := svg || coalesce(markers, '');
        ELSE
            -- a line per series, a point at the end of the time each second covered
            FOR sr IN
                SELECT se.key, se.label, se.color, se.dash, count(*) AS n,
                       string_agg(round((px0 + q.x1 / smax * (px1 - px0))::numeric, 1) || ','
                                  || round((pb - q.v / pdiv / pmax * ph)::numeric, 1), ' ' ORDER BY q.second) AS points,
                       string_agg(format(E'\n<circle class="series-point" data-key="%s" cx="%s" cy="%s" r="2.5" fill="%s"><title>second %s: %s %s %s</title></circle>',
                                         se.key, round((px0 + q.x1 / smax * (px1 - px0))::numeric, 1),
                                         round((pb - q.v / pdiv / pmax * ph)::numeric, 1), se.color,
                                         q.second, se.label, trim_scale(round((q.v / pdiv)::numeric, 3)), punit),
                                  '' ORDER BY q.second) AS dots
                FROM ROWS FROM (jsonb_to_recordset(pn.series) AS (key text, label text, color text, dash text))
                     WITH ORDINALITY AS se(key, label, color, dash, o)
                JOIN jsonb_to_recordset(pn.rows) AS q(second int, x1 float8, key text, v float8) ON q.key = se.key
                GROUP BY se.key, se.label, se.color, se.dash, se.o
                ORDER BY se.o
            LOOP
                svg := svg || format(E'\n<polyline class="series" data-key="%s" points="%s" fill="none" stroke="%s" stroke-width="1.5"%s stroke-linejoin="round"/>',
                                     sr.key, sr.points, sr.color,
                                     CASE WHEN sr.dash <> '' THEN format(' stroke-dasharray="%s"', sr.dash) ELSE '' END)
                    || CASE WHEN sr.n <= 60 THEN sr.dots ELSE '' END;
            END LOOP;
        END IF;
        svg := svg || format(E'\n<path class="panel-axis" d="M%s %sV%sH%s" fill="none" stroke="#333333"/>', px0, pt, pb, px1);

        -- the legend, in a row under the panel
        lx := px0;
        FOR sr IN
            SELECT se.label, se.color, se.dash
            FROM ROWS FROM (jsonb_to_recordset(pn.series) AS (label text, color text, dash text))
                 WITH ORDINALITY AS se(label, color, dash, o)
            ORDER BY se.o
        LOOP
            svg := svg || CASE WHEN pn.kind = 'stack'
                               THEN format(E'\n<rect x="%s" y="%s" width="12" height="12" fill="%s"/>', lx, pb + 26, sr.color)
                               ELSE format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"%s/>',
                                           lx - 6, pb + 32, lx + 14, pb + 32, sr.color,
                                           CASE WHEN sr.dash <> '' THEN format(' stroke-dasharray="%s"', sr.dash) ELSE '' END) END
                || format('<text class="panel-legend" x="%s" y="%s">%s</text>', lx + 18, pb + 36,
                          pgbenchx.xml_escape(left(sr.label, 40)));
            lx := lx + 40 + 7 * length(left(sr.label, 40));
        END LOOP;
        svg := svg || E'\n</g>';
    END LOOP;

    RETURN svg || E'\n</svg>\n';
END $$;

CREATE FUNCTION pgbenchx.chart_waits(sweep_id bigint) RETURNS text
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
DECLARE
    w constant float8 := 900;
    px0 constant float8 := 90;
    px1 constant float8 := 810;
    py0 constant float8 := 70;
    py1 constant float8 := 370;
    sw record;
    counts int[];
    n int;
    slot float8;
    bw float8;
    xc float8;
    h float8;
    svg text;
    bars text;
    legend text := '';
    agg jsonb;
    lx float8;
    ly float8;
    t record;
    c record;
    i int;
BEGIN
    IF chart_waits.sweep_id IS NULL THEN
        RAISE EXCEPTION 'argument "sweep_id" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'chart_waits draws the wait events of one sweep.',
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;
    SELECT * INTO sw FROM pgbenchx.sweeps x WHERE x.sweep_id = chart_waits.sweep_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no sweep has id %', chart_waits.sweep_id
            USING ERRCODE = 'undefined_object',
                  DETAIL = CASE WHEN EXISTS (SELECT 1 FROM pgbenchx.runs r WHERE r.run_id = chart_waits.sweep_id)
                                THEN format('Id %s is a run, not a sweep: pgbenchx.chart_run(%s) draws its wait events over time.',
                                            chart_waits.sweep_id, chart_waits.sweep_id)
                                ELSE format('pgbenchx.sweeps has no row with sweep_id %s.', chart_waits.sweep_id) END,
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweeps lists the sweeps.';
    END IF;

    -- the client counts planned and run, in order
    SELECT array_agg(DISTINCT q.c ORDER BY q.c) INTO counts
    FROM (SELECT unnest(sw.clients) AS c
          UNION SELECT r.clients FROM pgbenchx.runs r WHERE r.sweep_id = chart_waits.sweep_id) q
    WHERE q.c IS NOT NULL;
    counts := coalesce(counts, '{}');
    n := greatest(cardinality(counts), 1);
    slot := (px1 - px0) / n;
    bw := least(60, slot * 0.6);

    -- per client count and type: the samples of its completed runs; the
    -- types in order, CPU first and then the most sampled
    SELECT coalesce(jsonb_agg(jsonb_build_object('clients', q.clients, 'key', q.key, 'n', q.n, 'o', q.o)), '[]')
    INTO agg
    FROM (SELECT q0.*, dense_rank() OVER (ORDER BY q0.key <> 'CPU', q0.total DESC, q0.key) AS o
    FROM (SELECT r.clients, ws.wait_event_type AS key, sum(ws.samples)::float8 AS n,
                 sum(sum(ws.samples)) OVER (PARTITION BY ws.wait_event_type) AS total
          FROM pgbenchx.runs r
          JOIN pgbenchx.wait_samples ws ON ws.run_id = r.run_id
          WHERE r.sweep_id = chart_waits.sweep_id AND r.status = 'completed' AND ws.samples > 0
          GROUP BY r.clients, ws.wait_event_type) q0) q;

    -- the legend's rows, to size the picture
    lx := px0; ly := py1 + 70;
    FOR t IN SELECT DISTINCT q.key, q.o FROM jsonb_to_recordset(agg) AS q(key text, o int) ORDER BY q.o LOOP
        IF lx + 30 + 7 * length(left(t.key, 40)) > px1 + 60 THEN
            lx := px0; ly := ly + 22;
        END IF;
        legend := legend
            || format(E'\n<rect x="%s" y="%s" width="12" height="12" fill="%s"/><text class="legend" x="%s" y="%s">%s</text>',
                      lx, ly - 11, pgbenchx.chart_wait_color(t.key, t.o), lx + 18, ly, pgbenchx.xml_escape(left(t.key, 40)));
        lx := lx + 40 + 7 * length(left(t.key, 40));
    END LOOP;
    h := ly + 24;

    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || E'\n<title>wait events of the client backends by number of clients</title>'
        || format(E'\n<rect width="%s" height="%s" fill="#ffffff"/>', w, h)
        || format(E'\n<text class="title" x="%s" y="28" text-anchor="middle" font-size="17" font-weight="bold">Wait events by number of clients: %s</text>',
                  w / 2, pgbenchx.xml_escape(coalesce(sw.label, 'sweep ' || sw.sweep_id)))
        || format(E'\n<text class="subtitle" x="%s" y="48" text-anchor="middle" fill="#555555">%s</text>',
                  w / 2, pgbenchx.xml_escape(concat_ws(', ', 'sweep ' || sw.sweep_id, 'script ' || sw.script,
                                                       sw.duration || ' s per run',
                                                       'share of the client backends'' sampled time, completed runs')));

    -- grid and ticks: 0 to 100 %
    FOR i IN 0 .. 4 LOOP
        svg := svg || format(E'\n<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0"/>'
                             '<text class="tick-y" x="%s" y="%s" text-anchor="end" fill="#333333">%s%%</text>',
                   px0, py1 - i * (py1 - py0) / 4, px1, py1 - i * (py1 - py0) / 4,
                   px0 - 6, py1 - i * (py1 - py0) / 4 + 4, 25 * i);
    END LOOP;

    -- a bar per client count; each type from the running total of those
    -- below it, so that a bar's parts add up to the plot's height
    FOR i IN 1 .. cardinality(counts) LOOP
        xc := px0 + slot * (i - 0.5);
        svg := svg || format(E'\n<text class="tick-x" x="%s" y="%s" text-anchor="middle" fill="#333333">%s</text>',
                             round(xc::numeric, 1), py1 + 18, counts[i]);
        SELECT string_agg(format(E'\n<rect class="bar" data-clients="%s" data-key="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s %s: %s %s%% (%s samples)</title></rect>',
                                 counts[i], pgbenchx.xml_escape(b.key), round((xc - bw / 2)::numeric, 1), b.yhi, round(bw::numeric, 1),
                                 b.ylo - b.yhi, pgbenchx.chart_wait_color(b.key, b.o),
                                 counts[i], CASE WHEN counts[i] = 1 THEN 'client' ELSE 'clients' END,
                                 pgbenchx.xml_escape(b.key), round((100 * b.share)::numeric, 1), b.n::bigint),
                          '' ORDER BY b.o)
        INTO bars
        FROM (SELECT q.key, q.o, q.n, q.n / sum(q.n) OVER () AS share,
                     round((py1 - (sum(q.n) OVER wo - q.n) / sum(q.n) OVER () * (py1 - py0))::numeric, 1) AS ylo,
                     round((py1 - sum(q.n) OVER wo / sum(q.n) OVER () * (py1 - py0))::numeric, 1) AS yhi
              FROM jsonb_to_recordset(agg) AS q(clients int, key text, n float8, o int) WHERE q.clients = counts[i]
              WINDOW wo AS (ORDER BY q.o ROWS UNBOUNDED PRECEDING)) b
        WHERE b.ylo > b.yhi;
        svg := svg || coalesce(bars, format(E'\n<text class="no-data" x="%s" y="%s" text-anchor="middle" fill="#555555">no samples</text>',
                                            round(xc::numeric, 1), py1 - 8));
    END LOOP;

    svg := svg || format(E'\n<path class="axis" d="M%s %sV%sH%s" fill="none" stroke="#333333"/>', px0, py0, py1, px1)
        || format(E'\n<text class="axis-title" x="%s" y="%s" text-anchor="middle">clients</text>', (px0 + px1) / 2, py1 + 40)
        || format(E'\n<text class="axis-title" transform="translate(%s %s) rotate(-90)" text-anchor="middle">share of sampled time</text>',
                  24, (py0 + py1) / 2);
    RETURN svg || legend || E'\n</svg>\n';
END $$;

REVOKE ALL ON FUNCTION pgbenchx.chart_wait_color(text, int) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.chart_waits(bigint) FROM PUBLIC;

-- EXECUTE for the runners who had pgbenchx.wait: 90_runner_grants.sql
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


-- export and import carry the histograms (base64 in the document; a
-- document without them imports with NULL); re-created in full
CREATE OR REPLACE FUNCTION pgbenchx.export(sweep_ids bigint[])
RETURNS jsonb
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
DECLARE
    ids bigint[];
    missing bigint[];
    running bigint;
BEGIN
    IF sweep_ids IS NULL OR cardinality(sweep_ids) = 0 THEN
        RAISE EXCEPTION '%', CASE WHEN sweep_ids IS NULL THEN 'argument "sweep_ids" must not be null'
                                  ELSE 'argument "sweep_ids" must not be empty' END
            USING ERRCODE = CASE WHEN sweep_ids IS NULL THEN 'null_value_not_allowed' ELSE 'invalid_parameter_value' END,
                  DETAIL = 'sweep_ids must name at least one sweep.',
                  HINT = 'Pass ARRAY[sweep_id, ...]; SELECT sweep_id, label FROM pgbenchx.sweep_summary lists them.';
    END IF;
    IF array_position(sweep_ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'argument "sweep_ids" must not contain NULL'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Pass only the sweep_id of existing sweeps.';
    END IF;
    SELECT array_agg(u.id ORDER BY u.first) INTO ids
    FROM (SELECT x.id, min(x.ord) AS first
          FROM unnest(sweep_ids) WITH ORDINALITY x(id, ord) GROUP BY x.id) u;
    SELECT array_agg(x ORDER BY x) INTO missing
    FROM unnest(ids) x WHERE NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps s WHERE s.sweep_id = x);
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION '%', CASE WHEN cardinality(missing) = 1 THEN 'no sweep has id ' || missing[1]
                                   ELSE 'no sweeps have ids ' || array_to_string(missing, ', ') END
            USING ERRCODE = 'undefined_object',
                  DETAIL = 'Only sweeps can be exported, with all their runs.',
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweep_summary lists the sweeps.';
    END IF;
    SELECT s.sweep_id INTO running FROM pgbenchx.sweeps s
    WHERE s.sweep_id = ANY (ids) AND s.status = 'running' ORDER BY 1 LIMIT 1;
    IF running IS NOT NULL THEN
        RAISE EXCEPTION 'sweep % is still running', running
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'An export holds finished sweeps only: what it holds must not change after it is taken.',
                  HINT = format('CALL pgbenchx.wait(%s), then export it.', running);
    END IF;

    RETURN jsonb_build_object(
        'format', 'pgbenchx-export',
        'format_version', 1,
        'provenance', jsonb_build_object(
            'system_identifier', (SELECT c.system_identifier::text FROM pg_catalog.pg_control_system() c),
            'database', current_database(),
            'exported_at', now(),
            'pgbenchx_version', (SELECT x.extversion FROM pg_catalog.pg_extension x WHERE x.extname = 'pgbenchx'),
            'server_version', current_setting('server_version')),
        'environments', coalesce((
            SELECT jsonb_agg(to_jsonb(e) ORDER BY e.environment_id)
            FROM pgbenchx.environments e
            WHERE e.environment_id IN (
                SELECT s.environment_id FROM pgbenchx.sweeps s WHERE s.sweep_id = ANY (ids)
                UNION
                SELECT r.environment_id FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids))), '[]'),
        'sweeps', (
            SELECT jsonb_agg(to_jsonb(s) ORDER BY array_position(ids, s.sweep_id))
            FROM pgbenchx.sweeps s WHERE s.sweep_id = ANY (ids)),
        'runs', coalesce((
            SELECT jsonb_agg(to_jsonb(r) || jsonb_build_object('latency_hist', translate(encode(r.latency_hist, 'base64'), E'\n', ''))
                             ORDER BY r.run_id)
            FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids)), '[]'),
        'samples', coalesce((
            SELECT jsonb_agg(to_jsonb(x) || jsonb_build_object('latency_hist', translate(encode(x.latency_hist, 'base64'), E'\n', ''))
                             ORDER BY x.run_id, x.second)
            FROM pgbenchx.samples x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'statement_stats', coalesce((
            SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.script, x.command)
            FROM pgbenchx.statement_stats x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'imports', coalesce((
            SELECT jsonb_agg(jsonb_build_object(
                       'sweep_id', i.sweep_id, 'run_id', i.run_id,
                       'origin_system_identifier', i.origin_system_identifier::text,
                       'origin_database', i.origin_database,
                       'origin_id', i.origin_id)
                   ORDER BY i.sweep_id, i.run_id)
            FROM pgbenchx.imports i
            WHERE i.sweep_id = ANY (ids)
               OR i.run_id IN (SELECT r.run_id FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids))), '[]'),
        'system_samples', coalesce((
            SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.second)
            FROM pgbenchx.system_samples x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'wait_samples', coalesce((
            SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.second, x.wait_event_type, x.wait_event)
            FROM pgbenchx.wait_samples x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'));
END $$;

CREATE OR REPLACE FUNCTION pgbenchx.import(doc jsonb)
RETURNS bigint[]
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    prov jsonb;
    src_sysid bigint;
    src_db text;
    k text;
    want text;
    req text[];
    bad record;
    e jsonb;
    o jsonb;
    lo numeric;
    hi numeric;
    nullable boolean;
    strict_lo boolean;
    imports_by_sweep jsonb;
    imports_by_run jsonb;
    old_ids text[] := '{}';
    new_ids bigint[] := '{}';
    new_id bigint;
    existing bigint;
    env_cols text;
    env_map jsonb := '{}';
    sweep_map jsonb := '{}';
    run_map jsonb := '{}';
    result bigint[] := '{}';
    hint_export CONSTANT text := 'Pass the jsonb that pgbenchx.export() returned, unchanged.';
BEGIN
    -- the document as a whole
    IF doc IS NULL THEN
        RAISE EXCEPTION 'argument "doc" must not be null'
            USING ERRCODE = 'null_value_not_allowed', HINT = hint_export;
    END IF;
    IF jsonb_typeof(doc) <> 'object' THEN
        RAISE EXCEPTION 'the import document must be a JSON object, not %', jsonb_typeof(doc)
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    IF doc->'format' IS DISTINCT FROM '"pgbenchx-export"' THEN
        RAISE EXCEPTION 'not a pgbenchx export document'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format('Its key "format" is %s, not "pgbenchx-export".', coalesce((doc->'format')::text, 'missing')),
                  HINT = hint_export;
    END IF;
    IF doc->'format_version' IS DISTINCT FROM '1' THEN
        RAISE EXCEPTION 'unsupported export format version %', coalesce((doc->'format_version')::text, '(missing)')
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'This pgbenchx reads format version 1.',
                  HINT = 'Export the sweeps again with this version of pgbenchx, or import them with the version that exported them.';
    END IF;
    FOREACH k IN ARRAY ARRAY['provenance', 'environments', 'sweeps', 'runs', 'samples', 'statement_stats'] LOOP
        IF NOT doc ? k THEN
            RAISE EXCEPTION 'the import document lacks the key "%"', k
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = 'A pgbenchx export holds provenance, environments, sweeps, runs, samples and statement_stats.',
                      HINT = hint_export;
        END IF;
        want := CASE k WHEN 'provenance' THEN 'object' ELSE 'array' END;
        IF jsonb_typeof(doc->k) <> want THEN
            RAISE EXCEPTION 'key "%" of the import document must be an %, not %', k, want, jsonb_typeof(doc->k)
                USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
        END IF;
    END LOOP;
    FOREACH k IN ARRAY ARRAY['imports', 'system_samples', 'wait_samples'] LOOP
        IF doc ? k AND jsonb_typeof(doc->k) <> 'array' THEN
            RAISE EXCEPTION 'key "%" of the import document must be an array, not %', k, jsonb_typeof(doc->k)
                USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
        END IF;
    END LOOP;
    prov := doc->'provenance';
    IF coalesce(prov->>'system_identifier', '') !~ '^[0-9]{1,20}$'
       OR jsonb_typeof(prov->'database') IS DISTINCT FROM 'string' THEN
        RAISE EXCEPTION 'the provenance of the import document is incomplete'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'provenance needs "system_identifier" (digits) and "database" (a string): where the results come from.',
                  HINT = hint_export;
    END IF;
    src_sysid := (prov->>'system_identifier')::numeric::bigint;
    src_db := prov->>'database';
    IF jsonb_array_length(doc->'sweeps') = 0 THEN
        RAISE EXCEPTION 'the import document holds no sweep'
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;

    -- every element: an object with the keys it needs
    FOR k, req IN VALUES
        ('environments', ARRAY['environment_id', 'env_hash']),
        ('sweeps', ARRAY['sweep_id', 'status', 'script', 'clients', 'started_at']),
        ('runs', ARRAY['run_id', 'sweep_id', 'status', 'script', 'clients', 'jobs', 'started_at']),
        ('samples', ARRAY['run_id', 'second', 'transactions']),
        ('statement_stats', ARRAY['run_id', 'script', 'command', 'command_text', 'executions']),
        ('system_samples', ARRAY['run_id', 'second']),
        ('wait_samples', ARRAY['run_id', 'second', 'wait_event_type', 'wait_event', 'samples'])
    LOOP
        SELECT x.i, x.e, key INTO bad
        FROM jsonb_array_elements(coalesce(doc->k, '[]')) WITH ORDINALITY x(e, i)
        LEFT JOIN LATERAL unnest(req) key
            ON jsonb_typeof(x.e) = 'object' AND coalesce(jsonb_typeof(x.e->key), 'null') = 'null'
        WHERE jsonb_typeof(x.e) <> 'object' OR key IS NOT NULL
        ORDER BY x.i LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'element % of "%" in the import document %', bad.i, k,
                  CASE WHEN jsonb_typeof(bad.e) <> 'object' THEN 'is not an object'
                       WHEN bad.e ? bad.key THEN format('has a null "%s"', bad.key)
                       ELSE format('lacks the key "%s"', bad.key) END
                USING ERRCODE = CASE WHEN jsonb_typeof(bad.e) = 'object' AND bad.e ? bad.key
                                     THEN 'null_value_not_allowed' ELSE 'invalid_parameter_value' END,
                      DETAIL = format('Each element of "%s" needs %s.', k, array_to_string(req, ', ')),
                      HINT = hint_export;
        END IF;
    END LOOP;

    -- references inside the document, and nothing unfinished
    SELECT x->>'sweep_id' AS id INTO bad FROM jsonb_array_elements(doc->'sweeps') x
    GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'sweep % appears twice in the import document', bad.id
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    SELECT x->>'run_id' AS id INTO bad FROM jsonb_array_elements(doc->'runs') x
    GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'run % appears twice in the import document', bad.id
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    SELECT 'sweep' AS what, x->>'sweep_id' AS id INTO bad FROM jsonb_array_elements(doc->'sweeps') x
    WHERE x->>'status' = 'running'
    UNION ALL
    SELECT 'run', x->>'run_id' FROM jsonb_array_elements(doc->'runs') x
    WHERE x->>'status' = 'running'
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% % of the import document is still running', bad.what, bad.id
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Only finished sweeps and runs can be imported.',
                  HINT = 'Export the sweep again once it has finished.';
    END IF;
    SELECT format('run %s names sweep %s', x->>'run_id', x->>'sweep_id') AS what INTO bad
    FROM jsonb_array_elements(doc->'runs') x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'sweeps') s WHERE s->'sweep_id' = x->'sweep_id')
    UNION ALL
    SELECT format('a sample names run %s', x->>'run_id') FROM jsonb_array_elements(doc->'samples') x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a statement_stats row names run %s', x->>'run_id') FROM jsonb_array_elements(doc->'statement_stats') x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a system_samples row names run %s', x->>'run_id') FROM jsonb_array_elements(coalesce(doc->'system_samples', '[]')) x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a wait_samples row names run %s', x->>'run_id') FROM jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('%s names environment %s', coalesce('run ' || (x->>'run_id'), 'sweep ' || (x->>'sweep_id')), x->>'environment_id')
    FROM (SELECT s FROM jsonb_array_elements(doc->'sweeps') s
          UNION ALL SELECT r - 'sweep_id' FROM jsonb_array_elements(doc->'runs') r) y(x)
    WHERE coalesce(jsonb_typeof(x->'environment_id'), 'null') <> 'null'
      AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'environments') v WHERE v->'environment_id' = x->'environment_id')
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'the import document is inconsistent: % that it does not hold', bad.what
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;

    -- every value one that a run could have produced (nullable: true, it may
    -- be null or absent; NULL, it may be absent), refused with the
    -- errcodes of the bad-input table before anything is loaded: integers
    -- in range (22004 null, 22023 not an integer or too small, 22003 too
    -- large), client lists, statuses, protocols, tags, timestamps.  Each
    -- check is one pass over its array: the time grows linearly.
    FOR k, want, lo, hi, nullable IN VALUES
        ('environments', 'environment_id', 1, 9223372036854775807, false),
        ('sweeps', 'sweep_id', 1, 9223372036854775807, false),
        ('sweeps', 'environment_id', 1, 9223372036854775807, true),
        ('sweeps', 'duration', 1, 2147483647, true),
        ('sweeps', 'transactions', 1, 9223372036854775807, true),
        ('sweeps', 'jobs', 1, 2147483647, true),
        ('sweeps', 'repeats', 1, 256, true),
        ('runs', 'run_id', 1, 9223372036854775807, false),
        ('runs', 'sweep_id', 1, 9223372036854775807, false),
        ('runs', 'environment_id', 1, 9223372036854775807, true),
        ('runs', 'clients', 1, 100000, false),
        ('runs', 'jobs', 1, 100000, false),
        ('runs', 'duration', 1, 2147483647, true),
        ('runs', 'transactions_per_client', 1, 9223372036854775807, true),
        ('runs', 'scale', 1, 2147483647, true),
        ('runs', 'repeat', 1, 256, true),
        ('runs', 'max_tries', 0, 2147483647, true),
        ('runs', 'transactions', 0, 9223372036854775807, true),
        ('runs', 'failed', 0, 9223372036854775807, true),
        ('runs', 'aborted_clients', 0, 100000, true),
        ('runs', 'serialization_failures', 0, 9223372036854775807, true),
        ('runs', 'deadlock_failures', 0, 9223372036854775807, true),
        ('runs', 'retried', 0, 9223372036854775807, true),
        ('runs', 'retries', 0, 9223372036854775807, true),
        ('runs', 'skipped', 0, 9223372036854775807, true),
        ('runs', 'late', 0, 9223372036854775807, true),
        ('runs', 'checkpoints', 0, 2147483647, true),
        ('runs', 'autovacuums', 0, 2147483647, true),
        ('runs', 'samples_lost', 0, 2147483647, true),
        ('runs', 'samples_lost_transactions', 0, 9223372036854775807, true),
        ('samples', 'run_id', 1, 9223372036854775807, false),
        ('samples', 'second', 1, 2147483647, false),
        ('samples', 'transactions', 0, 9223372036854775807, false),
        ('samples', 'failed', 0, 9223372036854775807, NULL),
        ('statement_stats', 'run_id', 1, 9223372036854775807, false),
        ('statement_stats', 'command', 1, 2147483647, false),
        ('statement_stats', 'executions', 0, 9223372036854775807, false),
        ('statement_stats', 'failures', 0, 9223372036854775807, NULL),
        ('statement_stats', 'retries', 0, 9223372036854775807, NULL),
        ('system_samples', 'run_id', 1, 9223372036854775807, false),
        ('system_samples', 'second', 1, 2147483647, false),
        ('system_samples', 'data_reads', 0, 9223372036854775807, true),
        ('system_samples', 'data_read_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'data_writes', 0, 9223372036854775807, true),
        ('system_samples', 'data_write_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_reads', 0, 9223372036854775807, true),
        ('system_samples', 'wal_read_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_writes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_write_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_records', 0, 9223372036854775807, true),
        ('system_samples', 'wal_fpi', 0, 9223372036854775807, true),
        ('system_samples', 'wal_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_write', 0, 9223372036854775807, true),
        ('system_samples', 'wal_sync', 0, 9223372036854775807, true),
        ('system_samples', 'blks_hit', 0, 9223372036854775807, true),
        ('system_samples', 'blks_read', 0, 9223372036854775807, true),
        ('system_samples', 'temp_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'deadlocks', 0, 9223372036854775807, true),
        ('system_samples', 'buffers_checkpoint', 0, 9223372036854775807, true),
        ('system_samples', 'buffers_clean', 0, 9223372036854775807, true),
        ('system_samples', 'buffers_backend', 0, 9223372036854775807, true),
        ('system_samples', 'checkpoints_begun', 0, 2147483647, true),
        ('system_samples', 'checkpoints_done', 0, 2147483647, true),
        ('wait_samples', 'run_id', 1, 9223372036854775807, false),
        ('wait_samples', 'second', 1, 2147483647, false),
        ('wait_samples', 'samples', 0, 2147483647, false)
    LOOP
        SELECT x.i, x.e->want AS v INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->k, '[]')) WITH ORDINALITY x(e, i)
        WHERE NOT ((coalesce(nullable, false) AND coalesce(pg_catalog.jsonb_typeof(x.e->want), 'null') = 'null')
                   OR (nullable IS NULL AND NOT x.e ? want)
                   OR (pg_catalog.jsonb_typeof(x.e->want) = 'number'
                       AND (x.e->>want) OPERATOR(pg_catalog.~) '^-?[0-9]+$'
                       AND (x.e->>want)::numeric OPERATOR(pg_catalog.>=) lo
                       AND (x.e->>want)::numeric OPERATOR(pg_catalog.<=) hi))
        ORDER BY x.i LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION '"%" of element % of "%" in the import document is %', want, bad.i, k,
                  CASE WHEN coalesce(pg_catalog.jsonb_typeof(bad.v), 'null') = 'null' THEN 'null'
                       WHEN pg_catalog.jsonb_typeof(bad.v) <> 'number' OR bad.v::text !~ '^-?[0-9]+$'
                           THEN 'not an integer: ' || pg_catalog.left(bad.v::text, 40)
                       WHEN bad.v::text::numeric < lo THEN pg_catalog.format('%s, below %s', bad.v, lo)
                       ELSE pg_catalog.format('%s, above %s', bad.v, hi) END
                USING ERRCODE = CASE WHEN coalesce(pg_catalog.jsonb_typeof(bad.v), 'null') = 'null' THEN '22004'
                                     WHEN pg_catalog.jsonb_typeof(bad.v) = 'number' AND bad.v::text ~ '^-?[0-9]+$'
                                          AND bad.v::text::numeric > hi THEN '22003'
                                     ELSE '22023' END,
                      DETAIL = pg_catalog.format('"%s" of "%s" is an integer from %s to %s%s.', want, k, lo, hi,
                                                 CASE WHEN nullable THEN ', or null'
                                                      WHEN nullable IS NULL THEN ', or absent' ELSE '' END),
                      HINT = hint_export;
        END IF;
    END LOOP;
    -- a sweep's clients: a one-dimensional list of 1 to 256 client counts
    SELECT y.i, y.why, y.code INTO bad FROM (
        SELECT x.i,
               CASE WHEN pg_catalog.jsonb_typeof(x.e->'clients') <> 'array' THEN 'is not an array'
                    WHEN pg_catalog.jsonb_array_length(x.e->'clients') = 0 THEN 'is empty'
                    WHEN pg_catalog.jsonb_array_length(x.e->'clients') > 256 THEN 'has more than 256 client counts'
                    ELSE (SELECT CASE pg_catalog.jsonb_typeof(c) WHEN 'array' THEN 'is multidimensional'
                                      WHEN 'null' THEN 'holds a NULL'
                                      ELSE 'holds ' || pg_catalog.left(c::text, 40) || ', not a client count from 1 to 100000' END
                          FROM pg_catalog.jsonb_array_elements(x.e->'clients') c
                          WHERE pg_catalog.jsonb_typeof(c) IS DISTINCT FROM 'number' OR c::text !~ '^[0-9]+$'
                             OR c::text::numeric NOT BETWEEN 1 AND 100000
                          LIMIT 1) END AS why,
               CASE WHEN pg_catalog.jsonb_typeof(x.e->'clients') = 'array'
                         AND pg_catalog.jsonb_array_length(x.e->'clients') > 0 THEN
                   (SELECT CASE WHEN pg_catalog.jsonb_typeof(c) = 'array' THEN '2202E'
                                WHEN pg_catalog.jsonb_typeof(c) = 'null' THEN '22004'
                                WHEN pg_catalog.jsonb_typeof(c) = 'number' AND c::text ~ '^[0-9]+$' THEN '22003'
                                ELSE '22023' END
                    FROM pg_catalog.jsonb_array_elements(x.e->'clients') c
                    WHERE pg_catalog.jsonb_typeof(c) IS DISTINCT FROM 'number' OR c::text !~ '^[0-9]+$'
                       OR c::text::numeric NOT BETWEEN 1 AND 100000
                    LIMIT 1) END AS code
        FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY x(e, i)) y
    WHERE y.why IS NOT NULL ORDER BY y.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"clients" of element % of "sweeps" in the import document %', bad.i, bad.why
            USING ERRCODE = coalesce(bad.code, '22023'),
                  DETAIL = 'A sweep''s clients are a one-dimensional list of 1 to 256 client counts, each from 1 to 100000.',
                  HINT = hint_export;
    END IF;
    -- a sample's covered_s: the seconds it covered, above 0; absent in a
    -- document from pgbenchx 0.2, where every sample reads as a whole second
    SELECT x.i, x.e->'covered_s' AS v INTO bad
    FROM pg_catalog.jsonb_array_elements(doc->'samples') WITH ORDINALITY x(e, i)
    WHERE x.e ? 'covered_s'
      AND NOT (pg_catalog.jsonb_typeof(x.e->'covered_s') = 'number'
               AND (x.e->>'covered_s')::numeric OPERATOR(pg_catalog.>) 0
               AND (x.e->>'covered_s')::numeric OPERATOR(pg_catalog.<=) 86400)
    ORDER BY x.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"covered_s" of element % of "samples" in the import document is %', bad.i,
              CASE WHEN pg_catalog.jsonb_typeof(bad.v) = 'null' THEN 'null'
                   WHEN pg_catalog.jsonb_typeof(bad.v) <> 'number' THEN 'not a number: ' || pg_catalog.left(bad.v::text, 40)
                   WHEN bad.v::text::numeric <= 0 THEN pg_catalog.format('%s, not above 0', bad.v)
                   ELSE pg_catalog.format('%s, above 86400', bad.v) END
            USING ERRCODE = CASE WHEN pg_catalog.jsonb_typeof(bad.v) = 'null' THEN '22004'
                                 WHEN pg_catalog.jsonb_typeof(bad.v) = 'number' AND bad.v::text::numeric > 86400 THEN '22003'
                                 ELSE '22023' END,
                  DETAIL = '"covered_s" of "samples" is a number of seconds above 0, at most 86400, or absent (read as 1).',
                  HINT = hint_export;
    END IF;
    -- the measured figures of issue 13: numbers in their range, or null
    -- (strict_lo: above lo, not equal to it), and the texts and lists of
    -- the wait samples and of the runs' new columns
    FOR k, want, lo, hi, strict_lo IN VALUES
        ('runs', 'wait_sample_hz', 0, 1e9, false),
        ('runs', 'wal_bytes_per_tx', 0, 1e15, false),
        ('runs', 'blocks_read_per_tx', 0, 1e15, false),
        ('runs', 'blocks_written_per_tx', 0, 1e15, false),
        ('runs', 'server_cpu_ms_per_tx', 0, 1e15, false),
        ('runs', 'driver_cpu_ms_per_tx', 0, 1e15, false),
        ('runs', 'iowait_avg', 0, 1, false),
        ('system_samples', 'covered_s', 0, 86400, true),
        ('system_samples', 'cpu_user', 0, 1, false),
        ('system_samples', 'cpu_system', 0, 1, false),
        ('system_samples', 'cpu_iowait', 0, 1, false),
        ('system_samples', 'cpu_steal', 0, 1, false),
        ('system_samples', 'cpu_idle', 0, 1, false),
        ('system_samples', 'driver_cpu_s', 0, 1e9, false),
        ('system_samples', 'backend_cpu_s', 0, 1e9, false),
        ('system_samples', 'data_await_ms', 0, 1e15, false),
        ('system_samples', 'data_queue', 0, 1e15, false),
        ('system_samples', 'wal_await_ms', 0, 1e15, false),
        ('system_samples', 'wal_queue', 0, 1e15, false)
    LOOP
        SELECT x.i, x.e->want AS v INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->k, '[]')) WITH ORDINALITY x(e, i)
        WHERE coalesce(pg_catalog.jsonb_typeof(x.e->want), 'null') <> 'null'
          AND NOT (pg_catalog.jsonb_typeof(x.e->want) = 'number'
                   AND (x.e->>want)::numeric OPERATOR(pg_catalog.>=) lo
                   AND (x.e->>want)::numeric OPERATOR(pg_catalog.<=) hi
                   AND NOT (strict_lo AND (x.e->>want)::numeric OPERATOR(pg_catalog.=) lo))
        ORDER BY x.i LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION '"%" of element % of "%" in the import document is %', want, bad.i, k,
                  CASE WHEN pg_catalog.jsonb_typeof(bad.v) <> 'number' THEN 'not a number: ' || pg_catalog.left(bad.v::text, 40)
                       WHEN bad.v::text::numeric < lo THEN pg_catalog.format('%s, below %s', bad.v, lo)
                       WHEN bad.v::text::numeric = lo THEN pg_catalog.format('%s, not above %s', bad.v, lo)
                       ELSE pg_catalog.format('%s, above %s', bad.v, hi) END
                USING ERRCODE = CASE WHEN pg_catalog.jsonb_typeof(bad.v) = 'number' AND bad.v::text::numeric > hi
                                     THEN '22003' ELSE '22023' END,
                      DETAIL = pg_catalog.format('"%s" of "%s" is a number %s, or null.', want, k,
                                                 CASE WHEN strict_lo THEN pg_catalog.format('of seconds above %s, at most %s', lo, hi)
                                                      ELSE pg_catalog.format('from %s to %s', lo, hi) END),
                      HINT = hint_export;
        END IF;
    END LOOP;
    SELECT y.what, y.v INTO bad FROM (
        SELECT pg_catalog.format('"%s" of element %s of "wait_samples"', f.key, x.i) AS what, x.e->f.key AS v,
               pg_catalog.jsonb_typeof(x.e->f.key) = 'string' AND pg_catalog.length(x.e->>f.key) BETWEEN 1 AND 64 AS ok
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) WITH ORDINALITY x(e, i),
             (VALUES ('wait_event_type'), ('wait_event')) f(key)
        UNION ALL
        SELECT pg_catalog.format('"%s" of element %s of "runs"', f.key, x.i), x.e->f.key,
               coalesce(pg_catalog.jsonb_typeof(x.e->f.key), 'null') = 'null'
               OR CASE f.key
                    WHEN 'record_system' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'boolean'
                    WHEN 'verdict' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'string'
                    WHEN 'system_notes' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'array'
                         AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(x.e->f.key) n
                                         WHERE pg_catalog.jsonb_typeof(n) <> 'string')
                    ELSE pg_catalog.jsonb_typeof(x.e->f.key) = 'array'
                         AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(x.e->f.key) n
                                         WHERE pg_catalog.jsonb_typeof(n) <> 'object'
                                            OR pg_catalog.jsonb_typeof(n->'share') IS DISTINCT FROM 'number'
                                            OR pg_catalog.jsonb_typeof(n->'wait_event_type') IS DISTINCT FROM 'string'
                                            OR pg_catalog.jsonb_typeof(n->'wait_event') IS DISTINCT FROM 'string') END
        FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY x(e, i),
             (VALUES ('record_system'), ('verdict'), ('system_notes'), ('top_waits')) f(key)) y
    WHERE NOT y.ok LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not valid: %', bad.what, pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A wait sample''s wait_event_type and wait_event are texts of 1 to 64 characters; a run''s record_system a boolean, verdict a text, system_notes a list of texts and top_waits a list of {"wait_event_type", "wait_event", "share"}, each or null.',
                  HINT = hint_export;
    END IF;
    -- latency histograms (absent from a 0.2 document): base64 text or null,
    -- and bytes that pgbenchx.latency_percentile decodes (src/histcodec.h)
    SELECT y.what, y.v INTO bad FROM (
        SELECT pg_catalog.format('"latency_hist" of element %s of "%s"', x.i, x.k) AS what, x.e->'latency_hist' AS v
        FROM (SELECT 'runs' AS k, r.i, r.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY r(e, i)
              UNION ALL
              SELECT 'samples', s.i, s.e FROM pg_catalog.jsonb_array_elements(doc->'samples') WITH ORDINALITY s(e, i)) x
        WHERE coalesce(pg_catalog.jsonb_typeof(x.e->'latency_hist'), 'null') NOT IN ('string', 'null')) y
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not valid: %', bad.what, pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A latency histogram is the base64 text of its bytes, or null.',
                  HINT = hint_export;
    END IF;
    DECLARE
        why text;
    BEGIN
        PERFORM pgbenchx.latency_percentile(pg_catalog.decode(x->>'latency_hist', 'base64'), 100)
        FROM (SELECT r FROM pg_catalog.jsonb_array_elements(doc->'runs') r
              UNION ALL
              SELECT s FROM pg_catalog.jsonb_array_elements(doc->'samples') s) y(x)
        WHERE pg_catalog.jsonb_typeof(x->'latency_hist') = 'string';
    EXCEPTION WHEN invalid_parameter_value OR invalid_binary_representation THEN
        GET STACKED DIAGNOSTICS why = PG_EXCEPTION_DETAIL;
        RAISE EXCEPTION 'a latency histogram of the import document is not valid'
            USING ERRCODE = 'invalid_binary_representation',
                  DETAIL = coalesce(nullif(why, ''), SQLERRM || '.'),
                  HINT = hint_export;
    END;
    -- statuses, protocols and tags as a run records them
    SELECT y.k, y.i, y.key, y.v INTO bad FROM (
        SELECT 'sweeps' AS k, x.i, x.e FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY x(e, i)
        UNION ALL
        SELECT 'runs', x.i, x.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY x(e, i)) z,
        LATERAL (SELECT z.k, z.i, f.key, z.e->f.key AS v FROM (VALUES ('status'), ('protocol'), ('tags')) f(key)) y
    WHERE CASE y.key
            WHEN 'status' THEN coalesce(y.v->>0, '') NOT IN ('completed', 'cancelled', 'failed', 'aborted')
                               OR pg_catalog.jsonb_typeof(y.v) <> 'string'
            WHEN 'protocol' THEN coalesce(pg_catalog.jsonb_typeof(y.v), 'null') <> 'null'
                               AND (pg_catalog.jsonb_typeof(y.v) <> 'string'
                                    OR y.v->>0 NOT IN ('simple', 'extended', 'prepared'))
            ELSE coalesce(pg_catalog.jsonb_typeof(y.v), 'null') NOT IN ('null', 'object') END
    ORDER BY y.k DESC, y.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"%" of element % of "%" in the import document is not valid: %', bad.key, bad.i, bad.k,
              pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A status is completed, cancelled, failed or aborted; a protocol simple, extended or prepared; tags a JSON object.',
                  HINT = hint_export;
    END IF;
    -- timestamps: finite, and timestamps
    BEGIN
        SELECT y.what, y.t INTO bad FROM (
            SELECT pg_catalog.format('"%s" of element %s of "%s"', f.key, x.i, x.k) AS what, x.e->f.key AS t
            FROM (SELECT 'sweeps' AS k, s.i, s.e FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY s(e, i)
                  UNION ALL
                  SELECT 'runs', r.i, r.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY r(e, i)) x,
                 (VALUES ('started_at'), ('finished_at')) f(key)
            UNION ALL
            SELECT '"exported_at" of the provenance', prov->'exported_at') y
        WHERE coalesce(pg_catalog.jsonb_typeof(y.t), 'null') NOT IN ('string', 'null')
           OR (pg_catalog.jsonb_typeof(y.t) = 'string' AND NOT pg_catalog.isfinite((y.t->>0)::timestamptz))
        LIMIT 1;
    EXCEPTION WHEN data_exception THEN
        RAISE EXCEPTION 'a timestamp of the import document is not valid: %', SQLERRM
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'started_at, finished_at and exported_at are finite timestamps.',
                  HINT = hint_export;
    END;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not a finite timestamp: %', bad.what, pg_catalog.left(bad.t::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'started_at, finished_at and exported_at are finite timestamps.',
                  HINT = hint_export;
    END IF;
    -- one sample per second of a run, one row per command
    SELECT pg_catalog.format('second %s of run %s', x->>'second', x->>'run_id') AS what INTO bad
    FROM pg_catalog.jsonb_array_elements(doc->'samples') x
    GROUP BY x->'run_id', x->'second', x->>'second', x->>'run_id' HAVING count(*) > 1 LIMIT 1;
    IF NOT FOUND THEN
        SELECT pg_catalog.format('command %s of script %s of run %s', x->>'command', x->>'script', x->>'run_id') AS what INTO bad
        FROM pg_catalog.jsonb_array_elements(doc->'statement_stats') x
        GROUP BY x->'run_id', x->'script', x->'command', x->>'command', x->>'script', x->>'run_id'
        HAVING count(*) > 1 LIMIT 1;
    END IF;
    IF NOT FOUND THEN
        SELECT pg_catalog.format('the system sample of second %s of run %s', x->>'second', x->>'run_id') AS what INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'system_samples', '[]')) x
        GROUP BY x->'run_id', x->'second', x->>'second', x->>'run_id' HAVING count(*) > 1 LIMIT 1;
    END IF;
    IF NOT FOUND THEN
        SELECT pg_catalog.format('wait event %s:%s of second %s of run %s', x->>'wait_event_type', x->>'wait_event',
                                 x->>'second', x->>'run_id') AS what INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) x
        GROUP BY x->'run_id', x->'second', x->'wait_event_type', x->'wait_event',
                 x->>'wait_event_type', x->>'wait_event', x->>'second', x->>'run_id'
        HAVING count(*) > 1 LIMIT 1;
    END IF;
    IF FOUND THEN
        RAISE EXCEPTION '% appears twice in the import document', bad.what
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    -- the imports of the document, each origin found by key (hashed, once)
    SELECT pg_catalog.jsonb_object_agg(i->>'sweep_id', i) FILTER (WHERE i->>'sweep_id' IS NOT NULL),
           pg_catalog.jsonb_object_agg(i->>'run_id', i) FILTER (WHERE i->>'run_id' IS NOT NULL)
    INTO imports_by_sweep, imports_by_run
    FROM (SELECT DISTINCT ON (coalesce(i->>'sweep_id', ''), coalesce(i->>'run_id', '')) i
          FROM pg_catalog.jsonb_array_elements(coalesce(doc->'imports', '[]')) WITH ORDINALITY x(i, n)
          WHERE pg_catalog.jsonb_typeof(i) = 'object'
          ORDER BY coalesce(i->>'sweep_id', ''), coalesce(i->>'run_id', ''), n) d;

    -- one import at a time, so that two loading the same sweeps cannot both add them
    LOCK TABLE pgbenchx.imports IN SHARE ROW EXCLUSIVE MODE;

    -- environments: reuse the one with the same env_hash, else add it under a
    -- new id, with the columns the element has (the others take their defaults)
    FOR e IN SELECT x FROM jsonb_array_elements(doc->'environments') x LOOP
        SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO env_cols
        FROM pg_catalog.pg_attribute a
        WHERE a.attrelid = 'pgbenchx.environments'::regclass AND a.attnum > 0
          AND NOT a.attisdropped AND a.attname <> 'environment_id' AND e ? a.attname;
        EXECUTE format('INSERT INTO pgbenchx.environments (%1$s) SELECT %1$s '
                       'FROM jsonb_populate_record(NULL::pgbenchx.environments, $1) '
                       'ON CONFLICT (env_hash) DO NOTHING', env_cols) USING e;
        SELECT v.environment_id INTO new_id FROM pgbenchx.environments v WHERE v.env_hash = e->>'env_hash';
        old_ids := pg_catalog.array_append(old_ids, e->>'environment_id');
        new_ids := pg_catalog.array_append(new_ids, new_id);
    END LOOP;
    -- the maps are built once (appending to a jsonb would copy it every time)
    SELECT coalesce(pg_catalog.jsonb_object_agg(o_id, n_id), '{}') INTO env_map
    FROM ROWS FROM (pg_catalog.unnest(old_ids), pg_catalog.unnest(new_ids)) m(o_id, n_id);
    old_ids := '{}';
    new_ids := '{}';

    -- sweeps: an origin already imported maps to its existing sweep
    FOR e IN SELECT x FROM jsonb_array_elements(doc->'sweeps') x LOOP
        o := coalesce(
            imports_by_sweep->(e->>'sweep_id'),
            jsonb_build_object('origin_system_identifier', src_sysid::text, 'origin_database', src_db,
                               'origin_id', e->'sweep_id'));
        SELECT i.sweep_id INTO existing FROM pgbenchx.imports i
        WHERE i.origin_system_identifier = (o->>'origin_system_identifier')::numeric::bigint
          AND i.origin_database = o->>'origin_database'
          AND i.origin_id = (o->>'origin_id')::bigint;
        IF FOUND THEN
            result := result || existing;
            CONTINUE;
        END IF;
        new_id := nextval('pgbenchx.id_seq');
        INSERT INTO pgbenchx.sweeps
        SELECT r.* FROM jsonb_populate_record(NULL::pgbenchx.sweeps,
            '{"repeats": 1}' || e || jsonb_build_object(
                'sweep_id', new_id, 'coordinator_pid', NULL, 'owner', pgbenchx.caller_role(),
                'environment_id', env_map->(e->>'environment_id'))) r;
        INSERT INTO pgbenchx.imports (origin_system_identifier, origin_database, origin_id, sweep_id,
                                      exported_from_system_identifier, exported_from_database,
                                      exported_at, exported_pgbenchx_version)
        VALUES ((o->>'origin_system_identifier')::numeric::bigint, o->>'origin_database',
                (o->>'origin_id')::bigint, new_id, src_sysid, src_db,
                (prov->>'exported_at')::timestamptz, prov->>'pgbenchx_version');
        old_ids := pg_catalog.array_append(old_ids, e->>'sweep_id');
        new_ids := pg_catalog.array_append(new_ids, new_id);
        result := result || new_id;
    END LOOP;
    SELECT coalesce(pg_catalog.jsonb_object_agg(o_id, n_id), '{}') INTO sweep_map
    FROM ROWS FROM (pg_catalog.unnest(old_ids), pg_catalog.unnest(new_ids)) m(o_id, n_id);
    old_ids := '{}';
    new_ids := '{}';

    -- the runs of the sweeps added, their samples and per-statement latencies
    FOR e IN SELECT x FROM jsonb_array_elements(doc->'runs') x
             WHERE sweep_map ? (x->>'sweep_id') ORDER BY (x->>'run_id')::bigint LOOP
        o := coalesce(
            imports_by_run->(e->>'run_id'),
            jsonb_build_object('origin_system_identifier', src_sysid::text, 'origin_database', src_db,
                               'origin_id', e->'run_id'));
        new_id := nextval('pgbenchx.id_seq');
        INSERT INTO pgbenchx.runs
        SELECT r.* FROM jsonb_populate_record(NULL::pgbenchx.runs,
            '{"protocol": "simple", "repeat": 1}' || e || jsonb_build_object(
                'latency_hist', '\x' || encode(decode(e->>'latency_hist', 'base64'), 'hex'),
                'run_id', new_id, 'sweep_id', sweep_map->(e->>'sweep_id'), 'coordinator_pid', NULL,
                'owner', pgbenchx.caller_role(),
                'environment_id', env_map->(e->>'environment_id'))) r;
        INSERT INTO pgbenchx.imports (origin_system_identifier, origin_database, origin_id, run_id,
                                      exported_from_system_identifier, exported_from_database,
                                      exported_at, exported_pgbenchx_version)
        VALUES ((o->>'origin_system_identifier')::numeric::bigint, o->>'origin_database',
                (o->>'origin_id')::bigint, new_id, src_sysid, src_db,
                (prov->>'exported_at')::timestamptz, prov->>'pgbenchx_version');
        old_ids := pg_catalog.array_append(old_ids, e->>'run_id');
        new_ids := pg_catalog.array_append(new_ids, new_id);
    END LOOP;
    SELECT coalesce(pg_catalog.jsonb_object_agg(o_id, n_id), '{}') INTO run_map
    FROM ROWS FROM (pg_catalog.unnest(old_ids), pg_catalog.unnest(new_ids)) m(o_id, n_id);
    INSERT INTO pgbenchx.samples
    SELECT r.* FROM jsonb_array_elements(doc->'samples') x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.samples,
             '{"failed": 0, "covered_s": 1}' || x || jsonb_build_object('run_id', run_map->(x->>'run_id'),
                 'latency_hist', '\x' || encode(decode(x->>'latency_hist', 'base64'), 'hex'))) r
    WHERE run_map ? (x->>'run_id');
    INSERT INTO pgbenchx.statement_stats
    SELECT r.* FROM jsonb_array_elements(doc->'statement_stats') x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.statement_stats,
             '{"failures": 0, "retries": 0}' || x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');
    -- what the machine and the server did (absent from a 0.2 document: none)
    INSERT INTO pgbenchx.system_samples
    SELECT r.* FROM jsonb_array_elements(coalesce(doc->'system_samples', '[]')) x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.system_samples,
             x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');
    INSERT INTO pgbenchx.wait_samples
    SELECT r.* FROM jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.wait_samples,
             x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');

    RETURN result;
END $$;

-- EXECUTE for the runners who had pgbenchx.wait: 90_runner_grants.sql

/*
 * 90_runner_grants: the routines 0.3 adds, for the roles that already run
 * benchmarks.  grant_runner gives a runner EXECUTE on every routine of the
 * extension; a runner granted under 0.2 holds EXECUTE on pgbenchx.wait, and
 * gets the new routines here, as grant_runner would have given them.  A
 * GRANT in an extension script is recorded in pg_init_privs as the
 * extension's own initial privilege, which pg_dump does not dump: the
 * initial privileges are put back to what a fresh CREATE EXTENSION records
 * (each routine's REVOKE ... FROM PUBLIC), so that pg_dump keeps these
 * grants as the user's.  (The entry points, dropped and re-created by
 * 63_explain_sql.sql, and sweep_report and compare, by 20_samples.sql, get
 * back the grants they had there.)
 */
DO $$
DECLARE
    g    record;
    f    pg_catalog.regprocedure;
    init pg_catalog.aclitem[];
BEGIN
    FOREACH f IN ARRAY ARRAY['pgbenchx.report(bigint)',
                             'pgbenchx.progress_state()',
                             'pgbenchx.explain_run(bigint)',
                             'pgbenchx.explain_compare(bigint, bigint)',
                             'pgbenchx.explain_times(float8)',
                             'pgbenchx.chart_wait_color(text, int)',
                             'pgbenchx.chart_waits(bigint)',
                             'pgbenchx.latency_percentile(bytea, float8)',
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
