
/*
 * 60_explain (issue 13): why the numbers are what they are.  Per second,
 * beside samples, what the machine and the server did (system_samples)
 * and the wait events of the run's client backends (wait_samples); per
 * run, the figures derived from them and a verdict.  Runs recorded before
 * 0.3 have none of it: their new columns are NULL, record_system too.
 */
ALTER TABLE pgbenchx.runs
    ADD COLUMN record_system boolean,
    ADD COLUMN system_notes text[],
    ADD COLUMN wait_sample_hz float8,
    ADD COLUMN wal_bytes_per_tx float8,
    ADD COLUMN blocks_read_per_tx float8,
    ADD COLUMN blocks_written_per_tx float8,
    ADD COLUMN server_cpu_ms_per_tx float8,
    ADD COLUMN driver_cpu_ms_per_tx float8,
    ADD COLUMN iowait_avg float8,
    ADD COLUMN top_waits jsonb,
    ADD COLUMN verdict text;

/*
 * Why the numbers are what they are (issue 13): what the machine and the
 * server did in each second of a run, beside its samples, and the wait
 * events of its client backends.  Recorded unless a run is started with
 * record_system => false.  A figure the system cannot give is NULL, never
 * zero, and runs.system_notes says why, once per run.
 */
CREATE TABLE pgbenchx.system_samples (
    run_id              bigint NOT NULL REFERENCES pgbenchx.runs ON DELETE CASCADE,
    second              int NOT NULL CHECK (second OPERATOR(pg_catalog.>=) 1),
    covered_s           float8,   -- the time these counters cover (1 but for a partial last second)
    cpu_user            float8,   -- machine CPU over all cores, fractions of the interval (user + nice)
    cpu_system          float8,   -- system + irq + softirq
    cpu_iowait          float8,
    cpu_steal           float8,
    cpu_idle            float8,
    driver_cpu_s        float8,   -- CPU seconds of the driver workers in this second
    backend_cpu_s       float8,   -- CPU seconds of the run's client backends together
    data_reads          bigint,   -- the device holding data_directory: read operations completed
    data_read_bytes     bigint,
    data_writes         bigint,
    data_write_bytes    bigint,
    data_await_ms       float8,   -- average time per operation (read and write)
    data_queue          float8,   -- average queue depth
    wal_reads           bigint,   -- the device holding pg_wal, the same figures
    wal_read_bytes      bigint,
    wal_writes          bigint,
    wal_write_bytes     bigint,
    wal_await_ms        float8,
    wal_queue           float8,
    wal_records         bigint,   -- pg_stat_wal, delta in this second
    wal_fpi             bigint,
    wal_bytes           numeric,
    wal_write           bigint,
    wal_sync            bigint,
    blks_hit            bigint,   -- pg_stat_database of the run's database
    blks_read           bigint,
    temp_bytes          bigint,
    deadlocks           bigint,
    buffers_checkpoint  bigint,   -- pg_stat_bgwriter
    buffers_clean       bigint,
    buffers_backend     bigint,
    checkpoints_begun   int,
    checkpoints_done    int,
    PRIMARY KEY (run_id, second)
);
COMMENT ON TABLE pgbenchx.system_samples IS 'what the machine and the server did in each second of a run';

-- The wait events of the run's client backends, sampled many times a
-- second (runs.wait_sample_hz) from the server's process state: per second,
-- how many samples found a backend in each (wait_event_type, wait_event);
-- an active backend waiting on nothing counts as ('CPU', 'on CPU').
CREATE TABLE pgbenchx.wait_samples (
    run_id          bigint NOT NULL REFERENCES pgbenchx.runs ON DELETE CASCADE,
    second          int NOT NULL CHECK (second OPERATOR(pg_catalog.>=) 1),
    wait_event_type text NOT NULL,
    wait_event      text NOT NULL,
    samples         int NOT NULL,
    PRIMARY KEY (run_id, second, wait_event_type, wait_event)
);
COMMENT ON TABLE pgbenchx.wait_samples IS 'wait events of the client backends, sampled many times a second';

SELECT pg_catalog.pg_extension_config_dump('pgbenchx.system_samples', '');
SELECT pg_catalog.pg_extension_config_dump('pgbenchx.wait_samples', '');

COMMENT ON COLUMN pgbenchx.runs.record_system IS 'record_system => true (the default): system_samples and wait_samples were recorded for this run; NULL for runs recorded before 0.3';
COMMENT ON COLUMN pgbenchx.runs.system_notes IS 'why a figure of system_samples is NULL (cannot be read on this system, no block device ...): one line per cause, once per run';
COMMENT ON COLUMN pgbenchx.runs.wait_sample_hz IS 'wait-event samples per second actually taken over the measured interval';
COMMENT ON COLUMN pgbenchx.runs.wal_bytes_per_tx IS 'WAL bytes per transaction (pg_stat_wal over the run)';
COMMENT ON COLUMN pgbenchx.runs.blocks_read_per_tx IS 'shared blocks read (not found in shared_buffers) per transaction, in the run''s database';
COMMENT ON COLUMN pgbenchx.runs.blocks_written_per_tx IS 'buffers written by the checkpointer, the bgwriter and the backends per transaction';
COMMENT ON COLUMN pgbenchx.runs.server_cpu_ms_per_tx IS 'CPU of the client backends per transaction, ms';
COMMENT ON COLUMN pgbenchx.runs.driver_cpu_ms_per_tx IS 'CPU of the driver workers per transaction, ms';
COMMENT ON COLUMN pgbenchx.runs.iowait_avg IS 'average share of the machine''s CPU time in iowait over the run';
COMMENT ON COLUMN pgbenchx.runs.top_waits IS 'the top wait events of the client backends as shares of their sampled time: [{"wait_event_type", "wait_event", "share"}], largest first';
COMMENT ON COLUMN pgbenchx.runs.verdict IS 'the limit when one is evident: load generator, CPU, I/O, locks or LWLocks, with the figure that shows it; NULL when none is';
-- pgbenchx.system_samples
COMMENT ON COLUMN pgbenchx.system_samples.run_id IS 'the run';
COMMENT ON COLUMN pgbenchx.system_samples.second IS 'the second of the measured interval, from 1, as in samples';
COMMENT ON COLUMN pgbenchx.system_samples.covered_s IS 'seconds these counters cover: 1, but for a last second cut short';
COMMENT ON COLUMN pgbenchx.system_samples.cpu_user IS 'the machine''s CPU time in user mode (user + nice), a fraction of all cores'' time';
COMMENT ON COLUMN pgbenchx.system_samples.cpu_system IS 'in the kernel (system + irq + softirq), a fraction';
COMMENT ON COLUMN pgbenchx.system_samples.cpu_iowait IS 'idle waiting for I/O, a fraction';
COMMENT ON COLUMN pgbenchx.system_samples.cpu_steal IS 'taken by the hypervisor, a fraction';
COMMENT ON COLUMN pgbenchx.system_samples.cpu_idle IS 'idle, a fraction';
COMMENT ON COLUMN pgbenchx.system_samples.driver_cpu_s IS 'CPU seconds of the driver workers in this second';
COMMENT ON COLUMN pgbenchx.system_samples.backend_cpu_s IS 'CPU seconds of the run''s client backends together in this second';
COMMENT ON COLUMN pgbenchx.system_samples.data_reads IS 'read operations completed by the device that holds the data directory';
COMMENT ON COLUMN pgbenchx.system_samples.data_read_bytes IS 'bytes read from it';
COMMENT ON COLUMN pgbenchx.system_samples.data_writes IS 'write operations completed by it';
COMMENT ON COLUMN pgbenchx.system_samples.data_write_bytes IS 'bytes written to it';
COMMENT ON COLUMN pgbenchx.system_samples.data_await_ms IS 'its average time per operation, reads and writes, ms';
COMMENT ON COLUMN pgbenchx.system_samples.data_queue IS 'its average queue depth';
COMMENT ON COLUMN pgbenchx.system_samples.wal_reads IS 'read operations completed by the device that holds pg_wal';
COMMENT ON COLUMN pgbenchx.system_samples.wal_read_bytes IS 'bytes read from it';
COMMENT ON COLUMN pgbenchx.system_samples.wal_writes IS 'write operations completed by it';
COMMENT ON COLUMN pgbenchx.system_samples.wal_write_bytes IS 'bytes written to it';
COMMENT ON COLUMN pgbenchx.system_samples.wal_await_ms IS 'its average time per operation, ms';
COMMENT ON COLUMN pgbenchx.system_samples.wal_queue IS 'its average queue depth';
COMMENT ON COLUMN pgbenchx.system_samples.wal_records IS 'WAL records generated (pg_stat_wal, this second)';
COMMENT ON COLUMN pgbenchx.system_samples.wal_fpi IS 'WAL full page images';
COMMENT ON COLUMN pgbenchx.system_samples.wal_bytes IS 'WAL bytes';
COMMENT ON COLUMN pgbenchx.system_samples.wal_write IS 'WAL buffers written out (pg_stat_wal.wal_write)';
COMMENT ON COLUMN pgbenchx.system_samples.wal_sync IS 'WAL files synced (pg_stat_wal.wal_sync)';
COMMENT ON COLUMN pgbenchx.system_samples.blks_hit IS 'shared buffer hits in the run''s database (pg_stat_database)';
COMMENT ON COLUMN pgbenchx.system_samples.blks_read IS 'blocks read in the run''s database';
COMMENT ON COLUMN pgbenchx.system_samples.temp_bytes IS 'bytes written to temporary files in the run''s database';
COMMENT ON COLUMN pgbenchx.system_samples.deadlocks IS 'deadlocks detected in the run''s database';
COMMENT ON COLUMN pgbenchx.system_samples.buffers_checkpoint IS 'buffers written by the checkpointer (pg_stat_bgwriter)';
COMMENT ON COLUMN pgbenchx.system_samples.buffers_clean IS 'buffers written by the background writer';
COMMENT ON COLUMN pgbenchx.system_samples.buffers_backend IS 'buffers written by backends themselves';
COMMENT ON COLUMN pgbenchx.system_samples.checkpoints_begun IS 'checkpoints that began in this second';
COMMENT ON COLUMN pgbenchx.system_samples.checkpoints_done IS 'checkpoints that ended in this second';
-- pgbenchx.wait_samples
COMMENT ON COLUMN pgbenchx.wait_samples.run_id IS 'the run';
COMMENT ON COLUMN pgbenchx.wait_samples.second IS 'the second of the measured interval, from 1, as in samples';
COMMENT ON COLUMN pgbenchx.wait_samples.wait_event_type IS 'as pg_stat_activity.wait_event_type; CPU for an active backend waiting on nothing';
COMMENT ON COLUMN pgbenchx.wait_samples.wait_event IS 'as pg_stat_activity.wait_event; on CPU for an active backend waiting on nothing';
COMMENT ON COLUMN pgbenchx.wait_samples.samples IS 'how many of this second''s samples found a client backend in this wait (a backend counts once per sample)';

/*
 * Runners (grant_runner) read every table: a role that may read
 * pgbenchx.samples may read the new tables too.  A GRANT in an extension
 * script is recorded in pg_init_privs as the extension's initial privilege,
 * which pg_dump does not dump; a fresh CREATE EXTENSION records none for
 * these tables, so the rows are removed and pg_dump keeps these grants as
 * the user's.
 */
DO $$
DECLARE
    g record;
BEGIN
    FOR g IN
        SELECT DISTINCT a.grantee
        FROM pg_catalog.pg_class c
        CROSS JOIN LATERAL pg_catalog.aclexplode(c.relacl) a
        WHERE c.oid OPERATOR(pg_catalog.=) 'pgbenchx.samples'::pg_catalog.regclass
          AND a.privilege_type OPERATOR(pg_catalog.=) 'SELECT'::pg_catalog.text
          AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
        ORDER BY 1
    LOOP
        EXECUTE pg_catalog.format('GRANT SELECT ON TABLE pgbenchx.system_samples, pgbenchx.wait_samples TO %s',
                                  CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                       ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
    END LOOP;
    DELETE FROM pg_catalog.pg_init_privs i
    WHERE i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid
      AND i.objoid OPERATOR(pg_catalog.=) ANY (ARRAY['pgbenchx.system_samples'::pg_catalog.regclass,
                                                     'pgbenchx.wait_samples'::pg_catalog.regclass]::pg_catalog.oid[]);
END $$;
