\else
SELECT 1;
