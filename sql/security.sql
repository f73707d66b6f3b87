-- Security: what grant_runner gives and revoke_runner takes, runners
-- read-only on every table, writes only through the functions, script
-- owners, and built-ins that no registered name can shadow.  The parts
-- with workers (two runners at once, cancel, liveness, free connections)
-- are in test/t/029_two_runners.pl.
\i sql/include/common.sql
CREATE ROLE regress_pgbx_a;
CREATE ROLE regress_pgbx_b;
CREATE ROLE regress_pgbx_a_member IN ROLE regress_pgbx_a;

-- grant_runner and revoke_runner: a superuser or the extension's owner only
SELECT pgbx_try($$SELECT pgbenchx.grant_runner(NULL)$$);
SELECT pgbx_try($$SELECT pgbenchx.grant_runner('-')$$);
SELECT pgbx_try($$SELECT pgbenchx.revoke_runner(NULL)$$);
SELECT pgbenchx.grant_runner('regress_pgbx_a');
SELECT pgbenchx.grant_runner('regress_pgbx_b');
SELECT pgbenchx.grant_runner('regress_pgbx_a_member');
SET ROLE regress_pgbx_b;
SELECT pgbx_try($$SELECT pgbenchx.grant_runner('regress_pgbx_b')$$);
SELECT pgbx_try($$SELECT pgbenchx.revoke_runner('regress_pgbx_a')$$);
RESET ROLE;

-- exactly what a runner needs, from the catalogue of the extension's
-- members: EXECUTE on every routine but the internal ones, SELECT and no
-- write privilege on every table and view, nothing on the sequences
CREATE VIEW pgbx_members AS
SELECT d.classid::regclass AS catalog, d.objid,
       CASE WHEN d.classid = 'pg_proc'::regclass THEN d.objid::regprocedure::text
            WHEN d.classid = 'pg_class'::regclass THEN d.objid::regclass::text
            ELSE d.objid::regnamespace::text END AS object,
       c.relkind
FROM pg_depend d
LEFT JOIN pg_class c ON d.classid = 'pg_class'::regclass AND c.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pgbenchx') AND d.deptype = 'e';
GRANT SELECT ON pgbx_members TO regress_pgbx_b;
SELECT object AS not_executable_by_runners FROM pgbx_members
WHERE catalog = 'pg_proc'::regclass AND NOT has_function_privilege('regress_pgbx_b', objid, 'EXECUTE')
ORDER BY 1;
SELECT count(*) FILTER (WHERE has_function_privilege('regress_pgbx_b', objid, 'EXECUTE')) = count(*) - 7 AS all_others_granted
FROM pgbx_members WHERE catalog = 'pg_proc'::regclass;
SELECT object, relkind,
       has_table_privilege('regress_pgbx_b', objid, 'SELECT') AS sel,
       has_table_privilege('regress_pgbx_b', objid, 'INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER') AS write
FROM pgbx_members WHERE catalog = 'pg_class'::regclass ORDER BY 1;
SELECT object AS sequence, has_sequence_privilege('regress_pgbx_b', objid, 'USAGE, UPDATE, SELECT') AS any_privilege
FROM pgbx_members WHERE relkind = 'S' ORDER BY 1;
SELECT has_schema_privilege('regress_pgbx_b', 'pgbenchx', 'USAGE') AS schema_usage,
       has_schema_privilege('regress_pgbx_b', 'pgbenchx', 'CREATE') AS schema_create;

-- runners cannot write any table of the extension directly, nor draw ids
SET ROLE regress_pgbx_b;
DO $$
DECLARE
    t regclass;
    col name;
    op text;
    refused int := 0;
    tried int := 0;
BEGIN
    FOR t IN SELECT objid::regclass FROM pgbx_members WHERE relkind IN ('r', 'p') LOOP
        SELECT a.attname INTO col FROM pg_attribute a WHERE a.attrelid = t AND a.attnum = 1;
        FOREACH op IN ARRAY ARRAY['INSERT INTO %1$s DEFAULT VALUES', 'UPDATE %1$s SET %2$I = %2$I',
                                  'DELETE FROM %1$s', 'TRUNCATE %1$s'] LOOP
            tried := tried + 1;
            BEGIN
                EXECUTE format(op, t, col);
                RAISE NOTICE 'runner wrote %: %', t, format(op, t, col);
            EXCEPTION WHEN insufficient_privilege THEN
                refused := refused + 1;
            END;
        END LOOP;
    END LOOP;
    RAISE NOTICE '% of % direct writes refused with 42501', refused, tried;
END $$;
SELECT pgbx_try($$SELECT nextval('pgbenchx.id_seq')$$);
-- and can read them all (results are a shared notebook)
SELECT count(*) >= 0 AS reads_runs FROM pgbenchx.runs;
SELECT count(*) >= 0 AS reads_progress FROM pgbenchx.progress;
-- the functions that write do it for them, as the extension
SELECT pgbenchx.capture_environment() > 0 AS captured;
SELECT pgbenchx.coordinator_alive(NULL) AS null_alive, pgbenchx.coordinator_alive(pg_backend_pid()) AS backend_alive;
RESET ROLE;

-- script owners: the registering role owns the script
SET ROLE regress_pgbx_a;
SELECT pgbenchx.add_script('a-script', 'SELECT 1;');
RESET ROLE;
SELECT name, owner FROM pgbenchx.custom_scripts WHERE name = 'a-script';
-- another runner may neither replace, drop, nor run it (the message names the owner)
SET ROLE regress_pgbx_b;
SELECT pgbx_try($$SELECT pgbenchx.add_script('a-script', 'SELECT 2;', replace => true)$$);
SELECT pgbx_try($$SELECT pgbenchx.add_script('a-script', 'SELECT 2;')$$);
SELECT pgbx_try($$SELECT pgbenchx.drop_script('a-script')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'a-script', conninfo => 'password=x')$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'select-only@1, a-script@1', conninfo => 'password=x')$$);
SELECT pgbx_try($$SELECT run_sweep(1, 2, 1, 'a-script', conninfo => 'password=x')$$);
SELECT pgbx_try($$SELECT run_sweep('{1}'::int[], 1, 'a-script', conninfo => 'password=x')$$);
-- but may read it, as every result
SELECT pgbenchx.script_text('a-script');
RESET ROLE;
SELECT body, owner, updated_at IS NULL AS never_replaced FROM pgbenchx.custom_scripts WHERE name = 'a-script';
-- a member of the owner may replace it (the owner stays) and run it: its
-- run gets past the script check to the clients' login
SET ROLE regress_pgbx_a_member;
SELECT pgbenchx.add_script('a-script', 'SELECT 3;', replace => true);
SELECT split_part(pgbx_try($$SELECT run_bench(1, 1, 'a-script', conninfo => 'password=x')$$), ':', 1) <> '42501' AS member_may_run;
RESET ROLE;
SELECT body, owner FROM pgbenchx.custom_scripts WHERE name = 'a-script';
-- the owner drops it; a superuser may drop anyone's
SET ROLE regress_pgbx_b;
SELECT pgbenchx.add_script('b-script', 'SELECT 1;');
RESET ROLE;
SELECT pgbenchx.drop_script('b-script');
SET ROLE regress_pgbx_a;
SELECT pgbenchx.drop_script('a-script');
RESET ROLE;
SELECT count(*) AS scripts_left FROM pgbenchx.custom_scripts;

-- no registered name equals or abbreviates a built-in
SET ROLE regress_pgbx_b;
SELECT n, split_part(pgbx_try(format('SELECT pgbenchx.add_script(%L, %L)', n, 'SELECT 666;')), E'\n', 1) AS refused
FROM unnest(ARRAY['tpcb', 'tpcb-like', 'select', 's', 't', 'simple-update', 'select-only', 'si', 'tpcb-lik']) n;
SELECT pgbenchx.add_script('tpcb-like2', 'SELECT 1;');
SELECT pgbenchx.drop_script('tpcb-like2');
RESET ROLE;
-- rows that got in another way (a restore) never stand in for a built-in
INSERT INTO pgbenchx.custom_scripts (name, body, owner)
VALUES ('tpcb-like', 'SELECT 666;', 'regress_pgbx_b'), ('tpcb', 'SELECT 666;', 'regress_pgbx_b'),
       ('s', 'SELECT 666;', 'regress_pgbx_b'), ('select-only', 'SELECT 666;', 'regress_pgbx_b');
SELECT pgbenchx.script_text('tpcb-like') = (SELECT body FROM pgbenchx.builtin_scripts() WHERE name = 'tpcb-like') AS builtin_wins,
       pgbenchx.script_text('tpcb') = (SELECT body FROM pgbenchx.builtin_scripts() WHERE name = 'tpcb-like') AS builtin_prefix_wins,
       pgbenchx.script_text('select-only') = (SELECT body FROM pgbenchx.builtin_scripts() WHERE name = 'select-only') AS select_only_wins;
SELECT pgbx_try($$SELECT pgbenchx.script_text('s')$$);
SELECT count(*) AS shadow_runs FROM pgbenchx.runs WHERE script = 's';
DELETE FROM pgbenchx.custom_scripts;

-- import runs as the extension; what it loads belongs to the caller
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, owner)
VALUES (9001, 'completed', 'tpcb-like', '{1}', 1, 'regress_pgbx_a');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, transactions, tps, owner)
VALUES (9002, 9001, 'completed', 'tpcb-like', 1, 1, 1, 10, 10, 'regress_pgbx_a');
SELECT pgbenchx.export(ARRAY[9001]::bigint[]) AS doc \gset
DELETE FROM pgbenchx.sweeps WHERE sweep_id = 9001;
SET ROLE regress_pgbx_b;
SELECT (pgbenchx.import(:'doc'))[1] AS new_sweep \gset
RESET ROLE;
SELECT s.owner AS sweep_owner, r.owner AS run_owner
FROM pgbenchx.sweeps s JOIN pgbenchx.runs r USING (sweep_id) WHERE s.sweep_id = :new_sweep;
DELETE FROM pgbenchx.sweeps WHERE sweep_id = :new_sweep;

-- the writes made as the extension's owner ignore the caller's search_path:
-- look-alike operators and functions a runner plants ahead of pg_catalog
-- never run there
CREATE SCHEMA regress_pgbx_trap AUTHORIZATION regress_pgbx_b;
SET ROLE regress_pgbx_b;
SET search_path = regress_pgbx_trap, pg_catalog;
CREATE TABLE regress_pgbx_trap.sprung (who name, what text);
GRANT INSERT ON regress_pgbx_trap.sprung TO PUBLIC;
CREATE FUNCTION regress_pgbx_trap.note(what text) RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
    INSERT INTO regress_pgbx_trap.sprung VALUES (current_user, what);
    BEGIN
        EXECUTE 'ALTER ROLE regress_pgbx_b SUPERUSER';
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
END $f$;
CREATE FUNCTION regress_pgbx_trap.eq(a text, b text) RETURNS boolean LANGUAGE plpgsql AS
$f$ BEGIN PERFORM regress_pgbx_trap.note('text ='); RETURN a OPERATOR(pg_catalog.=) b; END $f$;
CREATE OPERATOR regress_pgbx_trap.= (FUNCTION = regress_pgbx_trap.eq, LEFTARG = text, RIGHTARG = text);
CREATE FUNCTION regress_pgbx_trap.eq(a int8, b int8) RETURNS boolean LANGUAGE plpgsql AS
$f$ BEGIN PERFORM regress_pgbx_trap.note('int8 ='); RETURN a OPERATOR(pg_catalog.=) b; END $f$;
CREATE OPERATOR regress_pgbx_trap.= (FUNCTION = regress_pgbx_trap.eq, LEFTARG = int8, RIGHTARG = int8);
CREATE FUNCTION regress_pgbx_trap.now() RETURNS timestamptz LANGUAGE plpgsql AS
$f$ BEGIN PERFORM regress_pgbx_trap.note('now'); RETURN pg_catalog.now(); END $f$;
CREATE FUNCTION regress_pgbx_trap.nextval(regclass) RETURNS bigint LANGUAGE plpgsql AS
$f$ BEGIN PERFORM regress_pgbx_trap.note('nextval'); RETURN 1; END $f$;
CREATE FUNCTION regress_pgbx_trap.md5(text) RETURNS text LANGUAGE plpgsql AS
$f$ BEGIN PERFORM regress_pgbx_trap.note('md5'); RETURN pg_catalog.md5($1); END $f$;
SELECT pgbenchx.add_script('trap-script', 'SELECT 1;');
SELECT pgbenchx.add_script('trap-script', 'SELECT 2;', replace => true);
SELECT pgbenchx.drop_script('trap-script');
SELECT pgbenchx.capture_environment() > 0 AS captured;
SELECT public.pgbx_try($$SELECT pgbenchx.cancel(-1)$$);
SELECT public.pgbx_try($$SELECT public.run_bench(1, 1, 'select-only', conninfo => 'password=x')$$) IS NOT NULL AS tried_a_run;
RESET search_path;
RESET ROLE;
SELECT who, what FROM regress_pgbx_trap.sprung WHERE who <> 'regress_pgbx_b';
SELECT rolsuper AS runner_became_superuser FROM pg_roles WHERE rolname = 'regress_pgbx_b';
DROP SCHEMA regress_pgbx_trap CASCADE;

-- revoke_runner takes it all away
SELECT pgbenchx.revoke_runner('regress_pgbx_b');
SELECT count(*) AS routines_left FROM pgbx_members
WHERE catalog = 'pg_proc'::regclass AND has_function_privilege('regress_pgbx_b', objid, 'EXECUTE');
SELECT count(*) AS tables_left FROM pgbx_members
WHERE catalog = 'pg_class'::regclass AND has_table_privilege('regress_pgbx_b', objid, 'SELECT, INSERT, UPDATE, DELETE');
SELECT has_schema_privilege('regress_pgbx_b', 'pgbenchx', 'USAGE') AS schema_usage;
SET ROLE regress_pgbx_b;
SELECT pgbx_try($$SELECT count(*) FROM pgbenchx.runs$$);
SELECT pgbx_try($$SELECT run_bench(1, 1)$$);
RESET ROLE;

DROP VIEW pgbx_members;
SELECT pgbenchx.revoke_runner('regress_pgbx_a');
SELECT pgbenchx.revoke_runner('regress_pgbx_a_member');
DROP ROLE regress_pgbx_a_member;
DROP ROLE regress_pgbx_a;
DROP ROLE regress_pgbx_b;
