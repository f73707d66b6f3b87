#!/bin/bash
# bench/driver_ab.sh: what a change to the drivers saved (issue 25: "what
# each fix removed").  Two builds of pgbenchx, BASE (a git revision) and the
# working tree (NEW), against stock pgbench, in interleaved rounds on one
# throwaway cluster: every round runs pgbench, BASE and NEW one after the
# other at each point (the order reversed every other round), so that a
# drift of the shared machine touches the three sides alike; the ratios are
# taken within a round (paired).
#
#   bench/driver_ab.sh 7d51011                       # about 15 min
#   POINTS="1:1" ROUNDS=20 bench/driver_ab.sh HEAD~1
#
# Only pgbenchx.so differs between BASE and NEW: the extension's SQL is the
# working tree's, so BASE must have the same SQL surface (the same
# extension version and functions: a change inside the C code).  The
# library is swapped between runs by a rename in the directory the server
# loads it from; every run's coordinator and drivers are new processes, so
# each run is wholly one build's.  The working tree's library is back in
# place when the script ends, however it ends.
#
# Per run: tps, and the generator's CPU per transaction over the whole run,
# connections included: pgbench's user + sys from wait4() (in a session of
# its own, as driver_cost.sh runs it), the drivers' from
# pgbenchx.runs.driver_cpu_s.  Printed: every run, then per point and
# overall the geometric mean of NEW/BASE, BASE/pgbench and NEW/pgbench with
# a 95% interval (t over the rounds' log ratios).
#
# Settings (environment):
#   POINTS="1:1 4:1 4:4"   clients:jobs
#   ROUNDS=12   DURATION=5   SCALE=10
#   SCRIPT=select-only (or tpcb-like)   PROTOCOL=prepared (simple, extended)
#   PGX_DESTDIR, PGX_WORKDIR, PGX_PORT   as for engine_bench.sh
# Run as root on Debian 12.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

BASE=${1:?usage: bench/driver_ab.sh BASE, a git revision with the working tree SQL}
POINTS=${POINTS:-"1:1 4:1 4:4"}
ROUNDS=${ROUNDS:-12}
DURATION=${DURATION:-5}
SCALE=${SCALE:-10}
SCRIPT=${SCRIPT:-select-only}
PROTOCOL=${PROTOCOL:-prepared}

for v in ROUNDS DURATION SCALE; do
	[[ ${!v} =~ ^[0-9]+$ ]] && [ "${!v}" -ge 1 ] || pgx_die "$v must be a whole number >= 1, not '${!v}'"
done
[ "$ROUNDS" -ge 2 ] || pgx_die "ROUNDS must be at least 2 for an interval"
for pt in $POINTS; do
	[[ $pt =~ ^([0-9]+):([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge 1 ] &&
		[ "${BASH_REMATCH[2]}" -ge 1 ] && [ "${BASH_REMATCH[2]}" -le "${BASH_REMATCH[1]}" ] ||
		pgx_die "POINTS: clients:jobs with 1 <= jobs <= clients, not '$pt'"
done
case $SCRIPT in select-only | tpcb-like) ;; *) pgx_die "SCRIPT: select-only or tpcb-like, not '$SCRIPT'" ;; esac
case $PROTOCOL in simple | extended | prepared) ;; *) pgx_die "PROTOCOL: simple, extended or prepared, not '$PROTOCOL'" ;; esac
base_rev=$(git -C "$PGX_ROOT" rev-parse --verify -q "$BASE^{commit}") || pgx_die "$BASE is not a commit of $PGX_ROOT"
pgx_ensure_packages python3

# BASE's library, built from an export of that revision
build=$(mktemp -d /tmp/pgbenchx-ab.XXXXXX)
trap 'rm -rf "$build"' EXIT
git -C "$PGX_ROOT" archive "$base_rev" | tar -x -C "$build"
pgx_log "building pgbenchx at ${base_rev:0:7}"
make -C "$build" -s PGBENCHX_WERROR=1 >/dev/null || pgx_die "the build of $BASE failed"
[ "$(grep default_version "$build/pgbenchx.control")" = "$(grep default_version "$PGX_ROOT/pgbenchx.control")" ] ||
	pgx_die "$BASE's extension version is not the working tree's: only a change inside the C code can be compared"

max_clients=4
for pt in $POINTS; do [ "${pt%%:*}" -gt "$max_clients" ] && max_clients=${pt%%:*}; done
bench_cleanup() {
	# the working tree's library back in place
	[ -n "${new_so:-}" ] && [ -f "$new_so" ] && cp "$new_so" "$libdir/.pgbenchx.so.ab" &&
		mv "$libdir/.pgbenchx.so.ab" "$libdir/pgbenchx.so"
	rm -rf "$build"
}
pgx_bench_cluster "$SCALE" "max_connections = $((max_clients * 2 + 20))" "max_worker_processes = 16" \
	"shared_buffers = 512MB" "max_wal_size = 8GB" "checkpoint_timeout = 30min"

libdir=${PGX_DESTDIR:-}$("$PGX_BINDIR/pg_config" --pkglibdir)
[ -f "$libdir/pgbenchx.so" ] || pgx_die "no pgbenchx.so in $libdir"
new_so=$build/new-pgbenchx.so
cp "$libdir/pgbenchx.so" "$new_so"
base_so=$build/pgbenchx.so
use_lib() {
	cp "$1" "$libdir/.pgbenchx.so.ab"
	mv "$libdir/.pgbenchx.so.ab" "$libdir/pgbenchx.so"
}

q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# pgbench C J: "tps cpu_per_tx_us", its CPU from wait4 in a session of its
# own (pgx_cpu_of)
pgbench_side() {
	local sflag=(-b tpcb-like) tps tx counts
	[ "$SCRIPT" = select-only ] && sflag=(-S)
	pgx_cpu_of "$build/pgbench.cpu" pgbench -n -c "$1" -j "$2" -T "$DURATION" -M "$PROTOCOL" "${sflag[@]}" \
		>"$build/pgbench.out" 2>&1 || { cat "$build/pgbench.out" >&2; pgx_die "pgbench -c $1 -j $2 failed"; }
	counts=$(pgx_pgbench_counts "$build/pgbench.out") || exit 1
	read -r tps tx <<<"$counts"
	[ "$tx" -gt 0 ] || { cat "$build/pgbench.out" >&2; pgx_die "pgbench processed no transaction"; }
	awk -v tps="$tps" -v tx="$tx" '{ printf "%s %.3f\n", tps, $1 * 1e6 / tx }' "$build/pgbench.cpu"
}

# pgbenchx C J: "tps cpu_per_tx_us"
pgbenchx_side() {
	local id
	id=$(q -c "SET client_min_messages = warning" \
		-c "SELECT run_bench($1, $DURATION, '$SCRIPT', jobs => $2, protocol => '$PROTOCOL', vacuum => false, checkpoint => false)")
	q -c "SET client_min_messages = warning" -c "CALL pgbenchx.wait($id)" >/dev/null
	q -F' ' -c "SELECT tps, round((driver_cpu_s * 1e6 / transactions)::numeric, 3) FROM pgbenchx.runs
		WHERE run_id = $id AND status = 'completed' AND transactions > 0" | grep . ||
		pgx_die "run $id did not complete"
}

out=$build/rounds.txt
: >"$out"
pgx_log "$ROUNDS rounds of pgbench, ${base_rev:0:7} and the working tree at $POINTS; $SCRIPT $PROTOCOL, ${DURATION} s"
echo "round point side tps cpu_per_tx_us"
for r in $(seq 1 "$ROUNDS"); do
	for pt in $POINTS; do
		c=${pt%%:*} j=${pt##*:}
		# odd rounds pgbench, base, new; even rounds the other way round, so
		# that a side's place in the round (after a checkpoint of the
		# previous side's writes, a library just copied) is no bias
		sides="pgbench base new"
		[ $((r % 2)) = 0 ] && sides="new base pgbench"
		for side in $sides; do
			q -c CHECKPOINT
			case $side in
				pgbench) res=$(pgbench_side "$c" "$j") ;;
				base) use_lib "$base_so"; res=$(pgbenchx_side "$c" "$j") ;;
				new) use_lib "$new_so"; res=$(pgbenchx_side "$c" "$j") ;;
			esac
			echo "$r $pt $side $res" | tee -a "$out"
		done
	done
done
use_lib "$new_so"

python3 - "$out" "${base_rev:0:7}" <<'EOF'
import math, statistics, sys
T975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23,
        11: 2.20, 12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13, 16: 2.12, 17: 2.11, 18: 2.10, 19: 2.09}
rounds = {}
for line in open(sys.argv[1]):
    r, pt, side, tps, cpu = line.split()
    rounds.setdefault(pt, {}).setdefault(r, {})[side] = (float(tps), float(cpu))
def interval(logs):
    n = len(logs); m = statistics.mean(logs)
    h = T975.get(n - 1, 1.96 + 2.5 / n) * statistics.stdev(logs) / math.sqrt(n)
    return '%.3f [%.3f, %.3f]' % (math.exp(m), math.exp(m - h), math.exp(m + h))
print()
print('CPU per transaction and tps, ratios within a round (geometric mean, 95%% interval); base = %s, new = the working tree' % sys.argv[2])
every = {k: [] for k in ('cpu new/base', 'cpu base/pgbench', 'cpu new/pgbench', 'tps new/base')}
for pt, rs in rounds.items():
    rs = [x for x in rs.values() if len(x) == 3]
    logs = {
        'cpu new/base': [math.log(x['new'][1] / x['base'][1]) for x in rs],
        'cpu base/pgbench': [math.log(x['base'][1] / x['pgbench'][1]) for x in rs],
        'cpu new/pgbench': [math.log(x['new'][1] / x['pgbench'][1]) for x in rs],
        'tps new/base': [math.log(x['new'][0] / x['base'][0]) for x in rs],
    }
    print('%s clients:jobs, %d rounds: CPU/tx us pgbench %.2f, base %.2f, new %.2f' % (
        pt, len(rs), *(statistics.mean(x[s][1] for x in rs) for s in ('pgbench', 'base', 'new'))))
    for k, v in logs.items():
        print('  %-17s %s' % (k, interval(v)))
        every[k] += v
if len(rounds) > 1:
    print('every point, %d rounds:' % len(every['cpu new/base']))
    for k, v in every.items():
        print('  %-17s %s' % (k, interval(v)))
EOF
