\set i random(1, 4)
\if :i = 1
SELECT 1 AS one \gset
\elif :i = 2
  \set j :i * 2
  \if :j > 3
    SELECT 'nested';
  \else
    SELECT 'skipped';
  \endif
\elif :i IS NULL
SELECT 'null';
\else
\set k CASE WHEN :i > 3 THEN 1 ELSE 0 END
\endif
\IF true
\ELSE
\ENDIF
