# pgbench's own test cases (PostgreSQL 15, src/bin/pgbench/t/001_pgbench_with_server.pl
# and the script-parsing cases of 002_pgbench_no_server.pl, and those later
# majors added or changed where the server's major has them), replayed side by
# side: every case that pgbenchx can express runs under stock pgbench of the
# server's major (the pgbench first on PATH, which must be of that major) and
# under pgbenchx (run_bench + wait, or pgbench_init) on the same cluster, and must
# end the same way: both succeed or both fail, the same processed, failed,
# retried, retries, skipped and late counts, the same summary lines (what
# pgbenchx.report prints against pgbench's stdout), the same variable values
# (the scripts write them into a table), and the same error text (pgbench's
# abort line with the message it prints before it; a parse error's line and
# caret).
#
# Left out, being about pgbench's command line rather than what a run does:
# --log/--sampling-rate/--log-prefix (log files), --aggregate-interval,
# --progress, --debug's and --verbose-errors' traces (only the counts of
# those cases are compared), --tablespace/--index-tablespace (pgbench_init
# has no tablespace option), -I with steps other than pgbench_init's fixed
# ones (only the resulting tables are compared), \setshell and \shell
# (refused by add_script, as docs/scripts.md says: asserted below), the server
# parameter logging checks of the server log (the errors the clients get
# are compared), and 002's option-parsing cases other than those of
# run_bench's arguments (getopt's words).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Getopt::Long qw(GetOptionsFromArray);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('cases', conf => "log_parameter_max_length_on_error = 64\n");
# the reference is the pgbench of the server's major (issue 21; src/README.md,
# "pgbench per major")
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
my $pgbench = 'pgbench';
my ($pgbench_version) = `$pgbench --version` =~ /^pgbench \(PostgreSQL\) (\d+)/m;
defined $pgbench_version && $pgbench_version == $major
  or die "the pgbench first on PATH must be PostgreSQL ${major}'s, not " . ($pgbench_version // 'none');
my $dir = $node->basedir . '/cases';
mkdir $dir or die "cannot create $dir: $!";

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# --- the cases ---------------------------------------------------------
#
# name:    the case (pgbench's own name for it, where it has one)
# opts:    stock pgbench's options; run_bench gets the same (-c, -t, -j, -M,
#          -b/-S/-N, -D, --random-seed, -R, -L, --max-tries, -C, -n)
# files:   [ file name, script text, weight ], as pgbench's -f file@weight
# rc:      stock pgbench's exit status, as its test expects: 0 ok, 1 refused
#          before the run (pgbenchx: add_script or run_bench refuses), 2 a
#          client aborted (pgbenchx: the run ends failed)
# dump:    each \set variable is written into table vals after its command,
#          and the rows of both must be equal
# refused: pgbench aborts the client at run time, pgbenchx refuses at the
#          call (docs/running.md, "Refusals, and logging in": what every
#          client is certain to fail on); the message must carry pgbench's
# core:    where the texts differ on purpose, the message both must carry
# differs: a documented difference: pgbench completes, the pgbenchx run
#          fails with this error
# cut:     pgbenchx's message is pgbench's cut (docs/scripts.md: 200 bytes)
# shell:   \setshell or \shell: refused by add_script (docs/scripts.md)
# bounded: the counts depend on timing; bounds are checked instead
# per_script: a seeded mix: the transactions of each script must be equal
# before:  SQL run before each side
# after:   a query run after each side, whose results must be equal
# pgoptions: PGOPTIONS for pgbench, conninfo options for pgbenchx

my $labels = join ',', map { "'l$_'" } 1 .. 1000;
my $all_vars = '-Dfoo=bla -Dnull=null -Dtrue=true -Done=1 -Dzero=0.0 -Dbadtrue=trueXXX -Dminus=- '
  . '-Dmaxint=9223372036854775807 -Dminint=-9223372036854775808';

my $expressions = <<'EOS';
\set i1 debug(random(10, 19))
\set i2 debug(random_exponential(100, 199, 10.0))
\set i3 debug(random_gaussian(1000, 1999, 10.0))
\set i4 debug(abs(-4))
\set i5 debug(greatest(5, 4, 3, 2))
\set i6 debug(11 + least(-5, -4, -3, -2))
\set i7 debug(int(7.3))
\set i8 debug(17 / (4|1) + ( 4 + (7 >> 2)))
\set i9 debug(- (3 * 4 - (-(~ 1) + -(~ 0))) / -1 + 3 % -1)
\set ia debug(10 + (0 + 0 * 0 - 0 / 1))
\set ib debug(:ia + :scale)
\set ic debug(64 % (((2 + 1 * 2 + (1 # 2) | 4 * (2 & 11)) - (1 << 2)) + 2))
\set d1 debug(sqrt(+1.5 * 2.0) * abs(-0.8E1))
\set d2 debug(double(1 + 1) * (-75.0 / :foo))
\set pi debug(pi() * 4.9)
\set d4 debug(greatest(4, 2, -1.17) * 4.0 * Ln(Exp(1.0)))
\set d5 debug(least(-5.18, .0E0, 1.0/0) * -3.3)
\set i1 0
\set d1 false
\set id debug(random_zipfian(1, 9, 1.3))
\set poweri debug(pow(-3,3))
\set powerd debug(pow(2.0,10))
\set poweriz debug(pow(0,0))
\set powerdz debug(pow(0.0,0.0))
\set powernegi debug(pow(-2,-3))
\set powernegd debug(pow(-2.0,-3.0))
\set powernegd2 debug(power(-5.0,-5.0))
\set powerov debug(pow(9223372036854775807, 2))
\set powerov2 debug(pow(10,30))
\set c0 debug(1.0 = 0.0 and 1.0 != 0.0)
\set c1 debug(0 = 1 Or 1.0 = 1)
\set c4 debug(case when 0 < 1 then 32 else 0 end)
\set c5 debug(case when true then 33 else 0 end)
\set c6 debug(case when false THEN -1 when 1 = 1 then 13 + 19 + 2.0 end )
\set c7 debug(case when (1 > 0) and (1 >= 0) and (0 < 1) and (0 <= 1) and (0 != 1) and (0 = 0) and (0 <> 1) then 35 else 0 end)
\set c8 debug(CASE \
      WHEN (1.0 > 0.0) AND (1.0 >= 0.0) AND (0.0 < 1.0) AND (0.0 <= 1.0) AND \
           (0.0 != 1.0) AND (0.0 = 0.0) AND (0.0 <> 1.0) AND (0.0 = 0.0) \
      THEN 36 ELSE 0 END)
\set c9 debug(CASE WHEN NOT FALSE THEN 3 * 12.3333334 END)
\set ca debug(case when false then 0 when 1-1 <> 0 then 1 else 38 end)
\set cb debug(10 + mod(13 * 7 + 12, 13) - mod(-19 * 11 - 17, 19))
\set cc debug(NOT (0 > 1) AND (1 <= 1) AND NOT (0 >= 1) AND (0 < 1) AND \
    NOT (false and true) AND (false OR TRUE) AND (NOT :f) AND (NOT FALSE) AND \
    NOT (NOT TRUE))
\set n0 debug(NULL + NULL * exp(NULL))
\set n1 debug(:n0)
\set n2 debug(NOT (:n0 IS NOT NULL OR :d1 IS NULL))
\set n3 debug(:n0 IS NULL AND :d1 IS NOT NULL AND :d1 NOTNULL)
\set n4 debug(:n0 ISNULL AND NOT :n0 IS TRUE AND :n0 IS NOT FALSE)
\set n5 debug(CASE WHEN :n IS NULL THEN 46 ELSE NULL END)
\set n6 debug(:n IS NULL AND NOT :f AND :t)
\set cs debug(CASE WHEN 1 THEN TRUE END AND CASE WHEN 1.0 THEN TRUE END AND CASE WHEN :n THEN NULL ELSE TRUE END)
\set h0 debug(hash(10, 5432))
\set h1 debug(:h0 = hash_murmur2(10, 5432))
\set h3 debug(hash_fnv1a(10, 5432))
\set h4 debug(hash(10))
\set h5 debug(hash(10) = hash(10, :default_seed))
\set zy 0
\set yz debug(case when :zy = 0 then -1 else (1 / :zy) end)
\set yz debug(case when :zy = 0 or (1 / :zy) < 0 then -1 else (1 / :zy) end)
\set yz debug(case when :zy > 0 and (1 / :zy) < 0 then (1 / :zy) else 1 end)
\set v0 NULL
\set v1 TRUE
\set v2 5432
\set v3 -54.21E-2
SELECT :v0, :v1, :v2, :v3;
\set nope 0
\if 1 > 0
\set id debug(65)
\elif 0
\set nope 1
\else
\set nope 1
\endif
\if 1 < 0
\set nope 1
\elif 1 > 0
\set ie debug(74)
\else
\set nope 1
\endif
\if 1 < 0
\set nope 1
\elif 1 < 0
\set nope 1
\else
\set if debug(83)
\endif
\if 1 = 1
\set ig debug(86)
\elif 0
\set nope 1
\endif
\if 1 = 0
\set nope 1
\elif 1 <> 0
\set ih debug(93)
\endif
\set nope debug(:nope)
\set sc debug(:scale)
\set ci debug(:client_id)
\set rs debug(:random_seed)
\set min debug(-9223372036854775808)
\set max debug(-(:min + 1))
\set t debug(permute(0, 2) + permute(1, 2) = 1)
\set t debug(permute(0, 3) + permute(1, 3) + permute(2, 3) = 3)
\set t debug(permute(0, 4) + permute(1, 4) + permute(2, 4) + permute(3, 4) = 6)
\set t debug(permute(0, 5) + permute(1, 5) + permute(2, 5) + permute(3, 5) + permute(4, 5) = 10)
\set t debug(permute(0, 16) + permute(1, 16) + permute(2, 16) + permute(3, 16) + \
             permute(4, 16) + permute(5, 16) + permute(6, 16) + permute(7, 16) + \
             permute(8, 16) + permute(9, 16) + permute(10, 16) + permute(11, 16) + \
             permute(12, 16) + permute(13, 16) + permute(14, 16) + permute(15, 16) = 120)
\set size random(2, 1000)
\set v random(0, :size - 1)
\set p permute(:v, :size)
\set t debug(0 <= :p and :p < :size and :p = permute(:v + :size, :size) and :p <> permute(:v + 1, :size))
\set t debug(permute(:v, 1) = 0)
\set t debug(permute(0, 2, 5431) = 0 and permute(1, 2, 5431) = 1 and \
             permute(0, 2, 5433) = 1 and permute(1, 2, 5433) = 0)
\set size debug(:max - 10)
\set t debug(permute(:size-1, :size, 5432) = 520382784483822430 and \
             permute(:size-2, :size, 5432) = 1143715004660802862 and \
             permute(:size-3, :size, 5432) = 447293596416496998 and \
             permute(:size-4, :size, 5432) = 916527772266572956 and \
             permute(:size-5, :size, 5432) = 2763809008686028849 and \
             permute(:size-6, :size, 5432) = 8648551549198294572 and \
             permute(:size-7, :size, 5432) = 4542876852200565125)
EOS

my $serialization = <<'EOS';
\set delta random(-5000, 5000)
SELECT pg_advisory_lock(0);
BEGIN;
UPDATE xy SET y = y + :delta WHERE x = 1 AND pg_advisory_lock(1) IS NOT NULL;
DO $$
DECLARE
  seen boolean;
  waiters integer;
BEGIN
  -- the first client lets the second one in, waits until it blocks on the
  -- row, and leaves a mark so that the retry does not wait again
  SELECT EXISTS (SELECT * FROM first_client_table) INTO STRICT seen;
  IF NOT seen THEN
    PERFORM pg_advisory_unlock(0);
    LOOP
      SELECT count(*) INTO STRICT waiters FROM pg_locks
       WHERE locktype = 'advisory' AND objsubid = 1
         AND ((classid::bigint << 32) | objid::bigint = 1::bigint) AND NOT granted;
      IF waiters = 1 THEN
        INSERT INTO first_client_table VALUES (1);
        EXIT;
      END IF;
    END LOOP;
  END IF;
END$$;
COMMIT;
SELECT pg_advisory_unlock_all();
EOS

my $deadlock = <<'EOS';
SELECT pg_advisory_unlock_all();
SELECT pg_advisory_lock(0);
SELECT pg_advisory_lock(1);
DO $$
DECLARE
  seen boolean;
BEGIN
  SELECT EXISTS (SELECT * FROM first_client_table) INTO STRICT seen;
  IF seen THEN
    PERFORM pg_advisory_unlock(0);
    PERFORM pg_advisory_lock(3);
    PERFORM pg_advisory_lock(2);
  ELSE
    INSERT INTO first_client_table VALUES (1);
    PERFORM pg_advisory_lock(2);
  END IF;
END$$;
DO $$
DECLARE
  num_rows integer;
  waiters integer;
BEGIN
  SELECT count(*) FROM first_client_table INTO STRICT num_rows;
  IF num_rows = 1 THEN
    INSERT INTO first_client_table VALUES (2);
    PERFORM pg_advisory_unlock(0);
    PERFORM pg_advisory_unlock(1);
    LOOP
      SELECT count(*) INTO STRICT waiters FROM pg_locks
       WHERE locktype = 'advisory' AND objsubid = 1
         AND ((classid::bigint << 32) | objid::bigint = 2::bigint) AND NOT granted;
      IF waiters = 1 THEN
        EXIT;
      END IF;
    END LOOP;
    PERFORM pg_advisory_lock(0);
  END IF;
END$$;
SELECT pg_advisory_lock(3);
SELECT pg_advisory_unlock_all();
EOS

my $json_value = q[select '{ invalid ' as value \gset
select $$'Valame Dios!' dijo Sancho; 'no le dije yo a vuestra merced que mirase bien lo que hacia?'$$ as long \gset
select column1::jsonb from (values (:value), (:long)) as q;
];

my @cases = (
	# runs of the built-in and custom scripts
	{ name => 'concurrent OID generation', opts => '--no-vacuum --client=5 --protocol=prepared --transactions=25',
	  files => [ [ 'oid', "CREATE TYPE pg_temp.e AS ENUM ($labels); DROP TYPE pg_temp.e;" ] ], rc => 0 },
	{ name => 'pgbench tpcb-like', opts => '--transactions=5 -Dfoo=bla --client=2 --protocol=simple --builtin=t --connect -n',
	  rc => 0 },
	{ name => 'pgbench simple update', opts => '--transactions=20 --client=5 -M extended --builtin=si -C --no-vacuum',
	  rc => 0 },
	{ name => 'pgbench select only', opts => '-t 100 -c 7 -M prepared -b se', rc => 0 },
	# with a seed, the mix's choices are pgbench's: the per-script counts too
	{ name => 'pgbench custom scripts', opts => '-t 100 -c 1 -j 2 -M prepared -n --random-seed=5432', rc => 0,
	  per_script => 1,
	  files => [
		[ 'custom_1', "-- select only\n\\set aid random(1, :scale * 100000)\nSELECT abalance::INTEGER AS balance\n  FROM pgbench_accounts\n  WHERE aid=:aid;\n", 1 ],
		[ 'custom_2', "-- special variables\nBEGIN;\n\\set foo 1\nSELECT :foo::INT + :scale::INT * :client_id::INT AS bla;\nCOMMIT;\n", 2 ] ] },
	{ name => 'pgbench custom script (simple)', opts => '-n -t 10 -c 1 -M simple', rc => 0,
	  files => [ [ 'custom_3', "\\set aid random(1, :scale * 100000)\nBEGIN;\nSELECT abalance::INTEGER AS balance\n  FROM pgbench_accounts\n  WHERE aid=:aid;\nCOMMIT;\n" ] ] },
	{ name => 'pgbench custom script (extended)', opts => '-n -t 10 -c 2 -M extended', rc => 0,
	  files => [ [ 'custom_4', "\\set aid random(1, :scale * 100000)\nBEGIN;\nSELECT abalance::INTEGER AS balance\n  FROM pgbench_accounts\n  WHERE aid=:aid;\nCOMMIT;\n" ] ] },

	# the errors the clients get from the server, with parameters
	{ name => 'server parameter logging: json', opts => '-n -t1 -c1 -M prepared', rc => 2,
	  files => [ [ 'param_1', $json_value ] ] },
	{ name => 'server parameter logging: division by zero', opts => '-n -t1 -c1 -M prepared', rc => 2,
	  files => [ [ 'param_2', "select '1' as one \\gset\nSELECT 1 / (random() / 2)::int, :one::int, :two::int;\n" ] ] },
	{ name => 'bad parameter at BIND', opts => '-n -t1 -c1 -M prepared', rc => 2,
	  files => [ [ 'param_6', "select 42 as value1, '1a' as value2 \\gset\nselect :value1::smallint, :value2::smallint;\n" ] ] },

	# the expression language: every variable's value compared
	{ name => 'pgbench expressions',
	  opts => '--random-seed=5432 -t 1 -Dfoo=-10.1 -Dbla=false -Di=+3 -Dn=null -Dt=t -Df=of -Dd=1.0',
	  rc => 0, dump => 1, files => [ [ 'expressions', $expressions ] ] },
	map({
		my $i = $_;
		+{ name => "random seeded with 5432 ($i)", opts => '--random-seed=5432 -t 1', rc => 0, dump => 1,
		  files => [ [ "random_seed_$i", "\\set ur random(1000, 1999)\n\\set er random_exponential(2000, 2999, 2.0)\n"
				. "\\set gr random_gaussian(3000, 3999, 3.0)\n\\set zr random_zipfian(4000, 4999, 1.5)\n" ] ] }
	} (1, 2)),
	{ name => 'pgbench backslash commands', opts => '-t 1', rc => 0, dump => 1,
	  files => [ [ 'backslash', "\\set zero 0\n\\set one 1.0\n\\sleep :one ms\n\\sleep 100 us\n\\sleep 0 s\n\\sleep :zero\n"
			. "\\set n debug(:one)\n" ] ] },
	# docs/scripts.md: \setshell and \shell are refused, the server runs no shell
	{ name => 'pgbench backslash commands with a shell', opts => '-t 1', rc => 0, shell => 1,
	  files => [ [ 'backslash_shell', "\\set one 1.0\n\\setshell another_one\\\n  echo \\\n    :one\n"
			. "\\set n debug(:another_one)\n\\shell echo shell-echo-output\n" ] ] },
	{ name => 'pgbench gset command', opts => '-t 1', rc => 0, dump => 1,
	  files => [ [ 'gset', "SELECT \\gset\nSELECT 0 AS i0 \\gset\n\\set i debug(:i0)\nSELECT 1 AS i1, 2 AS i2 \\gset\n"
			. "\\set i debug(:i1)\n\\set i debug(:i2)\nSELECT 3 AS i3 \\gset x_\n\\set i debug(:x_i3)\n"
			. "SELECT 0 AS i4, 4 AS i4 \\gset\n\\set i debug(:i4)\n"
			. "\\; \\; SELECT 0 AS i5 \\; SELECT 5 AS i5 \\; \\; \\gset\n\\set i debug(:i5)\n" ] ] },
	{ name => 'pgbench gset command with two rows', opts => '-t 1', rc => 2,
	  files => [ [ 'gset_two_rows', "\nSELECT 5432 AS fail UNION SELECT 5433 ORDER BY 1 \\gset\n" ] ] },
	{ name => 'pgbench aset command', opts => '-t 1', rc => 0, dump => 1,
	  files => [ [ 'aset', "\\; SELECT 6 AS i6 \\; SELECT 7 AS i7 \\; \\aset\n"
			. "SELECT 8 AS i6 UNION SELECT 9 ORDER BY 1 DESC \\aset\n\\set i debug(:i6)\n\\set i debug(:i7)\n" ] ] },
	{ name => 'pgbench aset command with empty result', opts => '-t 1', rc => 2,
	  files => [ [ 'aset_empty', "\\; SELECT 5432 AS i8 WHERE FALSE \\; \\aset\n\\set i debug(:i8)\n" ] ] },

	# pipelines
	{ name => 'working \startpipeline', opts => '-t 1 -n -M extended', rc => 0,
	  files => [ [ 'pipeline', "\\startpipeline\n" . ("select 1;\n" x 10) . "\\endpipeline\n" ] ] },
	{ name => 'working \startpipeline (prepared)', opts => '-t 1 -n -M prepared', rc => 0,
	  files => [ [ 'pipeline_prep', "\\startpipeline\n" . ("select 1;\n" x 10) . "\\endpipeline\n" ] ] },
	{ name => 'error: call \startpipeline twice', opts => '-t 1 -n -M extended', rc => 2, refused => 1,
	  files => [ [ 'pipeline_2', "\\startpipeline\n\\startpipeline\n" ] ] },
	{ name => 'error: \endpipeline with no start', opts => '-t 1 -n -M extended', rc => 2, refused => 1,
	  files => [ [ 'pipeline_3', "\\endpipeline\n" ] ] },
	{ name => 'error: \gset not allowed in pipeline mode', opts => '-t 1 -n -M extended', rc => 2, refused => 1,
	  files => [ [ 'pipeline_4', "\\startpipeline\nselect 1 \\gset f\n\\endpipeline\n" ] ] },
	# pgbench 17's: \syncpipeline (and pgbenchx's word for an error after one)
	($major >= 17 ? (
	{ name => 'working \startpipeline with \syncpipeline', opts => '-t 1 -n -M extended', rc => 0,
	  files => [ [ 'pipeline_sync', "-- test startpipeline\n\\startpipeline\nselect 1;\n\\syncpipeline\n\\syncpipeline\n"
			. "select 2;\n\\syncpipeline\nselect 3;\n\\endpipeline\n" ] ] },
	{ name => 'error: call \startpipeline and \syncpipeline without \endpipeline', opts => '-t 2 -n -M extended',
	  rc => 2, refused => 1, files => [ [ 'pipeline_7', "\\startpipeline\n\\syncpipeline\n" ] ] },
	# not in pgbench's tests: the abort names the query after the sync as
	# pgbench counts it (query 1), and a failed transaction's later segments
	# are dropped, not judged
	{ name => 'error after \syncpipeline', opts => '-t 1 -n -M prepared', rc => 2,
	  files => [ [ 'pipeline_sync_error', "\\startpipeline\nselect 1;\n\\syncpipeline\nselect 1/0;\n\\endpipeline\n" ] ] },
	{ name => 'serialization failure before \syncpipeline', opts => '-t 3 -n -M extended', rc => 0,
	  files => [ [ 'pipeline_sync_failure', "\\startpipeline\nDO \$\$BEGIN RAISE EXCEPTION 'retry me' USING ERRCODE = '40001'; END\$\$;\n"
			. "select 1;\n\\syncpipeline\nselect 1/0;\n\\endpipeline\n" ] ] },
	) : ()),
	# not in pgbench's tests: pgbench prepares a pipeline's statements
	# before it enters it, so a failure that makes the pipeline skip the
	# rest leaves none of them unprepared for the retry (the first try
	# fails, the second passes: processed 3, retried 1)
	{ name => 'serialization failure in a prepared pipeline, retried', opts => '-t 3 -n -M prepared --max-tries 2',
	  rc => 0, before => 'DROP SEQUENCE IF EXISTS pipe_retry; CREATE SEQUENCE pipe_retry',
	  files => [ [ 'pipeline_prep_retry', "\\startpipeline\nselect 1;\n"
			. "DO \$\$BEGIN IF nextval('pipe_retry') = 1 THEN RAISE EXCEPTION 'retry me' USING ERRCODE = '40001'; END IF; END\$\$;\n"
			. "select 2;\n\\endpipeline\n" ] ] },
	{ name => 'working \startpipeline with serializable', opts => '-c4 -j2 -t 10 -n -M prepared', rc => 0,
	  files => [ [ 'pipeline_serializable', "\\startpipeline\nBEGIN ISOLATION LEVEL SERIALIZABLE;\n"
			. ("select 1;\n" x 10) . "END;\n\\endpipeline\n" ] ] },

	# throttling
	{ name => 'pgbench throttling', opts => '-t 100 -S --rate=100000 --latency-limit=1000000 -c 2 -n', rc => 0 },
	# at most one transaction runs (the 2 ms sleep makes the next ones late
	# before they start): the counts depend on timing, so are bounded
	{ name => 'pgbench late throttling', opts => '-t 10 --rate=100000 --latency-limit=1 -n', rc => 0,
	  bounded => 1, files => [ [ 'sleep', "\\sleep 2ms" ] ] },

	# found replaying the cases: the server's errors name the prepared
	# statement, P_<n> counting the SQL commands of all scripts
	{ name => 'prepared statement names', opts => '-n -t 1 -M prepared', rc => 2,
	  files => [ [ 'prepared_names_0', "SELECT 1;\nSELECT 2;\n", 0 ],
		[ 'prepared_names_1', "SELECT 3;\nINSERT INTO vals (who, k, v) VALUES (:who, 'q', ':who');\n", 1 ] ] },
	# docs/scripts.md: abs() of a boolean fails in pgbenchx; pgbench returns the
	# boolean's bytes read as a double
	{ name => 'abs of a boolean', opts => '-n -t 1', rc => 0, differs => qr{cannot coerce boolean to double},
	  files => [ [ 'abs_boolean', "\\set x abs(1 = 1)\n" ] ] },
	{ name => 'incomplete transaction block', opts => '--no-vacuum', rc => 2,
	  files => [ [ 'incomplete_transaction_block', 'BEGIN;SELECT 1;' ] ] },

	# failures and retries
	# pgbench's test reads in its debug trace that the retry sends the same
	# random delta: here, with a seed, the row both clients updated ends with
	# the same value under both (a new draw at the retry would change it)
	{ name => 'concurrent update with retrying', opts => '-n -c 2 -t 1 --max-tries 2 --random-seed=5432', rc => 0,
	  pgoptions => '-c default_transaction_isolation=repeatable\ read',
	  before => 'DELETE FROM first_client_table; UPDATE xy SET y = 2', after => 'SELECT y FROM xy',
	  files => [ [ 'serialization', $serialization ] ] },
	{ name => 'deadlock with retrying', opts => '-n -c 2 -t 1 --max-tries 2', rc => 0,
	  before => 'DELETE FROM first_client_table',
	  files => [ [ 'deadlock', $deadlock ] ] },
);

# pgbench's expression and script errors, each alone in a script, run with
# -n -t 1 and these variables, in prepared mode unless said otherwise
my @errors = (
	[ 'sql syntax error', 2, "-- SQL syntax error\n    SELECT 1 + ;\n" ],
	[ 'sql too many args', 1, "\\set i 0\nSELECT LEAST(" . join(', ', (':i') x 256) . ")" ],
	[ 'set syntax error', 1, '\set i 1 +' ],
	[ 'set no such function', 1, '\set i noSuchFunction()' ],
	[ 'set invalid variable name', 2, '\set . 1' ],
	[ 'set division by zero', 2, '\set i 1/0' ],
	[ 'set undefined variable', 2, '\set i :nosuchvariable' ],
	[ 'set unexpected char', 1, '\set i ;' ],
	[ 'set too many args', 2, '\set i least(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)' ],
	[ 'set empty random range', 2, '\set i random(5,3)' ],
	[ 'set random range too large', 2, '\set i random(:minint, :maxint)' ],
	[ 'set gaussian param too small', 2, '\set i random_gaussian(0, 10, 1.0)' ],
	[ 'set exponential param greater 0', 2, '\set i random_exponential(0, 10, 0.0)' ],
	[ 'set zipfian param to 1', 2, '\set i random_zipfian(0, 10, 1)' ],
	[ 'set zipfian param too large', 2, '\set i random_zipfian(0, 10, 1000000)' ],
	[ 'set non numeric value', 2, '\set i :foo + 1' ],
	[ 'set no expression', 1, '\set i' ],
	[ 'set missing argument', 1, '\set' ],
	[ 'set not a bool', 2, '\set b NOT 0.0' ],
	[ 'set not an int', 2, '\set i TRUE + 2' ],
	[ 'set not a double', 2, '\set d ln(TRUE)' ],
	[ 'set case error', 1, '\set i CASE TRUE THEN 1 ELSE 0 END' ],
	[ 'set random error', 2, '\set b random(FALSE, TRUE)' ],
	[ 'set number of args mismatch', 1, '\set d ln(1.0, 2.0))' ],
	[ 'set at least one arg', 1, '\set i greatest())' ],
	[ 'set double to int overflow', 2, '\set i int(1E32)' ],
	[ 'set bigint add overflow', 2, '\set i (1<<62) + (1<<62)' ],
	[ 'set bigint sub overflow', 2, '\set i 0 - (1<<62) - (1<<62) - (1<<62)' ],
	[ 'set bigint mul overflow', 2, '\set i 2 * (1<<62)' ],
	[ 'set bigint div out of range', 2, '\set i :minint / -1' ],
	[ 'sleep undefined variable', 2, '\sleep :nosuchvariable' ],
	[ 'sleep too many args', 1, '\sleep too many args' ],
	[ 'sleep missing arg', 1, '\sleep' ],
	[ 'sleep unknown unit', 1, '\sleep 1 week' ],
	[ 'misc invalid backslash command', 1, '\nosuchcommand' ],
	[ 'misc empty script', 1, '' ],
	[ 'bad boolean', 2, '\set b :badtrue or true' ],
	[ 'invalid permute size', 2, '\set i permute(0, 0)' ],
	[ 'gset no row', 2, 'SELECT WHERE FALSE \gset' ],
	[ 'gset alone', 1, '\gset' ],
	[ 'gset no SQL', 1, "\\set i +1\n\\gset" ],
	[ 'gset too many arguments', 1, 'SELECT 1 \gset a b' ],
	[ 'gset after gset', 1, "SELECT 1 AS i \\gset\n\\gset" ],
	[ 'gset non SELECT', 2, 'DROP TABLE IF EXISTS no_such_table \gset' ],
	[ 'gset bad default name', 2, 'SELECT 1 \gset' ],
	[ 'gset bad name', 2, 'SELECT 1 AS "bad name!" \gset' ],
	# 002: parse errors, refused before any run
	[ 'missing endif', 1, '\if 1' ],
	[ 'missing if on elif', 1, '\elif 1' ],
	[ 'missing if on else', 1, '\else' ],
	[ 'missing if on endif', 1, '\endif' ],
	[ 'elif after else', 1, "\\if 1\n\\else\n\\elif 0\n\\endif" ],
	[ 'else after else', 1, "\\if 1\n\\else\n\\else\n\\endif" ],
	[ 'if syntax error', 1, "\\if\n\\endif\n" ],
	[ 'elif syntax error', 1, "\\if 0\n\\elif +\n\\endif\n" ],
	[ 'else syntax error', 1, "\\if 0\n\\else BAD\n\\endif\n" ],
	[ 'endif syntax error', 1, "\\if 0\n\\endif BAD\n" ],
	[ 'not enough arguments for least', 1, "\\set i least()\n" ],
	[ 'not enough arguments for greatest', 1, "\\set i greatest()\n" ],
	[ 'not enough arguments for hash', 1, "\\set i hash()\n" ],
	[ 'too many arguments for hash', 1, "\\set i hash(1,2,3)\n" ],
	[ 'bigint overflow 1', 1, "\\set i 100000000000000000000\n" ],
	[ 'double overflow 2', 1, "\\set d 1.0E309\n" ],
	[ 'double overflow 3', 1, "\\set d .1E310\n" ],
	[ 'set i', 1, "\\set i 1 +\n" ],
	[ 'not enough arguments to permute', 1, "\\set i permute(1)\n" ],
	[ 'too many arguments to permute', 1, "\\set i permute(1, 2, 3, 4)\n" ],
	# not in pgbench's tests, found while replaying them: after an error
	# pgbench lexes on to the end of the line, and the last lexer error there
	# is the one it reports; a variable's name may start with a digit
	[ 'the last unexpected character', 1, "\\set i }{\n" ],
	[ 'a quoted string', 1, "\\set i 'a b' + 1\n" ],
	[ 'an overflow after a syntax error', 1, "\\set i ) 99999999999999999999\n" ],
	[ 'a variable named by digits', 2, "\\set i :1 + 1\n" ],
	# a sign alone looks like an integer to pgbench, and fails as a bigint
	[ 'a sign alone', 2, "\\set i :minus + 1\n" ],
	# \syncpipeline came with pgbench 17: 15 and 16 know no such command
	($major < 17 ? ([ 'no syncpipeline before pgbench 17', 1, "\\startpipeline\nSELECT 1;\n\\syncpipeline\n\\endpipeline\n" ]) : ()),
	# where a misplaced \gset is reported: pgbench 15 to 17 count the lines
	# to where their lexer resumed, 18 names the \gset's own
	[ 'gset first, then more lines', 1, "\\gset\nSELECT 1;\n\n" ],
	[ 'gset after a meta-command and a blank line', 1, "\\set i 1\n\n\\gset\nSELECT 1;\n" ],
	[ 'aset after a comment', 1, "-- c;\n\\aset\nSELECT 1;\n" ],
);
for my $e (@errors)
{
	my ($name, $rc, $script) = @$e;
	(my $file = "error_$name") =~ s/[^A-Za-z0-9_]+/_/g;
	my %case = (name => "script error: $name", opts => "-n -t 1 $all_vars -M prepared", rc => $rc,
		files => [ [ $file, $script ] ]);
	# 'sql syntax error': pgbench and pgbenchx print the PREPARE's error, go
	# on, and abort on the missing prepared statement: the same abort line
	# docs/scripts.md: input echoed in the errors of the SQL functions is cut at 200 bytes
	$case{cut} = 1 if $name eq 'sql too many args';
	push @cases, \%case;
}

# --- running one side ----------------------------------------------------

my %opt_spec = (
	'c|client=i' => 'c', 't|transactions=i' => 't', 'T|time=i' => 'T', 'j|jobs=i' => 'j',
	'M|protocol=s' => 'M', 'b|builtin=s@' => 'b', 'S' => 'S', 'N' => 'N', 'D|define=s@' => 'D',
	'random-seed=s' => 'seed', 'R|rate=f' => 'R', 'L|latency-limit=f' => 'L', 'max-tries=i' => 'tries',
	'C|connect' => 'C', 'n|no-vacuum' => 'n');

sub parse_opts
{
	my ($opts) = @_;
	my %o;
	Getopt::Long::Configure('bundling', 'no_ignore_case');
	my @words = split /\s+/, $opts;
	GetOptionsFromArray(\@words, map { my $k = $opt_spec{$_}; ($_ => \$o{$k}) } keys %opt_spec)
	  or die "bad options: $opts";
	push @{ $o{b} }, 'select-only' if $o{S};
	push @{ $o{b} }, 'simple-update' if $o{N};
	return \%o;
}

sub file_path { return "$dir/$_[0]"; }

# the lines of pgbench's summary that say what ran and what was counted
# (not the times)
sub header
{
	my ($text) = @_;
	my $want = qr/^(?:transaction type|scaling factor|query mode|number of clients|number of threads|maximum number of tries|number of transactions per client|number of transactions actually processed|number of failed transactions|number of transactions retried|total number of retries|number of transactions skipped|number of transactions above)/;
	return join "\n", map { s{\Q$dir/\E}{}gr } grep { /$want/ } split /\n/, $text;
}

# stock pgbench's counts from its summary
sub counts
{
	my ($out) = @_;
	my %c;
	$c{processed} = $1 if $out =~ /number of transactions actually processed: (\d+)/;
	$c{failed} = $1 if $out =~ /number of failed transactions: (\d+)/;
	$c{retried} = $1 if $out =~ /number of transactions retried: (\d+)/;
	$c{retries} = $1 if $out =~ /total number of retries: (\d+)/;
	$c{skipped} = $1 if $out =~ /number of transactions skipped: (\d+)/;
	$c{late} = $1 if $out =~ /number of transactions above the [\d.]+ ms latency limit: (\d+)/;
	$c{per_script} = join ',', $out =~ /^ - (\d+) transactions \(/mg;
	return \%c;
}

sub stock
{
	my ($case, $who) = @_;
	q1($case->{before}) if $case->{before};
	my @files = map { file_path($_->[0]) . (defined $_->[2] ? "\@$_->[2]" : '') } @{ $case->{files} // [] };
	my @cmd = ($pgbench, split(/\s+/, $case->{opts}), "-Dwho=$who", map({ ('-f', $_) } @files),
		'-h', $node->host, '-p', $node->port, 'postgres');
	local $ENV{PGOPTIONS} = $case->{pgoptions} if $case->{pgoptions};
	my ($out, $err) = ('', '');
	IPC::Run::run(\@cmd, '>', \$out, '2>', \$err);
	return { rc => $? >> 8, out => $out, err => $err, %{ counts($out) } };
}

# psql's ERROR message and DETAIL from its stderr
sub sql_error
{
	my ($stderr) = @_;
	my ($msg, $detail) = $stderr =~ /ERROR:  (.*?)(?:\nDETAIL:  (.*?))?(?:\n(?:HINT|CONTEXT):  |\n*\z)/s;
	return ($msg // $stderr, $detail);
}

sub x_side
{
	my ($case, $who) = @_;
	my $o = parse_opts($case->{opts});
	my @mix = @{ $o->{b} // [] };
	my @files = @{ $case->{files} // [] };
	if (@files)
	{
		my ($ret, $out, $err) = $node->psql('postgres',
			join('', map { "SELECT pgbenchx.add_script('$_->[0]', \$body\$$_->[1]\$body\$, replace => true);\n" } @files));
		if ($ret != 0)
		{
			my ($msg, $detail) = sql_error($err);
			return { refused => 1, message => $msg, detail => $detail };
		}
		push @mix, map { $_->[0] . (defined $_->[2] ? "\@$_->[2]" : '') } @files;
	}
	my %vars = (who => $who);
	foreach (@{ $o->{D} // [] })
	{
		my ($k, $v) = /^([^=]+)=(.*)$/ or die "bad -D $_";
		$vars{$k} = $v;
	}
	my $json = '{' . join(', ', map { my $v = $vars{$_}; $v =~ s/(["\\])/\\$1/g; "\"$_\": \"$v\"" } sort keys %vars) . '}';
	my $clients = $o->{c} // 1;
	# record_system => false: nothing here reads the system samples, and
	# each run is then shorter
	my @args = ("script => '" . join(', ', @mix) . "'", 'checkpoint => false', 'record_system => false',
		'vacuum => ' . ($o->{n} ? 'false' : 'true'), "variables => '$json'",
		'jobs => ' . (($o->{j} // 1) < $clients ? ($o->{j} // 1) : $clients));
	push @args, "transactions => $o->{t}" if $o->{t};
	push @args, "transactions => 10" unless $o->{t} || $o->{T};    # pgbench's default
	push @args, "protocol => '$o->{M}'" if $o->{M};
	push @args, "random_seed => $o->{seed}" if defined $o->{seed};
	push @args, "rate => $o->{R}" if $o->{R};
	push @args, "latency_limit => $o->{L}" if $o->{L};
	push @args, "max_tries => $o->{tries}" if defined $o->{tries};
	push @args, 'connect_per_transaction => true' if $o->{C};
	if ($case->{pgoptions})
	{
		(my $v = $case->{pgoptions}) =~ s/\\/\\\\/g;
		push @args, "conninfo => \$c\$options='$v'\$c\$";
	}
	push @args, "conninfo => \$c\$$case->{conninfo}\$c\$" if $case->{conninfo};
	my $call = "SELECT run_bench($clients, " . ($o->{T} // 'NULL') . ', ' . join(', ', @args) . ')';
	q1($case->{before}) if $case->{before};
	my ($ret, $id, $err) = $node->psql('postgres', $call);
	if ($ret != 0)
	{
		my ($msg, $detail) = sql_error($err);
		return { refused => 1, message => $msg, detail => $detail, call => $call };
	}
	# one session: wait, then the run's row and its report
	my ($row, $report) = split /\x1e/, q1("SET client_min_messages = warning; CALL pgbenchx.wait($id); "
		  . "SELECT concat_ws(chr(31), status, transactions, failed, retried, retries, skipped, late, aborted_clients, "
		  . "coalesce(error, '')) || chr(30) || pgbenchx.report($id) FROM pgbenchx.runs WHERE run_id = $id");
	my %r = (id => $id, call => $call);
	@r{qw(status processed failed retried retries skipped late aborted error)} = split /\x1f/, $row, -1;
	$r{per_script} = join ',', $report =~ /^ - (\d+) transactions \(/mg;
	$r{header} = header($report);
	return \%r;
}

# What stock pgbench printed about the first client that aborted: its abort
# line, with the message pgbench printed just before it in place of its
# generic "evaluation of meta-command failed"
sub stock_abort
{
	my ($err) = @_;
	my @lines = map { s/^pgbench: error: //r } grep { /^pgbench: error: / } split /\n/, $err;
	@lines = grep { !/^Run was aborted/ } @lines;
	for my $i (0 .. $#lines)
	{
		next unless $lines[$i] =~ /^client \d+ /;
		if ($lines[$i] =~ /^(client \d+ aborted in command \d+ \(\w+\) of script \d+; )(?:evaluation|assignment|execution) of meta-command failed$/
			&& $i > 0)
		{
			return $1 . $lines[ $i - 1 ];
		}
		return $lines[$i];
	}
	return undef;
}

# What stock pgbench printed when it refused to start: its error lines with
# the script's path as pgbenchx names the script
sub stock_refusal
{
	my ($err) = @_;
	my @lines = grep { !/^pgbench \(/ && !/^pgbench: hint: / } split /\n/, $err;
	my $text = join "\n", map { s/^pgbench: error: //r } @lines;
	$text =~ s{\Q$dir/\E}{}g;
	return $text;
}

q1('CREATE TABLE vals (id bigserial, who int, k text, v text)');
q1('CREATE UNLOGGED TABLE first_client_table (value integer); '
	  . 'CREATE UNLOGGED TABLE xy (x integer, y integer); INSERT INTO xy VALUES (1, 2)');

# after each \set, its variable into vals (so that both sides' values can
# be compared without pgbench's debug output)
sub dumped
{
	my ($script) = @_;
	my ($out, $cmd) = ('', '');
	foreach my $line (split /\n/, $script)
	{
		$out .= "$line\n";
		$cmd .= $line;
		next if $line =~ /\\$/;
		if ($cmd =~ /^\\set\s+(\w+)/)
		{
			$out .= "INSERT INTO vals (who, k, v) VALUES (:who, '$1', (:$1)::text);\n";
		}
		$cmd = '';
	}
	return $out;
}

# --- init, and the runs before it ----------------------------------------

{
	my ($ret, $out, $err) = ('', '', '');
	IPC::Run::run([ $pgbench, '-S', '-t', '1', '-h', $node->host, '-p', $node->port, 'postgres' ],
		'>', \$out, '2>', \$err);
	is($? >> 8, 1, 'run without init: stock pgbench refuses');
	like($err, qr{Perhaps you need to do initialization}, 'run without init: with its hint');
	($ret, $out, my $xerr) = $node->psql('postgres', "SELECT run_bench(1, transactions => 1, script => 'select-only')");
	isnt($ret, 0, 'run without init: run_bench refuses');
	like($xerr, qr{HINT:  Create them first, for example with SELECT pgbench_init}, 'run without init: with a hint to init');
	my ($core) = $err =~ /(relation "pgbench_branches" does not exist)/;
	ok(defined $core && index($xerr, $core) >= 0, 'run without init: the server\'s error in both');

	IPC::Run::run([ $pgbench, '-t', '1', '-h', $node->host, '-p', $node->port, 'no-such-database' ], '>', \$out, '2>', \$err);
	is($? >> 8, 1, 'no such database: stock pgbench refuses');
	($ret, $out, $xerr) = $node->psql('postgres',
		"SELECT run_bench(1, transactions => 1, conninfo => 'dbname=no-such-database')");
	isnt($ret, 0, 'no such database: run_bench refuses');
	($core) = $err =~ /(FATAL:  database "no-such-database" does not exist)/;
	ok(defined $core && index($xerr, $core) >= 0, "no such database: the server's error in both ($xerr)");
}

# the tables as pgbench -i and pgbench_init leave them
my $layout = q{
	SELECT string_agg(concat_ws(' ', c.relname, c.relkind, c.relpersistence, c.reloptions::text,
		pg_get_partkeydef(c.oid), pg_get_expr(c.relpartbound, c.oid),
		(SELECT string_agg(pg_get_constraintdef(k.oid), ', ' ORDER BY pg_get_constraintdef(k.oid)) FROM pg_constraint k WHERE k.conrelid = c.oid)),
		E'\n' ORDER BY c.relname)
	FROM pg_class c WHERE c.relname LIKE 'pgbench%' AND c.relkind IN ('r', 'p', 'i')};
my $content = q{SELECT (SELECT count(*) || ' ' || sum(abalance) FROM pgbench_accounts),
	(SELECT count(*) FROM pgbench_branches), (SELECT count(*) FROM pgbench_tellers), (SELECT count(*) FROM pgbench_history)};
foreach my $init (
	[ 'pgbench scale 1 initialization', '-i', 'scale => 1' ],
	[ 'initialization with options', '--initialize --init-steps=dtpvg --scale=1 --unlogged-tables --fillfactor=98 '
		. '--foreign-keys --quiet --partitions=2 --partition-method=hash',
	  'scale => 1, unlogged => true, fillfactor => 98, foreign_keys => true, partitions => 2, partition_method => \'hash\'' ],
	[ 'pgbench --init-steps', '--initialize --init-steps=dtpvGvv --no-vacuum --foreign-keys --unlogged-tables --partitions=3',
	  'scale => 1, foreign_keys => true, unlogged => true, partitions => 3' ],
	[ 'pgbench scale 1 initialization (again, for the runs)', '-i', 'scale => 1' ])
{
	my ($name, $opts, $args) = @$init;
	my ($out, $err) = ('', '');
	IPC::Run::run([ $pgbench, split(/\s+/, $opts), '-h', $node->host, '-p', $node->port, 'postgres' ],
		'>', \$out, '2>', \$err);
	is($? >> 8, 0, "$name: stock pgbench -i succeeds");
	my ($want_layout, $want_content) = (q1($layout), q1($content));
	q1("SET client_min_messages = warning; SELECT pgbench_init($args)");
	is(q1($layout), $want_layout, "$name: pgbench_init makes the same tables, keys and partitions");
	is(q1($content), $want_content, "$name: with the same rows");
}

# --- the runs ------------------------------------------------------------

my $who = 0;
foreach my $case (@cases)
{
	my $name = $case->{name};
	my @files = @{ $case->{files} // [] };
	$_->[1] = dumped($_->[1]) foreach ($case->{dump} ? @files : ());
	foreach my $f (@files)
	{
		open my $fh, '>', file_path($f->[0]) or die "cannot write: $!";
		print $fh $f->[1];
		close $fh;
	}
	my ($pw, $xw) = ($who + 1, $who + 2);
	$who += 2;
	my $pg = stock($case, $pw);
	my $pg_after = $case->{after} ? q1($case->{after}) : undef;
	is($pg->{rc}, $case->{rc}, "$name: stock pgbench exits $case->{rc}")
	  or diag("stdout:\n$pg->{out}\nstderr:\n$pg->{err}");
	my $x = x_side($case, $xw);
	is(q1($case->{after}), $pg_after, "$name: $case->{after} gives $pg_after under both") if $case->{after};

	if ($case->{shell})
	{
		ok($x->{refused} && $x->{message} =~ /shell commands are not supported by pgbenchx/,
			"$name: pgbenchx refuses the shell commands, as docs/scripts.md says");
		next;
	}
	if ($case->{differs})
	{
		ok($x->{status} eq 'failed' && $x->{error} =~ $case->{differs},
			"$name: pgbenchx fails with $case->{differs}, as docs/scripts.md says") or diag(explain($x));
		next;
	}
	if ($case->{rc} == 1 || $case->{refused})
	{
		ok($x->{refused}, "$name: pgbenchx refuses it before any run")
		  or diag(explain($x));
		next unless $x->{refused};
		if ($case->{refused})
		{
			# pgbench's words after "; " (or "aborted: ") in its abort line end
			# pgbenchx's message
			my ($core) = (stock_abort($pg->{err}) // '') =~ /(?:; |aborted: )(.*)$/;
			ok(defined $core && $x->{message} =~ /: \Q$core\E$/,
				"$name: with pgbench's message ($x->{message})");
			next;
		}
		my $want = stock_refusal($pg->{err});
		my $got = $x->{detail} // $x->{message};
		if ($case->{cut})
		{
			ok(length($got) >= 100 && index($want, $got) == 0, "$name: pgbench's message, cut") or diag("$got\n$want");
		}
		else
		{
			is($got, $want, "$name: the same message, line and caret");
		}
		next;
	}

	is($x->{status}, $case->{rc} == 0 ? 'completed' : 'failed', "$name: pgbenchx's run ends as pgbench's")
	  or diag("pgbenchx: " . explain($x) . "\nstock: $pg->{err}");
	# pgbench prints its summary after an abort too
	is($x->{header}, header($pg->{out}), "$name: report() prints pgbench's summary lines")
	  unless $case->{bounded};
	if ($case->{bounded})
	{
		for my $side ([ 'stock', $pg ], [ 'pgbenchx', $x ])
		{
			my ($who_, $r) = @$side;
			ok($r->{processed} <= 1 && $r->{skipped} == 10 - $r->{processed} && $r->{late} <= 1,
				"$name: $who_ runs at most one transaction, skips the others");
		}
	}
	else
	{
		foreach my $k (qw(processed failed retried retries skipped late))
		{
			next unless defined $pg->{$k};
			is($x->{$k}, $pg->{$k}, "$name: $k $pg->{$k}");
		}
		is($x->{per_script}, $pg->{per_script}, "$name: per script: $pg->{per_script}")
		  if $case->{per_script};
	}
	if ($case->{rc} == 2)
	{
		my $want = stock_abort($pg->{err});
		my ($got) = split /\n/, $x->{error};
		if ($case->{core})
		{
			ok($pg->{err} =~ $case->{core} && $x->{error} =~ $case->{core}, "$name: both carry $case->{core}")
			  or diag("stock: $pg->{err}\npgbenchx: $x->{error}");
		}
		else
		{
			is($got, $want, "$name: the same abort message");
		}
		# the server's error lines after it (CONTEXT with the parameters)
		if ($pg->{err} =~ /\n(CONTEXT:  [^\n]*)/)
		{
			my $context = $1;
			ok(index($x->{error}, $context) >= 0, "$name: and the server's $context");
		}
	}
	if ($case->{dump})
	{
		my $sql = 'SELECT k, coalesce(v, \'NULL\') FROM vals WHERE who = %d ORDER BY id';
		my $want = q1(sprintf($sql, $pw));
		ok(scalar(split /\n/, $want) >= 2, "$name: stock pgbench wrote its variables");
		is(q1(sprintf($sql, $xw)), $want, "$name: the same values");
	}
}

# 002's option errors that are run_bench's arguments: both refuse, with the
# same message (pgbench quotes the option's text where run_bench has a number)
foreach my $o (
	[ 'invalid weight', '-b select-only@one', "script => 'select-only\@one'", qr{invalid weight specification: \@one} ],
	[ 'weight out of range', '-b select-only@-1', "script => 'select-only\@-1'",
	  qr{weight specification out of range \(0 \.\. 2147483647\): -1} ],
	[ 'weight zero', '-b se@0 -b si@0 -b tpcb@0', "script => 'se\@0, si\@0, tpcb\@0'", qr{total script weight must not be zero} ],
	[ 'ambiguous builtin', '-b s', "script => 's'", qr{ambiguous builtin name: 2 builtin scripts found for prefix "s"} ],
	[ 'too many scripts', '-S ' x 129, "script => '" . join(', ', ('select-only') x 129) . "'",
	  qr{at most 128 SQL scripts are allowed} ],
	[ 'invalid rate', '--rate=0.0', 'rate => 0', qr{invalid rate limit: "?0} ],
	[ 'invalid latency', '--latency-limit=0.0', 'latency_limit => 0', qr{invalid latency limit: "?0} ],
	[ 'bad maximum number of tries', '--max-tries -10', 'max_tries => -10', qr{invalid number of maximum tries: "?-10} ],
	[ 'an infinite number of tries', '--max-tries 0', 'max_tries => 0',
	  qr{an unlimited number of transaction tries can only be used with (?:--latency-limit|a latency limit) or a duration} ])
{
	my ($name, $opts, $args, $re) = @$o;
	my ($out, $err) = ('', '');
	IPC::Run::run([ $pgbench, '-t', '1', split(/\s+/, $opts), '-h', $node->host, '-p', $node->port, 'postgres' ],
		'>', \$out, '2>', \$err);
	is($? >> 8, 1, "option error: $name: stock pgbench refuses");
	like($err, $re, "option error: $name: stock pgbench's message");
	my ($ret, $xout, $xerr) = $node->psql('postgres', "SELECT run_bench(1, transactions => 1, $args)");
	my ($msg) = sql_error($xerr);
	ok($ret != 0 && $msg =~ $re, "option error: $name: run_bench refuses with it ($msg)");
}

ok(nothing_left($node), 'nothing left behind');
$node->stop;
done_testing();
