/*
 * src/sql/70_security.sql: who may do what: session_secret, grant_runner,
 * revoke_runner, runner_members and the name guard (name_guard, its event
 * trigger and the check that install and upgrade run first,
 * sql/guard/names.sql).
 */

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
    nsp record;
BEGIN
    -- a runner may not create in the schemas whose names callers type: the
    -- event trigger refuses its routines there by name anyway, but a role
    -- that can create beside the entry points is one grant away from
    -- planting what a superuser's session finds first
    FOR nsp IN
        SELECT n.nspname,
               pg_catalog.pg_has_role(role, n.nspowner, 'USAGE') AS owns,
               EXISTS (SELECT FROM pg_catalog.aclexplode(n.nspacl) a
                       WHERE a.grantee OPERATOR(pg_catalog.=) 0::oid
                         AND a.privilege_type OPERATOR(pg_catalog.=) 'CREATE') AS public_may
        FROM pg_catalog.pg_namespace n
        WHERE n.oid OPERATOR(pg_catalog.=) ANY (ARRAY[
                  (SELECT e.extnamespace FROM pg_catalog.pg_extension e
                   WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::name),
                  'pgbenchx'::regnamespace::oid])
          AND role IS NOT NULL
          AND pg_catalog.has_schema_privilege(role, n.oid, 'CREATE')
        ORDER BY n.nspname
    LOOP
        RAISE EXCEPTION 'role % may create objects in schema %, which holds entry points of pgbenchx', role, nsp.nspname
            USING ERRCODE = 'invalid_grant_operation',
                  DETAIL = 'A routine it created there under another name or signature could run with the rights of whoever calls pgbenchx, a superuser too.',
                  HINT = CASE WHEN nsp.owns
                              THEN pg_catalog.format('The role owns schema %I (or is a member of its owner): give the schema to another role, or install pgbenchx in a schema the role cannot create in.', nsp.nspname)
                              WHEN nsp.public_may
                              THEN pg_catalog.format('REVOKE CREATE ON SCHEMA %I FROM PUBLIC; then give the role a schema of its own (CREATE SCHEMA ... AUTHORIZATION %s) for pgbench_init.', nsp.nspname, role)
                              ELSE pg_catalog.format('REVOKE CREATE ON SCHEMA %I FROM %s (and from the roles it is a member of); then give it a schema of its own (CREATE SCHEMA ... AUTHORIZATION %s) for pgbench_init.', nsp.nspname, role, role) END;
    END LOOP;
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
        'pgbenchx.import_as(jsonb, name)'::regprocedure,
        'pgbenchx.gather_as(text, name)'::regprocedure,
        'pgbenchx.name_collisions(oid[])'::regprocedure,
        'pgbenchx.name_guard()'::regprocedure];
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

/*
 * The name guard (issue 34, section 1).  After every command that creates,
 * renames, moves or gives away a routine, pgbenchx.name_collisions() (of
 * src/sql/guard/names.sql, which install and upgrade run first) is asked
 * about the routines the command touched: one of another role's, under the
 * name of an entry point (in any schema) or in the schema pgbenchx, is
 * refused, and the command rolled back.  SECURITY DEFINER: it runs after
 * every such command of every role, most of which have no USAGE on schema
 * pgbenchx nor EXECUTE on name_collisions; it only reads the catalogue,
 * under a pinned search_path, and takes no argument from the caller.
 * Roles with the privileges of the extension's owner are not limited: they
 * could as well drop the trigger.
 */
CREATE OR REPLACE FUNCTION pgbenchx.name_guard() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    touched oid[];
    c record;
BEGIN
    SELECT pg_catalog.array_agg(d.objid) INTO touched
    FROM pg_catalog.pg_event_trigger_ddl_commands() d
    WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::regclass;
    IF touched IS NULL THEN
        RETURN;
    END IF;
    FOR c IN SELECT * FROM pgbenchx.name_collisions(touched) LOOP
        RAISE EXCEPTION 'permission denied to make routine % of role %', c.routine, c.owner
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = pg_catalog.format('%s.  Only a role with the privileges of the owner of extension pgbenchx (role %s) may: a caller of pgbenchx, a superuser too, could run it in place of pgbenchx''s own.',
                                             pg_catalog.upper(pg_catalog.left(c.reason, 1)) OPERATOR(pg_catalog.||) pg_catalog.substr(c.reason, 2),
                                             (SELECT e.extowner::regrole FROM pg_catalog.pg_extension e
                                              WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::name)),
                  HINT = 'Choose another name or schema.';
    END LOOP;
END $$;

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_event_trigger t
                   WHERE t.evtname OPERATOR(pg_catalog.=) 'pgbenchx_name_guard'::name) THEN
        CREATE EVENT TRIGGER pgbenchx_name_guard ON ddl_command_end
            WHEN TAG IN ('CREATE FUNCTION', 'CREATE PROCEDURE', 'CREATE AGGREGATE',
                         'ALTER FUNCTION', 'ALTER PROCEDURE', 'ALTER ROUTINE', 'ALTER AGGREGATE')
            EXECUTE FUNCTION pgbenchx.name_guard();
    END IF;
END $$;
