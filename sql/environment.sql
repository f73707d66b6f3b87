-- environment: the row captured on this machine (every field present and
-- plausible, printed as booleans so that no machine-specific value shows),
-- deduplication, and env_diff on fixed, hand-inserted environments.
\i sql/include/common.sql

SELECT pgbenchx.capture_environment() AS env \gset
SELECT pgbenchx.capture_environment() = :env AS same_id_captured_again,
       (SELECT count(*) FROM pgbenchx.environments e
        WHERE e.env_hash = (SELECT env_hash FROM pgbenchx.environments WHERE environment_id = :env)) AS rows_with_its_hash;

-- the OS, CPU and memory
SELECT hostname <> '' AS hostname, os_sysname <> '' AS sysname,
       os_release <> '' AS release, os_version <> '' AS version,
       os_machine <> '' AS machine, os_distribution <> '' AS distribution,
       cpu_model <> '' AS cpu_model, cpu_count >= 1 AS cpu_count,
       memory_bytes > 0 AS memory, virtualization <> '' AS virtualization
FROM pgbenchx.environments WHERE environment_id = :env;

-- the file systems of the data directory and of pg_wal
SELECT data_fstype <> '' AS data_fstype,
       data_mount_options ~ '(^|,)r[ow](,|$)' AS data_options_have_rw_or_ro,
       data_device <> '' AS data_device,
       wal_fstype <> '' AS wal_fstype,
       wal_mount_options ~ '(^|,)r[ow](,|$)' AS wal_options_have_rw_or_ro,
       wal_device <> '' AS wal_device
FROM pgbenchx.environments WHERE environment_id = :env;

-- the build: a 64-bit server with the default block sizes
SELECT pg_version = version() AS pg_version, pointer_bits = 64 AS is_64_bit,
       block_size = 8192 AS block_size, wal_block_size = 8192 AS wal_block_size,
       segment_size = 1073741824 AS segment_size, integer_datetimes
FROM pgbenchx.environments WHERE environment_id = :env;

-- the settings: the key ones always, as SHOW shows them; never one only
-- superusers may read, nor one the client asked for (PGAPPNAME)
SELECT settings ? 'shared_buffers' AS has_shared_buffers,
       settings ->> 'shared_buffers' = current_setting('shared_buffers') AS shared_buffers_as_shown,
       (SELECT bool_and(settings ? k) FROM unnest(ARRAY['shared_buffers', 'max_connections',
            'fsync', 'synchronous_commit', 'full_page_writes', 'wal_level', 'wal_sync_method',
            'checkpoint_timeout', 'max_wal_size', 'effective_cache_size', 'huge_pages',
            'work_mem', 'data_checksums', 'wal_segment_size']) k) AS all_key_settings,
       NOT settings ? 'data_directory' AND NOT settings ? 'config_file' AS no_superuser_only,
       NOT settings ? 'application_name' AS no_client_setting
FROM pgbenchx.environments WHERE environment_id = :env;

-- env_hash can be recomputed from the stored row (imported_by says where
-- the row came from, not what it describes)
SELECT env_hash = md5((to_jsonb(e) - 'environment_id' - 'env_hash' - 'captured_at' - 'imported_by')::text) AS hash_recomputes,
       imported_by IS NULL AS captured_here
FROM pgbenchx.environments e WHERE environment_id = :env;

-- a SET in the calling session is not part of the environment: the clients
-- of a run do not see it, and the coordinator records the same row
SET work_mem = '77MB';
SET synchronous_commit = off;
SELECT pgbenchx.capture_environment() = :env AS same_id_after_set,
       current_setting('work_mem') AS work_mem_still_set;
RESET work_mem;
RESET synchronous_commit;

-- env_diff on two fixed environments, and sweeps and runs measured in them
INSERT INTO pgbenchx.environments (env_hash, hostname, os_sysname, os_release, os_machine,
    os_distribution, cpu_model, cpu_count, memory_bytes, virtualization,
    data_fstype, data_mount_options, data_device, wal_fstype, wal_mount_options, wal_device,
    pg_version, pointer_bits, block_size, wal_block_size, segment_size, integer_datetimes, settings)
VALUES
    ('test-a', 'athlon', 'Linux', '3.8.0', 'x86_64', 'Debian 7', 'AMD Athlon MP 2800+', 2, 4294967296,
     'none', 'ext4', 'rw,relatime,barrier', '/dev/sda1', 'ext4', 'rw,relatime,barrier', '/dev/sda1',
     'PostgreSQL 9.3.0', 64, 8192, 8192, 1073741824, true,
     '{"shared_buffers": "128MB", "fsync": "on", "work_mem": "4MB", "wal_level": "minimal"}'),
    ('test-b', 'athlon', 'DragonFly', '3.4-RELEASE', 'x86_64', NULL, 'AMD Athlon MP 2800+', 2, 4294967296,
     'none', 'hammer', 'rw,noatime', '/dev/serno/X.s1d', 'ext4', 'rw,relatime,barrier', '/dev/sda1',
     'PostgreSQL 9.3.0', 32, 8192, 8192, 1073741824, true,
     '{"shared_buffers": "2GB", "fsync": "on", "work_mem": "4MB", "checkpoint_segments": "32"}');
SELECT environment_id AS env_a FROM pgbenchx.environments WHERE env_hash = 'test-a' \gset
SELECT environment_id AS env_b FROM pgbenchx.environments WHERE env_hash = 'test-b' \gset
INSERT INTO pgbenchx.sweeps (script, clients, duration, label, environment_id)
VALUES ('tpcb-like', '{1,2}', 10, 'linux ext4', :env_a) RETURNING sweep_id AS sweep_a \gset
INSERT INTO pgbenchx.sweeps (script, clients, duration, label, environment_id)
VALUES ('tpcb-like', '{1,2}', 10, 'dragonfly hammer', :env_b) RETURNING sweep_id AS sweep_b \gset
INSERT INTO pgbenchx.runs (sweep_id, script, clients, jobs, duration, environment_id)
VALUES (:sweep_b, 'tpcb-like', 1, 1, 10, :env_b) RETURNING run_id AS run_b \gset
INSERT INTO pgbenchx.runs (script, clients, jobs, duration)
VALUES ('tpcb-like', 1, 1, 10) RETURNING run_id AS run_none \gset

-- sweep against sweep: each differing attribute, then each differing setting
SELECT * FROM pgbenchx.env_diff(:sweep_a, :sweep_b);
-- a run is compared by its own environment, against a sweep in the other order
SELECT * FROM pgbenchx.env_diff(:run_b, :sweep_a);
-- the same environment: no rows
SELECT count(*) AS differences FROM pgbenchx.env_diff(:run_b, :sweep_b);
-- refusals: an id that names nothing, a run without a recorded environment
SELECT pgbx_try('SELECT * FROM pgbenchx.env_diff(' || :sweep_a || ', -1)');
SELECT replace(pgbx_try('SELECT * FROM pgbenchx.env_diff(' || :run_none || ', ' || :sweep_a || ')'),
               :'run_none', 'N');

DELETE FROM pgbenchx.runs WHERE run_id IN (:run_b, :run_none);
DELETE FROM pgbenchx.sweeps WHERE sweep_id IN (:sweep_a, :sweep_b);
DELETE FROM pgbenchx.environments WHERE env_hash IN ('test-a', 'test-b');
