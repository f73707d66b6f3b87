/*
 * pgbenchx--0.4--0.5.sql: ALTER EXTENSION pgbenchx UPDATE from 0.4 to 0.5.
 * Generated: the Makefile concatenates the files of src/upgrade/0.4--0.5 in
 * name order, one per change; once 0.5 is released they are frozen, and a
 * later change ships as pgbenchx--0.5--0.6.sql.
 *
 * The rules of src/upgrade/0.2--0.3/00_header.sql hold: tables change as
 * deltas, so that every stored result stays; routines and views are
 * re-created in full, each once, by the last fragment that changes it, with
 * src/sql's body (python3 scripts/upgrade_sync.py); a view only gains
 * columns at its end; no GRANT or REVOKE on an existing routine (it would
 * be recorded as an initial privilege); new routines reach existing
 * runners in one fragment at the end.  test/t/036_upgrade.pl checks that
 * 0.1 + UPDATE has the catalogue of a fresh CREATE EXTENSION, and
 * test/t/037, 038, 049 and 054 update real 0.1, 0.2, 0.3 and 0.4 installs
 * with their results.
 */

\echo Use "ALTER EXTENSION pgbenchx UPDATE TO '0.5'" to load this file. \quit
