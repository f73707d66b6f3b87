#!/usr/bin/env bash
# scripts/test.sh: every test, against throwaway clusters, on a fresh Debian 12
# machine as root.  .ci/run calls exactly this.  Six stages, each one or two
# lines on the terminal with its result and time; what the tools print goes
# to one log file per stage under a directory named at the start (kept):
#
#   packages   apt-get: what is missing of PostgreSQL 15 (server, headers,
#              client), libpq-dev, gcc, make, libipc-run-perl, clang-14 and
#              libclang-rt-14-dev (libFuzzer, for the fuzz harness), chromium
#              and fonts-dejavu-core (test/t/015 renders the charts)
#   build      make with -Wall -Wextra -Werror, make install
#   unit       make unitcheck (test/unit)
#   fuzz       the fuzz harness replays its seed corpus under ASan/UBSan
#   regress    pg_regress (sql/, expected/) against a throwaway cluster
#   tap        the TAP tests (test/t/), which start clusters of their own
#
# pg_regress and TAP run as postgres in a copy of the tree.  A failing stage
# prints the tail of its log (pg_regress: the failing tests and the head of
# regression.diffs; TAP: the failing files and the tail of their logs); the
# later stages still run, except after packages or build.  Exits non-zero if
# any stage fails.
#
# For trying a part of it (development; CI sets none of these):
#   PGX_TEST_STAGES="unit regress"   the stages to run (default all six)
#   PGX_DESTDIR=/tmp/pgx-dest-x      install there, not into the system
#                                    directories (clusters use extension_destdir)
#   PGX_TEST_REGRESS="setup eval"    the pg_regress files (default the Makefile's)
#   PGX_TEST_TAP="test/t/044_readme_schema.pl"   the TAP files (default all)
#   PGX_TEST_LOGS=/some/dir          the log directory (default a new /tmp/pgbenchx-test.XXXXXX)
#   KEEP_WORK=1                      keep the cluster's directory and the tree copy
set -euo pipefail
source "$(dirname "$0")/lib.sh"

stages=" ${PGX_TEST_STAGES:-packages build unit fuzz regress tap} "
if [ -n "${PGX_TEST_LOGS:-}" ]; then
	logs=$PGX_TEST_LOGS
	mkdir -p "$logs"
else
	logs=$(mktemp -d /tmp/pgbenchx-test.XXXXXX)
fi
chmod 755 "$logs"
started=$SECONDS
status=0
summary=()

say() { printf '%s\n' "$*"; }
elapsed() { local s=$1; printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# run_stage NAME DESCRIPTION COMMAND...: COMMAND's output to $logs/NAME.log;
# one line with the result and the time.  Returns COMMAND's status.
run_stage() {
	local name=$1 what=$2 t0=$SECONDS rc=0
	shift 2
	printf '%-9s %s ... ' "$name" "$what"
	# a subshell: a pgx_die inside ends the stage, not this script
	( "$@" ) >"$logs/$name.log" 2>&1 || rc=$?
	local t=$((SECONDS - t0))
	if [ $rc = 0 ]; then
		say "ok ($(elapsed $t))"
		summary+=("$(printf '%-9s ok      %7s' "$name" "$(elapsed $t)")")
	else
		say "FAILED ($(elapsed $t), exit $rc)"
		summary+=("$(printf '%-9s FAILED  %7s  %s' "$name" "$(elapsed $t)" "$logs/$name.log")")
		status=1
	fi
	return $rc
}

# the last lines of a stage's log, indented
show_tail() {
	local log=$1 n=${2:-30}
	say "  ---- last $n lines of $log"
	tail -n "$n" "$log" | sed 's/^/  | /'
}

# the summary: one line per stage that ran, then the verdict; exits with it
finish() {
	say ""
	say "summary ($(elapsed $((SECONDS - started))) in all; logs in $logs):"
	for line in "${summary[@]}"; do say "  $line"; done
	if [ $status = 0 ]; then
		say "all tests passed"
	else
		say "TESTS FAILED"
	fi
	exit $status
}

want() { [[ $stages == *" $1 "* ]]; }

say "pgbenchx tests: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), logs in $logs"

if want packages; then
	export PGX_APT_LOG=$logs/apt.log
	if run_stage packages "apt packages (PostgreSQL 15, gcc, clang-14/libFuzzer, chromium, faketime)" \
		pgx_ensure_packages clang-14 libclang-rt-14-dev chromium fonts-dejavu-core faketime; then
		say "          $(sed -n 's/^== //p' "$logs/packages.log" | head -n 1)"
	else
		show_tail "$logs/packages.log"
		finish
	fi
fi

destdir_setting=
if want build; then
	if [ -n "${PGX_DESTDIR:-}" ]; then
		build() { pgx_bench_install && chmod -R a+rX "$PGX_DESTDIR"; }
		run_stage build "make (-Werror), make install DESTDIR=$PGX_DESTDIR" build ||
			{ show_tail "$logs/build.log"; finish; }
	else
		run_stage build "make (-Werror), make install" pgx_build_install ||
			{ show_tail "$logs/build.log"; finish; }
	fi
fi
[ -n "${PGX_DESTDIR:-}" ] && destdir_setting="extension_destdir = '$PGX_DESTDIR'"

if want unit; then
	if run_stage unit "make unitcheck (test/unit)" make -C "$PGX_ROOT" -s unitcheck; then
		# "test_script: 370876 checks, 0 failed", "10900 checks, 0 failures"
		say "          $(grep -hE '[0-9]+ checks, [0-9]+ fail' "$logs/unit.log" | sed 's/^test_script: //' | paste -sd ';' | sed 's/;/; /g')"
	else
		show_tail "$logs/unit.log"
	fi
fi

if want fuzz; then
	if run_stage fuzz "replay the fuzz corpus under ASan/UBSan (test/fuzz)" \
		make -C "$PGX_ROOT/test/fuzz" -s regress; then
		say "          $(grep -hE '^Done [0-9]+ runs' "$logs/fuzz.log" | head -n 1), no crash"
	else
		show_tail "$logs/fuzz.log" 40
	fi
fi

if want regress || want tap; then
	work=$(pgx_workdir)
	trap 'pgx_stop_cluster "$work"; [ "${KEEP_WORK:-0}" = 1 ] || rm -rf "$work"' EXIT
	# pg_regress and prove write into the tree: give postgres a copy of its own.
	tree=$work/tree
	cp -a "$PGX_ROOT" "$tree"
	rm -rf "$tree/results" "$tree/tmp_check" "$tree/regression.diffs" "$tree/regression.out"
	chown -R postgres:postgres "$tree"
fi

if want regress; then
	regress_args=()
	[ -n "${PGX_TEST_REGRESS:-}" ] && regress_args=(REGRESS="$PGX_TEST_REGRESS")
	run_regress() {
		local port
		port=$(pgx_free_port)
		echo "a throwaway cluster in $work on port $port"
		pgx_start_cluster "$work" "$port" "max_connections = 100" ${destdir_setting:+"$destdir_setting"}
		pgx_as_postgres env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER=postgres \
			PATH="$PGX_BINDIR:$PATH" make -C "$tree" -s installcheck TAP_TESTS= "${regress_args[@]}"
	}
	if run_stage regress "pg_regress (sql/, expected/)" run_regress; then
		say "          $(grep -E '^ *All [0-9]+ tests passed' "$logs/regress.log" | sed 's/^ *//; s/ *$//')"
	else
		failed=$(grep -E '^(not ok|test ).*(FAILED|failed)' "$logs/regress.log" | sed -E 's/^test +//; s/ .*//' | tr '\n' ' ')
		say "          failed: ${failed:-(see the log)}"
		if [ -s "$tree/regression.diffs" ]; then
			cp "$tree/regression.diffs" "$logs/regression.diffs"
			say "  ---- first 80 lines of $logs/regression.diffs"
			head -n 80 "$tree/regression.diffs" | sed 's/^/  | /'
		else
			show_tail "$logs/regress.log"
		fi
	fi
	pgx_stop_cluster "$work"
fi

if want tap; then
	tap_args=()
	[ -n "${PGX_TEST_TAP:-}" ] && tap_args=(PROVE_TESTS="$PGX_TEST_TAP")
	run_tap() {
		pgx_as_postgres env ${PGX_DESTDIR:+PGX_EXTENSION_DESTDIR="$PGX_DESTDIR"} PATH="$PGX_BINDIR:$PATH" \
			make -C "$tree" -s installcheck REGRESS= "${tap_args[@]}"
	}
	tap_ok=0
	run_stage tap "TAP tests (test/t/, clusters of their own)" run_tap || tap_ok=$?
	# prove's last lines: "Files=29, Tests=1087, 452 wallclock secs ..." and its skips
	say "          $(grep -E '^Files=' "$logs/tap.log" | sed -E 's/^Files=([0-9]+), Tests=([0-9]+).*/\1 files, \2 tests/'), $(grep -cE '\.\. skipped' "$logs/tap.log" || true) files skipped"
	if [ $tap_ok != 0 ]; then
		failed=$(grep -E '^test/t/[^ ]+\.pl +\(Wstat' "$logs/tap.log" | sed -E 's/ .*//' | tr '\n' ' ')
		say "          failed: ${failed:-(see the log)}"
		for t in $failed; do
			f=$tree/tmp_check/log/regress_log_$(basename "$t" .pl)
			[ -f "$f" ] || continue
			cp "$f" "$logs/"
			f=$logs/$(basename "$f")
			say "  ---- failed subtests in $f"
			grep -E 'not ok [0-9]+' "$f" | head -n 20 | sed 's/^/  | /'
			show_tail "$f" 40
		done
		[ -n "$failed" ] || show_tail "$logs/tap.log"
	fi
	# the server logs of the TAP clusters, for a post-mortem
	[ -d "$tree/tmp_check/log" ] && cp -r "$tree/tmp_check/log" "$logs/tap-logs" 2>/dev/null || true
fi

finish
