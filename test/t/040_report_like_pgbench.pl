# pgbenchx.report(id) prints what stock pgbench prints at the end of a run
# (the pgbench of the server's major, first on PATH: 18 words a mix's
# blocks and the -r lines otherwise than 15 to 17): for the same options,
# the same lines with the same labels, in the
# same order, with the same number formats (numbers stripped to their
# shape: integers, %.1f, %.3f, %f), and numbers that are this run's own
# (the processed count is runs.transactions, tps is runs.tps at pgbench's
# %f).  pgbenchx measures latencies and samples each second as pgbench -P
# does and keeps -r's per-statement figures, so stock pgbench runs with
# -P 1 -r.  Covered: tpcb-like, select-only with -M prepared and -t, a
# weighted mix of a built-in and a custom script, -R with -L, -C,
# --max-tries.
# Then CALL pgbenchx.wait's end: a lone run's report once and its
# completion once, a sweep's per-run lines then its table, a replay in qpm,
# and the p99 wait prints equal to the stored value at report's rounding.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('report', scale => 1);
# the reference is the pgbench of the server's major (issue 21; src/README.md,
# "pgbench per major")
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
my $pgbench = 'pgbench';
my ($pgbench_version) = `$pgbench --version` =~ /^pgbench \(PostgreSQL\) (\d+)/m;
is($pgbench_version, $major, "the pgbench first on PATH is PostgreSQL ${major}'s");

my $mine = "\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n";
my $file = $node->basedir . '/mine.sql';
open(my $fh, '>', $file) or die "$file: $!";
print $fh $mine;
close $fh;
$node->safe_psql('postgres', "SELECT pgbenchx.add_script('mine', \$s\$$mine\$s\$)");

# the shape of a line: numbers by their format, a custom script's name
# (pgbench shows the file, pgbenchx the registered name) left out
sub skeleton
{
	my @out;
	foreach my $line (@_)
	{
		my $l = $line;			# a copy: @_ aliases the caller's lines
		$l =~ s/^(SQL script \d+:) .*/$1 NAME/;
		# a statement's line: right-aligned fields of a fixed width, whose
		# padding depends on the value; keep the width, not the padding
		if ($l =~ /^ +-?\d+\.\d{3} /)
		{
			my $cmd = $l =~ s/^((?: +-?\d+(?:\.\d{3})?)+)//r;
			my $fields = substr($l, 0, length($l) - length($cmd));
			$fields =~ s/( *)(-?\d+(\.\d{3})?)/($3 ? 'F3' : 'N') . '<' . length($1 . $2) . '>'/ge;
			$cmd =~ s/\b\d+\b/N/g;
			push @out, $fields . $cmd;
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

# stock pgbench's summary (stdout after its banner)
sub stock
{
	my (@args) = @_;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run([ $pgbench, '-P', '1', '-r', @args, '-d', $node->connstr('postgres') ],
		'>', \$out, '2>', \$err);
	ok($ok, "stock pgbench @args") or diag($err);
	my @lines = split /\n/, $out;
	shift @lines if @lines && $lines[0] =~ /^pgbench \(/;
	return @lines;
}

# pgbenchx: the run, waited for; its report's pgbench part
sub ours
{
	my ($call) = @_;
	my $id = $node->safe_psql('postgres', "SELECT $call");
	my ($ret, $out, $err) = $node->psql('postgres', "CALL pgbenchx.wait($id)");
	is($ret, 0, "pgbenchx $call") or diag($err);
	my $report = $node->safe_psql('postgres', "SELECT pgbenchx.report($id)");
	my @lines = split /\n/, $report;
	my @pgbench;
	foreach my $l (@lines)
	{
		last if $l eq '-- pgbenchx --';
		push @pgbench, $l;
	}
	is(scalar(grep { $_ eq '-- pgbenchx --' } @lines), 1, "report of $id has one pgbenchx part");
	return ($id, $report, $err, @pgbench);
}

# each case: the same options to both
my @cases = (
	[ 'tpcb-like, -T 1', [ '-c', '2', '-j', '1', '-T', '1' ],
		"run_bench(2, 1, 'tpcb-like', jobs => 1)" ],
	[ 'select-only, -M prepared, -t 40',
		[ '-c', '2', '-j', '2', '-t', '40', '-b', 'select-only', '-M', 'prepared' ],
		"run_bench(2, script => 'select-only', jobs => 2, transactions => 40, protocol => 'prepared')" ],
	[ 'a weighted mix',
		[ '-c', '2', '-j', '1', '-T', '1', '-b', 'simple-update@2', '-f', "$file\@3" ],
		"run_bench(2, 1, 'simple-update\@2, mine\@3', jobs => 1)" ],
	[ '-R with -L', [ '-c', '2', '-j', '1', '-T', '1', '-b', 'select-only', '-R', '100', '-L', '20' ],
		"run_bench(2, 1, 'select-only', jobs => 1, rate => 100, latency_limit => 20)" ],
	[ '-C', [ '-c', '2', '-j', '1', '-T', '1', '-b', 'select-only', '-C' ],
		"run_bench(2, 1, 'select-only', jobs => 1, connect_per_transaction => true)" ],
	[ '--max-tries, a mix, -t', [ '-c', '2', '-j', '1', '-t', '20', '--max-tries', '3',
			'-b', 'tpcb-like@1', '-b', 'select-only@1' ],
		"run_bench(2, script => 'tpcb-like\@1, select-only\@1', jobs => 1, transactions => 20, max_tries => 3)" ],
);

foreach my $c (@cases)
{
	my ($name, $args, $call) = @$c;
	my @want = stock(@$args);
	my ($id, $report, $notices, @got) = ours($call);
	cmp_ok(scalar(@want), '>=', 12, "$name: stock pgbench printed its summary");
	is(skeleton(@got), skeleton(@want), "$name: the labels, order and formats of stock pgbench")
	  or diag("pgbenchx:\n" . join("\n", @got) . "\npgbench:\n" . join("\n", @want));

	# the numbers are this run's own
	my ($tx, $tps, $clients, $jobs) = split /\|/,
	  $node->safe_psql('postgres',
		"SELECT transactions, round(tps::numeric, 6), clients, jobs FROM pgbenchx.runs WHERE run_id = $id");
	ok(scalar(grep(/^number of transactions actually processed: \Q$tx\E(\/\d+)?$/, @got)), "$name: processed is runs.transactions ($tx)");
	ok(scalar(grep(/^tps = \Q$tps\E \((without initial connection time|including reconnection times)\)$/, @got)),
		"$name: tps is runs.tps ($tps)");
	ok(scalar(grep(/^number of clients: $clients$/, @got)) && scalar(grep(/^number of threads: $jobs$/, @got)),
		"$name: clients and threads");
	if ($name =~ /mix/)
	{
		my $sum = 0;
		$sum += $_ foreach map { / - (\d+) transactions \(/ ? ($1) : () } @got;
		is($sum, $tx, "$name: the scripts' transactions add up to the run's");
	}
	if ($name =~ /-L/)
	{
		my $late = $node->safe_psql('postgres', "SELECT late FROM pgbenchx.runs WHERE run_id = $id");
		ok(scalar(grep(/^number of transactions above the 20\.0 ms latency limit: $late\/$tx /, @got)),
			"$name: late is runs.late");
	}

	# wait: the completion once, the report once, nothing more of the run
	my @completed = ($notices =~ /run $id (completed|failed|cancelled)/g);
	is(scalar(@completed), 1, "$name: wait prints the completion once");
	my @types = ($notices =~ /^transaction type: /mg);
	is(scalar(@types), 1, "$name: wait prints the report once");
	like($notices, qr/\Q$report\E/, "$name: wait prints report($id)");
}

# a sweep: one line per run, then the table; p99 as stored, at report's rounding
my $sweep = $node->safe_psql('postgres',
	"SELECT run_sweep(1, 2, transactions => 30, script => 'select-only', checkpoint => false)");
my ($ret, $out, $err) = $node->psql('postgres', "CALL pgbenchx.wait($sweep)");
is($ret, 0, 'wait for the sweep');
my @runs = split /\n/, $node->safe_psql('postgres',
	"SELECT run_id || '|' || round(latency_p99_ms::numeric, 3) FROM pgbenchx.runs WHERE sweep_id = $sweep ORDER BY run_id");
is(scalar(@runs), 2, 'the sweep ran twice');
my $table = $node->safe_psql('postgres', "SELECT pgbenchx.report($sweep)");
foreach my $r (@runs)
{
	my ($run, $p99) = split /\|/, $r;
	like($err, qr/run $run completed: .*, p99 = \Q$p99\E ms/, "sweep: run ${run}'s line, p99 as stored");
	like($table, qr/^\s+\d+\s+\S+\s+\S+\s+\S+\s+\Q$p99\E\s+\d+\s+$run(?:\s{2,}\S.*)?$/m, "sweep: run ${run}'s row, the same p99");
}
like($err, qr/sweep $sweep completed\n\Q$table\E/, 'sweep: the table after the runs');
like($table, qr/^peak: [0-9.]+ tps at \d+ clients?$/m, 'sweep: the peak');
like($table, qr/^at the highest client count, 2: [0-9.]+ tps, [0-9.]+% of the peak$/m, 'sweep: the share of the peak');
unlike($err, qr/transaction type:/, 'sweep: no run report in the sweep');

# a replay: qpm in wait and in report, no tps
my $replay = $node->safe_psql('postgres',
	"SELECT run_replay(E'SELECT 1;\\nSELECT abalance FROM pgbench_accounts WHERE aid = 1;\\n', 1, 1, checkpoint => false)");
($ret, $out, $err) = $node->psql('postgres', "CALL pgbenchx.wait($replay)");
is($ret, 0, 'wait for the replay');
like($err, qr/completed: clients 1, jobs 1, qpm = [0-9.]+, latency/, 'replay: wait says qpm');
unlike($err, qr/tps/, 'replay: wait says no tps');
my $rrun = $node->safe_psql('postgres', "SELECT run_id FROM pgbenchx.runs WHERE sweep_id = $replay");
my $rep = $node->safe_psql('postgres', "SELECT pgbenchx.report($rrun)");
like($rep, qr/^qpm = [0-9.]+ \(without initial connection time\)$/m, 'replay: report says qpm');
unlike($rep, qr/tps/, 'replay: report says no tps');
like($node->safe_psql('postgres', "SELECT pgbenchx.report($replay)"), qr/^\s*clients\s+qpm\s/m,
	"replay: the sweep's table in qpm");

ok(nothing_left($node), 'nothing left running');
$node->stop;
done_testing();
