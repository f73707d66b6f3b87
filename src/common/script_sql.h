/*-------------------------------------------------------------------------
 *
 * script_sql.h
 *	  The SQL face of the script language: eval, the script registry,
 *	  scripts by name, variables given as jsonb.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_SCRIPT_SQL_H
#define PGBENCHX_SCRIPT_SQL_H

#include "utils/jsonb.h"

#include "pg_compat.h"
#include "script.h"

#define SCRIPT_SQL_MAX_VARIABLES	1000

/*
 * The variables of a jsonb object as -D NAME=VALUE strings (palloc'd);
 * errors on a non-object, a bad name or a non-scalar value.  defs must have
 * room for SCRIPT_SQL_MAX_VARIABLES.  Returns the count.
 */
extern int	script_sql_defines(Jsonb *vars, ScriptDefine *defs);

/*
 * A script by name, with SPI connected: a built-in by unambiguous prefix
 * (as pgbench -b), else a registered script by exact name and its owner
 * (*owner NULL for a built-in).  A name that is a prefix of a built-in's
 * never names a registered script.  Returns false if there is none.
 */
extern bool script_sql_resolve(const char *name, char **display, char **body,
							   bool *builtin, char **owner);

/*
 * Input echoed in a message (a name, a value): s itself if short, else its
 * first SCRIPT_SQL_ECHO_MAX bytes (whole characters) and "...", palloc'd.
 */
#define SCRIPT_SQL_ECHO_MAX 200
extern const char *script_sql_echo(const char *s);

/* ERROR for a name that resolves to no script */
pgx_noreturn extern void script_sql_unknown(const char *name);

/*
 * Install the server's hooks of the language core (script_mem.h): memory in
 * the current memory context, and script_sql_interrupt_pending.  Called
 * once, by _PG_init.
 */
extern void script_sql_install_hooks(void);

/*
 * The server's parse interrupt hook (script_set_interrupt_hook): a cancel
 * or a termination is pending and can be processed.
 */
extern bool script_sql_interrupt_pending(void);

/*
 * The language every script is read in on this server: the one of the
 * pgbench of the server's major (pg_compat.h's PGX_PGBENCH_MAJOR).  Every
 * script_parse of the server code passes it.
 */
extern const ScriptParseOptions script_sql_parse_opts;

/*
 * script_parse in the server, with script_sql_parse_opts: a parse stopped by
 * a pending cancel or termination throws it here (CHECK_FOR_INTERRUPTS);
 * otherwise as script_parse.
 */
extern Script *script_sql_parse(const char *name, const char *text, ScriptError *err);

#endif							/* PGBENCHX_SCRIPT_SQL_H */
