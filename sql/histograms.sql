-- histograms: the stored latency histograms' functions (issue 14):
-- latency_percentile, latency_merge (function and aggregate),
-- latency_buckets on a fixed histogram, and their refusals of bad bytes
-- and of a percentile out of (0, 100].
\i sql/include/common.sql
-- 98 x 1000 us, 1 x 5000 us, 1 x 20000 us (format: src/histcodec.h)
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
