\set i 1 +
SELECT 1;
