# Cancelling pgbench_init at any moment leaves nothing behind: the old
# tables intact when there were some, no pgbench table when there were none.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use IPC::Run;
use Time::HiRes qw(usleep time);

my $node = pgbenchx_node('cancel');

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
	my $started = time;
	usleep($delay_ms * 1000);
	$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)") if $pid ne '';
	$h->finish;
	return ($stderr, 1000 * (time - $started));
}

# pgbench_init is fast, and this machine's speed varies: calibrate a scale
# that should take about 6 s and cancel at fractions of it; an attempt that
# finished before its cancel proves nothing, so it is retried at twice the
# scale (the tables are put back first).  Every cancel that landed must
# have left nothing behind.  A retry's expected time is twice what the call
# that finished took (at most twice the estimate), not the estimate.
my $t0 = time;
$node->safe_psql('postgres', 'SET client_min_messages = warning; SELECT pgbench_init(10)');
my $per_unit = (time - $t0) / 10;
my $scale = int(6 / ($per_unit > 0 ? $per_unit : 0.01));
$scale = 10 if $scale < 10;
$scale = 400 if $scale > 400;
my $expected_ms = 1000 * $per_unit * $scale;
note("cancel tests start at scale $scale ($per_unit s per scale unit, about $expected_ms ms)");

# Cancel pgbench_init at fraction of its expected time; returns when a
# cancel landed.  reset puts the tables back as they were before.
sub cancel_at
{
	my ($fraction, $reset, $what) = @_;
	my ($s, $ms) = ($scale, $expected_ms);
	for my $try (1 .. 4)
	{
		$reset->();
		my $delay = int($fraction * $ms);
		my ($err, $took) = cancelled_init($s, $delay);
		if ($err =~ /canceling statement due to user request/)
		{
			pass("$what: cancelled after $delay ms at scale $s");
			return;
		}
		# the calibration can be off (its fixed costs, the machine's load):
		# twice the scale takes about twice what this call took, measured
		note("$what: scale $s finished in $took ms, before the cancel at $delay ms; retrying at twice the scale");
		($s, $ms) = (2 * $s, 2 * ($took < $ms ? $took : $ms));
	}
	fail("$what: no cancel landed in 4 tries");
}

my $drop = sub {
	$node->safe_psql('postgres', 'SET client_min_messages = warning; DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history');
};
# no tables before: none after
foreach my $fraction (0.02, 0.4)
{
	cancel_at($fraction, $drop, "fresh init, cancel at $fraction");
	is($node->safe_psql('postgres', $snapshot_sql), '', "no pgbench table left (cancel at $fraction)");
}

# old tables before: the same tables after, with their rows and marker
my $before;
my $old = sub {
	$node->safe_psql('postgres', 'SET client_min_messages = warning; SELECT pgbench_init(1)');
	$node->safe_psql('postgres', 'UPDATE pgbench_branches SET bbalance = 7');
	$before = $node->safe_psql('postgres', $snapshot_sql);
};
foreach my $fraction (0.01, 0.2, 0.5)
{
	cancel_at($fraction, $old, "replacing init, cancel at $fraction");
	is($node->safe_psql('postgres', $snapshot_sql), $before, "same relations after the cancel at $fraction");
	is($node->safe_psql('postgres',
		'SELECT (SELECT count(*) FROM pgbench_accounts) || \'/\' || (SELECT sum(bbalance) FROM pgbench_branches)'),
		'100000/7', "old rows intact after the cancel at $fraction");
}

# and the server is fine: a new init works
like($node->safe_psql('postgres', 'SET client_min_messages = warning; SELECT pgbench_init(1)'),
	qr/^done in/, 'pgbench_init works after the cancels');

$node->stop;
done_testing();
