# Results across servers, and a repeated sweep.
#
# On one cluster: a real short sweep, and a sweep with repeats => 2 whose
# runs are interleaved (the whole ladder, then the whole ladder again) and
# whose points pgbenchx.sweep_points aggregates with n = 2.  Both are
# exported to a file, then imported into a second cluster the way the README
# (its main job) and docs/export-import.md say (psql's \set from the file):
# new ids, the same runs, samples and values, the origin recorded in
# pgbenchx.imports, compare() giving the same answers on both clusters, CSV
# through \copy, and a second import adding nothing.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $a = pgbenchx_node('source');
sub qa { return $a->safe_psql('postgres', $_[0]); }
qa('SET client_min_messages = warning; SELECT pgbench_init(1)');

# --- a plain sweep and a repeated one, on the source cluster
my $plain = qa("SELECT run_sweep(ARRAY[1,2], 1, 'select-only', checkpoint => false, label => 'plain')");
qa("SET client_min_messages = warning; CALL pgbenchx.wait($plain)");
is(qa("SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $plain"), 'completed', 'plain sweep completed');
is(qa("SELECT string_agg(clients || ':' || status, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $plain"),
	'1:completed,2:completed', 'plain sweep: one completed run per client count');

my $rep = qa("SELECT run_sweep(ARRAY[1,2], 1, 'select-only', repeats => 2, checkpoint => false, label => 'repeated')");
qa("SET client_min_messages = warning; CALL pgbenchx.wait($rep)");
is(qa("SELECT status || ' ' || repeats FROM pgbenchx.sweeps WHERE sweep_id = $rep"), 'completed 2',
	'repeated sweep completed, repeats recorded');
is(qa("SELECT count(*) FROM pgbenchx.runs WHERE sweep_id = $rep AND status = 'completed'"), '4',
	'repeated sweep: 4 completed runs');
is(qa("SELECT string_agg(clients || ':' || repeat, ',' ORDER BY started_at, run_id) FROM pgbenchx.runs WHERE sweep_id = $rep"),
	'1:1,2:1,1:2,2:2', 'repeats interleaved: the ladder, then the ladder again');
is(qa("SELECT string_agg(clients || ':' || n, ',' ORDER BY clients) FROM pgbenchx.sweep_points WHERE sweep_id = $rep"),
	'1:2,2:2', 'sweep_points: n = 2 per point');
is(qa("SELECT bool_and(min_tps <= median_tps AND median_tps <= max_tps AND median_tps > 0
	          AND spread >= 0 AND abs(median_tps - (min_tps + max_tps) / 2) < 1e-6 * max_tps
	          AND unstable = (spread > 0.10 OR coalesce(checkpoints, 0) > 0)
	          AND (unstable_reason IS NOT NULL) = unstable)
	   FROM pgbenchx.sweep_points WHERE sweep_id = $rep"),
	't', 'sweep_points: median between min and max, unstable exactly when flagged with a reason');
is(qa("SELECT runs || ' ' || completed_runs || ' ' || (peak_clients IN (1, 2)) || ' ' || highest_clients
	   FROM pgbenchx.sweep_summary WHERE sweep_id = $rep"),
	'4 4 true 2', 'sweep_summary of the repeated sweep');
my $compare_sql = q{SELECT string_agg(concat_ws(':', clients, tps_a, tps_b, ratio, pct_diff, p99_a, p99_b), ',' ORDER BY clients)
	FROM pgbenchx.compare(%d, %d)};
my $compare_a = qa(sprintf($compare_sql, $plain, $rep));
like($compare_a, qr/^1:[^,]+,2:[^,]+$/, 'compare: one row per client count');

# --- export to a file
my $dir = PostgreSQL::Test::Utils::tempdir;
my $file = "$dir/sweeps.json";
my $doc = qa("SELECT pgbenchx.export(ARRAY[$plain, $rep])");
open(my $fh, '>', $file) or die "cannot write $file: $!";
print $fh $doc;
close($fh);
my $sysid_a = qa('SELECT system_identifier FROM pg_control_system()');
my %a_counts = map { $_ => qa("SELECT count(*) FROM pgbenchx.$_ x JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id IN ($plain, $rep)") }
  qw(samples statement_stats);
cmp_ok($a_counts{samples}, '>=', 6, "samples to export ($a_counts{samples})");

# --- import into another cluster, where the ids are already further on
my $b = pgbenchx_node('target');
sub qb { return $b->safe_psql('postgres', $_[0]); }
isnt(qb('SELECT system_identifier FROM pg_control_system()'), $sysid_a, 'two different servers');
qb("SELECT setval('pgbenchx.id_seq', 500)");
my $import = "\\set doc `cat $file`\nSELECT pgbenchx.import(:'doc');";
my $ids = qb($import);
like($ids, qr/^\{\d+,\d+\}$/, "import returns two sweep ids ($ids)");
my ($plain_b, $rep_b) = $ids =~ /(\d+),(\d+)/;
cmp_ok($plain_b, '>', 500, 'plain sweep got a new id');
cmp_ok($rep_b, '>', 500, 'repeated sweep got a new id');

# the same runs, samples and values, under new ids
my $runs_sql = q{SELECT md5(coalesce(jsonb_agg(to_jsonb(r) - '{run_id,sweep_id,environment_id,coordinator_pid}'::text[]
	ORDER BY r.started_at, r.run_id)::text, '')) || ' ' || count(*) FROM pgbenchx.runs r WHERE r.sweep_id = %d};
my $samples_sql = q{SELECT md5(coalesce(jsonb_agg(to_jsonb(s) - 'run_id' ORDER BY r.started_at, r.run_id, s.second)::text, '')) || ' ' || count(*)
	FROM pgbenchx.samples s JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = %d};
my $stmts_sql = q{SELECT md5(coalesce(jsonb_agg(to_jsonb(s) - 'run_id' ORDER BY r.started_at, r.run_id, s.script, s.command)::text, '')) || ' ' || count(*)
	FROM pgbenchx.statement_stats s JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = %d};
my $sweep_sql = q{SELECT md5((to_jsonb(s) - '{sweep_id,environment_id,coordinator_pid}'::text[])::text) FROM pgbenchx.sweeps s WHERE s.sweep_id = %d};
for my $pair ([ $plain, $plain_b, 'plain' ], [ $rep, $rep_b, 'repeated' ])
{
	my ($ia, $ib, $what) = @$pair;
	is(qb(sprintf($sweep_sql, $ib)), qa(sprintf($sweep_sql, $ia)), "$what: sweep row equal");
	is(qb(sprintf($runs_sql, $ib)), qa(sprintf($runs_sql, $ia)), "$what: runs equal");
	is(qb(sprintf($samples_sql, $ib)), qa(sprintf($samples_sql, $ia)), "$what: samples equal");
	is(qb(sprintf($stmts_sql, $ib)), qa(sprintf($stmts_sql, $ia)), "$what: statement_stats equal");
}
is(qb("SELECT count(*) FROM pgbenchx.runs WHERE sweep_id IN ($plain_b, $rep_b) AND run_id <= 500"), '0',
	'every run got a new id');

# provenance
is(qb("SELECT string_agg(origin_id || '>' || sweep_id, ',' ORDER BY origin_id) FROM pgbenchx.imports
	   WHERE sweep_id IS NOT NULL AND origin_system_identifier = $sysid_a AND origin_database = 'postgres'
	     AND exported_from_system_identifier = $sysid_a"),
	"$plain>$plain_b,$rep>$rep_b", 'imports records the origin server, database and ids of the sweeps');
is(qb("SELECT count(*) FROM pgbenchx.imports i JOIN pgbenchx.runs r USING (run_id)
	   WHERE i.origin_system_identifier = $sysid_a AND r.sweep_id IN ($plain_b, $rep_b)"),
	'6', 'and of the 6 runs');
is(qb("SELECT string_agg(i.origin_id::text, ',' ORDER BY i.origin_id) FROM pgbenchx.imports i JOIN pgbenchx.runs r USING (run_id)"),
	qa("SELECT string_agg(run_id::text, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id IN ($plain, $rep)"),
	'the original run ids are kept');
is(qb("SELECT string_agg(origin_system_identifier::text || ' ' || label, ',' ORDER BY sweep_id) FROM pgbenchx.sweep_summary"),
	"$sysid_a plain,$sysid_a repeated", 'sweep_summary names the origin');

# the same comparison on both servers
is(qb(sprintf($compare_sql, $plain_b, $rep_b)), $compare_a, 'compare gives the same answer after the import');

# CSV, as docs/export-import.md ("CSV") documents it
my $csv = "$dir/compare.csv";
$b->command_ok(
	[ 'psql', '-X', '-d', $b->connstr('postgres'), '-c',
		"\\copy (SELECT * FROM pgbenchx.compare($plain_b, $rep_b)) TO '$csv' WITH (FORMAT csv, HEADER)" ],
	'\copy of compare() to CSV');
my $csv_text = slurp_file($csv);
like($csv_text, qr/^clients,tps_a,tps_b,ratio,pct_diff,p99_a,p99_b,qpm_a,qpm_b,ratio_low,ratio_high,significant,method,conclusion,ratio_low_unadjusted,ratio_high_unadjusted\n1,[^\n]+\n2,[^\n]+\n$/, 'CSV header and one line per client count');

# importing again adds nothing and returns the same ids
my $counts_sql = q{SELECT (SELECT count(*) FROM pgbenchx.sweeps) || ' ' || (SELECT count(*) FROM pgbenchx.runs) || ' '
	|| (SELECT count(*) FROM pgbenchx.samples) || ' ' || (SELECT count(*) FROM pgbenchx.statement_stats) || ' '
	|| (SELECT count(*) FROM pgbenchx.environments) || ' ' || (SELECT count(*) FROM pgbenchx.imports)};
my $before = qb($counts_sql);
is(qb($import), $ids, 'a second import returns the same ids');
is(qb($counts_sql), $before, 'and adds nothing');

$b->stop;
$a->stop;
done_testing();
