\set w greatest()
SELECT 1;
