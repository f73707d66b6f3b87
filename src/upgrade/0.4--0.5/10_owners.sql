/*
 * 10_owners (issue 20, section 1): code a runner owns never runs with
 * another role's rights.  pgbenchx.trust_check(relations, used_by) checks
 * that the relations and the code they run are owned by roles that have
 * the caller's privileges (src/trust.c); check_tpcb() calls it before it
 * reads the pgbench tables, and is re-created in full, as
 * src/sql/10_entry_points.sql creates it.  The new routine reaches the
 * roles that already run benchmarks (those holding EXECUTE on
 * pgbenchx.wait), as grant_runner would have given it, with its initial
 * privileges put back to a fresh install's (the pattern of 0.3--0.4's
 * 90_runner_grants.sql).
 */
CREATE FUNCTION pgbenchx.trust_check(relations text[], used_by text) RETURNS void
AS 'MODULE_PATHNAME', 'pgbenchx_trust_check'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
REVOKE ALL ON FUNCTION pgbenchx.trust_check(text[], text) FROM PUBLIC;

CREATE OR REPLACE FUNCTION pgbenchx.check_tpcb(
    OUT accounts_sum bigint, OUT branches_sum bigint,
    OUT tellers_sum bigint, OUT history_sum bigint, OUT consistent boolean)
RETURNS record
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED AS $$
-- Not pinned to a search_path: the pgbench tables are found through the
-- caller's, as pgbench finds them.  So every function, operator and type
-- here is qualified with pg_catalog, and nothing else can resolve to an
-- object of another schema.
DECLARE
    missing pg_catalog.text;
BEGIN
    SELECT pg_catalog.string_agg(u.t, ', ' ORDER BY u.ord) INTO missing
    FROM pg_catalog.unnest(ARRAY['pgbench_accounts', 'pgbench_branches', 'pgbench_tellers',
                                 'pgbench_history']::pg_catalog.text[]) WITH ORDINALITY u(t, ord)
    WHERE pg_catalog.to_regclass(u.t) IS NULL;
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'the pgbench tables are missing'
            USING ERRCODE = 'undefined_table',
                  DETAIL = pg_catalog.format('Not found in search_path (%s): %s.',
                                             pg_catalog.current_setting('search_path'), missing),
                  HINT = 'Create them first, for example with SELECT pgbench_init(scale => 10), or set search_path to their schema.';
    END IF;
    -- the tables (and the code they run) must be trusted by the caller (trust.c)
    PERFORM pgbenchx.trust_check(ARRAY['pgbench_accounts', 'pgbench_branches', 'pgbench_tellers',
                                       'pgbench_history']::pg_catalog.text[], 'check_tpcb');
    SELECT (SELECT coalesce(pg_catalog.sum(a.abalance), 0) FROM pgbench_accounts a),
           (SELECT coalesce(pg_catalog.sum(b.bbalance), 0) FROM pgbench_branches b),
           (SELECT coalesce(pg_catalog.sum(t.tbalance), 0) FROM pgbench_tellers t),
           (SELECT coalesce(pg_catalog.sum(h.delta), 0) FROM pgbench_history h)
      INTO accounts_sum, branches_sum, tellers_sum, history_sum;
    consistent := accounts_sum OPERATOR(pg_catalog.=) branches_sum
                  AND branches_sum OPERATOR(pg_catalog.=) tellers_sum
                  AND tellers_sum OPERATOR(pg_catalog.=) history_sum;
END
$$;

DO $$
DECLARE
    g    record;
    f    pg_catalog.regprocedure;
    init pg_catalog.aclitem[];
BEGIN
    FOREACH f IN ARRAY ARRAY['pgbenchx.trust_check(text[], text)']::pg_catalog.regprocedure[] LOOP
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
