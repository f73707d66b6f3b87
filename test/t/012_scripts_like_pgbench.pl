# A custom script runs under pgbenchx as under stock pgbench: the same
# script, one client, the same --random-seed, each writing its variables
# into a table, give identical values (\set with each random function,
# hash, permute, \if chains, \gset, \aset, \sleep), in simple and extended
# mode.  Also: -D style variables, and a script ending inside a transaction.
# (\aset with a \; compound needs the simple protocol, in pgbench too.)
# The stock pgbench is the one of the server's major, first on PATH: a
# \syncpipeline script (pgbench 17) runs alike on 17 and later, and both
# refuse it in the same words before.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('scripts');
$node->safe_psql('postgres', q{
	CREATE TABLE vals (who int, tx int, r1 bigint, r2 bigint, r3 bigint, r4 bigint,
	                   h bigint, p bigint, branch int, g1 bigint, a2 bigint, d text)});

my $script = <<'SCRIPT';
\set r1 random(1, 1000000)
\set r2 random_exponential(1, 1000, 3.0)
\set r3 random_gaussian(1, 1000, 2.5)
\set r4 random_zipfian(1, 1000, 1.5)
\set h hash(:r1)
\set p permute(:r1, 1000000)
\if :r1 % 3 = 0
  \set branch 0
\elif :r1 % 3 = 1
  \set branch 1
\else
  \set branch 2
\endif
SELECT :r1 + 1 AS g1 \gset
SELECT 1 AS a1, :r2 * 2 AS a2 \aset
\sleep 1 ms
\set d 1.0 * :r3 / 7
INSERT INTO vals VALUES (:who, (SELECT count(*) FROM vals WHERE who = :who), :r1, :r2, :r3, :r4, :h, :p, :branch, :g1, :a2, :d);
SCRIPT
# (who is given as -D / variables; the table counts the transactions)

my $file = $node->basedir . '/cmp.sql';
open(my $fh, '>', $file) or die;
print $fh $script;
close $fh;

$node->safe_psql('postgres', "SELECT pgbenchx.add_script('cmp', \$s\$$script\$s\$)");

foreach my $mode ('simple', 'extended')
{
	my ($who_pg, $who_x) = $mode eq 'simple' ? (1, 2) : (3, 4);
	$node->command_ok([ 'pgbench', '-n', '-c', '1', '-t', '5', '--random-seed=5432', '-M', $mode,
		'-D', "who=$who_pg", '-f', $file, '-d', $node->connstr('postgres') ],
		"stock pgbench runs the script ($mode)");
	my $id = $node->safe_psql('postgres', qq{
		SELECT run_bench(1, transactions => 5, script => 'cmp', protocol => '$mode', random_seed => 5432,
		                 vacuum => false, checkpoint => false,
		                 variables => '{"who": $who_x}')});
	$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
	is($node->safe_psql('postgres', "SELECT status || ' ' || transactions FROM pgbenchx.runs WHERE run_id = $id"),
		'completed 5', "pgbenchx runs the script ($mode)");

	my $cols = 'tx, r1, r2, r3, r4, h, p, branch, g1, a2, d';
	my $want = $node->safe_psql('postgres', "SELECT $cols FROM vals WHERE who = $who_pg ORDER BY tx");
	my $got = $node->safe_psql('postgres', "SELECT $cols FROM vals WHERE who = $who_x ORDER BY tx");
	is(scalar(split /\n/, $want), 5, "stock pgbench wrote 5 rows ($mode)");
	is($got, $want, "identical values to stock pgbench with the same seed ($mode)");
}

# pipelines, in the extended and prepared protocols
my $pipe = <<'SCRIPT';
\set r1 random(1, 1000000)
\set r2 random_exponential(1, 1000, 3.0)
\startpipeline
INSERT INTO vals (who, tx, r1, r2) VALUES (:who, (SELECT count(*) FROM vals WHERE who = :who), :r1, :r2);
SELECT 1;
\endpipeline
SCRIPT
my $pfile = $node->basedir . '/pipe.sql';
open($fh, '>', $pfile) or die;
print $fh $pipe;
close $fh;
$node->safe_psql('postgres', "SELECT pgbenchx.add_script('pipe', \$s\$$pipe\$s\$)");
foreach my $mode ('extended', 'prepared')
{
	my ($who_pg, $who_x) = $mode eq 'extended' ? (5, 6) : (7, 8);
	$node->command_ok([ 'pgbench', '-n', '-c', '1', '-t', '5', '--random-seed=77', '-M', $mode,
		'-D', "who=$who_pg", '-f', $pfile, '-d', $node->connstr('postgres') ],
		"stock pgbench runs the pipeline ($mode)");
	my $id = $node->safe_psql('postgres', qq{
		SELECT run_bench(1, transactions => 5, script => 'pipe', protocol => '$mode', random_seed => 77,
		                 vacuum => false, checkpoint => false, variables => '{"who": $who_x}')});
	$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
	is($node->safe_psql('postgres', "SELECT status || ' ' || transactions FROM pgbenchx.runs WHERE run_id = $id"),
		'completed 5', "pgbenchx runs the pipeline ($mode)");
	my $want = $node->safe_psql('postgres', "SELECT tx, r1, r2 FROM vals WHERE who = $who_pg ORDER BY tx");
	is(scalar(split /\n/, $want), 5, "stock pgbench's pipeline wrote 5 rows ($mode)");
	is($node->safe_psql('postgres', "SELECT tx, r1, r2 FROM vals WHERE who = $who_x ORDER BY tx"), $want,
		"identical values through a pipeline ($mode)");
}

# \syncpipeline: pgbench 17's, so the server's major decides for both sides
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
my ($pg_major) = `pgbench --version` =~ /^pgbench \(PostgreSQL\) (\d+)/m;
is($pg_major, $major, "the pgbench first on PATH is PostgreSQL ${major}'s");
my $sync = <<'SCRIPT';
\set r1 random(1, 1000000)
\set r2 random_exponential(1, 1000, 3.0)
\startpipeline
INSERT INTO vals (who, tx, r1) VALUES (:who, (SELECT count(*) FROM vals WHERE who = :who), :r1);
\syncpipeline
\syncpipeline
INSERT INTO vals (who, tx, r2) VALUES (:who, (SELECT count(*) FROM vals WHERE who = :who), :r2);
\syncpipeline
SELECT 1;
\endpipeline
SCRIPT
my $sfile = $node->basedir . '/sync.sql';
open($fh, '>', $sfile) or die;
print $fh $sync;
close $fh;
my ($src, $sout, $serr) = $node->psql('postgres', "SELECT pgbenchx.add_script('sync', \$s\$$sync\$s\$)");
if ($major >= 17)
{
	is($src, 0, 'add_script takes \syncpipeline') or diag($serr);
	foreach my $mode ('extended', 'prepared')
	{
		my ($who_pg, $who_x) = $mode eq 'extended' ? (9, 10) : (11, 12);
		$node->command_ok([ 'pgbench', '-n', '-c', '1', '-t', '3', '--random-seed=99', '-M', $mode,
			'-D', "who=$who_pg", '-f', $sfile, '-d', $node->connstr('postgres') ],
			"stock pgbench $major runs \\syncpipeline ($mode)");
		my $id = $node->safe_psql('postgres', qq{
			SELECT run_bench(1, transactions => 3, script => 'sync', protocol => '$mode', random_seed => 99,
			                 vacuum => false, checkpoint => false, variables => '{"who": $who_x}')});
		$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
		is($node->safe_psql('postgres', "SELECT status || ' ' || transactions FROM pgbenchx.runs WHERE run_id = $id"),
			'completed 3', "pgbenchx runs \\syncpipeline ($mode)");
		my $want = $node->safe_psql('postgres', "SELECT tx, r1, r2 FROM vals WHERE who = $who_pg ORDER BY tx");
		is(scalar(split /\n/, $want), 6, "stock pgbench's synced pipeline wrote 6 rows ($mode)");
		is($node->safe_psql('postgres', "SELECT tx, r1, r2 FROM vals WHERE who = $who_x ORDER BY tx"), $want,
			"identical values through a synced pipeline ($mode)");
	}
}
else
{
	my ($pg_out, $pg_err) = ('', '');
	IPC::Run::run([ 'pgbench', '-n', '-t', '1', '-M', 'extended', '-f', $sfile, '-d', $node->connstr('postgres') ],
		'>', \$pg_out, '2>', \$pg_err);
	is($? >> 8, 1, "stock pgbench $major refuses \\syncpipeline");
	(my $want = $pg_err) =~ s/^pgbench: error: //;
	$want =~ s/\Q$sfile\E/sync/;
	$want =~ s/\n+\z//;
	my ($detail) = $serr =~ /DETAIL:  (.*?)\nHINT:/s;
	isnt($src, 0, "add_script refuses \\syncpipeline on $major");
	is($detail, $want, 'in the words, line and command of stock pgbench');
}

# a script that ends with its pipeline open: refused at the call when every
# transaction would (no \if), else its client is aborted, as pgbench does
$node->safe_psql('postgres', "SELECT pgbenchx.add_script('open-pipe-always', \$s\$\\startpipeline\nSELECT 1;\n\$s\$)");
my ($orc, $oout, $oerr) = $node->psql('postgres',
	"SELECT run_bench(1, 1, 'open-pipe-always', protocol => 'extended', vacuum => false, checkpoint => false)");
like($oerr, qr/script "open-pipe-always" cannot run: end of script reached with pipeline open/,
	'a script that always ends with its pipeline open is refused at the call');
$node->safe_psql('postgres', "SELECT pgbenchx.add_script('open-pipe', \$s\$\\if 1\n\\startpipeline\n\\endif\nSELECT 1;\n\$s\$)");
my $oid = $node->safe_psql('postgres',
	"SELECT run_bench(1, 1, 'open-pipe', protocol => 'extended', vacuum => false, checkpoint => false)");
$node->safe_psql('postgres', "CALL pgbenchx.wait($oid)");
is($node->safe_psql('postgres', "SELECT status || ': ' || error FROM pgbenchx.runs WHERE run_id = $oid"),
	'failed: client 0 aborted: end of script reached with pipeline open',
	'a script ending with its pipeline open aborts the client');

# a script that ends inside a transaction aborts its client, as pgbench does
$node->safe_psql('postgres', q{SELECT pgbenchx.add_script('open-tx', E'BEGIN;\nSELECT 1;\n')});
my $id = $node->safe_psql('postgres',
	"SELECT run_bench(1, 2, 'open-tx', vacuum => false, checkpoint => false)");
$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
is($node->safe_psql('postgres', "SELECT status || ': ' || error FROM pgbenchx.runs WHERE run_id = $id"),
	'failed: client 0 aborted: end of script reached without completing the last transaction',
	'a script ending in an open transaction aborts the client');
is($node->safe_psql('postgres', "SELECT transactions || ' ' || aborted_clients FROM pgbenchx.runs WHERE run_id = $id"),
	'1 1', 'after counting its transaction, as pgbench does (processed: 1)');

# in a mix, the abort names the script that failed (its index in the mix),
# in stock pgbench's words: an SQL error and a meta-command error
$node->safe_psql('postgres', q{SELECT pgbenchx.add_script('mix-ok', E'SELECT 1;\n')});
$node->safe_psql('postgres', q{SELECT pgbenchx.add_script('mix-bad', E'SELECT 1/0;\n')});
$node->safe_psql('postgres', q{SELECT pgbenchx.add_script('mix-badset', E'\\\\set x 1 / 0\n')});
my ($okf, $badf) = map { $node->basedir . "/$_.sql" } ('mix-ok', 'mix-bad');
foreach ([ $okf, "SELECT 1;\n" ], [ $badf, "SELECT 1/0;\n" ])
{
	open(my $mfh, '>', $_->[0]) or die;
	print $mfh $_->[1];
	close $mfh;
}
my ($pg_out, $pg_err) = ('', '');
IPC::Run::run([ 'pgbench', '-n', '-c', '1', '-t', '1', '-f', "$okf\@0", '-f', "$badf\@1",
	'-d', $node->connstr('postgres') ], '>', \$pg_out, '2>', \$pg_err);
my ($pg_line) = $pg_err =~ /(client 0 script 1 aborted in command 0 query 0: [^\n]*)/;
ok(defined $pg_line, 'stock pgbench names script 1 of its mix');
my $mid = $node->safe_psql('postgres',
	"SELECT run_bench(1, 1, 'mix-ok\@0, mix-bad\@1', vacuum => false, checkpoint => false)");
$node->safe_psql('postgres', "CALL pgbenchx.wait($mid)");
is($node->safe_psql('postgres', "SELECT status || ': ' || error FROM pgbenchx.runs WHERE run_id = $mid"),
	'failed: ' . ($pg_line // 'client 0 script 1 aborted in command 0 query 0: ERROR:  division by zero'),
	'pgbenchx names the same script and command, in the same words');
$mid = $node->safe_psql('postgres',
	"SELECT run_bench(1, 1, 'mix-ok\@0, mix-badset\@1', vacuum => false, checkpoint => false)");
$node->safe_psql('postgres', "CALL pgbenchx.wait($mid)");
like($node->safe_psql('postgres', "SELECT status || ': ' || error FROM pgbenchx.runs WHERE run_id = $mid"),
	qr/^failed: client 0 aborted in command 0 \(set\) of script 1; .*division by zero/,
	'a meta-command error names its command and script as pgbench does');

$node->stop;
done_testing();
