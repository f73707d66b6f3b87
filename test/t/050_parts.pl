# A generator's side of a run driven from several servers (issue 14): a
# part launched with pgbenchx.launch_part connects its clients, shows
# 'ready', starts at the moment pgbenchx.part_go names and records like any
# run; two parts' clients are exactly one run's clients (ids and random
# draws); a replay part takes its clients' share of a replay; a go refused,
# late or missing, and a cancel while waiting; the recorder's own server
# runs its part beside its run, without the cluster-wide lock.  One
# cluster: each part's conninfo is the same server.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('parts', scale => 1, conf => "max_worker_processes = 16\n");

sub q1 { return $node->safe_psql('postgres', $_[0]); }

my $part_of = '{"recorder": "elsewhere/bench", "run_id": 77, "generator": 2}';

# launch_part with these options (a JSON object's members, part_of added)
sub launch
{
	my ($members) = @_;
	my $json = "{$members, \"part_of\": $part_of}";
	$json =~ s/'/''/g;
	my ($ret, $id, $err) = $node->psql('postgres', "SELECT pgbenchx.launch_part('$json')");
	die "launch_part failed: $err" if $ret != 0;
	like($err, qr/NOTICE:  run $id: \d+ clients?.*, clients \d+ to \d+ of \d+; it starts at the moment pgbenchx.part_go\($id, \.\.\.\) names; follow it/,
		"launch_part says which clients run $id has and what it waits for");
	return $id;
}

sub ready
{
	my ($id) = @_;
	return $node->poll_query_until('postgres',
		"SELECT phase = 'ready' FROM pgbenchx.progress_state() WHERE run_id = $id");
}

# part_go($id) at $secs from now; returns start_at as text.  The moment is
# read from the server's clock in the statement that sends the go: read by
# an earlier psql call, it could be past by the time the go arrives (psql
# calls take seconds on a loaded machine) and the part fail, late by more
# than the 200 ms allowed
sub go
{
	my ($id, $secs) = @_;
	return q1("SELECT s.t::text FROM (SELECT clock_timestamp() + interval '$secs s' AS t) s "
		  . "CROSS JOIN LATERAL pgbenchx.part_go($id, s.t)");
}

sub wait_run
{
	my ($id) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "CALL pgbenchx.wait($id)");
	is($ret, 0, "wait($id) ends") or diag($err);
}

sub psql_err
{
	my ($sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\n$sql");
	return $err;
}

# --- a part: ready, its go, its moment -------------------------------------------
{
	my $id = launch('"clients": 2, "duration": 2, "tags": {"k": "v"}, '
		  . '"scripts": [{"name": "one", "body": "SELECT 1;", "weight": 1}]');
	ok(ready($id), 'the part shows ready once its clients are connected');
	is(q1("SELECT phase FROM pgbenchx.progress WHERE run_id = $id"), 'ready',
		'the progress view shows the phase ready');
	my $at = go($id, 1);
	wait_run($id);
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'the part completed');
	my $off = q1("SELECT round(abs(extract(epoch FROM started_at - '$at'::timestamptz)) * 1000) FROM pgbenchx.runs WHERE run_id = $id");
	# (the go came 1 s before its moment: within 500 ms is the moment, not the
	# go, however late a loaded machine wakes the part up)
	cmp_ok($off, '<=', 500, "runs.started_at, the start of the measured interval, is within 500 ms of start_at ($off ms)");
	cmp_ok(q1("SELECT count(*) FROM pgbenchx.samples WHERE run_id = $id AND latency_hist IS NOT NULL"), '>=', 2,
		'samples with their histograms, one per second');
	is(q1("SELECT tags->'part_of' = '$part_of'::jsonb AND tags->>'k' = 'v' FROM pgbenchx.runs WHERE run_id = $id"), 't',
		'runs.tags holds part_of beside the caller\'s tags');
	cmp_ok(q1("SELECT conn_time_ms FROM pgbenchx.runs WHERE run_id = $id"), '<', 1000,
		'the wait for the go is not counted as connection time');
	is(q1("SELECT script FROM pgbenchx.runs WHERE run_id = $id"), 'one', 'the inline script\'s name is the run\'s script');
	ok(nothing_left($node), 'nothing left running');
}

# --- two parts are one run's clients: ids and random draws -----------------------
{
	q1("CREATE TABLE drawn (client_id int, r int)");
	my $body = "\\set r random(1, 1000000)\nINSERT INTO drawn VALUES (:client_id, :r);\n";
	(my $jbody = $body) =~ s/\\/\\\\/g;
	$jbody =~ s/\n/\\n/g;
	my @ids;
	for my $first (0, 2)
	{
		my $id = launch('"clients": 2, "transactions": 3, "random_seed": 42, '
			  . "\"first_client\": $first, \"total_clients\": 4, "
			  . "\"scripts\": [{\"name\": \"draw\", \"body\": \"$jbody\"}]");
		ok(ready($id), "part of clients $first.. is ready");
		go($id, 1.5);
		wait_run($id);
		push @ids, $id;
	}
	my $parts = q1("SELECT string_agg(client_id || ':' || r, ',' ORDER BY client_id, r) FROM drawn");
	is(q1("SELECT string_agg(DISTINCT client_id::text, ',' ORDER BY client_id::text) FROM drawn"), '0,1,2,3',
		'the two parts ran clients 0 to 3');
	q1("TRUNCATE drawn");
	q1("SELECT pgbenchx.add_script('draw', E'" . ($body =~ s/\\/\\\\/gr =~ s/\n/\\n/gr) . "')");
	my $local = q1("SET client_min_messages = warning; SELECT run_bench(4, transactions => 3, script => 'draw', random_seed => 42, vacuum => false, checkpoint => false)");
	wait_run($local);
	is($parts, q1("SELECT string_agg(client_id || ':' || r, ',' ORDER BY client_id, r) FROM drawn"),
		'the same clients and the same random draws as one local run of 4 clients');
	is(q1("SELECT sum(transactions) FROM pgbenchx.runs WHERE run_id IN ($ids[0], $ids[1])"), '12',
		'each part counted its own clients\' transactions');
}

# --- two parts of one job each do not choose their scripts alike ------------------
{
	q1("CREATE TABLE chosen (seq serial, client_id int, s text)");
	for my $first (0, 1)
	{
		my $id = launch("\"clients\": 1, \"jobs\": 1, \"transactions\": 24, \"random_seed\": 5, "
			  . "\"first_client\": $first, \"total_clients\": 2, \"scripts\": ["
			  . "{\"name\": \"a\", \"body\": \"INSERT INTO chosen (client_id, s) VALUES (:client_id, 'a');\"}, "
			  . "{\"name\": \"b\", \"body\": \"INSERT INTO chosen (client_id, s) VALUES (:client_id, 'b');\"}]");
		ok(ready($id), "mixed part of client $first is ready");
		go($id, 1.5);
		wait_run($id);
	}
	my @seq = split /\n/, q1("SELECT string_agg(s, '' ORDER BY seq) FROM chosen GROUP BY client_id ORDER BY client_id");
	is(scalar(@seq), 2, 'both parts ran their client');
	isnt($seq[0], $seq[1], 'the two parts\' drivers draw their scripts from different streams');
}

# --- a replay part: its clients' share of a local replay -------------------------
{
	q1("CREATE TABLE replayed (seq serial, client_id int, k int)");
	my $list = join('', map { "INSERT INTO replayed (client_id, k) VALUES (:client_id, $_);\n" } 1 .. 5);
	(my $jlist = $list) =~ s/\n/\\n/g;
	for my $first (0, 2)
	{
		my $id = launch("\"clients\": 2, \"random_seed\": 7, \"shuffle\": true, \"first_client\": $first, "
			  . "\"total_clients\": 4, \"replay_queries\": \"$jlist\"");
		ok(ready($id), "replay part of clients $first.. is ready");
		go($id, 1.5);
		wait_run($id);
		is(q1("SELECT transactions || ' ' || replay FROM pgbenchx.runs WHERE run_id = $id"), '10 true',
			'a replay part runs the list once per client of its share');
	}
	my $order = "SELECT string_agg(o, ' ' ORDER BY client_id) FROM (SELECT client_id, string_agg(k::text, '' ORDER BY seq) AS o FROM replayed GROUP BY client_id) x";
	my $parts = q1($order);
	q1("TRUNCATE replayed");
	my $local = q1("SET client_min_messages = warning; SELECT run_replay(E'" . ($list =~ s/\n/\\n/gr) . "', 4, 4, shuffle => true, random_seed => 7)");
	wait_run($local);
	is($parts, q1($order), 'each client replays in the order it has in a local shuffled replay of 4 clients');
	unlike($parts, qr/^12345 12345 12345 12345$/, 'the orders are shuffled');
}

# --- part_go's refusals ------------------------------------------------------------
{
	my $done = q1("SELECT max(run_id) FROM pgbenchx.runs WHERE tags ? 'part_of'");
	like(psql_err("SELECT pgbenchx.part_go($done, clock_timestamp())"),
		qr/55000: run $done is not a part waiting for its start.*DETAIL:  Run $done is completed/s,
		'part_go on a finished part: 55000, naming its state');
	my $plain = q1("SELECT max(run_id) FROM pgbenchx.runs WHERE NOT coalesce(tags ? 'part_of', false)");
	like(psql_err("SELECT pgbenchx.part_go($plain, clock_timestamp())"),
		qr/55000: run $plain is not a part waiting for its start.*not a part/s,
		'part_go on a run that is not a part: 55000');
	like(psql_err("SELECT pgbenchx.part_go(NULL, clock_timestamp())"), qr/22004: argument "run_id" must not be null/,
		'part_go(NULL, ...): 22004');

	q1("CREATE ROLE other LOGIN; SELECT pgbenchx.grant_runner('other')");
	my $id = launch('"clients": 1, "duration": 1, "script": "select-only"');
	ok(ready($id), 'a superuser\'s part is ready');
	like(psql_err("SET ROLE other; SELECT pgbenchx.part_go($id, clock_timestamp() + interval '0.2 s')"),
		qr/42501: permission denied to start run $id of role/, 'part_go by another role: 42501');
	like(psql_err("SELECT pgbenchx.part_go($id, clock_timestamp() + interval '2 h')"),
		qr/22023: start_at must be within 3600 s from now/, 'a moment too far ahead is refused');
	is(q1("SELECT phase FROM pgbenchx.progress_state() WHERE run_id = $id"), 'ready', 'the refusals changed nothing');
	go($id, 1.5);
	like(psql_err("SELECT pgbenchx.part_go($id, clock_timestamp())"),
		qr/55000: run $id is not a part waiting for its start/, 'a second go is refused');
	wait_run($id);
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'the part ran after the refusals');
}

# --- a late go, no go, a cancel while waiting ---------------------------------------
{
	my $id = launch('"clients": 1, "duration": 1, "script": "select-only"');
	ok(ready($id), 'ready');
	q1("SELECT pgbenchx.part_go($id, clock_timestamp() - interval '1 s')");
	wait_run($id);
	like(q1("SELECT status || ': ' || error FROM pgbenchx.runs WHERE run_id = $id"),
		qr/^failed: the start came \d+ ms after its moment, more than the 200 ms allowed$/,
		'a go 1 s late fails the part, saying by how much');

	$id = launch('"clients": 1, "duration": 1, "script": "select-only", "go_timeout_s": 1');
	wait_run($id);
	is(q1("SELECT status || ': ' || error FROM pgbenchx.runs WHERE run_id = $id"),
		'failed: no start came from the recorder within 1 s', 'no go within go_timeout_s fails the part');
	# by the server's clock, from the launch to the end (the default go_timeout_s is 60)
	my $took = q1("SELECT round(extract(epoch FROM finished_at - started_at)::numeric, 3) FROM pgbenchx.runs WHERE run_id = $id");
	ok($took =~ /^[0-9.]+$/ && $took < 15, "and it does not wait longer ($took s)");

	$id = launch('"clients": 1, "duration": 1, "script": "select-only"');
	ok(ready($id), 'ready');
	my $pid = q1("SELECT coordinator_pid FROM pgbenchx.runs WHERE run_id = $id");
	q1("SELECT pg_terminate_backend($pid)");
	wait_run($id);
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'aborted', 'a terminate while waiting for the go: aborted');
	ok(nothing_left($node), 'nothing left running');

	$id = launch('"clients": 2, "duration": 1, "script": "select-only"');
	ok(ready($id), 'ready');
	# by the server's clock (the cancel's moment against finished_at)
	my ($signalled, $t_cancel) = signal_at($node, "pgbenchx.cancel($id)");
	is($signalled, 't', 'cancel signals the waiting part');
	wait_run($id);
	my $elapsed = finished_since($node, "run_id = $id", $t_cancel);
	ok($elapsed =~ /^-?[0-9]+(\.[0-9]+)?$/ && $elapsed < 5, "a cancel while waiting for the go ends it promptly ($elapsed s)");
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'cancelled', 'cancelled');
	ok(nothing_left($node), 'nothing left running');
}

# --- the recorder's own server: its part runs beside its run ------------------------
{
	my $me = q1("SELECT system_identifier || '/postgres' FROM pg_control_system()");
	# the recorder's run reads a table of its own, locked until its part has
	# run: it is on for all the checks below however slow a loaded machine
	# makes them, and completes after the unlock
	q1("CREATE TABLE recorder_hold (x int)");
	q1("SELECT pgbenchx.add_script('recorder-hold', 'SELECT count(*) FROM recorder_hold;')");
	my $lock = lock_session($node, 'recorder_hold');
	my $run = q1("SET client_min_messages = warning; SELECT run_bench(1, 1, 'recorder-hold', vacuum => false, checkpoint => false)");
	ok($node->poll_query_until('postgres', "SELECT count(*) = 1 FROM pgbenchx.progress_state() WHERE run_id = $run"),
		'the recorder\'s run is in progress');
	my $saved = $part_of;
	$part_of = "{\"recorder\": \"$me\", \"run_id\": " . ($run + 1000) . ", \"generator\": 1}";
	like(psql_err("SELECT pgbenchx.launch_part('{\"clients\": 1, \"duration\": 1, \"script\": \"select-only\", \"part_of\": $part_of}')"),
		qr/55006: a pgbenchx run is already in progress/, 'a part of another run waits for no lock: it is refused');
	$part_of = "{\"recorder\": \"$me\", \"run_id\": $run, \"generator\": 1}";
	# another role's part naming this run: a recorder logs in as its run's role
	q1("CREATE ROLE other_su SUPERUSER LOGIN");
	like(psql_err("SET ROLE other_su; SELECT pgbenchx.launch_part('{\"clients\": 1, \"duration\": 1, \"script\": \"select-only\", \"part_of\": $part_of}')"),
		qr/55006: a pgbenchx run is already in progress/, 'a part of another role naming the run does not run beside it: refused');
	my $id = launch('"clients": 1, "duration": 1, "script": "select-only"');
	ok(ready($id), 'the recorder\'s own part is ready beside its run');
	is(q1("SELECT count(*) FROM pgbenchx.progress_state()"), '2', 'progress_state shows both');
	like(psql_err("SELECT pgbenchx.launch_part('{\"clients\": 1, \"duration\": 1, \"script\": \"select-only\", \"part_of\": $part_of}')"),
		qr/55006: a pgbenchx run is already in progress/, 'only one part runs beside the run');
	go($id, 1);
	wait_run($id);
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'the part completed');
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $run"), 'running', 'while the recorder\'s run went on');
	like(q1("SELECT array_to_string(system_notes, ' ') FROM pgbenchx.runs WHERE run_id = $id"),
		qr/another run \(the recorder's, whose part this is\) measured on this server at the same time/,
		'its system figures say they are shared with the recorder\'s run');
	unlock_session($lock);
	wait_run($run);
	is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $run"), 'completed', 'and completed');
	ok(nothing_left($node), 'nothing left running');
	$part_of = $saved;
}

# --- a built-in's own text sent inline keeps its :scale -------------------------------
{
	q1("SET client_min_messages = warning; SELECT pgbench_init(2)");
	my $id = q1("SET client_min_messages = warning; SELECT pgbenchx.launch_part(jsonb_build_object("
		  . "'clients', 1, 'transactions', 200, 'random_seed', 3, 'part_of', '$part_of'::jsonb, "
		  . "'scripts', jsonb_build_array(jsonb_build_object('name', 'tpcb-like', 'body', pgbenchx.script_text('tpcb-like')))))");
	ok(ready($id), 'the inline tpcb-like part is ready');
	go($id, 1.5);
	wait_run($id);
	is(q1("SELECT max(bid) FROM pgbench_history"), '2',
		'the built-in tpcb-like sent as its text draws branches over the scale of pgbench_branches (2), not 1');
}

$node->stop;
done_testing();
