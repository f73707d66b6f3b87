# Running workloads as pgbench does: a rate limit holds its target, with
# latency measured from the schedule; a latency limit counts late and
# skipped transactions; --max-tries retries serialization failures and
# counts them per kind; -C reconnects for every transaction; per-statement
# latencies (-r) are stored and printed by wait.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('workloads', scale => 1);

sub q1 { return $node->safe_psql('postgres', $_[0]); }

sub run_and_wait
{
	my ($args) = @_;
	my $id = q1("SELECT run_bench($args)");
	my ($stdout, $stderr);
	$node->psql('postgres', "CALL pgbenchx.wait($id)", stdout => \$stdout, stderr => \$stderr,
		on_error_die => 1);
	return ($id, $stderr);
}

# --- rate: 200 tps over 4 s, 2 clients.  The schedule is drawn at random
# (Poisson arrivals, as pgbench's): over 4 s the count of its starts alone
# spreads by about 3.5%, so the seed is fixed and the 10% bound tests the
# pacing, not the draw
{
	my ($id) = run_and_wait("2, 4, 'select-only', checkpoint => false, rate => 200, random_seed => 25");
	my ($status, $tps, $lag, $rate) = split /\|/, q1("SELECT status, tps, lag_avg_ms, rate FROM pgbenchx.runs WHERE run_id = $id");
	is($status, 'completed', 'rate-limited run completes');
	is($rate, 200, 'the target is recorded');
	cmp_ok(abs($tps - 200) / 200, '<', 0.10, "tps $tps holds the 200 tps target within 10%");
	ok(defined $lag && $lag ne '', 'schedule lag is recorded');
	my $per_second = q1("SELECT string_agg(transactions::text, ',' ORDER BY second) FROM pgbenchx.samples WHERE run_id = $id");
	note("transactions per second: $per_second");
}

# --- latency limit: a limit nothing meets makes every transaction late, and
# with a rate, transactions already too late are skipped
{
	my ($id) = run_and_wait("2, 2, 'select-only', checkpoint => false, rate => 2000, latency_limit => 0.001");
	my ($tx, $late, $skipped) = split /\|/, q1("SELECT transactions, late, skipped FROM pgbenchx.runs WHERE run_id = $id");
	cmp_ok($tx, '>', 0, 'transactions ran under the latency limit');
	is($late, $tx, 'every transaction above a 1 us limit is late');
	cmp_ok($skipped, '>', 0, 'transactions too late to start are skipped');
}

# --- retries: a hot row under REPEATABLE READ fails with serialization errors
q1('CREATE TABLE hot (id int PRIMARY KEY, v int); INSERT INTO hot VALUES (1, 0)');
q1(q{SELECT pgbenchx.add_script('hot', E'BEGIN ISOLATION LEVEL REPEATABLE READ;\nSELECT v FROM hot WHERE id = 1;\nUPDATE hot SET v = v + 1 WHERE id = 1;\nEND;\n')});
{
	my ($id) = run_and_wait("4, 3, 'hot', checkpoint => false, vacuum => false");
	my ($tx, $failed, $ser, $retries) = split /\|/,
	  q1("SELECT transactions, failed, serialization_failures, retries FROM pgbenchx.runs WHERE run_id = $id");
	cmp_ok($failed, '>', 0, 'without retries, serialization failures fail transactions');
	is($ser, $failed, 'and are counted as serialization failures');
	is($retries, 0, 'no retries by default');

	my $v0 = q1('SELECT v FROM hot');
	($id) = run_and_wait("4, 3, 'hot', checkpoint => false, vacuum => false, max_tries => 50");
	my ($tx2, $failed2, $retried2, $retries2, $st) = split /\|/,
	  q1("SELECT transactions, failed, retried, retries, status FROM pgbenchx.runs WHERE run_id = $id");
	is($st, 'completed', 'the retrying run completes');
	cmp_ok($retries2, '>', 0, "max_tries retries ($retries2 retries of $retried2 transactions)");
	cmp_ok($retried2, '<=', $retries2, 'retried transactions <= retries');
	cmp_ok($failed2, '<', $failed, 'fewer failures with retries');
	is(q1('SELECT v FROM hot') - $v0, $tx2, 'every committed transaction incremented the row once');
	is(q1("SELECT retries FROM pgbenchx.statement_stats WHERE run_id = $id AND command = 3"), $retries2,
		'the retries are attributed to the UPDATE');
}

# --- -C: a new connection per transaction
{
	my ($id) = run_and_wait("2, transactions => 20, script => 'select-only', checkpoint => false, connect_per_transaction => true");
	my ($status, $tx, $conn, $tps, $tpsc) = split /\|/,
	  q1("SELECT status, transactions, conn_time_ms, tps, tps_incl_conn FROM pgbenchx.runs WHERE run_id = $id");
	is($status, 'completed', '-C run completes');
	is($tx, 40, '-C: every transaction ran');
	cmp_ok($conn, '>', 0, '-C: the average connection time is recorded');
	is($tps, $tpsc, '-C: tps includes the reconnection times');
}

# --- a weighted mix splits transactions in proportion
{
	my ($id) = run_and_wait("2, transactions => 1000, script => 'tpcb-like\@3, select-only\@1', checkpoint => false, protocol => 'prepared'");
	my ($status, $script, $tx) = split /\|/, q1("SELECT status, script, transactions FROM pgbenchx.runs WHERE run_id = $id");
	is($status, 'completed', 'a mix completes');
	is($script, 'tpcb-like@3, select-only@1', 'the mix is recorded');
	is($tx, 2000, 'every transaction of the mix ran');
	my ($tpcb, $sel) = split /\|/, q1("SELECT (SELECT executions FROM pgbenchx.statement_stats WHERE run_id = $id AND script = 'tpcb-like' AND command = 11), (SELECT executions FROM pgbenchx.statement_stats WHERE run_id = $id AND script = 'select-only' AND command = 2)");
	is($tpcb + $sel, 2000, 'each transaction ran one script');
	cmp_ok(abs($tpcb / 2000 - 0.75), '<', 0.05, "tpcb-like ran $tpcb of 2000 (target 75%)");
}

# --- -M prepared: a PREPARE that fails is counted as a notice and the
# client goes on, as pgbench prints it and goes on (through a pooler in
# transaction mode, another client may have prepared the statement on the
# server connection).  Here the script's first statement, run once per
# client, prepares in SQL the name its second statement is prepared under
# (P_1, as pgbench names the second SQL command of a script): the protocol
# PREPARE then fails, and the statement already there runs.
{
	q1(q{SELECT pgbenchx.add_script('prepared-twice', E'PREPARE "P_1" AS SELECT 2;\nSELECT 2;\n')});
	my ($id) = run_and_wait("2, transactions => 1, script => 'prepared-twice', checkpoint => false, vacuum => false, protocol => 'prepared'");
	my ($status, $tx, $aborted, $notices, $sample) = split /\|/,
	  q1("SELECT status, transactions, aborted_clients, notices, notice_samples[1] FROM pgbenchx.runs WHERE run_id = $id");
	is("$status $tx $aborted", 'completed 2 0', 'a PREPARE that failed: the clients went on, every transaction ran');
	is($notices, 2, 'the failed PREPAREs are counted as notices, one per client');
	like($sample, qr/^ERROR: prepared statement "P_1" already exists/, 'and the first is kept, with its severity');
	# a statement that is missing where it runs still aborts its client
	q1(q{SELECT pgbenchx.add_script('prepared-gone', E'SELECT 1;\nDEALLOCATE ALL;\nSELECT 1;\n')});
	($id) = run_and_wait("1, transactions => 2, script => 'prepared-gone', checkpoint => false, vacuum => false, protocol => 'prepared'");
	my ($st2, $ab2, $err2) = split /\|/, q1("SELECT status, aborted_clients, error FROM pgbenchx.runs WHERE run_id = $id");
	is("$st2 $ab2", 'failed 1', 'a prepared statement gone from its connection: the client aborts');
	like($err2, qr/prepared statement "P_\d" does not exist/, 'with the server\'s error');
}

# --- -r: per-statement latencies, stored and printed
{
	my ($id, $notices) = run_and_wait("1, 2, 'tpcb-like', checkpoint => false");
	is(q1("SELECT count(*) FROM pgbenchx.statement_stats WHERE run_id = $id"), '11', 'one row per command of tpcb-like');
	is(q1("SELECT bool_and(latency_avg_ms > 0 AND executions > 0) FROM pgbenchx.statement_stats WHERE run_id = $id AND command >= 5"),
		't', 'every SQL command is timed');
	is(q1("SELECT count(*) FROM pgbenchx.statement_stats WHERE run_id = $id AND latency_avg_ms IS NULL"),
		'4', 'the four \\set commands are not timed');
	my ($tx, $execs) = split /\|/, q1("SELECT r.transactions, s.executions FROM pgbenchx.runs r JOIN pgbenchx.statement_stats s USING (run_id) WHERE run_id = $id AND command = 11");
	cmp_ok(abs($execs - $tx), '<=', 1, 'END ran once per transaction');
	like($notices, qr/statement latencies in milliseconds and failures:\n/,
		'wait prints the statement latencies (pgbench -r, one try)');
	like($notices, qr/\n\s+[0-9.]+\s+0\s+UPDATE pgbench_accounts SET abalance/,
		'with latency and failures per statement');
}

$node->stop;
done_testing();
