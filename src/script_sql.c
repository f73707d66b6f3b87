/*-------------------------------------------------------------------------
 *
 * script_sql.c
 *	  The SQL face of the script language: pgbenchx.eval(), which evaluates
 *	  one expression exactly as pgbench's \set would.
 *
 * The language itself lives in script.c and expr.c as plain C with their own
 * error reporting; this file only turns SQL arguments into a one-command
 * script and a client, and turns the outcome back into a value or an
 * ERROR.  Everything the script module allocates is freed before any ERROR
 * is raised.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"

#include "script.h"

PG_FUNCTION_INFO_V1(pgbenchx_eval);

#define EVAL_MAX_VARIABLES	1000

/* debug() prints what pgbench prints on stderr, as a NOTICE */
static void
script_sql_debug(void *arg, int command_index, const ExprValue *value)
{
	char		buf[64];

	(void) arg;
	if (value->type == EXPR_VAL_NULL)
		ereport(NOTICE, (errmsg("debug(script=0,command=%d): null", command_index + 1)));
	else if (value->type == EXPR_VAL_BOOL)
		ereport(NOTICE, (errmsg("debug(script=0,command=%d): boolean %s", command_index + 1,
								value->u.bval ? "true" : "false")));
	else if (value->type == EXPR_VAL_INT)
		ereport(NOTICE, (errmsg("debug(script=0,command=%d): int " INT64_FORMAT, command_index + 1,
								(int64) value->u.ival)));
	else
	{
		expr_value_format(value, buf, sizeof(buf));
		ereport(NOTICE, (errmsg("debug(script=0,command=%d): double %s", command_index + 1, buf)));
	}
}

/* The variables of a jsonb object as -D NAME=VALUE strings. */
static int
script_sql_defines(Jsonb *vars, ScriptDefine *defs)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	int			n = 0;
	char	   *key = NULL;

	if (!JB_ROOT_IS_OBJECT(vars))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("variables must be a jsonb object"),
				 errhint("Pass variables => '{\"scale\": 10, \"name\": \"value\"}'.")));

	it = JsonbIteratorInit(&vars->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
			key = pnstrdup(v.val.string.val, v.val.string.len);
		else if (tok == WJB_VALUE)
		{
			char	   *value;

			if (n >= EVAL_MAX_VARIABLES)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("at most %d variables are allowed", EVAL_MAX_VARIABLES)));
			switch (v.type)
			{
				case jbvString:
					value = pnstrdup(v.val.string.val, v.val.string.len);
					break;
				case jbvNumeric:
					value = DatumGetCString(DirectFunctionCall1(numeric_out,
																NumericGetDatum(v.val.numeric)));
					break;
				case jbvBool:
					value = v.val.boolean ? "true" : "false";
					break;
				case jbvNull:
					value = "null";
					break;
				default:
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("variable \"%s\" must be a string, a number, a boolean or null", key),
							 errdetail("pgbench variables hold scalar values."),
							 errhint("Pass variables => '{\"%s\": 1}'.", key)));
					value = NULL;	/* keep compiler quiet */
			}
			defs[n].name = key;
			defs[n].value = value;
			n++;
		}
	}
	return n;
}

static char *
script_sql_error_text(const ScriptError *err)
{
	char		buf[2048];

	script_error_format(err, buf, sizeof(buf));
	return pstrdup(buf);
}

/*
 * pgbenchx.eval(expression text, variables jsonb, random_seed bigint)
 * returns text: the value \set would store, in pgbench's string form, or
 * NULL for NULL.
 */
Datum
pgbenchx_eval(PG_FUNCTION_ARGS)
{
	char	   *expression;
	ScriptDefine defs[EVAL_MAX_VARIABLES];
	int			ndefs = 0;
	uint64		seed;
	StringInfoData source;
	ScriptError err;
	Script	   *script;
	ScriptClient *client;
	ScriptClientOptions opts;
	ScriptStep	step;
	ScriptStepKind kind;
	ExprValue	value;
	char	   *failure = NULL;
	bool		syntax = false;
	char		buf[64];

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"expression\" must not be null"),
				 errhint("Pass an expression such as 'random(1, 10) * 2'.")));
	expression = text_to_cstring(PG_GETARG_TEXT_PP(0));
	if (strchr(expression, '\n') || strchr(expression, '\r'))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("expression must be on one line"),
				 errhint("Put the expression on one line, as after \\set in a script.")));
	if (!PG_ARGISNULL(1))
		ndefs = script_sql_defines(PG_GETARG_JSONB_P(1), defs);
	seed = PG_ARGISNULL(2) ? (uint64) GetCurrentTimestamp() : (uint64) PG_GETARG_INT64(2);

	initStringInfo(&source);
	appendStringInfo(&source, "\\set eval_result %s\n", expression);

	script = script_parse("eval", source.data, &err);
	if (script == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("%s", err.message),
				 errdetail("%s", script_sql_error_text(&err)),
				 errhint("See pgbench's expression syntax: operators, functions, :variables.")));

	memset(&opts, 0, sizeof(opts));
	opts.query_mode = SCRIPT_QUERY_SIMPLE;
	opts.client_id = 0;
	opts.scale = 1;
	opts.random_seed = seed;
	opts.default_seed = script_seed_default_seed(seed, 1);
	script_seed_client(seed, 0, &opts.prng);
	opts.defines = defs;
	opts.ndefines = ndefs;
	opts.debug = script_sql_debug;

	client = script_client_create(script, &opts, &err);
	if (client == NULL)
	{
		failure = script_sql_error_text(&err);
		syntax = true;
	}
	else
	{
		kind = script_step(script, client, &step, &err);
		if (kind == SCRIPT_STEP_ERROR)
			failure = pstrdup(err.message);
		else if (!script_client_get_value(client, "eval_result", &value, &err))
			failure = pstrdup(err.message);
		script_client_free(client);
	}
	script_free(script);

	if (failure)
		ereport(ERROR,
				(errcode(syntax ? ERRCODE_INVALID_PARAMETER_VALUE : ERRCODE_DATA_EXCEPTION),
				 errmsg("%s", failure),
				 errhint("The expression is evaluated as pgbench's \\set would, with pgbench's messages.")));

	if (value.type == EXPR_VAL_NULL)
		PG_RETURN_NULL();
	expr_value_format(&value, buf, sizeof(buf));
	PG_RETURN_TEXT_P(cstring_to_text(buf));
}
