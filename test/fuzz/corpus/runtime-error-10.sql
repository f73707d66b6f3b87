\set k :undefined_var + 1
SELECT 1;
