/*
 * src/sql/62_gather.sql: loose runs gathered into a sweep (issue 37 §4).
 * Seed 000's shell loop, run with the pgbenchx command line in place of
 * pgbench (`for c in 1 2 4 8; do pgbenchx -S -T 300 -c $c --label ext4;
 * done`), leaves one run per client count and no sweep; export, compare and
 * the sweep charts take sweeps.  gather(label) makes the caller's finished
 * runs of that label, which belong to no sweep, one sweep.
 *
 * Owns: pgbenchx.gather (C, gather_sql.c: the acting role) and
 * pgbenchx.gather_as, which checks and writes.  Must not: gather another
 * role's runs, a run still going on, a run of a sweep or a generator's part,
 * or change a run's figures (only its sweep_id and repeat).
 */

-- gather_as(label, gatherer): internal (no runner is granted it: 70_security.sql);
-- gather() calls it as the extension's owner with the acting role.
CREATE OR REPLACE FUNCTION pgbenchx.gather_as(label text, gatherer name)
RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    ids bigint[];
    n int;
    n_done int;
    n_replay int;
    sid bigint;
BEGIN
    IF gather_as.label IS NULL THEN
        RAISE EXCEPTION 'argument "label" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  DETAIL = 'gather makes one sweep of your finished runs that have this label and no sweep.',
                  HINT = 'Pass the label your runs were given (pgbenchx --label, run_bench(label => ...)).';
    END IF;
    IF gather_as.gatherer IS NULL THEN
        RAISE EXCEPTION 'argument "gatherer" must not be null'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    -- the caller's loose runs of the label, locked against a concurrent gather
    SELECT array_agg(r.run_id ORDER BY r.run_id),
           count(*) FILTER (WHERE r.status = 'completed'),
           count(*) FILTER (WHERE r.replay)
    INTO ids, n_done, n_replay
    FROM (SELECT rr.run_id, rr.status, rr.replay FROM pgbenchx.runs rr
          WHERE rr.sweep_id IS NULL AND rr.label = gather_as.label
            AND rr.owner = gather_as.gatherer AND rr.status <> 'running'
            AND NOT coalesce(rr.tags ? 'part_of', false)
          ORDER BY rr.run_id FOR UPDATE) r;
    n := coalesce(cardinality(ids), 0);
    IF n = 0 THEN
        RAISE EXCEPTION 'you have no finished run labelled % that belongs to no sweep', quote_literal(gather_as.label)
            USING ERRCODE = 'no_data_found',
                  DETAIL = format('gather takes the runs of role %s with this label, not running, in no sweep yet; runs of other roles are theirs to gather.',
                                  gather_as.gatherer),
                  HINT = 'SELECT run_id, label, sweep_id, status, owner FROM pgbenchx.runs WHERE sweep_id IS NULL lists the loose runs.';
    END IF;
    IF n_replay > 0 AND n_replay < n THEN
        RAISE EXCEPTION 'the runs labelled % are % replays and % other runs', quote_literal(gather_as.label), n_replay, n - n_replay
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A sweep''s runs are all replays (queries per minute) or none.',
                  HINT = 'Give the replays another label, then gather each label.';
    END IF;

    -- the sweep: what its runs share, NULL where they differ
    INSERT INTO pgbenchx.sweeps (status, script, clients, duration, label, started_at, finished_at,
                                 protocol, jobs, transactions, error, repeats, environment_id, owner, tags)
    SELECT CASE WHEN n_done = n THEN 'completed' ELSE 'failed' END,
           string_agg(DISTINCT r.script, ' | '),
           array_agg(DISTINCT r.clients ORDER BY r.clients),
           CASE WHEN count(DISTINCT r.duration) = 1 AND count(r.duration) = n THEN min(r.duration) END,
           gather_as.label, min(r.started_at), max(r.finished_at),
           CASE WHEN count(DISTINCT r.protocol) = 1 THEN min(r.protocol) END,
           CASE WHEN count(DISTINCT r.jobs) = 1 THEN min(r.jobs) END,
           NULL::bigint,   -- a run keeps what it did, not what it was asked per client
           CASE WHEN n_done < n THEN format('%s of its %s runs did not complete', n - n_done, n) END,
           (SELECT max(k.runs) FROM (SELECT count(*) AS runs FROM pgbenchx.runs c
                                     WHERE c.run_id = ANY (ids) GROUP BY c.clients) k),
           CASE WHEN count(DISTINCT r.environment_id) = 1 AND count(r.environment_id) = n THEN min(r.environment_id) END,
           gather_as.gatherer,
           jsonb_build_object('gathered_runs', to_jsonb(ids))
    FROM pgbenchx.runs r WHERE r.run_id = ANY (ids)
    RETURNING sweep_id INTO sid;
    -- each run in it, numbered as a sweep's repeats are: per client count, in run order
    UPDATE pgbenchx.runs r SET sweep_id = sid, repeat = x.rep
    FROM (SELECT c.run_id, row_number() OVER (PARTITION BY c.clients ORDER BY c.run_id) AS rep
          FROM pgbenchx.runs c WHERE c.run_id = ANY (ids)) x
    WHERE r.run_id = x.run_id;
    RETURN sid;
END $$;

-- gather(label): the caller's finished runs with this label that belong to
-- no sweep become one sweep, whose id it returns: the client counts are
-- theirs, a client count run several times has repeats (in run order), and
-- script, duration, protocol, jobs and the environment are the runs' where
-- they all agree (NULL where not; the scripts joined by ' | ').  The sweep
-- is completed when every run is, else failed; tags.gathered_runs lists
-- the runs.  The runs are the acting role's (GetUserId(): not another
-- role's, whatever SECURITY DEFINER function is around the call).
CREATE OR REPLACE FUNCTION pgbenchx.gather(label text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_gather'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;
