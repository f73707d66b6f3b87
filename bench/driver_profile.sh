#!/bin/bash
# bench/driver_profile.sh: where the generator's CPU per statement goes,
# pgbenchx's drivers against stock pgbench at the same point (issue 25's
# profile).  Alternating rounds on one throwaway cluster: in each, a run of
# pgbench and a run of pgbenchx (the order reversed every other round), and
# over PERF_SECONDS in the middle of each run `perf record` (flat, cpu-clock
# samples: this machine has no hardware PMU) and `perf stat` (task-clock,
# context switches, system calls, sendto and recvfrom calls) of pgbench's
# process / of the drivers (pg_stat_activity's backend_type 'pgbenchx
# driver').  Both programs send each statement with exactly one sendto, so
# figures are per statement sent: microseconds of CPU by shared object and by
# symbol, the mean over rounds.  Counting system calls enables the kernel's
# syscall tracepoints, which put every system call through a slower path:
# that and the sampling's interrupt ("perf's own") are printed apart, since
# they weigh on the side with more system calls per statement (pgbench reads
# twice per statement, the drivers once).
#
#   bench/driver_profile.sh                          # 1 client, about 1 min
#   CLIENTS=4 JOBS=2 ROUNDS=5 bench/driver_profile.sh
#
# Settings (environment):
#   CLIENTS=1 JOBS=1 ROUNDS=3 DURATION=6 PERF_SECONDS=3 SCALE=10 FREQ=4000
#   SCRIPT=select-only (or tpcb-like)   PROTOCOL=prepared (simple, extended)
#   TOP=40 (symbols listed)   KEEP=DIR (keep the perf data files there)
#   PGX_DESTDIR, PGX_WORKDIR, PGX_PORT   as for engine_bench.sh
# Run as root on Debian 12 (perf from linux-perf, installed if missing).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

CLIENTS=${CLIENTS:-1}
JOBS=${JOBS:-1}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-6}
PERF_SECONDS=${PERF_SECONDS:-3}
SCALE=${SCALE:-10}
FREQ=${FREQ:-4000}
TOP=${TOP:-40}
SCRIPT=${SCRIPT:-select-only}
PROTOCOL=${PROTOCOL:-prepared}
KEEP=${KEEP:-}

for v in CLIENTS JOBS ROUNDS DURATION PERF_SECONDS SCALE FREQ TOP; do
	[[ ${!v} =~ ^[0-9]+$ ]] && [ "${!v}" -ge 1 ] || pgx_die "$v must be a whole number >= 1, not '${!v}'"
done
[ "$JOBS" -le "$CLIENTS" ] || pgx_die "JOBS must not exceed CLIENTS"
[ "$DURATION" -ge $((PERF_SECONDS + 2)) ] || pgx_die "DURATION must exceed PERF_SECONDS by 2 s at least"
case $SCRIPT in select-only | tpcb-like) ;; *) pgx_die "SCRIPT: select-only or tpcb-like, not '$SCRIPT'" ;; esac
case $PROTOCOL in simple | extended | prepared) ;; *) pgx_die "PROTOCOL: simple, extended or prepared, not '$PROTOCOL'" ;; esac
command -v perf >/dev/null || pgx_ensure_packages linux-perf
pgx_ensure_packages python3

work=$(mktemp -d /tmp/pgbenchx-profile.XXXXXX)
bench_cleanup() {
	[ -n "${bg:-}" ] && kill "$bg" 2>/dev/null && wait "$bg" 2>/dev/null
	if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && cp "$work"/* "$KEEP"/ 2>/dev/null; fi
	rm -rf "$work"
	return 0
}
pgx_bench_cluster "$SCALE" "max_connections = $((CLIENTS * 2 + 20))" "max_worker_processes = $((JOBS + 12))" \
	"shared_buffers = 512MB" "max_wal_size = 8GB" "checkpoint_timeout = 30min"
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
git_rev=$(git -C "$PGX_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$PGX_ROOT" diff --quiet HEAD 2>/dev/null || git_rev="$git_rev+changes"

# profile NAME PIDS: perf record and perf stat of PIDS (comma-separated)
profile() {
	perf record -q -F "$FREQ" -p "$2" -o "$work/$1.data" -- sleep "$PERF_SECONDS" >/dev/null 2>&1 &
	local rec=$!
	perf stat -x, -e task-clock,context-switches,raw_syscalls:sys_enter,syscalls:sys_enter_sendto,syscalls:sys_enter_recvfrom -p "$2" \
		-o "$work/$1.stat" -- sleep "$PERF_SECONDS" >/dev/null 2>&1
	wait "$rec"
	perf report -i "$work/$1.data" --stdio --no-children --sort dso,sym -q -g none \
		--percent-limit 0 2>/dev/null >"$work/$1.report"
}

# in the middle of a run: wait until it is half a second old and more
settle() { sleep $(((DURATION - PERF_SECONDS) / 2)); }

pgbench_round() {
	local sflag=(-b tpcb-like)
	[ "$SCRIPT" = select-only ] && sflag=(-S)
	setsid "$PGX_BINDIR/pgbench" -n -c "$CLIENTS" -j "$JOBS" -T "$DURATION" -M "$PROTOCOL" "${sflag[@]}" \
		>"$work/$1.out" 2>&1 &
	bg=$!
	settle
	[ "$(cat "/proc/$bg/comm" 2>/dev/null)" = pgbench ] || pgx_die "pgbench is not running as $bg"
	profile "$1" "$bg"
	wait "$bg" || { cat "$work/$1.out" >&2; pgx_die "pgbench failed"; }
	bg=
}

pgbenchx_round() {
	local id pids="" n=0
	id=$(q -c "SET client_min_messages = warning" \
		-c "SELECT run_bench($CLIENTS, $DURATION, '$SCRIPT', jobs => $JOBS, protocol => '$PROTOCOL', vacuum => false, checkpoint => false)")
	settle
	pids=$(q -c "SELECT string_agg(pid::text, ',') FROM pg_stat_activity WHERE backend_type = 'pgbenchx driver'")
	n=$(tr ',' '\n' <<<"$pids" | grep -c . || true)
	[ "$n" = "$JOBS" ] || pgx_die "run $id: $n drivers found, not $JOBS"
	profile "$1" "$pids"
	q -c "SET client_min_messages = warning" -c "CALL pgbenchx.wait($id)" >/dev/null
	[ "$(q -c "SELECT status FROM pgbenchx.runs WHERE run_id = $id")" = completed ] || pgx_die "run $id did not complete"
}

pgx_log "$ROUNDS rounds of pgbench and pgbenchx ($git_rev), $CLIENTS clients, $JOBS jobs, $SCRIPT $PROTOCOL, ${DURATION} s"
for r in $(seq 1 "$ROUNDS"); do
	sides="s x"
	[ $((r % 2)) = 0 ] && sides="x s"
	for side in $sides; do
		q -c CHECKPOINT
		case $side in
			s) pgbench_round "s$r" ;;
			x) pgbenchx_round "x$r" ;;
		esac
	done
done

echo "# issue 25: the generator's CPU per statement, pgbench (s) against pgbenchx's drivers (x)"
echo "# $(q -c 'SELECT version()' | cut -d, -f1), scale $SCALE, $CLIENTS clients, $JOBS jobs, $SCRIPT, -M $PROTOCOL, Unix socket"
echo "# pgbenchx $git_rev; pgbench $PGX_BINDIR/pgbench; $ROUNDS alternating rounds of ${DURATION} s, perf over ${PERF_SECONDS} s of each"
echo "# perf record -F $FREQ (cpu-clock), perf stat; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
python3 - "$work" "$ROUNDS" "$TOP" <<'EOF'
import collections, os, re, sys
work, rounds, top = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def stat(name):
    v = {}
    for line in open(os.path.join(work, name + ".stat")):
        f = line.strip().split(",")
        if len(f) > 2 and f[0] and not line.startswith("#"):
            try:
                v[f[2]] = float(f[0])
            except ValueError:
                pass
    return v
def report(name):
    rows = []
    for line in open(os.path.join(work, name + ".report")):
        m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*\S)", line)
        if m:
            rows.append((float(m.group(1)) / 100, m.group(2), m.group(3)))
    return rows
# perf's own cost in the kernel: any syscall tracepoint (the statement count)
# sends every system call of every task through the tracing path, and the
# sampling has its own interrupt; neither is the program's
own = re.compile(r"^(perf_|__perf_|__traceiter_|trace_|tracing_|syscall_trace_enter|syscall_exit_work|rcu_read_unlock_trace)")
dso = {"s": collections.Counter(), "x": collections.Counter()}
perf_own = {"s": 0.0, "x": 0.0}
sym = {"s": collections.Counter(), "x": collections.Counter()}
for side in "sx":
    for r in range(1, rounds + 1):
        name = "%s%d" % (side, r)
        st = stat(name)
        stmts = st.get("syscalls:sys_enter_sendto", 0)
        cpu_us = st.get("task-clock", 0) * 1000 / stmts if stmts else 0   # task-clock is in ms
        sw = st.get("context-switches", 0) / stmts if stmts else 0
        sc = st.get("raw_syscalls:sys_enter", 0) / stmts if stmts else 0
        rc = st.get("syscalls:sys_enter_recvfrom", 0) / stmts if stmts else 0
        print("%s: cpu %.2f us/stmt, switches %.3f/stmt, syscalls %.3f/stmt (recvfrom %.3f), %d statements"
              % (name, cpu_us, sw, sc, rc, stmts))
        mine = 0.0
        for frac, d, s in report(name):
            dso[side][d] += frac * cpu_us / rounds
            sym[side][(d, s)] += frac * cpu_us / rounds
            if d == "[kernel.kallsyms]" and own.match(s):
                mine += frac * cpu_us
        perf_own[side] += mine / rounds
        print("    %.2f us/stmt without perf's own %.2f" % (cpu_us - mine, mine))
print("by shared object (us/stmt)   s      x")
for d in sorted(set(dso["s"]) | set(dso["x"]), key=lambda d: -(dso["s"][d] + dso["x"][d])):
    if dso["s"][d] + dso["x"][d] >= 0.005:
        print("%-28s %6.3f %6.3f" % (d, dso["s"][d], dso["x"][d]))
print("%-28s %6.3f %6.3f" % ("of which perf's own (kernel)", perf_own["s"], perf_own["x"]))
print("%-28s %6.3f %6.3f" % ("total without perf's own",
      sum(dso["s"].values()) - perf_own["s"], sum(dso["x"].values()) - perf_own["x"]))
print("top symbols (us/stmt)")
keys = sorted(set(sym["s"]) | set(sym["x"]), key=lambda k: -max(sym["s"][k], sym["x"][k]))
for d, s in keys[:top]:
    print("%-18s %-44s %6.3f %6.3f" % (d[:18], s[:44], sym["s"][(d, s)], sym["x"][(d, s)]))
EOF
