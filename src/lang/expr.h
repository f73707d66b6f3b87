/*
 * expr.h -- the pgbench expression language used by \set, \if and \elif.
 *
 * Owns: values (NULL, boolean, int64, double) and their coercions, the
 * lexer, a hand-written precedence-climbing parser that follows pgbench's
 * bison grammar (exprparse.y) and precedence table, the AST, the evaluator
 * with pgbench's NULL/lazy semantics and error messages, and every built-in
 * function (random*, hash*, permute, ...).
 *
 * Must not: know about scripts, clients or SQL.  Variables are opaque
 * integer ids handed out by the caller's resolver at parse time and read
 * through the caller's callback at evaluation time.  Memory comes from the
 * script_mem_* hooks (script_mem.h); evaluation allocates nothing.
 */
#ifndef PGBENCHX_EXPR_H
#define PGBENCHX_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prng.h"

typedef enum ExprValueType
{
	EXPR_VAL_NONE = 0,			/* no typed value (a variable known only as a
								 * string) */
	EXPR_VAL_NULL,
	EXPR_VAL_BOOL,
	EXPR_VAL_INT,
	EXPR_VAL_DOUBLE
} ExprValueType;

typedef struct ExprValue
{
	ExprValueType type;
	union
	{
		bool		bval;
		int64_t		ival;
		double		dval;
	}			u;
} ExprValue;

/* Messages are truncated to this size (bytes, including the NUL). */
#define EXPR_MSG_SIZE 256

/*
 * Input echoed in a message (a variable's name or value) is cut to
 * EXPR_ECHO_MAX bytes plus "...", so that two fit in a message.
 */
#define EXPR_ECHO_MAX 100
#define EXPR_ECHO_SIZE (EXPR_ECHO_MAX + 4)
/* s itself if short enough, else its cut copy in buf (EXPR_ECHO_SIZE bytes) */
extern const char *expr_echo(const char *s, char *buf);

typedef struct ExprNode ExprNode;

/*
 * Resolver called once per distinct ":name" (and for the implicit
 * :default_seed of hash() and permute()); returns a non-negative id, or -1
 * if it ran out of memory.
 */
typedef int (*ExprResolveVar) (void *arg, const char *name, size_t len);

/*
 * A parse error; offset is the 0-based byte offset in the parsed text, -1
 * for an error at the end of an empty text (the caret then goes on the
 * character before it, as pgbench puts it).
 */
typedef struct ExprParseError
{
	char		message[EXPR_MSG_SIZE];
	char		more[EXPR_MSG_SIZE];	/* "" if none */
	int			offset;
} ExprParseError;

/*
 * Parse text[0..len).  end_offset is the offset pgbench's scanner reports
 * for the end of the expression (len, or len + 1 when the command line is
 * terminated by a newline); it only matters for error columns.
 * Returns NULL and fills *err on error.
 */
extern ExprNode *expr_parse(const char *text, size_t len, int end_offset,
							ExprResolveVar resolve, void *resolve_arg,
							ExprParseError *err);
extern void expr_free(ExprNode *node);

/*
 * Evaluation context.  get_var returns false with a message in ctx->errmsg
 * when the variable cannot be read (undefined, malformed string).
 * debug, if set, receives the argument of every debug() call.
 */
typedef struct ExprEvalContext
{
	bool		(*get_var) (void *arg, int varid, const char *name,
							ExprValue *out, char *errmsg);
	void	   *var_arg;
	void		(*debug) (void *arg, const ExprValue *value);
	void	   *debug_arg;
	prng_state *prng;			/* the client's random state */
	char		errmsg[EXPR_MSG_SIZE];	/* set when expr_eval returns false */
} ExprEvalContext;

extern bool expr_eval(const ExprNode *node, ExprEvalContext *ctx,
					  ExprValue *result);

/* --- value helpers shared with script.c -------------------------------- */

/* "none", "null", "boolean", "int", "double", as pgbench names them */
extern const char *expr_type_name(ExprValueType type);

/* \if truthiness: NULL false, bool as is, numbers non-zero */
extern bool expr_value_truth(const ExprValue *v);

/*
 * pgbench's string form of a typed value: %lld, %.15g (Infinity, -Infinity,
 * NaN), true/false, NULL.  Returns the length; buf needs 32 bytes.
 */
extern int	expr_value_format(const ExprValue *v, char *buf, size_t size);

/*
 * pgbench's lazy typing of a string variable: null, boolean prefixes,
 * integers (with range check), else doubles.  On failure returns false with
 * pgbench's message in errmsg (varname is used in it).
 */
extern bool expr_value_from_string(const char *str, const char *varname,
								   ExprValue *out, char *errmsg);

/* pgbench's variable-name rule: [A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]* */
extern bool expr_valid_variable_name(const char *name);
extern bool expr_is_name_start(unsigned char c);
extern bool expr_is_name_char(unsigned char c);

/* pgbench's hash and permutation functions, exported for tests */
extern int64_t expr_hash_fnv1a(int64_t val, uint64_t seed);
extern int64_t expr_hash_murmur2(int64_t val, uint64_t seed);
extern int64_t expr_permute(int64_t val, int64_t size, int64_t seed);

#endif							/* PGBENCHX_EXPR_H */
