\set r random(1, 10)
\set e random_exponential(1, 1000, 2.5)
\set g random_gaussian(1, 1000, 2.5)
\set z random_zipfian(1, 1000, 1.07)
\set h hash(:r)
\set h2 hash(:r, 5432)
\set hm hash_murmur2(:r, :default_seed)
\set hf hash_fnv1a(:r)
\set p permute(:r, 100)
\set p2 permute(:r, 100, 42)
\set pw pow(2, 10) + power(2.5, 0.5)
\set a abs(-5) + abs(-2.5)
\set d double(3) + int(4.5) + int(-4.5)
\set x exp(1.0) + ln(10) + sqrt(2) + pi()
\set gr greatest(1, 2.5, 3) + least(4, 5, -6)
\set m mod(10, 3) + 10 % -3 + -10 % 3
\set dbg debug(:r * 2)
\set c CASE WHEN :r > 5 THEN 10 WHEN :r = 5 THEN 5 ELSE NULL END
\set c2 CASE WHEN :r > 5 THEN 1 END
\set b (:r > 5) AND NOT (:r < 2) OR :r IS NULL
\set b2 :r ISNULL OR :r NOTNULL OR :r IS NOT NULL OR :r IS TRUE OR :r IS NOT FALSE
\set bits (:r & 3) | (:r # 5) + (~:r) + (1 << 3) + (256 >> 2)
\set cmp (1 < 2) = (2 >= 1) AND 1 <> 2 AND 1 != 2 AND 1 <= 1 AND 2 > 1
\set n NULL
\set t TRUE
\set f FALSE
\set big 9223372036854775807
\set min -9223372036854775808
\set dd 1.5e3 + .5 + 123. + 1.0E-3
\set Ln Ln(Exp(1.0))
SELECT :r, :e, :g, :z, :h, :p, :pw, :c, :b, :n, :t, :dd;
