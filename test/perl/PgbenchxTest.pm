# PgbenchxTest: what the TAP tests share (they load it with FindBin).  A started cluster with pgbenchx
# created (pointed at a private install when PGX_EXTENSION_DESTDIR is set),
# and the check that a run left no worker or client behind.
package PgbenchxTest;

use strict;
use warnings;
use Exporter 'import';
use PostgreSQL::Test::Cluster;
use IPC::Run;
use PostgreSQL::Test::Utils ();
use Time::Local ();

our @EXPORT = qw(pgbenchx_node nothing_left run_sampled signal_at finished_since server_timed fast_stop_seconds add_held_script lock_session unlock_session major_pgbench pgbenchx_cli);

# pgbenchx_node(name, scale => N, conf => "setting = value\n", init => [...],
#               extension => 0)
# A started node with pgbenchx created in database postgres (unless
# extension => 0: the test creates it where it wants it) and, with scale,
# pgbench_init(scale).
sub pgbenchx_node
{
	my ($name, %opt) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);

	$node->init(@{ $opt{init} // [] });
	$node->append_conf('postgresql.conf',
		"extension_destdir = '$ENV{PGX_EXTENSION_DESTDIR}'")
	  if $ENV{PGX_EXTENSION_DESTDIR};
	$node->append_conf('postgresql.conf', "log_statement = none\n" . ($opt{conf} // ''));
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION pgbenchx')
	  if $opt{extension} // 1;
	$node->safe_psql('postgres', "SET client_min_messages = warning; SELECT pgbench_init($opt{scale})")
	  if defined $opt{scale};
	return $node;
}

# The stock pgbench of the major under test, the reference of the
# side-by-side tests: the one beside the pg_config first on PATH (PGXS's
# installcheck puts that major's bindir first).
sub major_pgbench
{
	my $bindir = `pg_config --bindir`;
	die "pg_config is not on PATH" unless defined $bindir && $bindir ne '';
	chomp $bindir;
	my $pgbench = "$bindir/pgbench";
	-x $pgbench or die "stock pgbench is needed at $pgbench";
	return $pgbench;
}

# The client program pgbenchx (src/cli/) where `make install` put it: the
# bindir of the pg_config first on PATH, under PGX_EXTENSION_DESTDIR when the
# tests run against a DESTDIR install (scripts/devtest.sh and test.sh on 15);
# PGX_CLI names another.
sub pgbenchx_cli
{
	return $ENV{PGX_CLI} if $ENV{PGX_CLI};
	my $bindir = `pg_config --bindir`;
	die "pg_config is not on PATH" unless defined $bindir && $bindir ne '';
	chomp $bindir;
	my $cli = ($ENV{PGX_EXTENSION_DESTDIR} // '') . "$bindir/pgbenchx";
	-x $cli or die "the pgbenchx client is needed at $cli (make install)";
	return $cli;
}

# Whether, within the framework's timeout, no pgbenchx worker and no client
# connection is left in pg_stat_activity.
sub nothing_left
{
	my ($node) = @_;
	return $node->poll_query_until('postgres',
		"SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchx%' OR application_name LIKE 'pgbenchx client%'");
}

# Whether, within the framework's timeout, the run in progress that matches
# where (a condition on pgbenchx.progress, e.g. "run_id = 5") has sampled
# at least seconds (default 1) of its measured interval.
sub run_sampled
{
	my ($node, $where, $seconds) = @_;
	$seconds //= 1;
	return $node->poll_query_until('postgres',
		"SELECT coalesce(max(seconds_sampled), 0) >= $seconds FROM pgbenchx.progress WHERE $where");
}

# signal_at(node, expr): runs "SELECT expr" (a cancel, a terminate; one
# expression, a scalar subquery for more) and returns
# its value and the server's clock_timestamp() (epoch) right after it.
# finished_since(node, where, epoch): seconds from that moment to the
# finished_at of the run matching where (a condition on pgbenchx.runs),
# rounded to 1 ms; '' while it has none.  Promptness is timed by the server's
# clock: the psql calls around a signal take seconds each on a loaded
# machine, and are not the run's doing.
sub signal_at
{
	my ($node, $expr) = @_;
	return split /\|/, $node->safe_psql('postgres', "SELECT $expr, extract(epoch FROM clock_timestamp())");
}

sub finished_since
{
	my ($node, $where, $t) = @_;
	return $node->safe_psql('postgres',
		"SELECT round((extract(epoch FROM finished_at) - $t)::numeric, 3) FROM pgbenchx.runs WHERE $where");
}

# server_timed(node, sql, psql options): runs sql (one statement; a CALL
# too) in one psql session between two readings of the server's clock;
# returns (exit code, sql's stdout, stderr, seconds between the readings,
# the second reading as epoch).  psql goes on after an error, to take the
# second reading; the exit code is then 3, as with ON_ERROR_STOP.
# What a statement takes, without the psql start and connection around it,
# which take seconds on a loaded machine.
sub server_timed
{
	my ($node, $sql, %opt) = @_;
	my $clock = 'SELECT extract(epoch FROM clock_timestamp());';
	my ($out, $err) = ('', '');
	# (the second reading is taken after a failing statement too)
	my $ret = $node->psql('postgres', "$clock\n$sql;\n$clock", stdout => \$out, stderr => \$err,
		on_error_stop => 0, %opt);
	# psql went on after an error: its exit code would say nothing of it
	$ret = 3 if defined $ret && $ret == 0 && $err =~ /\bERROR:  /;
	my @lines = split /\n/, $out;
	my ($t0, $t1) = (shift @lines, pop @lines);
	my $secs = defined $t1 && $t0 =~ /^[0-9.]+$/ && $t1 =~ /^[0-9.]+$/ ? sprintf('%.3f', $t1 - $t0) : 'unknown';
	return ($ret, join("\n", @lines), $err, $secs, $t1);
}

# fast_stop_seconds(node): stops the node with a fast shutdown and returns
# the seconds the server took, by its log (the framework's log_line_prefix
# starts with %m): from "received fast shutdown request" to "database
# system is shut down"; pg_ctl's own start and polls are not the server's
# doing.  'unknown' when a line is missing.
sub fast_stop_seconds
{
	my ($node) = @_;
	my $offset = -s $node->logfile;
	$node->stop('fast');
	my $log = PostgreSQL::Test::Utils::slurp_file($node->logfile, $offset);
	my ($from) = $log =~ /^(\d+-\d+-\d+ \d+:\d+:[0-9.]+) \S+ \[\d+\] LOG:  received fast shutdown request/m;
	my ($to) = $log =~ /^(\d+-\d+-\d+ \d+:\d+:[0-9.]+) \S+ \[\d+\] LOG:  database system is shut down/m;
	return 'unknown' unless defined $from && defined $to;
	return sprintf('%.3f', _log_epoch($to) - _log_epoch($from));
}

sub _log_epoch
{
	my ($y, $mo, $d, $h, $mi, $s) = $_[0] =~ /^(\d+)-(\d+)-(\d+) (\d+):(\d+):([0-9.]+)$/;
	return Time::Local::timegm(0, $mi, $h, $d, $mo - 1, $y) + $s;
}

# add_held_script(node): registers the script "held" in database postgres: a
# select-only transaction for client 0, and for every other client a 600 s
# \sleep first.  A run or a sweep's step of two clients or more then lasts
# until the test cancels, stops, kills or crashes it (an idle sleeper stops
# at once on a cancel), so that a check made while it is on never races its
# end, however slow a loaded machine makes the psql calls before it; a step
# of one client runs like select-only.
sub add_held_script
{
	my ($node) = @_;
	$node->safe_psql('postgres', q{SELECT pgbenchx.add_script('held', $s$\if :client_id >= 1
\sleep 600 s
\endif
\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
$s$)});
	return 'held';
}

# lock_session(node, table): a psql session that holds an ACCESS EXCLUSIVE
# lock on table until unlock_session(the returned handle) commits it.
# Holding pgbench_accounts keeps a select-only or tpcb-like run (with
# vacuum => false: the pre-run vacuum would wait too) on for as long as a
# test looks at it: its clients wait in their first transaction, and a
# client in flight at the end of the duration finishes its transaction, so
# the run ends, completed, only after the unlock.
sub lock_session
{
	my ($node, $table) = @_;
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(['psql', '-X', '-At', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres')],
		'<', \$in, '>', \$out, '2>', \$err);
	$in .= "BEGIN;\nLOCK TABLE $table IN ACCESS EXCLUSIVE MODE;\nSELECT 'locked';\n";
	$h->pump until $out =~ /locked/;
	return { h => $h, in => \$in };
}

sub unlock_session
{
	my ($s) = @_;
	${ $s->{in} } .= "COMMIT;\n\\q\n";
	$s->{h}->finish;
}

1;
