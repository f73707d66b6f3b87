# The command line trusts no reply (issue 34 §4, docs/security.md): the
# client program pgbenchx against a hostile server (test/perl/FakePgServer.pm,
# protocol 3 on loopback, no cluster) that answers every query with no row,
# NULLs, huge, negative and malformed values, too many rows, a column more or
# less, or an error.  Every subcommand (read from `pgbenchx --help`, so that
# a new one is covered) and every main mode (a run with -P, -l, the
# aggregated log, a sweep, -f, -i, --show-script) runs against each answer,
# at three depths: every query answered so (flat), the connection's set-up
# and the run's id answered as a server would (follow), or the whole life of
# the run too (deep), so that the answers reach the reports, the progress,
# the logs, the charts and the exports.  Each invocation must end by itself
# within the bound, never by a signal, with 0, 1 or 2, with a bounded output,
# and with an error message and a non-zero exit when the answer cannot be
# used.  Then the hang of issue 34: samples whose last second is 2147483647
# must not make -P print more windows than the duration asked for, nor more
# than the seconds elapsed without -T.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use POSIX ();
use File::Temp ();
use Time::HiRes ();
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;
use FakePgServer;

my $cli = pgbenchx_cli();
my $tmp = File::Temp::tempdir(CLEANUP => 1);
my $fake = FakePgServer->start;
my $bound = $PostgreSQL::Test::Utils::timeout_default;    # seconds an invocation may take at most

# a file for import, -f and stdin
my $script = "$tmp/script.sql";
open my $fh, '>', $script or die;
print $fh "SELECT 1;\n";
close $fh;

# run_all([database, args...], ...): for each, [exit code, signal, timed out,
# seconds, stdout, stderr], four at a time (most of an invocation's time is
# the program's polls and the machine's load); each in a process of its own
# with its output in files, killed after $bound seconds
sub run_all
{
	my @jobs = @_;
	my (@results, %running);
	my $next = 0;
	local $ENV{PGHOST} = '127.0.0.1';
	local $ENV{PGPORT} = $fake->port;
	local $ENV{PGUSER} = 'fake';
	local $ENV{PGSSLMODE} = 'disable';
	local $ENV{PGGSSENCMODE} = 'disable';
	local $ENV{PGCONNECT_TIMEOUT} = '30';
	delete local $ENV{PGOPTIONS};
	delete local $ENV{PGSERVICE};
	delete local $ENV{PGPASSWORD};
	while ($next < @jobs || %running)
	{
		while ($next < @jobs && keys(%running) < 4)
		{
			my ($db, @args) = @{ $jobs[$next] };
			my $base = "$tmp/job-$next";
			my $pid = fork // die "fork: $!";
			if ($pid == 0)
			{
				$ENV{PGDATABASE} = $db;
				open STDIN, '<', $script or POSIX::_exit(127);
				open STDOUT, '>', "$base.out" or POSIX::_exit(127);
				open STDERR, '>', "$base.err" or POSIX::_exit(127);
				exec($cli, @args) or POSIX::_exit(127);
			}
			$running{$pid} = { i => $next, t0 => Time::HiRes::time(), base => $base };
			$next++;
		}
		Time::HiRes::sleep(0.02);
		foreach my $pid (keys %running)
		{
			my $j = $running{$pid};
			my $secs = Time::HiRes::time() - $j->{t0};
			my $done = waitpid($pid, POSIX::WNOHANG());
			my $timed_out = 0;
			if ($done == 0 && $secs > $bound)
			{
				kill 'KILL', $pid;
				waitpid($pid, 0);
				$timed_out = 1;
			}
			elsif ($done == 0)
			{
				next;
			}
			my $status = $?;
			$results[ $j->{i} ] = [ $status >> 8, $status & 127, $timed_out, $secs,
				slurp_file("$j->{base}.out"), slurp_file("$j->{base}.err") ];
			unlink "$j->{base}.out", "$j->{base}.err";
			delete $running{$pid};
		}
	}
	return @results;
}

sub run { return @{ (run_all([@_]))[0] }; }

# the subcommands, from the program's own usage
my ($rc, $sig, $to, $secs, $usage) = run('flat:error', '--help');
is($rc, 0, 'pgbenchx --help');
my ($section) = $usage =~ /^Subcommands[^\n]*\n((?:  .*\n)+)/m;
my %subcommands;
foreach my $line (split /\n/, $section // '')
{
	$subcommands{$1} = $2 if $line =~ /^  ([a-z][a-z-]*) (.*?)(?:\s{2,}.*)?$/;
}
ok(scalar(grep { exists $subcommands{$_} } qw(report compare chart export import gather)) == 6,
	'the usage lists the subcommands (' . join(', ', sort keys %subcommands) . ')');

my @invocations;
foreach my $cmd (sort keys %subcommands)
{
	my $args = $subcommands{$cmd};
	my @a = $args =~ /^\[?FILE/ ? ($script) : $args =~ /^LABEL/ ? ('seed loop') : ('7', '8');
	push @invocations, [ "$cmd", $cmd, @a ];
	push @invocations, [ "$cmd -o", $cmd, @a, '-o', "$tmp/out.svg" ] if $args =~ /-o /;
	push @invocations, [ "$cmd --interval", $cmd, @a, '--interval', '60' ] if $args =~ /--interval /;
}
my @runs = (
	[ 'run -T -P', '-T', '2', '-P', '1' ],
	[ 'run -t -P -R -L --max-tries --failures-detailed --progress-timestamp', '-t', '5', '-P', '1',
		'-R', '100', '-L', '50', '--max-tries', '2', '--failures-detailed', '--progress-timestamp' ],
	[ 'run -l -R --max-tries', '-t', '5', '-l', '-R', '100', '--max-tries', '2', '--log-prefix', "$tmp/txlog" ],
	[ 'run -l --aggregate-interval', '-T', '2', '-l', '--aggregate-interval', '1', '--log-prefix', "$tmp/agg" ],
	[ 'sweep -P', '--sweep', '1,2', '-t', '5', '-P', '1' ],
	[ 'run -f -s', '-f', $script, '-s', '3', '-t', '5' ],
	[ 'init', '-i', '-s', '1' ],
	[ 'show-script', '--show-script', 'my-registered-script' ]);
push @invocations, map { [ $_->[0], @{$_}[ 1 .. $#$_ ] ] } @runs;

# no server at all: -V and --help
foreach my $args ([ '-V' ], [ '--help' ])
{
	my ($rc, $sig, $to) = run('flat:error', @$args);
	ok($rc == 0 && !$sig && !$to, "pgbenchx @$args");
}

# the answers no invocation can use: each must exit non-zero with a message
my %unusable = map { $_ => 1 } qw(null error colsplus colsminus many);

# one check per invocation and answer
my @checks;
sub check { push @checks, [@_]; }

foreach my $kind (qw(error rows0 null colsplus))
{
	check('flat', $kind, $_) foreach @invocations;
}
# 1 MB values cost seconds each on a loaded machine: flat only where the
# set-up's reply (at most 1 MB) refuses them, the rest deep
check('flat', 'huge', $_) foreach grep { $_->[0] eq 'run -T -P' } @invocations;
foreach my $kind (qw(rows0 null abc running))
{
	check('follow', $kind, $_) foreach grep { $_->[1] =~ /^-/ } @invocations;
}
foreach my $kind (grep { $_ ne 'infinity' && $_ ne 'min64' } FakePgServer::kinds())
{
	check('deep', $kind, $_) foreach @invocations;
}

my @results = run_all(map { my ($scope, $kind, $inv) = @$_; [ "$scope:$kind", @{$inv}[ 1 .. $#$inv ] ] } @checks);
foreach my $i (0 .. $#checks)
{
	my ($scope, $kind, $inv) = @{ $checks[$i] };
	my ($name, @args) = @$inv;
	my ($rc, $sig, $to, $secs, $out, $err) = @{ $results[$i] };
	my @why;
	push @why, "timed out after ${bound}s" if $to;
	push @why, "killed by signal $sig" if $sig;
	push @why, "exit code $rc" unless $rc == 0 || $rc == 1 || $rc == 2;
	push @why, 'output of ' . (length($out) + length($err)) . ' bytes'
	  if length($out) + length($err) > 32 * 1024 * 1024;
	push @why, "exit code 0 or no error message for an unusable answer"
	  if $unusable{$kind} && ($rc == 0 || $err !~ /^pgbenchx: error: /m);
	push @why, 'an error message with exit code 0'
	  if $rc == 0 && $err =~ /^pgbenchx: error: /m;
	# -P: no more windows than the duration asked, or than the seconds elapsed
	my $lines = () = $err =~ /^progress: /mg;
	my $windows = (grep { $_ eq '-T' } @args) ? 3 : int($secs) + 2;
	$windows *= 2 if $name =~ /sweep/;
	push @why, "$lines progress lines (at most $windows)" if $lines > $windows;
	note(sprintf("%.2fs %s:%s: %s", $secs, $scope, $kind, $name));
	ok(!@why, "$scope:$kind: $name") or diag(join('; ', @why) . "\nstderr: " . substr($err, 0, 2000));
}

# issue 34's hang: a run whose samples say 2147483647 seconds, running for
# 4 s: -T 2 -P 1 prints at most 3 windows (2 s and a last partial second)
# and ends with the run; without -T, no more windows than seconds elapsed
($rc, $sig, $to, $secs, my $out, my $err) = run('deep:int32max:runfor=4', '-T', '2', '-P', '1');
my $lines = () = $err =~ /^progress: /mg;
ok(!$to && !$sig && $rc == 0, "-T 2 -P 1 against samples of 2147483647 s ends with the run (exit $rc, ${secs}s)")
  or diag($err);
ok($lines >= 1 && $lines <= 3, "-T 2 -P 1: $lines progress lines, at most 3");
($rc, $sig, $to, $secs, $out, $err) = run('deep:int32max:runfor=4', '-t', '5', '-P', '1');
$lines = () = $err =~ /^progress: /mg;
ok(!$to && !$sig && $rc == 0, "-t 5 -P 1 against samples of 2147483647 s ends with the run (exit $rc)")
  or diag($err);
ok($lines <= int($secs) + 1, "-t 5 -P 1: $lines progress lines in ${secs}s");

$fake->stop;
done_testing();
