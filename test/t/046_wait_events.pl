# Wait events of the client backends (issue 13): the coordinator samples
# each client backend's wait_event_info many times a second and stores the
# counts per second in pgbenchx.wait_samples, and the backends' CPU per
# second in system_samples.backend_cpu_s.
#
# Checked against what the test itself does to the server: a row lock the
# test's own session holds while every client updates that row must show
# as Lock waits dominating the seconds of the lock; a select-only run shows
# CPU:on CPU and Client:ClientRead and no Lock.  Every tick counts every
# client once, so a second's samples add up to clients x ticks; the rate
# achieved is runs.wait_sample_hz.  record_system => false records none of
# it.  Bounds are loose: the machine is shared and noisy.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use IPC::Run;

my $node = pgbenchx_node('waits', scale => 1, conf => "max_worker_processes = 16\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }
sub wait_for { q1("SET client_min_messages = warning; CALL pgbenchx.wait($_[0])"); }

my $ncpu = `getconf _NPROCESSORS_ONLN` + 0 || 1;

# What every recorded run must satisfy: the samples of each whole second
# add up to clients x ticks (the run's rate stands in for a second's ticks),
# the rate is near 100 Hz, backend CPU is within what the machine has.
sub check_sums
{
	my ($id, $clients, $name) = @_;
	my $hz = q1("SELECT wait_sample_hz FROM pgbenchx.runs WHERE run_id = $id");
	cmp_ok($hz, '>=', 50, "$name: wait_sample_hz $hz >= 50 (aim 100)");
	cmp_ok($hz, '<=', 250, "$name: wait_sample_hz $hz is not above what 10 ms ticks give");
	my @secs = split /\n/, q1(qq{
		SELECT w.second, sum(w.samples)
		FROM pgbenchx.wait_samples w JOIN pgbenchx.samples s USING (run_id, second)
		WHERE run_id = $id AND s.covered_s = 1 GROUP BY w.second ORDER BY w.second});
	ok(@secs >= 1, "$name: wait samples for the whole seconds");
	# a second has at most 100 ticks of 10 ms (150: its bounds are the
	# sampler's clock); a loaded machine may starve the sampler for a
	# second, so a second's ticks can be fewer than the run's rate: the
	# whole seconds together have about clients x the run's rate each
	my $total = 0;
	for (@secs)
	{
		my ($sec, $sum) = split /\|/;
		$total += $sum;
		cmp_ok($sum, '<=', $clients * 150, "$name: second $sec: $sum samples, not more than clients x 150 ticks");
	}
	my $want = $clients * $hz * @secs;
	cmp_ok($total, '>', 0.5 * $want, "$name: $total samples in the whole seconds, about clients x rate x seconds ($want)");
	cmp_ok($total, '<', 1.5 * $want, "$name: not more than clients x rate x seconds ($want)");
	my $bad = q1(qq{
		SELECT count(*) FROM pgbenchx.system_samples
		WHERE run_id = $id AND backend_cpu_s > covered_s * $ncpu + 0.2});
	is($bad, 0, "$name: backend_cpu_s never above covered_s x $ncpu CPUs");
	return $hz;
}

# --- a deliberate lock: every client updates the row the test holds locked
{
	q1(q{SELECT pgbenchx.add_script('hot-row', 'UPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = 1;')});
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(['psql', '-X', '-At', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres')],
		'<', \$in, '>', \$out, '2>', \$err);
	$in .= "BEGIN;\nSELECT bid FROM pgbench_branches WHERE bid = 1 FOR UPDATE;\nSELECT 'locked';\n";
	$h->pump until $out =~ /locked/;

	# 600 s, cancelled once a whole second after the lock is stored: the
	# release then always comes while the run is on, however slow a loaded
	# machine makes the calls around it
	my $id = q1("SELECT run_bench(4, duration => 600, script => 'hot-row', checkpoint => false)");
	# hold the lock over the first two seconds of the measured interval
	ok(run_sampled($node, "run_id = $id", 2), 'lock: two seconds sampled under the lock');
	$in .= "COMMIT;\n\\q\n";
	$h->finish;
	# the seconds stored by now: every second from two later on began after the lock
	my $after = q1("SELECT max(second) + 2 FROM pgbenchx.samples WHERE run_id = $id");
	ok(run_sampled($node, "run_id = $id", $after), "lock: second $after, after the lock, stored");
	is(q1("SELECT pgbenchx.cancel($id)"), 't', 'lock: the run is cancelled then');
	wait_for($id);
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'cancelled', 'lock: the run went on until the cancel');

	for my $sec (1, 2)
	{
		my ($lock, $all) = split /\|/, q1(qq{
			SELECT coalesce(sum(samples) FILTER (WHERE wait_event_type = 'Lock'), 0), sum(samples)
			FROM pgbenchx.wait_samples WHERE run_id = $id AND second = $sec});
		cmp_ok($lock, '>', 0.7 * $all, "lock: second $sec: Lock waits dominate ($lock of $all samples)");
	}
	is(q1(qq{SELECT count(*) > 0 FROM pgbenchx.wait_samples
	         WHERE run_id = $id AND second <= 2 AND wait_event_type = 'Lock' AND wait_event = 'transactionid'}),
		't', 'lock: Lock:transactionid among them');
	my $top = q1(qq{SELECT wait_event_type || ':' || wait_event FROM pgbenchx.wait_samples
	                WHERE run_id = $id AND second <= 2 GROUP BY 1 ORDER BY sum(samples) DESC LIMIT 1});
	like($top, qr/^Lock:(transactionid|tuple)$/, "lock: the top event of the locked seconds is $top");
	check_sums($id, 4, 'lock');
	# the lock was released: the clients of a second after it updated on CPU or waiting on one another
	is(q1(qq{SELECT count(*) > 0 FROM pgbenchx.wait_samples
	         WHERE run_id = $id AND second = $after AND wait_event_type <> 'Lock'}),
		't', 'lock: after the lock, other events');
}

# --- select-only: on CPU and waiting for the client, no Lock
{
	my $id = q1("SELECT run_bench(2, duration => 2, script => 'select-only', checkpoint => false)");
	wait_for($id);
	my %ev = map { my ($e, $n) = split /\|/; ($e => $n) } split /\n/, q1(qq{
		SELECT wait_event_type || ':' || wait_event, sum(samples)
		FROM pgbenchx.wait_samples WHERE run_id = $id GROUP BY 1});
	ok($ev{'CPU:on CPU'}, 'select-only: CPU:on CPU sampled');
	ok($ev{'Client:ClientRead'}, 'select-only: Client:ClientRead sampled (the load generator shows)');
	is(scalar(grep { /^Lock:/ } keys %ev), 0, 'select-only: no Lock wait');
	check_sums($id, 2, 'select-only');

	my ($cpu, $n, $nulls) = split /\|/, q1(qq{
		SELECT sum(backend_cpu_s), count(*), count(*) FILTER (WHERE backend_cpu_s IS NULL)
		FROM pgbenchx.system_samples WHERE run_id = $id});
	cmp_ok($n, '>=', 2, 'select-only: a system_samples row per second');
	is($nulls, 0, 'select-only: backend CPU read for every second');
	cmp_ok($cpu, '>', 0, "select-only: the client backends used CPU ($cpu s)");
	my $cov = q1("SELECT sum(covered_s) FROM pgbenchx.samples WHERE run_id = $id");
	cmp_ok($cpu, '<=', $cov * $ncpu + 0.5, "select-only: and not more than $cov s x $ncpu CPUs");
	unlike(q1("SELECT system_notes FROM pgbenchx.runs WHERE run_id = $id"), qr/backend_cpu_s/, 'select-only: no note about backend CPU');
}

# --- connect_per_transaction: backends come and go; counted, and the note says what is missed
{
	my $id = q1("SELECT run_bench(2, duration => 2, script => 'select-only', checkpoint => false, connect_per_transaction => true)");
	wait_for($id);
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', '-C: completed');
	cmp_ok(q1("SELECT coalesce(sum(samples), 0) FROM pgbenchx.wait_samples WHERE run_id = $id"), '>', 0,
		'-C: wait samples of the short-lived backends');
	like(q1("SELECT array_to_string(system_notes, E'\\n') FROM pgbenchx.runs WHERE run_id = $id"),
		qr/backend_cpu_s misses short-lived backends/, '-C: system_notes says backend CPU misses short-lived backends');
}

# --- record_system => false: nothing recorded, no rate
{
	my $id = q1(q{SELECT pgbenchx.launch_bench('{"clients":2,"duration":1,"record_system":false}')});
	wait_for($id);
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'off: completed');
	is(q1("SELECT count(*) FROM pgbenchx.wait_samples WHERE run_id = $id"), 0, 'off: no wait_samples rows');
	is(q1("SELECT count(*) FROM pgbenchx.system_samples WHERE run_id = $id AND backend_cpu_s IS NOT NULL"), 0,
		'off: no backend_cpu_s');
	is(q1("SELECT wait_sample_hz IS NULL AND record_system IS FALSE FROM pgbenchx.runs WHERE run_id = $id"), 't',
		'off: wait_sample_hz NULL');
}

ok(nothing_left($node), 'no worker or client left');
$node->stop;
done_testing();
