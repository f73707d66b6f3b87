\setshell x echo 1
SELECT 1;
