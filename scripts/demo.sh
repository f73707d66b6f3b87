#!/usr/bin/env bash
# scripts/demo.sh: the main job on a fresh Debian 12 machine, as root.
# Installs what is missing, builds and installs pgbenchx, starts a throwaway
# cluster as the postgres OS user on a free port, creates the extension,
# runs pgbench_init, shows what was made, runs a short sweep of client counts
# with pgbenchx's background workers, prints its results, writes two charts
# (SVG) into out/ of this checkout, and stops and removes the cluster.
#
#   SCALE=10     scale passed to pgbench_init
#   MAX_CLIENTS=8 DURATION=3 SCRIPT=tpcb-like   the sweep
#   OUT=dir      the directory the charts are written into (created; default
#                out/ at the top of this checkout, whatever the current
#                directory; a relative dir is taken from the current one);
#                the paths written are printed at the end
#   KEEP=1       leave the cluster running, and print how to connect to it,
#                stop it and remove its directory
#   PGX_DESTDIR=dir   install pgbenchx there instead of the server's
#                directories (the cluster loads it through extension_destdir)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

SCALE=${SCALE:-10}
MAX_CLIENTS=${MAX_CLIENTS:-8}
DURATION=${DURATION:-3}
SCRIPT=${SCRIPT:-tpcb-like}
OUT=${OUT:-$PGX_ROOT/out}
mkdir -p "$OUT" || pgx_die "cannot create OUT=$OUT"
OUT=$(cd "$OUT" && pwd)   # absolute, so that the paths printed are the ones written

pgx_ensure_packages
pgx_bench_install   # PGX_DESTDIR=dir: there, not into the server's directories

work=$(pgx_workdir)
port=$(pgx_free_port)
pgx_log "starting a throwaway cluster in $work on port $port"
pgx_start_cluster "$work" "$port" ${PGX_DESTDIR_SETTING:+"$PGX_DESTDIR_SETTING"}
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

pgx_log "SELECT run_sweep(1, $MAX_CLIENTS, $DURATION, '$SCRIPT'); CALL pgbenchx.wait(id)"
sweep=$(psql -XAt -c "SELECT run_sweep(1, $MAX_CLIENTS, $DURATION, '$SCRIPT', label => 'demo')")
psql -c "CALL pgbenchx.wait($sweep)"

pgx_log "the sweep's results (pgbenchx.runs)"
psql -v sweep="$sweep" <<'SQL'
SELECT run_id, clients, jobs, status, transactions AS tx, failed,
       round(tps::numeric, 1) AS tps, round(tps_incl_conn::numeric, 1) AS tps_incl_conn,
       round(latency_avg_ms::numeric, 3) AS lat_avg_ms, round(latency_p50_ms::numeric, 3) AS p50_ms,
       round(latency_p99_ms::numeric, 3) AS p99_ms, round(latency_max_ms::numeric, 3) AS max_ms,
       round(driver_cpu_s::numeric, 2) AS driver_cpu_s
FROM pgbenchx.runs WHERE sweep_id = :sweep ORDER BY run_id;
SELECT r.clients, string_agg(round(s.tps)::text, ' ' ORDER BY s.second) AS tps_per_second
FROM pgbenchx.runs r JOIN pgbenchx.samples s USING (run_id)
WHERE r.sweep_id = :sweep GROUP BY r.run_id, r.clients ORDER BY r.run_id;
SQL

pgx_log "the sweep in the terminal (pgbenchx.sweep_report)"
psql -c "SELECT * FROM pgbenchx.sweep_report($sweep)"

psql -XAt -c "SELECT pgbenchx.chart_sweeps(ARRAY[$sweep])" -o "$OUT/sweep-$sweep.svg"
last_run=$(psql -XAt -c "SELECT max(run_id) FROM pgbenchx.runs WHERE sweep_id = $sweep")
psql -XAt -c "SELECT pgbenchx.chart_run($last_run)" -o "$OUT/run-$last_run.svg"
pgx_log "charts written: $OUT/sweep-$sweep.svg (tps by clients), $OUT/run-$last_run.svg (tps and p99 per second)"

if [ "${KEEP:-0}" = 1 ]; then
	pgx_log "KEEP=1: the cluster is left running in $work (data directory $work/data, log $work/server.log)"
	cat >&2 <<EOF
   connect:    PGHOST=$PGHOST PGPORT=$PGPORT PGUSER=postgres psql
   stop it:    runuser -u postgres -- $PGX_BINDIR/pg_ctl -D $work/data -m fast stop
               (pg_ctl signals the postmaster named in $work/data/postmaster.pid)
   remove it:  rm -rf $work    (after stopping it)
EOF
else
	pgx_log "stopping the cluster and removing $work"
fi
