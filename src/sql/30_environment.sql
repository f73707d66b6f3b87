/*
 * src/sql/30_environment.sql: capturing the environment a run was measured
 * in, and comparing two.
 */

/*
 * Environments.  The coordinator captures the environment at the start of
 * every sweep and of every run (src/results/environment.c) and sets their
 * environment_id; these functions capture it on demand and compare.
 */

-- Captures the environment now, as this server process sees it (OS, CPU,
-- memory, virtualization, file systems and mount options of data_directory
-- and pg_wal, version() and build facts, settings not at their default plus
-- the key ones), inserts it into pgbenchx.environments unless a row this
-- server captured has the same env_hash (an imported row never counts: its
-- contents are a document's claim), and returns its environment_id.
-- Caller: a role granted EXECUTE; the row is written as the extension's
-- owner.
CREATE OR REPLACE FUNCTION pgbenchx.capture_environment() RETURNS bigint
AS 'MODULE_PATHNAME', 'pgbenchx_capture_environment'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

-- The environment_id of a sweep or a run (one sequence numbers both).
-- Refuses an id that names neither, and one whose environment was not
-- recorded.  Caller: a role that may read pgbenchx.sweeps and runs.
CREATE OR REPLACE FUNCTION pgbenchx.environment_of(id bigint) RETURNS bigint
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE STRICT AS $$
DECLARE
    env  bigint;
    kind text := 'sweep';
BEGIN
    SELECT s.environment_id INTO env FROM pgbenchx.sweeps s WHERE s.sweep_id = id;
    IF NOT FOUND THEN
        kind := 'run';
        SELECT r.environment_id INTO env FROM pgbenchx.runs r WHERE r.run_id = id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'no run or sweep has id %', id
                USING ERRCODE = 'undefined_object',
                      HINT = 'SELECT run_id, sweep_id, status FROM pgbenchx.runs lists them.';
        END IF;
    END IF;
    IF env IS NULL THEN
        RAISE EXCEPTION '% % has no recorded environment', kind, id
            USING ERRCODE = 'no_data_found',
                  DETAIL = 'None was recorded when it started; a capture that fails leaves a WARNING in the server log.',
                  HINT = 'Compare with a sweep or run that has an environment_id.';
    END IF;
    RETURN env;
END $$;

-- What differs between the environments of two sweeps or runs (a and b are
-- sweep or run ids): one row per differing attribute of
-- pgbenchx.environments, in column order, then one per differing setting as
-- 'setting:<name>', by name.  A NULL value: not recorded on that side (for
-- a setting: at its default there).  The id, env_hash, captured_at and
-- imported_by (where the row came from, not what it describes) are not
-- compared.  No rows: the same environment.
CREATE OR REPLACE FUNCTION pgbenchx.env_diff(a bigint, b bigint)
RETURNS TABLE (attribute text, a text, b text)
SET search_path = pg_catalog, pg_temp
LANGUAGE sql STABLE STRICT AS $$
WITH ea AS (SELECT pg_catalog.to_jsonb(e) AS j FROM pgbenchx.environments e
            WHERE e.environment_id = pgbenchx.environment_of($1)),
     eb AS (SELECT pg_catalog.to_jsonb(e) AS j FROM pgbenchx.environments e
            WHERE e.environment_id = pgbenchx.environment_of($2)),
     d AS (
        SELECT att.attname::text AS attribute, att.attnum::int AS ord, ''::text AS setting,
               ea.j ->> att.attname::text AS va, eb.j ->> att.attname::text AS vb
        FROM pg_catalog.pg_attribute att, ea, eb
        WHERE att.attrelid = 'pgbenchx.environments'::pg_catalog.regclass
          AND att.attnum > 0 AND NOT att.attisdropped
          AND att.attname NOT IN ('environment_id', 'env_hash', 'captured_at', 'imported_by', 'settings')
        UNION ALL
        SELECT 'setting:' || k.name, 32767, k.name,
               ea.j -> 'settings' ->> k.name, eb.j -> 'settings' ->> k.name
        FROM ea, eb,
             (SELECT pg_catalog.jsonb_object_keys(ea.j -> 'settings') FROM ea
              UNION
              SELECT pg_catalog.jsonb_object_keys(eb.j -> 'settings') FROM eb) AS k(name))
SELECT d.attribute, d.va, d.vb FROM d
WHERE d.va IS DISTINCT FROM d.vb
ORDER BY d.ord, d.setting
$$;
