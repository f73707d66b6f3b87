#!/bin/bash
# bench/engine_bench.sh: the pgbenchx engine against stock pgbench, side by
# side on one throwaway cluster with the same settings, duration and jobs.
#
# For every point (script, protocol, clients) it alternates, PAIRS times:
#   CHECKPOINT; pgbench -n -c C -j J -T D -M P [-S]           (under /usr/bin/time)
#   CHECKPOINT; run_bench(C, D, script, jobs => J, protocol => P,
#                         vacuum => false, checkpoint => false); CALL pgbenchx.wait(id)
# Neither does pre-run maintenance (-n, vacuum/checkpoint => false); the
# CHECKPOINT before each measured command makes both start from the same
# state.  It prints each pair, then per point the median tps of each, the
# median of the per-pair ratios pgbenchx/pgbench, and the load generator's
# CPU (user + sys) per 1000 transactions of each: pgbench's from
# /usr/bin/time, pgbenchx's drivers' from pgbenchx.runs.driver_cpu_s.  A
# summary table and the minimum ratio follow.
#
# Then one run of BIG_CLIENTS clients with BIG_JOBS jobs (select-only,
# BIG_DURATION s) shows that many clients complete, and the drivers' memory
# is sampled from /proc/<pid>/smaps_rollup while it runs, minus the same
# measure for a driver running 1 client: the marginal memory per client.
#
#   bench/engine_bench.sh                       # the defaults below, about 30 min
#   DURATION=3 PAIRS=1 bench/engine_bench.sh    # a smoke run
#
# Settings (environment):
#   SCALE=20               pgbench_init(scale)
#   DURATION=10            seconds per measured command (-T)
#   PAIRS=5                alternations per point
#   JOBS=1                 -j and jobs => (capped at the clients)
#   SELECT_CLIENTS="1 2 4 8 16 32"   SELECT_PROTOCOLS="simple prepared"
#   TPCB_CLIENTS="1 4 16"            TPCB_PROTOCOLS="simple"
#   BIG_CLIENTS=500 BIG_JOBS=2 BIG_DURATION=5   (BIG_CLIENTS=0 skips it)
#   PGX_DESTDIR=/some/dir  install pgbenchx there (make install DESTDIR=...)
#                          and point the cluster at it with extension_destdir,
#                          leaving the system directories alone; unset,
#                          pgbenchx is built and installed normally.
#   PGX_WORKDIR, PGX_PORT  the cluster's parent directory and port.
#   PGX_MAJOR=18           another PostgreSQL major (16 to 19): its server and
#                          its pgbench, built by scripts/pgmajor.sh (cached),
#                          pgbenchx installed into a private copy of it.
# Run as root on Debian 12 (the cluster runs as postgres).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

SCALE=${SCALE:-20}
DURATION=${DURATION:-10}
PAIRS=${PAIRS:-5}
JOBS=${JOBS:-1}
SELECT_CLIENTS=${SELECT_CLIENTS-"1 2 4 8 16 32"}
SELECT_PROTOCOLS=${SELECT_PROTOCOLS-"simple prepared"}
TPCB_CLIENTS=${TPCB_CLIENTS-"1 4 16"}
TPCB_PROTOCOLS=${TPCB_PROTOCOLS-"simple"}
BIG_CLIENTS=${BIG_CLIENTS:-500}
BIG_JOBS=${BIG_JOBS:-2}
BIG_DURATION=${BIG_DURATION:-5}
PGX_MAJOR=${PGX_MAJOR:-15}

for v in SCALE DURATION PAIRS JOBS BIG_CLIENTS BIG_JOBS BIG_DURATION; do
	[[ ${!v} =~ ^[0-9]+$ ]] || pgx_die "$v must be a whole number, not '${!v}'"
done
[ "$DURATION" -ge 1 ] && [ "$PAIRS" -ge 1 ] && [ "$JOBS" -ge 1 ] ||
	pgx_die "DURATION, PAIRS and JOBS must be at least 1"
[ -x /usr/bin/time ] || pgx_die "/usr/bin/time is missing (apt-get install time)"

# Server settings, the same for both sides; printed below.
# max_connections: the big run's clients plus headroom; max_worker_processes:
# one coordinator plus the jobs, plus the defaults' parallel workers;
# shared_buffers holds the whole data set (scale 20 is about 300 MB); a large
# max_wal_size and checkpoint_timeout keep checkpoints out of the measured
# intervals (we run our own before each command).
cluster_settings=(
	"max_connections = 700"
	"max_worker_processes = 16"
	"shared_buffers = 1GB"
	"max_wal_size = 8GB"
	"checkpoint_timeout = 30min"
)

pgx_ensure_packages
dir=$(pgx_workdir "${PGX_WORKDIR:-/tmp}")
trap 'pgx_stop_cluster "$dir"; rm -rf "$dir"' EXIT
if [ "$PGX_MAJOR" = 15 ]; then
	pgx_bench_install
	if [ -n "$PGX_DESTDIR_SETTING" ]; then cluster_settings+=("$PGX_DESTDIR_SETTING"); fi
else
	# that major's server, initdb and pgbench, from a private copy of its
	# build with pgbenchx installed into it (removed with the cluster)
	pgx_ensure_packages $PGX_PGBUILD_PACKAGES
	pgx_major_install "$PGX_MAJOR" "$dir" || pgx_die "no build of PostgreSQL $PGX_MAJOR"
	PGX_BINDIR=$PGX_MAJOR_PREFIX/bin
	export PATH=$PGX_BINDIR:$PATH
fi

port=${PGX_PORT:-$(pgx_free_port)}
pgx_start_cluster "$dir" "$port" "${cluster_settings[@]}"

q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
checkpoint() { q -c "CHECKPOINT"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

q -c "CREATE EXTENSION pgbenchx" || pgx_die "CREATE EXTENSION failed"
pgx_log "pgbench_init($SCALE)"
init_line=$(q -c "SET client_min_messages = warning" -c "SELECT pgbench_init($SCALE)") ||
	pgx_die "pgbench_init($SCALE) failed"

echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) memory, kernel $(uname -r)"
echo "cpu: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "server: $(q -c 'SELECT version()')"
echo "stock: $(pgbench --version)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cluster: $dir/data, port $port, settings added to initdb's: ${cluster_settings[*]}"
echo "settings in effect: $(q -c "SELECT string_agg(name || '=' || current_setting(name), ' ' ORDER BY name) FROM pg_settings WHERE name IN ('max_connections', 'max_worker_processes', 'shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'fsync', 'synchronous_commit', 'autovacuum', 'max_parallel_workers')")"
echo "data: pgbench_init($SCALE): $init_line"
echo "plan: DURATION=$DURATION s, PAIRS=$PAIRS, JOBS=$JOBS; select-only at [$SELECT_CLIENTS] x [$SELECT_PROTOCOLS]; tpcb-like at [$TPCB_CLIENTS] x [$TPCB_PROTOCOLS]; then $BIG_CLIENTS clients / $BIG_JOBS jobs for $BIG_DURATION s"
echo "each pair: CHECKPOINT; pgbench -n ...; CHECKPOINT; run_bench(..., vacuum => false, checkpoint => false)"
echo "cpu ms/1k tx: the load generator's user+sys CPU per 1000 transactions (pgbench: /usr/bin/time; pgbenchx: driver_cpu_s)"
echo

# pgbench_run C J P SCRIPT: prints "tps transactions cpu_s"
pgbench_run() {
	local c=$1 j=$2 p=$3 script=$4 sflag=(-b tpcb-like) out=$dir/pgbench.out tf=$dir/pgbench.time
	[ "$script" = select-only ] && sflag=(-S)
	/usr/bin/time -f '%U %S' -o "$tf" pgbench -n -c "$c" -j "$j" -T "$DURATION" -M "$p" "${sflag[@]}" \
		>"$out" 2>&1 || { cat "$out" >&2; pgx_die "pgbench -c $c -j $j -M $p $script failed"; }
	local counts
	counts=$(pgx_pgbench_counts "$out") || exit 1
	echo "$counts $(awk '{ print $1 + $2 }' "$tf")"
}

# pgbenchx_start C D SCRIPT J P: prints the run_id
pgbenchx_start() {
	q -c "SELECT run_bench($1, $2, '$3', jobs => $4, protocol => '$5', vacuum => false, checkpoint => false)"
}
pgbenchx_wait() {
	q -c "SET client_min_messages = warning" -c "CALL pgbenchx.wait($1)" >/dev/null
}

# pgbenchx_run C J P SCRIPT: prints "tps transactions cpu_s"
pgbenchx_run() {
	local id row
	id=$(pgbenchx_start "$1" "$DURATION" "$4" "$2" "$3") || pgx_die "run_bench failed"
	pgbenchx_wait "$id" || pgx_die "pgbenchx.wait($id) failed"
	row=$(q -F ' ' -c "SELECT status, tps, transactions, driver_cpu_s, coalesce(error, '') FROM pgbenchx.runs WHERE run_id = $id")
	set -- $row
	[ "$1" = completed ] || pgx_die "run $id ended $row"
	echo "$2 $3 $4"
}

# CPU ms per 1000 transactions
cpu_per_k() { awk -v c="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.3f", c * 1e6 / t; else print "nan" }'; }

summary=()
min_ratio=
min_point=
points=()
for c in $SELECT_CLIENTS; do for p in $SELECT_PROTOCOLS; do points+=("select-only $p $c"); done; done
for c in $TPCB_CLIENTS; do for p in $TPCB_PROTOCOLS; do points+=("tpcb-like $p $c"); done; done

for point in "${points[@]}"; do
	set -- $point
	script=$1 proto=$2 clients=$3
	jobs=$((JOBS < clients ? JOBS : clients))
	echo "== $script, -M $proto, $clients clients, $jobs jobs, $DURATION s"
	printf '%5s %12s %12s %7s %14s %14s %10s\n' pair pgbench_tps pgbenchx_tps ratio \
		"pgbench_cpu/k" "pgbenchx_cpu/k" "x_cpu_core"
	s_tps=() x_tps=() ratios=() s_cpu=() x_cpu=()
	for pair in $(seq 1 "$PAIRS"); do
		checkpoint
		res=$(pgbench_run "$clients" "$jobs" "$proto" "$script")
		read -r st stx scpu <<<"$res"
		checkpoint
		res=$(pgbenchx_run "$clients" "$jobs" "$proto" "$script")
		read -r xt xtx xcpu <<<"$res"
		ratio=$(awk -v a="$xt" -v b="$st" 'BEGIN { printf "%.3f", a / b }')
		sk=$(cpu_per_k "$scpu" "$stx")
		xk=$(cpu_per_k "$xcpu" "$xtx")
		s_tps+=("$st") x_tps+=("$xt") ratios+=("$ratio") s_cpu+=("$sk") x_cpu+=("$xk")
		printf '%5s %12.0f %12.0f %7s %14s %14s %10.2f\n' "$pair" "$st" "$xt" "$ratio" "$sk" "$xk" \
			"$(awk -v c="$xcpu" -v d="$DURATION" 'BEGIN { print c / d }')"
	done
	m_st=$(printf '%s\n' "${s_tps[@]}" | median)
	m_xt=$(printf '%s\n' "${x_tps[@]}" | median)
	m_r=$(printf '%s\n' "${ratios[@]}" | median)
	m_sk=$(printf '%s\n' "${s_cpu[@]}" | median)
	m_xk=$(printf '%s\n' "${x_cpu[@]}" | median)
	printf '%5s %12.0f %12.0f %7.3f %14.3f %14.3f\n\n' median "$m_st" "$m_xt" "$m_r" "$m_sk" "$m_xk"
	summary+=("$(printf '%-12s %-9s %7s %12.0f %12.0f %7.3f %14.3f %14.3f' "$script" "$proto" "$clients" \
		"$m_st" "$m_xt" "$m_r" "$m_sk" "$m_xk")")
	if [ -z "$min_ratio" ] || awk -v a="$m_r" -v b="$min_ratio" 'BEGIN { exit !(a < b) }'; then
		min_ratio=$m_r
		min_point="$script -M $proto, $clients clients"
	fi
done

if [ ${#summary[@]} -gt 0 ]; then
	echo "== summary: medians over $PAIRS pairs of $DURATION s, jobs = min($JOBS, clients); cpu in ms per 1000 transactions"
	printf '%-12s %-9s %7s %12s %12s %7s %14s %14s\n' script protocol clients pgbench_tps pgbenchx_tps ratio \
		"pgbench_cpu/k" "pgbenchx_cpu/k"
	printf '%s\n' "${summary[@]}"
	printf 'minimum median ratio pgbenchx/pgbench: %.3f (%s)\n\n' "$min_ratio" "$min_point"
fi

# ---------------------------------------------------------------------------
# Many clients, and the drivers' memory per client.
#
# memory_run C J D: runs select-only, samples every driver's
# /proc/<pid>/smaps_rollup about 5 times a second while it benchmarks, and
# prints "run_id n_drivers uss_kb pss_kb rss_kb": the peak of each measure
# per driver, averaged over the drivers.  USS (Private_Clean + Private_Dirty)
# is what the driver alone holds: unlike PSS it does not shrink as more
# backends map the same shared pages, and unlike RSS it leaves out shared
# memory the driver merely touched.
memory_run() {
	local c=$1 j=$2 d=$3 id pids=() pid k waited=0
	declare -A uss=() pss=() rss=()
	id=$(pgbenchx_start "$c" "$d" select-only "$j" simple) || pgx_die "run_bench($c clients) failed"
	# wait until all drivers benchmark (connecting can take a while)
	while :; do
		mapfile -t pids < <(q -c "SELECT pid FROM pg_stat_activity WHERE backend_type = 'pgbenchx driver' AND query = 'benchmarking'")
		[ ${#pids[@]} -ge "$j" ] && break
		[ "$(q -c "SELECT status FROM pgbenchx.runs WHERE run_id = $id")" = running ] || break
		sleep 0.1
		waited=$((waited + 1))
		[ $waited -lt 1200 ] || pgx_die "the drivers of run $id never started benchmarking"
	done
	while :; do
		local alive=0
		for pid in "${pids[@]}"; do
			[ -r "/proc/$pid/smaps_rollup" ] || continue
			read -r u p r < <(awk '/^Rss:/ { r = $2 } /^Pss:/ { p = $2 } /^Private_(Clean|Dirty):/ { u += $2 } END { print u + 0, p + 0, r + 0 }' \
				"/proc/$pid/smaps_rollup" 2>/dev/null) || continue
			[ "${r:-0}" -gt 0 ] || continue
			alive=1
			[ "$u" -gt "${uss[$pid]:-0}" ] && uss[$pid]=$u
			[ "$p" -gt "${pss[$pid]:-0}" ] && pss[$pid]=$p
			[ "$r" -gt "${rss[$pid]:-0}" ] && rss[$pid]=$r
		done
		[ $alive = 1 ] || break
		[ "$(q -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pgbenchx driver'")" -gt 0 ] || break
		sleep 0.2
	done
	pgbenchx_wait "$id" || pgx_die "pgbenchx.wait($id) failed"
	local n=${#uss[@]} su=0 sp=0 sr=0
	for pid in "${!uss[@]}"; do
		su=$((su + uss[$pid])) sp=$((sp + pss[$pid])) sr=$((sr + rss[$pid]))
	done
	[ "$n" -gt 0 ] || pgx_die "no driver of run $id could be sampled"
	echo "$id $n $((su / n)) $((sp / n)) $((sr / n))"
}

if [ "$BIG_CLIENTS" -gt 0 ]; then
	echo "== $BIG_CLIENTS clients, $BIG_JOBS jobs, select-only -M simple, $BIG_DURATION s"
	checkpoint
	res=$(memory_run 1 1 "$BIG_DURATION")
	read -r id1 n1 u1 p1 r1 <<<"$res"
	checkpoint
	res=$(memory_run "$BIG_CLIENTS" "$BIG_JOBS" "$BIG_DURATION")
	read -r idb nb ub pb rb <<<"$res"
	q -c "SELECT format('run %s: status %s, clients %s, jobs %s, transactions %s, failed %s, tps %s (incl. connections %s), connecting %s ms, latency avg %s ms p99 %s ms, driver cpu %s s%s',
		run_id, status, clients, jobs, transactions, failed, round(tps::numeric, 1), round(tps_incl_conn::numeric, 1),
		round(conn_time_ms::numeric), round(latency_avg_ms::numeric, 3), round(latency_p99_ms::numeric, 3),
		round(driver_cpu_s::numeric, 2), coalesce(', error: ' || error, ''))
		FROM pgbenchx.runs WHERE run_id IN ($id1, $idb) ORDER BY run_id"
	per_driver=$(( (BIG_CLIENTS + BIG_JOBS - 1) / BIG_JOBS ))
	echo "driver memory, peak per driver while benchmarking (kB; USS = Private_Clean + Private_Dirty of /proc/<pid>/smaps_rollup):"
	printf '  %-28s USS %8s  PSS %8s  RSS %8s\n' "1 client, 1 driver:" "$u1" "$p1" "$r1"
	printf '  %-28s USS %8s  PSS %8s  RSS %8s  (average of %s drivers)\n' \
		"$per_driver clients per driver:" "$ub" "$pb" "$rb" "$nb"
	awk -v ub="$ub" -v u1="$u1" -v pb="$pb" -v p1="$p1" -v n="$per_driver" 'BEGIN {
		if (n > 1)
			printf "marginal memory per client: %.1f kB USS (%.1f kB PSS) = (driver at %d clients - driver at 1 client) / %d\n",
				(ub - u1) / (n - 1), (pb - p1) / (n - 1), n, n - 1 }'
	echo
fi

echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
