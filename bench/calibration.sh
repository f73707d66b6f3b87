#!/bin/bash
# bench/calibration.sh: do pgbenchx's intervals and tests keep their word on
# this machine?  Real runs, side by side with test/unit/test_ci_sim.c and
# test/unit/test_ci.c, which check the same methods on a simulated benchmark
# whose truth is known (issue 35).
#
# Three measurements on one throwaway cluster:
#   A/A sweeps       AA_SWEEPS comparisons of 2 and 2 sweeps of the same
#                    script in ABBA order (compare(bigint[], bigint[]), each
#                    sweep one observation): how many are significant.  The
#                    simulation's figure: "2 and 2 interleaved sweeps, phi
#                    0.5, B/A 1.0".
#   A/A experiments  AA_EXPERIMENTS run_experiment of two identical
#                    configurations, 4 ABBA pairs each (the paired t on log
#                    tps): how many are significant.  The simulation's
#                    figure: "experiment, 4 ABBA pairs, phi 0.5, B/A 1.0".
#   one run          LONG_RUNS runs of LONG s (select-only, 1 client): each
#                    run is cut into windows of 120 s, the shortest that has
#                    an interval of its own (pgbenchx.ci_seconds over the
#                    window's seconds), and a window's interval "covers"
#                    when it holds the mean of the whole run's seconds.
#                    The whole run's mean is itself noisy, so on a
#                    stationary machine this is a little under 95% (about
#                    93% for 5 windows); drift or a checkpoint within the
#                    run lowers it, as it would in the simulation.  Also
#                    the lag-1 autocorrelation of the seconds, the phi the
#                    simulation is run at.
#
#   bench/calibration.sh                                      # defaults, about 30 min
#   AA_SWEEPS=10 AA_EXPERIMENTS=10 LONG_RUNS=1 LONG=600 bench/calibration.sh   # about 15 min
#
# Settings (environment): AA_SWEEPS=20, AA_EXPERIMENTS=20, AA_TRANSACTIONS=40
# (per run, of \sleep 10 ms; sleeps are cheap and steady), LONG_RUNS=2,
# LONG=600, PGX_DESTDIR, PGX_WORKDIR, PGX_PORT (as in engine_bench.sh).
# Run as root on Debian 12 (the cluster runs as postgres).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

AA_SWEEPS=${AA_SWEEPS:-20}
AA_EXPERIMENTS=${AA_EXPERIMENTS:-20}
AA_TRANSACTIONS=${AA_TRANSACTIONS:-40}
LONG_RUNS=${LONG_RUNS:-2}
LONG=${LONG:-600}
for v in AA_SWEEPS AA_EXPERIMENTS AA_TRANSACTIONS LONG_RUNS LONG; do
	[[ ${!v} =~ ^[0-9]+$ ]] || pgx_die "$v must be a whole number, not '${!v}'"
done
[ "$LONG_RUNS" = 0 ] || [ "$LONG" -ge 240 ] || pgx_die "LONG must be at least 240 (two windows of 120 s), not $LONG"

# the simulation's figures, from the unit tests built here
make -s -C "$PGX_ROOT/test/unit" test_ci_sim test_ci >/dev/null || pgx_die "building test/unit failed"
sim=$("$PGX_ROOT/test/unit/test_ci_sim" || true)
sim_ci=$("$PGX_ROOT/test/unit/test_ci" || true)
sim_fig() { grep -F "$1" <<<"$2" | grep -F "$3" | head -1 | sed -E 's/.* ([0-9.]+%)$/\1/'; }
# aa_line WHAT SIGNIFICANT OF SIMULATION-ROW: one A/A line beside the simulation's rate
aa_line() {
	[ "$3" = 0 ] && return 0
	printf '%-44s %3d of %3d significant (%5.1f%%); simulation %s\n' "$1" "$2" "$3" \
		"$(awk -v s="$2" -v n="$3" 'BEGIN { print 100 * s / n }')" "$(sim_fig "$4" "$sim" 'A/A significant')"
}

pgx_bench_cluster 1 "max_wal_size = 4GB" "checkpoint_timeout = 30min"

q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
qw() { q -c "SET client_min_messages = warning" -c "$1"; }

echo "machine: $(nproc) cores, kernel $(uname -r), cpu: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "server: $(q -c 'SELECT version()')"
echo "commit: $(git -C "$PGX_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
qw "SELECT pgbenchx.add_script('sleep10', \$s\$\\sleep 10 ms
SELECT 1;
\$s\$)" >/dev/null

# --- A/A sweeps --------------------------------------------------------------
sig=0
for ((i = 1; i <= AA_SWEEPS; i++)); do
	a=() b=()
	for side in A B B A; do
		id=$(qw "SELECT run_sweep(ARRAY[1], NULL, 'sleep10', transactions => $AA_TRANSACTIONS,
		                          vacuum => false, checkpoint => false, record_system => false)")
		qw "CALL pgbenchx.wait($id)" >/dev/null
		if [ $side = A ]; then a+=("$id"); else b+=("$id"); fi
	done
	s=$(q -c "SELECT coalesce(significant::text, 'none') FROM pgbenchx.compare(ARRAY[${a[0]}, ${a[1]}], ARRAY[${b[0]}, ${b[1]}])")
	[ "$s" = true ] && sig=$((sig + 1))
done
aa_line "A/A, 2 and 2 interleaved sweeps:" "$sig" "$AA_SWEEPS" '2 and 2 interleaved sweeps, phi 0.5, B/A 1.0'

# --- A/A experiments -----------------------------------------------------------
sig=0
for ((i = 1; i <= AA_EXPERIMENTS; i++)); do
	id=$(qw "SELECT run_experiment('[{\"name\": \"A\"}, {\"name\": \"B\"}]', 1, 1, transactions => $AA_TRANSACTIONS,
	                               repeats => 4, warmup => 0, script => 'sleep10', vacuum => false,
	                               checkpoint => false, record_system => false)")
	qw "CALL pgbenchx.wait($id)" >/dev/null
	s=$(q -c "SELECT coalesce(significant::text, 'none') FROM pgbenchx.experiment_report($id) WHERE config = 2")
	[ "$s" = true ] && sig=$((sig + 1))
done
aa_line "A/A, experiments of 4 ABBA pairs:" "$sig" "$AA_EXPERIMENTS" 'experiment, 4 ABBA pairs, phi 0.5, B/A 1.0'

# --- one run's own interval ----------------------------------------------------
for ((i = 1; i <= LONG_RUNS; i++)); do
	id=$(qw "SELECT run_bench(1, $LONG, 'select-only', record_system => false)")
	qw "CALL pgbenchx.wait($id)" >/dev/null
	q -v id="$id" <<'EOF'
WITH s AS (
    SELECT second, tps, (row_number() OVER (ORDER BY second) - 1) / 120 AS w
    FROM pgbenchx.samples WHERE run_id = :id),
whole AS (SELECT avg(tps) AS mean, count(*) AS n, max(w) AS last FROM s),
lag AS (
    SELECT corr(tps, prev) AS phi
    FROM (SELECT tps, lag(tps) OVER (ORDER BY second) AS prev FROM s) x),
win AS (
    SELECT s.w, pgbenchx.ci_seconds(array_agg(s.tps ORDER BY s.second)) AS c
    FROM s, whole WHERE s.w < whole.n / 120
    GROUP BY s.w)
SELECT format('one run of %s s (run %s, %s tps, lag-1 autocorrelation of its seconds %s): %s of %s windows of 120 s cover its mean, %s have no interval',
              whole.n, :id, round(whole.mean::numeric, 1), round(lag.phi::numeric, 2),
              count(*) FILTER (WHERE (win.c).low <= whole.mean AND whole.mean <= (win.c).high),
              count(*) FILTER (WHERE (win.c).low IS NOT NULL),
              count(*) FILTER (WHERE (win.c).low IS NULL))
FROM win, whole, lag
GROUP BY whole.n, whole.mean, lag.phi;
EOF
done
[ "$LONG_RUNS" = 0 ] || {
	echo "simulation (test_ci.c, 4000 runs each, the interval's coverage of the truth):"
	grep -E 'one run, AR\(1\) phi' <<<"$sim_ci" | sed 's/^/  /'
}
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
