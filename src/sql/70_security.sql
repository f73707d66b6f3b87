/*
 * src/sql/70_security.sql: who may do what: caller_role (for import's
 * owner), session_secret, grant_runner, revoke_runner and runner_members.
 */

-- The role in effect outside every SECURITY DEFINER function: import,
-- which runs as the extension's owner, records it as the owner of what it
-- loads.  Internal: runners are not granted it.
CREATE OR REPLACE FUNCTION pgbenchx.caller_role() RETURNS name
AS 'MODULE_PATHNAME', 'pgbenchx_caller_role'
LANGUAGE C STABLE PARALLEL RESTRICTED;

-- What this session gives the connections of a run started by the role
-- that logged in, by kind only, never the secret: 'password' (given in the
-- startup packet as pgbenchx.password), 'scram keys' (PostgreSQL 18: the
-- keys of this session's own SCRAM login), or 'none' (then a
-- non-superuser's run needs password= in conninfo, which is SQL text).
-- Callers: runners (the command line asks it before a run).
CREATE OR REPLACE FUNCTION pgbenchx.session_secret() RETURNS text
AS 'MODULE_PATHNAME', 'pgbenchx_session_secret'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

/*
 * Runners.  grant_runner(role) grants, in one call, exactly what a runner
 * needs: USAGE on the schema pgbenchx, EXECUTE on every function and
 * procedure of the extension (the entry points pgbench_init, run_bench,
 * both run_sweep and run_replay in the extension's schema, and the
 * pgbenchx routines) but those of runner_exclusions below, and SELECT on
 * every table and view of the extension.  Nothing else: no write privilege
 * (every write goes through the functions, which check ownership and write
 * as the extension's owner) and nothing on the sequences.  The list is
 * driven by the catalogue of the extension's members (pg_depend deptype
 * 'e'), so a routine added later is covered.  revoke_runner(role) revokes
 * every privilege the role holds on every member.  pgbench_init also needs
 * CREATE on the schema the pgbench tables go to, which neither gives.
 * Callers: a superuser or the extension's owner (a role with its
 * privileges); EXECUTE is not granted to anyone else.
 */
CREATE OR REPLACE FUNCTION pgbenchx.grant_runner(role regrole) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    m record;
BEGIN
    FOR m IN SELECT * FROM pgbenchx.runner_members(role, 'grant_runner') LOOP
        IF m.kind = 'routine' AND NOT m.excluded THEN
            EXECUTE format('GRANT EXECUTE ON ROUTINE %s TO %s', m.object, role);
        ELSIF m.kind = 'table' THEN
            EXECUTE format('GRANT SELECT ON TABLE %s TO %s', m.object, role);
        ELSIF m.kind = 'schema' THEN
            EXECUTE format('GRANT USAGE ON SCHEMA %s TO %s', m.object, role);
        END IF;
    END LOOP;
END $$;

CREATE OR REPLACE FUNCTION pgbenchx.revoke_runner(role regrole) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    m record;
BEGIN
    FOR m IN SELECT * FROM pgbenchx.runner_members(role, 'revoke_runner') LOOP
        EXECUTE format('REVOKE ALL ON %s %s FROM %s', upper(m.kind), m.object, role);
    END LOOP;
END $$;

-- The extension's members as grant_runner and revoke_runner see them, after
-- checking the caller and the role: kind (routine, table, sequence,
-- schema), the object's name as GRANT takes it, and whether a runner is
-- kept from it.  Internal.
CREATE OR REPLACE FUNCTION pgbenchx.runner_members(role regrole, caller text,
                                        OUT kind text, OUT object text, OUT excluded boolean)
RETURNS SETOF record
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    ext_owner oid;
    -- routines a runner never gets: these, and internal helpers that only
    -- run inside SECURITY DEFINER functions
    runner_exclusions CONSTANT regprocedure[] := ARRAY[
        'pgbenchx.grant_runner(regrole)'::regprocedure,
        'pgbenchx.revoke_runner(regrole)'::regprocedure,
        'pgbenchx.runner_members(regrole, text)'::regprocedure,
        'pgbenchx.caller_role()'::regprocedure];
BEGIN
    IF role IS NULL THEN
        RAISE EXCEPTION 'argument "role" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = format('Pass a role: SELECT pgbenchx.%s(''alice'').', caller);
    END IF;
    IF role OPERATOR(pg_catalog.=) 0::oid::regrole THEN
        RAISE EXCEPTION 'pgbenchx.% takes a role, not PUBLIC', caller
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Nothing of pgbenchx is granted to PUBLIC; name the role that may benchmark.';
    END IF;
    SELECT e.extowner INTO ext_owner FROM pg_catalog.pg_extension e
    WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::name;
    IF NOT pg_catalog.pg_has_role(current_user, ext_owner, 'USAGE') THEN
        RAISE EXCEPTION 'permission denied for pgbenchx.%', caller
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = format('Only a superuser or the owner of extension pgbenchx (role %s) grants and revokes runners.',
                                  ext_owner::regrole),
                  HINT = 'Ask a superuser to run it.';
    END IF;
    RETURN QUERY
    SELECT CASE WHEN d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::regclass THEN 'routine'
                WHEN d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::regclass THEN 'schema'
                WHEN c.relkind OPERATOR(pg_catalog.=) 'S'::"char" THEN 'sequence'
                ELSE 'table' END,
           CASE WHEN d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::regclass
                     THEN d.objid::regprocedure::text
                WHEN d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::regclass
                     THEN d.objid::regnamespace::text
                ELSE d.objid::regclass::text END,
           d.objid OPERATOR(pg_catalog.=) ANY (runner_exclusions::oid[])
    FROM pg_catalog.pg_depend d
    LEFT JOIN pg_catalog.pg_class c
           ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::regclass
          AND c.oid OPERATOR(pg_catalog.=) d.objid
    WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::regclass
      AND d.refobjid OPERATOR(pg_catalog.=)
          (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::name)
      AND d.deptype OPERATOR(pg_catalog.=) 'e'::"char"
      AND (d.classid OPERATOR(pg_catalog.=) ANY (ARRAY['pg_catalog.pg_proc'::regclass,
                                                       'pg_catalog.pg_namespace'::regclass]::oid[])
           OR c.relkind OPERATOR(pg_catalog.=) ANY (ARRAY['r', 'p', 'v', 'm', 'f', 'S']::"char"[]))
    ORDER BY 1, 2;
END $$;
