# Code a runner owns never runs with another role's rights (issue 20,
# section 1; docs/security.md, "Whose code a run executes"), written as the
# attacker works.
#
# alice is a runner with CREATE on public and a SCRAM password.  Her
# function pwn() records current_user in public.pwned (which she owns and
# everybody may write) and tries ALTER ROLE alice SUPERUSER, swallowing the
# error; it is called from everything she can hang on a table.
#
# Database postgres: alice ran pgbench_init, so she owns public.pgbench_*,
# and armed them: AFTER TRUNCATE / INSERT / UPDATE triggers, a rule, an RLS
# policy (FORCE ROW LEVEL SECURITY), a column default, an inheritance child;
# pgbench_history is later replaced by a view over her function.  A
# superuser's run_bench with every default, check_tpcb, a custom script
# naming her table and pgbench_init over her tables are each refused with
# 42501 naming the object and alice.  Her own runs on her own tables go on.
#
# Database sudb: the superuser's own tables.  Runs by the superuser and by
# alice go on.  Then single foreign pieces on the superuser's tables, each
# refused: a trigger, a policy, a default calling her function, a rule
# writing her table, a partition she owns, a column of her domain, the
# TRIGGER privilege granted to her, her =(integer, integer) where the
# clients' search_path puts public before pg_catalog, her CREATE on a
# schema the clients' search_path searches before the tables' schema or on
# the database where "$user" names no schema yet, and, between two steps of a sweep
# (held there by a lock on pgbenchx.runs), a pgbench_history of hers that
# the clients' search_path finds first once a DBA gave her CREATE there:
# the sweep ends failed with that error, its first step kept.
#
# After every refusal alice is still no superuser and pwned holds no row
# written by anyone but her.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('foreign_owners',
	conf => "password_encryption = 'scram-sha-256'\nmax_worker_processes = 8\n");
my $su = $node->safe_psql('postgres', 'SELECT current_user');
$node->safe_psql('postgres', q{
	CREATE ROLE alice LOGIN PASSWORD 'a-secret';
	SELECT pgbenchx.grant_runner('alice');
	GRANT CREATE ON SCHEMA public TO alice;
	CREATE DATABASE sudb;
});
my $hba = $node->data_dir . '/pg_hba.conf';
open(my $fh, '>', $hba) or die;
print $fh "local all $su trust\n";
print $fh "local all all scram-sha-256\n";
close $fh;
$node->reload;

# her marker, in each database
my $arm = q{
	CREATE TABLE public.pwned (who text, what text);
	GRANT SELECT, INSERT ON public.pwned TO PUBLIC;
	CREATE FUNCTION public.pwn_do(what text) RETURNS integer LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO public.pwned VALUES (current_user, what);
		BEGIN
			EXECUTE 'ALTER ROLE alice SUPERUSER';
		EXCEPTION WHEN OTHERS THEN NULL;
		END;
		RETURN 1;
	END $$;
	CREATE FUNCTION public.pwn() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		PERFORM public.pwn_do(TG_NAME);
		RETURN NULL;
	END $$;
	CREATE FUNCTION public.pwnv() RETURNS integer LANGUAGE sql AS $$ SELECT public.pwn_do('value') $$;
	CREATE FUNCTION public.pwnb(integer) RETURNS boolean LANGUAGE sql AS $$ SELECT public.pwn_do('bool') > 0 $$;
};

sub as_alice
{
	my ($db, $sql) = @_;
	local $ENV{PGPASSWORD} = 'a-secret';
	my ($stdout, $stderr);
	my $ret = $node->psql($db, $sql, stdout => \$stdout, stderr => \$stderr,
		extra_params => [ '-U', 'alice', '-v', 'VERBOSITY=verbose' ]);
	return ($ret, $stdout, $stderr);
}

sub as_su
{
	my ($db, $sql) = @_;
	my ($stdout, $stderr);
	my $ret = $node->psql($db, $sql, stdout => \$stdout, stderr => \$stderr,
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	return ($ret, $stdout, $stderr);
}

sub alice_ok
{
	my ($db, $sql) = @_;
	my ($ret, $out, $err) = as_alice($db, $sql);
	die "alice: $sql: $err" if $ret != 0;
	return $out;
}

sub ended
{
	my ($db, $id) = @_;
	$node->poll_query_until($db, "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $id")
	  or die "run $id never ended";
	return $node->safe_psql($db, "SELECT status FROM pgbenchx.runs WHERE run_id = $id");
}

# never superuser, nothing ran as anyone else
sub unharmed
{
	my ($name) = @_;
	is($node->safe_psql('postgres', "SELECT rolsuper FROM pg_roles WHERE rolname = 'alice'"),
		'f', "$name: alice is no superuser");
	for my $db ('postgres', 'sudb')
	{
		is($node->safe_psql($db, "SELECT count(*) FROM public.pwned WHERE who <> 'alice'"),
			'0', "$name: nothing of hers ran as another role ($db)");
	}
}

# refused(db, name, sql, qr/object/): 42501, the object and alice named
sub refused
{
	my ($db, $name, $sql, $object) = @_;
	my ($ret, $out, $err) = as_su($db, $sql);
	isnt($ret, 0, "$name: refused");
	like($err, qr/42501/, "$name: with 42501");
	like($err, qr/owned by role "alice"|role "alice" may create/, "$name: naming alice");
	like($err, $object, "$name: naming the object");
	like($err, qr/DETAIL:  .*role "alice".* with the rights of role "\Q$su\E"/, "$name: the detail says whose code with whose rights");
	unharmed($name);
	return $err;
}

# sudb: the superuser's tables
$node->safe_psql('sudb', q{
	CREATE EXTENSION pgbenchx;
	SELECT pgbenchx.grant_runner('alice');
	GRANT CREATE ON SCHEMA public TO alice;
	SET client_min_messages = warning;
	SELECT pgbench_init(1, partitions => 2);
	GRANT SELECT, INSERT, UPDATE ON pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history TO alice;
});
alice_ok('sudb', $arm);

# ---------------------------------------------------------------- postgres
# alice's own tables, armed
alice_ok('postgres', $arm);
alice_ok('postgres', 'SET client_min_messages = warning; SELECT pgbench_init(1)');
alice_ok('postgres', q{
	CREATE TRIGGER t_truncate AFTER TRUNCATE ON pgbench_history FOR EACH STATEMENT EXECUTE FUNCTION public.pwn();
	CREATE TRIGGER t_insert AFTER INSERT ON pgbench_history FOR EACH ROW EXECUTE FUNCTION public.pwn();
	CREATE TRIGGER t_update AFTER UPDATE ON pgbench_tellers FOR EACH ROW EXECUTE FUNCTION public.pwn();
	GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history TO PUBLIC;
});

# positive: alice on her own tables (her trigger runs, as alice)
my $id = alice_ok('postgres', "SELECT run_bench(1, 1, conninfo => 'password=a-secret')");
is(ended('postgres', $id), 'completed', 'alice runs on her own armed tables');
ok($node->safe_psql('postgres', "SELECT count(*) > 0 FROM public.pwned WHERE who = 'alice' AND what = 't_insert'"),
	'her trigger ran, as herself');
unharmed('own run');

# the instance: a superuser's run_bench with every default
refused('postgres', 'run_bench with defaults', 'SELECT run_bench(1, 2)', qr/pgbench_/);
refused('postgres', 'select-only', "SELECT run_bench(1, 2, 'select-only')", qr/table (public\.)?pgbench_accounts/);
refused('postgres', 'maintenance alone (custom script)',
	q{SELECT pgbenchx.add_script('su_plain', 'SELECT 1;'); SELECT run_bench(1, 2, 'su_plain')},
	qr/table (public\.)?pgbench_(branches|tellers|history)/);
my $err = refused('postgres', 'check_tpcb', "SELECT run_bench(1, 2, check_tpcb => true)", qr/pgbench_/);
like($err, qr/would run code of role "alice" with the rights of role "\Q$su\E"/, 'the detail says whose rights');
like($err, qr/HINT:.*SET ROLE/, 'the hint says how to run it');
refused('postgres', 'pgbench_init over her tables', 'SELECT pgbench_init(1)', qr/table pgbench_/);

# a custom script naming her table, on tables of nobody else
alice_ok('postgres', 'CREATE TABLE public.alice_t (x int); INSERT INTO public.alice_t VALUES (1);
	CREATE TRIGGER t_sel AFTER UPDATE ON public.alice_t FOR EACH ROW EXECUTE FUNCTION public.pwn();
	GRANT SELECT, UPDATE ON public.alice_t TO PUBLIC');
$node->safe_psql('postgres', q{SELECT pgbenchx.add_script('su_custom', 'UPDATE alice_t SET x = x + 1;')});
refused('postgres', 'custom script naming her table',
	"SELECT run_bench(1, 2, 'su_custom', vacuum => false, checkpoint => false)", qr/table (public\.)?alice_t/);
$node->safe_psql('postgres', q{SELECT pgbenchx.add_script('su_custom2', '\set n 1
SELECT * FROM (SELECT x FROM public.alice_t WHERE x > :n) s;')});
refused('postgres', 'custom script reading her table in a subquery',
	"SELECT run_bench(1, 2, 'su_custom2', vacuum => false, checkpoint => false)", qr/table (public\.)?alice_t/);

# a statement that does not analyse before the run (its temporary table is
# the script's own): the relations it names are still checked
$node->safe_psql('postgres', q{SELECT pgbenchx.add_script('su_custom3', 'CREATE TEMP TABLE IF NOT EXISTS su_tmp (x int);
INSERT INTO su_tmp SELECT x FROM public.alice_t;')});
refused('postgres', 'custom script whose statement names her table and a table it creates',
	"SELECT run_bench(1, 2, 'su_custom3', vacuum => false, checkpoint => false)", qr/table (public\.)?alice_t/);

# the variant: pgbench_history a view over her function
alice_ok('postgres', q{
	ALTER TABLE pgbench_history RENAME TO pgbench_history_t;
	CREATE VIEW pgbench_history AS SELECT tid, bid, aid, public.pwnv() AS delta, mtime, filler FROM pgbench_history_t;
	GRANT SELECT, INSERT ON pgbench_history TO PUBLIC;
});
refused('postgres', 'check_tpcb over her view', "SELECT run_bench(1, 2, check_tpcb => true)", qr/pgbench_/);
refused('postgres', 'pgbenchx.check_tpcb() over her view', 'SELECT * FROM pgbenchx.check_tpcb()', qr/pgbench_/);
alice_ok('postgres', 'DROP VIEW pgbench_history; ALTER TABLE pgbench_history_t RENAME TO pgbench_history');

# the others, each on her own tables
for my $case (
	[ 'a rule', 'CREATE RULE r AS ON INSERT TO pgbench_history DO ALSO SELECT public.pwnv()' ],
	[ 'an RLS policy',
		'CREATE POLICY p ON pgbench_branches USING (public.pwnb(bid)); ALTER TABLE pgbench_branches ENABLE ROW LEVEL SECURITY; ALTER TABLE pgbench_branches FORCE ROW LEVEL SECURITY' ],
	[ 'a column default', 'ALTER TABLE pgbench_history ALTER COLUMN filler SET DEFAULT public.pwnv()::text' ],
	[ 'an inheritance child', 'CREATE TABLE public.h_child () INHERITS (pgbench_history)' ])
{
	my ($name, $sql) = @$case;
	alice_ok('postgres', $sql);
	refused('postgres', "her table with $name", 'SELECT run_bench(1, 2)', qr/pgbench_/);
}
# postgres keeps her tables: a run there takes no more of our time

# ---------------------------------------------------------------- sudb

# positive: the superuser's own tables, run by it and by alice
$id = $node->safe_psql('sudb', 'SELECT run_bench(1, 1, check_tpcb => true)');
is(ended('sudb', $id), 'completed', "the superuser's run on its own tables");
is($node->safe_psql('sudb', 'SELECT consistent FROM pgbenchx.check_tpcb()'), 't',
	"pgbenchx.check_tpcb() on the superuser's own tables");
$id = alice_ok('sudb', "SELECT run_bench(1, 1, vacuum => false, checkpoint => false, conninfo => 'password=a-secret')");
is(ended('sudb', $id), 'completed', "alice's run on the superuser's tables");

# single foreign pieces on trusted tables
alice_ok('sudb', 'CREATE DOMAIN public.dpos AS integer CHECK (public.pwnb(VALUE))');
for my $case (
	[ 'a trigger calling her function',
		'CREATE TRIGGER su_t AFTER INSERT ON pgbench_history FOR EACH ROW EXECUTE FUNCTION public.pwn()',
		'DROP TRIGGER su_t ON pgbench_history', qr/function (public\.)?pwn\(\).*trigger su_t/s ],
	[ 'a forced policy calling her function',
		'CREATE POLICY su_p ON pgbench_tellers USING (public.pwnb(tid)); ALTER TABLE pgbench_tellers ENABLE ROW LEVEL SECURITY; ALTER TABLE pgbench_tellers FORCE ROW LEVEL SECURITY',
		'DROP POLICY su_p ON pgbench_tellers; ALTER TABLE pgbench_tellers NO FORCE ROW LEVEL SECURITY; ALTER TABLE pgbench_tellers DISABLE ROW LEVEL SECURITY',
		qr/function (public\.)?pwnb\(integer\).*policy su_p/s ],
	[ 'a default calling her function',
		'ALTER TABLE pgbench_history ALTER COLUMN filler SET DEFAULT public.pwnv()::text',
		'ALTER TABLE pgbench_history ALTER COLUMN filler DROP DEFAULT', qr/function (public\.)?pwnv\(\)/ ],
	[ 'a rule writing her table',
		'CREATE RULE su_r AS ON INSERT TO pgbench_history DO ALSO INSERT INTO public.pwned VALUES (\'rule\', \'rule\')',
		'DROP RULE su_r ON pgbench_history', qr/table (public\.)?pwned/ ],
	[ 'a partition she owns',
		'ALTER TABLE pgbench_accounts_2 OWNER TO alice',
		'ALTER TABLE pgbench_accounts_2 OWNER TO CURRENT_USER', qr/table (public\.)?pgbench_accounts_2/ ],
	[ 'a column of her domain (its CHECK calls her function)',
		'TRUNCATE pgbench_history; ALTER TABLE pgbench_history ALTER COLUMN delta TYPE public.dpos',
		'ALTER TABLE pgbench_history ALTER COLUMN delta TYPE integer', qr/type (public\.)?dpos/ ],
	[ 'the TRIGGER privilege granted to her',
		'GRANT TRIGGER ON pgbench_tellers TO alice',
		'REVOKE TRIGGER ON pgbench_tellers FROM alice', qr/table (public\.)?pgbench_tellers/ ])
{
	my ($name, $plant, $undo, $object) = @$case;
	$node->safe_psql('sudb', $plant);
	refused('sudb', $name, 'SELECT run_bench(1, 2)', $object);
	$node->safe_psql('sudb', $undo);
}

# her operator, where the clients' search_path puts public before pg_catalog
alice_ok('sudb', q{
	CREATE FUNCTION public.int4eq_pwn(integer, integer) RETURNS boolean LANGUAGE sql AS $$ SELECT public.pwn_do('op') > 0 AND $1 OPERATOR(pg_catalog.=) $2 $$;
	CREATE OPERATOR public.= (LEFTARG = integer, RIGHTARG = integer, FUNCTION = public.int4eq_pwn);
});
$node->safe_psql('sudb', "ALTER ROLE \"$su\" IN DATABASE sudb SET search_path = public, pg_catalog");
refused('sudb', 'her =(integer, integer) before pg_catalog', "SELECT run_bench(1, 2, 'select-only')",
	qr/operator public\.=\(integer,integer\)/);
$node->safe_psql('sudb', "ALTER ROLE \"$su\" IN DATABASE sudb RESET search_path");
alice_ok('sudb', 'DROP OPERATOR public.= (integer, integer)');

# a schema where she may create, searched before the pgbench tables' schema:
# whatever she creates there later would be found first, even mid-run
$node->safe_psql('sudb', q{
	CREATE SCHEMA bench;
	ALTER TABLE pgbench_accounts SET SCHEMA bench;
	ALTER TABLE pgbench_branches SET SCHEMA bench;
	ALTER TABLE pgbench_tellers SET SCHEMA bench;
	ALTER TABLE pgbench_history SET SCHEMA bench;
});
$node->safe_psql('sudb', "ALTER ROLE \"$su\" IN DATABASE sudb SET search_path = public, bench");
refused('sudb', 'her CREATE on a schema searched first', 'SELECT run_bench(1, 2)',
	qr/schema public, in which role "alice" may create objects/);

# the schema "$user" names for the superuser does not exist: with CREATE on
# the database she could create it, first in its search_path
$node->safe_psql('sudb', "ALTER ROLE \"$su\" IN DATABASE sudb RESET search_path; ALTER TABLE bench.pgbench_history SET SCHEMA public; ALTER TABLE bench.pgbench_accounts SET SCHEMA public; ALTER TABLE bench.pgbench_branches SET SCHEMA public; ALTER TABLE bench.pgbench_tellers SET SCHEMA public; GRANT CREATE ON DATABASE sudb TO alice");
refused('sudb', 'her CREATE on the database, where "$user" names no schema yet', 'SELECT run_bench(1, 2)',
	qr/schema \"?\Q$su\E\"?, which does not exist and role "alice" may create/);
$node->safe_psql('sudb', "REVOKE CREATE ON DATABASE sudb FROM alice; ALTER TABLE public.pgbench_history SET SCHEMA bench; ALTER TABLE public.pgbench_accounts SET SCHEMA bench; ALTER TABLE public.pgbench_branches SET SCHEMA bench; ALTER TABLE public.pgbench_tellers SET SCHEMA bench");
$node->safe_psql('sudb', "ALTER ROLE \"$su\" IN DATABASE sudb SET search_path = public, bench");

# between two steps of a sweep: a DBA gives her CREATE there after all, and
# she plants a pgbench_history that the clients' search_path finds first
$node->safe_psql('sudb', 'REVOKE CREATE ON SCHEMA public FROM alice');
# Her table has only a TRUNCATE trigger: step 1's clients may insert into
# it without running her code, step 2's maintenance would truncate it.
# Step 1's vacuum first waits for a lock on bench.pgbench_tellers; an
# EXCLUSIVE lock on pgbenchx.runs (reads go on) is taken meanwhile, then
# the tellers released: the coordinator is held at its next write of the
# row, in step 1 whatever the machine's speed, so step 2 cannot begin
# before she has planted it.
sub sudb_lock
{
	my ($what) = @_;
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(['psql', '-X', '-At', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('sudb')],
		'<', \$in, '>', \$out, '2>', \$err);
	$in .= "BEGIN;\nLOCK TABLE $what;\nSELECT 'locked';\n";
	$h->pump until $out =~ /locked/;
	return sub { $in .= "COMMIT;\n\\q\n"; $h->finish; };
}
my $unlock_tellers = sudb_lock('bench.pgbench_tellers IN ACCESS EXCLUSIVE MODE');
my $sweep = $node->safe_psql('sudb', 'SELECT run_sweep(1, 2, 5)');
$node->poll_query_until('sudb',
	"SELECT count(*) > 0 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
	  . "WHERE NOT l.granted AND l.relation = 'bench.pgbench_tellers'::regclass AND a.query LIKE 'vacuum%'")
  or die 'the first step\'s vacuum never waited for pgbench_tellers';
my $unlock_runs = sudb_lock('pgbenchx.runs IN EXCLUSIVE MODE');
$unlock_tellers->();
$node->poll_query_until('sudb',
	"SELECT count(*) > 0 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
	  . "WHERE NOT l.granted AND l.relation = 'pgbenchx.runs'::regclass AND a.backend_type = 'pgbenchx coordinator'")
  or die 'the sweep never waited for pgbenchx.runs';
is($node->safe_psql('sudb', "SELECT count(*) FROM pgbenchx.runs WHERE sweep_id = $sweep"), '1',
	'the sweep is held in its first step');
$node->safe_psql('sudb', 'GRANT CREATE ON SCHEMA public TO alice');
alice_ok('sudb', q{
	CREATE TABLE public.pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));
	CREATE TRIGGER t_mid AFTER TRUNCATE ON public.pgbench_history FOR EACH STATEMENT EXECUTE FUNCTION public.pwn();
	GRANT SELECT, INSERT, TRUNCATE ON public.pgbench_history TO PUBLIC;
});
$unlock_runs->();
$node->poll_query_until('sudb', "SELECT status <> 'running' FROM pgbenchx.sweeps WHERE sweep_id = $sweep")
  or die 'the sweep never ended';
is($node->safe_psql('sudb', "SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $sweep"),
	'failed', 'the sweep ends failed');
is($node->safe_psql('sudb', "SELECT string_agg(clients || ':' || status, ',' ORDER BY clients) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
	'1:completed,2:failed', 'its first step is kept, the second failed');
like($node->safe_psql('sudb', "SELECT error FROM pgbenchx.runs WHERE sweep_id = $sweep AND clients = 2"),
	qr/refusing to (use table (public\.)?pgbench_history owned by role "alice"|resolve names through schema public, in which role "alice" may create objects)/,
	'the step says why');
unharmed('between steps');

done_testing();
