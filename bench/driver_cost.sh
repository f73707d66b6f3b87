#!/bin/bash
# bench/driver_cost.sh: what the load generator costs (issue 25).  pgbenchx's
# drivers against stock pgbench, side by side on one throwaway cluster,
# in alternating pairs, with a 95% interval on every ratio.
#
# Parts (each can be turned off):
#   1. the ladder: for every client count C of LADDER, every J of JOBS_LIST
#      (capped at C, each (C, J) once), every script of WORKLOADS and protocol
#      of PROTOCOLS, PAIRS pairs of
#        pgbench -n -c C -j J -T D -M P [-S]          (its CPU from wait4)
#        run_bench(C, D, script, jobs => J, protocol => P,
#                  vacuum => false, checkpoint => false)
#      the order inside a pair alternating (odd pairs pgbench first, even
#      pairs pgbenchx first), a CHECKPOINT before each command;
#   2. the pooler (POOLER=1): the same through Debian's pgbouncer in
#      transaction mode (as test/t/065 sets it up), 4 clients and 1 job,
#      select-only, simple and extended ('prepared' fails under transaction
#      pooling, for pgbench too);
#   3. record_system (REC_CLIENTS): pgbenchx with record_system => true
#      against false at 1, 4 and 32 clients, select-only simple, 1 job,
#      directly and (POOLER=1) through the pooler, with the coordinator's
#      CPU (followed in /proc/<pid>/stat) on each side.
#
# pgbench runs under setsid, in a session of its own: with the kernel's
# autogroup scheduling (/proc/sys/kernel/sched_autogroup_enabled), CPU time
# is shared fairly between sessions, and every PostgreSQL process (each
# backend, coordinator and driver) is a session of its own (postmaster
# children call setsid), while a pgbench started from this script would share
# one with the script and with everything else started from the same shell.
# pgbouncer likewise.
#
# The generator's CPU: pgbench's user + sys from the rusage wait4() returns
# for it (to the microsecond: GNU time prints hundredths, which is 1 to 3%
# of a 3 s run's CPU at 1 client), by a few lines of Python; the drivers'
# from pgbenchx.runs.driver_cpu_s (getrusage of each driver, summed).  Both
# include connecting the clients.  Printed per point: the mean CPU per 1000
# transactions (ms) and the mean tps of each side, and pgbenchx/pgbench of
# each as a ratio of the means with its 95% interval by Fieller's theorem:
# pgbenchx.ci_repeats() gives each side's mean, standard error and degrees
# of freedom over the pairs, pgbenchx.ci_ratio() the ratio and interval
# (t at Welch-Satterthwaite's df).  The pairs are treated as independent
# samples (their alternation only keeps a drift of the machine from biasing
# one side), which is conservative when both sides of a pair drift alike.
#
#   bench/driver_cost.sh                 # the whole ladder: about 3 hours
#   QUICK=1 bench/driver_cost.sh         # LADDER="1 4 32", PAIRS=3, DURATION=3: about 15 min
#
# Settings (environment):
#   SCALE=10   DURATION=5   PAIRS=5
#   LADDER="1 2 4 8 12 16 20 24 28 32 40 48 64 80"   JOBS_LIST="1 2 4"
#   WORKLOADS="select-only tpcb-like"   PROTOCOLS="simple prepared"
#   POOLER=1              the pooler part (Debian's pgbouncer, installed when
#                         missing); POOLER=0 skips it
#   REC_CLIENTS="1 4 32"  record_system on/off ("" skips it)
#   RUN_ARGS=""           more run_bench arguments for the ladder's pgbenchx
#                         side, e.g. RUN_ARGS="record_system => false"
#   PROCESSES=0           1: at every direct point with several jobs (C a
#                         multiple of J), a third side in each pair: J stock
#                         pgbench processes of C/J clients and one thread
#                         each, started at once, each in a session of its
#                         own, their CPU and transactions summed; that is
#                         pgbench with the drivers' process model (one
#                         process per job instead of one thread per job)
#   PGX_DESTDIR, PGX_WORKDIR, PGX_PORT   as for engine_bench.sh
# Run as root on Debian 12 (the cluster and pgbouncer run as postgres).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then
	: "${LADDER:=1 4 32}" "${PAIRS:=3}" "${DURATION:=3}"
fi
SCALE=${SCALE:-10}
DURATION=${DURATION:-5}
PAIRS=${PAIRS:-5}
LADDER=${LADDER-"1 2 4 8 12 16 20 24 28 32 40 48 64 80"}
JOBS_LIST=${JOBS_LIST-"1 2 4"}
WORKLOADS=${WORKLOADS-"select-only tpcb-like"}
PROTOCOLS=${PROTOCOLS-"simple prepared"}
POOLER=${POOLER:-1}
REC_CLIENTS=${REC_CLIENTS-"1 4 32"}
PROCESSES=${PROCESSES:-0}
RUN_ARGS=${RUN_ARGS:-}
PGBOUNCER=/usr/sbin/pgbouncer

for v in SCALE DURATION PAIRS; do
	[[ ${!v} =~ ^[0-9]+$ ]] && [ "${!v}" -ge 1 ] || pgx_die "$v must be a whole number >= 1, not '${!v}'"
done
for c in $LADDER $JOBS_LIST $REC_CLIENTS; do
	[[ $c =~ ^[0-9]+$ ]] && [ "$c" -ge 1 ] || pgx_die "client and job counts must be whole numbers >= 1, not '$c'"
done
[[ $PROCESSES =~ ^[01]$ ]] || pgx_die "PROCESSES must be 0 or 1, not '$PROCESSES'"
for s in $WORKLOADS; do
	case $s in select-only | tpcb-like) ;; *) pgx_die "WORKLOADS: select-only or tpcb-like, not '$s'" ;; esac
done
for p in $PROTOCOLS; do
	case $p in simple | extended | prepared) ;; *) pgx_die "PROTOCOLS: simple, extended or prepared, not '$p'" ;; esac
done
# python3 (pgbench's CPU, below), and Debian's pgbouncer for the pooler part
extra_packages=(python3)
[ "$POOLER" = 1 ] && extra_packages+=(pgbouncer)
pgx_ensure_packages "${extra_packages[@]}"

max_clients=4
for c in $LADDER $REC_CLIENTS; do [ "$c" -gt "$max_clients" ] && max_clients=$c; done
cluster_settings=(
	"max_connections = $((max_clients * 2 + 20))"
	"max_worker_processes = 16"
	"shared_buffers = 512MB"
	"max_wal_size = 8GB"
	"checkpoint_timeout = 30min"
)

pooler_pid=
bench_cleanup() {
	# the pooler we started, by the pid in its own pid file (SIGINT:
	# pgbouncer's safe shutdown), then what we started it with
	local ppid_file=$dir/pgbouncer/pgbouncer.pid p
	if [ -f "$ppid_file" ] && p=$(cat "$ppid_file") && [ -n "$p" ]; then
		kill -INT "$p" 2>/dev/null || true
		for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null
	fi
	if [ -n "$pooler_pid" ]; then
		wait "$pooler_pid" 2>/dev/null || true
	fi
}
pgx_bench_cluster "$SCALE" "${cluster_settings[@]}"

q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
checkpoint() { q -c "CHECKPOINT"; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), kernel $(uname -r), cpu: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "server: $(q -c 'SELECT version()')"
echo "stock: $(pgbench --version)"
echo "pgbenchx: commit $(git -C "$PGX_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "plan: scale $SCALE, $PAIRS pairs of $DURATION s; ladder [$LADDER] x jobs [$JOBS_LIST] x [$WORKLOADS] x [$PROTOCOLS]; pooler $POOLER; record_system at [$REC_CLIENTS]; processes $PROCESSES${RUN_ARGS:+; run_bench arguments: $RUN_ARGS}"
echo "cpu/k: the generator's user+sys CPU per 1000 transactions, ms (pgbench: wait4's rusage; pgbenchx: runs.driver_cpu_s)"
echo "ratios: pgbenchx/pgbench of the means over the pairs, [95% interval, Fieller: pgbenchx.ci_repeats + pgbenchx.ci_ratio]"
echo

# pgbench_run C J P SCRIPT [connection options...]: prints "tps transactions cpu_s"
# (its output and CPU in files named with $tag, when set, for runs side by side)
pgbench_run() {
	local c=$1 j=$2 p=$3 script=$4 sflag=(-b tpcb-like) out=$dir/pgbench${tag:-}.out tf=$dir/pgbench${tag:-}.time
	shift 4
	[ "$script" = select-only ] && sflag=(-S)
	pgx_cpu_of "$tf" pgbench -n -c "$c" -j "$j" -T "$DURATION" -M "$p" "${sflag[@]}" "$@" \
		>"$out" 2>&1 || { cat "$out" >&2; pgx_die "pgbench -c $c -j $j -M $p $script failed"; }
	local counts
	counts=$(pgx_pgbench_counts "$out") || exit 1
	echo "$counts $(cat "$tf")"
}

# pgbench_procs_run C J P SCRIPT: J pgbench processes of C/J clients (-j 1)
# at once, each by pgbench_run (its own session, its CPU from wait4); prints
# "tps transactions cpu_s" summed over them
pgbench_procs_run() {
	local c=$1 j=$2 p=$3 script=$4 k pids=() res=()
	for k in $(seq 1 "$j"); do
		tag=-proc$k pgbench_run $((c / j)) 1 "$p" "$script" >"$dir/pgbench-proc$k.res" &
		pids+=($!)
		res+=("$dir/pgbench-proc$k.res")
	done
	for k in "${pids[@]}"; do
		wait "$k" || pgx_die "$j pgbench processes of $((c / j)) clients, -M $p $script, failed"
	done
	awk '{ tps += $1; tx += $2; cpu += $3 } END { printf "%f %d %f\n", tps, tx, cpu }' "${res[@]}"
}

# pgbenchx_run C J P SCRIPT EXTRA_ARGS [follow]: prints "tps transactions
# driver_cpu_s coordinator_cpu_s".  The coordinator's CPU is followed (nan
# otherwise) only when asked, by the record_system part, whose two sides are
# both followed alike: any other load on the machine changes what a
# transaction costs its generator (at one client, select-only prepared, 12
# pairs of 5 s: the drivers read 0.980 [0.919, 1.045] of pgbench with a
# poll of three processes every 0.1 s on their side only, 1.091 [1.002,
# 1.187] without it), so no side of the ladder may run with it while
# pgbench runs without.
pgbenchx_run() {
	local id row pid ccpu=nan
	id=$(q -c "SET client_min_messages = warning" -c "SELECT run_bench($1, $DURATION, '$4', jobs => $2, protocol => '$3'$5, vacuum => false, checkpoint => false)") ||
		pgx_die "run_bench failed"
	if [ "${6:-}" = follow ]; then
		pid=$(q -c "SELECT coalesce(coordinator_pid, 0) FROM pgbenchx.runs WHERE run_id = $id")
		[ "$pid" -gt 0 ] && ccpu=$(pgx_follow_cpu "$pid")
	fi
	q -c "SET client_min_messages = warning" -c "CALL pgbenchx.wait($id)" >/dev/null || pgx_die "pgbenchx.wait($id) failed"
	row=$(q -F ' ' -c "SELECT status, tps, transactions, driver_cpu_s, coalesce(error, '') FROM pgbenchx.runs WHERE run_id = $id")
	set -- $row
	[ "$1" = completed ] || pgx_die "run $id ended $row"
	echo "$2 $3 $4 $ccpu"
}

# CPU ms per 1000 transactions
cpu_per_k() { awk -v c="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.3f", c * 1e6 / t; else print "nan" }'; }

# ratio_ci "a1 a2 ..." "b1 b2 ...": "mean_a mean_b ratio low high" of b/a
# (Fieller through the extension's own functions; n/a where not defined)
ratio_ci() {
	local a b
	a=$(echo "$1" | xargs | tr ' ' ',')
	b=$(echo "$2" | xargs | tr ' ' ',')
	q -F ' ' -c "SELECT round(a.tps::numeric, 3), round(b.tps::numeric, 3),
			coalesce(round(r.ratio::numeric, 3)::text, 'n/a'), coalesce(round(r.low::numeric, 3)::text, 'n/a'),
			coalesce(round(r.high::numeric, 3)::text, 'n/a')
		FROM pgbenchx.ci_repeats('{$a}') a, pgbenchx.ci_repeats('{$b}') b
		LEFT JOIN LATERAL pgbenchx.ci_ratio(a.tps, a.se, a.df, b.tps, b.se, b.df) r ON true"
}

summary=()
goal=()		# per point: "cpu_ratio cpu_high tps_high"
proc_summary=()

# point LABEL C J P SCRIPT PGBENCH_CONN XARGS: PAIRS alternating pairs, then the ratios
point() {
	local label=$1 c=$2 j=$3 p=$4 script=$5 conn=$6 xargs=$7
	local s_tps="" x_tps="" s_k="" x_k="" res st stx scpu xt xtx xcpu sk xk
	local procs=0 sides p_k="" pt ptx pcpu pk
	[ "$PROCESSES" = 1 ] && [ "$label" = direct ] && [ "$j" -gt 1 ] && [ $((c % j)) = 0 ] && procs=1
	echo "== $label: $script, -M $p, $c clients, $j jobs, $DURATION s"
	if [ "$procs" = 1 ]; then
		printf '%5s %12s %12s %10s %10s %12s %10s\n' pair pgbench_tps pgbenchx_tps pgb_cpu/k pgx_cpu/k procs_tps procs_cpu/k
	else
		printf '%5s %12s %12s %10s %10s\n' pair pgbench_tps pgbenchx_tps pgb_cpu/k pgx_cpu/k
	fi
	for pair in $(seq 1 "$PAIRS"); do
		sides=$( ((pair % 2)) && echo "s x" || echo "x s")
		[ "$procs" = 1 ] && sides=$( ((pair % 2)) && echo "s x p" || echo "p x s")
		for side in $sides; do
			checkpoint
			if [ "$side" = s ]; then
				# shellcheck disable=SC2086
				res=$(pgbench_run "$c" "$j" "$p" "$script" $conn)
				read -r st stx scpu <<<"$res"
			elif [ "$side" = p ]; then
				res=$(pgbench_procs_run "$c" "$j" "$p" "$script")
				read -r pt ptx pcpu <<<"$res"
			else
				res=$(pgbenchx_run "$c" "$j" "$p" "$script" "$xargs")
				read -r xt xtx xcpu _ <<<"$res"
			fi
		done
		sk=$(cpu_per_k "$scpu" "$stx")
		xk=$(cpu_per_k "$xcpu" "$xtx")
		s_tps+=" $st" x_tps+=" $xt" s_k+=" $sk" x_k+=" $xk"
		if [ "$procs" = 1 ]; then
			pk=$(cpu_per_k "$pcpu" "$ptx")
			p_k+=" $pk"
			printf '%5s %12.0f %12.0f %10s %10s %12.0f %10s\n' "$pair" "$st" "$xt" "$sk" "$xk" "$pt" "$pk"
		else
			printf '%5s %12.0f %12.0f %10s %10s\n' "$pair" "$st" "$xt" "$sk" "$xk"
		fi
	done
	if [ "$procs" = 1 ]; then
		local m_pk m_xk2 pr pl ph xr xl xh
		read -r _ m_pk pr pl ph <<<"$(ratio_ci "$s_k" "$p_k")"
		read -r _ m_xk2 xr xl xh <<<"$(ratio_ci "$p_k" "$x_k")"
		proc_summary+=("$(printf '%-12s %-9s %4s %4s %8s %8s %-22s %-22s' "$script" "$p" "$c" "$j" \
			"$m_pk" "$m_xk2" "$pr [$pl, $ph]" "$xr [$xl, $xh]")")
	fi
	local cpu tps m_sk m_xk cr cl ch m_st m_xt tr tl th
	read -r m_sk m_xk cr cl ch <<<"$(ratio_ci "$s_k" "$x_k")"
	read -r m_st m_xt tr tl th <<<"$(ratio_ci "$s_tps" "$x_tps")"
	cpu="$cr [$cl, $ch]"
	tps="$tr [$tl, $th]"
	printf '%5s cpu/k %s vs %s ms: ratio %s; tps %s vs %s: ratio %s\n\n' mean "$m_xk" "$m_sk" "$cpu" "$m_xt" "$m_st" "$tps"
	summary+=("$(printf '%-8s %-12s %-9s %4s %4s %8s %8s %-22s %-22s' "$label" "$script" "$p" "$c" "$j" \
		"$m_sk" "$m_xk" "$cpu" "$tps")")
	goal+=("$cr $ch $th")
}

# 1. the ladder
for c in $LADDER; do
	done_jobs=" "
	for j0 in $JOBS_LIST; do
		j=$((j0 < c ? j0 : c))
		[[ $done_jobs == *" $j "* ]] && continue
		done_jobs+="$j "
		for script in $WORKLOADS; do
			for p in $PROTOCOLS; do
				point direct "$c" "$j" "$p" "$script" "" "${RUN_ARGS:+, $RUN_ARGS}"
			done
		done
	done
done

# 2. the pooler
pooler_ci=
if [ "$POOLER" = 1 ]; then
	if [ ! -x "$PGBOUNCER" ]; then
		echo "pooler: skipped, $PGBOUNCER is not installed (apt-get install pgbouncer)"
	else
		pport=$(pgx_free_port)
		pdir=$dir/pgbouncer
		install -d -o postgres -g postgres "$pdir"
		printf '"postgres" ""\n' >"$pdir/userlist.txt"
		cat >"$pdir/pgbouncer.ini" <<-EOC
			[databases]
			postgres = host=$dir/sock port=$port dbname=postgres

			[pgbouncer]
			listen_addr = 127.0.0.1
			listen_port = $pport
			unix_socket_dir =
			auth_type = trust
			auth_file = $pdir/userlist.txt
			admin_users = postgres
			pool_mode = transaction
			ignore_startup_parameters = extra_float_digits
			max_client_conn = $((max_clients * 2 + 20))
			default_pool_size = 20
			logfile = $pdir/pgbouncer.log
			pidfile = $pdir/pgbouncer.pid
		EOC
		chown -R postgres:postgres "$pdir"
		# in a session of its own, as a daemon would be (see the autogroup note below)
		setsid "$PGBOUNCER" -u postgres "$pdir/pgbouncer.ini" >"$pdir/stdout" 2>&1 &
		pooler_pid=$!
		up=0
		for _ in $(seq 1 50); do
			if psql -X -q -d "host=127.0.0.1 port=$pport user=postgres dbname=pgbouncer" -c 'SHOW VERSION' >/dev/null 2>&1; then
				up=1
				break
			fi
			sleep 0.1
		done
		[ $up = 1 ] || { cat "$pdir/stdout" "$pdir/pgbouncer.log" >&2; pgx_die "pgbouncer did not start"; }
		echo "pooler: $($PGBOUNCER --version | head -1), transaction mode, on 127.0.0.1:$pport"
		pooler_ci="host=127.0.0.1 port=$pport dbname=postgres"
		for p in simple extended; do
			point pooler 4 1 "$p" select-only "-h 127.0.0.1 -p $pport postgres" ", conninfo => '$pooler_ci'"
		done
	fi
fi

# 3. record_system on against off
rec_summary=()
# rec_point LABEL C XARGS
rec_point() {
	local label=$1 c=$2 xargs=$3 on_tps="" off_tps="" on_k="" off_k="" on_cc="" off_cc="" res t tx cpu cc
	echo "== record_system, $label: select-only, -M simple, $c clients, 1 job, $DURATION s"
	printf '%5s %10s %10s %9s %9s %9s %9s\n' pair on_tps off_tps on_cpu/k off_cpu/k on_coord off_coord
	for pair in $(seq 1 "$PAIRS"); do
		for side in $( ((pair % 2)) && echo "on off" || echo "off on"); do
			checkpoint
			res=$(pgbenchx_run "$c" 1 simple select-only "$xargs, record_system => $([ $side = on ] && echo true || echo false)" follow)
			read -r t tx cpu cc <<<"$res"
			if [ "$side" = on ]; then
				on_tps+=" $t" on_k+=" $(cpu_per_k "$cpu" "$tx")" on_cc+=" $cc"
			else
				off_tps+=" $t" off_k+=" $(cpu_per_k "$cpu" "$tx")" off_cc+=" $cc"
			fi
		done
		printf '%5s %10.0f %10.0f %9s %9s %9s %9s\n' "$pair" "${on_tps##* }" "${off_tps##* }" "${on_k##* }" "${off_k##* }" \
			"${on_cc##* }" "${off_cc##* }"
	done
	read -r _ _ tr tl th <<<"$(ratio_ci "$off_tps" "$on_tps")"
	read -r _ _ cr cl ch <<<"$(ratio_ci "$off_k" "$on_k")"
	# the coordinator's extra CPU with recording on, as a share of the machine's CPU time
	local extra share
	extra=$(awk -v a="$on_cc" -v b="$off_cc" 'BEGIN { n = split(a, x, " "); split(b, y, " "); s = 0; for (i = 1; i <= n; i++) s += x[i] - y[i]; printf "%.3f", s / n }')
	share=$(awk -v e="$extra" -v d="$DURATION" -v n="$(nproc)" 'BEGIN { printf "%.2f%%", 100 * e / (d * n) }')
	printf '%5s tps on/off %s [%s, %s]; driver cpu/k on/off %s [%s, %s]; coordinator +%s s per run (%s of the machine)\n\n' \
		mean "$tr" "$tl" "$th" "$cr" "$cl" "$ch" "$extra" "$share"
	rec_summary+=("$(printf '%-8s %4s  %-22s %-22s %8s %8s' "$label" "$c" "$tr [$tl, $th]" "$cr [$cl, $ch]" "$extra" "$share")")
}
for c in $REC_CLIENTS; do
	rec_point direct "$c" ""
	[ -n "$pooler_ci" ] && rec_point pooler "$c" ", conninfo => '$pooler_ci'"
done

echo "== summary: means over $PAIRS pairs of $DURATION s; cpu/k in ms per 1000 transactions; ratios pgbenchx/pgbench [95% interval]"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ${#summary[@]} -gt 0 ]; then
	printf '%-8s %-12s %-9s %4s %4s %8s %8s %-22s %-22s\n' where script protocol c j pgb_cpu/k pgx_cpu/k cpu_ratio tps_ratio
	printf '%s\n' "${summary[@]}"
	# the issue's goal, point by point: CPU per transaction at most pgbench's
	# (point <= 1.00, the interval's upper end <= 1.05), the stretch (<= 0.8),
	# and tps not below pgbench's (the interval's upper end >= 1.00)
	printf '%s\n' "${goal[@]}" | awk '
		{ n++; if ($1 != "n/a" && $1 <= 1.00) p++; if ($2 != "n/a" && $2 <= 1.05) u++
		  if ($1 != "n/a" && $1 <= 1.00 && $2 != "n/a" && $2 <= 1.05) both++
		  if ($1 != "n/a" && $1 <= 0.8) s++; if ($3 == "n/a" || $3 >= 1.00) t++; if ($3 == "n/a") tu++ }
		END { printf "goal: of %d points, CPU per transaction point <= 1.00 at %d, upper end <= 1.05 at %d, both at %d; <= 0.8 at %d; tps interval includes or exceeds 1.00 at %d (undefined at %d)\n", n, p, u, both, s, t, tu }'
fi
if [ ${#proc_summary[@]} -gt 0 ]; then
	echo
	echo "process model (PROCESSES=1): J pgbench processes of C/J clients against one pgbench of J threads, and pgbenchx's J drivers against those processes; CPU per transaction ratios [95% interval]"
	printf '%-12s %-9s %4s %4s %8s %8s %-22s %-22s\n' script protocol c j procs_k pgx_k procs/threads pgx/procs
	printf '%s\n' "${proc_summary[@]}"
fi
if [ ${#rec_summary[@]} -gt 0 ]; then
	echo
	echo "record_system: on/off of pgbenchx (select-only simple, 1 job) [95% interval]; coordinator's extra CPU s per run and share of the machine"
	printf '%-8s %4s  %-22s %-22s %8s %8s\n' where c tps_on/off driver_cpu/k_on/off coord+s share
	printf '%s\n' "${rec_summary[@]}"
fi
