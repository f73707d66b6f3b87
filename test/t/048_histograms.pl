# Stored latency histograms (issue 14 §2, groundwork): every run's and every
# second's histogram is stored (runs.latency_hist, samples.latency_hist), and
# reading them back gives exactly the stored percentiles; merging two runs'
# histograms gives the p99 of the union of their transactions, computed here
# independently from the bucket counts; counts add up to the transactions.
# Also prints the stored size per second at 1 and 64 clients (docs/results.md,
# "Latency histograms, merged exactly").
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use POSIX qw(ceil);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('hist', scale => 1, conf => "max_connections = 100\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }

my %run;
for my $clients (1, 64)
{
	my $id = q1("SELECT run_bench($clients, 2, 'select-only', vacuum => false, checkpoint => false)");
	q1("SET client_min_messages = warning; CALL pgbenchx.wait($id)");
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', "run of $clients clients completed");
	$run{$clients} = $id;

	# the run: stored percentiles = percentiles of the stored histogram
	is(q1("SELECT count(*) FROM pgbenchx.runs WHERE run_id = $id AND latency_hist IS NOT NULL "
		  . "AND latency_p50_ms IS NOT DISTINCT FROM pgbenchx.latency_percentile(latency_hist, 50) "
		  . "AND latency_p90_ms IS NOT DISTINCT FROM pgbenchx.latency_percentile(latency_hist, 90) "
		  . "AND latency_p95_ms IS NOT DISTINCT FROM pgbenchx.latency_percentile(latency_hist, 95) "
		  . "AND latency_p99_ms IS NOT DISTINCT FROM pgbenchx.latency_percentile(latency_hist, 99) "
		  . "AND latency_max_ms IS NOT DISTINCT FROM pgbenchx.latency_percentile(latency_hist, 100)"),
		'1', "$clients clients: runs.latency_pNN_ms = latency_percentile(runs.latency_hist, NN)");
	is(q1("SELECT r.transactions = (SELECT sum(b.count) FROM pgbenchx.latency_buckets(r.latency_hist) b) "
		  . "FROM pgbenchx.runs r WHERE run_id = $id"),
		't', "$clients clients: the run's bucket counts add up to its transactions");

	# each second likewise
	my ($n, $bad) = split /\|/, q1("SELECT count(*), count(*) FILTER (WHERE latency_hist IS NULL "
		  . "OR latency_p99_ms IS DISTINCT FROM pgbenchx.latency_percentile(latency_hist, 99) "
		  . "OR transactions <> coalesce((SELECT sum(b.count) FROM pgbenchx.latency_buckets(s.latency_hist) b), 0)) "
		  . "FROM pgbenchx.samples s WHERE run_id = $id");
	cmp_ok($n, '>=', 1, "$clients clients: seconds were sampled");
	is($bad, '0', "$clients clients: every second's p99 and transactions read back from its histogram");
	# the seconds merged: the run's histogram, unless samples were lost or a
	# partial second (in flight at the end) counted only in the total
	is(q1("SELECT (SELECT sum(b.count) FROM pgbenchx.latency_buckets(pgbenchx.latency_merge(s.latency_hist)) b) "
		  . "= sum(s.transactions) FROM pgbenchx.samples s WHERE run_id = $id"),
		't', "$clients clients: the seconds' merged histogram counts their transactions");

	my $sizes = q1("SELECT round(avg(length(latency_hist))) || ' bytes per second (max ' || max(length(latency_hist)) "
		  . "|| '), run ' || (SELECT length(latency_hist) FROM pgbenchx.runs WHERE run_id = $id) "
		  . "FROM pgbenchx.samples WHERE run_id = $id");
	note("latency_hist at $clients clients: $sizes");
	diag("latency_hist at $clients clients: $sizes") if $ENV{PGX_HIST_SIZES};
}

# --- merged exactly: the p99 of the union, computed here -------------------
my ($ra, $rb) = ($run{1}, $run{64});
my %count;
for my $id ($ra, $rb)
{
	for my $row (split /\n/, q1("SELECT lower_ms, upper_ms, count FROM pgbenchx.runs r, "
		  . "pgbenchx.latency_buckets(r.latency_hist) WHERE run_id = $id"))
	{
		my ($lo, $hi, $c) = split /\|/, $row;
		$count{"$lo|$hi"} += $c;
	}
}
my @buckets = sort { (split /\|/, $a)[0] <=> (split /\|/, $b)[0] } keys %count;
my $n = 0;
$n += $count{$_} for @buckets;
is($n, q1("SELECT sum(transactions) FROM pgbenchx.runs WHERE run_id IN ($ra, $rb)"),
	'the union\'s counts add up to both runs\' transactions');
# min and max of the union: the smallest min, the largest max
my ($min, $max) = split /\|/, q1("SELECT min(pgbenchx.latency_percentile(latency_hist, 1e-9)), max(latency_max_ms) "
	  . "FROM pgbenchx.runs WHERE run_id IN ($ra, $rb)");
# nearest rank, the bucket's midpoint (us) clamped to [min, max], as stats.c
my $rank = ceil(0.99 * $n);
$rank = 1 if $rank < 1;
my $p99;
if ($rank == 1) { $p99 = $min; }
elsif ($rank == $n) { $p99 = $max; }
else
{
	my $cum = 0;
	for my $k (@buckets)
	{
		$cum += $count{$k};
		next if $cum < $rank;
		my ($lo, $hi) = map { int($_ * 1000 + 0.5) } split /\|/, $k;
		$p99 = ($lo + ($hi - 1 - $lo) / 2) / 1000;
		last;
	}
	$p99 = $min if $p99 < $min;
	$p99 = $max if $p99 > $max;
}
my $merged = q1("SELECT pgbenchx.latency_percentile(pgbenchx.latency_merge(latency_hist), 99) "
	  . "FROM pgbenchx.runs WHERE run_id IN ($ra, $rb)");
ok(abs($merged - $p99) < 1e-9, "merged p99 $merged = the union's p99 computed in the test $p99");
is(q1("SELECT pgbenchx.latency_merge(a.latency_hist, b.latency_hist) = "
	  . "(SELECT pgbenchx.latency_merge(latency_hist ORDER BY run_id DESC) FROM pgbenchx.runs WHERE run_id IN ($ra, $rb)) "
	  . "FROM pgbenchx.runs a, pgbenchx.runs b WHERE a.run_id = $ra AND b.run_id = $rb"),
	't', 'the merge is the same bytes in either order, function or aggregate');

# a runner (grant_runner) reads and merges them; PUBLIC may not
q1("CREATE ROLE hist_runner LOGIN; CREATE ROLE hist_other LOGIN; GRANT USAGE ON SCHEMA pgbenchx TO hist_other; SELECT pgbenchx.grant_runner('hist_runner')");
is(q1("SET ROLE hist_runner; SELECT pgbenchx.latency_percentile(pgbenchx.latency_merge(latency_hist), 99) "
	  . "FROM pgbenchx.runs WHERE run_id IN ($ra, $rb)"), $merged, 'a runner merges the histograms');
my ($ret, $out, $err) = $node->psql('postgres', "SET ROLE hist_other; SELECT pgbenchx.latency_percentile('\\x', 1)");
like($err, qr/permission denied for function latency_percentile/, 'a role that is not a runner may not');

ok(nothing_left($node), 'nothing left running');
$node->stop;
done_testing();
