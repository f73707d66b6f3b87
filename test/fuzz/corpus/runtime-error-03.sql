\set d random_gaussian(1, 10, 1.0)
SELECT 1;
