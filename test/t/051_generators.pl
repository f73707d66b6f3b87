# One run driven from several load generators (issue 14): three clusters on
# this machine, the server under test S (pgbench_init(1)) and generators A
# and B (both with pgbenchx); the caller is on A, so A records the run and
# is a generator too.  Checks that the merged run is exact (transactions =
# the sum of the parts' runs.transactions read on each generator; the
# merged p99 = the p99 of the union of the parts' histograms, computed here;
# each second = the sum of the parts' seconds), the run_generators rows, a
# sweep and a replay, the refusals before anything starts (a generator
# down, no extension, not enough worker slots, a run in progress there, a
# clock offset simulated with libfaketime), a cancel reaching both
# generators, and generator B stopped with -m immediate mid-run.  Then the
# recorder is S and the generators A and B.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use POSIX qw(ceil);
use Time::HiRes qw(time);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $s = pgbenchx_node('sut', scale => 1, conf => "max_connections = 100\n");
my $ga = pgbenchx_node('gen_a', conf => "max_worker_processes = 16\n");
my $gb = pgbenchx_node('gen_b', conf => "max_worker_processes = 16\n");

sub ci { my ($n) = @_; return 'host=' . $n->host . ' port=' . $n->port . ' dbname=postgres'; }
my ($cs, $ca, $cb) = (ci($s), ci($ga), ci($gb));
my $gens = "ARRAY['$ca', '$cb']";
sub qa { return $ga->safe_psql('postgres', $_[0]); }
sub qb { return $gb->safe_psql('postgres', $_[0]); }
sub qn { my ($n, $sql) = @_; return $n->safe_psql('postgres', $sql); }

# the refusal of a call on A, as its error text
sub refused
{
	my ($node, $sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql);
	return $ret == 0 ? "accepted: $out" : $err;
}

# the p99 of the union of the histograms (ms) of a list of [node, run_id],
# nearest rank on the bucket's midpoint clamped to [min, max], as stats.c
sub union_p99
{
	my (@parts) = @_;
	my %count;
	my ($min, $max);
	for my $p (@parts)
	{
		my ($node, $id) = @$p;
		for my $row (split /\n/, qn($node, "SELECT lower_ms, upper_ms, count FROM pgbenchx.runs r, "
			  . "pgbenchx.latency_buckets(r.latency_hist) WHERE run_id = $id"))
		{
			my ($lo, $hi, $c) = split /\|/, $row;
			$count{"$lo|$hi"} += $c;
		}
		my ($mn, $mx) = split /\|/, qn($node, "SELECT pgbenchx.latency_percentile(latency_hist, 1e-9), latency_max_ms "
			  . "FROM pgbenchx.runs WHERE run_id = $id");
		$min = $mn if !defined $min || $mn < $min;
		$max = $mx if !defined $max || $mx > $max;
	}
	my @buckets = sort { (split /\|/, $a)[0] <=> (split /\|/, $b)[0] } keys %count;
	my $n = 0;
	$n += $count{$_} for @buckets;
	my $rank = ceil(0.99 * $n);
	$rank = 1 if $rank < 1;
	return $min if $rank == 1;
	return $max if $rank == $n;
	my $cum = 0;
	for my $k (@buckets)
	{
		$cum += $count{$k};
		next if $cum < $rank;
		my ($lo, $hi) = map { int($_ * 1000 + 0.5) } split /\|/, $k;
		my $p = ($lo + ($hi - 1 - $lo) / 2) / 1000;
		$p = $min if $p < $min;
		$p = $max if $p > $max;
		return $p;
	}
}

# the parts of a recorder's run: [node, part_run_id] per generator
sub parts_of
{
	my ($rec, $id, @nodes) = @_;
	my @ids = split /\n/, qn($rec, "SELECT part_run_id FROM pgbenchx.run_generators WHERE run_id = $id ORDER BY generator");
	return map { [ $nodes[$_], $ids[$_] ] } 0 .. $#ids;
}

# the merged run checked against its parts, read on each generator
sub check_merged
{
	my ($rec, $id, $what, @nodes) = @_;
	my @parts = parts_of($rec, $id, @nodes);
	is(scalar(@parts), scalar(@nodes), "$what: one run_generators row per generator");
	my $sum = 0;
	$sum += qn($_->[0], "SELECT transactions FROM pgbenchx.runs WHERE run_id = $_->[1]") for @parts;
	cmp_ok($sum, '>', 0, "$what: the parts ran transactions");
	is(qn($rec, "SELECT transactions FROM pgbenchx.runs WHERE run_id = $id"), $sum,
		"$what: merged transactions = the sum of the parts' runs.transactions");
	my $p99 = union_p99(@parts);
	my $merged = qn($rec, "SELECT latency_p99_ms FROM pgbenchx.runs WHERE run_id = $id");
	ok(abs($merged - $p99) < 1e-9, "$what: merged p99 $merged = the union's p99 computed here $p99");
	# each second: the sum of the parts' same second
	my %sec;
	for my $p (@parts)
	{
		for my $row (split /\n/, qn($p->[0], "SELECT second, transactions FROM pgbenchx.samples WHERE run_id = $p->[1]"))
		{
			my ($k, $t) = split /\|/, $row;
			$sec{$k} += $t;
		}
	}
	my %rsec = map { split /\|/ } split /\n/, qn($rec, "SELECT second, transactions FROM pgbenchx.samples WHERE run_id = $id");
	is_deeply(\%rsec, \%sec, "$what: each second's transactions = the sum of the parts' same second");
	my $exec = 0;
	$exec += qn($_->[0], "SELECT coalesce(sum(executions), 0) FROM pgbenchx.statement_stats WHERE run_id = $_->[1]") for @parts;
	is(qn($rec, "SELECT coalesce(sum(executions), 0) FROM pgbenchx.statement_stats WHERE run_id = $id"), $exec,
		"$what: statement_stats executions = the sum of the parts'");
	# pgbench's per-script figures: each script's transactions summed over the parts
	my %st;
	for my $p (@parts)
	{
		for my $row (split /\n/, qn($p->[0], "SELECT k, e->>'transactions' FROM pgbenchx.runs, "
				  . "jsonb_array_elements(script_stats) WITH ORDINALITY x(e, k) WHERE run_id = $p->[1]"))
		{
			my ($k, $t) = split /\|/, $row;
			$st{$k} += $t;
		}
	}
	my %rst = map { split /\|/ } split /\n/, qn($rec, "SELECT k, e->>'transactions' FROM pgbenchx.runs, "
		  . "jsonb_array_elements(script_stats) WITH ORDINALITY x(e, k) WHERE run_id = $id");
	ok(%st && scalar(%rst), "$what: script_stats stored on the parts and the run");
	is_deeply(\%rst, \%st, "$what: script_stats transactions per script = the sum of the parts'");
	is(qn($rec, "SELECT (SELECT sum((e->>'transactions')::bigint) FROM jsonb_array_elements(script_stats) e) = transactions "
		  . "AND (script_stats->0->>'latency_avg_ms')::float8 > 0 FROM pgbenchx.runs WHERE run_id = $id"),
		't', "$what: script_stats add up to the run's transactions, with a latency average");
	is(qn($rec, "SELECT count(*) FROM pgbenchx.run_generators WHERE run_id = $id AND status = 'completed' "
		  . "AND transactions > 0 AND latency_hist IS NOT NULL AND environment IS NOT NULL "
		  . "AND clock_offset_ms IS NOT NULL AND system_identifier IS NOT NULL"),
		scalar(@nodes), "$what: run_generators rows hold each generator's figures, clock and environment");
	return @parts;
}

# --- a run across two generators, the caller on A ---------------------------
my $id = qa("SET client_min_messages = warning; SELECT run_bench(4, 2, 'select-only', conninfo => '$cs', "
	  . "generators => $gens, vacuum => false, checkpoint => false)");
qa("SET client_min_messages = warning; CALL pgbenchx.wait($id)");
is(qa("SELECT status || coalesce(': ' || error, '') FROM pgbenchx.runs WHERE run_id = $id"), 'completed',
	'a run across two generators completed');
is(qa("SELECT string_agg(clients || '/' || first_client, ',' ORDER BY generator) FROM pgbenchx.run_generators WHERE run_id = $id"),
	'2/0,2/2', 'the clients split as pgbench splits them, in array order');
check_merged($ga, $id, 'run', $ga, $gb);
is(qa("SELECT count(*) >= 1 AND count(*) = count(cpu_user) FROM pgbenchx.system_samples WHERE run_id = $id"), 't',
	'the recorder records its own machine\'s figures each second (system_samples)');
like(qa("SELECT array_to_string(system_notes, ' / ') FROM pgbenchx.runs WHERE run_id = $id"), qr/driven from generators/,
	'and system_notes says the wait sampler is the generators\'');

# --- one writer of the final row: every column a local run sets ------------
# (issue 22) A run's final row is written by results_finish_run, whether its
# figures are its drivers' or its generators' parts' merged: a column that a
# local run of the same options sets and this run leaves NULL is a figure
# the merge forgot.  The columns come from the catalogue, so one added later
# is compared too.  rate and latency_limit make the lag, skipped and late
# figures exist.
my $same = "4, 2, 'select-only', conninfo => '$cs', vacuum => false, checkpoint => false, rate => 2000, latency_limit => 50";
my $local = qa("SET client_min_messages = warning; SELECT run_bench($same)");
qa("SET client_min_messages = warning; CALL pgbenchx.wait($local)");
my $multi = qa("SET client_min_messages = warning; SELECT run_bench($same, generators => $gens)");
qa("SET client_min_messages = warning; CALL pgbenchx.wait($multi)");
is(qa("SELECT string_agg(status || coalesce(': ' || error, ''), ',' ORDER BY run_id) FROM pgbenchx.runs WHERE run_id IN ($local, $multi)"),
	'completed,completed', 'a local run and a run across two generators with the same options completed');
# what a recorder cannot have: its clients' backends are the generators' parts' (system_notes says so)
my %not_recorder = (
	wait_sample_hz => 'no wait sampler runs on the recorder',
	server_cpu_ms_per_tx => 'the client backends\' CPU is the wait sampler\'s',
	verdict => 'NULL when no limit is evident, which depends on the load of the moment: checked below');
my $cols = "FROM pg_attribute a, pgbenchx.runs l, pgbenchx.runs m WHERE a.attrelid = 'pgbenchx.runs'::regclass "
  . "AND a.attnum > 0 AND NOT a.attisdropped AND l.run_id = $local AND m.run_id = $multi "
  . "AND to_jsonb(l) -> a.attname <> 'null'";
my @local_set = split /\n/, qa("SELECT a.attname $cols ORDER BY a.attnum");
cmp_ok(scalar(@local_set), '>', 50, 'the local run sets ' . scalar(@local_set) . ' columns');
ok((grep { $_ eq 'lag_avg_ms' } @local_set) && (grep { $_ eq 'verdict' || $_ eq 'driver_cpu_ms_per_tx' } @local_set),
	'among them the lag and explain_run\'s figures');
my @unset = grep { !$not_recorder{$_} } split /\n/,
  qa("SELECT a.attname $cols AND to_jsonb(m) -> a.attname = 'null' ORDER BY a.attnum");
is(join(',', @unset), '', 'the run across generators sets every column the local run sets');
is(qa("SELECT verdict IS NOT DISTINCT FROM pgbenchx.explain_run(run_id) FROM pgbenchx.runs WHERE run_id = $multi"), 't',
	'its verdict is explain_run\'s, computed as its final row was written');
# the values: sums and maxima of the parts' rows, read on each generator
my @mparts = parts_of($ga, $multi, $ga, $gb);
my @summed = qw(transactions failed serialization_failures deadlock_failures retried retries skipped late notices aborted_clients jobs);
my @maxed = qw(bench_duration_s conn_time_ms lag_max_ms);
my (%sum, %max, @lag);
# the columns as texts joined by |, a NULL as "null"
sub row_of { return "SELECT concat_ws('|', " . join(', ', map { "coalesce(" . $_ . "::text, 'null')" } @_) . ") FROM pgbenchx.runs WHERE run_id = "; }
for my $p (@mparts)
{
	my @v = split /\|/, qn($p->[0], row_of(@summed, @maxed, 'lag_avg_ms') . $p->[1]);
	$sum{$_} += shift @v for @summed;
	for my $c (@maxed)
	{
		my $x = shift @v;
		$max{$c} = $x if !defined $max{$c} || $x > $max{$c};
	}
	push @lag, shift @v;
}
my @m = split /\|/, qa(row_of(@summed, @maxed) . $multi);
is_deeply({ map { $_ => shift @m } @summed }, \%sum, 'the counts (' . join(', ', @summed) . ') = the sums of the parts\'');
is_deeply({ map { $_ => shift @m } @maxed }, \%max, 'bench_duration_s, conn_time_ms and lag_max_ms = the parts\' largest');
my ($lo, $hi) = sort { $a <=> $b } @lag;
my $lag = qa("SELECT lag_avg_ms FROM pgbenchx.runs WHERE run_id = $multi");
ok($lag >= $lo - 1e-9 && $lag <= $hi + 1e-9, "lag_avg_ms $lag is pooled from the parts' ($lo, $hi)");
is(qa("SELECT abs(driver_cpu_s - " . join(' - ', map { qn($_->[0], "SELECT driver_cpu_s FROM pgbenchx.runs WHERE run_id = $_->[1]") } @mparts)
	  . ") < 1e-6 AND samples_lost = 0 AND transactions = samples_lost_transactions "
	  . "+ (SELECT sum(transactions) FROM pgbenchx.samples s WHERE s.run_id = $multi) AND checkpoints >= 0 AND autovacuums >= 0 "
	  . "FROM pgbenchx.runs WHERE run_id = $multi"), 't',
	'driver_cpu_s = the parts\' sum; the samples and samples_lost_transactions add up to the run\'s transactions');
check_merged($ga, $multi, 'rate-limited run', $ga, $gb);
# each second too: a samples column that the local run's seconds set is
# set in the merged run's (the catalogue's columns, so a later one is
# compared too), and skipped, retried, retries and lag_sum_ms are the
# parts' summed (lag_sum_ms to rounding)
my $scols = "FROM pg_attribute a WHERE a.attrelid = 'pgbenchx.samples'::regclass AND a.attnum > 0 AND NOT a.attisdropped "
  . "AND EXISTS (SELECT FROM pgbenchx.samples l WHERE l.run_id = $local AND to_jsonb(l) -> a.attname <> 'null')";
my @slocal = split /\n/, qa("SELECT a.attname $scols ORDER BY a.attnum");
ok((grep { $_ eq 'skipped' } @slocal) && (grep { $_ eq 'lag_sum_ms' } @slocal), 'the local run\'s seconds set skipped and lag_sum_ms');
is(qa("SELECT coalesce(string_agg(a.attname, ',' ORDER BY a.attnum), '') $scols "
	  . "AND EXISTS (SELECT FROM pgbenchx.samples m WHERE m.run_id = $multi AND to_jsonb(m) -> a.attname = 'null')"),
	'', 'the merged run\'s seconds set every samples column the local run\'s set');
my %ssum;
for my $p (@mparts)
{
	my @v = split /\|/, qn($p->[0], "SELECT sum(skipped) || '|' || sum(retried) || '|' || sum(retries) || '|' || sum(lag_sum_ms) "
		  . "FROM pgbenchx.samples WHERE run_id = $p->[1]");
	$ssum{$_} += shift @v for qw(skipped retried retries lag);
}
my @sm = split /\|/, qa("SELECT sum(skipped) || '|' || sum(retried) || '|' || sum(retries) || '|' || sum(lag_sum_ms) "
	  . "FROM pgbenchx.samples WHERE run_id = $multi");
is("$sm[0]|$sm[1]|$sm[2]", "$ssum{skipped}|$ssum{retried}|$ssum{retries}", 'the seconds\' skipped, retried, retries = the parts\' sums');
ok(abs($sm[3] - $ssum{lag}) <= 1e-6 * (1 + abs($ssum{lag})), "the seconds' lag_sum_ms $sm[3] = the parts' $ssum{lag}");

# --- a sweep and a replay ---------------------------------------------------
my $sw = qa("SET client_min_messages = warning; SELECT run_sweep(ARRAY[1, 3], 1, 'select-only', conninfo => '$cs', "
	  . "generators => $gens, vacuum => false, checkpoint => false)");
qa("SET client_min_messages = warning; CALL pgbenchx.wait($sw)");
is(qa("SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $sw"), 'completed', 'a sweep across two generators completed');
my @steps = split /\n/, qa("SELECT run_id || '|' || clients FROM pgbenchx.runs WHERE sweep_id = $sw ORDER BY run_id");
my ($step1, $c1) = split /\|/, $steps[0];
is(qa("SELECT count(*) FROM pgbenchx.run_generators WHERE run_id = $step1"), '1',
	'a step of 1 client uses only the first generator');
my ($step2) = split /\|/, $steps[1];
check_merged($ga, $step2, 'sweep step of 3 clients', $ga, $gb);

# export and import carry the sweep's run_generators (S imports A's sweep)
my $doc = qa("SELECT pgbenchx.export(ARRAY[$sw])");
my ($imported) = qn($s, "SELECT (pgbenchx.import(\$doc\$$doc\$doc\$::jsonb))[1]") =~ /(\d+)/;
my $fp = "SELECT count(*) || '|' || sum(g.transactions) || '|' || md5(string_agg(encode(g.latency_hist, 'hex') || g.clients || g.first_client "
  . "|| g.status || g.clock_offset_ms || (g.environment IS NOT NULL) || (g.part_run IS NOT NULL), ',' ORDER BY r.clients, g.generator)) "
  . "FROM pgbenchx.run_generators g JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = ";
is(qn($s, $fp . $imported), qa($fp . $sw), 'export and import carry the run_generators rows, histograms included');

my $rp = qa("SET client_min_messages = warning; SELECT run_replay('SELECT 1; SELECT 2; SELECT 3;', 2, 2, "
	  . "conninfo => '$cs', generators => $gens, checkpoint => false)");
qa("SET client_min_messages = warning; CALL pgbenchx.wait($rp)");
my $rrun = qa("SELECT run_id FROM pgbenchx.runs WHERE sweep_id = $rp");
is(qa("SELECT status || '|' || transactions FROM pgbenchx.runs WHERE run_id = $rrun"), 'completed|6',
	'a replay across two generators: each of 2 clients ran the 3 statements once');
is(qa("SELECT abs(qpm - (transactions + failed) / bench_duration_s * 60) < 1e-6 FROM pgbenchx.runs WHERE run_id = $rrun"), 't',
	'its qpm is its statements per minute, as a local replay\'s');

# --- refusals before anything starts ----------------------------------------
my $last = qa("SELECT max(run_id) FROM pgbenchx.runs");
my $down = PostgreSQL::Test::Cluster->new('gen_down');
$down->init;
my $cdown = ci($down);
like(refused($ga, "SELECT run_bench(2, 1, conninfo => '$cs', generators => ARRAY['$ca', '$cdown'])"),
	qr/generator 2 \(.*port='?\d+.*\) cannot be reached/, 'a generator down is refused, named');
qb("CREATE DATABASE bare");
(my $cbare = $cb) =~ s/dbname=postgres/dbname=bare/;
like(refused($ga, "SELECT run_bench(2, 1, conninfo => '$cs', generators => ARRAY['$ca', '$cbare'])"),
	qr/generator 2 .* has no pgbenchx in that database/, 'a database without pgbenchx is refused');
like(refused($ga, "SELECT run_bench(2, 1, conninfo => '$cs', generators => ARRAY['$ca', '$ca'])"),
	qr/generators 1 and 2 are the same conninfo/, 'the same generator twice is refused');
like(refused($ga, "SELECT run_bench(2, 1, conninfo => '$cs', generators => ARRAY[]::text[])"),
	qr/generators must not be empty/, 'an empty array is refused');
like(refused($ga, "SELECT run_bench(2, 1, conninfo => '$cs', generators => ARRAY['$ca', NULL])"),
	qr/must not contain NULL/, 'a NULL generator is refused');
like(refused($ga, "SELECT run_bench(40, 1, jobs => 20, conninfo => '$cs', generators => $gens)"),
	qr/generator 1 .* has not enough free background worker slots/, 'not enough worker slots is refused');
is(qa("SELECT count(*) FROM pgbenchx.runs WHERE run_id > $last"), '0', 'nothing was recorded by the refusals');

# a run in progress on B
# (600 s, as every run below that the test ends itself: the cancel, the
# terminate, the failure or the crash ends it, not the duration)
my $busy = qb("SET client_min_messages = warning; SELECT run_bench(1, 600, 'select-only', conninfo => '$cs', vacuum => false, checkpoint => false)");
ok(run_sampled($gb, "run_id = $busy"), 'a run is in progress on B');
like(refused($ga, "SELECT run_bench(2, 1, conninfo => '$cs', generators => $gens)"),
	qr/generator 2 .* has a run in progress/, 'a generator with a run in progress is refused');
qb("SELECT pgbenchx.cancel($busy)");
qb("SET client_min_messages = warning; CALL pgbenchx.wait($busy)");

# --- a cancel reaches both generators ---------------------------------------
$id = qa("SET client_min_messages = warning; SELECT run_bench(2, 600, 'select-only', conninfo => '$cs', "
	  . "generators => $gens, vacuum => false, checkpoint => false)");
ok(run_sampled($ga, "run_id = $id", 2), 'the long run is measuring');
my @parts = parts_of($ga, $id, $ga, $gb);
# by A's clock: from the cancel to the end of the recorder's run, which ends
# once its parts have
my (undef, $t_cancel) = signal_at($ga, "pgbenchx.cancel($id)");
qa("SET client_min_messages = warning; CALL pgbenchx.wait($id)");
my $took = finished_since($ga, "run_id = $id", $t_cancel);
is(qa("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'cancelled', 'the cancelled run reads cancelled');
for my $p (@parts)
{
	is(qn($p->[0], "SELECT status FROM pgbenchx.runs WHERE run_id = $p->[1]"), 'cancelled', 'its part was cancelled on its generator');
}
ok($took =~ /^-?[0-9.]+$/ && $took < 15, "the cancel ended every part within a generous bound (took ${took}s)");
ok(nothing_left($ga) && nothing_left($gb), 'nothing left running on A and B');

# --- the recorder's coordinator terminated: best effort, the parts cancelled --
$id = qa("SET client_min_messages = warning; SELECT run_bench(2, 600, 'select-only', conninfo => '$cs', "
	  . "generators => $gens, vacuum => false, checkpoint => false)");
ok(run_sampled($ga, "run_id = $id", 1), 'a run to terminate is measuring');
@parts = parts_of($ga, $id, $ga, $gb);
qa("SELECT pg_terminate_backend(coordinator_pid) FROM pgbenchx.runs WHERE run_id = $id");
ok($ga->poll_query_until('postgres', "SELECT status = 'aborted' FROM pgbenchx.runs WHERE run_id = $id"),
	'the terminated recorder\'s run reads aborted');
for my $p (@parts)
{
	ok($p->[0]->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $p->[1]"),
		'its part on its generator ended too');
}
is(qa("SELECT string_agg(status, ',' ORDER BY generator) FROM pgbenchx.run_generators WHERE run_id = $id"), 'aborted,aborted',
	'run_generators rows say aborted');
ok(nothing_left($ga) && nothing_left($gb), 'nothing left running on A and B after the terminate');

# --- a generator that sends more than a part writes is lost -----------------
# (its server is another's: B's owner writes a samples row of 200 kB into the
# part; the recorder must not take it, nor grow without bound)
$id = qa("SET client_min_messages = warning; SELECT run_bench(2, 600, 'select-only', conninfo => '$cs', "
	  . "generators => $gens, vacuum => false, checkpoint => false)");
ok(run_sampled($ga, "run_id = $id", 1), 'the run is measuring');
my $bpart = qb("SELECT run_id FROM pgbenchx.runs WHERE status = 'running'");
qb("INSERT INTO pgbenchx.samples (run_id, second, transactions, latency_hist) "
	  . "VALUES ($bpart, 1000, 1, decode(repeat('ab', 100000), 'hex'))");
qa("SET client_min_messages = warning; CALL pgbenchx.wait($id)");
is(qa("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'failed', 'an oversized value from a generator fails the run');
like(qa("SELECT error FROM pgbenchx.runs WHERE run_id = $id"),
	qr/generator 2 \(.*\) was lost while measuring: it sent a samples value of \d+ bytes, more than the 65536/,
	'naming the generator and what it sent');
cmp_ok(qa("SELECT count(*) FROM pgbenchx.samples WHERE run_id = $id AND second >= 1000"), '==', 0,
	'the oversized row was not stored');
ok($gb->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $bpart"),
	'B\'s part ended');
is(qb("SELECT status FROM pgbenchx.runs WHERE run_id = $bpart"), 'cancelled',
	'cancelled by the recorder, not left to run its 600 s');
ok(nothing_left($ga) && nothing_left($gb), 'nothing left running on A and B');

# --- the recorder A crashes mid-run (immediate stop, restart) --------------
# (the parts' clients wait on a lock on the server under test until A has
# crashed: the run is on when it does, however slow a loaded machine makes
# the calls before; after the unlock B's part ends by itself, its 3 s past)
my $lock = lock_session($s, 'pgbench_accounts');
$id = qa("SET client_min_messages = warning; SELECT run_bench(2, 3, 'select-only', conninfo => '$cs', "
	  . "generators => $gens, vacuum => false, checkpoint => false)");
# (a part's clients share one application_name, 'pgbenchx client')
ok($s->poll_query_until('postgres', "SELECT count(*) = 2 FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx client%' AND wait_event_type = 'Lock'"),
	'a run whose recorder will crash is measuring');
$ga->stop('immediate');
$ga->start;
unlock_session($lock);
qa("SET client_min_messages = warning; CALL pgbenchx.wait($id)");
is(qa("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'aborted', 'after the crash the run reads aborted');
is(qa("SELECT string_agg(status, ',' ORDER BY generator) FROM pgbenchx.run_generators WHERE run_id = $id"),
	'aborted,aborted', 'and its run_generators rows too, not running');
ok(nothing_left($ga) && nothing_left($gb), 'nothing left running on A and B (B\'s part ends by itself)');

# --- generator B stopped with -m immediate mid-run --------------------------
$id = qa("SET client_min_messages = warning; SELECT run_bench(2, 600, 'select-only', conninfo => '$cs', "
	  . "generators => $gens, vacuum => false, checkpoint => false)");
ok(run_sampled($ga, "run_id = $id", 2), 'the run is measuring before B stops');
$gb->stop('immediate');
qa("SET client_min_messages = warning; CALL pgbenchx.wait($id)");
my ($st, $err) = split /\|/, qa("SELECT status, error FROM pgbenchx.runs WHERE run_id = $id");
is($st, 'failed', 'the run lost a generator: failed');
like($err, qr/generator 2 \(.*\) was lost/, 'its error names generator 2');
cmp_ok(qa("SELECT count(*) FROM pgbenchx.samples WHERE run_id = $id"), '>=', 2, 'the samples measured before stay');
is(qa("SELECT status FROM pgbenchx.run_generators WHERE run_id = $id AND generator = 2"), 'lost', 'run_generators says B was lost');
ok(nothing_left($ga), 'nothing left running on A');

# --- clock skew: B started again with its clock 2 s ahead (libfaketime) ------
my $faketime = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
ok(-e $faketime, "libfaketime is installed ($faketime; apt-get install faketime)");
{
	local $ENV{LD_PRELOAD} = $faketime;
	local $ENV{FAKETIME} = '+2s';
	local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = '1';
	$gb->start;
}
# B's clock read between two readings of ours: the psql call around it
# takes seconds on a loaded machine, so the offset lies between B's reading
# less our later one and B's reading less our earlier one
my $before = time;
my $b_clock = qb("SELECT extract(epoch FROM clock_timestamp())");
my $after = time;
my ($skew_lo, $skew_hi) = ($b_clock - $after, $b_clock - $before);
ok($skew_hi > 1.5 && $skew_lo < 2.5, sprintf("B's clock runs 2 s ahead (measured here: between %.2f and %.2f s)", $skew_lo, $skew_hi));
like(refused($ga, "SELECT run_bench(2, 1, 'select-only', conninfo => '$cs', generators => $gens)"),
	qr/generator 2 .* has a clock offset above max_clock_offset_ms/, 'a clock offset above the bound is refused');
$id = qa("SET client_min_messages = warning; SELECT run_bench(4, 2, 'select-only', conninfo => '$cs', "
	  . "generators => $gens, max_clock_offset_ms => 5000, vacuum => false, checkpoint => false)");
qa("SET client_min_messages = warning; CALL pgbenchx.wait($id)");
is(qa("SELECT status || coalesce(': ' || error, '') FROM pgbenchx.runs WHERE run_id = $id"), 'completed',
	'max_clock_offset_ms => 5000 accepts it');
my $off = qa("SELECT clock_offset_ms FROM pgbenchx.run_generators WHERE run_id = $id AND generator = 2");
ok($off > 1500 && $off < 2500, "run_generators records B's offset ($off ms)");
check_merged($ga, $id, 'skewed run', $ga, $gb);
# the parts started at the same instant: their started_at differ by the offset
my $gap = qb("SELECT extract(epoch FROM started_at) FROM pgbenchx.runs WHERE run_id = "
	  . qa("SELECT part_run_id FROM pgbenchx.run_generators WHERE run_id = $id AND generator = 2"))
  - qa("SELECT extract(epoch FROM started_at) FROM pgbenchx.runs WHERE run_id = "
	  . qa("SELECT part_run_id FROM pgbenchx.run_generators WHERE run_id = $id AND generator = 1"));
ok(abs($gap - $off / 1000) < 0.1, "the parts' seconds line up: their starts differ by the offset (gap $gap s)");
$gb->restart;

# --- a runner: its connections to generators follow the clients' password rule
for my $n ($s, $ga, $gb)
{
	qn($n, "CREATE ROLE runner LOGIN PASSWORD 'pw'; SELECT pgbenchx.grant_runner('runner')");
	# scram for the runner on S and A; on B the runner gets in without a password, for now
	my $hba = $n->data_dir . '/pg_hba.conf';
	my $old = PostgreSQL::Test::Utils::slurp_file($hba);
	open my $fh, '>', $hba or die;
	print $fh ($n == $gb ? "local all runner trust\n" : "local all runner scram-sha-256\n") . $old;
	close $fh;
	$n->reload;
}
qn($s, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO runner");
sub qr_runner
{
	my ($sql) = @_;
	local $ENV{PGPASSWORD} = 'pw';
	my ($ret, $out, $err) = $ga->psql('postgres', "SET client_min_messages = warning; $sql", extra_params => [ '-U', 'runner' ]);
	return $ret == 0 ? $out : "refused: $err";
}
my $rgens = "ARRAY['$ca password=pw', '$cb password=pw']";
like(qr_runner("SELECT run_bench(2, 1, 'select-only', conninfo => '$cs password=pw', generators => $rgens, "
	  . "vacuum => false, checkpoint => false)"),
	qr/generator 2 .* let a non-superuser in without a password/, 'a runner\'s generator that asks no password is refused');
{
	my $hba = $gb->data_dir . '/pg_hba.conf';
	my $conf = PostgreSQL::Test::Utils::slurp_file($hba);
	$conf =~ s/local all runner trust/local all runner scram-sha-256/;
	open my $fh, '>', $hba or die;
	print $fh $conf;
	close $fh;
	$gb->reload;
}
like(qr_runner("SELECT run_bench(2, 1, 'select-only', conninfo => '$cs password=pw', generators => ARRAY['$ca password=pw', '$cb'], "
	  . "vacuum => false, checkpoint => false)"),
	qr/generator 2 .* cannot be reached.*password/s, 'a runner\'s generator conninfo without the password cannot log in');
$id = qr_runner("SELECT run_bench(2, 1, 'select-only', conninfo => '$cs password=pw', generators => $rgens, "
	  . "vacuum => false, checkpoint => false)");
like($id, qr/^\d+$/, 'a runner starts a run across two generators with passwords');
qr_runner("CALL pgbenchx.wait($id)");
is(qa("SELECT status || coalesce(': ' || error, '') || '|' || owner FROM pgbenchx.runs WHERE run_id = $id"), 'completed|runner',
	'the runner\'s run completed');
is(qb("SELECT owner FROM pgbenchx.runs WHERE run_id = (SELECT max(run_id) FROM pgbenchx.runs)"), 'runner',
	'its part on B ran as the runner');
is(qa("SELECT conninfo FROM pgbenchx.run_generators WHERE run_id = $id AND generator = 2") =~ /pw/ ? 'shown' : 'masked',
	'masked', 'run_generators shows no password');

# --- the recorder is S, the generators A and B -------------------------------
qn($s, "SELECT 1");
$id = qn($s, "SET client_min_messages = warning; SELECT run_bench(3, 2, 'select-only', conninfo => '$cs', "
	  . "generators => $gens, vacuum => false, checkpoint => false)");
qn($s, "SET client_min_messages = warning; CALL pgbenchx.wait($id)");
is(qn($s, "SELECT status || coalesce(': ' || error, '') FROM pgbenchx.runs WHERE run_id = $id"), 'completed',
	'S records a run driven from A and B');
check_merged($s, $id, 'recorder S', $ga, $gb);

ok(nothing_left($ga) && nothing_left($gb) && nothing_left($s), 'nothing left running anywhere');
$_->stop for ($ga, $gb, $s);
done_testing();
