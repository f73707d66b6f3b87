# pg_dump keeps the results a user has gathered: the pgbenchx tables are
# extension configuration tables, so their rows and sequences are dumped and
# restored along with CREATE EXTENSION.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('dump', extension => 0);
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
$node->safe_psql('src', q{
	CREATE EXTENSION pgbenchx;
	INSERT INTO pgbenchx.sweeps (script, clients, duration, label, status)
		VALUES ('tpcb-like', '{1,2,4}', 60, 'ext4 noatime', 'completed');
	INSERT INTO pgbenchx.runs (sweep_id, script, clients, jobs, duration, status, transactions, tps)
		SELECT 1, 'tpcb-like', c, 1, 60, 'completed', 1000 * c, 16.5 * c FROM unnest('{1,2,4}'::int[]) c;
	INSERT INTO pgbenchx.samples (run_id, second, transactions, tps)
		SELECT r, s, 100, 100 FROM generate_series(2, 4) r, generate_series(1, 60) s;
});

my $dump = $node->basedir . '/src.sql';
$node->command_ok([ 'pg_dump', '-f', $dump, '-d', $node->connstr('src') ], 'pg_dump of a database with results');
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', $dump, '-d', $node->connstr('dst') ],
	'restore into another database');

my $q = q{SELECT (SELECT string_agg(label || ' ' || status, ',' ORDER BY sweep_id) FROM pgbenchx.sweeps) || ' / ' ||
                 (SELECT string_agg(clients || ':' || tps, ',' ORDER BY run_id) FROM pgbenchx.runs) || ' / ' ||
                 (SELECT count(*) FROM pgbenchx.samples)};
is($node->safe_psql('dst', $q), $node->safe_psql('src', $q), 'sweeps, runs and samples restored');
is($node->safe_psql('dst', $q), 'ext4 noatime completed / 1:16.5,2:33,4:66 / 180', 'restored values');

# sequences continue after the restored ids
# (one sequence numbers sweeps and runs: sweep 1, runs 2..4)
is($node->safe_psql('dst', q{SELECT string_agg(run_id::text, ',' ORDER BY run_id) FROM pgbenchx.runs}),
	'2,3,4', 'ids restored');
is($node->safe_psql('dst', q{INSERT INTO pgbenchx.runs (script, clients, jobs) VALUES ('x', 1, 1) RETURNING run_id}),
	'5', 'run_id continues after restore');
is($node->safe_psql('dst', q{INSERT INTO pgbenchx.sweeps (script, clients) VALUES ('x', '{1}') RETURNING sweep_id}),
	'6', 'sweep_id continues after restore');

$node->stop;
done_testing();
