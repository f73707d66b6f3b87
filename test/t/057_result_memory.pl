# What a script's queries return can never exhaust the server's memory
# (issue 20, section 3, results): a driver holds no whole result.  The
# cluster's postmaster (hence every driver it forks) runs under `ulimit -v`
# of its own address space plus 256 MB, and a runner's script does what the
# attack did: SELECT repeat('x', 1000) FROM generate_series(1, 400000), about
# 400 MB per result, with 8 clients on one driver (3.2 GB in all).  A driver
# that buffered a whole result could not hold even one: with the driver of
# bce04a3 every client aborted with libpq's "out of memory for query result"
# (the driver's VmHWM at the limit, 273 MB), and 19 of these 36 checks
# failed.  (Without a limit, issue 20 saw the OOM killer crash-restart the
# cluster; under `ulimit -v` malloc fails instead, so the checks that the
# cluster stays up hold for the old code too.)  Now:
#
# - the cluster never restarts (the postmaster's pid stays, the log has no
#   crashed or terminated server process);
# - every run ends with a clear status and pgbench's counts: a big result is
#   a success, just slow; an error after some rows aborts the client with
#   the server's error, a serialization failure after some rows fails (and
#   retries) the transaction as pgbench counts it;
# - \aset still stores the last row of a big result, \gset of a big result
#   still aborts with pgbench's "expected one row, got N";
# - a pipeline streams its results as well, and a \sleep inside one leaves
#   the results coming unread;
# - notifications (LISTEN) are dropped as they come, whether the script
#   notifies itself or another session notifies it while it sleeps;
# - each driver's peak resident size (VmHWM, read from /proc while it runs)
#   stays far below one result's size.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

# shared memory counts in the address space: keep it small
my $node = pgbenchx_node('resmem',
	conf => "shared_buffers = 16MB\njit = off\nmax_connections = 40\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# a kB figure of /proc/<pid>/status, or undef if the process is gone
sub proc_kb
{
	my ($pid, $field) = @_;
	open(my $fh, '<', "/proc/$pid/status") or return undef;
	while (my $l = <$fh>)
	{
		return $1 if $l =~ /^\Q$field\E:\s+(\d+) kB/;
	}
	return undef;
}

# restart the node's postmaster under a limit of its address space
my $base_kb = proc_kb($node->{_pid}, 'VmSize');
ok(defined $base_kb, "postmaster's address space read: $base_kb kB");
my $limit_kb = $base_kb + 256 * 1024;
$node->stop;
my ($datadir, $logfile) = ($node->data_dir, $node->logfile);
system_or_bail('bash', '-c',
	"ulimit -v $limit_kb && exec pg_ctl -w -D '$datadir' -l '$logfile' -o '--cluster-name=resmem' start");
$node->_update_pid(1);
my $pm_pid = $node->{_pid};
is(q1("SELECT setting FROM pg_settings WHERE name = 'shared_buffers'"), '2048',
	'the node runs again, with its small shared_buffers');
my $log_start = -s $logfile;
note("postmaster $pm_pid under ulimit -v $limit_kb kB");

my $rows = 400000;
my $one_result_kb = $rows * 1000 / 1024;	# what one result's values alone take

q1(qq{
CREATE TABLE resmem_vals (client int, last_i int, one int, pad_len int);
CREATE FUNCTION resmem_fail(i int) RETURNS int LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp AS \$f\$
BEGIN
  IF i = 300000 THEN
    RAISE EXCEPTION 'could not serialize access (test)' USING ERRCODE = '40001';
  END IF;
  RETURN i;
END \$f\$;
});
q1("SELECT pgbenchx.add_script('bigres', \$s\$SELECT repeat('x', 1000) FROM generate_series(1, $rows);\$s\$)");
q1("SELECT pgbenchx.add_script('bigaset', \$s\$SELECT i AS last_i, repeat('x', 1000) AS pad FROM generate_series(1, $rows) i \\aset
SELECT 1 AS one \\gset
INSERT INTO public.resmem_vals VALUES (:client_id, :last_i, :one, length(:pad::text));
\$s\$)");
q1("SELECT pgbenchx.add_script('biggset', \$s\$SELECT i FROM generate_series(1, $rows) i \\gset\$s\$)");
q1("SELECT pgbenchx.add_script('bigdiv', \$s\$SELECT repeat('x', 1000), 1 / (300000 - i) FROM generate_series(1, $rows) i;\$s\$)");
q1("SELECT pgbenchx.add_script('bigser', \$s\$SELECT repeat('x', 1000), public.resmem_fail(i) FROM generate_series(1, $rows) i;\$s\$)");
q1("SELECT pgbenchx.add_script('bigpipe', \$s\$\\startpipeline
SELECT repeat('x', 1000) FROM generate_series(1, $rows);
SELECT 1;
\\endpipeline
\$s\$)");

# Start a run, and until it ends sample the peak resident size of its
# drivers; returns the run's id and the largest VmHWM seen (kB; 0 if no
# driver was seen).
sub run_watched
{
	my ($args) = @_;
	my $id = q1("SELECT run_bench($args, vacuum => false, checkpoint => false, record_system => false)");
	my $hwm = 0;
	my $deadline = time() + $PostgreSQL::Test::Utils::timeout_default;
	while (time() < $deadline)
	{
		my ($pids, $status) = split /\|/, q1(qq{
			SELECT coalesce((SELECT string_agg(pid::text, ',' ORDER BY pid) FROM pg_stat_activity
			                 WHERE backend_type = 'pgbenchx driver'), '') || '|' ||
			       (SELECT status FROM pgbenchx.runs WHERE run_id = $id)});
		foreach my $pid (split /,/, $pids // '')
		{
			my $kb = proc_kb($pid, 'VmHWM');
			$hwm = $kb if defined $kb && $kb > $hwm;
		}
		last if defined $status && $status ne 'running';
		usleep(100_000);
	}
	$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
	return ($id, $hwm);
}

sub run_row
{
	my ($id) = @_;
	return q1(qq{SELECT status || ' tx=' || coalesce(transactions, -1) || ' failed=' || coalesce(failed, -1)
	                 || ' retried=' || coalesce(retried, -1) || ' retries=' || coalesce(retries, -1)
	                 || ' aborted=' || coalesce(aborted_clients, -1)
	             FROM pgbenchx.runs WHERE run_id = $id});
}

sub run_error { return q1("SELECT coalesce(error, '') FROM pgbenchx.runs WHERE run_id = $_[0]"); }

# the attack: 8 clients on one driver, one big result each
my ($id, $hwm) = run_watched("8, transactions => 1, jobs => 1, script => 'bigres'");
is(run_row($id), 'completed tx=8 failed=0 retried=0 retries=0 aborted=0',
	'8 clients with a 400 MB result each on one driver: every transaction succeeded')
  or diag(run_error($id));
cmp_ok($hwm, '>', 0, 'the driver was seen while it ran');
cmp_ok($hwm, '<', $one_result_kb / 4,
	"the driver's peak resident size ($hwm kB) stays far below one result ($one_result_kb kB)");

# \aset over a big result: the last row wins; \gset of one row as before
q1('TRUNCATE resmem_vals');
($id, $hwm) = run_watched("2, transactions => 1, jobs => 1, script => 'bigaset', protocol => 'extended'");
is(run_row($id), 'completed tx=2 failed=0 retried=0 retries=0 aborted=0', '\aset over a big result succeeds')
  or diag(run_error($id));
is(q1(q{SELECT string_agg(client || ' ' || last_i || ' ' || one || ' ' || pad_len, ',' ORDER BY client) FROM resmem_vals}),
	"0 $rows 1 1000,1 $rows 1 1000", '\aset stored the last row of the big result, \gset its one row');
cmp_ok($hwm, '<', $one_result_kb / 4, "\\aset: the driver's peak ($hwm kB) stays small");

# \gset of a big result: pgbench's abort, with the count of rows
($id, $hwm) = run_watched("1, transactions => 1, script => 'biggset'");
like(run_row($id), qr/^failed .* aborted=1$/, '\gset of a big result aborts the client');
like(run_error($id), qr/client 0 script 0 command 0 query 0: expected one row, got $rows/,
	"with pgbench's words and the rows counted");

# an error after 299999 rows: the client aborts with the server's error
($id, $hwm) = run_watched("1, transactions => 1, script => 'bigdiv'");
like(run_row($id), qr/^failed .* aborted=1$/, 'an error in the middle of a big result aborts the client');
like(run_error($id), qr/client 0 script 0 aborted in command 0 query 0: ERROR:  division by zero/,
	"with pgbench's words and the server's error");
cmp_ok($hwm, '<', $one_result_kb / 4, "error mid-result: the driver's peak ($hwm kB) stays small");

# a serialization failure after 299999 rows: a failed transaction, retried
($id, $hwm) = run_watched("1, transactions => 1, script => 'bigser', max_tries => 2");
is(run_row($id), 'completed tx=0 failed=1 retried=1 retries=1 aborted=0',
	'a serialization failure in the middle of a big result is retried, then counted failed')
  or diag(run_error($id));

q1("SELECT pgbenchx.add_script('bigpipesleep', \$s\$\\startpipeline
SELECT repeat('x', 1000) FROM generate_series(1, $rows);
\\sleep 2 s
SELECT 1;
\\endpipeline
\$s\$)");

# a pipeline streams too
($id, $hwm) = run_watched("2, transactions => 1, jobs => 1, script => 'bigpipe', protocol => 'extended'");
is(run_row($id), 'completed tx=2 failed=0 retried=0 retries=0 aborted=0', 'a big result in a pipeline succeeds')
  or diag(run_error($id));
cmp_ok($hwm, '<', $one_result_kb / 4, "pipeline: the driver's peak ($hwm kB) stays small");
($id, $hwm) = run_watched("1, transactions => 2, script => 'bigpipe', protocol => 'prepared'");
is(run_row($id), 'completed tx=2 failed=0 retried=0 retries=0 aborted=0', 'and in prepared mode (the prepare queued first)')
  or diag(run_error($id));
cmp_ok($hwm, '<', $one_result_kb / 4, "prepared pipeline: the driver's peak ($hwm kB) stays small");

# a \sleep in a pipeline while a big result arrives: the driver does not read it ahead
($id, $hwm) = run_watched("2, transactions => 1, jobs => 1, script => 'bigpipesleep', protocol => 'extended'");
is(run_row($id), 'completed tx=2 failed=0 retried=0 retries=0 aborted=0', 'a \sleep in a pipeline after a big result')
  or diag(run_error($id));
cmp_ok($hwm, '<', $one_result_kb / 4, "pipeline with \\sleep: the driver's peak ($hwm kB) stays small");

# the server waits while a client sleeps in a pipeline (its backend in
# ClientWrite, the driver small), and a cancel still ends the sleep at once
q1("SELECT pgbenchx.add_script('pipesleeplong', \$s\$\\startpipeline
SELECT repeat('x', 1000) FROM generate_series(1, $rows);
\\sleep 600 s
\\endpipeline
\$s\$)");
$id = q1("SELECT run_bench(1, transactions => 1, script => 'pipesleeplong', protocol => 'extended', vacuum => false, checkpoint => false, record_system => false)");
ok($node->poll_query_until('postgres', qq{
	SELECT count(*) = 1 FROM pg_stat_activity
	WHERE application_name LIKE 'pgbenchx client%' AND wait_event = 'ClientWrite'}),
	'the sleeping client\'s backend waits to send its result');
my $sleeper = q1("SELECT pid FROM pg_stat_activity WHERE backend_type = 'pgbenchx driver'");
$hwm = proc_kb($sleeper, 'VmHWM') // -1;
cmp_ok($hwm, '>', 0, 'the driver of the sleeping client is there');
cmp_ok($hwm, '<', $one_result_kb / 4, "the driver holds nothing of it ($hwm kB)");
q1("SELECT pgbenchx.cancel($id)");
$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
like(run_row($id), qr/^cancelled .* aborted=0$/, 'a cancel ends the sleep in the pipeline');

# notifications a script makes its own connection receive (10000 of 8 kB at
# each commit, 400 MB over the run): libpq queues them until PQnotifies, so
# they are dropped as they come
q1("SELECT pgbenchx.add_script('bignotify', \$s\$LISTEN resmem_ch;
SELECT pg_catalog.pg_notify('resmem_ch', pg_catalog.repeat('x', 7900) || i) FROM pg_catalog.generate_series(1, 10000) i;
\$s\$)");
($id, $hwm) = run_watched("1, transactions => 5, script => 'bignotify'");
is(run_row($id), 'completed tx=5 failed=0 retried=0 retries=0 aborted=0', 'a script notifying itself 400 MB')
  or diag(run_error($id));
cmp_ok($hwm, '<', $one_result_kb / 4, "notifications: the driver's peak ($hwm kB) stays small");

# notifications from another session while the client sleeps (no query in
# flight): 400 MB, all read by the listener before the driver is measured
q1("SELECT pgbenchx.add_script('listensleep', \$s\$LISTEN resmem_ch2;
\\sleep 600 s
\$s\$)");
$id = q1("SELECT run_bench(1, transactions => 1, script => 'listensleep', vacuum => false, checkpoint => false, record_system => false)");
ok($node->poll_query_until('postgres', qq{
	SELECT count(*) = 1 FROM pg_stat_activity
	WHERE application_name LIKE 'pgbenchx client%' AND query LIKE 'LISTEN%' AND state = 'idle'}),
	'the client listens and sleeps');
$node->safe_psql('postgres', join('', map { "SELECT count(pg_catalog.pg_notify('resmem_ch2', pg_catalog.repeat('x', 7900) || i)) FROM pg_catalog.generate_series(1, 10000) i;\n" } 1 .. 5));
ok($node->poll_query_until('postgres', 'SELECT pg_catalog.pg_notification_queue_usage() = 0'),
	'the listener has taken every notification');
my $driver = q1("SELECT pid FROM pg_stat_activity WHERE backend_type = 'pgbenchx driver'");
$hwm = proc_kb($driver, 'VmHWM') // -1;
cmp_ok($hwm, '>', 0, 'the sleeping driver is there');
cmp_ok($hwm, '<', $one_result_kb / 4, "notifications during a sleep: the driver's peak ($hwm kB) stays small");
q1("SELECT pgbenchx.cancel($id)");
$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
like(run_row($id), qr/^cancelled .* aborted=0$/, 'and the run is cancelled, its client not aborted');

# the cluster never restarted
is($node->safe_psql('postgres', 'SELECT pg_postmaster_start_time() IS NOT NULL'), 't', 'the server answers');
my $pidline = PostgreSQL::Test::Utils::slurp_file("$datadir/postmaster.pid");
is((split /\n/, $pidline)[0], $pm_pid, 'the postmaster is the one started under the limit');
my $log = substr(PostgreSQL::Test::Utils::slurp_file($logfile), $log_start);
unlike($log, qr/terminated by signal|was terminated|server process .* exited with exit code|all server processes terminated/,
	'no server process crashed or was terminated');
unlike($log, qr/out of memory/i, 'nothing ran out of memory');
ok(nothing_left($node), 'nothing left');

$node->stop;
done_testing();
