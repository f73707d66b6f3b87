/*
 * test_script.c -- standalone unit tests for src/lang/script.c, src/lang/expr.c and
 * src/lang/prng.c (no server needed).
 *
 * Owns: assertions on script splitting, parse errors, substitution in both
 * protocol forms, the step machine, script mixes (shared variables, the
 * weighted choice, throttle delays, NAME@WEIGHT), the expression language
 * and the PRNG, using values published by PostgreSQL's own pgbench tests
 * (seed 5432) or derived from pgbench's algorithms and checked against it.
 * Exits non-zero if any check fails.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "script.h"

static int	n_checks = 0;
static int	n_failed = 0;

/*
 * The language every test parses in: NULL (pgbench 15's, the default) on
 * the first pass of main, pgbench 19's on the second; test_pgbench_majors
 * checks what differs between them.
 */
static const ScriptParseOptions *unit_opts = NULL;

#define CHECK(cond) \
	do { \
		n_checks++; \
		if (!(cond)) { \
			n_failed++; \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		} \
	} while (0)

#define CHECK_STR(got, want) \
	do { \
		const char *g_ = (got); \
		const char *w_ = (want); \
		n_checks++; \
		if (g_ == NULL || strcmp(g_, w_) != 0) { \
			n_failed++; \
			fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", __FILE__, __LINE__, \
					g_ ? g_ : "(null)", w_); \
		} \
	} while (0)

#define CHECK_INT(got, want) \
	do { \
		long long g_ = (long long) (got); \
		long long w_ = (long long) (want); \
		n_checks++; \
		if (g_ != w_) { \
			n_failed++; \
			fprintf(stderr, "%s:%d: %s = %lld, want %lld\n", __FILE__, __LINE__, \
					#got, g_, w_); \
		} \
	} while (0)

/* ---------------------------------------------------------------------- */

static Script *
parse_ok(const char *name, const char *text)
{
	ScriptError err;
	Script	   *s = script_parse(name, text, unit_opts, &err);

	if (s == NULL)
	{
		char		buf[2048];

		script_error_format(&err, buf, sizeof(buf));
		fprintf(stderr, "unexpected parse error: %s\n", buf);
	}
	CHECK(s != NULL);
	return s;
}

/* parse, expect failure, return the formatted error in buf */
static void
parse_fail(const char *text, char *buf, size_t size)
{
	ScriptError err;
	Script	   *s = script_parse("t", text, unit_opts, &err);

	CHECK(s == NULL);
	if (s != NULL)
	{
		script_free(s);
		snprintf(buf, size, "(no error)");
		return;
	}
	script_error_format(&err, buf, size);
}

static ScriptClient *
client_for(const Script *s, ScriptQueryMode mode, uint64_t seed,
		   const ScriptDefine *defs, int ndefs)
{
	ScriptClientOptions o;
	ScriptError err;
	ScriptClient *c;

	memset(&o, 0, sizeof(o));
	o.query_mode = mode;
	o.client_id = 0;
	o.scale = 1;
	o.random_seed = seed;
	o.default_seed = script_seed_default_seed(seed, 1);
	script_seed_client(seed, 0, &o.prng);
	o.defines = defs;
	o.ndefines = ndefs;
	c = script_client_create(s, &o, &err);
	if (c == NULL)
		fprintf(stderr, "client_create: %s\n", err.message);
	CHECK(c != NULL);
	return c;
}

static int64_t
get_int(ScriptClient *c, const char *name)
{
	ExprValue	v;
	ScriptError err;

	if (!script_client_get_value(c, name, &v, &err) || v.type != EXPR_VAL_INT)
	{
		fprintf(stderr, "variable %s is not an int\n", name);
		n_failed++;
		return INT64_MIN;
	}
	return v.u.ival;
}

/* run to end of transaction, acknowledging SQL; returns the final step kind */
static ScriptStepKind
run_tx(const Script *s, ScriptClient *c, ScriptError *err)
{
	ScriptStep	st;

	for (;;)
	{
		ScriptStepKind k = script_step(s, c, &st, err);

		if (k == SCRIPT_STEP_SQL)
			script_sql_done(c);
		else if (k == SCRIPT_STEP_END_OF_TRANSACTION || k == SCRIPT_STEP_ERROR)
			return k;
	}
}

/* evaluate "\set r EXPR" once; returns formatted value or "ERROR: msg" */
static const char *
eval_str(const char *expr)
{
	static char out[512];
	static char text[16384];
	ScriptError err;
	Script	   *s;
	ScriptClient *c;

	snprintf(text, sizeof(text), "\\set r %s\n", expr);
	s = script_parse("e", text, unit_opts, &err);
	if (s == NULL)
	{
		snprintf(out, sizeof(out), "PARSE: %s", err.message);
		return out;
	}
	c = client_for(s, SCRIPT_QUERY_SIMPLE, 5432, NULL, 0);
	if (run_tx(s, c, &err) == SCRIPT_STEP_ERROR)
		snprintf(out, sizeof(out), "ERROR: %s", err.message);
	else
	{
		const char *sv = script_client_get_string(c, "r");

		snprintf(out, sizeof(out), "%s", sv ? sv : "(undefined)");
	}
	script_client_free(c);
	script_free(s);
	return out;
}

/* ---------------------------------------------------------------------- */

static void
test_prng(void)
{
	prng_state st;
	prng_state a,
				b;
	int			i;
	bool		ok = true;

	/* seed 5432, one client: first random(10, 19) is 17 in pgbench */
	script_seed_client(5432, 0, &st);
	CHECK_INT(10 + (int64_t) prng_uint64_range(&st, 0, 9), 17);

	/* same seed, same sequence; ranges stay in bounds */
	prng_seed(&a, 42);
	prng_seed(&b, 42);
	for (i = 0; i < 10000; i++)
	{
		uint64_t	x = prng_uint64_range(&a, 5, 11);

		if (x != prng_uint64_range(&b, 5, 11) || x < 5 || x > 11)
			ok = false;
		if (prng_double(&a) >= 1.0 || prng_double(&b) < 0.0)
			ok = false;
	}
	CHECK(ok);
	/* empty range returns rmin without drawing */
	a = b;
	CHECK_INT(prng_uint64_range(&a, 7, 7), 7);
	CHECK(a.s0 == b.s0 && a.s1 == b.s1);

	/* seed 0 must not leave the generator in the all-zero fixed point */
	prng_seed(&a, 0);
	CHECK(a.s0 != 0 || a.s1 != 0);
}

/* pgbench TAP test 001 "pgbench expressions", seed 5432 */
static const char *expr_script =
"-- integer functions\n"
"\\set i1 debug(random(10, 19))\n"
"\\set i2 debug(random_exponential(100, 199, 10.0))\n"
"\\set i3 debug(random_gaussian(1000, 1999, 10.0))\n"
"\\set i4 debug(abs(-4))\n"
"\\set i5 debug(greatest(5, 4, 3, 2))\n"
"\\set i6 debug(11 + least(-5, -4, -3, -2))\n"
"\\set i7 debug(int(7.3))\n"
"-- integer arithmetic and bit-wise operators\n"
"\\set i8 debug(17 / (4|1) + ( 4 + (7 >> 2)))\n"
"\\set i9 debug(- (3 * 4 - (-(~ 1) + -(~ 0))) / -1 + 3 % -1)\n"
"\\set ia debug(10 + (0 + 0 * 0 - 0 / 1))\n"
"\\set ib debug(:ia + :scale)\n"
"\\set ic debug(64 % (((2 + 1 * 2 + (1 # 2) | 4 * (2 & 11)) - (1 << 2)) + 2))\n"
"-- double functions and operators\n"
"\\set d1 debug(sqrt(+1.5 * 2.0) * abs(-0.8E1))\n"
"\\set d2 debug(double(1 + 1) * (-75.0 / :foo))\n"
"\\set pi debug(pi() * 4.9)\n"
"\\set d4 debug(greatest(4, 2, -1.17) * 4.0 * Ln(Exp(1.0)))\n"
"\\set d5 debug(least(-5.18, .0E0, 1.0/0) * -3.3)\n"
"-- reset variables\n"
"\\set i1 0\n"
"\\set d1 false\n"
"-- yet another integer function\n"
"\\set id debug(random_zipfian(1, 9, 1.3))\n"
"--- pow and power\n"
"\\set poweri debug(pow(-3,3))\n"
"\\set powerd debug(pow(2.0,10))\n"
"\\set poweriz debug(pow(0,0))\n"
"\\set powerdz debug(pow(0.0,0.0))\n"
"\\set powernegi debug(pow(-2,-3))\n"
"\\set powernegd debug(pow(-2.0,-3.0))\n"
"\\set powernegd2 debug(power(-5.0,-5.0))\n"
"\\set powerov debug(pow(9223372036854775807, 2))\n"
"\\set powerov2 debug(pow(10,30))\n"
"-- comparisons and logical operations\n"
"\\set c0 debug(1.0 = 0.0 and 1.0 != 0.0)\n"
"\\set c1 debug(0 = 1 Or 1.0 = 1)\n"
"\\set c4 debug(case when 0 < 1 then 32 else 0 end)\n"
"\\set c5 debug(case when true then 33 else 0 end)\n"
"\\set c6 debug(case when false THEN -1 when 1 = 1 then 13 + 19 + 2.0 end )\n"
"\\set c7 debug(case when (1 > 0) and (1 >= 0) and (0 < 1) and (0 <= 1) and (0 != 1) and (0 = 0) and (0 <> 1) then 35 else 0 end)\n"
"\\set c8 debug(CASE \\\n"
"                WHEN (1.0 > 0.0) AND (1.0 >= 0.0) AND (0.0 < 1.0) AND (0.0 <= 1.0) AND \\\n"
"                     (0.0 != 1.0) AND (0.0 = 0.0) AND (0.0 <> 1.0) AND (0.0 = 0.0) \\\n"
"                  THEN 36 \\\n"
"                  ELSE 0 \\\n"
"              END)\n"
"\\set c9 debug(CASE WHEN NOT FALSE THEN 3 * 12.3333334 END)\n"
"\\set ca debug(case when false then 0 when 1-1 <> 0 then 1 else 38 end)\n"
"\\set cb debug(10 + mod(13 * 7 + 12, 13) - mod(-19 * 11 - 17, 19))\n"
"\\set cc debug(NOT (0 > 1) AND (1 <= 1) AND NOT (0 >= 1) AND (0 < 1) AND \\\n"
"    NOT (false and true) AND (false OR TRUE) AND (NOT :f) AND (NOT FALSE) AND \\\n"
"    NOT (NOT TRUE))\n"
"-- NULL value and associated operators\n"
"\\set n0 debug(NULL + NULL * exp(NULL))\n"
"\\set n1 debug(:n0)\n"
"\\set n2 debug(NOT (:n0 IS NOT NULL OR :d1 IS NULL))\n"
"\\set n3 debug(:n0 IS NULL AND :d1 IS NOT NULL AND :d1 NOTNULL)\n"
"\\set n4 debug(:n0 ISNULL AND NOT :n0 IS TRUE AND :n0 IS NOT FALSE)\n"
"\\set n5 debug(CASE WHEN :n IS NULL THEN 46 ELSE NULL END)\n"
"-- use a variables of all types\n"
"\\set n6 debug(:n IS NULL AND NOT :f AND :t)\n"
"-- conditional truth\n"
"\\set cs debug(CASE WHEN 1 THEN TRUE END AND CASE WHEN 1.0 THEN TRUE END AND CASE WHEN :n THEN NULL ELSE TRUE END)\n"
"-- hash functions\n"
"\\set h0 debug(hash(10, 5432))\n"
"\\set h1 debug(:h0 = hash_murmur2(10, 5432))\n"
"\\set h3 debug(hash_fnv1a(10, 5432))\n"
"\\set h4 debug(hash(10))\n"
"\\set h5 debug(hash(10) = hash(10, :default_seed))\n"
"-- lazy evaluation\n"
"\\set zy 0\n"
"\\set yz debug(case when :zy = 0 then -1 else (1 / :zy) end)\n"
"\\set yz debug(case when :zy = 0 or (1 / :zy) < 0 then -1 else (1 / :zy) end)\n"
"\\set yz debug(case when :zy > 0 and (1 / :zy) < 0 then (1 / :zy) else 1 end)\n"
"-- substitute variables of all possible types\n"
"\\set v0 NULL\n"
"\\set v1 TRUE\n"
"\\set v2 5432\n"
"\\set v3 -54.21E-2\n"
"SELECT :v0, :v1, :v2, :v3;\n"
"-- if tests\n"
"\\set nope 0\n"
"\\if 1 > 0\n"
"\\set id debug(65)\n"
"\\elif 0\n"
"\\set nope 1\n"
"\\else\n"
"\\set nope 1\n"
"\\endif\n"
"\\if 1 < 0\n"
"\\set nope 1\n"
"\\elif 1 > 0\n"
"\\set ie debug(74)\n"
"\\else\n"
"\\set nope 1\n"
"\\endif\n"
"\\if 1 < 0\n"
"\\set nope 1\n"
"\\elif 1 < 0\n"
"\\set nope 1\n"
"\\else\n"
"\\set if debug(83)\n"
"\\endif\n"
"\\if 1 = 1\n"
"\\set ig debug(86)\n"
"\\elif 0\n"
"\\set nope 1\n"
"\\endif\n"
"\\if 1 = 0\n"
"\\set nope 1\n"
"\\elif 1 <> 0\n"
"\\set ih debug(93)\n"
"\\endif\n"
"-- must be zero if false branches where skipped\n"
"\\set nope debug(:nope)\n"
"-- check automatic variables\n"
"\\set sc debug(:scale)\n"
"\\set ci debug(:client_id)\n"
"\\set rs debug(:random_seed)\n"
"-- minint constant parsing\n"
"\\set min debug(-9223372036854775808)\n"
"\\set max debug(-(:min + 1))\n"
"-- parametric pseudorandom permutation function\n"
"\\set t debug(permute(0, 2) + permute(1, 2) = 1)\n"
"\\set t debug(permute(0, 3) + permute(1, 3) + permute(2, 3) = 3)\n"
"\\set t debug(permute(0, 4) + permute(1, 4) + permute(2, 4) + permute(3, 4) = 6)\n"
"\\set t debug(permute(0, 5) + permute(1, 5) + permute(2, 5) + permute(3, 5) + permute(4, 5) = 10)\n"
"\\set t debug(permute(0, 16) + permute(1, 16) + permute(2, 16) + permute(3, 16) + \\\n"
"             permute(4, 16) + permute(5, 16) + permute(6, 16) + permute(7, 16) + \\\n"
"             permute(8, 16) + permute(9, 16) + permute(10, 16) + permute(11, 16) + \\\n"
"             permute(12, 16) + permute(13, 16) + permute(14, 16) + permute(15, 16) = 120)\n"
"-- random sanity checks\n"
"\\set size random(2, 1000)\n"
"\\set v random(0, :size - 1)\n"
"\\set p permute(:v, :size)\n"
"\\set t debug(0 <= :p and :p < :size and :p = permute(:v + :size, :size) and :p <> permute(:v + 1, :size))\n"
"-- actual values\n"
"\\set t debug(permute(:v, 1) = 0)\n"
"\\set t debug(permute(0, 2, 5431) = 0 and permute(1, 2, 5431) = 1 and \\\n"
"             permute(0, 2, 5433) = 1 and permute(1, 2, 5433) = 0)\n"
"-- check permute's portability across architectures\n"
"\\set size debug(:max - 10)\n"
"\\set t debug(permute(:size-1, :size, 5432) = 520382784483822430 and \\\n"
"             permute(:size-2, :size, 5432) = 1143715004660802862 and \\\n"
"             permute(:size-3, :size, 5432) = 447293596416496998 and \\\n"
"             permute(:size-4, :size, 5432) = 916527772266572956 and \\\n"
"             permute(:size-5, :size, 5432) = 2763809008686028849 and \\\n"
"             permute(:size-6, :size, 5432) = 8648551549198294572 and \\\n"
"             permute(:size-7, :size, 5432) = 4542876852200565125)\n";

/* expected debug() output per 1-based command number, from the TAP test */
static const struct
{
	int			command;
	const char *want;
}			expr_expected[] = {
	{1, "int 17"}, {2, "int 104"}, {3, "int 1498"}, {4, "int 4"},
	{5, "int 5"}, {6, "int 6"}, {7, "int 7"}, {8, "int 8"}, {9, "int 9"},
	{10, "int 10"}, {11, "int 11"}, {12, "int 12"}, {15, "double 15"},
	{16, "double 16"}, {17, "double 17"}, {20, "int 3"}, {21, "double -27"},
	{22, "double 1024"}, {23, "double 1"}, {24, "double 1"},
	{25, "double -0.125"}, {26, "double -0.125"}, {27, "double -0.00032"},
	{28, "double 8.50705917302346e+37"}, {29, "double 1e+30"},
	{30, "boolean false"}, {31, "boolean true"}, {32, "int 32"},
	{33, "int 33"}, {34, "double 34"}, {35, "int 35"}, {36, "int 36"},
	{37, "double 37"}, {38, "int 38"}, {39, "int 39"},
	{40, "boolean true"}, {41, "null"}, {42, "null"}, {43, "boolean true"},
	{44, "boolean true"}, {45, "boolean true"}, {46, "int 46"},
	{47, "boolean true"}, {48, "boolean true"},
	{49, "int -5817877081768721676"}, {50, "boolean true"},
	{51, "int -7793829335365542153"}, {53, "boolean true"},
	{65, "int 65"}, {74, "int 74"}, {83, "int 83"}, {86, "int 86"},
	{93, "int 93"}, {95, "int 0"}, {96, "int 1"}, {97, "int 0"},
	{98, "int 5432"}, {99, "int -9223372036854775808"},
	{100, "int 9223372036854775807"}, {101, "boolean true"},
	{102, "boolean true"}, {103, "boolean true"}, {104, "boolean true"},
	{105, "boolean true"}, {109, "boolean true"}, {110, "boolean true"},
	{111, "boolean true"}, {113, "boolean true"},
};

#define MAX_DEBUG 200
static char debug_out[MAX_DEBUG][96];

static void
debug_hook(void *arg, int script_index, int command_index, const ExprValue *v)
{
	char		val[64];

	(void) arg;
	(void) script_index;
	if (command_index < 0 || command_index >= MAX_DEBUG)
		return;
	expr_value_format(v, val, sizeof(val));
	if (v->type == EXPR_VAL_NULL)
		snprintf(debug_out[command_index], sizeof(debug_out[0]), "null");
	else
		snprintf(debug_out[command_index], sizeof(debug_out[0]), "%s %s",
				 expr_type_name(v->type), val);
}

static void
test_pgbench_expressions(void)
{
	static const ScriptDefine defs[] = {
		{"foo", "-10.1"}, {"bla", "false"}, {"i", "+3"}, {"n", "null"},
		{"t", "t"}, {"f", "of"}, {"d", "1.0"},
	};
	Script	   *s = parse_ok("001_pgbench_expressions", expr_script);
	ScriptClientOptions o;
	ScriptClient *c;
	ScriptError err;
	ScriptStep	st;
	ScriptStepKind k;
	size_t		i;
	int			nsql = 0;

	if (s == NULL)
		return;
	CHECK_INT(script_command_count(s), 113);

	memset(&o, 0, sizeof(o));
	o.query_mode = SCRIPT_QUERY_SIMPLE;
	o.scale = 1;
	o.random_seed = 5432;
	o.default_seed = script_seed_default_seed(5432, 1);
	script_seed_client(5432, 0, &o.prng);
	o.defines = defs;
	o.ndefines = (int) (sizeof(defs) / sizeof(defs[0]));
	o.debug = debug_hook;
	memset(debug_out, 0, sizeof(debug_out));
	c = script_client_create(s, &o, &err);
	CHECK(c != NULL);
	if (c == NULL)
		return;

	while ((k = script_step(s, c, &st, &err)) == SCRIPT_STEP_SQL)
	{
		nsql++;
		CHECK_STR(st.sql, "SELECT NULL, true, 5432, -0.5421;");
		script_sql_done(c);
	}
	if (k == SCRIPT_STEP_ERROR)
		fprintf(stderr, "expressions script failed at command %d: %s\n",
				err.command_index, err.message);
	CHECK_INT(k, SCRIPT_STEP_END_OF_TRANSACTION);
	CHECK_INT(nsql, 1);

	for (i = 0; i < sizeof(expr_expected) / sizeof(expr_expected[0]); i++)
	{
		const char *got = debug_out[expr_expected[i].command - 1];

		size_t		wl = strlen(expr_expected[i].want);

		/* the TAP test matches "want\\b": a prefix ending at a word boundary */
		n_checks++;
		if (strncmp(got, expr_expected[i].want, wl) != 0 ||
			(got[wl] != '\0' && (isalnum((unsigned char) got[wl]) || got[wl] == '_')))
		{
			n_failed++;
			fprintf(stderr, "expressions: command=%d got \"%s\", want \"%s\"\n",
					expr_expected[i].command, got, expr_expected[i].want);
		}
	}
	/* skipped branches must not have run */
	CHECK_INT(get_int(c, "nope"), 0);

	script_client_free(c);
	script_free(s);
}

static void
test_random_seeded(void)
{
	Script	   *s = parse_ok("r",
							 "\\set a random(10, 19)\n"
							 "\\set b random_exponential(100, 199, 10.0)\n"
							 "\\set c random_gaussian(1000, 1999, 10.0)\n"
							 "\\set d random_zipfian(1, 9, 1.3)\n");
	ScriptClient *c1,
			   *c2;
	ScriptError err;
	int			i;
	bool		inrange = true,
				same = true;

	if (s == NULL)
		return;
	c1 = client_for(s, SCRIPT_QUERY_SIMPLE, 5432, NULL, 0);
	CHECK_INT(run_tx(s, c1, &err), SCRIPT_STEP_END_OF_TRANSACTION);
	CHECK_INT(get_int(c1, "a"), 17);
	CHECK_INT(get_int(c1, "b"), 104);
	CHECK_INT(get_int(c1, "c"), 1498);
	CHECK_INT(get_int(c1, "d"), 3);

	/* determinism: two clients with the same seed agree, values in range */
	c2 = client_for(s, SCRIPT_QUERY_SIMPLE, 5432, NULL, 0);
	CHECK_INT(run_tx(s, c2, &err), SCRIPT_STEP_END_OF_TRANSACTION);
	for (i = 0; i < 2000; i++)
	{
		run_tx(s, c1, &err);
		run_tx(s, c2, &err);
		if (get_int(c1, "a") != get_int(c2, "a") ||
			get_int(c1, "c") != get_int(c2, "c"))
			same = false;
		if (get_int(c1, "a") < 10 || get_int(c1, "a") > 19 ||
			get_int(c1, "b") < 100 || get_int(c1, "b") > 199 ||
			get_int(c1, "c") < 1000 || get_int(c1, "c") > 1999 ||
			get_int(c1, "d") < 1 || get_int(c1, "d") > 9)
			inrange = false;
	}
	CHECK(same);
	CHECK(inrange);

	script_client_free(c1);
	script_client_free(c2);
	script_free(s);

	/* a retry restores the random state of the transaction start */
	s = parse_ok("retry", "\\set a random(1, 1000000000)\nSELECT :a;\n\\set b random(1, 1000000000)\n");
	if (s != NULL)
	{
		ScriptStep	st;
		char		first[64];
		int64_t		b1;

		c1 = client_for(s, SCRIPT_QUERY_SIMPLE, 99, NULL, 0);
		CHECK_INT(script_step(s, c1, &st, &err), SCRIPT_STEP_SQL);
		snprintf(first, sizeof(first), "%s", st.sql);
		script_client_restart_transaction(c1);
		CHECK_INT(script_step(s, c1, &st, &err), SCRIPT_STEP_SQL);
		CHECK_STR(st.sql, first);
		CHECK_INT(script_step(s, c1, &st, &err), SCRIPT_STEP_END_OF_TRANSACTION);
		b1 = get_int(c1, "b");
		/* the next transaction draws new values */
		CHECK_INT(script_step(s, c1, &st, &err), SCRIPT_STEP_SQL);
		CHECK(strcmp(st.sql, first) != 0);
		CHECK(b1 >= 1 && b1 <= 1000000000);
		script_client_free(c1);
		script_free(s);
	}

	/* another client index gets another stream */
	{
		prng_state	s0,
					s1;

		script_seed_client(5432, 0, &s0);
		script_seed_client(5432, 1, &s1);
		CHECK(s0.s0 != s1.s0);
	}
}

static void
test_builtins(void)
{
	int			n;
	const ScriptBuiltin *b = script_builtins(&n);
	static const int ncmds[] = {11, 9, 2};
	static const int nsql[] = {7, 5, 1};
	ScriptError err;
	int			i;

	CHECK_INT(n, 3);
	for (i = 0; i < n && i < 3; i++)
	{
		Script	   *s = parse_ok(b[i].desc, b[i].text);
		int			j;

		if (s == NULL)
			continue;
		CHECK_INT(script_command_count(s), ncmds[i]);
		CHECK_INT(script_sql_count(s), nsql[i]);
		for (j = 0; j < script_command_count(s); j++)
			CHECK_INT(script_command_kind(s, j),
					  (i == 2 ? j < 1 : j < 4) ? SCRIPT_CMD_SET : SCRIPT_CMD_SQL);
		script_free(s);
	}
	CHECK_STR(b[0].name, "tpcb-like");
	CHECK_STR(b[0].desc, "<builtin: TPC-B (sort of)>");
	CHECK_STR(b[1].desc, "<builtin: simple update>");
	CHECK_STR(b[2].desc, "<builtin: select only>");

	CHECK(script_builtin_find("t", &err) == &b[0]);
	CHECK(script_builtin_find("simple-update", &err) == &b[1]);
	CHECK(script_builtin_find("se", &err) == &b[2]);
	CHECK(script_builtin_find("s", &err) == NULL);
	CHECK_STR(err.message, "ambiguous builtin name: 2 builtin scripts found for prefix \"s\"");
	CHECK(script_builtin_find("x", &err) == NULL);
	CHECK_STR(err.message, "no builtin script found for name \"x\"");

	/* tpcb-like: the SQL texts and their $n forms */
	{
		Script	   *s = parse_ok(b[0].desc, b[0].text);

		if (s != NULL)
		{
			CHECK_STR(script_command_text(s, 4), "BEGIN;");
			CHECK_STR(script_command_text(s, 5),
					  "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;");
			CHECK_STR(script_sql_param_text(s, 5),
					  "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2;");
			CHECK_INT(script_sql_nparams(s, 9), 4);
			CHECK_INT(script_sql_index(s, 10), 6);
			CHECK_STR(script_command_first_line(s, 0), "\\set aid random(1, 100000 * :scale)");
			CHECK_INT(script_command_lineno(s, 10), 11);
			script_free(s);
		}
	}
}

static void
test_splitting(void)
{
	Script	   *s;

	/* quotes, identifiers, comments and dollar quotes hide ';' */
	s = parse_ok("q",
				 "-- leading comment\n"
				 "  SELECT 'a;b', \"x;y\" /* c; /* nested; */ d; */ FROM t -- tail;\n"
				 "  WHERE f(';');\n"
				 "DO $fn$ BEGIN PERFORM 1; END $fn$;\n"
				 "SELECT $$;$$, $1, a$b$c;\n"
				 "SELECT E'it\\'s;', 'it''s;';\n"
				 "SELECT (1;2);\n"
				 "SELECT 1 \\; SELECT 2;\n"
				 "SELECT x \\:y;\n"
				 "/* only a comment */\n");
	if (s != NULL)
	{
		CHECK_INT(script_command_count(s), 8);
		CHECK_STR(script_command_text(s, 0),
				  "SELECT 'a;b', \"x;y\" /* c; /* nested; */ d; */ FROM t -- tail;\n  WHERE f(';');");
		CHECK_INT(script_command_lineno(s, 0), 2);
		CHECK_STR(script_command_text(s, 1), "DO $fn$ BEGIN PERFORM 1; END $fn$;");
		CHECK_STR(script_command_text(s, 2), "SELECT $$;$$, $1, a$b$c;");
		CHECK_STR(script_command_text(s, 3), "SELECT E'it\\'s;', 'it''s;';");
		CHECK_STR(script_command_text(s, 4), "SELECT (1;2);");
		CHECK_STR(script_command_text(s, 5), "SELECT 1 ; SELECT 2;");
		CHECK_STR(script_command_text(s, 6), "SELECT x :y;");
		/* pgbench keeps a trailing block comment as a command */
		CHECK_STR(script_command_text(s, 7), "/* only a comment */\n");
		CHECK_STR(script_command_first_line(s, 0), "SELECT 'a;b', \"x;y\" /* c; /* nested; */ d; */ FROM t -- tail;");
		script_free(s);
	}

	/* SQL ended by a meta-command or EOF; \gset attaches to it */
	s = parse_ok("g",
				 "SELECT 1 AS one \\gset p_\n"
				 "select 2\n"
				 "\\aset\n"
				 "\\sleep 10 ms\n"
				 "\\SET x 1 + \\\n"
				 "   2\n"
				 "SELECT :x");
	if (s != NULL)
	{
		const char *prefix = NULL;

		CHECK_INT(script_command_count(s), 5);
		CHECK_STR(script_command_text(s, 0), "SELECT 1 AS one ");
		CHECK_INT(script_sql_store(s, 0, &prefix), SCRIPT_STORE_GSET);
		CHECK_STR(prefix, "p_");
		CHECK_STR(script_command_text(s, 1), "select 2\n");
		CHECK_INT(script_sql_store(s, 1, &prefix), SCRIPT_STORE_ASET);
		CHECK_STR(prefix, "");
		CHECK_INT(script_command_kind(s, 2), SCRIPT_CMD_SLEEP);
		CHECK_INT(script_command_kind(s, 3), SCRIPT_CMD_SET);
		CHECK_STR(script_command_text(s, 3), "\\SET x 1 + \\\n   2");
		CHECK_INT(script_command_lineno(s, 4), 7);
		CHECK_STR(script_command_text(s, 4), "SELECT :x");
		script_free(s);
	}

	/* \if structure and pipelines parse */
	s = parse_ok("if",
				 "\\if :a = 1\n SELECT 1;\n\\elif :a = 2\n SELECT 2;\n"
				 "\\else\n SELECT 3;\n\\endif\n"
				 "\\startpipeline\nSELECT 4;\n\\endpipeline\n");
	if (s != NULL)
	{
		CHECK_INT(script_command_count(s), 10);
		CHECK_INT(script_command_kind(s, 0), SCRIPT_CMD_IF);
		CHECK_INT(script_command_kind(s, 2), SCRIPT_CMD_ELIF);
		CHECK_INT(script_command_kind(s, 4), SCRIPT_CMD_ELSE);
		CHECK_INT(script_command_kind(s, 6), SCRIPT_CMD_ENDIF);
		CHECK_INT(script_command_kind(s, 7), SCRIPT_CMD_STARTPIPELINE);
		CHECK_INT(script_command_kind(s, 9), SCRIPT_CMD_ENDPIPELINE);
		script_free(s);
	}
}

static void
test_parse_errors(void)
{
	char		buf[2048];

	parse_fail("\\set i 1 +\n", buf, sizeof(buf));
	CHECK_STR(buf, "t:1: syntax error in command \"set\"\n"
			  "\\set i 1 +\n"
			  "          ^ error found here");

	parse_fail("SELECT 1;\n\\set i noSuchFunction()\n", buf, sizeof(buf));
	CHECK_STR(buf, "t:2: unexpected function name (noSuchFunction) in command \"set\"\n"
			  "\\set i noSuchFunction()\n"
			  "                    ^ error found here");

	parse_fail("\\set i ;", buf, sizeof(buf));
	CHECK_STR(buf, "t:1: unexpected character (;) in command \"set\"\n"
			  "\\set i ;\n"
			  "       ^ error found here");

	parse_fail("\\set i 99999999999999999999\n", buf, sizeof(buf));
	CHECK(strstr(buf, "bigint constant overflow (99999999999999999999)") != NULL);

	parse_fail("\\set d ln(1.0, 2.0))\n", buf, sizeof(buf));
	CHECK(strstr(buf, "unexpected number of arguments (ln) in command \"set\"") != NULL);
	parse_fail("\\set i greatest())\n", buf, sizeof(buf));
	CHECK(strstr(buf, "at least one argument expected (greatest)") != NULL);
	parse_fail("\\set i CASE TRUE THEN 1 ELSE 0 END\n", buf, sizeof(buf));
	CHECK(strstr(buf, "syntax error in command \"set\"") != NULL);
	parse_fail("\\set i 1 < 2 < 3\n", buf, sizeof(buf));
	CHECK(strstr(buf, "syntax error") != NULL);
	parse_fail("\\set i abc\n", buf, sizeof(buf));
	CHECK(strstr(buf, "unexpected function name (abc)") != NULL);
	parse_fail("\\set i\n", buf, sizeof(buf));
	CHECK(strstr(buf, "t:1: syntax error in command \"set\"") == buf);
	/*
	 * An empty expression: pgbench's caret is on the newline after it, or
	 * at the end of the script on the last character before it.
	 */
	CHECK_STR(buf, "t:1: syntax error in command \"set\"\n"
			  "\\set i\n"
			  "      ^ error found here");
	parse_fail("\\set i", buf, sizeof(buf));
	CHECK_STR(buf, "t:1: syntax error in command \"set\"\n"
			  "\\set i\n"
			  "     ^ error found here");
	/*
	 * pgbench lexes on to the end of the line after an error, and the last
	 * error its lexer meets there is the one reported
	 */
	parse_fail("\\set i }{\n", buf, sizeof(buf));
	CHECK_STR(buf, "t:1: unexpected character ({) in command \"set\"\n"
			  "\\set i }{\n"
			  "        ^ error found here");
	parse_fail("\\set i 'a b'\n", buf, sizeof(buf));
	CHECK_STR(buf, "t:1: unexpected character (') in command \"set\"\n"
			  "\\set i 'a b'\n"
			  "           ^ error found here");
	parse_fail("\\set i ) 99999999999999999999 + 1\n", buf, sizeof(buf));
	CHECK(strstr(buf, "t:1: bigint constant overflow (99999999999999999999) in command \"set\"") == buf);
	{
		/* :{alnum}+ is a variable, even :1 (undefined at run time) */
		Script	   *v = parse_ok("v", "\\set i :1 + :_x\n");

		if (v != NULL)
			script_free(v);
	}
	parse_fail("\\if", buf, sizeof(buf));
	CHECK_STR(buf, "t:1: syntax error in command \"if\"\n"
			  "\\if\n"
			  "  ^ error found here");

	parse_fail("\\set\n", buf, sizeof(buf));
	CHECK_STR(buf, "t:1: missing argument in command \"set\"");

	parse_fail("\\sleep 1 week\n", buf, sizeof(buf));
	CHECK_STR(buf, "t:1: unrecognized time unit, must be us, ms or s (week) in command \"sleep\"\n"
			  "\\sleep 1 week\n"
			  "         ^ error found here");
	parse_fail("\\sleep too many args\n", buf, sizeof(buf));
	CHECK(strstr(buf, "too many arguments in command \"sleep\"") != NULL);
	parse_fail("\\sleep\n", buf, sizeof(buf));
	CHECK(strstr(buf, "missing argument in command \"sleep\"\n\\sleep") != NULL);
	parse_fail("\\sleep abc\n", buf, sizeof(buf));
	CHECK(strstr(buf, "invalid sleep time, must be an integer (abc)") != NULL);

	parse_fail("\n\n\\nosuchcommand\n", buf, sizeof(buf));
	CHECK_STR(buf, "t:3: invalid command in command \"nosuchcommand\"\n\\nosuchcommand");

	parse_fail("\\shell echo hi\n", buf, sizeof(buf));
	CHECK(strstr(buf, "t:1: shell commands are not supported") == buf);
	CHECK(strstr(buf, "in command \"shell\"") != NULL);
	parse_fail("\\setshell v echo 1\n", buf, sizeof(buf));
	CHECK(strstr(buf, "in command \"setshell\"") != NULL);

	parse_fail("\\gset\n", buf, sizeof(buf));
	CHECK_STR(buf, "t:1: \\gset must follow an SQL command");
	parse_fail("\\set i +1\n\\gset\n", buf, sizeof(buf));
	CHECK_STR(buf, "t:2: \\gset must follow an SQL command (\\set i +1)");
	parse_fail("SELECT 1 AS i \\gset\n\\gset\n", buf, sizeof(buf));
	CHECK(strstr(buf, "\\gset must follow an SQL command") != NULL);
	parse_fail("SELECT 1 \\gset a b\n", buf, sizeof(buf));
	CHECK(strstr(buf, "too many arguments in command \"gset\"") != NULL);
	parse_fail("\\endif\n", buf, sizeof(buf));
	CHECK_STR(buf, "condition error in script \"t\" command 1: \\endif without matching \\if");
	parse_fail("\\if 1\n\\else\n\\elif 1\n\\endif\n", buf, sizeof(buf));
	CHECK_STR(buf, "condition error in script \"t\" command 3: \\elif after \\else");
	parse_fail("\\if 1\n\\else\n\\else\n\\endif\n", buf, sizeof(buf));
	CHECK(strstr(buf, "\\else after \\else") != NULL);
	parse_fail("\\if 1\nSELECT 1;\n", buf, sizeof(buf));
	CHECK_STR(buf, "condition error in script \"t\" command 3: \\if without matching \\endif");
	parse_fail("\\else\n", buf, sizeof(buf));
	CHECK(strstr(buf, "\\else without matching \\if") != NULL);
	parse_fail("\\endif extra\n", buf, sizeof(buf));
	CHECK(strstr(buf, "unexpected argument in command \"endif\"") != NULL);
	parse_fail("", buf, sizeof(buf));
	CHECK_STR(buf, "empty command list for script \"t\"");
	parse_fail("-- nothing\n  \n", buf, sizeof(buf));
	CHECK_STR(buf, "empty command list for script \"t\"");
}

static void
test_substitution(void)
{
	static const ScriptDefine defs[] = {{"name", "O'Brien"}, {"n1", "7"}};
	Script	   *s = parse_ok("sub",
							 "\\set aid 42\n"
							 "\\set d 1.5\n"
							 "SELECT :aid::int, ':aid', $$:d$$, :undef, :aid1, ::aid, :n1, :name, :aid:d;\n");
	ScriptClient *c;
	ScriptStep	st;
	ScriptError err;

	if (s == NULL)
		return;

	/* simple: defined variables substituted anywhere, "::" skipped */
	c = client_for(s, SCRIPT_QUERY_SIMPLE, 1, defs, 2);
	CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SQL);
	CHECK_INT(st.command, 2);
	CHECK_STR(st.sql, "SELECT 42::int, '42', $$1.5$$, :undef, :aid1, ::aid, 7, O'Brien, 421.5;");
	CHECK_INT(st.sql_len, strlen(st.sql));
	CHECK_INT(st.nparams, 0);
	script_sql_done(c);
	CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_END_OF_TRANSACTION);
	/* the next call starts over */
	CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SQL);
	script_client_free(c);

	/* extended: every :name becomes $n; undefined ones bind NULL */
	c = client_for(s, SCRIPT_QUERY_EXTENDED, 1, defs, 2);
	CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SQL);
	CHECK_STR(st.sql, "SELECT $1::int, '$2', $$$3$$, $4, $5, ::aid, $6, $7, $8$9;");
	CHECK_INT(st.nparams, 9);
	if (st.nparams == 9)
	{
		CHECK_STR(st.params[0], "42");
		CHECK_STR(st.params[1], "42");
		CHECK_STR(st.params[2], "1.5");
		CHECK(st.params[3] == NULL);
		CHECK(st.params[4] == NULL);
		CHECK_STR(st.params[5], "7");
		CHECK_STR(st.params[6], "O'Brien");
		CHECK_STR(st.params[7], "42");
		CHECK_STR(st.params[8], "1.5");
	}
	CHECK_INT(st.sql_index, 0);
	script_client_free(c);
	script_free(s);

	/* typed values render as pgbench renders them */
	CHECK_STR(eval_str("1.0/0"), "Infinity");
	CHECK_STR(eval_str("-1.0/0"), "-Infinity");
	CHECK_STR(eval_str("0.0/0"), "NaN");
	CHECK_STR(eval_str("pi()"), "3.14159265358979");
	CHECK_STR(eval_str("1 = 1"), "true");
	CHECK_STR(eval_str("NULL"), "NULL");

	/* too many parameters for the extended protocol */
	{
		char		text[4096];
		size_t		off;
		int			i;
		ScriptClientOptions o;

		off = (size_t) snprintf(text, sizeof(text), "\\set i 0\nSELECT LEAST(");
		for (i = 0; i < 256; i++)
			off += (size_t) snprintf(text + off, sizeof(text) - off, "%s:i", i ? ", " : "");
		snprintf(text + off, sizeof(text) - off, ")");
		s = parse_ok("many", text);
		if (s != NULL)
		{
			memset(&o, 0, sizeof(o));
			o.query_mode = SCRIPT_QUERY_PREPARED;
			CHECK(script_client_create(s, &o, &err) == NULL);
			CHECK(strstr(err.message, "statement has too many arguments (maximum is 255)") == err.message);
			o.query_mode = SCRIPT_QUERY_SIMPLE;
			c = script_client_create(s, &o, &err);
			CHECK(c != NULL);
			script_client_free(c);
			script_free(s);
		}
	}
}

static void
test_arithmetic(void)
{
	CHECK_STR(eval_str("1 + 2 * 3"), "7");
	CHECK_STR(eval_str("(1 + 2) * 3"), "9");
	CHECK_STR(eval_str("-7 / 2"), "-3");
	CHECK_STR(eval_str("-7 % 3"), "-1");
	CHECK_STR(eval_str("7.5 % 2"), "0");
	CHECK_STR(eval_str("1 + 2.5"), "3.5");
	CHECK_STR(eval_str("- - 3"), "3");
	CHECK_STR(eval_str("-9223372036854775808"), "-9223372036854775808");
	CHECK_STR(eval_str("9223372036854775807 + 1"), "ERROR: bigint add out of range");
	CHECK_STR(eval_str("(1<<62) + (1<<62)"), "ERROR: bigint add out of range");
	CHECK_STR(eval_str("0 - (1<<62) - (1<<62) - (1<<62)"), "ERROR: bigint sub out of range");
	CHECK_STR(eval_str("2 * (1<<62)"), "ERROR: bigint mul out of range");
	CHECK_STR(eval_str("-9223372036854775808 / -1"), "ERROR: bigint div out of range");
	CHECK_STR(eval_str("-9223372036854775808 % -1"), "0");
	CHECK_STR(eval_str("1/0"), "ERROR: division by zero");
	CHECK_STR(eval_str("1 % 0"), "ERROR: division by zero");
	CHECK_STR(eval_str("random(5, 3)"), "ERROR: empty range given to random");
	CHECK_STR(eval_str("random(-9223372036854775808, 9223372036854775807)"),
			  "ERROR: random range is too large");
	CHECK_STR(eval_str("random(7, 7)"), "7");
	CHECK_STR(eval_str("random_gaussian(0, 10, 1.0)"),
			  "ERROR: gaussian parameter must be at least 2.000000 (not 1.000000)");
	CHECK_STR(eval_str("random_exponential(0, 10, 0.0)"),
			  "ERROR: exponential parameter must be greater than zero (not 0.000000)");
	CHECK_STR(eval_str("random_zipfian(0, 10, 1)"),
			  "ERROR: zipfian parameter must be in range [1.001, 1000] (not 1.000000)");
	CHECK(strncmp(eval_str("int(1E32)"), "ERROR: double to int overflow for 100", 37) == 0);
	CHECK_STR(eval_str(":nosuchvariable"), "ERROR: undefined variable \"nosuchvariable\"");
	CHECK_STR(eval_str("NOT 0.0"), "ERROR: cannot coerce double to boolean");
	CHECK_STR(eval_str("TRUE + 2"), "ERROR: cannot coerce boolean to int");
	CHECK_STR(eval_str("ln(TRUE)"), "ERROR: cannot coerce boolean to double");
	CHECK_STR(eval_str("5 or 0"), "ERROR: cannot coerce int to boolean");
	CHECK_STR(eval_str("least(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)"),
			  "ERROR: too many function arguments, maximum is 16");
	CHECK_STR(eval_str("permute(0, 0)"), "ERROR: permute size parameter must be greater than zero");
	CHECK_STR(eval_str("TRUE AND NULL"), "NULL");
	CHECK_STR(eval_str("NULL OR TRUE"), "NULL");
	CHECK_STR(eval_str("FALSE AND 1/0 = 1"), "false");
	CHECK_STR(eval_str("1 IS TRUE"), "false");
	CHECK_STR(eval_str("NULL IS NOT FALSE"), "true");
	CHECK_STR(eval_str("~ 5"), "-6");
	CHECK_STR(eval_str("1 | 2 # 7 & 3"), "0");	/* all bitwise ops share a level, left-assoc */
	CHECK_STR(eval_str("NOT 1 < 2 AND TRUE"), "false");
	CHECK_STR(eval_str("2 > 1 IS TRUE"), "true");
	CHECK_STR(eval_str("abs(-9223372036854775808)"), "-9223372036854775808");
	CHECK_STR(eval_str("hash(10, 5432)"), "-5817877081768721676");
	CHECK_STR(eval_str("hash_fnv1a(10, 5432)"), "-7793829335365542153");
	CHECK_STR(eval_str("mod(-7, 3) + MOD(7, -3)"), "0");
	CHECK_STR(eval_str("greatest(1, 2.5, 2)"), "2.5");
	CHECK_STR(eval_str("sqrt(16)"), "4");
	CHECK_STR(eval_str("1e400"), "PARSE: double constant overflow");

	/* deep nesting is accepted up to a bound, then refused cleanly */
	{
		static char expr[8192];
		int			i,
					n;

		for (n = 0, i = 0; i < 900; i++)
			expr[n++] = '(';
		expr[n++] = '1';
		for (i = 0; i < 900; i++)
			expr[n++] = ')';
		expr[n] = '\0';
		CHECK_STR(eval_str(expr), "1");
		for (n = 0, i = 0; i < 3000; i++)
			expr[n++] = '(';
		expr[n] = '\0';
		CHECK_STR(eval_str(expr), "PARSE: expression is too deeply nested");
		for (n = 0, i = 0; i < 900; i++)
			n += snprintf(expr + n, sizeof(expr) - n, "1+");
		snprintf(expr + n, sizeof(expr) - n, "1");
		CHECK_STR(eval_str(expr), "901");
	}
}

static void
test_variables_and_sleep(void)
{
	static const ScriptDefine defs[] = {
		{"foo", "bla"}, {"badtrue", "trueXXX"}, {"ms", "25"}, {"big", "9999999999999999999"},
		{"empty", ""}, {"yes", "ye"}, {"nul", "NuLl"}, {"sp", " 12"}, {"sp2", "12 "}, {"sci", "1e3"}, {"minus", " -"},
	};
	Script	   *s;
	ScriptClient *c;
	ScriptStep	st;
	ScriptError err;
	ExprValue	v;

	s = parse_ok("v",
				 "\\sleep 10ms\n\\sleep 2\n\\sleep :ms us\n\\sleep 5 MS\n\\sleep :ms\n");
	if (s == NULL)
		return;
	c = client_for(s, SCRIPT_QUERY_SIMPLE, 1, defs, 11);
	CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SLEEP);
	CHECK_INT(st.sleep_usec, 10000);
	CHECK_INT(st.command, 0);
	CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SLEEP);
	CHECK_INT(st.sleep_usec, 2000000);
	CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SLEEP);
	CHECK_INT(st.sleep_usec, 25);
	CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SLEEP);
	CHECK_INT(st.sleep_usec, 5000);
	CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SLEEP);
	CHECK_INT(st.sleep_usec, 25000000);
	CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_END_OF_TRANSACTION);

	/* lazy typing of string variables */
	CHECK(script_client_get_value(c, "yes", &v, &err) && v.type == EXPR_VAL_BOOL && v.u.bval);
	CHECK(script_client_get_value(c, "nul", &v, &err) && v.type == EXPR_VAL_NULL);
	CHECK(script_client_get_value(c, "sp", &v, &err) && v.type == EXPR_VAL_INT && v.u.ival == 12);
	CHECK(!script_client_get_value(c, "sp2", &v, &err));	/* no trailing space */
	CHECK(script_client_get_value(c, "sci", &v, &err) && v.type == EXPR_VAL_DOUBLE && v.u.dval == 1000.0);
	CHECK(!script_client_get_value(c, "foo", &v, &err));
	CHECK_STR(err.message, "malformed variable \"foo\" value: \"bla\"");
	CHECK(!script_client_get_value(c, "badtrue", &v, &err));
	CHECK_STR(err.message, "malformed variable \"badtrue\" value: \"trueXXX\"");
	CHECK(!script_client_get_value(c, "big", &v, &err));
	CHECK_STR(err.message, "value \"9999999999999999999\" is out of range for type bigint");
	CHECK(!script_client_get_value(c, "empty", &v, &err));
	/* pgbench's is_an_int() takes spaces and a sign alone for an integer */
	CHECK(!script_client_get_value(c, "minus", &v, &err));
	CHECK_STR(err.message, "invalid input syntax for type bigint: \" -\"");
	/* automatic variables */
	CHECK_STR(script_client_get_string(c, "scale"), "1");
	CHECK_STR(script_client_get_string(c, "client_id"), "0");
	CHECK_STR(script_client_get_string(c, "random_seed"), "1");
	CHECK(script_client_get_string(c, "default_seed") != NULL);
	/* \gset-style storing */
	CHECK(script_store_result(c, "p_", "col", "12", &err));
	CHECK_STR(script_client_get_string(c, "p_col"), "12");
	CHECK(!script_store_result(c, "", "?column?", "1", &err));
	CHECK_STR(err.message, "error storing into variable ?column?");
	script_client_free(c);
	script_free(s);

	/* run-time sleep errors */
	s = parse_ok("v2", "\\sleep :nosuch\n");
	if (s != NULL)
	{
		c = client_for(s, SCRIPT_QUERY_SIMPLE, 1, defs, 10);
		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_ERROR);
		CHECK_STR(err.message, "sleep: undefined variable \"nosuch\"");
		CHECK_STR(err.command, "sleep");
		script_client_free(c);
		script_free(s);
	}
	s = parse_ok("v3", "\\sleep :foo\n");
	if (s != NULL)
	{
		c = client_for(s, SCRIPT_QUERY_SIMPLE, 1, defs, 10);
		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_ERROR);
		CHECK_STR(err.message, "sleep: invalid sleep time \"bla\" for variable \"foo\"");
		script_client_free(c);
		script_free(s);
	}

	/*
	 * \sleep overflows as pgbench 15's int does: atoi() is (int) strtol(),
	 * and the unit multiplies in int, wrapping (-fwrapv); a negative result
	 * sleeps not at all.
	 */
	{
		static const ScriptDefine sdefs[] = {
			{"s2147", "2147"}, {"s2148", "2148"}, {"s4295", "4295"},
			{"huge", "99999999999999999999"}, {"neg", "-5"}, {"lead", "  7xyz"},
			{"lmax", "9223372036854775807"}, {"u2g", "4294967297"}, {"mz", "-0"},
		};
		static const struct
		{
			const char *line;
			int64_t		usec;
		}			cases[] = {
			{"\\sleep :s2147\n", INT64_C(2147000000)},	/* fits in int */
			{"\\sleep :s2148\n", 0},	/* 2148000000 wraps negative */
			{"\\sleep :s4295\n", INT64_C(32704)},	/* 4295000000 - 2^32 */
			{"\\sleep :huge us\n", 0},	/* LONG_MAX, low 32 bits: -1 */
			{"\\sleep :lmax us\n", 0},
			{"\\sleep :u2g us\n", 1},	/* 2^32 + 1 keeps 1 */
			{"\\sleep :neg ms\n", 0},
			{"\\sleep :lead ms\n", 7000},
			{"\\sleep 2148\n", 0},
			{"\\sleep 2147483647 us\n", INT64_C(2147483647)},
			{"\\sleep 2147483648 us\n", 0},
			{"\\sleep 3000000 ms\n", 0},	/* 3e9 wraps negative */
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		{
			s = parse_ok("sl", cases[i].line);
			if (s == NULL)
				continue;
			c = client_for(s, SCRIPT_QUERY_SIMPLE, 1, sdefs, 9);
			CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SLEEP);
			if (st.sleep_usec != cases[i].usec)
				fprintf(stderr, "%s", cases[i].line);
			CHECK_INT(st.sleep_usec, cases[i].usec);
			script_client_free(c);
			script_free(s);
		}
		s = parse_ok("sl", "\\sleep :mz\n");
		if (s != NULL)
		{
			c = client_for(s, SCRIPT_QUERY_SIMPLE, 1, sdefs, 9);
			CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_ERROR);
			CHECK_STR(err.message, "sleep: invalid sleep time \"-0\" for variable \"mz\"");
			script_client_free(c);
			script_free(s);
		}
	}

	/* \set with an invalid target name fails at run time, as in pgbench */
	s = parse_ok("v4", "\\set . 1\n");
	if (s != NULL)
	{
		c = client_for(s, SCRIPT_QUERY_SIMPLE, 1, NULL, 0);
		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_ERROR);
		CHECK_STR(err.message, "set: invalid variable name: \".\"");
		CHECK_INT(err.command_index, 0);
		script_client_free(c);
		script_free(s);
	}

	/* invalid -D name */
	{
		static const ScriptDefine bad[] = {{"1x", "1"}};
		ScriptClientOptions o;

		s = parse_ok("v5", "SELECT 1;");
		memset(&o, 0, sizeof(o));
		o.defines = bad;
		o.ndefines = 1;
		CHECK(s != NULL && script_client_create(s, &o, &err) == NULL);
		CHECK_STR(err.message, "option: invalid variable name: \"1x\"");
		script_free(s);
	}
}

static void
test_conditionals_and_pipeline(void)
{
	Script	   *s = parse_ok("c",
							 "\\if :a = 1\nSELECT 'one';\n"
							 "\\elif :a = 2\n"
							 "  \\if :b\n SELECT 'two-b';\n  \\else\n SELECT 'two';\n  \\endif\n"
							 "\\elif 1/:a = 5\n SELECT 'never';\n"
							 "\\else\nSELECT 'other';\n\\endif\n"
							 "SELECT 'end';\n");
	ScriptStep	st;
	ScriptError err;
	static const struct
	{
		const char *a;
		const char *b;
		const char *want;
	}			cases[] = {
		{"1", "false", "SELECT 'one';"},
		{"2", "true", "SELECT 'two-b';"},
		{"2", "off", "SELECT 'two';"},
		{"3", "false", "SELECT 'other';"},
	};
	size_t		i;

	if (s == NULL)
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		ScriptDefine d[2];
		ScriptClient *c;

		d[0].name = "a";
		d[0].value = cases[i].a;
		d[1].name = "b";
		d[1].value = cases[i].b;
		c = client_for(s, SCRIPT_QUERY_SIMPLE, 1, d, 2);
		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SQL);
		CHECK_STR(st.sql, cases[i].want);
		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SQL);
		CHECK_STR(st.sql, "SELECT 'end';");
		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_END_OF_TRANSACTION);
		script_client_free(c);
	}
	/* a = 0: the \elif 1/:a fails with division by zero in command "elif" */
	{
		ScriptDefine d[1] = {{"a", "0"}};
		ScriptClient *c = client_for(s, SCRIPT_QUERY_SIMPLE, 1, d, 1);

		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_ERROR);
		CHECK_STR(err.message, "division by zero");
		CHECK_STR(err.command, "elif");
		CHECK_INT(err.command_index, 8);
		script_client_free(c);
	}
	script_free(s);

	s = parse_ok("p", "\\startpipeline\nSELECT 1;\nSELECT 2 \\gset\n\\endpipeline\n");
	if (s != NULL)
	{
		ScriptClient *c = client_for(s, SCRIPT_QUERY_SIMPLE, 1, NULL, 0);

		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_ERROR);
		CHECK_STR(err.message, "cannot use pipeline mode with the simple query protocol");
		script_client_free(c);
		c = client_for(s, SCRIPT_QUERY_EXTENDED, 1, NULL, 0);
		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_PIPELINE_START);
		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SQL);
		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_ERROR);
		CHECK_STR(err.message, "\\gset is not allowed in pipeline mode");
		script_client_free(c);
		script_free(s);
	}
	s = parse_ok("p2", "\\startpipeline\nSELECT 1;\n");
	if (s != NULL)
	{
		ScriptClient *c = client_for(s, SCRIPT_QUERY_PREPARED, 1, NULL, 0);

		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_PIPELINE_START);
		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SQL);
		CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_ERROR);
		CHECK_STR(err.message, "end of script reached with pipeline open");
		script_client_free(c);
		script_free(s);
	}
}

/* ---------------------------------------------------------------------- */
/* what changes with the pgbench major (src/README.md, "pgbench per major") */

static void
test_pgbench_majors(void)
{
	static const int majors[] = {0, 14, 15, 16, 17, 18, 19, 20};
	/*
	 * where "\gset must follow an SQL command" is reported: before 18 as
	 * pgbench 15.20 prints it (run by hand, see the comment of
	 * script_gset_lineno), from 18 the line of the \gset
	 */
	static const struct
	{
		const char *text;
		int			line15;
		int			line18;
		const char *more;
	}			gsets[] = {
		{"\\gset\nSELECT 1;\n\n", 3, 1, NULL},
		{"\\set x 1\n\n\\gset\nSELECT 1;\n\n", 2, 3, "\\set x 1"},
		{"SELECT 1 \\gset\n\n\\gset\nSELECT 1;\n\n", 2, 3, NULL},
		{"\n\n\\gset\n", 3, 3, NULL},
		{"\\gset", 1, 1, NULL},
		{"-- c;\n\\gset\nselect 1;\n", 3, 2, NULL},
		{"SELECT 1;\n\n\\set x 1\n\\gset\n", 4, 4, "\\set x 1"},
		{"SELECT 1\n\\set x 1 \\\n + 1\n\n\\gset\n\n", 4, 5, "\\set x 1 \\\n + 1"},
		{"SELECT (1;\n2)\n;\\gset\n\\gset", 4, 4, NULL},
		{"SELECT 1;\n\\set a 1\n\\set b 2\n\n\n\\aset\n", 4, 6, "\\set b 2"},
	};
	const char *sync = "\\startpipeline\nSELECT 1;\n\\syncpipeline\nSELECT 2;\n\\endpipeline\n";
	/*
	 * psql's lexer keeps a BEGIN ... END body of CREATE FUNCTION/PROCEDURE
	 * whole; 19 also inside CREATE SCHEMA (the counts pgbench 15.20, 16.15,
	 * 17.11, 18.6 and 19beta3 give, run by hand with an \\endif after each)
	 */
	static const struct
	{
		const char *text;
		int			ncmds;
		int			ncmds19;
	}			blocks[] = {
		{"CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END;\nSELECT 2;\n", 2, 2},
		{"create or replace procedure p() begin atomic select case when true then 1 end; select 2; end;\nSELECT 3;\n", 2, 2},
		{"SELECT 1;\nCREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END;\n", 2, 2},
		/* a meta-command does not end the keywords noted: no routine here */
		{"SELECT 1 \\gset\nCREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END;\n", 3, 3},
		{"CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT :begin; SELECT 1begin; END;\n", 1, 1},
		{"CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1 \\; SELECT 2; END;\nSELECT 3;\n", 2, 2},
		{"CREATE FUNCTION f(\"begin\" int) RETURNS int LANGUAGE sql RETURN 1; SELECT 'begin';\n", 2, 2},
		{"BEGIN; SELECT 1; END;\n", 3, 3},
		{"CREATE SCHEMA s CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END;\nSELECT 2;\n", 3, 2},
		{"CREATE SCHEMA s CREATE TABLE t (a int) CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END;\nSELECT 2;\n", 3, 2},
	};
	size_t		i,
				k;

	/* no options, and majors before 15, read as pgbench 15 */
	{
		ScriptError err;
		Script	   *s = script_parse("d", "SELECT 1;\n", NULL, &err);

		CHECK(s != NULL);
		if (s != NULL)
		{
			CHECK_INT(script_pgbench_major(s), 15);
			script_free(s);
		}
	}

	for (k = 0; k < sizeof(majors) / sizeof(majors[0]); k++)
	{
		ScriptParseOptions o = {majors[k]};
		int			major = majors[k] < 15 ? 15 : majors[k];
		ScriptError err;
		Script	   *s;
		char		buf[1024];
		char		want[1024];

		/* \syncpipeline: pgbench 17's */
		s = script_parse("t", sync, &o, &err);
		if (major < 17)
		{
			CHECK(s == NULL);
			script_error_format(&err, buf, sizeof(buf));
			CHECK_STR(buf, "t:3: invalid command in command \"syncpipeline\"\n\\syncpipeline");
			if (s != NULL)
				script_free(s);
		}
		else
		{
			ScriptClient *c;
			ScriptStep	st;

			CHECK(s != NULL);
			if (s == NULL)
				continue;
			CHECK_INT(script_pgbench_major(s), major);
			CHECK_INT(script_command_kind(s, 2), SCRIPT_CMD_SYNCPIPELINE);
			CHECK_STR(script_command_name(s, 2), "syncpipeline");
			CHECK_STR(script_command_first_line(s, 2), "\\syncpipeline");
			c = client_for(s, SCRIPT_QUERY_EXTENDED, 1, NULL, 0);
			CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_PIPELINE_START);
			CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SQL);
			CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_PIPELINE_SYNC);
			CHECK_INT(st.command, 2);
			CHECK(script_client_in_pipeline(c));
			CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SQL);
			CHECK_STR(st.sql, "SELECT 2;");
			CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_PIPELINE_END);
			CHECK(!script_client_in_pipeline(c));
			CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_END_OF_TRANSACTION);
			script_client_free(c);
			script_free(s);

			/* the name is case-blind and takes no argument, as \endpipeline */
			s = script_parse("t", "\\startpipeline\n\\SyncPipeline\n\\endpipeline\n", &o, &err);
			CHECK(s != NULL);
			if (s != NULL)
				script_free(s);
			s = script_parse("t", "\\startpipeline\n\\syncpipeline now\n\\endpipeline\n", &o, &err);
			CHECK(s == NULL);
			script_error_format(&err, buf, sizeof(buf));
			CHECK_STR(buf, "t:2: unexpected argument in command \"syncpipeline\"\n\\syncpipeline now");
			if (s != NULL)
				script_free(s);

			/* outside a pipeline: pgbench's run-time error */
			s = script_parse("t", "SELECT 1;\n\\syncpipeline\n", &o, &err);
			CHECK(s != NULL);
			if (s != NULL)
			{
				c = client_for(s, SCRIPT_QUERY_EXTENDED, 1, NULL, 0);
				CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_SQL);
				CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_ERROR);
				CHECK_STR(err.message, "not in pipeline mode");
				CHECK_STR(err.command, "syncpipeline");
				CHECK_INT(err.command_index, 1);
				script_client_free(c);
				script_free(s);
			}
			/* a sync does not close the pipeline */
			s = script_parse("t", "\\startpipeline\n\\syncpipeline\n", &o, &err);
			CHECK(s != NULL);
			if (s != NULL)
			{
				c = client_for(s, SCRIPT_QUERY_PREPARED, 1, NULL, 0);
				CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_PIPELINE_START);
				CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_PIPELINE_SYNC);
				CHECK_INT(script_step(s, c, &st, &err), SCRIPT_STEP_ERROR);
				CHECK_STR(err.message, "end of script reached with pipeline open");
				script_client_free(c);
				script_free(s);
			}
		}

		for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++)
		{
			s = script_parse("t", blocks[i].text, &o, &err);
			CHECK(s != NULL);
			if (s == NULL)
				continue;
			CHECK_INT(script_command_count(s), major >= 19 ? blocks[i].ncmds19 : blocks[i].ncmds);
			script_free(s);
		}

		/* the line of a misplaced \gset or \aset */
		for (i = 0; i < sizeof(gsets) / sizeof(gsets[0]); i++)
		{
			s = script_parse("t", gsets[i].text, &o, &err);
			CHECK(s == NULL);
			if (s != NULL)
			{
				script_free(s);
				continue;
			}
			snprintf(want, sizeof(want), "t:%d: \\gset must follow an SQL command%s%s%s",
					 major < 18 ? gsets[i].line15 : gsets[i].line18,
					 gsets[i].more ? " (" : "", gsets[i].more ? gsets[i].more : "",
					 gsets[i].more ? ")" : "");
			script_error_format(&err, buf, sizeof(buf));
			CHECK_STR(buf, want);
		}
	}
}

/* ---------------------------------------------------------------------- */
/* script mixes: one client, several scripts, one variable table */

static ScriptClient *
mix_client_for(const Script *const *scripts, int n, ScriptQueryMode mode,
			   uint64_t seed, const ScriptDefine *defs, int ndefs)
{
	ScriptClientOptions o;
	ScriptError err;
	ScriptClient *c;

	memset(&o, 0, sizeof(o));
	o.query_mode = mode;
	o.scale = 1;
	o.random_seed = seed;
	o.default_seed = script_seed_default_seed(seed, 1);
	script_seed_client(seed, 0, &o.prng);
	o.defines = defs;
	o.ndefines = ndefs;
	c = script_client_create_multi(scripts, n, &o, &err);
	if (c == NULL)
		fprintf(stderr, "client_create_multi: %s\n", err.message);
	CHECK(c != NULL);
	return c;
}

/* run the selected script to end of transaction; record the script index */
static ScriptStepKind
run_tx_client(ScriptClient *c, ScriptError *err, int *script_out)
{
	ScriptStep	st;

	for (;;)
	{
		ScriptStepKind k = script_step_client(c, &st, err);

		if (script_out)
			*script_out = st.script;
		if (k == SCRIPT_STEP_SQL)
			script_sql_done(c);
		else if (k == SCRIPT_STEP_END_OF_TRANSACTION || k == SCRIPT_STEP_ERROR)
			return k;
	}
}

static void
test_script_mix(void)
{
	static const ScriptDefine defs[] = {{"d", "7"}};
	Script	   *sc[3];
	const Script *mix[2];
	ScriptClient *c;
	ScriptStep	st;
	ScriptError err;
	int			idx;

	/*
	 * The scripts name their variables in different orders, so their
	 * parse-time ids differ: a (x=0, y=1, d=2), b (z=0, y=1, x=2, p_n=3,
	 * m=4, w=5).
	 */
	sc[0] = parse_ok("a", "\\set x 5 + :d\n\\set y :x + 1\nSELECT 1 AS n \\gset p_\n");
	sc[1] = parse_ok("b", "\\set z :y * 10\nSELECT :x, :z, :client_id, :w;\n"
					 "\\set m :p_n + 1\n");
	sc[2] = parse_ok("c", "\\set q 1\n");
	if (sc[0] == NULL || sc[1] == NULL || sc[2] == NULL)
		return;
	mix[0] = sc[0];
	mix[1] = sc[1];

	c = mix_client_for(mix, 2, SCRIPT_QUERY_SIMPLE, 1, defs, 1);
	if (c == NULL)
		return;
	CHECK_INT(script_client_script_count(c), 2);
	CHECK_INT(script_client_selected(c), 0);
	CHECK(script_client_script(c, 1) == sc[1]);
	CHECK(script_client_script(c, 2) == NULL);

	/* script 0: \set in a, \gset stored by the driver */
	CHECK_INT(script_step_client(c, &st, &err), SCRIPT_STEP_SQL);
	CHECK_INT(st.script, 0);
	CHECK_INT(st.command, 2);
	CHECK_STR(st.store_prefix, "p_");
	CHECK(script_store_result(c, st.store_prefix, "n", "42", &err));
	CHECK_INT(script_step_client(c, &st, &err), SCRIPT_STEP_END_OF_TRANSACTION);
	CHECK_INT(st.script, 0);
	CHECK_INT(get_int(c, "x"), 12);
	CHECK_INT(get_int(c, "y"), 13);

	/* script 1 reads a's \set and \gset results and the -D/automatic ones */
	script_client_select(c, 1);
	CHECK_INT(script_client_selected(c), 1);
	CHECK_INT(script_step_client(c, &st, &err), SCRIPT_STEP_SQL);
	CHECK_INT(st.script, 1);
	CHECK_INT(st.command, 1);
	CHECK_STR(st.sql, "SELECT 12, 130, 0, :w;");	/* :w undefined: verbatim */
	CHECK_INT(script_step_client(c, &st, &err), SCRIPT_STEP_END_OF_TRANSACTION);
	CHECK_INT(st.script, 1);
	CHECK_INT(get_int(c, "z"), 130);
	CHECK_INT(get_int(c, "m"), 43);

	/* and the other way round: b's \set is seen by a */
	CHECK(script_client_set_string(c, "y", "100", &err));
	script_client_select(c, 1);
	CHECK_INT(run_tx_client(c, &err, &idx), SCRIPT_STEP_END_OF_TRANSACTION);
	CHECK_INT(idx, 1);
	CHECK_INT(get_int(c, "z"), 1000);

	/* a retry replays the selected script */
	script_client_select(c, 1);
	CHECK_INT(script_step_client(c, &st, &err), SCRIPT_STEP_SQL);
	script_client_restart_transaction(c);
	CHECK_INT(script_step_client(c, &st, &err), SCRIPT_STEP_SQL);
	CHECK_INT(st.script, 1);
	CHECK_INT(st.command, 1);

	/* script_step with an explicit script: switches only at a boundary */
	CHECK_INT(script_step(sc[0], c, &st, &err), SCRIPT_STEP_ERROR);
	CHECK_STR(err.message, "cannot switch to script \"a\" inside a transaction");
	script_client_reset(c);
	CHECK_INT(script_step(sc[0], c, &st, &err), SCRIPT_STEP_SQL);
	CHECK_INT(st.script, 0);
	CHECK_INT(script_client_selected(c), 0);
	CHECK_INT(script_step(sc[0], c, &st, &err), SCRIPT_STEP_END_OF_TRANSACTION);
	CHECK_INT(script_step(sc[2], c, &st, &err), SCRIPT_STEP_ERROR);
	CHECK_STR(err.message, "script \"c\" is not one of the client's scripts");

	/* an out-of-range selection fails the next step, a valid one recovers */
	script_client_select(c, 2);
	CHECK_INT(script_step_client(c, &st, &err), SCRIPT_STEP_ERROR);
	CHECK_STR(err.message, "invalid script index 2 (the client has 2)");
	script_client_select(c, -1);
	CHECK_INT(script_step_client(c, &st, &err), SCRIPT_STEP_ERROR);
	script_client_select(c, 0);
	CHECK_INT(run_tx_client(c, &err, &idx), SCRIPT_STEP_END_OF_TRANSACTION);
	CHECK_INT(idx, 0);
	script_client_free(c);

	/* extended protocol: each script's parameters come from the shared slots */
	c = mix_client_for(mix, 2, SCRIPT_QUERY_EXTENDED, 1, defs, 1);
	if (c != NULL)
	{
		CHECK_INT(run_tx_client(c, &err, NULL), SCRIPT_STEP_END_OF_TRANSACTION);
		script_client_select(c, 1);
		CHECK_INT(script_step_client(c, &st, &err), SCRIPT_STEP_SQL);
		CHECK_STR(st.sql, "SELECT $1, $2, $3, $4;");
		CHECK_INT(st.nparams, 4);
		CHECK_STR(st.params[0], "12");
		CHECK_STR(st.params[1], "130");
		CHECK_STR(st.params[2], "0");
		CHECK(st.params[3] == NULL);
		script_client_free(c);
	}

	/* the single-script API is the 1-script mix */
	c = client_for(sc[2], SCRIPT_QUERY_SIMPLE, 1, NULL, 0);
	if (c != NULL)
	{
		CHECK_INT(script_client_script_count(c), 1);
		CHECK_INT(script_step(sc[2], c, &st, &err), SCRIPT_STEP_END_OF_TRANSACTION);
		CHECK_INT(st.script, 0);
		CHECK_INT(get_int(c, "q"), 1);
		script_client_free(c);
	}

	/* creation errors */
	{
		ScriptClientOptions o;

		memset(&o, 0, sizeof(o));
		CHECK(script_client_create_multi(mix, 0, &o, &err) == NULL);
		CHECK_STR(err.message, "no script to run");
	}

	script_free(sc[0]);
	script_free(sc[1]);
	script_free(sc[2]);
}

/*
 * script_choose against pgbench's chooseScript.  Seed 5432, one client, one
 * thread: the base sequence's first draw seeds the client, the second is
 * :default_seed, the third seeds ts_choose_rs, the fourth ts_throttle_rs.
 *
 * Weights {1, 2, 0, 3}: total 6, draw uniform [0, 5] by bitmask rejection
 * (range 5 has its leftmost one at bit 2, so keep the top 3 bits, retry if
 * > 5).  The first raw draw of ts_choose_rs is 0x4db186baec0bc38d; its top 3
 * bits are 010 = 2; 2 - 1 = 1 >= 0, 1 - 2 = -1 < 0: script 1.  The whole
 * sequence below was derived the same way (a separate Python transcription
 * of pg_prng.c and chooseScript), and it is what pgbench 15.20 logs with
 * "pgbench -n -c1 -j1 -t20 --random-seed=5432 -f s0@1 -f s1@2 -f s2@0
 * -f s3@3 -l" (4th column of the transaction log).
 */
static void
test_script_choose(void)
{
	static const int64_t w4[] = {1, 2, 0, 3};
	static const int expect[20] = {1, 0, 3, 1, 3, 3, 1, 3, 3, 1,
	3, 3, 1, 3, 3, 3, 3, 0, 0, 0};
	static const int64_t w01[] = {0, 1};
	static const int64_t w305[] = {3, 0, 5};
	static const int64_t w1[] = {0};
	prng_state choose,
				throttle,
				sample,
				before;
	int			i;
	int			counts[3] = {0, 0, 0};

	script_seed_thread(5432, 1, true, 0, &choose, &throttle, &sample);
	before = choose;
	CHECK(prng_uint64(&before) == UINT64_C(0x4db186baec0bc38d));
	for (i = 0; i < 20; i++)
		CHECK_INT(script_choose(&choose, w4, 4, 6), expect[i]);
	/* exactly as many draws consumed as pgbench: the next raw value agrees */
	before = choose;
	CHECK(prng_uint64(&before) == UINT64_C(4201506725873541579));

	/* one script: pgbench returns 0 without drawing (whatever the weight) */
	before = choose;
	CHECK_INT(script_choose(&choose, w1, 1, 0), 0);
	CHECK_INT(script_choose(&choose, w4, 1, 1), 0);
	CHECK(choose.s0 == before.s0 && choose.s1 == before.s1);

	/* total weight 1: an empty range, no draw either; weight 0 never wins */
	for (i = 0; i < 5; i++)
		CHECK_INT(script_choose(&choose, w01, 2, 1), 1);
	CHECK(choose.s0 == before.s0 && choose.s1 == before.s1);

	/* a weight-0 script in the middle is never chosen; shares follow weights */
	for (i = 0; i < 80000; i++)
	{
		int			k = script_choose(&choose, w305, 3, 8);

		CHECK(k >= 0 && k < 3);
		if (k >= 0 && k < 3)
			counts[k]++;
	}
	CHECK_INT(counts[1], 0);
	CHECK(counts[0] > 29000 && counts[0] < 31000);	/* 3/8: 30000 */
	CHECK(counts[2] > 49000 && counts[2] < 51000);	/* 5/8: 50000 */

	/* refused inputs (pgbench refuses them before running) */
	before = choose;
	CHECK_INT(script_choose(&choose, w01, 2, 0), -1);
	CHECK_INT(script_choose(&choose, w01, 0, 1), -1);
	CHECK(choose.s0 == before.s0 && choose.s1 == before.s1);
}

/*
 * getPoissonRand on ts_throttle_rs (seed 5432, one client, one thread), for
 * -R 100 with one thread: center 1e6 / 100 = 10000 us.  Each value is
 * (int64) (-ln(1 - U) * 10000 + 0.5) with U the 52-bit double of the next
 * draw, derived by the same Python transcription; pgbench 15.20's log with
 * -R 100 shows consecutive scheduled starts 26037 and 9178 (+-1 from the
 * log's rounding) us apart, the 2nd and 3rd values.
 */
static void
test_poisson_delay(void)
{
	static const int64_t expect[10] = {4568, 26037, 9178, 1030, 145, 2254,
	20758, 2, 1472, 6915};
	prng_state choose,
				throttle,
				sample;
	int			i;
	double		sum = 0;

	script_seed_thread(5432, 1, true, 0, &choose, &throttle, &sample);
	for (i = 0; i < 10; i++)
		CHECK_INT(script_poisson_delay_usec(&throttle, 10000.0), expect[i]);

	/* the mean is the center */
	for (i = 0; i < 200000; i++)
	{
		int64_t		d = script_poisson_delay_usec(&throttle, 1000.0);

		CHECK(d >= 0);
		sum += (double) d;
	}
	CHECK(fabs(sum / 200000 - 1000.0) < 10.0);
}

static void
check_weight(const char *spec, const char *name, int64_t weight)
{
	char	   *n = NULL;
	int64_t		w = -42;
	ScriptError err;

	CHECK(script_parse_weight(spec, &n, &w, &err));
	CHECK_STR(n, name);
	CHECK_INT(w, weight);
	script_mem_free(n);
}

static void
check_weight_fail(const char *spec, const char *message)
{
	char	   *n = NULL;
	int64_t		w = -42;
	ScriptError err;

	CHECK(!script_parse_weight(spec, &n, &w, &err));
	CHECK(n == NULL);
	CHECK_INT(err.kind, SCRIPT_ERR_SCRIPT);
	CHECK_STR(err.message, message);
}

/* pgbench's parseScriptWeight; the messages were checked against 15.20 */
static void
test_parse_weight(void)
{
	check_weight("tpcb-like", "tpcb-like", 1);
	check_weight("select-only@5", "select-only", 5);
	check_weight("filen@me@1", "filen@me", 1);	/* split at the last '@' */
	check_weight("f.sql@0", "f.sql", 0);
	check_weight("f.sql@2147483647", "f.sql", 2147483647);
	check_weight("f.sql@ 5", "f.sql", 5);	/* strtol skips leading space */
	check_weight("f.sql@+3", "f.sql", 3);
	check_weight("f.sql@007", "f.sql", 7);	/* base 10, not octal */
	check_weight("@4", "", 4);
	check_weight_fail("f.sql@one", "invalid weight specification: @one");
	check_weight_fail("f.sql@", "invalid weight specification: @");
	check_weight_fail("f.sql@5 ", "invalid weight specification: @5 ");
	check_weight_fail("f.sql@0x1", "invalid weight specification: @0x1");
	check_weight_fail("f.sql@1.5", "invalid weight specification: @1.5");
	check_weight_fail("f.sql@99999999999999999999",
					  "invalid weight specification: @99999999999999999999");
	check_weight_fail("f.sql@-1",
					  "weight specification out of range (0 .. 2147483647): -1");
	check_weight_fail("f.sql@2147483648",
					  "weight specification out of range (0 .. 2147483647): 2147483648");
	check_weight_fail("f.sql@99999999999",
					  "weight specification out of range (0 .. 2147483647): 99999999999");
}

/* ---------------------------------------------------------------------- */
/* allocation hooks: counted, and nothing allocated on the hot path */

static long n_allocs = 0;

static void *
count_malloc(size_t n)
{
	n_allocs++;
	return malloc(n);
}

static void *
count_realloc(void *p, size_t n)
{
	n_allocs++;
	return realloc(p, n);
}

/*
 * -D values shared by the clients of a driver: N clients with a large value
 * allocate it not at all (copy on write), and each client's assignment
 * changes its own variable only.
 */
static size_t n_alloc_bytes = 0;

static void *
bytes_malloc(size_t n)
{
	n_alloc_bytes += n;
	return malloc(n);
}

static void *
bytes_realloc(void *p, size_t n)
{
	n_alloc_bytes += n;
	return realloc(p, n);
}

static void
test_shared_defines(void)
{
	static const ScriptAllocHooks hooks = {bytes_malloc, bytes_realloc, free};
	enum
	{
		NCLIENTS = 40, BIG = 1000000
	};
	char	   *big = malloc(BIG + 1);
	ScriptDefine defs[2];
	ScriptClient *cl[NCLIENTS];
	ScriptClientOptions o;
	ScriptError err;
	ScriptStep	st;
	Script	   *s;
	size_t		per_client;

	memset(big, 'x', BIG);
	big[BIG] = '\0';
	defs[0].name = "big";
	defs[0].value = big;
	defs[1].name = "n";
	defs[1].value = "41";
	script_set_alloc_hooks(&hooks);
	s = parse_ok("sd", "\\set n :n + 1\nselect :n, length(':big')\n");
	if (s != NULL)
	{
		memset(&o, 0, sizeof(o));
		o.query_mode = SCRIPT_QUERY_EXTENDED;
		o.defines = defs;
		o.ndefines = 2;
		o.share_defines = true;
		n_alloc_bytes = 0;
		for (int i = 0; i < NCLIENTS; i++)
		{
			o.client_id = i;
			cl[i] = script_client_create(s, &o, &err);
			CHECK(cl[i] != NULL);
		}
		per_client = n_alloc_bytes / NCLIENTS;
		/* far below one copy of the value per client */
		if (per_client >= BIG / 10)
			fprintf(stderr, "shared defines: %zu bytes per client\n", per_client);
		CHECK(per_client < BIG / 10);
		CHECK(n_alloc_bytes < BIG);

		/* the value reads the same, and is bound in place */
		CHECK(script_client_get_string(cl[3], "big") == big);
		CHECK_INT(script_step(s, cl[3], &st, &err), SCRIPT_STEP_SQL);
		CHECK(st.params[1] == big);
		CHECK_STR(script_client_get_string(cl[3], "n"), "42");
		/* copy on write: one client's \set changes its own variable only */
		CHECK_STR(script_client_get_string(cl[4], "n"), "41");
		CHECK(script_client_set_string(cl[5], "big", "mine", &err));
		CHECK_STR(script_client_get_string(cl[5], "big"), "mine");
		CHECK(script_client_get_string(cl[6], "big") == big);
		CHECK_INT((int) strlen(big), BIG);
		CHECK(big[0] == 'x');
		for (int i = 0; i < NCLIENTS; i++)
			script_client_free(cl[i]);

		/* without share_defines each client copies the value */
		o.share_defines = false;
		n_alloc_bytes = 0;
		cl[0] = script_client_create(s, &o, &err);
		CHECK(cl[0] != NULL);
		CHECK(n_alloc_bytes > BIG);
		CHECK(script_client_get_string(cl[0], "big") != big);
		script_client_free(cl[0]);
		script_free(s);
	}
	script_set_alloc_hooks(NULL);
	free(big);
}

static void
test_hot_path_allocations(void)
{
	static const ScriptAllocHooks hooks = {count_malloc, count_realloc, free};
	int			n;
	const ScriptBuiltin *b = script_builtins(&n);
	ScriptQueryMode mode;

	script_set_alloc_hooks(&hooks);
	for (mode = SCRIPT_QUERY_SIMPLE; mode <= SCRIPT_QUERY_PREPARED; mode++)
	{
		ScriptError err;
		Script	   *s;
		ScriptClient *c;
		long		before;
		int			i;

		n_allocs = 0;
		s = script_parse(b[0].desc, b[0].text, unit_opts, &err);
		CHECK(s != NULL);
		CHECK(n_allocs > 0);	/* the hooks are really used */
		c = client_for(s, mode, 7, NULL, 0);
		for (i = 0; i < 10; i++)
			run_tx(s, c, &err);
		before = n_allocs;
		for (i = 0; i < 10000; i++)
			CHECK_INT(run_tx(s, c, &err), SCRIPT_STEP_END_OF_TRANSACTION);
		CHECK_INT(n_allocs - before, 0);
		script_client_free(c);
		script_free(s);
	}

	/*
	 * A mix (tpcb-like@1, select-only@2, and a script sharing a variable
	 * with them): choosing and selecting the script of every transaction,
	 * and stepping it, allocates nothing once warmed up.
	 */
	for (mode = SCRIPT_QUERY_SIMPLE; mode <= SCRIPT_QUERY_PREPARED; mode++)
	{
		static const int64_t weights[] = {1, 2, 1};
		ScriptError err;
		Script	   *s[3];
		ScriptClient *c;
		prng_state	choose,
					throttle,
					sample;
		long		before;
		int			i,
					used[3] = {0, 0, 0};
		int64_t		delay = 0;

		s[0] = script_parse(b[0].desc, b[0].text, unit_opts, &err);
		s[1] = script_parse(b[2].desc, b[2].text, unit_opts, &err);
		s[2] = script_parse("mine", "\\set aid :aid + 1\nSELECT :aid, :bid;\n", unit_opts, &err);
		CHECK(s[0] != NULL && s[1] != NULL && s[2] != NULL);
		if (s[0] == NULL || s[1] == NULL || s[2] == NULL)
			break;
		c = mix_client_for((const Script *const *) s, 3, mode, 7, NULL, 0);
		if (c == NULL)
			break;
		script_seed_thread(7, 1, true, 0, &choose, &throttle, &sample);
		for (i = 0; i < 30; i++)
		{
			script_client_select(c, script_choose(&choose, weights, 3, 4));
			run_tx_client(c, &err, NULL);
		}
		before = n_allocs;
		for (i = 0; i < 10000; i++)
		{
			int			k = script_choose(&choose, weights, 3, 4);
			int			idx = -1;

			delay += script_poisson_delay_usec(&throttle, 100.0);
			script_client_select(c, k);
			CHECK_INT(run_tx_client(c, &err, &idx), SCRIPT_STEP_END_OF_TRANSACTION);
			CHECK_INT(idx, k);
			if (k >= 0 && k < 3)
				used[k]++;
		}
		CHECK_INT(n_allocs - before, 0);
		CHECK(used[0] > 0 && used[1] > used[0] && used[2] > 0);
		CHECK(delay > 0);
		script_client_free(c);
		script_free(s[0]);
		script_free(s[1]);
		script_free(s[2]);
	}
	script_set_alloc_hooks(NULL);
}

/* integers print exactly as "%lld" does, truncation included */
static void
test_int_format(void)
{
	const int64_t vals[] = {0, 1, -1, 9, 10, 99999, -100000, 1234567890123LL,
		INT64_MAX, INT64_MIN, INT64_MIN + 1};

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
	{
		ExprValue	v;
		char		got[32];
		char		want[32];
		size_t		sizes[] = {sizeof(got), 4, 1};

		v.type = EXPR_VAL_INT;
		v.u.ival = vals[i];
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		{
			int			gl = expr_value_format(&v, got, sizes[k]);
			int			wl = snprintf(want, sizes[k], "%lld", (long long) vals[i]);

			CHECK_INT(gl, wl);
			CHECK_STR(got, want);
		}
	}
}

/* ----------------------------------------------------------------------
 * Parsing is linear, and the interrupt hook stops it cleanly
 * ---------------------------------------------------------------------- */

static double
cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a script of n distinct variables, set and used; returns malloc'd text */
static char *
many_variables_script(int n, const char *prefix)
{
	size_t		cap = (size_t) n * 64 + 64;
	char	   *text = malloc(cap);
	size_t		len = 0;

	for (int i = 0; i < n; i++)
		len += snprintf(text + len, cap - len, "\\set %s%d %d\nselect :%s%d;\n",
						prefix, i, i, prefix, i);
	return text;
}

/* seconds of CPU to parse two such scripts and make a client of the mix (best of 3) */
static double
time_many_variables(int n)
{
	char	   *a = many_variables_script(n, "v");
	char	   *b = many_variables_script(n, "v");	/* same names: shared slots */
	double		best = 1e9;

	for (int rep = 0; rep < 3; rep++)
	{
		ScriptError err;
		double		t0 = cpu_seconds();
		Script	   *s[2];
		ScriptClient *c;
		ScriptClientOptions opts;

		s[0] = script_parse("a", a, unit_opts, &err);
		s[1] = script_parse("b", b, unit_opts, &err);
		CHECK(s[0] != NULL && s[1] != NULL);
		memset(&opts, 0, sizeof(opts));
		opts.scale = 1;
		c = script_client_create_multi((const Script *const *) s, 2, &opts, &err);
		CHECK(c != NULL);
		script_client_free(c);
		script_free(s[0]);
		script_free(s[1]);
		if (cpu_seconds() - t0 < best)
			best = cpu_seconds() - t0;
	}
	free(a);
	free(b);
	return best;
}

static long live_allocs = 0;
static int	interrupt_calls = 0;
static int	interrupt_after = 0;

static void *
live_malloc(size_t n)
{
	live_allocs++;
	return malloc(n);
}

static void
live_free(void *p)
{
	live_allocs--;
	free(p);
}

static bool
interrupt_hook(void)
{
	return ++interrupt_calls > interrupt_after;
}

static void
test_parse_linear_and_interruptible(void)
{
	static const ScriptAllocHooks hooks = {live_malloc, realloc, live_free};
	double		t_small = time_many_variables(4000);
	double		t_large = time_many_variables(40000);
	ScriptError err;
	Script	   *s;
	char	   *big = many_variables_script(40000, "w");
	size_t		exprcap = 600000;
	char	   *expr = malloc(exprcap);
	size_t		elen = 0;

	/*
	 * 10 times more variables: about 10 times the time when linear, 100
	 * times when quadratic (the old linear search took 32 s for 80000).
	 * Generous: noise on a shared machine must not fail it.
	 */
	printf("test_script: 4000 variables %.4f s, 40000 variables %.4f s (ratio %.1f)\n",
		   t_small, t_large, t_large / (t_small > 1e-6 ? t_small : 1e-6));
	CHECK(t_large < 40 * t_small + 0.05);

	/* the hook stops a huge script; nothing leaks; the error says why */
	script_set_alloc_hooks(&hooks);
	live_allocs = 0;
	interrupt_calls = 0;
	interrupt_after = 3;
	script_set_interrupt_hook(interrupt_hook);
	s = script_parse("big", big, unit_opts, &err);
	CHECK(s == NULL);
	CHECK_INT(err.kind, SCRIPT_ERR_INTERRUPTED);
	CHECK_STR(err.message, "parsing was interrupted");
	CHECK_INT(live_allocs, 0);

	/* and a huge expression, stopped inside expr.c */
	elen = snprintf(expr, exprcap, "\\set x greatest(0");
	for (int i = 0; i < 100000; i++)
		elen += snprintf(expr + elen, exprcap - elen, ",%d", i % 10);
	snprintf(expr + elen, exprcap - elen, ")");
	interrupt_calls = 0;
	s = script_parse("expr", expr, unit_opts, &err);
	CHECK(s == NULL);
	CHECK_INT(err.kind, SCRIPT_ERR_INTERRUPTED);
	CHECK_INT(live_allocs, 0);

	/* a hook that never asks to stop changes nothing; the stop is not sticky */
	interrupt_after = 1 << 30;
	s = script_parse("big", big, unit_opts, &err);
	CHECK(s != NULL);
	CHECK_INT(script_command_count(s), 80000);
	script_free(s);
	s = script_parse("expr", expr, unit_opts, &err);
	CHECK(s != NULL);
	script_free(s);
	CHECK_INT(live_allocs, 0);
	script_set_interrupt_hook(NULL);
	script_set_alloc_hooks(NULL);
	free(big);
	free(expr);
}

int
main(void)
{
	static const ScriptParseOptions pgbench19 = {19};

	/*
	 * Every test in pgbench 15's language (the default), then again in
	 * pgbench 19's: nothing they check differs between majors; what does is
	 * test_pgbench_majors's.
	 */
	for (int pass = 0; pass < 2; pass++)
	{
		unit_opts = pass == 0 ? NULL : &pgbench19;
		test_prng();
		test_random_seeded();
		test_pgbench_expressions();
		test_builtins();
		test_splitting();
		test_parse_errors();
		test_substitution();
		test_arithmetic();
		test_variables_and_sleep();
		test_conditionals_and_pipeline();
		test_script_mix();
		test_script_choose();
		test_poisson_delay();
		test_parse_weight();
		test_hot_path_allocations();
		test_shared_defines();
		test_int_format();
	}
	test_pgbench_majors();
	/* timed: once */
	test_parse_linear_and_interruptible();

	printf("test_script: %d checks, %d failed\n", n_checks, n_failed);
	return n_failed == 0 ? 0 : 1;
}
