-- pgbench_init: every bad input is an ERROR with an errcode, a detail and a
-- hint, and changes nothing.
\i sql/include/common.sql
SET client_min_messages = warning;
SELECT pgbench_init(1) ~ '^done in [0-9.]+ s \(drop tables [0-9.]+ s, create tables [0-9.]+ s, generate [0-9.]+ s, primary keys [0-9.]+ s, analyze [0-9.]+ s\), jobs [0-9]+\.$' AS summary_ok;
UPDATE pgbench_branches SET bbalance = 42;   -- a marker that must survive

SELECT pgbx_try('SELECT pgbench_init(0)');
SELECT pgbx_try('SELECT pgbench_init(-5)');
SELECT pgbx_try('SELECT pgbench_init(214748365)');
SELECT pgbx_try('SELECT pgbench_init(1, fillfactor => 9)');
SELECT pgbx_try('SELECT pgbench_init(1, fillfactor => 101)');
SELECT pgbx_try('SELECT pgbench_init(1, partitions => -1)');
SELECT pgbx_try('SELECT pgbench_init(1, partitions => 2147483647)');
SELECT pgbx_try('SELECT pgbench_init(1, partitions => 10001)');
SELECT pgbx_try($$SELECT pgbench_init(1, partitions => 2, partition_method => 'list')$$);
SELECT pgbx_try($$SELECT pgbench_init(1, partition_method => 'hash')$$);
SELECT pgbx_try('SELECT pgbench_init(NULL)');
SELECT pgbx_try('SELECT pgbench_init(1, fillfactor => NULL)');
SELECT pgbx_try('SELECT pgbench_init(1, partition_method => NULL)');
SELECT pgbx_try('SELECT pgbench_init(1, foreign_keys => NULL)');
SELECT pgbx_try($$SELECT pgbench_init(scale => 'many')$$);
-- jobs: at least 1, and no more than the free worker slots (their number
-- depends on the server: shown as N)
SELECT pgbx_try('SELECT pgbench_init(1, jobs => 0)');
SELECT pgbx_try('SELECT pgbench_init(1, jobs => -3)');
SELECT regexp_replace(regexp_replace(pgbx_try('SELECT pgbench_init(1, jobs => 1000000)'),
       'only [0-9]+ (is|are) free', 'only N are free'),
       'max_worker_processes is [0-9]+', 'max_worker_processes is N') AS too_many_jobs;
-- jobs => 1 is this session alone, and the done line says so
SELECT pgbench_init(1, jobs => 1) ~ ', jobs 1\.$' AS one_job;
UPDATE pgbench_branches SET bbalance = 42;

-- the partition method is case-insensitive, as in pgbench
SELECT pgbx_try($$SELECT pgbench_init(1, partitions => 2, partition_method => 'HASH') IS NOT NULL$$);
SELECT count(*) AS hash_partitions FROM pg_inherits WHERE inhparent = 'pgbench_accounts'::regclass;
SELECT pgbench_init(1) IS NOT NULL AS reinit;
UPDATE pgbench_branches SET bbalance = 42;

-- privileges: a role that may execute but not create, then not drop
CREATE ROLE regress_pgbx_user;
GRANT EXECUTE ON FUNCTION pgbench_init(int, int, int, text, boolean, boolean, int, text, text) TO regress_pgbx_user;
SET ROLE regress_pgbx_user;
SELECT pgbx_try('SELECT pgbench_init(1)');
RESET ROLE;
GRANT CREATE ON SCHEMA public TO regress_pgbx_user;
SET ROLE regress_pgbx_user;
SELECT pgbx_try('SELECT pgbench_init(1)');
RESET ROLE;

-- a role without EXECUTE is refused by the grant system
CREATE ROLE regress_pgbx_other;
SET ROLE regress_pgbx_other;
SELECT pgbx_try('SELECT pgbench_init(1)');
RESET ROLE;

-- none of the above changed anything
SELECT bbalance AS marker FROM pgbench_branches;
SELECT count(*) AS accounts FROM pgbench_accounts;

-- an error part-way (a view depends on the old table) rolls everything back
CREATE VIEW pgbx_dep AS SELECT aid FROM pgbench_accounts;
SELECT pgbx_try('SELECT pgbench_init(2)');
SELECT bbalance AS marker, (SELECT count(*) FROM pgbench_accounts) AS accounts FROM pgbench_branches;
DROP VIEW pgbx_dep;

REVOKE CREATE ON SCHEMA public FROM regress_pgbx_user;
REVOKE EXECUTE ON FUNCTION pgbench_init(int, int, int, text, boolean, boolean, int, text, text) FROM regress_pgbx_user;
DROP ROLE regress_pgbx_user;
DROP ROLE regress_pgbx_other;
RESET client_min_messages;
