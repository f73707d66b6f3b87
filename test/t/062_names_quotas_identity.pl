# Names, quotas, identity and what a cancel keeps (issue 20, sections 7
# and 8), probed as an attacker would.  A runner with a password tries to
# register scripts named like the built-ins in every spelling (case, '-'
# for '_', trailing punctuation, a prefix, look-alike letters); a
# look-alike left in custom_scripts from before 0.5 is never what a
# superuser's run_bench runs.  The quotas (pgbenchx.max_duration,
# max_clients, max_jobs) refuse a runner's run up front, for every entry
# point, and the runner cannot lift them, not even with a SET made before
# the library was loaded; superusers are not limited.  pgbenchx.cancel of a
# row whose stored pid now belongs to another process (a backend, or
# another run's coordinator) signals nothing.  A runner's run takes at most
# its share of the connections and worker slots and leaves a headroom free
# (issue 34 §6); a launch that cannot connect all its clients is refused up
# front, a superuser's too.  A run or sweep cancelled
# while it measures keeps its statement statistics and says who cancelled it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use IPC::Run;

my $node = pgbenchx_node('names', scale => 1,
	conf => "password_encryption = 'scram-sha-256'\nmax_worker_processes = 12\n");
my $su = $node->safe_psql('postgres', 'SELECT current_user');
$node->safe_psql('postgres', q{
	CREATE ROLE mallory LOGIN PASSWORD 'm-secret';
	SELECT pgbenchx.grant_runner('mallory');
	GRANT SELECT ON pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history TO mallory;
	CREATE TABLE trap_log (who text, at timestamptz DEFAULT now());
	GRANT INSERT ON trap_log TO PUBLIC;
});
my $hba = $node->data_dir . '/pg_hba.conf';
open(my $fh, '>', $hba) or die;
print $fh "local all $su trust\n";
print $fh "local all all scram-sha-256\n";
close $fh;
$node->reload;

my $pw = "conninfo => 'password=m-secret'";

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# (ret, stdout, stderr) of sql as mallory, verbose (SQLSTATE in the errors)
sub as_mallory
{
	my ($sql) = @_;
	local $ENV{PGPASSWORD} = 'm-secret';
	my ($stdout, $stderr);
	my $ret = $node->psql('postgres', $sql, stdout => \$stdout, stderr => \$stderr,
		extra_params => [ '-U', 'mallory', '-v', 'VERBOSITY=verbose' ]);
	return ($ret, $stdout, $stderr);
}

# stderr of sql as the superuser, verbose
sub su_err
{
	my ($sql) = @_;
	my ($stdout, $stderr);
	$node->psql('postgres', $sql, stdout => \$stdout, stderr => \$stderr,
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	return $stderr;
}

sub finished
{
	my ($table, $key, $id) = @_;
	$node->poll_query_until('postgres', "SELECT status <> 'running' FROM pgbenchx.$table WHERE $key = $id")
	  or die "$table $id never finished";
}

# ---------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------

# every spelling that reads as a built-in, or a prefix of one
foreach my $name ('select_only', 'select-only', 'selectonly', 'tpcb_like', 'tpcblike', 'simple_update',
	'Select-Only', 'SELECT-ONLY', 'Tpcb-Like', 'SelectOnly', 'Simple_Update', 'SEL', 'T',
	'sel', 's', 't', 'tpcb', 'tpcb-', 'tpcb-like-', 'simple-', 'select-on', 'select_', 'select--only',
	'select-_only', 's-e-l-e-c-t', '-', '_', '__', '0')
{
	my ($ret, $out, $err) = as_mallory("SELECT pgbenchx.add_script('$name', 'INSERT INTO public.trap_log VALUES (current_user);')");
	if ($name eq '0')
	{
		is($ret, 0, "'0' reads as no built-in: registered");
		next;
	}
	like($err, qr/(42710|42602)/, "'$name' is refused");
	like($err, qr/42710: script name "\Q$name\E" is taken by the built-in scripts/, "'$name': it reads as a built-in")
	  if $name =~ /^[a-z0-9]/;
}

# every spelling the safe set refuses, including the look-alikes
foreach my $name ('select-only.', 'select.only', 'tpcb-like.', 'Select-Only.',
	'select only', "s\xd0\xb5lect-only", "\xd0\xa1elect-only", 'mine.', '.mine', '-mine', '_mine',
	'mine@1', 'a,b', "mine\t", 'x' x 64)
{
	my ($ret, $out, $err) = as_mallory("SELECT pgbenchx.add_script(\$n\$$name\$n\$, 'SELECT 1;')");
	like($err, qr/42602: invalid script name/, "'$name' is refused: not in the safe set");
}
like((as_mallory("SELECT pgbenchx.add_script('mine.', 'SELECT 1;')"))[2],
	qr/ASCII letters, digits, '_' and '-', and starts with a letter or a digit/, 'the refusal says which characters a name may have');

# names that do not read as a built-in are fine, a built-in's name with more is one
foreach my $name ('mine', 'tpcb-like2', 'select-only-v2', 'my_select', 'Error_gset_no_SQL', 'a' x 63)
{
	my ($ret, $out, $err) = as_mallory("SELECT pgbenchx.add_script('$name', 'SELECT 1;')");
	is($ret, 0, "'$name' is registered") or diag($err);
}
is(q1("SELECT string_agg(name, ',' ORDER BY name COLLATE \"C\") FROM pgbenchx.custom_scripts WHERE name ~ '^[^a]'"),
	'0,Error_gset_no_SQL,mine,my_select,select-only-v2,tpcb-like2', 'exactly the names that read as no built-in were registered');

# nor as another registered script: the superuser typing alice's name runs alice's
$node->safe_psql('postgres', "CREATE ROLE alice; SELECT pgbenchx.grant_runner('alice');"
	  . " SET ROLE alice; SELECT pgbenchx.add_script('hot-row', 'SELECT 1;')");
foreach my $name ('hot_row', 'Hot-Row', 'HOTROW', 'hot--row')
{
	my ($ret, $out, $err) = as_mallory("SELECT pgbenchx.add_script('$name', 'INSERT INTO public.trap_log VALUES (current_user);')");
	like($err, qr/42710: script name "\Q$name\E" reads as the registered script "hot-row"/, "'$name' is refused: it reads as alice's hot-row");
}
like((as_mallory("SELECT pgbenchx.add_script('hot-row', 'SELECT 2;', replace => true)"))[2], qr/42501/,
	"and alice's own name is hers");
is(q1("SELECT string_agg(name || ':' || owner, ',') FROM pgbenchx.custom_scripts WHERE name ILIKE 'hot%'"), 'hot-row:alice',
	'only hot-row is registered');

# look-alikes stored before 0.5 (or restored by pg_dump): readable and
# droppable by their owner, never what a built-in-looking name runs
q1(q{INSERT INTO pgbenchx.custom_scripts (name, body, owner) VALUES
	('select_only', 'INSERT INTO public.trap_log VALUES (current_user);', 'mallory'),
	('Select-Only', 'INSERT INTO public.trap_log VALUES (current_user);', 'mallory'),
	('tpcb-like.', 'INSERT INTO public.trap_log VALUES (current_user);', 'mallory'),
	('Legacy.Name', 'SELECT 1;', 'mallory')});
foreach my $name ('select_only', 'Select-Only', 'tpcb-like.', 'SELECT_ONLY', 'Select')
{
	my $err = su_err("SELECT run_bench(1, transactions => 1, script => '$name', checkpoint => false)");
	like($err, qr/42704: no script named "\Q$name\E"/, "superuser's run_bench('$name') is refused");
	like($err, qr/reads as the built-in "(select-only|tpcb-like)"/, "'$name': the detail names the built-in it reads as");
	like(su_err("SELECT pgbenchx.script_text('$name')"), qr/42704/, "script_text('$name') does not show the look-alike");
}
like(su_err("SELECT run_bench(1, transactions => 1, script => 'select-only\@1, select_only\@1', checkpoint => false)"),
	qr/no script named "select_only"/, 'nor in a mix');
is(q1('SELECT count(*) FROM trap_log'), '0', "no look-alike's SQL ran");
is(q1("SELECT count(*) FROM pgbenchx.runs"), '0', 'and no run started');

# pgbench -b's resolution of the built-ins is kept: a unique prefix, case as typed
foreach my $case ([ 'se', 'select-only' ], [ 'select-only', 'select-only' ], [ 'tpcb', 'tpcb-like' ], [ 'si', 'simple-update' ])
{
	my ($typed, $builtin) = @$case;
	my $id = q1("SELECT run_bench(1, transactions => 1, script => '$typed', checkpoint => false)");
	finished('runs', 'run_id', $id);
	is(q1("SELECT status || ' ' || script FROM pgbenchx.runs WHERE run_id = $id"), "completed $builtin",
		"'$typed' runs the built-in $builtin");
}
like(su_err("SELECT run_bench(1, transactions => 1, script => 's', checkpoint => false)"),
	qr/ambiguous builtin name: 2 builtin scripts found for prefix "s"/, "'s' is ambiguous, as in pgbench");
is(q1('SELECT count(*) FROM trap_log'), '0', "still no look-alike's SQL ran");

# an old name outside the safe set, not a look-alike, still works by its exact name
my ($ret, $out, $err) = as_mallory("SELECT run_bench(1, transactions => 1, script => 'Legacy.Name', checkpoint => false, $pw)");
is($ret, 0, 'a name stored under the old rule still runs for its owner') or diag($err);
finished('runs', 'run_id', $out);
is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $out"), 'completed', 'and completes');
is(q1("SELECT pgbenchx.script_text('Legacy.Name')"), 'SELECT 1;', 'and is shown');
like((as_mallory("SELECT pgbenchx.add_script('select_only', 'SELECT 2;', replace => true)"))[2],
	qr/42710/, 'a stored look-alike cannot be replaced');
is(q1("SELECT count(*) FROM pgbenchx.scripts WHERE name IN ('select_only', 'Select-Only', 'tpcb-like.') AND NOT builtin"),
	'3', 'the stored look-alikes are listed');
foreach my $name ('select_only', 'Select-Only', 'tpcb-like.', 'Legacy.Name')
{
	($ret, $out, $err) = as_mallory("SELECT pgbenchx.drop_script('$name')");
	is($ret, 0, "its owner drops '$name'") or diag($err);
}
is(q1("SELECT count(*) FROM pgbenchx.custom_scripts WHERE name IN ('select_only', 'Select-Only', 'tpcb-like.', 'Legacy.Name')"),
	'0', 'all gone');

# ---------------------------------------------------------------------------
# Identity: a stored pid that now belongs to another process is not signalled
# ---------------------------------------------------------------------------
{
	# run A stays on, its client waiting on the lock, until the checks are
	# made (a 4 s run could end first on a loaded machine, and its pid be
	# nobody's coordinator)
	my $lock = lock_session($node, 'pgbench_accounts');
	my $a = q1("SELECT run_bench(1, 4, 'select-only', vacuum => false, checkpoint => false)");
	run_sampled($node, "run_id = $a", 1) or die "run $a never sampled";
	my $pid = q1("SELECT coordinator_pid FROM pgbenchx.runs WHERE run_id = $a");
	# a plain backend, alive while the stale row names it
	my ($bin, $bout, $berr) = ("SELECT pg_backend_pid();\n", '', '');
	my $backend = IPC::Run::start(['psql', '-X', '-At', '-d', $node->connstr('postgres')],
		'<', \$bin, '>', \$bout, '2>', \$berr);
	$backend->pump until $bout =~ /^(\d+)$/m;
	my $bpid = $1;
	# stale rows: one names run A's coordinator, one a plain backend
	my ($b, $c) = split /\n/, q1(qq{
		INSERT INTO pgbenchx.runs (status, script, clients, jobs, duration, coordinator_pid, owner)
		VALUES ('running', 'select-only', 1, 1, 4, $pid, current_user), ('running', 'select-only', 1, 1, 4, $bpid, current_user)
		RETURNING run_id});
	my ($stdout, $stderr);
	$node->psql('postgres', "SELECT pgbenchx.cancel($b)", stdout => \$stdout, stderr => \$stderr);
	is($stdout, 'f', "cancel of a stale row naming another run's live coordinator signals nothing");
	like($stderr, qr/recorded coordinator pid $pid is now another run's coordinator/, 'and says why');
	# a stale sweep naming it, and a stale run of that sweep
	my $sw = q1(qq{INSERT INTO pgbenchx.sweeps (status, script, clients, duration, coordinator_pid, owner)
		VALUES ('running', 'select-only', '{1}', 4, $pid, current_user) RETURNING sweep_id});
	my $swrun = q1(qq{INSERT INTO pgbenchx.runs (sweep_id, status, script, clients, jobs, duration, coordinator_pid, owner)
		VALUES ($sw, 'running', 'select-only', 1, 1, 4, $pid, current_user) RETURNING run_id});
	foreach my $stale ([ $sw, 'a stale sweep' ], [ $swrun, "a stale sweep's run" ])
	{
		$node->psql('postgres', "SELECT pgbenchx.cancel($stale->[0])", stdout => \$stdout, stderr => \$stderr);
		is($stdout, 'f', "cancel of $stale->[1] naming run A's coordinator signals nothing");
	}
	$node->psql('postgres', "SELECT pgbenchx.cancel($c)", stdout => \$stdout, stderr => \$stderr);
	is($stdout, 'f', "cancel of a stale row naming a backend's pid signals nothing");
	is(q1("SELECT count(*) FROM pg_stat_activity WHERE pid = $bpid"), '1', 'the backend lives on');
	$bin .= "\\q\n";
	$backend->finish;
	unlock_session($lock);
	finished('runs', 'run_id', $a);
	is(q1("SELECT status || coalesce(': ' || error, '') FROM pgbenchx.runs WHERE run_id = $a"), 'completed',
		'run A was not cancelled by the stale rows');
	q1("DELETE FROM pgbenchx.runs WHERE run_id IN ($b, $c, $swrun); DELETE FROM pgbenchx.sweeps WHERE sweep_id = $sw");
	ok(nothing_left($node), 'nothing left');
}

# ---------------------------------------------------------------------------
# Nothing measured is lost: a cancel while measuring keeps the statement
# statistics, and the run and its sweep say who cancelled them
# ---------------------------------------------------------------------------
{
	my $id = q1("SELECT run_bench(2, 60, 'select-only', checkpoint => false)");
	run_sampled($node, "run_id = $id", 1) or die "run $id never sampled";
	is(q1("SELECT pgbenchx.cancel($id)"), 't', 'cancel while measuring');
	finished('runs', 'run_id', $id);
	is(q1("SELECT status || ': ' || coalesce(error, '') FROM pgbenchx.runs WHERE run_id = $id"),
		qq{cancelled: cancelled by pgbenchx.cancel of role "$su"}, 'the run says who cancelled it');
	is(q1("SELECT string_agg(command || ':' || (latency_avg_ms IS NULL)::text, ',' ORDER BY command) FROM pgbenchx.statement_stats WHERE run_id = $id"),
		'1:true,2:false', 'its statement statistics are stored, a row per command (\\set untimed, as pgbench -r)');
	# a stop ends each client at its next command boundary: a SELECT in
	# flight at the cancel still ends (and is counted as executed), but its
	# transaction is not counted, so at most one more execution per client
	my ($tx, $ex) = split /\|/, q1("SELECT r.transactions, s.executions FROM pgbenchx.statement_stats s JOIN pgbenchx.runs r USING (run_id)"
		  . " WHERE run_id = $id AND s.command = 2");
	ok($tx > 0 && $ex >= $tx && $ex <= $tx + 2,
		"the SELECT's executions are the run's transactions, and at most the 2 in flight at the cancel ($ex, $tx)");
	ok(nothing_left($node), 'nothing left');
}
{
	my $sweep = q1("SELECT run_sweep(ARRAY[1, 2], 60, 'select-only', checkpoint => false)");
	run_sampled($node, "sweep_id = $sweep", 1) or die "sweep $sweep never sampled";
	my $run = q1("SELECT run_id FROM pgbenchx.runs WHERE sweep_id = $sweep");
	is(q1("SELECT pgbenchx.cancel($run)"), 't', "cancel of a sweep's run reaches the sweep's own coordinator");
	finished('sweeps', 'sweep_id', $sweep);
	is(q1("SELECT status || ': ' || coalesce(error, '') FROM pgbenchx.sweeps WHERE sweep_id = $sweep"),
		qq{cancelled: cancelled by pgbenchx.cancel of role "$su"}, 'and stops the sweep, saying who');
	ok(nothing_left($node), 'nothing left');
}
{
	my ($ret, $sweep, $err) = as_mallory("SELECT run_sweep(ARRAY[1, 2], 60, 'select-only', checkpoint => false, $pw)");
	is($ret, 0, "mallory's sweep starts") or diag($err);
	run_sampled($node, "sweep_id = $sweep", 1) or die "sweep $sweep never sampled";
	($ret, my $out, $err) = as_mallory("SELECT pgbenchx.cancel($sweep)");
	is($out, 't', 'mallory cancels her sweep while it measures');
	finished('sweeps', 'sweep_id', $sweep);
	is(q1("SELECT status || ': ' || coalesce(error, '') FROM pgbenchx.sweeps WHERE sweep_id = $sweep"),
		'cancelled: cancelled by pgbenchx.cancel of role "mallory"', 'the sweep says who cancelled it');
	is(q1("SELECT string_agg(status || ': ' || coalesce(error, ''), ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
		'cancelled: cancelled by pgbenchx.cancel of role "mallory"', 'and so does its run; no second step');
	is(q1("SELECT count(*) FROM pgbenchx.statement_stats s JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = $sweep"),
		'2', "its run keeps a statement row per command of select-only");
	my ($tx, $ex) = split /\|/, q1("SELECT r.transactions, s.executions FROM pgbenchx.statement_stats s JOIN pgbenchx.runs r USING (run_id)"
		  . " WHERE r.sweep_id = $sweep AND s.command = 2");
	ok($tx > 0 && $ex >= $tx && $ex <= $tx + 1,
		"the SELECT's executions are the run's transactions, and at most the 1 in flight at the cancel ($ex, $tx)");
	ok(nothing_left($node), 'nothing left');
}

# ---------------------------------------------------------------------------
# Quotas
# ---------------------------------------------------------------------------
sub settings
{
	my @lines = split /\n/, q1("SELECT pgbenchx.eval('1'); SELECT current_setting('pgbenchx.max_duration') || ' '"
		  . " || current_setting('pgbenchx.max_clients') || ' ' || current_setting('pgbenchx.max_jobs')");
	return $lines[-1];
}
is(settings(), '1d 1000 64', 'the defaults');
$node->append_conf('postgresql.conf', "pgbenchx.max_duration = 2\npgbenchx.max_clients = 3\npgbenchx.max_jobs = 2\n");
$node->reload;
is(settings(), '2s 3 2', 'the quotas, lowered');
my $quota_start = q1("SELECT coalesce(max(run_id), 0) FROM pgbenchx.runs");

my @refused = (
	[ "run_bench(1, 3, 'select-only', $pw)", qr/duration must be at most 2 seconds for role "mallory", not 3/, 'max_duration' ],
	[ "run_bench(4, 1, 'select-only', $pw)", qr/clients must be at most 3 for role "mallory", not 4/, 'max_clients' ],
	[ "run_bench(2, 1, 'select-only', jobs => 3, $pw)", qr/jobs must be at most 2 for role "mallory", not 3/, 'max_jobs' ],
	[ "run_sweep(1, 4, 1, 'select-only', $pw)", qr/clients must be at most 3 for role "mallory", not 4/, 'max_clients' ],
	[ "run_sweep(ARRAY[1, 2], 3, 'select-only', $pw)", qr/duration must be at most 2 seconds/, 'max_duration' ],
	[ "run_sweep(ARRAY[1, 2], 1, 'select-only', repeats => 2, jobs => 5, $pw)", qr/jobs must be at most 2/, 'max_jobs' ],
	[ "run_replay('SELECT 1;', 1, 4, $pw)", qr/clients must be at most 3 for role "mallory", not 4/, 'max_clients' ],
	[ q{pgbenchx.launch_part('{"clients": 1, "duration": 100000, "script": "select-only", "part_of": {"recorder": "elsewhere/bench", "run_id": 77, "generator": 2}}')},
		qr/duration must be at most 2 seconds for role "mallory", not 100000/, 'max_duration' ],
	[ q{pgbenchx.launch_part('{"clients": 5, "duration": 1, "script": "select-only", "part_of": {"recorder": "elsewhere/bench", "run_id": 77, "generator": 2}}')},
		qr/clients must be at most 3 for role "mallory", not 5/, 'max_clients' ]);
foreach my $r (@refused)
{
	my ($call, $re, $setting) = @$r;
	my ($ret, $out, $err) = as_mallory("SELECT $call");
	like($err, qr/54000: /, "$call: refused with 54000");
	like($err, $re, "$call: with the numbers");
	like($err, qr/HINT:.*pgbenchx\.$setting/, "$call: the hint names pgbenchx.$setting");
}
# the runner cannot lift a quota: not with SET, not with a SET made before
# the library was loaded in its session, not per role
foreach my $sql ("SELECT pgbenchx.eval('1'); SET pgbenchx.max_duration = -1; SELECT run_bench(1, 3, 'select-only', $pw)",
	"SET pgbenchx.max_duration = -1; SELECT run_bench(1, 3, 'select-only', $pw)",
	"SET pgbenchx.max_duration = '1d'; SET pgbenchx.max_clients = 100; SELECT run_bench(4, 3, 'select-only', $pw)",
	"ALTER ROLE mallory SET pgbenchx.max_duration = -1")
{
	my ($ret, $out, $err) = as_mallory($sql);
	isnt($ret, 0, "refused: $sql");
}
is(q1("SELECT count(*) FROM pgbenchx.runs WHERE owner = 'mallory' AND run_id > $quota_start"),
	'0', 'none of the refused calls recorded a run');
# within the quotas, and the jobs chosen for her within max_jobs
($ret, $out, $err) = as_mallory("SELECT run_bench(3, 2, 'select-only', checkpoint => false, $pw)");
is($ret, 0, 'a run within the quotas starts') or diag($err);
finished('runs', 'run_id', $out);
is(q1("SELECT status || ' ' || (jobs <= 2)::text FROM pgbenchx.runs WHERE run_id = $out"), 'completed true',
	'and completes with at most max_jobs jobs');
# a run bounded by transactions cannot be refused for its length: its
# measured interval is cut at max_duration, and it says so
($ret, $out, $err) = as_mallory("SELECT run_bench(1, transactions => 1000000000, script => 'select-only', checkpoint => false, $pw)");
is($ret, 0, 'a run of 10^9 transactions starts') or diag($err);
finished('runs', 'run_id', $out);
is(q1("SELECT status || ': ' || error FROM pgbenchx.runs WHERE run_id = $out"),
	'cancelled: stopped after 2 s: pgbenchx.max_duration limits the runs of role "mallory"',
	'and is stopped at max_duration, saying why');
is(q1("SELECT transactions > 0 AND transactions < 1000000000 AND bench_duration_s < 60 FROM pgbenchx.runs WHERE run_id = $out"),
	't', 'keeping what it measured');
is(q1("SELECT count(*) FROM pgbenchx.statement_stats WHERE run_id = $out"), '2', 'and its statement statistics');
like(su_err("SELECT pgbenchx.eval('1'); SET pgbenchx.max_duration = 0"), qr/22023/, 'max_duration 0 means nothing and is refused');
# a superuser is not limited
my $id = q1("SELECT run_bench(4, 3, 'select-only', jobs => 3, checkpoint => false)");
finished('runs', 'run_id', $id);
is(q1("SELECT status || ' ' || clients || ' ' || jobs || ' ' || duration FROM pgbenchx.runs WHERE run_id = $id"),
	'completed 4 3 3', 'a superuser runs beyond every quota');
like(su_err("SELECT pgbenchx.eval('1'); SET pgbenchx.max_jobs = 0"), qr/22023/, 'max_jobs 0 means nothing and is refused');
ok(nothing_left($node), 'nothing left');

# ---------------------------------------------------------------------------
# The server's share (issue 34 §6): a runner's run takes at most a share of
# the connections and worker slots, never the last free ones, and a launch
# whose clients cannot all connect is refused before anything starts.  A
# small max_connections keeps it cheap: 20, of which 3 are reserved, so
# roles without reserved slots use 17, and a runner's run at most 50% of
# them, 8 (its clients and its coordinator's one).
# ---------------------------------------------------------------------------
is(q1("SELECT pgbenchx.eval('1'); SELECT concat_ws(' ', current_setting('pgbenchx.max_connection_share'),"
		. " current_setting('pgbenchx.max_worker_share'), current_setting('pgbenchx.connection_headroom'),"
		. " current_setting('pgbenchx.worker_headroom'))"), "1\n50 50 3 1", 'the shares\' defaults');
$node->append_conf('postgresql.conf', "max_connections = 20\nsuperuser_reserved_connections = 3\n"
	  . "pgbenchx.max_duration = '1min'\npgbenchx.max_clients = 1000\npgbenchx.max_jobs = 64\n");
$node->restart;
q1(q{CREATE ROLE bob LOGIN PASSWORD 'b-secret'});
my $limit = 17;
my $sock = $node->host;
my $share_start = q1("SELECT coalesce(max(run_id), 0) FROM pgbenchx.runs");

# more than the share, through every entry point, by the socket and by a
# conninfo naming the host (the figures in the DETAIL, the setting in the HINT)
foreach my $call ("run_bench(8, 1, 'select-only', $pw)",
	"run_bench(8, 1, 'select-only', conninfo => 'host=$sock password=m-secret')",
	"run_sweep(ARRAY[1, 8], 1, 'select-only', $pw)",
	"run_sweep(1, 8, 1, 'select-only', $pw)",
	"run_replay('SELECT 1;', 1, 8, $pw)",
	qq{run_experiment('[{"name": "a"}, {"name": "b"}]', 1, 8, 1, repeats => 1, warmup => 0, script => 'select-only', $pw)})
{
	my ($ret, $out, $err) = as_mallory("SELECT $call");
	like($err, qr/54000: 8 clients need 9 connections, but a run of role "mallory" may take at most 8/,
		"$call: over the share, refused with 54000");
	like($err, qr/DETAIL:.*Asked 9 .*allowed 8: pgbenchx\.max_connection_share is 50% of the $limit connections/s,
		"$call: asked, allowed and the limit in the DETAIL");
	like($err, qr/HINT:.*pgbenchx\.max_connection_share/, "$call: the hint names the setting");
}
my ($ret2, $out2, $err2) = as_mallory("SELECT run_bench(6, 1, 'select-only', jobs => 6, $pw)");
like($err2, qr/54000: 6 jobs need 7 background worker slots, but a run of role "mallory" may take at most 6/,
	'over the worker share (50% of 12): refused with 54000');
like($err2, qr/HINT:.*pgbenchx\.max_worker_share/, 'the hint names pgbenchx.max_worker_share');

# another role holds connections: 9 idle sessions of bob
my @bob;
foreach my $i (1 .. 9)
{
	my ($in, $out, $err) = ('', '', '');
	local $ENV{PGPASSWORD} = 'b-secret';
	my $h = IPC::Run::start(['psql', '-X', '-At', '-U', 'bob', '-d', $node->connstr('postgres')],
		'<', \$in, '>', \$out, '2>', \$err);
	$in .= "SELECT 'in';\n";
	$h->pump until $out =~ /in/ || $err ne '';
	die "bob's session $i: $err" unless $out =~ /in/;
	push @bob, { h => $h, in => \$in };
}
# mallory's 5 clients need 6, within her share; 17 - 9 (bob) - 1 (her own
# session) = 7 free, 4 once the headroom of 3 is kept: refused up front,
# by the socket and by the host alike
foreach my $conn ($pw, "conninfo => 'host=$sock password=m-secret'")
{
	my ($ret, $out, $err) = as_mallory("SELECT run_bench(5, 1, 'select-only', $conn)");
	like($err, qr/53300: 5 clients need 6 connections, but only [0-4] (?:is|are) free/,
		"a launch that cannot fit beside another role's sessions is refused with 53300 ($conn)");
	like($err, qr/DETAIL:.*Asked 6 .*free [0-4], limit $limit: .*pgbenchx\.connection_headroom keeps 3 free/s,
		'asked, free and the limit in the DETAIL');
	like($err, qr/HINT:.*pgbenchx\.connection_headroom/, 'the hint names the setting');
}
is(q1("SELECT count(*) FROM pgbenchx.runs WHERE run_id > $share_start") . ' '
	  . q1("SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchx%'"),
	'0 0', 'the refused launches left no run row and started no worker');
# a superuser keeps no headroom and no share, but is refused up front too
# when its clients cannot all connect: 17 - 9 - 1 = 7 free
my $err3 = su_err("SELECT run_bench(7, 1, 'select-only', conninfo => 'host=$sock')");
like($err3, qr/53300: 7 clients need 8 connections, but only [0-7] (?:is|are) free/,
	"a superuser's launch whose clients cannot all connect is refused before it starts");
like($err3, qr/DETAIL:.*Asked 8 .*limit $limit/s, 'with the figures');
is(q1("SELECT count(*) FROM pgbenchx.runs WHERE run_id > $share_start"), '0', 'and leaves no run row');
foreach my $b (@bob)
{
	${ $b->{in} } .= "\\q\n";
	$b->{h}->finish;
}
$node->poll_query_until('postgres', "SELECT count(*) = 0 FROM pg_stat_activity WHERE usename = 'bob'")
  or die "bob's sessions never ended";

# mallory's largest allowed run (7 clients and its coordinator: 8) is on;
# another role still connects, as many times as the headroom
($ret, $out, $err) = as_mallory("SELECT run_bench(7, 60, 'select-only', jobs => 1, checkpoint => false, $pw)");
is($ret, 0, "a run of her whole share starts") or diag($err);
my ($big) = $out =~ /(\d+)/;
run_sampled($node, "run_id = $big") or die 'the run never measured';
my @others;
foreach my $i (1 .. 3)
{
	my ($in, $o, $e) = ('', '', '');
	local $ENV{PGPASSWORD} = 'b-secret';
	my $h = IPC::Run::start(['psql', '-X', '-At', '-U', 'bob', '-d', $node->connstr('postgres')],
		'<', \$in, '>', \$o, '2>', \$e);
	$in .= "SELECT 'in';\n";
	$h->pump until $o =~ /in/ || $e ne '';
	push @others, { h => $h, in => \$in, out => \$o, err => \$e };
}
is(join(',', map { ${ $_->{out} } =~ /in/ ? 'in' : ${ $_->{err} } } @others), 'in,in,in',
	'while it runs, another role opens three connections');
is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $big"), 'running', '(the run was on meanwhile)');
foreach my $b (@others)
{
	${ $b->{in} } .= "\\q\n";
	$b->{h}->finish;
}
q1("SELECT pgbenchx.cancel($big)");
finished('runs', 'run_id', $big);
is(q1("SELECT status || ' ' || clients || ' ' || (transactions > 0)::text FROM pgbenchx.runs WHERE run_id = $big"),
	'cancelled 7 true', 'the run had all its clients (cancelled here to keep the test short)');
ok(nothing_left($node), 'nothing left');

$node->stop;
done_testing();
