# Issue 12 §4 against real runs: a script that ends inside a transaction
# block counts the transaction its client completed before being aborted,
# as stock pgbench counts it (pgbench's own test expects "processed: 1/10"
# for BEGIN;SELECT 1; with -t 10), with -t and with a duration; and
# check_tpcb records whether the invariant already did not hold before a
# run (after a simple-update run), which export carries and a document
# without it still imports; and counts of one read in the singular.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('refusals', scale => 1);
my $pgbench = major_pgbench();

sub q1 { return $node->safe_psql('postgres', $_[0]); }

sub run_and_wait
{
	my ($sql) = @_;
	my $id = q1($sql);
	$node->safe_psql('postgres', "SET client_min_messages = warning; CALL pgbenchx.wait($id)");
	return $id;
}

# stock pgbench on the same database: its "processed: N/M" and exit code
sub stock_pgbench
{
	my (@args) = @_;
	my $file = $node->basedir . '/incomplete.sql';
	open my $fh, '>', $file or die "cannot write $file: $!";
	print $fh "BEGIN;SELECT 1;\n";
	close $fh;
	my ($stdout, $stderr);
	IPC::Run::run([ $pgbench, '-n', @args, '-f', $file, '-h', $node->host, '-p', $node->port, 'postgres' ],
		'>', \$stdout, '2>', \$stderr);
	my $rc = $? >> 8;
	my ($processed) = $stdout =~ /number of transactions actually processed: (\d+)/;
	return ($processed, $rc, $stderr);
}

q1(q{SELECT pgbenchx.add_script('incomplete', 'BEGIN;SELECT 1;')});

SKIP:
{
	skip "no stock pgbench at $pgbench", 3 unless -x $pgbench;
	my ($processed, $rc, $stderr) = stock_pgbench('-t', '10');
	is($processed, '1', 'stock pgbench: BEGIN;SELECT 1; with -t 10 processes 1');
	is($rc, 2, 'and exits 2 (a client aborted)');
	like($stderr, qr/client 0 aborted: end of script reached without completing the last transaction/,
		'with pgbench\'s words');
}

my $run = run_and_wait(
	"SELECT run_bench(1, transactions => 10, script => 'incomplete', vacuum => false, checkpoint => false)");
is( q1("SELECT status || ' ' || transactions || ' ' || failed || ' ' || aborted_clients || ' ' || transactions_per_client "
		  . "FROM pgbenchx.runs WHERE run_id = $run"),
	'failed 1 0 1 10',
	'pgbenchx -t 10: 1 transaction counted, 1 client aborted, as pgbench');
like(q1("SELECT error FROM pgbenchx.runs WHERE run_id = $run"),
	qr/client 0 aborted: end of script reached without completing the last transaction/,
	'the abort in pgbench\'s words');
ok(q1("SELECT latency_avg_ms > 0 FROM pgbenchx.runs WHERE run_id = $run") eq 't',
	'the counted transaction has its latency');

SKIP:
{
	skip "no stock pgbench at $pgbench", 1 unless -x $pgbench;
	my ($processed) = stock_pgbench('-c', '3', '-t', '10');
	is($processed, '3', 'stock pgbench: 3 clients with -t 10 process 3');
}
$run = run_and_wait(
	"SELECT run_bench(3, transactions => 10, script => 'incomplete', jobs => 2, vacuum => false, checkpoint => false)");
is(q1("SELECT transactions || ' ' || aborted_clients FROM pgbenchx.runs WHERE run_id = $run"),
	'3 3', 'pgbenchx: 3 clients with -t 10: 3 transactions, 3 clients aborted');

SKIP:
{
	skip "no stock pgbench at $pgbench", 1 unless -x $pgbench;
	my ($processed) = stock_pgbench('-c', '2', '-T', '1');
	is($processed, '2', 'stock pgbench: 2 clients with -T 1 process 2');
}
$run = run_and_wait(
	"SELECT run_bench(2, 1, 'incomplete', vacuum => false, checkpoint => false)");
is(q1("SELECT transactions || ' ' || aborted_clients FROM pgbenchx.runs WHERE run_id = $run"),
	'2 2', 'pgbenchx: 2 clients for 1 s: 2 transactions, 2 clients aborted');
ok(nothing_left($node), 'nothing left behind');

# --- check_tpcb: the state before the run
my $sweep = run_and_wait(
	"SELECT run_sweep('{2}'::int[], 1, 'tpcb-like', checkpoint => false, check_tpcb => true)");
is( q1("SELECT tpcb_consistent || ' ' || tpcb_consistent_before FROM pgbenchx.runs WHERE sweep_id = $sweep"),
	'true true', 'from consistent tables: held, and held before');
run_and_wait("SELECT run_bench(2, 1, 'simple-update', checkpoint => false)");
my $plain = q1("SELECT max(run_id) FROM pgbenchx.runs");
is(q1("SELECT tpcb_consistent_before IS NULL FROM pgbenchx.runs WHERE run_id = $plain"), 't',
	'without check_tpcb nothing is recorded before either');
my $broken = run_and_wait(
	"SELECT run_sweep('{2}'::int[], 1, 'tpcb-like', checkpoint => false, check_tpcb => true)");
is( q1("SELECT tpcb_consistent || ' ' || tpcb_consistent_before FROM pgbenchx.runs WHERE sweep_id = $broken"),
	'false false', 'after a simple-update run: false, and already false before the run');
like(slurp_file($node->logfile), qr/the TPC-B invariant did not hold before the run/,
	'the warning says it was broken before the run');

# export carries the column; a document without it (0.2) still imports
my $doc = q1("SELECT pgbenchx.export(ARRAY[$broken])");
like($doc, qr/"tpcb_consistent_before": false/, 'export carries tpcb_consistent_before');
my $ids = q1(
	"SELECT pgbenchx.import(jsonb_set(d, '{runs}', (SELECT jsonb_agg(r - 'tpcb_consistent_before') "
	  . "FROM jsonb_array_elements(d->'runs') r))) FROM (SELECT pgbenchx.export(ARRAY[$broken]) AS d) x");
like($ids, qr/^\{\d+\}$/, "a document without it imports ($ids)");
my ($new) = $ids =~ /(\d+)/;
is( q1("SELECT tpcb_consistent || ' ' || (tpcb_consistent_before IS NULL) FROM pgbenchx.runs WHERE sweep_id = $new"),
	'false true', 'the imported run keeps its verdict, with nothing before');

$node->safe_psql('postgres', 'SET client_min_messages = warning; SELECT pgbench_init(1)');
my $again = run_and_wait(
	"SELECT run_sweep('{2}'::int[], 1, 'tpcb-like', checkpoint => false, check_tpcb => true)");
is( q1("SELECT tpcb_consistent || ' ' || tpcb_consistent_before FROM pgbenchx.runs WHERE sweep_id = $again"),
	'true true', 'after pgbench_init: holds again');

$node->stop;

# --- singulars: one job, one client, one connection, one free slot
my $small = pgbenchx_node('singulars',
	conf => "max_worker_processes = 2\nmax_connections = 3\nsuperuser_reserved_connections = 2\n");
my ($rc, $out, $err) = $small->psql('postgres', 'SELECT run_bench(1, 1, jobs => 1)');
like($err, qr/1 job needs 2 background worker slots, but only [01] (?:is|are) free/,
	"one job in the singular ($err)");
unlike($err, qr/1 jobs|1 slots|1 are free/, 'no plural for one');
$small->append_conf('postgresql.conf', "max_worker_processes = 8\n");
$small->restart;
($rc, $out, $err) = $small->psql('postgres', 'SELECT run_bench(1, 1)');
like($err, qr/1 client needs 2 connections, but only 0 are free/, "one client, its connection and the coordinator's ($err)");
like($err, qr/and 1 connection is in use/, 'one connection in use in the detail');
$small->stop;
done_testing();
