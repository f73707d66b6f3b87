#!/usr/bin/env bash
# scripts/pgbench_suite.sh: PostgreSQL's own pgbench TAP tests
# (src/bin/pgbench/t/001_pgbench_with_server.pl and 002_pgbench_no_server.pl),
# unchanged, with `pgbench` resolving to the pgbenchx client program (issue
# 24, section 3), then a summary: passed / failed / listed.
#
#   bash scripts/pgbench_suite.sh [NAME]          # as root; NAME default "suite"
#   MAJOR=18 bash scripts/pgbench_suite.sh NAME   # 18's tests, pgbenchx built for 18
#   PGX_PGBENCH_T=/path/to/src/bin/pgbench/t bash scripts/pgbench_suite.sh
#
# MAJOR (default 15, Debian's) is the PostgreSQL major pgbenchx is built for
# and its tests run on; 16 and later come from scripts/pgmajor.sh's cache
# (built from ../shared/postgres when missing).  The tests come from
# PGX_PGBENCH_T, or else from that major's source tarball under
# ../shared/postgres/; for 15, whose tree is not shipped there, from the
# oldest one there (16: its pgbench tests exercise 15's command line, and
# what 16 added is listed).
# pgbenchx is built and installed into /tmp/pgx-suite-NAME/dest (never the
# system directories); the tests' own clusters find it through
# extension_destdir (TEMP_CONFIG, which PostgreSQL::Test::Cluster appends to
# each node's postgresql.conf), and the shim `pgbench` (a PATH directory
# before the server's bindir) creates the extension in the database the
# tests use (postgres) before it runs pgbenchx.  002 needs no server, and
# runs with none: the shim points its calls at an empty socket directory,
# so every check it makes (the options, a -f script's syntax, the
# built-ins) must be made before any connection, as pgbench makes them.
#
# test/pgbench_suite/listed.txt lists the cases that have no meaning when
# the clients run in the server, each with its reason: a failure whose
# test name matches a listed pattern counts as "listed", any other as
# "failed"; a listed pattern that matched only passes is reported (the list
# must stay honest).  Exit status: 0 when nothing failed outside the list.
# The last result is in docs/cli.md ("pgbench's own tests").
set -euo pipefail
name=${1:-suite}
wt=$(cd "$(dirname "$0")/.." && pwd)
source "$wt/scripts/lib.sh"
work=/tmp/pgx-suite-$name
MAJOR=${MAJOR:-15}
listed=$wt/test/pgbench_suite/listed.txt
[ -f "$work/srv/data/postmaster.pid" ] && pgx_stop_cluster "$work/srv"
rm -rf "$work"; mkdir -p "$work"; chown postgres:postgres "$work"

# the tests, unchanged
t=$work/pgbench/t
install -d -o postgres -g postgres "$work/pgbench" "$t"
if [ -n "${PGX_PGBENCH_T:-}" ]; then
	cp "$PGX_PGBENCH_T"/00[12]_pgbench_*.pl "$t/"
	from=$PGX_PGBENCH_T
else
	if [ "$MAJOR" = 15 ]; then
		tarball=$(ls "$wt"/../shared/postgres/postgresql-[0-9]*.tar.gz 2>/dev/null | sort -V | head -n 1 || true)
	else
		tarball=$(ls "$wt"/../shared/postgres/postgresql-"$MAJOR"[.a-z]*.tar.gz 2>/dev/null | sort -V | tail -n 1 || true)
	fi
	[ -n "$tarball" ] || pgx_die "no PostgreSQL source tarball under ../shared/postgres (set PGX_PGBENCH_T)"
	top=$(basename "$tarball" .tar.gz)
	tar xzf "$tarball" -C "$work" "$top/src/bin/pgbench/t"
	cp "$work/$top"/src/bin/pgbench/t/00[12]_pgbench_*.pl "$t/"
	from=$(basename "$tarball")
fi
chown -R postgres:postgres "$t"

# pgbenchx, installed privately: for 15 into a DESTDIR (the tests' clusters
# find it through extension_destdir), for the others into a copy of that
# major's build (pgx_major_install)
if [ "$MAJOR" = 15 ]; then
	dest=$work/dest
	make -C "$wt" -s >/dev/null
	make -C "$wt" -s install DESTDIR="$dest" >/dev/null
	chmod -R a+rX "$dest"
	cli=$dest$PGX_BINDIR/pgbenchx
else
	rc=0
	pgx_major_install "$MAJOR" "$work" || rc=$?
	[ $rc = 3 ] && { echo "pgbench_suite: PostgreSQL $MAJOR skipped: no source under ../shared/postgres"; exit 0; }
	[ $rc = 0 ] || pgx_die "could not build pgbenchx against PostgreSQL $MAJOR"
	PGX_BINDIR=$PGX_MAJOR_PREFIX/bin
	dest=
	cli=$PGX_BINDIR/pgbenchx
fi
[ -x "$cli" ] || pgx_die "no pgbenchx client at $cli"

# the shim: `pgbench` is pgbenchx, on a database where the extension exists
install -d -o postgres -g postgres "$work/shim"
cat >"$work/shim/pgbench" <<EOF
#!/bin/sh
# pgbench for PostgreSQL's pgbench tests: pgbenchx (scripts/pgbench_suite.sh)
if [ -z "\${PGHOST:-}" ]; then
	# 002: no server at all (an empty socket directory)
	PGHOST=$work/nosock PGPORT=5432 PGDATABASE=postgres
	export PGHOST PGPORT PGDATABASE
fi
"$PGX_BINDIR/psql" -X -q -d postgres -c 'SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS pgbenchx' \\
	>/dev/null 2>&1 || true
exec "$cli" "\$@"
EOF
chmod 755 "$work/shim/pgbench"
if [ -n "$dest" ]; then
	echo "extension_destdir = '$dest'" >"$work/temp.conf"
else
	: >"$work/temp.conf"
fi
chmod a+r "$work/temp.conf"

install -d -o postgres -g postgres "$work/nosock"

pgxs=$(cd "$(dirname "$("$PGX_BINDIR/pg_config" --pgxs)")/../.." && pwd)
status=0
for f in "$t"/001_pgbench_with_server.pl "$t"/002_pgbench_no_server.pl; do
	base=$(basename "$f" .pl)
	(cd "$work/pgbench" && pgx_as_postgres env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE \
		TESTDIR="$work/pgbench" TESTDATADIR="$work/pgbench/tmp_check" TESTLOGDIR="$work/pgbench/tmp_check/log" PATH="$work/shim:$PGX_BINDIR:$PATH" \
		TEMP_CONFIG="$work/temp.conf" PG_REGRESS="$pgxs/src/test/regress/pg_regress" \
		prove -v -I "$pgxs/src/test/perl" "t/$base.pl") >"$work/$base.out" 2>&1 || true
done

# the summary
perl - "$listed" "$work"/001_pgbench_with_server.out "$work"/002_pgbench_no_server.out <<'EOF' || status=$?
use strict;
use warnings;
my ($listfile, @outs) = @ARGV;
my @list;
open my $lf, '<', $listfile or die "$listfile: $!";
while (<$lf>)
{
	chomp;
	next if /^\s*(#|$)/;
	my ($file, $pattern, $reason) = split /\t+/, $_, 3;
	die "$listfile:$.: expected FILE<TAB>PATTERN<TAB>REASON\n" unless defined $reason;
	push @list, { file => $file, re => qr/$pattern/, pattern => $pattern, reason => $reason, failed => 0, passed => 0 };
}
my ($pass, $fail, $lst, $todo) = (0, 0, 0, 0);
my @failed;
foreach my $out (@outs)
{
	my ($file) = $out =~ m{/(\d{3})_[^/]*\.out$};
	open my $fh, '<', $out or die "$out: $!";
	my $planned;
	my $seen = 0;
	while (<$fh>)
	{
		$planned = 1 if /^1\.\.\d+/;
		next unless /^(not )?ok \d+ - (.*)$/;
		my ($bad, $test) = ($1, $2);
		$seen++;
		if ($test =~ /# TODO/) { $todo++; next; }
		my @hit = grep { $_->{file} eq $file && $test =~ $_->{re} } @list;
		if (!$bad) { $pass++; $_->{passed}++ foreach @hit; next; }
		if (@hit) { $lst++; $_->{failed}++ foreach @hit; next; }
		$fail++;
		push @failed, "$file: $test";
	}
	if (!$planned)
	{
		$fail++;
		push @failed, "$file: ended before its plan (died): see " . $out;
	}
}
print "failed (not listed):\n", map { "  $_\n" } @failed if @failed;
my @stale = grep { !$_->{failed} } @list;
print "listed, but nothing failed under it (remove it?):\n", map { "  $_->{file}\t$_->{pattern}\n" } @stale if @stale;
print "pgbench's tests with pgbenchx: $pass passed, $fail failed, $lst listed, $todo todo (pgbench's own TODO)\n";
print "$pass passed, $fail failed\n";
exit($fail ? 1 : 0);
EOF
echo "pgbench_suite: tests from $from, outputs in $work/*.out"
exit $status
