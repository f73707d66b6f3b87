#!/bin/bash
# bench/repetitions.sh: how many repetitions a +-2% answer takes on this
# machine (issue 23 section 4), for select-only and tpcb-like at 1, 8 and 32
# clients.
#
# For each script and client count, an A/A experiment: run_experiment with
# two identical configurations, alternated A B B A, a warm-up each, REPEATS
# rounds, then target_ci => TARGET with a budget of BUDGET s: ABBA blocks are
# added until the 95% interval of the ratio B/A is within +-TARGET, or the
# budget runs out (sweeps.stopped_by says which).  Printed per point:
#   runs      counted runs per configuration when it stopped;
#   stopped   target or budget;
#   ratio     B/A with its interval (experiment_report: the paired t on
#             log tps over the ABBA pairs, at 97% since target_ci stops it);
#   cv        the runs' coefficient of variation (stddev / mean, both
#             configurations, each about its own mean);
#   run ci    the median half-width of one run's own 95% interval
#             (runs.tps_ci_low/high, from 120 s: with DURATION under 120
#             it is "-"), as a share;
#   n needed  runs per configuration a +-TARGET interval of a ratio takes
#             with that cv: the smallest n with t(2n-2) * cv * sqrt(2/n)
#             <= TARGET (equal variances, the t interval of a difference of
#             means on the log scale).
# The A/A ratio's interval should include 1 (an A/A comparison is not
# significant); "n needed" is the answer to the issue's question, and where
# the budget ran out first it is the estimate from the runs it had.
#
#   bench/repetitions.sh                                # the defaults, 15 to 40 min
#   DURATION=2 BUDGET=30 CLIENTS=8 BUILTINS=select-only bench/repetitions.sh   # a smoke run
#
# Settings (environment): SCALE=10, DURATION=20, REPEATS=2, BUDGET=300,
# TARGET=0.02, CLIENTS="1 8 32", BUILTINS="select-only tpcb-like", JOBS
# (default: pgbenchx's), PGX_DESTDIR (as in engine_bench.sh), PGX_WORKDIR,
# PGX_PORT.  Run as root on Debian 12 (the cluster runs as postgres).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

SCALE=${SCALE:-10}
DURATION=${DURATION:-20}
REPEATS=${REPEATS:-2}
BUDGET=${BUDGET:-300}
TARGET=${TARGET:-0.02}
CLIENTS=${CLIENTS-"1 8 32"}
BUILTINS=${BUILTINS-"select-only tpcb-like"}
JOBS=${JOBS:-}
for v in SCALE DURATION REPEATS BUDGET; do
	[[ ${!v} =~ ^[0-9]+$ ]] && [ "${!v}" -ge 1 ] || pgx_die "$v must be a whole number of at least 1, not '${!v}'"
done
[[ $TARGET =~ ^0?\.[0-9]+$ ]] || pgx_die "TARGET must be a share such as 0.02, not '$TARGET'"
[ -z "$JOBS" ] || [[ $JOBS =~ ^[0-9]+$ ]] || pgx_die "JOBS must be a whole number, not '$JOBS'"

cluster_settings=(
	"max_connections = 200"
	"max_worker_processes = 16"
	"shared_buffers = 1GB"
	"max_wal_size = 8GB"
	"checkpoint_timeout = 30min"
)
pgx_bench_cluster "$SCALE" "${cluster_settings[@]}"

q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }


echo "machine: $(nproc) cores, kernel $(uname -r), cpu: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "server: $(q -c 'SELECT version()')"
echo "commit: $(git -C "$PGX_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "plan: A/A experiments, SCALE=$SCALE, DURATION=$DURATION s, REPEATS=$REPEATS, TARGET=+-$TARGET, BUDGET=$BUDGET s per point, clients [$CLIENTS], scripts [$BUILTINS]"
echo

printf '%-12s %7s %5s %8s %24s %7s %7s %9s\n' script clients runs stopped 'ratio B/A [97% CI]' cv 'run ci' 'n needed'
for script in $BUILTINS; do
	for c in $CLIENTS; do
		id=$(q -c "SET client_min_messages = warning" -c "
			SELECT run_experiment('[{\"name\": \"A\"}, {\"name\": \"B\"}]', $c, $c, $DURATION,
			                      repeats => $REPEATS, warmup => 1, script => '$script',
			                      ${JOBS:+jobs => $JOBS,} target_ci => $TARGET, budget => $BUDGET,
			                      label => 'repetitions $script $c')") || pgx_die "run_experiment failed"
		q -c "SET client_min_messages = warning" -c "CALL pgbenchx.wait($id)" >/dev/null || pgx_die "experiment $id failed"
		q -v id="$id" -v target="$TARGET" <<'EOF'
WITH r AS (
    SELECT x.config, x.tps, x.tps_ci_low, x.tps_ci_high,
           x.tps / avg(x.tps) OVER (PARTITION BY x.config) AS rel
    FROM pgbenchx.runs x
    WHERE x.sweep_id = :id AND x.status = 'completed' AND NOT x.warmup AND x.tps > 0),
s AS (
    SELECT count(*) FILTER (WHERE config = 1) AS n_a, stddev_samp(rel) AS cv,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY (tps_ci_high - tps_ci_low) / 2 / tps) AS run_ci
    FROM r),
need AS (
    -- smallest n with t(0.975, 2n-2) * cv * sqrt(2/n) <= target (t from a short table, 1.96 beyond)
    SELECT min(n) AS n
    FROM s, generate_series(2, 100000) AS n
    WHERE (CASE WHEN 2 * n - 2 = 2 THEN 4.303 WHEN 2 * n - 2 = 4 THEN 2.776 WHEN 2 * n - 2 = 6 THEN 2.447
                WHEN 2 * n - 2 = 8 THEN 2.306 WHEN 2 * n - 2 <= 12 THEN 2.179 WHEN 2 * n - 2 <= 20 THEN 2.086
                WHEN 2 * n - 2 <= 40 THEN 2.021 WHEN 2 * n - 2 <= 120 THEN 1.98 ELSE 1.96 END)
          * s.cv * sqrt(2.0 / n) <= :target)
SELECT format('%-12s %7s %5s %8s %24s %7s %7s %9s', w.script, e.clients, s.n_a, coalesce(w.stopped_by, w.status),
              format('%s [%s, %s]', round(e.ratio::numeric, 3), coalesce(round(e.ratio_low::numeric, 3)::text, '-'),
                     coalesce(round(e.ratio_high::numeric, 3)::text, '-')),
              round((100 * s.cv)::numeric, 1) || '%', coalesce(round((100 * s.run_ci)::numeric, 1) || '%', '-'),
              coalesce(need.n::text, '-'))
FROM pgbenchx.sweeps w, pgbenchx.experiment_report(:id) e, s, need
WHERE w.sweep_id = :id AND e.config = 2;
EOF
	done
done
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
