# Load: 1000 clients in 4 jobs complete a run in a cluster with
# max_connections raised.  Every client connects (1000 distinct
# application_names while the run is on), the run completes with
# transactions, and afterwards no client backend, driver or coordinator is
# left.  Each driver holds 250 sockets: the drivers raise their soft open
# file limit to their share (launch refuses when the hard limit is too low).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use Time::HiRes qw(time);

my $node = pgbenchx_node('thousand', scale => 1, conf => <<'CONF');
max_connections = 1100
max_worker_processes = 16
shared_buffers = 64MB
log_connections = off
log_disconnections = off
CONF

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# the clients wait on a lock in their first transaction until the look
# below has seen them all: the run is on for as long as that takes (1000
# connections took 40 s on a loaded machine, longer than the run), and it
# completes after the unlock
my $lock = lock_session($node, 'pgbench_accounts');
my $t0 = time;
my $id = q1("SELECT run_bench(1000, 3, 'select-only', jobs => 4, vacuum => false, checkpoint => false)");
like($id, qr/^\d+$/, 'run_bench accepts 1000 clients in 4 jobs');

# while it runs: every client is connected, under its own application_name,
# and 4 drivers hold them, seen in one look at pg_stat_activity
ok( $node->poll_query_until('postgres',
		"SELECT count(DISTINCT application_name) FILTER (WHERE backend_type = 'client backend' "
		  . "AND application_name LIKE 'pgbenchx client %') || '|' || "
		  . "count(*) FILTER (WHERE backend_type = 'pgbenchx driver') FROM pg_stat_activity",
		'1000|4'),
	'1000 distinct clients are connected at once, by 4 drivers');
unlock_session($lock);

$node->safe_psql('postgres', "SET client_min_messages = warning; CALL pgbenchx.wait($id)");
my $elapsed = time - $t0;

my ($status, $clients, $jobs, $tx, $failed, $aborted, $error) = split /\|/,
  q1("SELECT status, clients, jobs, transactions, failed, aborted_clients, coalesce(error, '') "
	  . "FROM pgbenchx.runs WHERE run_id = $id");
is($status, 'completed', 'the run completed');
is($clients, '1000', 'with 1000 clients');
is($jobs, '4', 'in 4 jobs');
cmp_ok($tx, '>', 0, 'transactions were made');
is($failed, '0', 'none failed');
is($aborted, '0', 'no client aborted');
is($error, '', 'no error');
cmp_ok(q1("SELECT count(*) FROM pgbenchx.samples WHERE run_id = $id"), '>=', 3,
	'a sample per second');

# nothing left: clients, drivers and coordinator are gone
ok( $node->poll_query_until('postgres',
		"SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx%' "
		  . "OR backend_type IN ('pgbenchx driver', 'pgbenchx coordinator')",
		'0'),
	'no client backend, driver or coordinator is left');

my ($tps, $conn_ms) = split /\|/,
  q1("SELECT round(tps::numeric, 1), round(conn_time_ms::numeric) FROM pgbenchx.runs WHERE run_id = $id");
diag(sprintf("1000 clients / 4 jobs, select-only 3 s: %s transactions, tps %s, connecting %s ms, call to end %.1f s",
		$tx, $tps, $conn_ms, $elapsed));

$node->stop;
done_testing();
