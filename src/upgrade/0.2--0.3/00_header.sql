/*
 * pgbenchx--0.2--0.3.sql: ALTER EXTENSION pgbenchx UPDATE from 0.2 to 0.3.
 * Generated: the Makefile concatenates the files of src/upgrade/0.2--0.3 in
 * name order, one per change; once 0.3 is released they are frozen, and a
 * later change ships as pgbenchx--0.3--0.4.sql.
 *
 * Tables change as deltas (ALTER TABLE ... ADD COLUMN), so that every
 * stored result stays; stateless functions and views are re-created in
 * full, as the install script (src/sql) creates them.  A routine that
 * several changes touch is re-created once, by the last fragment that
 * changes it (or the one that must DROP and CREATE it), with its final body
 * (python3 scripts/upgrade_sync.py keeps those bodies equal to src/sql's);
 * the earlier fragments say where.  A view whose columns grow in steps is
 * the exception: each step adds its columns at the end.  test/t/036_upgrade.pl
 * checks that 0.1 + UPDATE has the catalogue of a fresh CREATE EXTENSION,
 * and test/t/037 and 038 update real 0.1 and 0.2 installs with results.
 */

\echo Use "ALTER EXTENSION pgbenchx UPDATE TO '0.3'" to load this file. \quit
