\set g permute(1, 0)
SELECT 1;
