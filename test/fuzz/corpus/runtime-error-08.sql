\set i NOT 1
SELECT 1;
