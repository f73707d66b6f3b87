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
use Time::HiRes qw(time);

my $node = pgbenchx_node('fdrop', scale => 1);

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# a worker crash would restart the whole cluster: the start time must not move
my $pm_start = q1('SELECT pg_postmaster_start_time()');

# --- DROP DATABASE of another database during a run
{
	q1('CREATE DATABASE other');
	my $id = q1("SELECT run_bench(2, 6, 'tpcb-like', jobs => 2, checkpoint => false)");
	run_sampled($node, "run_id = $id")
	  or die 'run never sampled';
	my $t0 = time;
	my ($ret, $out, $err) = $node->psql('postgres', 'DROP DATABASE other', timeout => 30);
	is($ret, 0, 'DROP DATABASE other succeeds during a run');
	cmp_ok(time - $t0, '<', 5, 'without waiting for the run');
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id");
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'the run completes');
	ok(nothing_left($node), 'nothing left');
}

# --- DROP EXTENSION during a run
{
	my $id = q1("SELECT run_bench(2, 30, 'select-only', jobs => 2, checkpoint => false)");
	run_sampled($node, "run_id = $id")
	  or die 'run never sampled';
	my $t0 = time;
	my ($ret, $out, $err) = $node->psql('postgres', 'DROP EXTENSION pgbenchx', timeout => 30);
	is($ret, 0, 'DROP EXTENSION during a run is accepted') or diag $err;
	ok(nothing_left($node), 'the coordinator, its drivers and clients all stop');
	cmp_ok(time - $t0, '<', 5, 'within seconds');
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
