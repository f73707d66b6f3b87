# An imported document can never impersonate this server's results or
# another role's (issue 20, section 6), probed as a runner who may import
# would try it.  What a document claims (where it comes from, the ids it was
# measured under, an environment's env_hash) is not proof, so it is kept
# apart: an import maps only onto the importing role's own rows (a
# superuser's too), and a capture never reuses an imported environment.
#
# Two clusters: X, where bob measured two sweeps (rows written directly, as
# a run stores them, under a real capture of X's environment), and Y, where
# mallory, bob and carol (runners) and the superuser import.
#   - Provenance: mallory imports first a document claiming to come from X
#     (its system identifier, database, sweep and run ids, labels, script
#     names and env_hash; her own contents, her own "owner" and
#     "imported_by").  bob then imports X's real export: he gets new sweeps
#     of his own with exactly the runs, samples and statement rows of his
#     export and X's environment as captured there, never mallory's rows;
#     again, the same ids and nothing added.  The superuser importing after
#     them, and carol, get their own rows too.  mallory's claim of a run of
#     X under a sweep of her own does not stop or divert anyone's import.
#     Registered scripts are never touched by an import.
#   - Environments: mallory computes the env_hash Y will capture once the
#     DBA sets work_mem = 64MB, and imports a forged environment under it
#     (and one under the hash Y captures now, and one equal to it in every
#     field).  After the DBA's change, carol's capture and the superuser's
#     run get a row Y captured, with that very hash, never hers.
#   - The update from 0.4 (in a database created at 0.4, where the attack
#     worked): every row is kept, an environment whose env_hash is not that
#     of its contents, or that only imports use, is marked imported by its
#     first importer, and the next capture makes a row of its own.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $x = pgbenchx_node('x');
my $y = pgbenchx_node('y');
sub qx1 { return $x->safe_psql('postgres', $_[0]); }
sub qy  { return $y->safe_psql('postgres', $_[0]); }
# as a role of Y (local connections trust: the roles log in without a password)
sub qas
{
	my ($role, $sql) = @_;
	return $y->safe_psql('postgres', $sql, extra_params => [ '-U', $role ]);
}
sub lit { my ($doc) = @_; die 'a document holding $d$' if $doc =~ /\$d\$/; return "\$d\$$doc\$d\$::jsonb"; }

# --- X: bob's two sweeps, as the coordinator stores them ----------------------
my $env_x = qx1('SELECT pgbenchx.capture_environment()');
qx1(qq{
	INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, label, started_at, finished_at, owner, environment_id)
	VALUES (10, 'completed', 'mine', '{1,2}', 5, 'ext4 noatime', now() - interval '1 hour', now() - interval '59 min', 'bob', $env_x),
	       (20, 'completed', 'select-only', '{4}', 5, 'xfs', now() - interval '50 min', now() - interval '49 min', 'bob', $env_x);
	INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, protocol, clients, jobs, duration, started_at, finished_at,
	                           transactions, failed, tps, owner, environment_id)
	VALUES (11, 10, 'completed', 'mine', 'simple', 1, 1, 5, now() - interval '60 min', now() - interval '59 min', 5000, 0, 1000, 'bob', $env_x),
	       (12, 10, 'completed', 'mine', 'simple', 2, 1, 5, now() - interval '59 min', now() - interval '58 min', 9000, 0, 1800, 'bob', $env_x),
	       (21, 20, 'completed', 'select-only', 'simple', 4, 2, 5, now() - interval '50 min', now() - interval '49 min', 30000, 0, 6000, 'bob', $env_x);
	INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, failed)
	SELECT r, s, 1000 + r + s, 1000 + r + s, 0 FROM unnest(ARRAY[11, 12, 21]) r, generate_series(1, 5) s;
	INSERT INTO pgbenchx.statement_stats (run_id, script, command, command_text, executions, latency_avg_ms)
	SELECT r, 'mine', 1, 'SELECT 1;', 5000, 0.5 FROM unnest(ARRAY[11, 12, 21]) r;
});
my $doc_x = qx1('SELECT pgbenchx.export(ARRAY[10, 20])');
my $sysid_x = qx1('SELECT system_identifier FROM pg_control_system()');
isnt($sysid_x, qy('SELECT system_identifier FROM pg_control_system()'), 'X and Y are two servers');
my $real_cpu = qx1("SELECT coalesce(cpu_model, '?') FROM pgbenchx.environments WHERE environment_id = $env_x");
my $hash_x = qx1("SELECT env_hash FROM pgbenchx.environments WHERE environment_id = $env_x");
# what bob's export holds, to compare with what each import gives back
my $doc_counts = qy('SELECT jsonb_array_length(d->\'sweeps\') || \' \' || jsonb_array_length(d->\'runs\') || \' \'
	|| jsonb_array_length(d->\'samples\') || \' \' || jsonb_array_length(d->\'statement_stats\') FROM (SELECT '
	. lit($doc_x) . ' AS d) x');
is($doc_counts, '2 3 15 3', "X's export: 2 sweeps, 3 runs, 15 samples, 3 statement rows");

# --- Y: three runners; bob has a script named like X's ------------------------
qy(q{
	CREATE ROLE mallory LOGIN; CREATE ROLE bob LOGIN; CREATE ROLE carol LOGIN;
	SELECT pgbenchx.grant_runner('mallory'); SELECT pgbenchx.grant_runner('bob'); SELECT pgbenchx.grant_runner('carol');
});
qas('bob', q{SELECT pgbenchx.add_script('mine', E'SELECT 1;\n')});
my $scripts_before = qy(q{SELECT string_agg(name || ':' || owner || ':' || md5(body), ',' ORDER BY name) FROM pgbenchx.custom_scripts});

# --- mallory's claim: X's identity, X's ids, labels, script names, env_hash ---
# A document of her own making: provenance X; sweep 20 (X's id, label and
# script) without runs; sweep 99 labelled like X's sweep 10, holding X's run
# 11 with a tps of her choice; and X's env_hash over a forged CPU.  She also
# names bob as the owner and bob, then nobody, as the environment's importer.
my $forged = qas('mallory', sprintf(q{
	SELECT jsonb_build_object(
	  'format', 'pgbenchx-export', 'format_version', 1,
	  'provenance', jsonb_build_object('system_identifier', '%s', 'database', 'postgres',
	                                   'exported_at', now(), 'pgbenchx_version', '0.5', 'server_version', '15'),
	  'environments', jsonb_build_array(jsonb_build_object('environment_id', 7, 'env_hash', '%s',
	                  'cpu_model', 'FORGED CPU', 'imported_by', 'bob')),
	  'sweeps', jsonb_build_array(
	      jsonb_build_object('sweep_id', 20, 'status', 'completed', 'script', 'select-only', 'clients', '[4]'::jsonb,
	                         'label', 'xfs', 'started_at', now(), 'finished_at', now(), 'owner', 'bob', 'environment_id', 7),
	      jsonb_build_object('sweep_id', 99, 'status', 'completed', 'script', 'mine', 'clients', '[1]'::jsonb,
	                         'label', 'ext4 noatime', 'started_at', now(), 'finished_at', now(), 'owner', 'bob', 'environment_id', 7)),
	  'runs', jsonb_build_array(
	      jsonb_build_object('run_id', 11, 'sweep_id', 99, 'status', 'completed', 'script', 'mine', 'clients', 1,
	                         'jobs', 1, 'replay', false, 'started_at', now(), 'finished_at', now(), 'tps', 1e9, 'transactions', 1,
	                         'owner', 'bob', 'environment_id', 7)),
	  'samples', '[]'::jsonb, 'statement_stats', '[]'::jsonb,
	  'imports', jsonb_build_array(jsonb_build_object('run_id', 11, 'origin_system_identifier', '%s',
	                                                  'origin_database', 'postgres', 'origin_id', 11)))},
	$sysid_x, $hash_x, $sysid_x));
my $m_ids = qas('mallory', 'SELECT pgbenchx.import(' . lit($forged) . ')');
like($m_ids, qr/^\{\d+,\d+\}$/, "mallory's forged document imports ($m_ids)");
is(qy("SELECT string_agg(DISTINCT s.owner, ',') || ' ' || string_agg(DISTINCT e.imported_by, ',') || ' ' || string_agg(DISTINCT i.imported_by, ',')
	   FROM pgbenchx.sweeps s JOIN pgbenchx.environments e USING (environment_id) JOIN pgbenchx.imports i USING (sweep_id)
	   WHERE s.sweep_id = ANY ('$m_ids')"),
	'mallory mallory mallory', 'her sweeps, environment and imports rows are hers, whatever owner and importer the document names');
# the same environment claiming to be captured here (imported_by null), under another hash
my $null_claim = qy('SELECT jsonb_set(jsonb_set(jsonb_set(jsonb_set(d, \'{environments,0,imported_by}\', \'null\'),
	\'{environments,0,cpu_model}\', \'"FORGED CPU 2"\'), \'{environments,0,env_hash}\', \'"another"\'),
	\'{sweeps}\', jsonb_build_array(jsonb_set(d->\'sweeps\'->0, \'{sweep_id}\', \'97\')))
	- \'imports\' || \'{"runs": []}\' FROM (SELECT ' . lit($forged) . ' AS d) x');
qas('mallory', 'SELECT pgbenchx.import(' . lit($null_claim) . ')');
is(qy(q{SELECT count(*) FILTER (WHERE imported_by IS NULL) || ' ' || count(*) FILTER (WHERE imported_by = 'mallory')
	   FROM pgbenchx.environments WHERE cpu_model LIKE 'FORGED%'}),
	'0 2', 'an environment claiming "imported_by": null is still imported_by mallory');

# --- bob imports X's real export: his own rows, all of them -------------------
my $b_ids = qas('bob', 'SELECT pgbenchx.import(' . lit($doc_x) . ')');
like($b_ids, qr/^\{\d+,\d+\}$/, "bob's import of X's export returns two sweeps ($b_ids)");
is(qy("SELECT count(*) FROM unnest('$b_ids'::bigint[]) b WHERE b = ANY ('$m_ids')"), '0',
	"none of bob's sweeps is one of mallory's");
# what a role got from an import of X's export, in the export's terms
my $got_sql = q{
	SELECT string_agg(s.label || ':' || s.script || ':' || s.owner || ':' || i.imported_by || ':' || i.origin_id
	                  || ':' || (i.origin_system_identifier = %s) || ':' || coalesce(e.cpu_model, '?') || ':' || coalesce(e.imported_by, '-'), ','
	                  ORDER BY i.origin_id)
	       || ' runs ' || (SELECT count(*) || '/' || sum(r.tps) || '/' || string_agg(DISTINCT r.owner, ',')
	                       FROM pgbenchx.runs r WHERE r.sweep_id = ANY ('%s'))
	       || ' samples ' || (SELECT count(*) FROM pgbenchx.samples x JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = ANY ('%s'))
	       || ' stmts ' || (SELECT count(*) FROM pgbenchx.statement_stats x JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = ANY ('%s'))
	FROM pgbenchx.sweeps s JOIN pgbenchx.imports i USING (sweep_id) JOIN pgbenchx.environments e USING (environment_id)
	WHERE s.sweep_id = ANY ('%s')};
sub got { my ($ids) = @_; return qy(sprintf($got_sql, $sysid_x, $ids, $ids, $ids, $ids)); }
sub want
{
	my ($role) = @_;
	return "ext4 noatime:mine:$role:$role:10:true:$real_cpu:$role,xfs:select-only:$role:$role:20:true:$real_cpu:$role"
	  . " runs 3/8800/$role samples 15 stmts 3";
}
is(got($b_ids), want('bob'),
	"bob gets X's sweeps with all their runs, samples and statement rows, and X's environment, as his own");
is(qy(q{SELECT count(*) || ' ' || string_agg(DISTINCT imported_by, ',') FROM pgbenchx.imports WHERE imported_by <> 'mallory'}),
	'5 bob', 'his imports rows: 2 sweeps and 3 runs, imported_by bob');
is(qy("SELECT count(*) || ' ' || min(tps) FROM pgbenchx.runs WHERE sweep_id = ANY ('$m_ids')"), '1 1000000000',
	"mallory's sweeps keep their one run: bob's import added nothing to them");

# importing again: the same ids, nothing added
my $counts_sql = q{SELECT (SELECT count(*) FROM pgbenchx.sweeps) || ' ' || (SELECT count(*) FROM pgbenchx.runs)
	|| ' ' || (SELECT count(*) FROM pgbenchx.samples) || ' ' || (SELECT count(*) FROM pgbenchx.environments)
	|| ' ' || (SELECT count(*) FROM pgbenchx.imports)};
my $counts = qy($counts_sql);
is(qas('bob', 'SELECT pgbenchx.import(' . lit($doc_x) . ')'), $b_ids, "bob's second import returns the same sweeps");
is(qy($counts_sql), $counts, 'and adds nothing');

# the superuser, after the runners, and carol: their own rows each
my $s_ids = qy('SELECT pgbenchx.import(' . lit($doc_x) . ')');
my $su = qy('SELECT current_user');
is(qy("SELECT count(*) FROM unnest('$s_ids'::bigint[]) s WHERE s = ANY ('$b_ids') OR s = ANY ('$m_ids')"), '0',
	"the superuser's import maps onto no runner's sweep");
is(got($s_ids), want($su), "the superuser gets X's sweeps complete, as its own");
my $c_ids = qas('carol', 'SELECT pgbenchx.import(' . lit($doc_x) . ')');
is(got($c_ids), want('carol'), "carol, importing last, gets X's sweeps complete, as her own");
is(qy("SELECT count(DISTINCT environment_id) FROM pgbenchx.sweeps WHERE sweep_id = ANY ('$b_ids'::bigint[] || '$s_ids' || '$c_ids' || '$m_ids')"),
	'4', 'four importers of one env_hash, four environments');
# mallory importing X's real sweep 20 now finds only her own claim of it
my $doc_x20 = qx1('SELECT pgbenchx.export(ARRAY[20])');
is(qas('mallory', 'SELECT pgbenchx.import(' . lit($doc_x20) . ") = ARRAY[('$m_ids'::bigint[])[1]]"), 't',
	"mallory's own claim of X's sweep 20 is what her import of it maps onto: her rows only");
is(qy(q{SELECT string_agg(name || ':' || owner || ':' || md5(body), ',' ORDER BY name) FROM pgbenchx.custom_scripts}),
	$scripts_before, 'no import touched the registered scripts (bob still owns "mine", its body unchanged)');
like(qas('bob', q{SELECT pgbenchx.script_text('mine')}), qr/^SELECT 1;/, "script_text('mine') is still bob's");

# --- environments: the hash Y computes next, forged in advance ----------------
my $e0 = qas('carol', 'SELECT pgbenchx.capture_environment()');
is(qy("SELECT imported_by IS NULL FROM pgbenchx.environments WHERE environment_id = $e0"), 't',
	'a capture makes a row captured here');
# as mallory computes it: the stored row, its work_mem changed, hashed as
# docs/environments.md says
my $next = qas('mallory', qq{
	SELECT md5(jsonb_set(to_jsonb(e) - '{environment_id,env_hash,captured_at,imported_by}'::text[],
	                     '{settings,work_mem}', '"64MB"')::text)
	FROM pgbenchx.environments e WHERE environment_id = $e0});
isnt($next, qy("SELECT env_hash FROM pgbenchx.environments WHERE environment_id = $e0"), 'the predicted hash is a new one');
my $sweep = q{jsonb_build_object('sweep_id', %d, 'status', 'completed', 'script', 'tpcb-like', 'clients', '[1]'::jsonb,
	'started_at', now(), 'finished_at', now(), 'environment_id', %d)};
my $env_doc = qas('mallory', sprintf(q{
	SELECT jsonb_build_object('format', 'pgbenchx-export', 'format_version', 1,
	  'provenance', jsonb_build_object('system_identifier', (SELECT system_identifier::text FROM pg_control_system()),
	                                   'database', 'postgres'),
	  'environments', jsonb_build_array(
	      -- the next capture's hash, with what she wants it to say
	      (SELECT (to_jsonb(e) - 'environment_id') || jsonb_build_object('environment_id', 1, 'env_hash', '%s',
	              'cpu_model', 'FORGED CPU', 'settings', e.settings || '{"work_mem": "64MB"}')
	       FROM pgbenchx.environments e WHERE environment_id = %d),
	      -- the current capture's hash over other contents
	      (SELECT (to_jsonb(e) - 'environment_id') || jsonb_build_object('environment_id', 2, 'cpu_model', 'FORGED CPU')
	       FROM pgbenchx.environments e WHERE environment_id = %d),
	      -- the current capture exactly: the same environment (it may share the row)
	      (SELECT (to_jsonb(e) - 'environment_id') || jsonb_build_object('environment_id', 3)
	       FROM pgbenchx.environments e WHERE environment_id = %d)),
	  'sweeps', jsonb_build_array(%s, %s, %s), 'runs', '[]'::jsonb, 'samples', '[]'::jsonb,
	  'statement_stats', '[]'::jsonb)},
	$next, $e0, $e0, $e0, sprintf($sweep, 1, 1), sprintf($sweep, 2, 2), sprintf($sweep, 3, 3)));
my $e_ids = qas('mallory', 'SELECT pgbenchx.import(' . lit($env_doc) . ')');
my @e_ids = $e_ids =~ /(\d+)/g;
is(scalar(@e_ids), 3, 'her three sweeps import');
my $env_of = sub { return qy("SELECT environment_id FROM pgbenchx.sweeps WHERE sweep_id = $_[0]"); };
my ($forged_next, $forged_now, $same_now) = map { $env_of->($_) } @e_ids;
is(qy("SELECT env_hash || ' ' || imported_by || ' ' || cpu_model FROM pgbenchx.environments WHERE environment_id = $forged_next"),
	"$next mallory FORGED CPU", "the forged environment is stored under the hash Y will compute, imported_by mallory");
isnt($forged_now, $e0, "one with the current capture's hash but other contents is not the captured row");
is(qy("SELECT imported_by FROM pgbenchx.environments WHERE environment_id = $forged_now"), 'mallory', '... it is hers');
is($same_now, $e0, 'one equal in every field to the captured row is that row (verified, nothing claimed)');
is(qy("SELECT cpu_model <> 'FORGED CPU' AND imported_by IS NULL FROM pgbenchx.environments WHERE environment_id = $e0"), 't',
	'the captured row is unchanged');

# the DBA changes work_mem; the next captures are Y's own
qy(q{ALTER SYSTEM SET work_mem = '64MB'; SELECT pg_reload_conf()});
ok($y->poll_query_until('postgres', q{SELECT current_setting('work_mem') = '64MB'}), 'work_mem is 64MB');
my $e1 = qas('carol', 'SELECT pgbenchx.capture_environment()');
is(qy("SELECT env_hash FROM pgbenchx.environments WHERE environment_id = $e1"), $next,
	"carol's capture has the hash mallory predicted (the attack was aimed right)");
isnt($e1, $forged_next, '... and is not her forged row');
is(qy(qq{SELECT (imported_by IS NULL) || ' ' || (cpu_model = (SELECT cpu_model FROM pgbenchx.environments WHERE environment_id = $e0))
	   || ' ' || (env_hash = md5((to_jsonb(e) - 'environment_id' - 'env_hash' - 'captured_at' - 'imported_by')::text))
	   FROM pgbenchx.environments e WHERE environment_id = $e1}),
	'true true true', 'it is a row captured here, with the real CPU, its hash that of its contents');
is(qas('carol', 'SELECT pgbenchx.capture_environment()'), $e1, 'a second capture reuses it');
qy('SET client_min_messages = warning; SELECT pgbench_init(1)');
my $run = qy("SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
qy("SET client_min_messages = warning; CALL pgbenchx.wait($run)");
is(qy("SELECT r.status || ' ' || (r.environment_id = $e1) || ' ' || (e.imported_by IS NULL)
	   FROM pgbenchx.runs r JOIN pgbenchx.environments e USING (environment_id) WHERE r.run_id = $run"),
	'completed true true', "the superuser's new run is linked to Y's captured row, not the forged one");
is(qy("SELECT count(*) FROM pgbenchx.runs WHERE environment_id = $forged_next"), '0', 'no run links to the forged row');
# a role's re-import of its own environment stays its own, even now that a capture shares the hash
is(qas('mallory', 'SELECT pgbenchx.import(' . lit($env_doc) . ')'), $e_ids, "mallory's second import returns her same sweeps");
is(qy("SELECT count(*) FROM pgbenchx.environments WHERE env_hash = '$next'"), '2',
	'one row captured here and one imported by mallory share the hash, kept apart');

# --- the update from 0.4: stored rows get their provenance --------------------
# Under 0.4's SQL (this library captures as 0.4 did until the update), the
# attack as reported: mallory's forged environment under the next hash is
# reused by the capture after the DBA's change, and a run is linked to it.
# bob imported X's export there too.  ALTER EXTENSION UPDATE keeps every row
# and marks what no capture of this server made.
qy('CREATE DATABASE old');
sub qo { return $y->safe_psql('old', $_[0]); }
sub qoas { my ($role, $sql) = @_; return $y->safe_psql('old', $sql, extra_params => [ '-U', $role ]); }
qo(q{CREATE EXTENSION pgbenchx VERSION '0.4';
	SELECT pgbenchx.grant_runner('mallory'); SELECT pgbenchx.grant_runner('bob'); SELECT pgbenchx.grant_runner('carol')});
# This library refuses the import of 0.4's SQL (its caller_role() read the
# outer user: test/t/073); the imports 0.4 made are made here as released,
# its caller_role() the session's user.
is($y->psql('old', 'SELECT pgbenchx.import(NULL)'), 3, "this library refuses 0.4's import until the update");
qo(q{CREATE OR REPLACE FUNCTION pgbenchx.caller_role() RETURNS name LANGUAGE sql AS 'SELECT session_user'});
my $o0 = qoas('carol', 'SELECT pgbenchx.capture_environment()');
my $o_next = qoas('mallory', qq{
	SELECT md5(jsonb_set(to_jsonb(e) - '{environment_id,env_hash,captured_at,imported_by}'::text[],
	                     '{settings,work_mem}', '"32MB"')::text)
	FROM pgbenchx.environments e WHERE environment_id = $o0});
my $o_doc = qoas('mallory', sprintf(q{
	SELECT jsonb_build_object('format', 'pgbenchx-export', 'format_version', 1,
	  'provenance', jsonb_build_object('system_identifier', '1', 'database', 'elsewhere'),
	  'environments', jsonb_build_array(
	      (SELECT (to_jsonb(e) - 'environment_id') || jsonb_build_object('environment_id', 1, 'env_hash', '%s',
	              'cpu_model', 'FORGED CPU', 'settings', e.settings || '{"work_mem": "32MB"}')
	       FROM pgbenchx.environments e WHERE environment_id = %d)),
	  'sweeps', jsonb_build_array(%s), 'runs', '[]'::jsonb, 'samples', '[]'::jsonb, 'statement_stats', '[]'::jsonb)},
	$o_next, $o0, sprintf($sweep, 1, 1)));
my $o_m = qoas('mallory', 'SELECT pgbenchx.import(' . lit($o_doc) . ')');
my $o_forged = qo("SELECT environment_id FROM pgbenchx.sweeps WHERE sweep_id = ('$o_m'::bigint[])[1]");
my $o_b = qoas('bob', 'SELECT pgbenchx.import(' . lit($doc_x) . ')');
my $o_benv = qo("SELECT environment_id FROM pgbenchx.sweeps WHERE sweep_id = ('$o_b'::bigint[])[1]");
qy(q{ALTER SYSTEM SET work_mem = '32MB'; SELECT pg_reload_conf()});
ok($y->poll_query_until('old', q{SELECT current_setting('work_mem') = '32MB'}), 'work_mem is 32MB');
is(qoas('carol', 'SELECT pgbenchx.capture_environment()'), $o_forged,
	"0.4's SQL: the capture after the DBA's change reuses mallory's forged row (the attack as reported)");
qo(qq{INSERT INTO pgbenchx.runs (status, script, protocol, clients, jobs, started_at, finished_at, repeat, replay, owner, environment_id)
	VALUES ('completed', 'select-only', 'simple', 1, 1, now(), now(), 1, false, 'carol', $o_forged)});
my $o_rows = qo(q{SELECT (SELECT count(*) FROM pgbenchx.sweeps) || ' ' || (SELECT count(*) FROM pgbenchx.runs)
	|| ' ' || (SELECT count(*) FROM pgbenchx.environments) || ' ' || (SELECT count(*) FROM pgbenchx.imports)});
qo('ALTER EXTENSION pgbenchx UPDATE');
is(qo(q{SELECT extversion FROM pg_extension WHERE extname = 'pgbenchx'}), '0.5', 'updated to 0.5');
is(qo(q{SELECT (SELECT count(*) FROM pgbenchx.sweeps) || ' ' || (SELECT count(*) FROM pgbenchx.runs)
	|| ' ' || (SELECT count(*) FROM pgbenchx.environments) || ' ' || (SELECT count(*) FROM pgbenchx.imports)}),
	$o_rows, 'the update keeps every sweep, run, environment and imports row');
is(qo("SELECT string_agg(environment_id || ':' || coalesce(imported_by, '-'), ',' ORDER BY environment_id)
	   FROM pgbenchx.environments WHERE environment_id IN ($o0, $o_forged, $o_benv)"),
	join(',', map { $_->[0] . ':' . $_->[1] } sort { $a->[0] <=> $b->[0] } ([ $o0, '-' ], [ $o_forged, 'mallory' ], [ $o_benv, 'bob' ])),
	"the captured row stays captured here; the forged one (its hash not that of its contents, though a run uses it) is mallory's; X's, used only by bob's import, is bob's");
is(qo(q{SELECT string_agg(DISTINCT i.imported_by || '=' || coalesce(s.owner, r.owner), ',')
	   FROM pgbenchx.imports i LEFT JOIN pgbenchx.sweeps s USING (sweep_id) LEFT JOIN pgbenchx.runs r USING (run_id)}),
	'bob=bob,mallory=mallory', 'each imports row is imported_by the owner of what it loaded');
is(qo("SELECT count(*) FROM pgbenchx.runs WHERE environment_id = $o_forged AND owner = 'carol'"), '1',
	'the run linked to the forged row keeps its environment_id (nothing stored is rewritten)');
my $o1 = qoas('carol', 'SELECT pgbenchx.capture_environment()');
is(qo("SELECT (environment_id <> $o_forged) || ' ' || (imported_by IS NULL) || ' ' || (env_hash = '$o_next')
	   FROM pgbenchx.environments WHERE environment_id = $o1"),
	'true true true', 'after the update, the capture makes its own row under that hash, not the forged one');
is(qoas('bob', 'SELECT pgbenchx.import(' . lit($doc_x) . ')'), $o_b, "bob's import from before the update is found again: the same sweeps");
is(qoas('carol', 'SELECT cardinality(pgbenchx.import(' . lit($doc_x) . ")) || ' ' || (pgbenchx.import(" . lit($doc_x) . ") && '$o_b')"),
	'2 false', "carol's import of the same export gets sweeps of her own");

ok(nothing_left($y), 'nothing left running');
$x->stop;
$y->stop;
done_testing();
