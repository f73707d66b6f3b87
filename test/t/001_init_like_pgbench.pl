# pgbench_init makes exactly what "pgbench -i" makes: the same DDL (pg_dump
# --schema-only) and the same rows (md5 over each table's ordered rows), for
# a plain, a range-partitioned and a hash-partitioned layout and for the
# fillfactor/unlogged/foreign-key options; and stock pgbench runs on it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('init', extension => 0);

$node->safe_psql('postgres', 'CREATE DATABASE by_pgbench');
$node->safe_psql('postgres', 'CREATE DATABASE by_pgbenchx');
$node->safe_psql('by_pgbenchx', 'CREATE EXTENSION pgbenchx');

# md5 of every pgbench table (and partition) over its rows in key order
sub table_digests
{
	my ($db) = @_;
	my @rels = split /\n/, $node->safe_psql($db, q{
		SELECT c.relname FROM pg_class c
		WHERE c.relname LIKE 'pgbench\_%' AND c.relkind = 'r'
		  AND c.relnamespace = 'public'::regnamespace ORDER BY 1});
	my %keys = (branches => 'bid', tellers => 'tid', history => 'tid');
	my $out = '';
	foreach my $rel (@rels)
	{
		my ($kind) = $rel =~ /^pgbench_(\w+?)(?:_\d+)?$/;
		my $key = $keys{$kind} // 'aid';
		my $row = $node->safe_psql($db,
			"SELECT count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY $key), '')) FROM $rel t");
		$out .= "$rel $row\n";
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
	# pg_dump's \restrict lines carry a random key
	$stdout =~ s/^\\(un)?restrict .*$//mg;
	return $stdout;
}

my @cases = (
	[ 'scale 2', [ '-s', '2' ], 'scale => 2' ],
	[ 'range partitions', [ '-s', '2', '--partitions=3' ], 'scale => 2, partitions => 3' ],
	[ 'hash partitions', [ '-s', '2', '--partitions=3', '--partition-method=hash' ],
		q{scale => 2, partitions => 3, partition_method => 'hash'} ],
	[ 'fillfactor, unlogged, foreign keys',
		[ '-s', '1', '-F', '80', '--unlogged-tables', '--foreign-keys' ],
		'scale => 1, fillfactor => 80, unlogged => true, foreign_keys => true' ],
);

foreach my $case (@cases)
{
	my ($name, $pgbench_args, $init_args) = @$case;

	$node->command_ok([ 'pgbench', '-i', '-q', @$pgbench_args, '-d', $node->connstr('by_pgbench') ],
		"$name: pgbench -i");
	my $summary = $node->safe_psql('by_pgbenchx',
		"SET client_min_messages = warning; SELECT pgbench_init($init_args)");
	like($summary, qr/^done in [0-9.]+ s \(drop tables/, "$name: pgbench_init returns the step timings");

	my $want = table_digests('by_pgbench');
	ok($want =~ /pgbench_accounts/, "$name: pgbench made accounts");
	is(table_digests('by_pgbenchx'), $want, "$name: same rows, table by table");
	is(schema_of('by_pgbenchx'), schema_of('by_pgbench'), "$name: same DDL");
}

# stock pgbench runs on pgbench_init's tables as if it had made them
$node->safe_psql('by_pgbenchx', 'SET client_min_messages = warning; SELECT pgbench_init(2)');
foreach my $run ([ 'select-only', '-S' ], [ 'tpcb-like', '-b', 'tpcb-like' ])
{
	my ($name, @args) = @$run;
	my ($stdout, $stderr);
	my $ok = $node->run_log(
		[ 'pgbench', '-n', '-T', '2', '-c', '2', @args, '-d', $node->connstr('by_pgbenchx') ],
		'>', \$stdout, '2>', \$stderr);
	ok($ok, "stock pgbench $name exits 0");
	like($stdout, qr/scaling factor: 2\n/, "stock pgbench $name detects scale 2");
	like($stdout, qr/number of failed transactions: 0 /, "stock pgbench $name: no failures");
	my ($tps) = $stdout =~ /tps = ([0-9.]+)/;
	ok(defined $tps && $tps > 0, "stock pgbench $name: tps > 0");
}

# after tpcb-like the TPC-B invariant holds on these tables
my $sums = $node->safe_psql('by_pgbenchx', q{
	SELECT (SELECT sum(abalance) FROM pgbench_accounts) = (SELECT sum(bbalance) FROM pgbench_branches)
	   AND (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT sum(tbalance) FROM pgbench_tellers)
	   AND (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(delta) FROM pgbench_history)
	   AND (SELECT count(*) FROM pgbench_history) > 0});
is($sums, 't', 'TPC-B invariant after stock pgbench tpcb-like');

$node->stop;
done_testing();
