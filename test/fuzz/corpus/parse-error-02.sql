\set y foo(1)
SELECT 1;
