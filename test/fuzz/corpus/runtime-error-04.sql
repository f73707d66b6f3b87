\set e random_zipfian(1, 10, 1.0)
SELECT 1;
