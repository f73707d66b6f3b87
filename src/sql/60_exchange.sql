/*
 * src/sql/60_exchange.sql: export() and import(), results across servers.
 * The provenance table imports is in 00_schema.sql.
 */

/*
 * Across servers.  export() writes sweeps with everything measured under
 * them into one jsonb document; import() loads such a document into this
 * database under new ids.  The document:
 *   { "format": "pgbenchx-export", "format_version": 1,
 *     "provenance": { "system_identifier", "database", "exported_at",
 *                     "pgbenchx_version", "server_version" },
 *     "environments": [...], "sweeps": [...], "runs": [...],
 *     "samples": [...], "statement_stats": [...], "imports": [...],
 *     "system_samples": [...], "wait_samples": [...], "run_generators": [...] }
 * Each array holds the table rows as to_jsonb() writes them, but for the
 * latency histograms of runs and samples (0.3, issue 14): "latency_hist" is
 * the bytes in base64, or null; "imports"
 * carries the origin of sweeps and runs that were themselves imported.
 * system_samples and wait_samples (issue 13, pgbenchx 0.3) may be absent:
 * a document of 0.2 has neither, nor the runs' columns of 0.3, and its
 * runs import with those parts empty (NULL, as runs recorded before 0.3).
 * run_generators (issue 14, pgbenchx 0.4: the generators of runs driven
 * from several servers, "latency_hist" in base64 too) may be absent.
 */

-- export(sweep_ids): the sweeps (in the order given, duplicates once),
-- all their runs (whatever their status), samples, per-statement
-- latencies, what the machine and the server did each second
-- (system_samples, wait_samples), the environments they reference, and
-- provenance.  Unknown ids
-- and running sweeps are refused.  Callers: roles granted EXECUTE and
-- SELECT on the results.
CREATE OR REPLACE FUNCTION pgbenchx.export(sweep_ids bigint[])
RETURNS jsonb
SET search_path = pg_catalog, pg_temp
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT AS $$
DECLARE
    ids bigint[];
    missing bigint[];
    running bigint;
BEGIN
    IF sweep_ids IS NULL OR cardinality(sweep_ids) = 0 THEN
        RAISE EXCEPTION '%', CASE WHEN sweep_ids IS NULL THEN 'argument "sweep_ids" must not be null'
                                  ELSE 'argument "sweep_ids" must not be empty' END
            USING ERRCODE = CASE WHEN sweep_ids IS NULL THEN 'null_value_not_allowed' ELSE 'invalid_parameter_value' END,
                  DETAIL = 'sweep_ids must name at least one sweep.',
                  HINT = 'Pass ARRAY[sweep_id, ...]; SELECT sweep_id, label FROM pgbenchx.sweep_summary lists them.';
    END IF;
    IF array_position(sweep_ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'argument "sweep_ids" must not contain NULL'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Pass only the sweep_id of existing sweeps.';
    END IF;
    SELECT array_agg(u.id ORDER BY u.first) INTO ids
    FROM (SELECT x.id, min(x.ord) AS first
          FROM unnest(sweep_ids) WITH ORDINALITY x(id, ord) GROUP BY x.id) u;
    SELECT array_agg(x ORDER BY x) INTO missing
    FROM unnest(ids) x WHERE NOT EXISTS (SELECT 1 FROM pgbenchx.sweeps s WHERE s.sweep_id = x);
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION '%', CASE WHEN cardinality(missing) = 1 THEN 'no sweep has id ' || missing[1]
                                   ELSE 'no sweeps have ids ' || array_to_string(missing, ', ') END
            USING ERRCODE = 'undefined_object',
                  DETAIL = 'Only sweeps can be exported, with all their runs.',
                  HINT = 'SELECT sweep_id, label, status FROM pgbenchx.sweep_summary lists the sweeps.';
    END IF;
    SELECT s.sweep_id INTO running FROM pgbenchx.sweeps s
    WHERE s.sweep_id = ANY (ids) AND s.status = 'running' ORDER BY 1 LIMIT 1;
    IF running IS NOT NULL THEN
        RAISE EXCEPTION 'sweep % is still running', running
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'An export holds finished sweeps only: what it holds must not change after it is taken.',
                  HINT = format('CALL pgbenchx.wait(%s), then export it.', running);
    END IF;

    RETURN jsonb_build_object(
        'format', 'pgbenchx-export',
        'format_version', 1,
        'provenance', jsonb_build_object(
            'system_identifier', (SELECT c.system_identifier::text FROM pg_catalog.pg_control_system() c),
            'database', current_database(),
            'exported_at', now(),
            'pgbenchx_version', (SELECT x.extversion FROM pg_catalog.pg_extension x WHERE x.extname = 'pgbenchx'),
            'server_version', current_setting('server_version')),
        'environments', coalesce((
            SELECT jsonb_agg(to_jsonb(e) ORDER BY e.environment_id)
            FROM pgbenchx.environments e
            WHERE e.environment_id IN (
                SELECT s.environment_id FROM pgbenchx.sweeps s WHERE s.sweep_id = ANY (ids)
                UNION
                SELECT r.environment_id FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids))), '[]'),
        'sweeps', (
            SELECT jsonb_agg(to_jsonb(s) ORDER BY array_position(ids, s.sweep_id))
            FROM pgbenchx.sweeps s WHERE s.sweep_id = ANY (ids)),
        'runs', coalesce((
            SELECT jsonb_agg(to_jsonb(r) || jsonb_build_object('latency_hist', translate(encode(r.latency_hist, 'base64'), E'\n', ''))
                             ORDER BY r.run_id)
            FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids)), '[]'),
        'samples', coalesce((
            SELECT jsonb_agg(to_jsonb(x) || jsonb_build_object('latency_hist', translate(encode(x.latency_hist, 'base64'), E'\n', ''))
                             ORDER BY x.run_id, x.second)
            FROM pgbenchx.samples x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'statement_stats', coalesce((
            SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.script, x.command)
            FROM pgbenchx.statement_stats x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'imports', coalesce((
            SELECT jsonb_agg(jsonb_build_object(
                       'sweep_id', i.sweep_id, 'run_id', i.run_id,
                       'origin_system_identifier', i.origin_system_identifier::text,
                       'origin_database', i.origin_database,
                       'origin_id', i.origin_id)
                   ORDER BY i.sweep_id, i.run_id)
            FROM pgbenchx.imports i
            WHERE i.sweep_id = ANY (ids)
               OR i.run_id IN (SELECT r.run_id FROM pgbenchx.runs r WHERE r.sweep_id = ANY (ids))), '[]'),
        'system_samples', coalesce((
            SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.second)
            FROM pgbenchx.system_samples x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'wait_samples', coalesce((
            SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.second, x.wait_event_type, x.wait_event)
            FROM pgbenchx.wait_samples x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'),
        'run_generators', coalesce((
            SELECT jsonb_agg(to_jsonb(x) || jsonb_build_object('latency_hist', translate(encode(x.latency_hist, 'base64'), E'\n', ''))
                             ORDER BY x.run_id, x.generator)
            FROM pgbenchx.run_generators x JOIN pgbenchx.runs r USING (run_id)
            WHERE r.sweep_id = ANY (ids)), '[]'));
END $$;

-- import(doc): loads a document written by export() into this database.
-- Sweeps and runs get new ids from pgbenchx.id_seq; each sweep and run
-- records its origin in pgbenchx.imports, with the caller as imported_by.
-- Nothing a document claims (origins, env_hash) is proof, so an import maps
-- only onto the caller's own rows: a sweep whose origin the caller already
-- imported is not loaded again (another role's import of the same origin
-- is never found), and an environment is the caller's own imported row
-- with its env_hash, or a row this server captured that it equals in every
-- field, or a new row imported_by the caller (which no capture reuses).
-- A superuser's import follows the same rule.  Returns the local
-- sweep_ids, in the document's order (new or existing).  A malformed
-- document is refused before anything is loaded.  Callers: roles granted
-- EXECUTE (grant_runner), through pgbenchx.import(doc), below, which is in
-- C: it reads the role whose rights are acting (GetUserId(), never the
-- outer or session user: inside bob's SECURITY DEFINER function that is
-- bob, whoever called it) and calls import_as(doc, that role) as the
-- extension's owner (runners only read the results).  The sweeps and runs
-- it loads belong to that role, whatever owner the document names.
-- import_as itself is internal: no runner is granted it
-- (70_security.sql), so no caller can name another importer.
CREATE OR REPLACE FUNCTION pgbenchx.import_as(doc jsonb, importer name)
RETURNS bigint[]
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    prov jsonb;
    src_sysid bigint;
    src_db text;
    k text;
    want text;
    req text[];
    bad record;
    e jsonb;
    o jsonb;
    lo numeric;
    hi numeric;
    nullable boolean;
    strict_lo boolean;
    imports_by_sweep jsonb;
    imports_by_run jsonb;
    old_ids text[] := '{}';
    new_ids bigint[] := '{}';
    new_id bigint;
    existing bigint;
    env_cols text;
    env_map jsonb := '{}';
    sweep_map jsonb := '{}';
    run_map jsonb := '{}';
    result bigint[] := '{}';
    not_compared CONSTANT text[] := '{environment_id,env_hash,captured_at,imported_by}';
    hint_export CONSTANT text := 'Pass the jsonb that pgbenchx.export() returned, unchanged.';
BEGIN
    IF importer IS NULL THEN
        RAISE EXCEPTION 'argument "importer" must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Call pgbenchx.import(doc): it passes the role that calls it.';
    END IF;
    -- the document as a whole
    IF doc IS NULL THEN
        RAISE EXCEPTION 'argument "doc" must not be null'
            USING ERRCODE = 'null_value_not_allowed', HINT = hint_export;
    END IF;
    IF jsonb_typeof(doc) <> 'object' THEN
        RAISE EXCEPTION 'the import document must be a JSON object, not %', jsonb_typeof(doc)
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    IF doc->'format' IS DISTINCT FROM '"pgbenchx-export"' THEN
        RAISE EXCEPTION 'not a pgbenchx export document'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format('Its key "format" is %s, not "pgbenchx-export".', coalesce((doc->'format')::text, 'missing')),
                  HINT = hint_export;
    END IF;
    IF doc->'format_version' IS DISTINCT FROM '1' THEN
        RAISE EXCEPTION 'unsupported export format version %', coalesce((doc->'format_version')::text, '(missing)')
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'This pgbenchx reads format version 1.',
                  HINT = 'Export the sweeps again with this version of pgbenchx, or import them with the version that exported them.';
    END IF;
    FOREACH k IN ARRAY ARRAY['provenance', 'environments', 'sweeps', 'runs', 'samples', 'statement_stats'] LOOP
        IF NOT doc ? k THEN
            RAISE EXCEPTION 'the import document lacks the key "%"', k
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = 'A pgbenchx export holds provenance, environments, sweeps, runs, samples and statement_stats.',
                      HINT = hint_export;
        END IF;
        want := CASE k WHEN 'provenance' THEN 'object' ELSE 'array' END;
        IF jsonb_typeof(doc->k) <> want THEN
            RAISE EXCEPTION 'key "%" of the import document must be an %, not %', k, want, jsonb_typeof(doc->k)
                USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
        END IF;
    END LOOP;
    FOREACH k IN ARRAY ARRAY['imports', 'system_samples', 'wait_samples', 'run_generators'] LOOP
        IF doc ? k AND jsonb_typeof(doc->k) <> 'array' THEN
            RAISE EXCEPTION 'key "%" of the import document must be an array, not %', k, jsonb_typeof(doc->k)
                USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
        END IF;
    END LOOP;
    prov := doc->'provenance';
    IF coalesce(prov->>'system_identifier', '') !~ '^[0-9]{1,20}$'
       OR jsonb_typeof(prov->'database') IS DISTINCT FROM 'string' THEN
        RAISE EXCEPTION 'the provenance of the import document is incomplete'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'provenance needs "system_identifier" (digits) and "database" (a string): where the results come from.',
                  HINT = hint_export;
    END IF;
    src_sysid := (prov->>'system_identifier')::numeric::bigint;
    src_db := prov->>'database';
    IF jsonb_array_length(doc->'sweeps') = 0 THEN
        RAISE EXCEPTION 'the import document holds no sweep'
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;

    -- every element: an object with the keys it needs
    FOR k, req IN VALUES
        ('environments', ARRAY['environment_id', 'env_hash']),
        ('sweeps', ARRAY['sweep_id', 'status', 'script', 'clients', 'started_at']),
        ('runs', ARRAY['run_id', 'sweep_id', 'status', 'script', 'clients', 'jobs', 'started_at']),
        ('samples', ARRAY['run_id', 'second', 'transactions']),
        ('statement_stats', ARRAY['run_id', 'script', 'command', 'command_text', 'executions']),
        ('system_samples', ARRAY['run_id', 'second']),
        ('wait_samples', ARRAY['run_id', 'second', 'wait_event_type', 'wait_event', 'samples']),
        ('run_generators', ARRAY['run_id', 'generator', 'conninfo', 'clients', 'first_client', 'status'])
    LOOP
        SELECT x.i, x.e, key INTO bad
        FROM jsonb_array_elements(coalesce(doc->k, '[]')) WITH ORDINALITY x(e, i)
        LEFT JOIN LATERAL unnest(req) key
            ON jsonb_typeof(x.e) = 'object' AND coalesce(jsonb_typeof(x.e->key), 'null') = 'null'
        WHERE jsonb_typeof(x.e) <> 'object' OR key IS NOT NULL
        ORDER BY x.i LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'element % of "%" in the import document %', bad.i, k,
                  CASE WHEN jsonb_typeof(bad.e) <> 'object' THEN 'is not an object'
                       WHEN bad.e ? bad.key THEN format('has a null "%s"', bad.key)
                       ELSE format('lacks the key "%s"', bad.key) END
                USING ERRCODE = CASE WHEN jsonb_typeof(bad.e) = 'object' AND bad.e ? bad.key
                                     THEN 'null_value_not_allowed' ELSE 'invalid_parameter_value' END,
                      DETAIL = format('Each element of "%s" needs %s.', k, array_to_string(req, ', ')),
                      HINT = hint_export;
        END IF;
    END LOOP;

    -- references inside the document, and nothing unfinished
    SELECT x->>'sweep_id' AS id INTO bad FROM jsonb_array_elements(doc->'sweeps') x
    GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'sweep % appears twice in the import document', bad.id
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    SELECT x->>'run_id' AS id INTO bad FROM jsonb_array_elements(doc->'runs') x
    GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'run % appears twice in the import document', bad.id
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    SELECT 'sweep' AS what, x->>'sweep_id' AS id INTO bad FROM jsonb_array_elements(doc->'sweeps') x
    WHERE x->>'status' = 'running'
    UNION ALL
    SELECT 'run', x->>'run_id' FROM jsonb_array_elements(doc->'runs') x
    WHERE x->>'status' = 'running'
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% % of the import document is still running', bad.what, bad.id
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Only finished sweeps and runs can be imported.',
                  HINT = 'Export the sweep again once it has finished.';
    END IF;
    SELECT format('run %s names sweep %s', x->>'run_id', x->>'sweep_id') AS what INTO bad
    FROM jsonb_array_elements(doc->'runs') x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'sweeps') s WHERE s->'sweep_id' = x->'sweep_id')
    UNION ALL
    SELECT format('a sample names run %s', x->>'run_id') FROM jsonb_array_elements(doc->'samples') x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a statement_stats row names run %s', x->>'run_id') FROM jsonb_array_elements(doc->'statement_stats') x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a system_samples row names run %s', x->>'run_id') FROM jsonb_array_elements(coalesce(doc->'system_samples', '[]')) x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a wait_samples row names run %s', x->>'run_id') FROM jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('a run_generators row names run %s', x->>'run_id') FROM jsonb_array_elements(coalesce(doc->'run_generators', '[]')) x
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'runs') r WHERE r->'run_id' = x->'run_id')
    UNION ALL
    SELECT format('%s names environment %s', coalesce('run ' || (x->>'run_id'), 'sweep ' || (x->>'sweep_id')), x->>'environment_id')
    FROM (SELECT s FROM jsonb_array_elements(doc->'sweeps') s
          UNION ALL SELECT r - 'sweep_id' FROM jsonb_array_elements(doc->'runs') r) y(x)
    WHERE coalesce(jsonb_typeof(x->'environment_id'), 'null') <> 'null'
      AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'environments') v WHERE v->'environment_id' = x->'environment_id')
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'the import document is inconsistent: % that it does not hold', bad.what
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;

    -- every value one that a run could have produced (nullable: true, it may
    -- be null or absent; NULL, it may be absent), refused with the
    -- errcodes of the bad-input table before anything is loaded: integers
    -- in range (22004 null, 22023 not an integer or too small, 22003 too
    -- large), client lists, statuses, protocols, tags, timestamps.  Each
    -- check is one pass over its array: the time grows linearly.
    FOR k, want, lo, hi, nullable IN VALUES
        ('environments', 'environment_id', 1, 9223372036854775807, false),
        ('sweeps', 'sweep_id', 1, 9223372036854775807, false),
        ('sweeps', 'environment_id', 1, 9223372036854775807, true),
        ('sweeps', 'duration', 1, 2147483647, true),
        ('sweeps', 'transactions', 1, 9223372036854775807, true),
        ('sweeps', 'jobs', 1, 2147483647, true),
        ('sweeps', 'repeats', 1, 256, true),
        ('sweeps', 'warmup', 0, 256, true),
        ('sweeps', 'budget_s', 1, 2147483647, true),
        ('runs', 'config', 1, 8, true),
        ('runs', 'run_id', 1, 9223372036854775807, false),
        ('runs', 'sweep_id', 1, 9223372036854775807, false),
        ('runs', 'environment_id', 1, 9223372036854775807, true),
        ('runs', 'clients', 1, 100000, false),
        ('runs', 'jobs', 1, 100000, false),
        ('runs', 'duration', 1, 2147483647, true),
        ('runs', 'transactions_per_client', 1, 9223372036854775807, true),
        ('runs', 'scale', 1, 2147483647, true),
        ('runs', 'repeat', 1, 256, true),
        ('runs', 'max_tries', 0, 2147483647, true),
        ('runs', 'transactions', 0, 9223372036854775807, true),
        ('runs', 'failed', 0, 9223372036854775807, true),
        ('runs', 'aborted_clients', 0, 100000, true),
        ('runs', 'serialization_failures', 0, 9223372036854775807, true),
        ('runs', 'deadlock_failures', 0, 9223372036854775807, true),
        ('runs', 'retried', 0, 9223372036854775807, true),
        ('runs', 'retries', 0, 9223372036854775807, true),
        ('runs', 'skipped', 0, 9223372036854775807, true),
        ('runs', 'late', 0, 9223372036854775807, true),
        ('runs', 'checkpoints', 0, 2147483647, true),
        ('runs', 'autovacuums', 0, 2147483647, true),
        ('runs', 'samples_lost', 0, 2147483647, true),
        ('runs', 'samples_lost_transactions', 0, 9223372036854775807, true),
        ('samples', 'run_id', 1, 9223372036854775807, false),
        ('samples', 'second', 1, 2147483647, false),
        ('samples', 'transactions', 0, 9223372036854775807, false),
        ('samples', 'failed', 0, 9223372036854775807, NULL),
        ('samples', 'skipped', 0, 9223372036854775807, true),
        ('samples', 'retried', 0, 9223372036854775807, true),
        ('samples', 'retries', 0, 9223372036854775807, true),
        ('statement_stats', 'run_id', 1, 9223372036854775807, false),
        ('statement_stats', 'command', 1, 2147483647, false),
        ('statement_stats', 'executions', 0, 9223372036854775807, false),
        ('statement_stats', 'failures', 0, 9223372036854775807, NULL),
        ('statement_stats', 'retries', 0, 9223372036854775807, NULL),
        ('system_samples', 'run_id', 1, 9223372036854775807, false),
        ('system_samples', 'second', 1, 2147483647, false),
        ('system_samples', 'data_reads', 0, 9223372036854775807, true),
        ('system_samples', 'data_read_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'data_writes', 0, 9223372036854775807, true),
        ('system_samples', 'data_write_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_reads', 0, 9223372036854775807, true),
        ('system_samples', 'wal_read_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_writes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_write_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_records', 0, 9223372036854775807, true),
        ('system_samples', 'wal_fpi', 0, 9223372036854775807, true),
        ('system_samples', 'wal_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'wal_write', 0, 9223372036854775807, true),
        ('system_samples', 'wal_sync', 0, 9223372036854775807, true),
        ('system_samples', 'blks_hit', 0, 9223372036854775807, true),
        ('system_samples', 'blks_read', 0, 9223372036854775807, true),
        ('system_samples', 'temp_bytes', 0, 9223372036854775807, true),
        ('system_samples', 'deadlocks', 0, 9223372036854775807, true),
        ('system_samples', 'buffers_checkpoint', 0, 9223372036854775807, true),
        ('system_samples', 'buffers_clean', 0, 9223372036854775807, true),
        ('system_samples', 'buffers_backend', 0, 9223372036854775807, true),
        ('system_samples', 'checkpoints_begun', 0, 2147483647, true),
        ('system_samples', 'checkpoints_done', 0, 2147483647, true),
        ('wait_samples', 'run_id', 1, 9223372036854775807, false),
        ('wait_samples', 'second', 1, 2147483647, false),
        ('wait_samples', 'samples', 0, 2147483647, false),
        ('run_generators', 'run_id', 1, 9223372036854775807, false),
        ('run_generators', 'generator', 1, 64, false),
        ('run_generators', 'clients', 1, 100000, false),
        ('run_generators', 'first_client', 0, 100000, false),
        ('run_generators', 'jobs', 1, 100000, true),
        ('run_generators', 'part_run_id', 1, 9223372036854775807, true),
        ('run_generators', 'transactions', 0, 9223372036854775807, true),
        ('run_generators', 'failed_transactions', 0, 9223372036854775807, true),
        ('run_generators', 'aborted_clients', 0, 100000, true)
    LOOP
        SELECT x.i, x.e->want AS v INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->k, '[]')) WITH ORDINALITY x(e, i)
        WHERE NOT ((coalesce(nullable, false) AND coalesce(pg_catalog.jsonb_typeof(x.e->want), 'null') = 'null')
                   OR (nullable IS NULL AND NOT x.e ? want)
                   OR (pg_catalog.jsonb_typeof(x.e->want) = 'number'
                       AND (x.e->>want) OPERATOR(pg_catalog.~) '^-?[0-9]+$'
                       AND (x.e->>want)::numeric OPERATOR(pg_catalog.>=) lo
                       AND (x.e->>want)::numeric OPERATOR(pg_catalog.<=) hi))
        ORDER BY x.i LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION '"%" of element % of "%" in the import document is %', want, bad.i, k,
                  CASE WHEN coalesce(pg_catalog.jsonb_typeof(bad.v), 'null') = 'null' THEN 'null'
                       WHEN pg_catalog.jsonb_typeof(bad.v) <> 'number' OR bad.v::text !~ '^-?[0-9]+$'
                           THEN 'not an integer: ' || pg_catalog.left(bad.v::text, 40)
                       WHEN bad.v::text::numeric < lo THEN pg_catalog.format('%s, below %s', bad.v, lo)
                       ELSE pg_catalog.format('%s, above %s', bad.v, hi) END
                USING ERRCODE = CASE WHEN coalesce(pg_catalog.jsonb_typeof(bad.v), 'null') = 'null' THEN '22004'
                                     WHEN pg_catalog.jsonb_typeof(bad.v) = 'number' AND bad.v::text ~ '^-?[0-9]+$'
                                          AND bad.v::text::numeric > hi THEN '22003'
                                     ELSE '22023' END,
                      DETAIL = pg_catalog.format('"%s" of "%s" is an integer from %s to %s%s.', want, k, lo, hi,
                                                 CASE WHEN nullable THEN ', or null'
                                                      WHEN nullable IS NULL THEN ', or absent' ELSE '' END),
                      HINT = hint_export;
        END IF;
    END LOOP;
    -- a sweep's clients: a one-dimensional list of 1 to 256 client counts
    SELECT y.i, y.why, y.code INTO bad FROM (
        SELECT x.i,
               CASE WHEN pg_catalog.jsonb_typeof(x.e->'clients') <> 'array' THEN 'is not an array'
                    WHEN pg_catalog.jsonb_array_length(x.e->'clients') = 0 THEN 'is empty'
                    WHEN pg_catalog.jsonb_array_length(x.e->'clients') > 256 THEN 'has more than 256 client counts'
                    ELSE (SELECT CASE pg_catalog.jsonb_typeof(c) WHEN 'array' THEN 'is multidimensional'
                                      WHEN 'null' THEN 'holds a NULL'
                                      ELSE 'holds ' || pg_catalog.left(c::text, 40) || ', not a client count from 1 to 100000' END
                          FROM pg_catalog.jsonb_array_elements(x.e->'clients') c
                          WHERE pg_catalog.jsonb_typeof(c) IS DISTINCT FROM 'number' OR c::text !~ '^[0-9]+$'
                             OR c::text::numeric NOT BETWEEN 1 AND 100000
                          LIMIT 1) END AS why,
               CASE WHEN pg_catalog.jsonb_typeof(x.e->'clients') = 'array'
                         AND pg_catalog.jsonb_array_length(x.e->'clients') > 0 THEN
                   (SELECT CASE WHEN pg_catalog.jsonb_typeof(c) = 'array' THEN '2202E'
                                WHEN pg_catalog.jsonb_typeof(c) = 'null' THEN '22004'
                                WHEN pg_catalog.jsonb_typeof(c) = 'number' AND c::text ~ '^[0-9]+$' THEN '22003'
                                ELSE '22023' END
                    FROM pg_catalog.jsonb_array_elements(x.e->'clients') c
                    WHERE pg_catalog.jsonb_typeof(c) IS DISTINCT FROM 'number' OR c::text !~ '^[0-9]+$'
                       OR c::text::numeric NOT BETWEEN 1 AND 100000
                    LIMIT 1) END AS code
        FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY x(e, i)) y
    WHERE y.why IS NOT NULL ORDER BY y.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"clients" of element % of "sweeps" in the import document %', bad.i, bad.why
            USING ERRCODE = coalesce(bad.code, '22023'),
                  DETAIL = 'A sweep''s clients are a one-dimensional list of 1 to 256 client counts, each from 1 to 100000.',
                  HINT = hint_export;
    END IF;
    -- a sample's covered_s: the seconds it covered, above 0; absent in a
    -- document from pgbenchx 0.2, where every sample reads as a whole second
    SELECT x.i, x.e->'covered_s' AS v INTO bad
    FROM pg_catalog.jsonb_array_elements(doc->'samples') WITH ORDINALITY x(e, i)
    WHERE x.e ? 'covered_s'
      AND NOT (pg_catalog.jsonb_typeof(x.e->'covered_s') = 'number'
               AND (x.e->>'covered_s')::numeric OPERATOR(pg_catalog.>) 0
               AND (x.e->>'covered_s')::numeric OPERATOR(pg_catalog.<=) 86400)
    ORDER BY x.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"covered_s" of element % of "samples" in the import document is %', bad.i,
              CASE WHEN pg_catalog.jsonb_typeof(bad.v) = 'null' THEN 'null'
                   WHEN pg_catalog.jsonb_typeof(bad.v) <> 'number' THEN 'not a number: ' || pg_catalog.left(bad.v::text, 40)
                   WHEN bad.v::text::numeric <= 0 THEN pg_catalog.format('%s, not above 0', bad.v)
                   ELSE pg_catalog.format('%s, above 86400', bad.v) END
            USING ERRCODE = CASE WHEN pg_catalog.jsonb_typeof(bad.v) = 'null' THEN '22004'
                                 WHEN pg_catalog.jsonb_typeof(bad.v) = 'number' AND bad.v::text::numeric > 86400 THEN '22003'
                                 ELSE '22023' END,
                  DETAIL = '"covered_s" of "samples" is a number of seconds above 0, at most 86400, or absent (read as 1).',
                  HINT = hint_export;
    END IF;
    -- an experiment's configurations (issue 23): an array of 2 to 8 objects
    -- each with a name, as run_experiment records them; what ended it
    SELECT x.i INTO bad FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY x(e, i)
    WHERE NOT (coalesce(pg_catalog.jsonb_typeof(x.e->'configs'), 'null') = 'null'
               OR (pg_catalog.jsonb_typeof(x.e->'configs') = 'array'
                   AND pg_catalog.jsonb_array_length(x.e->'configs') BETWEEN 2 AND 8
                   AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(x.e->'configs') c
                                   WHERE pg_catalog.jsonb_typeof(c) <> 'object'
                                      OR pg_catalog.jsonb_typeof(c->'name') IS DISTINCT FROM 'string'
                                      OR pg_catalog.length(c->>'name') NOT BETWEEN 1 AND 63
                                      OR pg_catalog.length(c::text) > 8192)))
       OR NOT (coalesce(pg_catalog.jsonb_typeof(x.e->'stopped_by'), 'null') = 'null'
               OR x.e->>'stopped_by' IN ('target', 'budget', 'run limit'))
       OR NOT (coalesce(pg_catalog.jsonb_typeof(x.e->'warmup'), 'null') IN ('null', 'number'))
    ORDER BY x.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"configs" or "stopped_by" of element % of "sweeps" in the import document is not one an experiment records', bad.i
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = '"configs" is null or an array of 2 to 8 objects, each with a "name" of 1 to 63 characters; "stopped_by" null, target, budget or run limit.',
                  HINT = hint_export;
    END IF;
    SELECT x.i INTO bad FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY x(e, i)
    WHERE coalesce(pg_catalog.jsonb_typeof(x.e->'warmup'), 'null') NOT IN ('null', 'boolean')
    ORDER BY x.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"warmup" of element % of "runs" in the import document is not a boolean', bad.i
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = '"warmup" of "runs" is true, false, null or absent (read as false).',
                  HINT = hint_export;
    END IF;

    -- the measured figures of issue 13: numbers in their range, or null
    -- (strict_lo: above lo, not equal to it), and the texts and lists of
    -- the wait samples and of the runs' new columns
    FOR k, want, lo, hi, strict_lo IN VALUES
        ('runs', 'wait_sample_hz', 0, 1e9, false),
        ('runs', 'wal_bytes_per_tx', 0, 1e15, false),
        ('runs', 'blocks_read_per_tx', 0, 1e15, false),
        ('runs', 'blocks_written_per_tx', 0, 1e15, false),
        ('runs', 'server_cpu_ms_per_tx', 0, 1e15, false),
        ('runs', 'driver_cpu_ms_per_tx', 0, 1e15, false),
        ('runs', 'iowait_avg', 0, 1, false),
        ('runs', 'tps_ci_low', -1e12, 1e12, false),
        ('sweeps', 'target_ci', 0, 1, true),
        ('runs', 'tps_ci_high', -1e12, 1e12, false),
        ('system_samples', 'covered_s', 0, 86400, true),
        ('system_samples', 'cpu_user', 0, 1, false),
        ('system_samples', 'cpu_system', 0, 1, false),
        ('system_samples', 'cpu_iowait', 0, 1, false),
        ('system_samples', 'cpu_steal', 0, 1, false),
        ('system_samples', 'cpu_idle', 0, 1, false),
        ('system_samples', 'driver_cpu_s', 0, 1e9, false),
        ('system_samples', 'backend_cpu_s', 0, 1e9, false),
        ('system_samples', 'data_await_ms', 0, 1e15, false),
        ('system_samples', 'data_queue', 0, 1e15, false),
        ('system_samples', 'wal_await_ms', 0, 1e15, false),
        ('system_samples', 'wal_queue', 0, 1e15, false),
        ('run_generators', 'clock_offset_ms', -1e12, 1e12, false),
        ('run_generators', 'clock_uncertainty_ms', 0, 1e12, false),
        ('run_generators', 'tps', 0, 1e12, false),
        ('run_generators', 'latency_avg_ms', 0, 1e12, false),
        ('run_generators', 'latency_stddev_ms', 0, 1e12, false),
        ('run_generators', 'latency_p50_ms', 0, 1e12, false),
        ('run_generators', 'latency_p99_ms', 0, 1e12, false),
        ('run_generators', 'latency_max_ms', 0, 1e12, false),
        ('run_generators', 'conn_time_ms', 0, 1e15, false),
        ('run_generators', 'bench_duration_s', 0, 1e9, false),
        ('run_generators', 'driver_cpu_s', 0, 1e9, false)
    LOOP
        SELECT x.i, x.e->want AS v INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->k, '[]')) WITH ORDINALITY x(e, i)
        WHERE coalesce(pg_catalog.jsonb_typeof(x.e->want), 'null') <> 'null'
          AND NOT (pg_catalog.jsonb_typeof(x.e->want) = 'number'
                   AND (x.e->>want)::numeric OPERATOR(pg_catalog.>=) lo
                   AND (x.e->>want)::numeric OPERATOR(pg_catalog.<=) hi
                   AND NOT (strict_lo AND (x.e->>want)::numeric OPERATOR(pg_catalog.=) lo))
        ORDER BY x.i LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION '"%" of element % of "%" in the import document is %', want, bad.i, k,
                  CASE WHEN pg_catalog.jsonb_typeof(bad.v) <> 'number' THEN 'not a number: ' || pg_catalog.left(bad.v::text, 40)
                       WHEN bad.v::text::numeric < lo THEN pg_catalog.format('%s, below %s', bad.v, lo)
                       WHEN bad.v::text::numeric = lo THEN pg_catalog.format('%s, not above %s', bad.v, lo)
                       ELSE pg_catalog.format('%s, above %s', bad.v, hi) END
                USING ERRCODE = CASE WHEN pg_catalog.jsonb_typeof(bad.v) = 'number' AND bad.v::text::numeric > hi
                                     THEN '22003' ELSE '22023' END,
                      DETAIL = pg_catalog.format('"%s" of "%s" is a number %s, or null.', want, k,
                                                 CASE WHEN strict_lo THEN pg_catalog.format('of seconds above %s, at most %s', lo, hi)
                                                      ELSE pg_catalog.format('from %s to %s', lo, hi) END),
                      HINT = hint_export;
        END IF;
    END LOOP;
    SELECT y.what, y.v INTO bad FROM (
        SELECT pg_catalog.format('"%s" of element %s of "wait_samples"', f.key, x.i) AS what, x.e->f.key AS v,
               pg_catalog.jsonb_typeof(x.e->f.key) = 'string' AND pg_catalog.length(x.e->>f.key) BETWEEN 1 AND 64 AS ok
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) WITH ORDINALITY x(e, i),
             (VALUES ('wait_event_type'), ('wait_event')) f(key)
        UNION ALL
        SELECT pg_catalog.format('"%s" of element %s of "runs"', f.key, x.i), x.e->f.key,
               coalesce(pg_catalog.jsonb_typeof(x.e->f.key), 'null') = 'null'
               OR CASE f.key
                    WHEN 'record_system' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'boolean'
                    WHEN 'verdict' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'string'
                    WHEN 'system_notes' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'array'
                         AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(x.e->f.key) n
                                         WHERE pg_catalog.jsonb_typeof(n) <> 'string')
                    ELSE pg_catalog.jsonb_typeof(x.e->f.key) = 'array'
                         AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(x.e->f.key) n
                                         WHERE pg_catalog.jsonb_typeof(n) <> 'object'
                                            OR pg_catalog.jsonb_typeof(n->'share') IS DISTINCT FROM 'number'
                                            OR pg_catalog.jsonb_typeof(n->'wait_event_type') IS DISTINCT FROM 'string'
                                            OR pg_catalog.jsonb_typeof(n->'wait_event') IS DISTINCT FROM 'string') END
        FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY x(e, i),
             (VALUES ('record_system'), ('verdict'), ('system_notes'), ('top_waits')) f(key)) y
    WHERE NOT y.ok LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not valid: %', bad.what, pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A wait sample''s wait_event_type and wait_event are texts of 1 to 64 characters; a run''s record_system a boolean, verdict a text, system_notes a list of texts and top_waits a list of {"wait_event_type", "wait_event", "share"}, each or null.',
                  HINT = hint_export;
    END IF;
    -- a run's generators (0.4): each once per run; texts, a status and
    -- objects as the recorder writes them
    SELECT y.what, y.v INTO bad FROM (
        SELECT pg_catalog.format('"%s" of element %s of "run_generators"', f.key, x.i) AS what, x.e->f.key AS v,
               CASE f.key
                    WHEN 'conninfo' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'string'
                         AND pg_catalog.length(x.e->>f.key) OPERATOR(pg_catalog.<=) 4096
                    WHEN 'status' THEN pg_catalog.jsonb_typeof(x.e->f.key) = 'string'
                         AND (x.e->>f.key) OPERATOR(pg_catalog.=) ANY (ARRAY['completed', 'cancelled', 'failed', 'aborted', 'lost'])
                    WHEN 'error' THEN coalesce(pg_catalog.jsonb_typeof(x.e->f.key), 'null') IN ('null', 'string')
                    WHEN 'system_identifier' THEN coalesce(pg_catalog.jsonb_typeof(x.e->f.key), 'null') = 'null'
                         OR (x.e->>f.key) OPERATOR(pg_catalog.~) '^[0-9]{1,20}$'
                    ELSE coalesce(pg_catalog.jsonb_typeof(x.e->f.key), 'null') IN ('null', 'object') END AS ok
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'run_generators', '[]')) WITH ORDINALITY x(e, i),
             (VALUES ('conninfo'), ('status'), ('error'), ('system_identifier'), ('environment'), ('part_run')) f(key)) y
    WHERE NOT y.ok LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not valid: %', bad.what, pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A run generator''s conninfo is a text of at most 4096 characters, its status completed, cancelled, failed, aborted or lost, its error a text, its system_identifier digits, its environment and part_run objects, each but conninfo and status or null.',
                  HINT = hint_export;
    END IF;
    SELECT (x->>'run_id') || '/' || (x->>'generator') AS id INTO bad
    FROM pg_catalog.jsonb_array_elements(coalesce(doc->'run_generators', '[]')) x
    GROUP BY x->>'run_id', x->>'generator' HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'generator % appears twice in the import document', bad.id
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    -- latency histograms (absent from a 0.2 document): base64 text or null,
    -- and bytes that pgbenchx.latency_percentile decodes (src/lang/histcodec.h)
    SELECT y.what, y.v INTO bad FROM (
        SELECT pg_catalog.format('"latency_hist" of element %s of "%s"', x.i, x.k) AS what, x.e->'latency_hist' AS v
        FROM (SELECT 'runs' AS k, r.i, r.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY r(e, i)
              UNION ALL
              SELECT 'samples', s.i, s.e FROM pg_catalog.jsonb_array_elements(doc->'samples') WITH ORDINALITY s(e, i)
              UNION ALL
              SELECT 'run_generators', g.i, g.e
              FROM pg_catalog.jsonb_array_elements(coalesce(doc->'run_generators', '[]')) WITH ORDINALITY g(e, i)) x
        WHERE coalesce(pg_catalog.jsonb_typeof(x.e->'latency_hist'), 'null') NOT IN ('string', 'null')) y
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not valid: %', bad.what, pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A latency histogram is the base64 text of its bytes, or null.',
                  HINT = hint_export;
    END IF;
    DECLARE
        why text;
    BEGIN
        PERFORM pgbenchx.latency_percentile(pg_catalog.decode(x->>'latency_hist', 'base64'), 100)
        FROM (SELECT r FROM pg_catalog.jsonb_array_elements(doc->'runs') r
              UNION ALL
              SELECT s FROM pg_catalog.jsonb_array_elements(doc->'samples') s
              UNION ALL
              SELECT g FROM pg_catalog.jsonb_array_elements(coalesce(doc->'run_generators', '[]')) g) y(x)
        WHERE pg_catalog.jsonb_typeof(x->'latency_hist') = 'string';
    EXCEPTION WHEN invalid_parameter_value OR invalid_binary_representation THEN
        GET STACKED DIAGNOSTICS why = PG_EXCEPTION_DETAIL;
        RAISE EXCEPTION 'a latency histogram of the import document is not valid'
            USING ERRCODE = 'invalid_binary_representation',
                  DETAIL = coalesce(nullif(why, ''), SQLERRM || '.'),
                  HINT = hint_export;
    END;
    -- statuses, protocols and tags as a run records them
    SELECT y.k, y.i, y.key, y.v INTO bad FROM (
        SELECT 'sweeps' AS k, x.i, x.e FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY x(e, i)
        UNION ALL
        SELECT 'runs', x.i, x.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY x(e, i)) z,
        LATERAL (SELECT z.k, z.i, f.key, z.e->f.key AS v FROM (VALUES ('status'), ('protocol'), ('tags')) f(key)) y
    WHERE CASE y.key
            WHEN 'status' THEN coalesce(y.v->>0, '') NOT IN ('completed', 'cancelled', 'failed', 'aborted')
                               OR pg_catalog.jsonb_typeof(y.v) <> 'string'
            WHEN 'protocol' THEN coalesce(pg_catalog.jsonb_typeof(y.v), 'null') <> 'null'
                               AND (pg_catalog.jsonb_typeof(y.v) <> 'string'
                                    OR y.v->>0 NOT IN ('simple', 'extended', 'prepared'))
            ELSE coalesce(pg_catalog.jsonb_typeof(y.v), 'null') NOT IN ('null', 'object') END
    ORDER BY y.k DESC, y.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '"%" of element % of "%" in the import document is not valid: %', bad.key, bad.i, bad.k,
              pg_catalog.left(bad.v::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A status is completed, cancelled, failed or aborted; a protocol simple, extended or prepared; tags a JSON object.',
                  HINT = hint_export;
    END IF;
    -- timestamps: finite, and timestamps
    BEGIN
        SELECT y.what, y.t INTO bad FROM (
            SELECT pg_catalog.format('"%s" of element %s of "%s"', f.key, x.i, x.k) AS what, x.e->f.key AS t
            FROM (SELECT 'sweeps' AS k, s.i, s.e FROM pg_catalog.jsonb_array_elements(doc->'sweeps') WITH ORDINALITY s(e, i)
                  UNION ALL
                  SELECT 'runs', r.i, r.e FROM pg_catalog.jsonb_array_elements(doc->'runs') WITH ORDINALITY r(e, i)) x,
                 (VALUES ('started_at'), ('finished_at')) f(key)
            UNION ALL
            SELECT '"exported_at" of the provenance', prov->'exported_at') y
        WHERE coalesce(pg_catalog.jsonb_typeof(y.t), 'null') NOT IN ('string', 'null')
           OR (pg_catalog.jsonb_typeof(y.t) = 'string' AND NOT pg_catalog.isfinite((y.t->>0)::timestamptz))
        LIMIT 1;
    EXCEPTION WHEN data_exception THEN
        RAISE EXCEPTION 'a timestamp of the import document is not valid: %', SQLERRM
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'started_at, finished_at and exported_at are finite timestamps.',
                  HINT = hint_export;
    END;
    IF FOUND THEN
        RAISE EXCEPTION '% in the import document is not a finite timestamp: %', bad.what, pg_catalog.left(bad.t::text, 60)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'started_at, finished_at and exported_at are finite timestamps.',
                  HINT = hint_export;
    END IF;
    -- one sample per second of a run, one row per command
    SELECT pg_catalog.format('second %s of run %s', x->>'second', x->>'run_id') AS what INTO bad
    FROM pg_catalog.jsonb_array_elements(doc->'samples') x
    GROUP BY x->'run_id', x->'second', x->>'second', x->>'run_id' HAVING count(*) > 1 LIMIT 1;
    IF NOT FOUND THEN
        SELECT pg_catalog.format('command %s of script %s of run %s', x->>'command', x->>'script', x->>'run_id') AS what INTO bad
        FROM pg_catalog.jsonb_array_elements(doc->'statement_stats') x
        GROUP BY x->'run_id', x->'script', x->'command', x->>'command', x->>'script', x->>'run_id'
        HAVING count(*) > 1 LIMIT 1;
    END IF;
    IF NOT FOUND THEN
        SELECT pg_catalog.format('the system sample of second %s of run %s', x->>'second', x->>'run_id') AS what INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'system_samples', '[]')) x
        GROUP BY x->'run_id', x->'second', x->>'second', x->>'run_id' HAVING count(*) > 1 LIMIT 1;
    END IF;
    IF NOT FOUND THEN
        SELECT pg_catalog.format('wait event %s:%s of second %s of run %s', x->>'wait_event_type', x->>'wait_event',
                                 x->>'second', x->>'run_id') AS what INTO bad
        FROM pg_catalog.jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) x
        GROUP BY x->'run_id', x->'second', x->'wait_event_type', x->'wait_event',
                 x->>'wait_event_type', x->>'wait_event', x->>'second', x->>'run_id'
        HAVING count(*) > 1 LIMIT 1;
    END IF;
    IF FOUND THEN
        RAISE EXCEPTION '% appears twice in the import document', bad.what
            USING ERRCODE = 'invalid_parameter_value', HINT = hint_export;
    END IF;
    -- the imports of the document, each origin found by key (hashed, once)
    SELECT pg_catalog.jsonb_object_agg(i->>'sweep_id', i) FILTER (WHERE i->>'sweep_id' IS NOT NULL),
           pg_catalog.jsonb_object_agg(i->>'run_id', i) FILTER (WHERE i->>'run_id' IS NOT NULL)
    INTO imports_by_sweep, imports_by_run
    FROM (SELECT DISTINCT ON (coalesce(i->>'sweep_id', ''), coalesce(i->>'run_id', '')) i
          FROM pg_catalog.jsonb_array_elements(coalesce(doc->'imports', '[]')) WITH ORDINALITY x(i, n)
          WHERE pg_catalog.jsonb_typeof(i) = 'object'
          ORDER BY coalesce(i->>'sweep_id', ''), coalesce(i->>'run_id', ''), n) d;

    -- one import at a time, so that two loading the same sweeps cannot both add them
    LOCK TABLE pgbenchx.imports IN SHARE ROW EXCLUSIVE MODE;

    -- environments, kept apart by provenance: a row this server captured
    -- with the same env_hash and equal in every other field (verified: it
    -- is the same environment), else the caller's own imported row with
    -- that env_hash, else a new row imported_by the caller, with the
    -- columns the element has (the others take their defaults; the
    -- document's imported_by is ignored).  Never another role's row.
    FOR e IN SELECT x FROM jsonb_array_elements(doc->'environments') x LOOP
        SELECT v.environment_id INTO new_id FROM pgbenchx.environments v
        WHERE v.env_hash = e->>'env_hash' AND v.imported_by IS NULL
          AND pg_catalog.to_jsonb(v) - not_compared
              = pg_catalog.to_jsonb(pg_catalog.jsonb_populate_record(NULL::pgbenchx.environments, e)) - not_compared;
        IF NOT FOUND THEN
            SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO env_cols
            FROM pg_catalog.pg_attribute a
            WHERE a.attrelid = 'pgbenchx.environments'::regclass AND a.attnum > 0
              AND NOT a.attisdropped AND a.attname NOT IN ('environment_id', 'imported_by') AND e ? a.attname;
            EXECUTE format('INSERT INTO pgbenchx.environments (%1$s, imported_by) SELECT %1$s, $2 '
                           'FROM jsonb_populate_record(NULL::pgbenchx.environments, $1) '
                           'ON CONFLICT (imported_by, env_hash) WHERE imported_by IS NOT NULL DO NOTHING',
                           env_cols) USING e, importer;
            SELECT v.environment_id INTO new_id FROM pgbenchx.environments v
            WHERE v.env_hash = e->>'env_hash' AND v.imported_by = importer;
        END IF;
        old_ids := pg_catalog.array_append(old_ids, e->>'environment_id');
        new_ids := pg_catalog.array_append(new_ids, new_id);
    END LOOP;
    -- the maps are built once (appending to a jsonb would copy it every time)
    SELECT coalesce(pg_catalog.jsonb_object_agg(o_id, n_id), '{}') INTO env_map
    FROM ROWS FROM (pg_catalog.unnest(old_ids), pg_catalog.unnest(new_ids)) m(o_id, n_id);
    old_ids := '{}';
    new_ids := '{}';

    -- sweeps: an origin the caller already imported maps to its existing
    -- sweep; another role's import of the same origin is not looked at (a
    -- row restored from a dump of 0.4 or before, imported_by '', is its
    -- sweep owner's)
    FOR e IN SELECT x FROM jsonb_array_elements(doc->'sweeps') x LOOP
        o := coalesce(
            imports_by_sweep->(e->>'sweep_id'),
            jsonb_build_object('origin_system_identifier', src_sysid::text, 'origin_database', src_db,
                               'origin_id', e->'sweep_id'));
        SELECT i.sweep_id INTO existing
        FROM pgbenchx.imports i JOIN pgbenchx.sweeps s ON s.sweep_id = i.sweep_id
        WHERE i.origin_system_identifier = (o->>'origin_system_identifier')::numeric::bigint
          AND i.origin_database = o->>'origin_database'
          AND i.origin_id = (o->>'origin_id')::bigint
          AND CASE WHEN i.imported_by = '' THEN s.owner ELSE i.imported_by END = importer;
        IF FOUND THEN
            result := result || existing;
            CONTINUE;
        END IF;
        new_id := nextval('pgbenchx.id_seq');
        INSERT INTO pgbenchx.sweeps
        SELECT r.* FROM jsonb_populate_record(NULL::pgbenchx.sweeps,
            '{"repeats": 1}' || e || jsonb_build_object(
                'sweep_id', new_id, 'coordinator_pid', NULL, 'owner', importer,
                'environment_id', env_map->(e->>'environment_id'))) r;
        INSERT INTO pgbenchx.imports (origin_system_identifier, origin_database, origin_id, sweep_id,
                                      exported_from_system_identifier, exported_from_database,
                                      exported_at, exported_pgbenchx_version, imported_by)
        VALUES ((o->>'origin_system_identifier')::numeric::bigint, o->>'origin_database',
                (o->>'origin_id')::bigint, new_id, src_sysid, src_db,
                (prov->>'exported_at')::timestamptz, prov->>'pgbenchx_version', importer);
        old_ids := pg_catalog.array_append(old_ids, e->>'sweep_id');
        new_ids := pg_catalog.array_append(new_ids, new_id);
        result := result || new_id;
    END LOOP;
    SELECT coalesce(pg_catalog.jsonb_object_agg(o_id, n_id), '{}') INTO sweep_map
    FROM ROWS FROM (pg_catalog.unnest(old_ids), pg_catalog.unnest(new_ids)) m(o_id, n_id);
    old_ids := '{}';
    new_ids := '{}';

    -- the runs of the sweeps added, their samples and per-statement latencies
    FOR e IN SELECT x FROM jsonb_array_elements(doc->'runs') x
             WHERE sweep_map ? (x->>'sweep_id') ORDER BY (x->>'run_id')::bigint LOOP
        o := coalesce(
            imports_by_run->(e->>'run_id'),
            jsonb_build_object('origin_system_identifier', src_sysid::text, 'origin_database', src_db,
                               'origin_id', e->'run_id'));
        new_id := nextval('pgbenchx.id_seq');
        INSERT INTO pgbenchx.runs
        SELECT r.* FROM jsonb_populate_record(NULL::pgbenchx.runs,
            '{"protocol": "simple", "repeat": 1}' || e || jsonb_build_object(
                'latency_hist', '\x' || encode(decode(e->>'latency_hist', 'base64'), 'hex'),
                'warmup', coalesce((e->>'warmup')::boolean, false),
                'run_id', new_id, 'sweep_id', sweep_map->(e->>'sweep_id'), 'coordinator_pid', NULL,
                'owner', importer,
                'environment_id', env_map->(e->>'environment_id'))) r;
        INSERT INTO pgbenchx.imports (origin_system_identifier, origin_database, origin_id, run_id,
                                      exported_from_system_identifier, exported_from_database,
                                      exported_at, exported_pgbenchx_version, imported_by)
        VALUES ((o->>'origin_system_identifier')::numeric::bigint, o->>'origin_database',
                (o->>'origin_id')::bigint, new_id, src_sysid, src_db,
                (prov->>'exported_at')::timestamptz, prov->>'pgbenchx_version', importer);
        old_ids := pg_catalog.array_append(old_ids, e->>'run_id');
        new_ids := pg_catalog.array_append(new_ids, new_id);
    END LOOP;
    SELECT coalesce(pg_catalog.jsonb_object_agg(o_id, n_id), '{}') INTO run_map
    FROM ROWS FROM (pg_catalog.unnest(old_ids), pg_catalog.unnest(new_ids)) m(o_id, n_id);
    INSERT INTO pgbenchx.samples
    SELECT r.* FROM jsonb_array_elements(doc->'samples') x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.samples,
             '{"failed": 0, "covered_s": 1}' || x || jsonb_build_object('run_id', run_map->(x->>'run_id'),
                 'latency_hist', '\x' || encode(decode(x->>'latency_hist', 'base64'), 'hex'))) r
    WHERE run_map ? (x->>'run_id');
    INSERT INTO pgbenchx.statement_stats
    SELECT r.* FROM jsonb_array_elements(doc->'statement_stats') x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.statement_stats,
             '{"failures": 0, "retries": 0}' || x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');
    -- what the machine and the server did (absent from a 0.2 document: none)
    INSERT INTO pgbenchx.system_samples
    SELECT r.* FROM jsonb_array_elements(coalesce(doc->'system_samples', '[]')) x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.system_samples,
             x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');
    INSERT INTO pgbenchx.wait_samples
    SELECT r.* FROM jsonb_array_elements(coalesce(doc->'wait_samples', '[]')) x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.wait_samples,
             x || jsonb_build_object('run_id', run_map->(x->>'run_id'))) r
    WHERE run_map ? (x->>'run_id');
    INSERT INTO pgbenchx.run_generators
    SELECT r.* FROM jsonb_array_elements(coalesce(doc->'run_generators', '[]')) x,
         LATERAL jsonb_populate_record(NULL::pgbenchx.run_generators,
             x || jsonb_build_object('run_id', run_map->(x->>'run_id'),
                 'latency_hist', '\x' || encode(decode(x->>'latency_hist', 'base64'), 'hex'))) r
    WHERE run_map ? (x->>'run_id');

    RETURN result;
END $$;

CREATE OR REPLACE FUNCTION pgbenchx.import(doc jsonb)
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'pgbenchx_import'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;
