/*
 * src/sql/guard/names.sql: no routine of another role answers to a name of
 * pgbenchx's (issue 34, section 1; docs/security.md, "Borrow a name of
 * pgbenchx's").  The install script runs it right after the schema, every
 * upgrade script right after its delta: both before the routines, so that
 * a routine another role made under one of their names is refused by name,
 * with what to do, instead of making CREATE OR REPLACE fail half-way (a
 * routine of the same signature: "is not a member of extension") or,
 * worse, of staying there as an overload that a superuser's call of the
 * entry point might pick (an exact match of integer literals beats
 * run_bench's float8 parameters, whatever the schema's place in the
 * search_path).  Afterwards the event trigger of 70_security.sql keeps it
 * so: pgbenchx.name_collisions() is the one rule both apply.
 *
 * The names: those of the extension's routines outside the schema pgbenchx
 * (the entry points, created unqualified in the schema CREATE EXTENSION
 * names), whichever schema the other routine is in (any schema can be on a
 * caller's search_path, before or after the extension's), and every name
 * in the schema pgbenchx, where nobody but the extension's owner should
 * create anything.  A routine is allowed when it is a member of the
 * extension or when its owner has the privileges of the extension's owner
 * (a superuser, the owner or a member of it): running it gives its owner
 * nothing.  The routines of this script are not members yet when it runs,
 * so the entry points it is about to create are named here too; the
 * Makefile checks this list against the unqualified CREATEs of src/sql.
 */
CREATE OR REPLACE FUNCTION pgbenchx.name_collisions(
    routines oid[] DEFAULT NULL,
    OUT routine text, OUT owner name, OUT reason text)
RETURNS SETOF record
LANGUAGE sql STABLE CALLED ON NULL INPUT
SET search_path = pg_catalog, pg_temp AS $$
WITH ext AS (
    SELECT e.oid, e.extowner FROM pg_catalog.pg_extension e
    WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.name
), members AS (
    SELECT d.objid FROM pg_catalog.pg_depend d, ext
    WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
      AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
      AND d.refobjid OPERATOR(pg_catalog.=) ext.oid
      AND d.deptype OPERATOR(pg_catalog.=) 'e'::"char"
), names AS (
    SELECT p.proname FROM pg_catalog.pg_proc p
    WHERE p.oid OPERATOR(pg_catalog.=) ANY (SELECT m.objid FROM members m)
      AND p.pronamespace OPERATOR(pg_catalog.<>) 'pgbenchx'::pg_catalog.regnamespace
    UNION
    -- entry points: the Makefile checks this list (pgbenchx_entry_points)
    SELECT pg_catalog.unnest('{pgbench_init,run_bench,run_sweep,run_replay,run_experiment}'::pg_catalog.name[])
)
SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text,
       pg_catalog.pg_get_userbyid(p.proowner),
       CASE WHEN p.pronamespace OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.regnamespace
            THEN 'it is in schema pgbenchx'
            ELSE pg_catalog.format('it has the name of pgbenchx''s entry point %s', p.proname) END
FROM pg_catalog.pg_proc p, ext
WHERE (p.proname OPERATOR(pg_catalog.=) ANY (SELECT n.proname FROM names n)
       OR p.pronamespace OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.regnamespace)
  AND (routines IS NULL OR p.oid OPERATOR(pg_catalog.=) ANY (routines))
  AND NOT p.oid OPERATOR(pg_catalog.=) ANY (SELECT m.objid FROM members m)
  AND NOT pg_catalog.pg_has_role(p.proowner, ext.extowner, 'USAGE')
ORDER BY 1
$$;

DO $guard$
DECLARE
    found text;
    fix text;
BEGIN
    SELECT pg_catalog.string_agg(pg_catalog.format('%s, owned by %I: %s', c.routine, c.owner, c.reason), '; '),
           pg_catalog.string_agg(pg_catalog.format('DROP ROUTINE %s;', c.routine), ' ')
      INTO found, fix
      FROM pgbenchx.name_collisions() c;
    IF found IS NOT NULL THEN
        RAISE EXCEPTION 'routines of other roles use names of extension pgbenchx'
            USING ERRCODE = 'duplicate_function',
                  DETAIL = found || '.  A caller of pgbenchx, a superuser too, could run them in place of pgbenchx''s own.',
                  HINT = 'Read them, then drop them (' || fix || ') or give them to a trusted role (ALTER ROUTINE ... OWNER TO), and run the command again.';
    END IF;
END
$guard$;
