# Faults: DROP DATABASE of another database is not blocked by a run's
# workers; DROP EXTENSION pgbenchx during a run is safe: the coordinator
# finds its tables gone, stops its drivers and leaves, and nothing is
# orphaned; the extension can be created again and runs again.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('fdrop', scale => 1);

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# a worker crash would restart the whole cluster: the start time must not move
my $pm_start = q1('SELECT pg_postmaster_start_time()');

# --- DROP DATABASE of another database during a run
{
	# the clients wait on a lock in their first transaction: the run cannot
	# end before the unlock, so a DROP DATABASE that waited for it would not
	# return at all (timed by the server's clock, not the psql around it)
	q1('CREATE DATABASE other');
	my $lock = lock_session($node, 'pgbench_accounts');
	my $id = q1("SELECT run_bench(2, 2, 'tpcb-like', jobs => 2, vacuum => false, checkpoint => false)");
	$node->poll_query_until('postgres', "SELECT count(*) = 2 FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx client %' AND wait_event_type = 'Lock'")
	  or die 'clients never waited on the lock';
	my ($ret, $out, $err, $took) = server_timed($node, 'DROP DATABASE other', timeout => 60);
	is($ret, 0, 'DROP DATABASE other succeeds during a run') or diag($err);
	ok($took =~ /^[0-9.]+$/ && $took < 20, "without waiting for the run ($took s)");
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'running', 'the run was on all along');
	unlock_session($lock);
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id");
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'the run completes');
	ok(nothing_left($node), 'nothing left');
}

# --- DROP EXTENSION during a run
{
	# 600 s: the drop, not the duration, ends it; how soon by the server's
	# clock, from the drop's end to the look that found nothing left (a
	# bound for a loaded machine, far below the run's 600 s)
	my $id = q1("SELECT run_bench(2, 600, 'select-only', jobs => 2, checkpoint => false)");
	run_sampled($node, "run_id = $id")
	  or die 'run never sampled';
	my ($ret, $out, $err, $took, $t_drop) = server_timed($node, 'DROP EXTENSION pgbenchx', timeout => 60);
	is($ret, 0, 'DROP EXTENSION during a run is accepted') or diag $err;
	ok(nothing_left($node), 'the coordinator, its drivers and clients all stop');
	my $gone = q1("SELECT round((extract(epoch FROM clock_timestamp()) - $t_drop)::numeric, 3)");
	ok($gone < 30, "within seconds ($gone s)");
	is(q1('SELECT count(*) FROM pg_namespace WHERE nspname = \'pgbenchx\''), '0', 'the schema is gone');
	is(q1('SELECT 1'), '1', 'the server serves other sessions');
	q1('CREATE EXTENSION pgbenchx');
	my $next = q1("SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $next");
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $next"), 'completed', 'a run after CREATE EXTENSION again completes');
	ok(nothing_left($node), 'nothing left');
}

is(q1('SELECT pg_postmaster_start_time()'), $pm_start, 'no worker crashed (the cluster never restarted)');
unlike(slurp_file($node->logfile), qr/terminated by signal/, 'no process was killed by a signal');

$node->stop;
done_testing();
