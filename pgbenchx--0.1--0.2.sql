/*
 * pgbenchx--0.1--0.2.sql: ALTER EXTENSION pgbenchx UPDATE from 0.1, the
 * first release, to 0.2.  Frozen once released: a later change ships as
 * pgbenchx--0.2--0.3.sql, never as an edit here.
 *
 * Tables: unchanged (no delta).  Every stored result stays as it is.
 *
 * The seam between SQL and C: 0.1 bound run_bench, both run_sweep and
 * run_replay to C directly, with their arguments read by position.  0.2
 * adds one C function per kind of call, pgbenchx.launch_bench, launch_sweep
 * and launch_replay, which take the options by name as jsonb, and replaces
 * the four entry points, with the same parameters and defaults, by PL/pgSQL
 * wrappers that call them.  CREATE OR REPLACE keeps each entry point's
 * privileges; a role that may execute an entry point is granted EXECUTE on
 * its launch function too, as grant_runner does on a fresh 0.2.
 *
 * The 0.2 library refuses the 0.1 entry points' C symbols with a message
 * naming ALTER EXTENSION pgbenchx UPDATE, until this script has run.
 */

\echo Use "ALTER EXTENSION pgbenchx UPDATE TO '0.2'" to load this file. \quit

-- The C side of the seam, one function per kind of call.  Callers: the
-- wrappers below, as the calling role.
CREATE FUNCTION pgbenchx.launch_bench(options jsonb) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_launch_bench'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

CREATE FUNCTION pgbenchx.launch_sweep(options jsonb) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_launch_sweep'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

CREATE FUNCTION pgbenchx.launch_replay(options jsonb) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_launch_replay'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

-- One run of clients for duration seconds (or transactions per client).
-- Returns its run_id.
CREATE OR REPLACE FUNCTION run_bench(
    clients      int,
    duration     int DEFAULT NULL,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL,
    check_tpcb   boolean DEFAULT false)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
AS $$
BEGIN
    RETURN pgbenchx.launch_bench(
         pg_catalog.jsonb_build_object(
             'clients', clients, 'duration', duration, 'script', script,
             'jobs', jobs, 'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'check_tpcb', check_tpcb)
         || CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

-- One run per client count of pgbenchx.sweep_ladder(min_clients,
-- max_clients), one after the other.  Returns its sweep_id.
CREATE OR REPLACE FUNCTION run_sweep(
    min_clients  int,
    max_clients  int,
    duration     int DEFAULT NULL,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL,
    repeats      int DEFAULT 1,
    check_tpcb   boolean DEFAULT false)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
AS $$
BEGIN
    RETURN pgbenchx.launch_sweep(
         pg_catalog.jsonb_build_object(
             'min_clients', min_clients, 'max_clients', max_clients,
             'duration', duration, 'script', script, 'jobs', jobs,
             'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'repeats', repeats, 'check_tpcb', check_tpcb)
         || CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

-- The same, for an explicit list of client counts, in the order given.
CREATE OR REPLACE FUNCTION run_sweep(
    clients      int[],
    duration     int DEFAULT NULL,
    script       text DEFAULT 'tpcb-like',
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    transactions bigint DEFAULT NULL,
    vacuum       boolean DEFAULT true,
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    random_seed  bigint DEFAULT NULL,
    variables    jsonb DEFAULT NULL,
    rate         float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    max_tries    int DEFAULT 1,
    connect_per_transaction boolean DEFAULT false,
    tags         jsonb DEFAULT NULL,
    repeats      int DEFAULT 1,
    check_tpcb   boolean DEFAULT false)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
AS $$
BEGIN
    RETURN pgbenchx.launch_sweep(
         pg_catalog.jsonb_build_object(
             'clients', clients, 'duration', duration, 'script', script,
             'jobs', jobs, 'protocol', protocol, 'transactions', transactions,
             'vacuum', vacuum, 'checkpoint', checkpoint, 'label', label,
             'conninfo', conninfo, 'random_seed', random_seed, 'rate', rate,
             'latency_limit', latency_limit, 'max_tries', max_tries,
             'connect_per_transaction', connect_per_transaction,
             'repeats', repeats, 'check_tpcb', check_tpcb)
         || CASE WHEN variables IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('variables', variables) END
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

-- Replays a list of SQL statements (the text, or with from_file => true the
-- name of a server-side file, which needs pg_read_server_files) over the
-- client ladder of run_sweep(min_clients, max_clients): every client runs the
-- whole list once, in order or (shuffle) in an order of its own.  Each
-- statement counts as one transaction: runs.transactions is the statements
-- executed, runs.failed those that failed (counted, and the replay goes on),
-- runs.qpm the queries per minute; the completion time is bench_duration_s.
-- Returns the sweep_id.
CREATE OR REPLACE FUNCTION run_replay(
    queries      text,
    min_clients  int,
    max_clients  int,
    from_file    boolean DEFAULT false,
    shuffle      boolean DEFAULT false,
    jobs         int DEFAULT NULL,
    protocol     text DEFAULT 'simple',
    checkpoint   boolean DEFAULT true,
    label        text DEFAULT NULL,
    conninfo     text DEFAULT NULL,
    tags         jsonb DEFAULT NULL,
    random_seed  bigint DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN pgbenchx.launch_replay(
         pg_catalog.jsonb_build_object(
             'queries', queries, 'min_clients', min_clients,
             'max_clients', max_clients, 'from_file', from_file,
             'shuffle', shuffle, 'jobs', jobs, 'protocol', protocol,
             'checkpoint', checkpoint, 'label', label, 'conninfo', conninfo,
             'random_seed', random_seed)
         || CASE WHEN tags IS NULL THEN '{}'::pg_catalog.jsonb
                 ELSE pg_catalog.jsonb_build_object('tags', tags) END);
END
$$;

REVOKE ALL ON FUNCTION pgbenchx.launch_bench(jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.launch_sweep(jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.launch_replay(jsonb) FROM PUBLIC;

/*
 * The roles that may execute an entry point (grant_runner's runners, or
 * any grant of the user's) get EXECUTE on its launch function.  A GRANT in
 * an extension script is recorded in pg_init_privs as the extension's own
 * initial privilege, which pg_dump does not dump; the initial privileges of
 * the launch functions are put back to what a fresh CREATE EXTENSION
 * records (the REVOKE above), so that pg_dump keeps these grants as the
 * user's, like those of the entry points themselves.
 */
DO $$
DECLARE
    f    record;
    g    record;
    init pg_catalog.aclitem[];
BEGIN
    FOR f IN
        SELECT l.entry, l.launch::pg_catalog.regprocedure AS launch
        FROM (VALUES ('run_bench', 'pgbenchx.launch_bench(jsonb)'),
                     ('run_sweep', 'pgbenchx.launch_sweep(jsonb)'),
                     ('run_replay', 'pgbenchx.launch_replay(jsonb)')) l(entry, launch)
    LOOP
        SELECT i.initprivs INTO init FROM pg_catalog.pg_init_privs i
        WHERE i.objoid OPERATOR(pg_catalog.=) f.launch::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
        FOR g IN
            SELECT DISTINCT a.grantee
            FROM pg_catalog.pg_depend d
            JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
            CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
            WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
              AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass::pg_catalog.oid
              AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
                                                     WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.name)
              AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog."char"
              AND p.proname OPERATOR(pg_catalog.=) f.entry::pg_catalog.name
              AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text
              AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
            ORDER BY a.grantee
        LOOP
            EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s', f.launch,
                                      CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                           ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
        END LOOP;
        UPDATE pg_catalog.pg_init_privs i SET initprivs = init
        WHERE i.objoid OPERATOR(pg_catalog.=) f.launch::pg_catalog.oid
          AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND i.objsubid OPERATOR(pg_catalog.=) 0;
    END LOOP;
END $$;
