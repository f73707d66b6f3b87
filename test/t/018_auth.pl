# Loopback logins of a non-superuser: with SCRAM in pg_hba.conf the clients
# need the role's password in conninfo and log in as that role; they may
# not name another role or read the server account's files; trust
# authentication is refused for them (dblink's rule), so a non-superuser
# cannot borrow the server's identity.  A superuser keeps peer/trust.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('auth', scale => 1, conf => "password_encryption = 'scram-sha-256'\n");
$node->safe_psql('postgres', q{
	CREATE ROLE bench LOGIN PASSWORD 'bench-secret';
	SELECT pgbenchx.grant_runner('bench');
	GRANT SELECT, UPDATE, INSERT ON pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history TO bench;
});

# the test framework's own superuser connections stay trusted; every other
# role must use SCRAM
my $hba = $node->data_dir . '/pg_hba.conf';
open(my $fh, '>', $hba) or die;
print $fh "local all " . $node->safe_psql('postgres', 'SELECT current_user') . " trust\n";
print $fh "local all all scram-sha-256\n";
close $fh;
$node->reload;

# bench's own session (its password comes from the environment, like a DBA's)
sub as_bench
{
	my ($sql) = @_;
	local $ENV{PGPASSWORD} = 'bench-secret';
	my ($stdout, $stderr);
	my $ret = $node->psql('postgres', $sql, stdout => \$stdout, stderr => \$stderr,
		extra_params => [ '-U', 'bench' ]);
	return ($ret, $stdout, $stderr);
}

# a session with no password to give: the superuser's, as bench (on 18 bench's
# own SCRAM login would give its keys; SET ROLE is not the role that logged in)
my ($ret, $out, $err) = $node->psql('postgres', "SET ROLE bench; SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
isnt($ret, 0, 'a non-superuser without a password in conninfo or its session is refused');
like($err, qr/password is required/, 'with the reason');

($ret, $out, $err) = as_bench("SELECT run_bench(1, 1, 'select-only', checkpoint => false, conninfo => 'password=wrong')");
like($err, qr/could not connect to the server.*password authentication failed/s, 'a wrong password is refused with libpq\'s message');

($ret, $out, $err) = as_bench("SELECT run_bench(1, 1, 'select-only', checkpoint => false, conninfo => 'user=postgres password=bench-secret')");
like($err, qr/conninfo may not name another role/, 'a non-superuser cannot name another role');

($ret, $out, $err) = as_bench("SELECT run_bench(1, 1, 'select-only', checkpoint => false, conninfo => 'passfile=/tmp/x password=bench-secret')");
like($err, qr/conninfo may not use "passfile"/, 'nor read the server account\'s password file');

($ret, $out, $err) = as_bench("SELECT run_bench(2, 2, 'select-only', checkpoint => false, conninfo => 'password=bench-secret')");
is($ret, 0, 'with its password, a non-superuser runs a benchmark') or diag($err);
my ($id) = $out =~ /(\d+)/;
$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id") or die;
is($node->safe_psql('postgres', "SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'the run completes');
is($node->safe_psql('postgres', "SELECT conninfo FROM pgbenchx.runs WHERE run_id = $id"), "password='********'",
	'the password is not stored');
is($node->safe_psql('postgres', "SELECT owner FROM pgbenchx.runs WHERE run_id = $id"), 'bench',
	'the run records the role that started it');

# trust for everyone: a non-superuser's clients would not need the password
open($fh, '>', $hba) or die;
print $fh "local all all trust\n";
close $fh;
$node->reload;
($ret, $out, $err) = as_bench("SELECT run_bench(1, 1, 'select-only', checkpoint => false, conninfo => 'password=bench-secret')");
like($err, qr/password is required.*without asking for the password/s, 'trust authentication is refused for a non-superuser');

# a superuser may use trust/peer
my $sid = $node->safe_psql('postgres', "SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
$node->safe_psql('postgres', "CALL pgbenchx.wait($sid)");
is($node->safe_psql('postgres', "SELECT status FROM pgbenchx.runs WHERE run_id = $sid"), 'completed', 'a superuser runs without a password');

$node->stop;
done_testing();
