/*
 * src/sql/90_grants.sql: the privileges of what this script created, last,
 * in the install script and in every upgrade script alike (the routines
 * part, src/sql/10_* .. 90_*, ends every one of them; Makefile).
 *
 * A routine or a relation has no ACL (NULL: the defaults) until its first
 * GRANT or REVOKE, and every routine of pgbenchx has had its REVOKE since
 * 0.1: so the members without one are exactly those this script created,
 * all of them in a fresh install, and in an update the routines and views
 * that are new or that the delta dropped to re-create (a CREATE OR REPLACE
 * keeps an existing member's privileges).  Each of them gets what a fresh
 * install gives it:
 *   - a routine: nothing for PUBLIC (REVOKE ALL ... FROM PUBLIC, recorded as
 *     its initial privilege, which pg_dump leaves out); a relation keeps
 *     its owner-only default;
 *   - the roles that already run benchmarks (those holding EXECUTE on
 *     pgbenchx.wait, none in a fresh install) get what grant_runner would
 *     give them: EXECUTE on a routine but the exclusions of
 *     pgbenchx.runner_members, SELECT on a table or view.  A GRANT in an
 *     extension script is recorded in pg_init_privs as the extension's own
 *     initial privilege, which pg_dump does not dump: each object's initial
 *     privileges are put back to what they were before those grants (a
 *     fresh install's), so that pg_dump keeps them as the user's.
 * No GRANT or REVOKE is ever run on an existing member: it would record that
 * member's current privileges, the runners' grants included, as initial.
 * Any other grant on a routine or view that a delta drops is gone with it
 * (grant_runner gives runners theirs again; test/t/036 compares the
 * privileges and initial privileges of 0.1 + every UPDATE with a fresh
 * CREATE EXTENSION and grant_runner).
 */
DO $$
DECLARE
    ext_owner pg_catalog.oid;
    routines  pg_catalog.oid[];   -- members created by this script
    relations pg_catalog.oid[];
    runners   pg_catalog.oid[];   -- grantees of EXECUTE on pgbenchx.wait (0: PUBLIC)
    f         pg_catalog.oid;
    g         pg_catalog.oid;
    m         record;
    obj       pg_catalog.oid;
    cls       pg_catalog.oid;
    init      pg_catalog.aclitem[];
BEGIN
    SELECT e.extowner INTO ext_owner FROM pg_catalog.pg_extension e
    WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.name;
    SELECT coalesce(pg_catalog.array_agg(p.oid ORDER BY p.oid), '{}') INTO routines
    FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
    WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
      AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass::pg_catalog.oid
      AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
                                              WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.name)
      AND d.deptype OPERATOR(pg_catalog.=) 'e'::"char"
      AND p.proacl IS NULL;
    SELECT coalesce(pg_catalog.array_agg(c.oid ORDER BY c.oid), '{}') INTO relations
    FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) d.objid
    WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid
      AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass::pg_catalog.oid
      AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
                                              WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.name)
      AND d.deptype OPERATOR(pg_catalog.=) 'e'::"char"
      AND c.relacl IS NULL;

    -- nothing is executable by PUBLIC
    FOREACH f IN ARRAY routines LOOP
        EXECUTE pg_catalog.format('REVOKE ALL ON ROUTINE %s FROM PUBLIC', f::pg_catalog.regprocedure);
    END LOOP;

    -- the runners get what grant_runner would have given them
    SELECT pg_catalog.array_agg(DISTINCT a.grantee ORDER BY a.grantee) INTO runners
    FROM pg_catalog.pg_proc p CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
    WHERE p.oid OPERATOR(pg_catalog.=) 'pgbenchx.wait(bigint)'::pg_catalog.regprocedure::pg_catalog.oid
      AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text
      AND a.grantee OPERATOR(pg_catalog.<>) p.proowner;
    IF runners IS NULL THEN
        RETURN;
    END IF;
    FOR m IN SELECT x.kind, x.object, x.excluded
             FROM pgbenchx.runner_members(ext_owner::pg_catalog.regrole, 'grant_runner') x LOOP
        IF m.kind OPERATOR(pg_catalog.=) 'routine'::pg_catalog.text AND NOT m.excluded THEN
            obj := m.object::pg_catalog.regprocedure::pg_catalog.oid;
            cls := 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid;
            CONTINUE WHEN NOT obj OPERATOR(pg_catalog.=) ANY (routines);
        ELSIF m.kind OPERATOR(pg_catalog.=) 'table'::pg_catalog.text THEN
            obj := m.object::pg_catalog.regclass::pg_catalog.oid;
            cls := 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid;
            CONTINUE WHEN NOT obj OPERATOR(pg_catalog.=) ANY (relations);
        ELSE
            CONTINUE;
        END IF;
        init := NULL;
        SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
        WHERE i.objoid OPERATOR(pg_catalog.=) obj AND i.classoid OPERATOR(pg_catalog.=) cls
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
        FOREACH g IN ARRAY runners LOOP
            EXECUTE pg_catalog.format(CASE WHEN cls OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
                                           THEN 'GRANT EXECUTE ON ROUTINE %s TO %s'
                                           ELSE 'GRANT SELECT ON TABLE %s TO %s' END,
                                      m.object,
                                      CASE WHEN g OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                           ELSE g::pg_catalog.regrole::pg_catalog.text END);
        END LOOP;
        IF init IS NULL THEN
            DELETE FROM pg_catalog.pg_init_privs i
            WHERE i.objoid OPERATOR(pg_catalog.=) obj AND i.classoid OPERATOR(pg_catalog.=) cls
              AND i.objsubid OPERATOR(pg_catalog.=) 0;
        ELSE
            UPDATE pg_catalog.pg_init_privs i SET initprivs = init
            WHERE i.objoid OPERATOR(pg_catalog.=) obj AND i.classoid OPERATOR(pg_catalog.=) cls
              AND i.objsubid OPERATOR(pg_catalog.=) 0;
        END IF;
    END LOOP;
END $$;
