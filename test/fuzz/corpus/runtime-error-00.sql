\set a 1 / 0
SELECT 1;
