-- histograms: the stored latency histograms' functions (issue 14):
-- latency_percentile, latency_merge (function and aggregate),
-- latency_buckets on a fixed histogram, and their refusals of bad bytes
-- and of a percentile out of (0, 100].
\i sql/include/common.sql
-- 98 x 1000 us, 1 x 5000 us, 1 x 20000 us (format: src/lang/histcodec.h)
\set h '''\\x4801062064f8c007c0b1b1f90100e807a09c0103be0262910101800101''::bytea'
SELECT * FROM pgbenchx.latency_buckets(:h);
SELECT p, pgbenchx.latency_percentile(:h, p)
FROM unnest('{0.001,1,50,98,99,99.5,100}'::float8[]) AS p;
-- merging is exact: twice the counts, the same percentiles
SELECT sum(count) FROM pgbenchx.latency_buckets(pgbenchx.latency_merge(:h, :h));
SELECT pgbenchx.latency_merge(:h, :h) = pgbenchx.latency_merge(x) FROM (VALUES (:h), (NULL), (:h)) v(x);
SELECT pgbenchx.latency_percentile(pgbenchx.latency_merge(x), 99) FROM (VALUES (:h), (:h)) v(x);
SELECT pgbenchx.latency_merge(x) IS NULL AS all_null FROM (VALUES (NULL::bytea)) v(x);
-- an empty histogram: no percentile, no bucket
SELECT pgbenchx.latency_percentile('\x4801062000000000000000'::bytea, 50) IS NULL AS empty;
SELECT count(*) FROM pgbenchx.latency_buckets('\x4801062000000000000000'::bytea);
SELECT length(pgbenchx.latency_merge(:h, '\x4801062000000000000000'::bytea)) = length(:h) AS same;
-- refusals
SELECT pgbx_try($$SELECT pgbenchx.latency_percentile($$ || quote_literal(:h) || $$, 0)$$);
SELECT pgbx_try($$SELECT pgbenchx.latency_percentile($$ || quote_literal(:h) || $$, 100.5)$$);
SELECT pgbx_try($$SELECT pgbenchx.latency_percentile($$ || quote_literal(:h) || $$, 'NaN')$$);
SELECT pgbx_try($$SELECT pgbenchx.latency_percentile('\x', 50)$$);
SELECT pgbx_try($$SELECT pgbenchx.latency_percentile('\x58', 50)$$);
SELECT pgbx_try($$SELECT pgbenchx.latency_percentile('\x48020620', 50)$$);
SELECT pgbx_try($$SELECT pgbenchx.latency_percentile('\x48010720', 50)$$);
SELECT pgbx_try($$SELECT pgbenchx.latency_percentile('\x4801062064f8c007', 50)$$);
SELECT pgbx_try($$SELECT pgbenchx.latency_percentile('\x4801062064f8c007c0b1b1f90100e807a09c0103be0262910101800101ff', 50)$$);
SELECT pgbx_try($$SELECT pgbenchx.latency_percentile('\x4801062065f8c007c0b1b1f90100e807a09c0103be0262910101800101', 50)$$);
SELECT pgbx_try($$SELECT pgbenchx.latency_merge('\x4801062000000000000000', '\x00')$$);
SELECT pgbx_try($$SELECT pgbenchx.latency_merge(x) FROM (VALUES ('\x4801062000000000000000'::bytea), ('\x00')) v(x)$$);
SELECT pgbx_try($$SELECT * FROM pgbenchx.latency_buckets(pg_catalog.decode(repeat('00', 30000), 'hex'))$$);
-- export writes the histograms in base64; import reads them back, refuses
-- bad ones before loading anything, and a document without them (0.2)
-- loads with NULL
DELETE FROM pgbenchx.sweeps;
DELETE FROM pgbenchx.runs;
INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, started_at, finished_at)
VALUES (401, 'completed', 'select-only', '{1}', 2, '2024-03-01 10:00:00+00', '2024-03-01 10:01:00+00');
INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, protocol, clients, jobs, duration,
                           started_at, finished_at, transactions, failed, tps, latency_hist)
VALUES (402, 401, 'completed', 'select-only', 'simple', 1, 1, 2, '2024-03-01 10:00:00+00', '2024-03-01 10:00:02+00', 200, 0, 100,
        pgbenchx.latency_merge(:h, :h));
INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, failed, latency_hist)
VALUES (402, 1, 100, 100, 0, :h), (402, 2, 100, 100, 0, :h);
SELECT pgbenchx.export(ARRAY[401]) AS doc \gset
SELECT :'doc'::jsonb #>> '{samples,0,latency_hist}' AS base64;
SELECT pgbx_try($$SELECT pgbenchx.import(jsonb_set($$ || quote_literal(:'doc') || $$, '{runs,0,latency_hist}', '5'))$$);
SELECT pgbx_try($$SELECT pgbenchx.import(jsonb_set($$ || quote_literal(:'doc') || $$, '{samples,1,latency_hist}', '"@@@"'))$$);
SELECT pgbx_try($$SELECT pgbenchx.import(jsonb_set($$ || quote_literal(:'doc') || $$, '{samples,1,latency_hist}', '"WA=="'))$$);
SELECT pgbx_try($$SELECT pgbenchx.import(jsonb_set($$ || quote_literal(:'doc') || $$, '{runs,0,latency_hist}', '""'))$$);
SELECT count(*) AS nothing_loaded FROM pgbenchx.runs WHERE run_id <> 402;
DELETE FROM pgbenchx.sweeps;
DELETE FROM pgbenchx.runs;
SELECT cardinality(pgbenchx.import(:'doc')) AS imported;
SELECT r.latency_hist = pgbenchx.latency_merge(:h, :h) AS run_same,
       (SELECT bool_and(s.latency_hist = :h) FROM pgbenchx.samples s WHERE s.run_id = r.run_id) AS samples_same,
       pgbenchx.latency_percentile(r.latency_hist, 99) AS p99
FROM pgbenchx.runs r;
DELETE FROM pgbenchx.imports;
DELETE FROM pgbenchx.sweeps;
DELETE FROM pgbenchx.runs;
SELECT cardinality(pgbenchx.import(jsonb_set(jsonb_set(:'doc', '{runs}',
           (SELECT jsonb_agg(e - 'latency_hist') FROM jsonb_array_elements(:'doc'::jsonb -> 'runs') e)),
           '{samples}', (SELECT jsonb_agg(e - 'latency_hist') FROM jsonb_array_elements(:'doc'::jsonb -> 'samples') e)))) AS imported_without;
SELECT count(*) FILTER (WHERE r.latency_hist IS NULL) AS runs_null,
       (SELECT count(*) FILTER (WHERE latency_hist IS NULL) FROM pgbenchx.samples) AS samples_null
FROM pgbenchx.runs r;
DELETE FROM pgbenchx.imports;
DELETE FROM pgbenchx.sweeps;
DELETE FROM pgbenchx.runs;
-- counts that would wrap when merged (only a crafted histogram has them)
\set big '''\\x48010620ffffffffffffffffff01e8070000e807e80701be02ffffffffffffffffff01''::bytea'
SELECT pgbenchx.latency_percentile(:big, 50);
SELECT pgbx_try($$SELECT pgbenchx.latency_merge($$ || quote_literal(:big) || $$, $$ || quote_literal(:h) || $$)$$);
