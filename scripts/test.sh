#!/usr/bin/env bash
# scripts/test.sh: every test, against throwaway clusters, on a fresh Debian 12
# machine as root.  Installs what is missing, builds with -Wall -Wextra
# -Werror, installs, runs the standalone unit tests, starts a throwaway
# cluster as postgres for pg_regress, and runs pg_regress and the TAP tests
# (which start clusters of their own) as postgres in a copy of the tree.
# Exits non-zero if anything fails.  .ci/run calls exactly this.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# clang and its runtime bring libFuzzer, for the fuzz harness's regression run;
# chromium and a font render the charts to PNG (test/t/015_charts_chromium.pl)
pgx_ensure_packages clang-14 libclang-rt-14-dev chromium fonts-dejavu-core
pgx_build_install

status=0

pgx_log "unit tests (make unitcheck: test/unit)"
make -C "$PGX_ROOT" -s unitcheck || status=1

pgx_log "fuzz harness: replay the seed corpus under ASan/UBSan (test/fuzz)"
make -C "$PGX_ROOT/test/fuzz" -s regress || status=1

work=$(pgx_workdir)
port=$(pgx_free_port)
trap 'pgx_stop_cluster "$work"; [ "${KEEP_WORK:-0}" = 1 ] || rm -rf "$work"' EXIT

# pg_regress and prove write into the tree: give postgres a copy of its own.
tree=$work/tree
cp -a "$PGX_ROOT" "$tree"
rm -rf "$tree/results" "$tree/tmp_check" "$tree/regression.diffs" "$tree/regression.out"
chown -R postgres:postgres "$tree"

pgx_log "starting a throwaway cluster for pg_regress on port $port"
pgx_start_cluster "$work" "$port" "max_connections = 100"

pgx_log "pg_regress and TAP tests (make installcheck, as postgres)"
if ! pgx_as_postgres env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER=postgres \
	PATH="$PGX_BINDIR:$PATH" make -C "$tree" -s installcheck; then
	status=1
	[ -f "$tree/regression.diffs" ] && head -n 200 "$tree/regression.diffs"
	for f in "$tree"/tmp_check/log/regress_log_*; do
		[ -f "$f" ] || continue
		echo "---- tail of $f"
		tail -n 60 "$f"
	done
fi

if [ $status = 0 ]; then
	pgx_log "all tests passed"
else
	pgx_log "TESTS FAILED"
fi
exit $status
