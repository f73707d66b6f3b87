# Issue 23 §3: run_experiment alternates configurations at each client
# count.  The runs come in balanced order (warm-ups in order, then ABBA),
# the warm-ups are stored and flagged and experiment_report does not count
# them; each configuration's session settings are really applied in its
# clients' sessions (a script records current_setting into a table) and its
# dbname really sends the clients to that database; bad configurations are
# refused before anything starts and change nothing (not even the caller's
# own setting); a granted runner cannot set a superuser's setting, nor run
# a configuration whose database has another role's code in its way; a
# cancel ends the experiment cancelled.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('experiments', scale => 1,
	conf => "password_encryption = 'scram-sha-256'\n");
my $su = $node->safe_psql('postgres', 'SELECT current_user');

sub q1 { return $node->safe_psql('postgres', $_[0]); }
sub qo { return $node->safe_psql('other', $_[0]); }
sub wait_for { q1("SET client_min_messages = warning; CALL pgbenchx.wait($_[0])"); }

# a second database, with a table each configuration's clients write into
q1("CREATE DATABASE other");
qo("CREATE EXTENSION pgbenchx");
# other's pgbench tables in a tablespace of their own (on a real machine,
# another file system): experiment_report shows where each configuration's were
my $tsdir = $node->basedir . '/ts_other';
mkdir $tsdir or die "mkdir $tsdir: $!";
q1("CREATE TABLESPACE ts_other LOCATION '$tsdir'");
qo("SET client_min_messages = warning; SELECT pgbench_init(1, tablespace => 'ts_other')");
for my $db ('postgres', 'other')
{
	$node->safe_psql($db, "CREATE TABLE seen (work_mem text, db text, jit text)");
}
q1("SELECT pgbenchx.add_script('see', \$s\$INSERT INTO seen VALUES (current_setting('work_mem'), current_database(), current_setting('jit'));\n\$s\$)");

# --- order, warm-ups, settings and dbname ----------------------------------
my $configs = '[{"name": "base"}, {"name": "tuned", "dbname": "other", '
  . '"settings": {"work_mem": "7MB", "jit": false}}]';
my $e = q1("SET client_min_messages = warning; SELECT run_experiment('$configs', 1, 1, "
	  . "transactions => 20, repeats => 2, warmup => 1, script => 'see', vacuum => false, checkpoint => false)");
like($e, qr/^\d+$/, 'run_experiment returns an id');
wait_for($e);
is(q1("SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $e"), 'completed', 'the experiment completed');
is(q1("SELECT string_agg(config::text, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $e"),
	'1,2,1,2,2,1', 'warm-ups in order, then the counted runs in ABBA order');
is(q1("SELECT string_agg(warmup::text, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $e"),
	'true,true,false,false,false,false', 'the warm-ups are flagged');
is(q1("SELECT string_agg(status, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $e"),
	join(',', ('completed') x 6), 'every run completed');
is(q1("SELECT clients::text || ' ' || warmup || ' ' || repeats || ' ' || (configs -> 1 ->> 'name') "
	  . "|| ' ' || (configs -> 1 -> 'settings' ->> 'work_mem') FROM pgbenchx.sweeps WHERE sweep_id = $e"),
	'{1} 1 2 tuned 7MB', 'sweeps records the client counts, warm-ups, repeats and configurations');
is(q1("SELECT count(*) || ' ' || count(DISTINCT work_mem) || ' ' || min(work_mem) || ' ' || min(db) FROM seen"),
	'60 1 4MB postgres', "the baseline's clients ran in postgres with the default work_mem");
is(qo("SELECT count(*) || ' ' || count(DISTINCT work_mem) || ' ' || min(work_mem) || ' ' || min(jit) FROM seen"),
	'60 1 7MB off', "the tuned configuration's clients ran in other with work_mem 7MB and jit off");
like(q1("SELECT conninfo FROM pgbenchx.runs WHERE sweep_id = $e AND config = 2 LIMIT 1"),
	qr/dbname='?other/, "the tuned runs record their dbname");

my $report = q1("SELECT string_agg(concat_ws(' ', clients, config, name, runs, warmups, median_tps > 0, "
	  . "tps_ci_low <= tps_ci_high, ratio > 0, significant IS NOT NULL, method, sets -> 'settings' ->> 'work_mem'), "
	  . "E'\\n' ORDER BY config) FROM pgbenchx.experiment_report($e)");
# 2 ABBA pairs: a ratio and an unadjusted interval, but no test (issue 35:
# significance needs 4 pairs or more), and method says why
like($report, qr/^1 1 base 2 1 t t t f baseline\n1 2 tuned 2 1 t t t f not tested: 2 ABBA pairs, 4 or more are needed \(repeats => 4 or more\); the unadjusted interval is a paired t on log tps \(1 degree of freedom\) 7MB$/,
	'experiment_report: per configuration, the counted runs, interval, ratio to the baseline and what it sets');
is(q1("SELECT string_agg(config || ':' || coalesce(environment ->> 'tablespace', 'default'), ',' ORDER BY config) "
	  . "FROM pgbenchx.experiment_report($e)"), '1:default,2:ts_other',
	"experiment_report names the tablespace of each configuration's tables");
my $rep = q1("SELECT pgbenchx.report($e)");
like($rep, qr/^experiment $e: see, completed, 2 configurations, 1 warm-up each \(not counted\)\n\s*clients\s+configuration\s+runs/,
	'report (and so wait) shows an experiment by configuration');
like($rep, qr/^\s+1  base\s+2 .*baseline\n\s+1  tuned\s+2 /m, 'one line per client count and configuration, counted runs only');
my $svg = q1("SELECT pgbenchx.chart_sweeps(ARRAY[$e])");
is(join(',', $svg =~ /<polyline class="sweep" data-sweep-id="$e" data-config="(\d)"/g), '1,2',
	'chart_sweeps draws an experiment as one line per configuration');
like($svg, qr/>base<tspan[^>]*> \(experiment $e, configuration 1: peak.*>tuned<tspan[^>]*> \(experiment $e, configuration 2: peak/s,
	'each line is named by its configuration in the legend');
is(() = $svg =~ /median of 2 runs/g, 2, 'the warm-ups are not drawn: each point is the median of the 2 counted runs');
# export and import keep an experiment: its configurations, each run's and the warm-ups
my $imp = q1("SELECT (pgbenchx.import(pgbenchx.export(ARRAY[$e])))[1]");
is(q1("SELECT (SELECT configs FROM pgbenchx.sweeps WHERE sweep_id = $imp) = (SELECT configs FROM pgbenchx.sweeps WHERE sweep_id = $e)"),
	't', 'an imported experiment keeps its configurations');
is(q1("SELECT string_agg(config || ':' || warmup, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $imp"),
	'1:true,2:true,1:false,2:false,2:false,1:false', "and each run's configuration and warm-up flag");
is(q1("SELECT count(*) FROM pgbenchx.experiment_report($imp)"), '2', 'experiment_report reads the imported one');
# a document of 0.4 has no warmup: its runs are not warm-ups
# (from another database, so that it is not the one imported above)
my $old = q1("WITH d AS (SELECT jsonb_set(pgbenchx.export(ARRAY[$e]), '{provenance,database}', '\"elsewhere\"') AS doc) "
	  . "SELECT (pgbenchx.import(jsonb_set(doc, '{runs}', "
	  . "(SELECT jsonb_agg(r - 'warmup' - 'config') FROM jsonb_array_elements(doc->'runs') r))))[1] FROM d");
isnt($old, $imp, 'the document from elsewhere is imported anew');
is(q1("SELECT count(*) FILTER (WHERE NOT warmup) FROM pgbenchx.runs WHERE sweep_id = $old"), '6',
	'runs of a document without warmup import as counted runs');
my ($ret, $out, $err) = $node->psql('postgres', "WITH d AS (SELECT pgbenchx.export(ARRAY[$e]) AS doc) "
	  . "SELECT pgbenchx.import(jsonb_set(doc, '{sweeps,0,configs}', '[{\"name\": \"only\"}]')) FROM d");
like($err, qr/"configs" or "stopped_by" of element 1 of "sweeps" in the import document is not one an experiment records/,
	'import refuses configurations an experiment cannot have');
($ret, $out, $err) = $node->psql('postgres', "SELECT * FROM pgbenchx.experiment_report(" . ($e + 1000000) . ")");
like($err, qr/no experiment has id/, 'experiment_report refuses an unknown id');

# --- bad input: refused before anything starts, nothing changed -------------
my $before = q1("SELECT (SELECT count(*) FROM pgbenchx.sweeps) || ' ' || (SELECT count(*) FROM pgbenchx.runs)");
my @bad = (
	[ '[{"name": "a"}]', qr/an experiment has 2 to 8 configurations, not 1/, 'one configuration' ],
	[ '[' . join(',', map { "{\"name\": \"c$_\"}" } 1 .. 9) . ']', qr/2 to 8 configurations, not 9/, 'nine configurations' ],
	[ '{"name": "a"}', qr/configs must be a jsonb array/, 'not an array' ],
	[ '[{"name": "a"}, {"name": "a"}]', qr/configurations 1 and 2 have the same name/, 'the same name twice' ],
	[ '[{"name": "a"}, {}]', qr/configuration 2 needs a name/, 'no name' ],
	[ '[{"name": "a"}, {"name": "b", "colour": "red"}]', qr/configuration 2 has no member "colour"/, 'an unknown member' ],
	[ '[{"name": "a"}, {"name": "b", "settings": {"no_such_setting": "1"}}]',
		qr/unrecognized configuration parameter "no_such_setting"/, 'an unknown setting' ],
	[ '[{"name": "a"}, {"name": "b", "settings": {"no_such.module_setting": "1"}}]',
		qr/unrecognized configuration parameter "no_such.module_setting"/, 'a setting of no module' ],
	[ '[{"name": "a"}, {"name": "b", "settings": {"work_mem": "lots"}}]',
		qr/invalid value for parameter "work_mem"/, 'a bad value' ],
	[ '[{"name": "a"}, {"name": "b", "settings": {"shared_buffers": "1GB"}}]',
		qr/parameter "shared_buffers" cannot be changed/, 'a setting that needs a restart' ],
	[ '[{"name": "a"}, {"name": "b", "settings": {"search_path": "evil"}}]',
		qr/setting "search_path" cannot be a configuration's session setting/, 'search_path' ],
	[ '[{"name": "a"}, {"name": "b", "settings": ["work_mem"]}]', qr/"settings" must be an object/, 'settings not an object' ],
	[ '[{"name": "a"}, {"name": "b", "protocol": "smoke"}]', qr/invalid protocol "smoke"/, 'a bad protocol' ],
	[ '[{"name": "a"}, {"name": "b", "server": {"shared_buffers": "1GB"}}]',
		qr/parameter "shared_buffers" cannot be changed without restarting the server.*Settings that need a restart/s,
		'a server setting that needs a restart' ],
	[ '[{"name": "a"}, {"name": "b", "server": {"work_mem": "lots"}}]', qr/invalid value for parameter "work_mem"/,
		'a bad server value' ],
	[ '[{"name": "a"}, {"name": "b", "server": {"no_such_setting": "1"}}]',
		qr/server setting: unrecognized configuration parameter "no_such_setting"/, 'an unknown server setting' ],
	[ '[{"name": "a"}, {"name": "b", "dbname": "nowhere"}]', qr/nowhere/, 'a database that does not exist' ],
	# a configuration's script is refused as run_bench's, saying which configuration
	[ '[{"name": "a"}, {"name": "b", "script": "no_such_script"}]',
		qr/no script named "no_such_script".*configuration 2 of run_experiment/s, 'an unknown script' ],
	[ '[{"name": "a"}, {"name": "b", "script": "see@x"}]', qr/configuration 2 of run_experiment/, 'a bad weight' ],
	[ '[{"name": "a"}, {"name": "b", "script": 5}]', qr/configuration 2: "script" must be a string/, 'a script not a string' ],
	[ '[{"name": "a"}, {"name": "b", "rate": 0}]', qr/configuration 2: invalid rate limit: 0/, 'a rate of 0' ],
	[ '[{"name": "a"}, {"name": "b", "rate": "fast"}]', qr/configuration 2: "rate" must be a number/, 'a rate not a number' ],
	[ '[{"name": "a"}, {"name": "b", "latency_limit": -1}]', qr/configuration 2: invalid latency limit: -1/,
		'a negative latency limit' ],
	# the experiment's own options: said so, with what a configuration may set
	[ '[{"name": "a"}, {"name": "b", "duration": 5}]',
		qr/configuration 2 cannot set "duration".*the same for every configuration.*may have name, conninfo, dbname, protocol, script, jobs, rate, latency_limit, settings and server/s,
		'an option of the whole experiment' ],
	[ '[{"name": "a", "max_tries": 2}, {"name": "b"}]', qr/configuration 1 cannot set "max_tries"/, 'max_tries' ],
	[ '[{"name": "a", "jobs": 0}, {"name": "b"}]', qr/configuration 1: jobs must be at least 1, not 0/, 'jobs 0' ],
	[ '[{"name": "a", "jobs": 1.5}, {"name": "b"}]', qr/configuration 1: "jobs" must be an integer/, 'jobs not an integer' ],
);
for my $b (@bad)
{
	my ($cfg, $re, $what) = @$b;
	($ret, $out, $err) = $node->psql('postgres',
		"SET work_mem = '3MB'; SELECT run_experiment('$cfg', 1, 1, transactions => 5, script => 'see', "
		  . "vacuum => false, checkpoint => false); SHOW work_mem;",
		extra_params => [ '-v', 'ON_ERROR_STOP=0' ]);
	like($err, $re, "refused: $what");
	is($out, '3MB', "the caller's own work_mem is unchanged ($what)");
}
($ret, $out, $err) = $node->psql('postgres',
	"SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\"}]', 1, 1, transactions => 5, repeats => 200, script => 'see')");
like($err, qr/an experiment has at most 256 runs/, 'refused: too many runs');
($ret, $out, $err) = $node->psql('postgres',
	"SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\", \"settings\": {\"work_mem\": \"5MB\"}}]', 1, 1, "
	  . "transactions => 5, script => 'see', connect_per_transaction => true)");
like($err, qr/session settings cannot be used with connect_per_transaction/, 'refused: settings with -C');
($ret, $out, $err) = $node->psql('postgres',
	"SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\"}]', 1, 1, duration => 1, target_ci => 0.02)");
like($err, qr/target_ci and budget go together/, 'refused: target_ci without a budget');
($ret, $out, $err) = $node->psql('postgres',
	"SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\"}]', 1, 1, duration => 1, target_ci => 2, budget => 10)");
like($err, qr/target_ci must be between 0 and 1, not 2/, 'refused: target_ci out of range');
($ret, $out, $err) = $node->psql('postgres',
	"SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\"}]', 1, 1, transactions => 5, target_ci => 0.1, budget => 10)");
like($err, qr/target_ci needs a duration/, 'refused: target_ci with transactions');
# the configurations' own scripts are bounded together: a 1 MB statement
# five times in each of two configurations' mixes (its text and its first
# line each time) is above 8 MB
q1("SELECT pgbenchx.add_script('big', 'SELECT ''' || repeat('x', 1048576) || ''';')");
($ret, $out, $err) = $node->psql('postgres',
	"SELECT run_experiment('[{\"name\": \"a\", \"script\": \"big, big, big, big, big\"}, "
	  . "{\"name\": \"b\", \"script\": \"big, big, big, big, big\"}]', 1, 1, transactions => 1, "
	  . "vacuum => false, checkpoint => false)");
like($err, qr/the configurations' scripts are too long/, "refused: the configurations' scripts above 8 MB");
is(q1("SELECT (SELECT count(*) FROM pgbenchx.sweeps) || ' ' || (SELECT count(*) FROM pgbenchx.runs)"),
	$before, 'no refused experiment left a sweep or a run');

# --- per-configuration scripts and options ------------------------------------
# the issue's known effect, a script that sleeps twice as long as the other,
# each configuration its own: B/A is about 0.5 and significant (4 ABBA
# pairs, the fewest that are tested, issue 35).  10 ms
# against 20 ms, not 1 against 2: on a loaded machine a 1 ms sleep overshoots
# by a good part of itself and 3 runs a side could not tell them apart (a CI
# run saw that); the bounds are loose: the machine is shared and noisy
q1("SELECT pgbenchx.add_script('nap10', \$s\$\\sleep 10 ms\n\$s\$)");
q1("SELECT pgbenchx.add_script('nap20', \$s\$\\sleep 20 ms\n\$s\$)");
my $ab = q1("SET client_min_messages = warning; SELECT run_experiment('[{\"name\": \"one\", \"script\": \"nap10\"}, "
	  . "{\"name\": \"two\", \"script\": \"nap20\"}]', 1, 1, duration => 2, repeats => 4, warmup => 0, "
	  . "vacuum => false, checkpoint => false)");
wait_for($ab);
is(q1("SELECT status || ' ' || script FROM pgbenchx.sweeps WHERE sweep_id = $ab"), 'completed nap10 | nap20',
	'the A/B experiment completed; sweeps.script names both mixes');
is(q1("SELECT string_agg(config || ':' || script, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $ab"),
	'1:nap10,2:nap20,2:nap20,1:nap10,1:nap10,2:nap20,2:nap20,1:nap10', "each run records its configuration's script");
my ($ratio, $sig, $sets) = split /\|/, q1("SELECT round(ratio::numeric, 3) || '|' || significant || '|' || (sets ->> 'script') "
	  . "FROM pgbenchx.experiment_report($ab) WHERE config = 2");
ok($ratio > 0.35 && $ratio < 0.7, "sleeping 20 ms against 10 ms: the ratio is near 0.5 ($ratio)");
is($sig, 'true', 'and significant');
is($sets, 'nap20', 'experiment_report shows the script the configuration sets');
# statement statistics are each run's own script's
is(q1("SELECT string_agg(DISTINCT r.config || ':' || s.script, ',') FROM pgbenchx.runs r "
	  . "JOIN pgbenchx.statement_stats s USING (run_id) WHERE r.sweep_id = $ab"), '1:nap10,2:nap20',
	"each run's statement statistics are its configuration's script's");

# jobs, rate and latency_limit per configuration: each run has its own
# (runs.jobs, runs.rate, runs.latency_limit_ms), and the throttled one stays
# near its rate
my $rl = q1("SET client_min_messages = warning; SELECT run_experiment('[{\"name\": \"slow\", \"rate\": 20, \"jobs\": 1}, "
	  . "{\"name\": \"free\", \"latency_limit\": 500, \"jobs\": 2}]', 2, 2, duration => 1, repeats => 1, warmup => 0, "
	  . "script => 'select-only', vacuum => false, checkpoint => false)");
wait_for($rl);
is(q1("SELECT string_agg(concat_ws(':', config, jobs, coalesce(rate::text, '-'), coalesce(latency_limit_ms::text, '-')), ',' "
	  . "ORDER BY config) FROM pgbenchx.runs WHERE sweep_id = $rl"), '1:1:20:-,2:2:-:500',
	"each configuration's runs record its jobs, rate and latency limit");
ok(q1("SELECT tps < 60 FROM pgbenchx.runs WHERE sweep_id = $rl AND config = 1") eq 't',
	'the configuration with rate 20 was throttled');
is(q1("SELECT concat_ws(' ', configs -> 0 ->> 'rate', configs -> 0 ->> 'jobs', configs -> 1 ->> 'latency_limit') "
	  . "FROM pgbenchx.sweeps WHERE sweep_id = $rl"), '20 1 500', 'sweeps.configs records them');

# --- target_ci: blocks added until the intervals are narrow, or the budget ends --
# a target no run reaches: the planned A B B A (about 6 s) leaves budget, so
# blocks are added, the alternation continued, until 12 s have passed
my $t1 = q1("SET client_min_messages = warning; SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\"}]', 1, 1, "
	  . "duration => 1, repeats => 2, warmup => 0, script => 'select-only', vacuum => false, checkpoint => false, "
	  . "target_ci => 0.000001, budget => 12)");
wait_for($t1);
is(q1("SELECT status || ' ' || stopped_by FROM pgbenchx.sweeps WHERE sweep_id = $t1"), 'completed budget',
	'an unreachable target: the budget ended it');
my $order = q1("SELECT string_agg(config::text, '' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $t1");
like($order, qr/^1221(1221)+$/, "blocks were added after the planned runs, still ABBA ($order)");
# a target every ratio reaches at once (sleeps of 10 ms: steady tps; +-50%)
q1("SELECT pgbenchx.add_script('sleep10', \$s\$\\sleep 10 ms\nSELECT 1;\n\$s\$)");
my $t2 = q1("SET client_min_messages = warning; SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\"}]', 1, 1, "
	  . "duration => 1, repeats => 4, warmup => 0, script => 'sleep10', vacuum => false, checkpoint => false, "
	  . "target_ci => 0.5, budget => 60)");
wait_for($t2);
is(q1("SELECT status || ' ' || stopped_by || ' ' || (SELECT count(*) FROM pgbenchx.runs r WHERE r.sweep_id = s.sweep_id) "
	  . "FROM pgbenchx.sweeps s WHERE sweep_id = $t2"), 'completed target 8',
	'a target reached with the planned runs: nothing added, and sweeps says so');
# issue 35: stopped on its intervals, they are at 97% (optional stopping)
is(q1("SELECT pairs || ' ' || (position('97% intervals and tests, since target_ci' in method) > 0) || ' ' "
	  . "|| (position('(97% interval' in conclusion) > 0) FROM pgbenchx.experiment_report($t2) WHERE config = 2"),
	'4 true true', 'an experiment with target_ci: 4 pairs, its method and conclusion say 97%');

# --- server settings (a superuser's): applied per configuration, restored ------
# postgresql.auto.conf has work_mem 5MB before: the baseline's clients get
# it, the other configuration's 6MB, and 5MB is back after
q1("ALTER SYSTEM SET work_mem = '5MB'; SELECT pg_reload_conf()");
sub auto_conf
{
	return q1("SELECT coalesce(string_agg(setting, ','), 'none') FROM pg_file_settings "
		  . "WHERE name = 'work_mem' AND sourcefile LIKE '%postgresql.auto.conf'");
}
q1("TRUNCATE seen");
my $s1 = q1("SET client_min_messages = warning; SELECT run_experiment('[{\"name\": \"base\"}, "
	  . "{\"name\": \"big\", \"server\": {\"work_mem\": \"6MB\"}}]', 1, 1, transactions => 10, repeats => 2, "
	  . "warmup => 0, script => 'see', vacuum => false, checkpoint => false)");
wait_for($s1);
is(q1("SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $s1"), 'completed', 'the experiment with server settings completed');
is(q1("SELECT string_agg(work_mem || ':' || n, ',' ORDER BY work_mem) FROM (SELECT work_mem, count(*) n FROM seen GROUP BY 1) x"),
	'5MB:20,6MB:20', "each configuration's clients had its server setting (ALTER SYSTEM and a reload, ABBA)");
is(auto_conf(), '5MB', 'postgresql.auto.conf has its own work_mem again');
is(q1("SELECT sets -> 'server' ->> 'work_mem' FROM pgbenchx.experiment_report($s1) WHERE config = 2"), '6MB',
	'experiment_report shows the server setting');

# cancelled by pgbenchx.cancel, by pg_cancel_backend of the coordinator,
# terminated, and failed by an error of a later step: restored each time
q1("CREATE TABLE t2 (v int); CREATE ROLE other_owner; SELECT pgbenchx.add_script('t2', 'INSERT INTO t2 VALUES (1);')");
for my $how ('cancel', 'pg_cancel_backend', 'pg_terminate_backend', 'error')
{
	my $x = q1("SET client_min_messages = warning; SELECT run_experiment('[{\"name\": \"big\", "
		  . "\"server\": {\"work_mem\": \"6MB\"}}, {\"name\": \"base\"}]', 1, 1, duration => "
		  . ($how eq 'error' ? 10 : 30) . ", repeats => 2, warmup => 0, script => 't2', vacuum => false, checkpoint => false)");
	ok(run_sampled($node, "sweep_id = $x"), "$how: the experiment measures");
	is(auto_conf(), '6MB', "$how: the first configuration's setting is written");
	if ($how eq 'cancel')
	{
		q1("SELECT pgbenchx.cancel($x)");
	}
	elsif ($how eq 'pg_cancel_backend')
	{
		q1("SELECT pg_cancel_backend(coordinator_pid) FROM pgbenchx.sweeps WHERE sweep_id = $x");
	}
	elsif ($how eq 'pg_terminate_backend')
	{
		q1("SELECT pg_terminate_backend(coordinator_pid) FROM pgbenchx.sweeps WHERE sweep_id = $x");
	}
	else
	{
		# the next step's trust check refuses: another role owns the table now
		q1("ALTER TABLE t2 OWNER TO other_owner");
	}
	wait_for($x);
	# a cancel of the coordinator's statement is an error of the coordinator: failed, saying so
	my %end = (cancel => qr/^cancelled /, pg_cancel_backend => qr/^failed .*cancel/,
		pg_terminate_backend => qr/^aborted .*terminated/, error => qr/^failed .*other_owner/);
	like(q1("SELECT status || ' ' || coalesce(error, '') FROM pgbenchx.sweeps WHERE sweep_id = $x"), $end{$how},
		"$how: the experiment ended as it should, saying why");
	ok($node->poll_query_until('postgres', "SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchx coord%'"),
		"$how: the coordinator is gone");
	is(auto_conf(), '5MB', "$how: postgresql.auto.conf has its own work_mem again");
	q1("ALTER TABLE t2 OWNER TO $su") if $how eq 'error';
}
q1("ALTER SYSTEM RESET work_mem; SELECT pg_reload_conf()");

# --- a granted runner --------------------------------------------------------
q1("CREATE ROLE runner LOGIN PASSWORD 'r-secret'; CREATE ROLE mallory; SELECT pgbenchx.grant_runner('runner');");
# another role's trigger on the table a script writes: in postgres, where the
# trust check applies (in another database it does not: docs/security.md,
# "Not covered"), and the runner's own table in other
q1(q{GRANT INSERT ON seen TO runner;
	CREATE TABLE trap (v int);
	CREATE FUNCTION mallory_fn() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END';
	CREATE TRIGGER t BEFORE INSERT ON trap FOR EACH ROW EXECUTE FUNCTION mallory_fn();
	ALTER TABLE trap OWNER TO mallory; ALTER FUNCTION mallory_fn() OWNER TO mallory;
	GRANT INSERT ON trap TO runner});
qo("SELECT pgbenchx.grant_runner('runner')");
qo("CREATE TABLE trap (v int); ALTER TABLE trap OWNER TO runner; GRANT INSERT ON seen TO runner");
my $hba = $node->data_dir . '/pg_hba.conf';
open(my $fh, '>', $hba) or die;
print $fh "local all $su trust\n";
print $fh "local all all scram-sha-256\n";
close $fh;
$node->reload;

sub as_runner
{
	my ($sql) = @_;
	local $ENV{PGPASSWORD} = 'r-secret';
	my ($stdout, $stderr);
	my $r = $node->psql('postgres', $sql, stdout => \$stdout, stderr => \$stderr,
		extra_params => [ '-U', 'runner', '-v', 'VERBOSITY=verbose' ]);
	return ($r, $stdout, $stderr);
}

# a runner's scripts are its own
($ret, $out, $err) = as_runner("SELECT pgbenchx.add_script('rsee', \$s\$INSERT INTO seen VALUES (current_setting('work_mem'), current_database(), current_setting('jit'));\n\$s\$)");
is($ret, 0, 'the runner registers its script') or diag($err);
($ret, $out, $err) = as_runner("SELECT pgbenchx.add_script('trapped', 'INSERT INTO trap VALUES (1);')");
is($ret, 0, 'and its trapped script') or diag($err);
$before = q1("SELECT (SELECT count(*) FROM pgbenchx.sweeps) || ' ' || (SELECT count(*) FROM pgbenchx.runs)");
($ret, $out, $err) = as_runner("SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\", "
	  . "\"settings\": {\"log_statement\": \"none\"}}]', 1, 1, transactions => 5, script => 'rsee', "
	  . "checkpoint => false, conninfo => 'password=r-secret')");
like($err, qr/42501.*permission denied to set parameter "log_statement"/s,
	"a runner cannot set a superuser's setting for its clients");
($ret, $out, $err) = as_runner("SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\", "
	  . "\"server\": {\"work_mem\": \"6MB\"}}]', 1, 1, transactions => 5, script => 'rsee', "
	  . "checkpoint => false, conninfo => 'password=r-secret')");
like($err, qr/42501.*only a superuser may set server settings/s, "a runner cannot set server settings");
($ret, $out, $err) = as_runner("SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\"}]', 1, 1, duration => 1, "
	  . "target_ci => 0.02, budget => 1000000, script => 'rsee', checkpoint => false, conninfo => 'password=r-secret')");
like($err, qr/42501.*budget 1000000 s is above pgbenchx.max_duration/s, "a runner's budget is bounded");
# a session with no password to give: the superuser's, as the runner (on 18
# the runner's own SCRAM login would give its keys, test/t/072)
$ret = $node->psql('postgres', "SET ROLE runner; SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\"}]', 1, 1, "
	  . "transactions => 5, script => 'rsee', checkpoint => false)", stdout => \$out, stderr => \$err);
like($err, qr/password is required/, "a runner's configurations need a password");
($ret, $out, $err) = as_runner("SELECT run_experiment('[{\"name\": \"a\", \"dbname\": \"other\"}, {\"name\": \"b\"}]', "
	  . "1, 1, transactions => 5, script => 'trapped', vacuum => false, checkpoint => false, conninfo => 'password=r-secret')");
like($err, qr/42501.*role "mallory"/s, "each configuration is checked: the second's clients would run another role's trigger");
($ret, $out, $err) = as_runner("SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\", \"script\": \"see\"}]', "
	  . "1, 1, transactions => 5, script => 'rsee', vacuum => false, checkpoint => false, conninfo => 'password=r-secret')");
like($err, qr/42501.*permission denied to run script "see" of role "\Q$su\E"/s,
	"a configuration's script is one the runner may run, as run_bench's");
q1("SELECT pgbenchx.eval('1'); ALTER SYSTEM SET pgbenchx.max_jobs = 1; SELECT pg_reload_conf()");
ok($node->poll_query_until('postgres', "SELECT current_setting('pgbenchx.max_jobs', true) = '1'"), 'pgbenchx.max_jobs is 1');
($ret, $out, $err) = as_runner("SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\", \"jobs\": 2}]', "
	  . "2, 2, transactions => 5, script => 'rsee', vacuum => false, checkpoint => false, conninfo => 'password=r-secret')");
like($err, qr/54000.*jobs must be at most 1 for role "runner", not 2/s, "a configuration's jobs are within the runner's quota");
q1("SELECT pgbenchx.eval('1'); ALTER SYSTEM RESET pgbenchx.max_jobs; SELECT pg_reload_conf()");
ok($node->poll_query_until('postgres', "SELECT current_setting('pgbenchx.max_jobs', true) IS DISTINCT FROM '1'"),
	'pgbenchx.max_jobs is back');
is(q1("SELECT (SELECT count(*) FROM pgbenchx.sweeps) || ' ' || (SELECT count(*) FROM pgbenchx.runs)"),
	$before, "the runner's refused experiments left nothing");
($ret, $out, $err) = as_runner("SET client_min_messages = warning; SELECT run_experiment('[{\"name\": \"a\"}, "
	  . "{\"name\": \"b\", \"dbname\": \"other\", \"settings\": {\"work_mem\": \"5MB\"}}]', 1, 1, transactions => 5, "
	  . "repeats => 1, warmup => 0, script => 'rsee', vacuum => false, checkpoint => false, conninfo => 'password=r-secret')");
is($ret, 0, "a runner's experiment starts") or diag($err);
my ($re) = $out =~ /(\d+)/;
wait_for($re);
is(q1("SELECT status || ' ' || owner FROM pgbenchx.sweeps WHERE sweep_id = $re"), 'completed runner',
	"the runner's experiment completed");
unlike(q1("SELECT configs::text FROM pgbenchx.sweeps WHERE sweep_id = $re"), qr/r-secret/,
	'sweeps.configs keeps no password');
is(qo("SELECT count(*) FROM seen WHERE work_mem = '5MB'"), '5', "the runner's settings reached its clients");

# --- cancel ---------------------------------------------------------------------
my $c = q1("SET client_min_messages = warning; SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\"}]', 1, 1, "
	  . "duration => 30, repeats => 2, warmup => 0, script => 'select-only', checkpoint => false)");
ok(run_sampled($node, "sweep_id = $c"), 'the experiment to cancel is measuring');
is(q1("SELECT pgbenchx.cancel($c)"), 't', 'pgbenchx.cancel accepts the experiment');
wait_for($c);
is(q1("SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $c"), 'cancelled', 'the cancelled experiment says so');
ok(nothing_left($node), 'no worker left behind');

done_testing();
