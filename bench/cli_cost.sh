#!/bin/bash
# bench/cli_cost.sh: what the pgbenchx command line costs a run (issue 24
# section 4): the same run started by the `pgbenchx` client program and by
# run_bench called from psql, alternated A B B A on one cluster, and the
# ratio of their tps with its 95% interval.
#
# A is `pgbenchx -S -T DURATION -c C -j JOBS -p PORT postgres` (the client
# waits for the run and prints pgbench's summary; with PROGRESS=1 it also
# prints -P 1 lines, polling the live samples each second); B is
# `SELECT run_bench(C, DURATION, 'select-only', jobs => JOBS)` and
# `CALL pgbenchx.wait(id)` from psql.  Both are the same runs in the server
# (the same coordinator, drivers and vacuum); what differs is only what
# the client does while the run lasts.  Each run's tps is read from
# pgbenchx.runs.  Printed per client count:
#   tps cli / tps sql   the means over PAIRS pairs;
#   ratio               cli / sql, its 95% interval (pgbenchx.ci_ratio of
#                       the two ci_repeats); an interval that holds 1 means
#                       no cost this many pairs can see.
#
#   bench/cli_cost.sh                                   # defaults: about 4 min
#   PAIRS=2 DURATION=2 CLIENTS=4 bench/cli_cost.sh      # a smoke run
#
# Settings (environment): SCALE=10, DURATION=10, PAIRS=5, CLIENTS="1 8",
# JOBS=1, PROGRESS=1, PGX_DESTDIR (as in engine_bench.sh), PGX_WORKDIR,
# PGX_PORT.  Run as root on Debian 12 (the cluster runs as postgres).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

SCALE=${SCALE:-10}
DURATION=${DURATION:-10}
PAIRS=${PAIRS:-5}
CLIENTS=${CLIENTS-"1 8"}
JOBS=${JOBS:-1}
PROGRESS=${PROGRESS:-1}
for v in SCALE DURATION PAIRS JOBS; do
	[[ ${!v} =~ ^[0-9]+$ ]] && [ "${!v}" -ge 1 ] || pgx_die "$v must be a whole number of at least 1, not '${!v}'"
done
[ "$PAIRS" -ge 2 ] || pgx_die "PAIRS must be at least 2 (an interval needs two runs a side)"
[[ $PROGRESS =~ ^[01]$ ]] || pgx_die "PROGRESS must be 0 or 1, not '$PROGRESS'"
for c in $CLIENTS; do
	[[ $c =~ ^[0-9]+$ ]] && [ "$c" -ge 1 ] || pgx_die "CLIENTS must be whole numbers of at least 1, not '$c'"
done

cluster_settings=(
	"max_connections = 200"
	"max_worker_processes = 16"
	"shared_buffers = 1GB"
	"max_wal_size = 8GB"
	"checkpoint_timeout = 30min"
)
pgx_bench_cluster "$SCALE" "${cluster_settings[@]}"
cli=$PGX_BINDIR/pgbenchx
if [ -n "${PGX_DESTDIR:-}" ]; then cli=$PGX_DESTDIR$PGX_BINDIR/pgbenchx; fi
[ -x "$cli" ] || pgx_die "the pgbenchx client program is not at $cli"

q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

echo "machine: $(nproc) cores, kernel $(uname -r), cpu: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "server: $(q -c 'SELECT version()')"
echo "commit: $(git -C "$PGX_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "plan: select-only, SCALE=$SCALE, DURATION=$DURATION s, $PAIRS pairs A B B A, clients [$CLIENTS], jobs $JOBS, cli -P: $PROGRESS"
echo

# one run by the client program; prints its run id
run_cli() {
	local c=$1 out
	local p=()
	if [ "$PROGRESS" = 1 ]; then p=(-P 1); fi
	out=$("$cli" -S -T "$DURATION" -c "$c" -j "$JOBS" "${p[@]}" 2>/dev/null) || pgx_die "pgbenchx -c $c failed"
	sed -n 's/^run_id = \([0-9][0-9]*\)$/\1/p' <<<"$out" | tail -1
}
# one run by run_bench from psql; prints its run id
run_sql() {
	local c=$1 id
	id=$(q -c "SET client_min_messages = warning" \
		-c "SELECT run_bench($c, $DURATION, 'select-only', jobs => $JOBS)") || pgx_die "run_bench($c) failed"
	q -c "SET client_min_messages = warning" -c "CALL pgbenchx.wait($id)" >/dev/null || pgx_die "run $id failed"
	echo "$id"
}

printf '%7s %12s %12s %26s\n' clients 'tps cli' 'tps sql' 'ratio cli/sql [95% CI]'
for c in $CLIENTS; do
	a=() b=()
	for ((i = 0; i < PAIRS; i++)); do
		if ((i % 2 == 0)); then
			a+=("$(run_cli "$c")"); b+=("$(run_sql "$c")")
		else
			b+=("$(run_sql "$c")"); a+=("$(run_cli "$c")")
		fi
	done
	for id in "${a[@]}"; do [[ $id =~ ^[0-9]+$ ]] || pgx_die "the client program printed no run_id"; done
	ids_a=$(IFS=,; echo "${a[*]}") ids_b=$(IFS=,; echo "${b[*]}")
	q <<EOF
WITH s AS (
    SELECT pgbenchx.ci_repeats(array_agg(tps) FILTER (WHERE run_id IN ($ids_b))) AS sq,
           pgbenchx.ci_repeats(array_agg(tps) FILTER (WHERE run_id IN ($ids_a))) AS cl,
           count(*) FILTER (WHERE status <> 'completed') AS bad
    FROM pgbenchx.runs WHERE run_id IN ($ids_a, $ids_b)),
r AS (SELECT s.*, pgbenchx.ci_ratio((sq).tps, (sq).se, (sq).df, (cl).tps, (cl).se, (cl).df) AS x FROM s)
SELECT format('%7s %12s %12s %26s', $c, round((cl).tps::numeric, 1), round((sq).tps::numeric, 1),
              format('%s [%s, %s]', round(((cl).tps / (sq).tps)::numeric, 3),
                     coalesce(round((x).low::numeric, 3)::text, '-'), coalesce(round((x).high::numeric, 3)::text, '-')))
       || CASE WHEN bad > 0 THEN format('  (%s runs not completed)', bad) ELSE '' END
FROM r;
EOF
done
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
