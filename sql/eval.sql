-- pgbenchx.eval: the \set expression language, deterministically.
-- Values follow pgbench's semantics and string forms; errors carry
-- pgbench's messages.
\i sql/include/common.sql
CREATE FUNCTION pgbx_eval(e text, vars jsonb DEFAULT '{}', seed bigint DEFAULT 5432)
RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN coalesce(pgbenchx.eval(e, vars, seed), '<NULL>');
EXCEPTION WHEN OTHERS THEN
    RETURN 'ERROR: ' || SQLERRM;
END $$;

SELECT e, pgbx_eval(e) FROM (VALUES
  -- constants and arithmetic
  ('1 + 2 * 3'), ('(1 + 2) * 3'), ('7 / 2'), ('-7 / 2'), ('7 % 3'), ('-7 % 3'),
  ('7.0 / 2'), ('1e3'), ('.5 + 1'), ('2 ^ 3'), ('-(-3)'), ('+4'),
  ('9223372036854775807'), ('-9223372036854775808'), ('9223372036854775808'),
  ('9223372036854775807 + 1'), ('-9223372036854775808 - 1'), ('4611686018427387904 * 2'),
  ('-9223372036854775808 / -1'), ('-9223372036854775808 % -1'),
  ('1 / 0'), ('1 % 0'), ('1.0 / 0'), ('-1.0 / 0'), ('0.0 / 0'),
  -- bitwise
  ('5 & 3'), ('5 | 3'), ('5 # 3'), ('~5'), ('1 << 62'), ('1 << 63'), ('-8 >> 1'),
  -- comparisons, booleans, NULL
  ('1 = 1'), ('1 <> 2'), ('1 != 1'), ('1 < 2.5'), ('2 <= 2'), ('3 > 4'), ('3 >= 3.0'),
  ('TRUE AND FALSE'), ('TRUE OR NULL'), ('FALSE AND NULL'), ('NOT TRUE'), ('NULL AND TRUE'),
  ('NULL IS NULL'), ('1 IS NULL'), ('1 ISNULL'), ('1 NOTNULL'), ('TRUE IS TRUE'), ('NULL IS NOT TRUE'),
  ('NULL = NULL'), ('1 + NULL'), ('NULL'),
  ('CASE WHEN 1 > 2 THEN 1 WHEN 2 > 1 THEN 2 ELSE 3 END'), ('CASE WHEN FALSE THEN 1 END'),
  ('1 < 2 < 3'),
  -- functions
  ('abs(-5)'), ('abs(-5.5)'), ('int(5.7)'), ('int(-5.7)'), ('double(3)'), ('int(1e30)'),
  ('greatest(1, 5.5, 3)'), ('least(4, 2, 8)'), ('greatest(1, 2)'), ('mod(10, 3)'), ('mod(-10, 3)'),
  ('pi()'), ('sqrt(16)'), ('sqrt(-1)'), ('exp(1)'), ('ln(2.718281828459045)'), ('ln(0)'),
  ('pow(2, 10)'), ('power(2.0, -1)'), ('pow(-8, 1.0/3)'),
  ('hash(10)'), ('hash(10, 5432)'), ('hash_fnv1a(10, 5432)'), ('hash_murmur2(10, 5432)'),
  ('permute(0, 10, 5432)'), ('permute(5, 10, 5432)'), ('permute(11, 10, 5432)'), ('permute(0, 0)'),
  ('random(10, 19)'), ('random(1, 1)'), ('random(2, 1)'),
  ('random(-9223372036854775808, 9223372036854775807)'),
  ('random_exponential(1, 10, 2.5)'), ('random_exponential(1, 10, 0)'),
  ('random_gaussian(1, 10, 2.5)'), ('random_gaussian(1, 10, 1.5)'),
  ('random_zipfian(1, 10, 1.5)'), ('random_zipfian(1, 10, 1.0)'), ('random_zipfian(1, 10, 0.5)'),
  ('abs()'), ('abs(1, 2)'), ('nosuchfunction(1)'), ('debug(1, 2)'),
  -- syntax
  ('1 +'), ('(1'), ('1 ;'), ('abc'), ('1 2'), ('1 = = 2')
) AS t(e);

-- variables as pgbench -D gives them: strings, typed lazily
SELECT v, pgbx_eval(':v + 0', jsonb_build_object('v', v)) FROM (VALUES
  ('12'), (' 12 '), ('1.5'), ('1e3'), ('nan'), ('-inf'), ('bla'), ('99999999999999999999')) AS t(v);
SELECT v, pgbx_eval('CASE WHEN :v THEN 1 ELSE 0 END', jsonb_build_object('v', v)) FROM (VALUES
  ('true'), ('t'), ('ye'), ('on'), ('of'), ('n'), ('o'), ('null'), ('NuLl')) AS t(v);
SELECT pgbx_eval(':a * :b', '{"a": 6, "b": "7"}');
SELECT pgbx_eval(':flag', '{"flag": true}'), pgbx_eval(':n', '{"n": null}');
SELECT pgbx_eval(':missing');
SELECT pgbx_eval(':scale'), pgbx_eval(':client_id'), pgbx_eval(':random_seed'), pgbx_eval(':scale', '{"scale": 50}');
SELECT pgbx_eval('1', '[1, 2]');
SELECT pgbx_eval(':o', '{"o": {"x": 1}}');

-- the same seed gives the same values; another seed others
SELECT pgbx_eval('random(1, 1000000)', seed => 1) = pgbx_eval('random(1, 1000000)', seed => 1) AS same_seed_same_value,
       pgbx_eval('random(1, 1000000)', seed => 1) <> pgbx_eval('random(1, 1000000)', seed => 2) AS other_seed_other_value;

-- debug() prints what pgbench prints
SELECT pgbenchx.eval('debug(random(10, 19))', random_seed => 5432);
SELECT pgbenchx.eval('debug(1 = 1)');
SELECT pgbenchx.eval(E'1 +\n2');
SELECT pgbenchx.eval(NULL);

DROP FUNCTION pgbx_eval(text, jsonb, bigint);
