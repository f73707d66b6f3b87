# Samples that do not lie (issue 12): the last second of a run is stored as
# a rate over the time it covered (samples.covered_s), not as a count, for
# a run bounded by transactions that ends mid-second, for one that ends in
# its first second, for drivers that end seconds apart (a driver that is
# done holds no second back), for a cancelled run and for a timed run; the seconds
# tile the measured interval (sum(covered_s) = bench_duration_s, the first
# one starting at its start) and still add up to the run's transactions.
# chart_run marks a lone point for tps and p99; a replay's charts and
# sweep_report are in queries per minute.
#
# Runs are paced with rate (pgbench -R) so that where they end is known
# without depending on the machine's speed; timed bounds are generous.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

# (commit timestamps: when a second was stored is read afterwards, from its
# row, rather than caught by a poll while the run is on)
my $node = pgbenchx_node('samples', scale => 1, conf => "max_worker_processes = 16\ntrack_commit_timestamp = on\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }
sub wait_for { q1("SET client_min_messages = warning; CALL pgbenchx.wait($_[0])"); }

# What every finished run must satisfy, and its last sample.
sub check_run
{
	my ($id, $name, %want) = @_;
	my ($status, $tx, $tps, $bench_s, $lost, $lost_tx, $n, $sum_tx, $sum_cov, $full) = split /\|/, q1(qq{
		SELECT r.status, r.transactions, r.tps, r.bench_duration_s, r.samples_lost,
		       r.samples_lost_transactions, count(s.*), sum(s.transactions), sum(s.covered_s),
		       coalesce(bool_and(s.covered_s = 1) FILTER (WHERE s.second < (SELECT max(second) FROM pgbenchx.samples WHERE run_id = r.run_id)), true)
		FROM pgbenchx.runs r LEFT JOIN pgbenchx.samples s USING (run_id)
		WHERE r.run_id = $id GROUP BY r.run_id});
	is($status, $want{status}, "$name: $want{status}");
	is($lost, 0, "$name: no sample lost");
	is($sum_tx + $lost_tx, $tx, "$name: sum(samples.transactions) + samples_lost_transactions = transactions ($tx)");
	cmp_ok(abs($sum_cov - $bench_s), '<', 0.002,
		"$name: the samples cover the measured interval (sum(covered_s) $sum_cov, bench_duration_s $bench_s)");
	is($full, 't', "$name: every second but the last covered a whole second");

	my ($sec, $ltx, $ltps, $cov, $p99) = split /\|/, q1(qq{
		SELECT second, transactions, tps, covered_s, coalesce(latency_p99_ms::text, '')
		FROM pgbenchx.samples WHERE run_id = $id ORDER BY second DESC LIMIT 1});
	is($sec, $n, "$name: seconds numbered 1..$n");
	cmp_ok(abs($ltps - $ltx / $cov), '<=', 1e-6 * $ltps + 1e-9, "$name: the last tps is transactions / covered_s ($ltx / $cov)");
	cmp_ok(abs(($n - 1 + $cov) - $bench_s), '<', 0.002, "$name: the last second ends where the measured interval ends");
	if ($tps > 0 && $ltx > 0 && !$want{uneven})
	{
		my $f = $ltps / $tps;
		cmp_ok($f, '>', 1 / 3, "$name: the last second's tps ($ltps) is a rate near the run's ($tps), not a count ($ltx)");
		cmp_ok($f, '<', 3, "$name: the last second's tps ($ltps) is not far above the run's ($tps)");
	}
	return { n => $n, covered_s => $cov, tps => $ltps, transactions => $ltx, p99 => $p99 };
}

# --- bounded by transactions, ending mid-second: 300 transactions at 200 tps
{
	my $id = q1("SELECT run_bench(2, transactions => 150, script => 'select-only', jobs => 2, rate => 200, checkpoint => false)");
	wait_for($id);
	# a loaded machine may not keep the schedule (CI, 16: 99 tps of 200): the
	# clients then catch up in a burst at the end (as pgbench's -R does), and
	# the seconds are neither 1.5 nor even; the checks of check_run still hold
	my $run_tps = q1("SELECT tps FROM pgbenchx.runs WHERE run_id = $id");
	my $on_schedule = $run_tps >= 180;
	my $last = check_run($id, '-t ending mid-second', status => 'completed', uneven => !$on_schedule);
	is(q1("SELECT transactions FROM pgbenchx.runs WHERE run_id = $id"), 300, '-t: clients x transactions');
	SKIP:
	{
		skip("the machine kept $run_tps tps of the 200 asked: no 1.5 s schedule to check", 3) unless $on_schedule;
		is($last->{n}, 2, '-t: 1.5 s at 200 tps make two samples');
		cmp_ok($last->{covered_s}, '<', 0.95, "-t: the last second is partial (covered_s $last->{covered_s})");
		cmp_ok($last->{covered_s}, '>', 0.05, '-t: and covered about half a second');
	}
}

# --- bounded by transactions, ending in its first second: one sample
{
	# 20 transactions at 200 tps take 0.1 s; a loaded machine may stall one
	# for over a second (CI, 17: 60 of them took 1.92 s, a p99 of 1.6 s), so
	# the run is made again, up to 5 times, until one ends in its first second
	my ($id, @took);
	for my $try (1 .. 5)
	{
		$id = q1("SELECT run_bench(1, transactions => 20, script => 'select-only', rate => 200, checkpoint => false)");
		wait_for($id);
		push @took, q1("SELECT round(bench_duration_s::numeric, 3) FROM pgbenchx.runs WHERE run_id = $id");
		last if $took[-1] < 0.9;
	}
	cmp_ok($took[-1], '<', 0.9, 'a run of 20 transactions at 200 tps ended in its first second (took ' . join(', ', @took) . ' s)');
	my $last = check_run($id, '-t within a second', status => 'completed');
	is($last->{n}, 1, 'one sample');
	cmp_ok($last->{covered_s}, '<', 0.9, "it covered part of a second ($last->{covered_s})");
	cmp_ok($last->{tps}, '>', $last->{transactions}, 'its tps is a rate, above its count');

	# chart_run: a line of one point draws nothing; both series get a marker
	my $svg = q1("SELECT pgbenchx.chart_run($id)");
	is(q1("SELECT xmlparse(document pgbenchx.chart_run($id)) IS NOT NULL"), 't', 'chart_run: well-formed');
	like($svg, qr/<circle class="tps-point" [^>]*>/, 'chart_run: a marker for the tps of the lone second');
	like($svg, qr/<circle class="p99-point" [^>]*>/, 'chart_run: a marker for its p99');
	like($svg, qr/second 1 \(0\.\d+ s\): [0-9.]+ tps/, 'chart_run: the marker says the second was partial');
}

# --- drivers that end at different times: a driver that is done holds no
# second back, and the seconds after its end are the others' (client 0, in
# driver 0, ends at about 0.2 s; client 1, in driver 1, at about 2.2 s)
{
	q1(q{SELECT pgbenchx.add_script('uneven', E'\\\\set d 100 + :client_id * 1000\n\\\\sleep :d ms\nSELECT 1;\n')});
	my $id = q1("SELECT run_bench(2, transactions => 2, script => 'uneven', jobs => 2, checkpoint => false)");
	wait_for($id);
	my $last = check_run($id, 'drivers ending apart', status => 'completed', uneven => 1);
	is(q1("SELECT jobs || ' ' || transactions || ' ' || samples_lost_transactions FROM pgbenchx.runs WHERE run_id = $id"),
		'2 4 0', 'drivers ending apart: every transaction is in a stored second');
	is($last->{n}, 3, 'drivers ending apart: the seconds after the first driver ended are stored');
}

# --- cancelled in the middle of its second second
{
	# 600 s: the cancel, not the duration, ends it
	my $id = q1("SELECT run_bench(2, 600, 'select-only', rate => 400, checkpoint => false)");
	run_sampled($node, "run_id = $id") or die 'the run never sampled a second';
	# cancel 0.3 s into a second of the measured interval (started_at),
	# whatever the polling took: the sleep to that moment and the cancel are
	# one statement, with no psql call between them, and 0.7 s is left for
	# the stop to land within the second on a loaded machine
	is(q1("SELECT pgbenchx.cancel(run_id) FROM (SELECT run_id, pg_sleep(CASE WHEN w < 0.1 THEN w + 1 ELSE w END) "
		  . "FROM (SELECT run_id, 0.3 - mod(extract(epoch FROM clock_timestamp() - started_at)::numeric, 1) AS w "
		  . "FROM pgbenchx.runs WHERE run_id = $id) a) b"), 't', 'cancel signals the run');
	wait_for($id);
	my $last = check_run($id, 'cancelled', status => 'cancelled');
	cmp_ok($last->{covered_s}, '<', 0.99, "cancelled: the last second is partial (covered_s $last->{covered_s})");
	ok(nothing_left($node), 'cancelled: nothing left');
}

# --- bounded by a duration: the last second ends with the measured interval,
# about a second (the transactions in flight at the end count in it; paced
# clients whose next start falls after the end stop a little before it)
{
	my $id = q1("SELECT run_bench(2, 2, 'select-only', rate => 400, checkpoint => false)");
	wait_for($id);
	my $last = check_run($id, 'timed', status => 'completed');
	is($last->{n}, 2, 'timed: one sample per second');
	cmp_ok($last->{covered_s}, '>', 0.9, "timed: the last second covers about a second ($last->{covered_s})");
	cmp_ok($last->{covered_s}, '<', 1.5, 'timed: and not much more');
}

# --- a second that ends while every client waits on the server: the driver
# waits on its sockets alone then (as pgbench's threads do), and the
# coordinator wakes it to publish the second.  One client whose transaction
# sleeps 3 s in the server, over 6 s: the first transaction ends just after
# 3 s (in the 4th second), publishing seconds 1 to 3; the 4th second ends at
# 4 s, while the next transaction runs until just after 6 s.  The 4th second
# must be stored well before that (without the coordinator's wake-up it
# would wait for the transaction's end).
{
	q1(q{SELECT pgbenchx.add_script('server3s', 'SELECT pg_sleep(3);')});
	my $id = q1("SELECT run_bench(1, 6, 'server3s', vacuum => false, checkpoint => false)");
	wait_for($id);
	# when the 4th second was stored, by its row's commit timestamp, from the
	# start of the measured interval (started_at)
	my $stored = q1("SELECT round(extract(epoch FROM pg_xact_commit_timestamp(s.xmin) - r.started_at)::numeric, 2) "
		  . "FROM pgbenchx.samples s JOIN pgbenchx.runs r USING (run_id) WHERE run_id = $id AND second = 4");
	ok($stored =~ /^[0-9.]+$/ && $stored < 5.8,
		"a client waiting on the server: the second that ended meanwhile is stored before the transaction ends (at $stored s)");
	check_run($id, 'waiting on the server', status => 'completed', uneven => 1);
	is(q1("SELECT string_agg(transactions::text, ',' ORDER BY second) FROM pgbenchx.samples WHERE run_id = $id"),
		'0,0,0,1,0,1', 'waiting on the server: each transaction in the second it ended in');
}

# --- a replay: queries per minute in sweep_report and the charts
{
	my $list = join '', map { "SELECT $_;\n" } 1 .. 200;
	my $sweep = q1("SELECT run_replay(\$r\$$list\$r\$, 1, 2, checkpoint => false)");
	wait_for($sweep);
	is(q1("SELECT string_agg(status, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"), 'completed,completed',
		'replay: both runs completed');
	is(q1("SELECT bool_and(tps IS NULL AND qpm > 0 AND bar <> '') FROM pgbenchx.sweep_report($sweep)"), 't',
		'replay: sweep_report gives qpm, not tps');
	is(q1("SELECT string_agg((r.qpm = (SELECT p.qpm FROM pgbenchx.sweep_report($sweep) p WHERE p.clients = r.clients))::text, ',') "
		  . "FROM (SELECT clients, round(qpm::numeric, 1) AS qpm FROM pgbenchx.runs WHERE sweep_id = $sweep) r"),
		'true,true', "replay: sweep_report's qpm is the run's");
	my $chart = q1("SELECT pgbenchx.chart_sweeps(ARRAY[$sweep])");
	like($chart, qr/>Queries per minute by number of clients</, 'replay: chart_sweeps title says queries per minute');
	like($chart, qr/rotate\(-90\)" text-anchor="middle">queries per minute</, 'replay: chart_sweeps axis says queries per minute');
	unlike($chart, qr/transactions per second/, 'replay: chart_sweeps says nothing of tps');
	like($chart, qr/peak \d+ qpm at/, 'replay: the legend gives the peak in qpm');
	my $run = q1("SELECT run_id FROM pgbenchx.runs WHERE sweep_id = $sweep AND clients = 2");
	my $rchart = q1("SELECT pgbenchx.chart_run($run)");
	like($rchart, qr/>queries per minute</, 'replay: chart_run axis says queries per minute');
	like($rchart, qr/whole run: [0-9.]+ qpm/, "replay: chart_run's legend gives the run's qpm");
	check_run($run, 'replay', status => 'completed');
	# a replay sample's rate in the chart: (transactions + failed) * 60 / covered_s
	my ($x, $want) = split /\|/, q1(qq{
		SELECT round(((transactions + failed) * 60 / covered_s)::numeric, 1), second
		FROM pgbenchx.samples WHERE run_id = $run ORDER BY second LIMIT 1});
	like($rchart, qr/second $want(?: \([0-9.]+ s\))?: \Q$x\E qpm/, 'replay: chart_run draws each sample in queries per minute');
}

ok(nothing_left($node), 'nothing left at the end');
$node->stop;
done_testing();
