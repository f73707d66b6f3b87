/*
 * 20_part (issue 14, the generator side): pgbenchx.launch_part starts this
 * server's share of a run a recorder drives from several generators, and
 * pgbenchx.part_go starts its measured interval at the recorder's moment.
 * The progress view's phase gains 'ready' (a part waiting for its go); the
 * view itself is unchanged.  Runners who had pgbenchx.wait get EXECUTE on
 * the two new routines in 90_runner_grants.sql.
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

-- the runners get EXECUTE on both in 90_runner_grants.sql
