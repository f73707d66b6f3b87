/*
 * src/sql/47_explain.sql: pgbenchx.explain_run(run_id), the per-run
 * figures of pgbenchx.runs (wal_bytes_per_tx ... top_waits) and its
 * verdict, derived from system_samples, wait_samples and the run's own
 * totals.  Stateless: every upgrade script re-creates it in full.
 * pgbenchx.explain_compare, which compares two sweeps by these figures, is
 * in 50_compare.sql beside compare.
 */

/*
 * explain_run(run_id): computes and stores the run's per-transaction
 * figures, its average iowait, its top wait events and its verdict, and
 * returns the verdict (NULL when no limit is evident).  The coordinator
 * calls it as the extension's owner at the end of every run, in the
 * transaction that writes the run's final row (src/results/results.c);
 * the owner may call it again to recompute, after an import for example.
 * A run recorded with record_system => false, or before 0.3
 * (record_system NULL), gets NULL figures.
 *
 * The figures: per transaction (runs.transactions; a replay's statements),
 * the sums over the run's seconds of system_samples.wal_bytes, blks_read,
 * buffers_checkpoint + buffers_clean + buffers_backend, backend_cpu_s and
 * driver_cpu_s (runs.driver_cpu_s when the seconds have none); iowait_avg,
 * cpu_iowait averaged over the seconds weighted by covered_s; top_waits,
 * the five (wait_event_type, wait_event) with the most samples, each as a
 * share of all the samples of the run's client backends, largest first.
 *
 * The verdict: the first of these rules that holds, with the figure that
 * shows it (the thresholds are the constants below, documented in
 * docs/why.md):
 *   locks           Lock waits take at least lock_share_min of the sampled time
 *   LWLocks         LWLock waits take at least lock_share_min
 *   load generator  the driver workers' CPU reaches driver_share_min of a core per job
 *   I/O             IO waits take at least lock_share_min; or iowait_avg
 *                   reaches iowait_min; or the data or WAL device's average
 *                   queue depth reaches queue_min
 *   CPU             the machine's average idle share is below idle_max
 *   load generator  Client:ClientRead (the backends waiting for the next
 *                   statement) dominates: at least clientread_share_min
 * Caller: the extension's owner (it writes pgbenchx.runs).
 */
CREATE OR REPLACE FUNCTION pgbenchx.explain_run(run_id bigint) RETURNS text
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
