-- pgbench_init: the tables and rows are those of "pgbench -i" (see
-- pgbench.md section 2): DDL, row counts, key ranges, bid mapping, filler,
-- partition bounds, fillfactor, unlogged, keys.
\i sql/include/common.sql
SET client_min_messages = warning;

CREATE FUNCTION pgbx_columns(rel regclass) RETURNS text LANGUAGE sql AS $$
    SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod)
                      || CASE WHEN attnotnull THEN ' not null' ELSE '' END, ', ' ORDER BY attnum)
    FROM pg_attribute WHERE attrelid = rel AND attnum > 0 AND NOT attisdropped
$$;

CREATE FUNCTION pgbx_tables() RETURNS TABLE (rel text, persistence "char", kind "char", options text[], columns text)
LANGUAGE sql AS $$
    SELECT c.relname::text, c.relpersistence, c.relkind, c.reloptions, pgbx_columns(c.oid)
    FROM pg_class c
    WHERE c.relname LIKE 'pgbench\_%' AND c.relkind IN ('r', 'p')
      AND c.relnamespace = 'public'::regnamespace
    ORDER BY c.relname
$$;

CREATE FUNCTION pgbx_constraints() RETURNS TABLE (rel text, def text) LANGUAGE sql AS $$
    SELECT conrelid::regclass::text, conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint
    WHERE conrelid::regclass::text LIKE 'pgbench\_%'
      -- PostgreSQL 18 catalogues NOT NULL too: the same on every major
      AND contype <> 'n'
    ORDER BY 1, 2
$$;
-- EXPLAIN ANALYZE's plan as every major prints it: 18 adds buffers by
-- default, fractional row counts and index searches
CREATE FUNCTION pgbx_plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || query LOOP
        CONTINUE WHEN line ~ '^\s*Index Searches: ';
        RETURN NEXT regexp_replace(line, 'rows=(\d+)\.00 ', 'rows=\1 ', 'g');
    END LOOP;
END
$$;

-- The primary key of an unpartitioned pgbench_accounts is built from the
-- TIDs the load hands out (btload.c), not by ALTER TABLE's sort.  Proof
-- that it is right: amcheck finds a valid btree that indexes every heap
-- tuple exactly once (heapallindexed) and whose every key can be found from
-- the root (rootdescend), and the index is page for page what CREATE UNIQUE
-- INDEX builds from the same heap (all but each page's LSN and checksum).
CREATE EXTENSION amcheck;
CREATE EXTENSION pageinspect;
CREATE FUNCTION pgbx_check_accounts_pkey()
RETURNS TABLE (levels int, pages bigint, amcheck_ok bool, same_as_create_index bool)
LANGUAGE plpgsql AS $$
DECLARE
    ref_pages bigint;
BEGIN
    PERFORM bt_index_parent_check('pgbench_accounts_pkey', heapallindexed => true, rootdescend => true);
    PERFORM bt_index_check('pgbench_accounts_pkey', heapallindexed => true);
    amcheck_ok := true;
    SELECT m.level INTO levels FROM bt_metap('pgbench_accounts_pkey') m;
    pages := pg_relation_size('pgbench_accounts_pkey') / current_setting('block_size')::int;
    CREATE UNIQUE INDEX pgbx_reference_pkey ON pgbench_accounts (aid);
    ref_pages := pg_relation_size('pgbx_reference_pkey') / current_setting('block_size')::int;
    SELECT ref_pages = pages AND bool_and(substr(get_raw_page('pgbench_accounts_pkey', b), 11)
                                          = substr(get_raw_page('pgbx_reference_pkey', b), 11))
    INTO same_as_create_index
    FROM generate_series(0, (pages - 1)::int) b;
    DROP INDEX pgbx_reference_pkey;
    RETURN NEXT;
END
$$;

-- scale 2, defaults
SELECT pgbench_init(2) IS NOT NULL AS done;
SELECT * FROM pgbx_check_accounts_pkey();
-- lookups and index-only scans through it
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET max_parallel_workers_per_gather = 0;
SELECT aid, bid, abalance FROM pgbench_accounts WHERE aid IN (1, 2, 99999, 100000, 100001, 199999, 200000) ORDER BY aid;
SELECT count(*) FROM pgbench_accounts WHERE aid IN (0, 200001, -5);
SELECT p AS "QUERY PLAN" FROM pgbx_plan('SELECT count(*) FROM pgbench_accounts WHERE aid BETWEEN 1000 AND 150000') p;
SELECT count(*), sum(aid) FROM pgbench_accounts WHERE aid BETWEEN 1000 AND 150000;
SELECT array_agg(aid) FROM (SELECT aid FROM pgbench_accounts WHERE aid > 199995 ORDER BY aid DESC) s;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET max_parallel_workers_per_gather;
SELECT * FROM pgbx_tables();
SELECT * FROM pgbx_constraints();
SELECT count(*), min(bid), max(bid), sum(bbalance), count(filler) AS filler_not_null FROM pgbench_branches;
SELECT count(*), min(tid), max(tid), sum(tbalance), count(filler) AS filler_not_null,
       bool_and(bid = (tid - 1) / 10 + 1) AS bid_mapping
FROM pgbench_tellers;
SELECT count(*), min(aid), max(aid), sum(abalance),
       bool_and(bid = (aid - 1) / 100000 + 1) AS bid_mapping,
       bool_and(filler = '' AND octet_length(filler::text) = 0 AND octet_length(filler) = 84) AS filler_blank84
FROM pgbench_accounts;
SELECT count(*) FROM pgbench_history;
SELECT count(DISTINCT aid) = count(*) AS aid_unique FROM pgbench_accounts;
-- rows are frozen at insert and every page is all-visible, as after VACUUM
SELECT relname, relpages > 0 AS has_pages, relallvisible = relpages AS all_visible,
       reltuples::bigint
FROM pg_class WHERE relname IN ('pgbench_accounts', 'pgbench_branches', 'pgbench_tellers')
ORDER BY relname;
CREATE EXTENSION pg_visibility;
SELECT all_visible = (SELECT relpages FROM pg_class WHERE relname = 'pgbench_accounts') AS all_visible,
       all_frozen = all_visible AS all_frozen
FROM pg_visibility_map_summary('pgbench_accounts');
DROP EXTENSION pg_visibility;

-- range partitions: pgbench's bounds
SELECT pgbench_init(2, partitions => 3) IS NOT NULL AS done;
SELECT * FROM pgbx_tables();
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound,
       (SELECT count(*) FROM pgbench_accounts a WHERE a.tableoid = c.oid) AS rows
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'pgbench_accounts'::regclass ORDER BY c.relname;
SELECT count(*), min(aid), max(aid) FROM pgbench_accounts;
SELECT * FROM pgbx_constraints();
-- partitioned accounts keep ALTER TABLE's key, one per partition
SELECT c.relname, (SELECT count(*) FROM bt_index_parent_check(c.oid, true, true)) = 1 AS amcheck_ok
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'pgbench_accounts_pkey'::regclass ORDER BY c.relname;

-- hash partitions: rows where the executor routes them
SELECT pgbench_init(2, partitions => 3, partition_method => 'hash') IS NOT NULL AS done;
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound,
       (SELECT count(*) FROM pgbench_accounts a WHERE a.tableoid = c.oid) AS rows,
       (SELECT bool_and(satisfies_hash_partition('pgbench_accounts'::regclass, 3, i, aid))
        FROM pgbench_accounts a WHERE a.tableoid = c.oid) AS routed_right
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,
     LATERAL (SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'remainder (\d+)'))[1]::int AS i) r
WHERE i.inhparent = 'pgbench_accounts'::regclass ORDER BY c.relname;
SELECT count(*), count(DISTINCT aid), min(aid), max(aid) FROM pgbench_accounts;

-- many hash partitions (each buffers one page)
SELECT pgbench_init(1, partitions => 20, partition_method => 'hash') IS NOT NULL AS done;
SELECT count(*) AS partitions, sum(n) AS rows, min(n) > 0 AS none_empty
FROM (SELECT tableoid, count(*) AS n FROM pgbench_accounts GROUP BY 1) s;

-- fillfactor, unlogged, foreign keys
SELECT pgbench_init(1, fillfactor => 50, unlogged => true, foreign_keys => true)
       ~ 'foreign keys [0-9.]+ s, analyze' AS done_with_fk;
SELECT * FROM pgbx_tables();
SELECT * FROM pgbx_constraints();
SELECT relpages AS accounts_pages_ff50 FROM pg_class WHERE relname = 'pgbench_accounts';
SELECT relallvisible = relpages AS all_visible FROM pg_class WHERE relname = 'pgbench_accounts';
SELECT * FROM pgbx_check_accounts_pkey();
-- an unlogged key has the init fork (an empty btree) that crash recovery resets it to
SELECT relpersistence, pg_relation_size('pgbench_accounts_pkey', 'init') AS init_fork_bytes
FROM pg_class WHERE relname = 'pgbench_accounts_pkey';

-- more scales and heap fillfactors (other TIDs), roots at levels 1 and 2
SELECT pgbench_init(1) IS NOT NULL AS done;
SELECT * FROM pgbx_check_accounts_pkey();
SELECT pgbench_init(7, fillfactor => 83) IS NOT NULL AS done;
SELECT * FROM pgbx_check_accounts_pkey();
SELECT pgbench_init(2, fillfactor => 10) IS NOT NULL AS done;
SELECT * FROM pgbx_check_accounts_pkey();

-- the default again, for the tests that follow
SELECT pgbench_init(1) IS NOT NULL AS done;
SELECT relpages AS accounts_pages_ff100 FROM pg_class WHERE relname = 'pgbench_accounts';

-- in another schema: the first schema of search_path, as pgbench does
CREATE SCHEMA pgbx_other;
SET search_path = pgbx_other, public;
SELECT pgbench_init(1) IS NOT NULL AS done;
SELECT relnamespace::regnamespace, relname FROM pg_class
WHERE relname = 'pgbench_accounts' ORDER BY relnamespace::regnamespace::text;
RESET search_path;
DROP SCHEMA pgbx_other CASCADE;

DROP FUNCTION pgbx_check_accounts_pkey();
DROP EXTENSION pageinspect;
DROP EXTENSION amcheck;
DROP FUNCTION pgbx_constraints();
DROP FUNCTION pgbx_plan(text);
DROP FUNCTION pgbx_tables();
DROP FUNCTION pgbx_columns(regclass);
RESET client_min_messages;
