# The client program's subcommands (src/cli/cli_commands.c, issue 24):
# `pgbenchx report ID`, `compare A B`, `chart ID -o FILE`, `export IDS` and
# `import [FILE]` print what the SQL functions return (report, chart and
# export byte for byte as psql gets them, compare as psql's aligned table),
# over -h/-p/-U/-d; a bad command line exits 1 with pgbench's words, a
# server's ERROR is printed as PostgreSQL's client programs print theirs
# ("pgbenchx: error:", detail, hint; no CONTEXT) and exits 1, leaving no
# file behind.  `chart RUN RUN... [--interval N]` draws runs over time
# (chart_runs), whose intervals run_intervals gives.  A granted non-superuser runner uses
# them with a search_path that puts its own schema first: the CLI's SQL
# names nothing through it.  Short runs: -t 20 on scale 1.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use JSON::PP;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('cli_sub', scale => 1);
my $cli = pgbenchx_cli();
my $db = $node->connstr('postgres');

# run(args..., {stdin => text}): exit code, stdout, stderr of pgbenchx
sub run
{
	my $opt = ref $_[-1] eq 'HASH' ? pop : {};
	my ($in, $out, $err) = ($opt->{stdin} // '', '', '');
	IPC::Run::run([ $cli, @_ ], '<', \$in, '>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

# psql's output of a query, aligned (its default when not on a terminal)
sub psql_aligned
{
	my ($sql) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'psql', '-X', '-d', $db, '-c', $sql ], '>', \$out, '2>', \$err)
	  or die "psql: $err";
	return $out;
}

# two sweeps of two client counts, each point twice (an interval to compare)
my @sweeps;
foreach my $label ('a', 'b')
{
	my ($rc, $out, $err) = run('--sweep', '1,2', '--repeats', '2', '-t', '20', '-S', '--label', $label, $db);
	is($rc, 0, "sweep $label") or diag($err);
	my ($sweep) = $out =~ /^sweep_id = (\d+)$/m;
	push @sweeps, $sweep;
}
my ($sa, $sb) = @sweeps;
my $run = $node->safe_psql('postgres', "SELECT min(run_id) FROM pgbenchx.runs WHERE sweep_id = $sa");

# report: report(id)'s text, a run's and a sweep's, several in one call
foreach my $id ($run, $sa)
{
	my ($rc, $out, $err) = run('report', '-d', $db, $id);
	is($rc, 0, "report $id exits 0") or diag($err);
	is($out, $node->safe_psql('postgres', "SELECT pgbenchx.report($id)") . "\n", "report $id: report($id)'s text");
}
my ($rc, $out, $err) = run('report', "$run,$sa", '-d', $db);
is($rc, 0, 'report with two ids (options after them too)') or diag($err);
is(scalar(() = $out =~ /^(?:tps = |sweep \d+:)/mg), 2, 'report RUN,SWEEP: both');

# a server's error in the words of PostgreSQL's client programs, exit 1
($rc, $out, $err) = run('report', '-d', $db, '999999');
is($rc, 1, 'report of an unknown id exits 1');
like($err, qr/\Apgbenchx: error: no run or sweep has id 999999\npgbenchx: detail: .+\npgbenchx: hint: .+\n\z/,
	'report of an unknown id: the error, its detail and hint, one prefix each and no CONTEXT');
is($out, '', 'and nothing on stdout');

# compare: psql's table of compare(a, b)
($rc, $out, $err) = run('compare', '-d', $db, $sa, $sb);
is($rc, 0, 'compare exits 0') or diag($err);
is($out, psql_aligned("SELECT clients, tps_a, tps_b, ratio, pct_diff, p99_a, p99_b, ratio_low, ratio_high, "
		. "significant, conclusion FROM pgbenchx.compare($sa, $sb) ORDER BY clients"),
	"compare: psql's aligned table of compare($sa, $sb) (qpm columns, all NULL, left out)");
like($out, qr/^\(2 rows\)$/m, 'compare: a row per client count');
($rc, $out, $err) = run('compare', '-d', $db, $sa, $run);
is($rc, 1, 'compare with a run id exits 1');
like($err, qr/\Apgbenchx: error: no sweep has id $run\npgbenchx: detail: $run is the id of a run, not of a sweep/, 'with the server\'s words');

# chart: a run's panels, or the sweeps' chart; the file only when it exists
my $svg = $node->basedir . '/run.svg';
($rc, $out, $err) = run('chart', $run, '-o', $svg, '-d', $db);
is($rc, 0, 'chart RUN -o FILE exits 0') or diag($err);
is(slurp_file($svg), $node->safe_psql('postgres', "SELECT pgbenchx.chart_run($run)") . "\n", 'chart RUN: chart_run\'s SVG');
($rc, $out, $err) = run('chart', "$sa,$sb", '-d', $db);
is($rc, 0, 'chart SWEEPS to stdout exits 0') or diag($err);
is($out, $node->safe_psql('postgres', "SELECT pgbenchx.chart_sweeps(ARRAY[$sa, $sb])") . "\n", 'chart SWEEPS: chart_sweeps\'s SVG');
my $none = $node->basedir . '/none.svg';
($rc, $out, $err) = run('chart', '999999', '-o', $none, '-d', $db);
is($rc, 1, 'chart of an unknown id exits 1');
like($err, qr/^pgbenchx: error: no sweep has id 999999$/m, 'with the server\'s error');
ok(!-e $none, 'and no file is left');
($rc, $out, $err) = run('chart', $run, $sa, '-d', $db);
is($rc, 1, 'chart of a run and a sweep exits 1');
like($err, qr/^pgbenchx: error: no run has id $sa\npgbenchx: detail: Id $sa is a sweep, not a run/m, 'and says why');

# runs over time (issue 37 §3): several runs on one axis, at an interval
my $run2 = $node->safe_psql('postgres', "SELECT max(run_id) FROM pgbenchx.runs WHERE sweep_id = $sb");
($rc, $out, $err) = run('chart', $run, $run2, '-d', $db);
is($rc, 0, 'chart RUN RUN exits 0') or diag($err);
is($out, $node->safe_psql('postgres', "SELECT pgbenchx.chart_runs(ARRAY[$run, $run2])") . "\n", 'chart RUN RUN: chart_runs\'s SVG');
like($out, qr/(?:<polyline|<circle)[^>]*>.*(?:<polyline|<circle)/s, 'a line (or a dot) per run');
($rc, $out, $err) = run('chart', $run, '--interval', '60', '-d', $db);
is($rc, 0, 'chart RUN --interval 60 exits 0') or diag($err);
is($out, $node->safe_psql('postgres', "SELECT pgbenchx.chart_runs(ARRAY[$run], 60)") . "\n", 'chart RUN --interval: chart_runs at that interval');
like($out, qr/each minute/, 'per minute, said in the title');
($rc, $out, $err) = run('chart', $sa, '--interval', '60', '-d', $db);
is($rc, 1, 'chart SWEEP --interval exits 1');
like($err, qr/^pgbenchx: error: $sa is not a run: --interval charts runs over time$/m, 'and says why');
($rc, $out, $err) = run('chart', $run, '--interval', '0', '-d', $db);
is($rc, 1, 'chart --interval 0 exits 1');
like($err, qr/invalid value "0" for option --interval/, 'as a bad command line');
($rc, $out, $err) = run('report', $run, '--interval', '5', '-d', $db);
is($rc, 1, 'report --interval exits 1');
like($err, qr/option --interval is only for "pgbenchx chart"/, 'only chart takes it');

# run_intervals: a run of 3 seconds in intervals of 2: the sums of its
# seconds, and each interval's p99 from their merged histograms
($rc, $out, $err) = run('-T', '3', '-S', '-n', $db);
is($rc, 0, 'a 3-second run') or diag($err);
my ($long) = $out =~ /^run_id = (\d+)$/m;
is($node->safe_psql('postgres', "SELECT string_agg(format('%s:%s:%s', i.interval_start, i.transactions = s.tx, "
	  . "i.latency_p99_ms IS NOT DISTINCT FROM pgbenchx.latency_percentile(s.h, 99) OR (s.n = 1 AND i.latency_p99_ms IS NOT DISTINCT FROM s.p99)), ',' ORDER BY i.interval_start) "
	  . "FROM pgbenchx.run_intervals($long, 2) i JOIN (SELECT (second - 1) / 2 * 2 AS start, sum(transactions) AS tx, count(*) AS n, "
	  . "pgbenchx.latency_merge(latency_hist) AS h, max(latency_p99_ms) AS p99 FROM pgbenchx.samples WHERE run_id = $long GROUP BY 1) s "
	  . "ON s.start = i.interval_start"),
	'0:t:t,2:t:t', 'run_intervals: two intervals, their transactions summed, their p99 from the merged histogram');

# seed 000's shell loop with pgbenchx (issue 37 §4): its loose runs of a
# label, gathered into a sweep, are exported and compared as sweeps are
my %loop;
foreach my $label ('loop a', 'loop b')
{
	foreach my $c (1, 2, 1)
	{
		my ($lrc, $lout, $lerr) = run('-S', '-t', '20', '-c', $c, '--label', $label, $db);
		is($lrc, 0, "$label: a run of $c clients") or diag($lerr);
	}
	($rc, $out, $err) = run('gather', '-d', $db, $label);
	is($rc, 0, "gather '$label' exits 0") or diag($err);
	($loop{$label}) = $out =~ /\Asweep_id = (\d+)\n\z/;
	ok($loop{$label}, "gather '$label' prints the sweep's id") or diag($out);
}
is($node->safe_psql('postgres', "SELECT string_agg(format('%s:%s:%s', s.label, s.clients, s.repeats), ' ' ORDER BY s.sweep_id) "
	  . "FROM pgbenchx.sweeps s WHERE s.sweep_id IN ($loop{'loop a'}, $loop{'loop b'})"),
	'loop a:{1,2}:2 loop b:{1,2}:2', 'each label one sweep of its client counts, 1 client twice: 2 repeats');
($rc, $out, $err) = run('compare', '-d', $db, $loop{'loop a'}, $loop{'loop b'});
is($rc, 0, 'compare of the gathered sweeps exits 0') or diag($err);
like($out, qr/^\s+1 \|/m, 'and compares them at 1 client');
($rc, $out, $err) = run('export', '-d', $db, $loop{'loop a'});
is($rc, 0, 'export of a gathered sweep exits 0') or diag($err);
is(scalar(@{ decode_json($out)->{runs} }), 3, 'with its three runs');
($rc, $out, $err) = run('gather', '-d', $db, 'loop a');
is($rc, 1, 'gather of a label with no loose run left exits 1');
like($err, qr/^pgbenchx: error: you have no finished run labelled 'loop a' that belongs to no sweep\npgbenchx: detail: /m, 'and says why');
($rc, $out, $err) = run('gather', '-d', $db);
is($rc, 1, 'gather without a label exits 1');
like($err, qr/gather takes a label/, 'as a bad command line');

# export, then import: the same sweeps under new ids
($rc, my $json, $err) = run('export', '-d', $db, $sa, $sb);
is($rc, 0, 'export exits 0') or diag($err);
my $doc = decode_json($json);
is($doc->{format}, 'pgbenchx-export', 'export: an export document');
is(join(',', map { $_->{label} } @{ $doc->{sweeps} }), 'a,b', 'export: both sweeps, in order');
is(scalar(@{ $doc->{runs} }), 8, 'export: their 8 runs');
($rc, $out, $err) = run('export', '-d', $db, $run);
is($rc, 1, 'export of a run id exits 1');
like($err, qr/\Apgbenchx: error: no sweep has id $run\npgbenchx: detail: Only sweeps can be exported/, 'with the server\'s reason');

my $file = $node->basedir . '/sweeps.json';
open(my $fh, '>', $file) or die "$file: $!";
print $fh $json;
close $fh;
($rc, $out, $err) = run('import', '-d', $db, $file);
is($rc, 0, 'import FILE exits 0') or diag($err);
my @new = $out =~ /^sweep_id = (\d+)$/mg;
is(scalar(@new), 2, 'import: a line per new sweep') or diag($out);
is($node->safe_psql('postgres', "SELECT string_agg(label || ':' || (SELECT count(*) FROM pgbenchx.runs r WHERE r.sweep_id = s.sweep_id), ',' "
		. "ORDER BY sweep_id) FROM pgbenchx.sweeps s WHERE sweep_id IN ($new[0], $new[1])"),
	'a:4,b:4', 'import: the sweeps and their runs are here');
($rc, $out, $err) = run('import', '-d', $db, { stdin => '{"format": "nonsense"}' });
is($rc, 1, 'import of a document that is not an export exits 1');
like($err, qr/\Apgbenchx: error: (?!ERROR)/, 'with the server\'s error, one prefix');
($rc, $out, $err) = run('import', '-d', $db, { stdin => '' });
is($rc, 1, 'import of nothing exits 1');
like($err, qr/^pgbenchx: error: nothing to import: standard input is empty$/m, 'and says so');

# bad command lines: exit 1, pgbench's words and the hint
foreach my $bad ([ ['report'], qr/report takes at least one id/ ],
	[ [ 'report', 'x1' ], qr/invalid id "x1"/ ],
	[ [ 'compare', '1' ], qr/compare takes two sweep ids/ ],
	[ [ 'compare', '1', '2', '3' ], qr/too many ids/ ],
	[ [ 'export', '--bogus', '1' ], qr/unrecognized option/ ],
	[ [ 'report', '-o', 'f', '1' ], qr/invalid option/ ],
	[ [ 'import', 'a', 'b' ], qr/too many command-line arguments/ ])
{
	my ($args, $want) = @$bad;
	($rc, $out, $err) = run(@$args);
	is($rc, 1, "@$args: exit 1");
	like($err, $want, "@$args: says why");
	like($err, qr/^pgbenchx: hint: Try "pgbenchx $args->[0] --help" for more information\.$/m, "@$args: the hint");
}
($rc, $out) = run('chart', '--help');
is($rc, 0, 'chart --help exits 0');
like($out, qr/^  -o, --output=FILE /m, 'chart --help: its -o');

# a granted non-superuser runner, -h/-p/-U, with a schema of its own first on
# its search_path: a function or type named as the CLI's would be there
$node->safe_psql('postgres', q{
	CREATE ROLE runner LOGIN;
	SELECT pgbenchx.grant_runner('runner');
	CREATE SCHEMA mine AUTHORIZATION runner;
});
$node->safe_psql('postgres', q{
	SET ROLE runner;
	CREATE FUNCTION mine.unnest(anyarray) RETURNS SETOF bigint LANGUAGE plpgsql AS
	  $$BEGIN RAISE EXCEPTION 'hijacked unnest'; END$$;
	CREATE FUNCTION mine.report(bigint) RETURNS text LANGUAGE sql AS $$SELECT 'hijacked report'$$;
	CREATE FUNCTION mine.export(bigint[]) RETURNS jsonb LANGUAGE sql AS $$SELECT '{"hijacked": true}'::jsonb$$;
});
{
	local $ENV{PGOPTIONS} = '-c search_path=mine,pg_catalog,public';
	my @conn = ('-h', $node->host, '-p', $node->port, '-U', 'runner', '-d', 'postgres');
	($rc, $out, $err) = run('report', @conn, $run);
	is($rc, 0, 'the runner: report') or diag($err);
	unlike($out, qr/hijacked/, 'the runner: report is pgbenchx.report');
	($rc, $out, $err) = run('export', @conn, $sa);
	is($rc, 0, 'the runner: export') or diag($err);
	unlike($out, qr/hijacked/, 'the runner: export is pgbenchx.export');
	($rc, $out, $err) = run('import', @conn, $file);
	is($rc, 0, 'the runner: import') or diag($err);
	my @mine = $out =~ /^sweep_id = (\d+)$/mg;
	is(scalar(@mine), 2, 'the runner: import is pgbenchx.import, with pg_catalog.unnest');
	is($node->safe_psql('postgres', "SELECT string_agg(DISTINCT owner, ',') FROM pgbenchx.sweeps WHERE sweep_id IN ("
			. join(',', @mine) . ")"), 'runner', 'the runner\'s import is the runner\'s');
}

# the superuser runs pgbenchx with the runner's schema on its path, last
# (PGOPTIONS, which its clients get too): operators the runner planted there, each an exact match for
# one the CLI's own queries use (float8 / int, bigint * float8, as in the
# aggregated log's), are never called: the CLI pins its session's
# search_path and keeps the user's only for -i and the scale warning (-s)
$node->safe_psql('postgres', q{
	SET ROLE runner;
	CREATE TABLE mine.caught (who name);
	CREATE FUNCTION mine.div(float8, int) RETURNS float8 LANGUAGE sql AS
	  $$INSERT INTO mine.caught VALUES (current_user) RETURNING $1 / $2::float8$$;
	CREATE OPERATOR mine./ (LEFTARG = float8, RIGHTARG = int, FUNCTION = mine.div);
	CREATE FUNCTION mine.mul(bigint, float8) RETURNS float8 LANGUAGE sql AS
	  $$INSERT INTO mine.caught VALUES (current_user) RETURNING $1::float8 * $2$$;
	CREATE OPERATOR mine.* (LEFTARG = bigint, RIGHTARG = float8, FUNCTION = mine.mul);
});
is($node->safe_psql('postgres', q{SET search_path = public, mine;
	SELECT 1.5::float8 / 2::int;
	SELECT count(*) FROM mine.caught;
	TRUNCATE mine.caught}), "0.75\n1", 'the planted operator is what that path resolves to, even last');
{
	local $ENV{PGOPTIONS} = '-c search_path=public,mine';
	my $logdir = $node->basedir . '/planted';
	mkdir $logdir or die "$logdir: $!";
	($rc, $out, $err) = run('-c', '1', '-T', '2', '-S', '-P', '1', '-l', '--aggregate-interval', '1',
		'--log-prefix', "$logdir/x", '-s', '1', $db);
	is($rc, 0, "a superuser's run with the runner's schema on its path") or diag($err);
	like($out, qr/^run_id = \d+$/m, 'it ran');
	is($node->safe_psql('postgres', 'SELECT count(*) FROM mine.caught'), '0',
		"no operator the runner planted ran with the superuser's rights");
}

# a run by that runner: its clients must log in with its password
# (docs/security.md), which pgbenchx passes on from its own login (SCRAM
# here, the password from the environment); the results show it masked
$node->safe_psql('postgres', q{
	ALTER ROLE runner PASSWORD 'runner-secret';
	GRANT SELECT, UPDATE, INSERT ON pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history TO runner;
});
my $hba = $node->data_dir . '/pg_hba.conf';
open($fh, '>', $hba) or die;
print $fh "local all " . $node->safe_psql('postgres', 'SELECT current_user') . " trust\n";
print $fh "local all all scram-sha-256\n";
close $fh;
$node->reload;
{
	local $ENV{PGPASSWORD} = 'runner-secret';
	($rc, $out, $err) = run('-h', $node->host, '-p', $node->port, '-U', 'runner', '-c', '1', '-t', '5', '-S', '-n', 'postgres');
	is($rc, 0, 'the runner\'s run, logged in with its password') or diag($err);
	my ($id) = $out =~ /^run_id = (\d+)$/m;
	# the password reaches the clients through the session, never run_bench's conninfo (test/t/072)
	is($node->safe_psql('postgres', "SELECT status || ' ' || owner || ' ' || coalesce(conninfo, '(none)') FROM pgbenchx.runs WHERE run_id = "
			. ($id // 0)), "completed runner (none)", 'its clients logged in with it, and no password went into run_bench\'s conninfo');
}

$node->stop;
done_testing();
