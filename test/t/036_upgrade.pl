# Upgrades: 0.1, the first release, to this version by ALTER EXTENSION
# pgbenchx UPDATE (through every upgrade script in between), written as a
# user who has months of results would live it.
#
# With 0.1's SQL installed and this library loaded, 0.1's entry points
# (bound to the C symbols of 0.1 with their arguments by position) refuse
# with a message that names ALTER EXTENSION pgbenchx UPDATE, start nothing
# and crash nothing, while the functions whose C binding did not change keep
# working; so do 0.2's (its launch functions refuse SQL of another version).
# The 0.1 catalogue is given results the way 0.1 stores them, written into
# its tables (a library runs only under its own version's SQL; 037 and 038
# make theirs with the real 0.1 and 0.2 libraries): a sweep, a run of a
# weighted mix and a replay, with samples and statement latencies, a
# registered script, an export imported into the same database, and a
# runner.  Then:
#   - ALTER EXTENSION UPDATE keeps every row of every table (md5 of each
#     over the columns 0.1 had, ordered by primary key) and every column,
#     with its type and default;
#   - the runner may run through the new seam (EXECUTE on the launch
#     functions), and pg_dump keeps those grants as the user's;
#   - new runs and sweeps work, and wait, reports, charts and compare work
#     on old and new ids;
#   - pg_dump and restore, from 0.1 and from the upgraded database, keep the
#     results;
#   - the catalogue of 0.1 + UPDATE is that of a fresh CREATE EXTENSION
#     (every member: routine definitions, views, columns, defaults,
#     comments of tables and columns, constraints, indexes, privileges,
#     initial privileges);
#   - the seam: options left out take their defaults, unknown names and
#     wrong types are refused, and a wrapper in a transaction block is
#     refused as the C function was.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('upgrade', extension => 0, conf => "max_worker_processes = 16\n");
$node->safe_psql('postgres', 'CREATE DATABASE up');
$node->safe_psql('postgres', 'CREATE ROLE runner LOGIN');
sub q_up { return $node->safe_psql('up', $_[0]); }
# this version: default_version of the control file
my ($version) = slurp_file("$FindBin::RealBin/../../pgbenchx.control") =~ /^default_version = '([^']+)'/m;
ok(defined $version && $version ne '0.1', "this library is version $version");

# --- 0.2's SQL with this library -----------------------------------------------
# 0.2 ships no install script of its own: CREATE EXTENSION VERSION '0.2' runs
# 0.1's and the upgrade to 0.2, as a database made under 0.2 has them
$node->safe_psql('postgres', 'CREATE DATABASE up02');
$node->safe_psql('up02', "CREATE EXTENSION pgbenchx VERSION '0.2'; SET client_min_messages = warning; SELECT pgbench_init(1)");
foreach my $call ("run_bench(1, 1)", "run_sweep(1, 2, 1)", "run_sweep('{1,2}'::int[], 1)", "run_replay('SELECT 1;', 1, 1)")
{
	my ($ret, $out, $err) = $node->psql('up02', "\\set VERBOSITY verbose\nSELECT $call");
	like($err, qr/ERROR:  55000: pgbenchx's SQL is version 0\.2, the library \Q$version\E.*HINT:  Run ALTER EXTENSION pgbenchx UPDATE\./s,
		"0.2 SQL, library $version: $call is refused, naming both versions and ALTER EXTENSION pgbenchx UPDATE");
}
is($node->safe_psql('up02', "SELECT count(*) FROM pgbenchx.runs") . ' ' . $node->safe_psql('up02', "SELECT count(*) FROM pgbenchx.sweeps"), '0 0',
	'0.2 SQL: nothing recorded');
ok(nothing_left($node), '0.2 SQL: nothing started');
$node->safe_psql('up02', 'ALTER EXTENSION pgbenchx UPDATE');
my $run02 = $node->safe_psql('up02', "SELECT run_bench(1, transactions => 10, checkpoint => false)");
$node->safe_psql('up02', "SET client_min_messages = warning; CALL pgbenchx.wait($run02)");
is($node->safe_psql('up02', "SELECT status FROM pgbenchx.runs WHERE run_id = $run02"), 'completed', '0.2 + UPDATE: a run completes');
$node->safe_psql('postgres', 'DROP DATABASE up02');
sub wait_for { q_up("SET client_min_messages = warning; CALL pgbenchx.wait($_[0])"); }

q_up("CREATE EXTENSION pgbenchx VERSION '0.1'");
is(q_up("SELECT extversion FROM pg_extension WHERE extname = 'pgbenchx'"), '0.1', 'installed 0.1');
q_up('SET client_min_messages = warning; SELECT pgbench_init(1)');

# --- 0.1's SQL with this library -------------------------------------------
foreach my $call ("run_bench(1, 1)", "run_sweep(1, 2, 1)", "run_sweep('{1,2}'::int[], 1)",
	"run_replay('SELECT 1;', 1, 1)")
{
	my ($ret, $out, $err) = $node->psql('up', "\\set VERBOSITY verbose\nSELECT $call");
	isnt($ret, 0, "0.1 SQL, library $version: $call fails");
	like($err, qr/ERROR:  55000: pgbenchx's SQL is version 0\.1, the library \Q$version\E/,
		"$call: the message names both versions (object_not_in_prerequisite_state)");
	like($err, qr/HINT:  Run ALTER EXTENSION pgbenchx UPDATE\./, "$call: the hint names ALTER EXTENSION pgbenchx UPDATE");
}
is(q_up("SELECT count(*) FROM pgbenchx.runs") . ' ' . q_up("SELECT count(*) FROM pgbenchx.sweeps"), '0 0',
	'0.1 SQL, this library: nothing recorded');
ok(nothing_left($node), '0.1 SQL, this library: nothing started');
is(q_up(q{SELECT pgbenchx.sweep_ladder(1, 8)::text || ' ' || pgbenchx.eval('1 + 2')
	          || ' ' || length(pgbenchx.script_text('tpcb')) || ' ' || (pgbenchx.capture_environment() > 0)}),
	'{1,2,4,8} 3 ' . length(q_up("SELECT pgbenchx.script_text('tpcb')")) . ' true',
	'0.1 SQL, this library: the functions whose C binding did not change work');

# --- results under 0.1 ----------------------------------------------------------
# A library refuses to run under SQL of another version (the tables a run
# writes change between versions), so 0.1's rows are written here as 0.1
# stores them: a sweep of two runs, a lone run of a weighted mix and a
# replay of two runs, each with its samples and statement latencies, in
# 0.1's own tables.  Real 0.1 and 0.2 libraries make theirs in 037 and 038.
q_up(q{SELECT pgbenchx.add_script('mine', E'\\\\set a random(1, 10)\nSELECT :a;\n')});
my $env = q_up('SELECT pgbenchx.capture_environment()');
sub insert_run
{
	my ($sweep, $script, $clients, $tps, %more) = @_;
	my $replay = $more{replay} ? 'true' : 'false';
	my $qpm = $more{replay} ? $tps * 60 : 'NULL';
	my $label = $more{label} ? "'$more{label}'" : 'NULL';
	my $tags = $more{tags} ? "'$more{tags}'" : 'NULL';
	my $id = q_up(qq{
		INSERT INTO pgbenchx.runs (sweep_id, status, script, protocol, scale, clients, jobs, duration,
		    started_at, finished_at, transactions, failed, tps, tps_incl_conn, latency_avg_ms, latency_stddev_ms,
		    latency_p50_ms, latency_p90_ms, latency_p95_ms, latency_p99_ms, latency_max_ms, conn_time_ms, label,
		    aborted_clients, driver_cpu_s, bench_duration_s, random_seed, max_tries, connect_per_transaction,
		    serialization_failures, deadlock_failures, retried, retries, tags, checkpoints, autovacuums,
		    environment_id, replay, qpm, owner, notices, samples_lost, samples_lost_transactions)
		VALUES ($sweep, 'completed', '$script', 'simple', 1, $clients, 1, 2,
		    now() - interval '1 hour', now() - interval '1 hour' + interval '2 s', 2 * $tps, 0, $tps, $tps * 0.99,
		    1000.0 * $clients / $tps, 0.25, 0.8, 1.1, 1.3, 2.0, 5.5, 3.25, $label,
		    0, 0.5, 2.0, 12345, 1, false, 0, 0, 0, 0, $tags, 0, 0, $env, $replay, $qpm, 'postgres', 0, 0, 0)
		RETURNING run_id});
	q_up(qq{INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_avg_ms, latency_p99_ms, failed)
		SELECT $id, s, $tps, $tps, 1000.0 * $clients / $tps, 2.0, 0 FROM generate_series(1, 2) s});
	q_up(qq{INSERT INTO pgbenchx.statement_stats (run_id, script, command, command_text, executions, latency_avg_ms)
		VALUES ($id, '$script', 1, 'SELECT 1;', 2 * $tps, 0.5)});
	return $id;
}
sub insert_sweep
{
	my ($script, $clients, $label, $replay) = @_;
	return q_up(qq{
		INSERT INTO pgbenchx.sweeps (status, script, clients, duration, label, finished_at, protocol, environment_id, owner)
		VALUES ('completed', '$script', '$clients', 2, '$label', now() - interval '50 min', 'simple', $env, 'postgres')
		RETURNING sweep_id});
}
my $old_sweep = insert_sweep('select-only', '{1,2}', 'old sweep');
insert_run($old_sweep, 'select-only', 1, 1000);
insert_run($old_sweep, 'select-only', 2, 1800);
my $old_run = insert_run('NULL', 'tpcb-like@3, mine@1', 2, 500, tags => '{"era": "0.1"}');
my $old_replay = insert_sweep('replay', '{1,2}', 'old replay');
insert_run($old_replay, 'replay', 1, 3000, replay => 1);
insert_run($old_replay, 'replay', 2, 5000, replay => 1);
is(q_up("SELECT string_agg(status, ',' ORDER BY run_id) FROM pgbenchx.runs"),
	'completed,completed,completed,completed,completed', 'under 0.1: the sweep, the run and the replay are stored');
# This library refuses the import of older SQL (its caller_role() read the
# outer user: test/t/073); the import 0.1 made is made here as released,
# its caller_role() the session's user.
q_up(q{CREATE OR REPLACE FUNCTION pgbenchx.caller_role() RETURNS name LANGUAGE sql AS 'SELECT session_user'});
my $imported = q_up("SELECT (pgbenchx.import(pgbenchx.export(ARRAY[$old_sweep])))[1]");
isnt($imported, $old_sweep, 'under 0.1: an export imported into the same database is a new sweep');
q_up("SELECT pgbenchx.grant_runner('runner')");

# every table of the extension: md5 of its rows ordered by primary key, and its columns
my $tables_sql = q{
	SELECT c.oid::regclass::text || '|' ||
	       (SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY k.ord)
	        FROM pg_index i, unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
	        JOIN pg_attribute a ON a.attnum = k.attnum
	        WHERE i.indrelid = c.oid AND i.indisprimary AND a.attrelid = c.oid)
	FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
	WHERE d.classid = 'pg_class'::regclass AND d.deptype = 'e' AND c.relkind = 'r'
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pgbenchx')
	ORDER BY 1};
# the columns of each table, "table|col, col, ..." (the row hashes of
# table_state are over these, so that columns added later by an upgrade
# leave the hashes of the old columns comparable)
my $table_columns_sql = q{
	SELECT string_agg(c.oid::regclass::text || '|' ||
	       (SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) FROM pg_attribute a
	        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), E'\n' ORDER BY c.oid::regclass::text)
	FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
	WHERE d.classid = 'pg_class'::regclass AND d.deptype = 'e' AND c.relkind = 'r'
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pgbenchx')};
my %columns01 = map { split /\|/ } split /\n/, q_up($table_columns_sql);
sub table_state
{
	my ($db) = @_;
	my @out;
	foreach my $t (split /\n/, $node->safe_psql($db, $tables_sql))
	{
		my ($table, $pk) = split /\|/, $t;
		# a table the update adds holds no old results
		my $cols = $columns01{$table} or next;
		push @out, "$table: " . $node->safe_psql($db,
			"SELECT count(*) || ' ' || coalesce(md5(string_agg(ROW($cols)::text, E'\\n' ORDER BY $pk)), '-') FROM $table x");
	}
	push @out, 'id_seq ' . $node->safe_psql($db, 'SELECT last_value FROM pgbenchx.id_seq');
	return join("\n", @out);
}
sub columns
{
	my ($db) = @_;
	return $node->safe_psql($db, q{
		SELECT string_agg(format('%s.%s %s %s %s', a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod),
		                         a.attnotnull, pg_get_expr(ad.adbin, ad.adrelid)), E'\n' ORDER BY a.attrelid::regclass::text, a.attnum)
		FROM pg_attribute a
		JOIN pg_depend d ON d.objid = a.attrelid AND d.classid = 'pg_class'::regclass AND d.deptype = 'e'
		LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
		WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pgbenchx')
		  AND a.attnum > 0 AND NOT a.attisdropped});
}
my $before = table_state('up');
my $columns_before = columns('up');
like($before, qr/pgbenchx\.runs: 7 [0-9a-f]{32}/, 'the runs are there before the update');
like($before, qr/pgbenchx\.custom_scripts: 1 [0-9a-f]{32}/, 'the script is there before the update');
like($before, qr/pgbenchx\.imports: 3 [0-9a-f]{32}/, 'the import is there before the update');

# a dump of the 0.1 database
my $dump01 = $node->basedir . '/up01.sql';
$node->command_ok([ 'pg_dump', '-f', $dump01, '-d', $node->connstr('up') ], 'pg_dump of the 0.1 database');

# --- the update ------------------------------------------------------------------
q_up('ALTER EXTENSION pgbenchx UPDATE');
is(q_up("SELECT extversion FROM pg_extension WHERE extname = 'pgbenchx'"), $version, "updated to $version");
is(table_state('up'), $before, 'every row of every table and the id sequence are unchanged by the update');
my %columns_after = map { $_ => 1 } split /\n/, columns('up');
is(join("\n", grep { !$columns_after{$_} } split /\n/, $columns_before), '',
	'every column of every table is still there after the update, with its type, NOT NULL and default');
is(q_up(q{SELECT string_agg(has_function_privilege('runner', f, 'EXECUTE')::text, ',')
	        FROM unnest(ARRAY['pgbenchx.launch_bench(jsonb)', 'pgbenchx.launch_sweep(jsonb)', 'pgbenchx.launch_replay(jsonb)']) f}),
	'true,true,true', 'the runner may execute the launch functions of its entry points');
is(q_up(q{SELECT count(*) FROM pg_init_privs i, unnest(i.initprivs) a
	        WHERE i.objoid IN ('pgbenchx.launch_bench(jsonb)'::regprocedure, 'pgbenchx.launch_sweep(jsonb)'::regprocedure,
	                           'pgbenchx.launch_replay(jsonb)'::regprocedure)
	          AND a::text LIKE 'runner=%'}),
	'0', "the runner's grants are the user's, not the extension's initial privileges");

# --- new runs, and old and new ids together ---------------------------------------
my $new_run = q_up("SELECT run_bench(1, transactions => 20, checkpoint => false, label => 'new run')");
wait_for($new_run);
my $new_sweep = q_up("SELECT run_sweep(1, 2, transactions => 20, checkpoint => false, label => 'new sweep')");
wait_for($new_sweep);
my $new_replay = q_up("SELECT run_replay(E'SELECT 1;\\n', 1, 1, checkpoint => false)");
wait_for($new_replay);
is(q_up("SELECT string_agg(status, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE run_id = $new_run OR sweep_id IN ($new_sweep, $new_replay)"),
	'completed,completed,completed,completed', 'after the update: a run, a sweep and a replay complete');
ok($new_run > $imported, 'new ids continue after the old ones');
wait_for($old_sweep);
is(q_up("SELECT count(*) FROM pgbenchx.sweep_report($old_sweep)") . ' ' . q_up("SELECT count(*) FROM pgbenchx.sweep_report($new_sweep)"),
	'2 2', 'sweep_report on an old and a new sweep');
like(q_up("SELECT pgbenchx.chart_sweeps(ARRAY[$old_sweep, $new_sweep, $imported])"), qr/^<svg.*old sweep.*new sweep/s,
	'chart_sweeps of old, new and imported sweeps');
like(q_up("SELECT pgbenchx.chart_run($old_run)"), qr/^<svg/, 'chart_run of an old run');
is(q_up("SELECT count(*) FROM pgbenchx.compare($old_sweep, $new_sweep) WHERE tps_a > 0 AND tps_b > 0"), '2',
	'compare of an old and a new sweep');
is(q_up("SELECT count(*) FROM pgbenchx.compare($old_sweep, $imported) WHERE tps_a = tps_b"), '2',
	'compare of the old sweep and its import');

# --- the seam -----------------------------------------------------------------------
my $defaults = q_up(q{SELECT pgbenchx.launch_bench('{"clients": 1, "transactions": 5, "checkpoint": false}')});
wait_for($defaults);
is(q_up("SELECT concat_ws(' ', status, script, protocol, max_tries, connect_per_transaction, tags IS NULL) FROM pgbenchx.runs WHERE run_id = $defaults"),
	'completed tpcb-like simple 1 f t', 'options left out of the object take their defaults (an older wrapper works)');
foreach my $case (
	[ '{"clients": 1, "duration": 1, "speed": 3}', qr/ERROR:  run_bench has no argument "speed".*HINT:  Run ALTER EXTENSION pgbenchx UPDATE/s ],
	[ '{"clients": "x", "duration": 1}', qr/ERROR:  argument "clients" must be an integer/ ],
	[ '{"clients": 1.5, "duration": 1}', qr/ERROR:  argument "clients" must be an integer/ ],
	[ '{"clients": 1e10, "duration": 1}', qr/ERROR:  argument "clients" is out of range/ ],
	[ '{"duration": 1}', qr/ERROR:  run_bench needs argument "clients"/ ],
	[ '{"clients": 1, "duration": 1, "protocol": null}', qr/ERROR:  argument "protocol" must not be null/ ],
	[ '[1, 2]', qr/ERROR:  the options of run_bench must be a jsonb object/ ])
{
	my ($ret, $out, $err) = $node->psql('up', "SELECT pgbenchx.launch_bench('$case->[0]')");
	like($err, $case->[1], "launch_bench('$case->[0]') is refused");
}
my ($ret, $out, $err) = $node->psql('up', q{SELECT pgbenchx.launch_sweep('{"min_clients": 1, "max_clients": 2, "transactions": 5, "check_tpcb": "yes"}')});
like($err, qr/ERROR:  argument "check_tpcb" must be a boolean/, 'launch_sweep: a wrong type is refused');
($ret, $out, $err) = $node->psql('up', q{SELECT pgbenchx.launch_replay('{"queries": "SELECT 1;", "min_clients": 1, "max_clients": 1, "vacuum": true}')});
like($err, qr/ERROR:  run_replay has no argument "vacuum"/, 'launch_replay: an option of another call is refused');

# the wrapper keeps launch's transaction-block logic
($ret, $out, $err) = $node->psql('up', "BEGIN; SELECT run_bench(1, transactions => 5); ROLLBACK;");
like($err, qr/ERROR:  run_bench cannot run inside a transaction block/, 'the wrapper in BEGIN ... COMMIT is refused');
($ret, $out, $err) = $node->psql('up', "SELECT 1 \\; SELECT run_sweep('{1}'::int[], transactions => 5)");
like($err, qr/ERROR:  run_sweep cannot run inside a transaction block/, 'the wrapper in an implicit block of statements is refused');
my $in_do = q_up(q{
	CREATE TEMP TABLE got (id bigint);
	DO $$
	BEGIN
		BEGIN
			INSERT INTO got SELECT run_bench(1, transactions => 5, checkpoint => false);
		EXCEPTION WHEN others THEN
			RAISE;
		END;
	END $$;
	SELECT id FROM got});
ok($in_do > 0, 'the wrapper in an exception block of its own statement runs (no transaction block)');
wait_for($in_do);
is(q_up("SELECT count(*) FROM pgbenchx.runs WHERE run_id > $defaults AND run_id <> $in_do"), '0', 'the refusals started nothing');

# --- pg_dump and restore across the upgrade ------------------------------------------
$node->safe_psql('postgres', 'CREATE DATABASE from01');
# 0.3 gave run_bench, both run_sweep and run_replay a last parameter
# (record_system), 0.4 pgbench_init one (jobs), 0.5 run_bench two more
# (log_transactions, sampling_rate): a dump taken before names
# them by their old signatures in its GRANTs to runners, which fail, and
# only those; grant_runner again gives the runner the new ones
# (docs/upgrading.md, "Grants after a restore of an older dump").
{
	my ($ret, $out, $err) = $node->psql('from01', undef, on_error_stop => 0, extra_params => [ '-f', $dump01 ]);
	my @errors = $err =~ /ERROR:  ([^\n]*)/g;
	is(join("\n", grep { !/^function public\.(run_bench|run_sweep|run_replay|pgbench_init)\(.*\) does not exist$/ } @errors), '',
		"restore the 0.1 dump (CREATE EXTENSION installs $version): no error but the old wrappers' GRANTs");
	cmp_ok(scalar(@errors), '<=', 5, 'at most one per wrapper and pgbench_init');
	$node->safe_psql('from01', "SELECT pgbenchx.grant_runner('runner')");
	is($node->safe_psql('from01', q{SELECT has_function_privilege('runner', 'run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean, boolean, text[], float8, boolean, float8, boolean, boolean, boolean, boolean)', 'EXECUTE')}),
		't', 'grant_runner after the restore gives the runner the new run_bench');
}
is($node->safe_psql('from01', "SELECT extversion FROM pg_extension WHERE extname = 'pgbenchx'"), $version, "the restored 0.1 dump is $version");
is(table_state('from01'), $before, "the 0.1 dump restored into $version: every row and the id sequence");

my $dump02 = $node->basedir . '/up02.sql';
$node->command_ok([ 'pg_dump', '-f', $dump02, '-d', $node->connstr('up') ], 'pg_dump of the upgraded database');
$node->safe_psql('postgres', 'CREATE DATABASE restored');
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', $dump02, '-d', $node->connstr('restored') ],
	'restore the upgraded database');
is(table_state('restored'), table_state('up'), 'the upgraded database restored: every row and the id sequence');
is($node->safe_psql('restored', q{SELECT has_function_privilege('runner', 'pgbenchx.launch_sweep(jsonb)', 'EXECUTE')}),
	't', "the restore keeps the runner's grant on the launch functions");

# --- 0.1 + UPDATE is a fresh install --------------------------------------------------------
$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('fresh', "CREATE EXTENSION pgbenchx; SELECT pgbenchx.grant_runner('runner')");
my $describe = q{
	WITH m AS (SELECT d.classid, d.objid FROM pg_depend d
	           WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pgbenchx') AND d.deptype = 'e'),
	ip AS (SELECT i.classoid, i.objoid, i.objsubid, i.initprivs::text AS initprivs FROM pg_init_privs i)
	SELECT string_agg(x, E'\n' ORDER BY x) FROM (
		SELECT 'routine ' || p.oid::regprocedure::text || E'\n'
		       -- an aggregate has no definition of its own (pg_get_functiondef refuses it): its parts
		       || CASE WHEN p.prokind = 'a' THEN (SELECT format('aggregate sfunc %s stype %s combine %s final %s init %s parallel %s',
		                                          ag.aggtransfn::regprocedure, format_type(ag.aggtranstype, NULL), ag.aggcombinefn,
		                                          ag.aggfinalfn, ag.agginitval, p.proparallel)
		                                   FROM pg_aggregate ag WHERE ag.aggfnoid = p.oid)
		               ELSE pg_get_functiondef(p.oid) END
		       || E'\nacl ' || coalesce(p.proacl::text, '-') || E'\ninit ' || coalesce(ip.initprivs, '-')
		       || E'\ncomment ' || coalesce(obj_description(p.oid, 'pg_proc'), '-') AS x
		FROM m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
		LEFT JOIN ip ON ip.classoid = 'pg_proc'::regclass AND ip.objoid = p.oid AND ip.objsubid = 0
		UNION ALL
		SELECT 'relation ' || c.relkind::text || ' ' || c.oid::regclass::text
		       || E'\nview ' || coalesce(CASE WHEN c.relkind = 'v'::"char" THEN pg_get_viewdef(c.oid) END, '-')
		       || E'\nacl ' || coalesce(c.relacl::text, '-') || E'\ninit ' || coalesce(ip.initprivs, '-')
		       || E'\ncomment ' || coalesce(obj_description(c.oid, 'pg_class'), '-')
		       || E'\ncolumns ' || coalesce((SELECT string_agg(format('%s %s %s %s %s', a.attname, format_type(a.atttypid, a.atttypmod),
		                                         a.attnotnull, pg_get_expr(ad.adbin, ad.adrelid), a.attacl)
		                                         || coalesce(' -- ' || col_description(a.attrelid, a.attnum), ''), ', ' ORDER BY a.attnum)
		                                  FROM pg_attribute a LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
		                                  WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '-')
		       || E'\nconstraints ' || coalesce((SELECT string_agg(con.conname || ' ' || pg_get_constraintdef(con.oid), ', ' ORDER BY con.conname)
		                                      FROM pg_constraint con WHERE con.conrelid = c.oid), '-')
		       || E'\nindexes ' || coalesce((SELECT string_agg(pg_get_indexdef(i.indexrelid), ', ' ORDER BY pg_get_indexdef(i.indexrelid))
		                                  FROM pg_index i WHERE i.indrelid = c.oid), '-')
		FROM m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
		LEFT JOIN ip ON ip.classoid = 'pg_class'::regclass AND ip.objoid = c.oid AND ip.objsubid = 0
		UNION ALL
		SELECT 'schema ' || n.nspname || ' acl ' || coalesce(n.nspacl::text, '-') || ' comment ' || coalesce(obj_description(n.oid, 'pg_namespace'), '-')
		FROM m JOIN pg_namespace n ON m.classid = 'pg_namespace'::regclass AND n.oid = m.objid
		UNION ALL
		SELECT 'member ' || pg_describe_object(m.classid, m.objid, 0) FROM m
		UNION ALL
		SELECT 'config ' || coalesce((SELECT string_agg(t::regclass::text, ', ' ORDER BY t::regclass::text)
		                              FROM pg_extension e, unnest(e.extconfig) t WHERE e.extname = 'pgbenchx'), '-')
	) q};
my $fresh = $node->safe_psql('fresh', $describe);
like($fresh, qr/routine pgbenchx\.launch_bench\(jsonb\)/, 'the description lists the launch functions');
like($fresh, qr/view CREATE VIEW|view  SELECT|relation v pgbenchx\.progress/, 'the description lists the views');
is($node->safe_psql('up', $describe), $fresh, '0.1 + ALTER EXTENSION UPDATE has the catalogue of a fresh CREATE EXTENSION');

# --- nothing crashed -----------------------------------------------------------------
ok(nothing_left($node), 'nothing left running');
my $log = slurp_file($node->logfile);
unlike($log, qr/terminated by signal|was terminated by exception|server process .* exited with exit code [2-9]|all server processes terminated/,
	'the server log shows no crash');

$node->stop;
done_testing();
