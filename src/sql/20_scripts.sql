/*
 * src/sql/20_scripts.sql: pgbench's script language from SQL: eval, the
 * built-in scripts, the scripts view, add_script, drop_script, script_text.
 * The table of registered scripts is in 00_schema.sql.
 */

-- Evaluates one expression exactly as pgbench's \set would, with the given
-- variables (as pgbench -D: string values, typed lazily) and random seed
-- (one client: the values stock pgbench --random-seed gives client 0).
-- Returns pgbench's string form of the value, NULL for NULL.  debug()
-- prints a NOTICE.  Anyone granted EXECUTE may call it; it touches nothing.
CREATE OR REPLACE FUNCTION pgbenchx.eval(expression text, variables jsonb DEFAULT '{}',
                              random_seed bigint DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'pgbenchx_eval'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL SAFE;

-- pgbench's built-in scripts: name, description, text.
CREATE OR REPLACE FUNCTION pgbenchx.builtin_scripts(OUT name text, OUT description text, OUT body text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pgbenchx_builtin_scripts'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Every script a run can use, built-in or registered (with its owner).
CREATE OR REPLACE VIEW pgbenchx.scripts AS
SELECT name, description, body, true AS builtin, NULL::name AS owner FROM pgbenchx.builtin_scripts()
UNION ALL
SELECT name, NULL, body, false, owner FROM pgbenchx.custom_scripts;

-- Registers a script after checking it parses as pgbench would parse it
-- (a syntax error is refused with pgbench's line, column and caret);
-- replace => true replaces one of the same name.  Returns the name.  The
-- caller becomes its owner; only a role with the privileges of the owner
-- (the owner, its members, superusers) replaces or drops it, and runs it.
-- No name may be a built-in's or a prefix of one (built-ins resolve first).
CREATE OR REPLACE FUNCTION pgbenchx.add_script(name text, body text, replace boolean DEFAULT false)
RETURNS text
AS 'MODULE_PATHNAME', 'pgbenchx_add_script'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

-- Drops a registered script, if the caller has the privileges of its owner.
-- In C: the check tests the caller itself, and only the delete runs as the
-- extension's owner (runners cannot write custom_scripts).
CREATE OR REPLACE FUNCTION pgbenchx.drop_script(name text) RETURNS void
AS 'MODULE_PATHNAME', 'pgbenchx_drop_script'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

-- The text of a script, like pgbench --show-script (built-ins by prefix).
CREATE OR REPLACE FUNCTION pgbenchx.script_text(name text) RETURNS text
AS 'MODULE_PATHNAME', 'pgbenchx_script_text'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
