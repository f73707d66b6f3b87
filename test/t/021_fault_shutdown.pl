# Faults: an immediate shutdown in the middle of a sweep, then a restart:
# the sweep and its run in progress read aborted (through pgbenchx.wait and
# pgbenchx.cancel without any new run; the progress view no longer lists
# them), the completed steps and their samples are intact, and nothing
# restarts by itself.  A fast shutdown during a run completes in seconds,
# and the run reads aborted.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use Time::HiRes qw(sleep);

my $node = pgbenchx_node('fshut', scale => 1);

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# --- immediate shutdown in the middle of a sweep
{
	# the held script: step 1 (one client) runs its 2 s, step 2 lasts until
	# the immediate stop, however slow a loaded machine makes the calls before it
	my $held = add_held_script($node);
	my $sweep = q1("SELECT run_sweep('{1,2,3}'::int[], 2, '$held', checkpoint => false)");
	run_sampled($node, "sweep_id = $sweep AND clients = 2")
	  or die 'second step never ran';
	# what the completed step stored, and the samples of the one in progress
	# samples are committed asynchronously (no fsync per second): give the
	# WAL writer time to flush them (a crash loses what it has not flushed)
	my $flush_lsn = q1('SELECT pg_current_wal_insert_lsn()');
	$node->poll_query_until('postgres', "SELECT pg_current_wal_flush_lsn() >= '$flush_lsn'::pg_lsn")
	  or die 'the WAL writer never flushed the samples';
	my $step1 = q1("SELECT md5(r::text) || ' ' || (SELECT md5(string_agg(s::text, ',' ORDER BY second)) FROM pgbenchx.samples s WHERE s.run_id = r.run_id) FROM pgbenchx.runs r WHERE sweep_id = $sweep AND clients = 1");
	$node->stop('immediate');
	$node->start;

	# nothing restarts by itself
	sleep 2;
	is(q1("SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchx%' OR application_name LIKE 'pgbenchx client%'"),
		'0', 'no worker or client after the restart');
	is(q1("SELECT count(*) FROM pgbenchx.runs WHERE sweep_id = $sweep AND clients = 3"), '0', 'the sweep did not go on');
	is(q1("SELECT count(*) FROM pgbenchx.progress"), '0', 'progress lists no run whose coordinator is gone');

	# a runner, which only reads the result tables and cannot see the
	# coordinators in pg_stat_activity: its wait marks the orphan all the
	# same (liveness is the server's, and the marking is the extension's)
	q1("CREATE ROLE reader; SELECT pgbenchx.grant_runner('reader')");
	my ($rret, $rout, $rerr) = $node->psql('postgres', "SET ROLE reader; CALL pgbenchx.wait($sweep)", timeout => 20);
	is($rret, 0, 'wait by a runner returns') or diag($rerr);
	like($rerr, qr/sweep $sweep aborted/, 'saying the sweep is aborted');
	is(q1("SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $sweep"), 'aborted', 'it marked the sweep');

	# wait returns at once (by the server's clock: not the psql around it),
	# and the rows read aborted
	my ($ret, $out, $err, $took) = server_timed($node, "CALL pgbenchx.wait($sweep)");
	is($ret, 0, 'wait on the orphaned sweep returns');
	ok($took =~ /^[0-9.]+$/ && $took < 5, "at once ($took s)");
	like($err, qr/sweep $sweep aborted/, 'wait reports the sweep aborted');
	is(q1("SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $sweep"), 'aborted', 'the sweep reads aborted');
	is(q1("SELECT string_agg(clients || ':' || status, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
		'1:completed,2:aborted', 'step 1 completed, step 2 aborted');
	like(q1("SELECT error FROM pgbenchx.runs WHERE sweep_id = $sweep AND clients = 2"), qr/coordinator is gone/, 'with a reason');
	is(q1("SELECT md5(r::text) || ' ' || (SELECT md5(string_agg(s::text, ',' ORDER BY second)) FROM pgbenchx.samples s WHERE s.run_id = r.run_id) FROM pgbenchx.runs r WHERE sweep_id = $sweep AND clients = 1"),
		$step1, 'the completed step and its samples are intact');
	cmp_ok(q1("SELECT count(*) FROM pgbenchx.samples s JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = $sweep AND r.clients = 2"),
		'>=', 1, 'the aborted step keeps the samples it had committed');
	is(q1("SELECT transactions = (SELECT sum(transactions) FROM pgbenchx.samples WHERE run_id = r.run_id) FROM pgbenchx.runs r WHERE sweep_id = $sweep AND clients = 2"),
		't', 'its transactions are those of its samples');
	is(q1("SELECT pgbenchx.cancel($sweep)"), 'f', 'cancelling it does nothing');
	ok(nothing_left($node), 'nothing left');
}

# --- cancel alone also marks an orphan aborted
{
	# 600 s: the stop, not the duration, ends it
	my $id = q1("SELECT run_bench(1, 600, 'select-only', checkpoint => false)");
	run_sampled($node, "run_id = $id")
	  or die 'run never sampled';
	$node->stop('immediate');
	$node->start;
	is(q1("SELECT pgbenchx.cancel($id)"), 'f', 'cancel of an orphaned run returns false');
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'aborted', 'and marks it aborted');
}

# --- a fast shutdown during a run completes in seconds
{
	# 600 s: a shutdown that waited for the run would show; timed by the
	# server's log, from the request to the end (pg_ctl's own start and
	# polls are not the server's doing), with a bound for a loaded machine
	my $id = q1("SELECT run_bench(4, 600, 'tpcb-like', jobs => 2, checkpoint => false)");
	run_sampled($node, "run_id = $id", 2)
	  or die 'run never sampled';
	my $elapsed = fast_stop_seconds($node);
	ok($elapsed =~ /^[0-9.]+$/ && $elapsed < 30, "fast shutdown took $elapsed s by the server's log");
	$node->start;
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'aborted', 'the run reads aborted');
	cmp_ok(q1("SELECT count(*) FROM pgbenchx.samples WHERE run_id = $id"), '>=', 2, 'with its samples');
	sleep 1;
	is(q1("SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchx%' OR application_name LIKE 'pgbenchx client%'"),
		'0', 'nothing restarted');
	my $next = q1("SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $next");
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $next"), 'completed', 'the next run completes');
}

$node->stop;
done_testing();
