# The language core's memory in the server: a script parsed by a statement
# that then fails is released with the statement, not leaked.  A run_bench
# refused after its scripts parsed (check_tpcb with a custom script) holds a
# parsed script of 20000 commands when it throws; thirty of them in one
# session must not grow the backend's resident memory by what thirty parsed
# scripts take (malloc'd, they would).  Also: the refusal still names the
# script, and a run after all that works and leaves nothing behind.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('langmem', scale => 1);

sub q1 { return $node->safe_psql('postgres', $_[0]); }

my $n = 20000;
my $body = join('', map { "\\set v$_ random(1, 100000 * :scale)\nselect :v$_, abalance from pgbench_accounts where aid = :v$_;\n" } 1 .. $n / 2);
my $file = "$PostgreSQL::Test::Utils::tmp_check/big.sql";
open(my $fh, '>', $file) or die; print $fh $body; close $fh;
q1("SELECT pgbenchx.add_script('big', pg_read_file('$file'))");

# one session: a warm-up refusal, the resident size, thirty refusals, the size again
my $rss = "(SELECT substring(l from '([0-9]+) kB')::bigint FROM "
  . "pg_catalog.regexp_split_to_table(pg_catalog.pg_read_file('/proc/self/status'), E'\\n') l "
  . "WHERE l LIKE 'VmRSS:%')";
my ($ret, $out, $err) = $node->psql('postgres', qq{
CREATE TEMP TABLE rss (at text, kb bigint);
DO \$\$
BEGIN
  FOR i IN 0 .. 30 LOOP
    IF i = 1 THEN INSERT INTO rss SELECT 'before', $rss; END IF;
    BEGIN
      PERFORM run_bench(1, 1, 'big', check_tpcb => true, checkpoint => false);
      RAISE EXCEPTION 'run_bench was not refused';
    EXCEPTION WHEN invalid_parameter_value THEN
      IF i = 0 THEN RAISE NOTICE 'refused: %', SQLERRM; END IF;
    END;
  END LOOP;
  INSERT INTO rss SELECT 'after', $rss;
END \$\$;
SELECT (SELECT kb FROM rss WHERE at = 'before') || ' ' || (SELECT kb FROM rss WHERE at = 'after');
});
is($ret, 0, 'thirty refused run_bench calls ran in one session') or diag($err);
like($err, qr/check_tpcb needs the tpcb-like script, not "big"/, 'the refusal names the script');
my ($before, $after) = split / /, $out;
ok(defined $after && $after =~ /^\d+$/, "resident size read: $out");
my $grown = ($after // 0) - ($before // 0);
note("backend VmRSS before $before kB, after $after kB: grown $grown kB");
# a parsed script of 20000 commands takes several MB: thirty leaked would be far above this
cmp_ok($grown, '<', 40 * 1024, 'the parsed scripts were released with each failed statement');

# the server is fine: a custom run of the same script completes
my $id = q1("SELECT run_bench(1, transactions => 1, script => 'big', checkpoint => false)");
$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'a run of the script completes');
ok(nothing_left($node), 'nothing left');

$node->stop;
done_testing();
