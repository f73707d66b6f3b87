-- The script language is that of the pgbench of the server's major (issue
-- 21; src/README.md, "pgbench per major"): \syncpipeline from 17, and from
-- 18 a misplaced \gset is reported at its own line.  pg_regress takes the
-- expected file that matches: pgbench_major.out (15, 16),
-- pgbench_major_1.out (17), pgbench_major_2.out (18 and later).
\i sql/include/common.sql
SELECT current_setting('server_version_num')::int >= 170000 AS has_syncpipeline,
       current_setting('server_version_num')::int >= 180000 AS gset_at_its_line;

-- \syncpipeline: 15 and 16 know no such command, 17 takes no argument
SELECT pgbx_try($$SELECT pgbenchx.add_script('sync', E'\\startpipeline\nSELECT 1;\n\\syncpipeline\nSELECT 2;\n\\endpipeline\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('sync-case', E'\\startpipeline\n\\SyncPipeline\n\\endpipeline\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('sync-arg', E'\\startpipeline\n\\syncpipeline now\n\\endpipeline\n')$$);
SELECT name FROM pgbenchx.scripts WHERE name LIKE 'sync%' ORDER BY name;

-- what every client would fail on is refused at the call, in pgbench's words
SELECT pgbx_try($$SELECT run_bench(1, 1, 'sync')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('sync-outside', E'SELECT 1;\n\\syncpipeline\n')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'sync-outside', protocol => 'extended')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('sync-open', E'\\startpipeline\n\\syncpipeline\n')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'sync-open', protocol => 'prepared')$$);

-- the line of a misplaced \gset: 15 to 17 count where their lexer resumed
SELECT pgbx_try($$SELECT pgbenchx.add_script('gset-first', E'\\gset\nSELECT 1;\n\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('gset-after-set', E'\\set x 1\n\n\\gset\nSELECT 1;\n')$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('aset-after-comment', E'-- c;\n\\aset\nSELECT 1;\n')$$);

SELECT count(*) AS runs FROM pgbenchx.runs;
SELECT count(*) AS dropped FROM (SELECT pgbenchx.drop_script(name) FROM pgbenchx.scripts WHERE name LIKE 'sync%') d;
