#!/bin/bash
# bench/soak.sh: a soak of repeated sweeps (not in CI).  For SOAK_MINUTES it
# runs tpcb-like sweeps back to back on a throwaway cluster:
#   run_sweep(SWEEP_CLIENTS, SWEEP_DURATION, 'tpcb-like', jobs => JOBS,
#             checkpoint => false, check_tpcb => true, repeats => REPEATS)
# and every SAMPLE_SECONDS, during a run of the largest client count with all
# its clients connected (so that samples compare alike), samples the memory
# (Rss, and USS = Private_Clean + Private_Dirty, from /proc/<pid>/smaps_rollup)
# and the open file descriptors (/proc/<pid>/fd) of the coordinator, the
# drivers and the client backends (averaged over the processes of each kind;
# relation files kept open by PostgreSQL's own file cache counted apart),
# of the postmaster, and the number of DSM segments in /dev/shm.  It prints a
# table over time and a verdict: a kind of process whose USS grew by more than
# TOL_PCT percent and more than TOL_KB kB from the first sample to the last, or
# whose fd count grew by more than TOL_FD, is reported as growing; so is a
# growing number of DSM segments.  Every run must end completed with
# tpcb_consistent = true.
#
# The coordinator lives one sweep, the drivers and client backends one run,
# the postmaster the whole soak: a leak in a run's processes shows as each new
# one starting bigger (state carried over in shared memory or the
# postmaster), or as growth within a sweep's coordinator; a leak across runs
# shows in the postmaster and the DSM segment count.
#
#   bench/soak.sh                                     # 30 minutes
#   SOAK_MINUTES=5 PGX_DESTDIR=/tmp/x/inst bench/soak.sh
#
# Settings (environment):
#   SOAK_MINUTES=30  SAMPLE_SECONDS=60  SCALE=1
#   SWEEP_CLIENTS='{4,16,64}'  SWEEP_DURATION=3  REPEATS=5  JOBS=2
#   TOL_PCT=10  TOL_KB=1024  TOL_FD=2
#   PGX_DESTDIR, PGX_WORKDIR, PGX_PORT   as for bench/engine_bench.sh
# Run as root on Debian 12 (the cluster runs as postgres).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

SOAK_MINUTES=${SOAK_MINUTES:-30}
SAMPLE_SECONDS=${SAMPLE_SECONDS:-60}
SCALE=${SCALE:-1}
SWEEP_CLIENTS=${SWEEP_CLIENTS:-'{4,16,64}'}
SWEEP_DURATION=${SWEEP_DURATION:-3}
REPEATS=${REPEATS:-5}
JOBS=${JOBS:-2}
TOL_PCT=${TOL_PCT:-10}
TOL_KB=${TOL_KB:-1024}
TOL_FD=${TOL_FD:-2}

for v in SOAK_MINUTES SAMPLE_SECONDS SCALE SWEEP_DURATION REPEATS JOBS TOL_PCT TOL_KB TOL_FD; do
	[[ ${!v} =~ ^[0-9]+$ ]] || pgx_die "$v must be a whole number, not '${!v}'"
done
[[ $SWEEP_CLIENTS =~ ^\{[0-9]+(,[0-9]+)*\}$ ]] || pgx_die "SWEEP_CLIENTS must look like '{4,16,64}'"
[ "$SOAK_MINUTES" -ge 1 ] && [ "$SAMPLE_SECONDS" -ge 5 ] || pgx_die "SOAK_MINUTES >= 1 and SAMPLE_SECONDS >= 5, please"

cluster_settings=(
	"max_connections = 200"
	"max_worker_processes = 16"
	"shared_buffers = 256MB"
	"max_wal_size = 4GB"
	"log_min_messages = warning"
)

loop_pid=
bench_cleanup() {
	if [ -n "$loop_pid" ] && kill "$loop_pid" 2>/dev/null; then wait "$loop_pid" 2>/dev/null || true; fi
}
pgx_bench_cluster "$SCALE" "${cluster_settings[@]}"

q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

echo "soak: $SOAK_MINUTES min, a sample every $SAMPLE_SECONDS s; sweeps run_sweep('$SWEEP_CLIENTS', $SWEEP_DURATION, 'tpcb-like', jobs => $JOBS, checkpoint => false, check_tpcb => true, repeats => $REPEATS), back to back"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) memory, kernel $(uname -r); server: $(q -c 'SHOW server_version')"
echo "cluster settings: ${cluster_settings[*]}; scale $SCALE"
echo

start=$(date +%s)
end=$((start + SOAK_MINUTES * 60))

# the sweeps, back to back, until the end
(
	while [ "$(date +%s)" -lt "$end" ]; do
		id=$(q -c "SELECT run_sweep('$SWEEP_CLIENTS'::int[], $SWEEP_DURATION, 'tpcb-like', jobs => $JOBS, checkpoint => false, check_tpcb => true, repeats => $REPEATS)") || exit 1
		q -c "SET client_min_messages = warning" -c "CALL pgbenchx.wait($id)" || exit 1
	done
) &
loop_pid=$!

# mem_fd PID...: "rss_kB uss_kB fds n relfiles", averaged over the pids
# still there.  fds leaves out the relation files under the data directory
# (base/, global/): PostgreSQL's own file cache keeps those open, grows as a
# process first touches more tables and indexes, and is bounded by
# max_files_per_process; relfiles counts them apart.
mem_fd() {
	local pid files=() fdds=() m f n rss uss fds rel
	for pid in "$@"; do files+=("/proc/$pid/smaps_rollup"); fdds+=("/proc/$pid/fd"); done
	[ "$#" -gt 0 ] || { echo "- - - 0 -"; return; }
	# one pass per kind: the run must not end while its processes are read
	m=$(cat "${files[@]}" 2>/dev/null |
		awk '/^Rss:/ { n++; r += $2 } /^Private_(Clean|Dirty):/ { u += $2 } END { print n + 0, r + 0, u + 0 }')
	f=$(find "${fdds[@]}" -mindepth 1 -maxdepth 1 -printf '%l\n' 2>/dev/null |
		awk -v d="$dir/data/" '{ if (index($0, d "base/") == 1 || index($0, d "global/") == 1) l++; else f++ } END { print f + 0, l + 0 }')
	read -r n rss uss <<<"$m"
	read -r fds rel <<<"$f"
	if [ "$n" -eq 0 ]; then echo "- - - 0 -"; else echo "$((rss / n)) $((uss / n)) $((fds / n)) $n $((rel / n))"; fi
}

pids_of() { q -c "SELECT string_agg(pid::text, ' ') FROM pg_stat_activity WHERE $1"; }

samples=$dir/samples.txt
: >"$samples"
printf '%-4s %5s | %-19s | %-20s | %-23s | %-16s | %s\n' \
	min runs "coordinator" "drivers (avg, n)" "client backends (avg)" "postmaster" dsm
printf '%-4s %5s | %-19s | %-20s | %-23s | %-16s | %s\n' \
	"" "" "rss uss fd relf" "rss uss fd n" "rss uss fd relf n" "rss uss fd" segs
echo "(kB; fd: open descriptors other than relation files; relf: relation files in PostgreSQL's file cache)"
postmaster=$(head -1 "$dir/data/postmaster.pid")
max_clients=$(tr -d '{}' <<<"$SWEEP_CLIENTS" | tr ',' '\n' | sort -n | tail -1)
max_jobs=$((JOBS < max_clients ? JOBS : max_clients))
while :; do
	sleep "$SAMPLE_SECONDS"
	minute=$(awk -v s="$(($(date +%s) - start))" 'BEGIN { printf "%.1f", s / 60 }')
	kill -0 "$loop_pid" 2>/dev/null || break
	# sample comparable moments: early in the measured interval of a run of
	# the sweep's largest client count, all its clients connected (a driver
	# holds a socket per client), not as the run ends
	for _ in $(seq 1 600); do
		[ "$(q -c "SELECT count(*) FROM pgbenchx.progress p WHERE p.clients = $max_clients AND p.seconds_sampled >= 1 AND p.elapsed_s < $SWEEP_DURATION - 1 AND (SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx client %') = $max_clients")" = 1 ] && break
		sleep 0.05
	done
	co=$(mem_fd $(pids_of "backend_type = 'pgbenchx coordinator'"))
	dr=$(mem_fd $(pids_of "backend_type = 'pgbenchx driver'"))
	cl=$(mem_fd $(pids_of "application_name LIKE 'pgbenchx client %'"))
	pm=$(mem_fd "$postmaster")
	dsm=$(ls /dev/shm 2>/dev/null | grep -c '^PostgreSQL\.' || true)
	runs=$(q -c "SELECT count(*) FROM pgbenchx.runs WHERE status <> 'running'")
	echo "$minute $runs $co $dr $cl $pm $dsm" >>"$samples"
	read -r c1 c2 c3 _ c5 <<<"$co"; read -r d1 d2 d3 d4 _ <<<"$dr"; read -r k1 k2 k3 k4 k5 <<<"$cl"; read -r p1 p2 p3 _ _ <<<"$pm"
	printf '%-4s %5s | %-19s | %-20s | %-23s | %-16s | %s\n' "$minute" "$runs" \
		"$c1 $c2 $c3 $c5" "$d1 $d2 $d3 $d4" "$k1 $k2 $k3 $k5 $k4" "$p1 $p2 $p3" "$dsm"
	[ "$(date +%s)" -ge "$end" ] && break
done
wait "$loop_pid" || pgx_die "a sweep failed to start or to be waited for"
loop_pid=

echo
summary=$(q -F ' ' -c "SELECT count(*), count(*) FILTER (WHERE status = 'completed'), count(*) FILTER (WHERE tpcb_consistent), sum(transactions), (SELECT count(*) FROM pgbenchx.sweeps) FROM pgbenchx.runs")
read -r nruns ncompleted nconsistent ntx nsweeps <<<"$summary"
echo "sweeps: $nsweeps, runs: $nruns, completed: $ncompleted, tpcb_consistent: $nconsistent, transactions: $ntx"
left=$(q -c "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'pgbenchx%' OR backend_type IN ('pgbenchx driver', 'pgbenchx coordinator')")
echo "pgbenchx processes left after the last sweep: $left"

# verdict: first sample against the last, per kind
verdict=ok
check() { # name first_uss last_uss first_fd last_fd
	local name=$1 u0=$2 u1=$3 f0=$4 f1=$5 grow pct
	if [ "$u0" = - ] || [ "$u1" = - ]; then
		echo "  $name: not sampled at both ends"
		return
	fi
	grow=$((u1 - u0))
	pct=$(awk -v a="$u0" -v b="$u1" 'BEGIN { printf "%.1f", (a > 0) ? (b - a) * 100 / a : 0 }')
	if [ "$grow" -gt "$TOL_KB" ] && awk -v p="$pct" -v t="$TOL_PCT" 'BEGIN { exit !(p > t) }'; then
		echo "  $name: USS $u0 -> $u1 kB ($pct%): GROWTH"; verdict=growth
	else
		echo "  $name: USS $u0 -> $u1 kB ($pct%): steady"
	fi
	if [ "$((f1 - f0))" -gt "$TOL_FD" ]; then
		echo "  $name: fds $f0 -> $f1: LEAK"; verdict=growth
	else
		echo "  $name: fds $f0 -> $f1: steady"
	fi
}
# only complete samples are compared: every client and driver was read
awk -v c="$max_clients" -v j="$max_jobs" '$16 == c && $11 == j' "$samples" >"$samples.ok"
nsamples=$(wc -l <"$samples.ok")
echo "complete samples (all $max_clients clients and $max_jobs drivers read): $nsamples of $(wc -l <"$samples")"
if [ "$nsamples" -lt 2 ]; then
	echo "verdict: too few complete samples ($nsamples)"
	exit 1
fi
read -r -a a <"$samples.ok"
read -r -a b < <(tail -n 1 "$samples.ok")
# fields: 0 min, 1 runs, then rss uss fd n relf for 2-6 coordinator,
# 7-11 drivers, 12-16 clients, 17-21 postmaster; 22 dsm
echo "first sample (minute ${a[0]}) against the last (minute ${b[0]}); tolerance: USS +$TOL_PCT% and +$TOL_KB kB, fds +$TOL_FD"
check coordinator "${a[3]}" "${b[3]}" "${a[4]}" "${b[4]}"
check "drivers (avg)" "${a[8]}" "${b[8]}" "${a[9]}" "${b[9]}"
check "client backends (avg)" "${a[13]}" "${b[13]}" "${a[14]}" "${b[14]}"
check postmaster "${a[18]}" "${b[18]}" "${a[19]}" "${b[19]}"
if [ "${b[22]}" -gt "$((a[22] + 2))" ]; then
	echo "  DSM segments: ${a[22]} -> ${b[22]}: LEAK"; verdict=growth
else
	echo "  DSM segments: ${a[22]} -> ${b[22]}: steady"
fi
[ "$ncompleted" = "$nruns" ] && [ "$nconsistent" = "$nruns" ] && [ "$left" = 0 ] || verdict=failed
echo "verdict: $verdict ($SOAK_MINUTES min)"
[ "$verdict" = ok ]
