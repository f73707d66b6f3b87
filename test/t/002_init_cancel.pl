# Cancelling pgbench_init at any moment leaves nothing behind: the old
# tables intact when there were some, no pgbench table when there were none.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep time);

my $node = PostgreSQL::Test::Cluster->new('cancel');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION pgbenchx');

my $snapshot_sql = q{
	SELECT string_agg(relname || ':' || relkind::text, ',' ORDER BY relname)
	FROM pg_class WHERE relname LIKE 'pgbench%'};

# Start pgbench_init(scale) in its own psql, cancel it after delay_ms, and
# return what psql printed.
sub cancelled_init
{
	my ($scale, $delay_ms) = @_;
	my ($stdout, $stderr) = ('', '');
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'),
		  '-c', "SELECT pgbench_init($scale)" ],
		'>', \$stdout, '2>', \$stderr);

	# wait until the call is running, then for the delay
	my $pid = '';
	for (my $i = 0; $i < 300 && $pid eq ''; $i++)
	{
		$pid = $node->safe_psql('postgres',
			"SELECT pid FROM pg_stat_activity WHERE query LIKE 'SELECT pgbench_init($scale)%' AND state = 'active'");
		usleep(20_000) if $pid eq '';
	}
	usleep($delay_ms * 1000);
	$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)") if $pid ne '';
	$h->finish;
	return $stderr;
}

# pgbench_init is fast: pick a scale that takes about 6 s here, and cancel
# at fractions of that, so that every cancel lands inside the work
my $t0 = time;
$node->safe_psql('postgres', 'SET client_min_messages = warning; SELECT pgbench_init(10)');
my $per_unit = (time - $t0) / 10;
my $scale = int(6 / ($per_unit > 0 ? $per_unit : 0.01));
$scale = 10 if $scale < 10;
$scale = 400 if $scale > 400;
my $expected_ms = 1000 * $per_unit * $scale;
note("cancel tests use scale $scale ($per_unit s per scale unit, about $expected_ms ms)");
$node->safe_psql('postgres', 'DROP TABLE pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history');

# no tables before: none after
foreach my $fraction (0.02, 0.4)
{
	my $delay = int($fraction * $expected_ms);
	my $err = cancelled_init($scale, $delay);
	like($err, qr/canceling statement due to user request/, "cancelled after ${delay} ms");
	is($node->safe_psql('postgres', $snapshot_sql), '', "no pgbench table left after cancel at ${delay} ms");
}

# old tables before: the same tables after, with their rows and marker
$node->safe_psql('postgres', 'SET client_min_messages = warning; SELECT pgbench_init(1)');
$node->safe_psql('postgres', 'UPDATE pgbench_branches SET bbalance = 7');
my $before = $node->safe_psql('postgres', $snapshot_sql);
foreach my $fraction (0.01, 0.2, 0.5)
{
	my $delay = int($fraction * $expected_ms);
	my $err = cancelled_init($scale, $delay);
	like($err, qr/canceling statement due to user request/, "cancelled replacing init after ${delay} ms");
	is($node->safe_psql('postgres', $snapshot_sql), $before, "same relations after cancel at ${delay} ms");
	is($node->safe_psql('postgres',
		'SELECT (SELECT count(*) FROM pgbench_accounts) || \'/\' || (SELECT sum(bbalance) FROM pgbench_branches)'),
		'100000/7', "old rows intact after cancel at ${delay} ms");
}

# and the server is fine: a new init works
like($node->safe_psql('postgres', 'SET client_min_messages = warning; SELECT pgbench_init(1)'),
	qr/^done in/, 'pgbench_init works after the cancels');

$node->stop;
done_testing();
