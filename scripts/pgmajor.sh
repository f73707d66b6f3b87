#!/bin/bash
# scripts/pgmajor.sh MAJOR: build PostgreSQL MAJOR (16, 17, 18, 19) from the
# source tarball in ../shared/postgres/ (see its MANIFEST) into a cache outside
# the checkout, $PGX_PGCACHE/pgMAJOR (default /var/cache/pgbenchx/pgMAJOR), and
# print the path of its pg_config on stdout.  A build whose recorded tarball
# checksum and configure flags match is reused.  15 is Debian's package: its pg_config is printed
# as is.  When the tarball is absent, one line on stderr says the major is
# skipped, nothing is printed on stdout, and the exit status is 0.
#
# The build runs under nice -n 19 with make -j2: the machine is shared with
# tests that must not be starved.  Its output goes to pgMAJOR.build.log next to
# the cache directory; only the tail is shown when it fails.

set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

major=${1:-}
case "$major" in
	15) echo "$PGX_BINDIR/pg_config"; exit 0 ;;
	16|17|18|19) ;;
	*) pgx_die "usage: $0 MAJOR (15, 16, 17, 18 or 19)" ;;
esac

srcdir=${PGX_PGSOURCES:-$PGX_ROOT/../shared/postgres}
cache=${PGX_PGCACHE:-/var/cache/pgbenchx}
prefix=$cache/pg$major

shopt -s nullglob
tarballs=("$srcdir"/postgresql-"$major"[.b]*.tar.gz)
shopt -u nullglob
if [ ${#tarballs[@]} -eq 0 ]; then
	pgx_log "PostgreSQL $major: no tarball in $srcdir, skipped"
	exit 0
fi
[ ${#tarballs[@]} -eq 1 ] || pgx_die "more than one tarball for $major in $srcdir: ${tarballs[*]}"
tarball=${tarballs[0]}
sum=$(sha256sum "$tarball" | cut -d' ' -f1)
# the MANIFEST's flags; libxml: the charts' tests read the SVG with xpath();
# openssl, lz4 and zstd as Debian's 15 has them: test/t/060 starts servers
# with ssl = on, and pgbench_init's WAL compression picks lz4 or zstd
configure_flags="--without-icu --without-readline --enable-tap-tests --with-libxml --with-openssl --with-lz4 --with-zstd"
# what a cached build must have been built from: the tarball and the flags
stamp="$sum $configure_flags"

# The checksum the MANIFEST records, when there is one, must be the tarball's.
if [ -f "$srcdir/MANIFEST" ]; then
	want=$(awk -v f="$(basename "$tarball" .tar.gz)" \
		'"postgresql-" $1 == f { print $4 }' "$srcdir/MANIFEST")
	[ -z "$want" ] || [ "$want" = "$sum" ] ||
		pgx_die "$tarball: sha256 $sum, MANIFEST says $want"
fi

# the contrib modules the tests create (amcheck, pageinspect, pg_visibility)
contribs="amcheck pageinspect pg_visibility"

# contribs_missing: those contribs the install in $prefix lacks
contribs_missing() {
	local c sharedir
	sharedir=$("$prefix/bin/pg_config" --sharedir)
	for c in $contribs; do
		[ -f "$sharedir/extension/$c.control" ] || echo "$c"
	done
}

if [ -x "$prefix/bin/pg_config" ] && [ -f "$prefix/.source-sha256" ] &&
	[ "$(cat "$prefix/.source-sha256")" = "$stamp" ]; then
	missing=$(contribs_missing)
	if [ -n "$missing" ]; then
		# a cache from before a contrib was added to the list: build them
		# alone against the installed server (PGXS)
		log=$cache/pg$major.contrib.log
		build=$(mktemp -d "$cache/build-pg$major.XXXXXX")
		trap 'rm -rf "$build"' EXIT
		top=$(basename "$tarball" .tar.gz)	# the tarball's top directory
		pgx_log "PostgreSQL $major: adding" $missing "to $prefix (log: $log)"
		for c in $missing; do
			tar -xzf "$tarball" -C "$build" "$top/contrib/$c" ||
				pgx_die "$tarball has no contrib/$c"
			nice -n 19 make -C "$build/$top/contrib/$c" -j2 USE_PGXS=1 \
				PG_CONFIG="$prefix/bin/pg_config" install >>"$log" 2>&1 ||
				{ tail -n 30 "$log" >&2; pgx_die "PostgreSQL $major: contrib/$c failed (see $log)"; }
		done
	fi
	pgx_log "PostgreSQL $major: cached build in $prefix"
	echo "$prefix/bin/pg_config"
	exit 0
fi

pgx_ensure_packages $PGX_PGBUILD_PACKAGES
mkdir -p "$cache"
log=$cache/pg$major.build.log
build=$(mktemp -d "$cache/build-pg$major.XXXXXX")
trap 'rm -rf "$build"' EXIT
rm -rf "$prefix"
pgx_log "PostgreSQL $major: building $(basename "$tarball") into $prefix (log: $log)"
if ! (
	set -e
	cd "$build"
	tar -xzf "$tarball"
	cd "$(basename "$tarball" .tar.gz)"
	nice -n 19 ./configure --prefix="$prefix" $configure_flags
	nice -n 19 make -j2
	nice -n 19 make install
	nice -n 19 make -C src/bin/pgbench install
	for c in $contribs; do nice -n 19 make -C contrib/$c install; done
) >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	rm -rf "$prefix"
	pgx_die "PostgreSQL $major: build failed (see $log)"
fi
echo "$stamp" >"$prefix/.source-sha256"
pgx_log "PostgreSQL $major: built"
echo "$prefix/bin/pg_config"
