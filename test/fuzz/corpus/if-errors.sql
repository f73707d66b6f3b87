\if 1
\else
\elif 2
\endif
