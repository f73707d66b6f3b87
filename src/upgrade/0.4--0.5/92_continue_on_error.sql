-- run_sweep takes continue_on_error (issue 36, pgbench 19's
-- --continue-on-error): new signatures for both forms; the routines create
-- them again, and 90_grants.sql gives the runners the new ones.  (run_bench's
-- 0.4 signature is dropped by 90_transaction_log.sql.)
DROP FUNCTION run_sweep(int, int, int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean, text[], float8);
DROP FUNCTION run_sweep(int[], int, text, int, text, bigint, boolean, boolean, text, text, bigint, jsonb, float8, float8, int, boolean, jsonb, int, boolean, boolean, text[], float8);
