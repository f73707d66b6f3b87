\set h int(1e300)
SELECT 1;
