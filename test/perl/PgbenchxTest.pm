# PgbenchxTest: what the TAP tests share (they load it with FindBin).  A started cluster with pgbenchx
# created (pointed at a private install when PGX_EXTENSION_DESTDIR is set),
# and the check that a run left no worker or client behind.
package PgbenchxTest;

use strict;
use warnings;
use Exporter 'import';
use PostgreSQL::Test::Cluster;
use IPC::Run;

our @EXPORT = qw(pgbenchx_node nothing_left run_sampled signal_at finished_since lock_session unlock_session major_pgbench pgbenchx_cli);

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

# lock_session(node, table): a psql session that holds an ACCESS EXCLUSIVE
# lock on table until unlock_session(the returned handle) commits it.
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
