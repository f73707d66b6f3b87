-- Why the numbers are what they are (issue 13), on fixed rows inserted
-- directly: pgbenchx.explain_run's figures per transaction, top waits and
-- verdict (each case: locks, LWLocks, load generator by driver CPU and by
-- Client:ClientRead, I/O by IO waits, iowait and queue depth, CPU, none,
-- and record_system => false), report's line and its sweep table's limit
-- column, sweep_points' medians, explain_compare's ratios and sentence,
-- and export/import of system_samples, wait_samples and the runs' new
-- columns, with a document of 0.2 that has none of them.
\i sql/include/common.sql

DELETE FROM pgbenchx.imports;
DELETE FROM pgbenchx.sweeps;
DELETE FROM pgbenchx.runs;
SELECT setval('pgbenchx.id_seq', 5000) IS NOT NULL AS seq_set;

-- sweep 501: one run per verdict case, 10 s, 1 job, 1000 transactions
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, started_at, finished_at)
VALUES (501, 'completed', 'tpcb-like', '{1,2,3,4,5,6,7,8,9,10}', 10, '2024-05-01 10:00:00+00', '2024-05-01 10:02:00+00');
CREATE TEMP TABLE cases (run_id bigint, clients int, record_system boolean, driver_s float8,
                         idle float8, iowait float8, data_queue float8, wal_queue float8);
INSERT INTO cases VALUES
    (511, 1, true, 0.20, 0.40, 0.01, 0.1, 0.2),   -- locks
    (512, 2, true, 0.20, 0.40, 0.01, 0.1, 0.2),   -- LWLocks
    (513, 3, true, 0.95, 0.40, 0.01, 0.1, 0.2),   -- load generator: driver CPU
    (514, 4, true, 0.20, 0.40, 0.01, 0.1, 0.2),   -- I/O: IO waits
    (515, 5, true, 0.20, 0.30, 0.30, 0.1, 0.2),   -- I/O: iowait
    (516, 6, true, 0.20, 0.40, 0.01, 0.5, 3.5),   -- I/O: WAL queue depth
    (517, 7, true, 0.20, 0.02, 0.01, 0.1, 0.2),   -- CPU
    (518, 8, true, 0.20, 0.40, 0.01, 0.1, 0.2),   -- load generator: ClientRead
    (519, 9, true, 0.20, 0.40, 0.01, 0.1, 0.2),   -- none evident
    (520, 10, false, 0.95, 0.02, 0.30, 0.1, 0.2); -- record_system => false: nothing
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, started_at,
                           transactions, failed, tps, bench_duration_s, driver_cpu_s, record_system)
SELECT c.run_id, 501, 'completed', 'tpcb-like', c.clients, 1, 10, '2024-05-01 10:00:00+00',
       1000, 0, 100, 10, 10 * c.driver_s, c.record_system
FROM cases c;
-- per second: 1000 WAL bytes, 50 blocks read, 5 + 3 + 2 written, 0.4 s of
-- backend CPU (so 10 bytes, 0.5 and 0.1 blocks, 4 ms per transaction)
INSERT INTO pgbenchx.system_samples (run_id, second, covered_s, cpu_user, cpu_system, cpu_iowait,
                                     cpu_steal, cpu_idle, driver_cpu_s, backend_cpu_s,
                                     data_queue, wal_queue, wal_bytes, blks_hit, blks_read,
                                     buffers_checkpoint, buffers_clean, buffers_backend)
SELECT c.run_id, s, 1, greatest(0, 0.9 - c.idle - c.iowait), 0.1, c.iowait, 0, c.idle, c.driver_s, 0.4,
       c.data_queue, c.wal_queue, 1000, 900, 50, 5, 3, 2
FROM cases c, generate_series(1, 10) s;
-- run 519's last second covered half a second and had no iowait figure
UPDATE pgbenchx.system_samples SET covered_s = 0.5, cpu_iowait = NULL WHERE run_id = 519 AND second = 10;
-- 100 samples a second, by case
INSERT INTO pgbenchx.wait_samples (run_id, second, wait_event_type, wait_event, samples)
SELECT w.run_id, s, w.t, w.e, w.n
FROM (VALUES (511, 'Lock', 'transactionid', 60), (511, 'Lock', 'tuple', 10), (511, 'CPU', 'on CPU', 20), (511, 'Client', 'ClientRead', 10),
             (512, 'LWLock', 'WALWrite', 45), (512, 'LWLock', 'BufferContent', 10), (512, 'CPU', 'on CPU', 45),
             (513, 'CPU', 'on CPU', 40), (513, 'Client', 'ClientRead', 45), (513, 'LWLock', 'WALWrite', 15),
             (514, 'IO', 'WALSync', 40), (514, 'IO', 'DataFileRead', 15), (514, 'CPU', 'on CPU', 45),
             (515, 'CPU', 'on CPU', 60), (515, 'Client', 'ClientRead', 40),
             (516, 'CPU', 'on CPU', 60), (516, 'Client', 'ClientRead', 40),
             (517, 'CPU', 'on CPU', 60), (517, 'Client', 'ClientRead', 40),
             (518, 'CPU', 'on CPU', 20), (518, 'Client', 'ClientRead', 75), (518, 'Lock', 'tuple', 5),
             (519, 'CPU', 'on CPU', 55), (519, 'Client', 'ClientRead', 35), (519, 'LWLock', 'WALWrite', 4),
             (519, 'LWLock', 'WALInsert', 3), (519, 'IO', 'WALSync', 2), (519, 'Lock', 'tuple', 1),
             (520, 'Lock', 'transactionid', 90), (520, 'CPU', 'on CPU', 10)) w(run_id, t, e, n),
     generate_series(1, 10) s;

SELECT c.run_id, pgbenchx.explain_run(c.run_id) AS verdict FROM cases c ORDER BY c.run_id;
-- the figures stored: per transaction, iowait (weighted by covered_s), top waits
SELECT run_id, wal_bytes_per_tx, blocks_read_per_tx, blocks_written_per_tx,
       round(server_cpu_ms_per_tx::numeric, 6) AS server_cpu_ms_per_tx,
       round(driver_cpu_ms_per_tx::numeric, 6) AS driver_cpu_ms_per_tx,
       round(iowait_avg::numeric, 4) AS iowait_avg, verdict
FROM pgbenchx.runs WHERE sweep_id = 501 ORDER BY run_id;
SELECT jsonb_pretty(top_waits) FROM pgbenchx.runs WHERE run_id = 519;
SELECT run_id, jsonb_array_length(top_waits) AS top_n, top_waits->0 AS first FROM pgbenchx.runs
WHERE sweep_id = 501 ORDER BY run_id;
-- driver CPU per second missing: runs.driver_cpu_s stands in
UPDATE pgbenchx.system_samples SET driver_cpu_s = NULL WHERE run_id = 513;
UPDATE pgbenchx.runs SET driver_cpu_s = 9.6 WHERE run_id = 513;
SELECT pgbenchx.explain_run(513) AS verdict_from_run_total;
SELECT round(driver_cpu_ms_per_tx::numeric, 6) AS driver_ms FROM pgbenchx.runs WHERE run_id = 513;
UPDATE pgbenchx.runs SET driver_cpu_s = 5 WHERE run_id = 513;
SELECT pgbenchx.explain_run(513) AS verdict_below_threshold;
-- no transactions: no figure per transaction, the rest stays
UPDATE pgbenchx.runs SET transactions = 0 WHERE run_id = 517;
SELECT pgbenchx.explain_run(517) AS verdict;
SELECT wal_bytes_per_tx, server_cpu_ms_per_tx, round(iowait_avg::numeric, 4) AS iowait_avg
FROM pgbenchx.runs WHERE run_id = 517;
UPDATE pgbenchx.runs SET transactions = 1000 WHERE run_id = 517;
SELECT pgbenchx.explain_run(517) IS NOT NULL AS again;
-- a run from before 0.3 (record_system NULL): nothing, even with rows
UPDATE pgbenchx.runs SET record_system = NULL WHERE run_id = 520;
SELECT pgbenchx.explain_run(520) AS verdict;
SELECT wal_bytes_per_tx, top_waits, verdict FROM pgbenchx.runs WHERE run_id = 520;
UPDATE pgbenchx.runs SET record_system = false WHERE run_id = 520;

-- the mistakes
SELECT pgbx_try('SELECT pgbenchx.explain_run(NULL)');
SELECT pgbx_try('SELECT pgbenchx.explain_run(999999)');
SELECT pgbx_try('SELECT pgbenchx.explain_run(501)');
INSERT INTO pgbenchx.runs (run_id, status, script, clients, jobs, record_system) VALUES (530, 'running', 'tpcb-like', 1, 1, true);
SELECT pgbx_try('SELECT pgbenchx.explain_run(530)');
DELETE FROM pgbenchx.runs WHERE run_id = 530;
CREATE ROLE explain_runner;
SELECT pgbenchx.grant_runner('explain_runner');
SET ROLE explain_runner;
SELECT pgbx_try('SELECT pgbenchx.explain_run(511)');
SELECT verdict FROM pgbenchx.runs WHERE run_id = 511;
RESET ROLE;
SELECT pgbenchx.revoke_runner('explain_runner');
DROP ROLE explain_runner;

-- report: the line with the verdict and the figures, the top waits
SELECT substring(pgbenchx.report(511) FROM '-- pgbenchx --.*$') AS report_511;
SELECT substring(pgbenchx.report(519) FROM '-- pgbenchx --.*$') AS report_519;
SELECT substring(pgbenchx.report(520) FROM '-- pgbenchx --.*$') AS report_520;
-- record_system true but nothing recorded
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, started_at,
                           transactions, failed, tps, bench_duration_s, record_system)
VALUES (521, 501, 'completed', 'tpcb-like', 11, 1, 10, '2024-05-01 10:00:00+00', 1000, 0, 100, 10, true);
SELECT pgbenchx.explain_run(521) AS verdict;
SELECT substring(pgbenchx.report(521) FROM '-- pgbenchx --.*$') AS report_521;
-- a sweep's table gains a column "limit"
SELECT pgbenchx.report(501);

-- comparing: sweeps 503 and 504 at 4 clients (and 8 in 504 only); 504
-- writes 1.8 times the WAL per transaction and waits three times as long
-- on LWLock:WALWrite
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, started_at, finished_at)
VALUES (503, 'completed', 'tpcb-like', '{4}', 10, '2024-05-02 10:00:00+00', '2024-05-02 10:01:00+00'),
       (504, 'completed', 'tpcb-like', '{4,8}', 10, '2024-05-03 10:00:00+00', '2024-05-03 10:01:00+00'),
       (505, 'completed', 'tpcb-like', '{4}', 10, '2024-05-04 10:00:00+00', '2024-05-04 10:01:00+00');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, started_at,
                           transactions, failed, tps, bench_duration_s, driver_cpu_s, record_system, repeat)
VALUES (541, 503, 'completed', 'tpcb-like', 4, 1, 10, '2024-05-02 10:00:00+00', 1000, 0, 100, 10, 2, true, 1),
       (542, 504, 'completed', 'tpcb-like', 4, 1, 10, '2024-05-03 10:00:00+00', 1000, 0, 100, 10, 2, true, 1),
       (543, 504, 'completed', 'tpcb-like', 8, 1, 10, '2024-05-03 10:00:30+00', 1000, 0, 100, 10, 2, true, 1),
       (544, 505, 'completed', 'tpcb-like', 4, 1, 10, '2024-05-04 10:00:00+00', 1000, 0, 100, 10, 2, false, 1);
INSERT INTO pgbenchx.system_samples (run_id, second, covered_s, cpu_iowait, cpu_idle, backend_cpu_s, wal_bytes, blks_read,
                                     buffers_checkpoint, buffers_clean, buffers_backend)
SELECT r.run_id, s, 1, 0.10, 0.5, 0.5, CASE WHEN r.run_id = 541 THEN 1000 ELSE 1800 END, 100, 1, 1, 1
FROM (VALUES (541), (542), (543)) r(run_id), generate_series(1, 10) s;
INSERT INTO pgbenchx.wait_samples (run_id, second, wait_event_type, wait_event, samples)
SELECT w.run_id, s, w.t, w.e, w.n
FROM (VALUES (541, 'CPU', 'on CPU', 80), (541, 'LWLock', 'WALWrite', 4), (541, 'Client', 'ClientRead', 16),
             (542, 'CPU', 'on CPU', 72), (542, 'LWLock', 'WALWrite', 12), (542, 'Client', 'ClientRead', 16),
             (543, 'CPU', 'on CPU', 72), (543, 'LWLock', 'WALWrite', 12), (543, 'Client', 'ClientRead', 16)) w(run_id, t, e, n),
     generate_series(1, 10) s;
SELECT count(pgbenchx.explain_run(r.run_id)) AS verdicts FROM pgbenchx.runs r WHERE r.run_id IN (541, 542, 543, 544);
SELECT sweep_id, clients, wal_bytes_per_tx, blocks_read_per_tx, blocks_written_per_tx, server_cpu_ms_per_tx,
       driver_cpu_ms_per_tx, round(iowait_avg::numeric, 4) AS iowait_avg
FROM pgbenchx.sweep_points WHERE sweep_id IN (503, 504, 505) ORDER BY 1, 2;
SELECT * FROM pgbenchx.explain_compare(503, 504);
SELECT clients, explanation FROM pgbenchx.explain_compare(504, 503);
SELECT clients, explanation FROM pgbenchx.explain_compare(503, 503);
SELECT clients, wal_per_tx_ratio, explanation FROM pgbenchx.explain_compare(503, 505);
SELECT pgbx_try('SELECT * FROM pgbenchx.explain_compare(NULL, 503)');
SELECT pgbx_try('SELECT * FROM pgbenchx.explain_compare(503, 541)');

-- what is not worth a word: a client backend idle for its client
-- (Client:ClientRead) is not the wait that explains a difference, and a
-- figure negligible on both sides (0.3 against 0.45 WAL bytes per
-- transaction) is not named; a wait that vanishes is said so
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, started_at, finished_at)
VALUES (506, 'completed', 'tpcb-like', '{4}', 10, '2024-05-05 10:00:00+00', '2024-05-05 10:01:00+00'),
       (507, 'completed', 'tpcb-like', '{4}', 10, '2024-05-06 10:00:00+00', '2024-05-06 10:01:00+00'),
       (508, 'completed', 'select-only', '{4}', 10, '2024-05-07 10:00:00+00', '2024-05-07 10:01:00+00'),
       (509, 'completed', 'select-only', '{4}', 10, '2024-05-08 10:00:00+00', '2024-05-08 10:01:00+00');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, started_at,
                           transactions, failed, tps, bench_duration_s, driver_cpu_s, record_system, repeat)
SELECT x, x - 40, 'completed', 'tpcb-like', 4, 1, 10, '2024-05-05 10:00:00+00', 1000, 0, 100, 10, 2, true, 1
FROM generate_series(546, 549) x;
INSERT INTO pgbenchx.system_samples (run_id, second, covered_s, cpu_iowait, cpu_idle, backend_cpu_s, wal_bytes, blks_read,
                                     buffers_checkpoint, buffers_clean, buffers_backend)
SELECT r.run_id, s, 1, r.iowait, 0.3, 0.5, r.wal, 100, 1, 1, 1
FROM (VALUES (546, 0.04, 800000), (547, 0.001, 640000), (548, 0, 30), (549, 0, 45)) r(run_id, iowait, wal),
     generate_series(1, 10) s;
INSERT INTO pgbenchx.wait_samples (run_id, second, wait_event_type, wait_event, samples)
SELECT w.run_id, s, w.t, w.e, w.n
FROM (VALUES (546, 'CPU', 'on CPU', 25), (546, 'Client', 'ClientRead', 50), (546, 'LWLock', 'WALWrite', 16), (546, 'IO', 'WALSync', 9),
             (547, 'CPU', 'on CPU', 22), (547, 'Client', 'ClientRead', 78),
             (548, 'CPU', 'on CPU', 20), (548, 'Client', 'ClientRead', 80),
             (549, 'CPU', 'on CPU', 20), (549, 'Client', 'ClientRead', 80)) w(run_id, t, e, n),
     generate_series(1, 10) s;
SELECT count(pgbenchx.explain_run(r.run_id)) AS verdicts FROM pgbenchx.runs r WHERE r.run_id BETWEEN 546 AND 549;
SELECT clients, wal_per_tx_ratio, iowait_ratio, wait_event, wait_share_a, wait_share_b, explanation
FROM pgbenchx.explain_compare(506, 507);
SELECT clients, wal_per_tx_ratio, explanation FROM pgbenchx.explain_compare(508, 509);

-- export and import: the new tables and columns travel, under new ids
SELECT pgbenchx.export(ARRAY[503, 504]) AS doc \gset
SELECT jsonb_array_length((:'doc'::jsonb)->'system_samples') AS system_rows,
       jsonb_array_length((:'doc'::jsonb)->'wait_samples') AS wait_rows;
SELECT pgbenchx.import(:'doc'::jsonb || jsonb_build_object('provenance',
           (:'doc'::jsonb)->'provenance' || '{"system_identifier": "77"}')) AS imported \gset
SELECT cardinality(:'imported'::bigint[]) AS sweeps_imported;
-- the same rows, values and figures, under the new run ids
SELECT (SELECT count(*) FROM pgbenchx.system_samples x JOIN pgbenchx.runs r USING (run_id)
        WHERE r.sweep_id = ANY (:'imported'::bigint[])) AS system_rows,
       (SELECT count(*) FROM pgbenchx.wait_samples x JOIN pgbenchx.runs r USING (run_id)
        WHERE r.sweep_id = ANY (:'imported'::bigint[])) AS wait_rows;
SELECT (SELECT array_agg(row(x.second, x.wal_bytes, x.cpu_iowait, x.blks_read)::text ORDER BY r.run_id, x.second)
        FROM pgbenchx.system_samples x JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = ANY (:'imported'::bigint[]))
     = (SELECT array_agg(row(x.second, x.wal_bytes, x.cpu_iowait, x.blks_read)::text ORDER BY r.run_id, x.second)
        FROM pgbenchx.system_samples x JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id IN (503, 504)) AS system_equal,
       (SELECT array_agg(row(x.second, x.wait_event_type, x.wait_event, x.samples)::text ORDER BY r.run_id, x.second, x.wait_event_type, x.wait_event)
        FROM pgbenchx.wait_samples x JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = ANY (:'imported'::bigint[]))
     = (SELECT array_agg(row(x.second, x.wait_event_type, x.wait_event, x.samples)::text ORDER BY r.run_id, x.second, x.wait_event_type, x.wait_event)
        FROM pgbenchx.wait_samples x JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id IN (503, 504)) AS waits_equal;
SELECT r.clients, r.record_system, r.wal_bytes_per_tx, round(r.iowait_avg::numeric, 4) AS iowait_avg,
       r.verdict, r.top_waits->0 AS top
FROM pgbenchx.runs r WHERE r.sweep_id = ANY (:'imported'::bigint[]) ORDER BY r.run_id;
SELECT clients, explanation FROM pgbenchx.explain_compare((:'imported'::bigint[])[1], (:'imported'::bigint[])[2]);

-- a document of pgbenchx 0.2: no system_samples, no wait_samples, runs
-- without the columns of 0.3; it imports with those parts empty
SELECT (:'doc'::jsonb - 'system_samples' - 'wait_samples') || jsonb_build_object(
           'provenance', (:'doc'::jsonb)->'provenance' || '{"system_identifier": "78", "pgbenchx_version": "0.2"}',
           'runs', (SELECT jsonb_agg(r - ARRAY['record_system', 'system_notes', 'wait_sample_hz', 'wal_bytes_per_tx',
                                              'blocks_read_per_tx', 'blocks_written_per_tx', 'server_cpu_ms_per_tx',
                                              'driver_cpu_ms_per_tx', 'iowait_avg', 'top_waits', 'verdict'])
                    FROM jsonb_array_elements((:'doc'::jsonb)->'runs') r)) AS old_doc \gset
SELECT pgbenchx.import(:'old_doc') AS imported_old \gset
SELECT r.clients, r.record_system, r.wal_bytes_per_tx, r.top_waits, r.verdict,
       (SELECT count(*) FROM pgbenchx.system_samples x WHERE x.run_id = r.run_id) AS system_rows,
       (SELECT count(*) FROM pgbenchx.wait_samples x WHERE x.run_id = r.run_id) AS wait_rows
FROM pgbenchx.runs r WHERE r.sweep_id = ANY (:'imported_old'::bigint[]) ORDER BY r.run_id;
SELECT count(pgbenchx.explain_run(r.run_id)) AS verdicts_after_recompute, bool_and(r.wal_bytes_per_tx IS NULL) AS still_null
FROM pgbenchx.runs r WHERE r.sweep_id = ANY (:'imported_old'::bigint[]);
SELECT substring(pgbenchx.report(r.run_id) FROM '-- pgbenchx --.*$') AS report_of_old
FROM pgbenchx.runs r WHERE r.sweep_id = ANY (:'imported_old'::bigint[]) ORDER BY r.clients LIMIT 1;

DELETE FROM pgbenchx.imports;
DELETE FROM pgbenchx.sweeps;
DELETE FROM pgbenchx.runs;
