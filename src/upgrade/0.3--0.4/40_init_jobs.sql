
/*
 * 40_init_jobs (issue 15): pgbench_init gains jobs (the last parameter,
 * default NULL), the background workers that generate pgbench_accounts.
 * It is dropped and created again with the grants it had, as
 * 0.2--0.3/63_explain_sql.sql does for the entry points.
 */

-- Who may execute pgbench_init (any grant of the user's, or grant_runner's
-- runners), kept for its new version in a setting of this transaction.
SELECT pg_catalog.set_config('pgbenchx_upgrade.init_grants', coalesce(pg_catalog.string_agg(
           a.grantee::pg_catalog.text, ','), ''), true)
FROM pg_catalog.pg_proc p
CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
WHERE p.oid OPERATOR(pg_catalog.=) 'pgbench_init(int, int, int, text, boolean, boolean)'::pg_catalog.regprocedure::pg_catalog.oid
  AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text
  AND a.grantee OPERATOR(pg_catalog.<>) p.proowner;

DROP FUNCTION pgbench_init(int, int, int, text, boolean, boolean);

CREATE FUNCTION pgbench_init(
    scale            int DEFAULT 1,
    fillfactor       int DEFAULT 100,
    partitions       int DEFAULT 0,
    partition_method text DEFAULT 'range',
    unlogged         boolean DEFAULT false,
    foreign_keys     boolean DEFAULT false,
    jobs             int DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'pgbench_init'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION pgbench_init(int, int, int, text, boolean, boolean, int) FROM PUBLIC;

/*
 * The grants it had, back on the new version.  A GRANT in an extension
 * script is recorded in pg_init_privs as the extension's initial
 * privilege, which pg_dump does not dump; the initial privileges are put
 * back to what a fresh CREATE EXTENSION records (the REVOKE above), so
 * that pg_dump keeps these grants as the user's.
 */
DO $$
DECLARE
    sig  pg_catalog.regprocedure := 'pgbench_init(int, int, int, text, boolean, boolean, int)'::pg_catalog.regprocedure;
    g    record;
    init pg_catalog.aclitem[];
BEGIN
    SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
    WHERE i.objoid OPERATOR(pg_catalog.=) sig::pg_catalog.oid
      AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
      AND i.objsubid OPERATOR(pg_catalog.=) 0;
    FOR g IN
        SELECT DISTINCT x::pg_catalog.oid AS grantee
        FROM pg_catalog.unnest(pg_catalog.string_to_array(
                 pg_catalog.current_setting('pgbenchx_upgrade.init_grants'), ',')) x
        ORDER BY 1
    LOOP
        EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s', sig,
                                  CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                       ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
    END LOOP;
    UPDATE pg_catalog.pg_init_privs i SET initprivs = init
    WHERE i.objoid OPERATOR(pg_catalog.=) sig::pg_catalog.oid
      AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
      AND i.objsubid OPERATOR(pg_catalog.=) 0;
END $$;
