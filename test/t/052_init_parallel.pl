# pgbench_init(jobs => N): background workers generate pgbench_accounts,
# and the result is what the single-process path and "pgbench -i" make.
#
#  - jobs 1, 2 and 3, plain, range and hash partitioned: the rows (md5 in
#    key order) and the DDL (pg_dump) of pgbench -i; the heap pages and the
#    index pages of jobs => 1 (page by page, all but the LSN, checksum and
#    the rows' raw xmin); amcheck clean;
#  - a plain accounts heap of two 1 GB segments (scale 150) built by two
#    workers: amcheck clean, both segments full of rows; progress NOTICEs;
#  - a cancel at several moments, a worker terminated mid-load, and an
#    immediate stop during the load leave the old tables as they were;
#  - the crash record (initrecord.c): after an immediate stop, no orphan
#    file once the next pgbench_init ran (no preload) or after the restart
#    (preload); a committed or rolled-back call leaves no record; records
#    written by hand remove only unused files of their database;
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

# wal_level = replica: the workers WAL-log their pages
my $node = pgbenchx_node('par', extension => 0, init => [ allows_streaming => 1 ],
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

# Two workers into one heap of two 1 GB segments: the leader sizes the file
# first, so that no worker's write into the second segment pads the first.
# Scale 150 (2 GB): long enough for progress NOTICEs on most machines.
{
	my ($done, $notices) = ('', '');
	$node->psql('by_pgbenchx', 'SELECT pgbench_init(150, jobs => 2)',
		stdout => \$done, stderr => \$notices, on_error_die => 1);
	like($done, qr/\), jobs 2\.$/, 'scale 150: two jobs');
	my ($generate) = $done =~ /generate ([0-9.]+) s/;
	my @progress = $notices =~ /NOTICE:  (\d+) of 15000000 tuples \(\d+%\) of pgbench_accounts done/g;
	note("scale 150: generate $generate s, progress NOTICEs: @progress");
	ok(!grep({ $_ > 15000000 } @progress) && join(',', @progress) eq join(',', sort { $a <=> $b } @progress),
		'scale 150: the progress NOTICEs count up, within the rows');
	# one about every 5 s of the load (the last one when the load ends)
	cmp_ok(scalar(@progress), '>=', $generate > 5.5 ? 1 : 0,
		'scale 150: a progress NOTICE when the load took more than 5 s');
	is($node->safe_psql('by_pgbenchx', q{
		SELECT pg_relation_size('pgbench_accounts') > 1024 * 1024 * 1024,
		       count(*), sum(aid), count(DISTINCT bid), sum(abalance), min(filler) = max(filler)
		FROM pgbench_accounts}),
		't|15000000|112500007500000|150|0|t', 'scale 150: two segments, every row');
	# the last block of the first segment and the first of the second hold rows
	is($node->safe_psql('by_pgbenchx', q{
		SELECT string_agg((SELECT count(*) FROM heap_page_items(get_raw_page('pgbench_accounts', b)))::text, ',' ORDER BY b)
		FROM unnest(ARRAY[131071, 131072]) b}),
		$node->safe_psql('by_pgbenchx', q{
		SELECT string_agg((SELECT count(*) FROM heap_page_items(get_raw_page('pgbench_accounts', b)))::text, ',' ORDER BY b)
		FROM unnest(ARRAY[0, 1]) b}),
		'scale 150: full pages on both sides of the segment boundary');
	is(amcheck_clean('by_pgbenchx'), '0', 'scale 150: amcheck clean');
}

# ---------------------------------------------------------------------
# Failures during the load leave the old tables as they were.
# ---------------------------------------------------------------------
my $failure_scale = 60;

# Start pgbench_init in its own psql, and hold its two workers (SIGSTOP)
# as soon as they run, so that the call is surely still on when the test
# acts on it, however loaded the machine.  A loop in the server (one query,
# pg_stat_activity read every 10 ms) sees the workers; should the call
# still end before they are held (its workers seen too late), that try
# proves nothing: $on_missed runs (the caller's old tables are made again)
# and the call is started again, at most 5 times.  Returns the IPC::Run
# handle, the leader's pid, the held workers' pids (none when every try
# missed), and a ref to psql's stderr.  The caller sends SIGCONT.
my $on_missed = sub { };

sub start_parallel_init
{
	my ($n, $more) = @_;
	$n //= $node;
	$more //= '';
	for my $try (1 .. 5)
	{
		my ($stdout, $stderr) = ('', '');
		my $h = IPC::Run::start(
			[ 'psql', '-X', '-v', 'ON_ERROR_STOP=1', '-d', $n->connstr('by_pgbenchx'),
			  '-c', "SELECT pgbench_init($failure_scale, jobs => 2$more)" ],
			'>', \$stdout, '2>', \$stderr);
		my $seen = $n->safe_psql('by_pgbenchx', q{
			DO $w$
			BEGIN
				FOR i IN 1 .. 6000 LOOP
					PERFORM pg_stat_clear_snapshot();
					EXIT WHEN (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pgbenchx init worker') = 2;
					PERFORM pg_sleep(0.01);
				END LOOP;
			END $w$;
			SELECT (SELECT string_agg(pid::text, ',') FROM pg_stat_activity
			         WHERE query LIKE 'SELECT pgbench_init(%' AND state = 'active' AND pid <> pg_backend_pid())
			       || '|' || (SELECT string_agg(pid::text, ',' ORDER BY pid) FROM pg_stat_activity
			                  WHERE backend_type = 'pgbenchx init worker')});
		my ($leader, $workers) = split /\|/, $seen // '';
		my @workers = split /,/, ($workers // '');
		if (@workers == 2 && ($leader // '') =~ /^\d+$/)
		{
			kill 'STOP', @workers;
			# held while still there (the leader waits for them), and the
			# call still on (its psql has not exited).  No new connection
			# while they are held: one could wait on a lock a held worker
			# holds (a WAL insertion lock, for a page pruned at start-up).
			$h->pump_nb;
			return ($h, $leader, \@workers, \$stderr)
			  if kill(0, @workers) == 2 && $h->pumpable;
			kill 'CONT', @workers;
		}
		$h->finish;
		note("pgbench_init's workers were not held in time (try $try): again");
		$on_missed->();
	}
	my ($stdout, $stderr) = ('', '');
	return (IPC::Run::start([ 'true' ], '>', \$stdout, '2>', \$stderr), '', [], \$stderr);
}

# Progress NOTICEs whatever the machine's speed: the workers are held
# (SIGSTOP) for 6 s, longer than the 5 s between NOTICEs; the caller sums
# what they have written.
{
	my ($h, $leader, $workers, $stderr) = start_parallel_init();
	is(scalar @$workers, 2, 'progress: two workers ran, held');
	usleep(6_000_000);
	kill 'CONT', @$workers;
	$h->finish;
	my $total = 100000 * $failure_scale;
	my @progress = $$stderr =~ /NOTICE:  (\d+) of $total tuples \(\d+%\) of pgbench_accounts done/g;
	note("progress NOTICEs: @progress");
	cmp_ok(scalar(@progress), '>=', 2, 'progress: NOTICEs while the workers were held, and at the end');
	ok($progress[0] < $total, 'progress: the first NOTICE counts the rows the workers had written');
	is($progress[-1], $total, 'progress: the last NOTICE counts every row');
	is($node->safe_psql('by_pgbenchx', 'SELECT count(*) FROM pgbench_accounts'), $total,
		'progress: the call completed');
}

my $old_sql = q{
	SELECT (SELECT string_agg(relname || ':' || relfilenode, ',' ORDER BY relname)
	        FROM pg_class WHERE relname LIKE 'pgbench%'),
	       (SELECT count(*) FROM pgbench_accounts),
	       (SELECT string_agg(bid || '=' || bbalance, ',' ORDER BY bid) FROM pgbench_branches)};

# the old tables a cancelled call must leave as they were
sub old_tables
{
	init('by_pgbenchx', 'scale => 2, jobs => 1');
	$node->safe_psql('by_pgbenchx', 'UPDATE pgbench_branches SET bbalance = 42 WHERE bid = 2');
	return $node->safe_psql('by_pgbenchx', $old_sql);
}
my $old = old_tables();
like($old, qr/\|200000\|1=0,2=42$/, 'old tables in place');
$on_missed = sub { $old = old_tables(); };

# a cancel at several moments of the parallel load: the workers, held as
# soon as they run, go on for the delay and are held again, so that the
# call cannot end before the cancel reaches it; they go on after it.
# Should the call end within the delay (a loaded machine), that try proves
# nothing: the old tables are made again and it is tried again (at most 5
# times), until the cancel met a call still running.
foreach my $delay_ms (0, 200, 600)
{
	my ($h, $leader, $workers, $stderr, $running);
	for my $try (1 .. 5)
	{
		($h, $leader, $workers, $stderr) = start_parallel_init();
		last unless @$workers;
		if ($delay_ms)
		{
			kill 'CONT', @$workers;
			usleep($delay_ms * 1000);
			kill 'STOP', @$workers;
		}
		$h->pump_nb;
		$running = kill(0, @$workers) == 2 && $h->pumpable;
		last if $running;
		kill 'CONT', @$workers;
		$h->finish;
		note("cancel after $delay_ms ms, try $try: the call ended within the delay; again");
		$old = old_tables();
	}
	ok($running, "cancel after $delay_ms ms: two workers ran, and the call was still running");
	# SIGINT, as pg_cancel_backend sends it: no connection while they are held
	is(kill('INT', $leader || ()), 1, "cancel after $delay_ms ms: the call is cancelled while its workers are held");
	kill 'CONT', @$workers;
	$h->finish;
	like($$stderr, qr/canceling statement due to user request/, "cancel after $delay_ms ms: the call was cancelled");
	is($node->safe_psql('by_pgbenchx', $old_sql), $old, "cancel after $delay_ms ms: old tables as they were");
	ok(nothing_left($node), "cancel after $delay_ms ms: the workers are gone");
}

# a worker terminated mid-load fails the call cleanly.  Both workers are
# held (SIGSTOP) as soon as they are seen, one is terminated while held, and
# both go on: the terminated one dies at its next check for interrupts,
# before it has written its share (a worker's share of scale 60 takes less
# than a second on a quiet machine: terminated 200 ms later, it had finished)
{
	my ($h, $leader, $workers, $stderr) = start_parallel_init();
	is(scalar @$workers, 2, 'terminated worker: two workers ran, held');
	# SIGTERM, as pg_terminate_backend sends it: no connection while they are held
	is(kill('TERM', $workers->[1] // ()), 1, 'terminated worker: a loading worker was terminated');
	kill 'CONT', @$workers;
	$h->finish;
	like($$stderr, qr/pgbench_init worker [12] of 2 stopped before finishing/,
		'terminated worker: the call fails and says which worker stopped');
	is($node->safe_psql('by_pgbenchx', $old_sql), $old, 'terminated worker: old tables as they were');
	ok(nothing_left($node), 'terminated worker: the other worker is gone too');
}

# the leader terminated: its workers stop before its abort unlinks the files
{
	my ($h, $leader, $workers, $stderr) = start_parallel_init();
	is(scalar @$workers, 2, 'terminated leader: two workers ran, held');
	kill 'TERM', $leader || ();
	kill 'CONT', @$workers;
	$h->finish;
	like($$stderr, qr/terminating connection due to administrator command/, 'terminated leader: the call ends');
	ok(nothing_left($node), 'terminated leader: its workers are gone');
	is($node->safe_psql('by_pgbenchx', $old_sql), $old, 'terminated leader: old tables as they were');
	my $log = slurp_file($node->logfile);
	unlike($log, qr/PANIC|could not fsync/, 'terminated leader: no fsync failure');
}

# The relation files of the database directory that no relation of the
# catalog owns (pg_relation_filepath of every relation against the listing).
sub orphan_files
{
	my ($n) = @_;
	my $dboid = $n->safe_psql('by_pgbenchx',
		'SELECT oid FROM pg_database WHERE datname = current_database()');
	my %owned = map { m{^base/$dboid/(\d+)$} ? ($1 => 1) : () } split /\n/,
	  $n->safe_psql('by_pgbenchx',
		'SELECT pg_relation_filepath(oid) FROM pg_class WHERE pg_relation_filepath(oid) IS NOT NULL');
	return sort grep { my ($f) = /^(\d+)(?:\.\d+|_[a-z]+)?$/; defined $f && !$owned{$f} }
	  slurp_dir($n->data_dir . "/base/$dboid");
}

# crashed_xids(node, db, n): the ids of n transactions that an immediate
# stop ended (each had its id and was open), the node started again
sub crashed_xids
{
	my ($n, $db, $count) = @_;
	my @sessions = map { $n->background_psql($db) } 1 .. $count;
	my @xids = map { $_->query_safe('BEGIN; SELECT txid_current()') } @sessions;
	# an id no WAL record carries is handed out again after the crash
	# recovery: a checkpoint's next id is past them
	$n->safe_psql($db, 'CHECKPOINT');
	$n->stop('immediate');
	$_->{run}->kill_kill foreach @sessions;
	$n->start;
	return @xids;
}

# pgbench_init's crash records in the data directory
sub init_records
{
	my ($n) = @_;
	my $dir = $n->data_dir . '/pgbenchx';
	return -d $dir ? grep { /^init-/ } slurp_dir($dir) : ();
}

sub removal_logs
{
	my ($n) = @_;
	my @lines = slurp_file($n->logfile) =~ /LOG:  pgbenchx removed the files of relfilenode \d+ /g;
	return scalar @lines;
}

is(join(',', init_records($node)), '', 'the failures left no crash record');

# an immediate stop during the load, then a restart: the old tables, and of
# the database's files, those of before.  The new ones are orphans of a
# transaction that never ended (PostgreSQL does not remove those): its crash
# record stays, and, without the preload, the next pgbench_init removes them.
my $dbdir = $node->data_dir . '/base/' .
  $node->safe_psql('by_pgbenchx', "SELECT oid FROM pg_database WHERE datname = 'by_pgbenchx'");
my $files_sql = q{
	SELECT string_agg(pg_relation_filepath(oid), ',' ORDER BY pg_relation_filepath(oid)) FROM pg_class
	WHERE relname LIKE 'pgbench%' AND relkind IN ('r', 'i')};
{
	$node->safe_psql('by_pgbenchx', 'CHECKPOINT');
	is(join(',', orphan_files($node)), '', 'before the immediate stop: no orphan file');
	my $old_paths = $node->safe_psql('by_pgbenchx', $files_sql);
	my %before = map { $_ => 1 } slurp_dir($dbdir);
	# a call that ended before its workers were held made new tables: the
	# old ones are made again, and these figures taken again
	my $saved = $on_missed;
	$on_missed = sub {
		$saved->();
		$node->safe_psql('by_pgbenchx', 'CHECKPOINT');
		$old_paths = $node->safe_psql('by_pgbenchx', $files_sql);
		%before = map { $_ => 1 } slurp_dir($dbdir);
	};
	# the workers are held (SIGSTOP) once seen, so that the call is still on
	# when the server stops, however fast the machine (a 300 ms wait let a
	# quick init commit first); the immediate stop's SIGKILL ends them
	my ($h, $leader, $workers, $stderr) = start_parallel_init();
	is(scalar @$workers, 2, 'immediate stop: two workers ran, held');
	$on_missed = $saved;
	$node->stop('immediate');
	$h->finish;
	$node->start;
	is($node->safe_psql('by_pgbenchx', $old_sql), $old, 'immediate stop: old tables as they were');
	is($node->safe_psql('by_pgbenchx', $files_sql), $old_paths, 'immediate stop: the same files');
	my @missing = grep { !-e "$dbdir/$_" } sort keys %before;
	is("@missing", '', 'immediate stop: no file of before is gone');
	my @orphans = orphan_files($node);
	my %nodes = map { /^(\d+)/; $1 => 1 } @orphans;
	note('files of the interrupted call left in the database directory: ' . scalar(@orphans));
	cmp_ok(scalar(@orphans), '>', 0, 'immediate stop, no preload: the files are there after the restart');
	is(scalar(init_records($node)), 1, 'immediate stop: the crash record stayed');
	my $logs = removal_logs($node);
	# the next pgbench_init removes them, one LOG line per relation
	like(init('by_pgbenchx', 'scale => 2, jobs => 2'), qr/\), jobs 2\.$/, 'pgbench_init works after the failures');
	is(removal_logs($node) - $logs, scalar(keys %nodes), 'the next pgbench_init: one LOG line per relation removed');
	is(join(',', init_records($node)), '', 'the next pgbench_init: the crash record removed');
	# the first segments of the tables it replaced go at the next checkpoint
	$node->safe_psql('by_pgbenchx', 'CHECKPOINT');
	is(join(',', orphan_files($node)), '', 'the next pgbench_init: no orphan file');
}

# a committed call leaves no record and its files; a rolled-back one no record
{
	my $paths = $node->safe_psql('by_pgbenchx', $files_sql);
	is(join(',', init_records($node)), '', 'a committed call leaves no crash record');
	ok(!grep({ !-f $node->data_dir . "/$_" } split /,/, $paths), 'a committed call: its files are there');
	my $before = $node->safe_psql('by_pgbenchx', $old_sql);
	$node->safe_psql('by_pgbenchx',
		'BEGIN; SET client_min_messages = warning; SELECT pgbench_init(1, jobs => 2); ROLLBACK');
	is(join(',', init_records($node)), '', 'a rolled-back call leaves no crash record');
	is($node->safe_psql('by_pgbenchx', $old_sql), $before, 'a rolled-back call: the tables as they were');
	$node->safe_psql('by_pgbenchx', 'CHECKPOINT');
	is(join(',', orphan_files($node)), '', 'a rolled-back call: no orphan file');
	is($node->safe_psql('by_pgbenchx', $files_sql), $paths, 'a rolled-back call: the same files');
}

# Records written by hand, as an attacker able to write in the data
# directory would: only files that no relation uses, of the database, and
# no symbolic link, are removed.
{
	my $dboid = $node->safe_psql('by_pgbenchx', "SELECT oid FROM pg_database WHERE datname = 'by_pgbenchx'");
	my $aborted = sub {
		my ($x) = split /\n/, $node->safe_psql('by_pgbenchx', 'BEGIN; SELECT txid_current(); ROLLBACK');
		return $x;
	};
	my $committed = (split /\n/, $node->safe_psql('by_pgbenchx',
		'BEGIN; CREATE TABLE keep AS SELECT 1 AS x; SELECT txid_current(); COMMIT'))[-1];
	my $keep = $node->safe_psql('by_pgbenchx', "SELECT pg_relation_filepath('keep')");
	my ($keepnode) = $keep =~ /(\d+)$/;
	my $outside = $node->basedir . '/outside';
	append_to_file($outside, 'not a relation');
	# unused relfilenodes: an orphan, a symbolic link, one left by a refused
	# record (pg_global), one of a committed transaction
	my ($orphan, $link, $global, $ofcommit) = (4000000001, 4000000002, 4000000003, 4000000004);
	append_to_file("$dbdir/$_", '') foreach ($orphan, "${orphan}_fsm", "$orphan.1", $global, $ofcommit);
	symlink($outside, "$dbdir/$link") or die "symlink: $!";
	# the files of a record are only removed when a crash ended its
	# transaction (a rolled-back one's PostgreSQL removed itself): three
	# transactions an immediate stop ends
	my @crashed = crashed_xids($node, 'by_pgbenchx', 3);
	my $write = sub {
		my ($xid, @rels) = @_;
		append_to_file($node->data_dir . "/pgbenchx/init-$dboid-$xid",
			"pgbenchx init record 2\ndatabase $dboid\nxid $xid\n" . join('', map { "rel $_ $xid\n" } @rels));
	};
	$write->($crashed[0], "0 $keepnode", "0 $orphan", "0 $link");
	$write->($crashed[1], "1664 $global", "0 $orphan");
	$write->($crashed[2], "0 1259");
	$write->($committed, "0 $ofcommit");
	# a record of another database is not this database's to read; that of
	# a dropped database goes, alone
	my $other = "init-1-" . $aborted->();
	append_to_file($node->data_dir . "/pgbenchx/$other", "pgbenchx init record 1\n");
	append_to_file($node->data_dir . "/pgbenchx/init-4000000000-" . $aborted->(), "pgbenchx init record 1\n");
	my $logs = removal_logs($node);
	like(init('by_pgbenchx', 'scale => 1, jobs => 1'), qr/jobs 1\.$/, 'records by hand: pgbench_init');
	is(removal_logs($node) - $logs, 1, 'records by hand: one relation removed');
	ok(!-e "$dbdir/$orphan" && !-e "$dbdir/${orphan}_fsm" && !-e "$dbdir/$orphan.1",
		'records by hand: the unused relfilenode removed, every fork and segment');
	ok(-f $node->data_dir . "/$keep", 'records by hand: a relation in use is kept');
	is($node->safe_psql('by_pgbenchx', 'SELECT x FROM keep'), '1', 'records by hand: its rows are intact');
	ok(-l "$dbdir/$link" && -f $outside, 'records by hand: a symbolic link and its target are kept');
	ok(-e "$dbdir/$global", 'records by hand: a record naming pg_global is refused');
	ok(-e "$dbdir/$ofcommit", 'records by hand: nothing is removed for a committed transaction');
	ok(-f $node->data_dir . '/' . $node->safe_psql('by_pgbenchx', "SELECT pg_relation_filepath('pg_class')"),
		'records by hand: a catalog relfilenode is refused');
	is(join(',', init_records($node)), $other,
		'records by hand: the records of this database and of a dropped one removed, that of another one kept');
	like(slurp_file($node->logfile), qr/record ".*" without removing any file\n.*DETAIL:  The record is refused: it names a tablespace/,
		'records by hand: the refusal is logged');
	unlink("$dbdir/$link", "$dbdir/$global", "$dbdir/$ofcommit", $node->data_dir . "/pgbenchx/$other");
	$node->safe_psql('by_pgbenchx', 'DROP TABLE keep');
}

# With the preload, the start-up reaper removes them after the restart
# (here of hash partitions: each partition's files are in the record).
# The library to preload: with the extension installed under a staging
# directory (PGX_EXTENSION_DESTDIR), the copy there, not the system's.
my $preload = 'pgbenchx';
if ($ENV{PGX_EXTENSION_DESTDIR})
{
	my $pkglibdir = `pg_config --pkglibdir`;
	chomp $pkglibdir;
	$preload = "$ENV{PGX_EXTENSION_DESTDIR}$pkglibdir/pgbenchx";
}
$node->append_conf('postgresql.conf', "shared_preload_libraries = '$preload'\n");
$node->restart;
{
	my $logs = removal_logs($node);
	my $before = $node->safe_psql('by_pgbenchx', $old_sql);
	my $saved = $on_missed;
	$on_missed = sub { $saved->(); $before = $node->safe_psql('by_pgbenchx', $old_sql); };
	my ($h, $leader, $workers, $stderr) = start_parallel_init($node, ', partitions => 3');
	$on_missed = $saved;
	is(scalar @$workers, 2, 'preload, immediate stop: two workers ran, held');
	$node->stop('immediate');
	$h->finish;
	$node->start;
	is($node->safe_psql('by_pgbenchx', $old_sql), $before, 'preload, immediate stop: the tables of before');
	my $waited = 0;
	while (init_records($node) && $waited++ < 600)
	{
		usleep(100_000);
	}
	is(join(',', init_records($node)), '', 'preload, immediate stop: the start-up reaper removed the record');
	# at least the three partitions and the three small tables
	cmp_ok(removal_logs($node) - $logs, '>=', 6, 'preload, immediate stop: the reaper logged the relations it removed');
	is(join(',', orphan_files($node)), '', 'preload, immediate stop: no orphan file after the restart');
}
$node->stop;

# ---------------------------------------------------------------------
# Recovery of a parallel result: after a crash, and from WAL alone.
# ---------------------------------------------------------------------
my $check_sql = q{
	SELECT bt_index_parent_check('pgbench_accounts_pkey', true, true);
	SELECT count(*), sum(aid) FROM pgbench_accounts;
	SELECT string_agg(aid || ':' || bid, ',' ORDER BY aid)
	FROM pgbench_accounts WHERE aid IN (1, 100000, 100001, 250000, 300000)};
my $expected = "\n300000|45000150000\n1:1,100000:1,100001:2,250000:3,300000:3";
my $rec = pgbenchx_node('par_recovery', init => [ has_archiving => 1, allows_streaming => 1 ]);
$rec->safe_psql('postgres', 'CREATE EXTENSION amcheck');
$rec->backup('before_init');
like($rec->safe_psql('postgres',
	'SET client_min_messages = warning; SELECT pgbench_init(3, fillfactor => 90, jobs => 2)'),
	qr/jobs 2\.$/, 'recovery: a parallel init');
is($rec->safe_psql('postgres', $check_sql), $expected, 'recovery: valid after the call');
$rec->stop('immediate');
$rec->start;
is($rec->safe_psql('postgres', $check_sql), $expected, 'recovery: valid after crash recovery');
my $last = $rec->safe_psql('postgres', 'SELECT pg_walfile_name(pg_current_wal_lsn())');
$rec->safe_psql('postgres', 'SELECT pg_switch_wal()');
$rec->poll_query_until('postgres', "SELECT last_archived_wal >= '$last' FROM pg_stat_archiver")
  or die 'timed out waiting for the archive';
my $restored = PostgreSQL::Test::Cluster->new('par_restored');
$restored->init_from_backup($rec, 'before_init', has_restoring => 1, standby => 0);
$restored->start;
$restored->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'timed out waiting for the restore';
is($restored->safe_psql('postgres', $check_sql), $expected, 'recovery: valid when rebuilt from WAL alone');
$restored->stop;
$rec->stop;

# wal_level = minimal: the workers write no WAL for the tables, and the
# commit syncs their files
{
	my $minimal = pgbenchx_node('par_minimal',
		conf => "wal_level = minimal\nmax_wal_senders = 0\nwal_skip_threshold = '64kB'\n");
	$minimal->safe_psql('postgres', 'CREATE EXTENSION amcheck');
	my $lsn0 = $minimal->safe_psql('postgres', 'SELECT pg_current_wal_lsn()');
	like($minimal->safe_psql('postgres',
		'SET client_min_messages = warning; SELECT pgbench_init(10, jobs => 2)'),
		qr/jobs 2\.$/, 'minimal: a parallel init');
	my ($wal, $heap) = split /\|/, $minimal->safe_psql('postgres',
		"SELECT pg_current_wal_lsn() - '$lsn0', pg_relation_size('pgbench_accounts')");
	note("minimal: $wal bytes of WAL for a heap of $heap bytes");
	cmp_ok($wal, '<', $heap / 20, 'minimal: WAL far below the size of the table');
	$minimal->stop('immediate');
	$minimal->start;
	is($minimal->safe_psql('postgres', q{
		SELECT bt_index_parent_check('pgbench_accounts_pkey', true, true);
		SELECT count(*), sum(aid) FROM pgbench_accounts}),
		"\n1000000|500000500000", 'minimal: every row after crash recovery');
	$minimal->stop;
}

done_testing();
