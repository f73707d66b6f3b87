SELECT 1 AS one, 2 AS two \gset
SELECT :one + :two AS three \gset p_
\set s :p_three * 2
SELECT 1 AS a \; SELECT 2 AS b \aset
SELECT 3 AS c \; SELECT 4 AS d \aset q_
SELECT :a, :b, :q_c, :q_d;
SELECT 1 \gset
