\set x 1 + \
  2 * \
  3
\SET y :x
SELECT :x, :y;
