# No role can borrow a name of pgbenchx's or another role's rights (issue 34,
# sections 1 and 2), probed as bob, a runner, would try it.
#
# Names.  Every name a caller types (the entry points in the extension's
# schema, read from the catalogue so that a later one is covered, and any
# name in schema pgbenchx) resolves to pgbenchx's own routine:
#   - bob, with CREATE on public, on a schema of his own and on schema
#     pgbenchx, cannot make a routine under such a name: a function with
#     run_bench's integer literals (which PostgreSQL would prefer to the real
#     float8 parameters), a procedure, an aggregate, a routine renamed or
#     moved onto the name, one a superuser made and gave him;
#   - routines he made before CREATE EXTENSION, or before ALTER EXTENSION
#     UPDATE from 0.4 (the denial of service: "is not a member of
#     extension"), make the command fail by name with what to do, and it
#     succeeds once they are gone; a schema pgbenchx he made is refused too;
#   - grant_runner refuses a role that may create in the entry points'
#     schema, naming the grant to revoke;
#   - a superuser's own routine of such a name is hers to make.
# Acts.  What pgbenchx records as done by a role was done with that role's
# rights: called from inside bob's SECURITY DEFINER function by alice (a
# runner) or by the superuser, import() and add_script() record bob, never
# the caller; bob's helper cannot start a run with the superuser's rights;
# and no C or SQL source of the extension reads the outer or the session
# user, so a later entry point cannot either.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use File::Find;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('names', extension => 0);
my $su = $node->safe_psql('postgres', 'SELECT current_user');
$node->safe_psql('postgres', q{
	CREATE ROLE bob LOGIN;
	CREATE ROLE alice LOGIN;
	CREATE DATABASE d;
	CREATE DATABASE up;
	CREATE DATABASE pre;
});
sub q_as
{
	my ($db, $role, $sql) = @_;
	my ($rc, $out, $err) = $node->psql($db, "SET client_min_messages = warning; $sql",
		extra_params => [ '-U', $role, '-v', 'VERBOSITY=verbose' ]);
	return ($rc, $out, $err);
}

# --- install: a routine bob made first is refused by name -------------------
$node->safe_psql('pre', 'GRANT CREATE ON SCHEMA public TO bob; GRANT CREATE ON DATABASE pre TO bob');
q_as('pre', 'bob', q{CREATE FUNCTION public.run_bench(clients int, duration int, script text, protocol text, rate int, latency_limit int)
	RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint'});
my ($rc, $out, $err) = $node->psql('pre', 'CREATE EXTENSION pgbenchx', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
isnt($rc, 0, 'CREATE EXTENSION is refused while bob has a run_bench of his own');
like($err, qr/42723.*routines of other roles use names of extension pgbenchx/s, 'the refusal says why (42723)');
like($err, qr/run_bench\(integer,integer,text,text,integer,integer\), owned by bob/, 'it names the routine and its owner');
like($err, qr/HINT:.*DROP ROUTINE public\.run_bench\(integer,integer,text,text,integer,integer\);/, 'and the command that removes it');
is($node->safe_psql('pre', q{SELECT count(*) FROM pg_extension WHERE extname = 'pgbenchx'}), '0', 'nothing was installed');
$node->safe_psql('pre', 'DROP FUNCTION public.run_bench(int, int, text, text, int, int)');
q_as('pre', 'bob', 'CREATE SCHEMA pgbenchx');
($rc, $out, $err) = $node->psql('pre', 'CREATE EXTENSION pgbenchx', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/42P06.*schema "pgbenchx" already exists.*owned by role bob.*HINT:.*DROP SCHEMA pgbenchx/s,
	"a schema pgbenchx of bob's is refused by name, not reused");
$node->safe_psql('pre', 'DROP SCHEMA pgbenchx');
$node->safe_psql('pre', 'CREATE EXTENSION pgbenchx');
is($node->safe_psql('pre', q{SELECT extversion FROM pg_extension WHERE extname = 'pgbenchx'}), '0.5', 'installed once they are gone');

# --- upgrade: bob's routine under the next version's signature --------------
$node->safe_psql('up', q{CREATE EXTENSION pgbenchx VERSION '0.4'; GRANT CREATE ON SCHEMA public TO bob});
my $sig = $node->safe_psql('pre', q{SELECT pg_get_function_identity_arguments('run_experiment'::regproc)});
q_as('up', 'bob', "CREATE FUNCTION public.run_experiment($sig) RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint'");
($rc, $out, $err) = $node->psql('up', 'ALTER EXTENSION pgbenchx UPDATE', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
isnt($rc, 0, "ALTER EXTENSION UPDATE is refused while bob has a run_experiment of 0.5's signature");
like($err, qr/42723.*run_experiment\(.*owned by bob.*HINT:.*DROP ROUTINE public\.run_experiment/s, 'by name, with what to do');
unlike($err, qr/is not a member of extension/, 'not half-way through the script');
$node->safe_psql('up', "DROP FUNCTION public.run_experiment($sig)");
$node->safe_psql('up', 'ALTER EXTENSION pgbenchx UPDATE');
is($node->safe_psql('up', q{SELECT extversion FROM pg_extension WHERE extname = 'pgbenchx'}), '0.5', 'updated once it is gone');

# --- after install: no role but the owner's makes such a name ---------------
$node->safe_psql('d', q{
	CREATE EXTENSION pgbenchx;
	CREATE SCHEMA bobs AUTHORIZATION bob;
	GRANT CREATE ON SCHEMA public TO bob;
	GRANT CREATE ON SCHEMA pgbenchx TO bob;
	GRANT USAGE ON SCHEMA pgbenchx TO bob;
});
my @entry = split /\n/, $node->safe_psql('d', q{
	SELECT DISTINCT p.proname FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
	WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pgbenchx') AND d.deptype = 'e'
	  AND p.pronamespace <> 'pgbenchx'::regnamespace ORDER BY 1});
ok(scalar(grep { $_ eq 'run_bench' } @entry) && scalar(grep { $_ eq 'run_experiment' } @entry),
	'the entry points are read from the catalogue: ' . join(', ', @entry));
my @qualified = split /\n/, $node->safe_psql('d', q{
	SELECT DISTINCT p.proname FROM pg_proc p WHERE p.pronamespace = 'pgbenchx'::regnamespace ORDER BY 1});
my @attempts;
for my $name (@entry)
{
	push @attempts,
	  [ "public.$name(int...)", "CREATE FUNCTION public.$name(a int, b int, c text, d text, e int, f int) RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint'" ],
	  [ "bobs.$name(int)", "CREATE FUNCTION bobs.$name(a int) RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint'" ],
	  [ "procedure public.$name", "CREATE PROCEDURE public.$name(a int) LANGUAGE sql AS 'SELECT 1'" ],
	  [ "aggregate bobs.$name", "CREATE AGGREGATE bobs.$name(int) (sfunc = int4pl, stype = int)" ],
	  [ "rename onto $name", "CREATE FUNCTION bobs.innocent_$name(a int) RETURNS int LANGUAGE sql AS 'SELECT 1'; ALTER FUNCTION bobs.innocent_$name(int) RENAME TO $name" ],
	  [ "pg_temp.$name", "CREATE FUNCTION pg_temp.$name(a int) RETURNS int LANGUAGE sql AS 'SELECT 1'" ];
}
for my $name (@qualified[0 .. 2], 'report', 'wait')
{
	push @attempts,
	  [ "pgbenchx.$name(int)", "CREATE FUNCTION pgbenchx.$name(a int) RETURNS int LANGUAGE sql AS 'SELECT 1'" ];
}
push @attempts,
  [ 'moved into pgbenchx', "CREATE FUNCTION bobs.helper(a int) RETURNS int LANGUAGE sql AS 'SELECT 1'; ALTER FUNCTION bobs.helper(int) SET SCHEMA pgbenchx" ];
for my $a (@attempts)
{
	my ($what, $sql) = @$a;
	($rc, $out, $err) = q_as('d', 'bob', "BEGIN; $sql; COMMIT");
	ok($rc != 0 && $err =~ /42501.*permission denied to make routine/s, "bob cannot make $what")
	  or diag($err);
}
# a superuser's routine given to bob is bob's: refused too
($rc, $out, $err) = $node->psql('d', q{CREATE FUNCTION public.run_bench(a int) RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint';
	ALTER FUNCTION public.run_bench(int) OWNER TO bob}, extra_params => [ '-v', 'VERBOSITY=verbose', '-1' ]);
like($err, qr/42501.*permission denied to make routine public\.run_bench\(integer\) of role bob/s, 'a superuser cannot give bob such a routine');
# nothing of bob's answers to a name of pgbenchx's, in any schema
is($node->safe_psql('d', q{SELECT count(*) FROM pgbenchx.name_collisions()}), '0', 'no collision is left anywhere');
is($node->safe_psql('d', q{SELECT count(*) FROM pg_proc WHERE proowner = 'bob'::regrole}), '0', 'bob made no routine at all');
# a superuser's own routine of such a name is hers to make, and innocent names are bob's
($rc, $out, $err) = $node->psql('d', q{CREATE FUNCTION public.run_bench(a int) RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint'});
is($rc, 0, "a superuser's own run_bench overload is hers to make");
$node->safe_psql('d', 'DROP FUNCTION public.run_bench(int)');
($rc, $out, $err) = q_as('d', 'bob', q{CREATE FUNCTION bobs.my_own(a int) RETURNS int LANGUAGE sql AS 'SELECT 1'});
is($rc, 0, 'bob still makes routines of other names');

# --- grant_runner refuses a role that may create beside the entry points ----
($rc, $out, $err) = $node->psql('d', q{SELECT pgbenchx.grant_runner('bob')}, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/0LP01.*role bob may create objects in schema pgbenchx, which holds entry points of pgbenchx.*HINT:.*REVOKE CREATE ON SCHEMA pgbenchx FROM bob/s,
	'grant_runner refuses bob while he may create in schema pgbenchx');
$node->safe_psql('d', 'REVOKE CREATE ON SCHEMA pgbenchx FROM bob');
($rc, $out, $err) = $node->psql('d', q{SELECT pgbenchx.grant_runner('bob')}, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/role bob may create objects in schema public.*HINT:.*REVOKE CREATE ON SCHEMA public FROM bob/s,
	'and while he may create in public, naming the grant to revoke');
$node->safe_psql('d', 'REVOKE CREATE ON SCHEMA public FROM bob; GRANT CREATE ON SCHEMA public TO PUBLIC');
($rc, $out, $err) = $node->psql('d', q{SELECT pgbenchx.grant_runner('alice')}, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/role alice may create objects in schema public.*HINT:.*REVOKE CREATE ON SCHEMA public FROM PUBLIC/s,
	'a grant to PUBLIC is named as such');
$node->safe_psql('d', 'REVOKE CREATE ON SCHEMA public FROM PUBLIC');
$node->safe_psql('d', q{SELECT pgbenchx.grant_runner('bob'); SELECT pgbenchx.grant_runner('alice')});
is($node->safe_psql('d', q{SELECT has_function_privilege('bob', 'pgbenchx.wait(bigint)', 'EXECUTE')}), 't', 'granted once he may not');

# --- acts: inside bob's SECURITY DEFINER function, bob acts -----------------
$node->safe_psql('d', q{
	CREATE FUNCTION bobs.helper_import(doc jsonb) RETURNS bigint[] LANGUAGE sql SECURITY DEFINER
	  SET search_path = pg_catalog AS 'SELECT pgbenchx.import(doc)';
	CREATE FUNCTION bobs.helper_script(n text) RETURNS text LANGUAGE sql SECURITY DEFINER
	  SET search_path = pg_catalog AS $f$SELECT pgbenchx.add_script(n, 'SELECT 1;')$f$;
	CREATE FUNCTION bobs.helper_run() RETURNS bigint LANGUAGE sql SECURITY DEFINER
	  SET search_path = pg_catalog, public AS $f$SELECT public.run_bench(1, 1, 'select-only')$f$;
	ALTER FUNCTION bobs.helper_import(jsonb) OWNER TO bob;
	ALTER FUNCTION bobs.helper_script(text) OWNER TO bob;
	ALTER FUNCTION bobs.helper_run() OWNER TO bob;
	GRANT USAGE ON SCHEMA bobs TO alice;
	INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, label, started_at, finished_at, owner)
	VALUES (900, 'completed', 'select-only', '{1}', 5, 'genuine', now() - interval '1 hour', now() - interval '59 min', 'alice');
	INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, protocol, clients, jobs, duration, started_at, finished_at,
	                           transactions, failed, tps, owner)
	VALUES (901, 900, 'completed', 'select-only', 'simple', 1, 1, 5, now() - interval '60 min', now() - interval '59 min', 5000, 0, 1000, 'alice');
});
my $doc = $node->safe_psql('d', q{SELECT pgbenchx.export(ARRAY[900::bigint])::text});
$doc =~ s/'/''/g;
for my $caller ('alice', $su)
{
	my ($irc, $ids, $ierr) = q_as('d', $caller, "SELECT array_to_string(bobs.helper_import('$doc'::jsonb), ',')");
	is($irc, 0, "$caller calls bob's import helper") or diag($ierr);
	is($node->safe_psql('d', "SELECT string_agg(DISTINCT s.owner || '/' || i.imported_by, ',') FROM pgbenchx.sweeps s
		JOIN pgbenchx.imports i USING (sweep_id) WHERE s.sweep_id IN ($ids)"), 'bob/bob',
		"called by $caller, bob's helper imports as bob, never as $caller");
	my ($src, $sout, $serr) = q_as('d', $caller, "SELECT bobs.helper_script('s_$caller')");
	is($src, 0, "$caller calls bob's script helper") or diag($serr);
	is($node->safe_psql('d', "SELECT owner FROM pgbenchx.custom_scripts WHERE name = 's_$caller'"), 'bob',
		"called by $caller, the script bob's helper registers is bob's");
	my $before = $node->safe_psql('d', 'SELECT count(*) FROM pgbenchx.runs');
	my ($rrc, $rout, $rerr) = q_as('d', $caller, 'SELECT bobs.helper_run()');
	isnt($rrc, 0, "called by $caller, bob's helper cannot start a run without bob's own login");
	like($rerr, qr/role "bob"|role bob/, 'the refusal is about bob, whose rights act');
	is($node->safe_psql('d', 'SELECT count(*) FROM pgbenchx.runs'), $before, 'and no run was recorded');
}
# alice's own import of the genuine document still loads it, as hers
my $mine = $node->safe_psql('d', "SELECT array_to_string(pgbenchx.import('$doc'::jsonb), ',')", extra_params => [ '-U', 'alice' ]);
is($node->safe_psql('d', "SELECT string_agg(s.owner || ':' || (SELECT count(*) FROM pgbenchx.runs r WHERE r.sweep_id = s.sweep_id), ',')
	FROM pgbenchx.sweeps s WHERE s.sweep_id IN ($mine)"), 'alice:1', "alice's own import loads the genuine sweep as hers");
($rc, $out, $err) = q_as('d', 'alice', "SELECT pgbenchx.import_as('$doc'::jsonb, 'bob')");
like($err, qr/permission denied for function import_as/, 'import_as, which takes an importer, is not granted to runners');

# gather (issue 37): inside bob's helper, only bob's loose runs are gathered;
# alice's runs of the same label stay hers and loose, and gather_as, which
# takes the gatherer, is not granted to runners
$node->safe_psql('d', q{
	CREATE FUNCTION bobs.helper_gather(l text) RETURNS bigint LANGUAGE sql SECURITY DEFINER
	  SET search_path = pg_catalog AS 'SELECT pgbenchx.gather(l)';
	ALTER FUNCTION bobs.helper_gather(text) OWNER TO bob;
	INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, protocol, clients, jobs, duration, started_at, finished_at,
	                           transactions, failed, tps, owner, label)
	VALUES (911, NULL, 'completed', 'select-only', 'simple', 1, 1, 5, now() - interval '50 min', now() - interval '49 min', 5000, 0, 1000, 'alice', 'loop'),
	       (912, NULL, 'completed', 'select-only', 'simple', 2, 1, 5, now() - interval '48 min', now() - interval '47 min', 9000, 0, 1800, 'alice', 'loop'),
	       (913, NULL, 'completed', 'select-only', 'simple', 1, 1, 5, now() - interval '46 min', now() - interval '45 min', 4000, 0, 800, 'bob', 'loop');
});
for my $caller ('alice', $su)
{
	my ($grc, $gout, $gerr) = q_as('d', $caller, "SELECT bobs.helper_gather('loop')");
	if ($caller eq 'alice')
	{
		is($grc, 0, "alice calls bob's gather helper") or diag($gerr);
		is($node->safe_psql('d', "SELECT s.owner || ':' || string_agg(r.run_id::text, ',' ORDER BY r.run_id) FROM pgbenchx.sweeps s "
			  . "JOIN pgbenchx.runs r USING (sweep_id) WHERE s.sweep_id = $gout GROUP BY s.owner"),
			'bob:913', "called by alice, bob's helper gathers bob's run only, into bob's sweep");
	}
	else
	{
		isnt($grc, 0, "called by $caller, bob's helper finds no loose run of bob's left");
		like($gerr, qr/P0002.*you have no finished run labelled 'loop'.*role bob/s, 'the refusal names bob, whose rights act');
	}
	is($node->safe_psql('d', 'SELECT string_agg(run_id::text, \',\' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id IS NULL AND label = \'loop\''),
		'911,912', "after $caller\'s call alice's runs are still loose");
}
($rc, $out, $err) = q_as('d', 'bob', "SELECT pgbenchx.gather_as('loop', 'alice')");
like($err, qr/permission denied for function gather_as/, 'gather_as, which takes the gatherer, is not granted to runners');
my $alices = $node->safe_psql('d', "SELECT pgbenchx.gather('loop')", extra_params => [ '-U', 'alice' ]);
is($node->safe_psql('d', "SELECT s.owner || ':' || s.clients::text || ':' || s.status || ':' || s.repeats || ':' "
	  . "|| (SELECT string_agg(r.run_id || '/' || r.repeat, ',' ORDER BY r.run_id) FROM pgbenchx.runs r WHERE r.sweep_id = s.sweep_id) "
	  . "FROM pgbenchx.sweeps s WHERE s.sweep_id = $alices"),
	'alice:{1,2}:completed:1:911/1,912/1', "alice's own gather makes her two runs one sweep of 1 and 2 clients");

# --- no source reads the outer or the session user --------------------------
my $root = "$FindBin::RealBin/../..";
my @hits;
find(sub {
	return unless /\.(c|h|sql)$/;
	return if $File::Find::name =~ m{/src/upgrade/|/pgbenchx--};
	open my $fh, '<', $_ or die "$File::Find::name: $!";
	while (my $line = <$fh>)
	{
		# the one use of the login role: a session's secret serves only
		# the role that logged in, when it is also the acting one
		next if $line =~ /GetUserId\(\) == GetAuthenticatedUserId\(\)/;
		push @hits, "$File::Find::name:$.: $line"
		  if $line =~ /\b(GetOuterUserId|GetSessionUserId|session_user|GetAuthenticatedUserId)\b/i;
	}
}, "$root/src");
is(join('', @hits), '', 'no source of the extension reads the outer, session or authenticated user (but to keep a secret to its own login)');

done_testing();
