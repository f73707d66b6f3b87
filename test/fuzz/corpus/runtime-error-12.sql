\set m :word + 1
SELECT 1;
