-- scripts/schema_table.sql: docs/results.md's results-schema table, printed
-- from the catalogue of a database with pgbenchx installed: every column of
-- every table, then of every view, of the schema pgbenchx, in the order the install
-- script creates them, with its type and its comment (src/sql/80_comments.sql).
-- Run by scripts/schema_table.sh and by test/t/044_readme_schema.pl; a column
-- without a comment reads "(no comment)" here and fails that test.
SELECT string_agg(line, E'\n' ORDER BY ord)
FROM (
    SELECT 0 AS ord, '| table or view | column | type | description |' AS line
    UNION ALL
    SELECT 1, '|---|---|---|---|'
    UNION ALL
    SELECT 2 + row_number() OVER (ORDER BY c.relkind, c.oid, a.attnum),
           format('|%s| `%s` | %s | %s |',
                  CASE WHEN a.attnum = min(a.attnum) OVER (PARTITION BY c.oid)
                       THEN format(' `pgbenchx.%s`%s ', c.relname,
                                   CASE c.relkind WHEN 'v' THEN ' (view)' ELSE '' END)
                       ELSE ' ' END,
                  a.attname,
                  format_type(a.atttypid, a.atttypmod),
                  coalesce(replace(col_description(c.oid, a.attnum), '|', '\|'), '(no comment)'))
    FROM pg_class c
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE c.relnamespace = 'pgbenchx'::regnamespace AND c.relkind IN ('r', 'v')
) t;
