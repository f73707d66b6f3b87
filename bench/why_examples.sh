#!/bin/bash
# bench/why_examples.sh: the examples of docs/why.md, "Two questions,
# answered by real runs" (issue 13), from real runs on this machine.  Two
# comparisons the seeds could only show as tps, with the figures pgbenchx
# records beside them:
#   1. shared_buffers 16MB against 1GB (a restart between them), select-only
#      at scale SCALE (larger than 16MB): blocks read per transaction, the
#      wait events (IO:DataFileRead), the verdict;
#   2. synchronous_commit on against off, tpcb-like: WAL per transaction,
#      the wait events (IO:WALSync, LWLock:WALWrite), iowait, the verdict.
# Each is a sweep of one client count (CLIENTS) for DURATION s, so that
# pgbenchx.explain_compare can say why they differ; it prints compare,
# explain_compare and the runs' per-run figures.  With OUT=dir it also
# writes dir/run_why.svg (chart_run of the synchronous_commit on run, with
# its panels) and dir/waits.svg (chart_waits of a tpcb-like sweep over 1, 2,
# 4, 8 and 16 clients, 5 s each).
#
#   bench/why_examples.sh                      # about 2 min
#   SCALE=20 CLIENTS=8 DURATION=10 PGX_DESTDIR=/tmp/x bench/why_examples.sh
# Run as root on Debian 12 (the cluster runs as postgres).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

SCALE=${SCALE:-20}
OUT=${OUT:-}
CLIENTS=${CLIENTS:-8}
DURATION=${DURATION:-10}
for v in SCALE CLIENTS DURATION; do
	[[ ${!v} =~ ^[0-9]+$ ]] && [ "${!v}" -ge 1 ] || pgx_die "$v must be a whole number of at least 1, not '${!v}'"
done

pgx_bench_cluster "$SCALE" "max_connections = 100" "max_wal_size = 4GB" "checkpoint_timeout = 30min" \
	"shared_buffers = 16MB"

q() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
restart_with() {
	q -c "ALTER SYSTEM SET $1" >/dev/null
	pgx_as_postgres "$PGX_BINDIR/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -m fast restart >/dev/null
}
sweep() {
	local id
	id=$(q -At -c "SELECT run_sweep(ARRAY[$CLIENTS], $DURATION, '$1', label => '$2', checkpoint => true)")
	q -c "SET client_min_messages = warning" -c "CALL pgbenchx.wait($id)" >/dev/null
	echo "$id"
}
show() {
	local a=$1 b=$2
	q -c "SELECT s.label, r.clients, round(r.tps::numeric, 1) AS tps, round(r.blocks_read_per_tx::numeric, 3) AS blks_read_per_tx,
	             round(r.wal_bytes_per_tx::numeric) AS wal_bytes_per_tx, round(r.server_cpu_ms_per_tx::numeric, 3) AS server_cpu_ms_per_tx,
	             round(r.iowait_avg::numeric, 3) AS iowait, r.verdict
	      FROM pgbenchx.runs r JOIN pgbenchx.sweeps s USING (sweep_id) WHERE r.sweep_id IN ($a, $b) ORDER BY r.sweep_id"
	q -c "SELECT s.label, string_agg(format('%s:%s %s%%', t->>'wait_event_type', t->>'wait_event', round((t->>'share')::numeric * 100, 1)), ', ') AS top_waits
	      FROM pgbenchx.runs r JOIN pgbenchx.sweeps s USING (sweep_id), jsonb_array_elements(r.top_waits) t
	      WHERE r.sweep_id IN ($a, $b) GROUP BY s.label, r.sweep_id ORDER BY r.sweep_id"
	q -c "SELECT clients, round(tps_a::numeric, 1) AS tps_a, round(tps_b::numeric, 1) AS tps_b, round(ratio::numeric, 3) AS ratio FROM pgbenchx.compare($a, $b)"
	q -At -c "SELECT explanation FROM pgbenchx.explain_compare($a, $b)"
}

echo "machine: $(nproc) cores, kernel $(uname -r); server: $(q -At -c 'SELECT version()')"
echo "data: pgbench_init($SCALE), $(q -At -c "SELECT pg_size_pretty(pg_database_size(current_database()))")"
echo

echo "== 1. shared_buffers: 16MB against 1GB (a restart between), select-only, $CLIENTS clients, $DURATION s"
small=$(sweep select-only "shared_buffers 16MB")
restart_with "shared_buffers = '1GB'"
# warm the cache once, as a long-running server would be
q -c "SELECT count(*) FROM pgbench_accounts" >/dev/null
large=$(sweep select-only "shared_buffers 1GB")
show "$small" "$large"
echo

echo "== 2. synchronous_commit on against off, tpcb-like, $CLIENTS clients, $DURATION s"
restart_with "synchronous_commit = on"
on=$(sweep tpcb-like "synchronous_commit on")
restart_with "synchronous_commit = off"
off=$(sweep tpcb-like "synchronous_commit off")
show "$on" "$off"

if [ -n "$OUT" ]; then
	mkdir -p "$OUT"
	restart_with "synchronous_commit = on"
	run_on=$(q -At -c "SELECT run_id FROM pgbenchx.runs WHERE sweep_id = $on")
	q -At -c "SELECT pgbenchx.chart_run($run_on)" >"$OUT/run_why.svg"
	ladder=$(q -At -c "SELECT run_sweep(ARRAY[1, 2, 4, 8, 16], 5, 'tpcb-like', label => 'tpcb-like 1..16', checkpoint => false)")
	q -c "SET client_min_messages = warning" -c "CALL pgbenchx.wait($ladder)" >/dev/null
	q -At -c "SELECT pgbenchx.chart_waits($ladder)" >"$OUT/waits.svg"
	echo
	echo "== wrote $OUT/run_why.svg (chart_run($run_on)) and $OUT/waits.svg (chart_waits($ladder))"
	q -c "SELECT r.clients, round(r.tps::numeric, 1) AS tps, r.verdict FROM pgbenchx.runs r WHERE r.sweep_id = $ladder ORDER BY r.clients"
fi
