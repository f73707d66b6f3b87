-- run_bench / run_sweep: every refusal is an ERROR raised by the call itself,
-- with the numbers involved and a hint, before anything starts; and the
-- sweep ladder.
\i sql/include/common.sql
SET client_min_messages = warning;
SELECT pgbench_init(1) IS NOT NULL AS tables_ready;
RESET client_min_messages;

-- the ladder of run_sweep(1, 80), kept within [min, max]
SELECT pgbenchx.sweep_ladder(1, 80);
SELECT pgbenchx.sweep_ladder(1, 1);
SELECT pgbenchx.sweep_ladder(80, 80);
SELECT pgbenchx.sweep_ladder(2, 8);
SELECT pgbenchx.sweep_ladder(3, 30);
SELECT pgbenchx.sweep_ladder(5, 100);
SELECT pgbenchx.sweep_ladder(1, 1000);
SELECT pgbenchx.sweep_ladder(100, 700);
SELECT array_length(pgbenchx.sweep_ladder(1, 80), 1) AS ladder_steps;
SELECT pgbx_try('SELECT pgbenchx.sweep_ladder(0, 8)');
SELECT pgbx_try('SELECT pgbenchx.sweep_ladder(9, 8)');

-- arguments
SELECT pgbx_try('SELECT run_bench(0, 1)');
SELECT pgbx_try('SELECT run_bench(-3, 1)');
SELECT pgbx_try('SELECT run_bench(1000000, 1)');
SELECT pgbx_try('SELECT run_bench(NULL, 1)');
SELECT pgbx_try('SELECT run_bench(1, 0)');
SELECT pgbx_try('SELECT run_bench(1)');
SELECT pgbx_try('SELECT run_bench(1, 1, transactions => 10)');
SELECT pgbx_try('SELECT run_bench(1, transactions => 0)');
SELECT pgbx_try($$SELECT run_bench(1, 1, 'tpcc')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 's')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, NULL)$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, protocol => 'binary')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, protocol => 'SIMPLE')$$);
SELECT pgbx_try('SELECT run_bench(1, 1, jobs => 0)');
SELECT pgbx_try('SELECT run_bench(1, 1, vacuum => NULL)');
SELECT pgbx_try('SELECT run_sweep(0, 8, 1)');
SELECT pgbx_try('SELECT run_sweep(8, 4, 1)');
SELECT pgbx_try('SELECT run_sweep(1, 8)');
SELECT pgbx_try($$SELECT run_sweep('{}'::int[], 1)$$);
SELECT pgbx_try($$SELECT run_sweep('{1,NULL}'::int[], 1)$$);
SELECT pgbx_try($$SELECT run_sweep('{1,0}'::int[], 1)$$);
SELECT pgbx_try($$SELECT run_sweep('{{1,2},{3,4}}'::int[], 1)$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, conninfo => 'nonsense')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, label => repeat('x', 300))$$);

-- the environment: connections, worker slots
SELECT pgbx_try('SELECT run_bench(5000, 1)') ~ '^53300: 5000 clients need 5001 connections, but only (1 is|\d+ are) free' AS too_many_clients;
SELECT pgbx_try('SELECT run_bench(200, 1, jobs => 100)') ~ '^53400: 100 jobs need 101 background worker slots, but only (1 is|\d+ are) free' AS too_many_jobs;

-- a transaction block
BEGIN;
SELECT pgbx_try('SELECT run_bench(1, 1)');
ROLLBACK;
BEGIN;
SELECT run_bench(1, 1);
ROLLBACK;

-- the pgbench tables, as the clients see them
SELECT pgbx_try($$SELECT run_bench(1, 1, conninfo => 'options=-csearch_path=pg_catalog')$$);

-- a loopback login that fails (the socket path varies: hidden)
SELECT regexp_replace(pgbx_try($$SELECT run_bench(1, 1, conninfo => 'user=regress_no_such_role')$$),
                      'connection to server [^:]*:', 'connection to server ...:');

-- waiting and cancelling need an id that exists
CALL pgbenchx.wait(123456789);
SELECT pgbx_try('CALL pgbenchx.wait(1)');
SELECT pgbx_try('SELECT pgbenchx.cancel(123456789)');
BEGIN;
CALL pgbenchx.wait(1);
ROLLBACK;

-- nothing was started or recorded
SELECT count(*) AS runs, (SELECT count(*) FROM pgbenchx.sweeps) AS sweeps FROM pgbenchx.runs;
SELECT count(*) AS coordinators FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchx%';

-- pacing and retries, as pgbench -R, -L and --max-tries
SELECT pgbx_try('SELECT run_bench(1, 1, rate => 0)');
SELECT pgbx_try('SELECT run_bench(1, 1, rate => -5)');
SELECT pgbx_try('SELECT run_bench(1, 1, latency_limit => 0)');
SELECT pgbx_try('SELECT run_bench(1, 1, max_tries => -1)');
SELECT pgbx_try('SELECT run_bench(1, transactions => 5, max_tries => 0)');
SELECT pgbx_try('SELECT run_bench(1, 1, max_tries => NULL)');
SELECT pgbx_try('SELECT run_bench(1, 1, connect_per_transaction => NULL)');
SELECT count(*) AS runs_after_pacing_refusals FROM pgbenchx.runs;

-- repeats and tags
SELECT pgbx_try('SELECT run_sweep(1, 8, 1, repeats => 0)');
SELECT pgbx_try('SELECT run_sweep(1, 80, 1, repeats => 20)');
SELECT pgbx_try($$SELECT run_bench(1, 1, tags => '[1, 2]')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, tags => jsonb_build_object('x', repeat('y', 5000)))$$);
SELECT count(*) AS runs_after_repeat_refusals FROM pgbenchx.runs;

-- run_replay
SELECT pgbx_try($$SELECT run_replay('SELECT 1;', 0, 4)$$);
SELECT pgbx_try($$SELECT run_replay('SELECT 1;', 4, 2)$$);
SELECT pgbx_try($$SELECT run_replay(NULL, 1, 2)$$);
SELECT pgbx_try($$SELECT run_replay('-- nothing', 1, 1)$$);
SELECT regexp_replace(pgbx_try($$SELECT run_replay('/nonexistent/list.sql', 1, 1, from_file => true)$$), ': No such file.*', ': No such file ...');
SELECT count(*) AS runs_after_replay_refusals FROM pgbenchx.runs;

-- what the parsed script is certain to fail on is refused at the call,
-- before pgbench's maintenance (history not truncated) or a checkpoint
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, 1, 0, now());
SELECT pgbenchx.add_script('refuse_pipe', E'\\startpipeline\nSELECT 1;\n\\endpipeline\n');
SELECT pgbenchx.add_script('refuse_pipe_if', E'\\if 0\n\\startpipeline\nSELECT 1;\n\\endpipeline\n\\endif\nSELECT 2;\n');
SELECT pgbenchx.add_script('refuse_open', E'\\startpipeline\nSELECT 1;\n');
SELECT pgbenchx.add_script('refuse_twice', E'\\startpipeline\n\\startpipeline\nSELECT 1;\n\\endpipeline\n');
SELECT pgbenchx.add_script('refuse_end', E'SELECT 1;\n\\endpipeline\n');
SELECT pgbenchx.add_script('refuse_gset', E'\\startpipeline\nSELECT 1 AS one \\gset\n\\endpipeline\n');
SELECT pgbenchx.add_script('refuse_aset', E'\\startpipeline\nSELECT 1 AS one \\aset\n\\endpipeline\n');
SELECT pgbx_try($$SELECT run_bench(1, 1, 'refuse_pipe')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'refuse_pipe', protocol => 'simple')$$);
-- inside an \if it may never run: not refused here (5000 clients are refused later, for want of connections)
SELECT pgbx_try($$SELECT run_bench(5000, 1, 'refuse_pipe_if')$$) ~ '^53300: 5000 clients need 5001 connections' AS pipeline_in_if_not_refused;
SELECT pgbx_try($$SELECT run_sweep(1, 2, 1, 'select-only@1, refuse_pipe@1')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'refuse_open', protocol => 'extended')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'refuse_twice', protocol => 'extended')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'refuse_end', protocol => 'prepared')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'refuse_gset', protocol => 'extended')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'refuse_aset', protocol => 'prepared')$$);
SELECT count(*) AS history_kept FROM pgbench_history;
SELECT count(*) AS runs_after_script_refusals FROM pgbenchx.runs;
SELECT count(*) AS dropped
FROM unnest(ARRAY['refuse_pipe', 'refuse_pipe_if', 'refuse_open', 'refuse_twice', 'refuse_end',
                  'refuse_gset', 'refuse_aset']) n, LATERAL pgbenchx.drop_script(n) d;
TRUNCATE pgbench_history;

-- launch_part and part_go (a generator's share of a run): refused before anything starts
CREATE TEMP TABLE part_opts AS SELECT '{"clients": 2, "duration": 1, "script": "select-only", "part_of": {"recorder": "1/db", "run_id": 5, "generator": 1}}'::jsonb AS o;
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o - 'part_of') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o || '{"part_of": null}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o || '{"part_of": {"recorder": "1/db", "run_id": 5}}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o || '{"part_of": {"recorder": "1/db", "run_id": 0, "generator": 1}}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o || '{"part_of": {"recorder": "1/db", "run_id": 5, "generator": 65}}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o || '{"part_of": {"recorder": "1/db", "run_id": 5, "generator": 1, "x": 1}}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o || '{"vacuum": true}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o || '{"first_client": -1}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o || '{"first_client": 3, "total_clients": 4}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o || '{"go_timeout_s": 0}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o - 'script') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o || '{"scripts": [{"name": "a", "body": "SELECT 1;"}]}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o - 'script' || '{"scripts": []}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o - 'script' || '{"scripts": [{"name": "a"}]}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o - 'script' || '{"scripts": [{"name": "a", "body": "SELECT 1;", "weight": -1}]}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o - 'script' || '{"scripts": [{"name": "a", "body": "SELECT 1;", "w": 1}]}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o - 'script' || '{"scripts": [{"name": "a", "body": "SELECT 1;", "weight": 0}]}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o - 'script' || '{"scripts": [{"name": "a", "body": "\\set x"}]}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o - 'script' - 'duration' || '{"replay_queries": "SELECT 1;", "duration": 1}') FROM part_opts$$);
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o || '{"shuffle": true}') FROM part_opts$$);
BEGIN;
SELECT pgbx_try($$SELECT pgbenchx.launch_part(o) FROM part_opts$$);
ROLLBACK;
SELECT pgbx_try($$SELECT pgbenchx.part_go(NULL, now())$$);
SELECT pgbx_try($$SELECT pgbenchx.part_go(1, NULL)$$);
SELECT pgbx_try($$SELECT pgbenchx.part_go(1, 'infinity')$$);
SELECT pgbx_try($$SELECT pgbenchx.part_go(987654321, now())$$);
SELECT count(*) AS runs_after_part_refusals FROM pgbenchx.runs;

-- several load generators (issue 14): what the arguments alone refuse,
-- before any generator is reached; nothing is recorded
SELECT count(*) AS runs_before_generator_refusals FROM pgbenchx.runs;
SELECT pgbx_try($$SELECT run_bench(1, 1, conninfo => 'host=s', generators => ARRAY[]::text[])$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, conninfo => 'host=s', generators => ARRAY['host=a', NULL])$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, conninfo => 'host=s', generators => ARRAY[['host=a'], ['host=b']])$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, conninfo => 'host=s', generators => ARRAY['host=a', 'host=b', 'host=a'])$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, generators => ARRAY['host=a'])$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, conninfo => 'host=s', generators => (SELECT array_agg('host=g' || i) FROM generate_series(1, 65) i))$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, conninfo => 'host=s', generators => ARRAY['host=a'], check_tpcb => true)$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, conninfo => 'host=s', generators => ARRAY['host=a', 'hots=b'])$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, conninfo => 'host=s', generators => ARRAY['host=a'], max_clock_offset_ms => -1)$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, conninfo => 'host=s', generators => ARRAY['host=a'], max_clock_offset_ms => 'NaN')$$);
SELECT pgbx_try($$SELECT run_sweep(1, 2, 1, conninfo => 'host=s', generators => ARRAY[]::text[])$$);
SELECT pgbx_try($$SELECT run_sweep(ARRAY[1, 2], 1, generators => ARRAY['host=a'])$$);
SELECT pgbx_try($$SELECT run_replay('SELECT 1;', 1, 1, conninfo => 'host=s', generators => ARRAY['host=a', 'host=a'])$$);
SELECT count(*) AS runs_after_generator_refusals FROM pgbenchx.runs;
