# The benchmark engine against a real cluster: short runs of every built-in
# script under every protocol complete with consistent numbers; tpcb-like
# keeps the TPC-B invariant; transactions-bounded runs; the per-second
# samples; the wait procedure's report; a client failing mid-run.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('engine', scale => 2, conf => "max_worker_processes = 16\n");

# start a run, wait for it with the procedure, return (run_id, wait's NOTICEs)
sub run_and_wait
{
	my ($args) = @_;
	my $id = $node->safe_psql('postgres', "SELECT run_bench($args)");
	my ($stdout, $stderr);
	$node->psql('postgres', "CALL pgbenchx.wait($id)", stdout => \$stdout, stderr => \$stderr,
		on_error_die => 1);
	return ($id, $stderr);
}

sub row
{
	my ($sql) = @_;
	return split /\|/, $node->safe_psql('postgres', $sql);
}

foreach my $script ('select-only', 'simple-update', 'tpcb-like')
{
	foreach my $protocol ('simple', 'extended', 'prepared')
	{
		my $name = "$script/$protocol";
		my ($id, $notices) = run_and_wait(
			"2, 2, '$script', protocol => '$protocol', checkpoint => false");
		my ($status, $clients, $jobs, $tx, $failed, $tps, $bench_s, $p99, $max, $conn, $error) = row(qq{
			SELECT status, clients, jobs, transactions, failed, tps, bench_duration_s,
			       latency_p99_ms, latency_max_ms, conn_time_ms, coalesce(error, '')
			FROM pgbenchx.runs WHERE run_id = $id});
		is($status, 'completed', "$name: completed") or diag("error: $error");
		is($clients, 2, "$name: 2 clients");
		cmp_ok($tx, '>', 0, "$name: transactions > 0");
		is($failed, 0, "$name: no failures");
		cmp_ok(abs($tps - $tx / $bench_s), '<', 0.01 * $tps + 1, "$name: tps = transactions / measured duration");
		cmp_ok($bench_s, '>=', 2, "$name: measured at least the duration");
		cmp_ok($bench_s, '<', 4, "$name: measured about the duration");
		cmp_ok($p99, '<=', $max, "$name: p99 <= max");
		cmp_ok($conn, '>', 0, "$name: connection time recorded");

		my ($nsamples, $sum, $min_sec, $max_sec) = row(
			"SELECT count(*), sum(transactions), min(second), max(second) FROM pgbenchx.samples WHERE run_id = $id");
		is($nsamples, 2, "$name: one sample per second");
		is("$min_sec-$max_sec", '1-2', "$name: samples numbered 1..2");
		is($sum, $tx, "$name: samples add up to the run's transactions");

		like($notices, qr/run $id completed\n(.*\n)*number of clients: 2\n(.*\n)*number of failed transactions: 0 \(0\.000%\)\n(.*\n)*latency average = [0-9.]+ ms\n(.*\n)*tps = [0-9.]+ \(without initial connection time\)\n(.*\n)*-- pgbenchx --\nlatency percentiles: p50 = [0-9.]+ ms, .*p99 = [0-9.]+ ms/,
			"$name: wait reports the run (pgbenchx.report)");
	}
}

# the TPC-B invariant holds after tpcb-like runs on fresh tables (without
# the pre-run truncate of pgbench_history, which would lose the deltas)
$node->safe_psql('postgres', 'SET client_min_messages = warning; SELECT pgbench_init(2)');
run_and_wait("4, 2, 'tpcb-like', vacuum => false, checkpoint => false");
run_and_wait("2, 1, 'tpcb-like', protocol => 'prepared', vacuum => false, checkpoint => false");
is($node->safe_psql('postgres', q{
	SELECT (SELECT sum(abalance) FROM pgbench_accounts) = (SELECT sum(bbalance) FROM pgbench_branches)
	   AND (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT sum(tbalance) FROM pgbench_tellers)
	   AND (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT coalesce(sum(delta), 0) FROM pgbench_history)}),
	't', 'TPC-B invariant after the runs');
cmp_ok($node->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history'), '>', 0,
	'the tpcb-like runs wrote history');

# bounded by transactions per client, with several jobs
{
	my ($id) = run_and_wait("3, transactions => 200, script => 'select-only', jobs => 2, checkpoint => false");
	my ($status, $jobs, $tx, $sum) = row(
		"SELECT status, jobs, transactions, (SELECT sum(transactions) FROM pgbenchx.samples WHERE run_id = $id) FROM pgbenchx.runs WHERE run_id = $id");
	is($status, 'completed', 'transactions-bounded run completes');
	is($jobs, 2, 'jobs as asked');
	is($tx, 600, 'exactly clients x transactions');
	is($sum, 600, 'samples add up');
}

# application names and backend types while a run is in progress: the
# clients wait on a lock in their first transaction, so the run is still on
# whenever the looks come (a 3 s run could end before them on a loaded
# machine), and completes once the lock is released
{
	my $lock = lock_session($node, 'pgbench_accounts');
	my $id = $node->safe_psql('postgres', "SELECT run_bench(3, 1, 'select-only', jobs => 2, vacuum => false, checkpoint => false)");
	$node->poll_query_until('postgres',
		"SELECT count(*) = 3 FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx client %' AND wait_event_type = 'Lock'")
	  or die 'clients never showed up';
	is($node->safe_psql('postgres',
		"SELECT string_agg(application_name, ',' ORDER BY application_name) FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx client %'"),
		'pgbenchx client 0,pgbenchx client 1,pgbenchx client 2', 'clients are named');
	is($node->safe_psql('postgres',
		"SELECT string_agg(backend_type || ':' || n, ',' ORDER BY backend_type) FROM (SELECT backend_type, count(*) n FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchx%' GROUP BY 1) s"),
		'pgbenchx coordinator:1,pgbenchx driver:2', 'workers carry their backend type');
	is($node->safe_psql('postgres', 'SELECT run_id FROM pgbenchx.progress'), $id, 'progress shows the run');
	unlock_session($lock);
	$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
	is($node->safe_psql('postgres', "SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'the run completes once the lock is gone');
	is($node->safe_psql('postgres', 'SELECT count(*) FROM pgbenchx.progress'), '0', 'progress is empty afterwards');
	$node->poll_query_until('postgres',
		"SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchx%' OR application_name LIKE 'pgbenchx%'")
	  or die 'workers or clients left behind';
	pass('no worker or client left behind');
}

# a client whose SQL fails mid-run is aborted; the run fails and keeps its numbers
# (600 s: the rename lands while the run is on however slow a loaded machine
# is, and it is the failure, not the duration, that ends the run)
{
	my $id = $node->safe_psql('postgres', "SELECT run_bench(2, 600, 'tpcb-like', checkpoint => false)");
	run_sampled($node, "run_id = $id")
	  or die 'run did not start';
	$node->safe_psql('postgres', 'ALTER TABLE pgbench_history RENAME TO pgbench_history_away');
	$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
	$node->safe_psql('postgres', 'ALTER TABLE pgbench_history_away RENAME TO pgbench_history');
	my ($status, $aborted, $tx, $error) = row(
		"SELECT status, aborted_clients, transactions, error FROM pgbenchx.runs WHERE run_id = $id");
	is($status, 'failed', 'a failing client fails the run');
	is($aborted, 2, 'both clients aborted');
	cmp_ok($tx, '>', 0, 'the transactions before the failure are kept');
	like($error, qr/client \d+ script 0 aborted in command \d+ query 0: .*pgbench_history/, 'the error names the failing query');
}

$node->stop;
done_testing();
