# The engine's lifecycle: a sweep cancelled in the middle keeps its completed
# steps; a run survives its caller disconnecting; a second concurrent run is
# refused; too many clients are refused before any connection is made; the
# starting and waiting sessions hold no snapshot; terminating the
# coordinator aborts the run and leaves nothing behind; conninfo can point
# the clients at another cluster; DROP DATABASE of a run's database goes
# through on 19 (BGWORKER_INTERRUPTIBLE) and is refused before.
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

my $node = pgbenchx_node('life', scale => 1, conf => "max_connections = 40\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }

my $held = add_held_script($node);

# --- a sweep cancelled in the middle keeps its completed steps
{
	# the held script: step 1 (one client) runs its 2 s, step 2 lasts until
	# the cancel, however slow a loaded machine makes the polls before it
	my $sweep = q1("SELECT run_sweep('{1,2,3}'::int[], 2, '$held', checkpoint => false)");
	# wait until the second step has sampled a second
	run_sampled($node, "sweep_id = $sweep AND clients = 2")
	  or die 'second step never ran';
	# how soon, by the server's clock (the step's finished_at)
	my ($signalled, $t_cancel) = signal_at($node, "pgbenchx.cancel($sweep)");
	is($signalled, 't', 'cancel signals the sweep');
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.sweeps WHERE sweep_id = $sweep")
	  or die 'sweep did not stop';
	my $elapsed = finished_since($node, "sweep_id = $sweep AND clients = 2", $t_cancel);
	ok($elapsed =~ /^-?[0-9]+(\.[0-9]+)?$/ && $elapsed < 3, "the sweep's step stopped within about a second of the cancel ($elapsed s)");
	is(q1("SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $sweep"), 'cancelled', 'sweep cancelled');
	is(q1("SELECT string_agg(clients || ':' || status, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
		'1:completed,2:cancelled', 'step 1 completed, step 2 cancelled, no step 3');
	cmp_ok(q1("SELECT count(*) FROM pgbenchx.samples s JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = $sweep AND r.clients = 2"),
		'>=', 1, 'the cancelled step keeps its samples');
	cmp_ok(q1("SELECT transactions FROM pgbenchx.runs WHERE sweep_id = $sweep AND clients = 2"),
		'>', 0, 'the cancelled step keeps its transactions');
	ok(nothing_left($node), 'no worker or client left after the cancel');
	is(q1("SELECT pgbenchx.cancel($sweep)"), 'f', 'cancelling a finished sweep does nothing');
}

# --- a run survives its caller disconnecting; a second run is refused
# (its clients wait on a lock until the refusal has been seen: the run is
# on however slow the psql calls are, and completes after the unlock)
{
	my $lock = lock_session($node, 'pgbench_accounts');
	my $id = q1("SELECT run_bench(2, 2, 'select-only', vacuum => false, checkpoint => false)");    # this session ends here
	my ($ret, $stdout, $stderr) = $node->psql('postgres', "SELECT run_bench(1, 1, 'select-only')");
	isnt($ret, 0, 'a second concurrent run is refused');
	like($stderr, qr/a pgbenchx run is already in progress/, 'refusal says why');
	like($stderr, qr/In progress: pgbenchx run $id\b/, 'refusal names the run in progress');
	unlock_session($lock);
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
	  or die 'run never ended';
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'the run completed after its caller left');
	is(q1("SELECT count(*) FROM pgbenchx.samples WHERE run_id = $id"), '2', 'with all its samples');
}

# --- too many clients are refused before any connection is made
{
	my $before = q1("SELECT count(*) FROM pgbenchx.runs");
	my ($ret, $stdout, $stderr) = $node->psql('postgres', "SELECT run_bench(60, 1, 'select-only')");
	isnt($ret, 0, '60 clients refused with max_connections = 40');
	like($stderr, qr/60 clients need 61 connections, but only (?:1 is|\d+ are) free/, 'with the numbers');
	like($stderr, qr/HINT:  Raise max_connections/, 'and a hint naming the setting');
	is(q1("SELECT count(*) FROM pgbenchx.runs"), $before, 'no run recorded');
	is(q1("SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx client%'"), '0', 'no client connected');
}

# --- no snapshot is held by the starting or the waiting session
# (the run's clients wait on a lock until the looks below are all taken:
# the run is on for as long as they need, however slow a loaded machine is)
{
	my $lock = lock_session($node, 'pgbench_accounts');
	my ($in, $out, $err) = ('', '', '');
	my $starter = IPC::Run::start(['psql', '-X', '-At', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres')],
		'<', \$in, '>', \$out, '2>', \$err);
	$in .= "SET application_name = 'starter';\nSELECT run_bench(2, 2, 'tpcb-like', vacuum => false, checkpoint => false);\n";
	$starter->pump until $out =~ /^(\d+)$/m;
	my ($id) = $out =~ /^(\d+)$/m;

	my ($wout, $werr) = ('', '');
	my $waiter = IPC::Run::start(['psql', '-X', '-At', '-d', $node->connstr('postgres'),
		'-c', "SET application_name = 'waiter'", '-c', "CALL pgbenchx.wait($id)"],
		'>', \$wout, '2>', \$werr);
	$node->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_activity WHERE application_name = 'waiter' AND query LIKE 'CALL%'")
	  or die 'waiter did not start';

	# each look: both sessions' backend_xmin, and whether the waiter was
	# asleep on its latch (wait_event_type Extension), between the looks at
	# the tables it takes a snapshot for; looks go on until there are 8, 4
	# of them with the waiter asleep, and the waiter printed its progress
	# (every 5 s)
	my @looks;
	my $progress = qr/NOTICE:  run $id: (measuring, |connecting )2 clients/;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	while (time < $deadline)
	{
		push @looks, q1("SELECT string_agg(application_name || '=' || coalesce(backend_xmin::text, 'null') "
			  . "|| CASE WHEN application_name = 'waiter' AND wait_event_type = 'Extension' THEN '/asleep' ELSE '' END, "
			  . "',' ORDER BY application_name) FROM pg_stat_activity WHERE application_name IN ('starter', 'waiter')");
		$waiter->pump_nb;
		last if @looks >= 8 && grep(m{waiter=\w+/asleep}, @looks) >= 4 && $werr =~ $progress;
		usleep(250_000);
	}
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'running', 'the run was on for every look');
	my $asleep = grep(m{waiter=\w+/asleep}, @looks);
	ok(@looks >= 8 && $asleep >= 4, 'looked at backend_xmin during the run (' . scalar(@looks) . " looks, $asleep with the waiter asleep)");
	my $xmin_seen = join(';', @looks);
	unlike($xmin_seen, qr/starter=\d/, 'backend_xmin of the starting session stayed NULL');
	# a snapshot held across the wait shows in every look; the waiter's own
	# looks at the tables (every 500 ms) hold one only while it is awake
	my $held = grep(m{waiter=\d+/asleep}, @looks);
	is($held, 0, "backend_xmin of the waiting session NULL whenever it was asleep ($held of $asleep looks held one)");
	like($xmin_seen, qr/starter=null,waiter=null/, 'both sessions were seen');

	unlock_session($lock);
	$in .= "\\q\n";
	$starter->finish;
	$waiter->finish;
	like($werr, qr/NOTICE:  run $id completed/, 'the waiter reported the run');
	like($werr, $progress, 'and its progress');
}

# --- cancelling the wait stops only the wait
# (the clients wait on a lock: the run is on when the wait is cancelled and
# looked at, and completes after the unlock)
{
	my $lock = lock_session($node, 'pgbench_accounts');
	my $id = q1("SELECT run_bench(1, 1, 'select-only', vacuum => false, checkpoint => false)");
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		"SET statement_timeout = '1s'; CALL pgbenchx.wait($id)");
	like($stderr, qr/stopped waiting for run $id; the run goes on/, 'a cancelled wait says so');
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'running', 'the run goes on');
	unlock_session($lock);
	$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'and completes');
}

# --- terminating the coordinator aborts the run and stops the drivers
{
	# 600 s: the terminate, not the duration, ends it
	my $id = q1("SELECT run_bench(2, 600, 'select-only', checkpoint => false)");
	run_sampled($node, "run_id = $id")
	  or die 'run did not start';
	is(q1("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE backend_type = 'pgbenchx coordinator'"),
		'1', 'the coordinator is terminated');
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
	  or die 'run still running';
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'aborted', 'a terminated coordinator leaves the run aborted');
	cmp_ok(q1("SELECT count(*) FROM pgbenchx.samples WHERE run_id = $id"), '>=', 1, 'its samples are kept');
	ok(nothing_left($node), 'drivers and clients are gone');
	is(q1('SELECT 1'), '1', 'the server still serves');
}

# --- conninfo points the clients at another cluster
{
	my $other = PostgreSQL::Test::Cluster->new('other');
	$other->init;
	$other->append_conf('postgresql.conf', "log_statement = none\n");
	$other->start;
	$other->command_ok([ 'pgbench', '-i', '-q', '-s', '1', '-d', $other->connstr('postgres') ], 'pgbench -i on the other cluster');
	# this cluster has no pgbench tables at all now
	$node->safe_psql('postgres', 'DROP TABLE pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history');
	my $commits_before = $other->safe_psql('postgres', "SELECT xact_commit FROM pg_stat_database WHERE datname = 'postgres'");
	my $conninfo = 'host=' . $other->host . ' port=' . $other->port;
	my $id = q1("SELECT run_bench(2, 2, 'select-only', checkpoint => false, conninfo => '$conninfo')");
	$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
	my ($status, $tx) = split /\|/, q1("SELECT status, transactions FROM pgbenchx.runs WHERE run_id = $id");
	is($status, 'completed', 'a run against the other cluster completes');
	cmp_ok($tx, '>', 0, 'with transactions');
	# statistics are flushed when the client backends exit
	$other->poll_query_until('postgres',
		"SELECT xact_commit - $commits_before >= $tx FROM pg_stat_database WHERE datname = 'postgres'")
	  or diag('the other cluster did not count the transactions');
	cmp_ok($other->safe_psql('postgres', "SELECT xact_commit FROM pg_stat_database WHERE datname = 'postgres'") - $commits_before,
		'>=', $tx, 'the other cluster ran the transactions');
	$other->stop;
}

# --- DROP DATABASE of the database a run is in (issue 36 item 9): on 19
# the workers are BGWORKER_INTERRUPTIBLE, so the coordinator (the only one
# connected to the database) is terminated and the drop goes through; before
# 19 it is refused as for any session using the database.  The clients are
# pointed at another database, so that the coordinator is the one user left.
{
	ok(nothing_left($node), 'DROP DATABASE: no run before');
	q1('CREATE DATABASE dropme');
	$node->safe_psql('dropme', 'CREATE EXTENSION pgbenchx');
	$node->safe_psql('dropme', q{SELECT pgbenchx.add_script('slow', E'\\\\sleep 50 ms\nSELECT 1;\n')});
	my $id = $node->safe_psql('dropme', "SELECT run_bench(1, 600, 'slow', vacuum => false, checkpoint => false, conninfo => 'dbname=postgres')");
	$node->poll_query_until('dropme', "SELECT coalesce(max(seconds_sampled), 0) >= 1 FROM pgbenchx.progress WHERE run_id = $id")
	  or die 'the run in dropme never sampled';
	my ($ret, $out, $err) = $node->psql('postgres', 'DROP DATABASE dropme');
	if ($node->safe_psql('postgres', 'SHOW server_version_num') >= 190000)
	{
		is($ret, 0, 'DROP DATABASE on 19: the run\'s coordinator is terminated, and the drop goes through') or diag($err);
		ok(nothing_left($node), 'DROP DATABASE on 19: no worker and no client is left');
	}
	else
	{
		isnt($ret, 0, 'DROP DATABASE before 19: refused while the run is on');
		like($err, qr/database "dropme" is being accessed by other users/, 'as for any session using it');
		is($node->safe_psql('dropme', "SELECT pgbenchx.cancel($id)"), 't', 'the run is cancelled');
		$node->safe_psql('dropme', "SET client_min_messages = warning; CALL pgbenchx.wait($id)");
		ok(nothing_left($node), 'and ends');
		q1('DROP DATABASE dropme');
	}
	is(q1("SELECT count(*) FROM pg_database WHERE datname = 'dropme'"), '0', 'DROP DATABASE: the database is gone');
}

$node->stop;
done_testing();
