/*
 * fuzz_script.c -- libFuzzer target for src/lang/script.c, src/lang/expr.c, src/lang/prng.c.
 *
 * Owns: turning an arbitrary byte string into calls of the standalone script
 * API the way a driver (src/run/driver.c) would make them, plus a few cheap
 * consistency checks (oracles) that abort on violated header contracts.
 *
 * The first input byte selects the mode:
 *
 *   '='  expression mode: the rest (up to the first NUL) is
 *        (a) parsed directly with expr_parse() from an exactly-sized,
 *            unterminated heap copy (so ASan sees any read past len), with a
 *            resolver handing out ids and a get_var callback returning typed
 *            values / errors per id, then evaluated with expr_eval();
 *        (b) fed to expr_value_from_string() and expr_valid_variable_name();
 *        (c) wrapped as "\set x <rest>\nSELECT :x;\n\if :x\n\endif\n" and run
 *            through script mode below.
 *   '!'  allocation-failure mode: the next two bytes give N and a flag;
 *        allocation number N made through the script_mem_* hooks fails (and,
 *        if the flag's low bit is set, every later one too); the rest of the
 *        input is run through script mode.
 *   any other byte: script mode on the whole input (up to the first NUL):
 *        script_parse() in the language of pgbench 15 + (length % 5), so
 *        that the corpus reads in every major's (15 to 19; \syncpipeline
 *        and the line of a misplaced \gset differ); on failure
 *        script_error_format(); on success walk
 *        every command accessor, then for each query mode (simple, extended,
 *        prepared) create a client (fixed seed 5432, several -D defines) and
 *        drive script_step() for at most MAX_STEPS steps: SQL is acknowledged
 *        with script_sql_done() (except every third one, which exercises the
 *        implicit acknowledgement), \gset / \aset get a fake one-row result
 *        through script_store_result() (column names taken from "AS name" in
 *        the SQL, else "?column?" as PostgreSQL would name it), sleeps are
 *        instantly elapsed, pipeline steps are checked against
 *        script_client_in_pipeline(), one transaction is restarted with
 *        script_client_restart_transaction(); the client stops on ERROR or
 *        after MAX_TX END_OF_TRANSACTIONs.  Then the parsed script and the
 *        built-ins run as a weighted mix in one client (multi-script API,
 *        script_choose, script_poisson_delay_usec).  The first line also goes
 *        through script_parse_weight().  Every error is formatted.
 *
 * Must not: leak (run with -detect_leaks=1), print on the normal path, or
 * depend on anything but the three standalone modules.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "script.h"

#define MAX_INPUT	16384
#define MAX_STEPS	2000
#define MAX_TX		3

/* abort with a message: libFuzzer records the input as a crash */
#define ORACLE(cond, ...) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "fuzz_script oracle failed: %s: ", #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			abort(); \
		} \
	} while (0)

static volatile size_t sink;

static void
touch(const char *s, size_t n)
{
	size_t		i,
				h = 0;

	for (i = 0; i < n; i++)
		h = h * 31 + (unsigned char) s[i];
	sink += h;
}

static void
touch_str(const char *s)
{
	if (s != NULL)
		touch(s, strlen(s));
}

/* ---------------------------------------------------------------------
 * Allocation hooks with optional failure injection
 * --------------------------------------------------------------------- */

static bool fail_armed = false;
static bool fail_sticky = false;
static long fail_countdown = 0;

static bool
should_fail(void)
{
	if (!fail_armed)
		return false;
	if (fail_countdown > 0)
	{
		fail_countdown--;
		return false;
	}
	if (!fail_sticky)
		fail_armed = false;
	return true;
}

static void *
hook_malloc(size_t size)
{
	return should_fail() ? NULL : malloc(size);
}

static void *
hook_realloc(void *ptr, size_t size)
{
	return should_fail() ? NULL : realloc(ptr, size);
}

static void
hook_free(void *ptr)
{
	free(ptr);
}

static const ScriptAllocHooks hooks = {hook_malloc, hook_realloc, hook_free};

#define MAX_BUILTINS 8
static Script *builtin_scripts[MAX_BUILTINS];
static int	n_builtin_scripts = 0;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const ScriptBuiltin *b;
	int			nb,
				i;

	(void) argc;
	(void) argv;
	script_set_alloc_hooks(&hooks);
	b = script_builtins(&nb);
	for (i = 0; i < nb && i < MAX_BUILTINS; i++)
	{
		ScriptError err;
		Script	   *bs = script_parse(b[i].desc, b[i].text, NULL, &err);

		if (bs == NULL)
		{
			char		buf[4096];

			script_error_format(&err, buf, sizeof(buf));
			fprintf(stderr, "built-in script %s does not parse: %s\n", b[i].name, buf);
			abort();
		}
		builtin_scripts[n_builtin_scripts++] = bs;	/* kept for the whole run */
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * Error formatting (with snprintf-contract checks)
 * --------------------------------------------------------------------- */

static void
format_error(const ScriptError *err)
{
	char		big[4096];
	char		small[17];
	char		one[1];
	int			n,
				m;

	n = script_error_format(err, big, sizeof(big));
	ORACLE(n >= 0, "negative length %d", n);
	if ((size_t) n < sizeof(big))
		ORACLE(strlen(big) == (size_t) n, "returned %d, wrote %zu", n, strlen(big));
	else
		ORACLE(strlen(big) == sizeof(big) - 1, "not NUL-terminated at truncation");

	m = script_error_format(err, small, sizeof(small));
	ORACLE(m == n, "length depends on buffer size: %d vs %d", m, n);
	ORACLE(strlen(small) < sizeof(small), "small buffer not terminated");
	ORACLE(strncmp(small, big, strlen(small)) == 0, "truncated output is not a prefix");

	one[0] = 'x';
	m = script_error_format(err, one, sizeof(one));
	ORACLE(m == n && one[0] == '\0', "size-1 buffer: %d vs %d", m, n);
	touch_str(err->source);
	touch_str(err->message);
}

/* ---------------------------------------------------------------------
 * Script mode
 * --------------------------------------------------------------------- */

static void
debug_cb(void *arg, int script_index, int command_index, const ExprValue *value)
{
	char		buf[64];
	int			n;

	(void) arg;
	(void) script_index;
	(void) command_index;
	n = expr_value_format(value, buf, 32);
	ORACLE(n >= 0 && n < 32, "expr_value_format length %d", n);
	touch_str(expr_type_name(value->type));
}

static const ScriptDefine defines[] = {
	{"foo", "42"},
	{"bar", "3.5"},
	{"flag", "true"},
	{"word", "hello"},
	{"nul", "null"},
	{"aid", "7"},
	{"neg", "-1"},
	{"big", "9223372036854775807"},
	{"ms", "10"},
	{"empty", ""},
};

/* values handed out as fake query results, in rotation */
static const char *const fake_values[] = {
	"1", "-42", "3.25", "true", "off", "null", "abc", "", "0",
	"9223372036854775808", "1e400", " 7 ", "nan", "-9223372036854775808",
};

static unsigned fake_counter = 0;

/*
 * Store a fake one-row result: one column per "AS name" in the SQL (at most
 * four), else "?column?".  Returns false if a store failed (err set).
 */
static bool
store_fake_row(ScriptClient *c, const ScriptStep *st, ScriptError *err)
{
	const char *p = st->sql;
	const char *end = st->sql + st->sql_len;
	int			ncols = 0;
	char		col[64];

	while (p + 3 < end && ncols < 4)
	{
		if ((p == st->sql || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\t') &&
			strncasecmp(p, "as", 2) == 0 && (p[2] == ' ' || p[2] == '\t'))
		{
			const char *q = p + 3;
			size_t		n = 0;

			while (q < end && (*q == ' ' || *q == '\t'))
				q++;
			while (q + n < end && n < sizeof(col) - 1 &&
				   q[n] != ' ' && q[n] != ',' && q[n] != ';' && q[n] != '\n' &&
				   q[n] != '\t' && q[n] != ')')
				n++;
			if (n > 0)
			{
				memcpy(col, q, n);
				col[n] = '\0';
				if (!script_store_result(c, st->store_prefix, col,
										 fake_values[fake_counter++ % (sizeof(fake_values) / sizeof(fake_values[0]))],
										 err))
					return false;
				ncols++;
			}
			p = q + n;
			continue;
		}
		p++;
	}
	if (ncols == 0)
		return script_store_result(c, st->store_prefix, "?column?",
								   fake_values[fake_counter++ % (sizeof(fake_values) / sizeof(fake_values[0]))],
								   err);
	return true;
}

/*
 * Drive one client.  nmix == 1: a single-script client created with
 * script_client_create() and stepped with script_step(s, ...).  nmix > 1: a
 * mix created with script_client_create_multi(), the next script chosen at
 * every transaction boundary with script_choose() (weights, choose_rs from
 * script_seed_thread()); selected with script_client_select() +
 * script_step_client() on even transactions, by script_step(mix[i], ...) on
 * odd ones.
 */
static void
run_client(const Script *const *mix, int nmix, const int64_t *weights,
		   ScriptQueryMode mode)
{
	const Script *s = mix[0];
	prng_state	choose_rs,
				throttle_rs,
				sample_rs;
	int64_t		total_weight = 0;
	int			cur = 0;
	int			max_tx = nmix > 1 ? 2 * MAX_TX + 2 : MAX_TX;
	ScriptClientOptions o;
	ScriptError err;
	ScriptClient *c;
	ScriptStep	st;
	int			steps,
				ntx = 0,
				nsql = 0;
	bool		restarted = false;
	static const char *const probe[] = {"x", "aid", "foo", "scale", "client_id",
	"default_seed", "random_seed", "one", "p_one"};
	size_t		i;

	memset(&o, 0, sizeof(o));
	o.query_mode = mode;
	o.client_id = 0;
	o.scale = 1;
	o.random_seed = 5432;
	o.default_seed = script_seed_default_seed(5432, 1);
	script_seed_client(5432, 0, &o.prng);
	o.defines = defines;
	o.ndefines = (int) (sizeof(defines) / sizeof(defines[0]));
	/* the drivers share the values (copy on write): fuzz both ways */
	o.share_defines = (mode != SCRIPT_QUERY_SIMPLE);
	o.debug = debug_cb;
	o.debug_arg = NULL;

	memset(&err, 0, sizeof(err));
	if (nmix == 1)
		c = script_client_create(s, &o, &err);
	else
		c = script_client_create_multi(mix, nmix, &o, &err);
	if (c == NULL)
	{
		format_error(&err);
		return;
	}
	ORACLE(script_client_script_count(c) == nmix, "script count");
	ORACLE(script_client_selected(c) == 0, "initial selection");
	if (nmix > 1)
	{
		int			j;

		script_seed_thread(5432, 1, false, 0, &choose_rs, &throttle_rs, &sample_rs);
		for (j = 0; j < nmix; j++)
			total_weight += weights[j];
		cur = script_choose(&choose_rs, weights, nmix, total_weight);
		ORACLE(cur >= 0 && cur < nmix && weights[cur] > 0, "chose %d", cur);
		script_client_select(c, cur);
		s = mix[cur];
	}

	for (steps = 0; steps < MAX_STEPS; steps++)
	{
		ScriptStepKind k;
		bool		was_in_pipeline = script_client_in_pipeline(c);

		memset(&err, 0, sizeof(err));
		if (nmix == 1 || ntx % 2 == 1)
			k = script_step(s, c, &st, &err);
		else
			k = script_step_client(c, &st, &err);
		ORACLE(k == st.kind, "returned %d but out->kind %d", (int) k, (int) st.kind);
		if (k != SCRIPT_STEP_ERROR)
		{
			ORACLE(st.script == cur, "step script %d, selected %d", st.script, cur);
			ORACLE(script_client_script(c, st.script) == s, "script pointer");
		}
		if (k != SCRIPT_STEP_ERROR && k != SCRIPT_STEP_END_OF_TRANSACTION)
			ORACLE(st.command >= 0 && st.command < script_command_count(s),
				   "command index %d out of [0,%d)", st.command,
				   script_command_count(s));

		switch (k)
		{
			case SCRIPT_STEP_SQL:
				ORACLE(st.sql != NULL, "SQL step without text");
				ORACLE(script_command_kind(s, st.command) == SCRIPT_CMD_SQL,
					   "SQL step for a non-SQL command %d", st.command);
				touch(st.sql, st.sql_len);
				if (mode == SCRIPT_QUERY_SIMPLE)
					ORACLE(st.nparams == 0, "params in simple mode");
				else
				{
					int			j;

					ORACLE(st.nparams >= 0 && st.nparams <= SCRIPT_MAX_PARAMS,
						   "nparams %d", st.nparams);
					ORACLE(st.nparams == script_sql_nparams(s, st.command),
						   "nparams %d vs %d", st.nparams,
						   script_sql_nparams(s, st.command));
					for (j = 0; j < st.nparams; j++)
						touch_str(st.params[j]);
				}
				if (st.store != SCRIPT_STORE_NONE)
				{
					ORACLE(!script_client_in_pipeline(c), "store in pipeline");
					touch_str(st.store_prefix);
					if (!store_fake_row(c, &st, &err))
					{
						format_error(&err);
						goto done;
					}
				}
				nsql++;
				if (!restarted && ntx == 0 && nsql == 4)
				{
					/* pretend a serialization failure: retry the transaction */
					restarted = true;
					script_client_restart_transaction(c);
					ORACLE(script_client_position(c) == 0, "restart position");
					ORACLE(!script_client_in_pipeline(c), "restart in pipeline");
					break;
				}
				/* every third SQL step relies on the implicit acknowledgement */
				if (nsql % 3 != 0)
					script_sql_done(c);
				break;

			case SCRIPT_STEP_SLEEP:
				ORACLE(st.sleep_usec >= 0, "negative sleep %" PRId64, st.sleep_usec);
				break;			/* instantly elapsed */

			case SCRIPT_STEP_PIPELINE_START:
				ORACLE(mode != SCRIPT_QUERY_SIMPLE, "pipeline in simple mode");
				ORACLE(!was_in_pipeline && script_client_in_pipeline(c),
					   "pipeline start state");
				break;

			case SCRIPT_STEP_PIPELINE_SYNC:
				ORACLE(was_in_pipeline && script_client_in_pipeline(c),
					   "pipeline sync state");
				break;

			case SCRIPT_STEP_PIPELINE_END:
				ORACLE(was_in_pipeline && !script_client_in_pipeline(c),
					   "pipeline end state");
				break;

			case SCRIPT_STEP_END_OF_TRANSACTION:
				ORACLE(!script_client_in_pipeline(c), "EOT in pipeline");
				ORACLE(script_client_position(c) == 0, "EOT position %d",
					   script_client_position(c));
				if (++ntx >= max_tx)
					goto done;
				if (nmix > 1)
				{
					int64_t		d = script_poisson_delay_usec(&throttle_rs,
															  1e6 / (1 + ntx));

					ORACLE(d >= 0, "negative throttle delay %" PRId64, d);
					cur = script_choose(&choose_rs, weights, nmix, total_weight);
					ORACLE(cur >= 0 && cur < nmix && weights[cur] > 0, "chose %d", cur);
					s = mix[cur];
					/* odd transactions: script_step(mix[cur]) selects it */
					if (ntx % 2 == 0)
					{
						script_client_select(c, cur);
						ORACLE(script_client_selected(c) == cur, "selected");
					}
				}
				break;

			case SCRIPT_STEP_ERROR:
				format_error(&err);
				goto done;

			default:
				ORACLE(false, "unknown step kind %d", (int) k);
		}
	}

done:
	/* read some variables back as a reporting layer would */
	for (i = 0; i < sizeof(probe) / sizeof(probe[0]); i++)
	{
		ExprValue	v;
		char		buf[32];

		touch_str(script_client_get_string(c, probe[i]));
		memset(&err, 0, sizeof(err));
		if (script_client_get_value(c, probe[i], &v, &err))
		{
			int			n = expr_value_format(&v, buf, sizeof(buf));

			ORACLE(n >= 0 && (size_t) n < sizeof(buf), "format length %d", n);
			sink += expr_value_truth(&v);
		}
		else
			format_error(&err);
	}
	(void) script_client_prng(c);
	script_client_reset(c);
	ORACLE(script_client_position(c) == 0, "reset position");
	script_client_free(c);
}

static void
fuzz_script_text(const char *text)
{
	ScriptError err;
	ScriptParseOptions opts;
	Script	   *s;
	int			i,
				n,
				nsql = 0;

	memset(&err, 0, sizeof(err));
	opts.pgbench_major = 15 + (int) (strlen(text) % 5);
	s = script_parse("fuzz.sql", text, &opts, &err);
	if (s == NULL)
	{
		ORACLE(err.kind != SCRIPT_ERR_NONE, "parse failed without error kind");
		format_error(&err);
		return;
	}
	ORACLE(script_pgbench_major(s) == opts.pgbench_major, "read as pgbench %d, not %d",
		   script_pgbench_major(s), opts.pgbench_major);

	touch_str(script_name(s));
	n = script_command_count(s);
	ORACLE(n > 0, "parsed script with %d commands", n);
	for (i = 0; i < n; i++)
	{
		ScriptCommandKind kind = script_command_kind(s, i);

		touch_str(script_command_name(s, i));
		touch_str(script_command_text(s, i));
		touch_str(script_command_first_line(s, i));
		sink += script_command_lineno(s, i);
		if (kind == SCRIPT_CMD_SQL)
		{
			const char *prefix = NULL;

			touch_str(script_sql_param_text(s, i));
			ORACLE(script_sql_index(s, i) == nsql, "sql index %d, want %d",
				   script_sql_index(s, i), nsql);
			nsql++;
			sink += script_sql_nparams(s, i);
			if (script_sql_store(s, i, &prefix) != SCRIPT_STORE_NONE)
				touch_str(prefix);
		}
	}
	ORACLE(nsql == script_sql_count(s), "sql count %d vs %d", nsql,
		   script_sql_count(s));

	{
		const Script *one = s;

		run_client(&one, 1, NULL, SCRIPT_QUERY_SIMPLE);
		run_client(&one, 1, NULL, SCRIPT_QUERY_EXTENDED);
		run_client(&one, 1, NULL, SCRIPT_QUERY_PREPARED);
	}

	/* a mix: the fuzzed script and the built-ins, sharing variables */
	if (n_builtin_scripts > 0)
	{
		const Script *mix[1 + MAX_BUILTINS];
		int64_t		weights[1 + MAX_BUILTINS];
		unsigned	h = (unsigned) strlen(text);
		int			j,
					nmix = 0;

		mix[nmix++] = s;
		for (j = 0; j < n_builtin_scripts; j++)
			mix[nmix++] = builtin_scripts[j];
		for (j = 0; j < nmix; j++)
			weights[j] = (h >> j) % 3;		/* 0..2: some never chosen */
		weights[0] += 1;
		run_client(mix, nmix, weights,
				   (h & 1) ? SCRIPT_QUERY_EXTENDED : SCRIPT_QUERY_SIMPLE);
	}
	script_free(s);
}

/* ---------------------------------------------------------------------
 * Expression mode
 * --------------------------------------------------------------------- */

#define MAX_VARS 32

typedef struct VarTable
{
	int			n;
	char	   *names[MAX_VARS];
} VarTable;

static int
resolve_cb(void *arg, const char *name, size_t len)
{
	VarTable   *vt = arg;
	int			i;

	for (i = 0; i < vt->n; i++)
		if (strlen(vt->names[i]) == len && memcmp(vt->names[i], name, len) == 0)
			return i;
	if (vt->n >= MAX_VARS)
		return -1;				/* "out of memory" */
	vt->names[vt->n] = malloc(len + 1);
	if (vt->names[vt->n] == NULL)
		return -1;
	memcpy(vt->names[vt->n], name, len);
	vt->names[vt->n][len] = '\0';
	return vt->n++;
}

static bool
get_var_cb(void *arg, int varid, const char *name, ExprValue *out, char *errmsg)
{
	VarTable   *vt = arg;

	ORACLE(varid >= 0 && varid < vt->n, "varid %d out of [0,%d)", varid, vt->n);
	touch_str(name);
	switch (varid % 8)
	{
		case 0:
			out->type = EXPR_VAL_INT;
			out->u.ival = 42;
			return true;
		case 1:
			out->type = EXPR_VAL_DOUBLE;
			out->u.dval = 2.5;
			return true;
		case 2:
			out->type = EXPR_VAL_BOOL;
			out->u.bval = true;
			return true;
		case 3:
			out->type = EXPR_VAL_NULL;
			return true;
		case 4:
			out->type = EXPR_VAL_INT;
			out->u.ival = INT64_MIN;
			return true;
		case 5:
			out->type = EXPR_VAL_DOUBLE;
			out->u.dval = -1e300;
			return true;
		case 6:
			out->type = EXPR_VAL_INT;
			out->u.ival = -1;
			return true;
		default:
			snprintf(errmsg, EXPR_MSG_SIZE, "undefined variable \"%s\"",
					 vt->names[varid]);
			return false;
	}
}

static void
expr_debug_cb(void *arg, const ExprValue *value)
{
	char		buf[32];

	(void) arg;
	expr_value_format(value, buf, sizeof(buf));
}

static void
fuzz_expr_text(const char *text, size_t len)
{
	VarTable	vt;
	ExprParseError perr;
	ExprNode   *node;
	char	   *copy;
	int			i;

	/* (a) direct parse + eval; the copy is not NUL-terminated on purpose */
	vt.n = 0;
	copy = malloc(len ? len : 1);
	if (copy == NULL)
		return;
	memcpy(copy, text, len);
	memset(&perr, 0, sizeof(perr));
	node = expr_parse(copy, len, (int) len + 1, resolve_cb, &vt, &perr);
	if (node == NULL)
	{
		ORACLE(strlen(perr.message) < EXPR_MSG_SIZE, "message");
		ORACLE(perr.offset >= 0 && perr.offset <= (int) len + 1,
			   "error offset %d for length %zu", perr.offset, len);
		touch_str(perr.message);
		touch_str(perr.more);
	}
	else
	{
		ExprEvalContext ctx;
		prng_state	prng;
		ExprValue	v;
		int			round;

		prng_seed(&prng, 5432);
		for (round = 0; round < 2; round++)
		{
			memset(&ctx, 0, sizeof(ctx));
			ctx.get_var = get_var_cb;
			ctx.var_arg = &vt;
			ctx.debug = expr_debug_cb;
			ctx.prng = &prng;
			if (expr_eval(node, &ctx, &v))
			{
				char		buf[32];
				int			n = expr_value_format(&v, buf, sizeof(buf));

				ORACLE(n >= 0 && (size_t) n < sizeof(buf), "format length %d", n);
				ORACLE(v.type >= EXPR_VAL_NULL && v.type <= EXPR_VAL_DOUBLE,
					   "result type %d", (int) v.type);
				sink += expr_value_truth(&v);
			}
			else
				ORACLE(strlen(ctx.errmsg) > 0, "eval failed without message");
		}
		expr_free(node);
	}
	free(copy);
	for (i = 0; i < vt.n; i++)
		free(vt.names[i]);

	/* (b) value helpers on the raw text */
	{
		char	   *z = malloc(len + 1);
		ExprValue	v;
		char		msg[EXPR_MSG_SIZE];

		if (z == NULL)
			return;
		memcpy(z, text, len);
		z[len] = '\0';
		if (expr_value_from_string(z, "v", &v, msg))
		{
			char		buf[32];
			int			n = expr_value_format(&v, buf, sizeof(buf));

			ORACLE(n >= 0 && (size_t) n < sizeof(buf), "format length %d", n);
		}
		sink += expr_valid_variable_name(z);
		free(z);
	}

	/* (c) through the script layer */
	{
		static const char pre[] = "\\set x ";
		static const char post[] = "\nSELECT :x AS one \\gset p_\n\\if :x\n\\endif\n";
		char	   *script = malloc(sizeof(pre) + len + sizeof(post));

		if (script == NULL)
			return;
		memcpy(script, pre, sizeof(pre) - 1);
		memcpy(script + sizeof(pre) - 1, text, len);
		memcpy(script + sizeof(pre) - 1 + len, post, sizeof(post));
		fuzz_script_text(script);
		free(script);
	}
}

/* ---------------------------------------------------------------------
 * Entry point
 * --------------------------------------------------------------------- */

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *text;
	size_t		len;

	if (size > MAX_INPUT)
		return 0;

	/* a NUL-terminated copy, cut at the first NUL (scripts are C strings) */
	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	len = strlen(text);

	if (len >= 1 && text[0] == '=')
		fuzz_expr_text(text + 1, len - 1);
	else if (len >= 3 && text[0] == '!')
	{
		fail_countdown = ((unsigned char) text[1]) * 4 + (((unsigned char) text[2]) >> 6);
		fail_sticky = (text[2] & 1) != 0;
		fail_armed = true;
		fuzz_script_text(text + 3);
		fail_armed = false;
	}
	else
		fuzz_script_text(text);

	/* -f/-b "NAME@WEIGHT" parsing, on the first line */
	{
		char		line[256];
		size_t		n = 0;
		char	   *name = NULL;
		int64_t		w = -1;
		ScriptError err;

		while (n < len && n < sizeof(line) - 1 && text[n] != '\n')
		{
			line[n] = text[n];
			n++;
		}
		line[n] = '\0';
		memset(&err, 0, sizeof(err));
		if (script_parse_weight(line, &name, &w, &err))
		{
			ORACLE(name != NULL && w >= 0 && w <= 2147483647, "weight %" PRId64, w);
			touch_str(name);
			script_mem_free(name);
		}
		else
			format_error(&err);
	}

	/* builtin lookup by prefix, on the first word */
	{
		char		word[32];
		size_t		n = 0;
		ScriptError err;

		while (n < len && n < sizeof(word) - 1 && text[n] != '\n' && text[n] != ' ')
		{
			word[n] = text[n];
			n++;
		}
		word[n] = '\0';
		memset(&err, 0, sizeof(err));
		if (script_builtin_find(word, &err) == NULL)
			touch_str(err.message);
	}

	free(text);
	return 0;
}
