/*
 * Issue 23 (seed 001 on one server) and issue 24 (--tablespace):
 * pgbench_init gains tablespace and index_tablespace (the last parameters,
 * default NULL), pgbench -i's --tablespace and --index-tablespace.  The
 * old signature is dropped here; the routines create the new one and
 * src/sql/90_grants.sql gives the runners EXECUTE on it (a grant of it to
 * any other role is lost with the old one: grant it again).
 */
DROP FUNCTION pgbench_init(int, int, int, text, boolean, boolean, int);
