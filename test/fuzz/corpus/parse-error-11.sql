\unknown
SELECT 1;
