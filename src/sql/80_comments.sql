/*
 * src/sql/80_comments.sql: the description of the schema, of every table
 * and of every column of every table and view of the extension, as COMMENT
 * ON, where \d+ shows them (the views' own comments are beside them).
 * The results-schema table of docs/results.md is printed from these
 * comments (bash scripts/schema_table.sh --update), and
 * test/t/044_readme_schema.pl fails when a column has no comment or when
 * docs/results.md differs from them.  Every upgrade script runs this file
 * again: a new column gets its comment here only (the column itself goes
 * into 00_schema.sql and the next upgrade's delta).
 */

-- the schema
COMMENT ON SCHEMA pgbenchx IS 'pgbenchx results, progress and helpers';

-- pgbenchx.environments
COMMENT ON TABLE pgbenchx.environments IS 'the environments sweeps and runs were measured in';
COMMENT ON COLUMN pgbenchx.environments.environment_id IS 'the id sweeps and runs point at';
COMMENT ON COLUMN pgbenchx.environments.env_hash IS 'md5 of every field but environment_id, env_hash, captured_at and imported_by: an identical environment is stored once per provenance';
COMMENT ON COLUMN pgbenchx.environments.captured_at IS 'when this environment was first captured';
COMMENT ON COLUMN pgbenchx.environments.hostname IS 'uname(2) nodename';
COMMENT ON COLUMN pgbenchx.environments.os_sysname IS 'uname(2) sysname: Linux, FreeBSD, DragonFly ...';
COMMENT ON COLUMN pgbenchx.environments.os_release IS 'uname(2) release';
COMMENT ON COLUMN pgbenchx.environments.os_version IS 'uname(2) version';
COMMENT ON COLUMN pgbenchx.environments.os_machine IS 'uname(2) machine: x86_64, amd64, aarch64 ...';
COMMENT ON COLUMN pgbenchx.environments.os_distribution IS 'PRETTY_NAME of /etc/os-release';
COMMENT ON COLUMN pgbenchx.environments.cpu_model IS 'CPU model';
COMMENT ON COLUMN pgbenchx.environments.cpu_count IS 'online CPUs';
COMMENT ON COLUMN pgbenchx.environments.memory_bytes IS 'total memory';
COMMENT ON COLUMN pgbenchx.environments.virtualization IS 'a hint: the hypervisor (kvm, xen, vm ...) and the container (docker, lxc, jail ...), none if neither is seen';
COMMENT ON COLUMN pgbenchx.environments.data_fstype IS 'file system type of data_directory (ext4, xfs, zfs ...)';
COMMENT ON COLUMN pgbenchx.environments.data_mount_options IS 'mount options of data_directory, as findmnt shows them';
COMMENT ON COLUMN pgbenchx.environments.data_device IS 'device of data_directory';
COMMENT ON COLUMN pgbenchx.environments.wal_fstype IS 'file system type of pg_wal, its symbolic link resolved';
COMMENT ON COLUMN pgbenchx.environments.wal_mount_options IS 'mount options of pg_wal';
COMMENT ON COLUMN pgbenchx.environments.wal_device IS 'device of pg_wal';
COMMENT ON COLUMN pgbenchx.environments.pg_version IS 'version()';
COMMENT ON COLUMN pgbenchx.environments.pointer_bits IS 'a 32- or 64-bit build';
COMMENT ON COLUMN pgbenchx.environments.block_size IS 'BLCKSZ, bytes';
COMMENT ON COLUMN pgbenchx.environments.wal_block_size IS 'XLOG_BLCKSZ, bytes';
COMMENT ON COLUMN pgbenchx.environments.segment_size IS 'RELSEG_SIZE × BLCKSZ, bytes';
COMMENT ON COLUMN pgbenchx.environments.integer_datetimes IS 'integer_datetimes of the build';
COMMENT ON COLUMN pgbenchx.environments.settings IS 'name → value as SHOW shows it: every setting not at its default, and the key ones always (see Environments)';
COMMENT ON COLUMN pgbenchx.environments.imported_by IS 'NULL: captured by this server; else the role whose import() added it (a capture never reuses such a row)';

-- pgbenchx.sweeps
COMMENT ON TABLE pgbenchx.sweeps IS 'one row per sweep of client counts';
COMMENT ON COLUMN pgbenchx.sweeps.sweep_id IS 'the id run_sweep returned (one sequence numbers sweeps and runs)';
COMMENT ON COLUMN pgbenchx.sweeps.status IS 'running, completed, cancelled, failed or aborted';
COMMENT ON COLUMN pgbenchx.sweeps.script IS 'the script or weighted mix, as given; of an experiment, the mixes its configurations run, '' | '' between them';
COMMENT ON COLUMN pgbenchx.sweeps.clients IS 'the client counts of its runs, in order';
COMMENT ON COLUMN pgbenchx.sweeps.duration IS 'seconds per run (-T); NULL when bounded by transactions';
COMMENT ON COLUMN pgbenchx.sweeps.label IS 'free text given with label =>';
COMMENT ON COLUMN pgbenchx.sweeps.started_at IS 'when run_sweep was called';
COMMENT ON COLUMN pgbenchx.sweeps.finished_at IS 'when its last run ended';
COMMENT ON COLUMN pgbenchx.sweeps.protocol IS 'simple, extended or prepared (-M)';
COMMENT ON COLUMN pgbenchx.sweeps.jobs IS 'driver workers per run (-j); NULL: chosen per run';
COMMENT ON COLUMN pgbenchx.sweeps.transactions IS 'transactions per client (-t), instead of a duration';
COMMENT ON COLUMN pgbenchx.sweeps.conninfo IS 'extra libpq parameters of the clients, secrets masked';
COMMENT ON COLUMN pgbenchx.sweeps.coordinator_pid IS 'pid of its coordinator worker, while running';
COMMENT ON COLUMN pgbenchx.sweeps.error IS 'why it failed, was cancelled or aborted';
COMMENT ON COLUMN pgbenchx.sweeps.tags IS 'free jsonb naming what is compared';
COMMENT ON COLUMN pgbenchx.sweeps.repeats IS 'each client count run this many times, the ladder interleaved';
COMMENT ON COLUMN pgbenchx.sweeps.environment_id IS 'the environment captured when it started (pgbenchx.environments)';
COMMENT ON COLUMN pgbenchx.sweeps.owner IS 'the role that started it (cancel follows pg_cancel_backend''s rule)';
COMMENT ON COLUMN pgbenchx.sweeps.configs IS 'run_experiment: its configurations in order (name, protocol, script, jobs, rate, latency_limit where set, conninfo without password, session and server settings); NULL for a sweep';
COMMENT ON COLUMN pgbenchx.sweeps.warmup IS 'run_experiment: warm-up runs of each configuration at each client count';
COMMENT ON COLUMN pgbenchx.sweeps.target_ci IS 'run_experiment: ABBA blocks were added until each ratio had 4 pairs or more and its interval (97% for such an experiment: experiment_report) was within +-target_ci of it (relative), or the budget ran out';
COMMENT ON COLUMN pgbenchx.sweeps.budget_s IS 'run_experiment: the time budget in seconds that went with target_ci';
COMMENT ON COLUMN pgbenchx.sweeps.stopped_by IS 'run_experiment with target_ci: target (every ratio within it), budget (the budget ran out first) or run limit (256 runs)';

-- pgbenchx.runs
COMMENT ON TABLE pgbenchx.runs IS 'one row per benchmark run';
COMMENT ON COLUMN pgbenchx.runs.run_id IS 'the id run_bench or run_replay returned, or a step of a sweep';
COMMENT ON COLUMN pgbenchx.runs.sweep_id IS 'its sweep; NULL for a lone run';
COMMENT ON COLUMN pgbenchx.runs.status IS 'running, completed, cancelled, failed or aborted';
COMMENT ON COLUMN pgbenchx.runs.script IS 'the script or weighted mix, as given (in an experiment, its configuration''s)';
COMMENT ON COLUMN pgbenchx.runs.protocol IS 'simple, extended or prepared (-M)';
COMMENT ON COLUMN pgbenchx.runs.scale IS 'scaling factor the built-in scripts read (count of pgbench_branches)';
COMMENT ON COLUMN pgbenchx.runs.clients IS 'simulated clients (-c)';
COMMENT ON COLUMN pgbenchx.runs.jobs IS 'driver workers used (-j)';
COMMENT ON COLUMN pgbenchx.runs.duration IS 'seconds asked for (-T); NULL when bounded by transactions';
COMMENT ON COLUMN pgbenchx.runs.started_at IS 'when the run started (before its maintenance)';
COMMENT ON COLUMN pgbenchx.runs.finished_at IS 'when it ended';
COMMENT ON COLUMN pgbenchx.runs.transactions IS 'transactions processed, all clients together';
COMMENT ON COLUMN pgbenchx.runs.failed IS 'transactions failed (serialization or deadlock failures not retried)';
COMMENT ON COLUMN pgbenchx.runs.tps IS 'transactions per second, without initial connection time';
COMMENT ON COLUMN pgbenchx.runs.tps_incl_conn IS 'transactions per second including connections establishing';
COMMENT ON COLUMN pgbenchx.runs.latency_avg_ms IS 'latency average, ms';
COMMENT ON COLUMN pgbenchx.runs.latency_stddev_ms IS 'latency standard deviation, ms';
COMMENT ON COLUMN pgbenchx.runs.latency_p50_ms IS 'median latency, ms';
COMMENT ON COLUMN pgbenchx.runs.latency_p90_ms IS '90th percentile latency, ms';
COMMENT ON COLUMN pgbenchx.runs.latency_p95_ms IS '95th percentile latency, ms';
COMMENT ON COLUMN pgbenchx.runs.latency_p99_ms IS '99th percentile latency, ms';
COMMENT ON COLUMN pgbenchx.runs.latency_max_ms IS 'highest latency, ms';
COMMENT ON COLUMN pgbenchx.runs.conn_time_ms IS 'initial connection time, ms (with connect_per_transaction: the average connection time)';
COMMENT ON COLUMN pgbenchx.runs.error IS 'why it failed, was cancelled or aborted';
COMMENT ON COLUMN pgbenchx.runs.label IS 'free text given with label =>';
COMMENT ON COLUMN pgbenchx.runs.transactions_per_client IS 'transactions per client (-t); NULL when bounded by duration';
COMMENT ON COLUMN pgbenchx.runs.aborted_clients IS 'clients aborted by an error (pgbench''s aborted clients)';
COMMENT ON COLUMN pgbenchx.runs.driver_cpu_s IS 'CPU seconds the driver workers used';
COMMENT ON COLUMN pgbenchx.runs.bench_duration_s IS 'the measured interval tps is computed over, seconds';
COMMENT ON COLUMN pgbenchx.runs.random_seed IS 'the seed of the scripts'' random functions (--random-seed)';
COMMENT ON COLUMN pgbenchx.runs.conninfo IS 'extra libpq parameters of the clients, secrets masked';
COMMENT ON COLUMN pgbenchx.runs.coordinator_pid IS 'pid of its coordinator worker, while running';
COMMENT ON COLUMN pgbenchx.runs.rate IS 'target transactions per second (-R)';
COMMENT ON COLUMN pgbenchx.runs.latency_limit_ms IS 'latency limit, ms (-L)';
COMMENT ON COLUMN pgbenchx.runs.max_tries IS 'maximum number of tries (--max-tries; 0: unlimited)';
COMMENT ON COLUMN pgbenchx.runs.connect_per_transaction IS 'a new connection for each transaction (-C)';
COMMENT ON COLUMN pgbenchx.runs.serialization_failures IS 'transactions failed on a serialization failure';
COMMENT ON COLUMN pgbenchx.runs.deadlock_failures IS 'transactions failed on a deadlock';
COMMENT ON COLUMN pgbenchx.runs.retried IS 'transactions retried at least once (max_tries)';
COMMENT ON COLUMN pgbenchx.runs.retries IS 'retries in all';
COMMENT ON COLUMN pgbenchx.runs.skipped IS 'transactions skipped: with rate and latency_limit, already too late to start';
COMMENT ON COLUMN pgbenchx.runs.late IS 'transactions above latency_limit';
COMMENT ON COLUMN pgbenchx.runs.lag_avg_ms IS 'with rate: average schedule lag, ms';
COMMENT ON COLUMN pgbenchx.runs.lag_max_ms IS 'with rate: highest schedule lag, ms';
COMMENT ON COLUMN pgbenchx.runs.tags IS 'free jsonb naming what is compared';
COMMENT ON COLUMN pgbenchx.runs.repeat IS 'which repeat of its client count in a sweep with repeats, from 1';
COMMENT ON COLUMN pgbenchx.runs.checkpoints IS 'checkpoints that happened during the run';
COMMENT ON COLUMN pgbenchx.runs.autovacuums IS 'autovacuum and autoanalyze runs in its database during the run';
COMMENT ON COLUMN pgbenchx.runs.environment_id IS 'the environment captured when it started (pgbenchx.environments)';
COMMENT ON COLUMN pgbenchx.runs.replay IS 'a run_replay run: a transaction is a statement of the list';
COMMENT ON COLUMN pgbenchx.runs.qpm IS 'run_replay: statements per minute until the last client finished';
COMMENT ON COLUMN pgbenchx.runs.tpcb_consistent IS 'check_tpcb => true: whether the TPC-B invariant held over the run; NULL if not checked';
COMMENT ON COLUMN pgbenchx.runs.owner IS 'the role that started it (cancel follows pg_cancel_backend''s rule)';
COMMENT ON COLUMN pgbenchx.runs.notices IS 'notices and warnings the server sent the clients (never logged), and with protocol => ''prepared'' the PREPAREs that found their statement already there (pgbench prints them and goes on)';
COMMENT ON COLUMN pgbenchx.runs.notice_samples IS 'the first three of those notices, each cut to 200 bytes';
COMMENT ON COLUMN pgbenchx.runs.samples_lost IS 'seconds whose samples were lost (the coordinator could not write in time): not stored';
COMMENT ON COLUMN pgbenchx.runs.samples_lost_transactions IS 'transactions in no stored sample: sum(samples.transactions) + this = transactions';
COMMENT ON COLUMN pgbenchx.runs.script_stats IS 'per script of the mix, in its order: transactions, failed, retried, retries, skipped, latency_avg_ms, latency_stddev_ms (pgbench''s "SQL script N" blocks); NULL for runs recorded before 0.3';
COMMENT ON COLUMN pgbenchx.runs.tpcb_consistent_before IS 'check_tpcb => true: whether the balances of accounts, branches and tellers agreed before the run (false after a simple-update run, say); NULL if not checked';
COMMENT ON COLUMN pgbenchx.runs.record_system IS 'record_system => true (the default): system_samples and wait_samples were recorded for this run; NULL for runs recorded before 0.3';
COMMENT ON COLUMN pgbenchx.runs.tps_ci_low IS 'low end of the 95% confidence interval of the run''s mean per-second tps, the precision of this run, not a comparison (pgbenchx.ci_seconds over its samples: 10 batch means of consecutive seconds, widened by an AR(1) reading when the seconds are strongly autocorrelated, so that they do not make it too narrow); NULL for a run of fewer than 120 samples, for one whose seconds move as one, and for runs recorded before 0.5';
COMMENT ON COLUMN pgbenchx.runs.tps_ci_high IS 'high end of that interval';
COMMENT ON COLUMN pgbenchx.runs.config IS 'run_experiment: the configuration it ran, 1-based in sweeps.configs; NULL outside experiments';
COMMENT ON COLUMN pgbenchx.runs.warmup IS 'run_experiment: a warm-up run, measured and stored but not counted';
COMMENT ON COLUMN pgbenchx.runs.latency_hist IS 'the latency histogram of the whole run (log-linear, exact counts): pgbenchx.latency_percentile(latency_hist, 99) recomputes latency_p99_ms, pgbenchx.latency_merge merges runs exactly; NULL for runs recorded before 0.3';
COMMENT ON COLUMN pgbenchx.runs.system_notes IS 'why a figure of system_samples is NULL (cannot be read on this system, no block device ...): one line per cause, once per run';
COMMENT ON COLUMN pgbenchx.runs.wait_sample_hz IS 'wait-event samples per second actually taken over the measured interval';
COMMENT ON COLUMN pgbenchx.runs.wal_bytes_per_tx IS 'WAL bytes per transaction (pg_stat_wal over the run)';
COMMENT ON COLUMN pgbenchx.runs.blocks_read_per_tx IS 'shared blocks read (not found in shared_buffers) per transaction, in the run''s database';
COMMENT ON COLUMN pgbenchx.runs.blocks_written_per_tx IS 'buffers written by the checkpointer, the bgwriter and the other processes (with the blocks these added to relations) per transaction: system_samples'' buffers_checkpoint + buffers_clean + buffers_backend';
COMMENT ON COLUMN pgbenchx.runs.server_cpu_ms_per_tx IS 'CPU of the client backends per transaction, ms';
COMMENT ON COLUMN pgbenchx.runs.driver_cpu_ms_per_tx IS 'CPU of the driver workers per transaction, ms';
COMMENT ON COLUMN pgbenchx.runs.iowait_avg IS 'average share of the machine''s CPU time in iowait over the run';
COMMENT ON COLUMN pgbenchx.runs.top_waits IS 'the top wait events of the client backends as shares of their sampled time: [{"wait_event_type", "wait_event", "share"}], largest first';
COMMENT ON COLUMN pgbenchx.runs.verdict IS 'the limit when one is evident: load generator, CPU, I/O, locks or LWLocks, with the figure that shows it; NULL when none is';

-- pgbenchx.statement_stats
COMMENT ON TABLE pgbenchx.statement_stats IS 'per-statement latencies of every run (pgbench -r)';
COMMENT ON COLUMN pgbenchx.statement_stats.run_id IS 'the run';
COMMENT ON COLUMN pgbenchx.statement_stats.script IS 'the script of the mix the command belongs to';
COMMENT ON COLUMN pgbenchx.statement_stats.command IS 'the command''s number within its script, from 1';
COMMENT ON COLUMN pgbenchx.statement_stats.command_text IS 'its first line, as pgbench -r shows it';
COMMENT ON COLUMN pgbenchx.statement_stats.executions IS 'times it was executed';
COMMENT ON COLUMN pgbenchx.statement_stats.latency_avg_ms IS 'average latency, ms; NULL for commands not timed (\set, \if ...)';
COMMENT ON COLUMN pgbenchx.statement_stats.failures IS 'failures at this command';
COMMENT ON COLUMN pgbenchx.statement_stats.retries IS 'retries after a failure at this command';

-- pgbenchx.samples
COMMENT ON TABLE pgbenchx.samples IS 'per-second series of every run';
COMMENT ON COLUMN pgbenchx.samples.run_id IS 'the run';
COMMENT ON COLUMN pgbenchx.samples.second IS 'second of the measured interval, from 1';
COMMENT ON COLUMN pgbenchx.samples.transactions IS 'transactions that ended in that second';
COMMENT ON COLUMN pgbenchx.samples.tps IS 'a rate: transactions / covered_s (a replay: statements that succeeded, per second)';
COMMENT ON COLUMN pgbenchx.samples.latency_avg_ms IS 'latency average of that second, ms';
COMMENT ON COLUMN pgbenchx.samples.latency_p99_ms IS '99th percentile latency of that second, ms';
COMMENT ON COLUMN pgbenchx.samples.failed IS 'transactions that failed in that second';
COMMENT ON COLUMN pgbenchx.samples.covered_s IS 'seconds of the measured interval this row covers: 1, but for a last second cut short (rows from before 0.3 read 1)';
COMMENT ON COLUMN pgbenchx.samples.skipped IS '-R with -L: transactions of that second too late to start; NULL for samples recorded before 0.5';
COMMENT ON COLUMN pgbenchx.samples.retried IS 'transactions of that second that ended after more than one try; NULL for samples recorded before 0.5';
COMMENT ON COLUMN pgbenchx.samples.retries IS 'tries beyond the first in that second; NULL for samples recorded before 0.5';
COMMENT ON COLUMN pgbenchx.samples.lag_sum_ms IS '-R: the schedule lags of the transactions started in that second, summed, ms (pgbench -P divides by the transactions); NULL for samples recorded before 0.5';
COMMENT ON COLUMN pgbenchx.samples.latency_hist IS 'the latency histogram of that second: pgbenchx.latency_percentile(latency_hist, 99) recomputes latency_p99_ms; NULL for samples recorded before 0.3';

-- pgbenchx.system_samples
COMMENT ON TABLE pgbenchx.system_samples IS 'what the machine and the server did in each second of a run';
COMMENT ON COLUMN pgbenchx.system_samples.run_id IS 'the run';
COMMENT ON COLUMN pgbenchx.system_samples.second IS 'the second of the measured interval, from 1, as in samples';
COMMENT ON COLUMN pgbenchx.system_samples.covered_s IS 'seconds these counters cover: 1, but for a last second cut short';
COMMENT ON COLUMN pgbenchx.system_samples.cpu_user IS 'the machine''s CPU time in user mode (user + nice), a fraction of all cores'' time; the five cpu_* are NULL in a last second cut short below /proc/stat''s clock tick (10 ms), as system_notes says';
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
COMMENT ON COLUMN pgbenchx.system_samples.wal_write IS 'WAL buffers written out, one per write call: pg_stat_wal.wal_write until 17; from 18 pg_stat_io''s writes of object wal, context normal, by every process but the walreceiver';
COMMENT ON COLUMN pgbenchx.system_samples.wal_sync IS 'WAL files synced: pg_stat_wal.wal_sync until 17; from 18 pg_stat_io''s fsyncs of object wal, context normal';
COMMENT ON COLUMN pgbenchx.system_samples.blks_hit IS 'shared buffer hits in the run''s database (pg_stat_database)';
COMMENT ON COLUMN pgbenchx.system_samples.blks_read IS 'blocks read in the run''s database';
COMMENT ON COLUMN pgbenchx.system_samples.temp_bytes IS 'bytes written to temporary files in the run''s database';
COMMENT ON COLUMN pgbenchx.system_samples.deadlocks IS 'deadlocks detected in the run''s database';
COMMENT ON COLUMN pgbenchx.system_samples.buffers_checkpoint IS 'buffers written by the checkpointer (pg_stat_bgwriter until 16, pg_stat_checkpointer from 17)';
COMMENT ON COLUMN pgbenchx.system_samples.buffers_clean IS 'buffers written by the background writer';
COMMENT ON COLUMN pgbenchx.system_samples.buffers_backend IS 'buffers written, and blocks added to relations, by processes other than the checkpointer and the bgwriter: pg_stat_bgwriter.buffers_backend until 16 (16 counts an extension by several blocks once); from 17 pg_stat_io''s writes + extends of object relation by every other backend type';
COMMENT ON COLUMN pgbenchx.system_samples.checkpoints_begun IS 'checkpoints that began in this second';
COMMENT ON COLUMN pgbenchx.system_samples.checkpoints_done IS 'checkpoints that ended in this second';
-- pgbenchx.wait_samples
COMMENT ON TABLE pgbenchx.wait_samples IS 'wait events of the client backends, sampled many times a second';
COMMENT ON COLUMN pgbenchx.wait_samples.run_id IS 'the run';
COMMENT ON COLUMN pgbenchx.wait_samples.second IS 'the second of the measured interval, from 1, as in samples';
COMMENT ON COLUMN pgbenchx.wait_samples.wait_event_type IS 'as pg_stat_activity.wait_event_type; CPU for an active backend waiting on nothing';
COMMENT ON COLUMN pgbenchx.wait_samples.wait_event IS 'as pg_stat_activity.wait_event; on CPU for an active backend waiting on nothing';
COMMENT ON COLUMN pgbenchx.wait_samples.samples IS 'how many of this second''s samples found a client backend in this wait (a backend counts once per sample)';

-- pgbenchx.custom_scripts
COMMENT ON COLUMN pgbenchx.custom_scripts.name IS 'the name runs use (script => name)';
COMMENT ON COLUMN pgbenchx.custom_scripts.body IS 'the script in pgbench''s language, as registered';
COMMENT ON COLUMN pgbenchx.custom_scripts.created_at IS 'when add_script registered it';
COMMENT ON COLUMN pgbenchx.custom_scripts.updated_at IS 'when add_script(..., replace => true) last replaced it';
COMMENT ON COLUMN pgbenchx.custom_scripts.owner IS 'the role that registered it: only roles with its privileges run, replace or drop it';

-- pgbenchx.imports
COMMENT ON TABLE pgbenchx.imports IS 'where imported sweeps and runs were measured, and their ids there';
COMMENT ON COLUMN pgbenchx.imports.origin_system_identifier IS 'system identifier of the server that measured it';
COMMENT ON COLUMN pgbenchx.imports.origin_database IS 'the database it was measured in';
COMMENT ON COLUMN pgbenchx.imports.origin_id IS 'its sweep_id or run_id there';
COMMENT ON COLUMN pgbenchx.imports.sweep_id IS 'the imported sweep here';
COMMENT ON COLUMN pgbenchx.imports.run_id IS 'the imported lone run here';
COMMENT ON COLUMN pgbenchx.imports.exported_from_system_identifier IS 'system identifier of the server the document came from';
COMMENT ON COLUMN pgbenchx.imports.exported_from_database IS 'the database the document came from';
COMMENT ON COLUMN pgbenchx.imports.exported_at IS 'when export() wrote the document';
COMMENT ON COLUMN pgbenchx.imports.exported_pgbenchx_version IS 'the pgbenchx version that wrote the document';
COMMENT ON COLUMN pgbenchx.imports.imported_at IS 'when import() loaded it';
COMMENT ON COLUMN pgbenchx.imports.imported_by IS 'the role whose import() loaded it: only its own later imports map onto this origin ('' when restored from a dump of 0.4 or before: then the owner of its sweep or run)';

-- pgbenchx.progress (view)
COMMENT ON COLUMN pgbenchx.progress.run_id IS 'the run in progress';
COMMENT ON COLUMN pgbenchx.progress.sweep_id IS 'its sweep; NULL for a lone run';
COMMENT ON COLUMN pgbenchx.progress.script IS 'the script or mix';
COMMENT ON COLUMN pgbenchx.progress.clients IS 'simulated clients';
COMMENT ON COLUMN pgbenchx.progress.jobs IS 'driver workers';
COMMENT ON COLUMN pgbenchx.progress.duration IS 'seconds asked for; NULL when bounded by transactions';
COMMENT ON COLUMN pgbenchx.progress.elapsed_s IS 'seconds since the run started, maintenance included';
COMMENT ON COLUMN pgbenchx.progress.transactions IS 'transactions in the seconds sampled so far';
COMMENT ON COLUMN pgbenchx.progress.current_tps IS 'tps of the last second sampled';
COMMENT ON COLUMN pgbenchx.progress.current_p99_ms IS '99th percentile latency of the last second sampled, ms';
COMMENT ON COLUMN pgbenchx.progress.seconds_sampled IS 'seconds of the measured interval sampled so far';
COMMENT ON COLUMN pgbenchx.progress.phase IS 'what the coordinator is doing: maintenance (vacuum, truncate, check_tpcb''s sums), checkpoint, connecting, ready (a part connected, waiting for pgbenchx.part_go), measuring, finishing (the totals and rows stored)';
COMMENT ON COLUMN pgbenchx.progress.step IS 'this run''s place in its sweep, from 1; 1 for a lone run';
COMMENT ON COLUMN pgbenchx.progress.steps IS 'the runs of the sweep (client counts times repeats); 1 for a lone run';
COMMENT ON COLUMN pgbenchx.progress.eta IS 'when the whole run or sweep is expected to end: the durations left, and for the steps to come what the last finished step spent beyond its duration; NULL while unknown (bounded by transactions, before the last step measures)';

-- pgbenchx.scripts (view)
COMMENT ON COLUMN pgbenchx.scripts.name IS 'the script''s name';
COMMENT ON COLUMN pgbenchx.scripts.description IS 'what a built-in does; NULL for a registered script';
COMMENT ON COLUMN pgbenchx.scripts.body IS 'its text in pgbench''s language';
COMMENT ON COLUMN pgbenchx.scripts.builtin IS 'one of pgbench''s built-in scripts';
COMMENT ON COLUMN pgbenchx.scripts.owner IS 'the role that registered it; NULL for a built-in';

-- pgbenchx.sweep_points (view)
COMMENT ON COLUMN pgbenchx.sweep_points.sweep_id IS 'the sweep';
COMMENT ON COLUMN pgbenchx.sweep_points.clients IS 'the client count of this point';
COMMENT ON COLUMN pgbenchx.sweep_points.n IS 'completed runs at this point';
COMMENT ON COLUMN pgbenchx.sweep_points.median_tps IS 'median tps of those runs';
COMMENT ON COLUMN pgbenchx.sweep_points.min_tps IS 'lowest tps of those runs';
COMMENT ON COLUMN pgbenchx.sweep_points.max_tps IS 'highest tps of those runs';
COMMENT ON COLUMN pgbenchx.sweep_points.spread IS '(max_tps - min_tps) / median_tps';
COMMENT ON COLUMN pgbenchx.sweep_points.median_p99_ms IS 'median of their p99 latencies, ms';
COMMENT ON COLUMN pgbenchx.sweep_points.checkpoints IS 'checkpoints during those runs';
COMMENT ON COLUMN pgbenchx.sweep_points.autovacuums IS 'autovacuum and autoanalyze runs during those runs';
COMMENT ON COLUMN pgbenchx.sweep_points.unstable IS 'spread above pgbenchx.unstable_spread (default 0.10), or a checkpoint during one of its runs';
COMMENT ON COLUMN pgbenchx.sweep_points.unstable_reason IS 'why it is unstable; NULL when stable';
COMMENT ON COLUMN pgbenchx.sweep_points.run_ids IS 'its completed runs';
COMMENT ON COLUMN pgbenchx.sweep_points.median_qpm IS 'a replay: median of the runs'' queries per minute (runs.qpm); NULL for a benchmark sweep';
COMMENT ON COLUMN pgbenchx.sweep_points.wal_bytes_per_tx IS 'median of those runs'' WAL bytes per transaction (runs.wal_bytes_per_tx)';
COMMENT ON COLUMN pgbenchx.sweep_points.blocks_read_per_tx IS 'median of their blocks read per transaction';
COMMENT ON COLUMN pgbenchx.sweep_points.blocks_written_per_tx IS 'median of their blocks written per transaction';
COMMENT ON COLUMN pgbenchx.sweep_points.server_cpu_ms_per_tx IS 'median of their client backends'' CPU per transaction, ms';
COMMENT ON COLUMN pgbenchx.sweep_points.driver_cpu_ms_per_tx IS 'median of their driver workers'' CPU per transaction, ms';
COMMENT ON COLUMN pgbenchx.sweep_points.iowait_avg IS 'median of their average iowait';
COMMENT ON COLUMN pgbenchx.sweep_points.tps_ci_low IS 'low end of the 95% confidence interval of the mean tps of those runs (t-interval over the runs, pgbenchx.ci_repeats); NULL with one run';
COMMENT ON COLUMN pgbenchx.sweep_points.tps_ci_high IS 'high end of that interval';

-- pgbenchx.sweep_summary (view)
COMMENT ON COLUMN pgbenchx.sweep_summary.sweep_id IS 'the sweep';
COMMENT ON COLUMN pgbenchx.sweep_summary.label IS 'its label';
COMMENT ON COLUMN pgbenchx.sweep_summary.status IS 'its status';
COMMENT ON COLUMN pgbenchx.sweep_summary.script IS 'its script or mix';
COMMENT ON COLUMN pgbenchx.sweep_summary.repeats IS 'runs per client count';
COMMENT ON COLUMN pgbenchx.sweep_summary.runs IS 'its runs';
COMMENT ON COLUMN pgbenchx.sweep_summary.completed_runs IS 'its completed runs';
COMMENT ON COLUMN pgbenchx.sweep_summary.peak_tps IS 'the highest median tps of a point';
COMMENT ON COLUMN pgbenchx.sweep_summary.peak_clients IS 'the client count reaching it (the lowest on a tie)';
COMMENT ON COLUMN pgbenchx.sweep_summary.highest_clients IS 'the highest client count measured';
COMMENT ON COLUMN pgbenchx.sweep_summary.tps_at_highest IS 'median tps at highest_clients';
COMMENT ON COLUMN pgbenchx.sweep_summary.pct_of_peak_at_highest IS 'tps_at_highest as a percentage of peak_tps';
COMMENT ON COLUMN pgbenchx.sweep_summary.unstable_points IS 'its unstable points (sweep_points.unstable)';
COMMENT ON COLUMN pgbenchx.sweep_summary.tags IS 'its tags';
COMMENT ON COLUMN pgbenchx.sweep_summary.started_at IS 'when it started';
COMMENT ON COLUMN pgbenchx.sweep_summary.environment_id IS 'its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.os_sysname IS 'environments.os_sysname of its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.os_release IS 'environments.os_release of its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.data_fstype IS 'environments.data_fstype of its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.data_mount_options IS 'environments.data_mount_options of its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.cpu_model IS 'environments.cpu_model of its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.cpu_count IS 'environments.cpu_count of its environment';
COMMENT ON COLUMN pgbenchx.sweep_summary.shared_buffers IS 'shared_buffers in its environment''s settings';
COMMENT ON COLUMN pgbenchx.sweep_summary.origin_system_identifier IS 'imported: the system identifier of the server that measured it; NULL otherwise';
COMMENT ON COLUMN pgbenchx.sweep_summary.peak_qpm IS 'a replay: the median queries per minute at peak_clients; NULL for a benchmark sweep';
COMMENT ON COLUMN pgbenchx.sweep_summary.qpm_at_highest IS 'a replay: the median queries per minute at highest_clients; NULL for a benchmark sweep';

-- pgbenchx.run_generators
COMMENT ON TABLE pgbenchx.run_generators IS 'the load generators of a run driven from several servers, one row each';
COMMENT ON COLUMN pgbenchx.run_generators.run_id IS 'the recorder''s run (runs.run_id on this server)';
COMMENT ON COLUMN pgbenchx.run_generators.generator IS 'its 1-based position in the generators array of the call';
COMMENT ON COLUMN pgbenchx.run_generators.conninfo IS 'its conninfo as given, passwords masked';
COMMENT ON COLUMN pgbenchx.run_generators.system_identifier IS 'the generator server''s system identifier';
COMMENT ON COLUMN pgbenchx.run_generators.part_run_id IS 'the run id of its part in the generator''s own pgbenchx.runs';
COMMENT ON COLUMN pgbenchx.run_generators.clients IS 'the clients it drove';
COMMENT ON COLUMN pgbenchx.run_generators.jobs IS 'its driver workers';
COMMENT ON COLUMN pgbenchx.run_generators.first_client IS 'the number of its first client within the run (0-based): its clients are first_client .. first_client + clients - 1';
COMMENT ON COLUMN pgbenchx.run_generators.clock_offset_ms IS 'its clock minus this server''s at the start of the step, ms, from the libpq round trip of smallest delay';
COMMENT ON COLUMN pgbenchx.run_generators.clock_uncertainty_ms IS 'half that round trip, ms: the offset is known to within this';
COMMENT ON COLUMN pgbenchx.run_generators.status IS 'its part''s final status (completed, cancelled, failed, aborted), or lost when the recorder lost the generator';
COMMENT ON COLUMN pgbenchx.run_generators.error IS 'why its part failed, or how the generator was lost';
COMMENT ON COLUMN pgbenchx.run_generators.transactions IS 'transactions its clients completed';
COMMENT ON COLUMN pgbenchx.run_generators.failed_transactions IS 'transactions of its clients that failed (serialization, deadlock)';
COMMENT ON COLUMN pgbenchx.run_generators.tps IS 'its own tps, over its own measured interval';
COMMENT ON COLUMN pgbenchx.run_generators.latency_avg_ms IS 'average latency of its transactions, ms';
COMMENT ON COLUMN pgbenchx.run_generators.latency_stddev_ms IS 'standard deviation of its latencies, ms';
COMMENT ON COLUMN pgbenchx.run_generators.latency_p50_ms IS 'median latency of its transactions, ms';
COMMENT ON COLUMN pgbenchx.run_generators.latency_p99_ms IS '99th percentile latency of its transactions, ms';
COMMENT ON COLUMN pgbenchx.run_generators.latency_max_ms IS 'largest latency of its transactions, ms';
COMMENT ON COLUMN pgbenchx.run_generators.conn_time_ms IS 'the time its clients took to connect, ms';
COMMENT ON COLUMN pgbenchx.run_generators.bench_duration_s IS 'its measured interval, s';
COMMENT ON COLUMN pgbenchx.run_generators.driver_cpu_s IS 'CPU seconds of its driver workers: near bench_duration_s * jobs, the generator was saturated';
COMMENT ON COLUMN pgbenchx.run_generators.aborted_clients IS 'its clients that aborted';
COMMENT ON COLUMN pgbenchx.run_generators.latency_hist IS 'its latency histogram (the format of runs.latency_hist): the run''s is their merge';
COMMENT ON COLUMN pgbenchx.run_generators.environment IS 'the generator''s environment as it recorded it (its pgbenchx.environments row)';
COMMENT ON COLUMN pgbenchx.run_generators.part_run IS 'its part''s whole runs row on the generator, as jsonb, with its statement_stats rows under the key statement_stats (the run''s statement_stats are their sums)';
