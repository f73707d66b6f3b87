#!/usr/bin/env bash
# scripts/demo.sh: the main job on a fresh Debian 12 machine, as root.
# Installs what is missing, builds and installs pgbenchx, starts a throwaway
# cluster as the postgres OS user on a free port, creates the extension,
# runs pgbench_init, shows what was made, and stops the cluster.
#
#   SCALE=10     scale passed to pgbench_init
#   KEEP=1       leave the cluster running (prints how to stop it)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

SCALE=${SCALE:-10}

pgx_ensure_packages
pgx_build_install

work=$(pgx_workdir)
port=$(pgx_free_port)
pgx_log "starting a throwaway cluster in $work on port $port"
pgx_start_cluster "$work" "$port"
if [ "${KEEP:-0}" != 1 ]; then
	trap 'pgx_stop_cluster "$work"; rm -rf "$work"' EXIT
fi

psql() { command psql -X -v ON_ERROR_STOP=1 "$@"; }

pgx_log "CREATE EXTENSION pgbenchx; SELECT pgbench_init(scale => $SCALE)"
psql -q -c "CREATE EXTENSION pgbenchx"
psql -c "SELECT pgbench_init(scale => $SCALE)"

pgx_log "what pgbench_init made"
psql <<'SQL'
SELECT c.relname AS table,
       c.reltuples::bigint AS rows,
       pg_size_pretty(pg_table_size(c.oid)) AS table_size,
       pg_size_pretty(pg_indexes_size(c.oid)) AS index_size
FROM pg_class c
WHERE c.relname IN ('pgbench_branches', 'pgbench_tellers',
                    'pgbench_accounts', 'pgbench_history')
  AND c.relnamespace = 'public'::regnamespace
ORDER BY c.relname;
SQL

pgx_log "stock pgbench against these tables (select-only, 2 s)"
"$PGX_BINDIR/pgbench" -n -S -T 2 2>&1 | grep -E 'scaling factor|tps ='

if [ "${KEEP:-0}" = 1 ]; then
	pgx_log "cluster left running: PGHOST=$PGHOST PGPORT=$PGPORT PGUSER=postgres psql"
	pgx_log "stop it with: runuser -u postgres -- $PGX_BINDIR/pg_ctl -D $work/data stop"
fi
