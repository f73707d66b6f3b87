-- setup: create the extension and a helper that shows an error's
-- SQLSTATE, message, detail and hint deterministically.
CREATE EXTENSION pgbenchx;
SELECT extversion FROM pg_extension WHERE extname = 'pgbenchx';

CREATE FUNCTION pgbx_try(sql text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; hnt text;
BEGIN
    EXECUTE sql;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
                            det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
    RETURN st || ': ' || msg
        || CASE WHEN det <> '' THEN E'\nDETAIL: ' || det ELSE '' END
        || CASE WHEN hnt <> '' THEN E'\nHINT: ' || hnt ELSE '' END;
END $$;

-- The public surface of this version: functions and their privileges.
SELECT p.oid::regprocedure AS function,
       pg_get_function_result(p.oid) AS returns,
       has_function_privilege('public', p.oid, 'EXECUTE') AS public_may_execute
FROM pg_proc p
JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pgbenchx'
ORDER BY 1::text;
