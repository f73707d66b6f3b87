\set f random_exponential(1, 10, 0)
SELECT 1;
