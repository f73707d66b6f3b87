# FakePgServer: a hostile PostgreSQL server for the client program's tests
# (test/t/071_cli_hostile_server.pl, issue 34 §4).  It speaks protocol 3 on
# 127.0.0.1 (no SSL, no authentication: AuthenticationOk at once) and answers
# every query, simple ('Q') or extended (Parse/Bind/Describe/Execute/Sync),
# with what the connection's database name asks for, so that one server
# serves every case of a test: PGDATABASE="SCOPE:KIND[:runfor=N]".
#
#   SCOPE  flat    every query gets KIND's answer
#          follow  the connection's set-up and run_bench/run_sweep's id are
#                  answered as a server would, every later query with KIND
#          deep    the run's life is answered as a server would (its id, its
#                  status: 'running' at the first look, and for N seconds
#                  after the run started with runfor=N, then 'completed'; the
#                  run that ended; the run in progress; no client message;
#                  the run's phase), every other query
#                  (reports, progress, logs, charts, exports...) with KIND
#   KIND   a value for every column of one row: empty null abc 12abc neg
#          min64 big int32max e308 inf nan infinity zero t space running
#          huge (1 MB of digits in the first column, "1" in the others);
#          or a shape: rows0 (no row), rows3 (three rows of "1"), many
#          (200001 rows of "1"), colsplus / colsminus (a column more or
#          less than the query's select list has), error (an ErrorResponse)
#
# The number of columns a query expects is read from its select list (the
# commas at the top level of its last top-level SELECT), and their names
# from the items that end in a plain name, so that a reply of the right
# shape reaches the program's checks of the values.
#
# FakePgServer->start returns an object with ->port and ->stop; a connection
# is served by a child process of its own, which ends when the client goes.
package FakePgServer;

use strict;
use warnings;
use IO::Socket::INET;
use POSIX ();
use Time::HiRes ();

my %values = (
	empty => '',
	null => undef,
	abc => 'abc',
	'12abc' => '12abc',
	neg => '-1',
	min64 => '-9223372036854775808',
	big => '9223372036854775808',
	int32max => '2147483647',
	e308 => '1e308',
	inf => 'inf',
	nan => 'nan',
	infinity => 'Infinity',
	zero => '0',
	t => 't',
	space => ' 7',
	running => 'running',
	huge => 'HUGE',
);
my @shapes = qw(rows0 rows3 many colsplus colsminus error);
my $huge = '1' x 1_000_000;     # made once, before the connections' processes fork
my %rowcache;                    # a connection's DataRow messages, made once each

# the kinds of answer, for a test to loop over
sub kinds { return ((sort keys %values), @shapes); }

sub start
{
	my ($class) = @_;
	my $listen = IO::Socket::INET->new(
		LocalAddr => '127.0.0.1',
		LocalPort => 0,
		Listen => 64,
		ReuseAddr => 1,
		Proto => 'tcp') or die "fake server: listen: $!";
	my $port = $listen->sockport;
	my $pid = fork // die "fork: $!";
	if ($pid == 0)
	{
		$SIG{CHLD} = 'IGNORE';
		$SIG{TERM} = sub { POSIX::_exit(0) };
		for (;;)
		{
			my $c = $listen->accept or next;
			my $k = fork;
			if (defined $k && $k == 0)
			{
				close $listen;
				alarm(600);
				eval { serve($c) };
				POSIX::_exit(0);
			}
			close $c;
		}
	}
	close $listen;
	return bless { pid => $pid, port => $port }, $class;
}

sub port { return $_[0]{port}; }

sub stop
{
	my ($self) = @_;
	kill 'TERM', $self->{pid};
	waitpid($self->{pid}, 0);
}

sub readn
{
	my ($c, $n) = @_;
	my $buf = '';
	while (length($buf) < $n)
	{
		my $got = sysread($c, $buf, $n - length($buf), length($buf));
		die "client gone\n" unless $got;
	}
	return $buf;
}

sub msg { return $_[0] . pack('N', length($_[1]) + 4) . $_[1]; }

sub send_all
{
	my ($c, $data) = @_;
	my $off = 0;
	while ($off < length $data)
	{
		my $n = syswrite($c, $data, length($data) - $off, $off);
		die "client gone\n" unless defined $n && $n > 0;
		$off += $n;
	}
}

# the select list of a query: its items' names (a plain name at the end, or ?column?)
sub select_list
{
	my ($sql) = @_;
	my $s = $sql;
	$s =~ s/'(?:[^']|'')*'/'S'/g;    # literals out of the way
	my @chars = split //, $s;
	my ($depth, $start) = (0, -1);
	for (my $i = 0; $i < @chars; $i++)
	{
		$depth++ if $chars[$i] eq '(';
		$depth-- if $chars[$i] eq ')';
		$start = $i + 6
		  if $depth == 0 && uc(substr($s, $i, 6)) eq 'SELECT' && ($i == 0 || substr($s, $i - 1, 1) =~ /[\s(]/);
	}
	return ('?column?') if $start < 0;
	my ($item, @items) = ('');
	$depth = 0;
	for (my $i = $start; $i < @chars; $i++)
	{
		my $ch = $chars[$i];
		if ($depth == 0 && substr($s, $i) =~ /^\s(FROM|WHERE|ORDER|GROUP)\b/i)
		{
			last;
		}
		$depth++ if $ch eq '(';
		$depth-- if $ch eq ')';
		if ($depth == 0 && $ch eq ',')
		{
			push @items, $item;
			$item = '';
			next;
		}
		$item .= $ch;
	}
	push @items, $item;
	return map { /(?:^|[\s.])([a-z_][a-z0-9_]*)\s*$/ ? $1 : '?column?' } @items;
}

# the answer to one query: undef for an error, else [names, the row, how many times]
sub answer
{
	my ($st, $sql) = @_;
	my ($scope, $kind) = @{$st}{qw(scope kind)};
	my @names = select_list($sql);
	my $sane = sub { return [ [@names], [@_], 1 ]; };

	# the connection's set-up, and the run's id, as a server answers them
	if ($scope ne 'flat')
	{
		return $sane->('') if $sql =~ /set_config\('search_path'/;
		return $sane->('"$user", public', 'public') if $sql =~ /current_setting\('search_path'\)/;
		if ($sql =~ /\b(run_bench|run_sweep)\(/)
		{
			$st->{started} = Time::HiRes::time();
			$st->{sweep} = $1 eq 'run_sweep';
			return $sane->('7');
		}
	}
	if ($scope eq 'deep')
	{
		if ($sql =~ /SELECT status FROM pgbenchx\.(runs|sweeps)/)
		{
			my $running = !$st->{looked}++
			  || Time::HiRes::time() - ($st->{started} // 0) < $st->{runfor};
			$st->{ended} = 1 unless $running;
			return $sane->($running ? 'running' : 'completed');
		}
		return $sane->('7') if $sql =~ /^SELECT \$1::bigint$/;
		return $sane->('8') if $sql =~ /SELECT max\(run_id\) FROM pgbenchx\.runs/;
		if ($sql =~ /SELECT run_id, status, coalesce\(aborted_clients/)
		{
			return [ [@names], [], 0 ] unless $st->{ended} && !$st->{reported}++;
			return $sane->($st->{sweep} ? '8' : '7', 'completed', '0', '');
		}
		return $sane->('t') if $sql =~ /\bcancel\(/;
		# the clients printed nothing; the run is past its vacuum
		return [ [@names], [], 0 ] if $sql =~ /pgbenchx\.client_messages\(/;
		return $sane->('measuring') if $sql =~ /SELECT phase FROM pgbenchx\.progress/;
	}

	return undef if $kind eq 'error';
	my $n = @names;
	$n++ if $kind eq 'colsplus';
	$n-- if $kind eq 'colsminus';
	my @cols = map { $_ < @names ? $names[$_] : "extra$_" } 0 .. $n - 1;
	my $rows = $kind eq 'rows0' ? 0 : $kind eq 'rows3' ? 3 : $kind eq 'many' ? 200001 : 1;
	my @row;
	if (exists $values{$kind})
	{
		@row = map { $values{$kind} } 1 .. $n;
		@row = ($huge, map { '1' } 2 .. $n) if $kind eq 'huge';
	}
	else
	{
		@row = map { '1' } 1 .. $n;
	}
	return [ \@cols, \@row, $rows ];
}

sub row_description
{
	my ($names) = @_;
	return msg('T',
		pack('n', scalar @$names)
		  . join('', map { pack('Z* N n N n N n', $_, 0, 0, 25, 0xFFFF, 0xFFFFFFFF, 0) } @$names));
}

sub data_rows
{
	my ($c, $ans) = @_;
	my ($row, $count) = @{$ans}[ 1, 2 ];
	if ($count > 0)
	{
		my $key = join("\0", map { defined $_ ? length($_) > 64 ? "huge" : "v$_" : 'n' } @$row);
		my $d = $rowcache{$key};
		if (!defined $d)
		{
			my $body = pack('n', scalar @$row);
			$body .= defined $_ ? pack('N', length $_) . $_ : pack('N', 0xFFFFFFFF) foreach @$row;
			$d = 'D' . pack('N', length($body) + 4);
			$d .= $body;
			%rowcache = () if length($d) > 1 << 20;    # one big row kept at a time
			$rowcache{$key} = $d;
		}
		my $per = length($d) >= 1 << 16 ? 1 : int((1 << 16) / length($d));
		for (my $sent = 0; $sent < $count; $sent += $per)
		{
			send_all($c, $d x ($count - $sent < $per ? $count - $sent : $per));
		}
	}
	send_all($c, msg('C', "SELECT $count\0"));
}

sub error_response
{
	return msg('E', "SERROR\0VERROR\0CXX000\0Mfake server: no answer for this query\0\0");
}

sub serve
{
	my ($c) = @_;
	my %st;
	$SIG{PIPE} = 'IGNORE';

	# the start-up: SSL and GSS encryption refused, then the startup packet
	my %params;
	for (;;)
	{
		my ($len) = unpack('N', readn($c, 4));
		my $body = readn($c, $len - 4);
		my ($code) = unpack('N', $body);
		if ($code == 80877103 || $code == 80877104)
		{
			send_all($c, 'N');
			next;
		}
		return if $code == 80877102;    # a CancelRequest
		%params = split /\0/, substr($body, 4);
		last;
	}
	my ($scope, $kind, @opts) = split /:/, ($params{database} // 'flat:error');
	%st = (scope => $scope, kind => $kind // 'error', runfor => 0);
	foreach (@opts) { $st{runfor} = $1 if /^runfor=(\d+)$/; }

	my $hello = msg('R', pack('N', 0));
	$hello .= msg('S', "$_->[0]\0$_->[1]\0")
	  foreach ([ 'server_version', '15.99 (fake)' ], [ 'client_encoding', 'UTF8' ],
		[ 'standard_conforming_strings', 'on' ], [ 'integer_datetimes', 'on' ],
		[ 'DateStyle', 'ISO, MDY' ], [ 'server_encoding', 'UTF8' ]);
	$hello .= msg('K', pack('NN', $$, 12345));
	$hello .= msg('Z', 'I');
	send_all($c, $hello);

	my ($sql, $ans, $skipping) = ('', undef, 0);
	for (;;)
	{
		my $type = readn($c, 1);
		my ($len) = unpack('N', readn($c, 4));
		my $body = $len > 4 ? readn($c, $len - 4) : '';
		return if $type eq 'X';
		if ($type eq 'Q')
		{
			($sql) = unpack('Z*', $body);
			$ans = answer(\%st, $sql);
			if (defined $ans)
			{
				send_all($c, row_description($ans->[0]));
				data_rows($c, $ans);
			}
			else
			{
				send_all($c, error_response());
			}
			send_all($c, msg('Z', 'I'));
			next;
		}
		if ($type eq 'S')
		{
			$skipping = 0;
			send_all($c, msg('Z', 'I'));
			next;
		}
		next if $skipping || $type eq 'H';
		if ($type eq 'P')
		{
			(undef, $sql) = unpack('Z* Z*', $body);
			$ans = answer(\%st, $sql);
			if (!defined $ans)
			{
				send_all($c, error_response());
				$skipping = 1;
				next;
			}
			send_all($c, msg('1', ''));
		}
		elsif ($type eq 'B')
		{
			send_all($c, msg('2', ''));
		}
		elsif ($type eq 'D')
		{
			send_all($c, msg('t', pack('n', 0))) if substr($body, 0, 1) eq 'S';
			send_all($c, row_description($ans->[0]));
		}
		elsif ($type eq 'E')
		{
			data_rows($c, $ans);
		}
		elsif ($type eq 'C')
		{
			send_all($c, msg('3', ''));
		}
	}
}

1;
