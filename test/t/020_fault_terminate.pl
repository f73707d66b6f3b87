# Faults: pg_terminate_backend on one client connection (the client is
# counted as aborted and the run ends as pgbench would: failed, the other
# clients' numbers kept) and on a driver worker (the coordinator notices
# within about a second: failed, with a reason; a sweep goes on with its
# next step).  After each, the server
# serves other sessions, nothing is left behind and stored results are
# intact.  (Terminating the coordinator: 011_engine_lifecycle.pl.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use Time::HiRes qw(time);

my $node = pgbenchx_node('fterm', scale => 1);

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# a worker crash would restart the whole cluster: the start time must not move
my $pm_start = q1('SELECT pg_postmaster_start_time()');

# a finished run whose results must stay as they are
my $ref = q1("SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
$node->poll_query_until('postgres', "SELECT status = 'completed' FROM pgbenchx.runs WHERE run_id = $ref")
  or die 'reference run did not complete';
my $ref_sig = q1("SELECT md5(r::text) || md5(coalesce((SELECT string_agg(s::text, ',' ORDER BY second) FROM pgbenchx.samples s WHERE run_id = $ref), '')) FROM pgbenchx.runs r WHERE run_id = $ref");

sub intact
{
	my ($what) = @_;
	is(q1("SELECT md5(r::text) || md5(coalesce((SELECT string_agg(s::text, ',' ORDER BY second) FROM pgbenchx.samples s WHERE run_id = $ref), '')) FROM pgbenchx.runs r WHERE run_id = $ref"),
		$ref_sig, "$what: stored results intact");
	is(q1('SELECT 1'), '1', "$what: the server serves other sessions");
	ok(nothing_left($node), "$what: no worker or client left");
}

# --- one client terminated
{
	# the clients wait on a lock in their first transaction: client 1 is
	# terminated there, however slow a loaded machine makes the polls before
	# it; after the unlock the others run their 50 transactions each
	my $lock = lock_session($node, 'pgbench_accounts');
	my $id = q1("SELECT run_bench(3, transactions => 50, script => 'select-only', jobs => 1, vacuum => false, checkpoint => false)");
	$node->poll_query_until('postgres', "SELECT count(*) = 3 FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx client %' AND wait_event_type = 'Lock'")
	  or die 'clients never waited on the lock';
	is(q1("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'pgbenchx client 1'"),
		'1', 'client 1 terminated');
	unlock_session($lock);
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
	  or die 'run never ended';
	is(q1("SELECT status || ' ' || aborted_clients FROM pgbenchx.runs WHERE run_id = $id"),
		'failed 1', 'the run failed with one aborted client, as pgbench would');
	is(q1("SELECT transactions FROM pgbenchx.runs WHERE run_id = $id"), '100',
		'the other clients ran to the end (their 50 transactions each)');
	is(q1("SELECT transactions > 0 AND tps > 0 AND latency_avg_ms > 0 AND transactions = (SELECT sum(transactions) FROM pgbenchx.samples WHERE run_id = $id) FROM pgbenchx.runs WHERE run_id = $id"),
		't', 'the others\' numbers are kept and add up');
	like(q1("SELECT error FROM pgbenchx.runs WHERE run_id = $id"), qr/client 1/, 'the error names the client');
	intact('client terminated');
}

# --- one driver terminated
{
	# 600 s: the terminate, not the duration, ends it
	my $id = q1("SELECT run_bench(2, 600, 'select-only', jobs => 2, checkpoint => false)");
	run_sampled($node, "run_id = $id")
	  or die 'run never sampled';
	# how soon, by the server's clock (the run's finished_at)
	my ($terminated, $t_kill) = signal_at($node, "(SELECT count(pg_terminate_backend(pid)) "
		  . "FROM (SELECT pid FROM pg_stat_activity WHERE backend_type = 'pgbenchx driver' LIMIT 1) d)");
	is($terminated, '1', 'a driver terminated');
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
	  or die 'run never ended';
	my $elapsed = finished_since($node, "run_id = $id", $t_kill);
	ok($elapsed =~ /^-?[0-9]+(\.[0-9]+)?$/ && $elapsed < 3, "the coordinator noticed within about a second ($elapsed s)");
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'failed', 'the run failed');
	like(q1("SELECT error FROM pgbenchx.runs WHERE run_id = $id"), qr/driver \d/, 'with a reason naming the driver');
	cmp_ok(q1("SELECT count(*) FROM pgbenchx.samples WHERE run_id = $id"), '>=', 1, 'its samples are kept');
	intact('driver terminated');
	# and the next run works
	my $next = q1("SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $next");
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $next"), 'completed', 'the next run completes');
}

# --- a driver terminated in a sweep: that step fails, the sweep goes on
{
	# the held script: the first step (two clients) lasts until its driver is
	# terminated, the second (one client) runs its 2 s
	my $held = add_held_script($node);
	my $sweep = q1("SELECT run_sweep('{2,1}'::int[], 2, '$held', jobs => 2, checkpoint => false)");
	run_sampled($node, "sweep_id = $sweep AND clients = 2")
	  or die 'first step never sampled';
	is(q1("SELECT count(pg_terminate_backend(pid)) FROM (SELECT pid FROM pg_stat_activity WHERE backend_type = 'pgbenchx driver' LIMIT 1) d"),
		'1', 'a driver of the first step terminated');
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.sweeps WHERE sweep_id = $sweep")
	  or die 'sweep never ended';
	is(q1("SELECT string_agg(clients || ':' || status, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
		'2:failed,1:completed', 'the step failed, the next one completed');
	is(q1("SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $sweep"), 'failed', 'the sweep reads failed');
	intact('driver terminated in a sweep');
}

is(q1('SELECT pg_postmaster_start_time()'), $pm_start, 'no worker crashed (the cluster never restarted)');
unlike(slurp_file($node->logfile), qr/terminated by signal/, 'no process was killed by a signal');

$node->stop;
done_testing();
