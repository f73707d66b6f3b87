# Every block of README.md and docs/*.md that a reader would paste runs here,
# on a fresh database, and fails this test when it fails; every example
# output is compared, for its shape, with what the block really printed.
#
# A fenced block's info string says what it is:
#   sql          SQL (and psql meta-commands) to paste: run by psql with
#                ON_ERROR_STOP=1 in a new database of its own, with pgbenchx
#                created unless the block creates it
#   sh           shell commands to paste: run by bash -e -o pipefail in a new
#                directory, psql's environment (PGHOST, PGPORT, PGDATABASE)
#                naming a new database with pgbenchx, the client program
#                pgbenchx (docs/cli.md) on PATH; the block fails when bash
#                exits non-zero
#   sql continued, sh continued
#                the same, in the database and the psql session of the group
#                before it in its file (its psql variables, its \gset ids): a
#                recipe cut by prose
#   text         the output of the block just before it (the next fence up
#                must be a block that runs), pasted from a real run and
#                compared for its shape (below)
#   console      commands not run here (they need root, another machine, or
#                are the test suite itself), with or without their output
#   synopsis     signatures, formats and diagrams: nothing to run
# Any other info string, or none, fails the test: every block says what it is.
#
# What the test changes in a block before it runs it (so that recipes keep
# realistic values and the whole file runs in about 90 s on 2 busy cores):
#   - every number 300 becomes 1: write a run's duration as 300 (five
#     minutes) in a recipe, and use 300 for nothing else;
#   - the host names db1, db2, gen1, gen2 of a conninfo (host=db1) become the
#     sockets of three throwaway servers: db1 the first, db2 and gen1 the
#     second, gen2 the third; each dbname=NAME a block names is created new
#     on its server, with pgbenchx.
#   - a path under /mnt/ (a recipe's directory on another file system, for
#     a tablespace) becomes the same path under this test's directory,
#     which the server's user owns.
#
# A block that runs fails the test when psql or bash fails; after each group
# every run and sweep in its databases must have ended completed or
# cancelled (a recipe whose run fails, for instance on a table it never
# created, fails here).  An example of an error sets \set ON_ERROR_STOP off
# first, and its output shows the error.  A group that names other servers
# runs as soon as they are free, alone on them; the others run on any free
# server, three at a time.
#
# The shape of an output: each line with numbers, ids, the limit verdict and
# the top wait events replaced by placeholders, runs of spaces, dashes and
# bar characters shortened, plurals made singular; the set of shapes of the
# pasted example must equal the set of shapes of the real output, but for
# the progress NOTICEs of wait and the driver-busy warnings, which come and
# go with timing.  So an example may show fewer or more rows than the real
# output, but not a line, a column or a verdict the real output lacks, nor
# lack one it prints.  PGX_DOCS_DUMP=dir writes each block's real output to
# dir, to paste from; PGX_DOCS_FILES="README.md docs/init.md" runs those
# files' blocks only.
#
# Before any block runs, every link of those files to a file of the tree
# must name one that exists, and its #anchor one that a heading of that
# file makes (as GitHub makes them); web links are not followed.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Path qw(make_path);
use POSIX qw(:sys_wait_h);
use Time::HiRes qw(time sleep);
use FindBin;
use File::Spec;
use File::Basename qw(dirname);
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest qw(pgbenchx_cli);

my $root = "$FindBin::RealBin/../..";
# the sh blocks find the client program pgbenchx (docs/cli.md) on PATH
my $cli_dir = dirname(pgbenchx_cli());
my $t0 = time;
my @files = ('README.md', map { s{^\Q$root\E/}{}r } sort glob("$root/docs/*.md"));
@files = grep { my $f = $_; grep { $_ eq $f } split ' ', $ENV{PGX_DOCS_FILES} } @files if $ENV{PGX_DOCS_FILES};
my %kinds = map { $_ => 1 } qw(sql sh text console synopsis);

# -- the blocks ---------------------------------------------------------------

# blocks(file): its fenced blocks, each {file, line, kind, continued, body}
sub blocks
{
	my ($file) = @_;
	my @lines = split /\n/, slurp_file("$root/$file"), -1;
	my (@blocks, $in);
	for my $i (0 .. $#lines)
	{
		my $l = $lines[$i];
		if (!$in)
		{
			next unless $l =~ /^( *)(`{3,})\s*(.*?)\s*$/;
			my ($indent, $fence, $info) = (length $1, $2, $3);
			my ($kind, @words) = split ' ', $info;
			$in = { file => $file, line => $i + 1, indent => $indent, fence => $fence,
				kind => $kind // '', words => \@words, body => [] };
		}
		elsif ($l =~ /^ *\Q$in->{fence}\E\s*$/)
		{
			$in->{body} = join("\n", @{ $in->{body} }) . "\n";
			$in->{continued} = grep { $_ eq 'continued' } @{ $in->{words} };
			push @blocks, $in;
			undef $in;
		}
		else
		{
			(my $b = $l) =~ s/^ {0,$in->{indent}}//;
			push @{ $in->{body} }, $b;
		}
	}
	push @blocks, { %$in, kind => 'unclosed' } if $in;
	return @blocks;
}

my @all = map { blocks($_) } @files;
my @bad = grep {
	my $b = $_;
	!$kinds{ $b->{kind} }
	  || (grep { $_ ne 'continued' } @{ $b->{words} })
	  || ($b->{continued} && $b->{kind} !~ /^(sql|sh)$/)
} @all;
is(scalar(@bad), 0, 'every fenced block says what it is (sql, sh, text, console, synopsis)')
  or diag(join "\n", map { "$_->{file}:$_->{line}: ```$_->{kind} @{ $_->{words} }" } @bad);

# groups: a block that runs and the continued blocks after it in its file;
# a text block belongs to the fence just before it, which must run
my (@groups, %group_of_file, $prev, @orphans, @lost_continued);
for my $b (@all)
{
	if ($b->{kind} eq 'sql' || $b->{kind} eq 'sh')
	{
		if (!$b->{continued})
		{
			push @groups, { blocks => [$b], file => $b->{file} };
			$group_of_file{ $b->{file} } = $groups[-1];
		}
		elsif ($group_of_file{ $b->{file} }) { push @{ $group_of_file{ $b->{file} }{blocks} }, $b; }
		else { push @lost_continued, $b; }
	}
	elsif ($b->{kind} eq 'text')
	{
		if ($prev && $prev->{file} eq $b->{file} && ($prev->{kind} eq 'sql' || $prev->{kind} eq 'sh'))
		{
			$prev->{example} = $b;
		}
		else { push @orphans, $b; }
	}
	$prev = $b;
}
is(scalar(@orphans), 0, 'every text block follows the block whose output it is')
  or diag(join "\n", map { "$_->{file}:$_->{line}: ```text with no sql or sh block right before it" } @orphans);
is(scalar(@lost_continued), 0, 'every continued block continues a block of its own file')
  or diag(join "\n", map { "$_->{file}:$_->{line}: ```$_->{kind} continued after no sql or sh block" } @lost_continued);
my $nrun = grep { $_->{kind} eq 'sql' || $_->{kind} eq 'sh' } @all;
my $nexample = grep { $_->{example} } @all;
cmp_ok($nrun, '>=', $ENV{PGX_DOCS_FILES} ? 1 : 20, "README.md and docs/ have blocks to run ($nrun)");
cmp_ok($nexample, '>=', $ENV{PGX_DOCS_FILES} ? 1 : 10, "and example outputs to compare ($nexample)");

# -- the links ---------------------------------------------------------------

# anchors(file): the anchors GitHub makes of a markdown file's headings
# (their text without formatting, lower case, punctuation dropped, spaces
# as hyphens, a repeated one numbered), and its <a name> and id= anchors
sub anchors
{
	my ($file) = @_;
	my (%a, %seen, $fence);
	for my $l (split /\n/, slurp_file($file))
	{
		if ($l =~ /^ *(`{3,})/) { $fence = $fence ? undef : $1; next; }
		next if $fence;
		$a{$1} = 1 while $l =~ /<a\s+(?:name|id)="([^"]+)"/g;
		next unless $l =~ /^#{1,6}\s+(.*?)\s*#*\s*$/;
		my $h = $1;
		$h =~ s/!?\[([^\]]*)\]\([^)]*\)/$1/g;
		$h =~ s/<[^>]+>//g;
		$h = lc $h;
		$h =~ s/[^\w\- ]//g;
		$h =~ s/ /-/g;
		my $n = $seen{$h}++;
		$a{ $n ? "$h-$n" : $h } = 1;
	}
	return \%a;
}

# every link of README.md and docs/*.md to a file of the tree names one that
# exists, and its #anchor one of that file's headings (a heading renamed
# leaves no dead link behind); web links are not followed
my (@dead, %anchors_of, $nlinks);
for my $file (@files)
{
	(my $dir = $file) =~ s{[^/]*$}{};
	my $text = slurp_file("$root/$file");
	$text =~ s/^ *(`{3,}).*?^ *\1\s*$//gms;    # fenced blocks hold no links
	$text =~ s/`[^`\n]*`/``/g;                  # nor inline code
	while ($text =~ /\]\(([^)\s]+)\)/g)
	{
		my $target = $1;
		next if $target =~ /^[a-z]+:/i;
		$nlinks++;
		my ($path, $anchor) = $target =~ /^([^#]*)(?:#(.*))?$/;
		my $to = $path eq '' ? $file : File::Spec->canonpath("$dir$path");
		1 while $to =~ s{(^|/)(?!\.\./)[^/]+/\.\./}{$1};
		if (!-e "$root/$to") { push @dead, "$file: ($target): no file $to"; next; }
		next unless defined $anchor;
		$anchors_of{$to} //= anchors("$root/$to");
		push @dead, "$file: ($target): no heading of $to makes #$anchor" unless $anchors_of{$to}{$anchor};
	}
}
cmp_ok($nlinks // 0, '>=', $ENV{PGX_DOCS_FILES} ? 0 : 50, 'README.md and docs/ have links to check (' . ($nlinks // 0) . ')');
is(scalar(@dead), 0, 'every link to a file and anchor of the tree resolves')
  or diag(join "\n", @dead);

# -- the shape of an output ---------------------------------------------------

my $verdict = qr/(?:load generator|CPU|I\/O|locks|LWLocks) \([^()\n]*\)|no evident limit/;
my $bars = qr/(?:\xE2\x96[\x80-\x9F]|#)+/;    # U+2580..U+259F in UTF-8, or #

sub shape
{
	my ($line) = @_;
	my $s = $line;
	return undef if $s =~ /^\s*NOTICE:\s+(?:sweep \d+, run \d+ of \d+ \(run \d+\)|run \d+): (?:starting|maintenance|checkpoint|connecting|ready|measuring|finishing)\b/;
	return undef if $s =~ /the driver workers were busy/;
	$s =~ s/$verdict/<limit>/g;
	$s =~ s/^(\s*top waits:).*/$1 <waits>/;
	$s =~ s/$bars/<bar>/g;
	$s =~ s/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/9/g;
	$s =~ s/\b9 (\w+?)s\b/9 $1/g;
	$s =~ s/-{2,}/-/g;
	$s =~ s/\s+/ /g;
	$s =~ s/^ | $//g;
	$s =~ s/ ?\+$//;
	return $s eq '' ? undef : $s;
}

sub shapes
{
	my ($text) = @_;
	my %s;
	my $dropped = 0;
	for my $l (split /\n/, $text)
	{
		# the DETAIL or HINT of a message left out goes with it (on a quiet
		# machine the NOTICE "the driver workers were busy" comes with its
		# HINT "Pass more jobs, ...")
		next if $dropped && $l =~ /^(?:DETAIL|HINT):\s/;
		my $sh = shape($l);
		$dropped = !defined $sh && $l =~ /^\s*(?:NOTICE|WARNING|INFO):\s/;
		$s{$sh} = 1 if defined $sh;
	}
	return \%s;
}

our $server_major;	# the servers' major, set once they are up

# differences(example, real): the shapes of one that the other lacks
sub differences
{
	my ($example, $real) = @_;
	my ($e, $r) = (shapes($example), shapes($real));
	# The examples are pasted from PostgreSQL 15, whose pgbench report()
	# follows; from 18 pgbench words a mix's per-script blocks otherwise
	# (" - N transactions (P% of total)", src/README.md "pgbench per
	# major"): those lines are left out of the comparison there.
	if ($server_major >= 18)
	{
		delete $e->{$_} for grep { /^\s*- / } keys %$e;
		delete $r->{$_} for grep { /^\s*- / } keys %$r;
	}
	return ((map { "  example only: $_" } grep { !$r->{$_} } sort keys %$e),
		(map { "  output only:  $_" } grep { !$e->{$_} } sort keys %$r));
}

# -- the servers ---------------------------------------------------------------

# three servers, their initdb run at once (init keeps nothing in the object
# but the files it writes)
my @nodes = map { PostgreSQL::Test::Cluster->new("docs_$_") } qw(a b c);
my @initdb;
for my $node (@nodes)
{
	my $pid = fork();
	die "fork: $!" unless defined $pid;
	if ($pid == 0)
	{
		$node->init;
		POSIX::_exit(0);
	}
	push @initdb, $pid;
}
for my $pid (@initdb)
{
	waitpid($pid, 0);
	BAIL_OUT("initdb failed (exit status $?)") if $?;
}
for my $node (@nodes)
{
	$node->append_conf('postgresql.conf', "extension_destdir = '$ENV{PGX_EXTENSION_DESTDIR}'")
	  if $ENV{PGX_EXTENSION_DESTDIR};
	$node->append_conf('postgresql.conf', "log_statement = none\nmax_connections = 130\nmax_worker_processes = 16\n");
	$node->start;
}
$server_major = int($nodes[0]->safe_psql('postgres', 'SHOW server_version_num') / 10000);
my %host = (db1 => $nodes[0], db2 => $nodes[1], gen1 => $nodes[1], gen2 => $nodes[2]);
my %byname = map { $_->name => $_ } @nodes;
my $work = PostgreSQL::Test::Utils::tempdir('docs');
my $dump = $ENV{PGX_DOCS_DUMP};
make_path($dump) if $dump;

# what runs: every 300 is 1 s, the hosts are ours
sub rewrite
{
	my ($text) = @_;
	$text =~ s/\b300\b/1/g;
	$text =~ s{(?<![\w./])/mnt/}{$work/mnt/}g;
	$text =~ s/\bhost=(db1|db2|gen1|gen2)\b/'host=' . $host{$1}->host . ' port=' . $host{$1}->port/ge;
	return $text;
}

my $gno = 0;

# start(group, node): the group's databases made, its psql started; returns
# the running state
sub start
{
	my ($g, $node) = @_;
	my $n = ++$gno;
	my $text = join('', map { $_->{body} } @{ $g->{blocks} });
	my $ext = $text =~ /^CREATE EXTENSION pgbenchx;/mi ? 0 : 1;
	my %dbs = ($node->name => { "docs_g$n" => $ext });
	while ($text =~ /\b(?:host=(db1|db2|gen1|gen2)\s+)?dbname=(\w+)/g)
	{
		my $on = $1 ? $host{$1} : $node;
		$dbs{ $on->name }{$2} = 1;
	}
	# one psql per server: its databases made new, and its roles before
	my (@made, %roles);
	for my $nn (sort keys %dbs)
	{
		my $on = $byname{$nn};
		my $sql = '';
		for my $db (sort keys %{ $dbs{$nn} })
		{
			$sql .= "\\c postgres\nDROP DATABASE IF EXISTS $db WITH (FORCE);\nCREATE DATABASE $db;\n";
			$sql .= "\\c $db\nCREATE EXTENSION pgbenchx;\n" if $dbs{$nn}{$db};
			push @made, [ $on, $db ];
		}
		$sql .= "SELECT string_agg(rolname, ' ') FROM pg_roles;\n";
		$roles{$nn} = { map { $_ => 1 } split / /, $on->safe_psql('postgres', $sql) };
	}
	my $dir = "$work/g$n";
	make_path($dir);
	my $script = '';
	my $i = 0;
	for my $b (@{ $g->{blocks} })
	{
		$i++;
		my $body = rewrite($b->{body});
		$script .= "\\echo '\@\@docs-block $i\@\@'\n";
		if ($b->{kind} eq 'sql') { $script .= $body; }
		else
		{
			open my $fh, '>', "$dir/b$i.sh" or die;
			print $fh $body;
			close $fh;
			$script .= "\\! bash -e -o pipefail $dir/b$i.sh; echo \$? > $dir/b$i.status\n";
		}
		$script .= "\n";
	}
	$script .= "\\echo '\@\@docs-block end\@\@'\n";
	open my $fh, '>', "$dir/group.sql" or die;
	print $fh $script;
	close $fh;
	my $pid = fork();
	die "fork: $!" unless defined $pid;
	if ($pid == 0)
	{
		chdir $dir;
		open STDIN, '<', "$dir/group.sql";
		open STDOUT, '>', "$dir/out";
		open STDERR, '>&', \*STDOUT;
		$ENV{PGHOST} = $node->host;
		$ENV{PGPORT} = $node->port;
		$ENV{PGDATABASE} = "docs_g$n";
		$ENV{PATH} = "$cli_dir:$ENV{PATH}";
		delete $ENV{PGUSER};
		delete $ENV{PGSERVICE};
		exec('psql', '-X', '-v', 'ON_ERROR_STOP=1') or POSIX::_exit(127);
	}
	return { group => $g, node => $node, pid => $pid, dir => $dir, made => \@made, roles => \%roles, t0 => time };
}

# finish(state, exit status): the group's assertions, its databases and
# roles dropped
sub finish
{
	my ($st, $status) = @_;
	my $g = $st->{group};
	my $first = $g->{blocks}[0];
	my $where = "$first->{file}:$first->{line}";
	my $out = -f "$st->{dir}/out" ? slurp_file("$st->{dir}/out") : '';
	my @parts = split /^\@\@docs-block (\d+|end)\@\@\n/m, $out, -1;
	shift @parts;
	my %output = @parts;
	my $i = 0;
	for my $b (@{ $g->{blocks} })
	{
		$i++;
		my $here = "$b->{file}:$b->{line}";
		my $real = $output{$i};
		my $ok = defined $real && ($b->{kind} eq 'sql' ? (defined $output{ $i + 1 } || defined $output{end})
			  : (-f "$st->{dir}/b$i.status" && slurp_file("$st->{dir}/b$i.status") =~ /^0$/m));
		ok($ok, "$here: the $b->{kind} block runs")
		  or diag("its output:\n" . ($real // $out));
		if ($dump)
		{
			(my $name = "$b->{file}-$b->{line}") =~ s{/}{_}g;
			open my $fh, '>', "$dump/$name.out" or die;
			print $fh $real // '';
			close $fh;
		}
		next unless $b->{example} && $ok;
		my @diff = differences($b->{example}{body}, $real);
		is(scalar(@diff), 0, "$b->{example}{file}:$b->{example}{line}: the example has the shape of the real output")
		  or diag(join("\n", @diff) . "\nthe real output:\n$real");
		push @{ $st->{checked} }, [ $b->{example}{body}, $real ];
	}
	ok($status == 0, "$where: psql ends without an error (exit status " . ($status >> 8) . ')')
	  or diag("the output:\n$out");
	# per server: every run and sweep ended, the databases dropped, the roles
	# the group made dropped
	my %made_on;
	push @{ $made_on{ $_->[0]->name } }, $_->[1] for @{ $st->{made} };
	for my $nn (sort keys %made_on)
	{
		my $on = $byname{$nn};
		my $sql = '';
		for my $db (@{ $made_on{$nn} })
		{
			$sql .= "\\c $db\nSELECT '$db:' || coalesce(string_agg(format('%s %s %s: %s', k, id, status, translate(error, E'\\n', ' ')), ' ;; '), '') FROM ("
			  . "SELECT 'run' AS k, run_id AS id, status, error FROM pgbenchx.runs UNION ALL "
			  . "SELECT 'sweep', sweep_id, status, error FROM pgbenchx.sweeps) x "
			  . "WHERE status NOT IN ('completed', 'cancelled');\n";
		}
		$sql .= "\\c postgres\n" . join('', map { "DROP DATABASE $_ WITH (FORCE);\n" } @{ $made_on{$nn} });
		$sql .= "SELECT string_agg(rolname, ' ') FROM pg_roles;\n";
		my @lines = split /\n/, $on->safe_psql('postgres', $sql);
		my @new = grep { !$st->{roles}{$nn}{$_} } split / /, pop @lines;
		for my $line (@lines)
		{
			my ($db, $bad) = $line =~ /^(\w+):(.*)$/;
			is($bad, '', "$where: every run and sweep in $nn/$db completed or was cancelled");
		}
		$on->safe_psql('postgres', join('', map { qq{DROP ROLE "$_";\n} } @new)) if @new;
	}
	note(sprintf('%s: %.1f s', $where, time - $st->{t0}));
	return @{ $st->{checked} // [] };
}

my @checked;

# A group that names other servers needs them, and the first, to itself; it
# runs as soon as they are free (the one that needs the most first), and
# meanwhile the other groups run one per free server that no such group
# waits for.
sub needs
{
	my ($g) = @_;
	my $text = join('', map { $_->{body} } @{ $g->{blocks} });
	return () unless $text =~ /\bhost=(?:db1|db2|gen1|gen2)\b/;
	my %n = ($nodes[0]->name => 1);
	$n{ $host{$1}->name } = 1 while $text =~ /\bhost=(db1|db2|gen1|gen2)\b/g;
	return sort keys %n;
}
my %nneeds = map { ($_ => scalar(my @n = needs($_))) } @groups;
my @queue = sort { $nneeds{$b} <=> $nneeds{$a} } @groups;
my %busy;
while (@queue || %busy)
{
	my %waited;
	for (my $i = 0; $i < @queue;)
	{
		my @need = needs($queue[$i]);
		if (@need)
		{
			if (!grep { $busy{$_} } @need)
			{
				my $st = start(splice(@queue, $i, 1), $nodes[0]);
				$busy{$_} = $st for @need;
				next;
			}
			$waited{$_} = 1 for @need;
			$i++;
			next;
		}
		my ($free) = grep { !$busy{ $_->name } && !$waited{ $_->name } } @nodes;
		last unless $free;
		$busy{ $free->name } = start(splice(@queue, $i, 1), $free);
	}
	my $pid = waitpid(-1, 0);
	last if $pid < 0;
	my ($st) = grep { $_->{pid} == $pid } values %busy;
	next unless $st;
	delete $busy{$_} for grep { $busy{$_} == $st } keys %busy;
	push @checked, finish($st, $?);
}

# the comparison itself must be able to fail: an example without a line the
# real output prints (its limit line, its sweep table's header) differs
my ($with_limit) = grep { $_->[1] =~ /^(?:limit: |clients\s+tps\s.*\blimit$)/m } @checked;
ok($with_limit, 'an example with the limit line or column was compared');
if ($with_limit)
{
	my $cut = join "\n", grep { !/^(?:limit: |clients\s+tps\s)/ } split /\n/, $with_limit->[0];
	isnt(scalar(differences($cut, $with_limit->[1])), 0,
		'and the same example without that line would differ from the real output');
}
note(sprintf('all blocks in %.0f s', time - $t0));
done_testing();
