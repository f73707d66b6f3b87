# No script holds the server hostage (docs/security.md, "What a runner can
# not do"), probed as a runner would:
#  - COPY in a script, in every direction, protocol and in a pipeline, and in
#    a replay list: the client aborts as pgbench's does ("COPY is not
#    supported in pgbench, aborting"), the run ends failed, nothing is left;
#  - every state a client can be in (a \sleep, a lock wait, a pipeline with
#    a pg_sleep, connecting to a server that never answers, between
#    transactions under a rate limit): pgbenchx.cancel reads cancelled,
#    pg_terminate_backend of a driver reads failed, of the coordinator
#    aborted, each within seconds, and nothing is left;
#  - notices raised without end never reach the server log: the run counts
#    them and keeps a few;
#  - a -D value is held once per driver, not once per client;
#  - \sleep beyond pgbench's int wraps as pgbench's does;
#  - echoed input (a 1 MB statement or value) is cut in the run's error and
#    in the server log;
#  - DROP DATABASE during a COPY script's run, and a fast shutdown during a
#    run in a nasty state, finish within seconds.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use IPC::Run;
use POSIX ();
use IO::Socket::INET;
use IO::Socket::UNIX;
use IO::Select;
use Time::HiRes qw(usleep time);

my $node = pgbenchx_node('every', scale => 1,
	conf => "max_connections = 60\nmax_worker_processes = 24\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }

sub add_script
{
	my ($name, $body) = @_;
	q1("SELECT pgbenchx.add_script('$name', \$s\$$body\$s\$, replace => true)");
}

# wait for a run (or sweep) to leave 'running'; returns the seconds, by the
# server's clock, from since (an epoch from signal_at; by default the row's
# started_at) to its finished_at: the psql calls around it take seconds on
# a loaded machine and are not the run's doing
sub ended_within
{
	my ($table, $col, $id, $since) = @_;
	$node->poll_query_until('postgres',
		"SELECT status <> 'running' FROM pgbenchx.$table WHERE $col = $id")
	  or die "$table $id never ended";
	my $from = defined $since ? "to_timestamp($since)" : 'started_at';
	return q1("SELECT round(extract(epoch FROM finished_at - $from)::numeric, 3) FROM pgbenchx.$table WHERE $col = $id");
}

sub run_row
{
	my ($id, $cols) = @_;
	return q1("SELECT $cols FROM pgbenchx.runs WHERE run_id = $id");
}

# ---------------------------------------------------------------------
# COPY, in every direction and protocol, in a pipeline and in a replay
# ---------------------------------------------------------------------
q1('CREATE TABLE copy_target (a int)');
my %copy_scripts = (
	'copy-out'      => "copy (select 1) to stdout;\n",
	# streams without end (a function scan would materialize first)
	'copy-out-big'  => "copy (select repeat('x', 1000) from pg_attribute a, pg_attribute b, pg_attribute c) to stdout;\n",
	'copy-in'       => "copy copy_target from stdin;\n",
	'copy-mid'      => "BEGIN;\nselect 1;\ncopy copy_target from stdin;\nEND;\n",
);
for my $name (sort keys %copy_scripts)
{
	add_script($name, $copy_scripts{$name});
	for my $protocol ('simple', 'extended', 'prepared')
	{
		my $id = q1("SELECT run_bench(2, 30, '$name', protocol => '$protocol', jobs => 1, vacuum => false, checkpoint => false)");
		my $took = ended_within('runs', 'run_id', $id);
		cmp_ok($took, '<', 15, "$name, $protocol: the run ended within seconds ($took s)");
		is(run_row($id, 'status'), 'failed', "$name, $protocol: the run failed");
		like(run_row($id, 'error'), qr/COPY is not supported in pgbench, aborting/,
			"$name, $protocol: pgbench's message");
		is(run_row($id, 'aborted_clients'), '2', "$name, $protocol: both clients aborted");
		ok(nothing_left($node), "$name, $protocol: nothing left");
	}
}
is(q1('SELECT count(*) FROM copy_target'), '0', 'COPY FROM STDIN loaded nothing');

# in a pipeline (extended and prepared), with a COPY among other statements
add_script('copy-pipe', "\\startpipeline\nselect 1;\ncopy (select 1) to stdout;\nselect pg_sleep(0.01);\n\\endpipeline\n");
add_script('copy-pipe-in', "\\startpipeline\ncopy copy_target from stdin;\nselect 1;\n\\endpipeline\n");
for my $name ('copy-pipe', 'copy-pipe-in')
{
	for my $protocol ('extended', 'prepared')
	{
		my $id = q1("SELECT run_bench(2, 30, '$name', protocol => '$protocol', jobs => 1, vacuum => false, checkpoint => false)");
		my $took = ended_within('runs', 'run_id', $id);
		cmp_ok($took, '<', 15, "$name, $protocol: the run ended within seconds ($took s)");
		is(run_row($id, 'status'), 'failed', "$name, $protocol: the run failed");
		like(run_row($id, 'error'), qr/COPY is not supported|pipeline/,
			"$name, $protocol: the error says why");
		ok(nothing_left($node), "$name, $protocol: nothing left");
	}
}

# in a replay list: the client aborts (not counted as a failed statement)
{
	my $sweep = q1("SELECT run_replay(\$q\$select 1;\ncopy (select 1) to stdout;\nselect 2;\n\$q\$, 1, 2, checkpoint => false)");
	my $took = ended_within('sweeps', 'sweep_id', $sweep);
	cmp_ok($took, '<', 20, "replay with COPY: the sweep ended within seconds ($took s)");
	is(q1("SELECT string_agg(status, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
		'failed,failed', 'replay with COPY: each run failed');
	like(q1("SELECT string_agg(error, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
		qr/COPY is not supported in pgbench, aborting/, 'replay with COPY: pgbench\'s message');
	ok(nothing_left($node), 'replay with COPY: nothing left');
}

# ---------------------------------------------------------------------
# Notices never reach the server log; the run counts them and keeps three
# ---------------------------------------------------------------------
{
	q1(q{CREATE FUNCTION noisy(n int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..n LOOP RAISE NOTICE 'noisy % %', i, repeat('n', 500); END LOOP;
  RETURN n;
END $$});
	add_script('noisy', "select noisy(10000);\n");
	my $log_before = -s $node->logfile;
	my $id = q1("SELECT run_bench(2, NULL, 'noisy', transactions => 3, jobs => 2, vacuum => false, checkpoint => false)");
	ended_within('runs', 'run_id', $id);
	is(run_row($id, 'status'), 'completed', 'notices: the run completed');
	is(run_row($id, 'notices'), '60000', 'notices: every notice counted');
	is(run_row($id, 'cardinality(notice_samples)'), '3', 'notices: three kept');
	like(run_row($id, 'notice_samples[1]'), qr/^NOTICE: noisy \d+ n+\.\.\.$/, 'notices: a sample, with its severity, cut');
	is(q1("SELECT max(octet_length(s)) <= 203 FROM pgbenchx.runs r, unnest(r.notice_samples) s WHERE r.run_id = $id"),
		't', 'notices: each sample at most 200 bytes and "..."');
	my $grown = (-s $node->logfile) - $log_before;
	cmp_ok($grown, '<', 100_000, "notices: the server log grew by $grown bytes only");
	my $quiet = q1("SELECT run_bench(1, NULL, 'select-only', transactions => 10, vacuum => false, checkpoint => false)");
	ended_within('runs', 'run_id', $quiet);
	is(run_row($quiet, "notices || ' ' || cardinality(notice_samples)"), '0 0', 'no notices: 0 and none kept');
}

# ---------------------------------------------------------------------
# Every state, every signal
# ---------------------------------------------------------------------

# A server that accepts TCP and never answers a benchmark client (its
# startup packet names "pgbenchx client"), and proxies every other
# connection (the caller's login check, the coordinator's) to the node.
sub read_n
{
	my ($sock, $n) = @_;
	my $buf = '';
	while (length($buf) < $n)
	{
		my $r = sysread($sock, $buf, $n - length($buf), length($buf));
		return undef unless $r;
	}
	return $buf;
}

sub fake_serve
{
	my ($c, $sockpath) = @_;
	my $pkt;
	for (;;)
	{
		my $len = read_n($c, 4) // return;
		my $body = read_n($c, unpack('N', $len) - 4) // return;
		my $code = unpack('N', $body);
		if ($code == 80877103 || $code == 80877104)    # SSL or GSS request: no
		{
			syswrite($c, 'N');
			next;
		}
		$pkt = $len . $body;
		last;
	}
	if ($pkt =~ /pgbenchx client/)
	{
		my $buf;
		1 while sysread($c, $buf, 4096);    # until the client goes away
		return;
	}
	my $s = IO::Socket::UNIX->new(Peer => $sockpath) or return;
	syswrite($s, $pkt);
	my $sel = IO::Select->new($c, $s);
	while (my @ready = $sel->can_read)
	{
		for my $r (@ready)
		{
			my $buf;
			return unless sysread($r, $buf, 65536);
			syswrite($r == $c ? $s : $c, $buf);
		}
	}
}

my $fake = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Listen => 64, ReuseAddr => 1)
  or die "fake server: $!";
my $fake_port = $fake->sockport;
my $fake_pid = fork() // die 'fork';
if ($fake_pid == 0)
{
	# never returns: no END block of the test may run in here
	$SIG{CHLD} = 'IGNORE';
	my $sockpath = $node->host . '/.s.PGSQL.' . $node->port;
	eval {
		while (1)
		{
			my $c = $fake->accept or next;
			my $child = fork();
			if (defined $child && $child == 0)
			{
				eval { fake_serve($c, $sockpath); };
				POSIX::_exit(0);
			}
			close $c;
		}
	};
	POSIX::_exit(0);
}
close $fake;

# a session holding a lock the clients wait on
q1('CREATE TABLE lockme (a int)');
my ($h_out, $h_err) = ('', '');
my $holder = IPC::Run::start(
	[ 'psql', '-X', '-d', $node->connstr('postgres') . ' application_name=holder',
	  '-c', 'BEGIN; LOCK TABLE lockme; SELECT pg_sleep(600);' ],
	'>', \$h_out, '2>', \$h_err);
$node->poll_query_until('postgres',
	"SELECT count(*) = 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'lockme' AND l.granted AND l.mode = 'AccessExclusiveLock'")
  or die 'the holder never locked';

add_script('st-sleep-tx', "BEGIN;\nselect 1;\n\\sleep 2147\nEND;\n");
add_script('st-sleep-huge', "\\sleep 2147483647 us\n");
add_script('st-lock', "select * from lockme;\n");
add_script('st-pipeline', "\\startpipeline\nselect 1;\nselect pg_sleep(100);\n\\endpipeline\n");
add_script('st-connect', "select 1;\n");
add_script('st-rate', "select 1;\n");
add_script('st-meta', "\\set x random(1, 10)\n\\if :x > 5\n\\set y 1\n\\endif\n");

my $clients_in = "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx client%'";
my %states = (
	'sleep in a transaction' => {
		script => 'st-sleep-tx',
		ready  => "$clients_in AND state = 'idle in transaction'",
		count  => 2 },
	'a huge sleep' => {
		script => 'st-sleep-huge',
		ready  => "SELECT coalesce(max(seconds_sampled), 0) >= 1 FROM pgbenchx.progress",
		count  => 't' },
	'a lock wait' => {
		script => 'st-lock',
		ready  => "$clients_in AND wait_event_type = 'Lock'",
		count  => 2 },
	'a pipeline with a pg_sleep' => {
		script   => 'st-pipeline',
		protocol => 'extended',
		ready    => "$clients_in AND wait_event = 'PgSleep'",
		count    => 2 },
	'connecting' => {
		script   => 'st-connect',
		conninfo => "host=127.0.0.1 port=$fake_port dbname=postgres",
		ready    => "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pgbenchx driver' AND query = 'connecting'",
		count    => 1,
		settle   => 1.5 },
	'meta-commands only (nothing to wait for)' => {
		script => 'st-meta',
		ready  => "SELECT coalesce(max(seconds_sampled), 0) >= 1 FROM pgbenchx.progress",
		count  => 't' },
	'between transactions under a rate limit' => {
		script => 'st-rate',
		rate   => 0.02,
		ready  => "SELECT coalesce(max(seconds_sampled), 0) >= 1 FROM pgbenchx.progress",
		count  => 't' },
);
# each signal: the status it leaves, and its expression for signal_at
my %signals = (
	'cancel' => [ 'cancelled', sub { "pgbenchx.cancel($_[0])" } ],
	'terminate the driver' => [ 'failed',
		sub { "(SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE backend_type = 'pgbenchx driver')" } ],
	'terminate the coordinator' => [ 'aborted',
		sub { "(SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE backend_type = 'pgbenchx coordinator')" } ],
);

sub start_in_state
{
	my ($st) = @_;
	my $args = "2, 600, '$st->{script}', jobs => 1, vacuum => false, checkpoint => false";
	$args .= ", protocol => '$st->{protocol}'" if $st->{protocol};
	$args .= ", conninfo => '$st->{conninfo}'" if $st->{conninfo};
	$args .= ", rate => $st->{rate}" if $st->{rate};
	my $id = q1("SELECT run_bench($args)");
	$node->poll_query_until('postgres', $st->{ready}, $st->{count})
	  or die "run $id never reached its state";
	usleep(($st->{settle} // 0.3) * 1e6);
	return $id;
}

# nothing left; returns the seconds by the server's clock from since (an
# epoch) to the look that found nothing (the polls' own psql calls included)
sub gone_within
{
	my ($what, $since) = @_;
	ok(nothing_left($node), "$what: nothing left");
	return q1("SELECT round((extract(epoch FROM clock_timestamp()) - $since)::numeric, 3)");
}

for my $state (sort keys %states)
{
	for my $signal (sort keys %signals)
	{
		my ($expect, $send) = @{ $signals{$signal} };
		my $id = start_in_state($states{$state});
		is(run_row($id, 'status'), 'running', "$state: the run is running before $signal");
		my (undef, $t_signal) = signal_at($node, $send->($id));
		my $took = ended_within('runs', 'run_id', $id, $t_signal);
		cmp_ok($took, '<', 10, "$state, $signal: the run ended within seconds ($took s)");
		is(run_row($id, 'status'), $expect, "$state, $signal: the run reads $expect");
		# (with the polls' psql calls: a bound for a loaded machine, far
		# below the run's 600 s)
		my $gone = gone_within("$state, $signal", $t_signal);
		cmp_ok($gone, '<', 30, "$state, $signal: its processes left within seconds ($gone s)");
		is(q1("SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'lockme' AND NOT l.granted"),
			'0', "$state, $signal: no one waits on the lock any more");
	}
}

# a script with nothing to wait for still ends with its duration
{
	my $id = q1("SELECT run_bench(2, 2, 'st-meta', jobs => 1, vacuum => false, checkpoint => false)");
	my $took = ended_within('runs', 'run_id', $id);
	cmp_ok($took, '<', 10, "meta-commands only: a 2 s run ended $took s after its launch");
	is(run_row($id, "status || ' ' || (transactions > 1000)"), 'completed true',
		'meta-commands only: completed, with its transactions');
}

# ---------------------------------------------------------------------
# Bounded memory: a 10 MB variable and 40 clients in one driver
# ---------------------------------------------------------------------
{
	add_script('mem', "select 1;\n\\sleep 100 ms\n");
	my $id = q1("SELECT run_bench(40, 600, 'mem', jobs => 1, vacuum => false, checkpoint => false, variables => jsonb_build_object('big', repeat('x', 10000000)))");
	run_sampled($node, "run_id = $id") or die 'memory run never sampled';
	my $pid = q1("SELECT pid FROM pg_stat_activity WHERE backend_type = 'pgbenchx driver'");
	my $status = slurp_file("/proc/$pid/status");
	my ($anon) = $status =~ /^RssAnon:\s+(\d+) kB/m;
	cmp_ok($anon, '<', 100_000, "a 10 MB variable and 40 clients: the driver holds $anon kB of its own, not 400 MB");
	q1("SELECT pgbenchx.cancel($id)");
	ended_within('runs', 'run_id', $id);
	ok(nothing_left($node), 'memory run: nothing left');
}

# ---------------------------------------------------------------------
# \sleep beyond pgbench's int: 2148 s wraps negative and sleeps not at all
# ---------------------------------------------------------------------
{
	add_script('sleep-wrap', "\\sleep 2148\nselect 1;\n");
	my $id = q1("SELECT run_bench(1, NULL, 'sleep-wrap', transactions => 20, vacuum => false, checkpoint => false)");
	my $took = ended_within('runs', 'run_id', $id);
	is(run_row($id, "status || ' ' || transactions"), 'completed 20', '\sleep 2148 wraps as in pgbench: no sleep');
	cmp_ok($took, '<', 15, "\\sleep 2148: 20 transactions in $took s from the launch");
}

# ---------------------------------------------------------------------
# Echoed input is cut: a 1 MB statement, value and name
# ---------------------------------------------------------------------
{
	my $log_before = -s $node->logfile;
	q1(q{SELECT pgbenchx.add_script('huge-stmt', 'select ''' || repeat('x', 1000000) || '''::int;' || chr(10), true)});
	my $id = q1("SELECT run_bench(1, NULL, 'huge-stmt', transactions => 1, vacuum => false, checkpoint => false)");
	ended_within('runs', 'run_id', $id);
	is(run_row($id, 'status'), 'failed', '1 MB failing statement: the run failed');
	like(run_row($id, 'error'), qr/invalid input syntax.*\.\.\.$/s, '1 MB failing statement: the error is cut with "..."');
	cmp_ok(run_row($id, 'octet_length(error)'), '<=', 404, '1 MB failing statement: the stored error is short');

	add_script('sleep-var', "\\sleep :v\n");
	$id = q1("SELECT run_bench(1, NULL, 'sleep-var', transactions => 1, vacuum => false, checkpoint => false, variables => jsonb_build_object('v', repeat('y', 1000000)))");
	ended_within('runs', 'run_id', $id);
	like(run_row($id, 'error'), qr/invalid sleep time "y{100}\.\.\." for variable "v"/,
		'1 MB variable value: echoed cut, with the variable named after it');

	my ($ret, $out, $err) = $node->psql('postgres',
		"SELECT run_bench(1, 1, 'select-only', variables => jsonb_build_object('-' || repeat('z', 1000000), 1))");
	like($err, qr/invalid variable name: "-z{199}\.\.\."/, '1 MB variable name: the error echoes 200 bytes');
	cmp_ok(length($err), '<', 2000, '1 MB variable name: the whole error is short');
	($ret, $out, $err) = $node->psql('postgres', "SELECT run_bench(1, 1, repeat('q', 1000000))");
	cmp_ok(length($err), '<', 2000, '1 MB script name: the error is short');
	($ret, $out, $err) = $node->psql('postgres', "SELECT run_bench(1, 1, 'select-only', protocol => repeat('p', 1000000))");
	cmp_ok(length($err), '<', 2000, '1 MB protocol: the error is short');

	# the extension's own lines in the server log are short (the server's
	# own ERROR and STATEMENT lines for a client's statement are the
	# server's logging, as for any client)
	my $log = slurp_file($node->logfile, $log_before);
	my @long = grep { length($_) > 1000 && /pgbenchx/ && !/STATEMENT:|\] pgbenchx client(?: \d+)? ERROR:/ } split /\n/, $log;
	is(scalar(@long), 0, 'no long pgbenchx line in the server log')
	  or diag(substr($long[0], 0, 300));
}

# ---------------------------------------------------------------------
# DROP DATABASE during a COPY script's run, in another database
# ---------------------------------------------------------------------
{
	q1('CREATE DATABASE victim');
	my $id = q1("SELECT run_bench(4, 600, 'copy-out-big', jobs => 2, vacuum => false, checkpoint => false, conninfo => 'dbname=victim')");
	my $t0 = time;
	# DROP DATABASE gives other sessions 5 s to leave; on a loaded machine
	# the clients' aborts can take longer than that, so it may be refused
	# ("being accessed by other users") and is tried again; before the fix
	# it waited forever on clients stuck in COPY (each try is cut at 60 s;
	# the tries, psql calls that take seconds each on a loaded machine, go
	# on for up to 100 s)
	my ($ret, $out, $err);
	for (;;)
	{
		($ret, $out, $err) = $node->psql('postgres', 'DROP DATABASE victim', timeout => 60);
		last if $ret == 0 || $err !~ /being accessed by other users/ || time - $t0 > 100;
	}
	my $took = time - $t0;
	is($ret, 0, "DROP DATABASE during a COPY run succeeded$err");
	cmp_ok($took, '<', 170, "DROP DATABASE took $took s");
	ended_within('runs', 'run_id', $id);
	is(run_row($id, 'status'), 'failed', 'the COPY run failed');
	ok(nothing_left($node), 'DROP DATABASE: nothing left');
}

# ---------------------------------------------------------------------
# A fast shutdown during a run stuck in a lock wait, a pipeline, a sleep,
# connecting
# ---------------------------------------------------------------------
{
	my $id = start_in_state($states{'a lock wait'});
	my $took = fast_stop_seconds($node);
	ok($took =~ /^[0-9.]+$/ && $took < 20, "a fast shutdown during a lock wait took $took s by the server's log");
	$holder->finish;
	$node->start;
	ok(nothing_left($node), 'after the restart: nothing left');
	for my $state ('a pipeline with a pg_sleep', 'a huge sleep', 'connecting')
	{
		$id = start_in_state($states{$state});
		$took = fast_stop_seconds($node);
		ok($took =~ /^[0-9.]+$/ && $took < 20, "a fast shutdown during $state took $took s by the server's log");
		$node->start;
	}
}

kill 'KILL', $fake_pid;
waitpid($fake_pid, 0);
$node->stop;
done_testing();
