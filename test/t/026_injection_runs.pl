# Hostile text through real runs: a label, tags, a conninfo value and a
# replay list full of quotes, backslashes, "'); DROP TABLE ...; --" and $$
# are stored verbatim or quoted with libpq's rules, and never reach the
# extension's own SQL (a canary table survives; the run completes).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('inject', scale => 1);
$node->safe_psql('postgres', q{
	CREATE TABLE canary (x int);
	INSERT INTO canary VALUES (1);
});

sub q1 { return $node->safe_psql('postgres', $_[0]); }

my $evil = q{it's \\ "x"'); DROP TABLE canary; -- $$ $x$ };

# label, tags and a conninfo value (application_name is overridden per client,
# so use an option value the server accepts as text)
my $id = q1(qq{SELECT run_bench(2, 1, 'select-only', checkpoint => false,
	label => \$q\$$evil\$q\$,
	tags => jsonb_build_object('note', \$q\$$evil\$q\$),
	conninfo => \$q\$options='-c search_path=public'\$q\$)});
$node->safe_psql('postgres', "CALL pgbenchx.wait($id)");
is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $id"), 'completed', 'the run with hostile text completes');
is(q1("SELECT label FROM pgbenchx.runs WHERE run_id = $id"), $evil, 'the label is stored verbatim');
is(q1("SELECT tags->>'note' FROM pgbenchx.runs WHERE run_id = $id"), $evil, 'the tags are stored verbatim');
is(q1('SELECT count(*) FROM canary'), '1', 'the canary survives');

# a conninfo value with quotes and backslashes (libpq quoting): the clients
# take it as their application_name, and the stored conninfo is re-quoted
my $appname = q{it's \\ x'); DROP TABLE canary; --};
(my $quoted = $appname) =~ s/([\\'])/\\$1/g;    # libpq's quoting: \\ and \'
my $cid = q1(qq{SELECT run_bench(1, 1, 'select-only', checkpoint => false,
	conninfo => \$q\$application_name='$quoted'\$q\$)});
$node->safe_psql('postgres', "CALL pgbenchx.wait($cid)");
is(q1("SELECT status FROM pgbenchx.runs WHERE run_id = $cid"), 'completed', 'a run with a quoted conninfo value completes');
like(q1("SELECT conninfo FROM pgbenchx.runs WHERE run_id = $cid"), qr/^application_name='it\\'s /, 'the stored conninfo is quoted with libpq\'s rules');
is(q1('SELECT count(*) FROM canary'), '1', 'the canary survives the conninfo');

# a replay list: it is SQL by definition, and runs as statements of the list;
# a DROP inside a comment or a string literal does nothing
my $list = qq{SELECT 'x''); DROP TABLE canary; --' AS s;\n-- '); DROP TABLE canary; --\nSELECT \$\$ \$\$ AS d;\n};
my $sweep = q1(qq{SELECT run_replay(\$r\$$list\$r\$, 1, 2, checkpoint => false, label => \$q\$$evil\$q\$)});
$node->safe_psql('postgres', "CALL pgbenchx.wait($sweep)");
is(q1("SELECT string_agg(status || ':' || (transactions + failed), ',' ORDER BY run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
	'completed:2,completed:4', 'the replay ran each statement once per client');
is(q1("SELECT label FROM pgbenchx.sweeps WHERE sweep_id = $sweep"), $evil, 'the sweep label is stored verbatim');
is(q1('SELECT count(*) FROM canary'), '1', 'the canary survives the replay');

# a chart of these runs escapes the label into well-formed XML
is(q1("SELECT xml_is_well_formed_document(pgbenchx.chart_sweeps(ARRAY[$sweep]))"), 't', 'the chart stays well-formed XML');

$node->stop;
done_testing();
