# What the machine and the server did each second of a run (issue 13,
# pgbenchx.system_samples), against readings taken independently of
# pgbenchx during the same run: WAL bytes against pg_current_wal_lsn()
# and pg_stat_wal before and after, blocks against pg_stat_database, WAL
# writes and syncs against pg_stat_wal or pg_stat_io and the buffers
# written by processes other than the checkpointer and the bgwriter against
# pg_stat_bgwriter or pg_stat_io (wherever the major keeps them, read as
# src/common/pg_compat.h reads them), the
# data device's write bytes against /proc/diskstats read here, CPU shares
# that are shares, driver CPU bounded by the time and the jobs, a
# CHECKPOINT issued mid-run counted as begun and done, one row per samples
# row; record_system => false writes none.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Temp ();
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

# fsync on (the framework turns it off): commits then reach the device
# within the run, for the disk check, and the WAL is synced; 1 MB of shared
# buffers (the accounts are 13 MB): the clients' backends write buffers
my $node = pgbenchx_node('sysrec', scale => 1,
	conf => "max_worker_processes = 16\nfsync = on\nshared_buffers = 1MB\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# the device holding the data directory, as Linux encodes st_dev
my $dev = (stat($node->data_dir))[0];
my $major = (($dev >> 8) & 0xfff) | (($dev >> 32) & ~0xfff);
my $minor = ($dev & 0xff) | (($dev >> 12) & ~0xff);

# the device's bytes written, from /proc/diskstats; undef if it is not there
sub disk_written
{
	open(my $fh, '<', '/proc/diskstats') or return undef;
	while (my $line = <$fh>)
	{
		my @f = split ' ', $line;
		return $f[9] * 512 if $f[0] == $major && $f[1] == $minor;
	}
	return undef;
}

# the server's figures, read by a client of its own: WAL writes and syncs
# from pg_stat_wal until 17, from pg_stat_io from 18 (object wal, context
# normal, writes but the walreceiver's); the buffers written by the other
# processes from pg_stat_bgwriter until 16, from pg_stat_io from 17 (writes
# and extends of object relation by all but the checkpointer and the bgwriter)
my $server_version_num = q1('SHOW server_version_num');
my $wal_ws_sql = $server_version_num >= 180000
  ? q{(SELECT sum(writes) FILTER (WHERE backend_type <> 'walreceiver') || '|' || sum(fsyncs)
	   FROM pg_stat_io WHERE object = 'wal' AND context = 'normal')}
  : q{(SELECT wal_write || '|' || wal_sync FROM pg_stat_wal)};
my $backend_sql = $server_version_num >= 170000
  ? q{(SELECT sum(coalesce(writes, 0) + coalesce(extends, 0)) FROM pg_stat_io
	   WHERE object = 'relation' AND backend_type NOT IN ('checkpointer', 'background writer'))}
  : q{(SELECT buffers_backend FROM pg_stat_bgwriter)};
my $server_sql = qq{
	SELECT pg_current_wal_lsn(), w.wal_bytes, d.blks_hit + d.blks_read, $wal_ws_sql, $backend_sql
	FROM pg_stat_wal w, pg_stat_database d WHERE d.datname = current_database()};

my $disk0 = disk_written();
my ($lsn0, $walb0, $blks0, $walw0, $wals0, $bkend0) = split /\|/, q1($server_sql);

my $id = q1("SELECT run_bench(2, 3, 'tpcb-like', jobs => 2, vacuum => false, checkpoint => false)");
# a CHECKPOINT once the first second is sampled, waited for in one session
# (a poll with a connection each time would add its catalogue reads to the
# database's blocks)
q1(qq{DO \$\$ BEGIN
	WHILE NOT EXISTS (SELECT FROM pgbenchx.samples WHERE run_id = $id) LOOP
		PERFORM pg_sleep(0.05);
	END LOOP; END \$\$;
	CHECKPOINT;
	SET client_min_messages = warning; CALL pgbenchx.wait($id)});
# the clients' backends have exited, having flushed their statistics
my ($lsn1, $walb1, $blks1, $walw1, $wals1, $bkend1) = split /\|/, q1($server_sql);
my $disk1 = disk_written();
my $lsn_diff = q1("SELECT '$lsn1'::pg_lsn - '$lsn0'::pg_lsn");

is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'the run completed');
is(q1("SELECT record_system FROM pgbenchx.runs WHERE run_id = $id"), 't', 'record_system is on by default');

# one row per samples row: the same seconds, the same covered_s
is(q1(qq{
	SELECT count(*) FROM pgbenchx.samples s FULL JOIN pgbenchx.system_samples y
	  ON y.run_id = s.run_id AND y.second = s.second
	WHERE (s.run_id = $id OR y.run_id = $id)
	  AND (s.second IS NULL OR y.second IS NULL OR s.covered_s IS DISTINCT FROM y.covered_s)}),
	0, 'one system_samples row per samples row, with its covered_s');
cmp_ok(q1("SELECT count(*) FROM pgbenchx.system_samples WHERE run_id = $id"), '>=', 3,
	'a row for each second of the run');

# every server counter is read on every major (src/common/pg_compat.h: from
# pg_stat_io where 17 and 18 moved them)
my ($sum_wal, $sum_records, $null_wal) = split /\|/, q1(qq{
	SELECT sum(wal_bytes), sum(wal_records), count(*) FILTER (WHERE wal_bytes IS NULL OR wal_fpi IS NULL
	  OR wal_write IS NULL OR wal_sync IS NULL OR blks_hit IS NULL OR buffers_checkpoint IS NULL
	  OR buffers_clean IS NULL OR buffers_backend IS NULL)
	FROM pgbenchx.system_samples WHERE run_id = $id});
is($null_wal, 0, "the server counters are never NULL (PostgreSQL $server_version_num)");
cmp_ok($sum_records, '>', 0, 'WAL records were counted');
# WAL: the run's share of the LSN difference, and never more than it
cmp_ok($sum_wal, '<=', $lsn_diff + 8192, "sum(wal_bytes) $sum_wal <= the LSN difference $lsn_diff");
cmp_ok($sum_wal, '>=', 0.5 * $lsn_diff, "sum(wal_bytes) $sum_wal is most of the LSN difference $lsn_diff");

# samples add up to the run-level figures read independently
my $walb_diff = $walb1 - $walb0;
my $blks_diff = $blks1 - $blks0;
my $sum_blks = q1("SELECT sum(blks_hit + blks_read) FROM pgbenchx.system_samples WHERE run_id = $id");
cmp_ok($sum_wal, '<=', $walb_diff, "sum(wal_bytes) $sum_wal <= pg_stat_wal's difference $walb_diff");
cmp_ok($sum_wal, '>=', 0.8 * $walb_diff, "sum(wal_bytes) $sum_wal is most of pg_stat_wal's difference $walb_diff");
cmp_ok($sum_blks, '<=', $blks_diff, "sum(blks_hit + blks_read) $sum_blks <= pg_stat_database's difference $blks_diff");
# and at least the run's own: a tpcb-like transaction touches 5 blocks or
# more (the accounts index and heap twice, tellers, branches, history).  Not
# "most of the difference": the sessions around the run (each psql of this
# test, the coordinator's, its clients' logins) read a few thousand catalogue
# blocks, as many as a 3 s run's clients on a loaded machine (17: 4958 of
# 12249 in CI)
my $tx = q1("SELECT transactions FROM pgbenchx.runs WHERE run_id = $id");
cmp_ok($tx, '>', 0, 'the run made transactions');
cmp_ok($sum_blks, '>=', 5 * $tx, "sum(blks_hit + blks_read) $sum_blks counts at least 5 blocks for each of the run's $tx transactions");

# WAL writes and syncs, and the buffers the clients' backends wrote (1 MB of
# shared buffers): counted, within what the server's own view counted over
# the run, and for the WAL most of it.  Not so for the buffers: in 1 MB the
# processes around the run (the coordinator before and after it, each new
# session of this test loading its catalogue) write as many as a slow run's
# clients (18, on a busy machine: 310 of 622)
my ($sum_walw, $sum_wals, $sum_bkend) = split /\|/, q1(qq{
	SELECT sum(wal_write), sum(wal_sync), sum(buffers_backend)
	FROM pgbenchx.system_samples WHERE run_id = $id});
foreach my $f (['wal_write', $sum_walw, $walw1 - $walw0, 1], ['wal_sync', $sum_wals, $wals1 - $wals0, 1],
	['buffers_backend', $sum_bkend, $bkend1 - $bkend0, 0])
{
	my ($name, $sum, $diff, $most) = @$f;
	cmp_ok($sum, '>', 0, "$name: counted in the run");
	cmp_ok($sum, '<=', $diff, "sum($name) $sum <= the server's difference $diff");
	cmp_ok($sum, '>=', 0.5 * $diff, "sum($name) $sum is most of the server's difference $diff") if $most;
}

# the CHECKPOINT issued during the run
my ($begun, $done, $bufs_ckpt) = split /\|/, q1(qq{
	SELECT sum(checkpoints_begun), sum(checkpoints_done), sum(buffers_checkpoint)
	FROM pgbenchx.system_samples WHERE run_id = $id});
cmp_ok($begun, '>=', 1, 'the checkpoint issued during the run began in it');
cmp_ok($done, '>=', 1, 'and was done in it');
cmp_ok($bufs_ckpt, '>', 0, 'the checkpointer wrote buffers');

# CPU: shares in [0, 1] that add up to 1; the drivers' CPU bounded
my ($ncpu, $bad_cpu, $bad_sum) = split /\|/, q1(qq{
	SELECT count(cpu_user),
	       count(*) FILTER (WHERE least(cpu_user, cpu_system, cpu_iowait, cpu_steal, cpu_idle) < 0
	                           OR greatest(cpu_user, cpu_system, cpu_iowait, cpu_steal, cpu_idle) > 1),
	       count(*) FILTER (WHERE abs(cpu_user + cpu_system + cpu_iowait + cpu_steal + cpu_idle - 1) > 1e-6)
	FROM pgbenchx.system_samples WHERE run_id = $id});
is($ncpu, q1("SELECT count(*) FROM pgbenchx.system_samples WHERE run_id = $id"), 'CPU shares in every row');
is($bad_cpu, 0, 'every CPU share is in [0, 1]');
is($bad_sum, 0, 'the CPU shares of a second add up to 1');
my ($sum_drv, $neg_drv, $over_drv, $run_drv) = split /\|/, q1(qq{
	SELECT sum(y.driver_cpu_s), count(*) FILTER (WHERE y.driver_cpu_s < 0),
	       count(*) FILTER (WHERE y.driver_cpu_s > (y.covered_s + 0.5) * r.jobs + 0.05),
	       max(r.driver_cpu_s)
	FROM pgbenchx.system_samples y JOIN pgbenchx.runs r USING (run_id) WHERE run_id = $id});
cmp_ok($sum_drv, '>', 0, 'the drivers used CPU');
is($neg_drv, 0, 'never a negative driver CPU');
is($over_drv, 0, 'a second never has more driver CPU than its time for each job');
cmp_ok($sum_drv, '<=', $run_drv + 0.02, "sum(driver_cpu_s) $sum_drv <= the drivers' whole CPU $run_drv");

# the data device: its bytes written against /proc/diskstats read here
my $notes = q1("SELECT coalesce(array_to_string(system_notes, E'\\n'), '') FROM pgbenchx.runs WHERE run_id = $id");
unlike($notes, qr/machine CPU/, 'no note on the machine CPU');
if (defined $disk0)
{
	my ($sum_write, $nulls, $differ) = split /\|/, q1(qq{
		SELECT sum(data_write_bytes), count(*) - count(data_write_bytes),
		       count(*) FILTER (WHERE (data_reads, data_read_bytes, data_writes, data_write_bytes, data_await_ms, data_queue)
		         IS DISTINCT FROM (wal_reads, wal_read_bytes, wal_writes, wal_write_bytes, wal_await_ms, wal_queue))
		FROM pgbenchx.system_samples WHERE run_id = $id});
	my $disk_diff = $disk1 - $disk0;
	is($nulls, 0, "the data device $major:$minor is read in every second");
	cmp_ok($sum_write, '>', 0, 'the run wrote to the data device (fsync on)');
	cmp_ok($sum_write, '<=', $disk_diff, "sum(data_write_bytes) $sum_write <= /proc/diskstats' difference $disk_diff");
	# pg_wal is in the data directory here: one device, the same figures
	is($differ, 0, 'pg_wal on the same device: the wal_* columns equal the data_* ones');
	is(q1(qq{SELECT count(*) FROM pgbenchx.system_samples WHERE run_id = $id
		AND (data_await_ms < 0 OR data_queue < 0)}), 0, 'await and queue are never negative');
	is($notes, '', 'no system_notes when everything could be read');
}
else
{
	diag("the data directory's device $major:$minor is not in /proc/diskstats (overlay, tmpfs?): the disk figures must be NULL");
	is(q1("SELECT count(*) FROM pgbenchx.system_samples WHERE run_id = $id AND data_write_bytes IS NOT NULL"),
		0, 'no block device: data_* NULL');
	like($notes, qr/data directory's device/, 'system_notes says why');
}

note("the rows of run $id:\n" . $node->safe_psql('postgres',
	"SELECT * FROM pgbenchx.system_samples WHERE run_id = $id ORDER BY second", extra_params => ['-x']));

# runs bounded by transactions, ending mid-second: the last row covers what
# its sample covers, with shares that are still shares; a last second cut
# short to less than /proc/stat's clock tick (10 ms) may have seen no CPU
# time pass: its shares are NULL then, and system_notes says why.  The
# shortest runs (1 and 5 transactions, a few ms) are the likeliest to.
for my $n (1, 5, 200, 2000)
{
	my $short = q1("SELECT run_bench(1, script => 'select-only', transactions => $n, vacuum => false, checkpoint => false)");
	q1("SET client_min_messages = warning; CALL pgbenchx.wait($short)");
	my $bad = q1(qq{
		SELECT string_agg(format('second %s/%s: covered %s/%s, cpu %s, idle %s, driver %s, hits %s',
		         s.second, y.second, s.covered_s, y.covered_s,
		         y.cpu_user + y.cpu_system + y.cpu_iowait + y.cpu_steal + y.cpu_idle,
		         y.cpu_idle, y.driver_cpu_s, y.blks_hit), '; ')
		FROM pgbenchx.samples s FULL JOIN pgbenchx.system_samples y
		  ON y.run_id = s.run_id AND y.second = s.second
		WHERE (s.run_id = $short OR y.run_id = $short)
		  AND (s.second IS NULL OR y.second IS NULL OR s.covered_s IS DISTINCT FROM y.covered_s
		       OR (y.cpu_idle IS NULL AND (y.covered_s >= 0.5
		           OR y.second <> (SELECT max(second) FROM pgbenchx.samples WHERE run_id = $short)))
		       OR abs(y.cpu_user + y.cpu_system + y.cpu_iowait + y.cpu_steal + y.cpu_idle - 1) > 1e-6
		       OR y.blks_hit IS NULL OR y.driver_cpu_s IS NULL)});
	is($bad, '', "$n transactions: a full row per sample, the last one cut short as its sample");
	# one transaction takes milliseconds: its only second is cut short, never
	# taken for a whole one (a driver publishes its last second just before
	# it says done; the coordinator waits for the final call to write it)
	is(q1("SELECT count(*) || ' ' || bool_and(covered_s < 1) FROM pgbenchx.samples WHERE run_id = $short"), '1 true',
		'1 transaction: one second, covering less than 1 s') if $n == 1;
	my ($nulls, $notes) = split /\|/, q1(qq{
		SELECT (SELECT count(*) FROM pgbenchx.system_samples WHERE run_id = $short AND cpu_idle IS NULL)
		       || '|' || coalesce(array_to_string(system_notes, ' / '), '')
		FROM pgbenchx.runs WHERE run_id = $short});
	if ($nulls > 0)
	{
		like($notes, qr/^the last second was cut short to less than \/proc\/stat's clock tick: its CPU shares are NULL$/,
			"$n transactions: NULL CPU shares in the last second, and the note that says why");
	}
	else
	{
		is($notes, '', "$n transactions: every second has its CPU shares, and no note");
	}
}

# record_system => false: no row
my $off = q1(q{SELECT pgbenchx.launch_bench('{"clients":1,"duration":1,"record_system":false,"checkpoint":false,"vacuum":false}')});
q1("SET client_min_messages = warning; CALL pgbenchx.wait($off)");
is(q1("SELECT status || ' ' || record_system::text || ' ' || (system_notes IS NULL)::text FROM pgbenchx.runs WHERE run_id = $off"),
	'completed false true', 'record_system => false is stored, without notes');
cmp_ok(q1("SELECT count(*) FROM pgbenchx.samples WHERE run_id = $off"), '>', 0, 'its samples are written');
is(q1("SELECT count(*) FROM pgbenchx.system_samples WHERE run_id = $off"), 0,
	'record_system => false writes no system_samples row');
ok(nothing_left($node), 'no worker or client left');

$node->stop;

# pg_wal on a file system with no block device (tmpfs, through initdb's
# symlink): its figures are NULL, never zero, and system_notes says why once;
# the data device's are still there
SKIP:
{
	skip('/dev/shm is not a writable tmpfs', 5)
	  unless -d '/dev/shm' && -w '/dev/shm' && (stat('/dev/shm'))[0] >> 8 == 0;
	my $waldir = File::Temp::tempdir('pgx_wal_XXXX', DIR => '/dev/shm', CLEANUP => 1);
	rmdir $waldir;
	my $tmpfs = pgbenchx_node('walshm', scale => 1,
		conf => "max_worker_processes = 16\n", init => [extra => ['--waldir', $waldir]]);
	my $rid = $tmpfs->safe_psql('postgres',
		"SELECT run_bench(1, 2, 'tpcb-like', vacuum => false, checkpoint => false)");
	$tmpfs->safe_psql('postgres', "SET client_min_messages = warning; CALL pgbenchx.wait($rid)");
	my ($n, $wal_set, $data_null, $walstat_null) = split /\|/, $tmpfs->safe_psql('postgres', qq{
		SELECT count(*), count(*) FILTER (WHERE coalesce(wal_reads, wal_read_bytes, wal_writes,
		         wal_write_bytes)::float8 IS NOT NULL OR wal_await_ms IS NOT NULL OR wal_queue IS NOT NULL),
		       count(*) FILTER (WHERE data_writes IS NULL), count(*) FILTER (WHERE wal_bytes IS NULL)
		FROM pgbenchx.system_samples WHERE run_id = $rid});
	cmp_ok($n, '>=', 2, 'pg_wal on tmpfs: the rows are written');
	is($wal_set, 0, 'pg_wal on tmpfs: the wal_* disk figures are NULL');
	is($walstat_null, 0, 'pg_wal on tmpfs: pg_stat_wal is still read');
	my $tnotes = $tmpfs->safe_psql('postgres', "SELECT array_to_string(system_notes, E'\\n') FROM pgbenchx.runs WHERE run_id = $rid");
	like($tnotes, qr/^pg_wal's device: .*no block device/m, "system_notes says why: $tnotes");
	is($data_null, defined $disk0 ? 0 : $n, 'the data device is read as before');
	$tmpfs->stop;
}

done_testing();
