# pgbench_init's crash record (initrecord.c) lists exactly the files that
# exist because of the call, and its cleanup removes nothing another
# transaction can own, as an attacker would probe it:
#
#  - a rollback to a savepoint takes the entries of the rolled-back call out
#    of the record at once (also those of a released savepoint inside it),
#    further work and a second call are noted, the commit leaves nothing;
#  - a rollback to a savepoint, its files gone at a checkpoint, then an
#    immediate stop; with pg_resetwal -o the OID counter is put back on one
#    of the rolled-back call's relfilenodes, and another session's
#    uncommitted TRUNCATE gets that number: the records 0.4 would have left
#    (the stale entry, in the old form too) and one whose entry's owner is
#    the crashed transaction itself are read by the next pgbench_init, and
#    the other session's table and file survive; the real orphans of the
#    crash are removed;
#  - PREPARE TRANSACTION of a transaction that ran pgbench_init (also one
#    rolled back to a savepoint) is refused with 0A000, and the same session
#    can prepare another transaction afterwards;
#  - a transaction in progress keeps its record and files while another
#    session's pgbench_init runs its cleanup;
#  - a record older than its database's pg_database row (a dropped
#    database's, its OID given again) removes nothing;
#  - with shared_preload_libraries: another application's prepared
#    transaction that gave a table a new relfilenode, a stale record naming
#    it, an immediate stop: the start-up reaper keeps that file (the table
#    reads its rows after COMMIT PREPARED) and removes the crash's orphans.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use IPC::Run;

my $node = pgbenchx_node('initrec', conf => "max_prepared_transactions = 5\n");
my $db = 'postgres';

sub dboid { return $_[0]->safe_psql($db, "SELECT oid FROM pg_database WHERE datname = '$db'"); }

# the records in the data directory, and the lines of one
sub records
{
	my ($n) = @_;
	my $dir = $n->data_dir . '/pgbenchx';
	return -d $dir ? sort grep { /^init-/ } slurp_dir($dir) : ();
}

sub record_rels
{
	my ($n, $name) = @_;
	my $text = slurp_file($n->data_dir . "/pgbenchx/$name");
	return [ $text =~ /^rel (\d+ \d+ \d+)$/mg ];
}

# files of the database directory that no relation of the catalog owns
sub orphan_files
{
	my ($n) = @_;
	my $oid = dboid($n);
	my %owned = map { m{^base/$oid/(\d+)$} ? ($1 => 1) : () } split /\n/,
	  $n->safe_psql($db, 'SELECT pg_relation_filepath(oid) FROM pg_class WHERE pg_relation_filepath(oid) IS NOT NULL');
	return sort grep { my ($f) = /^(\d+)(?:\.\d+|_[a-z]+)?$/; defined $f && !$owned{$f} }
	  slurp_dir($n->data_dir . "/base/$oid");
}

sub removal_logs
{
	my ($n, $offset) = @_;
	my @lines = slurp_file($n->logfile, $offset) =~ /LOG:  pgbenchx removed the files of relfilenode \d+ /g;
	return scalar @lines;
}

sub session
{
	my ($n, %opt) = @_;
	my $s = $n->background_psql($db, on_error_stop => 0);
	$s->query_safe('SET client_min_messages = warning');
	return $s;
}

sub file_of
{
	my ($n, $rel) = @_;
	return $n->data_dir . '/' . $n->safe_psql($db, "SELECT pg_relation_filepath('$rel')");
}

my $dbdir = $node->data_dir . '/base/' . dboid($node);

# ---------------------------------------------------------------------
# Savepoints: rollback, further work, a second call, commit.
# ---------------------------------------------------------------------
{
	my $s = session($node);
	$s->query_safe('BEGIN');
	my $top = $s->query_safe('SELECT txid_current()');
	$s->query_safe('SAVEPOINT a');
	$s->query_safe('SELECT pgbench_init(1)');
	my @recs = records($node);
	is("@recs", "init-" . dboid($node) . "-$top", 'savepoint: the record of the open transaction');
	my @first = @{ record_rels($node, $recs[0]) };
	cmp_ok(scalar(@first), '>=', 4, 'savepoint: the call\'s files are listed');
	my %owners = map { (split / /)[2] => 1 } @first;
	is(scalar(keys %owners), 1, 'savepoint: every entry has the same owner');
	ok(!$owners{$top}, 'savepoint: the owner is the subtransaction, not the top transaction');
	ok(!grep({ !-f "$dbdir/" . (split / /)[1] } @first), 'savepoint: every listed file exists');

	$s->query_safe('ROLLBACK TO SAVEPOINT a');
	is_deeply(record_rels($node, $recs[0]), [], 'rollback to savepoint: its entries are out of the record at once');
	ok(-f $node->data_dir . "/pgbenchx/$recs[0]", 'rollback to savepoint: the record stays while the transaction is open');

	# further work, then a second call under a released savepoint
	$s->query_safe('CREATE TABLE mine AS SELECT 1 AS x');
	$s->query_safe('SAVEPOINT b');
	$s->query_safe('SELECT pgbench_init(1)');
	$s->query_safe('RELEASE b');
	my @second = @{ record_rels($node, $recs[0]) };
	cmp_ok(scalar(@second), '>=', 4, 'a second call after the rollback is noted');
	ok(!grep({ !-f "$dbdir/" . (split / /)[1] } @second), 'a second call: every listed file exists');

	# a savepoint released into one that is rolled back: its entries go too
	$s->query_safe('SAVEPOINT c');
	$s->query_safe('SAVEPOINT d');
	$s->query_safe('SELECT pgbench_init(1)');
	$s->query_safe('RELEASE d');
	cmp_ok(scalar(@{ record_rels($node, $recs[0]) }), '>', scalar(@second), 'a call under a released savepoint is noted');
	$s->query_safe('ROLLBACK TO SAVEPOINT c');
	is_deeply(record_rels($node, $recs[0]), \@second,
		'a released savepoint inside a rolled-back one: its entries go, the others stay');

	$s->query_safe('COMMIT');
	$s->quit;
	is(join(',', records($node)), '', 'commit: no record');
	$node->safe_psql($db, 'CHECKPOINT');
	is($node->safe_psql($db, 'SELECT count(*) FROM pgbench_accounts') . ' ' .
	   $node->safe_psql($db, 'SELECT x FROM mine'), '100000 1', 'commit: the second call\'s tables and the further work');
	is(join(',', orphan_files($node)), '', 'commit: no orphan file');
}

# ---------------------------------------------------------------------
# PREPARE TRANSACTION is refused for a transaction that ran pgbench_init.
# ---------------------------------------------------------------------
{
	my $accounts = file_of($node, 'pgbench_accounts');
	my ($ret, $out, $err) = $node->psql($db,
		"BEGIN; SET client_min_messages = warning; SELECT pgbench_init(1); PREPARE TRANSACTION 'p1'",
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:  0A000: cannot PREPARE a transaction that has run pgbench_init/, 'prepare: refused with 0A000');
	like($err, qr/HINT:  Commit the transaction, or roll it back, instead\./, 'prepare: with a hint');
	is($node->safe_psql($db, 'SELECT count(*) FROM pg_prepared_xacts'), '0', 'prepare: nothing prepared');
	is(join(',', records($node)), '', 'prepare: the record is gone with the aborted transaction');
	is(file_of($node, 'pgbench_accounts'), $accounts, 'prepare: the tables of before are kept');

	my $s = session($node);
	$s->query_safe('BEGIN; SAVEPOINT s; SELECT pgbench_init(1); ROLLBACK TO SAVEPOINT s');
	my (undef, $failed) = $s->query("PREPARE TRANSACTION 'p2'");
	ok($failed, 'prepare after a rollback to savepoint: refused too');
	like($s->{stderr}, qr/cannot PREPARE a transaction that has run pgbench_init/, 'prepare after a rollback to savepoint: the message');
	# this BackgroundPsql keeps a failed query's stderr for the next ones
	$s->{stderr} = '';
	$s->query_safe("BEGIN; CREATE TABLE prepared_ok (i int); PREPARE TRANSACTION 'p3'");
	is($node->safe_psql($db, 'SELECT gid FROM pg_prepared_xacts'), 'p3',
		'prepare: the same session prepares a transaction without pgbench_init');
	$s->query_safe("ROLLBACK PREPARED 'p3'");
	$s->quit;
	is(join(',', records($node)), '', 'prepare: no record left');
}

# ---------------------------------------------------------------------
# A transaction in progress keeps its record and its files while another
# session's pgbench_init reads the records (concurrent DDL both ways).
# ---------------------------------------------------------------------
{
	$node->safe_psql($db, 'DROP TABLE pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history');
	my $s = session($node);
	$s->query_safe('BEGIN; SELECT pgbench_init(1)');
	my ($rec) = records($node);
	my @rels = @{ record_rels($node, $rec) };
	my ($stdout, $stderr) = ('', '');
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-At', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($db),
		  '-c', 'SET client_min_messages = warning', '-c', 'SELECT pgbench_init(1)' ],
		'>', \$stdout, '2>', \$stderr);
	# past its cleanup, it waits for the first call's new tables
	ok($node->poll_query_until($db,
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE query = 'SELECT pgbench_init(1)' AND wait_event_type = 'Lock'"),
		'in progress: the second call waits for the first one\'s tables');
	is_deeply(record_rels($node, $rec), \@rels, 'in progress: its record is untouched');
	ok(!grep({ !-f "$dbdir/" . (split / /)[1] } @rels), 'in progress: its files are there');
	$s->query_safe('ROLLBACK');
	$s->quit;
	$h->finish;
	like($stdout, qr/done in/, 'in progress: the second call ends once the first rolled back');
	is(join(',', records($node)), '', 'in progress: no record left');
	$node->safe_psql($db, 'CHECKPOINT');
	is(join(',', orphan_files($node)), '', 'in progress: no orphan file');
}

# crash_with(node, n, run, stopped): the ids of n transactions that an
# immediate stop ends (each open with its id), the node started again;
# run->() before the stop (returns the sessions it leaves open), stopped->(ids)
# while the node is down
sub crash_with
{
	my ($n, $count, $run, $stopped) = @_;
	my @sessions = map { session($n) } 1 .. $count;
	my @xids = map { $_->query_safe('BEGIN; SELECT txid_current()') } @sessions;
	my @more = $run ? $run->() : ();
	# an id no WAL record carries is handed out again after the crash
	# recovery: a checkpoint's next id is past them
	$n->safe_psql($db, 'CHECKPOINT');
	$n->stop('immediate');
	$_->{run}->kill_kill foreach @sessions;
	$_->{run}->kill_kill foreach grep { ref $_ && $_->{run} } @more;
	$stopped->(@xids) if $stopped;
	$n->start;
	return @xids;
}

# ---------------------------------------------------------------------
# Rollback to savepoint, then an immediate stop, then OID reuse.
# ---------------------------------------------------------------------
my ($stale_text, $stale_node, @orphans, $crashed_top);
{
	$node->safe_psql($db, 'CREATE TABLE victim (i int); INSERT INTO victim SELECT generate_series(1, 1000)');
	my $run = sub {
		my $s = session($node);
		$s->query_safe('BEGIN');
		$crashed_top = $s->query_safe('SELECT txid_current()');
		$s->query_safe('SAVEPOINT a; SELECT pgbench_init(1)');
		my ($rec) = records($node);
		# what 0.4 left in the record: the entries of the rolled-back call
		$stale_text = slurp_file($node->data_dir . "/pgbenchx/$rec");
		my @stale = @{ record_rels($node, $rec) };
		$stale_node = (split / /, $stale[0])[1];
		$s->query_safe('ROLLBACK TO SAVEPOINT a');
		$s->query_safe('SAVEPOINT b; SELECT pgbench_init(1)');
		@orphans = map { (split / /)[1] } @{ record_rels($node, $rec) };
		# the rolled-back call's files go for good at the next checkpoint
		$node->safe_psql($db, 'CHECKPOINT');
		ok(!-e "$dbdir/$stale_node", 'crash: the rolled-back call\'s file is gone before the stop');
		return ($s);
	};
	my @x = crash_with($node, 3, $run);
	my $oid = dboid($node);
	my $dir = $node->data_dir . '/pgbenchx';
	is(join(',', records($node)), "init-$oid-$crashed_top", 'crash: the record of the crashed transaction stays');
	ok(!grep({ $_ == $stale_node } @orphans), 'crash: the record does not list the rolled-back call\'s files');
	ok(!grep({ !-f "$dbdir/$_" } @orphans), 'crash: the orphans of the second call are there');
	# records as the old code would have left them, naming that number: the
	# stale entries (their owner the rolled-back subtransaction), one
	# whose entry is the crashed transaction's own, one of the old form
	(my $stale = $stale_text) =~ s/^xid \d+$/xid $x[0]/m;
	append_to_file("$dir/init-$oid-$x[0]", $stale);
	append_to_file("$dir/init-$oid-$x[1]",
		"pgbenchx init record 2\ndatabase $oid\nxid $x[1]\nrel 0 $stale_node $x[1]\n");
	append_to_file("$dir/init-$oid-$x[2]",
		"pgbenchx init record 1\ndatabase $oid\nxid $x[2]\nrel 0 $stale_node\n");

	# the OID counter back on that relfilenode
	$node->stop;
	command_ok([ 'pg_resetwal', '-o', $stale_node, $node->data_dir ], 'pg_resetwal -o onto the stale relfilenode');
	$node->start;

	# another session's uncommitted TRUNCATE gets that number
	my $other = session($node);
	$other->query_safe('BEGIN; TRUNCATE victim; INSERT INTO victim SELECT generate_series(1, 500)');
	is($other->query_safe("SELECT pg_relation_filenode('victim')"), $stale_node,
		'OID reuse: the other session\'s TRUNCATE got the stale relfilenode');
	my $offset = -s $node->logfile;
	like($node->safe_psql($db, 'SET client_min_messages = warning; SELECT pgbench_init(1)'), qr/done in/,
		'OID reuse: the next pgbench_init reads the records');
	$other->query_safe('COMMIT');
	$other->quit;
	$node->safe_psql($db, 'CHECKPOINT');
	is($node->safe_psql($db, 'SELECT count(*), sum(i) FROM victim'), '500|125250', 'OID reuse: the other session\'s rows are intact');
	ok(-f file_of($node, 'victim') && file_of($node, 'victim') eq "$dbdir/$stale_node",
		'OID reuse: its file exists');
	my $log = slurp_file($node->logfile, $offset);
	unlike($log, qr/removed the files of relfilenode $stale_node /, 'OID reuse: that file was never removed');
	like($log, qr/kept the files of relfilenode $stale_node in tablespace \d+ of database "postgres", listed by pgbench_init's record of transaction $x[1]\n.*DETAIL:  Relation \d+ uses that relfilenode/,
		'OID reuse: an entry of the crashed transaction itself: kept, as in use');
	like($log, qr/record "pgbenchx\/init-$oid-$x[2]" without removing any file\n.*DETAIL:  The record is of pgbenchx 0.4 or earlier/,
		'OID reuse: a record of the old form: nothing removed, logged');
	my %distinct = map { $_ => 1 } @orphans;
	is(removal_logs($node, $offset), scalar(keys %distinct), 'crash: the real orphans are removed, one LOG line each');
	is(join(',', records($node)), '', 'crash: every record read is gone');
	is(join(',', orphan_files($node)), '', 'crash: no orphan file');
}

# A record of a transaction older than its database's pg_database row is
# of a dropped database whose OID went to a new one: nothing is removed.
{
	my ($x) = crash_with($node, 1);
	$node->safe_psql($db, 'CREATE DATABASE later');
	$node->safe_psql('later', 'CREATE EXTENSION pgbenchx');
	my $oid = $node->safe_psql($db, "SELECT oid FROM pg_database WHERE datname = 'later'");
	my $file = $node->data_dir . "/base/$oid/4000000005";
	append_to_file($file, '');
	append_to_file($node->data_dir . "/pgbenchx/init-$oid-$x",
		"pgbenchx init record 2\ndatabase $oid\nxid $x\nrel 0 4000000005 $x\n");
	my $offset = -s $node->logfile;
	like($node->safe_psql('later', 'SET client_min_messages = warning; SELECT pgbench_init(1)'), qr/done in/,
		'older than its database: pgbench_init');
	ok(-e $file, 'older than its database: the file is kept');
	like(slurp_file($node->logfile, $offset), qr/DETAIL:  Its transaction is older than the database's pg_database row/,
		'older than its database: logged');
	is(join(',', records($node)), '', 'older than its database: the record is gone');
	unlink($file);
}
$node->stop;

# ---------------------------------------------------------------------
# The start-up reaper, and another application's prepared transaction.
# ---------------------------------------------------------------------
my $preload = 'pgbenchx';
if ($ENV{PGX_EXTENSION_DESTDIR})
{
	my $pkglibdir = `pg_config --pkglibdir`;
	chomp $pkglibdir;
	$preload = "$ENV{PGX_EXTENSION_DESTDIR}$pkglibdir/pgbenchx";
}
my $pre = pgbenchx_node('initrec_preload',
	conf => "shared_preload_libraries = '$preload'\nmax_prepared_transactions = 5\nmax_worker_processes = 16\n");
{
	my $pdir = $pre->data_dir . '/base/' . dboid($pre);
	$pre->safe_psql($db, 'CREATE TABLE victim2 (i int); INSERT INTO victim2 SELECT generate_series(1, 1000)');
	my $newnode;
	my $run = sub {
		# another application's prepared TRUNCATE: a new relfilenode
		my $app = session($pre);
		$app->query_safe('BEGIN; TRUNCATE victim2; INSERT INTO victim2 SELECT generate_series(1, 700)');
		$newnode = $app->query_safe("SELECT pg_relation_filenode('victim2')");
		$app->query_safe("PREPARE TRANSACTION 'other'");
		$app->quit;
		# and a pgbench_init a crash ends
		my $s = session($pre);
		$s->query_safe('BEGIN; SAVEPOINT a; SELECT pgbench_init(1); ROLLBACK TO SAVEPOINT a; SELECT pgbench_init(1)');
		return ($s);
	};
	my $offset = -s $pre->logfile;
	my $oid = dboid($pre);
	my $dir = $pre->data_dir . '/pgbenchx';
	crash_with($pre, 2, $run, sub {
		my @x = @_;
		append_to_file("$dir/init-$oid-$x[0]",
			"pgbenchx init record 2\ndatabase $oid\nxid $x[0]\nrel 0 $newnode $x[0]\n");
		append_to_file("$dir/init-$oid-$x[1]",
			"pgbenchx init record 1\ndatabase $oid\nxid $x[1]\nrel 0 $newnode\n");
	});
	ok($pre->poll_query_until($db, "SELECT count(*) = 0 FROM pg_ls_dir('pgbenchx') f WHERE f LIKE 'init-%'"),
		'preload: the start-up reaper read every record');
	is($pre->safe_psql($db, 'SELECT gid FROM pg_prepared_xacts'), 'other', 'preload: the prepared transaction survived the restart');
	ok(-f "$pdir/$newnode", 'preload: its new file is kept');
	$pre->safe_psql($db, "COMMIT PREPARED 'other'");
	is($pre->safe_psql($db, 'SELECT count(*), sum(i) FROM victim2'), '700|245350', 'preload: its rows after COMMIT PREPARED');
	is(file_of($pre, 'victim2'), "$pdir/$newnode", 'preload: in the file it was given');
	my $log = slurp_file($pre->logfile, $offset);
	unlike($log, qr/removed the files of relfilenode $newnode /, 'preload: that file was never removed');
	like($log, qr/kept the files of relfilenode $newnode /, 'preload: keeping it is logged');
	cmp_ok(removal_logs($pre, $offset), '>=', 4, 'preload: the reaper removed the crash\'s orphans');
	$pre->safe_psql($db, 'CHECKPOINT');
	is(join(',', orphan_files($pre)), '', 'preload: no orphan file');
}
$pre->stop;

done_testing();
