/*-------------------------------------------------------------------------
 *
 * options.c
 *	  What a launch_* call was given: its options, read by name from the
 *	  jsonb object its SQL wrapper built, through one table; the client
 *	  range; run_replay's statements read from a server file.
 *
 * run_bench, both run_sweep and run_replay are SQL wrappers (src/sql/
 * 10_entry_points.sql) that hand their arguments by name, as one jsonb
 * object, to pgbenchx.launch_bench, launch_sweep and launch_replay
 * (pgbenchx.c; launch_part, a generator's share of a run, takes the same
 * object).  They read it here, with pgbenchx_options below, made from the
 * list of model/options_list.h, one line per option: its name, type, the
 * calls that take it, its default, whether NULL is allowed, where it goes,
 * the check that applies and how it reaches a generator's part.  An option
 * left out of the object takes its default; a name the table does not know
 * is refused.  Adding an option: src/README.md, "Starting a run: the
 * options seam".  A launch first checks that the installed SQL is the
 * library's version (owner.c): the tables a run writes change between
 * versions.
 *
 * A JSON null is SQL NULL, but for a jsonb option (variables, tags): there
 * it is the JSON value null, and SQL NULL is the key left out.
 *
 * This file reads and checks single values; the checks across options and
 * against the server are launch.c's, and so is the start of a run.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include "catalog/pg_authid.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "launch.h"
#include "options.h"
#include "owner.h"
#include "pg_compat.h"
#include "run_options.h"

/* Raise the standard error for a NULL argument that has no meaning. */
void
pgbx_null_argument(const char *argname)
{
	ereport(ERROR,
			(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			 errmsg("argument \"%s\" must not be null", argname),
			 errhint("Omit the argument to use its default.")));
}

typedef enum PgbxOptType
{
	PGBX_INT4,
	PGBX_INT8,
	PGBX_FLOAT8,
	PGBX_BOOL,
	PGBX_TEXT,
	PGBX_JSONB,
	PGBX_INT4_LIST,				/* a one-dimensional array of int, no NULL */
	PGBX_TEXT_LIST				/* a one-dimensional array of text, no NULL */
} PgbxOptType;

/* one option's value as read, for its check */
typedef union PgbxValue
{
	int32		i4;
	int64		i8;
	double		f8;
	bool		b;
	const char *text;
	Jsonb	   *jsonb;
	PgbxIntList list;
	PgbxTextList texts;
} PgbxValue;

typedef void (*PgbxCheck) (const PgbxValue *v);

typedef struct PgbxOption
{
	const char *name;
	PgbxOptType type;
	int			calls;			/* PGBX_* bits */
	bool		required;		/* no default: the object must have it */
	const char *default_value;	/* in SQL's text form; NULL: NULL */
	bool		nullable;		/* NULL means "not given" */
	const char *null_hint;		/* for NULL where not allowed; NULL: the usual */
	size_t		offset;			/* of the value in PgbxCall */
	int			given_offset;	/* of its "given" flag in PgbxCall, or -1 */
	PgbxCheck	check;			/* on a value given (not NULL), or NULL */
} PgbxOption;

/* -- the checks of single values (those across options are launch.c's) -- */

static void
pgbx_check_duration(const PgbxValue *v)
{
	if (v->i4 < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("duration must be at least 1 second, not %d", v->i4),
				 errhint("Pass a duration of 1 or more seconds, as pgbench -T.")));
}

static void
pgbx_check_jobs(const PgbxValue *v)
{
	if (v->i4 < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("jobs must be at least 1, not %d", v->i4),
				 errdetail("jobs is the number of driver workers, as pgbench -j."),
				 errhint("Pass 1 or more jobs, or leave it out to have it chosen.")));
}

static void
pgbx_check_transactions(const PgbxValue *v)
{
	if (v->i8 < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("transactions must be at least 1, not " INT64_FORMAT, v->i8),
				 errhint("Pass 1 or more transactions per client, as pgbench -t.")));
}

/*
 * The schedule and the limit become int64 microseconds: a rate below
 * PGBX_MIN_RATE (one transaction in more than 11 days) or a limit above
 * PGBX_MAX_LATENCY_LIMIT_MS would overflow them, and infinity means
 * nothing.
 */
static void
pgbx_check_rate(const PgbxValue *v)
{
	if (!(v->f8 >= PGBX_MIN_RATE && v->f8 <= PGBX_MAX_RATE))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid rate limit: %g", v->f8),
				 errdetail("rate is the target of transactions per second of all clients together, as pgbench -R."),
				 errhint("Pass a rate between %g and %g, or leave it out to run as fast as possible.",
						 PGBX_MIN_RATE, PGBX_MAX_RATE)));
}

static void
pgbx_check_sampling_rate(const PgbxValue *v)
{
	if (!(v->f8 > 0 && v->f8 <= 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid sampling rate: %g", v->f8),
				 errdetail("sampling_rate is the share of the transactions that log_transactions logs, as pgbench's --sampling-rate."),
				 errhint("Pass a sampling rate greater than 0 and at most 1.")));
}

static void
pgbx_check_latency_limit(const PgbxValue *v)
{
	if (!(v->f8 > 0 && v->f8 <= PGBX_MAX_LATENCY_LIMIT_MS))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid latency limit: %g", v->f8),
				 errdetail("latency_limit is in milliseconds, as pgbench -L."),
				 errhint("Pass a latency limit greater than 0 and at most %g.",
						 PGBX_MAX_LATENCY_LIMIT_MS)));
}

static void
pgbx_check_max_tries(const PgbxValue *v)
{
	if (v->i4 < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid number of maximum tries: %d", v->i4),
				 errhint("Pass max_tries => 1 (no retry, the default), more, or 0 for unlimited.")));
}

static void
pgbx_check_max_clock_offset(const PgbxValue *v)
{
	if (!(v->f8 >= 0 && v->f8 <= 3600000))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid max_clock_offset_ms: %g", v->f8),
				 errdetail("max_clock_offset_ms bounds the clock offset of each generator from this server, in milliseconds."),
				 errhint("Pass a value between 0 and 3600000.")));
}

static void
pgbx_check_repeats(const PgbxValue *v)
{
	if (v->i4 < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("repeats must be at least 1, not %d", v->i4),
				 errdetail("repeats runs each client count of the sweep that many times, interleaved."),
				 errhint("Pass repeats => 1 or more.")));
}

static void
pgbx_check_warmup(const PgbxValue *v)
{
	if (v->i4 < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("warmup must be at least 0, not %d", v->i4),
				 errdetail("warmup runs each configuration that many times at each client count before the counted runs; they are stored and flagged, not counted."),
				 errhint("Pass warmup => 0 or more.")));
}

static void
pgbx_check_target_ci(const PgbxValue *v)
{
	if (!(v->f8 > 0 && v->f8 < 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("target_ci must be between 0 and 1, not %g", v->f8),
				 errdetail("target_ci is the half-width of each ratio's 95%% interval to reach, relative to the ratio (0.02: within 2%%)."),
				 errhint("Pass target_ci => 0.02, with budget => seconds.")));
}

static void
pgbx_check_budget(const PgbxValue *v)
{
	if (v->i4 < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("budget must be at least 1 second, not %d", v->i4),
				 errdetail("budget bounds how long an experiment with target_ci runs, in seconds."),
				 errhint("Pass budget => 600 or more.")));
}

#define PGBX_AT(field)		offsetof(PgbxCall, field)
#define PGBX_NO_FLAG		(-1)

/* the C type of each of the list's types: a field must have it */
#define PGBX_CTYPE_INT4			int
#define PGBX_CTYPE_INT8			int64
#define PGBX_CTYPE_FLOAT8		double
#define PGBX_CTYPE_BOOL			bool
#define PGBX_CTYPE_TEXT			const char *
#define PGBX_CTYPE_JSONB		Jsonb *
#define PGBX_CTYPE_INT4_LIST	PgbxIntList
#define PGBX_CTYPE_TEXT_LIST	PgbxTextList
#ifdef HAVE__BUILTIN_TYPES_COMPATIBLE_P
#define PGBX_FIELD_IS(field, ctype) \
	__builtin_types_compatible_p(__typeof__(((PgbxCall *) NULL)->field), ctype)
#else
#define PGBX_FIELD_IS(field, ctype) \
	(sizeof(((PgbxCall *) NULL)->field) == sizeof(ctype))
#endif

/*
 * The options, one entry per line of options_list.h, in its order (the
 * wrappers'); the list says what each column means.  Ranges that depend on
 * other options (duration or transactions, max_tries 0, the clients and the
 * steps of a sweep) are launch.c's launch_check_arguments.
 */
#define PGBX_OPTION(id, name, type, calls, required, default_value, nullable, null_hint, field, given, check, to_part) \
	[PGBX_OPT_##id] = {name, PGBX_##type, calls, required, default_value, nullable, null_hint, PGBX_AT(field), given, check},
static const PgbxOption pgbenchx_options[PGBX_NOPTIONS] = {
#include "options_list.h"
};
#undef PGBX_OPTION

/*
 * What the build checks of each line: its field has its type's C type (a
 * field stored through the wrong pointer would be a run's wrong value), and
 * an option sent to the parts is one that launch_part takes (else every
 * part would refuse it).
 */
#define PGBX_OPTION(id, name, type, calls, required, default_value, nullable, null_hint, field, given, check, to_part) \
	StaticAssertDecl(PGBX_FIELD_IS(field, PGBX_CTYPE_##type), \
					 "the field of option \"" name "\" does not have its type"); \
	StaticAssertDecl(PGBX_TO_PART_##to_part == PGBX_TO_PART_NOT_SENT || ((calls) & PGBX_PART) != 0, \
					 "option \"" name "\" is sent to the parts, but launch_part does not take it");
#include "options_list.h"
#undef PGBX_OPTION

static const char *
pgbx_call_name(int call)
{
	switch (call)
	{
		case PGBX_BENCH:
			return "run_bench";
		case PGBX_SWEEP:
		case PGBX_LIST:
			return "run_sweep";
		case PGBX_PART:
			return "launch_part";
		case PGBX_EXPERIMENT:
			return "run_experiment";
		default:
			return "run_replay";
	}
}

static const char *
pgbx_type_name(PgbxOptType type)
{
	switch (type)
	{
		case PGBX_INT4:
			return "an integer";
		case PGBX_INT8:
			return "a bigint";
		case PGBX_FLOAT8:
			return "a number";
		case PGBX_BOOL:
			return "a boolean";
		case PGBX_TEXT:
			return "a string";
		case PGBX_JSONB:
			return "a jsonb value";
		case PGBX_INT4_LIST:
			return "an array of integers";
		case PGBX_TEXT_LIST:
			return "an array of text";
	}
	return "?";
}

static void
pgbx_wrong_type(const PgbxOption *opt)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("argument \"%s\" must be %s", opt->name, pgbx_type_name(opt->type)),
			 errhint("Call the SQL function, which passes its arguments with their types.")));
}

/* An integer from a JSON number or from text; refuses a fraction. */
static int64
pgbx_integer(const PgbxOption *opt, const char *text, int64 min, int64 max)
{
	char	   *end;
	int64		v;

	errno = 0;
	v = strtoi64(text, &end, 10);
	if (end == text || *end != '\0')
		pgbx_wrong_type(opt);
	if (errno == ERANGE || v < min || v > max)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("argument \"%s\" is out of range: %s", opt->name, text)));
	return v;
}

/* Convert one JSON value (not null, but for a jsonb option) to opt's type. */
static void
pgbx_convert(const PgbxOption *opt, JsonbValue *jv, PgbxValue *out)
{
	switch (opt->type)
	{
		case PGBX_INT4:
		case PGBX_INT8:
			if (jv->type != jbvNumeric)
				pgbx_wrong_type(opt);
			if (opt->type == PGBX_INT4)
				out->i4 = (int32) pgbx_integer(opt, numeric_normalize(jv->val.numeric), PG_INT32_MIN, PG_INT32_MAX);
			else
				out->i8 = pgbx_integer(opt, numeric_normalize(jv->val.numeric), PG_INT64_MIN, PG_INT64_MAX);
			break;
		case PGBX_FLOAT8:
			/* NaN and the infinities come as strings: to_jsonb writes them so */
			if (jv->type == jbvNumeric)
				out->f8 = DatumGetFloat8(DirectFunctionCall1(numeric_float8, NumericGetDatum(jv->val.numeric)));
			else if (jv->type == jbvString)
				out->f8 = DatumGetFloat8(DirectFunctionCall1(float8in,
															 CStringGetDatum(pnstrdup(jv->val.string.val, jv->val.string.len))));
			else
				pgbx_wrong_type(opt);
			break;
		case PGBX_BOOL:
			if (jv->type != jbvBool)
				pgbx_wrong_type(opt);
			out->b = jv->val.boolean;
			break;
		case PGBX_TEXT:
			if (jv->type != jbvString)
				pgbx_wrong_type(opt);
			out->text = pnstrdup(jv->val.string.val, jv->val.string.len);
			break;
		case PGBX_JSONB:
			out->jsonb = JsonbValueToJsonb(jv);
			break;
		case PGBX_INT4_LIST:
			{
				JsonbIterator *it;
				JsonbValue	elem;
				JsonbIteratorToken tok;
				int			n = 0;

				if (jv->type != jbvBinary || !JsonContainerIsArray(jv->val.binary.data))
					pgbx_wrong_type(opt);
				out->list.values = palloc(sizeof(int) * Max(JsonContainerSize(jv->val.binary.data), 1));
				it = JsonbIteratorInit(jv->val.binary.data);
				while ((tok = JsonbIteratorNext(&it, &elem, true)) != WJB_DONE)
				{
					if (tok != WJB_ELEM)
						continue;
					/* a nested array: the SQL array had more than one dimension */
					if (elem.type == jbvBinary)
						ereport(ERROR,
								(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
								 errmsg("%s must be a one-dimensional array", opt->name),
								 errhint("Pass an array such as '{1,2,4}'.")));
					if (elem.type == jbvNull)
						ereport(ERROR,
								(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
								 errmsg("argument \"%s\" must not contain NULL", opt->name),
								 errhint("Pass an array of client counts such as '{1,2,4}'.")));
					if (elem.type != jbvNumeric)
						pgbx_wrong_type(opt);
					out->list.values[n++] = (int) pgbx_integer(opt, numeric_normalize(elem.val.numeric),
															   PG_INT32_MIN, PG_INT32_MAX);
				}
				out->list.n = n;
			}
			break;
		case PGBX_TEXT_LIST:
			{
				JsonbIterator *it;
				JsonbValue	elem;
				JsonbIteratorToken tok;
				int			n = 0;

				if (jv->type != jbvBinary || !JsonContainerIsArray(jv->val.binary.data))
					pgbx_wrong_type(opt);
				out->texts.values = palloc(sizeof(char *) * Max(JsonContainerSize(jv->val.binary.data), 1));
				it = JsonbIteratorInit(jv->val.binary.data);
				while ((tok = JsonbIteratorNext(&it, &elem, true)) != WJB_DONE)
				{
					if (tok != WJB_ELEM)
						continue;
					if (elem.type == jbvBinary)
						ereport(ERROR,
								(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
								 errmsg("%s must be a one-dimensional array", opt->name),
								 errhint("Pass an array such as ARRAY['host=gen1 dbname=bench', 'host=gen2 dbname=bench'].")));
					if (elem.type == jbvNull)
						ereport(ERROR,
								(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
								 errmsg("argument \"%s\" must not contain NULL", opt->name),
								 errdetail("Element %d of %s is NULL.", n + 1, opt->name),
								 errhint("Pass one conninfo per generator, such as ARRAY['host=gen1 dbname=bench', 'host=gen2 dbname=bench'].")));
					if (elem.type != jbvString)
						pgbx_wrong_type(opt);
					out->texts.values[n++] = pnstrdup(elem.val.string.val, elem.val.string.len);
				}
				out->texts.n = n;
			}
			break;
	}
}

/* A default, from its text, as the SQL declaration writes it. */
static void
pgbx_default(const PgbxOption *opt, PgbxValue *out)
{
	switch (opt->type)
	{
		case PGBX_INT4:
			out->i4 = pg_strtoint32(opt->default_value);
			break;
		case PGBX_INT8:
			out->i8 = pg_strtoint64(opt->default_value);
			break;
		case PGBX_FLOAT8:
			out->f8 = pgx_float8in_internal(unconstify(char *, opt->default_value), NULL,
											"double precision", opt->default_value);
			break;
		case PGBX_BOOL:
			if (!parse_bool(opt->default_value, &out->b))
				elog(ERROR, "bad default of pgbenchx option \"%s\"", opt->name);
			break;
		case PGBX_TEXT:
			out->text = opt->default_value;
			break;
		case PGBX_JSONB:
			out->jsonb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(opt->default_value)));
			break;
		case PGBX_INT4_LIST:
		case PGBX_TEXT_LIST:
			elog(ERROR, "pgbenchx option \"%s\" cannot have a default", opt->name);
	}
}

/* Store a value (or NULL: not given) where the option goes. */
static void
pgbx_store(const PgbxOption *opt, PgbxCall *call, const PgbxValue *v, bool isnull)
{
	char	   *at = (char *) call + opt->offset;

	if (opt->given_offset != PGBX_NO_FLAG)
		*(bool *) ((char *) call + opt->given_offset) = !isnull;
	switch (opt->type)
	{
		case PGBX_INT4:
			*(int *) at = isnull ? 0 : v->i4;
			break;
		case PGBX_INT8:
			*(int64 *) at = isnull ? 0 : v->i8;
			break;
		case PGBX_FLOAT8:
			*(double *) at = isnull ? 0 : v->f8;
			break;
		case PGBX_BOOL:
			*(bool *) at = isnull ? false : v->b;
			break;
		case PGBX_TEXT:
			*(const char **) at = isnull ? NULL : v->text;
			break;
		case PGBX_JSONB:
			*(Jsonb **) at = isnull ? NULL : v->jsonb;
			break;
		case PGBX_INT4_LIST:
			*(PgbxIntList *) at = v->list;
			break;
		case PGBX_TEXT_LIST:
			if (isnull)
				memset(at, 0, sizeof(PgbxTextList));
			else
				*(PgbxTextList *) at = v->texts;
			break;
	}
}

/*
 * Read the options of call (a PGBX_* bit) from the object a wrapper built.
 * Every NULL and type is checked first, then each value given, in the
 * order of the table.
 */
void
pgbx_read_options(FunctionCallInfo fcinfo, int call, PgbxCall *out)
{
	Jsonb	   *options;
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	PgbxValue	values[lengthof(pgbenchx_options)];
	bool		isnull[lengthof(pgbenchx_options)];

	owner_require_sql_version("A run");
	memset(out, 0, sizeof(*out));
	memset(values, 0, sizeof(values));
	if (PG_ARGISNULL(0))
		pgbx_null_argument("options");
	options = PG_GETARG_JSONB_P(0);
	if (!JB_ROOT_IS_OBJECT(options))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the options of %s must be a jsonb object", pgbx_call_name(call)),
				 errhint("Call %s, which passes its arguments by name.", pgbx_call_name(call))));

	/* a name no option of this call has: a wrapper of another version, or a typo */
	it = JsonbIteratorInit(&options->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		bool		known = false;

		if (tok != WJB_KEY)
			continue;
		for (int i = 0; i < (int) lengthof(pgbenchx_options) && !known; i++)
			known = (pgbenchx_options[i].calls & call) != 0 &&
				strlen(pgbenchx_options[i].name) == (size_t) v.val.string.len &&
				strncmp(pgbenchx_options[i].name, v.val.string.val, v.val.string.len) == 0;
		if (!known)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s has no argument \"%s\"", pgbx_call_name(call),
							pnstrdup(v.val.string.val, v.val.string.len)),
					 errdetail("The SQL of pgbenchx and its library %s may be of different versions.",
							   PGBENCHX_LIBRARY_VERSION),
					 errhint("Run ALTER EXTENSION pgbenchx UPDATE, or leave the argument out.")));
	}

	/* each option: given, NULL, or its default */
	for (int i = 0; i < (int) lengthof(pgbenchx_options); i++)
	{
		const PgbxOption *opt = &pgbenchx_options[i];
		JsonbValue *jv;

		if ((opt->calls & call) == 0)
			continue;
		jv = getKeyJsonValueFromContainer(&options->root, opt->name, strlen(opt->name), NULL);
		if (jv == NULL)
		{
			if (opt->required)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("%s needs argument \"%s\"", pgbx_call_name(call), opt->name),
						 errhint("Call %s, which passes its arguments by name.", pgbx_call_name(call))));
			isnull[i] = (opt->default_value == NULL);
			if (!isnull[i])
				pgbx_default(opt, &values[i]);
		}
		else if (jv->type == jbvNull && opt->type != PGBX_JSONB)
		{
			if (!opt->nullable)
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("argument \"%s\" must not be null", opt->name),
						 errhint("%s", opt->null_hint ? opt->null_hint : "Omit the argument to use its default.")));
			isnull[i] = true;
		}
		else
		{
			isnull[i] = false;
			pgbx_convert(opt, jv, &values[i]);
		}
	}
	for (int i = 0; i < (int) lengthof(pgbenchx_options); i++)
	{
		const PgbxOption *opt = &pgbenchx_options[i];

		if ((opt->calls & call) == 0)
			continue;
		if (!isnull[i] && opt->check)
			opt->check(&values[i]);
		pgbx_store(opt, out, &values[i], isnull[i]);
	}
	/* generators => NULL: none; an empty array is launch.c's refusal */
	if (getKeyJsonValueFromContainer(&options->root, "generators", strlen("generators"), NULL) != NULL &&
		out->generators.values != NULL)
	{
		out->o.ngenerators = out->generators.n;
		out->o.generators = out->generators.values;
		if (out->o.ngenerators == 0)
			out->o.ngenerators = -1;	/* given, but empty */
	}
}


/*
 * A client range (run_sweep, run_replay, sweep_ladder): the same words for
 * the same mistake wherever a range is taken.
 */
void
pgbx_check_client_range(int min_clients, int max_clients)
{
	if (min_clients < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_clients must be at least 1, not %d", min_clients),
				 errdetail("A client range goes from min_clients up to max_clients, both numbers of clients."),
				 errhint("Pass min_clients => 1 or more.")));
	if (min_clients > max_clients)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_clients (%d) is greater than max_clients (%d)",
						min_clients, max_clients),
				 errdetail("A client range goes from min_clients up to max_clients."),
				 errhint("Pass min_clients <= max_clients.")));
}

/* Read a server-side file of statements, as pg_read_file would allow it. */
char *
pgbx_read_queries_file(const char *path)
{
	FILE	   *f;
	StringInfoData buf;
	char		chunk[8192];
	size_t		n;
	struct stat st;

	if (!has_privs_of_role(GetUserId(), ROLE_PG_READ_SERVER_FILES))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read the server file \"%s\"", path),
				 errdetail("Only roles with the privileges of pg_read_server_files may have run_replay read server files."),
				 errhint("Pass the statements themselves, or have a superuser grant pg_read_server_files.")));
	/*
	 * Only a regular file: opening a FIFO would block the backend in open(),
	 * where no cancel reaches it, and a device or a directory is no list.
	 */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a regular file", path),
				 errhint("Pass the path of a text file of SQL statements.")));
	f = AllocateFile(path, "r");
	if (f == NULL)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\" for reading: %m", path),
				 errhint("Pass an absolute path readable by the server's operating system user.")));
	initStringInfo(&buf);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
	{
		if (buf.len + n > PGBENCHX_MAX_REPLAY_BYTES)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("file \"%s\" is larger than %d bytes", path, PGBENCHX_MAX_REPLAY_BYTES),
					 errhint("Replay a shorter list.")));
		appendBinaryStringInfo(&buf, chunk, n);
		CHECK_FOR_INTERRUPTS();
	}
	if (ferror(f))
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", path)));
	FreeFile(f);
	if (memchr(buf.data, '\0', buf.len) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
				 errmsg("file \"%s\" contains a zero byte", path),
				 errhint("Replay a text file of SQL statements.")));
	return buf.data;
}
