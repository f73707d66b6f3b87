#!/usr/bin/env bash
# scripts/devtest.sh: a part of the tests against a private install, for
# development in a checkout or a git worktree (several may run at once).
#
#   REGRESS="setup eval" TAP="test/t/010_engine_runs.pl" bash scripts/devtest.sh NAME
#
# Builds with -Wall -Wextra -Werror, installs into /tmp/pgx-dest-NAME (never
# the system directories: the clusters find it through extension_destdir),
# copies the tree for postgres under /tmp/pgx-work-NAME, and runs the
# pg_regress files named in REGRESS (default none, "all" the Makefile's
# list) against a cluster of its own, then the TAP files named in TAP
# (default none, "all" test/t/*.pl).  Run as root; packages as for
# scripts/test.sh must be installed.  Exits non-zero if a test fails.
set -euo pipefail
name=${1:?usage: REGRESS=... TAP=... scripts/devtest.sh NAME}
REGRESS=${REGRESS:-}; TAP=${TAP:-}
wt=$(cd "$(dirname "$0")/.." && pwd)
source "$wt/scripts/lib.sh"
dest=/tmp/pgx-dest-$name
make -C "$wt" -s PGBENCHX_WERROR=1 >/dev/null
rm -rf "$dest"; make -C "$wt" -s install DESTDIR="$dest" >/dev/null
chmod -R a+rX "$dest"
work=/tmp/pgx-work-$name
if [ -f "$work/data/postmaster.pid" ]; then pgx_stop_cluster "$work"; fi
rm -rf "$work"; mkdir -p "$work"; chown postgres:postgres "$work"
tree=$work/tree
cp -a "$wt" "$tree"; rm -rf "$tree/results" "$tree/tmp_check" "$tree/regression.diffs" "$tree/regression.out"
chown -R postgres:postgres "$tree"
if [ "$REGRESS" = all ]; then
	REGRESS=$(sed -n 's/^REGRESS *= *//p' "$wt/Makefile")
fi
[ "$TAP" = all ] && TAP="test/t/*.pl"
status=0
if [ -n "$REGRESS" ]; then
	port=$(pgx_free_port)
	pgx_start_cluster "$work" "$port" "max_connections = 100" "extension_destdir = '$dest'"
	pgx_as_postgres env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER=postgres PATH="$PGX_BINDIR:$PATH" \
		make -C "$tree" -s installcheck REGRESS="$REGRESS" TAP_TESTS= || { status=1; [ -f "$tree/regression.diffs" ] && head -n 300 "$tree/regression.diffs"; }
	pgx_stop_cluster "$work"
fi
if [ -n "$TAP" ]; then
	pgx_as_postgres env PGX_EXTENSION_DESTDIR="$dest" PATH="$PGX_BINDIR:$PATH" \
		make -C "$tree" -s installcheck REGRESS= PROVE_TESTS="$TAP" || {
		status=1
		for f in "$tree"/tmp_check/log/regress_log_*; do [ -f "$f" ] && { echo "---- tail of $f"; tail -n 60 "$f"; }; done
	}
fi
echo "devtest: status $status (logs under $tree/tmp_check/log, diffs $tree/regression.diffs)"
exit $status
