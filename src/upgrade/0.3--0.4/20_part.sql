/*
 * 20_part (issue 14, the generator side): pgbenchx.launch_part starts this
 * server's share of a run a recorder drives from several generators, and
 * pgbenchx.part_go starts its measured interval at the recorder's moment.
 * The progress view's phase gains 'ready' (a part waiting for its go); the
 * view itself is unchanged.  Runners who had pgbenchx.wait get EXECUTE on
 * the two new routines, as grant_runner gives it; their initial privileges
 * are put back to what a fresh CREATE EXTENSION records (the REVOKE), so
 * that pg_dump keeps these grants as the user's.
 */

/*
 * A part: this server's share of a run that a recorder drives from several
 * generator servers (run_bench(..., generators => ...)); the recorder's
 * coordinator calls these over libpq, as the calling role, on each
 * generator.  launch_part takes launch_bench's options (not vacuum,
 * checkpoint, check_tpcb: the recorder does the maintenance once) and
 * first_client, total_clients (the part's clients are those of one run of
 * total_clients), scripts (the mix inline: [{"name", "body", "weight"}]) or
 * script or replay_queries (with shuffle), part_of ({"recorder": "<system
 * identifier>/<database>", "run_id", "generator"}, stored in runs.tags) and
 * go_timeout_s (default 60).  It returns the part's run id once its
 * coordinator has started; the part connects its clients, shows the phase
 * 'ready' in progress_state(), and waits for part_go(run_id, start_at): it
 * then starts measuring at start_at on this server's clock.  A go more than
 * 200 ms late, or none within go_timeout_s, fails the part.  part_go is
 * allowed to whoever may cancel the part.  Callers: runners (grant_runner).
 */
CREATE FUNCTION pgbenchx.launch_part(options jsonb) RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_launch_part'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

CREATE FUNCTION pgbenchx.part_go(run_id bigint, start_at timestamptz) RETURNS void
AS 'MODULE_PATHNAME', 'pgbenchx_part_go'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION pgbenchx.launch_part(jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION pgbenchx.part_go(bigint, timestamptz) FROM PUBLIC;

COMMENT ON COLUMN pgbenchx.progress.phase IS 'what the coordinator is doing: maintenance (vacuum, truncate, check_tpcb''s sums), checkpoint, connecting, ready (a part connected, waiting for pgbenchx.part_go), measuring, finishing (the totals and rows stored)';

-- the runners: EXECUTE on the new routines for every role that may wait for runs
DO $$
DECLARE
    g    record;
    f    pg_catalog.regprocedure;
    init pg_catalog.aclitem[];
BEGIN
    FOREACH f IN ARRAY ARRAY['pgbenchx.launch_part(jsonb)',
                             'pgbenchx.part_go(bigint, timestamptz)']::pg_catalog.regprocedure[] LOOP
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
