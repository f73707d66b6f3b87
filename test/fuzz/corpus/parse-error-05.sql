\set v hash(1, 2, 3)
SELECT 1;
