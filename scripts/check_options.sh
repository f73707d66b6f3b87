#!/bin/sh
# scripts/check_options.sh: the SQL and the docs of the launch options
# agree with their list, src/model/options_list.h (src/README.md, "Starting
# a run: the options seam"); checked by every `make`.
#
# For each call of the list's calls column (PGBX_BENCH run_bench,
# PGBX_SWEEP run_sweep(min_clients, ...), PGBX_LIST run_sweep(clients
# int[], ...), PGBX_REPLAY run_replay; PGBX_RUNS and PGBX_ALL as
# run_options.h defines them; PGBX_PART has no wrapper), its SQL
# wrapper in src/sql/10_entry_points.sql must have
#
#   - a parameter for each option the list gives the call, and no other;
#   - each parameter passed as the key of the same name of the jsonb object
#     it builds, and no other key: a parameter left out of the object would
#     be silently ignored, a key the call does not take refused at run time.
#
# And each option's name must appear as `name` in a chapter of docs/ (when
# docs/ is there: a tarball of the build alone may leave it out).  What the
# C side must do with an option the compiler checks (options.c, recorder.c).
#
# Exits 1 with one line per finding on stderr; silent when all is well.
# POSIX sh and awk.
set -eu
cd "$(dirname "$0")/.."

list=src/model/options_list.h
sql=src/sql/10_entry_points.sql
docs=
[ -d docs ] && docs=$(find docs -name '*.md' | LC_ALL=C sort)

# shellcheck disable=SC2086
awk -v list="$list" -v sql="$sql" -v q="'" '
function fail(msg) {
	print "check_options: " msg > "/dev/stderr"
	bad = 1
}
function trim(s) {
	gsub(/^[ \t]+|[ \t]+$/, "", s)
	return s
}
# the list: PGBX_OPTION(id, "name", type, calls, ...) over one or more lines
FILENAME == list && /^PGBX_OPTION\(/ { entry = $0; inentry = 1 }
FILENAME == list && inentry && !/^PGBX_OPTION\(/ { entry = entry " " $0 }
FILENAME == list && inentry && /\)[ \t]*$/ {
	inentry = 0
	sub(/^PGBX_OPTION\(/, "", entry)
	split(entry, f, ",")
	name = trim(f[2])
	gsub(/"/, "", name)
	names[name] = 1
	n = split(f[4], bits, "|")
	for (i = 1; i <= n; i++) {
		t = trim(bits[i])
		if (t == "PGBX_BENCH") calls = "B"
		else if (t == "PGBX_SWEEP") calls = "S"
		else if (t == "PGBX_LIST") calls = "L"
		else if (t == "PGBX_REPLAY") calls = "R"
		else if (t == "PGBX_EXPERIMENT") calls = "E"
		else if (t == "PGBX_RUNS") calls = "BSL"
		else if (t == "PGBX_ALL") calls = "BSLR"
		else if (t == "PGBX_PART") calls = ""
		else { fail(list ": option \"" name "\": unknown call " t); calls = "" }
		for (j = 1; j <= length(calls); j++)
			takes[substr(calls, j, 1) " " name] = 1
	}
	next
}
# a wrapper: CREATE OR REPLACE FUNCTION run_x( params ) ... RETURN body;
# (a SQL-standard body: it ends at the first line ending in ";")
FILENAME == sql && /^CREATE OR REPLACE FUNCTION run_(bench|sweep|replay|experiment)\(/ {
	fn = $0
	sub(/^CREATE OR REPLACE FUNCTION /, "", fn)
	sub(/\(.*/, "", fn)
	call = ""
	inparams = 1
	next
}
FILENAME == sql && inparams && /^\)|^RETURNS/ { inparams = 0; inbody = 1; next }
FILENAME == sql && inparams {
	pname = trim($1)
	if (call == "") {
		call = (fn == "run_bench") ? "B" : (fn == "run_replay") ? "R" : (fn == "run_experiment") ? "E" : (pname == "clients") ? "L" : "S"
		if (call in wrapper)
			fail(sql ": a second wrapper " fn " for the same call")
	}
	wrapper[call] = fn
	param[call " " pname] = 1
	next
}
FILENAME == sql && inbody {
	s = $0
	if (s ~ /;[ \t]*$/)
		inbody = 0
	while (match(s, q "[a-z_]+" q ",")) {
		k = substr(s, RSTART + 1, RLENGTH - 3)
		key[call " " k] = 1
		s = substr(s, RSTART + RLENGTH)
	}
	next
}
# the docs: every `word` they show
FILENAME != list && FILENAME != sql {
	s = $0
	while (match(s, /`[a-z_]+`/)) {
		documented[substr(s, RSTART + 1, RLENGTH - 2)] = 1
		s = substr(s, RSTART + RLENGTH)
	}
	havedocs = 1
}
END {
	what["B"] = "run_bench"; what["S"] = "run_sweep(min_clients, max_clients, ...)"
	what["L"] = "run_sweep(clients int[], ...)"; what["R"] = "run_replay"; what["E"] = "run_experiment"
	for (i = 1; i <= 5; i++) {
		c = substr("BSLRE", i, 1)
		if (!(c in wrapper))
			fail(sql ": no wrapper for " what[c])
	}
	for (t in takes) {
		split(t, p, " ")
		if (!(t in param))
			fail(sql ": " what[p[1]] " has no parameter " p[2] ", which the list (" list ") gives it")
	}
	for (t in param) {
		split(t, p, " ")
		if (!(t in takes))
			fail(sql ": " what[p[1]] "'"'"'s parameter " p[2] " is no option of its call in " list)
		if (!(t in key))
			fail(sql ": " what[p[1]] " does not pass its parameter " p[2] " in its jsonb object")
	}
	for (t in key) {
		split(t, p, " ")
		if (!(t in param))
			fail(sql ": " what[p[1]] " passes the key " p[2] ", which is not one of its parameters")
	}
	if (havedocs)
		for (n in names)
			if (!(n in documented))
				fail("option " n " (" list ") is not in docs/: document it (`" n "`)")
	exit bad
}' "$list" "$sql" $docs
