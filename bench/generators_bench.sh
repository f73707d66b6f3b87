#!/bin/bash
# bench/generators_bench.sh: one run driven from several load generators
# (issue 14), on one machine: three throwaway clusters, the server under
# test S (pgbench tables at SCALE) and two generators A and B (pgbenchx
# installed, no tables), the runs recorded on A.
#
# Part 1, the same clients driven three ways, for each client count in
# CLIENTS, PAIRS times (the order rotating from pair to pair, so that none
# always runs first), each after a CHECKPOINT on S, select-only, no
# pre-run maintenance:
#   pgbench -n -S -c C -j J -T D                               stock pgbench against S
#   run_bench(C, D, conninfo => S)                  on A       one pgbenchx, no generators
#   run_bench(C, D, conninfo => S, generators => [A])    on A  one generator (A records)
#   run_bench(C, D, conninfo => S, generators => [A, B]) on A  two generators, C/2 each
# It prints every run's tps and, for pgbenchx, the recorder's coordinator
# CPU time (followed in /proc: the coordinator does the merging), then per
# client count the medians and the median per-pair ratios two/one,
# one/plain and plain/pgbench: two generators should reach the tps of one
# with the same clients (within the noise), and merging should cost the
# recorder's coordinator a negligible share of the machine's CPU (a plain
# run's coordinator does more: it samples wait events 100 times a second,
# which the recorder of a run with generators leaves to nobody).
#
# Part 2, what one generator can drive: a sweep of select-only on one
# generator with one driver (jobs => 1) over LADDER clients; per client
# count the tps, the driver's CPU share of one core (runs.driver_cpu_s over
# the duration) and its CPU per 1000 transactions.  The driver saturates
# when its share nears 1 (one core per job); on this 2-core machine the
# server under test shares the cores, so tps stops growing earlier.
#
#   bash bench/generators_bench.sh                         # the defaults, about 12 min
#   DURATION=3 PAIRS=1 LADDER="1 8" bash bench/generators_bench.sh   # a smoke run
#
# Settings (environment): SCALE=10, DURATION=8, PAIRS=3, JOBS=1 (per
# generator), CLIENTS="8 32", LADDER="1 2 4 8 16 32 64", PGX_DESTDIR (as in
# engine_bench.sh), PGX_WORKDIR.  Run as root on Debian 12 (the clusters
# run as postgres).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

SCALE=${SCALE:-10}
DURATION=${DURATION:-8}
PAIRS=${PAIRS:-3}
JOBS=${JOBS:-1}
CLIENTS=${CLIENTS-"8 32"}
LADDER=${LADDER-"1 2 4 8 16 32 64"}
for v in SCALE DURATION PAIRS JOBS; do
	[[ ${!v} =~ ^[0-9]+$ ]] && [ "${!v}" -ge 1 ] || pgx_die "$v must be a whole number of at least 1, not '${!v}'"
done

settings=(
	"max_connections = 300"
	"max_worker_processes = 16"
	"shared_buffers = 512MB"
	"max_wal_size = 8GB"
	"checkpoint_timeout = 30min"
)
pgx_ensure_packages
pgx_bench_install
if [ -n "$PGX_DESTDIR_SETTING" ]; then settings+=("$PGX_DESTDIR_SETTING"); fi
base=$(pgx_workdir "${PGX_WORKDIR:-/tmp}")
declare -A port sock
for n in S A B; do
	install -d -o postgres -g postgres "$base/$n"
done
trap 'for n in S A B; do pgx_stop_cluster "$base/$n"; done; rm -rf "$base"' EXIT
for n in S A B; do
	port[$n]=$(pgx_free_port)
	pgx_start_cluster "$base/$n" "${port[$n]}" "${settings[@]}"
	sock[$n]=$base/$n/sock
done
ci() { echo "host=${sock[$1]} port=${port[$1]} dbname=postgres user=postgres"; }
q() { local n=$1; shift; psql -X -q -At -v ON_ERROR_STOP=1 -h "${sock[$n]}" -p "${port[$n]}" -U postgres -d postgres "$@"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for n in S A B; do q "$n" -c "CREATE EXTENSION pgbenchx" || pgx_die "CREATE EXTENSION failed on $n"; done
pgx_log "pgbench_init($SCALE) on S"
q S -c "SET client_min_messages = warning" -c "SELECT pgbench_init($SCALE)" >/dev/null || pgx_die "pgbench_init failed"

echo "machine: $(nproc) cores, kernel $(uname -r), cpu: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "server: $(q S -c 'SELECT version()')"
echo "pgbenchx: $(git -C "$PGX_ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "plan: select-only, SCALE=$SCALE, DURATION=$DURATION s, PAIRS=$PAIRS, JOBS=$JOBS per generator, clients [$CLIENTS], ladder [$LADDER]"
echo

# coord_cpu PID: follows a coordinator until it exits, prints its CPU s
coord_cpu() {
	local pid=$1 last=0 t
	while t=$(awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$pid/stat" 2>/dev/null); do
		last=$t
		sleep 0.1
	done
	echo "$last"
}
pgbench_tps() {
	local out=$base/pgbench.out
	pgbench -h "${sock[S]}" -p "${port[S]}" -U postgres -n -S -c "$1" -j "$2" -T "$DURATION" postgres >"$out" 2>&1 ||
		{ cat "$out" >&2; pgx_die "pgbench failed"; }
	sed -n 's/^tps = \([0-9.]*\) (without initial connection time)$/\1/p' "$out"
}
# pgbenchx_run C EXTRA: a run of C clients recorded on A; prints "tps coordinator_cpu_s"
pgbenchx_run() {
	local id pid cpu row
	id=$(q A -c "SET client_min_messages = warning" -c "SELECT run_bench($1, $DURATION, 'select-only', jobs => $JOBS,
	            vacuum => false, checkpoint => false, conninfo => '$(ci S)' $2)") || pgx_die "run_bench failed"
	pid=$(q A -c "SELECT coordinator_pid FROM pgbenchx.runs WHERE run_id = $id")
	cpu=$(coord_cpu "$pid")
	q A -c "SET client_min_messages = warning" -c "CALL pgbenchx.wait($id)" >/dev/null || pgx_die "wait($id) failed"
	row=$(q A -F ' ' -c "SELECT status, tps FROM pgbenchx.runs WHERE run_id = $id")
	set -- $row
	[ "$1" = completed ] || pgx_die "run $id ended $row"
	echo "$2 $cpu"
}

one=", generators => ARRAY['$(ci A)']"
two=", generators => ARRAY['$(ci A)', '$(ci B)']"
summary=()
for c in $CLIENTS; do
	echo "== part 1: select-only, $c clients, $DURATION s"
	printf '%5s %10s %10s %10s %10s %8s %8s %8s %9s %9s %9s\n' \
		pair pgbench plain one two two/one one/plain plain/pgb cpu_plain cpu_one cpu_two
	r21=() r1p=() rpg=() t_s=() t_p=() t_1=() t_2=() c_p=() c_1=() c_2=()
	for pair in $(seq 1 "$PAIRS"); do
		order=(pgbench plain one two)
		k=$(( (pair - 1) % 4 ))
		order=("${order[@]:$k}" "${order[@]:0:$k}")
		for what in "${order[@]}"; do
			q S -c CHECKPOINT
			case $what in
				pgbench) st=$(pgbench_tps "$c" "$((JOBS < c ? JOBS : c))") ;;
				plain) read -r pl cp <<<"$(pgbenchx_run "$c" "")" ;;
				one) read -r o1 c1 <<<"$(pgbenchx_run "$c" "$one")" ;;
				two) read -r o2 c2 <<<"$(pgbenchx_run "$c" "$two")" ;;
			esac
		done
		a=$(awk -v x="$o2" -v y="$o1" 'BEGIN { printf "%.4f", x / y }')
		b=$(awk -v x="$o1" -v y="$pl" 'BEGIN { printf "%.4f", x / y }')
		d=$(awk -v x="$pl" -v y="$st" 'BEGIN { printf "%.4f", x / y }')
		r21+=("$a") r1p+=("$b") rpg+=("$d") t_s+=("$st") t_p+=("$pl") t_1+=("$o1") t_2+=("$o2") c_p+=("$cp") c_1+=("$c1") c_2+=("$c2")
		printf '%5s %10.0f %10.0f %10.0f %10.0f %8s %8s %8s %9s %9s %9s\n' "$pair" "$st" "$pl" "$o1" "$o2" "$a" "$b" "$d" "$cp" "$c1" "$c2"
	done
	med() { printf '%s\n' "$@" | median; }
	printf '%5s %10.0f %10.0f %10.0f %10.0f %8s %8s %8s %9s %9s %9s\n\n' median "$(med "${t_s[@]}")" "$(med "${t_p[@]}")" \
		"$(med "${t_1[@]}")" "$(med "${t_2[@]}")" "$(med "${r21[@]}")" "$(med "${r1p[@]}")" "$(med "${rpg[@]}")" \
		"$(med "${c_p[@]}")" "$(med "${c_1[@]}")" "$(med "${c_2[@]}")"
	share=$(awk -v a="$(med "${c_2[@]}")" -v n="$(nproc)" -v t="$DURATION" \
		'BEGIN { printf "%.2f", a / (n * t) * 100 }')
	summary+=("$(printf '%7s %10s %10s %10s %18s%%' "$c" "$(med "${r21[@]}")" "$(med "${r1p[@]}")" "$(med "${rpg[@]}")" "$share")")
done
echo "== part 1 summary: medians of per-pair ratios over $PAIRS pairs; merge_cpu_share: the CPU time of the recorder's coordinator (which reads and merges the parts' rows) in a run with two generators, as a share of the machine's CPU time over the run"
printf '%7s %10s %10s %10s %19s\n' clients two/one one/plain plain/pgb merge_cpu_share
printf '%s\n' "${summary[@]}"
echo

if [ -n "$LADDER" ]; then
	echo "== part 2: what one generator with one driver (jobs => 1) drives: select-only sweep, $DURATION s per step"
	ladder=$(echo "$LADDER" | tr ' ' ',')
	id=$(q A -c "SET client_min_messages = warning" -c "SELECT run_sweep(ARRAY[$ladder], $DURATION, 'select-only', jobs => 1,
	            vacuum => false, checkpoint => false, conninfo => '$(ci S)', generators => ARRAY['$(ci A)'])") || pgx_die "run_sweep failed"
	q A -c "SET client_min_messages = warning" -c "CALL pgbenchx.wait($id)" >/dev/null || pgx_die "wait($id) failed"
	printf '%7s %10s %14s %16s\n' clients tps driver_core cpu_ms_per_1000tx
	q A -F ' ' -c "SELECT clients, round(tps::numeric, 0), round((driver_cpu_s / bench_duration_s)::numeric, 3),
	                      round((1000000 * driver_cpu_s / nullif(transactions, 0))::numeric, 1)
	               FROM pgbenchx.runs WHERE sweep_id = $id ORDER BY clients" |
		while read -r c t s m; do printf '%7s %10s %14s %16s\n' "$c" "$t" "$s" "$m"; done
fi
