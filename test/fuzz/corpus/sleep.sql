\sleep 1
\sleep 10 us
\sleep 10ms
\sleep 2 s
\sleep :ms ms
\sleep :foo
\set zz 0
\sleep :zz us
\sleep :word
