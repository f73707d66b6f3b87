# Every network wait has a deadline and yields to cancel, terminate and
# shutdown (docs/security.md, "What a runner can not do"), probed as an
# attacker would: the
# run's conninfo names an endpoint of ours (a Perl child process) that
#  (a) relays connections to the real server but takes a CancelRequest and
#      never answers it (PQcancel sat in recv() forever: the driver survived
#      pg_terminate_backend and a fast shutdown never finished);
#  (c) the same, reading and dropping what the cancel sends;
#  (d) the same, half-closing the cancel's connection;
#  and, once relaying, stops passing anything on (a network that drops
#  every packet) while the clients wait for their answers;
#  (b, c, d) for every connection: accepts and never answers, reads and
#  drops everything, half-closes right after accept; for the caller's login
#  check, for the benchmark clients only, and as a load generator.
# For each: pgbenchx.cancel, pg_terminate_backend of the driver and of the
# coordinator, and pg_ctl stop -m fast each end the run (cancelled, failed,
# aborted), every pgbenchx process leaves, and the server accepts new
# connections.  Deadlines are generous (60 s) and only say "never".
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
use Socket qw(SHUT_WR);
use Time::HiRes qw(usleep time);

my $node = pgbenchx_node('netdl', scale => 1,
	conf => "max_connections = 60\nmax_worker_processes = 16\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }

q1(q{SELECT pgbenchx.add_script('nd-sleep', $s$select pg_sleep(600);$s$, replace => true)});
q1(q{SELECT pgbenchx.add_script('nd-select', $s$select 1;$s$, replace => true)});

# ---------------------------------------------------------------------
# The endpoints
# ---------------------------------------------------------------------
my $frozen = 0;

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

sub forever { sleep 1 while 1; }

# what an endpoint does with a connection it does not relay
sub misbehave
{
	my ($c, $mode) = @_;
	my $buf;
	if ($mode eq 'silent')    # accepts, reads nothing, answers nothing
	{
		forever();
	}
	elsif ($mode eq 'drain')    # reads and drops everything, answers nothing
	{
		1 while sysread($c, $buf, 4096);
		forever();
	}
	elsif ($mode eq 'halfclose')    # no more from us, ever; reads on
	{
		shutdown($c, SHUT_WR);
		1 while sysread($c, $buf, 4096);
		forever();
	}
	die "unknown mode $mode";
}

sub relay
{
	my ($c, $first, $sockpath) = @_;
	my $s = IO::Socket::UNIX->new(Peer => $sockpath) or return;
	syswrite($s, $first);
	my $sel = IO::Select->new($c, $s);
	for (;;)
	{
		forever() if $frozen;    # drop everything, keep both ends open
		for my $r ($sel->can_read(0.2))
		{
			last if $frozen;
			my $buf;
			return unless sysread($r, $buf, 65536);
			syswrite($r == $c ? $s : $c, $buf);
		}
	}
}

sub serve
{
	my ($c, $o, $sockpath) = @_;
	return misbehave($c, $o->{all}) if $o->{all};
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
		if ($code == 80877102)    # a CancelRequest
		{
			return misbehave($c, $o->{cancel}) if $o->{cancel};
		}
		last;
	}
	forever() if $frozen;
	return misbehave($c, $o->{clients}) if $o->{clients} && $pkt =~ /pgbenchx client/;
	relay($c, $pkt, $sockpath);
}

# the endpoints still running, stopped at the end whatever happened (the
# children leave with POSIX::_exit, so this runs in the test alone)
my %endpoints;
END { kill 'KILL', -$_ for keys %endpoints; }

# Start an endpoint; returns (pid, port).  The endpoint and its children
# are one process group, stopped by its pid.
sub endpoint
{
	my (%o) = @_;
	my $l = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Listen => 64, ReuseAddr => 1)
	  or die "endpoint: $!";
	my $port = $l->sockport;
	my $sockpath = $node->host . '/.s.PGSQL.' . $node->port;
	my $pid = fork() // die 'fork';
	if ($pid == 0)
	{
		# never returns: no END block of the test may run in here
		POSIX::setpgid(0, 0);
		$SIG{CHLD} = 'IGNORE';
		$SIG{USR1} = sub { $frozen = 1; };
		eval {
			while (1)
			{
				my $c = $l->accept or next;
				my $child = fork();
				if (defined $child && $child == 0)
				{
					close $l;
					eval { serve($c, \%o, $sockpath); };
					POSIX::_exit(0);
				}
				close $c;
			}
		};
		POSIX::_exit(0);
	}
	close $l;
	$endpoints{$pid} = 1;
	return ($pid, $port);
}

sub endpoint_stop
{
	my ($pid) = @_;
	kill 'KILL', -$pid;
	waitpid($pid, 0);
	delete $endpoints{$pid};
}

# ---------------------------------------------------------------------
# Polls with a generous deadline (never a timed assertion)
# ---------------------------------------------------------------------
sub poll_until
{
	my ($sql, $expect, $secs) = @_;
	my $end = time + ($secs // 60);
	while (time < $end)
	{
		my ($ret, $out) = $node->psql('postgres', $sql);
		return 1 if $ret == 0 && $out eq $expect;
		usleep(200_000);
	}
	return 0;
}

my $gone_sql = "SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchx%' OR application_name LIKE 'pgbenchx client%'";
my $workers_gone_sql = "SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchx%'";
my $clients_sleeping = "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx client%' AND wait_event = 'PgSleep'";
my $clients_connecting = "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pgbenchx driver' AND query = 'connecting'";

sub run_status { return q1("SELECT status FROM pgbenchx.runs WHERE run_id = $_[0]"); }

my %signals = (
	'pgbenchx.cancel' => [ 'cancelled', sub { q1("SELECT pgbenchx.cancel($_[0])") } ],
	'terminate the driver' => [ 'failed',
		sub { q1("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'pgbenchx driver'") } ],
	'terminate the coordinator' => [ 'aborted',
		sub { q1("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'pgbenchx coordinator'") } ],
);

# a fast shutdown finishes (pg_ctl's own wait bounded to 60 s); the server
# then starts and accepts connections, and no row is left running
sub fast_stop_ok
{
	my ($what, $id) = @_;
	my $stopped;
	{
		local $ENV{PGCTLTIMEOUT} = 60;
		$stopped = $node->stop('fast', fail_ok => 1);
	}
	ok($stopped, "$what, pg_ctl stop -m fast: the server stopped");
	if (!$stopped)
	{
		# what the old code left: the driver hangs on; end it for the rest
		$node->stop('immediate', fail_ok => 1);
	}
	$node->start;
	is(q1('SELECT 1'), '1', "$what, after the fast shutdown: the server accepts connections");
	if (defined $id)
	{
		# the first wait marks a run a shutdown left running as aborted
		$node->psql('postgres', "CALL pgbenchx.wait($id)");
		like(run_status($id), qr/^(aborted|cancelled)$/,
			"$what, after the fast shutdown: run $id reads aborted or cancelled");
	}
}

# start a run through the endpoint and wait until it is in its state
sub start_run
{
	my ($port, $script, $ready, $count) = @_;
	my $id = q1("SELECT run_bench(2, 600, '$script', jobs => 1, vacuum => false, checkpoint => false, conninfo => 'host=127.0.0.1 port=$port dbname=postgres sslmode=disable')");
	poll_until($ready, $count, 120) or die "run $id never reached its state";
	usleep(300_000);
	return $id;
}

# what: the case; start: starts a run in its state and returns its id;
# gone: the count that must reach 0 (default: every worker and client)
sub signals_end_it
{
	my ($what, $start, $gone, $gone_what) = @_;
	$gone //= $gone_sql;
	$gone_what //= 'every pgbenchx process and client left';
	for my $signal (sort keys %signals)
	{
		my ($expect, $send) = @{ $signals{$signal} };
		my $id = $start->();
		is(run_status($id), 'running', "$what: the run is running before $signal");
		$send->($id);
		ok(poll_until("SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id", 't'),
			"$what, $signal: the run ended");
		is(run_status($id), $expect, "$what, $signal: the run reads $expect");
		ok(poll_until($gone, '0'), "$what, $signal: $gone_what");
	}
	my $id = $start->();
	fast_stop_ok($what, $id);
}

# ---------------------------------------------------------------------
# (a, c, d) a relay whose CancelRequests are never answered, with the
# clients in pg_sleep: their queries are in flight, so every way out of
# the driver sends a cancel
# ---------------------------------------------------------------------
for my $mode ('silent', 'drain', 'halfclose')
{
	my ($pid, $port) = endpoint(cancel => $mode);
	signals_end_it("cancel requests $mode",
		sub { start_run($port, 'nd-sleep', $clients_sleeping, 2) });
	endpoint_stop($pid);
}

# ---------------------------------------------------------------------
# A relay that stops passing anything on mid-run (every packet dropped,
# both ends kept open) and never answers a cancel
# ---------------------------------------------------------------------
{
	my $what = 'a network that drops every packet mid-run';
	my $pid;
	my $start = sub {
		if ($pid)
		{
			endpoint_stop($pid);
			poll_until($gone_sql, '0') or die 'the client backends of the last relay stayed';
		}
		my $port;
		($pid, $port) = endpoint(cancel => 'silent');
		my $id = q1("SELECT run_bench(2, 600, 'nd-select', jobs => 1, vacuum => false, checkpoint => false, conninfo => 'host=127.0.0.1 port=$port dbname=postgres sslmode=disable')");
		run_sampled($node, "run_id = $id") or die "run $id never sampled";
		kill 'USR1', -$pid;
		# the clients now wait for answers that never come
		usleep(1_000_000);
		return $id;
	};
	# the client backends' own client is the relay, alive and silent: they
	# stay until it goes, as behind any such network; the workers do not
	signals_end_it($what, $start, $workers_gone_sql, 'every pgbenchx worker left');
	endpoint_stop($pid);
	ok(poll_until($gone_sql, '0'), "$what: the relay gone, its client backends left");
}

# ---------------------------------------------------------------------
# (b, c, d) for the benchmark clients only: they never get connected
# ---------------------------------------------------------------------
for my $mode ('silent', 'drain')
{
	my ($pid, $port) = endpoint(clients => $mode);
	signals_end_it("benchmark clients' endpoint $mode",
		sub { start_run($port, 'nd-select', $clients_connecting, 1) });
	endpoint_stop($pid);
}
{
	my ($pid, $port) = endpoint(clients => 'halfclose');
	my $id = q1("SELECT run_bench(2, 600, 'nd-select', jobs => 1, vacuum => false, checkpoint => false, conninfo => 'host=127.0.0.1 port=$port dbname=postgres sslmode=disable')");
	ok(poll_until("SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id", 't'),
		'clients half-closed at once: the run ended');
	is(run_status($id), 'failed', 'clients half-closed at once: the run reads failed');
	like(q1("SELECT error FROM pgbenchx.runs WHERE run_id = $id"), qr/could not connect/,
		'clients half-closed at once: the error says the client could not connect');
	ok(poll_until($gone_sql, '0'), 'clients half-closed at once: every pgbenchx process left');
	endpoint_stop($pid);
}

# ---------------------------------------------------------------------
# (b, c, d) for every connection: the caller's login check
# ---------------------------------------------------------------------
for my $mode ('silent', 'drain', 'halfclose')
{
	my ($pid, $port) = endpoint(all => $mode);
	my $what = "every connection $mode";

	# connect_timeout is kept, though libpq keeps it only in PQconnectdb
	my ($ret, $out, $err) = $node->psql('postgres',
		"SELECT run_bench(2, 5, 'nd-select', conninfo => 'host=127.0.0.1 port=$port dbname=postgres sslmode=disable connect_timeout=2')",
		timeout => 60);
	isnt($ret, 0, "$what: run_bench with connect_timeout=2 fails");
	like($err, $mode eq 'halfclose' ? qr/server closed the connection|could not/ : qr/timeout expired/,
		"$what: the error says why") or diag($err);

	if ($mode eq 'halfclose')    # fails at once: nothing to interrupt
	{
		endpoint_stop($pid);
		next;
	}

	# a caller waiting in its login check yields to cancel and terminate
	for my $how ('pg_cancel_backend', 'pg_terminate_backend')
	{
		my ($in, $o, $e) = ('', '', '');
		my $h = IPC::Run::start(
			[ 'psql', '-X', '-d', $node->connstr('postgres') . ' application_name=nd-caller',
			  '-c', "SELECT run_bench(2, 5, 'nd-select', conninfo => 'host=127.0.0.1 port=$port dbname=postgres sslmode=disable connect_timeout=600')" ],
			'<', \$in, '>', \$o, '2>', \$e);
		poll_until("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'nd-caller' AND state = 'active'", '1')
		  or die 'the caller never started';
		usleep(500_000);
		q1("SELECT $how(pid) FROM pg_stat_activity WHERE application_name = 'nd-caller'");
		ok(poll_until("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'nd-caller' AND state = 'active'", '0'),
			"$what: $how ends a caller waiting in its login check");
		$h->finish;
		like($e, $how eq 'pg_cancel_backend' ? qr/canceling statement/ : qr/terminating connection|server closed/,
			"$what: the caller was told ($how)");
	}

	# and a fast shutdown does not wait for it
	{
		my ($in, $o, $e) = ('', '', '');
		my $h = IPC::Run::start(
			[ 'psql', '-X', '-d', $node->connstr('postgres') . ' application_name=nd-caller',
			  '-c', "SELECT run_bench(2, 5, 'nd-select', conninfo => 'host=127.0.0.1 port=$port dbname=postgres sslmode=disable connect_timeout=600')" ],
			'<', \$in, '>', \$o, '2>', \$e);
		poll_until("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'nd-caller' AND state = 'active'", '1')
		  or die 'the caller never started';
		usleep(500_000);
		fast_stop_ok("$what, a caller in its login check");
		$h->finish;
	}
	endpoint_stop($pid);
}

# ---------------------------------------------------------------------
# (b, c, d) as a load generator: the recorder's pre-flight gives up (its
# own deadlines) and yields to a cancel of its caller
# ---------------------------------------------------------------------
for my $mode ('silent', 'drain', 'halfclose')
{
	my ($pid, $port) = endpoint(all => $mode);
	my $what = "a generator endpoint $mode";
	my $gen = "ARRAY['host=127.0.0.1 port=$port dbname=postgres sslmode=disable'], conninfo => 'host="
	  . $node->host . ' port=' . $node->port . " dbname=postgres'";
	my ($ret, $out, $err) = $node->psql('postgres',
		"SELECT run_bench(2, 5, 'nd-select', generators => $gen, vacuum => false, checkpoint => false)",
		timeout => 60);
	ok(defined $ret && $ret != 0, "$what: run_bench is refused");
	like($err, qr/generator 1/, "$what: the refusal names the generator") or diag($err);
	if ($mode ne 'halfclose')
	{
		my ($in, $o, $e) = ('', '', '');
		my $h = IPC::Run::start(
			[ 'psql', '-X', '-d', $node->connstr('postgres') . ' application_name=nd-caller',
			  '-c', "SELECT run_bench(2, 5, 'nd-select', generators => $gen, vacuum => false, checkpoint => false)" ],
			'<', \$in, '>', \$o, '2>', \$e);
		poll_until("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'nd-caller' AND state = 'active'", '1')
		  or die 'the caller never started';
		usleep(500_000);
		q1("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'nd-caller'");
		ok(poll_until("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'nd-caller' AND state = 'active'", '0'),
			"$what: pg_cancel_backend ends a caller waiting in the pre-flight");
		$h->finish;
	}
	endpoint_stop($pid);
}

ok(poll_until($gone_sql, '0'), 'at the end: nothing left');
$node->stop;
done_testing();
