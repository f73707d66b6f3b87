-- readme_messages: the refusals of docs/bad-input.md's tables that no other
-- pg_regress file provokes, so that test/t/044_readme_schema.pl finds every
-- message the table quotes in an expected output: a conninfo too long for
-- the clients, run_replay's server files (a runner without
-- pg_read_server_files, a file with a zero byte, a file over 64 MB) and
-- pgbench_init's partitions over what the scale allows.  Nothing is
-- recorded or started.
\i sql/include/common.sql
SET client_min_messages = warning;
CREATE TEMP TABLE counts_before AS
SELECT (SELECT count(*) FROM pgbenchx.runs) AS runs,
       (SELECT count(*) FROM pgbenchx.sweeps) AS sweeps;
-- paths vary: hidden
CREATE FUNCTION rm(sql text) RETURNS text LANGUAGE sql AS $$
    SELECT regexp_replace(pgbx_try(sql), '"/[^"]*"', '"..."', 'g')
$$;

-- pgbench_init: more partitions than rows, refused before any table is touched
SELECT rm('SELECT pgbench_init(1, partitions => 100001)');

-- conninfo: the clients' complete conninfo must stay under 2048 bytes
SELECT pgbenchx.add_script('readme-one', 'SELECT 1;');
SELECT rm(format($$SELECT run_bench(1, 1, 'readme-one', conninfo => %L)$$,
                 'application_name=' || repeat('x', 2100)));
SELECT pgbenchx.drop_script('readme-one');

-- run_replay from a server file: a zero byte (pg_control is binary) ...
SELECT rm(format($$SELECT run_replay(%L, 1, 1, from_file => true)$$,
                 current_setting('data_directory') || '/global/pg_control'));
-- ... a file over 64 MB (written here, emptied afterwards) ...
DO $$BEGIN
    EXECUTE format($c$COPY (SELECT repeat('SELECT 1;', 7500000)) TO %L$c$,
                   current_setting('data_directory') || '/pgbx_readme_large.sql');
END$$;
SELECT rm(format($$SELECT run_replay(%L, 1, 1, from_file => true)$$,
                 current_setting('data_directory') || '/pgbx_readme_large.sql'));
DO $$BEGIN
    EXECUTE format($c$COPY (SELECT WHERE false) TO %L$c$,
                   current_setting('data_directory') || '/pgbx_readme_large.sql');
END$$;
-- ... and a runner without pg_read_server_files
CREATE ROLE regress_pgbx_readme;
SELECT pgbenchx.grant_runner('regress_pgbx_readme');
SET ROLE regress_pgbx_readme;
SELECT rm($$SELECT run_replay('/etc/hostname', 1, 1, from_file => true)$$);
RESET ROLE;
SELECT pgbenchx.revoke_runner('regress_pgbx_readme');
DROP ROLE regress_pgbx_readme;

-- nothing was recorded, no worker started
SELECT (SELECT count(*) FROM pgbenchx.runs) - runs AS runs_added,
       (SELECT count(*) FROM pgbenchx.sweeps) - sweeps AS sweeps_added,
       (SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchx%') AS workers
FROM counts_before;
DROP FUNCTION rm(text);
RESET client_min_messages;
