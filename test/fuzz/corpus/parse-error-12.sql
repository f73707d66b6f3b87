\set
SELECT 1;
