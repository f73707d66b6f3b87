# Issue 23: every figure with its uncertainty, every difference tested, on
# real runs of this machine.  A run's 95% interval of its tps (its own
# precision) comes from its per-second samples when its final row is
# written (runs.tps_ci_low/high, batch means widened by an AR(1) reading
# when the seconds are strongly correlated: NULL under 120 s; a run of
# 121 s on a second cluster, beside the rest) and report() prints it; a point's interval
# across its repeated runs is in sweep_points and sweep_report; compare()
# gives the interval of the ratio B/A, significant when it excludes 1.  An
# A/A comparison (the same script twice, runs interleaved ABBA) is not
# significant in at most 5 of 20 independent tries (issue 35: calibrated,
# not "one of three"); an A/B with a known effect (\sleep 10 ms against \sleep 20
# ms per transaction: half the tps) is, with the interval near 0.5.  The
# statistics themselves are checked against known truth in
# test/unit/test_ci.c; here, the SQL functions on fixed values.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('confidence', scale => 1);
# the run long enough for its own interval, on a cluster of its own, so
# that its two minutes pass beside the rest of this file
my $long_node = pgbenchx_node('confidence_long', scale => 1);

sub q1 { return $node->safe_psql('postgres', $_[0]); }
sub wait_for { q1("SET client_min_messages = warning; CALL pgbenchx.wait($_[0])"); }

q1("SELECT pgbenchx.add_script('sleep10', \$s\$\\sleep 10 ms\nSELECT 1;\n\$s\$)");
q1("SELECT pgbenchx.add_script('sleep20', \$s\$\\sleep 20 ms\nSELECT 1;\n\$s\$)");
$long_node->safe_psql('postgres', "SELECT pgbenchx.add_script('sleep10', \$s\$\\sleep 10 ms\nSELECT 1;\n\$s\$)");
my $run = $long_node->safe_psql('postgres',
	"SELECT run_bench(1, 121, 'sleep10', vacuum => false, checkpoint => false, record_system => false)");

# --- the SQL functions on fixed values --------------------------------------
# 10 + (7 i mod 11), i = 1..120: negatively correlated seconds (lag-1
# -0.40), so the batch means' interval: 10 batches of 12 s with means
# 15.1667 14.8333 15.4167 15.0833 14.75 15.3333 15 14.6667 15.25 14.9167;
# mean 15.0417, their standard deviation 0.25230, se 0.079786, t(9) =
# 2.2622: 14.861 to 15.222 (computed apart, in Python)
is(q1("SELECT round(tps::numeric, 4) || ' ' || round(low::numeric, 3) || ' ' || round(high::numeric, 3) || ' ' || df "
		. "FROM pgbenchx.ci_seconds(ARRAY(SELECT (10 + (7 * g) % 11)::float8 FROM generate_series(1, 120) g))"),
	'15.0417 14.861 15.222 9', 'ci_seconds: batch means of 120 seconds');
is(q1("SELECT (pgbenchx.ci_seconds(ARRAY(SELECT (10 + (7 * g) % 11)::float8 FROM generate_series(1, 119) g))) IS NULL"),
	't', 'ci_seconds: no interval under 120 seconds');
# seconds that move together for a few seconds (a wave of 12 s): the
# AR(1) reading, with its own degrees of freedom and a width of several
# tps, where the batch means (each one whole wave: all 100) would give 0;
# a ramp moves as one for the whole run: no interval
is(q1("SELECT c.df <> 9 AND c.high - c.low > 1 "
		. "FROM pgbenchx.ci_seconds(ARRAY(SELECT 100 + 10 * sin(2 * pi() * g / 12) FROM generate_series(1, 120) g)) c"),
	't', 'ci_seconds: correlated seconds get the wider AR(1) interval');
is(q1("SELECT (pgbenchx.ci_seconds(ARRAY(SELECT g::float8 FROM generate_series(1, 120) g))) IS NULL"),
	't', 'ci_seconds: none for seconds that move as one for the whole run');
is(q1("SELECT (pgbenchx.ci_seconds(ARRAY(SELECT CASE WHEN g = 7 THEN NULL ELSE g END::float8 FROM generate_series(1, 120) g))) IS NULL"),
	't', 'ci_seconds: no interval with a NULL second');
is(q1("SELECT round(low::numeric, 3) || ' ' || round(high::numeric, 3) FROM pgbenchx.ci_repeats('{90, 100, 110}')"),
	'75.158 124.842', 'ci_repeats: t-interval of 3 runs (t(2) = 4.3027)');
is(q1("SELECT (pgbenchx.ci_repeats('{100}')) IS NULL"), 't', 'ci_repeats: no interval from one run');
is(q1("SELECT ratio || ' ' || significant FROM pgbenchx.ci_ratio(100, 1, 9, 50, 1, 9)"),
	'0.5 true', 'ci_ratio: 50/100 with small errors is significant');
is(q1("SELECT significant FROM pgbenchx.ci_ratio(100, 10, 2, 105, 10, 2)"),
	'f', 'ci_ratio: 105/100 within noise is not');
is(q1("SELECT (pgbenchx.ci_ratio(1, 5, 2, 100, 1, 2)) IS NULL"), 't',
	'ci_ratio: no interval to a mean not distinguishable from 0');
my ($ret, $out, $err) = $node->psql('postgres', "SELECT pgbenchx.ci_seconds('{{1,2},{3,4}}'::float8[])");
like($err, qr/argument "seconds" must be a one-dimensional array/, 'ci_seconds refuses a 2-D array');

# --- the scripts with a known effect ----------------------------------------
# sleep10 and sleep20 (made at the start): 10 ms and 20 ms of sleep per
# transaction, the ratio of their tps about 0.5 whatever the machine's load
# adds to each transaction (with 1 ms and 2 ms, 1.5 ms of scheduling delay
# on a loaded 2-core machine made it 0.7)

# --- A/A and A/B, the runs of each side interleaved -------------------------
# Two sweeps run one after the other see the machine drift between them
# (other work starting or stopping), which no interval over either sweep's
# runs can know: an A/A comparison of two such sweeps was "15% faster" on
# this machine.  So the sides are measured in ABBA blocks, one 2 s run per
# sweep, and the sides are compared over their sweeps (issue 35: each
# sweep's geometric mean one observation, compare(ARRAY[..], ARRAY[..])).
my %side;
my @order = qw(A B B A A B B A);
sub interleaved
{
	my ($script_a, $script_b) = @_;
	my %ids = (A => [], B => []);
	for my $s (@order)
	{
		my $script = $s eq 'A' ? $script_a : $script_b;
		my $id = q1("SELECT run_sweep(ARRAY[1], 2, '$script', vacuum => false, checkpoint => false)");
		wait_for($id);
		push @{ $ids{$s} }, $id;
	}
	return (join(',', @{ $ids{A} }), join(',', @{ $ids{B} }));
}
sub ratio_of
{
	my ($a, $b) = @_;
	# each side's sweeps are one observation each: compare() over sweeps
	return q1("SELECT ratio || ' ' || ratio_low || ' ' || ratio_high || ' ' || significant "
		  . "FROM pgbenchx.compare(ARRAY[$a], ARRAY[$b])");
}

# A calibrated A/A check (issue 35): 20 independent A/A comparisons, each
# of 2 and 2 sweeps of the same script in ABBA order (one sweep of 40
# transactions of sleep10 each, compared over the sweeps: df 2).  A correct
# 95% test calls about 1 in 20 significant by chance: more than 5 of 20
# happens 3 times in 10000 at a true 5% (a false failure), and nearly
# always when the test is as wrong as the audit's (18% to 50% false
# positives: more than 5 of 20 with probability 0.42 to 0.99).
#
# It measures the statistics (src/lang/ci.c and the SQL over it), which are
# the same code on every major, at about two minutes of runs: it runs on 15
# (every checkout has it), and the other majors make 4 comparisons of which
# at most 2 may be significant (a false failure 5 times in 10000).
my $major = int(q1('SHOW server_version_num') / 10000);
my $aa_total = $major == 15 ? 20 : 4;
my $aa_limit = $major == 15 ? 5 : 2;
my ($aa_sig, $aa_n, @aa) = (0, 0);
for my $try (1 .. $aa_total)
{
	my %ids = (A => [], B => []);
	for my $s (qw(A B B A))
	{
		my $id = q1("SELECT run_sweep(ARRAY[1], NULL, 'sleep10', transactions => 40, vacuum => false, "
			  . "checkpoint => false, record_system => false)");
		wait_for($id);
		push @{ $ids{$s} }, $id;
	}
	my ($aa_a, $aa_b) = (join(',', @{ $ids{A} }), join(',', @{ $ids{B} }));
	my $aa = ratio_of($aa_a, $aa_b);
	push @aa, $aa;
	$aa_n++ if $aa =~ /^[0-9.]+ [0-9.]+ [0-9.]+ (true|false)$/;
	$aa_sig++ if $aa =~ / true$/;
}
note("A/A, $aa_total comparisons of 2 and 2 sweeps: B/A, its interval, significant: " . join('; ', @aa));
is(q1("SELECT count(*) FILTER (WHERE status = 'completed' AND tps_ci_low IS NULL AND tps_ci_high IS NULL) "
		. "FROM pgbenchx.runs WHERE script = 'sleep10' AND transactions_per_client = 40"),
	4 * $aa_total, "A/A: every run completed, too short for its own interval (NULL)");
is($aa_n, $aa_total, 'A/A: every comparison has an interval');
ok($aa_sig <= $aa_limit,
	"A/A: at most $aa_limit of $aa_total comparisons of the same script are significant ($aa_sig)");

# (10 + o) / (20 + o) for a per-transaction overhead of o ms (the SELECT,
# the wakeups): 0.5 on an idle machine, up to 0.67 at o = 10 ms under load.
# A burst of load on the machine during one 2 s run can widen the interval
# past significance (seen once, with a 1000-client test running beside): so
# up to three independent A/B experiments are made, and the first that is
# significant with its interval near 0.5 passes.  An interval that is never
# significant, or not around the true ratio, still fails all three.
my ($ratio, $low, $high, $sig);
my @ab;
for my $try (1 .. 3)
{
	my ($ab_a, $ab_b) = interleaved('sleep10', 'sleep20');
	my $ab = ratio_of($ab_a, $ab_b);
	note("A/B $try, 4 and 4 runs in ABBA order: B/A, its interval, significant: $ab");
	push @ab, $ab;
	($ratio, $low, $high, $sig) = split / /, $ab;
	last if $sig eq 'true' && $low > 0.4 && $high < 0.7 && $low <= $ratio && $ratio <= $high;
}
is($sig, 'true', 'A/B: sleep 20 ms against 10 ms is significant (' . join('; ', @ab) . ')');
ok($low > 0.4 && $high < 0.7 && $low <= $ratio && $ratio <= $high,
	"A/B: the interval of the ratio is near 0.5 ($low to $high)");

# --- compare() on sweeps with repeats ---------------------------------------
# one sweep a side (issue 35): the ratio of their geometric means, near 0.5,
# and not tested: one sweep per side cannot separate drift from the effect
my %sweep;
for my $name (qw(a b))
{
	my $script = $name eq 'b' ? 'sleep20' : 'sleep10';
	$sweep{$name} = q1("SELECT run_sweep(ARRAY[1], 2, '$script', repeats => 3, vacuum => false, checkpoint => false)");
	wait_for($sweep{$name});
}
my $cmp = q1("SELECT ratio || ' ' || coalesce(significant::text, 'null') || ' ' || method || ' | ' || conclusion "
	  . "FROM pgbenchx.compare($sweep{a}, $sweep{b})");
note("compare, one sweep a side: $cmp");
# a point's interval across its runs
is(q1("SELECT p.tps_ci_low = c.low AND p.tps_ci_high = c.high AND p.tps_ci_low < p.median_tps "
		. "AND p.median_tps < p.tps_ci_high "
		. "FROM pgbenchx.sweep_points p, pgbenchx.ci_repeats((SELECT array_agg(r.tps ORDER BY r.run_id) "
		. "FROM pgbenchx.runs r WHERE r.sweep_id = p.sweep_id AND r.clients = p.clients)) c WHERE p.sweep_id = $sweep{a}"),
	't', 'sweep_points: the t-interval over the point\'s runs, around its median');
is(q1("SELECT s.tps_ci_low = round(p.tps_ci_low::numeric, 1) AND s.tps_ci_high = round(p.tps_ci_high::numeric, 1) "
		. "FROM pgbenchx.sweep_report($sweep{a}) s JOIN pgbenchx.sweep_points p ON p.sweep_id = $sweep{a} AND p.clients = s.clients"),
	't', 'sweep_report shows it');
like($cmp, qr/^[0-9.]+ null one sweep per side: ratio of the geometric means of 3 and 3 runs; not tested, the sweep is the unit of replication \| not tested: one sweep per side cannot separate the machine's drift from the effect; use run_experiment or repeated, interleaved sweeps$/,
	'compare, one sweep a side: the ratio, not tested, and why');
($ratio) = split / /, $cmp;
ok($ratio > 0.4 && $ratio < 0.7, "compare: the ratio of the geometric means is near 0.5 ($ratio)");
is(q1("SELECT ratio || ' ' || coalesce(ratio_low::text, 'null') FROM pgbenchx.compare($sweep{a}, $sweep{a})"),
	'1 null', 'compare: a sweep against itself: ratio 1, no interval');

# one run on a side: still the ratio, not tested
my $single = q1("SELECT run_sweep(ARRAY[1], 1, 'sleep10', vacuum => false, checkpoint => false)");
wait_for($single);
is(q1("SELECT coalesce(significant::text, 'null') || ' | ' || method FROM pgbenchx.compare($single, $sweep{b})"),
	'null | one sweep per side: ratio of the geometric means of 1 and 3 runs; not tested, the sweep is the unit of replication',
	'one run on a side: no interval, and why');

# --- one run long enough for its own interval -------------------------------
# (started at the beginning, on its own cluster)
sub ql { return $long_node->safe_psql('postgres', $_[0]); }
ql("SET client_min_messages = warning; CALL pgbenchx.wait($run)");
is(ql("SELECT status FROM pgbenchx.runs WHERE run_id = $run"), 'completed', '121 s run completed');
is(ql("SELECT tps_ci_low IS NOT NULL AND tps_ci_low <= tps_ci_high FROM pgbenchx.runs WHERE run_id = $run"),
	't', 'a 121 s run has its interval');
is(ql("SELECT r.tps_ci_low = c.low AND r.tps_ci_high = c.high FROM pgbenchx.runs r, "
		. "pgbenchx.ci_seconds(ARRAY(SELECT s.tps FROM pgbenchx.samples s WHERE s.run_id = r.run_id ORDER BY s.second)) c "
		. "WHERE r.run_id = $run"),
	't', 'the interval is ci_seconds over its samples');
# the interval is of the mean per-second tps; runs.tps is the whole interval's
is(ql("SELECT tps BETWEEN tps_ci_low - 0.05 * tps AND tps_ci_high + 0.05 * tps FROM pgbenchx.runs WHERE run_id = $run"),
	't', 'tps lies in (or within 5% of) its interval');
my $report = ql("SELECT pgbenchx.report($run)");
like($report, qr/^-- pgbenchx --\n(?:.*\n)*?tps 95% confidence interval of this run: [0-9.]+ to [0-9.]+ \(its precision, from its per-second samples; another run varies more: compare repeats\)$/m,
	'report prints the interval in its pgbenchx part, as this run\'s precision');
$long_node->stop;

done_testing();
