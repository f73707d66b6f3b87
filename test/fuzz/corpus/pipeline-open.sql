\startpipeline
SELECT 1;
\startpipeline
