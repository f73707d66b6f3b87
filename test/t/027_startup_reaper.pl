# With pgbenchx in shared_preload_libraries, a restart after an immediate
# shutdown in the middle of a sweep marks the sweep and its run in progress
# aborted by itself: a plain SELECT on the tables reads aborted, with no
# pgbenchx.wait, cancel or new run.  Completed steps and samples are
# intact, nothing restarts, the start-up workers exit, databases without
# pgbenchx are skipped, and a clean restart marks nothing.  A crash-restart
# cycle (a client backend killed with SIGKILL, the postmaster staying up)
# marks the run that was going on too.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

# preload the very file CREATE EXTENSION loads: with a private install
# (PGX_EXTENSION_DESTDIR) that is the copy under it, not the system's
my $preload = 'pgbenchx';
if ($ENV{PGX_EXTENSION_DESTDIR})
{
	my $pkglibdir = `pg_config --pkglibdir`;
	chomp $pkglibdir;
	$preload = "$ENV{PGX_EXTENSION_DESTDIR}$pkglibdir/pgbenchx";
}
my $node = pgbenchx_node('reaper', scale => 1,
	conf => "shared_preload_libraries = '$preload'\nmax_worker_processes = 16\nrestart_after_crash = on\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# a database without pgbenchx, and one with it and a stale row of its own
q1('CREATE DATABASE plain');
q1('CREATE DATABASE second');
$node->safe_psql('second', q{
	CREATE EXTENSION pgbenchx;
	INSERT INTO pgbenchx.sweeps (script, clients, duration, status, coordinator_pid)
		VALUES ('tpcb-like', '{1}', 60, 'running', 2147483647);
});

# the first start marked the rows that were there: none yet in postgres
ok(nothing_left($node), 'the start-up workers exit');

# the held script: step 1 (one client) runs its 2 s, step 2 lasts until the
# immediate stop, however slow a loaded machine makes the calls before it
my $held = add_held_script($node);
my $sweep = q1("SELECT run_sweep('{1,2,3}'::int[], 2, '$held', checkpoint => false)");
run_sampled($node, "sweep_id = $sweep AND clients = 2")
  or die 'second step never ran';
# samples commit asynchronously: wait until the WAL writer has flushed them
my $flush_lsn = q1('SELECT pg_current_wal_insert_lsn()');
$node->poll_query_until('postgres', "SELECT pg_current_wal_flush_lsn() >= '$flush_lsn'::pg_lsn")
  or die 'the WAL writer never flushed the samples';
my $step1 = q1("SELECT md5(r::text) || ' ' || (SELECT md5(string_agg(s::text, ',' ORDER BY second)) FROM pgbenchx.samples s WHERE s.run_id = r.run_id) FROM pgbenchx.runs r WHERE sweep_id = $sweep AND clients = 1");
my $log_offset = -s $node->logfile;
$node->stop('immediate');
$node->start;

# nothing but a plain SELECT: the rows turn aborted by themselves
ok($node->poll_query_until('postgres', "SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $sweep", 'aborted'),
	'the sweep reads aborted after the restart, with no call to pgbenchx');
is(q1("SELECT string_agg(clients || ':' || status, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
	'1:completed,2:aborted', 'step 1 completed, step 2 aborted');
like(q1("SELECT error FROM pgbenchx.runs WHERE sweep_id = $sweep AND clients = 2"), qr/coordinator is gone/, 'with a reason');
is(q1("SELECT md5(r::text) || ' ' || (SELECT md5(string_agg(s::text, ',' ORDER BY second)) FROM pgbenchx.samples s WHERE s.run_id = r.run_id) FROM pgbenchx.runs r WHERE sweep_id = $sweep AND clients = 1"),
	$step1, 'the completed step and its samples are intact');
is(q1("SELECT transactions = (SELECT sum(transactions) FROM pgbenchx.samples WHERE run_id = r.run_id) FROM pgbenchx.runs r WHERE sweep_id = $sweep AND clients = 2"),
	't', 'the aborted run adds up its committed samples');
is(q1("SELECT count(*) FROM pgbenchx.runs WHERE sweep_id = $sweep AND clients = 3"), '0', 'the sweep did not go on');
ok(nothing_left($node), 'the start-up workers exit, nothing restarted');

# the other database with pgbenchx was swept too; the plain one was skipped
is($node->safe_psql('second', "SELECT status FROM pgbenchx.sweeps"), 'aborted',
	'a stale row in another database is marked too');
my $log = slurp_file($node->logfile, $log_offset);
like($log, qr/pgbenchx marked 2 runs and sweeps aborted in database "postgres"/, 'the log says what was marked in postgres');
like($log, qr/pgbenchx marked 1 run or sweep aborted in database "second"/, 'and in second');
unlike($log, qr/database "plain"/, 'nothing about the database without pgbenchx');

# a clean restart has nothing to mark
$log_offset = -s $node->logfile;
$node->restart;
ok(nothing_left($node), 'after a clean restart the start-up workers exit');
unlike(slurp_file($node->logfile, $log_offset), qr/pgbenchx marked/, 'and marked nothing');

# a crash-restart cycle: the postmaster survives, everything else is reset
{
	# 600 s: the crash, not the duration, ends it
	my $id = q1("SELECT run_bench(2, 600, 'select-only', checkpoint => false)");
	run_sampled($node, "run_id = $id")
	  or die 'the run never sampled a second';
	my $victim = q1("SELECT pid FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx client%' LIMIT 1");
	$log_offset = -s $node->logfile;
	kill 'KILL', $victim;
	ok($node->poll_query_until('postgres', "SELECT status FROM pgbenchx.runs WHERE run_id = $id", 'aborted'),
		'after a crash-restart cycle the run reads aborted by itself');
	my $crashlog = slurp_file($node->logfile, $log_offset);
	like($crashlog, qr/all server processes terminated; reinitializing/, 'it was a crash-restart, not a new start');
	like($crashlog, qr/pgbenchx marked 1 run or sweep aborted in database "postgres"/, 'the start-up worker ran again');
	ok(nothing_left($node), 'nothing left after the crash');
}

# the preloaded library does not get in the way of a new run
my $id = q1("SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
$node->safe_psql('postgres', "SET client_min_messages = warning; CALL pgbenchx.wait($id)");
is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'a new run completes');

done_testing();
