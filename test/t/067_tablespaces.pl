# pgbench_init(tablespace =>, index_tablespace =>): pgbench -i's
# --tablespace and --index-tablespace (issue 23, seed 001 on one server;
# issue 24's --tablespace).
#
#  - the DDL (pg_dump) and the rows (counts and sums, as test 001) of stock
#    pgbench -i --tablespace --index-tablespace, side by side, plain and
#    range-partitioned;
#  - the files the page writer, the B-tree loader and the parallel load
#    (jobs => 2) write land in the tablespaces' directories
#    (pg_relation_filepath starts with pg_tblspc/<oid>/);
#  - a name that is no tablespace is refused before anything is dropped;
#    a role without CREATE on the tablespace gets PostgreSQL's own
#    permission error, and nothing changes;
#  - seed 001 on one server: a run on each of two databases whose pgbench
#    tables are in two tablespaces, driven from a third with conninfo
#    dbname=...: each run's environment names its tablespace and its file
#    system, env_diff shows the difference; a run on pg_default names none.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('tblspc', extension => 0,
	conf => "max_worker_processes = 10\n");

# two tablespaces, each its own directory (on a real machine, its own
# file system)
my %ts_oid;
foreach my $ts ('ts_a', 'ts_b')
{
	my $dir = $node->basedir . "/$ts";
	mkdir $dir or die "mkdir $dir: $!";
	$node->safe_psql('postgres', "CREATE TABLESPACE $ts LOCATION '$dir'");
	$ts_oid{$ts} = $node->safe_psql('postgres',
		"SELECT oid FROM pg_tablespace WHERE spcname = '$ts'");
}
$node->safe_psql('postgres', 'CREATE DATABASE by_pgbench');
$node->safe_psql('postgres', 'CREATE DATABASE by_pgbenchx');
$node->safe_psql('by_pgbenchx', 'CREATE EXTENSION pgbenchx; CREATE EXTENSION amcheck');

sub init
{
	my ($db, $args) = @_;
	return $node->safe_psql($db, "SET client_min_messages = warning; SELECT pgbench_init($args)");
}

# counts and sums of every pgbench table (and partition), as test 001
sub table_sums
{
	my ($db) = @_;
	my @rels = split /\n/, $node->safe_psql($db, q{
		SELECT c.relname FROM pg_class c
		WHERE c.relname LIKE 'pgbench\_%' AND c.relkind = 'r'
		  AND c.relnamespace = 'public'::regnamespace ORDER BY 1});
	my %sums = (branches => 'sum(bid), sum(bbalance)', tellers => 'sum(tid), sum(bid), sum(tbalance)',
		history => 'sum(tid)', accounts => 'sum(aid), sum(bid), sum(abalance)');
	my $out = '';
	foreach my $rel (@rels)
	{
		my ($kind) = $rel =~ /^pgbench_(\w+?)(?:_\d+)?$/;
		$out .= "$rel " . $node->safe_psql($db,
			"SELECT count(*), $sums{$kind}, md5(coalesce(string_agg(filler, '' ORDER BY 1), '')) FROM $rel") . "\n";
	}
	return $out;
}

sub schema_of
{
	my ($db) = @_;
	my ($stdout, $stderr);
	$node->run_log(
		[ 'pg_dump', '--schema-only', '--no-owner', '-t', 'pgbench_*', '-d', $node->connstr($db) ],
		'>', \$stdout, '2>', \$stderr);
	$stdout =~ s/^\\(un)?restrict .*$//mg;
	return $stdout;
}

# every relation's file and the tablespace it should be in
sub files_in
{
	my ($db) = @_;
	return $node->safe_psql($db, q{
		SELECT string_agg(format('%s %s', c.relname, pg_relation_filepath(c.oid)), E'\n' ORDER BY c.relname)
		FROM pg_class c
		WHERE c.relname LIKE 'pgbench\_%' AND c.relkind IN ('r', 'i')
		  AND c.relnamespace = 'public'::regnamespace});
}

sub check_files
{
	my ($name, $db) = @_;
	my $files = files_in($db);
	my $bad = 0;
	foreach my $line (split /\n/, $files)
	{
		my ($rel, $path) = split / /, $line;
		my $want = $rel =~ /_pkey$/ ? $ts_oid{ts_b} : $ts_oid{ts_a};
		$bad++, diag("$rel is at $path, not in tablespace $want")
		  unless $path =~ m{^pg_tblspc/$want/};
		# the file is really there, under the tablespace's directory
		$bad++, diag("$path: no such file")
		  unless -f $node->data_dir . "/$path";
	}
	ok($files =~ /pgbench_accounts/ && $bad == 0,
		"$name: tables in ts_a, primary keys in ts_b, files there");
}

my @cases = (
	[ 'plain', [ '-s', '1' ], 'scale => 1' ],
	[ 'plain, jobs 2', [ '-s', '1' ], 'scale => 1, jobs => 2' ],
	[ 'range partitions, jobs 2', [ '-s', '1', '--partitions=2' ],
		'scale => 1, partitions => 2, jobs => 2' ],
);
foreach my $case (@cases)
{
	my ($name, $pgbench_args, $init_args) = @$case;

	$node->command_ok([ 'pgbench', '-i', '-q', @$pgbench_args,
			'--tablespace=ts_a', '--index-tablespace=ts_b',
			'-d', $node->connstr('by_pgbench') ],
		"$name: pgbench -i --tablespace --index-tablespace");
	like(init('by_pgbenchx',
			"$init_args, tablespace => 'ts_a', index_tablespace => 'ts_b'"),
		qr/^done in /, "$name: pgbench_init with tablespaces");
	is(table_sums('by_pgbenchx'), table_sums('by_pgbench'), "$name: same counts and sums");
	is(schema_of('by_pgbenchx'), schema_of('by_pgbench'), "$name: same DDL, tablespaces included");
	check_files($name, 'by_pgbenchx');
	check_files("$name (pgbench -i)", 'by_pgbench');
	is($node->safe_psql('by_pgbenchx', q{
		SELECT count(*) FROM pg_class c
		WHERE c.relname LIKE 'pgbench\_%\_pkey' AND c.relkind = 'i'
		  AND NOT (SELECT true FROM (SELECT bt_index_parent_check(c.oid, true, true)) x)}),
		'0', "$name: amcheck clean");
}

# a name that is no tablespace: refused, nothing dropped
my $before = files_in('by_pgbenchx');
my ($ret, $stdout, $stderr) = $node->psql('by_pgbenchx',
	q{\set VERBOSITY verbose
	  SELECT pgbench_init(1, tablespace => 'nosuch')});
like($stderr, qr/ERROR:  42704: tablespace "nosuch" does not exist/, 'an unknown tablespace is refused');
like($stderr, qr/HINT:  Create it first with CREATE TABLESPACE/, '... with a hint');
($ret, $stdout, $stderr) = $node->psql('by_pgbenchx',
	q{SELECT pgbench_init(1, index_tablespace => '')});
like($stderr, qr/tablespace "" does not exist/, 'an empty index_tablespace is refused');
($ret, $stdout, $stderr) = $node->psql('by_pgbenchx',
	q{SELECT pgbench_init(1, tablespace => 'TS_A')});
like($stderr, qr/tablespace "TS_A" does not exist/, 'the name is taken as written (quoted), not folded');
is(files_in('by_pgbenchx'), $before, 'nothing was dropped');

# a role without CREATE on the tablespace: PostgreSQL's own error, nothing changes
$node->safe_psql('by_pgbenchx', q{
	CREATE ROLE alice LOGIN;
	GRANT EXECUTE ON FUNCTION pgbench_init(int, int, int, text, boolean, boolean, int, text, text) TO alice;
	CREATE SCHEMA alice AUTHORIZATION alice;
	ALTER ROLE alice SET search_path = alice});
like($node->safe_psql('by_pgbenchx', "SET client_min_messages = warning; SELECT public.pgbench_init(1, jobs => 1)",
		extra_params => [ '-U', 'alice' ]),
	qr/^done in /, 'alice makes her own tables in the default tablespace');
my $alice_before = $node->safe_psql('by_pgbenchx', q{
	SELECT string_agg(format('%s %s', relname, relfilenode), ' ' ORDER BY relname)
	FROM pg_class WHERE relnamespace = 'alice'::regnamespace});
($ret, $stdout, $stderr) = $node->psql('by_pgbenchx',
	q{\set VERBOSITY verbose
	  SELECT public.pgbench_init(1, tablespace => 'ts_a')},
	extra_params => [ '-U', 'alice' ]);
like($stderr, qr/ERROR:  42501: permission denied for tablespace ts_a/,
	"without CREATE on the tablespace: PostgreSQL's own permission error");
($ret, $stdout, $stderr) = $node->psql('by_pgbenchx',
	q{SELECT public.pgbench_init(1, index_tablespace => 'ts_b')},
	extra_params => [ '-U', 'alice' ]);
like($stderr, qr/permission denied for tablespace ts_b/, '... for index_tablespace too');
is($node->safe_psql('by_pgbenchx', q{
	SELECT string_agg(format('%s %s', relname, relfilenode), ' ' ORDER BY relname)
	FROM pg_class WHERE relnamespace = 'alice'::regnamespace}),
	$alice_before, "nothing changed: alice's tables are the same files");
$node->safe_psql('postgres', 'GRANT CREATE ON TABLESPACE ts_a TO alice');
like($node->safe_psql('by_pgbenchx',
		"SET client_min_messages = warning; SELECT public.pgbench_init(1, jobs => 2, tablespace => 'ts_a')",
		extra_params => [ '-U', 'alice' ]),
	qr/^done in /, 'with CREATE on it, alice makes her tables there');
like($node->safe_psql('by_pgbenchx',
		q{SELECT pg_relation_filepath('alice.pgbench_accounts')}),
	qr{^pg_tblspc/$ts_oid{ts_a}/}, '... and her accounts are in ts_a');

# seed 001 on one server: two databases, two tablespaces, driven from postgres
$node->safe_psql('postgres', 'CREATE EXTENSION pgbenchx');
my %run;
foreach my $side ([ 'db_a', 'ts_a' ], [ 'db_b', 'ts_b' ], [ 'db_default', undef ])
{
	my ($db, $ts) = @$side;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, 'CREATE EXTENSION pgbenchx');
	init($db, defined $ts ? "1, tablespace => '$ts'" : '1');
	$run{$db} = $node->safe_psql('postgres',
		"SELECT run_bench(2, 2, 'select-only', checkpoint => false, conninfo => 'dbname=$db')");
	$node->safe_psql('postgres', "SET client_min_messages = warning; CALL pgbenchx.wait($run{$db})");
	is($node->safe_psql('postgres', "SELECT status FROM pgbenchx.runs WHERE run_id = $run{$db}"),
		'completed', "the run on $db completed");
}
sub env_of
{
	my ($db) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT concat_ws('|', coalesce(e.settings->>'tablespace', 'NULL'), e.settings ? 'tablespace_fstype',
		                 e.settings ? 'tablespace_mount_options', e.settings ? 'tablespace_device',
		                 e.settings->>'tablespace_fstype' IS NOT DISTINCT FROM e.data_fstype)
		FROM pgbenchx.runs r JOIN pgbenchx.environments e USING (environment_id)
		WHERE r.run_id = $run{$db}});
}
# the tablespaces' directories are under the node's directory: the data
# directory's file system
is(env_of('db_a'), 'ts_a|t|t|t|t', "the run on db_a: its environment names ts_a and its file system");
is(env_of('db_b'), 'ts_b|t|t|t|t', "the run on db_b: its environment names ts_b and its file system");
is(env_of('db_default'), 'NULL|f|f|f|f', 'a run on pg_default: no tablespace');
is($node->safe_psql('postgres', qq{
		SELECT string_agg(format('%s %s %s', attribute, a, b), ', ' ORDER BY attribute)
		FROM pgbenchx.env_diff($run{db_a}, $run{db_b}) WHERE attribute LIKE 'setting:tablespace%'}),
	'setting:tablespace ts_a ts_b', 'env_diff shows the two tablespaces');
like($node->safe_psql('postgres', qq{
		SELECT string_agg(attribute, ',') FROM pgbenchx.env_diff($run{db_a}, $run{db_default})}),
	qr/setting:tablespace_fstype/, 'env_diff against pg_default shows the tablespace file system');
# an environment without a tablespace hashes as before (no key, not a NULL one)
is($node->safe_psql('postgres', qq{
		SELECT e.environment_id = pgbenchx.capture_environment()
		FROM pgbenchx.runs r JOIN pgbenchx.environments e USING (environment_id)
		WHERE r.run_id = $run{db_default}}),
	't', 'a run on pg_default has the environment capture_environment() finds');

# the tablespace query runs through the clients' search_path: a look-alike
# "=" on oid first in it is never called (every operator is qualified)
$node->safe_psql('db_a', q{
	CREATE TABLE public.called (at timestamptz);
	CREATE FUNCTION public.oideq_trap(oid, oid) RETURNS boolean LANGUAGE plpgsql AS
	  $$BEGIN INSERT INTO public.called VALUES (now()); RETURN $1 OPERATOR(pg_catalog.=) $2; END$$;
	CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = oid, FUNCTION = public.oideq_trap);
	ALTER DATABASE db_a SET search_path = public, pg_catalog});
my $trap = $node->safe_psql('postgres',
	"SELECT run_bench(1, 1, 'select-only', checkpoint => false, conninfo => 'dbname=db_a')");
$node->safe_psql('postgres', "SET client_min_messages = warning; CALL pgbenchx.wait($trap)");
is($node->safe_psql('postgres', qq{
		SELECT r.status || ' ' || (e.settings->>'tablespace')
		FROM pgbenchx.runs r JOIN pgbenchx.environments e USING (environment_id) WHERE r.run_id = $trap}),
	'completed ts_a', 'with a look-alike = first in the search_path: the run and its tablespace as before');
is($node->safe_psql('db_a', 'SELECT count(*) FROM public.called'), '0', 'the look-alike = was never called');

$node->stop;
done_testing();
