-- a comment line
SELECT 'it''s ; not the end', E'\';x', "quoted;ident" FROM t WHERE a = ':aid';
SELECT $$ dollar ; quoted :aid $$, $tag$ nested $$ ; $tag$;
/* block /* nested */ comment ; */ SELECT 1;
SELECT (1;2) ; SELECT U&'\0041' ;
SELECT 1 \; SELECT 2 \; SELECT 3;
SELECT :aid::int, :aid1x, ::cast;
SELECT 1
\set q 1
SELECT 2 -- trailing comment
;
