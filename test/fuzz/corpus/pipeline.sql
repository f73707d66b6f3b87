\set aid random(1, 100000 * :scale)
\startpipeline
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
END;
\endpipeline
\startpipeline
SELECT 1 \gset
\endpipeline
