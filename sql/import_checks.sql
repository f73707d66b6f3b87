-- import() refuses documents that no run could have produced, each with the
-- errcode of the bad-input table (22023, 22004 for nulls, 22003 for numbers
-- out of range, 2202E for a multidimensional client list), before anything
-- is loaded; and it loads 2000 generated runs (its time grows linearly: the
-- lookups are hashed, no element is searched for in a nested scan).
\i sql/include/common.sql
DELETE FROM pgbenchx.sweeps;
DELETE FROM pgbenchx.runs;
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, started_at, finished_at, tags)
VALUES (301, 'completed', 'select-only', '{1,2}', 10, '2024-03-01 10:00:00+00', '2024-03-01 10:01:00+00', '{"fs": "xfs"}');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, protocol, clients, jobs, duration,
                           started_at, finished_at, transactions, failed, tps)
VALUES (302, 301, 'completed', 'select-only', 'simple', 1, 1, 10, '2024-03-01 10:00:00+00', '2024-03-01 10:00:10+00', 100, 0, 10),
       (303, 301, 'completed', 'select-only', 'simple', 2, 1, 10, '2024-03-01 10:00:10+00', '2024-03-01 10:00:20+00', 200, 0, 20);
INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, failed)
SELECT 302, s, 10, 10, 0 FROM generate_series(1, 10) s;
INSERT INTO pgbenchx.statement_stats (run_id, script, command, command_text, executions, latency_avg_ms)
VALUES (302, 'select-only', 1, 'select 1;', 100, 0.5);
SELECT pgbenchx.export(ARRAY[301]) AS doc \gset
DELETE FROM pgbenchx.sweeps;
DELETE FROM pgbenchx.runs;

-- each bad document: its errcode and message; nothing is loaded
CREATE TEMP TABLE bad_docs (n serial, what text, doc jsonb);
INSERT INTO bad_docs (what, doc) VALUES
  ('clients 0',              jsonb_set(:'doc', '{runs,0,clients}', '0')),
  ('clients 100001',         jsonb_set(:'doc', '{runs,0,clients}', '100001')),
  ('clients 1.5',            jsonb_set(:'doc', '{runs,0,clients}', '1.5')),
  ('clients "3"',            jsonb_set(:'doc', '{runs,0,clients}', '"3"')),
  ('jobs 0',                 jsonb_set(:'doc', '{runs,0,jobs}', '0')),
  ('jobs null',              jsonb_set(:'doc', '{runs,1,jobs}', 'null')),
  ('sweep clients 2-D',      jsonb_set(:'doc', '{sweeps,0,clients}', '[[1,2],[3,4]]')),
  ('sweep clients NULL',     jsonb_set(:'doc', '{sweeps,0,clients}', '[1,null]')),
  ('sweep clients empty',    jsonb_set(:'doc', '{sweeps,0,clients}', '[]')),
  ('sweep clients 0',        jsonb_set(:'doc', '{sweeps,0,clients}', '[0,1]')),
  ('sweep clients 1e6',      jsonb_set(:'doc', '{sweeps,0,clients}', '[1,1000000]')),
  ('sweep clients object',   jsonb_set(:'doc', '{sweeps,0,clients}', '{"a": 1}')),
  ('sweep tags array',       jsonb_set(:'doc', '{sweeps,0,tags}', '[1]')),
  ('run tags string',        jsonb_set(:'doc', '{runs,1,tags}', '"fs=xfs"')),
  ('started_at infinity',    jsonb_set(:'doc', '{sweeps,0,started_at}', '"infinity"')),
  ('finished_at -infinity',  jsonb_set(:'doc', '{runs,0,finished_at}', '"-infinity"')),
  ('started_at garbage',     jsonb_set(:'doc', '{runs,1,started_at}', '"yesterday-ish"')),
  ('started_at a number',    jsonb_set(:'doc', '{runs,1,started_at}', '20240301')),
  ('exported_at garbage',    jsonb_set(:'doc', '{provenance,exported_at}', '"2024-13-45"')),
  ('sweep_id 0',             jsonb_set(:'doc', '{sweeps,0,sweep_id}', '0') || '{"runs": [], "samples": [], "statement_stats": []}'),
  ('sweep_id 2^63',          jsonb_set(:'doc', '{sweeps,0,sweep_id}', '9223372036854775808') || '{"runs": [], "samples": [], "statement_stats": []}'),
  ('run_id -1',              jsonb_set(jsonb_set(:'doc', '{runs,1,run_id}', '-1'), '{samples}', '[]')),
  ('run_id 1.5',             jsonb_set(jsonb_set(:'doc', '{runs,1,run_id}', '1.5'), '{samples}', '[]')),
  ('environment_id "x"',     jsonb_set(:'doc', '{runs,0,environment_id}', '"x"')),
  ('second 0',               jsonb_set(:'doc', '{samples,0,second}', '0')),
  ('second 2^31',            jsonb_set(:'doc', '{samples,0,second}', '2147483648')),
  ('second twice',           jsonb_set(:'doc', '{samples,1,second}', '1')),
  ('command 0',              jsonb_set(:'doc', '{statement_stats,0,command}', '0')),
  ('executions -1',          jsonb_set(:'doc', '{statement_stats,0,executions}', '-1')),
  ('transactions -5',        jsonb_set(:'doc', '{runs,0,transactions}', '-5')),
  ('sample transactions -1', jsonb_set(:'doc', '{samples,2,transactions}', '-1')),
  ('transactions null',      jsonb_set(:'doc', '{samples,2,transactions}', 'null')),
  ('failed null in sample',  jsonb_set(:'doc', '{samples,2,failed}', 'null')),
  ('a sample not an object', jsonb_set(:'doc', '{samples,2}', '[1]')),
  ('status "won"',           jsonb_set(:'doc', '{runs,1,status}', '"won"')),
  ('sweep status 7',         jsonb_set(:'doc', '{sweeps,0,status}', '7')),
  ('protocol "telnet"',      jsonb_set(:'doc', '{runs,0,protocol}', '"telnet"')),
  ('repeat 0',               jsonb_set(:'doc', '{runs,0,repeat}', '0')),
  ('covered_s 0',            jsonb_set(:'doc', '{samples,9,covered_s}', '0')),
  ('covered_s -0.5',         jsonb_set(:'doc', '{samples,9,covered_s}', '-0.5')),
  ('covered_s 1e6',          jsonb_set(:'doc', '{samples,9,covered_s}', '1e6')),
  ('covered_s null',         jsonb_set(:'doc', '{samples,9,covered_s}', 'null')),
  ('covered_s "1"',          jsonb_set(:'doc', '{samples,9,covered_s}', '"1"')),
  -- issue 13: system_samples, wait_samples and the runs' new columns
  ('system_samples object',  :'doc'::jsonb || '{"system_samples": {"run_id": 302}}'),
  ('system second 0',        :'doc'::jsonb || '{"system_samples": [{"run_id": 302, "second": 0}]}'),
  ('system second missing',  :'doc'::jsonb || '{"system_samples": [{"run_id": 302}]}'),
  ('system run unknown',     :'doc'::jsonb || '{"system_samples": [{"run_id": 399, "second": 1}]}'),
  ('system covered_s 0',     :'doc'::jsonb || '{"system_samples": [{"run_id": 302, "second": 1, "covered_s": 0}]}'),
  ('system cpu_idle 1.5',    :'doc'::jsonb || '{"system_samples": [{"run_id": 302, "second": 1, "cpu_idle": 1.5}]}'),
  ('system cpu_user "0.5"',  :'doc'::jsonb || '{"system_samples": [{"run_id": 302, "second": 1, "cpu_user": "0.5"}]}'),
  ('system wal_queue -1',    :'doc'::jsonb || '{"system_samples": [{"run_id": 302, "second": 1, "wal_queue": -1}]}'),
  ('system blks_read 2.5',   :'doc'::jsonb || '{"system_samples": [{"run_id": 302, "second": 1, "blks_read": 2.5}]}'),
  ('system wal_bytes -8',    :'doc'::jsonb || '{"system_samples": [{"run_id": 302, "second": 1, "wal_bytes": -8}]}'),
  ('system second twice',    :'doc'::jsonb || '{"system_samples": [{"run_id": 302, "second": 1}, {"run_id": 302, "second": 1}]}'),
  ('wait samples -1',        :'doc'::jsonb || '{"wait_samples": [{"run_id": 302, "second": 1, "wait_event_type": "CPU", "wait_event": "on CPU", "samples": -1}]}'),
  ('wait second 0',          :'doc'::jsonb || '{"wait_samples": [{"run_id": 302, "second": 0, "wait_event_type": "CPU", "wait_event": "on CPU", "samples": 1}]}'),
  ('wait event missing',     :'doc'::jsonb || '{"wait_samples": [{"run_id": 302, "second": 1, "wait_event_type": "CPU", "samples": 1}]}'),
  ('wait event type 7',      :'doc'::jsonb || '{"wait_samples": [{"run_id": 302, "second": 1, "wait_event_type": 7, "wait_event": "x", "samples": 1}]}'),
  ('wait event empty',       :'doc'::jsonb || '{"wait_samples": [{"run_id": 302, "second": 1, "wait_event_type": "Lock", "wait_event": "", "samples": 1}]}'),
  ('wait row twice',         :'doc'::jsonb || '{"wait_samples": [{"run_id": 302, "second": 1, "wait_event_type": "Lock", "wait_event": "tuple", "samples": 1}, {"run_id": 302, "second": 1, "wait_event_type": "Lock", "wait_event": "tuple", "samples": 2}]}'),
  ('run iowait_avg 2',       jsonb_set(:'doc', '{runs,0,iowait_avg}', '2')),
  ('run wal/tx -1',          jsonb_set(:'doc', '{runs,0,wal_bytes_per_tx}', '-1')),
  ('run record_system "y"',  jsonb_set(:'doc', '{runs,0,record_system}', '"yes"')),
  ('run top_waits string',   jsonb_set(:'doc', '{runs,0,top_waits}', '"Lock"')),
  ('run system_notes [1]',   jsonb_set(:'doc', '{runs,0,system_notes}', '[1]')),
  ('run verdict 3',          jsonb_set(:'doc', '{runs,0,verdict}', '3')),
  -- issue 14: a run's generators
  ('generator 0',            :'doc'::jsonb || '{"run_generators": [{"run_id": 302, "generator": 0, "conninfo": "host=g1", "clients": 1, "first_client": 0, "status": "completed"}]}'),
  ('generator of run 999',   :'doc'::jsonb || '{"run_generators": [{"run_id": 999, "generator": 1, "conninfo": "host=g1", "clients": 1, "first_client": 0, "status": "completed"}]}'),
  ('generator status "x"',   :'doc'::jsonb || '{"run_generators": [{"run_id": 302, "generator": 1, "conninfo": "host=g1", "clients": 1, "first_client": 0, "status": "x"}]}'),
  ('generator twice',        :'doc'::jsonb || '{"run_generators": [{"run_id": 302, "generator": 1, "conninfo": "host=g1", "clients": 1, "first_client": 0, "status": "completed"}, {"run_id": 302, "generator": 1, "conninfo": "host=g1", "clients": 1, "first_client": 0, "status": "completed"}]}'),
  ('generator tps -1',       :'doc'::jsonb || '{"run_generators": [{"run_id": 302, "generator": 1, "conninfo": "host=g1", "clients": 1, "first_client": 0, "status": "completed", "tps": -1}]}'),
  ('generator hist bad',     :'doc'::jsonb || '{"run_generators": [{"run_id": 302, "generator": 1, "conninfo": "host=g1", "clients": 1, "first_client": 0, "status": "completed", "latency_hist": "AAAA"}]}'),
  ('generator env string',   :'doc'::jsonb || '{"run_generators": [{"run_id": 302, "generator": 1, "conninfo": "host=g1", "clients": 1, "first_client": 0, "status": "completed", "environment": "x"}]}');
SELECT n, what, pgbx_try(format('SELECT pgbenchx.import(%L)', doc)) FROM bad_docs ORDER BY n;
SELECT (SELECT count(*) FROM pgbenchx.sweeps) AS sweeps, (SELECT count(*) FROM pgbenchx.runs) AS runs,
       (SELECT count(*) FROM pgbenchx.samples) AS samples, (SELECT count(*) FROM pgbenchx.imports) AS imports;

-- the good document loads
SELECT cardinality(pgbenchx.import(:'doc')) AS imported_sweeps;
SELECT count(*) AS runs FROM pgbenchx.runs;

-- covered_s is exported with every sample; a partial second goes through,
-- and a document from pgbenchx 0.2, without covered_s, reads as whole seconds
SELECT count(*) FILTER (WHERE x ? 'covered_s') AS with_covered_s, count(*) AS samples
FROM jsonb_array_elements((:'doc'::jsonb)->'samples') x;
SELECT cardinality(pgbenchx.import(jsonb_set(jsonb_set(:'doc', '{provenance,system_identifier}', '"43"'),
                                             '{samples,9,covered_s}', '0.25'))) AS partial_imported;
SELECT cardinality(pgbenchx.import(jsonb_set(jsonb_set(:'doc', '{provenance,system_identifier}', '"44"'),
                                             '{samples}', (SELECT jsonb_agg(x - 'covered_s') FROM jsonb_array_elements((:'doc'::jsonb)->'samples') x))))
       AS from_0_2_imported;
SELECT i.exported_from_system_identifier AS origin, count(*) AS samples, sum(s.transactions) AS transactions,
       string_agg(s.covered_s::text, ',' ORDER BY s.second) AS covered_s
FROM pgbenchx.samples s JOIN pgbenchx.imports i ON i.run_id = s.run_id
WHERE i.exported_from_system_identifier IN (43, 44)
GROUP BY 1 ORDER BY 1;

-- 2000 generated runs (in 2000 sweeps, 3 samples each) import; the time is
-- measured in the TAP report, not asserted here
SELECT :'doc'::jsonb || jsonb_build_object(
  'provenance', (:'doc'::jsonb)->'provenance' || '{"system_identifier": "42"}',
  'imports', '[]'::jsonb,
  'sweeps', (SELECT jsonb_agg(((:'doc'::jsonb)->'sweeps'->0) || jsonb_build_object('sweep_id', 10000 + g)) FROM generate_series(1, 2000) g),
  'runs', (SELECT jsonb_agg(((:'doc'::jsonb)->'runs'->0) || jsonb_build_object('run_id', 20000 + g, 'sweep_id', 10000 + g)) FROM generate_series(1, 2000) g),
  'samples', (SELECT jsonb_agg(((:'doc'::jsonb)->'samples'->0) || jsonb_build_object('run_id', 20000 + g, 'second', s)) FROM generate_series(1, 2000) g, generate_series(1, 3) s),
  'statement_stats', '[]'::jsonb) AS big \gset
SELECT cardinality(pgbenchx.import(:'big')) AS imported_sweeps;
SELECT count(*) AS runs, count(DISTINCT sweep_id) AS sweeps FROM pgbenchx.runs;
SELECT count(*) AS samples FROM pgbenchx.samples;

DELETE FROM pgbenchx.imports;
DELETE FROM pgbenchx.sweeps;
DELETE FROM pgbenchx.runs;
