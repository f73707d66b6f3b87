\shell echo hi
SELECT 1;
