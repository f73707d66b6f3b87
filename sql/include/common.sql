\set ECHO none
-- sql/include/common.sql: the common start of every pg_regress file, so
-- that each file runs on its own (REGRESS=eval) as well as in the
-- Makefile's list.  Idempotent: the extension if it is not there yet, and
-- pgbx_try, which shows an error's SQLSTATE, message, detail and hint
-- deterministically.  Its own statements are not echoed into the output.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchx;
RESET client_min_messages;

CREATE OR REPLACE FUNCTION pgbx_try(sql text) RETURNS text LANGUAGE plpgsql AS $$
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
\set ECHO all
