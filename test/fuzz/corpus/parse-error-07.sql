\set t 1e999
SELECT 1;
