-- setup: create the extension and a helper that shows an error's
-- SQLSTATE, message, detail and hint deterministically.
CREATE EXTENSION pgbenchx;
SELECT extversion FROM pg_extension WHERE extname = 'pgbenchx';

\i sql/include/common.sql

-- The public surface of this version: functions and their privileges.
SELECT p.oid::regprocedure AS function,
       pg_get_function_result(p.oid) AS returns,
       has_function_privilege('public', p.oid, 'EXECUTE') AS public_may_execute
FROM pg_proc p
JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pgbenchx'
ORDER BY 1::text;
