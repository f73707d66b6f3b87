\set c random(10, 1)
SELECT 1;
