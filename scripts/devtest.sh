#!/usr/bin/env bash
# scripts/devtest.sh: a part of the tests against a private install, for
# development in a checkout or a git worktree (several may run at once).
#
#   REGRESS="setup eval" TAP="test/t/010_engine_runs.pl" bash scripts/devtest.sh NAME
#   MAJOR=17 REGRESS=all TAP=all bash scripts/devtest.sh NAME
#
# Builds with -Wall -Wextra -Werror, installs into a private place, copies the
# tree for postgres under /tmp/pgx-work-NAME, and runs the pg_regress files
# named in REGRESS (default none, "all" the Makefile's list) against a
# cluster of its own, then the TAP files named in TAP (default none, "all"
# test/t/*.pl; PROVE_FLAGS passed to prove, e.g. "-j3").  Run as root;
# packages as for scripts/test.sh must be installed.  Exits non-zero if a
# test fails.
#
# MAJOR (default 15): 15 is Debian's, and pgbenchx goes into
# /tmp/pgx-dest-NAME (never the system directories: the clusters find it
# through extension_destdir).  16 to 19 are built from ../shared/postgres by
# scripts/pgmajor.sh (or taken from its cache), and pgbenchx is built in
# /tmp/pgx-work-NAME/tree-MAJOR and installed into a private copy of that
# build, /tmp/pgx-work-NAME/pgMAJOR.
set -euo pipefail
name=${1:?usage: MAJOR=NN REGRESS=... TAP=... scripts/devtest.sh NAME}
REGRESS=${REGRESS:-}; TAP=${TAP:-}; MAJOR=${MAJOR:-15}
wt=$(cd "$(dirname "$0")/.." && pwd)
source "$wt/scripts/lib.sh"
work=/tmp/pgx-work-$name
for d in "$work" "$work"/*/; do
	[ -f "${d%/}/data/postmaster.pid" ] && pgx_stop_cluster "${d%/}"
done
rm -rf "$work"; mkdir -p "$work"; chown postgres:postgres "$work"
env_tap=()
setting=
if [ "$MAJOR" = 15 ]; then
	dest=/tmp/pgx-dest-$name
	make -C "$wt" -s PGBENCHX_WERROR=1 >/dev/null
	rm -rf "$dest"; make -C "$wt" -s install DESTDIR="$dest" >/dev/null
	chmod -R a+rX "$dest"
	tree=$work/tree
	cp -a "$wt" "$tree"; rm -rf "$tree/results" "$tree/tmp_check" "$tree/regression.diffs" "$tree/regression.out"
	chown -R postgres:postgres "$tree"
	pgconfig=$PGX_BINDIR/pg_config
	setting="extension_destdir = '$dest'"
	env_tap=(PGX_EXTENSION_DESTDIR="$dest")
else
	rc=0
	pgx_major_install "$MAJOR" "$work" || rc=$?
	[ $rc = 3 ] && { echo "devtest: PostgreSQL $MAJOR skipped (no source tarball)"; exit 0; }
	[ $rc = 0 ] || pgx_die "building against PostgreSQL $MAJOR failed"
	tree=$PGX_MAJOR_TREE
	PGX_BINDIR=$PGX_MAJOR_PREFIX/bin
	pgconfig=$PGX_BINDIR/pg_config
fi
if [ "$REGRESS" = all ]; then
	REGRESS=$(sed -n 's/^REGRESS *= *//p' "$wt/Makefile")
fi
[ "$TAP" = all ] && TAP="test/t/*.pl"
status=0
if [ -n "$REGRESS" ]; then
	port=$(pgx_free_port)
	install -d -o postgres -g postgres "$work/regress"
	pgx_start_cluster "$work/regress" "$port" "max_connections = 100" ${setting:+"$setting"}
	pgx_as_postgres env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER=postgres PATH="$PGX_BINDIR:$PATH" \
		make -C "$tree" -s installcheck REGRESS="$REGRESS" TAP_TESTS= PG_CONFIG="$pgconfig" ||
		{ status=1; [ -f "$tree/regression.diffs" ] && head -n 300 "$tree/regression.diffs"; }
	pgx_stop_cluster "$work/regress"
fi
if [ -n "$TAP" ]; then
	pgx_as_postgres env "${env_tap[@]}" PATH="$PGX_BINDIR:$PATH" \
		make -C "$tree" -s installcheck REGRESS= PROVE_TESTS="$TAP" PG_CONFIG="$pgconfig" \
		PROVE_FLAGS="${PROVE_FLAGS:-}" || {
		status=1
		for f in "$tree"/tmp_check/log/regress_log_*; do [ -f "$f" ] && { echo "---- tail of $f"; tail -n 60 "$f"; }; done
	}
fi
echo "devtest: PostgreSQL $MAJOR, status $status (logs under $tree/tmp_check/log, diffs $tree/regression.diffs)"
exit $status
