# The client program pgbenchx (src/cli/, issue 24's first slice), side by
# side with the stock pgbench of the server's major: -i through
# pgbench_init; a run prints pgbench's lines in pgbench's order and formats
# (numbers stripped to their shape, as 040 compares report() with pgbench),
# the "tps =" line of the seed-000 loop's grep in the same form, then the
# stored run id, and the run is in pgbenchx.runs with the options given; -P
# prints pgbench's progress lines; -f sends a file's text; bad options exit
# 1 with pgbench's words; a run whose clients abort exits 2, as pgbench's;
# --sweep makes a sweep; SIGINT cancels the run on the server; the seed-000
# loop's grep 'tps =' prints pgbench's form.  What pgbench's clients print
# on stderr, side by side with stock pgbench (issue 36): debug() lines,
# notices, abort lines, --verbose-errors, starting vacuum...end., -i's
# vacuuming step, --exit-on-abort (17 and later; unknown before), the exit
# codes of scripts whose clients would abort and of \shell, and lost
# messages counted.  Short runs (1-2 s), scale 1.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('cli');
my $cli = pgbenchx_cli();
my $pgbench = major_pgbench();
my $db = $node->connstr('postgres');

# run(program, args...): exit code, stdout, stderr
sub run
{
	my ($prog, @args) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ $prog, @args ], '>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

# the shape of a summary line (040's rule): numbers by their format
sub shape
{
	my @out;
	foreach my $line (@_)
	{
		my $l = $line;
		$l =~ s/^(SQL script \d+:) .*/$1 NAME/;
		if ($l =~ /^ +-?\d+\.\d{3} /)
		{
			my $cmd = $l =~ s/^((?: +-?\d+(?:\.\d{3})?)+)//r;
			$cmd =~ s/\b\d+\b/N/g;
			push @out, "STATEMENT $cmd";
			next;
		}
		$l =~ s/-?\d+\.\d{6}\b/F6/g;
		$l =~ s/-?\d+\.\d{3}\b/F3/g;
		$l =~ s/-?\d+\.\d\b/F1/g;
		$l =~ s/\b\d+\b/N/g;
		push @out, $l;
	}
	return join("\n", @out);
}

# stdout without its banner (and, for pgbenchx, without its id line)
sub summary
{
	my ($out) = @_;
	my @lines = split /\n/, $out;
	shift @lines if @lines && $lines[0] =~ /^pgbenchx? \(/;
	return grep { !/^run_id = \d+$/ } @lines;
}

my ($rc, $out, $err);
# a database without the extension: said first, with what to do, exit 1
# (issue 37: not pgbench's steps, then "function pgbench_init does not exist")
$node->safe_psql('postgres', 'CREATE DATABASE no_extension');
foreach my $args ([ '-i', '-s', '1' ], [ '-n', '-t', '1', '-S' ], [ 'report', '1', '-d' ])
{
	($rc, $out, $err) = run($cli, @$args, $node->connstr('no_extension'));
	is($rc, 1, "@$args in a database without pgbenchx: exit 1");
	like($err, qr/\Apgbenchx: error: extension "pgbenchx" is not installed in database "no_extension"\npgbenchx: hint: .*CREATE EXTENSION pgbenchx/,
		"@$args in a database without pgbenchx: says so first, and what to do");
}

# -i: pgbench_init, the tables there
($rc, $out, $err) = run($cli, '-i', '-s', '1', '-F', '90', $db);
is($rc, 0, '-i exits 0') or diag($err);
like($err, qr/^done in [0-9.]+ s/m, '-i prints pgbench_init\'s "done in" line');
is($node->safe_psql('postgres', 'SELECT count(*) FROM pgbench_branches'), '1', '-i -s 1 made scale 1');
# pgbench's "v" step: the tables vacuumed once pgbench_init committed them
like($err, qr/^vacuuming\.\.\.$/m, "-i prints pgbench's vacuuming step");
is($node->safe_psql('postgres', "SELECT count(*) FROM pg_stat_user_tables WHERE relname IN "
	  . "('pgbench_accounts', 'pgbench_branches', 'pgbench_tellers', 'pgbench_history') AND last_vacuum IS NOT NULL"),
	'4', '-i: and the four tables were vacuumed');
($rc, $out, $err) = run($cli, '-i', '-n', '-s', '1', $db);
is($rc, 0, '-i -n exits 0') or diag($err);
unlike($err, qr/vacuuming/, '-i -n: no vacuuming step, as pgbench');
is($node->safe_psql('postgres', "SELECT count(*) FROM pg_stat_user_tables WHERE relname = 'pgbench_accounts' AND last_vacuum IS NOT NULL"),
	'0', '-i -n: the new tables were not vacuumed');
($rc, $out, $err) = run($cli, '-i', '-I', 'dtgp', '-s', '1', $db);
unlike($err, qr/vacuuming/, '-i -I dtgp: no vacuuming step');
like($err, qr/^pgbenchx: warning: step "g" \(client-side data generation\) is done in the server, as "G"/m,
	'-i -I dtgp: pgbench\'s client-side "g" is not silently made "G"');
($rc, $out, $err) = run($cli, '-i', '-I', 'dtGp', '-s', '1', $db);
is($rc, 0, '-i -I dtGp exits 0') or diag($err);
unlike($err, qr/warning: step "g"/, '-i -I dtGp: no such warning');
($rc, $out, $err) = run($cli, '-i', '-s', '1', '-F', '90', $db);
is($rc, 0, '-i again') or diag($err);
like($node->safe_psql('postgres', "SELECT reloptions::text FROM pg_class WHERE relname = 'pgbench_accounts'"),
	qr/fillfactor=90/, '-F reaches pgbench_init');

# --tablespace, --index-tablespace: pgbench_init's tablespace and
# index_tablespace; an unknown one refused as the server refuses it
my $ts = $node->basedir . '/cli_ts';
mkdir $ts or die "cannot create $ts: $!";
$node->safe_psql('postgres', "CREATE TABLESPACE cli_ts LOCATION '$ts'");
($rc, $out, $err) = run($cli, '-i', '-s', '1', '--tablespace', 'cli_ts', '--index-tablespace', 'cli_ts', $db);
is($rc, 0, '-i --tablespace --index-tablespace exits 0') or diag($err);
is($node->safe_psql('postgres', "SELECT string_agg(c.relname, ',' ORDER BY c.relname) FROM pg_class c "
		. "JOIN pg_tablespace t ON t.oid = c.reltablespace WHERE t.spcname = 'cli_ts'"),
	'pgbench_accounts,pgbench_accounts_pkey,pgbench_branches,pgbench_branches_pkey,pgbench_history,pgbench_tellers,pgbench_tellers_pkey',
	'the tables and their keys are in the tablespace');
($rc, $out, $err) = run($cli, '-i', '-s', '1', '--tablespace', 'no_such_ts', $db);
is($rc, 1, '-i --tablespace with an unknown tablespace exits 1');
like($err, qr/tablespace "no_such_ts" does not exist/, 'with the server\'s error');
($rc, $out, $err) = run($cli, '-i', '-s', '1', '-F', '90', $db);
is($rc, 0, '-i again, in the default tablespace') or diag($err);

# runs side by side: the same lines in the same order
my @cases = (
	[ 'select-only, -T', [ '-c', '2', '-j', '1', '-T', '1', '-S' ] ],
	[ 'tpcb-like, -t, -M prepared, -r', [ '-c', '2', '-j', '2', '-t', '20', '-M', 'prepared', '-r' ] ],
	[ 'a mix with -P, -n', [ '-c', '2', '-j', '1', '-T', '2', '-b', 'simple-update@2', '-S', '-P', '1', '-n' ] ],
	[ '-R with -L, -P', [ '-c', '2', '-j', '1', '-T', '2', '-S', '-R', '100', '-L', '50', '-P', '1' ] ],
	[ '--max-tries 2, -P', [ '-c', '2', '-j', '1', '-T', '2', '-S', '--max-tries', '2', '-P', '1' ] ],
);
foreach my $c (@cases)
{
	my ($name, $args) = @$c;
	my ($src, $sout, $serr) = run($pgbench, @$args, $db);
	is($src, 0, "$name: stock pgbench") or diag($serr);
	my ($xrc, $xout, $xerr) = run($cli, @$args, $db);
	is($xrc, 0, "$name: pgbenchx exits 0") or diag($xerr);
	my @want = summary($sout);
	my @got = summary($xout);
	cmp_ok(scalar(@want), '>=', 10, "$name: stock pgbench printed its summary");
	is(shape(@got), shape(@want), "$name: pgbench's lines, order and formats")
	  or diag("pgbenchx:\n$xout\npgbench:\n$sout");
	is(shape(grep { /tps =/ } split /\n/, $xout), shape(grep { /tps =/ } split /\n/, $sout),
		"$name: grep 'tps =' has pgbench's form");
	like($xout, qr/\nrun_id = \d+\n\z/, "$name: the stored run id");
	my ($id) = $xout =~ /^run_id = (\d+)$/m;
	my ($tx) = $xout =~ /^number of transactions actually processed: (\d+)/m;
	is($node->safe_psql('postgres', "SELECT status, transactions FROM pgbenchx.runs WHERE run_id = $id"),
		"completed|$tx", "$name: run $id is stored, with the transactions printed");
	if ($name =~ /-P/)
	{
		# pgbench's progress line, with lag and skipped (-R, -L) or retries
		# (--max-tries) as pgbench prints them
		my ($want) = grep { /^progress: / } split /\n/, $serr;
		my ($got) = grep { /^progress: / } split /\n/, $xerr;
		is(shape($got // ''), shape($want // 'no progress line'), "$name: the progress line has pgbench's fields")
		  or diag("pgbenchx:\n$xerr\npgbench:\n$serr");
		like($xerr, qr/^progress: \d+\.\d s, \d+\.\d tps, lat \d+\.\d{3} ms stddev \d+\.\d{3}, \d+ failed(?:, lag \d+\.\d{3} ms(?:, \d+ skipped)?)?(?:, \d+ retried, \d+ retries)?$/m,
			"$name: pgbench's progress lines");
	}
}

# the seed-000 loop as written (issue 24), with -h/-p of this node and -T 1:
# its grep 'tps =' prints, for pgbench and for pgbenchx, one line per client
# count in the same form
my %loop;
foreach my $prog ($pgbench, $cli)
{
	my ($out, $err) = ('', '');
	my $loop = sprintf(q{for c in 1 2 4; do '%s' -h '%s' -p %d -S -T 1 -j 2 -c $c postgres; done | grep 'tps ='},
		$prog, $node->host, $node->port);
	IPC::Run::run([ 'bash', '-o', 'pipefail', '-c', $loop ], '>', \$out, '2>', \$err);
	is($? >> 8, 0, "the seed loop with $prog") or diag($err);
	$loop{$prog} = $out;
}
is(scalar(() = $loop{$cli} =~ /^tps = /mg), 3, "the seed loop with pgbenchx: grep 'tps =' finds a line per client count");
is(shape(split /\n/, $loop{$cli}), shape(split /\n/, $loop{$pgbench}), "the seed loop: grep 'tps =' has pgbench's form")
  or diag("pgbenchx:\n$loop{$cli}\npgbench:\n$loop{$pgbench}");

# -l --aggregate-interval: pgbench's aggregated log, from the stored samples:
# one line per interval in pgbench 15's 15 fields, as stock pgbench writes it
my $logdir = $node->basedir . '/logs';
mkdir $logdir or die "$logdir: $!";
foreach my $prog ($pgbench, $cli)
{
	my $tag = $prog eq $cli ? 'x' : 'ref';
	my ($rc, $out, $err) = run($prog, '-c', '2', '-j', '1', '-T', '2', '-S', '-l', '--aggregate-interval', '1',
		'--log-prefix', "$logdir/$tag", $db);
	is($rc, 0, "-l --aggregate-interval 1 with $prog") or diag($err);
	my @files = glob("$logdir/$tag.*");
	is(scalar(@files), 1, "-l --aggregate-interval: one log file PREFIX.PID with $prog");
	my @lines = split /\n/, slurp_file($files[0]);
	# (stock pgbench writes an interval's line when a later transaction ends:
	# on a loaded machine (CI) its -T 2 run wrote one line)
	cmp_ok(scalar(@lines), '>=', $prog eq $cli ? 2 : 1, "-l --aggregate-interval 1 -T 2: a line per second with $prog");
	# pgbench 19 adds a 16th field (other failures, --continue-on-error):
	# the stock pgbench of 19 may write it; pgbenchx writes pgbench 15's
	my $extra = ($prog eq $pgbench && $node->safe_psql('postgres', 'SHOW server_version_num') >= 190000) ? '(?: 0)?' : '';
	my @bad = grep { !/^\d{10} \d+ \d+ \d+ \d+ \d+ 0 0 0 0 0 0 0 0 0$extra$/ } @lines;
	is(scalar(@bad), 0, "-l --aggregate-interval: pgbench 15's fields with $prog") or diag(join "\n", @bad);
	next unless $prog eq $cli;
	my ($id) = $out =~ /^run_id = (\d+)$/m;
	my $sum = 0;
	$sum += (split / /)[1] foreach @lines;
	is($sum, $node->safe_psql('postgres', "SELECT sum(transactions) FROM pgbenchx.samples WHERE run_id = $id"),
		'-l --aggregate-interval: the intervals hold the samples\' transactions');
	is(scalar(@lines), $node->safe_psql('postgres', "SELECT max(second) FROM pgbenchx.samples WHERE run_id = $id"),
		'-l --aggregate-interval 1: one line per sampled second');
	# each interval's figures agree: min <= mean <= max, and sum of squares
	# >= n * mean^2 (the histogram's, within its 0.78% per latency)
	my @odd = grep {
		my (undef, $n, $sum, $sq, $min, $max) = split / /;
		$n > 0 && !($min <= $sum / $n * 1.01 && $sum / $n <= $max * 1.01 && $sq >= $sum * $sum / $n * 0.98)
	} @lines;
	is(scalar(@odd), 0, '-l --aggregate-interval: min <= average <= max, sum of squares >= n * average^2')
	  or diag(join "\n", @odd);
	my @starts = map { (split / /)[0] } @lines;
	is(join(',', map { $starts[$_] - $starts[0] } 0 .. $#starts), join(',', 0 .. $#starts),
		'-l --aggregate-interval 1: consecutive interval starts');
}

# -l alone: pgbench's per-transaction log, streamed from the drivers' rings
# while the run lasts: a file per thread (driver) named as pgbench names
# them, pgbench 15's six fields, one line per transaction processed
foreach my $prog ($pgbench, $cli)
{
	my $tag = $prog eq $cli ? 'tx' : 'txref';
	my ($rc, $out, $err) = run($prog, '-c', '3', '-j', '2', '-T', '2', '-S', '-l', '--log-prefix', "$logdir/$tag", $db);
	is($rc, 0, "-l with $prog") or diag($err);
	my @files = sort glob("$logdir/$tag.*");
	is(join(' ', map { s/^\Q$logdir\E\/$tag\.\d+//r } @files), ' .1', "-l -j 2: PREFIX.PID and PREFIX.PID.1 with $prog");
	my @lines = map { split /\n/, slurp_file($_) } @files;
	my @bad = grep { !/^\d+ \d+ \d+ 0 \d{10} \d+$/ } @lines;
	is(scalar(@bad), 0, "-l: pgbench 15's six fields with $prog") or diag(join "\n", @bad[0 .. 4]);
	my ($n) = $out =~ /^number of transactions actually processed: (\d+)$/m;
	is(scalar(@lines), $n, "-l: a line per transaction processed with $prog");
	unlike($err, qr/lost/, "-l: nothing lost with $prog") if $prog eq $cli;
	my %first;
	foreach (@lines) { my ($c, $t) = split / /; $first{$c} = $t if !defined $first{$c} || $t < $first{$c}; }
	is(join(',', map { $first{$_} } sort keys %first), '1,1,1', "-l: each client's transactions numbered from 1 with $prog");
}
{
	my ($rc, $out, $err) = run($cli, '-c', '2', '-j', '1', '-T', '2', '-S', '-l', '--sampling-rate', '0.5',
		'--log-prefix', "$logdir/sampled", $db);
	is($rc, 0, '-l --sampling-rate 0.5') or diag($err);
	my @lines = map { split /\n/, slurp_file($_) } glob("$logdir/sampled.*");
	my ($n) = $out =~ /^number of transactions actually processed: (\d+)$/m;
	ok(@lines > 0.3 * $n && @lines < 0.7 * $n, '--sampling-rate 0.5: about half the transactions logged (' . scalar(@lines) . " of $n)");
	($rc, $out, $err) = run($cli, '-c', '2', '-j', '1', '-T', '1', '-S', '-l', '-R', '200', '--max-tries', '2',
		'--log-prefix', "$logdir/paced", $db);
	is($rc, 0, '-l -R --max-tries 2') or diag($err);
	@lines = map { split /\n/, slurp_file($_) } glob("$logdir/paced.*");
	my @bad = grep { !/^\d+ \d+ \d+ 0 \d{10} \d+ \d+ \d+$/ } @lines;
	ok(@lines > 0 && @bad == 0, '-l -R --max-tries 2: schedule_lag and retries appended, as pgbench') or diag(join "\n", @bad[0 .. 4]);
}

# a client that cannot keep up: a \set-only script runs millions of
# transactions a second, far more than a ring (65536) per 200 ms pull; the
# oldest records are lost, said in a warning, and the run is fine (exit 0):
# the lines written and the records lost make the transactions processed
{
	my $noop = $node->basedir . '/noop.sql';
	open(my $nf, '>', $noop) or die "$noop: $!";
	print $nf "\\set x 1\n";
	close $nf;
	my ($rc, $out, $err) = run($cli, '-c', '1', '-j', '1', '-T', '1', '-f', $noop, '-l',
		'--log-prefix', "$logdir/behind", $db);
	is($rc, 0, '-l behind a \\set-only run: exit 0') or diag($err);
	my ($lost, $written) = $err =~ /^pgbenchx: warning: (\d+) of (\d+) per-transaction log records of run \d+ were lost: /m;
	ok(defined $lost && $lost > 0, '-l behind: the records lost are said') or diag($err);
	my @lines = map { split /\n/, slurp_file($_) } glob("$logdir/behind.*");
	my ($n) = $out =~ /^number of transactions actually processed: (\d+)$/m;
	is(scalar(@lines) + ($lost // 0), $n, '-l behind: lines written and records lost make the transactions processed');
	is($written, $n, '-l behind: the drivers wrote a record per transaction');
}

# --failures-detailed: pgbench's two lines after the failed line
foreach my $prog ($pgbench, $cli)
{
	my ($rc, $out, $err) = run($prog, '-c', '1', '-t', '5', '-S', '--failures-detailed', $db);
	is($rc, 0, "--failures-detailed with $prog") or diag($err);
	like($out, qr/^number of failed transactions: 0 \(0\.000%\)\nnumber of serialization failures: 0 \(0\.000%\)\nnumber of deadlock failures: 0 \(0\.000%\)$/m,
		"--failures-detailed: the failures by kind with $prog");
}

# the options given are the stored run's
($rc, $out, $err) = run($cli, '-c', '3', '-j', '1', '-t', '5', '-S', '-C', '--max-tries', '2',
	'--random-seed', '42', '--label', 'from the cli', '--tag', 'fs=ext4', $db);
is($rc, 0, 'a run with labelled options') or diag($err);
my ($id) = $out =~ /^run_id = (\d+)$/m;
is($node->safe_psql('postgres',
		"SELECT clients, jobs, transactions_per_client, script, connect_per_transaction, max_tries, random_seed, label, tags->>'fs'"
	  . " FROM pgbenchx.runs WHERE run_id = $id"),
	'3|1|5|select-only|t|2|42|from the cli|ext4', 'the run is stored with the options given');

# -f: the file's text, registered, with its weight and -D's variables
# (50 transactions: with 10, one script of the 2:1 mix got none in about 2% of
# runs, and its block then differs from pgbench's)
my $file = $node->basedir . '/mine.sql';
open(my $fh, '>', $file) or die "$file: $!";
print $fh "\\set aid random(1, :naccounts)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n";
close $fh;
my ($src, $sout, $serr) = run($pgbench, '-c', '1', '-t', '50', '-f', "$file\@2", '-S', '-D', 'naccounts=1000', $db);
($rc, $out, $err) = run($cli, '-c', '1', '-t', '50', '-f', "$file\@2", '-S', '-D', 'naccounts=1000', $db);
is($rc, 0, '-f FILE@W with -D') or diag($err);
is(shape(summary($out)), shape(summary($sout)), '-f: pgbench\'s lines') or diag("pgbenchx:\n$out\npgbench:\n$sout");
($id) = $out =~ /^run_id = (\d+)$/m;
is($node->safe_psql('postgres', "SELECT script FROM pgbenchx.runs WHERE run_id = $id"),
	'file-mine@2, select-only@1', '-f: the registered file in the mix');
like($node->safe_psql('postgres', "SELECT body FROM pgbenchx.custom_scripts WHERE name = 'file-mine'"),
	qr/^\\set aid random\(1, :naccounts\)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\s*$/,
	'-f: the file\'s text is registered');

# PGOPTIONS reaches the clients, as pgbench's own clients read it (001's
# retry cases set the isolation level so); run_sweep takes it too
$node->safe_psql('postgres', 'CREATE TABLE iso_seen (level text)');
open($fh, '>', "$file.iso") or die;
print $fh "INSERT INTO iso_seen SELECT current_setting('transaction_isolation');\n";
close $fh;
{
	local $ENV{PGOPTIONS} = '-c default_transaction_isolation=repeatable\ read';
	($rc, $out, $err) = run($cli, '-c', '1', '-t', '2', '-f', "$file.iso", $db);
	is($rc, 0, 'a run with PGOPTIONS') or diag($err);
	($rc, $out, $err) = run($cli, '--sweep', '1', '-t', '1', '-f', "$file.iso", $db);
	is($rc, 0, 'a sweep with PGOPTIONS') or diag($err);
}
is($node->safe_psql('postgres', "SELECT string_agg(DISTINCT level, ',') || ' ' || count(*) FROM iso_seen"),
	'repeatable read 3', 'PGOPTIONS: the clients ran with its setting');

# bad options: exit 1, pgbench's words
foreach my $bad ([ '--bogus' ], [ '-c', '0' ], [ '-M', 'pipelined' ], [ '-c', 'x' ],
	[ '-t', '1', '-T', '1' ], [ '-i', '-c', '2' ], [ '--partition-method', 'hash', '-i' ])
{
	my ($s_rc, undef, $s_err) = run($pgbench, @$bad, $db);
	my ($x_rc, undef, $x_err) = run($cli, @$bad, $db);
	is($x_rc, 1, "@$bad: exit 1");
	is($s_rc, 1, "@$bad: stock pgbench exits 1 too");
	s/^\S*pgbenchx?:/PROG:/mg, s/"\S*pgbenchx? --help"/"PROG --help"/g foreach ($s_err, $x_err);
	is($x_err, $s_err, "@$bad: pgbench's words");
}
foreach my $refused ([ '-l', '--sweep', '1,2' ], [ '-l', '--aggregate-interval', '1', '--failures-detailed' ],
	[ '-l', '--aggregate-interval', '1', '-R', '10' ],
	[ '-v' ], [ '-i', '-I', 'dtg' ])
{
	($rc, $out, $err) = run($cli, @$refused, $db);
	is($rc, 1, "@$refused: refused, exit 1");
	like($err, qr/^pgbenchx: error: option \S+ is not supported by pgbenchx\npgbenchx: detail: \S.*\n\z/,
		"@$refused: with the reason");
}

# --show-script: a built-in's text, by its prefix, as pgbench shows it
foreach my $name ('se', 'tpcb-like')
{
	my ($s_rc, undef, $s_err) = run($pgbench, '--show-script', $name);
	my ($x_rc, $x_out, $x_err) = run($cli, '--show-script', $name, $db);
	is($x_rc, 0, "--show-script $name: exit 0") or diag($x_err);
	is($x_err, $s_err, "--show-script $name: pgbench's lines");
}

# a run whose clients abort: exit 2, as pgbench's
open($fh, '>', "$file.bad") or die;
print $fh "SELECT 1/0;\n";
close $fh;
($src) = run($pgbench, '-c', '1', '-t', '2', '-f', "$file.bad", $db);
is($src, 2, 'stock pgbench exits 2 when its clients abort');
($rc, $out, $err) = run($cli, '-c', '1', '-t', '2', '-f', "$file.bad", $db);
is($rc, 2, 'pgbenchx exits 2 when its clients abort');
like($err, qr/Run was aborted; the above results are incomplete\./, 'and says so as pgbench does');
like($out, qr/^run_id = \d+$/m, 'the aborted run\'s id');

# --- what pgbench's clients print on stderr (issue 36 §1-4), side by side
# with stock pgbench: debug() lines (seeded randoms included), the server's
# NOTICEs and WARNINGs, a client's abort in pgbench's two lines, and
# --verbose-errors' lines about a retried and a failed transaction.  Lines
# are compared as sorted sets (two clients' lines interleave differently),
# with the program's name as "PROG".
sub script_file
{
	my ($name, $text) = @_;
	my $f = $node->basedir . "/$name.sql";
	open(my $sfh, '>', $f) or die "cannot write $f: $!";
	print $sfh $text;
	close $sfh;
	return $f;
}

sub stderr_lines
{
	my ($err, $re) = @_;
	my @l = grep { /$re/ } split /\n/, $err;
	s/^pgbenchx?: /PROG: / foreach @l;
	return join("\n", sort @l);
}

sub side_by_side
{
	my ($name, $re, @args) = @_;
	my ($src, $sout, $serr) = run($pgbench, @args, $db);
	my ($xrc, $xout, $xerr) = run($cli, @args, $db);
	my ($s, $x) = (stderr_lines($serr, $re), stderr_lines($xerr, $re));
	isnt($s, '', "$name: stock pgbench prints such lines") or diag($serr);
	is($x, $s, "$name: pgbenchx prints pgbench's lines") or diag("pgbench:\n$serr\npgbenchx:\n$xerr");
	is($xrc, $src, "$name: and exits as pgbench ($src)");
	return ($xrc, $xout, $xerr);
}

my $dbg = script_file('debug', "\\set a debug(1 + 2)\n\\set b debug(2.5 * 3)\n\\set c debug(1 < 2)\n"
	  . "\\set d debug(NULL)\n\\set e debug(random(1, 1000000))\n\\set f debug(:client_id)\nSELECT debug_marker FROM (SELECT 1 AS debug_marker) s;\n");
side_by_side('debug()', qr/^debug\(/, '-n', '-c', '2', '-t', '3', '--random-seed=5432', '-f', $dbg);

# --sweep: each run's clients print what pgbench's clients print in a run
# of that many clients (client_messages on each run of run_sweep)
{
	my (undef, undef, $e1) = run($pgbench, '-n', '-c', '1', '-t', '3', '--random-seed=5432', '-f', $dbg, $db);
	my (undef, undef, $e2) = run($pgbench, '-n', '-c', '2', '-t', '3', '--random-seed=5432', '-f', $dbg, $db);
	my ($xrc, $xout, $xerr) = run($cli, '-n', '--sweep=1,2', '-t', '3', '--random-seed=5432', '-f', $dbg, $db);
	is($xrc, 0, '--sweep with debug(): exits 0') or diag($xerr);
	my $want = stderr_lines("$e1\n$e2", qr/^debug\(/);
	is(scalar(() = $want =~ /^/mg), 3 * 6 * 3, 'stock pgbench: 6 debug() lines per transaction, 3 clients in all, 3 transactions each');
	is(stderr_lines($xerr, qr/^debug\(/), $want, '--sweep: the debug() lines of each run, as pgbench\'s runs of 1 and 2 clients print them')
	  or diag($xerr);
}

# exit_on_abort on a sweep: the run with an abort is its last, the sweep
# failed and says why; without it, every run is made
$node->safe_psql('postgres', "SELECT pgbenchx.add_script('sweep_abort', E'\\\\set y 1/0\\n', replace => true)");
for my $eoa_on (1, 0)
{
	my $sid = $node->safe_psql('postgres', "SELECT run_sweep(clients => '{1,2,3}', transactions => 2, script => 'sweep_abort', "
		  . "vacuum => false, checkpoint => false, exit_on_abort => " . ($eoa_on ? 'true' : 'false') . ')');
	$node->safe_psql('postgres', "CALL pgbenchx.wait($sid)");
	is($node->safe_psql('postgres', "SELECT status || ':' || (SELECT count(*) FROM pgbenchx.runs r WHERE r.sweep_id = s.sweep_id) "
		  . "|| ':' || (error ~ 'exit_on_abort stopped the sweep there') FROM pgbenchx.sweeps s WHERE sweep_id = $sid"),
		$eoa_on ? 'failed:1:true' : 'failed:3:false',
		'exit_on_abort ' . ($eoa_on ? 'stops a sweep at its first run with an abort' : 'off: every run of the sweep is made'));
}

my $ntc = script_file('notice', "SET LOCAL work_mem = '2MB';\nDO \$\$BEGIN RAISE NOTICE 'hello from client %', 42; RAISE WARNING 'a warning'; END\$\$;\n");
side_by_side('notices', qr/^(NOTICE|WARNING):/, '-n', '-c', '1', '-t', '2', '-f', $ntc);

my $undef = script_file('undef', "\\set x :nosuchvar + 1\nSELECT 1;\n");
side_by_side('undefined variable', qr/^pgbenchx?: error: /, '-n', '-c', '1', '-t', '1', '-f', $undef);

side_by_side('vacuum', qr/^starting vacuum/, '-c', '1', '-t', '1', '-S');
($rc, $out, $err) = run($cli, '-n', '-c', '1', '-t', '1', '-S', $db);
unlike($err, qr/starting vacuum/, '-n: no vacuum, no such line');

my $slp = script_file('sleep', "\\sleep :nosuchvar ms\nSELECT 1;\n");
side_by_side('\\sleep of an undefined variable', qr/^pgbenchx?: error: /, '-n', '-c', '1', '-t', '1', '-f', $slp);

my $ser = script_file('serial', "DO \$\$BEGIN RAISE EXCEPTION 'boom' USING ERRCODE = 'serialization_failure'; END\$\$;\n");
side_by_side('--verbose-errors', qr/^pgbenchx?: client /, '-n', '-c', '1', '-t', '2', '--max-tries=2', '--verbose-errors', '-f', $ser);
($rc, $out, $err) = run($cli, '-n', '-c', '1', '-t', '2', '--max-tries=2', '-f', $ser, $db);
unlike($err, qr/got an error in command/, 'without --verbose-errors: no such line');

# --exit-on-abort (pgbench 17): one client's abort ends the run at once,
# exit 2, with pgbench's line and no report; before 17, unknown to both
# (client 1, in thread or driver 1, aborts in its first transaction)
my $eoa = script_file('exit_on_abort', "SELECT 1;\n\\if :client_id = 1\n\\set y 1/0\n\\endif\n");
if ($node->safe_psql('postgres', 'SHOW server_version_num') >= 170000)
{
	($rc, $out, $err) = side_by_side('--exit-on-abort', qr/^pgbenchx?: error: Run was aborted due to an error in thread/,
		'-n', '-c', '2', '-j', '2', '-t', '10', '--exit-on-abort', '-f', $eoa);
	like($err, qr/division by zero/, '--exit-on-abort: the client\'s error is printed');
	is($node->safe_psql('postgres', 'SELECT status FROM pgbenchx.runs ORDER BY run_id DESC LIMIT 1'), 'failed',
		'--exit-on-abort: the run is stored as failed');
	($rc, $out, $err) = run($cli, '-n', '-c', '1', '-t', '3', '--exit-on-abort', '-S', $db);
	is($rc, 0, '--exit-on-abort: a run without an abort exits 0') or diag($err);
}
else
{
	my ($src) = run($pgbench, '-n', '-t', '1', '--exit-on-abort', '-S', $db);
	($rc, $out, $err) = run($cli, '-n', '-t', '1', '--exit-on-abort', '-S', $db);
	is($rc, $src, "--exit-on-abort before 17: refused as pgbench refuses it ($src)");
	like($err, qr/unrecognized option '--exit-on-abort'/, 'as an unrecognized option');
}

# --continue-on-error (pgbench 19): an SQL error other than a serialization
# or deadlock failure fails the transaction and the client goes on; with
# --failures-detailed, "number of other failures", per script too.  Before
# 19, unknown to both.  The engine's continue_on_error, on every major:
# the run completes, its failures are the other ones (run and script).
$node->safe_psql('postgres', 'CREATE TABLE coe_unique (i int UNIQUE)');
my $coe = script_file('continue_on_error', "INSERT INTO coe_unique VALUES (0);\n");
my $coe_block = script_file('continue_on_error_block', "BEGIN;\nINSERT INTO coe_unique VALUES (1);\nCOMMIT;\n");
if ($node->safe_psql('postgres', 'SHOW server_version_num') >= 190000)
{
	my @args = ('-n', '-t', '10', '--continue-on-error', '--failures-detailed', '--verbose-errors');
	$node->safe_psql('postgres', 'TRUNCATE coe_unique');
	my ($src, $sout, $serr) = run($pgbench, @args, '-f', $coe, '-f', $coe_block, '--random-seed=7', $db);
	$node->safe_psql('postgres', 'TRUNCATE coe_unique');
	($rc, $out, $err) = run($cli, @args, '-f', $coe, '-f', $coe_block, '--random-seed=7', $db);
	is($rc, $src, "--continue-on-error: exits as pgbench ($src)") or diag($err);
	my @failure_lines = map { join("\n", grep { /failures?:|failed transactions:|processed:/ } split /\n/, $_) } ($sout, $out);
	is($failure_lines[1], $failure_lines[0], "--continue-on-error: the same counts of failures, run and per script, as pgbench's")
	  or diag("pgbench:\n$sout\npgbenchx:\n$out");
	like($out, qr/^number of other failures: 8 \(80\.000%\)$/m, '--continue-on-error: 8 of the 10 transactions failed on the unique key');
	is(stderr_lines($err, qr/^pgbenchx?: client /), stderr_lines($serr, qr/^pgbenchx?: client /),
		'--continue-on-error --verbose-errors: the clients\' lines are pgbench\'s');
}
else
{
	my ($src) = run($pgbench, '-n', '-t', '1', '--continue-on-error', '-S', $db);
	($rc, $out, $err) = run($cli, '-n', '-t', '1', '--continue-on-error', '-S', $db);
	is($rc, $src, "--continue-on-error before 19: refused as pgbench refuses it ($src)");
	like($err, qr/unrecognized option '--continue-on-error'/, 'as an unrecognized option');
}
{
	$node->safe_psql('postgres', 'TRUNCATE coe_unique');
	$node->safe_psql('postgres', "SELECT pgbenchx.add_script('coe-insert', pg_read_file('$coe'), replace => true),"
		  . " pgbenchx.add_script('coe-block', pg_read_file('$coe_block'), replace => true)");
	my $id = $node->safe_psql('postgres', "SELECT run_bench(2, transactions => 10, script => 'coe-insert, coe-block',"
		  . " vacuum => false, checkpoint => false, continue_on_error => true, random_seed => 3)");
	$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
	is($node->safe_psql('postgres', "SELECT status, aborted_clients, transactions, failed, serialization_failures, deadlock_failures"
		  . " FROM pgbenchx.runs WHERE run_id = $id"), 'completed|0|2|18|0|0',
		'continue_on_error: the run completes, 2 transactions inserted, 18 failed, none of them serialization or deadlock');
	is($node->safe_psql('postgres', "SELECT sum((s ->> 'failed')::int) || ' ' || sum((s ->> 'serialization_failures')::int)"
		  . " || ' ' || sum((s ->> 'deadlock_failures')::int) FROM pgbenchx.runs, jsonb_array_elements(script_stats) s WHERE run_id = $id"),
		'18 0 0', 'continue_on_error: the scripts\' failures add up, all of them other failures');
	is($node->safe_psql('postgres', 'SELECT count(*) FROM coe_unique'), '2', 'the table holds the two rows the successes inserted');
	my ($r2, $o2, $e2) = $node->psql('postgres', "SELECT run_bench(1, transactions => 2, script => 'coe-insert', continue_on_error => true,"
		  . " generators => ARRAY['host=localhost'], conninfo => 'host=localhost')");
	like($e2, qr/continue_on_error is not supported with generators/, 'continue_on_error with generators: refused');
}

# a script every client would abort in (its pipelines), refused before any
# client runs: exit 2, as pgbench's aborted clients; \shell, refused, exit
# 2 with a hint; a \shell pgbench cannot parse, exit 1 as pgbench's
foreach my $case ([ 'pipeline twice', "\\startpipeline\n\\startpipeline\nSELECT 1;\n\\endpipeline\n", qr/already in pipeline mode/ ],
	[ 'shell missing command', "\\shell\nSELECT 1;\n", qr/missing command/ ])
{
	my ($name, $text, $re) = @$case;
	(my $f = $name) =~ s/ /_/g;
	my $sf = script_file($f, $text);
	my ($src) = run($pgbench, '-n', '-t', '1', '-M', 'extended', '-f', $sf, $db);
	($rc, $out, $err) = run($cli, '-n', '-t', '1', '-M', 'extended', '-f', $sf, $db);
	is($rc, $src, "$name: pgbenchx exits as pgbench ($src)") or diag($err);
	like($err, $re, "$name: with pgbench's words");
}
my $shf = script_file('shell_echo', "\\shell echo hello\nSELECT 1;\n");
($rc, $out, $err) = run($cli, '-n', '-t', '1', '-f', $shf, $db);
is($rc, 2, '\\shell: refused, exit 2 (pgbench\'s code for a client that cannot run its script)');
like($err, qr/shell commands are not supported by pgbenchx/, '\\shell: the refusal says why');
like($err, qr/^pgbenchx: hint: .*run this script with stock pgbench/m, '\\shell: and what to do, before any connection');

# many messages: the CLI cannot read them all (256 per driver are kept);
# it says how many were lost, and the run is whole
my $many = script_file('many', "\\set x debug(:client_id)\n");
($rc, $out, $err) = run($cli, '-n', '-c', '1', '-t', '20000', '-f', $many, $db);
is($rc, 0, 'a run of 20000 debug() lines exits 0') or diag($err);
like($err, qr/warning: (\d+) of 20000 messages of the clients of run \d+ were lost/, 'and says how many messages were lost');
my ($lost) = $err =~ /warning: (\d+) of 20000 messages/;
is(scalar(() = $err =~ /^debug\(script=0,command=1\): int 0$/mg) + ($lost // 0), 20000,
	'the lines printed and the lost ones add up to the 20000');
like($out, qr/^number of transactions actually processed: 20000\/20000$/m, 'and every transaction was processed');

# --sweep: one run per client count, a report each, then the sweep's table
($rc, $out, $err) = run($cli, '--sweep', '1..2', '-t', '10', '-S', $db);
is($rc, 0, '--sweep 1..2') or diag($err);
my @ids = $out =~ /^run_id = (\d+)$/mg;
is(scalar(@ids), 2, '--sweep: two runs, one id each');
is(scalar(() = $out =~ /^tps = /mg), 2, "--sweep: grep 'tps =' finds a line per run");
my ($sweep) = $out =~ /^sweep_id = (\d+)$/m;
ok($sweep, '--sweep: the sweep id');
is($node->safe_psql('postgres', "SELECT string_agg(clients::text, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
	'1,2', '--sweep: the sweep is stored');
($rc, $out, $err) = run($cli, '--sweep', '2,1', '--repeats', '2', '-t', '5', '-S', $db);
is($rc, 0, '--sweep 2,1 --repeats 2') or diag($err);
($sweep) = $out =~ /^sweep_id = (\d+)$/m;
is($node->safe_psql('postgres', "SELECT string_agg(clients || '/' || repeat, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
	'2/1,1/1,2/2,1/2', '--sweep list with --repeats: the ladder twice');

# SIGINT: the run cancelled on the server, the program ended by SIGINT
my ($in, $hout, $herr) = ('', '', '');
my $h = IPC::Run::start([ $cli, '-c', '1', '-T', '60', '-S', $db ], '<', \$in, '>', \$hout, '2>', \$herr);
ok(run_sampled($node, 'true'), 'SIGINT: the run is measuring');
$h->signal('INT');
$h->finish;
is($h->full_result & 127, 2, 'SIGINT: pgbenchx ends by SIGINT, as pgbench') or diag($herr);
like($herr, qr/run \d+ cancelled on the server/, 'SIGINT: it says so');
is($node->safe_psql('postgres', "SELECT status FROM pgbenchx.runs ORDER BY run_id DESC LIMIT 1"),
	'cancelled', 'SIGINT: the run is cancelled on the server');

# --help in pgbench's layout, --version; no line over 95 characters, as
# PostgreSQL 19's program_help_ok checks (the subcommands' help too)
($rc, $out) = run($cli, '--help');
is($rc, 0, '--help');
foreach my $sub ('', 'report', 'compare', 'chart', 'export', 'import', 'gather')
{
	my (undef, $hout) = run($cli, ($sub ? ($sub) : ()), '--help');
	is(join("\n", grep { length > 95 } split /\n/, $hout), '', "pgbenchx $sub --help: no line over 95 characters");
}
my ($s_help) = (run($pgbench, '--help'))[1];
my @sections = grep { /^[A-Z].*:$/ } split /\n/, $s_help;
foreach my $section (@sections)
{
	next if $section =~ /^Report bugs|home page/;
	like($out, qr/^\Q$section\E$/m, "--help has pgbench's section \"$section\"");
}
($rc, $out) = run($cli, '--version');
like($out, qr/^pgbenchx \(pgbenchx\) \d+\.\d+/, '--version');

ok(nothing_left($node), 'nothing left running');
$node->stop;
done_testing();
