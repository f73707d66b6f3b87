#!/bin/bash
# bench/init_bench.sh: pgbench_init(S) against stock "pgbench -i -s S", side
# by side on one throwaway cluster with default settings.
#
# For each scale, alternates pgbench -i and SELECT pgbench_init(S), PAIRS
# times, each preceded by a CHECKPOINT so that both start from the same state
# (the previous run's dirty data written out), and prints every pair and the
# median ratio pgbench_init / pgbench -i, separately for a fresh init (the
# tables dropped, and that drop checkpointed, before the clock starts) and a
# replacing one (the other tool's tables of the same scale are there, so the
# drop and the release of the old files at commit are timed too).  For
# pgbench_init, "commit" is the wall time minus the time of its done line:
# the commit, where the old files are released, and psql's round trip.
#
#   SCALES="20 100" PAIRS=3 JOBS=2 bench/init_bench.sh
#
# The pairs call pgbench_init(S, jobs => JOBS) (default 2).  Then, per
# scale, the generate step alone (from the done line) with jobs => 1 and
# jobs => JOBS, GEN_RUNS times each (default 3), fresh, and the median
# speed-up.  BIG_SCALE=1000 adds one fresh pgbench_init(BIG_SCALE, jobs =>
# JOBS) at the end, if the disk has room for it (about 25 GB at 1000, else
# it is skipped with a message), with its time and peak memory: the peak
# resident set (VmHWM) of the leader and of each worker, sampled from
# /proc twice a second, and the cgroup's memory.peak when there is one.
#
# PGX_DESTDIR=/some/dir installs pgbenchx there (make install DESTDIR=...)
# and points the cluster at it with extension_destdir, leaving the system
# directories alone; unset, pgbenchx is built and installed normally.
# PGX_WORKDIR and PGX_PORT choose the cluster's parent directory and port.
# Run as root on Debian 12 (the cluster runs as postgres).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

SCALES=${SCALES:-"20 100"}
PAIRS=${PAIRS:-3}
JOBS=${JOBS:-2}
GEN_RUNS=${GEN_RUNS:-3}
BIG_SCALE=${BIG_SCALE:-}

# PGX_WORKDIR (a parent directory) and PGX_PORT pin where the cluster lives.
pgx_bench_cluster 0

now() { date +%s.%N; }
checkpoint() { psql -X -q -v ON_ERROR_STOP=1 -c "CHECKPOINT"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) memory, kernel $(uname -r)"
echo "cpu: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "server: $(psql -X -At -c 'SELECT version()')"
echo "data directory: $dir/data on $(df -P "$dir" | awk 'NR == 2 { print $1 }')" \
	"($(findmnt -n -o FSTYPE,OPTIONS -T "$dir" 2>/dev/null || echo unknown))"
disk=$(lsblk -n -d -o NAME,SIZE,ROTA,MODEL 2>/dev/null | tr -s ' ' | paste -sd ';' -)
echo "disks (name size rotational model): ${disk:-unknown}"
echo "settings: $(psql -X -At -c "SELECT string_agg(name || '=' || current_setting(name), ' ' ORDER BY name) FROM pg_settings WHERE name IN ('shared_buffers', 'maintenance_work_mem', 'max_wal_size', 'wal_level', 'wal_compression', 'max_parallel_maintenance_workers', 'fsync', 'synchronous_commit', 'full_page_writes')")"
echo

dropall() {
	psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" \
		-c "DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers"
}
walbytes() { psql -X -At -c "SELECT wal_bytes FROM pg_stat_wal"; }
checkpoints() { psql -X -At -c "SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter"; }

# time_stock MODE: one pgbench -i; sets $stock (seconds)
time_stock() {
	local t0 t1
	if [ "$1" = fresh ]; then dropall; fi
	checkpoint
	t0=$(now)
	pgbench -i -q -s "$scale" >"$dir/pgbench_i.log" 2>&1 ||
		{ cat "$dir/pgbench_i.log"; pgx_die "pgbench -i -s $scale failed"; }
	t1=$(now)
	stock=$(echo "$t1 - $t0" | bc -l)
}

# time_ours MODE [JOBS]: one pgbench_init; sets $ours, $commit (s), $wal
# (MB), $ckpt, $gen (the generate step's seconds)
time_ours() {
	local t0 t1 w0 c0 done_s jobs=${2:-$JOBS}
	if [ "$1" = fresh ]; then dropall; fi
	checkpoint
	w0=$(walbytes); c0=$(checkpoints)
	t0=$(now)
	psql -X -q -v ON_ERROR_STOP=1 -At -c "SET client_min_messages = warning" \
		-c "SELECT pgbench_init($scale, jobs => $jobs)" >"$dir/pgbench_init.log" 2>&1 ||
		{ cat "$dir/pgbench_init.log"; pgx_die "pgbench_init($scale, jobs => $jobs) failed"; }
	t1=$(now)
	ours=$(echo "$t1 - $t0" | bc -l)
	done_s=$(sed -n 's/^done in \([0-9.]*\) s.*/\1/p' "$dir/pgbench_init.log")
	commit=$(echo "$ours - ${done_s:-0}" | bc -l)
	wal=$(echo "($(walbytes) - $w0) / 1048576" | bc -l)
	ckpt=$(( $(checkpoints) - c0 ))
	gen=$(sed -n 's/.*generate \([0-9.]*\) s.*/\1/p' "$dir/pgbench_init.log")
}

for scale in $SCALES; do
	fresh_ratios=(); replacing_ratios=()
	printf '%-6s %-5s %-10s %12s %15s %8s %8s %8s %5s\n' scale pair init "pgbench -i" "pgbench_init" ratio commit "WAL MB" ckpts
	for pair in $(seq 1 "$PAIRS"); do
		for mode in fresh replacing; do
			time_stock "$mode"
			stock_line=$(tail -n 1 "$dir/pgbench_i.log")
			time_ours "$mode"
			ratio=$(echo "$ours / $stock" | bc -l)
			if [ "$mode" = fresh ]; then fresh_ratios+=("$ratio"); else replacing_ratios+=("$ratio"); fi
			printf '%-6s %-5s %-10s %11.2fs %14.2fs %8.3f %7.2fs %8.0f %5s\n' \
				"$scale" "$pair" "$mode" "$stock" "$ours" "$ratio" "$commit" "$wal" "$ckpt"
			echo "       pgbench -i:   $stock_line"
			echo "       pgbench_init: $(tail -n 1 "$dir/pgbench_init.log")"
		done
	done
	printf 'scale %s: median ratio pgbench_init(jobs => %s) / pgbench -i = %.3f fresh, %.3f replacing, over %s pairs\n\n' \
		"$scale" "$JOBS" "$(printf '%s\n' "${fresh_ratios[@]}" | median)" \
		"$(printf '%s\n' "${replacing_ratios[@]}" | median)" "$PAIRS"

	# the generate step alone, one job against JOBS, alternating
	gen1=(); genj=()
	for run in $(seq 1 "$GEN_RUNS"); do
		for jobs in 1 "$JOBS"; do
			time_ours fresh "$jobs"
			if [ "$jobs" = 1 ]; then gen1+=("$gen"); else genj+=("$gen"); fi
			printf 'scale %s run %s jobs %s: generate %s s, wall %.2f s, WAL %.0f MB\n' \
				"$scale" "$run" "$jobs" "$gen" "$ours" "$wal"
		done
	done
	# GEN_RUNS=0: no generate-step comparison
	[ "$GEN_RUNS" -gt 0 ] || continue
	m1=$(printf '%s\n' "${gen1[@]}" | median); mj=$(printf '%s\n' "${genj[@]}" | median)
	printf 'scale %s: median generate step %.2f s with 1 job, %.2f s with %s jobs: %.2fx faster, %.0f rows/s per job\n\n' \
		"$scale" "$m1" "$mj" "$JOBS" "$(echo "$m1 / $mj" | bc -l)" \
		"$(echo "100000 * $scale / $m1" | bc -l)"
done

# peak_rss PID...: the largest VmHWM (kB) among the pids still alive, one per line "pid kB"
peak_rss() {
	local p
	for p in "$@"; do
		awk -v p="$p" '/^VmHWM/ { print p, $2 }' "/proc/$p/status" 2>/dev/null || true
	done
}

if [ -n "$BIG_SCALE" ]; then
	need_gb=$(( BIG_SCALE * 25 / 1000 + 1 ))
	free_gb=$(df -P -BG "$dir" | awk 'NR == 2 { sub("G", "", $4); print $4 }')
	if [ "$free_gb" -lt "$need_gb" ]; then
		echo "scale $BIG_SCALE: skipped, $free_gb GB free under $dir and about $need_gb GB needed"
	else
		scale=$BIG_SCALE
		dropall
		checkpoint
		cg=/sys/fs/cgroup$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup 2>/dev/null)
		w0=$(walbytes); c0=$(checkpoints)
		t0=$(now)
		psql -X -q -v ON_ERROR_STOP=1 -At -c "SET client_min_messages = warning" \
			-c "SELECT pgbench_init($scale, jobs => $JOBS)" >"$dir/pgbench_init.log" 2>&1 &
		psql_pid=$!
		declare -A hwm=()
		while kill -0 "$psql_pid" 2>/dev/null; do
			pids=$(psql -X -At -c "SELECT pid FROM pg_stat_activity WHERE backend_type = 'pgbenchx init worker' OR query LIKE 'SELECT pgbench_init(%'" 2>/dev/null || true)
			while read -r p kb; do
				[ -n "$p" ] || continue
				if [ -z "${hwm[$p]:-}" ] || [ "$kb" -gt "${hwm[$p]}" ]; then hwm[$p]=$kb; fi
			done < <(peak_rss $pids)
			sleep 0.5
		done
		wait "$psql_pid" || { cat "$dir/pgbench_init.log"; pgx_die "pgbench_init($scale) failed"; }
		t1=$(now)
		echo "scale $scale, jobs $JOBS: wall $(echo "$t1 - $t0" | bc -l | xargs printf '%.1f') s," \
			"WAL $(echo "($(walbytes) - $w0) / 1048576" | bc -l | xargs printf '%.0f') MB," \
			"checkpoints $(( $(checkpoints) - c0 ))"
		echo "       pgbench_init: $(tail -n 1 "$dir/pgbench_init.log")"
		echo "       accounts: $(psql -X -At -c "SELECT pg_size_pretty(pg_relation_size('pgbench_accounts')) || ' heap, ' || pg_size_pretty(pg_relation_size('pgbench_accounts_pkey')) || ' index'")"
		for p in "${!hwm[@]}"; do
			echo "       peak RSS (VmHWM, shared buffers touched included) of pid $p: $(( hwm[$p] / 1024 )) MB"
		done
		if [ -r "$cg/memory.peak" ]; then
			echo "       cgroup $cg memory.peak: $(( $(cat "$cg/memory.peak") / 1048576 )) MB"
		fi
	fi
fi
