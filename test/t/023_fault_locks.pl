# Faults: clients stuck on a lock.  With lock_timeout (or statement_timeout)
# in conninfo the stuck clients fail with the timeout instead of hanging and
# the run ends failed; without a timeout, a run stuck on a lock, in its
# measured interval or in its pre-run maintenance, is cancelled by
# pgbenchx.cancel within a few seconds; nothing is left behind.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use Time::HiRes qw(time);

my $node = pgbenchx_node('flock', scale => 1);

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# a session holding a lock until it is told to stop
sub lock_table
{
	my ($table) = @_;
	my $h = $node->background_psql('postgres');
	$h->query_safe("BEGIN; LOCK TABLE $table IN ACCESS EXCLUSIVE MODE");
	return $h;
}

sub ended
{
	my ($id) = @_;
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
	  or die "run $id never ended";
}

# --- lock_timeout through conninfo
{
	my $h = lock_table('pgbench_accounts');
	my $id = q1("SELECT run_bench(2, 600, 'select-only', vacuum => false, checkpoint => false, conninfo => 'options=''-c lock_timeout=500ms''')");
	ended($id);
	# by the server's clock: the psql calls around it are not the run's doing
	# (a bound for a loaded machine's start-up, far below the 600 s)
	my $took = q1("SELECT round(extract(epoch FROM finished_at - started_at)::numeric, 3) FROM pgbenchx.runs WHERE run_id = $id");
	ok($took =~ /^[0-9]+(\.[0-9]+)?$/ && $took < 60, "the run ends long before its 600 s ($took s)");
	is(q1("SELECT status || ' ' || aborted_clients FROM pgbenchx.runs WHERE run_id = $id"), 'failed 2', 'both clients failed');
	like(q1("SELECT error FROM pgbenchx.runs WHERE run_id = $id"), qr/lock timeout/, 'with the lock timeout');
	$h->quit;
	ok(nothing_left($node), 'nothing left');
}

# --- statement_timeout through conninfo
{
	my $h = lock_table('pgbench_accounts');
	my $id = q1("SELECT run_bench(1, 20, 'select-only', vacuum => false, checkpoint => false, conninfo => 'options=''-c statement_timeout=500ms''')");
	ended($id);
	is(q1("SELECT status || ' ' || aborted_clients FROM pgbenchx.runs WHERE run_id = $id"), 'failed 1', 'the client failed');
	like(q1("SELECT error FROM pgbenchx.runs WHERE run_id = $id"), qr/statement timeout/, 'with the statement timeout');

	$h->quit;
	ok(nothing_left($node), 'nothing left');
}

# --- options in conninfo keep the check that lets orphaned client backends
# notice their driver is gone (client_connection_check_interval)
{
	q1("CREATE TABLE seen (cci text, lt text)");
	q1("SELECT pgbenchx.add_script('seen', \$\$INSERT INTO seen SELECT current_setting('client_connection_check_interval'), current_setting('lock_timeout');\$\$)");
	my $id = q1("SELECT run_bench(1, script => 'seen', transactions => 1, vacuum => false, checkpoint => false, conninfo => 'options=''-c lock_timeout=700ms''')");
	ended($id);
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'the run completed');
	is(q1("SELECT cci || ' ' || lt FROM seen"), '1s 700ms', 'the clients had both the check interval and the caller\'s options');
}

# --- a run stuck on a lock without a timeout is cancelled
{
	# 600 s: the cancel, not the duration, ends it
	my $id = q1("SELECT run_bench(2, 600, 'select-only', vacuum => false, checkpoint => false)");
	run_sampled($node, "run_id = $id")
	  or die 'run never sampled';
	my $h = lock_table('pgbench_accounts');
	$node->poll_query_until('postgres', "SELECT count(*) = 2 FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx client%' AND wait_event_type = 'Lock'")
	  or die 'clients never blocked';
	my ($signalled, $t_cancel) = signal_at($node, "pgbenchx.cancel($id)");
	is($signalled, 't', 'cancel signals the stuck run');
	ended($id);
	my $elapsed = finished_since($node, "run_id = $id", $t_cancel);
	ok($elapsed =~ /^-?[0-9]+(\.[0-9]+)?$/ && $elapsed < 5, "the stuck run stopped within a few seconds ($elapsed s)");
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'cancelled', 'cancelled');
	cmp_ok(q1("SELECT transactions FROM pgbenchx.runs WHERE run_id = $id"), '>', 0, 'what was measured is kept');
	ok(nothing_left($node), 'nothing left while the lock is still held');
	$h->quit;
}

# --- a run stuck in its pre-run maintenance (vacuum waits for a lock) is cancelled
{
	# (tellers: run_bench itself reads pgbench_branches for the scale)
	my $h = lock_table('pgbench_tellers');
	my $id = q1("SELECT run_bench(1, 600, 'select-only', checkpoint => false)");
	$node->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_activity WHERE query = 'vacuum pgbench_tellers' AND wait_event_type = 'Lock'")
	  or die 'maintenance never blocked';
	my ($signalled, $t_cancel) = signal_at($node, "pgbenchx.cancel($id)");
	is($signalled, 't', 'cancel signals the run stuck in maintenance');
	ended($id);
	my $elapsed = finished_since($node, "run_id = $id", $t_cancel);
	ok($elapsed =~ /^-?[0-9]+(\.[0-9]+)?$/ && $elapsed < 5, "it stopped within a few seconds ($elapsed s)");
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'cancelled', 'cancelled');
	ok(nothing_left($node), 'nothing left while the lock is still held');
	$h->quit;
}

$node->stop;
done_testing();
