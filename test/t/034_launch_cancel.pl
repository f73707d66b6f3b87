# The caller's cancel: a run_bench, run_sweep or run_replay whose statement is
# cancelled or times out while it waits for its coordinator leaves no run
# going on without an id the caller knows.  The coordinator's rows, if it
# had recorded them, end "cancelled" with the reason, and nothing runs.
# Probed as an attacker would: a lock that holds the coordinator in its
# start, pg_cancel_backend at that moment, and statement_timeout at every
# few milliseconds of the launch.  Also: every secret of the conninfo is
# masked in the results.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use IPC::Run;
use Time::HiRes qw(usleep);

my $node = pgbenchx_node('launch', scale => 1);
my $abandoned = 'the calling statement was cancelled before the run started';

sub q1 { return $node->safe_psql('postgres', $_[0]); }

sub no_running_rows
{
	return q1("SELECT (SELECT count(*) FROM pgbenchx.runs WHERE status = 'running')"
		  . " + (SELECT count(*) FROM pgbenchx.sweeps WHERE status = 'running')") eq '0';
}

# --- statement_timeout while the coordinator is held in its start
{
	my $before = q1("SELECT coalesce(max(run_id), 0) FROM pgbenchx.runs");
	my $lock = lock_session($node, 'pgbenchx.runs');
	my ($ret, $out, $err) = $node->psql('postgres',
		"SET statement_timeout = '1s'; SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
	isnt($ret, 0, 'run_bench times out while its coordinator cannot start the run');
	like($err, qr/canceling statement due to statement timeout/, 'with the timeout as the error');
	unlock_session($lock);
	ok(nothing_left($node), 'its coordinator leaves, having run nothing');
	ok(no_running_rows(), 'no run or sweep reads running');
	is(q1("SELECT string_agg(status || ': ' || coalesce(error, ''), ',' ORDER BY run_id) FROM pgbenchx.runs WHERE run_id > $before"),
		"cancelled: $abandoned", 'the run the caller never learnt of reads cancelled, with the reason');
	is(q1("SELECT count(*) FROM pgbenchx.samples WHERE run_id > $before"), '0', 'and has not run a second');
	sleep 1;
	is(q1("SELECT count(*) FROM pgbenchx.runs WHERE run_id > $before AND status <> 'cancelled'"), '0',
		'nothing starts afterwards');
}

# --- pg_cancel_backend of a run_sweep caller during the launch
{
	my $before = q1("SELECT coalesce(max(sweep_id), 0) FROM pgbenchx.sweeps");
	my $lock = lock_session($node, 'pgbenchx.sweeps');
	my ($in, $out, $err) = ('', '', '');
	my $caller = IPC::Run::start(['psql', '-X', '-At', '-d', $node->connstr('postgres')],
		'<', \$in, '>', \$out, '2>', \$err);
	$in .= "SET application_name = 'launcher';\nSELECT run_sweep('{1,2}'::int[], 1, 'select-only', checkpoint => false);\n";
	# IPC::Run sends the input only when pumped
	my $waiting = 0;
	for (1 .. 600)
	{
		$caller->pump_nb;
		$waiting = q1("SELECT count(*) = 2 FROM pg_stat_activity WHERE"
			  . " (application_name = 'launcher' AND wait_event_type = 'Extension')"
			  . " OR (backend_type = 'pgbenchx coordinator' AND wait_event_type = 'Lock')") eq 't';
		last if $waiting;
		usleep(100_000);
	}
	$waiting or die "the caller never waited for its coordinator held on the lock: $err";
	is(q1("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'launcher'"), 't',
		'the caller is cancelled while it waits');
	$caller->pump until $err =~ /canceling statement due to user request/;
	like($err, qr/canceling statement due to user request/, 'run_sweep says it was cancelled');
	$in .= "\\q\n";
	$caller->finish;
	unlock_session($lock);
	ok(nothing_left($node), 'its coordinator leaves');
	ok(no_running_rows(), 'no run or sweep reads running');
	is(q1("SELECT string_agg(status || ': ' || coalesce(error, ''), ',' ORDER BY sweep_id) FROM pgbenchx.sweeps WHERE sweep_id > $before"),
		"cancelled: $abandoned", 'the sweep reads cancelled, with the reason');
	is(q1("SELECT count(*) FROM pgbenchx.runs WHERE sweep_id > $before"), '0', 'none of its runs started');
}

# --- a cancel while the coordinator waits for the caller's acknowledgement
#     cannot be timed from outside; statement_timeout at every few ms of the
#     launch probes every point of it instead: whenever the caller got no id,
#     no run went on.
{
	my $before = q1("SELECT coalesce(max(run_id), 0) FROM pgbenchx.runs");
	my %known;
	my ($got, $lost) = (0, 0);
	for my $ms (1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377)
	{
		my ($ret, $out, $err) = $node->psql('postgres',
			"SET statement_timeout = '${ms}ms'; SELECT run_bench(1, transactions => 20, script => 'select-only', checkpoint => false)");
		if ($ret == 0 && $out =~ /^(\d+)$/m)
		{
			$known{$1} = 1;
			$got++;
		}
		else
		{
			# A timeout that expires while the server still parses the
			# statement's text is re-armed by exec_simple_query's second
			# start_xact_command(), which clears its indicator: PostgreSQL
			# itself then reports the cancel as a user request (seen at 2 ms
			# on a loaded machine, on 18).  Either way the statement was
			# cancelled by its timeout, since nothing else cancels it here.
			like($err, qr/canceling statement due to (?:statement timeout|user request)/,
				"timeout after $ms ms: the statement is cancelled")
			  or diag($err);
			$lost++;
		}
		nothing_left($node) or die "something left after the $ms ms timeout";
	}
	note("statement_timeout probe: $got runs returned an id, $lost calls timed out");
	ok(no_running_rows(), 'no run reads running after the probe');
	my @ran = split /\n/, q1("SELECT run_id FROM pgbenchx.runs WHERE run_id > $before"
		  . " AND (status <> 'cancelled' OR transactions > 0"
		  . " OR EXISTS (SELECT 1 FROM pgbenchx.samples s WHERE s.run_id = runs.run_id))");
	my @unknown = grep { !$known{$_} } @ran;
	is("@unknown", '', 'every run that went on has an id its caller received');
	is(q1("SELECT count(*) FROM pgbenchx.runs WHERE run_id > $before AND status <> 'completed'"
		  . " AND error IS DISTINCT FROM '$abandoned'"), '0',
		'every other row says its caller gave up');
	# (a closed connection's backend leaves pg_stat_activity a moment later)
	ok($node->poll_query_until('postgres', "SELECT count(*) = 0 FROM pg_stat_activity WHERE application_name = 'pgbenchx check'"),
		'no login check connection is left behind');
}

# --- every secret of the conninfo is masked in the results
{
	my $id = q1("SELECT run_bench(1, transactions => 5, script => 'select-only', checkpoint => false,"
		  . " conninfo => 'password=pw-secret sslpassword=ssl-secret sslmode=disable')");
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id") or die;
	is(q1("SELECT conninfo FROM pgbenchx.runs WHERE run_id = $id"),
		"password='********' sslmode='disable' sslpassword='********'", 'password and sslpassword are masked in runs');
	my $sweep = q1("SELECT run_sweep('{1}'::int[], transactions => 5, script => 'select-only', checkpoint => false,"
		  . " conninfo => 'postgresql:///postgres?sslpassword=ssl-secret&password=pw-secret')");
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.sweeps WHERE sweep_id = $sweep") or die;
	my $shown = q1("SELECT conninfo FROM pgbenchx.sweeps WHERE sweep_id = $sweep")
	  . q1("SELECT string_agg(conninfo, ' ') FROM pgbenchx.runs WHERE sweep_id = $sweep");
	unlike($shown, qr/secret/, 'no secret in the sweep or its runs, URI form included');
	like($shown, qr/sslpassword='\*{8}'/, 'the sweep shows that an sslpassword was given');
	is(q1("SELECT count(*) FROM pgbenchx.runs WHERE conninfo LIKE '%secret%'")
		  + q1("SELECT count(*) FROM pgbenchx.sweeps WHERE conninfo LIKE '%secret%'"), 0,
		'no secret stored anywhere');
}

ok(nothing_left($node), 'nothing left at the end');
$node->stop;
done_testing();
