# Bounded resources, probed as an attacker would: a lock on pgbenchx.samples
# held longer than the per-second ring (samples are lost, never stored
# wrong, and the run's row says so; the totals stay those of the clients);
# a script of many thousands of commands (its statement statistics are
# there when the run reads completed, and a cancel during that phase is
# honoured); a huge script whose parsing statement_timeout stops.
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

# a ring of 3 s instead of 32: it wraps within a short run
my $node = pgbenchx_node('bounds', scale => 1, conf => "pgbenchx.sample_ring_seconds = 3\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }

sub wait_finished
{
	my ($id) = @_;
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
	  or die "run $id never finished";
}

# --- the ring wraps while the coordinator is blocked on pgbenchx.samples
# (a 600 s run, cancelled once the coordinator has been blocked for longer
# than the 3 s ring: the ring wraps while the run is on however slow a
# loaded machine makes the calls before it; the seconds of the run are then
# those up to its last stored one)
{
	my $id = q1("SELECT run_bench(2, 600, 'select-only', checkpoint => false)");
	run_sampled($node, "run_id = $id", 1) or die 'the run never sampled';
	my $lock = lock_session($node, 'pgbenchx.samples');
	$node->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'pgbenchx coordinator' AND wait_event_type = 'Lock'")
	  or die 'the coordinator never waited for pgbenchx.samples';
	# blocked for 5 s by the server's clock: longer than the 3 s ring
	q1('SELECT pg_sleep(5)');
	unlock_session($lock);
	is(q1("SELECT pgbenchx.cancel($id)"), 't', 'the run is cancelled once the ring has wrapped');
	wait_finished($id);
	my ($status, $lost, $lost_tx, $tx, $secs) = split /\|/,
	  q1("SELECT status, samples_lost, samples_lost_transactions, transactions, (SELECT max(second) FROM pgbenchx.samples s WHERE s.run_id = r.run_id) FROM pgbenchx.runs r WHERE run_id = $id");
	is($status, 'cancelled', 'the run reads cancelled');
	cmp_ok($lost, '>=', 1, "the run's row reports the lost seconds ($lost)");
	cmp_ok($lost_tx, '>', 0, "and the transactions in them ($lost_tx)");
	is(q1("SELECT count(*) + $lost FROM pgbenchx.samples WHERE run_id = $id"), $secs,
		"stored seconds plus lost seconds are the $secs seconds of the run");
	is(q1("SELECT sum(transactions) + $lost_tx FROM pgbenchx.samples WHERE run_id = $id"), $tx,
		'the stored samples plus what was lost equal runs.transactions');
	is(q1("SELECT count(*) FROM (SELECT transactions, latency_avg_ms, latency_p99_ms FROM pgbenchx.samples"
		  . " WHERE run_id = $id GROUP BY 1, 2, 3 HAVING count(*) > 1) d"), '0',
		'no two stored seconds are copies of each other');
	# every stored second is in the run and well formed; how many
	# transactions a second holds is the machine's business (CI, 18: a loaded
	# machine left two seconds empty or over 4 times the average), so the
	# counts are only held to "not negative, not more than the run's" and
	# to most seconds having some (a wrapped ring read as garbage would not)
	is(q1("SELECT count(*) FROM pgbenchx.samples WHERE run_id = $id AND"
		  . " (transactions < 0 OR transactions > $tx OR second NOT BETWEEN 1 AND $secs"
		  . " OR (transactions > 0 AND (latency_avg_ms IS NULL OR latency_avg_ms < 0)))"), '0',
		'every stored second is in the run, with a count in 0..transactions and a latency when it has some');
	my ($stored, $some) = split /\|/, q1("SELECT count(*), count(*) FILTER (WHERE transactions > 0) FROM pgbenchx.samples WHERE run_id = $id");
	cmp_ok($some, '>', $stored / 2, "most stored seconds hold transactions ($some of $stored)");
	my @gap = split /\n/, q1("SELECT g FROM generate_series(1, $secs) g WHERE NOT EXISTS"
		  . " (SELECT 1 FROM pgbenchx.samples s WHERE s.run_id = $id AND s.second = g) ORDER BY g");
	is(scalar(@gap), $lost, 'the missing seconds are exactly the lost ones (' . join(',', @gap) . ')');
	like(slurp_file($node->logfile), qr/pgbenchx run $id: the samples? of $lost seconds? (?:was|were) lost/,
		'a WARNING in the log says so');
	ok(nothing_left($node), 'nothing left');
}

# --- a run bounded by transactions: exactly clients x transactions
{
	my $id = q1("SELECT run_bench(3, transactions => 250, script => 'select-only', checkpoint => false)");
	wait_finished($id);
	is(q1("SELECT status || ' ' || transactions || ' ' || samples_lost || ' ' || samples_lost_transactions"
		  . " FROM pgbenchx.runs WHERE run_id = $id"), 'completed 750 0 0', 'runs.transactions = clients x transactions');
	is(q1("SELECT sum(transactions) FROM pgbenchx.samples WHERE run_id = $id"), '750', 'and so do its samples');
}

# --- many thousands of commands: statement statistics before completed
{
	my $n = 20000;
	my $body = join('', map { "\\set v$_ $_\nselect :v$_;\n" } 1 .. $n / 2);
	my $file = "$PostgreSQL::Test::Utils::tmp_check/many.sql";
	open(my $fh, '>', $file) or die; print $fh $body; close $fh;
	q1("SELECT pgbenchx.add_script('many', pg_read_file('$file'))");
	my $id = q1("SELECT run_bench(2, transactions => 1, script => 'many', checkpoint => false)");
	# each look reads the status and the rows in one snapshot
	my $seen = '';
	for (1 .. 1200)
	{
		$seen = q1("SELECT status || ' ' || (SELECT count(*) FROM pgbenchx.statement_stats WHERE run_id = $id)"
			  . " FROM pgbenchx.runs WHERE run_id = $id");
		last if $seen !~ /^running/;
		usleep(50_000);
	}
	is($seen, "completed $n", "all $n statement rows are there when the run first reads completed");
	is(q1("SELECT sum(executions) FROM pgbenchx.statement_stats WHERE run_id = $id AND command_text LIKE 'select%'"), $n,
		'each of the n/2 SQL commands ran once per client (2 clients)');
	my $phase = q1("SELECT round(extract(epoch FROM finished_at - started_at)::numeric - bench_duration_s::numeric, 2)"
		  . " FROM pgbenchx.runs WHERE run_id = $id");
	note("run $id: $n commands; the run's row was finished $phase s after its measured interval ended");
}

# --- a cancel during the statement-statistics phase is honoured
{
	my $lock = lock_session($node, 'pgbenchx.statement_stats');
	my $id = q1("SELECT run_bench(1, transactions => 3, script => 'select-only', checkpoint => false)");
	$node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'pgbenchx coordinator' AND wait_event_type = 'Lock'")
	  or die 'the coordinator never waited for statement_stats';
	is(q1("SELECT pgbenchx.cancel($id)"), 't', 'cancel during the statement phase');
	wait_finished($id);
	# the lock's session is still in its transaction: no wall-clock bound needed
	is(q1("SELECT count(*) FROM pg_locks WHERE relation = 'pgbenchx.statement_stats'::regclass"
		  . " AND mode = 'AccessExclusiveLock' AND granted"), '1', 'honoured while the lock is still held');
	is(q1("SELECT status || ' ' || transactions FROM pgbenchx.runs WHERE run_id = $id"), 'cancelled 3',
		'the run reads cancelled, with its transactions');
	like(q1("SELECT error FROM pgbenchx.runs WHERE run_id = $id"), qr/statement statistics/,
		'and says the statement statistics are not stored');
	unlock_session($lock);
	is(q1("SELECT count(*) FROM pgbenchx.statement_stats WHERE run_id = $id"), '0', 'none are');
	ok(nothing_left($node), 'nothing left');
}

# --- statement_timeout stops the parsing of a huge script
{
	my $n = 300000;
	my $file = "$PostgreSQL::Test::Utils::tmp_check/huge.sql";
	open(my $fh, '>', $file) or die;
	print $fh "\\set v$_ $_\nselect :v$_;\n" for 1 .. $n;
	close $fh;
	# timed by the server's clock, without the psql start around it
	my ($ret, $out, $err, $elapsed) = server_timed($node,
		"SET statement_timeout = '300ms'; SELECT pgbenchx.add_script('huge', pg_read_file('$file'))");
	like($err, qr/canceling statement due to statement timeout/, 'add_script of 300000 variables is stopped by statement_timeout');
	ok($elapsed =~ /^[0-9.]+$/ && $elapsed < 10, "promptly ($elapsed s)");
	is(q1("SELECT count(*) FROM pgbenchx.custom_scripts WHERE name = 'huge'"), '0', 'nothing registered');
	($ret, $out, $err) = $node->psql('postgres',
		"SET statement_timeout = '300ms'; SELECT run_replay(pg_read_file('$file'), 1, 1, checkpoint => false)");
	like($err, qr/canceling statement due to statement timeout/, 'and so is run_replay of it');
	# eval: an expression of 2 million arguments (refused once parsed, for
	# having more than 16) is stopped while it is parsed
	($ret, $out, $err) = $node->psql('postgres',
		"SET statement_timeout = '100ms'; SELECT pgbenchx.eval('greatest(0' || repeat(',7', 2000000) || ')')");
	like($err, qr/canceling statement due to statement timeout/, 'eval of a huge expression is stopped by statement_timeout');
	# the same parse, uninterrupted, is linear: it completes
	my $t0 = time;
	is(q1("SELECT pgbenchx.add_script('huge', pg_read_file('$file')) IS NOT NULL"), 't',
		'without a timeout the huge script registers');
	note(sprintf('add_script of %d distinct variables took %.2f s', $n, time - $t0));
}

ok(nothing_left($node), 'nothing left at the end');
$node->stop;
done_testing();
