#!/usr/bin/env bash
# scripts/schema_table.sh: the results-schema table of docs/results.md,
# generated from the catalogue, so that it never drifts from what CREATE
# EXTENSION makes.
#
#   bash scripts/schema_table.sh            # print the table
#   bash scripts/schema_table.sh --update   # and write it into docs/results.md
#
# Builds pgbenchx, installs it into $PGX_DESTDIR (default /tmp/pgx-dest-schema,
# never the system directories), starts a throwaway cluster on a free port
# that loads it through extension_destdir, runs CREATE EXTENSION pgbenchx
# and scripts/schema_table.sql (every column of every table and view with
# its type and its COMMENT ON COLUMN, from src/sql/80_comments.sql), and
# stops and removes the cluster.  --update replaces what docs/results.md has
# between the lines <!-- schema:begin --> and <!-- schema:end -->.
# test/t/044_readme_schema.pl fails when docs/results.md differs from this output or
# when a column has no comment.  Run as root on Debian 12, like devtest.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
update=0
case "${1:-}" in
	--update) update=1 ;;
	"") ;;
	*) pgx_die "usage: bash scripts/schema_table.sh [--update]" ;;
esac

dest=${PGX_DESTDIR:-/tmp/pgx-dest-schema}
make -C "$PGX_ROOT" -s PGBENCHX_WERROR=1 >/dev/null || pgx_die "build failed"
rm -rf "$dest"
make -C "$PGX_ROOT" -s install DESTDIR="$dest" >/dev/null || pgx_die "make install DESTDIR=$dest failed"
chmod -R a+rX "$dest"

work=$(pgx_workdir)
trap 'pgx_stop_cluster "$work"; rm -rf "$work"' EXIT
pgx_start_cluster "$work" "$(pgx_free_port)" "extension_destdir = '$dest'"
table=$(command psql -X -q -v ON_ERROR_STOP=1 -At -c 'CREATE EXTENSION pgbenchx' \
	-f "$PGX_ROOT/scripts/schema_table.sql")

if grep -q '(no comment)' <<<"$table"; then
	printf 'warning: columns without a comment (add them to src/sql/80_comments.sql):\n' >&2
	grep '(no comment)' <<<"$table" >&2
fi
if [ $update = 0 ]; then
	printf '%s\n' "$table"
	exit 0
fi

doc=$PGX_ROOT/docs/results.md
[ "$(grep -c -e '^<!-- schema:begin -->$' -e '^<!-- schema:end -->$' "$doc")" = 2 ] ||
	pgx_die "docs/results.md needs one line <!-- schema:begin --> and one <!-- schema:end -->"
TABLE=$table perl -0pi -e \
	's/(^<!-- schema:begin -->\n).*?(^<!-- schema:end -->$)/$1$ENV{TABLE}\n$2/ms' "$doc"
pgx_log "docs/results.md: results-schema table updated ($(grep -c '^| ' <<<"$table") lines); review with git diff docs/results.md"
