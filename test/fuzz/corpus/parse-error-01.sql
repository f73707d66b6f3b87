\set x abc
SELECT 1;
