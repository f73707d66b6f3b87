# The charts look right in a real browser: a short real sweep, its
# chart_sweeps and one run's chart_run written to files with psql exactly as
# docs/charts.md says (\o and \g with unaligned, tuples-only output), rendered by
# headless Chromium to PNG, and each PNG decoded here (core Perl: zlib and
# PNG's row filters) to check it is not blank: enough non-white pixels, and
# pixels of the lines' own colours.  A blank SVG rendered the same way must
# fail the same check, so the check itself is tested.
#
# Issue 13's charts, on rows written here (deterministic, whatever the
# collector records on this machine): chart_run of a run with
# system_samples and wait_samples, whose panels (CPU, disk, WAL, wait
# events) must lie under the tps chart and one under the other, show their
# colours inside their plot boxes and nothing beside their axes; and
# chart_waits of a sweep of three client counts, whose bars must show each
# type's colour between the axes and nothing outside them.
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

my %decoded;    # png_decode's PNGs, by file

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

# docs/charts.md's recipes: \o with unaligned tuples-only output, and \g
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

	my $png = render("$out/$name.svg", "$out/$name.png", svg_height($svg));
	my ($w, $h, $nonwhite, $counts) = png_stats($png, \%colour);
	is("${w}x$h", '900x' . svg_height($svg), "$name: Chromium rendered a PNG of the SVG's size");
	cmp_ok($nonwhite, '>', 0.01 * $w * $h, "$name: not blank ($nonwhite non-white pixels)");
	cmp_ok($counts->{$_}, '>', 100, "$name: the $_ line is drawn ($counts->{$_} pixels)")
	  foreach @$lines;
}

# issue 13: a run with what the machine and the server did each second,
# and a sweep's wait events, on fixed rows
$node->safe_psql('postgres', <<'EOF');
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, label)
VALUES (990000, 'completed', 'tpcb-like', '{1,4,16}', 3, 'waits <by> & clients');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, tps, latency_p99_ms,
                           bench_duration_s, record_system, label)
VALUES (990001, NULL, 'completed', 'tpcb-like', 4, 1, 10, 1000, 9.5, 10, true, 'panels <run>'),
       (990011, 990000, 'completed', 'tpcb-like', 1, 1, 3, 500, 3, 3, true, NULL),
       (990012, 990000, 'completed', 'tpcb-like', 4, 1, 3, 1500, 4, 3, true, NULL),
       (990013, 990000, 'completed', 'tpcb-like', 16, 1, 3, 1200, 30, 3, true, NULL);
INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_avg_ms, latency_p99_ms)
SELECT 990001, s, 900 + 20 * s, 900 + 20 * s, 4, 8 + s % 3 FROM generate_series(1, 10) s;
INSERT INTO pgbenchx.system_samples (run_id, second, covered_s, cpu_user, cpu_system, cpu_iowait, cpu_steal, cpu_idle,
                                     data_read_bytes, data_write_bytes, wal_read_bytes, wal_write_bytes, wal_bytes)
SELECT 990001, s, 1, 0.35 + 0.02 * s, 0.20, 0.10, 0, 0.35 - 0.02 * s,
       1000000 * (s % 2), 8000000 + 500000 * s, 0, 4000000 + 200000 * s, 2000000 + 100000 * s
FROM generate_series(1, 10) s;
INSERT INTO pgbenchx.wait_samples (run_id, second, wait_event_type, wait_event, samples)
SELECT 990001, s, t, e, n
FROM generate_series(1, 10) s,
     (VALUES ('CPU', 'on CPU', 60), ('LWLock', 'WALWrite', 25), ('Lock', 'transactionid', 15)) v(t, e, n)
UNION ALL
SELECT r, 1, t, e, n
FROM (VALUES (990011, 'CPU', 'on CPU', 95), (990011, 'Client', 'ClientRead', 5),
             (990012, 'CPU', 'on CPU', 50), (990012, 'LWLock', 'WALWrite', 40), (990012, 'IO', 'WALSync', 10),
             (990013, 'CPU', 'on CPU', 30), (990013, 'Lock', 'transactionid', 50), (990013, 'LWLock', 'WALWrite', 20)) v(r, t, e, n);
EOF
$node->psql('postgres', <<"EOF", on_error_die => 1);
\\pset format unaligned
\\pset tuples_only on
SELECT pgbenchx.chart_run(990001) \\g $out/panels.svg
SELECT pgbenchx.chart_waits(990000) \\g $out/waits.svg
EOF

# the panels' colours, as chart_run and chart_wait_color give them
my %panel_colour = (
	cpu_user => [ 0x4e, 0x79, 0xa7 ],
	cpu_system => [ 0xe1, 0x57, 0x59 ],
	disk_data_write => [ 0xe1, 0x57, 0x59 ],
	wal => [ 0x76, 0xb7, 0xb2 ],
	wait_cpu => [ 0x59, 0xa1, 0x4f ],
	wait_lwlock => [ 0xb0, 0x7a, 0xa1 ],
	wait_lock => [ 0xe1, 0x57, 0x59 ]);
my ($px0, $px1) = (90, 810);
{
	my $svg = slurp_file("$out/panels.svg");
	is($node->safe_psql('postgres', "SELECT xmlparse(document pg_read_file('$out/panels.svg')) IS NOT NULL"),
		't', 'panels: the file parses as XML');
	my %band;
	while ($svg =~ /<g class="panel" data-panel="(\w+)" data-y0="([\d.]+)" data-y1="([\d.]+)">/g)
	{
		$band{$1} = [ $2, $3 ];
	}
	is(join(',', sort { $band{$a}[0] <=> $band{$b}[0] } keys %band), 'cpu,disk,wal,waits',
		'panels: the four panels are drawn, in order');
	# the panels lie under the tps chart (its axis title at y 450) and apart
	my $prev = 450;
	foreach my $p (sort { $band{$a}[0] <=> $band{$b}[0] } keys %band)
	{
		cmp_ok($band{$p}[0], '>', $prev + 20, "panels: $p starts below what is above it");
		$prev = $band{$p}[1] + 40;    # its tick labels and legend
	}
	cmp_ok($prev, '<=', svg_height($svg), 'panels: the last legend fits in the SVG');
	# every stacked bar lies inside its panel's plot box
	my @out;
	while ($svg =~ m{<g class="panel" data-panel="(\w+)" data-y0="([\d.]+)" data-y1="([\d.]+)">(.*?)</g>}gs)
	{
		my ($p, $y0, $y1, $body) = ($1, $2, $3, $4);
		while ($body =~ /<rect class="stack" [^>]*x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)
		{
			push @out, "$p: $1 $2 $3 $4"
			  if $1 < $px0 || $1 + $3 > $px1 + 0.05 || $2 < $y0 - 0.05 || $2 + $4 > $y1 + 0.05;
		}
	}
	is_deeply(\@out, [], 'panels: no bar outside its plot box');

	my $png = render("$out/panels.svg", "$out/panels.png", svg_height($svg));
	my ($w, $h) = png_stats($png, {});
	is("${w}x$h", '900x' . svg_height($svg), "panels: Chromium rendered a PNG of the SVG's size");
	my %inside = (
		cpu => [qw(cpu_user cpu_system)],
		disk => ['disk_data_write'],
		wal => ['wal'],
		waits => [qw(wait_cpu wait_lwlock wait_lock)]);
	foreach my $p (sort keys %inside)
	{
		my ($y0, $y1) = @{ $band{$p} };
		my (undef, undef, undef, $in) =
		  png_stats($png, \%panel_colour, [ $px0 + 1, $y0 + 1, $px1 - 1, $y1 - 1 ]);
		cmp_ok($in->{$_}, '>', 100, "panels: $p shows $_ in its plot ($in->{$_} pixels)")
		  foreach @{ $inside{$p} };
		# nothing of the panel spills left of its y axis or right of its plot
		my (undef, undef, undef, $left) = png_stats($png, \%panel_colour, [ 0, $y0, $px0 - 2, $y1 ]);
		my (undef, undef, undef, $right) = png_stats($png, \%panel_colour, [ $px1 + 2, $y0, 899, $y1 ]);
		is(join(',', map { $left->{$_} + $right->{$_} } @{ $inside{$p} }),
			join(',', map { 0 } @{ $inside{$p} }),
			"panels: $p has none of its colours beside its axes");
	}
	# the tps chart keeps the panels' fills out of its plot, and its line shows
	my (undef, undef, undef, $tps) = png_stats($png, \%panel_colour, [ $px0 + 1, 70, $px1 - 1, 409 ]);
	# (a pixel or two where the tps and p99 lines blend may come near one)
	cmp_ok($tps->{wait_cpu} + $tps->{wait_lwlock}, '<', 20, 'panels: the tps plot has no panel fills');
	my (undef, undef, undef, $tpsline) = png_stats($png, \%colour, [ $px0 + 1, 70, $px1 - 1, 409 ]);
	cmp_ok($tpsline->{blue}, '>', 100, "panels: the tps line is drawn ($tpsline->{blue} pixels)");
}
{
	my $svg = slurp_file("$out/waits.svg");
	is($node->safe_psql('postgres', "SELECT xmlparse(document pg_read_file('$out/waits.svg')) IS NOT NULL"),
		't', 'waits: the file parses as XML');
	like($svg, qr/waits &lt;by&gt; &amp; clients/, 'waits: the label is escaped');
	my $png = render("$out/waits.svg", "$out/waits.png", svg_height($svg));
	my ($w, $h) = png_stats($png, {});
	is("${w}x$h", '900x' . svg_height($svg), "waits: Chromium rendered a PNG of the SVG's size");
	# the bars between the axes (x 90..810, y 70..370), in each type's colour
	my (undef, undef, undef, $in) = png_stats($png, \%panel_colour, [ $px0 + 1, 70, $px1 - 1, 369 ]);
	cmp_ok($in->{$_}, '>', 100, "waits: $_ is drawn between the axes ($in->{$_} pixels)")
	  foreach qw(wait_cpu wait_lwlock wait_lock);
	# nothing of the bars left of the y axis or under the x axis (but the legend)
	my (undef, undef, undef, $left) = png_stats($png, \%panel_colour, [ 0, 0, $px0 - 2, 371 ]);
	my (undef, undef, undef, $below) = png_stats($png, \%panel_colour, [ 0, 372, 899, 400 ]);
	is($left->{wait_cpu} + $left->{wait_lock} + $below->{wait_cpu} + $below->{wait_lock},
		0, 'waits: no bar over the y axis or under the x axis');
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
	my ($svg, $png, $height) = @_;
	$height //= 600;
	my $profile = PostgreSQL::Test::Utils::tempdir('chromium');
	unlink $png;
	my ($stdout, $stderr) = ('', '');
	local $ENV{HOME} = $profile;
	my @cmd = ($chromium, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
		'--no-first-run', '--disable-background-networking', '--disable-component-update',
		'--disable-sync', "--user-data-dir=$profile", "--screenshot=$png",
		"--window-size=900,$height", "file://$svg");
	IPC::Run::run(\@cmd, '>', \$stdout, '2>', \$stderr, IPC::Run::timeout(180));
	ok(-s $png, "Chromium wrote $png") or diag("chromium: $stderr");
	return $png;
}

# The height of an SVG document, from its root's height attribute.
sub svg_height
{
	my ($svg) = @_;
	return $svg =~ /\A<svg [^>]*height="(\d+)"/ ? $1 : 600;
}

# Decode an 8-bit non-interlaced PNG (what Chromium writes): width, height,
# pixels not near white, and pixels near each named colour; with a box
# [x0, y0, x1, y1] (inclusive), only the pixels inside it count.
sub png_stats
{
	my ($file, $colours, $box) = @_;
	my ($bx0, $by0, $bx1, $by1) = $box ? @$box : (0, 0, 1e9, 1e9);
	my ($w, $h, $bpp, $rows) = png_decode($file);
	my ($nonwhite, %count) = (0, map { $_ => 0 } keys %$colours);
	for my $y (0 .. $h - 1)
	{
		next if $y < $by0 || $y > $by1;
		my $cur = $rows->[$y];
		for (my $i = int($bx0) * $bpp; $i < $w * $bpp && $i <= $bx1 * $bpp; $i += $bpp)
		{
			my @rgb = $bpp >= 3 ? @$cur[ $i .. $i + 2 ] : ($cur->[$i]) x 3;
			$nonwhite++ if grep { $_ < 240 } @rgb;
			foreach my $name (keys %$colours)
			{
				my $want = $colours->{$name};
				$count{$name}++
				  unless grep { abs($rgb[$_] - $want->[$_]) > 24 } 0 .. 2;
			}
		}
	}
	return ($w, $h, $nonwhite, \%count);
}

# Decode an 8-bit non-interlaced PNG (what Chromium writes), once per file:
# width, height, bytes per pixel, and the rows of unfiltered bytes.
sub png_decode
{
	my ($file) = @_;
	return @{ $decoded{$file} } if $decoded{$file};
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
	my @rows;
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
		push @rows, [@cur];
		@prev = @cur;
	}
	$decoded{$file} = [ $ihdr{w}, $ihdr{h}, $bpp, \@rows ];
	return @{ $decoded{$file} };
}

sub paeth
{
	my ($a, $b, $c) = @_;
	my $p = $a + $b - $c;
	my ($pa, $pb, $pc) = (abs($p - $a), abs($p - $b), abs($p - $c));
	return $pa <= $pb && $pa <= $pc ? $a : $pb <= $pc ? $b : $c;
}
