-- report: pgbenchx.report(id) on fixed rows written straight into the
-- result tables (no benchmark runs here): pgbench 15's end-of-run summary
-- for a lone run (one script, then a weighted mix with -R, -L and
-- --max-tries), a replay in qpm, a sweep's table with its peak, a run that
-- did not complete, and the errors; then pgbench 18's words for the mix, a
-- run whose transactions all failed and a run that counted nothing.  Each
-- run names the environment it ran in, whose version() gives the pgbench
-- that words it, so that the output is the same on every major.  The
-- side-by-side with stock pgbench is test/t/040_report_like_pgbench.pl.
\i sql/include/common.sql
-- the report as a reader sees it, without psql's table around it
\pset format unaligned
\pset tuples_only on

INSERT INTO pgbenchx.environments (environment_id, env_hash, pg_version)
VALUES (910015, 'report test 15', 'PostgreSQL 15.20 (Debian 15.20-0+deb12u1) on x86_64-pc-linux-gnu'),
       (910018, 'report test 18', 'PostgreSQL 18.6 on x86_64-pc-linux-gnu');

-- a lone tpcb-like run of 10 s, 4 clients, 2 jobs, with its statements
INSERT INTO pgbenchx.runs (environment_id, run_id, status, script, protocol, scale, clients, jobs, duration,
    transactions, failed, tps, tps_incl_conn, latency_avg_ms, latency_stddev_ms,
    latency_p50_ms, latency_p90_ms, latency_p95_ms, latency_p99_ms, latency_max_ms,
    conn_time_ms, driver_cpu_s, bench_duration_s, max_tries, connect_per_transaction,
    retried, retries, skipped, late, script_stats)
VALUES (910015, 910001, 'completed', 'tpcb-like', 'simple', 1, 4, 2, 10,
    29963, 0, 2996.2941634, 2994.1, 1.33149, 0.75051,
    1.2, 2.1, 2.6, 3.9195, 21.03,
    7.0214, 19.1, 10.0, 1, false,
    0, 0, 0, 0, '[{"transactions": 29963, "failed": 0, "retried": 0, "retries": 0, "skipped": 0, "latency_avg_ms": 1.33149, "latency_stddev_ms": 0.75051}]');
INSERT INTO pgbenchx.statement_stats (run_id, script, command, command_text, executions, latency_avg_ms)
SELECT 910001, 'tpcb-like', n, t, 29963, l
FROM unnest(ARRAY['\set aid random(1, 100000 * :scale)', 'BEGIN;',
                  'UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;', 'END;'],
            ARRAY[NULL, 0.1104, 0.3986, 0.6504]::float8[]) WITH ORDINALITY u(t, l, n);
SELECT pgbenchx.report(910001);

-- -t 50 per client, a weighted mix, -R 200 -L 5, --max-tries 3, -M prepared,
-- one failure and one retry; driver CPU above 90 % of the jobs' time
INSERT INTO pgbenchx.runs (environment_id, run_id, status, script, protocol, scale, clients, jobs,
    transactions_per_client, transactions, failed, tps, tps_incl_conn, latency_avg_ms,
    latency_stddev_ms, latency_p50_ms, latency_p90_ms, latency_p95_ms, latency_p99_ms,
    latency_max_ms, conn_time_ms, driver_cpu_s, bench_duration_s, rate, latency_limit_ms,
    max_tries, connect_per_transaction, serialization_failures, deadlock_failures,
    retried, retries, skipped, late, lag_avg_ms, lag_max_ms, script_stats)
VALUES (910015, 910002, 'completed', 'simple-update@2, mine@3', 'prepared', 1, 2, 1,
    50, 97, 1, 194.0, 190.5, 4.1284, 3.93, 3.0, 7.5, 9.25, 14.0005, 18.5,
    10.2185, 0.95, 1.0, 200, 5, 3, false, 1, 0, 1, 2, 2, 7, 1.2041, 9.8144,
    '[{"transactions": 40, "failed": 1, "retried": 1, "retries": 2, "skipped": 2, "latency_avg_ms": 7.2121, "latency_stddev_ms": 3.2845},
      {"transactions": 57, "failed": 0, "retried": 0, "retries": 0, "skipped": 0, "latency_avg_ms": 1.6045, "latency_stddev_ms": 2.2614}]');
INSERT INTO pgbenchx.statement_stats (run_id, script, command, command_text, executions, latency_avg_ms, failures, retries)
VALUES (910002, 'simple-update', 1, '\set aid random(1, 100000 * :scale)', 43, NULL, 0, 0),
       (910002, 'simple-update', 2, 'UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;', 43, 0.3371, 1, 2),
       (910002, 'mine', 1, 'SELECT 1;', 57, 0.6132, 0, 0);
SELECT pgbenchx.report(910002);

-- a mix recorded before runs.script_stats existed (0.2): no per-script figures
INSERT INTO pgbenchx.runs (environment_id, run_id, status, script, protocol, scale, clients, jobs, duration,
    transactions, failed, tps, tps_incl_conn, latency_avg_ms, latency_stddev_ms, conn_time_ms,
    max_tries, connect_per_transaction)
VALUES (910015, 910003, 'completed', 'tpcb-like@1, select-only@1', 'extended', 2, 1, 1, 5,
    1000, 0, 200.0, 199.0, 5.0, 1.0, 3.0, 1, false);
SELECT pgbenchx.report(910003);

-- a replay: statements and qpm
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients)
VALUES (910100, 'completed', 'replay', '{2}');
INSERT INTO pgbenchx.runs (environment_id, run_id, sweep_id, status, script, protocol, clients, jobs, transactions,
    failed, tps, tps_incl_conn, latency_avg_ms, latency_stddev_ms, latency_p50_ms, latency_p90_ms,
    latency_p95_ms, latency_p99_ms, latency_max_ms, conn_time_ms, driver_cpu_s, bench_duration_s,
    replay, qpm)
VALUES (910015, 910101, 910100, 'completed', 'replay', 'simple', 2, 1, 4, 2, 400.5, 112.4, 2.3504, 3.7381,
    0.179, 8.823, 8.823, 8.823, 8.823, 25.606, 0.004, 0.00996, true, 36140.949704);
SELECT pgbenchx.report(910101);
SELECT pgbenchx.report(910100);

-- a sweep of three runs (1, 2 and 4 clients); the peak is at 2
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration)
VALUES (910200, 'completed', 'select-only', '{1,2,4}', 10);
INSERT INTO pgbenchx.runs (environment_id, run_id, sweep_id, status, script, protocol, clients, jobs, duration,
    transactions, failed, tps, tps_incl_conn, latency_avg_ms, latency_p99_ms)
VALUES (910015, 910201, 910200, 'completed', 'select-only', 'simple', 1, 1, 10, 21739, 0, 2173.9130434, 2170.1, 0.4401, 5.2784),
       (910015, 910202, 910200, 'completed', 'select-only', 'simple', 2, 1, 10, 33772, 0, 3377.2374203, 3370.9, 0.3675, 4.4125),
       (910015, 910203, 910200, 'completed', 'select-only', 'simple', 4, 2, 10, 30395, 3, 3039.5, 3031.25, 1.3150, 9.9195);
SELECT pgbenchx.report(910200);

-- a cancelled sweep: its last run cancelled, with nothing measured
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, error)
VALUES (910300, 'cancelled', 'tpcb-like', '{1,2}', 10, 'cancelled by pgbenchx.cancel');
INSERT INTO pgbenchx.runs (environment_id, run_id, sweep_id, status, script, protocol, scale, clients, jobs, duration,
    transactions, failed, error)
VALUES (910015, 910301, 910300, 'cancelled', 'tpcb-like', 'simple', 1, 1, 1, 10, 0, 0, 'cancelled by pgbenchx.cancel');
SELECT pgbenchx.report(910300);
SELECT pgbenchx.report(910301);

-- pgbench 18's words: the mix above (a script's transactions count its
-- failed and skipped ones, its processed count and tps on their own line;
-- one space after the failures and retries columns), a run whose every
-- transaction failed (18 goes on past the failed line), and one that
-- counted nothing (18 stops before it)
INSERT INTO pgbenchx.runs
SELECT (jsonb_populate_record(r, '{"run_id": 910004, "environment_id": 910018}')).*
FROM pgbenchx.runs r WHERE r.run_id = 910002;
INSERT INTO pgbenchx.statement_stats (run_id, script, command, command_text, executions, latency_avg_ms, failures, retries)
SELECT 910004, script, command, command_text, executions, latency_avg_ms, failures, retries
FROM pgbenchx.statement_stats WHERE run_id = 910002;
SELECT pgbenchx.report(910004);
INSERT INTO pgbenchx.runs (environment_id, run_id, status, script, protocol, scale, clients, jobs,
    transactions_per_client, transactions, failed, serialization_failures, tps, tps_incl_conn,
    conn_time_ms, bench_duration_s, max_tries, connect_per_transaction, retried, retries, skipped, late)
VALUES (910018, 910005, 'completed', 'tpcb-like', 'extended', 1, 2, 1, 3, 0, 6, 6, 0, 0,
    2.5, 0.02, 1, false, 0, 0, 0, 0),
       (910018, 910006, 'failed', 'tpcb-like', 'extended', 1, 2, 1, 3, 0, 0, 0, 0, 0,
    2.5, 0.02, 1, false, 0, 0, 0, 0);
SELECT pgbenchx.report(910005);
SELECT pgbenchx.report(910006);

-- errors: an unknown id, NULL
SELECT pgbx_try('SELECT pgbenchx.report(919999)');
SELECT pgbx_try('SELECT pgbenchx.report(NULL)');

DELETE FROM pgbenchx.sweeps WHERE sweep_id IN (910100, 910200, 910300);
DELETE FROM pgbenchx.runs WHERE run_id IN (910001, 910002, 910003, 910004, 910005, 910006);
DELETE FROM pgbenchx.environments WHERE environment_id IN (910015, 910018);
