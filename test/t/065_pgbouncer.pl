# Runs through a connection pooler (issue 25): Debian's pgbouncer in front of
# the server, with its usual settings (ignore_startup_parameters =
# extra_float_digits, nothing more), in session and in transaction pooling
# mode.  The clients, the login check and the maintenance all reach the
# server through the pooler (conninfo names its host and port); the pooler
# refuses the "options" startup parameter pgbench never sends, so after the
# login check met that refusal none of them sends pgbenchx's own.  Checks: simple and extended runs complete in both
# modes, and pgbouncer's own statistics count their transactions;
# prepared under transaction pooling fails for pgbench (a client's
# prepared statement is not on the server connection its next transaction
# gets) and fails the same way here, side by side with stock pgbench; an
# options parameter the caller puts in conninfo is refused by the pooler
# with an error that says so.  Skipped, with one line, where pgbouncer is
# not installed (scripts/test.sh installs it).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $pgbouncer_bin = '/usr/sbin/pgbouncer';
plan skip_all => "pgbouncer is not installed ($pgbouncer_bin)" unless -x $pgbouncer_bin;

my $node = pgbenchx_node('pooled', scale => 1);
my $pgbench = major_pgbench();
# libpq 19 asks for a newer protocol version (3.2 and up) that pgbouncer
# 1.18 answers with "bad packet header": there, every connection to the
# pooler (psql, stock pgbench, pgbenchx's clients) asks for 3.0, as pgbench
# would have to (max_protocol_version exists from libpq 18)
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
my $proto = $major >= 18 ? ' max_protocol_version=3.0' : '';
sub q1 { return $node->safe_psql('postgres', $_[0]); }

sub ended
{
	my ($id) = @_;
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
	  or die "run $id never ended";
}

# every pooler started, stopped however the test ends
my @poolers;
END { $_->kill_kill for grep { $_->pumpable } @poolers; }

# a pgbouncer in front of the node, in the given pool mode, with pool_size
# server connections at most (default 20): [handle, port]
sub start_pooler
{
	my ($mode, $pool_size) = @_;
	$pool_size //= 20;
	my $dir = $node->basedir . "/pgbouncer-$mode-$pool_size";
	mkdir $dir or die "cannot create $dir: $!";
	my $port = PostgreSQL::Test::Cluster::get_free_port();
	my $user = q1('SELECT current_user');
	PostgreSQL::Test::Utils::append_to_file("$dir/userlist.txt", qq{"$user" ""\n});
	PostgreSQL::Test::Utils::append_to_file("$dir/pgbouncer.ini", <<"EOC");
[databases]
postgres = host=@{[ $node->host ]} port=@{[ $node->port ]} dbname=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/userlist.txt
admin_users = $user
pool_mode = $mode
ignore_startup_parameters = extra_float_digits
max_client_conn = 100
default_pool_size = $pool_size
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
EOC
	my $h = IPC::Run::start([ $pgbouncer_bin, "$dir/pgbouncer.ini" ],
		'>', "$dir/stdout", '2>', "$dir/stderr");
	push @poolers, $h;
	# up when its admin console answers
	my $up = 0;
	for (1 .. 100)
	{
		my $rc = system("psql -X -q -d 'host=127.0.0.1 port=$port user=$user dbname=pgbouncer$proto' -c 'SHOW VERSION' >/dev/null 2>&1");
		if ($rc == 0) { $up = 1; last; }
		select(undef, undef, undef, 0.1);
	}
	$up or die "pgbouncer ($mode) did not start: " . slurp_file("$dir/stderr");
	return ($h, $port, $user);
}

# pgbouncer's count of transactions it passed to database postgres
sub pooled_xacts
{
	my ($port, $user) = @_;
	my $out = `psql -X -At -F '|' -d 'host=127.0.0.1 port=$port user=$user dbname=pgbouncer$proto' -c 'SHOW STATS'`;
	for my $line (split /\n/, $out)
	{
		my @f = split /\|/, $line;
		return $f[1] if $f[0] eq 'postgres';    # database | total_xact_count | ...
	}
	return 0;
}

for my $mode (qw(session transaction))
{
	my ($h, $port, $user) = start_pooler($mode);
	my $ci = "host=127.0.0.1 port=$port dbname=postgres$proto";

	for my $protocol (qw(simple extended))
	{
		my $before = pooled_xacts($port, $user);
		my $id = q1("SELECT run_bench(4, 2, 'select-only', jobs => 1, protocol => '$protocol', conninfo => '$ci')");
		ended($id);
		my ($status, $tx, $err) = split /\|/,
		  q1("SELECT status, transactions, coalesce(error, '') FROM pgbenchx.runs WHERE run_id = $id");
		is($status, 'completed', "$mode pooling, $protocol: the run completed $err");
		cmp_ok($tx, '>', 0, "$mode pooling, $protocol: it ran transactions");
		cmp_ok(pooled_xacts($port, $user) - $before, '>=', $tx,
			"$mode pooling, $protocol: every one went through the pooler");
	}

	# clients through a pooler share one application_name, as pgbench's
	# share "pgbench": with one each, pgbouncer in transaction mode set it on
	# the server connection before about every transaction (issue 25).  Its
	# server connections stay, idle, with the last name set (in session
	# mode the reset query on release clears it).
	if ($mode eq 'transaction')
	{
		is(q1("SELECT count(*) FROM pg_stat_activity WHERE application_name ~ '^pgbenchx client [0-9]'"),
			'0', "$mode pooling: no server connection was named after one client");
		cmp_ok(q1("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbenchx client'"),
			'>', 0, "$mode pooling: the pooler's server connections carry the clients' shared name");
	}

	if ($mode eq 'transaction')
	{
		# prepared: pgbench's clients may fail (exit 2), and so may pgbenchx's.
		# Through a pooler of 2 server connections for 4 clients, so that
		# some client's statement meets a connection another client prepared
		# on, or one it did not prepare on: with 20, each client could keep
		# a connection of its own for the 2 s and no error at all (a CI run on 17).
		my ($h2, $port2) = start_pooler($mode, 2);
		my $ci2 = "host=127.0.0.1 port=$port2 dbname=postgres$proto";
		my ($out, $err) = ('', '');
		IPC::Run::run([ $pgbench, '-n', '-S', '-M', 'prepared', '-c', '4', '-j', '1', '-T', '2', $ci2 ],
			'>', \$out, '2>', \$err);
		my $rc = $? >> 8;
		# stock pgbench logs a PREPARE that failed (the statement another
		# client prepared on that server connection) and goes on; it aborts
		# a client (exit 2) only when a statement is missing where it runs,
		# which depends on the pooler's timing: exit 0 and 2 both occur
		ok($rc == 0 || $rc == 2, "prepared under transaction pooling: stock pgbench ends (exit $rc)");
		like($err, qr/prepared statement "\w+" (does not exist|already exists)/, 'pgbench: a prepared statement is missing or already there');
		# pgbenchx does the same: a failed PREPARE is counted as a notice
		# (kept in notice_samples) and the client goes on; a statement
		# missing where it runs aborts the client and fails the run
		my $id = q1("SELECT run_bench(4, 2, 'select-only', jobs => 1, protocol => 'prepared', conninfo => '$ci2')");
		ended($id);
		my ($status, $aborted, $error, $samples) = split /\|/,
		  q1("SELECT status, aborted_clients, coalesce(error, ''), coalesce(array_to_string(notice_samples, ' / '), '') "
			. "FROM pgbenchx.runs WHERE run_id = $id");
		ok(($status eq 'completed' && $aborted == 0) || ($status eq 'failed' && $aborted > 0),
			"pgbenchx: the run $status with $aborted clients aborted, as pgbench's ends");
		like("$error $samples", qr/prepared statement "\w+" (does not exist|already exists)/,
			'pgbenchx: the same errors, in the run\'s error or its notices');
		$h2->kill_kill;
		$h2->finish;
	}
	else
	{
		# the caller's own options: the pooler refuses it, and the error says so
		my ($ret, $out, $err) = $node->psql('postgres',
			"SELECT run_bench(1, 1, 'select-only', conninfo => '$ci options=''-c work_mem=8MB''')");
		isnt($ret, 0, 'options in conninfo, through a pooler that refuses it: refused');
		like($err, qr/unsupported startup parameter: options/, 'the pooler\'s own message is shown');
		like($err, qr/HINT:.*startup parameter/, 'the hint names the startup parameter, not pg_hba.conf');
		unlike($err, qr/pg_hba/, 'and does not send the user to pg_hba.conf');
	}

	$h->kill_kill;
	$h->finish;
}

ok(nothing_left($node), 'nothing left');
$node->stop;
done_testing();
