# A secret never travels in SQL text (issue 34, section 3), probed as an
# attacker who reads everything a server keeps: the server log with
# log_statement = 'all', log_min_duration_statement = 0 (with every
# parameter, log_parameter_max_length = -1) and log_connections, snapshots
# of pg_stat_activity taken while each run lasts, pg_stat_statements when
# the server has it, every text column of every pgbenchx table (read from
# the catalogue, so a later table is covered), and what the command line
# prints.  alice is a runner with a SCRAM password; her sessions give it as
# pgbenchx.password in the startup packet (PGOPTIONS), or on PostgreSQL 18
# through the SCRAM keys of their login, and every path runs: run_bench,
# run_sweep, run_replay, run_experiment, a run driven from a generator (its
# part's launch_part on G), and the command line.  None of those places may
# hold the password, its base64, or the SCRAM ClientKey and ServerKey that
# the password derives (base64 and hex).  Then the setting itself: SET,
# ALTER ROLE SET, ALTER DATABASE SET and ALTER SYSTEM are refused without
# echoing the value, SHOW and pg_settings never show it, a conninfo whose
# options carry it is refused, and password= typed in conninfo still works
# with a WARNING.  Last, the server restarts with pgbenchx in
# shared_preload_libraries and a run uses the setting as the startup packet
# set it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Digest::SHA qw(hmac_sha256 sha256);
use MIME::Base64 qw(encode_base64 decode_base64);
use IPC::Run;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

# distinctive, with a space and a backslash (PGOPTIONS escapes them)
my $secret = 'Zq7-pgx-S3cret w\\rd';
my $escaped = $secret =~ s/([\s\\])/\\$1/gr;
# logging everything from the moment the roles exist (their passwords are
# set in SQL before: the setup's, not pgbenchx's)
my $logconf = "log_statement = 'all'\nlog_min_duration_statement = 0\nlog_parameter_max_length = -1\n"
  . "log_parameter_max_length_on_error = -1\nlog_connections = on\nlog_disconnections = on\n"
  . "log_min_messages = info\n";
my $conf = "password_encryption = 'scram-sha-256'\nlisten_addresses = '127.0.0.1'\nmax_worker_processes = 16\n";
my $pkglib = `pg_config --pkglibdir`;
chomp $pkglib;
my $pgss = -f "$pkglib/pg_stat_statements.so";
my $r = pgbenchx_node('rec', scale => 1,
	conf => $conf . ($pgss ? "shared_preload_libraries = 'pg_stat_statements'\n" : ''));
my $g = pgbenchx_node('gen', conf => $conf);
my $su = $r->safe_psql('postgres', 'SELECT current_user');
my $major = $r->safe_psql('postgres', 'SHOW server_version_num') / 10000;
$r->safe_psql('postgres', 'CREATE EXTENSION pg_stat_statements') if $pgss;

for my $n ($r, $g)
{
	$n->safe_psql('postgres', "CREATE ROLE alice LOGIN PASSWORD '$secret'; SELECT pgbenchx.grant_runner('alice')");
	open(my $fh, '>', $n->data_dir . '/pg_hba.conf') or die;
	print $fh "local all $su trust\nlocal all all scram-sha-256\n"
	  . "host all $su 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 scram-sha-256\n";
	close $fh;
	$n->reload;
}
# the same SCRAM secret on G (salt and iterations too), as SCRAM pass-through needs
my $verifier = $r->safe_psql('postgres', "SELECT rolpassword FROM pg_authid WHERE rolname = 'alice'");
$g->safe_psql('postgres', "ALTER ROLE alice PASSWORD '$verifier'");
$r->safe_psql('postgres',
	'GRANT SELECT, UPDATE, INSERT ON pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history TO alice');
for my $n ($r, $g)
{
	$n->append_conf('postgresql.conf', $logconf);
	$n->reload;
}
$r->safe_psql('postgres', 'SELECT pg_stat_statements_reset()') if $pgss;

# What must never appear: the password, its base64, and the SCRAM keys it
# derives (RFC 5802: SaltedPassword = PBKDF2-HMAC-SHA-256, ClientKey and
# ServerKey HMACs of it), base64 and hex.
my ($iter, $salt, $stored, $server) = $verifier =~ /^SCRAM-SHA-256\$(\d+):([^\$]+)\$([^:]+):(.+)$/
  or die "no SCRAM verifier: $verifier";
my $u = hmac_sha256(decode_base64($salt) . "\0\0\0\1", $secret);
my $salted = $u;
for (2 .. $iter) { $u = hmac_sha256($u, $secret); $salted ^= $u; }
my $client_key = hmac_sha256('Client Key', $salted);
my $server_key = hmac_sha256('Server Key', $salted);
is(encode_base64(sha256($client_key), '') . ' ' . encode_base64($server_key, ''), "$stored $server",
	'the SCRAM keys computed here are the server\'s (its StoredKey and ServerKey match)');
my %forbidden = (
	'the password' => $secret,
	'the password as PGOPTIONS escapes it' => $escaped,
	'the password in base64' => encode_base64($secret, ''),
	'the SCRAM ClientKey in base64' => encode_base64($client_key, ''),
	'the SCRAM ServerKey in base64' => encode_base64($server_key, ''),
	'the SCRAM ClientKey in hex' => unpack('H*', $client_key),
	'the SCRAM ServerKey in hex' => unpack('H*', $server_key));
# the password's longest word alone, in case something cuts at the space
$forbidden{'a part of the password'} = 'Zq7-pgx-S3cret';

my @seen;	# [what, text] to search at the end

# alice's session on node n: her password for the login, and as
# pgbenchx.password in the startup packet unless $plain
sub alice
{
	my ($n, $sql, %opt) = @_;
	local $ENV{PGPASSWORD} = $secret;
	local $ENV{PGOPTIONS} = $opt{plain} ? '' : "-c pgbenchx.password=$escaped";
	my ($stdout, $stderr);
	my $ret = $n->psql('postgres', $sql, stdout => \$stdout, stderr => \$stderr,
		extra_params => [ '-U', 'alice' ]);
	push @seen, [ "alice's psql output", "$stdout\n$stderr" ];
	return wantarray ? ($ret, $stdout, $stderr) : $stdout;
}

# pg_stat_activity (every column) on both nodes until the run or sweep
# id is over; the rows' final status
sub follow
{
	my ($table, $col, $id) = @_;
	my $status;
	for (1 .. 900)
	{
		for my $n ($r, $g)
		{
			push @seen, [ 'pg_stat_activity during a run',
				$n->safe_psql('postgres', 'SELECT string_agg(a::text, E\'\n\') FROM pg_stat_activity a') ];
		}
		$status = $r->safe_psql('postgres', "SELECT status FROM pgbenchx.$table WHERE $col = $id");
		last if $status ne 'running';
	}
	return $r->safe_psql('postgres',
		"SELECT status || coalesce(': ' || error, '') FROM pgbenchx.$table WHERE $col = $id");
}

is(alice($r, 'SELECT pgbenchx.session_secret()'), 'password',
	'a session whose startup packet gives pgbenchx.password has a password for its runs');
is(alice($r, 'SELECT pgbenchx.session_secret()', plain => 1), $major >= 18 ? 'scram keys' : 'none',
	$major >= 18 ? 'on 18 a SCRAM login without it has its keys' : 'before 18 a session without it has none');

# --- every path, through the safe channel ------------------------------------
my $ci_r = 'host=127.0.0.1 port=' . $r->port . ' dbname=postgres';
my $ci_g = 'host=127.0.0.1 port=' . $g->port . ' dbname=postgres';
my %calls = (
	run_bench => [ 'runs', 'run_id',
		"SELECT run_bench(1, 1, 'select-only', vacuum => false, checkpoint => false)" ],
	run_sweep => [ 'sweeps', 'sweep_id',
		"SELECT run_sweep(ARRAY[1, 2], 1, 'select-only', vacuum => false, checkpoint => false)" ],
	run_replay => [ 'sweeps', 'sweep_id',
		"SELECT run_replay(E'SELECT 1;\\nSELECT 2;', 1, 1, checkpoint => false)" ],
	run_experiment => [ 'sweeps', 'sweep_id',
		"SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\", \"settings\": {\"work_mem\": \"7MB\"}}]', "
		  . "1, 1, transactions => 5, repeats => 1, warmup => 0, script => 'select-only', vacuum => false, checkpoint => false)" ],
	'a run from a generator' => [ 'runs', 'run_id',
		"SELECT run_bench(2, 1, 'select-only', conninfo => '$ci_r', generators => ARRAY['$ci_g'], "
		  . "vacuum => false, checkpoint => false)" ]);
for my $what (sort keys %calls)
{
	my ($table, $col, $sql) = @{ $calls{$what} };
	my ($ret, $id, $err) = alice($r, $sql);
	like($id, qr/^\d+$/, "$what starts for a runner without password= in SQL") or diag($err);
	next unless $id =~ /^\d+$/;
	is(follow($table, $col, $id), 'completed', "$what completes, its clients logged in with the session's password");
	unlike($err, qr/WARNING/, "$what warns of nothing");
}
is(alice($r, 'SELECT count(*) FROM pgbenchx.run_generators WHERE status = \'completed\''), '1',
	'the generator\'s part completed: its session on G had the target\'s password from the startup packet');

# --- the command line ---------------------------------------------------------
{
	local $ENV{PGPASSWORD} = $secret;
	local $ENV{PGOPTIONS} = '-c work_mem=5MB';
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run([ pgbenchx_cli(), '-h', $r->host, '-p', $r->port, '-U', 'alice',
		'-c', '1', '-T', '1', '-S', '-n', 'postgres' ], '>', \$out, '2>', \$err);
	ok($ok, 'the command line runs as a runner') or diag("$out\n$err");
	like($out, qr/number of transactions actually processed/, 'and reports the run');
	push @seen, [ 'the command line\'s output', "$out\n$err" ];
	is($r->safe_psql('postgres', "SELECT conninfo FROM pgbenchx.runs ORDER BY run_id DESC LIMIT 1"),
		"options='-c work_mem=5MB'", 'its clients got PGOPTIONS, and no password in the conninfo');
	# PGOPTIONS that gives pgbenchx.password itself: kept for the CLI's session, never passed on
	local $ENV{PGOPTIONS} = "-c work_mem=6MB -c pgbenchx.password=$escaped";
	$ok = IPC::Run::run([ pgbenchx_cli(), '-h', $r->host, '-p', $r->port, '-U', 'alice',
		'-c', '1', '-T', '1', '-S', '-n', 'postgres' ], '>', \$out, '2>', \$err);
	ok($ok, 'the command line runs with pgbenchx.password in PGOPTIONS') or diag("$out\n$err");
	push @seen, [ 'the command line\'s output', "$out\n$err" ];
	is($r->safe_psql('postgres', "SELECT conninfo FROM pgbenchx.runs ORDER BY run_id DESC LIMIT 1"),
		"options='-c work_mem=6MB'", 'and passes PGOPTIONS to the clients without it');
}

# --- the setting itself ---------------------------------------------------------
# (until the library is loaded in a session, the startup packet's value is
# a placeholder that the session's own code could read: docs/security.md
# says to preload, or call pgbenchx first; the end of this test preloads)
my ($ret, $out, $err);
($ret, $out, $err) = alice($r, "SELECT pgbenchx.session_secret();\nSET pgbenchx.password = 'Wx9-attack-by-SET'");
like($err, qr/cannot be set after connection start/, 'SET pgbenchx.password is refused');
($ret, $out, $err) = alice($r, "SELECT pgbenchx.session_secret();\nSHOW pgbenchx.password");
like($err, qr/permission denied|must be superuser/, 'a runner cannot SHOW it');
{
	local $ENV{PGOPTIONS} = "-c pgbenchx.password=$escaped";
	is($r->safe_psql('postgres', 'SELECT pgbenchx.session_secret(), current_setting(\'pgbenchx.password\')'),
		'password|********', 'a superuser\'s SHOW of its own, after the library loaded, is the mask');
	is($r->safe_psql('postgres', "SELECT count(*) FROM pg_settings WHERE name = 'pgbenchx.password'"), '0',
		'pg_settings has no row for it');
	# ALTER ROLE / DATABASE SET would store it in a catalogue; ALTER SYSTEM in a file
	for my $cmd ('ALTER ROLE alice SET', 'ALTER DATABASE postgres SET', 'ALTER SYSTEM SET')
	{
		my ($rc, $o, $e) = $r->psql('postgres', "SELECT pgbenchx.session_secret();\n$cmd pgbenchx.password = 'Wx9-attack-stored'");
		isnt($rc, 0, "$cmd pgbenchx.password is refused");
		unlike($e, qr/attack-stored/, "and its error does not echo the value");
	}
	is($r->safe_psql('postgres', "SELECT count(*) FROM pg_db_role_setting WHERE array_to_string(setconfig, ',') ~ 'pgbenchx'"),
		'0', 'nothing was stored');
}
# through the options of a conninfo: SQL text, refused (and not echoed)
($ret, $out, $err) = alice($r, "SELECT run_bench(1, 1, 'select-only', conninfo => 'options=''-c pgbenchx.password=Wx9-attack-in-sql''')");
like($err, qr/conninfo may not set pgbenchx.password/, 'a conninfo whose options set pgbenchx.password is refused');
unlike($err, qr/in-sql/, 'and the refusal does not echo it');

# --- what the servers kept ------------------------------------------------------
for my $n ($r, $g)
{
	my $name = $n->name;
	# every text-like column of every pgbenchx table, from the catalogue
	my $cols = $n->safe_psql('postgres', q{
		SELECT string_agg(format('SELECT %L AS t, %I::text AS v FROM pgbenchx.%I', c.relname || '.' || a.attname,
			a.attname, c.relname), ' UNION ALL ')
		FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
		JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
		WHERE s.nspname = 'pgbenchx' AND c.relkind IN ('r', 'p')
		  AND a.atttypid IN ('text'::regtype, 'varchar'::regtype, 'name'::regtype, 'jsonb'::regtype,
		                     'json'::regtype, 'text[]'::regtype, 'bytea'::regtype)});
	my $tables = $n->safe_psql('postgres', "SELECT string_agg(t || ' ' || v, E'\\n') FROM ($cols) x");
	ok(length($tables) > 100, "$name: the pgbenchx tables' text was read");
	push @seen, [ "$name: the pgbenchx tables", $tables ];
	push @seen, [ "$name: the server log", slurp_file($n->logfile) ];
}
push @seen, [ 'pg_stat_statements', $r->safe_psql('postgres',
	'SELECT string_agg(query, E\'\n\') FROM pg_stat_statements') ] if $pgss;
like($seen[-1][1], qr/run_bench/, 'pg_stat_statements saw the calls') if $pgss;
like(slurp_file($r->logfile), qr/run_experiment/, 'the server log has the statements (log_statement = all)');

for my $what (sort keys %forbidden)
{
	my @where = map { $_->[0] } grep { index($_->[1], $forbidden{$what}) >= 0 } @seen;
	my %uniq = map { $_ => 1 } @where;
	is(join(', ', sort keys %uniq), '', "$what appears nowhere");
}

# --- password= typed in SQL: still works, with a WARNING (its text is logged) ---
($ret, $out, $err) = alice($r, "SELECT run_bench(1, 1, 'select-only', conninfo => 'password=''not-the-secret''')",
	plain => 1);
like($err, qr/WARNING:  conninfo carries a password in SQL text/, 'password= in conninfo gives a WARNING');
like($err, qr/pgbenchx\.password/, 'which names the safe channel');

# --- preloaded: the startup packet sets the real setting, not a placeholder ------
# (under a private install, the preloaded library is the copy there)
my $preload = $ENV{PGX_EXTENSION_DESTDIR} ? "$ENV{PGX_EXTENSION_DESTDIR}$pkglib/pgbenchx" : 'pgbenchx';
$r->append_conf('postgresql.conf', "shared_preload_libraries = '$preload" . ($pgss ? ",pg_stat_statements" : '') . "'\n");
$r->restart;
($ret, $out, $err) = alice($r, "SHOW pgbenchx.password");
like($err, qr/permission denied|must be superuser/, 'preloaded: a runner\'s first statement cannot SHOW it either');
($ret, $out, $err) = alice($r, "SELECT current_setting('pgbenchx.password', true) IS NULL");
isnt($out, 'f', 'nor read it with current_setting');
my $id = alice($r, "SELECT run_bench(1, 1, 'select-only', vacuum => false, checkpoint => false)");
like($id, qr/^\d+$/, 'preloaded: a run starts with the password from the startup packet');
is(follow('runs', 'run_id', $id), 'completed', 'and completes') if $id =~ /^\d+$/;
unlike(slurp_file($r->logfile), qr/\Q$secret\E/, 'and the log still has no password');

ok(nothing_left($r), 'nothing is left running');
done_testing();
