-- bad_input: the bad-input matrix of every SQL-callable function
-- (docs/bad-input.md) and the injection cases.  Every case is refused
-- with an SQLSTATE and a useful message before a run starts, and nothing is
-- recorded.  Values a run would accept are checked against the last refusal
-- before a run starts: clients that see no pgbench tables (the conninfo
-- below), so that nothing is ever started here.
\i sql/include/common.sql
SET client_min_messages = warning;
\set notables 'options=-csearch_path=pg_catalog'
-- and for scripts that need no tables: clients that cannot log in (the
-- socket path in the message varies: hidden)
\set nologin 'dbname=pgbx_no_such_database'
ALTER TABLE IF EXISTS pgbench_branches RENAME TO pgbx_hidden_branches;
CREATE TABLE pgbx_canary (x int);   -- the target of every injection below

-- pgbx_try, with each line cut to 160 characters (parse errors echo the input)
CREATE FUNCTION bx(sql text) RETURNS text LANGUAGE sql AS $$
    SELECT string_agg(left(regexp_replace(l, 'connection to server [^:]*:', 'connection to server ...:'), 160),
                      E'\n' ORDER BY n)
    FROM regexp_split_to_table(pgbx_try(sql), E'\n') WITH ORDINALITY AS t(l, n)
$$;
CREATE TEMP TABLE counts_before AS
SELECT (SELECT count(*) FROM pgbenchx.runs) AS runs,
       (SELECT count(*) FROM pgbenchx.sweeps) AS sweeps,
       (SELECT count(*) FROM pgbenchx.custom_scripts) AS scripts,
       (SELECT count(*) FROM pgbenchx.environments) AS environments,
       (SELECT last_value FROM pgbenchx.id_seq) AS last_id;

-- pgbench_init: int edges and wrong types (the SQL layer refuses overflow)
SELECT bx('SELECT pgbench_init(2147483648)');
SELECT bx('SELECT pgbench_init(2147483648::int)');
SELECT bx('SELECT pgbench_init(-2147483648)');
SELECT bx('SELECT pgbench_init(2147483647)');
SELECT bx('SELECT pgbench_init(1, fillfactor => -2147483648)');
SELECT bx($$SELECT pgbench_init(1, partition_method => '')$$);
SELECT bx($$SELECT pgbench_init(1, partition_method => E'range\'; DROP TABLE x; --')$$);
SELECT bx($$SELECT pgbench_init(1, unlogged => 'maybe')$$);
SELECT bx($$SELECT pgbench_init(1.5)$$);

-- run_bench: clients
SELECT bx('SELECT run_bench(2147483648, 1)');
SELECT bx('SELECT run_bench(2147483647, 1)');
SELECT bx('SELECT run_bench(-2147483648, 1)');
SELECT bx('SELECT run_bench(100001, 1)');
SELECT bx('SELECT run_bench(1000000, 1, jobs => 1000000)');
SELECT bx($$SELECT run_bench('1e6', 1)$$);
-- duration and transactions
SELECT bx('SELECT run_bench(1, -2147483648)');
SELECT bx('SELECT run_bench(1, NULL)');
SELECT bx(format('SELECT run_bench(1, 2147483647, conninfo => %L)', :'notables'));
SELECT bx('SELECT run_bench(1, transactions => -9223372036854775808)');
SELECT bx(format('SELECT run_bench(1, transactions => 9223372036854775807, conninfo => %L)', :'notables'));
SELECT bx('SELECT run_bench(1, transactions => 9223372036854775808)');
-- jobs
SELECT bx('SELECT run_bench(1, 1, jobs => -2147483648)');
SELECT bx(format('SELECT run_bench(1, 1, jobs => 2147483647, conninfo => %L)', :'notables'));
-- protocol, script
SELECT bx('SELECT run_bench(1, 1, protocol => NULL)');
SELECT bx($$SELECT run_bench(1, 1, protocol => '')$$);
SELECT bx($$SELECT run_bench(1, 1, protocol => E'simple\'; DROP TABLE x; --')$$);
SELECT bx($$SELECT run_bench(1, 1, '')$$);
SELECT bx($$SELECT run_bench(1, 1, E'tpcb-like\'); DROP TABLE x; --')$$);
SELECT bx($$SELECT run_bench(1, 1, repeat('x', 5 * 1024 * 1024))$$);
-- rate, latency_limit, max_tries
SELECT bx($$SELECT run_bench(1, 1, rate => 'NaN')$$);
SELECT bx($$SELECT run_bench(1, 1, rate => 'infinity')$$);
SELECT bx($$SELECT run_bench(1, 1, rate => '-infinity')$$);
SELECT bx($$SELECT run_bench(1, 1, rate => 1e-300)$$);
SELECT bx(format('SELECT run_bench(1, 1, rate => 1e300, conninfo => %L)', :'notables'));
SELECT bx($$SELECT run_bench(1, 1, latency_limit => 'NaN')$$);
SELECT bx($$SELECT run_bench(1, 1, latency_limit => 'infinity')$$);
SELECT bx($$SELECT run_bench(1, 1, latency_limit => 1e300)$$);
SELECT bx(format('SELECT run_bench(1, 1, latency_limit => 1e-300, conninfo => %L)', :'notables'));
SELECT bx('SELECT run_bench(1, 1, max_tries => -2147483648)');
SELECT bx(format('SELECT run_bench(1, 1, max_tries => 2147483647, conninfo => %L)', :'notables'));
-- random_seed, variables
SELECT bx(format('SELECT run_bench(1, 1, random_seed => -9223372036854775808, conninfo => %L)', :'notables'));
SELECT bx($$SELECT run_bench(1, 1, variables => (SELECT jsonb_object_agg('v' || i, i) FROM generate_series(1, 1001) i))$$);
SELECT bx($$SELECT run_bench(1, 1, variables => '"scalar"')$$);
SELECT bx($$SELECT run_bench(1, 1, variables => jsonb_build_object('v', repeat('x', 5 * 1024 * 1024)))$$);
SELECT bx($$SELECT run_bench(1, 1, variables => jsonb_build_object(E'a\'); DROP TABLE x; --', 1))$$);
-- label, tags, conninfo: lengths and wrong types
SELECT bx(format('SELECT run_bench(1, 1, label => repeat(%L, 255), conninfo => %L)', 'x', :'notables'));
SELECT bx($$SELECT run_bench(1, 1, label => repeat('x', 5 * 1024 * 1024))$$);
SELECT bx($$SELECT run_bench(1, 1, tags => 'null')$$);
SELECT bx($$SELECT run_bench(1, 1, tags => '"x"')$$);
SELECT bx($$SELECT run_bench(1, 1, tags => 'not json')$$);
SELECT bx($$SELECT run_bench(1, 1, conninfo => repeat('x', 5 * 1024 * 1024))$$);
SELECT bx($$SELECT run_bench(1, 1, conninfo => 'application_name=' || repeat('x', 3000))$$);
SELECT bx($$SELECT run_bench(1, 1, conninfo => 'no_such_keyword=1')$$);
SELECT bx($$SELECT run_bench(1, 1, conninfo => 'application_name=''unterminated')$$);

-- run_sweep (range): edges
SELECT bx('SELECT run_sweep(NULL, 8, 1)');
SELECT bx('SELECT run_sweep(1, NULL, 1)');
SELECT bx('SELECT run_sweep(-2147483648, 2147483647, 1)');
SELECT bx('SELECT run_sweep(1, 2147483647, 1)');
SELECT bx('SELECT run_sweep(1, 8, 1, repeats => 2147483647)');
SELECT bx('SELECT run_sweep(1, 8, 1, repeats => -2147483648)');
SELECT bx('SELECT run_sweep(1, 8, 1, repeats => NULL)');
-- run_sweep (list)
SELECT bx('SELECT run_sweep(NULL::int[], 1)');
SELECT bx('SELECT run_sweep(array_fill(1, ARRAY[257]), 1)');
SELECT bx('SELECT run_sweep(array_fill(1, ARRAY[1000000]), 1)');
SELECT bx($$SELECT run_sweep('{2147483647}'::int[], 1)$$);
SELECT bx($$SELECT run_sweep('{1,-2147483648}'::int[], 1)$$);
SELECT bx($$SELECT run_sweep('[5:6]={1,2}'::int[], 1, conninfo => 'options=-csearch_path=pg_catalog')$$);
SELECT bx($$SELECT run_sweep('{1,2147483648}'::int[], 1)$$);

-- run_replay
SELECT bx($$SELECT run_replay('SELECT 1;', NULL, 2)$$);
SELECT bx($$SELECT run_replay('SELECT 1;', -2147483648, 2147483647)$$);
SELECT bx($$SELECT run_replay('SELECT 1;', 1, 2147483647)$$);
SELECT bx($$SELECT run_replay('SELECT 1;', 1, 1, from_file => NULL)$$);
SELECT bx($$SELECT run_replay('SELECT 1;', 1, 1, shuffle => NULL)$$);
SELECT bx($$SELECT run_replay('SELECT 1;', 1, 1, protocol => 'binary')$$);
SELECT bx($$SELECT run_replay('SELECT 1;', 1, 1, jobs => 0)$$);
SELECT bx($$SELECT run_replay('SELECT 1;', 1, 1, tags => '[]')$$);
SELECT bx($$SELECT run_replay('', 1, 1)$$);
SELECT bx(format($$SELECT run_replay(repeat(E'SELECT 1;\n', 524288), 1, 1, conninfo => %L)$$, :'nologin'));
SELECT bx($$SELECT run_replay(repeat('x', 65 * 1024 * 1024), 1, 1)$$);
SELECT bx($$SELECT run_replay('', 1, 1, from_file => true)$$);
SELECT bx($$SELECT run_replay('relative/path.sql', 1, 1, from_file => true)$$);
SELECT bx($$SELECT run_replay('/', 1, 1, from_file => true)$$);
SELECT bx($$SELECT run_replay('/dev/null', 1, 1, from_file => true)$$);
SELECT bx($$SELECT run_replay(E'/nonexistent/\'); DROP TABLE x; --', 1, 1, from_file => true)$$);

-- sweep_ladder
SELECT pgbenchx.sweep_ladder(NULL, 8) IS NULL AS strict;
SELECT array_length(pgbenchx.sweep_ladder(1, 2147483647), 1) AS steps,
       (pgbenchx.sweep_ladder(1, 2147483647))[array_length(pgbenchx.sweep_ladder(1, 2147483647), 1) - 1] AS last_doubling;
SELECT pgbenchx.sweep_ladder(2147483647, 2147483647);
SELECT bx('SELECT pgbenchx.sweep_ladder(-2147483648, -1)');
SELECT bx('SELECT pgbenchx.sweep_ladder(2147483648, 1)');

-- wait, cancel
SELECT bx('CALL pgbenchx.wait(NULL)');
SELECT bx('CALL pgbenchx.wait(-9223372036854775808)');
SELECT bx('SELECT pgbenchx.cancel(-1)');
SELECT pgbenchx.cancel(NULL) IS NULL AS strict;

-- eval
SELECT bx($$SELECT pgbenchx.eval('1', NULL)$$);
SELECT bx($$SELECT pgbenchx.eval('')$$);
SELECT bx($$SELECT pgbenchx.eval(repeat('(', 100000) || '1' || repeat(')', 100000))$$);
SELECT bx($$SELECT pgbenchx.eval(repeat('1 + ', 1310720) || '1')$$);
SELECT bx($$SELECT pgbenchx.eval(':v', jsonb_build_object('v', repeat('7', 5 * 1024 * 1024)))$$);
SELECT bx($$SELECT pgbenchx.eval(':v', jsonb_build_object('v', E'\'); DROP TABLE x; --'))$$);
SELECT pgbenchx.eval('random(1, 10)', random_seed => -9223372036854775808) IS NOT NULL AS min_seed,
       pgbenchx.eval('random(1, 10)', random_seed => 9223372036854775807) IS NOT NULL AS max_seed;

-- add_script, script_text, drop_script
SELECT bx($$SELECT pgbenchx.add_script(NULL, 'SELECT 1;')$$);
SELECT bx($$SELECT pgbenchx.add_script('x', 'SELECT 1;', NULL)$$);
SELECT bx($$SELECT pgbenchx.add_script(repeat('x', 1000), 'SELECT 1;')$$);
SELECT bx($$SELECT pgbenchx.add_script(E'x\'); DROP TABLE x; --', 'SELECT 1;')$$);
SELECT bx($$SELECT pgbenchx.add_script(E'a\\b', 'SELECT 1;')$$);
SELECT bx($$SELECT pgbenchx.add_script(E'tab\there', 'SELECT 1;')$$);
SELECT bx($q$SELECT pgbenchx.add_script('x$$y', 'SELECT 1;')$q$);
SELECT bx($$SELECT pgbenchx.add_script(E'bell\x07', 'SELECT 1;')$$);
SELECT bx($$SELECT pgbenchx.add_script('quote''s', 'SELECT 1;')$$);
SELECT bx($$SELECT pgbenchx.add_script('big', repeat(E'SELECT 1;\n', 524288))$$);
SELECT length(body) AS big_body_bytes FROM pgbenchx.custom_scripts WHERE name = 'big';
SELECT pgbenchx.drop_script('big');
SELECT bx($$SELECT pgbenchx.add_script('deep', E'\\set x ' || repeat('(', 100000) || '1' || repeat(')', 100000))$$);
SELECT bx($$SELECT pgbenchx.script_text('')$$);
SELECT bx($$SELECT pgbenchx.script_text(E'x\'); DROP TABLE x; --')$$);
SELECT pgbenchx.script_text(NULL) IS NULL AS strict;
SELECT bx($$SELECT pgbenchx.drop_script(E'x\'); DROP TABLE x; --')$$);
SELECT pgbenchx.drop_script(NULL) IS NULL AS strict;

-- charts, report, compare, export, import, environments
SELECT bx('SELECT pgbenchx.chart_sweeps(ARRAY[-1])');
SELECT bx('SELECT pgbenchx.chart_sweeps(array_fill(-1::bigint, ARRAY[100000]))');
SELECT bx('SELECT pgbenchx.chart_run(-9223372036854775808)');
SELECT bx('SELECT * FROM pgbenchx.sweep_report(-1)');
SELECT bx('SELECT * FROM pgbenchx.compare(-1, -2)');
SELECT bx('SELECT * FROM pgbenchx.compare(1, NULL)');
SELECT bx('SELECT pgbenchx.export(array_fill(-1::bigint, ARRAY[100000]))');
SELECT bx($$SELECT pgbenchx.import('"x"')$$);
SELECT bx($$SELECT pgbenchx.import('{}')$$);
SELECT bx('SELECT * FROM pgbenchx.env_diff(NULL, NULL)');
SELECT bx('SELECT * FROM pgbenchx.env_diff(-1, -2)');
SELECT bx('SELECT pgbenchx.environment_of(-1)');
SELECT bx('SELECT pgbenchx.chart_runs(ARRAY[-1])');
SELECT bx('SELECT * FROM pgbenchx.run_intervals(-1, 60)');
SELECT bx($$SELECT pgbenchx.gather('nothing')$$);
SELECT bx('SELECT pgbenchx.gather(NULL)');
SELECT bx(format($$SELECT pgbenchx.gather(%L)$$, E'x''); DROP TABLE pgbx_canary; --'));
SELECT pgbenchx.environment_of(NULL) IS NULL AS strict;

-- injection: labels, tags, conninfo values and replay
-- lists reach the last check before a run untouched, as data; script names
-- with characters outside [A-Za-z0-9_.-] are refused; pgbx_canary survives.
SELECT bx(format($$SELECT run_bench(1, 1, label => %L)$$, E'it''s \\ a "label"''); DROP TABLE pgbx_canary; --$$\t\x01\x1f'));
SELECT bx(format($$SELECT run_bench(1, 1, tags => %L)$$, jsonb_build_object(E'k''); DROP TABLE pgbx_canary; --', E'v\\''$$\n')));
SELECT bx(format($$SELECT run_bench(1, 1, conninfo => %L)$$, 'application_name=''it\''s\\ x\''); DROP TABLE pgbx_canary; --'''));
SELECT bx(format($$SELECT run_bench(1, 1, conninfo => %L)$$, 'postgresql:///?application_name=uri%27form'));
SELECT bx(format($$SELECT run_bench(1, 1, conninfo => %L)$$, E'application_name=x'' dbname=other'));
SELECT bx(format($$SELECT run_replay(%L, 1, 1, conninfo => %L)$$,
                 E'SELECT 1; -- ''); DROP TABLE pgbx_canary; --\nSELECT $x$''$x$;\n', :'nologin'));
SELECT bx($$SELECT pgbenchx.add_script(E'ok''); DROP TABLE pgbx_canary; --', 'SELECT 1;')$$);
SELECT bx($$SELECT run_bench(1, 1, E'tpcb-like@1, x''); DROP TABLE pgbx_canary; --@1')$$);
SELECT count(*) AS canary_rows FROM pgbx_canary;

-- nothing was recorded, no worker started
SELECT (SELECT count(*) FROM pgbenchx.runs) - runs AS runs_added,
       (SELECT count(*) FROM pgbenchx.sweeps) - sweeps AS sweeps_added,
       (SELECT count(*) FROM pgbenchx.custom_scripts) - scripts AS scripts_added,
       (SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchx%') AS workers
FROM counts_before;
DROP TABLE pgbx_canary;
ALTER TABLE IF EXISTS pgbx_hidden_branches RENAME TO pgbench_branches;
DROP FUNCTION bx(text);
RESET client_min_messages;
