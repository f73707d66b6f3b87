/*
 * script.h -- pgbench scripts: parsing, per-client variables, the step machine.
 *
 * Owns:
 *   - splitting a pgbench script into commands exactly as pgbench does with
 *     psql's lexer (SQL ends at an unquoted ";" outside parentheses, quotes,
 *     dollar quotes and comments are respected, "\;" joins statements,
 *     backslash meta-commands run to end of line with "\"+newline
 *     continuation), the meta-commands' static checks and pgbench's
 *     parse-error format;
 *   - both SQL forms: the text with ":var" for the simple protocol
 *     (substituted at run time) and the "$1, $2, ..." text plus parameter
 *     list for the extended/prepared protocols;
 *   - the per-client state (variables with pgbench's lazy string typing,
 *     shared by name by all the scripts of the client's mix, the selected
 *     script and command position, the random state, reusable buffers) and
 *     the step function a driver calls until it must do I/O or wait;
 *   - the built-in scripts and pgbench's seeding order;
 *   - pgbench's per-thread draws: the weighted script choice and the
 *     Poisson throttling delay, and the NAME@WEIGHT syntax;
 *   - nothing of memory: script.c and expr.c allocate through the hooks of
 *     script_mem.h.
 *
 * Must not: do any I/O (no libpq, no files, no printing), include PostgreSQL
 * headers, run shell commands (\shell and \setshell are refused at parse
 * time), or allocate per transaction once a client's buffers have grown.
 */
#ifndef PGBENCHX_SCRIPT_H
#define PGBENCHX_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "expr.h"
#include "prng.h"
#include "script_mem.h"

/* a name -> dense id index (script.c's private use) */
typedef struct ScriptNameIndex
{
	int		   *slots;			/* -1 empty, else an id */
	uint32_t	mask;			/* capacity - 1 */
} ScriptNameIndex;

/* ---------------------------------------------------------------------
 * Errors
 * --------------------------------------------------------------------- */

typedef enum ScriptErrorKind
{
	SCRIPT_ERR_NONE = 0,
	SCRIPT_ERR_SYNTAX,			/* parse error: NAME:LINE: MSG in command "CMD" */
	SCRIPT_ERR_CONDITION,		/* \if structure error */
	SCRIPT_ERR_SCRIPT,			/* whole-script problem (empty script, ...) */
	SCRIPT_ERR_RUNTIME,			/* evaluation failure: the client must abort */
	SCRIPT_ERR_NOMEM,
	SCRIPT_ERR_INTERRUPTED		/* the interrupt hook asked to stop */
} ScriptErrorKind;

typedef struct ScriptError
{
	ScriptErrorKind kind;
	char		source[128];	/* script name */
	int			lineno;			/* 1-based; 0 if unknown */
	int			column;			/* 0-based column in line; -1 if unknown */
	int			command_index;	/* 0-based command; -1 if none */
	char		command[64];	/* pgbench's command name ("set", "sleep") */
	char		message[256];	/* pgbench's message, e.g. "division by zero" */
	char		more[256];		/* detail shown as " (MORE)"; "" if none */
	char		line[1024];		/* the command's source text; "" if none */
} ScriptError;

/*
 * Render an error as pgbench prints it (for syntax errors: the message line,
 * then the source line and a caret line when known).  Returns the length
 * that would have been written, like snprintf.
 */
extern int	script_error_format(const ScriptError *err, char *buf, size_t size);

/* ---------------------------------------------------------------------
 * Parsed scripts
 * --------------------------------------------------------------------- */

typedef enum ScriptQueryMode
{
	SCRIPT_QUERY_SIMPLE = 0,
	SCRIPT_QUERY_EXTENDED,
	SCRIPT_QUERY_PREPARED
} ScriptQueryMode;

typedef enum ScriptCommandKind
{
	SCRIPT_CMD_SQL = 0,
	SCRIPT_CMD_SET,
	SCRIPT_CMD_SLEEP,
	SCRIPT_CMD_IF,
	SCRIPT_CMD_ELIF,
	SCRIPT_CMD_ELSE,
	SCRIPT_CMD_ENDIF,
	SCRIPT_CMD_STARTPIPELINE,
	SCRIPT_CMD_SYNCPIPELINE,
	SCRIPT_CMD_ENDPIPELINE
} ScriptCommandKind;

/* what to do with the result of an SQL command */
typedef enum ScriptResultStore
{
	SCRIPT_STORE_NONE = 0,
	SCRIPT_STORE_GSET,			/* last query must return one row */
	SCRIPT_STORE_ASET			/* every query, last row wins */
} ScriptResultStore;

/* pgbench limits */
#define SCRIPT_MAX_ARGS 256		/* words per meta-command */
#define SCRIPT_MAX_PARAMS 255	/* :vars per statement in extended mode */

typedef struct Script Script;

/*
 * Which pgbench's language a script is read in: the major of the pgbench
 * whose script language it is (what it accepts and refuses, and its parse
 * errors' words and line numbers).  The server passes its own major
 * (script_sql.h's script_sql_parse_opts, from pg_compat.h); the standalone
 * tests pass what they test.  The differences (src/README.md, "pgbench per
 * major"):
 *   - 17 and later: \syncpipeline (pgbench 15 and 16: "invalid command");
 *   - 18 and later: "\gset must follow an SQL command" names the line of
 *     the \gset; pgbench 15 to 17 name the line where its psql lexer
 *     resumed scanning before reaching it (the line after the previous
 *     meta-command, the line of the previous ";", or for the first scan
 *     of the script the line of its last character but one).
 * Majors are compared with >=: a later major reads as the latest known.
 */
/* the default, and the least: a major below it reads as it */
#define SCRIPT_PGBENCH_MAJOR_DEFAULT 15

typedef struct ScriptParseOptions
{
	int			pgbench_major;	/* 15, 16, ...; 0 = SCRIPT_PGBENCH_MAJOR_DEFAULT */
} ScriptParseOptions;

/*
 * Parse a script.  name is used in error messages (pgbench uses the file name
 * or "<builtin: ...>").  opts NULL reads the language of pgbench
 * SCRIPT_PGBENCH_MAJOR_DEFAULT.  Returns NULL and fills *err on error.
 * The result is immutable and may be shared by any number of clients.
 */
extern Script *script_parse(const char *name, const char *text,
							const ScriptParseOptions *opts, ScriptError *err);
extern void script_free(Script *script);

extern const char *script_name(const Script *script);
/* the pgbench major the script was read as (never 0) */
extern int	script_pgbench_major(const Script *script);
extern int	script_command_count(const Script *script);
extern int	script_sql_count(const Script *script);	/* SQL commands */
extern ScriptCommandKind script_command_kind(const Script *script, int i);
/* "sql", "set", "sleep", "if", "elif", "else", "endif", "startpipeline", ... */
extern const char *script_command_name(const Script *script, int i);
/* SQL: text as sent by the simple protocol; meta: its source text */
extern const char *script_command_text(const Script *script, int i);
/* the command's first line as pgbench's -r report shows it */
extern const char *script_command_first_line(const Script *script, int i);
extern int	script_command_lineno(const Script *script, int i);

/* SQL commands only */
extern const char *script_sql_param_text(const Script *script, int i);	/* "$n" form */
extern int	script_sql_nparams(const Script *script, int i);
extern int	script_sql_index(const Script *script, int i);	/* 0.. among SQL */
extern ScriptResultStore script_sql_store(const Script *script, int i,
										  const char **prefix);

/* ---------------------------------------------------------------------
 * Built-in scripts
 * --------------------------------------------------------------------- */

typedef struct ScriptBuiltin
{
	const char *name;			/* "tpcb-like" */
	const char *desc;			/* "<builtin: TPC-B (sort of)>" */
	const char *text;
} ScriptBuiltin;

extern const ScriptBuiltin *script_builtins(int *count);

/*
 * Find a built-in by unambiguous prefix, as pgbench -b does.  On failure
 * returns NULL with pgbench's message ("no builtin script found for name
 * \"x\"" or "ambiguous builtin name: N builtin scripts found for prefix
 * \"x\"") in err->message.
 */
extern const ScriptBuiltin *script_builtin_find(const char *name, ScriptError *err);

/* ---------------------------------------------------------------------
 * Seeding, in pgbench's order (base sequence seeded from the seed; then one
 * draw per client for its state, in client order; then :default_seed unless
 * the user defined it; then, per thread, the choose/throttle/sample states).
 * --------------------------------------------------------------------- */

extern void script_seed_client(uint64_t seed, int client_index, prng_state *state);
extern int64_t script_seed_default_seed(uint64_t seed, int nclients);
extern void script_seed_thread(uint64_t seed, int nclients, bool default_seed_drawn,
							   int thread_index, prng_state *choose,
							   prng_state *throttle, prng_state *sample);

/* ---------------------------------------------------------------------
 * Clients
 * --------------------------------------------------------------------- */

typedef struct ScriptDefine
{
	const char *name;
	const char *value;
} ScriptDefine;

typedef struct ScriptClientOptions
{
	ScriptQueryMode query_mode;
	int			client_id;		/* :client_id */
	int64_t		scale;			/* :scale */
	uint64_t	random_seed;	/* :random_seed */
	int64_t		default_seed;	/* :default_seed */
	prng_state	prng;			/* initial state of the client's random() */
	const ScriptDefine *defines;	/* -D NAME=VALUE, override the above */
	int			ndefines;
	/*
	 * The define values outlive the client: it reads them in place until it
	 * assigns the variable itself (copy on write), so that many clients hold
	 * a large value once.  Otherwise each client copies them.
	 */
	bool		share_defines;
	/*
	 * receives the value of every debug() call, with the script (its index
	 * in the mix, pgbench's use_file) and command (from 0) that made it;
	 * NULL ignores them
	 */
	void		(*debug) (void *arg, int script_index, int command_index, const ExprValue *value);
	void	   *debug_arg;
} ScriptClientOptions;

typedef struct ScriptClient ScriptClient;

/* the parse error of a \shell or \setshell that pgbench would run */
#define SCRIPT_SHELL_REFUSED "shell commands are not supported by pgbenchx"

/* pgbench's limit on -f/-b scripts ("at most 128 SQL scripts are allowed") */
#define SCRIPT_MAX_SCRIPTS 128

/*
 * Create a client's state for one script.  Fails (NULL, *err set) for an
 * invalid -D name or, in extended/prepared mode, a statement with more than
 * 255 parameters.  Same as script_client_create_multi(&script, 1, ...).
 */
extern ScriptClient *script_client_create(const Script *script,
										  const ScriptClientOptions *opts,
										  ScriptError *err);

/*
 * Create a client that runs a mix of scripts (pgbench -f/-b given several
 * times).  As in pgbench, variables belong to the client, not to a script:
 * all scripts share one variable table, by name (a \set or \gset in one
 * script is seen by the others in later transactions).  Each script's
 * variable ids are mapped to the client's slots here, once, so stepping
 * never looks a name up.  The scripts must outlive the client; their order
 * defines the indices used by script_client_select(), ScriptStep.script and
 * script_choose().  Script 0 is selected initially.  Fails as
 * script_client_create() does (checking every script), or for nscripts < 1.
 */
extern ScriptClient *script_client_create_multi(const Script *const *scripts,
												int nscripts,
												const ScriptClientOptions *opts,
												ScriptError *err);
extern void script_client_free(ScriptClient *client);

/*
 * Select the script the next transaction runs (pgbench's st->use_file, set
 * in CSTATE_CHOOSE_SCRIPT).  Call at a transaction boundary, i.e. before the
 * first step or after SCRIPT_STEP_END_OF_TRANSACTION; a transaction still in
 * progress is abandoned as by script_client_reset().  Retries
 * (script_client_restart_transaction) keep the selected script.  An index
 * outside [0, nscripts) makes the next step fail with "invalid script index".
 * Never allocates.
 */
extern void script_client_select(ScriptClient *client, int script_index);
extern int	script_client_selected(const ScriptClient *client);
extern int	script_client_script_count(const ScriptClient *client);
extern const Script *script_client_script(const ScriptClient *client, int script_index);

typedef enum ScriptStepKind
{
	SCRIPT_STEP_SQL = 0,		/* send it, then call script_sql_done() */
	SCRIPT_STEP_SLEEP,			/* wait sleep_usec, then step again */
	SCRIPT_STEP_PIPELINE_START, /* enter pipeline mode (prepare first in
								 * prepared mode) */
	SCRIPT_STEP_PIPELINE_SYNC,	/* PQsendPipelineSync */
	SCRIPT_STEP_PIPELINE_END,	/* sync and collect all results */
	SCRIPT_STEP_END_OF_TRANSACTION, /* script done; next step restarts at 0 */
	SCRIPT_STEP_ERROR			/* *err set; abort the client */
} ScriptStepKind;

typedef struct ScriptStep
{
	ScriptStepKind kind;
	int			script;			/* 0-based index of the script in the
								 * client's mix (pgbench's "script N") */
	int			command;		/* 0-based index of the command */

	/* SCRIPT_STEP_SQL */
	const char *sql;			/* simple: substituted text; else "$n" text */
	size_t		sql_len;
	int			sql_index;		/* statement number, for prepared names */
	int			nparams;		/* extended/prepared only */
	const char *const *params;	/* NULL entry = undefined variable */
	ScriptResultStore store;
	const char *store_prefix;

	/* SCRIPT_STEP_SLEEP */
	int64_t		sleep_usec;		/* >= 0 */
} ScriptStep;

/*
 * Execute meta-commands from the current position until the driver has
 * something to do.  Pointers in *out stay valid until the next call that
 * changes the client.  A pending SQL command not yet acknowledged with
 * script_sql_done() is considered done.
 */
extern ScriptStepKind script_step(const Script *script, ScriptClient *client,
								  ScriptStep *out, ScriptError *err);

/*
 * The same, for the client's selected script (the form to use for a mix).
 * script_step(s, c, ...) is this call when s is the selected script; when s
 * is another of the client's scripts it selects it first if the client is
 * at a transaction boundary, and fails otherwise (or if s is not one of the
 * client's scripts).
 */
extern ScriptStepKind script_step_client(ScriptClient *client, ScriptStep *out,
										 ScriptError *err);

/* The SQL command returned by the last step completed: advance past it. */
extern void script_sql_done(ScriptClient *client);

/*
 * Store one result column as a string variable named prefix || column, as
 * \gset / \aset do.  Fails with "error storing into variable NAME".
 */
extern bool script_store_result(ScriptClient *client, const char *prefix,
								const char *column, const char *value,
								ScriptError *err);

/*
 * Restart the current transaction from command 0 with the random state it
 * had when it started (pgbench's retry after a serialization failure or
 * deadlock).
 */
extern void script_client_restart_transaction(ScriptClient *client);

/* Forget the position (after an abort); variables are kept. */
extern void script_client_reset(ScriptClient *client);

extern int	script_client_position(const ScriptClient *client);
extern bool script_client_in_pipeline(const ScriptClient *client);

/* Variables, by name (tests, \gset, reporting).  Not for the hot path. */
extern bool script_client_get_value(ScriptClient *client, const char *name,
									ExprValue *out, ScriptError *err);
/* String form (pgbench's getVariable); NULL if undefined */
extern const char *script_client_get_string(ScriptClient *client, const char *name);
extern bool script_client_set_string(ScriptClient *client, const char *name,
									 const char *value, ScriptError *err);
extern prng_state *script_client_prng(ScriptClient *client);

/* ---------------------------------------------------------------------
 * Script mixes and throttling: pgbench's per-thread draws
 * --------------------------------------------------------------------- */

/*
 * Parse one "NAME[@WEIGHT]" item of -f/-b, as pgbench's parseScriptWeight:
 * split at the LAST '@' (none: weight 1); the weight is a base-10 strtol
 * number in 0..INT_MAX with nothing after it.  *name_out is allocated with
 * script_mem_alloc (free with script_mem_free).  Fails (false,
 * SCRIPT_ERR_SCRIPT) with "invalid weight specification: @one" or
 * "weight specification out of range (0 .. 2147483647): -1".
 * Splitting a comma-separated list is the caller's job.
 */
extern bool script_parse_weight(const char *spec, char **name_out,
								int64_t *weight_out, ScriptError *err);

/*
 * Choose the script of the next transaction as pgbench's chooseScript: with
 * one script, 0 without drawing; otherwise one draw of uniform
 * [0, total_weight - 1] from choose_rs (the thread's ts_choose_rs, see
 * script_seed_thread), then the first script whose cumulative weight exceeds
 * it (weight-0 scripts are never chosen).  total_weight must be the sum of
 * the weights; returns -1 (without drawing) if nscripts < 1 or
 * total_weight <= 0, which pgbench refuses up front ("total script weight
 * must not be zero").
 */
extern int	script_choose(prng_state *choose_rs, const int64_t *weights,
						  int nscripts, int64_t total_weight);

/*
 * pgbench's getPoissonRand: the delay before the next throttled transaction,
 * one draw from throttle_rs (the thread's ts_throttle_rs), computed as
 * (int64) (-ln(1 - U) * center_usec + 0.5), U uniform in [0, 1).  The
 * caller adds it to the thread's schedule; pgbench's center is
 * 1e6 / rate * nthreads (the per-thread delay).
 */
extern int64_t script_poisson_delay_usec(prng_state *throttle_rs, double center_usec);

#endif							/* PGBENCHX_SCRIPT_H */
