# The charts look right in a real browser: a short real sweep, its
# chart_sweeps and one run's chart_run written to files with psql exactly as
# the README says (\o and \g with unaligned, tuples-only output), rendered by
# headless Chromium to PNG, and each PNG decoded here (core Perl: zlib and
# PNG's row filters) to check it is not blank: enough non-white pixels, and
# pixels of the lines' own colours.  A blank SVG rendered the same way must
# fail the same check, so the check itself is tested.
#
# Chromium is an optional tool: without it the test skips (plan skip_all),
# the other tests still run.  scripts/test.sh installs it, so CI runs this
# test.  PGBENCHX_CHROMIUM names the browser to use (another Chromium or
# Chrome binary); set to a path that is not an executable, it makes the
# test skip, which is how the skip itself is checked.
use strict;
use warnings;
use Compress::Zlib;
use File::Path qw(make_path);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $chromium;
if (defined $ENV{PGBENCHX_CHROMIUM})
{
	$chromium = $ENV{PGBENCHX_CHROMIUM} if -f $ENV{PGBENCHX_CHROMIUM} && -x _;
	plan skip_all => "PGBENCHX_CHROMIUM=$ENV{PGBENCHX_CHROMIUM} is not an executable file"
	  unless defined $chromium;
}
else
{
	foreach my $dir (split /:/, $ENV{PATH})
	{
		foreach my $name ('chromium', 'chromium-browser')
		{
			$chromium //= "$dir/$name" if -f "$dir/$name" && -x _;
		}
	}
	plan skip_all => 'chromium not found on PATH: apt-get install chromium (scripts/test.sh does)'
	  unless defined $chromium;
}
note("rendering with $chromium");

my $node = pgbenchx_node('charts', scale => 1);

# a real sweep of 1 and 2 clients, 3 s each
my $sweep = $node->safe_psql('postgres',
	"SELECT run_sweep(ARRAY[1, 2], 3, 'select-only', checkpoint => false, label => 'TAP <sweep> & co')");
$node->psql('postgres', "CALL pgbenchx.wait($sweep)", on_error_die => 1);
is($node->safe_psql('postgres',
		"SELECT string_agg(status || ':' || clients, ',' ORDER BY clients) FROM pgbenchx.runs WHERE sweep_id = $sweep"),
	'completed:1,completed:2', 'the sweep completed both runs');
my $run = $node->safe_psql('postgres',
	"SELECT run_id FROM pgbenchx.runs WHERE sweep_id = $sweep AND clients = 2");
cmp_ok($node->safe_psql('postgres', "SELECT count(*) FROM pgbenchx.samples WHERE run_id = $run"),
	'>=', 1, 'the run has per-second samples');

my $out = "${PostgreSQL::Test::Utils::tmp_check}/charts";
make_path($out);

# the README's recipes: \o with unaligned tuples-only output, and \g
$node->psql('postgres', <<"EOF", on_error_die => 1);
\\pset format unaligned
\\pset tuples_only on
\\o $out/sweep.svg
SELECT pgbenchx.chart_sweeps(ARRAY[$sweep]);
\\o
SELECT pgbenchx.chart_run($run) \\g $out/run.svg
EOF

my %colour = (blue => [ 0x1f, 0x77, 0xb4 ], red => [ 0xd6, 0x27, 0x28 ]);
foreach my $chart ([ 'sweep', ['blue'] ], [ 'run', [ 'blue', 'red' ] ])
{
	my ($name, $lines) = @$chart;
	my $svg = slurp_file("$out/$name.svg");
	like($svg, qr{\A<svg xmlns="http://www\.w3\.org/2000/svg" .*</svg>\n+\z}s,
		"$name: psql wrote exactly the SVG document");
	is($node->safe_psql('postgres',
			"SELECT xmlparse(document pg_read_file('$out/$name.svg')) IS NOT NULL"),
		't', "$name: the file parses as XML");
	like($svg, qr/TAP &lt;sweep&gt; &amp; co/, "$name: the label is escaped")
	  if $name eq 'sweep';

	my $png = render("$out/$name.svg", "$out/$name.png");
	my ($w, $h, $nonwhite, $counts) = png_stats($png, \%colour);
	is("${w}x$h", '900x600', "$name: Chromium rendered a 900x600 PNG");
	cmp_ok($nonwhite, '>', 0.01 * $w * $h, "$name: not blank ($nonwhite non-white pixels)");
	cmp_ok($counts->{$_}, '>', 100, "$name: the $_ line is drawn ($counts->{$_} pixels)")
	  foreach @$lines;
}

# the check fails on a blank page: a white SVG rendered the same way
open my $fh, '>', "$out/blank.svg" or die $!;
print $fh '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="600"><rect width="900" height="600" fill="#ffffff"/></svg>';
close $fh;
my ($w, $h, $nonwhite) = png_stats(render("$out/blank.svg", "$out/blank.png"), \%colour);
is($nonwhite, 0, "a blank SVG renders with no non-white pixels (${w}x$h)");

$node->stop;
done_testing();

# Render an SVG file with headless Chromium; returns the PNG's path.
sub render
{
	my ($svg, $png) = @_;
	my $profile = PostgreSQL::Test::Utils::tempdir('chromium');
	unlink $png;
	my ($stdout, $stderr) = ('', '');
	local $ENV{HOME} = $profile;
	my @cmd = ($chromium, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
		'--no-first-run', '--disable-background-networking', '--disable-component-update',
		'--disable-sync', "--user-data-dir=$profile", "--screenshot=$png",
		'--window-size=900,600', "file://$svg");
	IPC::Run::run(\@cmd, '>', \$stdout, '2>', \$stderr, IPC::Run::timeout(180));
	ok(-s $png, "Chromium wrote $png") or diag("chromium: $stderr");
	return $png;
}

# Decode an 8-bit non-interlaced PNG (what Chromium writes): width, height,
# pixels not near white, and pixels near each named colour.
sub png_stats
{
	my ($file, $colours) = @_;
	my $data = slurp_file($file);
	die "$file is not a PNG" unless substr($data, 0, 8) eq "\x89PNG\r\n\x1a\n";
	my ($pos, $idat, %ihdr) = (8, '');
	while ($pos < length $data)
	{
		my ($len, $type) = unpack('N a4', substr($data, $pos, 8));
		my $body = substr($data, $pos + 8, $len);
		@ihdr{qw(w h depth ctype interlace)} = unpack('N N C C x x C', $body)
		  if $type eq 'IHDR';
		$idat .= $body if $type eq 'IDAT';
		$pos += 12 + $len;
	}
	my %channels = (0 => 1, 2 => 3, 4 => 2, 6 => 4);
	my $bpp = $channels{ $ihdr{ctype} };
	die "$file: unsupported PNG (depth $ihdr{depth}, colour type $ihdr{ctype}, interlace $ihdr{interlace})"
	  unless $ihdr{depth} == 8 && $bpp && !$ihdr{interlace};
	my $raw = uncompress($idat) // die "$file: bad zlib data";
	my $stride = $ihdr{w} * $bpp;
	my @prev = (0) x $stride;
	my ($nonwhite, %count) = (0, map { $_ => 0 } keys %$colours);
	for my $y (0 .. $ihdr{h} - 1)
	{
		my $filter = ord substr($raw, $y * ($stride + 1), 1);
		my @cur = unpack('C*', substr($raw, $y * ($stride + 1) + 1, $stride));
		for my $i (0 .. $stride - 1)
		{
			my $a = $i >= $bpp ? $cur[ $i - $bpp ] : 0;
			my $b = $prev[$i];
			my $c = $i >= $bpp ? $prev[ $i - $bpp ] : 0;
			my $pred =
				$filter == 0 ? 0
			  : $filter == 1 ? $a
			  : $filter == 2 ? $b
			  : $filter == 3 ? ($a + $b) >> 1
			  :                paeth($a, $b, $c);
			$cur[$i] = ($cur[$i] + $pred) & 0xff;
		}
		for (my $i = 0; $i < $stride; $i += $bpp)
		{
			my @rgb = $bpp >= 3 ? @cur[ $i .. $i + 2 ] : ($cur[$i]) x 3;
			$nonwhite++ if grep { $_ < 240 } @rgb;
			foreach my $name (keys %$colours)
			{
				my $want = $colours->{$name};
				$count{$name}++
				  unless grep { abs($rgb[$_] - $want->[$_]) > 24 } 0 .. 2;
			}
		}
		@prev = @cur;
	}
	return ($ihdr{w}, $ihdr{h}, $nonwhite, \%count);
}

sub paeth
{
	my ($a, $b, $c) = @_;
	my $p = $a + $b - $c;
	my ($pa, $pb, $pc) = (abs($p - $a), abs($p - $b), abs($p - $c));
	return $pa <= $pb && $pa <= $pc ? $a : $pb <= $pc ? $b : $c;
}
