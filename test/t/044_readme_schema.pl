# The manual says what the product is, checked so that it cannot drift:
#   - the results-schema table of docs/results.md, between
#     <!-- schema:begin --> and <!-- schema:end -->, is exactly what
#     scripts/schema_table.sql prints
#     from the catalogue of a fresh CREATE EXTENSION (every column of every
#     table and view of the schema pgbenchx, its type, its comment); every
#     column has a comment.  On a difference the test prints the generated
#     table and the command that writes it into docs/results.md
#     (bash scripts/schema_table.sh --update);
#   - every message the bad-input tables of docs/bad-input.md quote is one
#     the tests see: it
#     appears in an expected/*.out file (quoted names and numbers are
#     examples: any name, any number, N or \d+ stands for them), or each of
#     its literal parts longer than 8 characters appears in one test/t file
#     (TAP tests that assert it, for what pg_regress cannot provoke).  A
#     message reworded in the code fails here until the docs quote it;
#     where the expected output shows its SQLSTATE, that code is in the
#     row's SQLSTATE column.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $root = "$FindBin::RealBin/../..";
my $results_md = slurp_file("$root/docs/results.md");
my $bad_input_md = slurp_file("$root/docs/bad-input.md");

# -- the results-schema table ------------------------------------------------

my $node = pgbenchx_node('readme');
my $generated = $node->safe_psql('postgres', slurp_file("$root/scripts/schema_table.sql"));

my @uncommented = grep { /\(no comment\)/ } split /\n/, $generated;
is(scalar(@uncommented), 0, 'every column of every table and view has a comment')
  or diag("columns without a comment (add COMMENT ON COLUMN to src/sql/80_comments.sql, which every upgrade runs again):\n"
	  . join("\n", @uncommented));

# every relation of the schema is in the table (the query's own filter, checked apart)
my $relations = $node->safe_psql('postgres',
	"SELECT string_agg(relname, ' ' ORDER BY relname) FROM pg_class "
	  . "WHERE relnamespace = 'pgbenchx'::regnamespace AND relkind IN ('r', 'v', 'm', 'p', 'f')");
foreach my $rel (split / /, $relations)
{
	like($generated, qr/^\| `pgbenchx\.\Q$rel\E`/m, "the generated table lists pgbenchx.$rel");
}
my $ncols = $node->safe_psql('postgres',
	"SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
	  . "WHERE c.relnamespace = 'pgbenchx'::regnamespace AND c.relkind IN ('r', 'v') "
	  . "AND a.attnum > 0 AND NOT a.attisdropped");
is(scalar(grep { /^\| / } split /\n/, $generated) - 1, $ncols,
	"the generated table has one row per column ($ncols)");

my @markers = $results_md =~ /^<!-- schema:(begin|end) -->$/mg;
is("@markers", 'begin end', 'docs/results.md has one schema:begin and one schema:end marker, in that order');
my ($in_docs) = $results_md =~ /^<!-- schema:begin -->\n(.*?)^<!-- schema:end -->$/ms;
$in_docs //= '';
$in_docs =~ s/\n+\z//;
if (!ok($in_docs eq $generated, "docs/results.md's results-schema table is the catalogue's"))
{
	my %in_docs = map { $_ => 1 } split /\n/, $in_docs;
	my %in_catalogue = map { $_ => 1 } split /\n/, $generated;
	diag("docs/results.md differs from the catalogue:\n"
		  . join('', map { "  docs only:      $_\n" } grep { !$in_catalogue{$_} } split /\n/, $in_docs)
		  . join('', map { "  catalogue only: $_\n" } grep { !$in_docs{$_} } split /\n/, $generated)
		  . "(or the same lines in another order); regenerate it with\n"
		  . "    bash scripts/schema_table.sh --update\n"
		  . "as root: it builds, installs into /tmp/pgx-dest-schema, starts a throwaway cluster\n"
		  . "and rewrites docs/results.md between the markers (then review git diff docs/results.md)");
}

# -- the bad-input table's messages ------------------------------------------

my $section = $bad_input_md;
like($section, qr/^\| function \| argument \| boundaries \| SQLSTATE \| message \|$/m,
	'docs/bad-input.md has the bad-input table');

my $expected = join("\n", map { slurp_file($_) } glob("$root/expected/*.out"));
my %tap = map { $_ => slurp_file($_) } glob("$root/test/t/*.pl");

# A quoted message as a regular expression over the expected outputs: "..."
# and quoted names stand for any name, numbers for any number.
sub message_regex
{
	my ($m) = @_;
	my @parts = split /("[^"]*"|\.\.\.|\b\d+(?:\.\d+)?\b|\bN\b)/, $m;
	my $re = '';
	for (my $i = 0; $i < @parts; $i++)
	{
		my $p = $parts[$i];
		if ($i % 2 == 0) { $re .= quotemeta($p); }
		elsif ($p eq '...') { $re .= '.*?'; }
		elsif ($p =~ /^"/) { $re .= '"[^"\n]*"'; }
		else { $re .= '(?:\d+(?:\.\d+)?|N|\\\\d\+)'; }
	}
	my @literals = grep { length($_) > 8 }
	  map { (my $l = $parts[$_]) =~ s/^\s+|\s+$//g; $l } grep { $_ % 2 == 0 } 0 .. $#parts;
	return ($re, \@literals);
}

my ($nquoted, @unseen, @wrong_code) = (0);
foreach my $row (grep { /^\| `/ || /^\| \|/ } split /\n/, $section)
{
	my @cells = split /\s\|\s/, $row;
	my $cell = $cells[-1];
	my %codes = map { $_ => 1 } $cells[-2] =~ /\b([0-9A-Z]{5})\b/g;
	foreach my $m ($cell =~ /`([^`]+)`/g)
	{
		$nquoted++;
		my ($re, $literals) = message_regex($m);
		if ($expected =~ /$re/)
		{
			# pgbx_try prints "SQLSTATE: message": one of them is in the row
			my @seen = $expected =~ /(?:^|\s)([0-9A-Z]{5}): $re/mg;
			push @wrong_code, "$m (the tests see @seen; the row says " . join('/', sort keys %codes) . ')'
			  if @seen && !grep { $codes{$_} } @seen;
			next;
		}
		next if @$literals && grep {
			my $text = $tap{$_};
			!grep { index($text, $_) < 0 } @$literals
		} keys %tap;
		push @unseen, $m;
	}
}
cmp_ok($nquoted, '>', 50, "the bad-input table quotes messages ($nquoted)");
is(scalar(@unseen), 0, 'every message the bad-input table quotes is one the tests see')
  or diag("quoted in docs/bad-input.md, seen in no expected/*.out nor test/t file "
	  . "(fix the row to the message the code gives, or add the case to a test):\n  "
	  . join("\n  ", @unseen));
is(scalar(@wrong_code), 0, "every quoted message's SQLSTATE is in its row")
  or diag("SQLSTATE not in the row:\n  " . join("\n  ", @wrong_code));

done_testing();
