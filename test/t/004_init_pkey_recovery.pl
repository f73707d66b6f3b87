# The pgbench_accounts primary key that pgbench_init builds from the load's
# TIDs (src/init/btload.c) survives a crash right after commit, and can be
# rebuilt from WAL alone (a base backup taken before the call, restored
# with the archive): amcheck finds it valid, indexing every heap tuple, and
# lookups through it return the right rows.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('pkey', init => [ has_archiving => 1, allows_streaming => 1 ]);
$node->safe_psql('postgres', 'CREATE EXTENSION amcheck');

my $check_sql = q{
	SELECT bt_index_parent_check('pgbench_accounts_pkey', heapallindexed => true, rootdescend => true);
	SELECT bt_index_check('pgbench_accounts_pkey', heapallindexed => true);
	SET enable_seqscan = off;
	SET enable_bitmapscan = off;
	SELECT count(*) || ' ' || sum(aid) FROM pgbench_accounts WHERE aid > 0;
	SELECT string_agg(aid || ':' || bid, ',' ORDER BY aid)
	FROM pgbench_accounts WHERE aid IN (1, 100000, 100001, 250000, 300000, 300001);
};
my $expected = "\n\n300000 45000150000\n1:1,100000:1,100001:2,250000:3,300000:3";

$node->backup('before_init');
$node->safe_psql('postgres',
	'SET client_min_messages = warning; SELECT pgbench_init(3, fillfactor => 90)');
is($node->safe_psql('postgres', $check_sql), $expected, 'key valid after pgbench_init');

# crash right after commit: recovery leaves a valid index
$node->stop('immediate');
$node->start;
is($node->safe_psql('postgres', $check_sql), $expected, 'key valid after crash recovery');

# from WAL alone: restore the backup taken before the call and replay
my $last = $node->safe_psql('postgres',
	'SELECT pg_walfile_name(pg_current_wal_lsn())');
$node->safe_psql('postgres', 'SELECT pg_switch_wal()');
$node->poll_query_until('postgres',
	"SELECT last_archived_wal >= '$last' FROM pg_stat_archiver")
  or die 'timed out waiting for the archive';
my $restored = PostgreSQL::Test::Cluster->new('restored');
$restored->init_from_backup($node, 'before_init', has_restoring => 1, standby => 0);
$restored->start;
$restored->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'timed out waiting for the restore';
is($restored->safe_psql('postgres', $check_sql), $expected,
	'key valid when rebuilt from WAL alone');

$restored->stop;
$node->stop;

# wal_level = minimal: the new files are synced at commit, not WAL-logged
my $minimal = PostgreSQL::Test::Cluster->new('minimal');
$minimal->init;
$minimal->append_conf('postgresql.conf',
	"wal_level = minimal\nmax_wal_senders = 0\nwal_skip_threshold = '64kB'");
$minimal->append_conf('postgresql.conf',
	"extension_destdir = '$ENV{PGX_EXTENSION_DESTDIR}'")
  if $ENV{PGX_EXTENSION_DESTDIR};
$minimal->start;
$minimal->safe_psql('postgres', 'CREATE EXTENSION pgbenchx; CREATE EXTENSION amcheck');
$minimal->safe_psql('postgres',
	'SET client_min_messages = warning; SELECT pgbench_init(3, fillfactor => 90)');
$minimal->stop('immediate');
$minimal->start;
is($minimal->safe_psql('postgres', $check_sql), $expected,
	'key valid after crash recovery with wal_level = minimal');
$minimal->stop;
done_testing();
