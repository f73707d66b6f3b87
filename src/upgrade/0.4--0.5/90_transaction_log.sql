-- run_bench takes log_transactions and sampling_rate (issue 24, pgbenchx -l):
-- a new signature; the routines create it again, and 90_grants.sql gives
-- the runners the new one.
DROP FUNCTION run_bench(int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, boolean, boolean, text[], float8);
