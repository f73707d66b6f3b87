#!/bin/sh
# scripts/check_layers.sh: src/'s folders are layers (src/README.md, "Folders
# and layers"), and this is their rule, checked by every `make`:
#
#   a file may include, and call, only the files of its own folder and of
#   the folders on the lines above its own in LAYERS below.
#
# Folders on one line are siblings: neither may use the other.  A strict
# order admits no cycle between folders; the check also looks for one
# directly (through every edge it read but the ALLOWED ones below), and
# says which.
#
#   scripts/check_layers.sh                    the #include lines of src/
#   scripts/check_layers.sh src/x/y.o ...      and the calls between objects
#
# Includes are read from the sources: `#include "name.h"` names a header of
# src/ by its file name (the Makefile passes -I for each folder, so names
# are unique; a second header of the same name is refused).  Calls are read
# from the objects with nm (a symbol defined in one object and undefined in
# another), which catches a function declared in one folder's header and
# defined in another's file.  lang/ is plain C: its files include no header
# outside lang/ but the C library's (<...>), and no postgres.h.
#
# Exits 1 with one line per finding on stderr; silent when all is well.
# POSIX sh, grep, awk and nm (binutils): nothing the build does not need.
set -eu
cd "$(dirname "$0")/.."

# The layers, lowest first; "." is src/ itself (pgbenchx.c, options.c: the
# SQL seam at the top).  A new folder of src/ must be placed here.
LAYERS='
lang
model
common
init results
run
fleet
.
'

# Edges that go up, "from-module to-module" (a module is a file's path under
# src/ without .c or .h), each allowed until the seam that removes it
# exists; a pair that no edge uses any more is itself an error, so that the
# list only shrinks.  Empty since issue 22 section 3: fleet/ plugs into
# launch and the coordinator through a launch kind and a step kind
# (src/fleet/kinds.c), which the top layer registers.
ALLOWED='
'

for o in "$@"; do
	[ -f "$o" ] || { echo "check_layers: no object $o" >&2; exit 1; }
done
# src/cli/ is the client program pgbenchx (libpq only, its own Makefile): not
# a layer of the server library, so neither placed in LAYERS nor read here
files=$(find src -name '*.[ch]' ! -path 'src/sql/*' ! -path 'src/upgrade/*' ! -path 'src/cli/*' | LC_ALL=C sort)
[ -n "$files" ] || { echo "check_layers: no C files under src/" >&2; exit 1; }

{
	# L <rank> <folder>
	printf '%s\n' "$LAYERS" | awk 'NF { for (i = 1; i <= NF; i++) print "L", NR, $i }'
	# A <from> <to>
	printf '%s\n' "$ALLOWED" | awk 'NF == 2 { print "A", $1, $2 }'
	# F <path>
	for f in $files; do echo "F $f"; done
	# I <path> <line> <included name>
	for f in $files; do
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
			sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' |
			while read -r line name; do echo "I $f $line $name"; done
	done
	# D <object> <symbol> / U <object> <symbol>
	for o in "$@"; do
		${NM:-nm} -g "$o" | awk -v o="$o" '
			NF == 2 && $1 == "U" { print "U", o, $2 }
			NF == 3 && $2 ~ /^[A-TV-Z]$/ { print "D", o, $3 }'
	done
} | awk '
function module(path,   m) {		# src/run/launch.c -> run/launch
	m = path
	sub(/^src\//, "", m)
	sub(/\.[cho]$/, "", m)
	return m
}
function folder(m) {				# run/launch -> run; pgbenchx -> .
	return (m ~ /\//) ? substr(m, 1, index(m, "/") - 1) : "."
}
function fail(msg) {
	print "check_layers: " msg > "/dev/stderr"
	bad = 1
}
function edge(from, to, what,   ff, ft) {
	ff = folder(from); ft = folder(to)
	if (ff == ft)
		return
	if ((from " " to) in allowed) {
		used[from " " to] = 1
		return
	}
	graph[ff " " ft] = 1
	if (rank[ft] >= rank[ff])
		fail(what " (" ff "/ may use only the folders below it: " below[ff] ")")
}
$1 == "L" { rank[$3] = $2 + 0; order[++nfolders] = $3; next }
$1 == "A" { allowed[$2 " " $3] = 1; next }
$1 == "F" {
	m = module($2); f = folder(m)
	if (!(f in rank))
		fail($2 ": folder " f "/ is not in LAYERS (scripts/check_layers.sh): place it there")
	if ($2 ~ /\.h$/) {
		n = $2; sub(/.*\//, "", n)
		if (n in header)
			fail($2 ": a second header named " n " (" header[n] "); names of src/ headers are unique")
		header[n] = $2
	}
	next
}
$1 == "I" { inc[++ninc] = $2 " " $3 " " $4; next }
$1 == "D" { def[$3] = module($2); next }
$1 == "U" { use[++nuse] = module($2) " " $3; next }
END {
	for (i = 1; i <= nfolders; i++) {
		s = ""
		for (j = 1; j <= nfolders; j++)
			if (rank[order[j]] < rank[order[i]])
				s = s (s == "" ? "" : " ") order[j] "/"
		below[order[i]] = (s == "" ? "none" : s)
	}
	for (i = 1; i <= ninc; i++) {
		split(inc[i], p, " ")
		from = module(p[1])
		if (!(p[3] in header)) {
			if (folder(from) == "lang")
				fail(p[1] ":" p[2] " includes \"" p[3] "\": lang/ is plain C, with no header outside lang/ but the C library'"'"'s")
			continue			# a server or libpq header
		}
		edge(from, module(header[p[3]]), p[1] ":" p[2] " includes " header[p[3]])
	}
	for (i = 1; i <= nuse; i++) {
		split(use[i], p, " ")
		if (p[2] in def)
			edge(p[1], def[p[2]], "src/" p[1] ".o calls " p[2] "() of src/" def[p[2]] ".c")
	}
	for (a in allowed)
		if (!(a in used)) {
			split(a, p, " ")
			fail("ALLOWED names " p[1] " -> " p[2] ", which no include or call uses: remove it from scripts/check_layers.sh")
		}
	# a cycle between folders: peel off the folders that use none of those
	# left, and those that none of those left uses; the rest are on cycles
	do {
		peeled = 0
		for (i = 1; i <= nfolders; i++) {
			f = order[i]
			if (f in gone)
				continue
			leaf = 1
			root = 1
			for (e in graph) {
				split(e, p, " ")
				if (p[1] == f && !(p[2] in gone))
					leaf = 0
				if (p[2] == f && !(p[1] in gone))
					root = 0
			}
			if (leaf || root) {
				gone[f] = 1
				peeled = 1
			}
		}
	} while (peeled)
	s = ""
	for (i = 1; i <= nfolders; i++)
		if (!(order[i] in gone))
			s = s " " order[i] "/"
	if (s != "")
		fail("a cycle between the folders" s)
	exit bad
}'
