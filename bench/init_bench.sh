#!/bin/bash
# bench/init_bench.sh: pgbench_init(S) against stock "pgbench -i -s S", side
# by side on one throwaway cluster with default settings.
#
# For each scale, alternates pgbench -i and SELECT pgbench_init(S), PAIRS
# times, each preceded by a CHECKPOINT so that both start from the same state
# (the previous run's dirty data written out), and prints every pair and the
# median ratio pgbench_init / pgbench -i.
#
#   SCALES="20 100" PAIRS=3 bench/init_bench.sh
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

pgx_ensure_packages
settings=()
pgx_bench_install
if [ -n "$PGX_DESTDIR_SETTING" ]; then settings+=("$PGX_DESTDIR_SETTING"); fi

# PGX_WORKDIR (a parent directory) and PGX_PORT pin where the cluster lives.
dir=$(pgx_workdir "${PGX_WORKDIR:-/tmp}")
port=${PGX_PORT:-$(pgx_free_port)}
trap 'pgx_stop_cluster "$dir"; rm -rf "$dir"' EXIT
pgx_start_cluster "$dir" "$port" "${settings[@]}"
psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION pgbenchx" ||
	pgx_die "CREATE EXTENSION failed"

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

for scale in $SCALES; do
	ratios=()
	printf '%-6s %-5s %12s %15s %8s\n' scale pair "pgbench -i" "pgbench_init" ratio
	for pair in $(seq 1 "$PAIRS"); do
		checkpoint
		t0=$(now)
		pgbench -i -q -s "$scale" >"$dir/pgbench_i.log" 2>&1 ||
			{ cat "$dir/pgbench_i.log"; pgx_die "pgbench -i -s $scale failed"; }
		t1=$(now)
		checkpoint
		t2=$(now)
		psql -X -q -v ON_ERROR_STOP=1 -At -c "SET client_min_messages = warning" \
			-c "SELECT pgbench_init($scale)" >"$dir/pgbench_init.log" 2>&1 ||
			{ cat "$dir/pgbench_init.log"; pgx_die "pgbench_init($scale) failed"; }
		t3=$(now)
		stock=$(echo "$t1 - $t0" | bc -l)
		ours=$(echo "$t3 - $t2" | bc -l)
		ratio=$(echo "$ours / $stock" | bc -l)
		ratios+=("$ratio")
		printf '%-6s %-5s %11.2fs %14.2fs %8.3f\n' "$scale" "$pair" "$stock" "$ours" "$ratio"
		echo "       pgbench -i:   $(tail -n 1 "$dir/pgbench_i.log")"
		echo "       pgbench_init: $(tail -n 1 "$dir/pgbench_init.log")"
	done
	printf 'scale %s: median ratio pgbench_init / pgbench -i = %.3f over %s pairs\n\n' \
		"$scale" "$(printf '%s\n' "${ratios[@]}" | median)" "$PAIRS"
done
