/*
 * 70_pgstat_io_comments (issue 21, section 1): buffers_backend from 17 and
 * wal_write and wal_sync from 18 are read from pg_stat_io (src/pg_compat.h
 * says which cells mean what pg_stat_bgwriter and pg_stat_wal counted),
 * where they were NULL; the columns' comments say where each major's figure
 * comes from, as src/sql/80_comments.sql sets them.
 */
COMMENT ON COLUMN pgbenchx.runs.blocks_written_per_tx IS 'buffers written by the checkpointer, the bgwriter and the other processes (with the blocks these added to relations) per transaction: system_samples'' buffers_checkpoint + buffers_clean + buffers_backend';
COMMENT ON COLUMN pgbenchx.system_samples.wal_write IS 'WAL buffers written out, one per write call: pg_stat_wal.wal_write until 17; from 18 pg_stat_io''s writes of object wal, context normal, by every process but the walreceiver';
COMMENT ON COLUMN pgbenchx.system_samples.wal_sync IS 'WAL files synced: pg_stat_wal.wal_sync until 17; from 18 pg_stat_io''s fsyncs of object wal, context normal';
COMMENT ON COLUMN pgbenchx.system_samples.buffers_checkpoint IS 'buffers written by the checkpointer (pg_stat_bgwriter until 16, pg_stat_checkpointer from 17)';
COMMENT ON COLUMN pgbenchx.system_samples.buffers_backend IS 'buffers written, and blocks added to relations, by processes other than the checkpointer and the bgwriter: pg_stat_bgwriter.buffers_backend until 16 (16 counts an extension by several blocks once); from 17 pg_stat_io''s writes + extends of object relation by every other backend type';
