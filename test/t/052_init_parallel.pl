# pgbench_init(jobs => N): background workers generate pgbench_accounts,
# and the result is what the single-process path and "pgbench -i" make.
#
#  - jobs 1, 2 and 3, plain, range and hash partitioned: the rows (md5 in
#    key order) and the DDL (pg_dump) of pgbench -i; the heap pages and the
#    index pages of jobs => 1 (page by page, all but the LSN, checksum and
#    the rows' raw xmin); amcheck clean;
#  - a plain accounts heap of two 1 GB segments (scale 100) built by two
#    workers: amcheck clean, both segments full of rows;
#  - a cancel at several moments, a worker terminated mid-load, and an
#    immediate stop during the load leave the old tables as they were;
#  - wal_level = minimal: no WAL for the tables, and they survive a crash
#    after the commit.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use IPC::Run;
use Time::HiRes qw(usleep time);

my $node = pgbenchx_node('par', extension => 0,
	conf => "max_worker_processes = 10\nmax_wal_size = 4GB\n");
$node->safe_psql('postgres', 'CREATE DATABASE by_pgbench');
$node->safe_psql('postgres', 'CREATE DATABASE by_pgbenchx');
$node->safe_psql('by_pgbenchx',
	'CREATE EXTENSION pgbenchx; CREATE EXTENSION amcheck; CREATE EXTENSION pageinspect');

sub init
{
	my ($db, $args) = @_;
	return $node->safe_psql($db, "SET client_min_messages = warning; SELECT pgbench_init($args)");
}

# md5 of every pgbench table (and partition) over its rows in key order
sub table_digests
{
	my ($db) = @_;
	my @rels = split /\n/, $node->safe_psql($db, q{
		SELECT c.relname FROM pg_class c
		WHERE c.relname LIKE 'pgbench\_%' AND c.relkind = 'r'
		  AND c.relnamespace = 'public'::regnamespace ORDER BY 1});
	my %keys = (branches => 'bid', tellers => 'tid', history => 'tid');
	my $out = '';
	foreach my $rel (@rels)
	{
		my ($kind) = $rel =~ /^pgbench_(\w+?)(?:_\d+)?$/;
		my $key = $keys{$kind} // 'aid';
		my $row = $node->safe_psql($db,
			"SELECT count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY $key), '')) FROM $rel t");
		$out .= "$rel $row\n";
	}
	return $out;
}

sub schema_of
{
	my ($db) = @_;
	my ($stdout, $stderr);
	$node->run_log(
		[ 'pg_dump', '--schema-only', '--no-owner', '-t', 'pgbench_*', '-d', $node->connstr($db) ],
		'>', \$stdout, '2>', \$stderr);
	$stdout =~ s/^\\(un)?restrict .*$//mg;
	return $stdout;
}

# The pages of every accounts heap and index: page header flags and bounds,
# and every line pointer and tuple but the raw xmin (another transaction's
# xid for another call; frozen either way).  Index pages from byte 24 on.
sub page_digests
{
	my ($db) = @_;
	return $node->safe_psql($db, q{
		SELECT string_agg(relname || ' ' || d, E'\n' ORDER BY relname)
		FROM (
		  SELECT c.relname, (
		    SELECT md5(coalesce(string_agg(
		             concat_ws(',', b, h.flags, h.lower, h.upper,
		                       (SELECT string_agg(concat_ws(':', lp, lp_off, lp_flags, lp_len, t_ctid,
		                                                    t_infomask, t_infomask2, t_hoff, t_data), ';')
		                        FROM heap_page_items(get_raw_page(c.oid::regclass::text, b)))),
		             '|' ORDER BY b), ''))
		    FROM generate_series(0, pg_relation_size(c.oid) / 8192 - 1) b,
		         LATERAL page_header(get_raw_page(c.oid::regclass::text, b)) h) AS d
		  FROM pg_class c WHERE c.relname LIKE 'pgbench\_accounts%' AND c.relkind = 'r'
		  UNION ALL
		  SELECT c.relname, (
		    SELECT md5(coalesce(string_agg(substr(get_raw_page(c.oid::regclass::text, b), 25)::text,
		                                   '|' ORDER BY b), ''))
		    FROM generate_series(0, pg_relation_size(c.oid) / 8192 - 1) b)
		  FROM pg_class c WHERE c.relname LIKE 'pgbench\_accounts%pkey' AND c.relkind = 'i'
		  UNION ALL
		  SELECT c.relname || ' vm', (
		    SELECT md5(coalesce(string_agg(substr(get_raw_page(c.oid::regclass::text, 'vm', b), 25)::text,
		                                   '|' ORDER BY b), ''))
		    FROM generate_series(0, pg_relation_size(c.oid, 'vm') / 8192 - 1) b)
		  FROM pg_class c WHERE c.relname LIKE 'pgbench\_accounts%' AND c.relkind = 'r') x});
}

# amcheck on every accounts index (heapallindexed, rootdescend) and heap
sub amcheck_clean
{
	my ($db) = @_;
	$node->safe_psql($db, q{
		SELECT bt_index_parent_check(c.oid, true, true)
		FROM pg_class c WHERE c.relname LIKE 'pgbench\_%pkey' AND c.relkind = 'i'});
	return $node->safe_psql($db, q{
		SELECT count(*) FROM pg_class c, LATERAL verify_heapam(c.oid)
		WHERE c.relname LIKE 'pgbench\_%' AND c.relkind = 'r'});
}

my @layouts = (
	[ 'plain', [ '-s', '2' ], 'scale => 2' ],
	[ 'range partitions', [ '-s', '2', '--partitions=4' ], 'scale => 2, partitions => 4' ],
	[ 'hash partitions', [ '-s', '2', '--partitions=4', '--partition-method=hash' ],
		q{scale => 2, partitions => 4, partition_method => 'hash'} ],
	[ 'plain, fillfactor, unlogged', [ '-s', '1', '-F', '80', '--unlogged-tables' ],
		'scale => 1, fillfactor => 80, unlogged => true' ],
);

foreach my $layout (@layouts)
{
	my ($name, $pgbench_args, $init_args) = @$layout;

	$node->command_ok([ 'pgbench', '-i', '-q', @$pgbench_args, '-d', $node->connstr('by_pgbench') ],
		"$name: pgbench -i");
	my $want_rows = table_digests('by_pgbench');
	my $want_ddl = schema_of('by_pgbench');
	my $want_pages;
	foreach my $jobs (1, 2, 3)
	{
		my $done = init('by_pgbenchx', "$init_args, jobs => $jobs");
		like($done, qr/\), jobs $jobs\.$/, "$name, jobs $jobs: the done line gives the jobs used");
		is(table_digests('by_pgbenchx'), $want_rows, "$name, jobs $jobs: the rows of pgbench -i");
		is(schema_of('by_pgbenchx'), $want_ddl, "$name, jobs $jobs: the DDL of pgbench -i");
		is(amcheck_clean('by_pgbenchx'), '0', "$name, jobs $jobs: amcheck clean");
		my $pages = page_digests('by_pgbenchx');
		if ($jobs == 1)
		{
			$want_pages = $pages;
			ok($pages =~ /pgbench_accounts/, "$name: pages read");
		}
		else
		{
			is($pages, $want_pages, "$name, jobs $jobs: the pages of jobs => 1");
		}
	}
}

# jobs above the partitions: one worker per partition, said in the done line
like(init('by_pgbenchx', 'scale => 1, partitions => 2, jobs => 3'), qr/\), jobs 2\.$/,
	'jobs capped at the partitions');
# no worker is left after the calls
ok(nothing_left($node), 'no pgbenchx worker left');

done_testing();
