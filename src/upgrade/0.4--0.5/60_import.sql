/*
 * 60_import (issue 20, section 6): an imported document never impersonates
 * this server's or another role's results.  What a document claims (an
 * origin, an env_hash) is not proof, so it is kept apart:
 *   - pgbenchx.environments gains imported_by (NULL: captured by this
 *     server; else the role whose import() added the row).  env_hash is
 *     unique among the captured rows and, separately, among each role's
 *     imported rows; a capture only finds captured rows.
 *   - pgbenchx.imports gains imported_by (the role whose import() loaded
 *     the row, its owner here; '' only in rows a dump taken before 0.5
 *     restores, which count as imported by their sweep's owner), and it
 *     joins the primary key: an origin maps onto a sweep only for the role
 *     that imported it.
 *   - import() and env_diff() change: the routines that follow this delta
 *     re-create them, with the comments of the new columns.
 * Every stored row is kept.  Their provenance:
 *   - an imports row was loaded by the owner of the sweep or run it names
 *     (the extension's owner if that is NULL);
 *   - an environment is captured here when its env_hash is the md5 of its
 *     contents (a capture's always is) and a sweep or run measured here
 *     uses it, or nothing uses it (capture_environment() on demand); a row
 *     whose env_hash is not that of its contents cannot be a capture of
 *     this server, and one that only imported sweeps and runs use was
 *     imported: such a row is imported_by the role of the first import that
 *     uses it, else by the extension's owner.  Sweeps and runs keep their
 *     environment_id; the next capture adds a row of its own.
 */
ALTER TABLE pgbenchx.environments ADD COLUMN imported_by name;
ALTER TABLE pgbenchx.imports ADD COLUMN imported_by name;

UPDATE pgbenchx.imports i
SET imported_by = coalesce(
        (SELECT s.owner FROM pgbenchx.sweeps s WHERE s.sweep_id OPERATOR(pg_catalog.=) i.sweep_id),
        (SELECT r.owner FROM pgbenchx.runs r WHERE r.run_id OPERATOR(pg_catalog.=) i.run_id),
        (SELECT pg_catalog.pg_get_userbyid(x.extowner) FROM pg_catalog.pg_extension x
         WHERE x.extname OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.name));
ALTER TABLE pgbenchx.imports ALTER COLUMN imported_by SET NOT NULL,
    ALTER COLUMN imported_by SET DEFAULT '';
ALTER TABLE pgbenchx.imports DROP CONSTRAINT imports_pkey,
    ADD PRIMARY KEY (origin_system_identifier, origin_database, origin_id, imported_by);

WITH imported_use AS (
        SELECT s.environment_id, i.imported_by, i.imported_at
        FROM pgbenchx.imports i JOIN pgbenchx.sweeps s ON s.sweep_id OPERATOR(pg_catalog.=) i.sweep_id
        UNION ALL
        SELECT r.environment_id, i.imported_by, i.imported_at
        FROM pgbenchx.imports i JOIN pgbenchx.runs r
             ON r.sweep_id OPERATOR(pg_catalog.=) i.sweep_id OR r.run_id OPERATOR(pg_catalog.=) i.run_id),
     local_use AS (
        SELECT s.environment_id FROM pgbenchx.sweeps s
        WHERE NOT EXISTS (SELECT FROM pgbenchx.imports i WHERE i.sweep_id OPERATOR(pg_catalog.=) s.sweep_id)
        UNION
        SELECT r.environment_id FROM pgbenchx.runs r
        WHERE NOT EXISTS (SELECT FROM pgbenchx.imports i
                          WHERE i.run_id OPERATOR(pg_catalog.=) r.run_id
                             OR i.sweep_id OPERATOR(pg_catalog.=) r.sweep_id)),
     provenance AS (
        SELECT e.environment_id,
               (SELECT u.imported_by FROM imported_use u
                WHERE u.environment_id OPERATOR(pg_catalog.=) e.environment_id
                ORDER BY u.imported_at, u.imported_by LIMIT 1) AS first_importer,
               e.env_hash OPERATOR(pg_catalog.=) pg_catalog.md5((pg_catalog.to_jsonb(e)
                   OPERATOR(pg_catalog.-) '{environment_id,env_hash,captured_at,imported_by}'::pg_catalog.text[])::pg_catalog.text) AS verified,
               EXISTS (SELECT FROM local_use l WHERE l.environment_id OPERATOR(pg_catalog.=) e.environment_id) AS used_here
        FROM pgbenchx.environments e)
UPDATE pgbenchx.environments e
SET imported_by = coalesce(p.first_importer,
                           (SELECT pg_catalog.pg_get_userbyid(x.extowner) FROM pg_catalog.pg_extension x
                            WHERE x.extname OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.name))
FROM provenance p
WHERE p.environment_id OPERATOR(pg_catalog.=) e.environment_id
  AND (NOT p.verified OR (NOT p.used_here AND p.first_importer IS NOT NULL));

ALTER TABLE pgbenchx.environments DROP CONSTRAINT environments_env_hash_key;
CREATE UNIQUE INDEX environments_captured_hash ON pgbenchx.environments (env_hash)
    WHERE imported_by IS NULL;
CREATE UNIQUE INDEX environments_imported_hash ON pgbenchx.environments (imported_by, env_hash)
    WHERE imported_by IS NOT NULL;
