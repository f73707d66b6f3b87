# check_tpcb over real runs: a tpcb-like sweep of two runs with vacuum
# (history truncated before each, as pgbench does) and a lone run without
# it record runs.tpcb_consistent = true; the balances agree afterwards; a
# run without check_tpcb records NULL; and a balance broken between runs is
# not blamed on the next run but caught by pgbenchx.check_tpcb().
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('tpcb', scale => 1);

sub q1 { return $node->safe_psql('postgres', $_[0]); }

sub run_and_wait
{
	my ($sql) = @_;
	my $id = q1($sql);
	$node->safe_psql('postgres', "SET client_min_messages = warning; CALL pgbenchx.wait($id)");
	return $id;
}

my $sweep = run_and_wait(
	"SELECT run_sweep('{2,4}'::int[], 2, 'tpcb-like', checkpoint => false, check_tpcb => true)");
is( q1("SELECT string_agg(status || ':' || tpcb_consistent::text, ',' ORDER BY run_id) "
		  . "FROM pgbenchx.runs WHERE sweep_id = $sweep"),
	'completed:true,completed:true',
	'a tpcb-like sweep with vacuum: each run keeps the invariant');
cmp_ok(q1("SELECT min(transactions) FROM pgbenchx.runs WHERE sweep_id = $sweep"), '>', 0,
	'and made transactions');
my ($a, $b, $t, $h, $ok) = split /\|/, q1('SELECT * FROM pgbenchx.check_tpcb()');
ok($a == $b && $b == $t, "the balances agree afterwards ($a, $b, $t)");
is($h, q1("SELECT sum(delta) FROM pgbench_history"), 'history_sum is the sum of the deltas');

my $run = run_and_wait(
	"SELECT run_bench(3, 2, 'tpcb-like\@9, select-only\@1', vacuum => false, checkpoint => false, check_tpcb => true)");
is(q1("SELECT tpcb_consistent FROM pgbenchx.runs WHERE run_id = $run"), 't',
	'a tpcb-like/select-only mix without vacuum keeps it');

my $plain = run_and_wait("SELECT run_bench(2, 1, 'tpcb-like', checkpoint => false)");
is(q1("SELECT tpcb_consistent IS NULL FROM pgbenchx.runs WHERE run_id = $plain"), 't',
	'without check_tpcb nothing is recorded');

# on a clean start (history kept from pgbench_init on), the totals agree too
$node->safe_psql('postgres', 'SET client_min_messages = warning; SELECT pgbench_init(1)');
run_and_wait("SELECT run_bench(2, 2, 'tpcb-like', vacuum => false, checkpoint => false)");
is(q1('SELECT consistent FROM pgbenchx.check_tpcb()'), 't',
	'check_tpcb() holds after a run that kept the history');

# a balance broken outside a run: check_tpcb() says so
q1('UPDATE pgbench_tellers SET tbalance = tbalance + 1 WHERE tid = 1');
is(q1('SELECT consistent FROM pgbenchx.check_tpcb()'), 'f',
	'check_tpcb() catches a broken balance');
my $after = run_and_wait(
	"SELECT run_bench(2, 1, 'tpcb-like', vacuum => false, checkpoint => false, check_tpcb => true)");
is(q1("SELECT tpcb_consistent FROM pgbenchx.runs WHERE run_id = $after"), 'f',
	'a run starting from broken balances records false');

$node->stop;
done_testing();
