# The environment a run or sweep was measured in is captured by the
# coordinator: runs and sweeps carry the environment_id that
# capture_environment() returns in a session; the file system of the data
# directory and of pg_wal (a symbolic link to another mount here) are those
# findmnt reports; a configuration change between two runs gives two
# environments, and env_diff names the setting that changed.
use strict;
use warnings;
use File::Temp qw(tempdir);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

# pg_wal on another mount when /dev/shm is one (a tmpfs, usually)
my $waldir;
if (-d '/dev/shm' && -w '/dev/shm')
{
	$waldir = tempdir('pgx_env_wal_XXXX', DIR => '/dev/shm', CLEANUP => 1) . '/wal';
}

my $node = pgbenchx_node('env', scale => 1,
	init => [ $waldir ? (extra => [ '--waldir', $waldir ]) : () ]);

sub q1 { return $node->safe_psql('postgres', $_[0]); }

sub run_and_wait
{
	my ($sql) = @_;
	my $id = q1($sql);
	$node->safe_psql('postgres', "SET client_min_messages = warning; CALL pgbenchx.wait($id)");
	return $id;
}

# --- a lone run and a 1-step sweep carry the environment a session captures
my $run = run_and_wait("SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
my $sweep = run_and_wait("SELECT run_sweep('{1}'::int[], 1, 'select-only', checkpoint => false)");
my $env = q1('SELECT pgbenchx.capture_environment()');
like($env, qr/^\d+$/, 'capture_environment returns an id');
is(q1("SELECT environment_id FROM pgbenchx.runs WHERE run_id = $run"), $env,
	'the run records the environment capture_environment() returns');
is(q1("SELECT environment_id FROM pgbenchx.sweeps WHERE sweep_id = $sweep"), $env,
	'the sweep records it');
is(q1("SELECT string_agg(environment_id::text, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"), $env,
	"the sweep's run records it");
is(q1('SELECT count(*) FROM pgbenchx.environments'), '1', 'one environment, captured four times');
is(q1("SELECT count(*) FROM pgbenchx.env_diff($run, $sweep)"), '0', 'env_diff: nothing differs');

# --- the file systems are those the OS reports for the data directory and pg_wal
SKIP:
{
	my $findmnt = `findmnt --version 2>/dev/null`;
	skip 'findmnt is not available', 4 unless $findmnt;
	my %expect;
	for my $which ([ 'data', $node->data_dir ], [ 'wal', $node->data_dir . '/pg_wal' ])
	{
		my $out = `findmnt -n -o FSTYPE,SOURCE,OPTIONS --target $which->[1]`;
		# the last line: the mount on top
		my @lines = split /\n/, $out;
		my ($fstype, $source, $options) = split ' ', $lines[-1];
		$expect{ $which->[0] } = "$fstype|$source|$options";
	}
	is(q1("SELECT data_fstype || '|' || data_device || '|' || data_mount_options FROM pgbenchx.environments WHERE environment_id = $env"),
		$expect{data}, "data directory: $expect{data}");
	is(q1("SELECT wal_fstype || '|' || wal_device || '|' || wal_mount_options FROM pgbenchx.environments WHERE environment_id = $env"),
		$expect{wal}, "pg_wal, through its symbolic link: $expect{wal}");
	skip 'pg_wal is not on another mount', 2 unless $waldir && $expect{data} ne $expect{wal};
	ok(-l $node->data_dir . '/pg_wal', 'pg_wal is a symbolic link');
	is(q1("SELECT (data_fstype, data_device) IS DISTINCT FROM (wal_fstype, wal_device) FROM pgbenchx.environments WHERE environment_id = $env"),
		't', 'pg_wal on another mount is recorded as such');
}

# --- a configuration change between two runs: two environments, env_diff names it
$node->safe_psql('postgres', "ALTER SYSTEM SET work_mem = '9MB'");
$node->reload;
$node->poll_query_until('postgres', "SELECT current_setting('work_mem') = '9MB'")
  or die 'work_mem not reloaded';
my $run2 = run_and_wait("SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
isnt(q1("SELECT environment_id FROM pgbenchx.runs WHERE run_id = $run2"), $env,
	'after the change the run records another environment');
is(q1("SELECT string_agg(attribute || '=' || coalesce(a, 'NULL') || '>' || coalesce(b, 'NULL'), ' ' ORDER BY attribute) FROM pgbenchx.env_diff($run, $run2)"),
	'setting:work_mem=4MB>9MB', 'env_diff names exactly the setting that changed');

# --- a setting written down at its default (issue 37 §4: a configuration
# file that says logging_collector = off): the same environment, nothing
# for env_diff; a key setting is recorded at its default all the same
$node->safe_psql('postgres', "ALTER SYSTEM SET vacuum_cost_delay = 0");
$node->safe_psql('postgres', "ALTER SYSTEM SET vacuum_cost_limit = 200");
$node->reload;
$node->poll_query_until('postgres', "SELECT count(*) = 2 FROM pg_settings WHERE name IN ('vacuum_cost_delay', 'vacuum_cost_limit') AND source = 'configuration file'")
  or die 'vacuum_cost_* not reloaded';
my $run3 = run_and_wait("SELECT run_bench(1, 1, 'select-only', checkpoint => false)");
is(q1("SELECT count(*) FROM pgbenchx.env_diff($run2, $run3)"), '0',
	'a setting written down at its compiled-in default: env_diff finds nothing');
is(q1("SELECT environment_id FROM pgbenchx.runs WHERE run_id = $run3"), q1("SELECT environment_id FROM pgbenchx.runs WHERE run_id = $run2"),
	'and the run records the same environment');
is(q1("SELECT (e.settings ? 'vacuum_cost_delay')::text || ',' || (e.settings ? 'fsync')::text FROM pgbenchx.environments e "
	  . "JOIN pgbenchx.runs r USING (environment_id) WHERE r.run_id = $run3"),
	'false,true', 'the default left out; fsync, a key setting, kept at its default');

$node->stop;
done_testing();
