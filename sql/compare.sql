-- Comparing sweeps and moving them between servers, on fixed data inserted
-- directly: pgbenchx.compare, pgbenchx.sweep_points (medians over repeats,
-- spread, unstable points and why), pgbenchx.sweep_summary (peak, percent
-- of peak at the highest client count, environment), and an export ->
-- import round trip in the same database (new ids, equal values, a second
-- import adding nothing), and the documents import refuses.
\i sql/include/common.sql

-- ids chosen here; imported ones come from id_seq after 1000
DELETE FROM pgbenchx.sweeps;
DELETE FROM pgbenchx.runs;
SELECT setval('pgbenchx.id_seq', 1000) IS NOT NULL AS seq_set;

INSERT INTO pgbenchx.environments (env_hash, os_sysname, os_release, cpu_model, cpu_count,
                                   data_fstype, data_mount_options, settings)
VALUES ('cmp-env-1', 'Linux', '6.1.0-18-amd64', 'Test CPU @ 3.40GHz', 8, 'ext4',
        'rw,relatime', '{"shared_buffers": "128MB", "fsync": "on"}')
RETURNING environment_id AS env1 \gset

-- sweep 101: one run per client count, falling off after its peak (79% of
-- peak at the highest count), plus a failed run that must not count
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, label, started_at,
                             finished_at, protocol, repeats, tags, environment_id)
VALUES (101, 'completed', 'select-only', '{1,2,4,8,16}', 10, 'ext4 barrier',
        '2024-01-01 10:00:00+00', '2024-01-01 10:01:00+00', 'simple', 1,
        '{"fs": "ext4"}', :env1);
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, protocol, scale, clients, jobs, duration,
                           started_at, finished_at, transactions, failed, tps, tps_incl_conn,
                           latency_avg_ms, latency_p99_ms, repeat, checkpoints, autovacuums,
                           environment_id, error)
VALUES (102, 101, 'completed', 'select-only', 'simple', 1, 1, 1, 10, '2024-01-01 10:00:00+00', '2024-01-01 10:00:10+00', 10000, 0, 1000, 990, 1.0, 2.5, 1, 0, 0, :env1, NULL),
       (103, 101, 'completed', 'select-only', 'simple', 1, 2, 1, 10, '2024-01-01 10:00:10+00', '2024-01-01 10:00:20+00', 19000, 0, 1900, 1880, 1.05, 3.0, 1, 0, 1, :env1, NULL),
       (104, 101, 'completed', 'select-only', 'simple', 1, 4, 2, 10, '2024-01-01 10:00:20+00', '2024-01-01 10:00:30+00', 36000, 0, 3600, 3550, 1.1, 4.0, 1, 0, 0, :env1, NULL),
       (105, 101, 'completed', 'select-only', 'simple', 1, 8, 2, 10, '2024-01-01 10:00:30+00', '2024-01-01 10:00:40+00', 28440, 0, 2844, 2800, 2.8, 9.5, 1, NULL, NULL, :env1, NULL),
       (106, 101, 'failed',    'select-only', 'simple', 1, 16, 2, 10, '2024-01-01 10:00:40+00', '2024-01-01 10:00:41+00', 0, 0, NULL, NULL, NULL, NULL, 1, 0, 0, :env1, 'connection refused');
INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_avg_ms, latency_p99_ms, failed)
SELECT 102, s, 1000 + s, 1000 + s, 1.0 + s / 100.0, 2.5, 0 FROM generate_series(1, 10) s;
-- its last second covered half a second: covered_s goes through export and import
UPDATE pgbenchx.samples SET covered_s = 0.5, tps = transactions / 0.5 WHERE run_id = 102 AND second = 10;
INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_avg_ms, latency_p99_ms, failed)
SELECT 104, s, 3600 - s, 3600 - s, 1.1, 4.0, 0 FROM generate_series(1, 10) s;
INSERT INTO pgbenchx.statement_stats (run_id, script, command, command_text, executions, latency_avg_ms)
VALUES (102, 'select-only', 1, '\set aid random(1, 100000 * :scale)', 10000, NULL),
       (102, 'select-only', 2, 'SELECT abalance FROM pgbench_accounts WHERE aid = :aid;', 10000, 0.93);

-- sweep 201: repeats => 2, interleaved; no environment recorded.  Point 2
-- spreads 26% (2000 and 2600), point 4 had a checkpoint inside a run,
-- point 16 exists only here
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, label, started_at,
                             finished_at, protocol, repeats)
VALUES (201, 'completed', 'select-only', '{1,2,4,16}', 10, 'ext4 nobarrier',
        '2024-01-02 10:00:00+00', '2024-01-02 10:02:00+00', 'simple', 2);
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, duration, started_at,
                           transactions, tps, latency_p99_ms, repeat, checkpoints, autovacuums)
VALUES (202, 201, 'completed', 'select-only', 1, 1, 10, '2024-01-02 10:00:00+00', 11000, 1100, 2.0, 1, 0, 0),
       (203, 201, 'completed', 'select-only', 2, 1, 10, '2024-01-02 10:00:10+00', 20000, 2000, 2.6, 1, 0, 0),
       (204, 201, 'completed', 'select-only', 4, 2, 10, '2024-01-02 10:00:20+00', 40000, 4000, 3.0, 1, 0, 0),
       (205, 201, 'completed', 'select-only', 16, 2, 10, '2024-01-02 10:00:30+00', 30000, 3000, 12.0, 1, 0, 2),
       (206, 201, 'completed', 'select-only', 1, 1, 10, '2024-01-02 10:00:40+00', 11200, 1120, 2.2, 2, 0, 0),
       (207, 201, 'completed', 'select-only', 2, 1, 10, '2024-01-02 10:00:50+00', 26000, 2600, 2.4, 2, 0, 0),
       (208, 201, 'completed', 'select-only', 4, 2, 10, '2024-01-02 10:01:00+00', 41000, 4100, 3.4, 2, 1, 0),
       (209, 201, 'completed', 'select-only', 16, 2, 10, '2024-01-02 10:01:10+00', 30600, 3060, 13.0, 2, 0, 0);

-- per point: medians over the repeats, spread, and why a point is unstable
SELECT sweep_id, clients, n, median_tps, min_tps, max_tps, round(spread::numeric, 4) AS spread,
       median_p99_ms, checkpoints, autovacuums, unstable, unstable_reason, run_ids
FROM pgbenchx.sweep_points ORDER BY sweep_id, clients;

-- the threshold is pgbenchx.unstable_spread (default 10%)
SELECT pgbenchx.sweep_ladder(1, 2) IS NOT NULL AS library_loaded;
SHOW pgbenchx.unstable_spread;
SET pgbenchx.unstable_spread = 0.3;
SELECT sweep_id, clients, unstable, unstable_reason FROM pgbenchx.sweep_points
WHERE sweep_id = 201 ORDER BY clients;
SET pgbenchx.unstable_spread = 0.01;
SELECT clients, unstable, unstable_reason FROM pgbenchx.sweep_points
WHERE sweep_id = 201 ORDER BY clients;
RESET pgbenchx.unstable_spread;
SELECT pgbx_try('SET pgbenchx.unstable_spread = -1');

-- per sweep: peak, percent of peak at the highest client count, environment
SELECT sweep_id, label, status, script, repeats, runs, completed_runs, peak_tps, peak_clients,
       highest_clients, tps_at_highest, pct_of_peak_at_highest, unstable_points, tags, started_at,
       environment_id = :env1 AS env1, os_sysname, os_release, data_fstype, data_mount_options,
       cpu_model, cpu_count, shared_buffers, origin_system_identifier
FROM pgbenchx.sweep_summary ORDER BY sweep_id;

-- compare: one row per client count in either sweep, medians of repeats
SELECT * FROM pgbenchx.compare(101, 201);
SELECT * FROM pgbenchx.compare(201, 101);
SELECT clients, ratio, pct_diff FROM pgbenchx.compare(101, 101);
-- issue 23: the interval of the ratio over the runs of each side (2 a side
-- here: t(1) = 12.7, a wide interval), and why there is none with one run
SELECT clients, ratio_low, ratio_high, significant, method, conclusion FROM pgbenchx.compare(201, 201);
SELECT pgbx_try('SELECT * FROM pgbenchx.compare(101, 999)');
SELECT pgbx_try('SELECT * FROM pgbenchx.compare(102, 201)');
SELECT pgbx_try('SELECT * FROM pgbenchx.compare(NULL, 201)');

-- export: the document's shape and provenance
SELECT pgbenchx.export(ARRAY[101, 201, 101]) AS doc \gset
SELECT jsonb_object_keys(:'doc'::jsonb) AS key ORDER BY 1;
SELECT d->'format' AS format, d->'format_version' AS version,
       d->'provenance'->>'system_identifier' = (SELECT system_identifier::text FROM pg_control_system()) AS sysid_ok,
       d->'provenance'->'database' AS database,
       d->'provenance'->'pgbenchx_version' AS pgbenchx_version,
       (d->'provenance'->>'exported_at')::timestamptz <= now() AS exported_at_ok,
       (SELECT array_agg((x->>'sweep_id')::bigint) FROM jsonb_array_elements(d->'sweeps') x) AS sweeps,
       jsonb_array_length(d->'runs') AS runs, jsonb_array_length(d->'samples') AS samples,
       jsonb_array_length(d->'statement_stats') AS statement_stats,
       jsonb_array_length(d->'environments') AS environments, d->'imports' AS imports
FROM (SELECT :'doc'::jsonb AS d) x;
SELECT pgbx_try('SELECT pgbenchx.export(ARRAY[]::bigint[])');
SELECT pgbx_try('SELECT pgbenchx.export(NULL)');
SELECT pgbx_try('SELECT pgbenchx.export(ARRAY[101, 998, 999])');
SELECT pgbx_try('SELECT pgbenchx.export(ARRAY[101, NULL])');
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients) VALUES (301, 'running', 'tpcb-like', '{1}');
SELECT pgbx_try('SELECT pgbenchx.export(ARRAY[101, 301])');
DELETE FROM pgbenchx.sweeps WHERE sweep_id = 301;

-- import into the same database: new ids, provenance, equal values
SELECT pgbenchx.import(:'doc') AS imported \gset
SELECT :'imported' AS imported;
SELECT origin_system_identifier = (SELECT system_identifier FROM pg_control_system()) AS origin_is_here,
       origin_database, origin_id, sweep_id, run_id,
       exported_from_database, exported_pgbenchx_version, imported_at IS NOT NULL AS imported_at
FROM pgbenchx.imports ORDER BY origin_id;
-- the imported sweep reused the environment with the same env_hash
SELECT s.sweep_id, s.environment_id = :env1 AS same_environment,
       (SELECT count(*) FROM pgbenchx.environments) AS environments
FROM pgbenchx.sweeps s WHERE s.sweep_id IN (1001, 1002) ORDER BY 1;
-- the importer owns what it imported
SELECT (SELECT array_agg(DISTINCT owner) FROM pgbenchx.sweeps WHERE sweep_id IN (1001, 1002)) = ARRAY[current_user::name] AS sweeps_owned,
       (SELECT array_agg(DISTINCT owner) FROM pgbenchx.runs WHERE sweep_id IN (1001, 1002)) = ARRAY[current_user::name] AS runs_owned;
-- every value but the ids and the owner is equal
WITH pairs(a, b) AS (VALUES (101::bigint, 1001::bigint), (201, 1002))
SELECT a, b,
       (SELECT to_jsonb(s) - '{sweep_id,owner}'::text[] FROM pgbenchx.sweeps s WHERE s.sweep_id = a)
     = (SELECT to_jsonb(s) - '{sweep_id,owner}'::text[] FROM pgbenchx.sweeps s WHERE s.sweep_id = b) AS sweep_equal,
       (SELECT jsonb_agg(to_jsonb(r) - '{run_id,sweep_id,owner}'::text[] ORDER BY r.run_id) FROM pgbenchx.runs r WHERE r.sweep_id = a)
     = (SELECT jsonb_agg(to_jsonb(r) - '{run_id,sweep_id,owner}'::text[] ORDER BY r.run_id) FROM pgbenchx.runs r WHERE r.sweep_id = b) AS runs_equal,
       (SELECT jsonb_agg(to_jsonb(x) - 'run_id' ORDER BY r.run_id, x.second) FROM pgbenchx.samples x JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = a)
     IS NOT DISTINCT FROM
       (SELECT jsonb_agg(to_jsonb(x) - 'run_id' ORDER BY r.run_id, x.second) FROM pgbenchx.samples x JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = b) AS samples_equal,
       (SELECT jsonb_agg(to_jsonb(x) - 'run_id' ORDER BY r.run_id, x.command) FROM pgbenchx.statement_stats x JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = a)
     IS NOT DISTINCT FROM
       (SELECT jsonb_agg(to_jsonb(x) - 'run_id' ORDER BY r.run_id, x.command) FROM pgbenchx.statement_stats x JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = b) AS statement_stats_equal
FROM pairs;
SELECT count(*) AS samples_copied FROM pgbenchx.samples x JOIN pgbenchx.runs r USING (run_id) WHERE r.sweep_id = 1001;
SELECT * FROM pgbenchx.compare(101, 1001);
SELECT sweep_id, label, peak_tps, pct_of_peak_at_highest, unstable_points,
       origin_system_identifier = (SELECT system_identifier FROM pg_control_system()) AS imported
FROM pgbenchx.sweep_summary ORDER BY sweep_id;

-- importing the same document again returns the same sweeps and adds nothing
CREATE TEMP TABLE counts_before AS
SELECT (SELECT count(*) FROM pgbenchx.sweeps) AS sweeps, (SELECT count(*) FROM pgbenchx.runs) AS runs,
       (SELECT count(*) FROM pgbenchx.samples) AS samples, (SELECT count(*) FROM pgbenchx.statement_stats) AS stmts,
       (SELECT count(*) FROM pgbenchx.environments) AS envs, (SELECT count(*) FROM pgbenchx.imports) AS imports;
SELECT pgbenchx.import(:'doc') = :'imported'::bigint[] AS same_ids;
SELECT (SELECT count(*) FROM pgbenchx.sweeps) AS sweeps, (SELECT count(*) FROM pgbenchx.runs) AS runs,
       (SELECT count(*) FROM pgbenchx.samples) AS samples, (SELECT count(*) FROM pgbenchx.statement_stats) AS stmts,
       (SELECT count(*) FROM pgbenchx.environments) AS envs, (SELECT count(*) FROM pgbenchx.imports) AS imports
EXCEPT SELECT * FROM counts_before;
-- an imported sweep exported again keeps its first origin: no copy either
SELECT pgbenchx.import(pgbenchx.export(ARRAY[1002, 1001])) AS reexported;
SELECT count(*) AS sweeps FROM pgbenchx.sweeps;
-- a deleted import can be imported again
DELETE FROM pgbenchx.sweeps WHERE sweep_id = 1002;
SELECT count(*) AS imports_left FROM pgbenchx.imports;
SELECT pgbenchx.import(:'doc') AS reimported;

-- from another origin, with an environment not here yet: added under a new id
SELECT pgbenchx.import(jsonb_set(jsonb_set(:'doc', '{environments,0,env_hash}', '"cmp-env-2"'),
                                 '{provenance,database}', '"elsewhere"')) AS from_elsewhere;
SELECT s.sweep_id, e.env_hash, e.environment_id <> :env1 AS new_environment, e.os_sysname,
       i.origin_database, i.origin_id
FROM pgbenchx.sweeps s JOIN pgbenchx.imports i USING (sweep_id)
LEFT JOIN pgbenchx.environments e USING (environment_id)
WHERE i.origin_database = 'elsewhere' ORDER BY 1;
SELECT count(*) AS environments FROM pgbenchx.environments;

-- documents refused, with nothing loaded
SELECT count(*) AS sweeps_before FROM pgbenchx.sweeps;
SELECT pgbx_try('SELECT pgbenchx.import(NULL)');
SELECT pgbx_try($$SELECT pgbenchx.import('[1, 2]')$$);
SELECT pgbx_try($$SELECT pgbenchx.import('{"sweeps": []}')$$);
SELECT pgbx_try(format('SELECT pgbenchx.import(%L)', jsonb_set(:'doc', '{format_version}', '2')));
SELECT pgbx_try(format('SELECT pgbenchx.import(%L)', :'doc'::jsonb - 'runs'));
SELECT pgbx_try(format('SELECT pgbenchx.import(%L)', jsonb_set(:'doc', '{samples}', '"none"')));
SELECT pgbx_try(format('SELECT pgbenchx.import(%L)', jsonb_set(:'doc', '{provenance}', '{"database": "x"}')));
SELECT pgbx_try(format('SELECT pgbenchx.import(%L)', jsonb_set(:'doc', '{sweeps}', '[]')));
SELECT pgbx_try(format('SELECT pgbenchx.import(%L)', jsonb_set(:'doc', '{runs,2}', (:'doc'::jsonb->'runs'->2) - 'clients')));
SELECT pgbx_try(format('SELECT pgbenchx.import(%L)', jsonb_set(:'doc', '{samples,0}', '42')));
SELECT pgbx_try(format('SELECT pgbenchx.import(%L)', jsonb_set(:'doc', '{sweeps,1,status}', '"running"')));
SELECT pgbx_try(format('SELECT pgbenchx.import(%L)', jsonb_set(:'doc', '{runs,0,sweep_id}', '555')));
SELECT pgbx_try(format('SELECT pgbenchx.import(%L)', jsonb_set(:'doc', '{samples,0,run_id}', '555')));
SELECT replace(pgbx_try(format('SELECT pgbenchx.import(%L)', jsonb_set(:'doc', '{environments}', '[]'))),
               'environment ' || :env1, 'environment <env1>') AS pgbx_try;
SELECT pgbx_try(format('SELECT pgbenchx.import(%L)', jsonb_set(:'doc', '{sweeps,1}', :'doc'::jsonb->'sweeps'->0)));
SELECT count(*) AS sweeps_after FROM pgbenchx.sweeps;

-- CSV through COPY, as docs/export-import.md documents it
COPY (SELECT * FROM pgbenchx.compare(101, 201)) TO STDOUT WITH (FORMAT csv, HEADER);
COPY (SELECT sweep_id, clients, n, median_tps, spread, unstable, unstable_reason
      FROM pgbenchx.sweep_points WHERE sweep_id = 201 ORDER BY clients) TO STDOUT WITH (FORMAT csv, HEADER);

-- replays compare in queries per minute (failed statements included), and
-- not with a benchmark sweep
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, label)
VALUES (401, 'completed', 'replay', '{1,2}', 'replay a'), (402, 'completed', 'replay', '{1,2}', 'replay b');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, transactions, failed, tps, latency_p99_ms, bench_duration_s, replay, qpm)
VALUES (403, 401, 'completed', 'replay', 1, 1, 190, 10, 95, 2.0, 2, true, 6000),
       (404, 401, 'completed', 'replay', 2, 1, 380, 20, 190, 2.5, 2, true, 12000),
       (405, 402, 'completed', 'replay', 1, 1, 190, 10, 190, 1.0, 1, true, 12000),
       (406, 402, 'completed', 'replay', 2, 1, 380, 20, 253.3, 1.5, 1.5, true, 16000);
SELECT * FROM pgbenchx.compare(401, 402);
SELECT sweep_id, clients, median_tps, median_qpm FROM pgbenchx.sweep_points WHERE sweep_id IN (101, 401) ORDER BY 1, 2;
-- sweep_summary gives a replay's peak and last point in qpm too (NULL for a benchmark)
SELECT sweep_id, peak_clients, peak_tps, peak_qpm, highest_clients, qpm_at_highest
FROM pgbenchx.sweep_summary WHERE sweep_id IN (101, 401, 402) ORDER BY 1;
SELECT pgbx_try('SELECT * FROM pgbenchx.compare(101, 401)');
SELECT pgbx_try('SELECT * FROM pgbenchx.compare(402, 201)');

-- issue 35: sweeps against sweeps.  Sweeps 601, 603 (side A) and 602, 604
-- (side B), run ABBA, 2 runs a point: each sweep's geometric mean at a
-- client count is one observation, the ratio a ratio of geometric means
-- with Student's t on the log scale (2 degrees of freedom), Holm over the
-- client counts.  At 1 client B is 2x A in both pairs of sweeps
-- (significant); at 2 clients the sweeps disagree (not significant).
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, label)
SELECT g, 'completed', 'select-only', '{1,2}', 'multi ' || g FROM generate_series(601, 604) g;
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, clients, jobs, tps, latency_p99_ms, repeat)
VALUES (611, 601, 'completed', 'select-only', 1, 1, 100, 1, 1), (612, 601, 'completed', 'select-only', 1, 1, 121, 1, 2),
       (613, 601, 'completed', 'select-only', 2, 1, 200, 1, 1), (614, 601, 'completed', 'select-only', 2, 1, 200, 1, 2),
       (621, 602, 'completed', 'select-only', 1, 1, 200, 1, 1), (622, 602, 'completed', 'select-only', 1, 1, 242, 1, 2),
       (623, 602, 'completed', 'select-only', 2, 1, 300, 1, 1), (624, 602, 'completed', 'select-only', 2, 1, 300, 1, 2),
       (631, 603, 'completed', 'select-only', 1, 1, 105, 1, 1), (632, 603, 'completed', 'select-only', 1, 1, 115, 1, 2),
       (633, 603, 'completed', 'select-only', 2, 1, 220, 1, 1), (634, 603, 'completed', 'select-only', 2, 1, 220, 1, 2),
       (641, 604, 'completed', 'select-only', 1, 1, 212, 1, 1), (642, 604, 'completed', 'select-only', 1, 1, 228, 1, 2),
       (643, 604, 'completed', 'select-only', 2, 1, 150, 1, 1), (644, 604, 'completed', 'select-only', 2, 1, 150, 1, 2);
SELECT clients, tps_a, tps_b, ratio, ratio_low, ratio_high, significant,
       ratio_low_unadjusted, ratio_high_unadjusted, method, conclusion
FROM pgbenchx.compare(ARRAY[601, 603], ARRAY[602, 604]);
-- one sweep on a side: the ratio, not tested
SELECT clients, ratio, significant, method, conclusion FROM pgbenchx.compare(ARRAY[601], ARRAY[602, 604]);
SELECT pgbx_try('SELECT * FROM pgbenchx.compare(ARRAY[601, NULL], ARRAY[602])');
SELECT pgbx_try('SELECT * FROM pgbenchx.compare(''{}''::bigint[], ARRAY[602])');
SELECT pgbx_try('SELECT * FROM pgbenchx.compare(NULL::bigint[], ARRAY[602])');
SELECT pgbx_try('SELECT * FROM pgbenchx.compare(ARRAY[601, 999], ARRAY[602])');
SELECT pgbx_try('SELECT * FROM pgbenchx.compare(ARRAY[601], ARRAY[602, 401])');
-- the functions on fixed values: 2, 2.2, 1.8, 2 times the baseline in 4
-- pairs; geometric means 200 against 100; Holm over four p-values
SELECT round(ratio::numeric, 4) AS ratio, round(low::numeric, 4) AS low, round(high::numeric, 4) AS high, df, p < 0.05 AS p_below
FROM pgbenchx.ci_log_ratio('{100, 100, 100, 100}', '{200, 220, 180, 200}', true);
SELECT round(ratio::numeric, 4) AS ratio, df FROM pgbenchx.ci_log_ratio('{100, 400}', '{50, 200}', false);
SELECT pgbenchx.ci_log_ratio('{100, 0}', '{50, 200}', false) IS NULL AS no_log_of_0,
       pgbenchx.ci_log_ratio('{100}', '{50}', true) IS NULL AS one_pair;
SELECT pgbx_try($$SELECT pgbenchx.ci_log_ratio('{1, 2}', '{1}', true)$$);
SELECT pgbenchx.ci_holm('{0.01, 0.04, 0.03, NULL, 0.005}') AS holm_levels;
SELECT pgbx_try($$SELECT pgbenchx.ci_holm('{0.5, 2}')$$);
SELECT round(low::numeric, 4) AS low, round(high::numeric, 4) AS high FROM pgbenchx.ci_log_bounds(ln(2), 0.1, 3, 0.05);

DELETE FROM pgbenchx.sweeps;
DELETE FROM pgbenchx.runs;
DELETE FROM pgbenchx.environments;
