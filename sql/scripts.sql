-- The script registry: checked at registration with pgbench's parse errors,
-- listed with the built-ins, shown like --show-script, dropped; and the
-- script and variables arguments of run_bench.
\i sql/include/common.sql
SELECT name, description, builtin FROM pgbenchx.scripts ORDER BY builtin DESC, name;
SELECT pgbenchx.script_text('tpcb-like');
SELECT pgbenchx.script_text('sel') = pgbenchx.script_text('select-only') AS prefix_works;
SELECT pgbx_try($$SELECT pgbenchx.script_text('s')$$);
SELECT pgbx_try($$SELECT pgbenchx.script_text('nosuch')$$);

-- registration
SELECT pgbenchx.add_script('two-selects', E'SELECT 1;\n-- a comment\nSELECT $x$;$x$ AS semi;\n');
SELECT pgbenchx.script_text('two-selects');
SELECT pgbx_try($$SELECT pgbenchx.add_script('two-selects', 'SELECT 2;')$$);
SELECT pgbenchx.add_script('two-selects', 'SELECT 2;', replace => true);
SELECT pgbenchx.script_text('two-selects');
SELECT name, builtin FROM pgbenchx.scripts WHERE NOT builtin;

-- refusals, with pgbench's line, command and caret
SELECT pgbx_try($$SELECT pgbenchx.add_script('bad-set', E'SELECT 1;\n\\set x 1 +\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('bad-fn', E'\\set x nosuch(1)\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('bad-cmd', E'\\frobnicate\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('bad-if', E'\\if 1\nSELECT 1;\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('bad-else', E'\\else\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('bad-gset', E'\\gset\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('bad-sleep', E'\\sleep 1 hour\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('shell', E'\\shell rm -rf /\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('setshell', E'\\setshell x echo 1\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('empty', E'-- nothing\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('tpcb-like', 'SELECT 1;')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('a@b', 'SELECT 1;')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('', 'SELECT 1;')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('x', NULL)$$);

-- dropping
SELECT pgbenchx.drop_script('two-selects');
SELECT pgbx_try($$SELECT pgbenchx.drop_script('two-selects')$$);
SELECT pgbx_try($$SELECT pgbenchx.drop_script('tpcb-like')$$);

-- run_bench's script and variables arguments
SELECT pgbx_try($$SELECT run_bench(1, 1, 'nosuch')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'select-only', variables => '{"1x": 1}')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'select-only', variables => '[1]')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'select-only', variables => '{"a": [1]}')$$);
SELECT pgbenchx.add_script('many-params', 'SELECT ' || (SELECT string_agg(':v' || i, ' + ') FROM generate_series(1, 256) i) || ';');
SELECT pgbx_try($$SELECT run_bench(1, 1, 'many-params', protocol => 'extended')$$) ~ '^22023: script "many-params" cannot run: statement has too many arguments \(maximum is 255\)' AS too_many_params;
SELECT pgbenchx.drop_script('many-params');
SELECT count(*) AS runs FROM pgbenchx.runs;

-- weighted mixes, in pgbench's name@weight spelling
SELECT pgx FROM (SELECT pgbx_try($$SELECT run_bench(1, 1, 'tpcb-like@x')$$) AS pgx) s;
SELECT pgbx_try($$SELECT run_bench(1, 1, 'tpcb-like@-1')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'tpcb-like@0, select-only@0')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'tpcb-like@1, nosuch@1')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, ',')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'select-only@1, ' || (SELECT string_agg('select-only@1', ', ') FROM generate_series(1, 128)))$$);
SELECT count(*) AS runs_after_mix_refusals FROM pgbenchx.runs;
