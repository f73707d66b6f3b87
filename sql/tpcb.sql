-- pgbenchx.check_tpcb(): the TPC-B invariant on the pgbench tables of the
-- caller's search_path, and the refusals of run_bench/run_sweep's
-- check_tpcb option (which is read by position, after tags and repeats).
\i sql/include/common.sql
SET client_min_messages = warning;
SELECT pgbench_init(1) IS NOT NULL AS tables_ready;
RESET client_min_messages;

-- freshly initialised: every sum is 0
SELECT * FROM pgbenchx.check_tpcb();

-- one tpcb-like transaction by hand keeps it
UPDATE pgbench_accounts SET abalance = abalance + 7 WHERE aid = 1;
UPDATE pgbench_tellers SET tbalance = tbalance + 7 WHERE tid = 1;
UPDATE pgbench_branches SET bbalance = bbalance + 7 WHERE bid = 1;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, 1, 7, now());
SELECT * FROM pgbenchx.check_tpcb();

-- half a transaction breaks it
UPDATE pgbench_accounts SET abalance = abalance - 3 WHERE aid = 2;
SELECT * FROM pgbenchx.check_tpcb();
SELECT consistent FROM pgbenchx.check_tpcb();

-- pgbench's truncate of the history (run_bench's vacuum) breaks the history part
TRUNCATE pgbench_history;
UPDATE pgbench_accounts SET abalance = abalance + 3 WHERE aid = 2;
SELECT * FROM pgbenchx.check_tpcb();

-- missing tables: an error naming pgbench_init
CREATE SCHEMA tpcb_empty;
SET search_path = tpcb_empty;
SELECT public.pgbx_try('SELECT * FROM pgbenchx.check_tpcb()');
CREATE TABLE pgbench_branches (bid int, bbalance int);
SELECT public.pgbx_try('SELECT * FROM pgbenchx.check_tpcb()');
RESET search_path;
DROP SCHEMA tpcb_empty CASCADE;

-- not executable by PUBLIC
SELECT has_function_privilege('public', 'pgbenchx.check_tpcb()', 'EXECUTE') AS public_may_execute;

-- check_tpcb: tpcb-like only (select-only may be mixed in), never NULL
SELECT pgbx_try($$SELECT run_bench(1, 1, 'simple-update', check_tpcb => true)$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, 'tpcb-like@9, simple-update@1', check_tpcb => true)$$);
SELECT pgbx_try($$SELECT run_sweep(1, 2, 1, 'simple-update', check_tpcb => true)$$);
SELECT pgbx_try($$SELECT run_sweep('{1,2}'::int[], 1, 'simple-update', check_tpcb => true)$$);
SELECT pgbx_try('SELECT run_bench(1, 1, check_tpcb => NULL)');
SELECT pgbx_try('SELECT run_sweep(1, 2, 1, check_tpcb => NULL)');
SELECT pgbx_try($$SELECT run_sweep('{1,2}'::int[], 1, check_tpcb => NULL)$$);
-- the arguments before it are still read in their places
SELECT pgbx_try('SELECT run_bench(1, 1, repeats => 2)');
SELECT pgbx_try('SELECT run_sweep(1, 2, 1, repeats => NULL, check_tpcb => true)');
SELECT pgbx_try('SELECT run_sweep(1, 2, 1, repeats => 0, check_tpcb => true)');
SELECT pgbx_try($$SELECT run_sweep('{1,2}'::int[], 1, repeats => 0, check_tpcb => false)$$);
SELECT pgbx_try($$SELECT run_bench(1, 1, tags => '[1]', check_tpcb => true)$$);
SELECT pgbx_try($$SELECT run_sweep('{1,2}'::int[], 1, tags => '[1]', check_tpcb => true)$$);

-- the columns that record it, and the state before the run
SELECT column_name, data_type FROM information_schema.columns
WHERE table_schema = 'pgbenchx' AND table_name = 'runs'
  AND column_name IN ('tpcb_consistent', 'tpcb_consistent_before')
ORDER BY column_name;
