
/*
 * 90_runner_grants: the routines 0.4 adds, for the roles that already run
 * benchmarks (the pattern of 0.2--0.3's 90_runner_grants.sql).
 * grant_runner gives a runner EXECUTE on every routine of the extension; a
 * runner granted under 0.3 holds EXECUTE on pgbenchx.wait, and gets the new
 * routines here, as grant_runner would have given them.  A GRANT in an
 * extension script is recorded in pg_init_privs as the extension's own
 * initial privilege, which pg_dump does not dump: the initial privileges
 * are put back to what a fresh CREATE EXTENSION records (each routine's
 * REVOKE ... FROM PUBLIC), so that pg_dump keeps these grants as the
 * user's.  (The entry points and pgbench_init, dropped and re-created by
 * 30_generators.sql and 40_init_jobs.sql, get back the grants they had
 * there; run_generators gets its SELECT grants in 30_generators.sql.)
 */
DO $$
DECLARE
    g    record;
    f    pg_catalog.regprocedure;
    init pg_catalog.aclitem[];
BEGIN
    FOREACH f IN ARRAY ARRAY['pgbenchx.launch_part(jsonb)',
                             'pgbenchx.part_go(bigint, timestamptz)',
                             'pgbenchx.generator_status()']::pg_catalog.regprocedure[] LOOP
        SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
        WHERE i.objoid OPERATOR(pg_catalog.=) f::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
        FOR g IN
            SELECT DISTINCT a.grantee
            FROM pg_catalog.pg_proc p
            CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
            WHERE p.oid OPERATOR(pg_catalog.=) 'pgbenchx.wait(bigint)'::pg_catalog.regprocedure::pg_catalog.oid
              AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text
              AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
            ORDER BY a.grantee
        LOOP
            EXECUTE pg_catalog.format('GRANT EXECUTE ON ROUTINE %s TO %s', f,
                                      CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                           ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
        END LOOP;
        UPDATE pg_catalog.pg_init_privs i SET initprivs = init
        WHERE i.objoid OPERATOR(pg_catalog.=) f::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
    END LOOP;
END $$;
