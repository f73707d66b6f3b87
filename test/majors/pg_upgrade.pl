# pg_upgrade from an older major with pgbenchx and stored results, the way
# users move between majors (issue 21).  Not a file of test/t/, which runs
# once per major: this one runs under the NEW major's TAP framework (the
# PostgreSQL::Test::Cluster of the pg_config make was given), and the old
# major is named by the environment:
#   PGX_OLD_INSTALL            the old major's install (its bin/ holds
#                              initdb, pg_ctl, postgres), e.g. Debian's
#                              /usr/lib/postgresql/15; without it: skip_all
#   PGX_OLD_EXTENSION_DESTDIR  where pgbenchx for the old major was
#                              installed with make install DESTDIR=...
#                              (optional: its extension_destdir)
#   PGX_EXTENSION_DESTDIR      the same for the new major (optional, as in
#                              every other test; not needed when pgbenchx is
#                              installed into the new major's own prefix)
# Both clusters preload pgbenchx (shared_preload_libraries), as a user who
# enabled its start-up worker would have: the worker then also runs in the
# servers pg_upgrade starts.
#
# The old node stores real results: pgbench_init, a sweep, a lone tpcb-like
# run (per-statement latencies), a weighted mix with a registered script, a
# replay, a run driven through a load generator (itself), an export imported
# back; a runner role is granted.  It records, from the catalogue, every
# table of the extension (count and md5 of the binary form of its rows,
# record_send, ordered by primary key), every sequence, the extension's
# members, their privileges, its configuration tables, and what the readers
# print for the old results (report, sweep_report, compare, the charts,
# export...).  Then pg_upgrade --check and pg_upgrade to a node initdb'd by
# the new major, and on the new node:
#   - every table, sequence, member, privilege and configuration mark is
#     the same; ALTER EXTENSION pgbenchx UPDATE succeeds and keeps them;
#     the schema equals a fresh CREATE EXTENSION's on the new major;
#   - every reader prints the same text for the old results as before;
#   - a new run and a new sweep complete (their environment names the new
#     server, their checkpoints are counted), pgbench_init works, the old
#     pgbench tables pass amcheck;
#   - the export of the old sweep holds the same results, and importing the
#     document exported before the upgrade adds nothing;
#   - no server log holds an error, pg_upgrade's own no crash and no error
#     of pgbenchx's.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(getcwd abs_path);
use File::Find;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

plan skip_all => 'PGX_OLD_INSTALL is not set: it names the install of the major to upgrade from '
  . '(e.g. PGX_OLD_INSTALL=/usr/lib/postgresql/15), with pgbenchx installed for it'
  unless $ENV{PGX_OLD_INSTALL};
my $old_install = $ENV{PGX_OLD_INSTALL};
BAIL_OUT("PGX_OLD_INSTALL=$old_install has no bin/pg_ctl and bin/postgres")
  unless -x "$old_install/bin/pg_ctl" && -x "$old_install/bin/postgres";

my $root = abs_path("$FindBin::RealBin/../..");
my ($version) = slurp_file("$root/pgbenchx.control") =~ /^default_version = '([^']+)'/m;

my $old = PostgreSQL::Test::Cluster->new('old', install_path => $old_install);
my $new = PostgreSQL::Test::Cluster->new('new');
my $old_bindir = $old->config_data('--bindir');
my $new_bindir = $new->config_data('--bindir');
note("upgrading from " . $old->pg_version . " ($old_bindir) to " . $new->pg_version . " ($new_bindir)");

# a node's settings: its pgbenchx install (destdir, '' for its own prefix),
# preloaded by the very file CREATE EXTENSION loads
sub configure
{
	my ($node, $destdir) = @_;
	my $preload = 'pgbenchx';
	if ($destdir)
	{
		$node->append_conf('postgresql.conf', "extension_destdir = '$destdir'");
		$preload = $destdir . $node->config_data('--pkglibdir') . '/pgbenchx';
	}
	$node->append_conf('postgresql.conf',
		"log_statement = none\nmax_worker_processes = 16\nshared_preload_libraries = '$preload'\n");
}

$old->init;
configure($old, $ENV{PGX_OLD_EXTENSION_DESTDIR});
$old->start;

sub q_old { return $old->safe_psql('postgres', $_[0]); }
sub q_new { return $new->safe_psql('postgres', $_[0]); }
sub wait_old { q_old("SET client_min_messages = warning; CALL pgbenchx.wait($_[0])"); }
sub wait_new { q_new("SET client_min_messages = warning; CALL pgbenchx.wait($_[0])"); }

# --- the old major: real results ------------------------------------------------
q_old('CREATE EXTENSION pgbenchx');
my $old_version = q_old("SELECT extversion FROM pg_extension WHERE extname = 'pgbenchx'");
is($old_version, $version, "the old major has pgbenchx $version");
like(q_old('SHOW shared_preload_libraries'), qr/pgbenchx/, 'the old node preloads pgbenchx');
q_old('SET client_min_messages = warning; SELECT pgbench_init(1)');
q_old(q{SELECT pgbenchx.add_script('mine', E'\\\\set a random(1, 10)\nSELECT :a;\n')});
q_old(q{CREATE ROLE alice LOGIN; SELECT pgbenchx.grant_runner('alice')});

my $sweep = q_old(q{SELECT run_sweep(ARRAY[1, 2], 1, 'select-only', checkpoint => false, label => 'old sweep')});
wait_old($sweep);
my $run = q_old(q{SELECT run_bench(2, 2, 'tpcb-like', checkpoint => false, label => 'old run')});
wait_old($run);
my $mix = q_old(q{SELECT run_bench(2, 1, 'select-only@3, mine@1', checkpoint => false, tags => '{"era": "old major"}')});
wait_old($mix);
my $replay = q_old(q{SELECT run_replay(E'SELECT 1;\nSELECT 2;\nSELECT 3;\n', 1, 2, checkpoint => false)});
wait_old($replay);
my $self = 'host=' . $old->host . ' port=' . $old->port . ' dbname=postgres';
my $gen = q_old("SELECT run_bench(2, 1, 'select-only', conninfo => '$self', generators => ARRAY['$self'], vacuum => false, checkpoint => false)");
wait_old($gen);
my $doc = q_old("SELECT pgbenchx.export(ARRAY[$sweep])");
my $imported = q_old("SELECT (pgbenchx.import(\$doc\$$doc\$doc\$::jsonb))[1]");
ok($imported > $gen, 'under the old major: the export imported into the same database is a new sweep');

my $recorded = q_old("SELECT string_agg(DISTINCT status, ',') FROM pgbenchx.runs");
is($recorded, 'completed', 'under the old major: every run completed');
is(q_old("SELECT count(*) FROM pgbenchx.runs WHERE run_id IN ($run, $mix) AND checkpoints IS NOT NULL AND autovacuums IS NOT NULL"), '2',
	'under the old major: runs count the checkpoints and autovacuums during them');
is(q_old("SELECT count(*) FROM pgbenchx.runs WHERE run_id = $mix AND transactions > 0"), '1',
	'under the old major: the run with a registered script made transactions');
is(q_old("SELECT count(*) FROM pgbenchx.run_generators WHERE run_id = $gen AND status = 'completed'"), '1',
	'under the old major: the run through a generator has its generator row');
ok(q_old("SELECT count(*) FROM pgbenchx.samples WHERE latency_hist IS NOT NULL") > 0
	  && q_old("SELECT count(*) FROM pgbenchx.runs WHERE latency_hist IS NULL AND NOT replay") == 0,
	'under the old major: runs and seconds have their latency histograms');

# --- what is compared: read from the catalogue ---------------------------------------
my $ext = q{(SELECT oid FROM pg_extension WHERE extname = 'pgbenchx')};
my $tables_sql = qq{
	SELECT c.oid::regclass::text || '|' ||
	       coalesce((SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY k.ord)
	        FROM pg_index i, unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
	        JOIN pg_attribute a ON a.attnum = k.attnum
	        WHERE i.indrelid = c.oid AND i.indisprimary AND a.attrelid = c.oid), '')
	FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
	WHERE d.classid = 'pg_class'::regclass AND d.deptype = 'e' AND c.relkind = 'r'
	  AND d.refobjid = $ext
	ORDER BY 1};
my $sequences_sql = qq{
	SELECT c.oid::regclass::text FROM pg_class c
	WHERE c.relkind = 'S' AND c.relnamespace = 'pgbenchx'::regnamespace ORDER BY 1};

# per table: row count and md5 of the rows' binary form in key order; per
# sequence: last_value and is_called
sub data_state
{
	my ($q) = @_;
	my @out;
	foreach my $t (split /\n/, $q->($tables_sql))
	{
		my ($table, $pk) = split /\|/, $t;
		die "table $table has no primary key" unless $pk;
		push @out, "$table: " . $q->("SELECT count(*) || ' ' || coalesce(md5(string_agg(record_send(x), ''::bytea ORDER BY $pk)), '-') FROM $table x");
	}
	foreach my $s (split /\n/, $q->($sequences_sql))
	{
		push @out, "$s: " . $q->("SELECT last_value || ' ' || is_called FROM $s");
	}
	return join("\n", @out);
}

# Privilege types the old major does not have, left out of the
# comparison: 17 added MAINTAIN, which the owner holds by default there.
my @new_privileges = $old->pg_version < 17 && $new->pg_version >= 17 ? ('MAINTAIN') : ();
my $skip_privileges = @new_privileges ? 'ARRAY[' . join(', ', map { "'$_'" } @new_privileges) . ']' : "'{}'::text[]";
# an ACL as text: the default one when NULL, one sorted item per privilege
my $acl_text_sql = qq{
	CREATE FUNCTION pg_temp.acl_text(acl aclitem[]) RETURNS text LANGUAGE sql AS \$\$
	  SELECT coalesce(string_agg(t, ',' ORDER BY t), '-') FROM (
	    SELECT CASE WHEN x.grantee = 0 THEN 'PUBLIC' ELSE x.grantee::regrole::text END || '=' || x.privilege_type
	           || CASE WHEN x.is_grantable THEN '*' ELSE '' END || '/' || x.grantor::regrole::text AS t
	    FROM aclexplode(acl) x WHERE x.privilege_type <> ALL ($skip_privileges)) s
	\$\$;};
# The extension's members: a row type of a member table or view, and its
# array type, are left out: from 17 on, ALTER EXTENSION ADD TABLE (which
# pg_upgrade's restore uses) makes them members too, before they were
# members through their table.
my $members_sql = qq{
	SELECT d.classid, d.objid, d.objsubid FROM pg_depend d
	WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = $ext AND d.deptype = 'e'
	  AND NOT (d.classid = 'pg_type'::regclass AND EXISTS (
	        SELECT 1 FROM pg_type t LEFT JOIN pg_type e ON e.oid = t.typelem
	        JOIN pg_class c ON c.oid = CASE WHEN t.typrelid <> 0 THEN t.typrelid ELSE e.typrelid END
	        WHERE t.oid = d.objid AND c.relkind IN ('r', 'p', 'v', 'm', 'f')))};

# the extension, its members with their privileges and initial privileges,
# its configuration tables
sub catalog_state
{
	my ($q) = @_;
	return $q->(qq{$acl_text_sql
		SELECT string_agg(x, E'\n' ORDER BY x) FROM (
		  SELECT 'member ' || pg_describe_object(d.classid, d.objid, d.objsubid) || ' acl '
		         || coalesce(CASE d.classid
		              WHEN 'pg_proc'::regclass THEN (SELECT pg_temp.acl_text(coalesce(proacl, acldefault('f', proowner))) FROM pg_proc WHERE oid = d.objid)
		              WHEN 'pg_class'::regclass THEN (SELECT pg_temp.acl_text(coalesce(relacl, acldefault(CASE relkind WHEN 'S' THEN 's' ELSE 'r' END::"char", relowner))) FROM pg_class WHERE oid = d.objid)
		              WHEN 'pg_namespace'::regclass THEN (SELECT pg_temp.acl_text(coalesce(nspacl, acldefault('n', nspowner))) FROM pg_namespace WHERE oid = d.objid)
		              WHEN 'pg_type'::regclass THEN (SELECT pg_temp.acl_text(coalesce(typacl, acldefault('T', typowner))) FROM pg_type WHERE oid = d.objid) END, '?')
		         || ' init ' || coalesce((SELECT string_agg(i.objsubid || ':' || i.privtype::text || ':' || pg_temp.acl_text(i.initprivs), ',' ORDER BY i.objsubid)
		                                 FROM pg_init_privs i WHERE i.classoid = d.classid AND i.objoid = d.objid), '-') AS x
		  FROM ($members_sql) d
		  UNION ALL
		  SELECT 'config ' || c::regclass::text || ' ' || coalesce(e.extcondition[n], '-')
		  FROM pg_extension e, unnest(e.extconfig) WITH ORDINALITY u(c, n) WHERE e.oid = $ext
		  UNION ALL
		  SELECT 'extension ' || extname || ' ' || extversion || ' ' || extnamespace::regnamespace::text
		         || ' ' || extowner::regrole::text || ' ' || extrelocatable FROM pg_extension WHERE oid = $ext) s});
}

# The extension's schema as the new major reads it, to compare an upgraded
# database with a fresh CREATE EXTENSION: members, columns, constraints,
# indexes, routines and views, by definition (privileges aside).
sub schema_state
{
	my ($node, $db) = @_;
	return $node->safe_psql($db, qq{
		SELECT string_agg(x, E'\n' ORDER BY x) FROM (
		  SELECT 'member ' || pg_describe_object(d.classid, d.objid, d.objsubid) AS x FROM ($members_sql) d
		  UNION ALL
		  SELECT 'column ' || a.attrelid::regclass::text || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
		         || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
		         || coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), '')
		  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
		  LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
		  WHERE c.relnamespace = 'pgbenchx'::regnamespace AND c.relkind IN ('r', 'v') AND a.attnum > 0 AND NOT a.attisdropped
		  UNION ALL
		  SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
		  FROM pg_constraint WHERE connamespace = 'pgbenchx'::regnamespace
		  UNION ALL
		  SELECT 'index ' || pg_get_indexdef(indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
		  WHERE c.relnamespace = 'pgbenchx'::regnamespace
		  UNION ALL
		  SELECT 'routine ' || p.oid::regprocedure::text || ' ' || md5(CASE WHEN p.prokind = 'a' THEN p.oid::regprocedure::text ELSE pg_get_functiondef(p.oid) END)
		  FROM pg_proc p JOIN ($members_sql) d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
		  UNION ALL
		  SELECT 'view ' || c.oid::regclass::text || ' ' || md5(pg_get_viewdef(c.oid))
		  FROM pg_class c WHERE c.relnamespace = 'pgbenchx'::regnamespace AND c.relkind = 'v'
		  UNION ALL
		  SELECT 'sequence ' || s.seqrelid::regclass::text || ' ' || format_type(s.seqtypid, NULL) || ' ' || s.seqstart || ' '
		         || s.seqincrement || ' ' || s.seqmax || ' ' || s.seqmin || ' ' || s.seqcache || ' ' || s.seqcycle
		  FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid WHERE c.relnamespace = 'pgbenchx'::regnamespace) s});
}

# what the readers print for the old results; explain_run recomputes and
# stores the same figures (called before the rows are recorded)
my %readers = (
	'report of the run' => "SELECT pgbenchx.report($run)",
	'report of the mix' => "SELECT pgbenchx.report($mix)",
	'report of the sweep' => "SELECT pgbenchx.report($sweep)",
	'report of the replay' => "SELECT pgbenchx.report($replay)",
	'report of the generator run' => "SELECT pgbenchx.report($gen)",
	'report of the imported sweep' => "SELECT pgbenchx.report($imported)",
	'sweep_report' => "SELECT string_agg(x::text, E'\\n' ORDER BY n) FROM pgbenchx.sweep_report($sweep) WITH ORDINALITY x(clients, runs, tps, p99_ms, bar, qpm, n)",
	'sweep_report of the replay' => "SELECT string_agg(x::text, E'\\n' ORDER BY n) FROM pgbenchx.sweep_report($replay) WITH ORDINALITY x(clients, runs, tps, p99_ms, bar, qpm, n)",
	'compare' => "SELECT string_agg(x::text, E'\\n' ORDER BY n) FROM pgbenchx.compare($sweep, $imported) WITH ORDINALITY x(clients, tps_a, tps_b, ratio, pct_diff, p99_a, p99_b, qpm_a, qpm_b, n)",
	'explain_compare' => "SELECT coalesce(string_agg(x::text, E'\\n' ORDER BY n), '-') FROM pgbenchx.explain_compare($sweep, $imported) WITH ORDINALITY x(clients, wr, br, cr, ir, we, wa, wb, wratio, expl, n)",
	'sweep_points' => "SELECT string_agg(x::text, E'\\n' ORDER BY x.sweep_id, x.clients) FROM pgbenchx.sweep_points x",
	'sweep_summary' => "SELECT string_agg(x::text, E'\\n' ORDER BY x.sweep_id) FROM pgbenchx.sweep_summary x",
	'chart_sweeps' => "SELECT md5(pgbenchx.chart_sweeps(ARRAY[$sweep, $imported])) || ' ' || length(pgbenchx.chart_sweeps(ARRAY[$sweep, $imported]))",
	'chart_run' => "SELECT md5(pgbenchx.chart_run($run)) || ' ' || length(pgbenchx.chart_run($run))",
	'chart_waits' => "SELECT md5(pgbenchx.chart_waits($sweep)) || ' ' || length(pgbenchx.chart_waits($sweep))",
	'explain_run' => "SELECT coalesce(pgbenchx.explain_run($run), '-')",
	'env_diff of the run and the generator run' => "SELECT coalesce(string_agg(x::text, E'\\n' ORDER BY x.attribute), '-') FROM pgbenchx.env_diff($run, $gen) x",
	'latency percentiles' => "SELECT string_agg(run_id || ' ' || pgbenchx.latency_percentile(latency_hist, 99), ',' ORDER BY run_id) FROM pgbenchx.runs WHERE latency_hist IS NOT NULL",
	'latency buckets' => "SELECT string_agg(x::text, ',') FROM pgbenchx.runs r, pgbenchx.latency_buckets(r.latency_hist) x WHERE r.run_id = $run",
	'export without provenance' => "SELECT md5((pgbenchx.export(ARRAY[$sweep, $replay, $imported]) - 'provenance')::text)",
	'scripts' => "SELECT string_agg(x::text, E'\\n' ORDER BY x.name) FROM pgbenchx.scripts x");
sub readers
{
	my ($q) = @_;
	my %out;
	$out{$_} = $q->("SET TimeZone = 'UTC'; $readers{$_}") foreach sort keys %readers;
	return \%out;
}
my $readers_before = readers(\&q_old);
like($readers_before->{'report of the run'}, qr/tps = /, 'under the old major: the report of the run');
my $data_before = data_state(\&q_old);
my $catalog_before = catalog_state(\&q_old);
# every table of the extension holds results: a table added later and not
# filled here fails this until the test stores rows in it
foreach my $line (split /\n/, $data_before)
{
	next unless $line =~ /^(pgbenchx\.\S+): (\d+) /;
	cmp_ok($2, '>', 0, "under the old major: $1 has rows");
}
like($data_before, qr/^pgbenchx\.id_seq: \d+ true$/m, 'under the old major: the id sequence was used');
like($catalog_before, qr/^config pgbenchx\.runs /m, 'under the old major: runs is a configuration table');
my $sysid_before = q_old('SELECT system_identifier FROM pg_control_system()');
my $old_server = q_old('SELECT version()');
my $checksums = q_old('SHOW data_checksums');

# Attribute options the old server stamps on every column by itself: stock
# PostgreSQL sets none on a new table, but some builds do (Debian's 15.20
# gives each column "pg_attver=N", which 16, 17 and 18 do not know: the
# new major's pg_dump carries it into the restore, which refuses it, for
# any table, with or without pgbenchx).  They are the server's, not
# pgbenchx's: pgbenchx's columns must carry no other option, and those
# stamps are removed from the old catalogue before pg_upgrade, any other
# option kept.
q_old('CREATE TABLE pgx_probe (a int)');
my $stamps = q_old(q{SELECT coalesce(string_agg(DISTINCT quote_literal(split_part(o, '=', 1)), ', '), '')
	FROM pg_attribute, unnest(attoptions) o WHERE attrelid = 'pgx_probe'::regclass AND attnum > 0});
q_old('DROP TABLE pgx_probe');
my $stamp_list = "ARRAY[$stamps]::text[]";
$stamp_list = "'{}'::text[]" if $stamps eq '';
is(q_old(qq{SELECT coalesce(string_agg(c.oid::regclass::text || '.' || a.attname || ': ' || o, ', '), '')
	FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid, unnest(a.attoptions) o
	WHERE c.relnamespace = 'pgbenchx'::regnamespace AND split_part(o, '=', 1) <> ALL ($stamp_list)}),
	'', "pgbenchx's columns carry no attribute option of their own");
if ($stamps ne '')
{
	diag("the old server (" . $old->pg_version . ") stamps attribute options $stamps on every column, "
		  . 'which stock PostgreSQL never sets and pg_upgrade cannot restore into another major: '
		  . 'they are removed from the old catalogue before pg_upgrade (see the comment in this file)');
	q_old(qq{UPDATE pg_catalog.pg_attribute a
		SET attoptions = (SELECT array_agg(o) FROM unnest(a.attoptions) o WHERE split_part(o, '=', 1) <> ALL ($stamp_list))
		WHERE a.attrelid >= 16384 AND a.attoptions IS NOT NULL});
	is(q_old(qq{SELECT count(*) FROM pg_attribute a, unnest(a.attoptions) o
		WHERE a.attrelid >= 16384 AND split_part(o, '=', 1) = ANY ($stamp_list)}), '0', 'no such stamp is left');
}
ok(nothing_left($old), 'under the old major: nothing left running');
$old->stop;

# --- pg_upgrade -------------------------------------------------------------------------------
# the new cluster as initdb makes it, with the old one's data checksums
# (on by default from 18, off before)
my @init_extra = $checksums eq 'on' ? ('--data-checksums') : $new->pg_version >= 18 ? ('--no-data-checksums') : ();
$new->init(extra => \@init_extra);
configure($new, $ENV{PGX_EXTENSION_DESTDIR});

# pg_upgrade writes into its working directory: a temporary one
my $cwd = getcwd();
my $workdir = PostgreSQL::Test::Utils::tempdir('pg_upgrade');
chdir $workdir or die "chdir $workdir: $!";
my @upgrade = (
	"$new_bindir/pg_upgrade", '--no-sync',
	'--old-datadir', $old->data_dir, '--new-datadir', $new->data_dir,
	'--old-bindir', $old_bindir, '--new-bindir', $new_bindir,
	'--socketdir', $new->host, '--old-port', $old->port, '--new-port', $new->port);
command_ok([ @upgrade, '--check' ], 'pg_upgrade --check accepts the old cluster with pgbenchx');
command_ok([ @upgrade, '--retain' ], 'pg_upgrade');
chdir $cwd or die "chdir $cwd: $!";
ok(!-e "$workdir/update_extensions.sql", 'pg_upgrade found no extension to update');
# its own logs (the servers it started, the restore): no crash, no error of pgbenchx
{
	my $logs = '';
	find(sub { $logs .= "== $File::Find::name\n" . slurp_file($_) if -f $_ && /\.(log|txt)$/ },
		$new->data_dir . '/pg_upgrade_output.d');
	ok(length $logs, 'pg_upgrade kept its logs (--retain)');
	like($logs, qr/pgbenchx startup/, "pgbenchx's preloaded start-up worker ran in the servers pg_upgrade started");
	unlike($logs, qr/terminated by signal|was terminated|all server processes terminated/,
		"pg_upgrade's servers did not crash");
	# (a worker still running when pg_upgrade stops a server is terminated,
	# as every background worker is at a shutdown: that FATAL is no error)
	# (a severity, "ERROR:", not a word of a command line such as
	# ON_ERROR_STOP; "pgbenchx" may be in a path, test.sh's work directory)
	my @errors = grep { /\b(?:ERROR|FATAL|PANIC):\s/ && /pgbenchx/ && !/terminating background worker "pgbenchx [a-z]+" due to administrator command/ }
	  split /\n/, $logs;
	is(join("\n", @errors), '', "no error of pgbenchx's in pg_upgrade's logs");
}

$new->start;
is(q_new('SELECT pg_catalog.current_setting(\'server_version_num\')::int / 10000'), $new->pg_version->major,
	'the upgraded node runs the new major');

# --- the new major: the same results -----------------------------------------------------------
is(data_state(\&q_new), $data_before, 'every row of every table and every sequence are the same after pg_upgrade');
is(catalog_state(\&q_new), $catalog_before,
	'the extension, its members, their privileges and its configuration tables are the same after pg_upgrade');
{
	my ($ret, $out, $err) = $new->psql('postgres', 'ALTER EXTENSION pgbenchx UPDATE');
	is($ret, 0, 'ALTER EXTENSION pgbenchx UPDATE succeeds') or diag($err);
}
is(q_new("SELECT extversion = default_version FROM pg_extension, pg_available_extensions WHERE extname = 'pgbenchx' AND name = extname"),
	't', 'the installed version is the new install\'s default version');
is(data_state(\&q_new), $data_before, 'the update kept every row and sequence');
is(catalog_state(\&q_new), $catalog_before, 'the update kept the members, privileges and configuration tables');
# the upgraded schema is the one this version creates on the new major
q_new('CREATE DATABASE fresh');
$new->safe_psql('fresh', 'CREATE EXTENSION pgbenchx');
my $fresh = schema_state($new, 'fresh');
like($fresh, qr/^column pgbenchx\.runs\.run_id bigint not null default nextval/m, 'the schema of a fresh CREATE EXTENSION is read');
is(schema_state($new, 'postgres'), $fresh,
	'the upgraded extension has the members, columns, constraints, indexes, routines, views and sequences of a fresh CREATE EXTENSION on the new major');
q_new('DROP DATABASE fresh');

my $readers_after = readers(\&q_new);
is($readers_after->{$_}, $readers_before->{$_}, "$_: the same as under the old major") foreach sort keys %readers;
is(data_state(\&q_new), $data_before, 'the readers changed no row');
{
	my ($ret, $out, $err) = $new->psql('postgres', "CALL pgbenchx.wait($run)");
	is($ret, 0, 'CALL pgbenchx.wait of the old run works');
	like($err, qr/tps = /, 'and prints its report');
}

# the export names the server it is taken on: pg_upgrade gives it a new
# system identifier, so only the document taken before the upgrade carries
# the old origin; importing it again finds the import made then
my $prov = q_new("SELECT (pgbenchx.export(ARRAY[$sweep]) -> 'provenance')::text");
my $sysid_after = q_new('SELECT system_identifier FROM pg_control_system()');
like($prov, qr/"system_identifier": "$sysid_after"/, 'the export after the upgrade names this server');
like($prov, qr/"server_version": "\Q@{[ q_new('SHOW server_version') ]}\E"/, 'and its version');
note($sysid_after eq $sysid_before ? 'pg_upgrade kept the system identifier'
	: "pg_upgrade gave a new system identifier ($sysid_before before, $sysid_after after)");
is(q_new("SELECT pgbenchx.import(\$doc\$$doc\$doc\$::jsonb)::text"), "{$imported}",
	'the document exported before the upgrade, imported again, maps to the sweep imported then');
is(q_new("SELECT count(*) FROM pgbenchx.sweeps"), q_new("SELECT count(*) FROM pgbenchx.sweeps WHERE sweep_id <= $imported"),
	'and adds no sweep');

# the pgbench tables pgbench_init wrote under the old major (frozen pages,
# a directly built key), as the new major's amcheck reads them
SKIP:
{
	skip 'the new major has no amcheck', 2
	  unless q_new("SELECT count(*) FROM pg_available_extensions WHERE name = 'amcheck'");
	q_new('CREATE EXTENSION amcheck');
	is(q_new("SELECT count(*) FROM (SELECT bt_index_parent_check(c.oid, true, true) FROM pg_catalog.pg_class c "
		  . "WHERE c.relname IN ('pgbench_accounts_pkey', 'pgbench_branches_pkey', 'pgbench_tellers_pkey')) x"),
		'3', 'amcheck: the keys of the old pgbench tables');
	is(q_new("SELECT count(*) FROM pg_catalog.pg_class c, verify_heapam(c.oid) WHERE c.relname IN ('pgbench_accounts', 'pgbench_branches', 'pgbench_tellers')"),
		'0', 'amcheck: the heaps of the old pgbench tables');
}

# --- new work on the new major --------------------------------------------------------------
my $new_run = q_new("SELECT run_bench(2, 1, 'select-only', checkpoint => false, label => 'new run')");
wait_new($new_run);
q_new('SET client_min_messages = warning; SELECT pgbench_init(2)');
is(q_new('SELECT count(*) FROM pgbench_accounts'), '200000', 'pgbench_init works');
my $new_sweep = q_new("SELECT run_sweep(ARRAY[1, 2], 1, 'select-only', checkpoint => false, label => 'new sweep')");
wait_new($new_sweep);
is(q_new("SELECT string_agg(status, ',') FROM pgbenchx.runs WHERE run_id = $new_run OR sweep_id = $new_sweep"),
	'completed,completed,completed', 'a new run and a new sweep complete');
ok($new_run > $imported, 'new ids continue after the old ones');
is(q_new("SELECT count(*) FROM pgbenchx.runs WHERE (run_id = $new_run OR sweep_id = $new_sweep) AND checkpoints IS NOT NULL AND autovacuums IS NOT NULL"),
	'3', 'the new runs count the checkpoints and autovacuums during them');
is(q_new("SELECT e.pg_version = version() FROM pgbenchx.runs r JOIN pgbenchx.environments e USING (environment_id) WHERE r.run_id = $new_run"),
	't', "the new run's environment is the new server's");
# (unless both are the same build, when this runs from one major to itself)
is(q_new("SELECT count(*) FROM pgbenchx.env_diff($run, $new_run) WHERE attribute = 'pg_version'"),
	$old_server eq q_new('SELECT version()') ? '0' : '1', 'env_diff of an old and a new run names pg_version when they differ');
is(q_new("SELECT count(*) FROM pgbenchx.compare($sweep, $new_sweep) WHERE tps_a > 0 AND tps_b > 0"), '2',
	'compare of the old and the new sweep');
like(q_new("SELECT pgbenchx.chart_sweeps(ARRAY[$sweep, $new_sweep])"), qr/^<svg.*old sweep.*new sweep/s,
	'chart_sweeps of the old and the new sweep');
like(q_new("SELECT pgbenchx.report($new_sweep)"), qr/tps/, 'report of the new sweep');
is(q_new("SELECT jsonb_array_length(pgbenchx.export(ARRAY[$sweep, $new_sweep]) -> 'sweeps')"), '2',
	'export of the old and the new sweep together');

# --- nothing crashed -------------------------------------------------------------------------
ok(nothing_left($new), 'nothing left running');
$new->stop;
foreach my $node ($old, $new)
{
	unlike(slurp_file($node->logfile), qr/terminated by signal|server process .* was terminated|all server processes terminated/,
		'the ' . $node->name . " node's server log shows no crash");
	# nothing here makes an error on purpose: one is SQL of pgbenchx's that
	# this major does not take, or worse (a stop terminating a session that
	# is just leaving is no error)
	my @errors = grep { /\b(ERROR|FATAL|PANIC):/ && !/FATAL:  terminating (connection|background worker .*) due to administrator command/ }
	  split /\n/, slurp_file($node->logfile);
	is(join("\n", @errors[0 .. ($#errors < 4 ? $#errors : 4)]), '', 'the ' . $node->name . " node's server log has no error");
}
done_testing();
