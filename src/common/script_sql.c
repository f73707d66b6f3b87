/*-------------------------------------------------------------------------
 *
 * script_sql.c
 *	  The SQL face of the script language: pgbenchx.eval(), which evaluates
 *	  one expression exactly as pgbench's \set would; the script registry
 *	  (pgbenchx.add_script, drop_script, script_text, builtin_scripts) and
 *	  the lookup of a script by name for run_bench; variables given as jsonb.
 *
 * Registered scripts have owners: only a role with the privileges of the
 * owner replaces or drops one (runners cannot write custom_scripts; the
 * writes here run as the extension's owner after the check).  A new name
 * keeps to a safe set of characters and may not read as a built-in's name
 * or a prefix of one once case, '-', '_' and punctuation are ignored;
 * built-ins are always resolved first, by pgbench -b's rule, and a name that
 * reads as a built-in never resolves to a registered script.
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

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "owner.h"
#include "script.h"
#include "script_sql.h"
#include "searchpath.h"

PG_FUNCTION_INFO_V1(pgbenchx_eval);
PG_FUNCTION_INFO_V1(pgbenchx_builtin_scripts);
PG_FUNCTION_INFO_V1(pgbenchx_add_script);
PG_FUNCTION_INFO_V1(pgbenchx_script_text);
PG_FUNCTION_INFO_V1(pgbenchx_drop_script);

/* debug() prints what pgbench prints on stderr, as a NOTICE */
static void
script_sql_debug(void *arg, int script_index, int command_index, const ExprValue *value)
{
	char		buf[64];

	(void) arg;
	(void) script_index;		/* eval() runs one script */
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

const char *
script_sql_echo(const char *s)
{
	int			len = strlen(s);

	if (len <= SCRIPT_SQL_ECHO_MAX)
		return s;
	return psprintf("%.*s...", pg_mbcliplen(s, len, SCRIPT_SQL_ECHO_MAX), s);
}

/* The variables of a jsonb object as -D NAME=VALUE strings. */
int
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

			if (n >= SCRIPT_SQL_MAX_VARIABLES)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("at most %d variables are allowed", SCRIPT_SQL_MAX_VARIABLES)));
			if (!expr_valid_variable_name(key))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("invalid variable name: \"%s\"", script_sql_echo(key)),
						 errdetail("A variable name starts with a letter or an underscore, then letters, digits and underscores, as in pgbench."),
						 errhint("Rename the variable.")));
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
							 errmsg("variable \"%s\" must be a string, a number, a boolean or null",
									script_sql_echo(key)),
							 errdetail("pgbench variables hold scalar values."),
							 errhint("Pass variables => '{\"%s\": 1}'.", script_sql_echo(key))));
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
	ScriptDefine defs[SCRIPT_SQL_MAX_VARIABLES];
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

	script = script_sql_parse("eval", source.data, &err);
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

/* ---------------------------------------------------------------------
 * The script registry
 * --------------------------------------------------------------------- */

/* Raise pgbench's parse error for a script that does not parse. */
static void
script_sql_check(const char *name, const char *body)
{
	ScriptError err;
	Script	   *script = script_sql_parse(name, body, &err);

	if (script != NULL)
	{
		script_free(script);
		return;
	}
	/* \shell and \setshell parse under pgbench: say why they are refused here */
	if ((strcmp(err.command, "shell") == 0 || strcmp(err.command, "setshell") == 0) &&
		strcmp(err.message, SCRIPT_SHELL_REFUSED) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("script \"%s\" has an error: %s", name, err.message),
				 errdetail("%s", script_sql_error_text(&err)),
				 errhint("pgbenchx runs scripts inside the server, which runs no shell commands: remove \\%s, or run this script with stock pgbench.",
						 err.command)));
	ereport(ERROR,
			(errcode(ERRCODE_SYNTAX_ERROR),
			 errmsg("script \"%s\" has an error: %s", name, err.message),
			 errdetail("%s", script_sql_error_text(&err)),
			 errhint("Fix the script; it must run under stock pgbench as it is.")));
}

/*
 * A name as a reader takes it in: ASCII letters folded to lower case, digits
 * and bytes above 127 kept, every other byte ('-', '_', '.', spaces, any
 * punctuation) dropped.  "Select_Only." and "select-only" both read as
 * "selectonly".  out has room for strlen(name) + 1 bytes.
 */
static void
script_sql_normalise(const char *name, char *out)
{
	for (const unsigned char *p = (const unsigned char *) name; *p; p++)
	{
		if (*p >= 'A' && *p <= 'Z')
			*out++ = (char) (*p - 'A' + 'a');
		else if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p >= 0x80)
			*out++ = (char) *p;
	}
	*out = '\0';
}

/*
 * The built-in that name looks like, or NULL: name, normalised, equals a
 * built-in's normalised name or a prefix of it ("tpcb", "Select_Only",
 * "select-only.", "s", "-").  Such a name is never registered, and never
 * resolves to a registered script.
 */
static const char *
script_sql_builtin_lookalike(const char *name)
{
	int			n;
	const ScriptBuiltin *b = script_builtins(&n);
	char	   *norm = palloc(strlen(name) + 1);
	const char *result = NULL;

	script_sql_normalise(name, norm);
	for (int i = 0; i < n && result == NULL; i++)
	{
		char	   *bnorm = palloc(strlen(b[i].name) + 1);

		script_sql_normalise(b[i].name, bnorm);
		if (strncmp(bnorm, norm, strlen(norm)) == 0)
			result = b[i].name;
		pfree(bnorm);
	}
	pfree(norm);
	return result;
}

/*
 * Built-ins first, always, by pgbench -b's rule (the exact name or an
 * unambiguous prefix of it, case and punctuation as typed).  A name that
 * only looks like a built-in (script_sql_builtin_lookalike: "select_only",
 * "Select-Only", an ambiguous "s") never resolves to a registered script,
 * even if custom_scripts has a row of that name (one registered before 0.5,
 * or restored by pg_dump): the caller then reports it (script_sql_unknown).
 */
bool
script_sql_resolve(const char *name, char **display, char **body, bool *builtin,
				   char **owner)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(name)};
	const ScriptBuiltin *b;
	ScriptError err;
	int			nestlevel;

	/* a built-in, by unambiguous prefix, as pgbench -b */
	b = script_builtin_find(name, &err);
	if (b != NULL)
	{
		*display = pstrdup(b->name);
		*body = pstrdup(b->text);
		*builtin = true;
		*owner = NULL;
		return true;
	}
	if (script_sql_builtin_lookalike(name) != NULL)
		return false;
	/* a registered script, by its exact name */
	nestlevel = searchpath_pin();
	if (SPI_execute_with_args("SELECT s.body, s.owner::pg_catalog.text FROM pgbenchx.custom_scripts s "
							  "WHERE s.name OPERATOR(pg_catalog.=) $1",
							  1, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_with_args failed");
	searchpath_restore(nestlevel);
	if (SPI_processed == 0)
		return false;
	*display = pstrdup(name);
	*body = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	*owner = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
	*builtin = false;
	return true;
}

/*
 * The owner of the registered script named by the text Datum name, its row
 * locked FOR UPDATE; NULL if there is none.  Run as the extension's owner,
 * with SPI connected.
 */
static char *
script_sql_lock_owner(Datum name)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {name};

	if (SPI_execute_with_args("SELECT s.owner::pg_catalog.text FROM pgbenchx.custom_scripts s "
							  "WHERE s.name OPERATOR(pg_catalog.=) $1 FOR UPDATE",
							  1, types, values, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_with_args failed");
	if (SPI_processed == 0)
		return NULL;
	return SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
}

/* ERROR: role may not replace or drop script name of owner */
static void
script_sql_not_owner(const char *name, const char *owner, const char *action)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied to %s script \"%s\" of role \"%s\"", action, name, owner),
			 errdetail("Only its owner, the members of its owner and superusers may replace or drop a registered script."),
			 errhint("Register yours under another name.")));
}

/* pgbenchx.builtin_scripts(): name, description, body of each built-in */
Datum
pgbenchx_builtin_scripts(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const ScriptBuiltin *b;
	int			n;

	InitMaterializedSRF(fcinfo, 0);
	b = script_builtins(&n);
	for (int i = 0; i < n; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		values[0] = CStringGetTextDatum(b[i].name);
		values[1] = CStringGetTextDatum(b[i].desc);
		values[2] = CStringGetTextDatum(b[i].text);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * A new script name: 1 to 63 bytes of ASCII letters, digits, '_' and '-',
 * starting with a letter or a digit (^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$).
 * No '.', spaces or bytes above 127 (no look-alike letters of another
 * alphabet); no quotes, backslashes, '$' or control characters; neither '@'
 * nor ',': run_bench reads "name@weight, name@weight".  Case and '-'/'_'
 * are allowed (pgbench's own test files are named error_gset_no_SQL) but
 * do not tell names apart: script_sql_builtin_lookalike and
 * script_sql_check_registered_lookalike compare names normalised.  Names
 * stored before 0.5 under the older rule ('.', UTF-8) stay readable,
 * droppable and runnable by their exact name unless they read as a
 * built-in; only a new registration must follow this rule.
 */
static bool
script_sql_name_ok(const char *name)
{
	size_t		len = strlen(name);

	if (len == 0 || len >= 64)
		return false;
	for (const unsigned char *p = (const unsigned char *) name; *p; p++)
	{
		bool		alnum = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			(*p >= '0' && *p <= '9');

		if (!alnum && (p == (const unsigned char *) name || (*p != '_' && *p != '-')))
			return false;
	}
	return true;
}

/*
 * A new name may not read as another registered script's (its owner's
 * "hot-row" and a runner's "hot_row" or "Hot-Row"): a caller typing one
 * would run the other.  With SPI connected; ERROR if one does.
 */
static void
script_sql_check_registered_lookalike(const char *name)
{
	char	   *norm = palloc(strlen(name) + 1);

	script_sql_normalise(name, norm);
	if (SPI_execute("SELECT s.name, s.owner::pg_catalog.text FROM pgbenchx.custom_scripts s", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute failed");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		char	   *other = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		char	   *onorm = palloc(strlen(other) + 1);

		script_sql_normalise(other, onorm);
		if (strcmp(other, name) != 0 && strcmp(onorm, norm) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_OBJECT),
					 errmsg("script name \"%s\" reads as the registered script \"%s\"", name, script_sql_echo(other)),
					 errdetail("Names that differ only in case, '-', '_' or punctuation name one script; \"%s\" belongs to role \"%s\".",
							   script_sql_echo(other), SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2)),
					 errhint("Choose another name.")));
		pfree(onorm);
	}
	pfree(norm);
}

/* pgbenchx.add_script(name, body, replace): check, then register */
Datum
pgbenchx_add_script(PG_FUNCTION_ARGS)
{
	char	   *name;
	char	   *body;
	bool		replace;
	Oid			types[3] = {TEXTOID, TEXTOID, TEXTOID};
	Datum		values[3];
	volatile bool exists;
	Oid			caller;
	OwnerSwitch sw;
	const char *lookalike;

	for (int i = 0; i < 3; i++)
		if (PG_ARGISNULL(i))
		{
			static const char *const argnames[] = {"name", "body", "replace"};

			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("argument \"%s\" must not be null", argnames[i]),
					 errhint("Pass a name and the script's text, and replace => true or false.")));
		}
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	body = text_to_cstring(PG_GETARG_TEXT_PP(1));
	replace = PG_GETARG_BOOL(2);

	if (!script_sql_name_ok(name))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_NAME),
				 errmsg("invalid script name \"%s\"", script_sql_echo(name)),
				 errdetail("A script name has 1 to 63 bytes: ASCII letters, digits, '_' and '-', and starts with a letter or a digit."),
				 errhint("Choose another name.")));
	lookalike = script_sql_builtin_lookalike(name);
	if (lookalike != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("script name \"%s\" is taken by the built-in scripts", name),
				 errdetail("It reads as the built-in \"%s\" or a prefix of it, ignoring case, '-', '_' and punctuation; the built-ins (tpcb-like, simple-update, select-only) are named as pgbench -b names them and always resolved first.",
						   lookalike),
				 errhint("Choose another name.")));
	script_sql_check(name, body);

	caller = GetUserId();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	values[0] = CStringGetTextDatum(name);
	values[1] = CStringGetTextDatum(body);
	values[2] = CStringGetTextDatum(GetUserNameFromId(caller, false));
	/* runners only read custom_scripts: the write is the extension's, checked here */
	owner_switch_begin(&sw);
	PG_TRY();
	{
		char	   *owner;

		/* one registration at a time: two look-alikes cannot both pass the check */
		if (SPI_execute("LOCK TABLE pgbenchx.custom_scripts IN SHARE ROW EXCLUSIVE MODE", false, 0) != SPI_OK_UTILITY)
			elog(ERROR, "SPI_execute failed");
		owner = script_sql_lock_owner(values[0]);
		exists = owner != NULL;
		if (!exists)
			script_sql_check_registered_lookalike(name);
		if (exists && !replace)
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_OBJECT),
					 errmsg("script \"%s\" already exists", name),
					 errhint("Pass replace => true to replace it, or drop it with pgbenchx.drop_script('%s').", name)));
		if (exists && !owner_has_privs(caller, owner))
			script_sql_not_owner(name, owner, "replace");
		/* a replaced script keeps its owner, as CREATE OR REPLACE does */
		if (SPI_execute_with_args(exists ?
								  "UPDATE pgbenchx.custom_scripts SET body = $2, updated_at = pg_catalog.now() "
								  "WHERE name OPERATOR(pg_catalog.=) $1" :
								  "INSERT INTO pgbenchx.custom_scripts (name, body, owner) VALUES ($1, $2, $3::pg_catalog.name)",
								  3, types, values, NULL, false, 0) < 0)
			elog(ERROR, "SPI_execute_with_args failed");
	}
	PG_FINALLY();
	{
		owner_switch_end(&sw);
	}
	PG_END_TRY();
	SPI_finish();
	PG_RETURN_TEXT_P(cstring_to_text(name));
}

/*
 * pgbenchx.drop_script(name): drop a registered script, if the caller has
 * the privileges of its owner.  In C so that the check tests the caller
 * itself (GetUserId() before the switch), not a SECURITY DEFINER's owner.
 */
Datum
pgbenchx_drop_script(PG_FUNCTION_ARGS)
{
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	Oid			caller = GetUserId();
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(name)};
	OwnerSwitch sw;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	owner_switch_begin(&sw);
	PG_TRY();
	{
		char	   *owner;

		owner = script_sql_lock_owner(values[0]);
		if (owner == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("no registered script named \"%s\"", script_sql_echo(name)),
					 errdetail("Built-in scripts cannot be dropped; registered ones are listed in pgbenchx.custom_scripts."),
					 errhint("SELECT name FROM pgbenchx.scripts WHERE NOT builtin lists them.")));
		if (!owner_has_privs(caller, owner))
			script_sql_not_owner(name, owner, "drop");
		if (SPI_execute_with_args("DELETE FROM pgbenchx.custom_scripts s WHERE s.name OPERATOR(pg_catalog.=) $1",
								  1, types, values, NULL, false, 0) != SPI_OK_DELETE)
			elog(ERROR, "SPI_execute_with_args failed");
	}
	PG_FINALLY();
	{
		owner_switch_end(&sw);
	}
	PG_END_TRY();
	SPI_finish();
	PG_RETURN_VOID();
}

/* pgbenchx.script_text(name): the text, like pgbench --show-script */
Datum
pgbenchx_script_text(PG_FUNCTION_ARGS)
{
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *display;
	char	   *body;
	char	   *owner;
	bool		builtin;
	bool		found;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	found = script_sql_resolve(name, &display, &body, &builtin, &owner);
	if (found)
	{
		char	   *copy = SPI_palloc(strlen(body) + 1);

		strcpy(copy, body);
		body = copy;
	}
	SPI_finish();
	if (!found)
		script_sql_unknown(name);
	PG_RETURN_TEXT_P(cstring_to_text(body));
}

void
script_sql_unknown(const char *name)
{
	ScriptError err;
	const char *lookalike;

	if (script_builtin_find(name, &err) == NULL && strstr(err.message, "ambiguous"))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("%s", err.message),
				 errhint("Name the script fully: tpcb-like, simple-update or select-only.")));
	lookalike = script_sql_builtin_lookalike(name);
	if (lookalike != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("no script named \"%s\"", script_sql_echo(name)),
				 errdetail("\"%s\" reads as the built-in \"%s\" but is not its name nor a prefix of it as pgbench -b takes them; no registered script is used for a name that reads as a built-in.",
						   script_sql_echo(name), lookalike),
				 errhint("Name the built-in as pgbench does (\"%s\"), or rename a registered script of that name: its text is in pgbenchx.custom_scripts, and pgbenchx.drop_script drops it.",
						 lookalike)));
	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_OBJECT),
			 errmsg("no script named \"%s\"", script_sql_echo(name)),
			 errdetail("The built-in scripts are tpcb-like, simple-update and select-only (a unique prefix names one, as pgbench -b); others are registered with pgbenchx.add_script."),
			 errhint("SELECT name FROM pgbenchx.scripts lists them.")));
}

/*
 * The language core's allocation hooks in the server: palloc in the memory
 * context current at the call (the caller's, released with its statement or
 * transaction, also on error; the driver's own run context), never malloc,
 * so an error thrown while a script is parsed or a client is built leaks
 * nothing.  A pointer is freed or grown in the context it came from.
 */
static void *
script_sql_alloc(size_t size)
{
	return MemoryContextAllocHuge(CurrentMemoryContext, size);
}

static void *
script_sql_realloc(void *ptr, size_t size)
{
	return repalloc_huge(ptr, size);
}

static void
script_sql_free(void *ptr)
{
	pfree(ptr);
}

void
script_sql_install_hooks(void)
{
	static const ScriptAllocHooks hooks = {script_sql_alloc, script_sql_realloc, script_sql_free};

	script_set_alloc_hooks(&hooks);
	/* a cancel or statement_timeout stops the parsing of a huge script */
	script_set_interrupt_hook(script_sql_interrupt_pending);
}

bool
script_sql_interrupt_pending(void)
{
	return INTERRUPTS_PENDING_CONDITION() && INTERRUPTS_CAN_BE_PROCESSED() &&
		(QueryCancelPending || ProcDiePending);
}

const ScriptParseOptions script_sql_parse_opts = {
	.pgbench_major = PGX_PGBENCH_MAJOR
};

Script *
script_sql_parse(const char *name, const char *text, ScriptError *err)
{
	Script	   *script = script_parse(name, text, &script_sql_parse_opts, err);

	if (script == NULL && err->kind == SCRIPT_ERR_INTERRUPTED)
	{
		CHECK_FOR_INTERRUPTS();
		/* the interrupt was served without an error: say so */
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("parsing of script \"%s\" was interrupted", name)));
	}
	return script;
}
