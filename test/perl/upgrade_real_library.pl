# upgrade_real_library.pl: the body of the upgrade tests with a real old
# library (037: the 0.1 release, 038: the 0.2 release), the way a user lives
# an upgrade.  The test file sets, before it does this file:
#   $release      the commit of the old release, taken from git history
#   $old_version  its extversion
#   $is_release   a sub(tree dir) saying whether that tree is the release
# The old release is built and installed under a temporary directory, a node
# loads it through extension_destdir, and it does its own work: pgbench_init,
# a sweep, a run of a weighted mix with a registered script, a replay, an
# export imported into the same database.  Then the node is stopped and
# pointed at the install under test (as a package upgrade replaces the
# library), and:
#   - before the update, the old entry points refuse with a message naming
#     both versions and ALTER EXTENSION pgbenchx UPDATE, and nothing starts;
#   - ALTER EXTENSION pgbenchx UPDATE gives this version and keeps every row
#     of every table (md5 of each over the columns the old version had,
#     ordered by primary key; the tables are listed from the catalogue) and
#     the id sequence;
#   - a new run and sweep complete; compare, chart_sweeps, sweep_report and
#     export work on the old sweep;
#   - the server log shows no crash.
# It needs git and the history that holds the release (any clone of the
# repository has it; scripts/test.sh runs the tests in a copy of the clone):
# without them, as with the other optional tools, it skips with plan
# skip_all and says why, so that an archive or a shallow clone can still run
# the rest of the suite.  A build of the old release that fails is a failure.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Cwd 'abs_path';
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

our ($release, $old_version, $is_release);
my $root = abs_path("$FindBin::RealBin/../..");
# this version: default_version of the control file
my ($version) = slurp_file("$root/pgbenchx.control") =~ /^default_version = '([^']+)'/m;
my %opt = (is_release => $is_release);


sub give_up
{
	my ($why) = @_;
	fail($why);
	done_testing();
	exit 1;
}

# run(name, [command], more IPC::Run arguments): whether it succeeded; its
# output (stdout and stderr) goes to diag when it did not.
sub run_quiet
{
	my ($name, @cmd) = @_;
	my $out = '';
	my $ok = eval { IPC::Run::run(@cmd, '>&', \$out) };
	$out .= $@ if $@;
	diag("$name:\n" . substr($out, -4000)) unless $ok;
	return $ok;
}

# --- the old release, built from git history -----------------------------------
# The test runs as postgres in a copy of the tree whose .git (a directory in a
# clone, a file naming the common directory in a worktree) may belong to
# another user: safe.directory lets git read this tree, which is our own.
my @git = ('git', '-c', 'safe.directory=*', '-C', $root);
run_quiet('git', [ @git, 'cat-file', '-e', "$release^{commit}" ])
  or plan skip_all => ("commit $release (the $old_version release) is not in the git history of $root: "
	  . "this test needs git and the full history (a clone of the repository, not an archive or a shallow clone)");

# The releases before 0.5 build only against PostgreSQL 15 (0.5 brought
# src/common/pg_compat.h), and the old library is loaded through extension_destdir,
# which only Debian's 15 has: on another major there is nothing to upgrade from.
my ($major) = (`pg_config --version` // '') =~ /PostgreSQL (\d+)/;
plan skip_all => "the $old_version release builds only against PostgreSQL 15, and this is "
  . ($major // 'an unknown major') . ': nothing to upgrade from here (test/README.md, "Per major")'
  if !defined($major) || $major != 15;

my $old = PostgreSQL::Test::Utils::tempdir('pgbenchx_old');
my $src = "$old/src";
my $dest = "$old/dest";
mkdir $src or die "mkdir $src: $!";
run_quiet('git archive', [ @git, 'archive', $release ], '|', [ 'tar', '-x', '-C', $src ])
  or give_up("git archive $release | tar -x failed");
ok($opt{is_release}->($src), "the tree of $release is the $old_version release");
{
	# not the outer make's overrides (REGRESS=, PROVE_TESTS=...) nor its jobserver;
	# no bitcode: the build stays short, and the JIT does not matter here
	local %ENV = %ENV;
	delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES)};
	my @make = ('make', '-s', '-C', $src, 'PG_CONFIG=pg_config', 'with_llvm=no');
	run_quiet("build of $old_version", [ @make, '-j2' ]) or give_up("the build of $old_version ($release) failed");
	run_quiet("install of $old_version", [ @make, 'install', "DESTDIR=$dest" ])
	  or give_up("make install DESTDIR=$dest of $old_version failed");
}
my ($old_so) = glob("$dest/usr/lib/postgresql/*/lib/pgbenchx.so");
ok(defined $old_so && -f $old_so, "$old_version built and installed under a temporary directory");

# --- a node on the old library ---------------------------------------------------
my $node = PostgreSQL::Test::Cluster->new("upgrade_real_$old_version");
$node->init;
$node->append_conf('postgresql.conf', "log_statement = none\nmax_worker_processes = 16\n");

# point extension_destdir at dir (none: the system install)
sub set_destdir
{
	my ($dir) = @_;
	my $conf = $node->data_dir . '/postgresql.conf';
	my $text = slurp_file($conf);
	$text =~ s/^extension_destdir\s*=.*\n//mg;
	$text .= "extension_destdir = '$dir'\n" if $dir;
	open my $fh, '>', $conf or die "$conf: $!";
	print $fh $text;
	close $fh;
}
set_destdir($dest);
$node->start;

sub sq { return $node->safe_psql('postgres', $_[0]); }
sub wait_for { sq("SET client_min_messages = warning; CALL pgbenchx.wait($_[0])"); }
# the pgbenchx.so this backend loaded, from its memory map
sub library_loaded
{
	return sq(q{SELECT pgbenchx.sweep_ladder(1, 2);
		SELECT string_agg(DISTINCT substring(l FROM '(/\S*pgbenchx\.so)$'), ' ')
		FROM regexp_split_to_table(pg_read_file('/proc/self/maps'), E'\n') l WHERE l LIKE '%pgbenchx.so'});
}

sq("CREATE EXTENSION pgbenchx VERSION '$old_version'");
is(sq("SELECT extversion FROM pg_extension WHERE extname = 'pgbenchx'"), $old_version, "installed $old_version");
like(library_loaded(), qr/^\{1,2\}\n\Q$dest\E\//, "the backend loaded the $old_version library from its temporary install");
sq('SET client_min_messages = warning; SELECT pgbench_init(1)');
is(sq('SELECT count(*) FROM pgbench_accounts'), '100000', "under $old_version: pgbench_init(1)");

sq(q{SELECT pgbenchx.add_script('mine', E'\\\\set a random(1, 10)\nSELECT :a;\n')});
my $old_sweep = sq(q{SELECT run_sweep(ARRAY[1, 2], 1, 'select-only', checkpoint => false, label => 'old sweep')});
wait_for($old_sweep);
my $old_run = sq(qq{SELECT run_bench(2, 1, 'select-only\@3, mine\@1', checkpoint => false, tags => '{"era": "$old_version"}')});
wait_for($old_run);
my $old_replay = sq(q{SELECT run_replay(E'SELECT 1;\nSELECT 2;\nSELECT 3;\n', 1, 2, checkpoint => false)});
wait_for($old_replay);
is(sq("SELECT string_agg(status, ',' ORDER BY run_id) FROM pgbenchx.runs"),
	'completed,completed,completed,completed,completed', "under $old_version: the sweep, the run and the replay completed");
is(sq("SELECT count(*) FROM pgbenchx.runs WHERE run_id = $old_run AND transactions > 0"), '1',
	"under $old_version: the run with a registered script made transactions");
my $imported = sq("SELECT (pgbenchx.import(pgbenchx.export(ARRAY[$old_sweep])))[1]");
ok($imported > $old_replay, "under $old_version: an export imported into the same database is a new sweep");

# every table of the extension: md5 of its rows ordered by primary key
my $tables_sql = q{
	SELECT c.oid::regclass::text || '|' ||
	       (SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY k.ord)
	        FROM pg_index i, unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
	        JOIN pg_attribute a ON a.attnum = k.attnum
	        WHERE i.indrelid = c.oid AND i.indisprimary AND a.attrelid = c.oid)
	FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
	WHERE d.classid = 'pg_class'::regclass AND d.deptype = 'e' AND c.relkind = 'r'
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pgbenchx')
	ORDER BY 1};
# the columns each table had under the old version: the hashes are over
# these, so that columns an upgrade adds leave them comparable (a table the
# upgrade adds holds no old results and is left out)
my %old_columns;
sub table_state
{
	my @out;
	my $first = !%old_columns;
	foreach my $t (split /\n/, sq($tables_sql))
	{
		my ($table, $pk) = split /\|/, $t;
		die "table $table has no primary key" unless $pk;
		$old_columns{$table} = sq(qq{SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
			WHERE attrelid = '$table'::regclass AND attnum > 0 AND NOT attisdropped}) if $first;
		next unless $old_columns{$table};
		push @out, "$table: " . sq("SELECT count(*) || ' ' || coalesce(md5(string_agg(ROW($old_columns{$table})::text, E'\\n' ORDER BY $pk)), '-') FROM $table x");
	}
	push @out, 'id_seq ' . sq('SELECT last_value FROM pgbenchx.id_seq');
	return join("\n", @out);
}
my $before = table_state();
like($before, qr/pgbenchx\.runs: 7 [0-9a-f]{32}/, "under $old_version: seven runs (two of the sweep, one run, two of the replay, two imported)");
like($before, qr/pgbenchx\.samples: [1-9]\d* [0-9a-f]{32}/, "under $old_version: samples stored");
like($before, qr/pgbenchx\.custom_scripts: 1 [0-9a-f]{32}/, "under $old_version: the script stored");
like($before, qr/pgbenchx\.imports: [1-9]\d* [0-9a-f]{32}/, "under $old_version: the import stored");
ok(nothing_left($node), "under $old_version: nothing left running");

# --- the library is replaced: this version --------------------------------------------------
$node->stop;
set_destdir($ENV{PGX_EXTENSION_DESTDIR});
$node->start;
my $new_lib = library_loaded();
unlike($new_lib, qr/\Q$dest\E/, "after the restart the backend loads the $version library, not the $old_version one");
like($new_lib, qr/^\{1,2\}\n\Q@{[ $ENV{PGX_EXTENSION_DESTDIR} \/\/ '' ]}\E\//, "the $version library is the one under test");

foreach my $call ("run_bench(1, 1)", "run_sweep(1, 2, 1)", "run_sweep(ARRAY[1, 2], 1)", "run_replay('SELECT 1;', 1, 1)")
{
	my ($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\nSELECT $call");
	isnt($ret, 0, "$old_version SQL, $version library: $call fails");
	like($err, qr/ERROR:  55000: pgbenchx's SQL is version \Q$old_version\E, the library \Q$version\E.*HINT:  Run ALTER EXTENSION pgbenchx UPDATE\./s,
		"$call: the message names both versions and the hint ALTER EXTENSION pgbenchx UPDATE");
}
{
	my ($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\nCALL pgbenchx.wait($old_run)");
	isnt($ret, 0, "$old_version SQL, $version library: CALL pgbenchx.wait of an old run fails");
	like($err, qr/ERROR:  55000: pgbenchx's SQL is version \Q$old_version\E, the library \Q$version\E.*HINT:  Run ALTER EXTENSION pgbenchx UPDATE\./s,
		'CALL pgbenchx.wait: the same message and hint, not an error about a missing column');
}
ok(nothing_left($node), 'the refusals started nothing');
is(table_state(), $before, 'the refusals and the new library changed no row');

sq('ALTER EXTENSION pgbenchx UPDATE');
is(sq("SELECT extversion FROM pg_extension WHERE extname = 'pgbenchx'"), $version, "updated to $version");
is(table_state(), $before, 'every row of every table and the id sequence are unchanged by the update');
{
	my ($ret, $out, $err) = $node->psql('postgres', "CALL pgbenchx.wait($old_run)");
	is($ret, 0, "after the update: CALL pgbenchx.wait of the run made under $old_version works");
	like($err, qr/tps = /, 'and ends with its report');
}
is(table_state(), $before, 'wait on an old run changed no row');

my $new_run = sq("SELECT run_bench(2, 1, 'select-only', checkpoint => false, label => 'new run')");
wait_for($new_run);
my $new_sweep = sq("SELECT run_sweep(ARRAY[1, 2], 1, 'select-only', checkpoint => false, label => 'new sweep')");
wait_for($new_sweep);
is(sq("SELECT string_agg(status, ',') FROM pgbenchx.runs WHERE run_id = $new_run OR sweep_id = $new_sweep"),
	'completed,completed,completed', 'after the update: a new run and a new sweep complete');
ok($new_run > $imported, 'new ids continue after the old ones');
is(sq("SELECT count(*) FROM pgbenchx.sweep_report($old_sweep)"), '2', 'sweep_report of the old sweep');
like(sq("SELECT pgbenchx.chart_sweeps(ARRAY[$old_sweep, $new_sweep, $imported])"), qr/^<svg.*old sweep.*new sweep/s,
	'chart_sweeps of the old, the new and the imported sweep');
is(sq("SELECT count(*) FROM pgbenchx.compare($old_sweep, $new_sweep) WHERE tps_a > 0 AND tps_b > 0"), '2',
	'compare of the old and the new sweep');
is(sq("SELECT count(*) FROM pgbenchx.compare($old_sweep, $imported) WHERE tps_a = tps_b"), '2',
	"compare of the old sweep and its import made under $old_version");
is(sq("SELECT jsonb_array_length(pgbenchx.export(ARRAY[$old_sweep]) -> 'sweeps')"), '1', 'export of the old sweep');
is(sq("SELECT count(*) FROM unnest(pgbenchx.import(pgbenchx.export(ARRAY[$old_sweep])))"), '1',
	"the old sweep exported under $version imports");

# --- nothing crashed -----------------------------------------------------------------
ok(nothing_left($node), 'nothing left running');
my $log = slurp_file($node->logfile);
unlike($log, qr/terminated by signal|server process .* was terminated|all server processes terminated/,
	'the server log shows no crash');

$node->stop;
done_testing();
1;
