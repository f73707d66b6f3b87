# Two runners, neither with pg_read_all_stats, granted with grant_runner and
# logging in with SCRAM passwords, and a superuser as a third party.  The
# truth about a run does not depend on who asks: runner B's wait, cancel,
# progress and run start all see runner A's run alive, none marks it
# aborted, and A's run completes.  B may not cancel A's run nor run A's
# script (each refusal names A); a member of A may.  A superuser's run is
# cancelled only by a superuser.  The free connections and worker slots are
# judged from the server's real state: B's 20-client run is refused while
# A's idle sessions hold the connections, and B's run is refused while A's
# parallel query holds the worker slots, though B cannot see either in
# pg_stat_activity.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('tworunners', scale => 1,
	conf => "password_encryption = 'scram-sha-256'\nmax_connections = 40\n"
	  . "superuser_reserved_connections = 3\nmax_worker_processes = 8\nmax_parallel_workers = 8\n");
my $su = $node->safe_psql('postgres', 'SELECT current_user');
$node->safe_psql('postgres', q{
	CREATE ROLE runner_a LOGIN PASSWORD 'a-secret';
	CREATE ROLE runner_b LOGIN PASSWORD 'b-secret';
	CREATE ROLE member_a LOGIN PASSWORD 'm-secret' IN ROLE runner_a;
	SELECT pgbenchx.grant_runner('runner_a');
	SELECT pgbenchx.grant_runner('runner_b');
	SELECT pgbenchx.grant_runner('member_a');
	GRANT SELECT ON pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history TO runner_a, runner_b;
	CREATE TABLE spin AS SELECT g FROM generate_series(1, 40000) g;
	ALTER TABLE spin SET (parallel_workers = 6);
	GRANT SELECT ON spin TO runner_a;
});
my $hba = $node->data_dir . '/pg_hba.conf';
open(my $fh, '>', $hba) or die;
print $fh "local all $su trust\n";
print $fh "local all all scram-sha-256\n";
close $fh;
$node->reload;

my %pw = (runner_a => 'a-secret', runner_b => 'b-secret', member_a => 'm-secret');

sub as_role
{
	my ($role, $sql) = @_;
	local $ENV{PGPASSWORD} = $pw{$role};
	my ($stdout, $stderr);
	my $ret = $node->psql('postgres', $sql, stdout => \$stdout, stderr => \$stderr,
		extra_params => [ '-U', $role, '-v', 'VERBOSITY=verbose' ]);
	return ($ret, $stdout, $stderr);
}

sub q1 { return $node->safe_psql('postgres', $_[0]); }

sub ended
{
	my ($id) = @_;
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
	  or die "run $id never ended";
}

is(q1("SELECT count(*) FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member "
	  . "WHERE r.rolname IN ('runner_a', 'runner_b') AND m.roleid = 'pg_read_all_stats'::regrole"),
	'0', 'neither runner may read all stats');

# --- A's run, seen by B (its clients wait on a lock until B's five looks
# below are done: the run is on for all of them however slow a loaded
# machine makes each psql, and completes after the unlock)
my $lock = lock_session($node, 'pgbench_accounts');
my ($ret, $out, $err) = as_role('runner_a',
	"SELECT run_bench(2, 2, 'select-only', vacuum => false, checkpoint => false, conninfo => 'password=a-secret')");
is($ret, 0, 'runner A starts a run') or diag($err);
my ($id) = $out =~ /(\d+)/;
ok(run_sampled($node, "run_id = $id"), 'it samples its first second');
is(q1("SELECT owner FROM pgbenchx.runs WHERE run_id = $id"), 'runner_a', 'the run records its role');

($ret, $out, $err) = as_role('runner_b', "SELECT run_id FROM pgbenchx.progress");
is($out, $id, "B's pgbenchx.progress shows A's live run");

($ret, $out, $err) = as_role('runner_b', "SELECT pgbenchx.cancel($id)");
isnt($ret, 0, "B cannot cancel A's run");
like($err, qr/42501.*permission denied to cancel run $id of role "runner_a"/s, 'refused with 42501, naming A');

($ret, $out, $err) = as_role('runner_b',
	"SELECT run_bench(1, 1, 'select-only', checkpoint => false, conninfo => 'password=b-secret')");
isnt($ret, 0, "B cannot start a run while A's goes on");
like($err, qr/a pgbenchx run is already in progress.*pgbenchx run $id/s, 'refused, naming the run in progress');

is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'running', "none of B's looks marked A's run aborted");
unlock_session($lock);

($ret, $out, $err) = as_role('runner_b', "CALL pgbenchx.wait($id)");
is($ret, 0, "B waits for A's run") or diag($err);
like($err, qr/run $id completed/, "B's wait follows it to the end");
is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', "A's run completes");

# --- a member of A may cancel A's run; A's script runs for A's members only
($ret, $out, $err) = as_role('runner_a', "SELECT pgbenchx.add_script('a-only', 'SELECT 1;')");
is($ret, 0, 'A registers a script') or diag($err);
($ret, $out, $err) = as_role('runner_b',
	"SELECT run_bench(1, 1, 'a-only', checkpoint => false, conninfo => 'password=b-secret')");
like($err, qr/42501.*permission denied to run script "a-only" of role "runner_a"/s, "B cannot run A's script");
($ret, $out, $err) = as_role('member_a',
	"SELECT run_bench(1, 600, 'a-only', vacuum => false, checkpoint => false, conninfo => 'password=m-secret')");
is($ret, 0, "a member of A runs A's script") or diag($err);
my ($mid) = $out =~ /(\d+)/;
ok(run_sampled($node, "run_id = $mid"), "the member's run samples");
($ret, $out, $err) = as_role('runner_b', "SELECT pgbenchx.cancel($mid)");
like($err, qr/42501.*of role "member_a"/s, "B cannot cancel the member's run");
($ret, $out, $err) = as_role('member_a', "SELECT pgbenchx.cancel($mid)");
is($out, 't', 'its own role cancels it');
ended($mid);
is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $mid"), 'cancelled', 'and it reads cancelled');

# --- a superuser's run: only a superuser cancels it
# (600 s, as the runs below: the cancel, not the duration, ends them)
my $sid = q1("SELECT run_bench(1, 600, 'select-only', vacuum => false, checkpoint => false)");
ok(run_sampled($node, "run_id = $sid"), "the superuser's run samples");
($ret, $out, $err) = as_role('runner_a', "SELECT pgbenchx.cancel($sid)");
like($err, qr/42501.*of role "$su"/s, "a runner cannot cancel a superuser's run");
q1("GRANT pg_signal_backend TO runner_b");
($ret, $out, $err) = as_role('runner_b', "SELECT pgbenchx.cancel($sid)");
like($err, qr/42501/, 'nor can a member of pg_signal_backend');
is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $sid"), 'running', 'it goes on');
is(q1("SELECT pgbenchx.cancel($sid)"), 't', 'a superuser cancels it');
ended($sid);

# pg_signal_backend cancels a non-superuser's run, as pg_cancel_backend
($ret, $out, $err) = as_role('runner_a',
	"SELECT run_bench(1, 600, 'select-only', vacuum => false, checkpoint => false, conninfo => 'password=a-secret')");
my ($aid) = $out =~ /(\d+)/;
ok(run_sampled($node, "run_id = $aid"), "A's second run samples");
($ret, $out, $err) = as_role('runner_b', "SELECT pgbenchx.cancel($aid)");
is($out, 't', "a member of pg_signal_backend cancels A's run") or diag($err);
ended($aid);
q1("REVOKE pg_signal_backend FROM runner_b");

# --- free connections: A's idle sessions, which B cannot see
my @idle;
for (1 .. 25)
{
	local $ENV{PGPASSWORD} = 'a-secret';
	push @idle, $node->background_psql('postgres', extra_params => [ '-U', 'runner_a' ]);
}
is(q1("SELECT count(*) FROM pg_stat_activity WHERE usename = 'runner_a'"), '25', "A holds 25 idle connections");
($ret, $out, $err) = as_role('runner_b', "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'");
cmp_ok($out, '<', 5, "B's pg_stat_activity does not show them");
($ret, $out, $err) = as_role('runner_b',
	"SELECT run_bench(15, 1, 'select-only', jobs => 1, checkpoint => false, conninfo => 'password=b-secret')");
isnt($ret, 0, "B's 15-client run (within its share of 18 of the 37) is refused");
like($err, qr/53300.*15 clients need 16 connections, but only (?:1 is|\d+ are) free/s, 'for want of connections');
$_->quit for @idle;
$node->poll_query_until('postgres', "SELECT count(*) = 0 FROM pg_stat_activity WHERE usename = 'runner_a'") or die;

# --- free worker slots: A's parallel query, which B cannot see
{
	local $ENV{PGPASSWORD} = 'a-secret';
	my $par = $node->background_psql('postgres', extra_params => [ '-U', 'runner_a' ]);
	$par->query_until(qr/go/, q{
		SET max_parallel_workers_per_gather = 6; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
		SET statement_timeout = '60s';
		\echo go
		SELECT count(*) FROM spin WHERE pg_sleep(0.001) IS NOT NULL;
	});
	ok($node->poll_query_until('postgres',
		"SELECT count(*) >= 6 FROM pg_stat_activity WHERE backend_type = 'parallel worker'"),
		"A's query holds 6 worker slots");
	($ret, $out, $err) = as_role('runner_b',
		"SELECT run_bench(2, 1, 'select-only', jobs => 2, checkpoint => false, conninfo => 'password=b-secret')");
	isnt($ret, 0, "B's run is refused");
	like($err, qr/53400.*2 jobs need 3 background worker slots, but only (?:1 is|\d+ are) free/s, 'for want of worker slots');
	q1("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE usename = 'runner_a' AND backend_type = 'client backend'");
	# the cancelled query's psql may have exited already (ON_ERROR_STOP): its
	# \q then meets a closed pipe, which is not this test's concern
	eval { $par->quit; };
}

ok(nothing_left($node), 'nothing is left behind');
$node->stop;
done_testing();
