/*
 * src/cli/cli_reply.h: the server's replies to the pgbenchx client program,
 * read only through checks (src/cli/cli_reply.c, issue 34 §4).
 */
#ifndef PGBENCHX_CLI_REPLY_H
#define PGBENCHX_CLI_REPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "libpq-fe.h"

/* the most rows any reply may have (the per-transaction log's pull: 1024 drivers' rings) */
#define CLI_REPLY_MAX_ROWS (1024L * 65537L)

/*
 * the most bytes of values a reply may hold: PostgreSQL's own limit of one
 * value (1 GB), which a report, a chart or an export cannot exceed
 */
#define CLI_REPLY_MAX_BYTES ((size_t) 1 << 30)

/*
 * What an unusable reply does: says why on stderr, then exits with
 * cli_reply_exit_code (1 before a run, as pgbench's errors before it; the
 * program sets 2 once its run started) after printing cli_reply_detail
 * when set (what the run on the server does meanwhile).
 */
extern int	cli_reply_exit_code;
extern char cli_reply_detail[256];

/*
 * Runs sql with text parameters, rows read one at a time (single-row
 * mode).  Returns a PGRES_TUPLES_OK result of exactly ncols columns and
 * min_rows..max_rows rows, holding at most max_bytes of values (0:
 * CLI_REPLY_MAX_BYTES), or the server's error as a result whose status is
 * not PGRES_TUPLES_OK (the caller prints it).  Any other reply (the wrong
 * columns, too few or too many rows or bytes, a COPY, a command without
 * rows) is said and ends the program: the caller never sees it.  what
 * names the query in the message ("the run's status").
 */
extern PGresult *cli_reply_exec(PGconn *conn, const char *what, const char *sql,
								int nparams, const char *const *values,
								int ncols, long min_rows, long max_rows, size_t max_bytes);

/*
 * Runs a command that returns no rows: NULL when it succeeded, else the
 * server's error (the caller prints it); any other reply ends the program.
 */
extern PGresult *cli_reply_command(PGconn *conn, const char *what, const char *sql);

/* the same checks of a result already received (the columns, the rows) */
extern void cli_reply_check(const PGresult *res, const char *what, int ncols,
							long min_rows, long max_rows);

/*
 * One value of a checked result.  Each says what is wrong and ends the
 * program when the value is not there, NULL, or not in its form and range
 * (the row and the column are checked too):
 *   cli_reply_isnull: whether the value is NULL (for the columns that may be)
 *   cli_reply_text: the text of a value
 *   cli_reply_int: a decimal integer ("-"? then digits, nothing else) in [min, max]
 *   cli_reply_float: a finite decimal number in [min, max] (no inf, nan, hex)
 *   cli_reply_bool: "t" or "f"
 *   cli_reply_word: one of words (a NULL-terminated list): its index
 */
extern bool cli_reply_isnull(const PGresult *res, int row, int col, const char *what);
extern const char *cli_reply_text(const PGresult *res, int row, int col, const char *what);
extern long long cli_reply_int(const PGresult *res, int row, int col, const char *what,
							   long long min, long long max);
extern double cli_reply_float(const PGresult *res, int row, int col, const char *what,
							  double min, double max);
extern bool cli_reply_bool(const PGresult *res, int row, int col, const char *what);
extern int	cli_reply_word(const PGresult *res, int row, int col, const char *what,
						   const char *const *words);

/*
 * called by cli_reply_fail after its message and before it exits: NULL in
 * the program; the fuzz harness (test/fuzz/fuzz_cli_reply.c) jumps back
 * from it
 */
extern void (*cli_reply_fail_hook) (void);

/* an unusable reply, said as the checks say it: "unexpected reply ... for WHAT: why"; exits */
extern void cli_reply_fail(const char *what, const char *fmt,...)
#if defined(__GNUC__) || defined(__clang__)
			__attribute__((format(printf, 2, 3), noreturn))
#endif
			;

/*
 * The server's messages (notices, warnings) as the program prints them:
 * at most CLI_REPLY_MAX_MESSAGES of them, each cut at CLI_REPLY_MAX_MESSAGE
 * bytes, then one line saying the rest was left out; NOTICE, INFO, LOG and
 * DEBUG only when verbose_notices (the subcommands print them, as psql).
 */
#define CLI_REPLY_MAX_MESSAGES 1000
#define CLI_REPLY_MAX_MESSAGE 65536
extern void cli_reply_set_notice_receiver(PGconn *conn, bool verbose_notices);

/*
 * A server's error as the program prints it, in PostgreSQL's client
 * programs' words: "pgbenchx: error: MESSAGE", then "pgbenchx: detail: ..."
 * and "pgbenchx: hint: ..." when the server gave them; no CONTEXT (the
 * extension's own functions, which say nothing a caller can act on).  Each
 * field is cut at CLI_REPLY_MAX_MESSAGE bytes.  libpq's own errors (a lost
 * connection) have no fields: their text, after the same prefix.
 */
extern void cli_reply_print_error(const PGresult *res);

/*
 * The database the program reached has no pgbenchx: say so, and what to do,
 * before anything else is printed, then close conn and exit 1
 */
extern void cli_reply_no_extension(PGconn *conn)
#if defined(__GNUC__) || defined(__clang__)
			__attribute__((noreturn))
#endif
			;

#endif							/* PGBENCHX_CLI_REPLY_H */
