# A non-superuser's connections use only secrets the caller supplied, on
# every connection (issue 20, section 5), probed as an attacker: alice is a
# runner with a SCRAM password, and the server's OS account has a password
# file holding alice's and the superuser's passwords, handed to every
# postmaster through PGPASSFILE in its environment, with a root
# certificate in PGSSLROOTCERT.  Every conninfo keyword
# that names a server file is refused, in every spelling (mixed case,
# whitespace, the URI form, percent-encoded), and so is a socket directory
# other than the server's own; a conninfo without password is
# refused though the password file would log alice in (the run's and a
# generator's); a two-host generator conninfo whose first host goes down
# between the steps of a sweep fails over to a trust server, and that step
# is refused; a superuser keeps the password file and trust.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

# the server account's password file, in every postmaster's environment
my $pgpass = PostgreSQL::Test::Utils::tempdir() . '/pgpass';
open(my $pf, '>', $pgpass) or die;
print $pf "*:*:*:alice:alice-secret\n*:*:*:*:superuser-secret\n";
close $pf;
chmod 0600, $pgpass;
$ENV{PGPASSFILE} = $pgpass;
# and a root certificate in the environment: R's own, self-signed, so that
# verify-ca would pass with it
my $ssldir = PostgreSQL::Test::Utils::tempdir();
system('openssl', 'req', '-new', '-x509', '-nodes', '-days', '2', '-subj', '/CN=localhost',
	'-keyout', "$ssldir/server.key", '-out', "$ssldir/server.crt", '-loglevel', 'error') == 0
  or system('openssl', 'req', '-new', '-x509', '-nodes', '-days', '2', '-subj', '/CN=localhost',
	'-keyout', "$ssldir/server.key", '-out', "$ssldir/server.crt") == 0
  or die 'openssl failed';
chmod 0600, "$ssldir/server.key";
$ENV{PGSSLROOTCERT} = "$ssldir/server.crt";

my $conf = "password_encryption = 'scram-sha-256'\n";
# R also answers over TCP with SSL, an endpoint that answers the SSL request
my $r = pgbenchx_node('rec', scale => 1, conf => $conf . "listen_addresses = '127.0.0.1'\nssl = on\n"
	  . "ssl_cert_file = '$ssldir/server.crt'\nssl_key_file = '$ssldir/server.key'\n");
my $g = pgbenchx_node('gen', conf => $conf);
my $t = pgbenchx_node('trusting', extension => 0, conf => $conf);
my $su = $r->safe_psql('postgres', 'SELECT current_user');

# scram for every role but the framework's superuser on R and G; trust on T
for my $n ($r, $g)
{
	$n->safe_psql('postgres', q{
		CREATE ROLE alice LOGIN PASSWORD 'alice-secret';
		SELECT pgbenchx.grant_runner('alice');
	});
	open(my $fh, '>', $n->data_dir . '/pg_hba.conf') or die;
	print $fh "local all $su trust\nlocal all all scram-sha-256\n"
	  . "host all $su 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 scram-sha-256\n";
	close $fh;
	$n->reload;
}
$r->safe_psql('postgres',
	'GRANT SELECT, UPDATE, INSERT ON pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history TO alice');
$t->safe_psql('postgres', 'CREATE ROLE alice LOGIN');
{
	open(my $fh, '>', $t->data_dir . '/pg_hba.conf') or die;
	print $fh "local all all trust\n";
	close $fh;
	$t->reload;
}

sub ci { my ($n) = @_; return 'host=' . $n->host . ' port=' . $n->port . ' dbname=postgres'; }
my ($cr, $cg, $ct) = (ci($r), ci($g), ci($t));

# alice's session on R; her own password comes from PGPASSWORD
sub as_alice
{
	my ($sql) = @_;
	local $ENV{PGPASSWORD} = 'alice-secret';
	my ($stdout, $stderr);
	my $ret = $r->psql('postgres', "SET client_min_messages = warning; $sql",
		stdout => \$stdout, stderr => \$stderr, extra_params => [ '-U', 'alice' ]);
	return $ret == 0 ? "accepted: $stdout" : $stderr;
}

sub finished
{
	my ($node, $id) = @_;
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
	  or die "run $id did not end";
	return $node->safe_psql('postgres', "SELECT status || coalesce(': ' || error, '') FROM pgbenchx.runs WHERE run_id = $id");
}

sub bench { my ($ci, $extra) = @_; $extra //= ''; return "SELECT run_bench(1, 1, 'select-only', checkpoint => false, conninfo => \$c\$$ci\$c\$$extra)"; }

# --- the premise: the server's libpq does read the password file ------------
my $id = $r->safe_psql('postgres', "SET client_min_messages = warning; " . bench('user=alice'));
is(finished($r, $id), 'completed',
	'a superuser\'s clients log in as alice with the password from the server account\'s password file');

# and its root certificate from PGSSLROOTCERT
my $tcp = 'host=127.0.0.1 port=' . $r->port . ' dbname=postgres';
$id = $r->safe_psql('postgres', "SET client_min_messages = warning; " . bench("$tcp sslmode=verify-ca user=alice"));
is(finished($r, $id), 'completed',
	'a superuser\'s clients verify the server with the root certificate of the server\'s environment');

# --- the environment's files are never read for alice ------------------------
like(as_alice(bench("$tcp sslmode=verify-ca password=alice-secret")),
	qr/could not connect.*root certificate file "[^"]*" does not exist/s,
	'for alice the root certificate of PGSSLROOTCERT is not read: verify-ca finds none');
$id = as_alice(bench("$tcp sslmode=require password=alice-secret"));
like($id, qr/^accepted: \d+$/, 'alice may still encrypt (sslmode=require) without a server file');
($id) = $id =~ /(\d+)/;
is(finished($r, $id), 'completed', 'and her run over SSL completes');

# --- no password: refused, though the password file would supply it ---------
# alice without a password of her session's (test/t/072 has those): the
# superuser's session as alice (on 18 her own SCRAM login would give its keys)
sub as_alice_no_secret
{
	my ($sql) = @_;
	my ($stdout, $stderr);
	my $ret = $r->psql('postgres', "SET client_min_messages = warning; SET ROLE alice; $sql",
		stdout => \$stdout, stderr => \$stderr);
	return $ret == 0 ? "accepted: $stdout" : $stderr;
}
like(as_alice_no_secret(bench('')), qr/password is required/, 'a runner\'s conninfo without password is refused');
like(as_alice_no_secret(bench($cr)), qr/password is required/, 'with host, port and dbname, still refused');
like(as_alice_no_secret(bench("$cr password=")), qr/password is required/, 'an empty password is no password');
like(as_alice_no_secret("SELECT run_bench(1, 1, 'select-only', checkpoint => false)"), qr/password is required/,
	'no conninfo at all is refused');
like(as_alice_no_secret(bench("$cr password=alice-secret", ", generators => ARRAY['$cg']")),
	qr/generator 1 \(.*\) cannot be reached without a password/,
	'a generator conninfo without password is refused before anything connects');

# --- every keyword that names a file of the server, and other secret sources -
my @files = qw(passfile service sslcert sslkey sslrootcert sslcrl sslcrldir);
my @others = qw(sslpassword krbsrvname gsslib gssencmode replication);
for my $kw (@files, @others)
{
	my $file = grep { $_ eq $kw } @files;
	my $err = as_alice(bench("$kw=/etc/passwd password=alice-secret"));
	# every file keyword is libpq 15's; the others may be missing from a build (invalid)
	like($err, $file ? qr/ERROR:  conninfo may not use "$kw"/ : qr/ERROR:  (conninfo may not use "$kw"|invalid conninfo)/,
		"$kw= is refused");
	like($err, qr/names a file on the server/, "$kw=: the detail says it names a server file") if $file;
	$err = as_alice(bench("password=alice-secret", ", generators => ARRAY[\$g\$$cg password=alice-secret $kw=/etc/passwd\$g\$]"));
	like($err, $file ? qr/the conninfo of generator 1 may not use "$kw"/
		  : qr/the conninfo of generator 1 may not use "$kw"|invalid conninfo of generator 1/,
		"$kw= is refused in a generator conninfo");
}
# keywords of newer libpqs: unknown here (invalid) or, where libpq has them, refused
for my $kw (qw(sslkeylogfile servicefile sslcertmode require_auth scram_client_key oauth_issuer))
{
	like(as_alice(bench("$kw=/etc/passwd password=alice-secret")), qr/conninfo may not use "$kw"|invalid conninfo/,
		"$kw= is refused");
}
like(as_alice(bench(" sslrootcert = /etc/passwd  password=alice-secret")), qr/conninfo may not use "sslrootcert"/,
	'whitespace around a keyword changes nothing');
like(as_alice(bench(' SSLRootCert = /etc/passwd password=alice-secret')), qr/conninfo may not use|invalid conninfo/,
	'a mixed-case keyword is refused');
like(as_alice(bench("sslmode=require sslrootcert='/etc/ssl/certs' password=alice-secret")),
	qr/conninfo may not use "sslrootcert"/, 'a quoted value too');
like(as_alice(bench('postgresql:///postgres?sslrootcert=/etc/passwd&password=alice-secret')),
	qr/conninfo may not use "sslrootcert"/, 'the URI form is refused');
like(as_alice(bench('postgresql:///postgres?ssl%72ootcert=%2Fetc%2Fpasswd&password=alice-secret')),
	qr/conninfo may not use "sslrootcert"/, 'a percent-encoded keyword in the URI form is refused');
like(as_alice(bench('postgresql:///postgres?sslcrldir=/etc&sslmode=require&password=alice-secret')),
	qr/conninfo may not use "sslcrldir"/, 'sslcrldir in the URI form is refused');
like(as_alice(bench('postgresql:///postgres?service=x&password=alice-secret')),
	qr/conninfo may not use "service"/, 'service= in the URI form is refused');
# a dbname that reads like a conninfo is only a database name: libpq does not expand it
my $err = as_alice(bench("dbname='postgresql:///postgres?sslrootcert=/etc/passwd&sslmode=verify-full' password=alice-secret"));
like($err, qr/could not connect.*database "postgresql:.*" does not exist/s,
	'a conninfo hidden in dbname is not expanded: it names a database that does not exist');
unlike($err, qr/certificate|could not open|permission denied/i, 'and libpq read no file for it');
# a socket directory names a directory of the server: only this server's own
like(as_alice(bench('host=/etc password=alice-secret')), qr/conninfo may not use socket directory "\/etc"/,
	'a socket directory other than the server\'s is refused');
like(as_alice(bench('host=' . $r->host . ',/root port=' . $r->port . ',' . $r->port . ' password=alice-secret')),
	qr/conninfo may not use socket directory "\/root"/, 'in any place of a host list');
like(as_alice(bench('postgresql://%2Fvar%2Flib%2Fpostgresql/postgres?password=alice-secret')),
	qr/conninfo may not use socket directory "\/var\/lib\/postgresql"/, 'in the URI form too');
like(as_alice(bench('host=@pgbenchx-probe password=alice-secret')), qr/conninfo may not use socket directory "\@pgbenchx-probe"/,
	'an abstract socket name too');
like(as_alice(bench("password=alice-secret", ", generators => ARRAY[\$g\$host=/etc port=5432 password=alice-secret\$g\$]")),
	qr/the conninfo of generator 1 may not use socket directory "\/etc"/, 'and in a generator conninfo');
like(as_alice(bench('user=postgres password=alice-secret')), qr/conninfo may not name another role/,
	'another role is refused');

# --- the trust server, named directly or as a run's second host --------------
like(as_alice(bench("$ct password=alice-secret")), qr/password is required.*without asking for the password/s,
	'a run whose clients would reach a trust server is refused');
like(as_alice(bench('host=' . $t->host . ',' . $r->host . ' port=' . $t->port . ',' . $r->port . ' password=alice-secret')),
	qr/password is required.*The server at .*:${\ $t->port } let/s,
	'a two-host conninfo that lands on the trust server is refused, naming it');
like(as_alice(bench("$cr password=alice-secret", ", generators => ARRAY[\$g\$$ct password=alice-secret\$g\$]")),
	qr/generator 1 .* let a non-superuser in without a password/, 'a trust generator is refused at pre-flight');

# --- with its password, alice runs; her connections reconnect by the same rule
$id = as_alice(bench("$cr password=alice-secret", ', connect_per_transaction => true'));
like($id, qr/^accepted: \d+$/, 'with her password alice runs, reconnecting per transaction');
($id) = $id =~ /(\d+)/;
is(finished($r, $id), 'completed', 'every reconnect logged in with her password');
my $stored = $r->safe_psql('postgres', "SELECT conninfo FROM pgbenchx.runs WHERE run_id = $id");
like($stored, qr/password='\*{8}'/, 'the stored conninfo masks her password');
unlike($stored, qr/alice-secret|passfile|gssencmode|dev\/null/, 'and holds neither it nor the pinned keywords');

# --- a two-host generator conninfo fails over to trust between two steps ----
# G first, T second: the pre-flight and step 1 reach G with alice's password.
# Step 2's maintenance is held on a lock while G stops, so that step 2's
# connection fails over to T, which lets alice in without a password.
my $two = 'host=' . $g->host . ',' . $t->host . ' port=' . $g->port . ',' . $t->port
  . ' dbname=postgres password=alice-secret';
my $sid = as_alice("SELECT run_sweep(1, 2, 5, 'select-only', checkpoint => false, conninfo => \$c\$$cr password=alice-secret\$c\$, "
	  . "generators => ARRAY[\$g\$$two\$g\$])");
like($sid, qr/^accepted: \d+$/, 'a sweep over a two-host generator conninfo starts (its first host asks for the password)');
($sid) = $sid =~ /(\d+)/;
$r->poll_query_until('postgres', "SELECT EXISTS (SELECT FROM pgbenchx.progress WHERE sweep_id = $sid AND clients = 1 AND phase = 'measuring')")
  or die 'step 1 did not measure';
my $lock = lock_session($r, 'pgbench_tellers');
# step 2's pre-run maintenance (vacuum pgbench_tellers) waits for the lock
$r->poll_query_until('postgres', "SELECT EXISTS (SELECT FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_stat_activity a USING (pid) "
	  . "WHERE NOT l.granted AND l.relation = 'pgbench_tellers'::regclass AND a.query ILIKE 'vacuum pgbench_tellers%')")
  or die 'step 2 did not wait for its maintenance';
is($r->safe_psql('postgres', "SELECT status FROM pgbenchx.runs WHERE sweep_id = $sid AND clients = 1"), 'completed',
	'step 1 completed on G');
$g->stop;
unlock_session($lock);
$r->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.sweeps WHERE sweep_id = $sid")
  or die 'the sweep did not end';
my $step2 = $r->safe_psql('postgres', "SELECT status || ': ' || coalesce(error, '') FROM pgbenchx.runs WHERE sweep_id = $sid AND clients = 2");
like($step2, qr/^failed: generator 1 .* let a non-superuser in without a password \(at .*:${\ $t->port }\)/,
	'step 2, failed over to the trust server, is refused, naming it');
is($r->safe_psql('postgres', "SELECT count(*) FROM pgbenchx.run_generators g JOIN pgbenchx.runs r USING (run_id) "
	  . "WHERE r.sweep_id = $sid AND r.clients = 2 AND g.part_run_id IS NOT NULL"), '0',
	'no part was launched through the trust server');

# --- a superuser keeps peer/trust and any keyword ----------------------------
$id = $r->safe_psql('postgres', "SET client_min_messages = warning; SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
is(finished($r, $id), 'completed', 'a superuser runs over trust without a password');
$id = $r->safe_psql('postgres', "SET client_min_messages = warning; " . bench('sslrootcert=/nonexistent sslmode=prefer'));
is(finished($r, $id), 'completed', 'a superuser may pass file keywords');

ok(nothing_left($r), 'no worker or client is left behind');
$r->stop;
$t->stop;
done_testing();
