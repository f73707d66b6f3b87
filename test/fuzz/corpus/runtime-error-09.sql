\set j 5 OR 0
SELECT 1;
