\set s 1 ;
SELECT 1;
