# The per-transaction log (issue 24 §2, pgbenchx -l): run_bench with
# log_transactions writes one record per transaction into each driver's
# ring in the run's shared memory, and pgbenchx.transaction_log reads them
# while the run lasts.  A reader polling every 100 ms gets every record
# (nothing lost: the seqs are contiguous, the marks' counts match), one per
# transaction that runs counts, their latencies average to runs'
# latency_avg_ms, each client's transaction numbers run from 0; with
# sampling_rate 0.5 about half of them (loose bounds).  A reader that
# reads nothing while a run of a \\set-only script writes millions of
# records gets exactly the ring's last 65536, the older ones counted lost by
# the gap in seq, and the run loses nothing.  A runner reads its
# own run's records and not another role's (an error naming the role), nor
# a superuser's.  No reader keeps the run's shared memory between its
# calls, in an open transaction or with a cursor open, nor once the run is
# over (issue 34 §5, read from /proc and /dev/shm).  Bad values are
# refused.  The clients' messages (client_messages, issue 36) share the
# ring protocol: a late reader gets the last 256, another runner is refused.
# Short runs (1-2 s), scale 1.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use IPC::Run;

my $node = pgbenchx_node('txlog', scale => 1,
	conf => "password_encryption = 'scram-sha-256'\n");
my $su = $node->safe_psql('postgres', 'SELECT current_user');
$node->safe_psql('postgres', q{
	CREATE ROLE runner_a LOGIN PASSWORD 'a-secret';
	CREATE ROLE runner_b LOGIN PASSWORD 'b-secret';
	SELECT pgbenchx.grant_runner('runner_a');
	SELECT pgbenchx.grant_runner('runner_b');
	GRANT SELECT ON pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history TO runner_a, runner_b;
});
my $hba = $node->data_dir . '/pg_hba.conf';
open(my $fh, '>', $hba) or die;
print $fh "local all $su trust\n";
print $fh "local all all scram-sha-256\n";
close $fh;
$node->reload;

my %pw = (runner_a => 'a-secret', runner_b => 'b-secret');

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# the last run's coordinator gone (its row is final before it exits): the
# next run is not refused as one in progress
sub idle { nothing_left($node) or die 'a run is still going'; }

sub as_role
{
	my ($role, $sql) = @_;
	local $ENV{PGPASSWORD} = $pw{$role};
	my ($stdout, $stderr);
	my $ret = $node->psql('postgres', $sql, stdout => \$stdout, stderr => \$stderr,
		extra_params => [ '-U', $role ]);
	return ($ret, $stdout, $stderr);
}

# The reader: polls transaction_log every 100 ms into a temporary table
# until the run has ended (one call after its final row), then prints the
# checks' figures.  In one session, as pgbenchx -l reads.
my $held;    # the lock of held_run's run, released by read_log
sub read_log
{
	my ($id, $role) = @_;
	my $sql = qq{
CREATE TEMP TABLE got AS SELECT * FROM pgbenchx.transaction_log(0) LIMIT 0;
DO \$\$
DECLARE since bigint[]; fin boolean;
BEGIN
  LOOP
    SELECT status <> 'running' INTO fin FROM pgbenchx.runs WHERE run_id = $id;
    INSERT INTO got SELECT * FROM pgbenchx.transaction_log($id, since);
    SELECT array_agg(s ORDER BY driver) INTO since
    FROM (SELECT driver, max(seq) s FROM got WHERE client_id IS NULL GROUP BY driver) m;
    EXIT WHEN fin;
    PERFORM pg_sleep(0.1);
  END LOOP;
END \$\$;
SELECT (SELECT count(*) FROM got WHERE client_id IS NOT NULL),
       (SELECT coalesce(sum(s), -1) FROM (SELECT max(seq) s FROM got WHERE client_id IS NULL GROUP BY driver) m),
       (SELECT bool_and(d) FROM (SELECT bool_or(done) d FROM got WHERE client_id IS NULL GROUP BY driver) m),
       (SELECT count(DISTINCT (driver, seq)) FROM got WHERE client_id IS NOT NULL),
       (SELECT count(*) FROM got WHERE status = 'ok'),
       (SELECT round(avg(latency_us) FILTER (WHERE status = 'ok') / 1000.0, 6) FROM got),
       (SELECT bool_and(n = m + 1) FROM (SELECT client_id, count(*) n, max(transaction_no) m FROM got
            WHERE client_id IS NOT NULL GROUP BY client_id) c),
       (SELECT count(DISTINCT client_id) FROM got WHERE client_id IS NOT NULL),
       (SELECT bool_and(end_time_us BETWEEN extract(epoch FROM r.started_at) * 1e6 - 1e6
                                        AND extract(epoch FROM pg_catalog.now()) * 1e6
                        AND script_no = 0 AND latency_us >= 0 AND schedule_lag_us IS NULL)
          FROM got, pgbenchx.runs r WHERE r.run_id = $id AND client_id IS NOT NULL)
};
	# The reader starts while the run is held (held_run: its clients wait on
	# a lock of pgbench_accounts), says so, and only then is the run let go:
	# it cannot end before the reader reads, however loaded the machine.
	my ($in, $out, $err) = ("SELECT 'reading';\n$sql\n\\q\n", '', '');
	local $ENV{PGPASSWORD} = $pw{$role} if $role;
	my $h = IPC::Run::start(['psql', '-X', '-At', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'),
			($role ? ('-U', $role) : ())],
		'<', \$in, '>', \$out, '2>', \$err);
	$h->pump until $out =~ /reading\n/ || !$h->pumpable;
	if ($held) { unlock_session($held); $held = undef; }
	$h->finish;
	die "reader failed: $err" if $h->result;
	$out =~ s/^reading\n//;
	chomp $out;
	return split /\|/, $out;
}

# A logged run held by a lock until its reader is reading (read_log).
sub held_run
{
	my ($role, $args) = @_;
	$held = lock_session($node, 'pgbench_accounts');
	my $sql = "SELECT run_bench($args)";
	return q1($sql) unless $role;
	my ($ret, $out, $err) = as_role($role, $sql);
	die "${role}'s run was refused: $err" if $ret;
	return $out =~ /(\d+)/ ? $1 : die "no run id: $out";
}

# --- a superuser's run, two drivers, read whole
my $id = held_run(undef, "3, 2, 'select-only', jobs => 2, vacuum => false, checkpoint => false, log_transactions => true");
my ($n, $marks, $done, $distinct, $ok, $avg, $numbered, $clients, $sane) = read_log($id);
my ($tx, $lat, $status) = split /\|/, q1("SELECT transactions, latency_avg_ms, status FROM pgbenchx.runs WHERE run_id = $id");
is($status, 'completed', 'the logged run completed');
cmp_ok($tx, '>', 0, 'it ran transactions');
is($n, $marks, 'every record the drivers wrote was read: nothing lost');
is($done, 't', 'both drivers said they were done');
is($distinct, $n, 'each (driver, seq) once');
is($ok, $tx, 'one ok record per transaction of runs.transactions');
ok(abs($avg - $lat) <= 0.01 * $lat, "the records' mean latency $avg ms is runs' $lat ms within 1%");
is($numbered, 't', "each client's transaction numbers run from 0 without a gap");
is($clients, '3', 'the three clients logged');
is($sane, 't', 'end times within the run, script 0, no lag without a rate');
ok($node->poll_query_until('postgres', "SELECT count(*) = 0 FROM pgbenchx.transaction_log($id)"),
	'after the run, a new session finds no records (the segment is gone once its reader read the last)');

# --- a run over before its reader's first look: the coordinator keeps its
# records until a reader has attached
idle();
$id = q1("SELECT run_bench(1, NULL, 'select-only', transactions => 10, vacuum => false, checkpoint => false, log_transactions => true)");
$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
  or die 'the run never ended';
is(q1("SELECT count(*) FILTER (WHERE status = 'ok') || ' ' || bool_and(done) FILTER (WHERE client_id IS NULL) FROM pgbenchx.transaction_log($id)"),
	'10 true', 'a 10-transaction run read after its row was final: all 10 records');

# --- a logged run nobody reads: its coordinator keeps the records after
# its row is final (at most 5 s); a run launched meanwhile waits for it to
# go instead of being refused as one in progress
idle();
$id = q1("SELECT run_bench(1, NULL, 'select-only', transactions => 10, vacuum => false, checkpoint => false, log_transactions => true)");
q1("SET client_min_messages = warning; CALL pgbenchx.wait($id)");
ok($node->poll_query_until('postgres', "SELECT count(*) > 0 FROM pg_stat_activity WHERE backend_type = 'pgbenchx coordinator'"
	  . " AND query ~ 'statement statistics'"),
	'after wait, the unread run\'s coordinator is still there, keeping its records');
my ($ret0, $out0, $err0) = $node->psql('postgres',
	"SET client_min_messages = warning; SELECT run_bench(1, NULL, 'select-only', transactions => 10, vacuum => false, checkpoint => false)");
is($ret0, 0, 'the next run is not refused while it keeps them') or diag($err0);
q1("SET client_min_messages = warning; CALL pgbenchx.wait($out0)") if $out0 =~ /^\d+$/;
is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = " . ($out0 =~ /^(\d+)$/ ? $1 : 0)), 'completed', 'and completes');

# --- sampling_rate 0.5: about half
idle();
$id = held_run(undef, "2, 2, 'select-only', vacuum => false, checkpoint => false, log_transactions => true, sampling_rate => 0.5");
($n, $marks) = read_log($id);
$tx = q1("SELECT transactions FROM pgbenchx.runs WHERE run_id = $id");
is($n, $marks, 'sampled: nothing lost');
ok($n > 0.3 * $tx && $n < 0.7 * $tx, "sampling_rate 0.5 logged $n of $tx transactions");

# --- with a rate: the schedule lag is there
idle();
$id = q1("SELECT run_bench(2, 1, 'select-only', vacuum => false, checkpoint => false, rate => 200, log_transactions => true)");
my $lags = q1(qq{
CREATE TEMP TABLE got AS SELECT * FROM pgbenchx.transaction_log(0) LIMIT 0;
DO \$\$
DECLARE since bigint[]; fin boolean;
BEGIN
  LOOP
    SELECT status <> 'running' INTO fin FROM pgbenchx.runs WHERE run_id = $id;
    INSERT INTO got SELECT * FROM pgbenchx.transaction_log($id, since);
    SELECT array_agg(s ORDER BY driver) INTO since
    FROM (SELECT driver, max(seq) s FROM got WHERE client_id IS NULL GROUP BY driver) m;
    EXIT WHEN fin;
    PERFORM pg_sleep(0.1);
  END LOOP;
END \$\$;
SELECT count(*) > 0 AND bool_and(schedule_lag_us IS NOT NULL AND schedule_lag_us >= 0) FROM got WHERE client_id IS NOT NULL});
is($lags, 't', 'with a rate every record has its schedule lag');

# --- a reader that falls behind: it attaches while the run measures, then
# reads nothing until every driver is done; what it gets then is the ring's
# last records, the older ones lost (a gap in seq), whatever the rate was.
# A script of one \\set: transactions without a round trip, far more in
# 2 s than the ring holds
q1(q{SELECT pgbenchx.add_script('noop', E'\\\\set x 1\n')});
idle();
$id = q1("SELECT run_bench(1, 2, 'noop', jobs => 1, vacuum => false, checkpoint => false, log_transactions => true)");
my $late = q1(qq{
DO \$\$
BEGIN
  LOOP
    EXIT WHEN (SELECT coalesce(bool_or(phase = 'measuring'), false) FROM pgbenchx.progress WHERE run_id = $id)
           OR (SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id);
    PERFORM pg_sleep(0.05);
  END LOOP;
  PERFORM count(*) FROM pgbenchx.transaction_log($id);
  LOOP
    EXIT WHEN (SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id);
    PERFORM pg_sleep(0.1);
  END LOOP;
END \$\$;
CREATE TEMP TABLE late AS SELECT * FROM pgbenchx.transaction_log($id, '{0}');
SELECT (SELECT count(*) FROM late WHERE client_id IS NOT NULL),
       (SELECT seq FROM late WHERE client_id IS NULL),
       (SELECT coalesce(min(seq), 0) FROM late WHERE client_id IS NOT NULL),
       (SELECT transactions FROM pgbenchx.runs WHERE run_id = $id)});
my ($got, $wrote, $first, $ran) = split /\|/, $late;
is($wrote, $ran, 'the driver wrote a record per transaction');
cmp_ok($wrote, '>', 65536, "more records written than the ring holds ($wrote)");
is($got, '65536', "a late reader gets the ring's last 65536 records");
is($first, $wrote - $got, 'the records lost are the oldest: the seqs start after the gap');
is(q1("SELECT count(*) FROM pgbenchx.runs WHERE run_id = $id AND status = 'completed' AND samples_lost = 0"), '1',
	'the run itself lost nothing');

# --- the clients' messages (issue 36, client_messages): the same ring
# protocol and readers.  Runner A's run of a one-debug() script writes far
# more messages in 2 s than the ring's 256; B may not read them; A's
# late reader gets the ring's last 256, pgbench's debug() line each, the
# older ones lost (a gap in seq); the run itself loses nothing.
my ($mret, $mout, $merr) = as_role('runner_a', q{SELECT pgbenchx.add_script('noopdebug', E'\\\\set x debug(:client_id + 1)\n')});
is($mret, 0, 'runner A registers a script of one debug() call') or diag($merr);
is(q1("SELECT has_function_privilege('runner_a', 'pgbenchx.client_messages(bigint, bigint[])', 'EXECUTE')"), 't',
	'grant_runner gave runners client_messages');
# another runner is refused while the run lasts (a run of A's that lasts
# until cancelled: a loaded machine may take seconds to start B's psql)
idle();
($mret, $mout, $merr) = as_role('runner_a', "SELECT run_bench(1, 600, 'noopdebug', vacuum => false, checkpoint => false, "
	  . "conninfo => 'password=a-secret', client_messages => true)");
die "runner A's run was refused: $merr" if $mret;
$id = $mout =~ /(\d+)/ ? $1 : die "no run id: $mout";
$node->poll_query_until('postgres', "SELECT phase = 'measuring' OR status <> 'running' FROM pgbenchx.progress RIGHT JOIN pgbenchx.runs USING (run_id) WHERE run_id = $id")
  or die 'the run never measured';
($mret, $mout, $merr) = as_role('runner_b', "SELECT count(*) FROM pgbenchx.client_messages($id)");
isnt($mret, 0, "runner B may not read A's client messages");
like($merr, qr/permission denied to read the client messages of run $id of role "runner_a"/, 'the refusal names the run and its role');
q1("SELECT pgbenchx.cancel($id)");
q1("SET client_min_messages = warning; CALL pgbenchx.wait($id)");
idle();
# A's reader, in the session that starts a 2 s run: it reads the whole ring
# (since 0) every 0.1 s until the driver says it is done, so that its last
# read is of the ring as the run left it (the coordinator keeps the ring
# for a reader that has read, at most 5 s after the run); then the run's
# row, once final, gives the transactions.
($mret, $mout, $merr) = as_role('runner_a', qq{
SELECT run_bench(1, 2, 'noopdebug', vacuum => false, checkpoint => false,
                 conninfo => 'password=a-secret', client_messages => true) AS id \\gset
CREATE TEMP TABLE late_m AS SELECT * FROM pgbenchx.client_messages(:id, '{0}');
CREATE TEMP TABLE the_run AS SELECT :id AS run_id;
DO \$\$
DECLARE
  rid bigint := (SELECT run_id FROM the_run);
BEGIN
  FOR i IN 1 .. 3000 LOOP
    EXIT WHEN (SELECT bool_and(done) FROM late_m WHERE kind IS NULL);
    PERFORM pg_sleep(0.1);
    TRUNCATE late_m;
    INSERT INTO late_m SELECT * FROM pgbenchx.client_messages(rid, '{0}');
  END LOOP;
  FOR i IN 1 .. 3000 LOOP
    EXIT WHEN (SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = rid);
    PERFORM pg_sleep(0.1);
  END LOOP;
END \$\$;
SELECT :id;
SELECT (SELECT count(*) FROM late_m WHERE kind IS NOT NULL),
       (SELECT seq FROM late_m WHERE kind IS NULL),
       (SELECT coalesce(min(seq), 0) FROM late_m WHERE kind IS NOT NULL),
       (SELECT transactions FROM pgbenchx.runs WHERE run_id = :id),
       (SELECT count(*) FROM late_m WHERE kind = 'debug' AND client_id = 0 AND message = 'debug(script=0,command=1): int 1'),
       (SELECT bool_and(done) FROM late_m WHERE kind IS NULL)});
is($mret, 0, 'runner A reads its own client messages') or diag($merr);
my @mlines = split /\n/, $mout;
$id = shift @mlines;
my ($mgot, $mwrote, $mfirst, $mran, $mdebug, $mdone) = split /\|/, $mlines[-1];
is($mwrote, $mran, 'a message per transaction (its debug() call)');
cmp_ok($mwrote, '>', 256, "more messages written than the ring holds ($mwrote)");
is($mgot, '256', "a late reader gets the ring's last 256");
is($mfirst, $mwrote - $mgot, 'the messages lost are the oldest: the seqs start after the gap');
is($mdebug, $mgot, "each is pgbench's debug() line, of client 0");
is($mdone, 't', 'and the driver says it is done');
is(q1("SELECT count(*) FROM pgbenchx.runs WHERE run_id = $id AND status = 'completed' AND samples_lost = 0"), '1',
	'the run itself lost nothing');
is(q1("SELECT count(*) FROM pgbenchx.client_messages(NULL)") . q1("SELECT count(*) FROM pgbenchx.client_messages(-1, '{}')"), '00',
	'no run, no messages');
($mret, $mout, $merr) = $node->psql('postgres', "SELECT count(*) FROM pgbenchx.client_messages(1, '{{1},{2}}')");
like($merr, qr/since must be a one-dimensional array/, 'a two-dimensional since is refused');

# --- who may read: runner A's run, read by B (refused) and by A
idle();
$id = held_run('runner_a', "2, 2, 'select-only', vacuum => false, checkpoint => false, conninfo => 'password=a-secret', log_transactions => true");
like($id, qr/^\d+$/, 'runner A starts a logged run');
my ($ret, $out, $err);
$node->poll_query_until('postgres', "SELECT phase = 'measuring' FROM pgbenchx.progress WHERE run_id = $id")
  or die 'the run never measured';
($ret, $out, $err) = as_role('runner_b', "SELECT count(*) FROM pgbenchx.transaction_log($id)");
isnt($ret, 0, "runner B may not read A's records");
like($err, qr/permission denied to read the transaction log of run $id of role "runner_a"/, 'the refusal names the run and its role');
($n, $marks) = read_log($id, 'runner_a');
cmp_ok($n, '>', 0, 'runner A reads its own records');
is($n, $marks, "A's reader lost nothing");

# a superuser's live run: not for a runner
idle();
$id = held_run(undef, "1, 2, 'select-only', vacuum => false, checkpoint => false, log_transactions => true");
$node->poll_query_until('postgres', "SELECT phase = 'measuring' FROM pgbenchx.progress WHERE run_id = $id")
  or die 'the run never measured';
($ret, $out, $err) = as_role('runner_a', "SELECT count(*) FROM pgbenchx.transaction_log($id)");
isnt($ret, 0, "a runner may not read a superuser's run");
like($err, qr/permission denied to read the transaction log/, 'refused with the same words');
unlock_session($held);
$held = undef;
$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
  or die 'the run never ended';

# --- nothing outlives its run (issue 34 §5): sessions that read and then
# sit idle, in an open transaction, with a cursor open over the log, or
# that were refused, keep no shared memory of the run, neither between
# calls nor once it has ended.  Checked from the server's side: the run's
# DSM segments are the /dev/shm files its coordinator maps (but the
# postmaster's control segment, which every process inherits); no reader's
# backend maps one after its call, and once the run is over every one of
# them is gone from /dev/shm and from every process of the cluster.
my $pm_pid;
{
	open(my $pf, '<', $node->data_dir . '/postmaster.pid') or die;
	$pm_pid = <$pf> + 0;
}

# the DSM segments (/dev/shm names) process pid maps, but the postmaster's
sub dsm_mapped
{
	my ($pid) = @_;
	my %names;
	open(my $m, '<', "/proc/$pid/maps") or return ();
	while (<$m>) { $names{$1} = 1 if m{/dev/shm/(PostgreSQL\.\d+)}; }
	close $m;
	return keys %names;
}
my %control = map { $_ => 1 } dsm_mapped($pm_pid);

# every process of the cluster (the postmaster's children)
sub cluster_pids
{
	my @pids;
	opendir(my $d, '/proc') or return ();
	foreach my $p (grep { /^\d+$/ } readdir $d)
	{
		open(my $st, '<', "/proc/$p/stat") or next;
		my $line = <$st> // '';
		close $st;
		push @pids, $p if $line =~ /\) \S+ (\d+) / && $1 == $pm_pid;
	}
	return @pids;
}

# a psql session kept open; run() sends SQL and waits for its marker
sub session
{
	my ($role) = @_;
	my ($in, $out, $err) = ('', '', '');
	local %ENV = %ENV;
	$ENV{PGPASSWORD} = $pw{$role} if $role;
	my $h = IPC::Run::start(['psql', '-X', '-At', '-d', $node->connstr('postgres'),
			$role ? ('-U', $role) : ()],
		'<', \$in, '>', \$out, '2>', \$err);
	my $s = { h => $h, in => \$in, out => \$out, err => \$err, n => 0 };
	$s->{pid} = srun($s, 'SELECT pg_backend_pid();');
	return $s;
}

sub srun
{
	my ($s, $sql) = @_;
	my $mark = 'done-' . ++$s->{n};
	${ $s->{out} } = '';
	${ $s->{in} } .= "$sql\nSELECT '$mark';\n";
	$s->{h}->pump until ${ $s->{out} } =~ /\Q$mark\E/;
	my $got = ${ $s->{out} };
	$got =~ s/\n?\Q$mark\E\n?$//;
	return $got;
}

SKIP:
{
	skip 'needs /proc and POSIX shared memory in /dev/shm', 9
	  unless -r "/proc/$pm_pid/maps" && q1('SHOW dynamic_shared_memory_type') eq 'posix';
	idle();
	$id = q1("SELECT run_bench(2, 600, 'select-only', jobs => 2, vacuum => false, checkpoint => false, log_transactions => true)");
	$node->poll_query_until('postgres', "SELECT phase = 'measuring' FROM pgbenchx.progress WHERE run_id = $id")
	  or die 'the run never measured';
	# the step segment: what the coordinator and each of its drivers map
	# (the drivers, connected to no database, map no segment of the
	# statistics)
	my %seg;
	foreach my $p (split /\n/, q1("SELECT pid FROM pg_stat_activity WHERE backend_type IN ('pgbenchx coordinator', 'pgbenchx driver')"))
	{
		my %here = map { $_ => 1 } grep { !$control{$_} } dsm_mapped($p);
		%seg = %here unless %seg;
		delete $seg{$_} foreach grep { !$here{$_} } keys %seg;
	}
	my @seg = sort keys %seg;
	is(scalar(@seg), 1, "the run's step segment, which its coordinator and drivers map: @seg");

	# one reads once and sits idle; one reads twice in a transaction it
	# leaves open; one opens a cursor over the log, fetches a row and sits
	# in its transaction; a runner is refused and sits idle
	my $idle = session();
	my $txn = session();
	my $cursor = session();
	my $refused = session('runner_b');
	cmp_ok(srun($idle, "SELECT count(*) FROM pgbenchx.transaction_log($id);"), '>', 0, 'an idle reader read records');
	srun($txn, 'BEGIN;');
	srun($txn, "CREATE TEMP TABLE got2 AS SELECT * FROM pgbenchx.transaction_log($id);");
	cmp_ok(srun($txn, "SELECT count(*) FROM pgbenchx.transaction_log($id, "
			. "(SELECT array_agg(seq ORDER BY driver) FROM got2 WHERE client_id IS NULL));"), '>', 0,
		'a reader in an open transaction read records twice');
	srun($cursor, "BEGIN; DECLARE c CURSOR FOR SELECT * FROM pgbenchx.transaction_log($id);");
	srun($cursor, 'FETCH 1 FROM c;');
	srun($refused, "SELECT count(*) FROM pgbenchx.transaction_log($id);");
	like(${ $refused->{err} }, qr/permission denied/, 'the runner was refused');

	my @readers = ($idle, $txn, $cursor, $refused);
	my %mapped;
	foreach my $s (@readers)
	{
		$mapped{$_} = 1 foreach grep { $seg{$_} } dsm_mapped($s->{pid});
	}
	is(join(' ', sort keys %mapped), '', 'between calls, while the run goes on, no reader maps its segment');
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'running', '(the run was still on)');

	q1("SELECT pgbenchx.cancel($id)");
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
	  or die 'the run never ended';
	# the state, waited for with a bound: no segment of the run left
	my ($left, $held) = ('?', '?');
	foreach my $try (1 .. 600)
	{
		$left = join(' ', grep { -e "/dev/shm/$_" } @seg);
		my @by;
		foreach my $p (cluster_pids())
		{
			push @by, $p if grep { $seg{$_} } dsm_mapped($p);
		}
		$held = join(' ', @by);
		last if $left eq '' && $held eq '';
		select(undef, undef, undef, 0.1);
	}
	is($left, '', 'once the run has ended, its segment is gone from /dev/shm');
	is($held, '', 'and no process of the cluster maps one');
	is(q1("SELECT string_agg(state, ',' ORDER BY state) FROM pg_stat_activity WHERE pid IN ("
			. join(',', map { $_->{pid} } @readers) . ')'),
		'idle,idle,idle in transaction,idle in transaction', 'while every reader is still connected, as it left itself');
	foreach my $s (@readers)
	{
		${ $s->{in} } .= "\\q\n";
		$s->{h}->finish;
	}
}

# --- bad input, refused before anything starts
idle();
($ret, $out, $err) = $node->psql('postgres',
	"SELECT run_bench(1, 1, 'select-only', log_transactions => true, sampling_rate => 0)");
like($err, qr/invalid sampling rate: 0/, 'sampling_rate 0 is refused');
($ret, $out, $err) = $node->psql('postgres',
	"SELECT run_bench(1, 1, 'select-only', log_transactions => true, sampling_rate => 1.5)");
like($err, qr/invalid sampling rate: 1.5/, 'sampling_rate 1.5 is refused');
($ret, $out, $err) = $node->psql('postgres',
	"SELECT run_bench(1, 1, 'select-only', log_transactions => true, conninfo => 'host=/nonexistent', generators => ARRAY['host=/nonexistent'])");
like($err, qr/log_transactions is not supported with generators/, 'log_transactions with generators is refused');
is(q1("SELECT count(*) FROM pgbenchx.transaction_log(NULL)"), '0', 'a NULL run id: nothing');
is(q1("SELECT count(*) FROM pgbenchx.transaction_log(999999, '{5,NULL,-3}')"), '0', 'an unknown run: nothing');

ok(nothing_left($node), 'no worker or client left');
done_testing();
