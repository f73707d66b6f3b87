# run_replay: a generated list of 200 statements replayed by 1, 2
# and 4 clients, each client running the whole list once: statements
# executed, failures counted without stopping the replay, completion time
# and queries per minute; a shuffled replay; reading the list from a
# server-side file, and the privilege that needs.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('replay', scale => 1);

sub q1 { return $node->safe_psql('postgres', $_[0]); }

# 200 statements: reads, updates, and 10 that fail
my @stmts;
for my $i (1 .. 200)
{
	my $aid = ($i * 7919) % 100000 + 1;
	if ($i % 20 == 0) { push @stmts, "SELECT 1/0;"; }
	elsif ($i % 3 == 0) { push @stmts, "UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = $aid;"; }
	else { push @stmts, "SELECT abalance FROM pgbench_accounts WHERE aid = $aid;"; }
}
my $list = join("\n", @stmts) . "\n";
my $file = $node->basedir . '/replay.sql';
open(my $fh, '>', $file) or die;
print $fh $list;
close $fh;

my $before = q1('SELECT sum(abalance) FROM pgbench_accounts');
my $sweep = q1("SELECT run_replay(\$r\$$list\$r\$, 1, 4, checkpoint => false)");
$node->safe_psql('postgres', "CALL pgbenchx.wait($sweep)");
is(q1("SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $sweep"), 'completed', 'the replay sweep completes');
is(q1("SELECT string_agg(clients::text, ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
	'1,2,4', 'one run per client count');
foreach my $row (split /\n/, q1("SELECT clients, transactions, failed, qpm, bench_duration_s, replay FROM pgbenchx.runs WHERE sweep_id = $sweep ORDER BY clients"))
{
	my ($c, $tx, $failed, $qpm, $secs, $replay) = split /\|/, $row;
	is($tx + $failed, 200 * $c, "$c clients: every client ran all 200 statements");
	is($failed, 10 * $c, "$c clients: the failing statements are counted, and the replay went on");
	cmp_ok(abs($qpm - ($tx + $failed) / $secs * 60), '<', 0.01 * $qpm, "$c clients: qpm = statements per minute of the completion time");
	is($replay, 't', "$c clients: marked as a replay");
}
# every update once per client: 1 + 2 + 4 clients
my $updates = grep { /^UPDATE/ } @stmts;
is(q1('SELECT sum(abalance) FROM pgbench_accounts') - $before, $updates * 7, 'every update ran once per client');
is(q1("SELECT sum(failures) FROM pgbenchx.statement_stats s JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = $sweep AND command_text = 'SELECT 1/0;'"),
	70, 'the failures are attributed to the failing statement');

# shuffled, from a server file (superuser has pg_read_server_files)
my $sh = q1("SELECT run_replay('$file', 2, 2, from_file => true, shuffle => true, checkpoint => false)");
$node->safe_psql('postgres', "CALL pgbenchx.wait($sh)");
is(q1("SELECT status || ' ' || (transactions + failed) || ' ' || failed FROM pgbenchx.runs WHERE sweep_id = $sh"),
	'completed 400 20', 'a shuffled replay from a server file runs every statement');
is(q1("SELECT count(*) FROM pgbenchx.statement_stats s JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = $sh AND executions + failures = 2"),
	200, 'per-statement figures are kept per original statement when shuffled');

# reading a server file needs pg_read_server_files
q1('CREATE ROLE replayer LOGIN');
q1("SELECT pgbenchx.grant_runner('replayer')");
my ($ret, $out, $err) = $node->psql('postgres', "SET ROLE replayer; SELECT run_replay('$file', 1, 1, from_file => true)");
like($err, qr/permission denied to read the server file/, 'a role without pg_read_server_files cannot read a file');

$node->stop;
done_testing();
