# What a generator sends can never exhaust the recorder's memory, and is
# checked with import()'s rules (issue 20, section 3).  The attacker owns a
# generator: a plain PostgreSQL (no pgbenchx library) with a hand-made
# pgbenchx schema whose functions, tables and views answer every statement
# the recorder sends, as its owner likes.  Each attack is one run of the
# recorder R against one or two such fake generators; for each one: the run
# ends (failed, with an error naming the generator and what it sent), the
# generator's part was cancelled, nothing it sent that import() refuses is
# stored (at the end every run of R is exported and imported into a fresh
# cluster, which must accept it all), the recorder's coordinator stays
# within a bound of resident memory while it runs (VmRSS read from
# /proc/<pid>/status), and R never restarts.  A fake that behaves is run
# first, so that a refusal is shown to come from the rule, not the fake.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $r = pgbenchx_node('recorder', scale => 1, conf => "max_connections = 100\n");
my $f = pgbenchx_node('fake', extension => 0);
my $version = $r->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'pgbenchx'");
my $start_pid = $r->safe_psql('postgres', 'SELECT pg_postmaster_start_time()');

sub ci { my ($n, $db) = @_; return 'host=' . $n->host . ' port=' . $n->port . " dbname=$db"; }
my $cr = ci($r, 'postgres');

# the fake generator: its answers depend on pgbenchx.fake.mode
my $fake_schema = <<"EOSQL";
CREATE SCHEMA pgbenchx;
CREATE TABLE pgbenchx.fake (mode text NOT NULL, go_at timestamptz, cancelled bool NOT NULL DEFAULT false,
                            launches int NOT NULL DEFAULT 0, cancels int NOT NULL DEFAULT 0);
INSERT INTO pgbenchx.fake (mode) VALUES ('valid');
CREATE FUNCTION pgbenchx.generator_status(OUT sql_version text, OUT library_version text, OUT running bigint,
    OUT free_worker_slots int, OUT free_connections int, OUT ncpus int, OUT system_identifier text, OUT now timestamptz)
LANGUAGE sql AS \$\$ SELECT '$version', '$version', NULL::bigint, 64, 100, 4,
    (SELECT system_identifier::text FROM pg_control_system()), clock_timestamp() \$\$;
CREATE FUNCTION pgbenchx.launch_part(jsonb) RETURNS bigint LANGUAGE sql AS
  \$\$ UPDATE pgbenchx.fake SET go_at = NULL, cancelled = false, launches = launches + 1; SELECT 7::bigint \$\$;
CREATE FUNCTION pgbenchx.progress_state(OUT run_id bigint, OUT phase text) RETURNS SETOF record
LANGUAGE sql AS \$\$ SELECT 7::bigint, 'ready' \$\$;
CREATE FUNCTION pgbenchx.part_go(bigint, timestamptz) RETURNS void LANGUAGE sql AS
  \$\$ UPDATE pgbenchx.fake SET go_at = \$2 \$\$;
CREATE FUNCTION pgbenchx.cancel(bigint) RETURNS boolean LANGUAGE sql AS
  \$\$ UPDATE pgbenchx.fake SET cancelled = true, cancels = cancels + 1; SELECT true \$\$;
CREATE TABLE pgbenchx.environments (environment_id bigint, note text);
CREATE TABLE pgbenchx.statement_stats (run_id bigint, script text, command int, command_text text,
    executions bigint, latency_avg_ms float8, failures bigint, retries bigint);
-- whole seconds since the go (0 before it)
CREATE FUNCTION pgbenchx.elapsed() RETURNS int LANGUAGE sql AS
  \$\$ SELECT coalesce(floor(extract(epoch FROM clock_timestamp() - go_at))::int, 0) FROM pgbenchx.fake \$\$;
CREATE FUNCTION pgbenchx.mode() RETURNS text LANGUAGE sql AS \$\$ SELECT mode FROM pgbenchx.fake \$\$;
-- a numeric second whose > is always true: the same seconds on every poll
CREATE FUNCTION pgbenchx.always(numeric, int) RETURNS boolean LANGUAGE sql AS \$\$ SELECT true \$\$;
CREATE OPERATOR pg_catalog.> (leftarg = numeric, rightarg = int, function = pgbenchx.always);
CREATE VIEW pgbenchx.runs AS
SELECT 7::bigint AS run_id,
       CASE WHEN f.cancelled THEN 'cancelled'
            WHEN f.mode = 'huge_error' AND f.go_at IS NOT NULL THEN 'failed'
            WHEN pgbenchx.elapsed() >= 6 THEN 'completed' ELSE 'running' END AS status,
       CASE WHEN f.mode = 'huge_error' THEN repeat('z', 3000000)
            WHEN f.mode = 'huge_answer' THEN repeat('y', 200000) END AS error,
       NULL::bigint AS environment_id,
       CASE WHEN f.mode = 'row_jobs' THEN -1 ELSE 1 END AS jobs,
       CASE WHEN f.mode = 'row_transactions' THEN -5 ELSE 50 END::bigint AS transactions,
       0::bigint AS failed,
       CASE WHEN f.mode = 'row_tps' THEN 'NaN'::float8 ELSE 10 END AS tps,
       1::float8 AS latency_avg_ms, 0::float8 AS latency_stddev_ms, 1::float8 AS latency_p50_ms,
       1::float8 AS latency_p99_ms, 1::float8 AS latency_max_ms, 1::float8 AS conn_time_ms,
       CASE WHEN f.mode = 'row_duration' THEN 3000 ELSE 5 END::float8 AS bench_duration_s,
       0::float8 AS driver_cpu_s, 0 AS aborted_clients, NULL::bytea AS latency_hist
FROM pgbenchx.fake f
-- never answers once started
WHERE f.mode <> 'never' OR f.go_at IS NULL OR (SELECT true FROM pg_sleep(60));
CREATE VIEW pgbenchx.samples_std AS
SELECT 7::bigint AS run_id, g AS second, 10::bigint AS transactions, 10::float8 AS tps,
       1::float8 AS latency_avg_ms, 0::bigint AS failed, 1::float8 AS covered_s, NULL::bytea AS latency_hist,
       0::bigint AS skipped, 0::bigint AS retried, 0::bigint AS retries, 0::float8 AS lag_sum_ms
FROM generate_series(1, least(pgbenchx.elapsed(), 5)) g;
CREATE VIEW pgbenchx.samples AS
SELECT s.run_id, s.second,
       CASE WHEN m = 'negative' THEN -5 ELSE s.transactions END AS transactions,
       CASE WHEN m = 'nan' THEN 'NaN' WHEN m = 'infinity' THEN 'Infinity' ELSE s.tps END AS tps,
       s.latency_avg_ms, s.failed, s.covered_s,
       CASE WHEN m = 'huge_hist' THEN decode(repeat('ab', 5000000), 'hex')
            WHEN m = 'bad_hist' THEN '\\x0102'::bytea END AS latency_hist,
       CASE WHEN m = 'negative_skipped' THEN -3 ELSE s.skipped END AS skipped, s.retried, s.retries,
       CASE WHEN m = 'nan_lag' THEN 'NaN' ELSE s.lag_sum_ms END AS lag_sum_ms
FROM pgbenchx.samples_std s, pgbenchx.mode() m
WHERE m IN ('valid', 'negative', 'nan', 'infinity', 'huge_hist', 'bad_hist', 'huge_error', 'never',
            'negative_skipped', 'nan_lag',
            'row_jobs', 'row_transactions', 'row_tps', 'row_duration')
UNION ALL  -- every second twice
SELECT s.* FROM pgbenchx.samples_std s, generate_series(1, 2), pgbenchx.mode() m WHERE m = 'repeat'
UNION ALL  -- second 3000 of a 5 s run
SELECT s.* FROM pgbenchx.samples_std s, pgbenchx.mode() m WHERE m = 'beyond'
UNION ALL
SELECT 7, 3000, 1, 1, 1, 0, 1, NULL, 0, 0, 0, 0 FROM pgbenchx.mode() m WHERE m = 'beyond'
UNION ALL  -- 600 seconds at once, ever further ahead
SELECT 7, g OPERATOR(pg_catalog.+) pgbenchx.elapsed() * 600, 1, 1, 1, 0, 1, NULL, 0, 0, 0, 0
FROM generate_series(1, 600) g, pgbenchx.mode() m WHERE m IN ('ahead', 'huge_answer');
-- a samples table of other types: tps as text, a numeric second whose > is always true
CREATE VIEW pgbenchx.samples_typed AS
SELECT 7::bigint AS run_id, g::numeric AS second, 10::bigint AS transactions, lpad('10', 60000, '0') AS tps,
       1::float8 AS latency_avg_ms, 0::bigint AS failed, 1::float8 AS covered_s, NULL::bytea AS latency_hist,
       0::bigint AS skipped, 0::bigint AS retried, 0::bigint AS retries, 0::float8 AS lag_sum_ms
FROM generate_series(1, 600) g;
EOSQL

sub sq { my ($node, $sql, $db) = @_; return $node->safe_psql($db // 'postgres', $sql); }

$f->safe_psql('postgres', 'CREATE DATABASE fake2');
sq($f, $fake_schema, $_) for qw(postgres fake2);
ok(1, 'two fake generators made on one plain PostgreSQL (databases postgres and fake2)');

sub set_mode
{
	my ($db, $mode) = @_;
	# the wrong-type attack swaps the samples view for one of other types
	my $typed = $mode eq 'wrong_types';
	sq($f, "UPDATE pgbenchx.fake SET mode = '$mode', go_at = NULL, cancelled = false, launches = 0, cancels = 0;"
		  . ($typed ? "ALTER VIEW pgbenchx.samples RENAME TO samples_plain; ALTER VIEW pgbenchx.samples_typed RENAME TO samples;" : ''),
		$db);
}

sub unset_types
{
	my ($db) = @_;
	sq($f, "ALTER VIEW pgbenchx.samples RENAME TO samples_typed; ALTER VIEW pgbenchx.samples_plain RENAME TO samples;", $db);
}

# the resident memory of a process in kB, or undef once it is gone
sub vmrss
{
	my ($pid) = @_;
	open(my $fh, '<', "/proc/$pid/status") or return undef;
	while (<$fh>) { return $1 if /^VmRSS:\s+(\d+) kB/; }
	return undef;
}

# One run of R driven by the fake generators dbs (their modes set first);
# returns [status, error, max VmRSS of the coordinator in kB, run_id].
sub attack
{
	my ($duration, @gens) = @_;
	my $list = join(', ', map { "'" . ci($f, $_->[0]) . "'" } @gens);
	set_mode(@$_) for @gens;
	# a sweep of one step, so that export() takes it
	my $sweep = sq($r, "SET client_min_messages = warning; SELECT run_sweep(2, 2, $duration, 'select-only', conninfo => '$cr', "
		  . "generators => ARRAY[$list], vacuum => false, checkpoint => false)");
	$r->poll_query_until('postgres', "SELECT count(*) = 1 FROM pgbenchx.runs WHERE sweep_id = $sweep")
	  or die "no run in sweep $sweep";
	my $id = sq($r, "SELECT run_id FROM pgbenchx.runs WHERE sweep_id = $sweep");
	my $max = 0;
	my $pid = '';
	# follow the coordinator's memory until the run has ended (no timing asserted)
	for (my $i = 0; $i < 10 * $PostgreSQL::Test::Utils::timeout_default; $i++)
	{
		my ($st, $p) = split /\|/, sq($r, "SELECT status, coalesce(coordinator_pid, 0) FROM pgbenchx.runs WHERE run_id = $id");
		$pid = $p if $p;
		if ($pid)
		{
			my $rss = vmrss($pid);
			$max = $rss if defined $rss && $rss > $max;
		}
		last if $st ne 'running';
		usleep(100_000);
	}
	sq($r, "SET client_min_messages = warning; CALL pgbenchx.wait($id)");
	unset_types($_->[0]) for grep { $_->[1] eq 'wrong_types' } @gens;
	my ($st, $err) = split /\|/, sq($r, "SELECT status, error FROM pgbenchx.runs WHERE run_id = $id"), 2;
	note("run $id (" . join(', ', map { $_->[1] } @gens) . "): $st, coordinator VmRSS at most $max kB: " . substr($err // '', 0, 300));
	return [ $st, $err // '', $max, $id ];
}

# resident memory bound of the coordinator while a generator attacks: what a
# read and the seconds held may take (RECORDER_POLL_BYTES, about 45 MB, and
# RECORDER_MAX_HELD_BYTES, 64 MB) with room for the rest
my $rss_bound = 256 * 1024;

# --- a fake that behaves: the run completes ---------------------------------
my $a = attack(5, [ 'postgres', 'valid' ]);
is($a->[0], 'completed', 'a fake generator that answers like a part: the run completes');
is(sq($r, "SELECT count(*) FROM pgbenchx.samples WHERE run_id = $a->[3]"), '5', 'its 5 seconds are stored');
is(sq($r, "SELECT transactions FROM pgbenchx.runs WHERE run_id = $a->[3]"), '50', 'with its runs row\'s transactions');

# --- the attacks ------------------------------------------------------------
my @attacks = (
	[ 'repeat', 5, qr/it sent second 1 again, after second 1/, 'the same second twice' ],
	[ 'beyond', 5, qr/it sent second 3000 of a run of 5 s/, 'second 3000 of a 5 s run' ],
	[ 'ahead', 60, qr/it sent second \d+ before that second had passed/, '600 seconds at once, ever further ahead' ],
	[ 'negative', 5, qr/second 1: transactions is -5, below 0/, 'negative transactions' ],
	[ 'nan', 5, qr/second 1: tps is not a finite number: NaN/, 'NaN tps' ],
	[ 'infinity', 5, qr/second 1: tps is not a finite number: Infinity/, 'Infinity tps' ],
	[ 'negative_skipped', 5, qr/second 1: skipped is -3, below 0/, 'negative skipped' ],
	[ 'nan_lag', 5, qr/second 1: lag_sum_ms is not a finite number: NaN/, 'NaN lag_sum_ms' ],
	[ 'huge_hist', 5, qr/it sent a samples value of 10000002 bytes, more than the 65536/, 'a 10 MB histogram' ],
	[ 'bad_hist', 5, qr/second 1: latency_hist is not a valid latency histogram/, 'a histogram that does not decode' ],
	[ 'huge_answer', 60, qr/it sent an answer of more than \d+ bytes/, '600 rows of 200 kB each' ],
	[ 'wrong_types', 5, qr/column 3 of its answer is of type 1700, not 23/, 'columns of other types, the same 600 seconds forever' ],
	[ 'row_jobs', 5, qr/was lost while its results were read: its runs row's "jobs" is -1, below 1/, 'negative jobs in its runs row' ],
	[ 'row_transactions', 5, qr/its runs row's "transactions" is -5, below 0/, 'negative transactions in its runs row' ],
	[ 'row_tps', 5, qr/its runs row's "tps" is not a number/, 'NaN tps in its runs row' ],
	[ 'row_duration', 5, qr/its runs row measured 3000 s, longer than the run/, '3000 s measured in a 5 s run' ],
);
for my $t (@attacks)
{
	my ($mode, $duration, $re, $what) = @$t;
	my $res = attack($duration, [ 'postgres', $mode ]);
	is($res->[0], 'failed', "$what: the run failed");
	like($res->[1], qr/generator 1 \(.*\) was lost/, "$what: naming the generator");
	like($res->[1], $re, "$what: saying what it sent");
	cmp_ok($res->[2], '<', $rss_bound, "$what: the coordinator's memory stayed bounded ($res->[2] kB)");
	is(sq($r, "SELECT status FROM pgbenchx.run_generators WHERE run_id = $res->[3]"), 'lost', "$what: run_generators says lost");
	cmp_ok(sq($f, 'SELECT cancels FROM pgbenchx.fake'), '>=', 1, "$what: its part was cancelled") unless $mode =~ /^row_/;
	is(sq($r, "SELECT count(*) FROM pgbenchx.samples WHERE run_id = $res->[3] AND "
		  . "(second > 7 OR transactions < 0 OR NOT tps BETWEEN 0 AND 1e12 OR covered_s > 86400)"), '0',
		"$what: no invalid second stored");
}

# --- a huge error text: stored, but bounded ---------------------------------
$a = attack(5, [ 'postgres', 'huge_error' ]);
is($a->[0], 'failed', 'a part that ends failed with a 3 MB error: the run failed');
like($a->[1], qr/its runs row's error is longer than 8192 bytes/, 'the generator is lost for it');
cmp_ok(length($a->[1]), '<=', 8400, 'runs.error is bounded (' . length($a->[1]) . ' characters)');
cmp_ok(sq($r, "SELECT coalesce(max(length(error)), 0) FROM pgbenchx.run_generators WHERE run_id = $a->[3]"), '<=', 8400,
	'run_generators.error is bounded too');

# --- two generators: one sends the same 600 seconds, the other never answers
$a = attack(5, [ 'postgres', 'wrong_types' ], [ 'fake2', 'never' ]);
is($a->[0], 'failed', 'the same seconds forever on one generator, no answer from the other: the run failed');
like($a->[1], qr/generator 1 \(.*\) was lost while measuring: column 3/, 'the first generator lost for what it sent');
cmp_ok($a->[2], '<', $rss_bound, "the coordinator's memory stayed bounded ($a->[2] kB)");
is(sq($r, "SELECT string_agg(status, ',' ORDER BY generator) FROM pgbenchx.run_generators WHERE run_id = $a->[3]"),
	'lost,lost', 'both lost: the one that never answers is not waited for beyond its deadline');

$a = attack(5, [ 'postgres', 'never' ]);
is($a->[0], 'failed', 'a generator that never answers: the run failed');
like($a->[1], qr/was lost while measuring: no answer within 10 s/, 'lost at the deadline of its poll');

# --- the pre-flight, in the caller's session: a status of no row, a huge one
$f->safe_psql('postgres', 'CREATE DATABASE fake3');
sq($f, $fake_schema, 'fake3');
for my $t ([ 'no row', "SELECT NULL::text, NULL::text, NULL::bigint, 0, 0, 0, NULL::text, NULL::timestamptz WHERE false",
		qr/generator 1 \(.*\) could not report its state.*answered 0 rows of 8 columns/s ],
	[ 'a huge version', "SELECT repeat('9', 100000), '$version', NULL::bigint, 64, 100, 4, '1', clock_timestamp()",
		qr/could not report its state.*Column 1 of pgbenchx.generator_status\(\) there is 100000 bytes long/s ])
{
	my ($what, $body, $re) = @$t;
	sq($f, "DROP FUNCTION pgbenchx.generator_status(); CREATE FUNCTION pgbenchx.generator_status(OUT sql_version text, "
		  . "OUT library_version text, OUT running bigint, OUT free_worker_slots int, OUT free_connections int, OUT ncpus int, "
		  . "OUT system_identifier text, OUT now timestamptz) RETURNS SETOF record LANGUAGE sql AS \$\$ $body \$\$", 'fake3');
	my ($ret, $out, $err) = $r->psql('postgres', "SELECT run_bench(2, 5, 'select-only', conninfo => '$cr', "
		  . "generators => ARRAY['" . ci($f, 'fake3') . "'], vacuum => false, checkpoint => false)");
	isnt($ret, 0, "pre-flight, generator_status() answers $what: refused");
	like($err, $re, "pre-flight, generator_status() answers $what: saying so");
	is(sq($r, 'SELECT 1'), '1', "pre-flight, generator_status() answers $what: the server is up");
}

# --- R never restarted ------------------------------------------------------
is(sq($r, 'SELECT pg_postmaster_start_time()'), $start_pid, 'the recorder\'s cluster never restarted');
ok(!grep({ /terminated by signal|out of memory/ } split /\n/, slurp_file($r->logfile)),
	'no process of the recorder was killed and none ran out of memory');

# --- nothing stored that import() refuses -------------------------------------
my $doc = sq($r, "SELECT pgbenchx.export(array_agg(sweep_id ORDER BY sweep_id)) FROM pgbenchx.sweeps");
my $i = pgbenchx_node('importer');
my $file = $i->basedir . '/doc.json';
open(my $fh, '>', $file) or die $!;
print $fh $doc;
close $fh;
my ($ret, $out, $err) = $i->psql('postgres', "SELECT cardinality(pgbenchx.import(pg_read_file('$file')::jsonb))");
is($ret, 0, "everything the recorder stored of the attacks is accepted by import() ($err)");
cmp_ok($out, '>=', 1, "the runs were imported ($out sweeps)");

done_testing();
