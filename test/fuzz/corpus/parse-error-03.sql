\set z 1 < 2 < 3
SELECT 1;
