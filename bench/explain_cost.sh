#!/bin/bash
# bench/explain_cost.sh: what recording "why" costs (issue 13): pgbench's
# select-only at 4 and 32 clients, run by pgbenchx with record_system on and
# off, in alternating pairs, with stock pgbench beside them on the same
# throwaway cluster.
#
# For every client count, PAIRS times (the order of on and off alternates
# from pair to pair, so that neither always runs first):
#   CHECKPOINT; pgbench -n -S -c C -j J -T D
#   CHECKPOINT; launch_bench(select-only, C clients, J jobs, D s, record_system on)
#   CHECKPOINT; launch_bench(the same, record_system off)
# None does pre-run maintenance.  It prints each triple, then per client
# count the median tps of each, the median of the per-pair ratios on/off
# (the cost: 1 - ratio) and pgbenchx-on/pgbench, the wait-event sampling
# rate reached and the system_samples rows written.  Because tps on a shared
# machine varies by more than the 1% to be shown, it also measures the cost
# directly: the coordinator (which does all the recording) is followed in
# /proc and its CPU time with recording on and off is compared; the
# difference, as a share of the machine's CPU time over the run, is what the
# recording takes from the benchmark.
#
#   bench/explain_cost.sh                          # the defaults, about 8 min
#   DURATION=3 PAIRS=1 bench/explain_cost.sh       # a smoke run
#
# Settings (environment): SCALE=20, DURATION=10, PAIRS=5, JOBS=1,
# CLIENTS="4 32", PGX_DESTDIR (as in engine_bench.sh), PGX_WORKDIR, PGX_PORT.
# Run as root on Debian 12 (the cluster runs as postgres).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

SCALE=${SCALE:-20}
DURATION=${DURATION:-10}
PAIRS=${PAIRS:-5}
JOBS=${JOBS:-1}
CLIENTS=${CLIENTS-"4 32"}
for v in SCALE DURATION PAIRS JOBS; do
	[[ ${!v} =~ ^[0-9]+$ ]] && [ "${!v}" -ge 1 ] || pgx_die "$v must be a whole number of at least 1, not '${!v}'"
done

cluster_settings=(
	"max_connections = 200"
	"max_worker_processes = 16"
	"shared_buffers = 1GB"
	"max_wal_size = 8GB"
	"checkpoint_timeout = 30min"
)
pgx_bench_cluster "$SCALE" "${cluster_settings[@]}"

q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }


echo "machine: $(nproc) cores, kernel $(uname -r), cpu: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "server: $(q -c 'SELECT version()')"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "plan: select-only, SCALE=$SCALE, DURATION=$DURATION s, PAIRS=$PAIRS, JOBS=$JOBS, clients [$CLIENTS]"
echo

pgbench_tps() {
	local out=$dir/pgbench.out pid
	# followed by the same poll as the coordinator of a pgbenchx run: the
	# poll is load, and load changes what a transaction costs on a 2-core
	# machine, so both sides of on/pgbench carry it alike
	pgbench -n -S -c "$1" -j "$2" -T "$DURATION" >"$out" 2>&1 &
	pid=$!
	pgx_follow_cpu "$pid" >/dev/null
	wait "$pid" || { cat "$out" >&2; pgx_die "pgbench failed"; }
	sed -n 's/^tps = \([0-9.]*\) (without initial connection time)$/\1/p' "$out"
}
# pgbenchx_run C J on|off: prints "tps wait_sample_hz system_rows coordinator_cpu_s"
pgbenchx_run() {
	local rec=true id row pid cpu
	[ "$3" = off ] && rec=false
	id=$(q -c "SELECT pgbenchx.launch_bench('{\"clients\": $1, \"jobs\": $2, \"duration\": $DURATION, \"script\": \"select-only\", \"vacuum\": false, \"checkpoint\": false, \"record_system\": $rec}')") ||
		pgx_die "launch_bench failed"
	pid=$(q -c "SELECT coordinator_pid FROM pgbenchx.runs WHERE run_id = $id")
	cpu=$(pgx_follow_cpu "$pid")
	q -c "SET client_min_messages = warning" -c "CALL pgbenchx.wait($id)" >/dev/null || pgx_die "wait($id) failed"
	row=$(q -F ' ' -c "SELECT status, tps, coalesce(wait_sample_hz::numeric(10,1)::text, '-'),
	                   (SELECT count(*) FROM pgbenchx.system_samples s WHERE s.run_id = r.run_id)
	                   FROM pgbenchx.runs r WHERE run_id = $id")
	set -- $row
	[ "$1" = completed ] || pgx_die "run $id ended $row"
	echo "$2 $3 $4 $cpu"
}

summary=()
for c in $CLIENTS; do
	j=$((JOBS < c ? JOBS : c))
	echo "== select-only, $c clients, $j jobs, $DURATION s"
	printf '%5s %12s %12s %12s %8s %8s %8s %6s %9s %9s\n' pair pgbench on off on/off on/pgb hz rows coord_on coord_off
	ratios=() vs=() s_t=() on_t=() off_t=() hzs=() cpu_d=()
	for pair in $(seq 1 "$PAIRS"); do
		q -c CHECKPOINT
		st=$(pgbench_tps "$c" "$j")
		if [ $((pair % 2)) -eq 1 ]; then
			q -c CHECKPOINT; read -r on hz rows c_on <<<"$(pgbenchx_run "$c" "$j" on)"
			q -c CHECKPOINT; read -r off _ _ c_off <<<"$(pgbenchx_run "$c" "$j" off)"
		else
			q -c CHECKPOINT; read -r off _ _ c_off <<<"$(pgbenchx_run "$c" "$j" off)"
			q -c CHECKPOINT; read -r on hz rows c_on <<<"$(pgbenchx_run "$c" "$j" on)"
		fi
		r=$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.4f", a / b }')
		v=$(awk -v a="$on" -v b="$st" 'BEGIN { printf "%.4f", a / b }')
		ratios+=("$r") vs+=("$v") s_t+=("$st") on_t+=("$on") off_t+=("$off") hzs+=("$hz")
		cpu_d+=("$(awk -v a="$c_on" -v b="$c_off" 'BEGIN { print a - b }')")
		printf '%5s %12.0f %12.0f %12.0f %8s %8s %8s %6s %9s %9s\n' "$pair" "$st" "$on" "$off" "$r" "$v" "$hz" "$rows" "$c_on" "$c_off"
	done
	m_r=$(printf '%s\n' "${ratios[@]}" | median)
	m_v=$(printf '%s\n' "${vs[@]}" | median)
	printf '%5s %12.0f %12.0f %12.0f %8.4f %8.4f %8s\n\n' median "$(printf '%s\n' "${s_t[@]}" | median)" \
		"$(printf '%s\n' "${on_t[@]}" | median)" "$(printf '%s\n' "${off_t[@]}" | median)" "$m_r" "$m_v" \
		"$(printf '%s\n' "${hzs[@]}" | grep -v '^-$' | median)"
	m_d=$(printf '%s\n' "${cpu_d[@]}" | median)
	# the recording's own CPU: the coordinator's extra CPU over the run, as a
	# share of the machine's CPU time in the run
	share=$(awk -v d="$m_d" -v n="$(nproc)" -v t="$DURATION" 'BEGIN { printf "%.2f", d / (n * t) * 100 }')
	summary+=("$(printf '%7s %10.4f %9.2f%% %12.4f %12.2f %11s%%' "$c" "$m_r" "$(awk -v r="$m_r" 'BEGIN { print (1 - r) * 100 }')" "$m_v" "$m_d" "$share")")
done
echo "== summary: medians over $PAIRS pairs; cost = 1 - on/off; coord_cpu: the coordinator's extra CPU s per run with recording on, and as a share of the machine's CPU time"
printf '%7s %10s %10s %12s %12s %12s\n' clients on/off cost on/pgbench coord_cpu_s machine_share
printf '%s\n' "${summary[@]}"
