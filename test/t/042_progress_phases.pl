# Progress a person can follow (issue 12 section 3): what run_bench,
# run_sweep and run_replay say they started; the phase, step and expected
# end in pgbenchx.progress while a sweep runs; the periodic notices of
# CALL pgbenchx.wait (the step, the phase, the time left, no figures before
# the measured interval has any).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep time);
use IPC::Run;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('progress', scale => 1, conf => "max_worker_processes = 16\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# a launch: (id, its NOTICEs)
sub launch
{
	my ($call) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "SELECT $call");
	is($ret, 0, "$call starts") or diag($err);
	return ($out, $err);
}

sub wait_for
{
	my ($id) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "CALL pgbenchx.wait($id)");
	is($ret, 0, "wait($id) ends");
	return $err;
}

# --- what a launch says it started ---------------------------------------------
{
	my ($id, $err) = launch("run_bench(1, 2, 'select-only', checkpoint => false)");
	like($err, qr/NOTICE:  run $id: 1 client for 2 s; follow it with CALL pgbenchx.wait\($id\)$/m,
		'run_bench: one line, "1 client", the duration, the wait hint');
	my $notices = wait_for($id);
	unlike($notices, qr/0\.0 s, 0 transactions/, 'a lone run: no empty figures');

	($id, $err) = launch("run_bench(2, transactions => 1, script => 'select-only', checkpoint => false)");
	like($err, qr/NOTICE:  run $id: 2 clients, 1 transaction each; follow it with CALL pgbenchx.wait\($id\)$/m,
		'run_bench bounded by transactions: "1 transaction each"');
	wait_for($id);

	($id, $err) = launch("run_sweep(1, 2, transactions => 20, script => 'select-only', checkpoint => false)");
	like($err, qr/NOTICE:  sweep $id: 2 runs of 20 transactions per client; follow it with CALL pgbenchx.wait\($id\)$/m,
		'run_sweep bounded by transactions: says so instead of a time');
	wait_for($id);

	($id, $err) = launch("run_sweep(ARRAY[2], 1, 'select-only', vacuum => false, checkpoint => false)");
	like($err, qr/NOTICE:  sweep $id: 1 run of 1 s, about 1 s; follow it with CALL pgbenchx.wait\($id\)$/m,
		'run_sweep of one step: "1 run", no maintenance named when there is none');
	wait_for($id);

	($id, $err) = launch("run_replay(E'SELECT 1;\\n', 1, 2, checkpoint => false)");
	like($err, qr/NOTICE:  sweep $id: 2 runs of 1 statement per client; follow it with CALL pgbenchx.wait\($id\)$/m,
		'run_replay: its runs and statements, "1 statement"');
	wait_for($id);

	# a refusal says nothing was started
	my ($ret, $out, $rerr) = $node->psql('postgres', "SELECT run_sweep(1, 2, 0)");
	isnt($ret, 0, 'a refused sweep fails');
	unlike($rerr, qr/follow it with/, 'and says nothing about following it');
}

# --- a sweep followed from another session and by wait ----------------------------
{
	# the first step's vacuum of pgbench_tellers waits for this lock: the
	# maintenance phase lasts until it is released
	my $lock = lock_session($node, 'pgbench_tellers');
	my ($id, $err) = launch("run_sweep(ARRAY[1, 2, 1], 3, 'select-only')");
	like($err, qr/NOTICE:  sweep $id: 3 runs of 3 s, about 9 s plus a vacuum and a checkpoint before each; follow it with CALL pgbenchx.wait\($id\)$/m,
		'run_sweep: the runs, their duration, the estimate and what it leaves out, the wait hint');

	my ($wout, $werr) = ('', '');
	my $waiter = IPC::Run::start(['psql', '-X', '-At', '-d', $node->connstr('postgres'),
		'-c', "CALL pgbenchx.wait($id)"], '>', \$wout, '2>', \$werr);

	my $state_sql = "SELECT concat_ws('|', coalesce(phase, ''), coalesce(step, 0), coalesce(steps, 0), "
	  . "coalesce(round(extract(epoch FROM eta - clock_timestamp())::numeric, 2)::text, ''), clients) "
	  . "FROM pgbenchx.progress WHERE sweep_id = $id";
	ok($node->poll_query_until('postgres', "SELECT phase = 'maintenance' AND step = 1 AND steps = 3 FROM pgbenchx.progress WHERE sweep_id = $id"),
		'step 1 of 3 shows maintenance while its vacuum waits');
	my ($phase, $step, $steps, $left) = split /\|/, q1($state_sql);
	cmp_ok($left, '>', 5, "eta in the future during maintenance ($left s left)");
	cmp_ok($left, '<', 60, 'and not absurd');
	is(q1("SELECT count(*) FROM pgbenchx.progress_state() WHERE sweep_id = $id AND step = 1"), '1',
		'progress_state() gives the same step');
	# the lock holds until wait has printed a notice in maintenance (every 5 s)
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	while ($werr !~ /run 1 of 3 \(run \d+\): maintenance/ && time < $deadline)
	{
		$waiter->pump_nb;
		usleep(100_000);
	}
	unlock_session($lock);

	# look at the phases until the sweep ends, every 100 ms, from the server
	# itself: each look with the server's clock, none missed for a psql call
	# that took seconds on a loaded machine (a procedure that commits after
	# each look, as wait does, to hold no snapshot)
	q1(qq{CREATE TABLE looks (n serial, t float8, state text)});
	q1(qq{CREATE PROCEDURE look_until_end(id bigint) LANGUAGE plpgsql AS \$\$
DECLARE st text; t0 timestamptz := clock_timestamp();
BEGIN
  LOOP
    SELECT concat_ws('|', coalesce(phase, ''), coalesce(step, 0), coalesce(steps, 0),
                     coalesce(round(extract(epoch FROM eta - clock_timestamp())::numeric, 2)::text, ''), clients)
      INTO st FROM pgbenchx.progress WHERE sweep_id = id;
    IF st IS NOT NULL THEN
      INSERT INTO looks (t, state) VALUES (extract(epoch FROM clock_timestamp()), st);
    ELSIF (SELECT status FROM pgbenchx.sweeps WHERE sweep_id = id) <> 'running'
          OR clock_timestamp() > t0 + interval '120 s' THEN
      EXIT;
    END IF;
    COMMIT;
    PERFORM pg_sleep(0.1);
  END LOOP;
END \$\$});
	q1("CALL look_until_end($id)");
	my @seen = map { my ($t, $st) = split /\t/; [ $t, split(/\|/, $st, -1) ] }
	  split /\n/, $node->safe_psql('postgres', "SELECT t, state FROM looks ORDER BY n", extra_params => [ '-F', "\t" ]);
	$waiter->finish;
	# a run's row exists a moment before its coordinator publishes its step:
	# a look may fall in between; never for long (a stretch of looks without
	# a phase lasts under 3 s by the server's clock, a loaded machine's bound)
	my ($longest, $from) = (0, undef);
	for my $l (@seen)
	{
		if ($l->[1] eq '') { $from //= $l->[0]; $longest = $l->[0] - $from if $l->[0] - $from > $longest; }
		else { $from = undef; }
	}
	cmp_ok($longest, '<', 3, sprintf('looks without a phase are a moment only (%.1f s at most)', $longest));
	@seen = grep { $_->[1] ne '' } @seen;
	my %phases = map { $_->[1] => 1 } @seen;
	ok($phases{measuring}, 'measuring seen');
	# the phases in their order within each step (maintenance was seen above;
	# checkpoint and connecting may be too quick to be caught)
	my %rank = (maintenance => 1, checkpoint => 2, connecting => 3, measuring => 4, finishing => 5);
	my $backwards = grep {
		$seen[$_][2] == $seen[ $_ - 1 ][2] && ($rank{ $seen[$_][1] } // 0) < ($rank{ $seen[ $_ - 1 ][1] } // 0)
	} 1 .. $#seen;
	is($backwards, 0, 'within a step the phases only go forward');
	ok(!grep({ !$rank{ $_->[1] } } @seen), 'every phase is one of five: ' . join(',', sort keys %phases));
	ok(!grep({ $_->[3] ne '3' } @seen), 'steps is 3 throughout');
	my @steps = map { $_->[2] } @seen;
	ok(!grep({ $steps[$_] < $steps[ $_ - 1 ] } 1 .. $#steps), 'step never goes back: ' . join(',', @steps));
	is($steps[-1], 3, 'the last step seen is 3');
	my %clients = map { $_->[2] => $_->[5] } @seen;
	# (a loaded machine may let a whole step pass between two looks: each
	# step seen has its own count)
	my %want = (1 => 1, 2 => 2, 3 => 1);
	is(join(',', map { "$_=$clients{$_}" } sort keys %clients), join(',', map { "$_=$want{$_}" } sort keys %clients),
		'each step seen has its client count');
	ok(!grep({ $_->[4] eq '' || $_->[4] < -2 } @seen), 'eta known and not in the past (2 s of slack) throughout');

	# within a measured interval the time left shrinks with the time that
	# passes; once step 1 is done (its cost beyond its duration known, the
	# lock wait included) it never grows by more than a little
	my ($checked, $bad) = (0, 0);
	foreach my $i (1 .. $#seen)
	{
		my ($p, $q) = @seen[ $i - 1, $i ];
		next unless $p->[1] eq 'measuring' && $q->[1] eq 'measuring' && $p->[2] == $q->[2];
		$checked++;
		my $shrink = $p->[4] - $q->[4];
		my $dt = $q->[0] - $p->[0];
		$bad++ if abs($shrink - $dt) > 1.5;
	}
	cmp_ok($checked, '>', 3, "time left compared across measuring looks ($checked pairs)");
	is($bad, 0, 'within a measured interval the time left shrank with the time that passed');
	my @later = grep { $_->[2] >= 2 } @seen;
	my $grew = grep { $later[$_][4] - $later[ $_ - 1 ][4] > 2 } 1 .. $#later;
	is($grew, 0, 'from step 2 on the time left never grew by more than 2 s');
	# in step 3 every cost is known: the end predicted is near the real one
	my ($first3) = grep { $_->[1] eq 'measuring' && $_->[2] == 3 } @seen;
	ok($first3, 'step 3 seen measuring');
	if ($first3)
	{
		my $predicted = $first3->[0] + $first3->[4];
		my $ended = q1("SELECT extract(epoch FROM finished_at) FROM pgbenchx.sweeps WHERE sweep_id = $id");
		cmp_ok(abs($predicted - $ended), '<', 5, sprintf('eta in step 3 within 5 s of the real end (%.1f s off)', $predicted - $ended));
	}

	is(q1("SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $id"), 'completed', 'the sweep completed');
	is(q1("SELECT count(*) FROM pgbenchx.progress_state()"), '0', 'progress_state() is empty once it ended');

	# wait's notices
	note($werr);
	my @progress = grep { /^NOTICE:  sweep $id, run \d of 3/ } split /\n/, $werr;
	cmp_ok(scalar(@progress), '>=', 2, 'wait printed progress notices with the step');
	like($werr, qr/^NOTICE:  sweep $id, run 1 of 3 \(run \d+\): maintenance; about \d+ s left$/m,
		'the maintenance phase, with the time left');
	like($werr, qr/^NOTICE:  sweep $id, run [1-3] of 3 \(run \d+\): (measuring, [12] clients?, [0-9.]+ of 3 s|connecting [12] clients?|checkpoint|finishing \(storing the results\))/m,
		'a later phase');
	ok(!grep({ !/; about \d+ s left$/ } @progress), 'every progress notice gives the time left');
	unlike($werr, qr/0\.0 s, 0 transactions|, - tps/, 'never empty figures');
	unlike($werr, qr/\b1 clients\b/, 'singular');
	like($werr, qr/run \d+ completed/, 'the runs still reported as they end');
}

# --- bounded by transactions: the time left is unknown until it can be estimated
# (the launch and the wait in one psql session: wait's notices, every 5 s,
# start with the run, not a psql start later, and the 8 s the run measures
# at least hold one of them)
{
	q1(q{SELECT pgbenchx.add_script('slow', E'SELECT pg_sleep(0.05);\n')});
	my ($in, $wout, $werr) = ("SELECT run_bench(2, transactions => 160, script => 'slow', checkpoint => false) AS id \\gset\n\\echo :id\nCALL pgbenchx.wait(:id);\n\\q\n", '', '');
	my $waiter = IPC::Run::start(['psql', '-X', '-At', '-d', $node->connstr('postgres')],
		'<', \$in, '>', \$wout, '2>', \$werr);
	$waiter->pump until $wout =~ /^(\d+)$/m;
	my ($id) = $wout =~ /^(\d+)$/m;
	ok($node->poll_query_until('postgres', "SELECT phase = 'measuring' AND eta IS NOT NULL FROM pgbenchx.progress WHERE run_id = $id"),
		'measuring a run bounded by transactions: an eta once some are done');
	# 160 transactions of 50 ms per client: about 8 s in all; the end it
	# predicts, 2 s in or later (a look may come late on a loaded machine),
	# is a sensible one
	ok(run_sampled($node, "run_id = $id", 2), 'two seconds measured');
	my ($left, $total) = split /\|/, q1("SELECT round(extract(epoch FROM eta - clock_timestamp())::numeric, 1), "
		  . "round(extract(epoch FROM eta - r.started_at)::numeric, 1) FROM pgbenchx.progress p JOIN pgbenchx.runs r USING (run_id) WHERE run_id = $id");
	ok(!defined $left || $left eq '' || ($left > -2 && $total > 4 && $total < 30),
		'and a sensible one (' . ($left // 'ended') . ' s left, ' . ($total // '-') . ' s in all)');
	$waiter->finish;
	like($werr, qr/^NOTICE:  run $id: measuring, 2 clients, [0-9.]+ s, \d+ of 320 transactions, [0-9.]+ tps; about \d+ s left$/m,
		'wait: the transactions done of all, and the time left');
	unlike($werr, qr/0\.0 s, 0 transactions/, 'no empty figures');
}

# --- a replay: its statements and its rate in queries per minute --------------------
{
	# (the launch and the wait in one psql session, as above: the 7 s it
	# measures hold one of wait's notices)
	my ($ret, $id, $notices) = $node->psql('postgres',
		"SELECT run_replay(repeat(E'SELECT pg_sleep(0.1);\\n', 70), 1, 1, checkpoint => false) AS id \\gset\n\\echo :id\nCALL pgbenchx.wait(:id)");
	is($ret, 0, 'run_replay and its wait') or diag($notices);
	like($notices, qr/NOTICE:  sweep $id: 1 run of 70 statements per client; follow it with CALL pgbenchx.wait\($id\)$/m,
		'run_replay: the statements per client');
	like($notices, qr/NOTICE:  sweep $id, run 1 of 1 \(run \d+\): measuring, 1 client, [0-9.]+ s, \d+ statements, \d+ qpm; about \d+ s left$/m,
		'wait: a replay in statements and qpm, with the time left');
}

ok(nothing_left($node), 'nothing left running');
$node->stop;
done_testing();
