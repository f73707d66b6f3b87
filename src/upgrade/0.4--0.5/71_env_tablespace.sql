/*
 * Issue 23 (seed 001 on one server): an environment names the tablespace
 * of the run's pgbench_accounts when it is not pg_default, with the file
 * system, mount options and device of its directory, so that env_diff
 * shows the difference between runs on two tablespaces.  NULL in the
 * environments captured before.
 */
ALTER TABLE pgbenchx.environments ADD COLUMN tablespace_name text,
                                  ADD COLUMN tablespace_fstype text,
                                  ADD COLUMN tablespace_mount_options text,
                                  ADD COLUMN tablespace_device text;
