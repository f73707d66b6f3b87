#!/usr/bin/env bash
# scripts/test.sh: every test, against throwaway clusters, on a fresh Debian 12
# machine as root, on every PostgreSQL major pgbenchx supports.  .ci/run calls
# exactly this.  Each stage is one or two lines on the terminal with its
# result and time; what the tools print goes to one log file per stage under
# a directory named at the start (kept):
#
#   packages   apt-get: what is missing of PostgreSQL 15 (server, headers,
#              client), libpq-dev, gcc, make, libipc-run-perl, clang-14 and
#              libclang-rt-14-dev (libFuzzer, for the fuzz harness), chromium
#              and fonts-dejavu-core (test/t/015 renders the charts), and
#              what building PostgreSQL from source needs (bison, flex ...)
#   build      make with -Wall -Wextra -Werror, make install (Debian's 15)
#   unit       make unitcheck (test/unit)
#   fuzz       the fuzz harness replays its seed corpus under ASan/UBSan
#   regress    pg_regress (sql/, expected/) against a throwaway cluster
#   tap        the TAP tests (test/t/), which start clusters of their own
#
# then, for each other major (16, 17, 18, 19):
#
#   pg NN       PostgreSQL NN built from ../shared/postgres/ into
#               /var/cache/pgbenchx/pgNN by scripts/pgmajor.sh (reused when
#               its checksum matches); these builds run in the background,
#               at nice 19, from the start, so that they overlap 15's tests;
#               a major whose tarball is absent is skipped with one line
#   build NN    pgbenchx built with -Werror against NN and installed into a
#               private copy of that build
#   regress NN  pg_regress against a cluster of NN
#   tap NN      the TAP tests with NN's framework, initdb and pgbench: every
#               file on 18, the files of test/t/every_major on 16, 17 and 19
#
# and last
#
#   upgrade    pg_upgrade from 15 to 18 with pgbenchx and stored results
#              (test/majors/pg_upgrade.pl), when both majors were tested
#
# A pre-release major (a tarball named 19beta3, say) is tested like the
# others, but its failures are reported and not counted.  pg_regress and
# TAP run as postgres in copies of the tree.  A failing stage prints the tail
# of its log (pg_regress: the failing tests and the head of regression.diffs;
# TAP: the failing files and the tail of their logs); the later stages still
# run, except after packages or build.  Exits non-zero if any counted stage
# fails.
#
# Choosing what runs (CI sets none of these):
#   PGX_MAJORS="15"                  the majors (default "15 16 17 18 19");
#                                    "15" alone is the quick run
#   PGX_TEST_STAGES="unit regress"   the stages (default all; "regress" and
#                                    "tap" apply to every major chosen,
#                                    "build" also to the other majors' builds)
#   PGX_PROVE_JOBS=N                 TAP files run N at a time (default 5)
#   PGX_FULL_MAJORS="15 18"          the majors that run every TAP file (the
#                                    default); the others run test/t/every_major
#   PGX_DESTDIR=/tmp/pgx-dest-x      install 15's build there, not into the
#                                    system directories (clusters use
#                                    extension_destdir)
#   PGX_TEST_REGRESS="setup eval"    the pg_regress files (default the Makefile's)
#   PGX_TEST_TAP="test/t/044_readme_schema.pl"   the TAP files (default all)
#   PGX_TEST_LOGS=/some/dir          the log directory (default a new /tmp/pgbenchx-test.XXXXXX)
#   KEEP_WORK=1                      keep the clusters' directories and the tree copies
set -euo pipefail
source "$(dirname "$0")/lib.sh"

stages=" ${PGX_TEST_STAGES:-packages build unit fuzz regress tap upgrade} "
majors=" ${PGX_MAJORS:-15 16 17 18 19} "
for m in $majors; do
	case $m in 15|16|17|18|19) ;; *) pgx_die "PGX_MAJORS: $m is not a major pgbenchx supports (15 to 19)" ;; esac
done
prove_jobs=${PGX_PROVE_JOBS:-5}
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

# run_stage NAME DESCRIPTION COMMAND...: COMMAND's output to $logs/NAME.log
# (spaces in NAME become dashes); one line with the result and the time.
# Returns COMMAND's status.  A failure counts unless $not_counted says why not.
not_counted=
run_stage() {
	local name=$1 what=$2 t0=$SECONDS rc=0 log
	log=$logs/${1// /-}.log
	shift 2
	printf '%-10s %s ... ' "$name" "$what"
	# a subshell: a pgx_die inside ends the stage, not this script
	( "$@" ) >"$log" 2>&1 || rc=$?
	local t=$((SECONDS - t0))
	if [ $rc = 0 ]; then
		say "ok ($(elapsed $t))"
		summary+=("$(printf '%-10s ok      %7s' "$name" "$(elapsed $t)")")
	elif [ -n "$not_counted" ]; then
		say "FAILED ($(elapsed $t), exit $rc; $not_counted)"
		summary+=("$(printf '%-10s FAILED  %7s  %s (%s)' "$name" "$(elapsed $t)" "$log" "$not_counted")")
	else
		say "FAILED ($(elapsed $t), exit $rc)"
		summary+=("$(printf '%-10s FAILED  %7s  %s' "$name" "$(elapsed $t)" "$log")")
		status=1
	fi
	return $rc
}

# a stage that does not run, with the reason
skip_stage() {
	say "$(printf '%-10s skipped: %s' "$1" "$2")"
	summary+=("$(printf '%-10s skipped  %s' "$1" "$2")")
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
want_major() { [[ $majors == *" $1 "* ]]; }

# the other majors asked for, in order
others=()
for m in 16 17 18 19; do want_major $m && others+=("$m"); done

# pre_release MAJOR: the pre-release tag (beta3, rc1) of MAJOR's tarball, if any
pre_release() {
	local f
	for f in "${PGX_PGSOURCES:-$PGX_ROOT/../shared/postgres}"/postgresql-"$1"[br]*.tar.gz; do
		[ -e "$f" ] || continue
		f=$(basename "$f" .tar.gz)
		echo "${f#postgresql-$1}"
	done
}

say "pgbenchx tests: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), majors:${majors% }, logs in $logs"

if want packages; then
	export PGX_APT_LOG=$logs/apt.log
	extra=(clang-14 libclang-rt-14-dev chromium fonts-dejavu-core faketime pgbouncer)
	[ ${#others[@]} = 0 ] || extra+=($PGX_PGBUILD_PACKAGES)
	if run_stage packages "apt packages (PostgreSQL 15, gcc, clang-14/libFuzzer, chromium, faketime, pgbouncer${others:+, bison/flex})" \
		pgx_ensure_packages "${extra[@]}"; then
		say "           $(sed -n 's/^== //p' "$logs/packages.log" | head -n 1)"
	else
		show_tail "$logs/packages.log"
		finish
	fi
fi

# The other majors' PostgreSQL builds, in the background from here on (a
# process group of their own, ended with this script): one file per major
# under $logs/pg-builds, NN.out (pg_config's path, nothing when skipped),
# NN.log (pgmajor.sh's messages) and NN.rc (its exit status, written last).
pgbuilds=$logs/pg-builds
pgbuild_pid=
if want build && [ ${#others[@]} -gt 0 ]; then
	mkdir -p "$pgbuilds"
	setsid bash -c 'for m in "$@"; do
			bash "'"$PGX_ROOT"'/scripts/pgmajor.sh" "$m" >"'"$pgbuilds"'/$m.out" 2>"'"$pgbuilds"'/$m.log"
			echo $? >"'"$pgbuilds"'/$m.rc"
		done' pgbuilds "${others[@]}" </dev/null >/dev/null 2>&1 &
	pgbuild_pid=$!
fi

work=
cleanup() {
	[ -z "$pgbuild_pid" ] || kill -- -"$pgbuild_pid" 2>/dev/null || true
	if [ -n "$work" ]; then
		local d
		for d in "$work"/*/; do pgx_stop_cluster "${d%/}"; done
		[ "${KEEP_WORK:-0}" = 1 ] || rm -rf "$work"
	fi
}
trap cleanup EXIT

destdir_setting=
if want build && want_major 15; then
	if [ -n "${PGX_DESTDIR:-}" ]; then
		build() { pgx_bench_install && chmod -R a+rX "$PGX_DESTDIR"; }
		run_stage "build 15" "make (-Werror), make install DESTDIR=$PGX_DESTDIR" build ||
			{ show_tail "$logs/build-15.log"; finish; }
	else
		run_stage "build 15" "make (-Werror), make install" pgx_build_install ||
			{ show_tail "$logs/build-15.log"; finish; }
	fi
fi
[ -n "${PGX_DESTDIR:-}" ] && destdir_setting="extension_destdir = '$PGX_DESTDIR'"

if want unit; then
	if run_stage unit "make unitcheck (test/unit)" make -C "$PGX_ROOT" -s unitcheck; then
		# "test_script: 370876 checks, 0 failed", "10900 checks, 0 failures"
		say "           $(grep -hE '[0-9]+ checks, [0-9]+ fail' "$logs/unit.log" | sed 's/^test_script: //' | paste -sd ';' | sed 's/;/; /g')"
	else
		show_tail "$logs/unit.log"
	fi
fi

if want fuzz; then
	if run_stage fuzz "replay the fuzz corpus under ASan/UBSan (test/fuzz)" \
		make -C "$PGX_ROOT/test/fuzz" -s regress; then
		say "           $(grep -hE '^Done [0-9]+ runs' "$logs/fuzz.log" | head -n 1), no crash"
	else
		show_tail "$logs/fuzz.log" 40
	fi
fi

# Clusters and tree copies live here, owned by postgres.
work=$(pgx_workdir)

# regress_stage LABEL TREE BINDIR PG_CONFIG [SETTING]: pg_regress of TREE
# against a throwaway cluster of BINDIR's major, as postgres.
regress_stage() {
	local label=$1 tree=$2 bindir=$3 pgconfig=$4 setting=${5:-} log
	log=$logs/${label// /-}.log
	run_regress() {
		local port regress_args=()
		[ -n "${PGX_TEST_REGRESS:-}" ] && regress_args=(REGRESS="$PGX_TEST_REGRESS")
		port=$(pgx_free_port)
		echo "a throwaway cluster of $bindir in $work/$label on port $port"
		PGX_BINDIR=$bindir
		install -d -o postgres -g postgres "$work/${label// /-}"
		pgx_start_cluster "$work/${label// /-}" "$port" "max_connections = 100" ${setting:+"$setting"}
		trap 'pgx_stop_cluster "$work/${label// /-}"' EXIT
		pgx_as_postgres env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER=postgres \
			PATH="$bindir:$PATH" make -C "$tree" -s installcheck TAP_TESTS= PG_CONFIG="$pgconfig" "${regress_args[@]}"
	}
	if run_stage "$label" "pg_regress (sql/, expected/)" run_regress; then
		# 15: "All 18 tests passed."; 16 and later: "# All 18 tests passed."
		say "           $(grep -E '^[# ]*All [0-9]+ tests passed' "$log" | sed 's/^[# ]*//; s/ *$//')"
	else
		local failed
		# 15: "test bad_input ... FAILED"; 16 and later: "not ok 14 - bad_input  1 ms"
		failed=$(grep -E '^not ok|^test .*(FAILED|failed)' "$log" | sed -E 's/^(not ok +[0-9]+ +- +|test +)//; s/ .*//' | tr '\n' ' ')
		say "           failed: ${failed:-(see the log)}"
		if [ -s "$tree/regression.diffs" ]; then
			cp "$tree/regression.diffs" "$logs/${label// /-}.diffs"
			say "  ---- first 80 lines of $logs/${label// /-}.diffs"
			head -n 80 "$tree/regression.diffs" | sed 's/^/  | /'
		else
			show_tail "$log"
		fi
	fi
}

# tap_stage LABEL TREE BINDIR PG_CONFIG TESTS [VAR=value ...]: the TAP files
# TESTS of TREE with BINDIR's framework, initdb and pgbench, as postgres.
tap_stage() {
	local label=$1 tree=$2 bindir=$3 pgconfig=$4 tests=$5 log rc=0
	shift 5
	log=$logs/${label// /-}.log
	run_tap() {
		pgx_as_postgres env "$@" PATH="$bindir:$PATH" \
			make -C "$tree" -s installcheck REGRESS= PG_CONFIG="$pgconfig" \
			PROVE_TESTS="$tests" PROVE_FLAGS="-j$prove_jobs --timer"
	}
	local desc=$tests
	if [ "$tests" = "$tap_tests" ]; then
		desc=$tap_desc
	elif [ "$tests" = "$tap_tests_major" ]; then
		desc=$tap_desc_major
	fi
	run_stage "$label" "TAP tests ($desc, clusters of their own)" run_tap "$@" || rc=$?
	# prove's last lines: "Files=29, Tests=1087, 452 wallclock secs ..." and its skips
	say "           $(grep -E '^Files=' "$log" | sed -E 's/^Files=([0-9]+), Tests=([0-9]+).*/\1 files, \2 tests/'), $(grep -cE '\.\. skipped' "$log" || true) files skipped"
	if [ $rc != 0 ]; then
		local failed t f
		failed=$(grep -E '^test/[^ ]+\.pl +\(Wstat' "$log" | sed -E 's/ .*//' | tr '\n' ' ')
		say "           failed: ${failed:-(see the log)}"
		for t in $failed; do
			f=$tree/tmp_check/log/regress_log_$(basename "$t" .pl)
			[ -f "$f" ] || continue
			cp "$f" "$logs/${label// /-}-$(basename "$f")"
			f=$logs/${label// /-}-$(basename "$f")
			say "  ---- failed subtests in $f"
			# (a file that died has no "not ok" line: grep's 1 must not end the script)
			# each "not ok" with the diagnostics under it (its "#" lines), bounded
			awk '/not ok [0-9]+/ { n = 0; show = 1; print; next }
				show && (/^\[[0-9:.]+\]\([0-9.]+s\) *(#|$)/ || /^#/) && n < 30 { print; n++; next }
				{ show = 0 }' "$f" | head -n 120 | sed 's/^/  | /'
			show_tail "$f" 40
		done
		[ -n "$failed" ] || show_tail "$log"
	fi
	# the server logs of the TAP clusters, for a post-mortem
	[ -d "$tree/tmp_check/log" ] && cp -r "$tree/tmp_check/log" "$logs/${label// /-}-logs" 2>/dev/null || true
}

# the TAP files, the slowest first (test/t/slowest: a list by the last
# measured times), so that prove's parallel jobs do not end waiting on a long
# file started last
order_tap() {
	local f listed=" "
	if [ -f "$PGX_ROOT/test/t/slowest" ]; then
		while read -r f; do
			case $f in ''|'#'*) continue ;; esac
			if [[ " $* " == *" $f "* ]]; then printf '%s ' "$f"; listed+="$f "; fi
		done <"$PGX_ROOT/test/t/slowest"
	fi
	for f in "$@"; do
		[[ $listed == *" $f "* ]] || printf '%s ' "$f"
	done
}
tap_tests=${PGX_TEST_TAP:-$(cd "$PGX_ROOT" && order_tap test/t/*.pl)}
tap_tests=${tap_tests% }
tap_desc=${PGX_TEST_TAP:-test/t/*.pl, the slowest first}
# On 16, 17 and 19 (not PGX_FULL_MAJORS, default "15 18"), the TAP files
# that test what differs between majors (test/t/every_major says which and
# why; test/README.md, "Per major"): every file on every major takes about
# 95 minutes on 2 cores, past CI's budget.  PGX_FULL_MAJORS="15 16 17 18 19"
# runs every file everywhere.  An explicit PGX_TEST_TAP applies to every major.
full_majors=" ${PGX_FULL_MAJORS:-15 18} "
if [ -n "${PGX_TEST_TAP:-}" ]; then
	tap_tests_major=$tap_tests
	tap_desc_major=$tap_desc
else
	every_major=$(grep -vE '^[[:space:]]*(#|$)' "$PGX_ROOT/test/t/every_major" | sed 's/[[:space:]].*//' | tr '\n' ' ')
	for f in $every_major; do
		[ -f "$PGX_ROOT/$f" ] || pgx_die "test/t/every_major names $f, which does not exist"
	done
	# shellcheck disable=SC2086
	tap_tests_major=$(cd "$PGX_ROOT" && order_tap $every_major)
	tap_tests_major=${tap_tests_major% }
	tap_desc_major="the $(wc -w <<<"$tap_tests_major") files of test/t/every_major, the slowest first"
fi

if want_major 15 && { want regress || want tap; }; then
	# pg_regress and prove write into the tree: give postgres a copy of its own.
	tree=$work/tree
	cp -a "$PGX_ROOT" "$tree"
	rm -rf "$tree/results" "$tree/tmp_check" "$tree/regression.diffs" "$tree/regression.out"
	chown -R postgres:postgres "$tree"
	pgconfig15=$PGX_BINDIR/pg_config
	want regress && regress_stage "regress 15" "$tree" "$PGX_BINDIR" "$pgconfig15" "$destdir_setting"
	want tap && tap_stage "tap 15" "$tree" "$PGX_BINDIR" "$pgconfig15" "$tap_tests" \
		${PGX_DESTDIR:+PGX_EXTENSION_DESTDIR="$PGX_DESTDIR"}
fi

# The other majors: wait for the background build of each, build pgbenchx
# against it, run the tests.
declare -A major_prefix major_tree
for m in "${others[@]}"; do
	pre=$(pre_release "$m")
	not_counted=
	[ -z "$pre" ] || not_counted="$m$pre is a pre-release: reported, not counted"
	if ! want build; then
		skip_stage "pg $m" "the build stage was not asked for"
		continue
	fi
	t0=$SECONDS
	while [ ! -f "$pgbuilds/$m.rc" ]; do sleep 5; done
	rc=$(cat "$pgbuilds/$m.rc")
	if [ "$rc" = 0 ] && [ ! -s "$pgbuilds/$m.out" ]; then
		skip_stage "pg $m" "$(sed 's/^== //' "$pgbuilds/$m.log" | tail -n 1)"
		continue
	fi
	how=$(grep -q 'cached build' "$pgbuilds/$m.log" && echo "cached" || echo "built from ../shared/postgres")
	if [ "$rc" = 0 ]; then
		say "$(printf '%-10s PostgreSQL %s%s %s ... ok (waited %s)' "pg $m" "$m" "$pre" "$how" "$(elapsed $((SECONDS - t0)))")"
		summary+=("$(printf '%-10s ok      %7s  (%s)' "pg $m" "$(elapsed $((SECONDS - t0)))" "$how")")
	else
		say "$(printf '%-10s PostgreSQL %s%s ... FAILED (see %s)' "pg $m" "$m" "$pre" "$pgbuilds/$m.log")"
		show_tail "$pgbuilds/$m.log"
		summary+=("$(printf '%-10s FAILED           %s' "pg $m" "$pgbuilds/$m.log")")
		[ -n "$not_counted" ] || status=1
		continue
	fi
	install_major() { pgx_major_install "$m" "$work" && echo "prefix=$PGX_MAJOR_PREFIX tree=$PGX_MAJOR_TREE"; }
	if ! run_stage "build $m" "make (-Werror) against $m, make install into a private copy" install_major; then
		show_tail "$logs/build-$m.log"
		continue
	fi
	prefix=$work/pg$m
	major_prefix[$m]=$prefix
	major_tree[$m]=$work/tree-$m
	want regress && regress_stage "regress $m" "$work/tree-$m" "$prefix/bin" "$prefix/bin/pg_config"
	if [[ $full_majors == *" $m "* ]]; then
		want tap && tap_stage "tap $m" "$work/tree-$m" "$prefix/bin" "$prefix/bin/pg_config" "$tap_tests"
	else
		want tap && tap_stage "tap $m" "$work/tree-$m" "$prefix/bin" "$prefix/bin/pg_config" "$tap_tests_major"
	fi
done
not_counted=

# pg_upgrade from Debian's 15 to 18, run by 18's framework in 18's tree.
if want upgrade && [ -f "$PGX_ROOT/test/majors/pg_upgrade.pl" ]; then
	if ! want_major 15 || ! want_major 18; then
		skip_stage upgrade "needs majors 15 and 18 (PGX_MAJORS:${majors% })"
	elif [ -z "${major_tree[18]:-}" ]; then
		skip_stage upgrade "18 was not built"
	else
		tap_stage upgrade "${major_tree[18]}" "${major_prefix[18]}/bin" "${major_prefix[18]}/bin/pg_config" \
			test/majors/pg_upgrade.pl PGX_OLD_INSTALL="$(dirname "$PGX_BINDIR")" \
			${PGX_DESTDIR:+PGX_OLD_EXTENSION_DESTDIR="$PGX_DESTDIR"}
	fi
fi

finish
