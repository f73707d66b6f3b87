-- The results schema: columns and types, pg_dump membership,
-- and DROP EXTENSION removing everything but the user's pgbench tables.
\i sql/include/common.sql
SELECT table_name, column_name, data_type
FROM information_schema.columns
WHERE table_schema = 'pgbenchx'
ORDER BY table_name, ordinal_position;

-- every results table and sequence is kept by pg_dump
SELECT unnest(extconfig)::regclass AS dumped FROM pg_extension WHERE extname = 'pgbenchx' ORDER BY 1::text;

-- status values are checked
-- one sequence numbers sweeps and runs, so an id names one of them
INSERT INTO pgbenchx.sweeps (script, clients, duration) VALUES ('tpcb-like', '{1,2}', 10) RETURNING sweep_id, status \gset
SELECT :sweep_id AS sweep_id, :'status' AS status;
SELECT split_part(pgbx_try($$INSERT INTO pgbenchx.sweeps (status, script, clients, started_at) VALUES ('done', 'x', '{1}', '2026-01-01 00:00 UTC')$$), E'\n', 1);
INSERT INTO pgbenchx.runs (sweep_id, script, clients, jobs, duration) VALUES (:sweep_id, 'tpcb-like', 1, 1, 10) RETURNING run_id, status, protocol \gset
SELECT :run_id AS run_id, :'status' AS status, :'protocol' AS protocol;
SELECT split_part(pgbx_try($$INSERT INTO pgbenchx.runs (script, clients, jobs, protocol, started_at) VALUES ('x', 1, 1, 'binary', '2026-01-01 00:00 UTC')$$), E'\n', 1);
INSERT INTO pgbenchx.samples (run_id, second, transactions) VALUES (:run_id, 1, 100);
SELECT pgbx_try(format($$INSERT INTO pgbenchx.samples (run_id, second, transactions) VALUES (%s, 0, 1)$$, :run_id));
DELETE FROM pgbenchx.sweeps;
SELECT (SELECT count(*) FROM pgbenchx.runs) AS runs, (SELECT count(*) FROM pgbenchx.samples) AS samples;

-- DROP EXTENSION removes the schema and everything in it, keeps the pgbench tables
SET client_min_messages = warning;
SELECT pgbench_init(1) IS NOT NULL AS done;
RESET client_min_messages;
DROP EXTENSION pgbenchx;
SELECT count(*) AS pgbenchx_schemas FROM pg_namespace WHERE nspname = 'pgbenchx';
SELECT count(*) AS pgbench_init_functions FROM pg_proc WHERE proname = 'pgbench_init';
SELECT count(*) AS accounts_kept FROM pgbench_accounts;
CREATE EXTENSION pgbenchx;
SELECT count(*) AS runs_after_recreate FROM pgbenchx.runs;
