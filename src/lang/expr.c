/*
 * expr.c -- lexer, parser, AST and evaluator of pgbench expressions.
 *
 * Owns: everything the \set / \if / \elif expression language needs:
 *   - a lexer equivalent to pgbench's exprscan.l (keywords, constants,
 *     :variables, operators, "\"+newline continuations);
 *   - a precedence-climbing parser reproducing exprparse.y's grammar,
 *     precedence and associativity (non-associative comparisons, NOT below
 *     IS, "~" at the bitwise level, unary +/- highest) and its desugaring
 *     (a > b is b < a, -x is 0 - x, ~x is x # -1, x ISNULL is !is(x, NULL));
 *   - the evaluator with pgbench's semantics: NULL propagation, lazy
 *     AND/OR/CASE, int64 overflow checks, coercions and messages;
 *   - the built-in functions, bit-compatible with pgbench for a given PRNG
 *     state.
 *
 * Must not: know about scripts or clients, allocate during evaluation, or
 * include PostgreSQL headers.  Memory comes from the script_mem_* hooks
 * (script_mem.h).
 */
#include "expr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "script_mem.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* deepest AST accepted; bounds evaluator recursion (and parser recursion) */
#define EXPR_MAX_DEPTH 1000
/* pgbench evaluates at most this many function arguments */
#define EXPR_MAX_FARGS 16

#define MIN_GAUSSIAN_PARAM 2.0
#define MIN_ZIPFIAN_PARAM 1.001
#define MAX_ZIPFIAN_PARAM 1000.0

/* ----------------------------------------------------------------------
 * Functions and operators
 * ---------------------------------------------------------------------- */

typedef enum ExprFunc
{
	EF_ADD, EF_SUB, EF_MUL, EF_DIV, EF_MOD,
	EF_EQ, EF_NE, EF_LE, EF_LT, EF_IS,
	EF_BITAND, EF_BITOR, EF_BITXOR, EF_LSHIFT, EF_RSHIFT,
	EF_AND, EF_OR, EF_NOT, EF_CASE,
	EF_PI, EF_ABS, EF_DEBUG, EF_DOUBLE, EF_INT, EF_SQRT, EF_LN, EF_EXP,
	EF_LEAST, EF_GREATEST,
	EF_RANDOM, EF_RANDOM_EXPONENTIAL, EF_RANDOM_GAUSSIAN, EF_RANDOM_ZIPFIAN,
	EF_POW, EF_HASH_FNV1A, EF_HASH_MURMUR2, EF_PERMUTE
} ExprFunc;

/* argument-count conventions, as in pgbench's function table */
#define NARGS_AT_LEAST_ONE	(-1)	/* least, greatest */
#define NARGS_HASH			(-2)	/* 1 or 2, seed defaults to :default_seed */
#define NARGS_PERMUTE		(-4)	/* 2 or 3, seed defaults to :default_seed */

typedef struct ExprFuncDef
{
	const char *name;
	int			nargs;
	ExprFunc	func;
} ExprFuncDef;

/* functions callable by name (operators are not, except "mod") */
static const ExprFuncDef expr_functions[] = {
	{"pi", 0, EF_PI},
	{"abs", 1, EF_ABS},
	{"debug", 1, EF_DEBUG},
	{"double", 1, EF_DOUBLE},
	{"int", 1, EF_INT},
	{"sqrt", 1, EF_SQRT},
	{"ln", 1, EF_LN},
	{"exp", 1, EF_EXP},
	{"least", NARGS_AT_LEAST_ONE, EF_LEAST},
	{"greatest", NARGS_AT_LEAST_ONE, EF_GREATEST},
	{"random", 2, EF_RANDOM},
	{"random_exponential", 3, EF_RANDOM_EXPONENTIAL},
	{"random_gaussian", 3, EF_RANDOM_GAUSSIAN},
	{"random_zipfian", 3, EF_RANDOM_ZIPFIAN},
	{"pow", 2, EF_POW},
	{"power", 2, EF_POW},
	{"hash", NARGS_HASH, EF_HASH_MURMUR2},
	{"hash_murmur2", NARGS_HASH, EF_HASH_MURMUR2},
	{"hash_fnv1a", NARGS_HASH, EF_HASH_FNV1A},
	{"permute", NARGS_PERMUTE, EF_PERMUTE},
	{"mod", 2, EF_MOD},
};

/* ----------------------------------------------------------------------
 * AST
 * ---------------------------------------------------------------------- */

typedef enum ExprNodeKind
{
	EN_CONST,
	EN_VAR,
	EN_FUNC
} ExprNodeKind;

struct ExprNode
{
	ExprNodeKind kind;
	ExprFunc	func;
	int			nargs;
	int			depth;
	int			varid;
	char	   *varname;
	ExprValue	constant;
	ExprNode  **args;
};

void
expr_free(ExprNode *node)
{
	int			i;

	if (node == NULL)
		return;
	for (i = 0; i < node->nargs; i++)
		expr_free(node->args[i]);
	script_mem_free(node->args);
	script_mem_free(node->varname);
	script_mem_free(node);
}

/* ----------------------------------------------------------------------
 * Value helpers
 * ---------------------------------------------------------------------- */

const char *
expr_type_name(ExprValueType type)
{
	switch (type)
	{
		case EXPR_VAL_NONE:
			return "none";
		case EXPR_VAL_NULL:
			return "null";
		case EXPR_VAL_BOOL:
			return "boolean";
		case EXPR_VAL_INT:
			return "int";
		case EXPR_VAL_DOUBLE:
			return "double";
	}
	return "none";
}

bool
expr_value_truth(const ExprValue *v)
{
	switch (v->type)
	{
		case EXPR_VAL_BOOL:
			return v->u.bval;
		case EXPR_VAL_INT:
			return v->u.ival != 0;
		case EXPR_VAL_DOUBLE:
			return v->u.dval != 0.0;
		default:
			return false;
	}
}

/* printf a double the way PostgreSQL's snprintf does (Infinity, NaN) */
static int
expr_format_double(char *buf, size_t size, const char *fmt, double d)
{
	if (isnan(d))
		return snprintf(buf, size, "NaN");
	if (isinf(d))
		return snprintf(buf, size, d < 0 ? "-Infinity" : "Infinity");
	return snprintf(buf, size, fmt, d);
}

/*
 * An integer's decimal text, as "%lld" would print it: the hot path, once
 * per variable substituted into each statement, so no printf machinery.
 */
static int
expr_format_int(int64_t ival, char *buf, size_t size)
{
	char		digits[24];
	int			n = 0;
	int			len;
	uint64_t	u = ival < 0 ? (uint64_t) 0 - (uint64_t) ival : (uint64_t) ival;

	do
	{
		digits[n++] = (char) ('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (ival < 0)
		digits[n++] = '-';
	len = n;
	if (size == 0)
		return len;
	if ((size_t) n >= size)
		n = (int) size - 1;		/* truncated like snprintf: leading part */
	for (int i = 0; i < n; i++)
		buf[i] = digits[len - 1 - i];
	buf[n] = '\0';
	return len;
}

int
expr_value_format(const ExprValue *v, char *buf, size_t size)
{
	switch (v->type)
	{
		case EXPR_VAL_NULL:
			return snprintf(buf, size, "NULL");
		case EXPR_VAL_BOOL:
			return snprintf(buf, size, "%s", v->u.bval ? "true" : "false");
		case EXPR_VAL_INT:
			return expr_format_int(v->u.ival, buf, size);
		case EXPR_VAL_DOUBLE:
			return expr_format_double(buf, size, "%.15g", v->u.dval);
		default:
			if (size > 0)
				buf[0] = '\0';
			return 0;
	}
}

bool
expr_is_name_start(unsigned char c)
{
	return c >= 0x80 || c == '_' || (c >= 'a' && c <= 'z') ||
		(c >= 'A' && c <= 'Z');
}

bool
expr_is_name_char(unsigned char c)
{
	return expr_is_name_start(c) || (c >= '0' && c <= '9');
}

bool
expr_valid_variable_name(const char *name)
{
	const unsigned char *p = (const unsigned char *) name;

	if (!expr_is_name_start(*p))
		return false;
	for (p++; *p; p++)
		if (!expr_is_name_char(*p))
			return false;
	return true;
}

/* case-insensitive "str is a non-empty prefix of word" */
static bool
expr_is_prefix_ci(const char *str, size_t slen, const char *word)
{
	return slen <= strlen(word) && strncasecmp(str, word, slen) == 0;
}

/*
 * ^\s*[-+]?[0-9]*$ as pgbench's is_an_int(): its "at least one digit" test
 * passes at the end of the string, so " " and "-" look like integers too
 * (and then fail as bigints)
 */
static bool
expr_looks_like_int(const char *s)
{
	while (*s && isspace((unsigned char) *s))
		s++;
	if (*s == '+' || *s == '-')
		s++;
	if (*s && !isdigit((unsigned char) *s))
		return false;
	while (isdigit((unsigned char) *s))
		s++;
	return *s == '\0';
}

const char *
expr_echo(const char *s, char *buf)
{
	size_t		len = strlen(s);

	if (len <= EXPR_ECHO_MAX)
		return s;
	len = EXPR_ECHO_MAX;
	/* not in the middle of a UTF-8 sequence */
	while (len > 0 && ((unsigned char) s[len] & 0xC0) == 0x80)
		len--;
	memcpy(buf, s, len);
	memcpy(buf + len, "...", 4);
	return buf;
}

bool
expr_value_from_string(const char *str, const char *varname,
					   ExprValue *out, char *errmsg)
{
	char		ebuf1[EXPR_ECHO_SIZE];
	char		ebuf2[EXPR_ECHO_SIZE];

	size_t		slen = strlen(str);

	if (slen == 0)
	{
		/* pgbench fails silently here; say something useful */
		snprintf(errmsg, EXPR_MSG_SIZE,
				 "malformed variable \"%s\" value: \"\"", expr_echo(varname, ebuf1));
		return false;
	}

	if (strcasecmp(str, "null") == 0)
	{
		out->type = EXPR_VAL_NULL;
		out->u.ival = 0;
	}
	else if (expr_is_prefix_ci(str, slen, "true") ||
			 expr_is_prefix_ci(str, slen, "yes") ||
			 strcasecmp(str, "on") == 0)
	{
		out->type = EXPR_VAL_BOOL;
		out->u.bval = true;
	}
	else if (expr_is_prefix_ci(str, slen, "false") ||
			 expr_is_prefix_ci(str, slen, "no") ||
			 strcasecmp(str, "off") == 0 ||
			 strcasecmp(str, "of") == 0)
	{
		out->type = EXPR_VAL_BOOL;
		out->u.bval = false;
	}
	else if (expr_looks_like_int(str))
	{
		char	   *end;
		long long	iv;

		errno = 0;
		iv = strtoll(str, &end, 10);
		if (errno == ERANGE)
		{
			snprintf(errmsg, EXPR_MSG_SIZE,
					 "value \"%s\" is out of range for type bigint", expr_echo(str, ebuf2));
			return false;
		}
		if (end == str || *end != '\0')
		{
			/* spaces and a sign without digits, as pgbench's strtoint64 says */
			snprintf(errmsg, EXPR_MSG_SIZE,
					 "invalid input syntax for type bigint: \"%s\"", expr_echo(str, ebuf2));
			return false;
		}
		out->type = EXPR_VAL_INT;
		out->u.ival = (int64_t) iv;
	}
	else
	{
		char	   *end;
		double		dv;

		errno = 0;
		dv = strtod(str, &end);
		if (errno != 0 || end == str || *end != '\0')
		{
			snprintf(errmsg, EXPR_MSG_SIZE,
					 "malformed variable \"%s\" value: \"%s\"",
					 expr_echo(varname, ebuf1), expr_echo(str, ebuf2));
			return false;
		}
		out->type = EXPR_VAL_DOUBLE;
		out->u.dval = dv;
	}
	return true;
}

/* ----------------------------------------------------------------------
 * Lexer
 * ---------------------------------------------------------------------- */

typedef enum ExprTok
{
	ET_EOF, ET_ERROR,
	ET_INT, ET_DOUBLE, ET_MAXINT_PLUS_ONE, ET_BOOL, ET_NULL,
	ET_VAR, ET_IDENT,
	ET_AND, ET_OR, ET_NOT, ET_IS, ET_ISNULL, ET_NOTNULL,
	ET_CASE, ET_WHEN, ET_THEN, ET_ELSE, ET_END,
	ET_PLUS, ET_MINUS, ET_MUL, ET_DIV, ET_MOD,
	ET_LPAREN, ET_RPAREN, ET_COMMA,
	ET_LT, ET_GT, ET_EQ, ET_LE, ET_GE, ET_NE,
	ET_BITAND, ET_BITOR, ET_BITXOR, ET_TILDE, ET_LSHIFT, ET_RSHIFT
} ExprTok;

typedef struct ExprToken
{
	ExprTok		kind;
	int			start;
	int			end;			/* offset just past the token */
	int64_t		ival;
	double		dval;
	bool		bval;
} ExprToken;

typedef struct ExprParser
{
	const char *text;
	int			len;
	int			end_offset;
	int			pos;
	ExprToken	tok;			/* current lookahead */
	bool		failed;
	ExprParseError *err;
	ExprResolveVar resolve;
	void	   *resolve_arg;
	int			nesting;
} ExprParser;

static void
expr_set_error(ExprParser *p, int offset, const char *msg,
			   const char *more, int morelen)
{
	if (p->failed)
		return;
	p->failed = true;
	snprintf(p->err->message, sizeof(p->err->message), "%s", msg);
	if (more != NULL)
	{
		if (morelen < 0)
			morelen = (int) strlen(more);
		snprintf(p->err->more, sizeof(p->err->more), "%.*s", morelen, more);
	}
	else
		p->err->more[0] = '\0';
	/* -1 at an empty expression: pgbench's caret is then on the last
	 * character of the command before it (the end of the last token its
	 * scanner consumed, minus one) */
	p->err->offset = offset < -1 ? -1 : offset;
}

static void
expr_syntax_error(ExprParser *p)
{
	expr_set_error(p, p->tok.end - 1, "syntax error", NULL, 0);
}

static const struct
{
	const char *word;
	ExprTok		tok;
	int			bval;
}			expr_keywords[] = {
	{"and", ET_AND, 0},
	{"or", ET_OR, 0},
	{"not", ET_NOT, 0},
	{"is", ET_IS, 0},
	{"isnull", ET_ISNULL, 0},
	{"notnull", ET_NOTNULL, 0},
	{"true", ET_BOOL, 1},
	{"false", ET_BOOL, 0},
	{"null", ET_NULL, 0},
	{"case", ET_CASE, 0},
	{"when", ET_WHEN, 0},
	{"then", ET_THEN, 0},
	{"else", ET_ELSE, 0},
	{"end", ET_END, 0},
};

/* parse digits-only text as int64; false on overflow */
static bool
expr_parse_int64(const char *s, int len, int64_t *out)
{
	uint64_t	v = 0;
	int			i;

	for (i = 0; i < len; i++)
	{
		unsigned	d = (unsigned) (s[i] - '0');

		if (v > (UINT64_C(0x7FFFFFFFFFFFFFFF) - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = (int64_t) v;
	return true;
}

static bool
expr_parse_double(const char *s, int len, double *out)
{
	char		local[128];
	char	   *buf = local;
	char	   *end;
	bool		ok;

	if (len >= (int) sizeof(local))
	{
		buf = script_mem_alloc((size_t) len + 1);
		if (buf == NULL)
			return false;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtod(buf, &end);
	ok = (errno == 0 && end == buf + len);
	if (buf != local)
		script_mem_free(buf);
	return ok;
}

/* Lex the next token into p->tok. */
static void
expr_lex(ExprParser *p)
{
	const char *s = p->text;
	int			n = p->len;
	int			i = p->pos;
	ExprToken  *t = &p->tok;

	/* whitespace and "\" newline continuations */
	for (;;)
	{
		if (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' ||
					  s[i] == '\f' || s[i] == '\v' || s[i] == '\n'))
			i++;
		else if (i + 1 < n && s[i] == '\\' && s[i + 1] == '\n')
			i += 2;
		else if (i + 2 < n && s[i] == '\\' && s[i + 1] == '\r' && s[i + 2] == '\n')
			i += 3;
		else
			break;
	}

	memset(t, 0, sizeof(*t));
	t->start = i;

	if (i >= n)
	{
		t->kind = ET_EOF;
		t->end = p->end_offset;
		p->pos = i;
		return;
	}

	/* pgbench's :{alnum}+: a variable's name may start with a digit here */
	if (s[i] == ':' && i + 1 < n && expr_is_name_char((unsigned char) s[i + 1]))
	{
		i += 2;
		while (i < n && expr_is_name_char((unsigned char) s[i]))
			i++;
		t->kind = ET_VAR;
	}
	else if (isdigit((unsigned char) s[i]) ||
			 (s[i] == '.' && i + 1 < n && isdigit((unsigned char) s[i + 1])))
	{
		bool		isdouble = false;
		int			j;

		while (i < n && isdigit((unsigned char) s[i]))
			i++;
		if (i < n && s[i] == '.')
		{
			isdouble = true;
			i++;
			while (i < n && isdigit((unsigned char) s[i]))
				i++;
		}
		/* exponent only if followed by [+-]?digit */
		if (i < n && (s[i] == 'e' || s[i] == 'E'))
		{
			j = i + 1;
			if (j < n && (s[j] == '+' || s[j] == '-'))
				j++;
			if (j < n && isdigit((unsigned char) s[j]))
			{
				isdouble = true;
				while (j < n && isdigit((unsigned char) s[j]))
					j++;
				i = j;
			}
		}
		t->end = i;
		if (!isdouble)
		{
			int			len = i - t->start;

			if (len == 19 && memcmp(s + t->start, "9223372036854775808", 19) == 0)
				t->kind = ET_MAXINT_PLUS_ONE;
			else if (expr_parse_int64(s + t->start, len, &t->ival))
				t->kind = ET_INT;
			else
			{
				expr_set_error(p, i - 1, "bigint constant overflow",
							   s + t->start, len);
				t->kind = ET_ERROR;
			}
		}
		else if (expr_parse_double(s + t->start, i - t->start, &t->dval))
			t->kind = ET_DOUBLE;
		else
		{
			expr_set_error(p, i - 1, "double constant overflow",
						   s + t->start, i - t->start);
			t->kind = ET_ERROR;
		}
		p->pos = i;
		return;
	}
	else if (expr_is_name_start((unsigned char) s[i]))
	{
		size_t		k;
		int			len;

		while (i < n && expr_is_name_char((unsigned char) s[i]))
			i++;
		len = i - t->start;
		t->kind = ET_IDENT;
		for (k = 0; k < sizeof(expr_keywords) / sizeof(expr_keywords[0]); k++)
		{
			if ((int) strlen(expr_keywords[k].word) == len &&
				strncasecmp(expr_keywords[k].word, s + t->start, len) == 0)
			{
				t->kind = expr_keywords[k].tok;
				t->bval = expr_keywords[k].bval != 0;
				break;
			}
		}
	}
	else
	{
		char		c = s[i];
		char		c2 = i + 1 < n ? s[i + 1] : '\0';

		i++;
		if (c == '<' && c2 == '>')
			t->kind = ET_NE, i++;
		else if (c == '!' && c2 == '=')
			t->kind = ET_NE, i++;
		else if (c == '<' && c2 == '=')
			t->kind = ET_LE, i++;
		else if (c == '>' && c2 == '=')
			t->kind = ET_GE, i++;
		else if (c == '<' && c2 == '<')
			t->kind = ET_LSHIFT, i++;
		else if (c == '>' && c2 == '>')
			t->kind = ET_RSHIFT, i++;
		else
		{
			switch (c)
			{
				case '+': t->kind = ET_PLUS; break;
				case '-': t->kind = ET_MINUS; break;
				case '*': t->kind = ET_MUL; break;
				case '/': t->kind = ET_DIV; break;
				case '%': t->kind = ET_MOD; break;
				case '(': t->kind = ET_LPAREN; break;
				case ')': t->kind = ET_RPAREN; break;
				case ',': t->kind = ET_COMMA; break;
				case '<': t->kind = ET_LT; break;
				case '>': t->kind = ET_GT; break;
				case '=': t->kind = ET_EQ; break;
				case '&': t->kind = ET_BITAND; break;
				case '|': t->kind = ET_BITOR; break;
				case '#': t->kind = ET_BITXOR; break;
				case '~': t->kind = ET_TILDE; break;
				default:
					expr_set_error(p, i - 1, "unexpected character",
								   s + i - 1, 1);
					t->kind = ET_ERROR;
					break;
			}
		}
	}
	t->end = i;
	p->pos = i;
}

/* ----------------------------------------------------------------------
 * Parser
 * ---------------------------------------------------------------------- */

static ExprNode *
expr_new_node(ExprParser *p, ExprNodeKind kind)
{
	ExprNode   *node;

	/* a cancel stops a huge expression (script_parse then says why) */
	if (script_poll_interrupt())
	{
		expr_set_error(p, p->tok.end - 1, "parsing was interrupted", NULL, 0);
		return NULL;
	}
	node = script_mem_alloc(sizeof(ExprNode));
	if (node == NULL)
	{
		expr_set_error(p, p->tok.end - 1, "out of memory", NULL, 0);
		return NULL;
	}
	memset(node, 0, sizeof(*node));
	node->kind = kind;
	node->depth = 1;
	node->varid = -1;
	return node;
}

static ExprNode *
expr_make_const(ExprParser *p, ExprValueType type, int64_t ival, double dval,
				bool bval)
{
	ExprNode   *node = expr_new_node(p, EN_CONST);

	if (node == NULL)
		return NULL;
	node->constant.type = type;
	if (type == EXPR_VAL_DOUBLE)
		node->constant.u.dval = dval;
	else if (type == EXPR_VAL_BOOL)
		node->constant.u.bval = bval;
	else
		node->constant.u.ival = ival;
	return node;
}

static ExprNode *
expr_make_var(ExprParser *p, const char *name, int len)
{
	ExprNode   *node = expr_new_node(p, EN_VAR);

	if (node == NULL)
		return NULL;
	node->varname = script_mem_alloc((size_t) len + 1);
	if (node->varname == NULL)
	{
		script_mem_free(node);
		expr_set_error(p, p->tok.end - 1, "out of memory", NULL, 0);
		return NULL;
	}
	memcpy(node->varname, name, len);
	node->varname[len] = '\0';
	node->varid = p->resolve(p->resolve_arg, name, (size_t) len);
	if (node->varid < 0)
	{
		expr_free(node);
		expr_set_error(p, p->tok.end - 1, "out of memory", NULL, 0);
		return NULL;
	}
	return node;
}

/*
 * Build a function node over args[0..nargs); takes ownership of the args
 * (freed on failure).
 */
static ExprNode *
expr_make_func(ExprParser *p, ExprFunc func, ExprNode **args, int nargs)
{
	ExprNode   *node;
	int			i;
	int			depth = 0;

	for (i = 0; i < nargs; i++)
		if (args[i] == NULL)
			goto fail;
	for (i = 0; i < nargs; i++)
		if (args[i]->depth > depth)
			depth = args[i]->depth;
	if (depth + 1 > EXPR_MAX_DEPTH)
	{
		expr_set_error(p, p->tok.end - 1, "expression is too deeply nested",
					   NULL, 0);
		goto fail;
	}
	node = expr_new_node(p, EN_FUNC);
	if (node == NULL)
		goto fail;
	node->func = func;
	node->depth = depth + 1;
	if (nargs > 0)
	{
		node->args = script_mem_alloc(sizeof(ExprNode *) * nargs);
		if (node->args == NULL)
		{
			script_mem_free(node);
			expr_set_error(p, p->tok.end - 1, "out of memory", NULL, 0);
			goto fail;
		}
		memcpy(node->args, args, sizeof(ExprNode *) * nargs);
	}
	node->nargs = nargs;
	return node;

fail:
	for (i = 0; i < nargs; i++)
		expr_free(args[i]);
	return NULL;
}

static ExprNode *
expr_make_op(ExprParser *p, ExprFunc func, ExprNode *a, ExprNode *b)
{
	ExprNode   *args[2];

	args[0] = a;
	args[1] = b;
	return expr_make_func(p, func, args, 2);
}

static ExprNode *
expr_make_uop(ExprParser *p, ExprFunc func, ExprNode *a)
{
	return expr_make_func(p, func, &a, 1);
}

static ExprNode *expr_parse_expr(ExprParser *p, int minprec);

/* binary operator precedence (0: not a binary operator) */
static int
expr_binary_prec(ExprTok t)
{
	switch (t)
	{
		case ET_OR:
			return 1;
		case ET_AND:
			return 2;
		case ET_LT: case ET_GT: case ET_EQ: case ET_LE: case ET_GE: case ET_NE:
			return 5;
		case ET_BITOR: case ET_BITXOR: case ET_BITAND:
		case ET_LSHIFT: case ET_RSHIFT:
			return 6;
		case ET_PLUS: case ET_MINUS:
			return 7;
		case ET_MUL: case ET_DIV: case ET_MOD:
			return 8;
		default:
			return 0;
	}
}

#define PREC_NOT	3
#define PREC_IS		4
#define PREC_CMP	5
#define PREC_TILDE	6
#define PREC_UNARY	9

/* growable argument list used while parsing calls and CASE */
typedef struct ExprArgList
{
	ExprNode  **items;
	int			n;
	int			cap;
} ExprArgList;

static bool
expr_args_push(ExprParser *p, ExprArgList *l, ExprNode *node)
{
	if (node == NULL)
		return false;
	if (l->n == l->cap)
	{
		int			ncap = l->cap ? l->cap * 2 : 8;
		ExprNode  **items = script_mem_realloc(l->items,
											   sizeof(ExprNode *) * ncap);

		if (items == NULL)
		{
			expr_free(node);
			expr_set_error(p, p->tok.end - 1, "out of memory", NULL, 0);
			return false;
		}
		l->items = items;
		l->cap = ncap;
	}
	l->items[l->n++] = node;
	return true;
}

static void
expr_args_discard(ExprArgList *l)
{
	int			i;

	for (i = 0; i < l->n; i++)
		expr_free(l->items[i]);
	script_mem_free(l->items);
	l->items = NULL;
	l->n = l->cap = 0;
}

/* function call: IDENT already current */
static ExprNode *
expr_parse_call(ExprParser *p)
{
	const ExprFuncDef *def = NULL;
	ExprArgList args = {NULL, 0, 0};
	ExprNode   *node;
	size_t		k;
	int			len = p->tok.end - p->tok.start;
	const char *name = p->text + p->tok.start;

	for (k = 0; k < sizeof(expr_functions) / sizeof(expr_functions[0]); k++)
	{
		if ((int) strlen(expr_functions[k].name) == len &&
			strncasecmp(expr_functions[k].name, name, len) == 0)
		{
			def = &expr_functions[k];
			break;
		}
	}
	if (def == NULL)
	{
		expr_set_error(p, p->tok.end - 1, "unexpected function name", name, len);
		return NULL;
	}
	expr_lex(p);
	if (p->tok.kind != ET_LPAREN)
	{
		if (p->tok.kind != ET_ERROR)
			expr_syntax_error(p);
		return NULL;
	}
	expr_lex(p);
	if (p->tok.kind != ET_RPAREN)
	{
		for (;;)
		{
			if (!expr_args_push(p, &args, expr_parse_expr(p, 0)))
				goto fail;
			if (p->tok.kind == ET_COMMA)
			{
				expr_lex(p);
				continue;
			}
			if (p->tok.kind != ET_RPAREN)
			{
				if (p->tok.kind != ET_ERROR)
					expr_syntax_error(p);
				goto fail;
			}
			break;
		}
	}

	/* argument count checks happen when ")" is reached, as in pgbench */
	switch (def->nargs)
	{
		case NARGS_AT_LEAST_ONE:
			if (args.n == 0)
			{
				expr_set_error(p, p->tok.end - 1,
							   "at least one argument expected", def->name, -1);
				goto fail;
			}
			break;
		case NARGS_HASH:
		case NARGS_PERMUTE:
			{
				int			min = def->nargs == NARGS_HASH ? 1 : 2;

				if (args.n < min || args.n > min + 1)
				{
					expr_set_error(p, p->tok.end - 1,
								   "unexpected number of arguments", def->name, -1);
					goto fail;
				}
				if (args.n == min &&
					!expr_args_push(p, &args,
									expr_make_var(p, "default_seed", 12)))
					goto fail;
				break;
			}
		default:
			if (args.n != def->nargs)
			{
				expr_set_error(p, p->tok.end - 1,
							   "unexpected number of arguments", def->name, -1);
				goto fail;
			}
			break;
	}
	expr_lex(p);				/* consume ")" */
	node = expr_make_func(p, def->func, args.items, args.n);
	script_mem_free(args.items);
	return node;

fail:
	expr_args_discard(&args);
	return NULL;
}

/* CASE WHEN c THEN v [WHEN ...] [ELSE e] END; CASE already current */
static ExprNode *
expr_parse_case(ExprParser *p)
{
	ExprArgList args = {NULL, 0, 0};
	ExprNode   *node;

	expr_lex(p);
	if (p->tok.kind != ET_WHEN)
		goto syntax;
	while (p->tok.kind == ET_WHEN)
	{
		expr_lex(p);
		if (!expr_args_push(p, &args, expr_parse_expr(p, 0)))
			goto fail;
		if (p->tok.kind != ET_THEN)
			goto syntax;
		expr_lex(p);
		if (!expr_args_push(p, &args, expr_parse_expr(p, 0)))
			goto fail;
	}
	if (p->tok.kind == ET_ELSE)
	{
		expr_lex(p);
		if (!expr_args_push(p, &args, expr_parse_expr(p, 0)))
			goto fail;
	}
	else if (!expr_args_push(p, &args,
							 expr_make_const(p, EXPR_VAL_NULL, 0, 0, false)))
		goto fail;
	if (p->tok.kind != ET_END)
		goto syntax;
	expr_lex(p);
	node = expr_make_func(p, EF_CASE, args.items, args.n);
	script_mem_free(args.items);
	return node;

syntax:
	if (p->tok.kind != ET_ERROR)
		expr_syntax_error(p);
fail:
	expr_args_discard(&args);
	return NULL;
}

/* prefix operators and primaries */
static ExprNode *
expr_parse_prefix(ExprParser *p)
{
	ExprToken	t = p->tok;
	ExprNode   *node;

	switch (t.kind)
	{
		case ET_ERROR:
			return NULL;
		case ET_LPAREN:
			expr_lex(p);
			node = expr_parse_expr(p, 0);
			if (node == NULL)
				return NULL;
			if (p->tok.kind != ET_RPAREN)
			{
				if (p->tok.kind != ET_ERROR)
					expr_syntax_error(p);
				expr_free(node);
				return NULL;
			}
			expr_lex(p);
			return node;
		case ET_PLUS:
			expr_lex(p);
			return expr_parse_expr(p, PREC_UNARY);
		case ET_MINUS:
			expr_lex(p);
			if (p->tok.kind == ET_MAXINT_PLUS_ONE)
			{
				expr_lex(p);
				return expr_make_const(p, EXPR_VAL_INT, INT64_MIN, 0, false);
			}
			return expr_make_op(p, EF_SUB,
								expr_make_const(p, EXPR_VAL_INT, 0, 0, false),
								expr_parse_expr(p, PREC_UNARY));
		case ET_TILDE:
			expr_lex(p);
			return expr_make_op(p, EF_BITXOR,
								expr_make_const(p, EXPR_VAL_INT, -1, 0, false),
								expr_parse_expr(p, PREC_TILDE + 1));
		case ET_NOT:
			expr_lex(p);
			return expr_make_uop(p, EF_NOT, expr_parse_expr(p, PREC_NOT + 1));
		case ET_NULL:
			expr_lex(p);
			return expr_make_const(p, EXPR_VAL_NULL, 0, 0, false);
		case ET_BOOL:
			expr_lex(p);
			return expr_make_const(p, EXPR_VAL_BOOL, 0, 0, t.bval);
		case ET_INT:
			expr_lex(p);
			return expr_make_const(p, EXPR_VAL_INT, t.ival, 0, false);
		case ET_DOUBLE:
			expr_lex(p);
			return expr_make_const(p, EXPR_VAL_DOUBLE, 0, t.dval, false);
		case ET_VAR:
			node = expr_make_var(p, p->text + t.start + 1, t.end - t.start - 1);
			expr_lex(p);
			return node;
		case ET_IDENT:
			return expr_parse_call(p);
		case ET_CASE:
			return expr_parse_case(p);
		default:
			expr_syntax_error(p);
			return NULL;
	}
}

static ExprFunc
expr_binary_func(ExprTok t, bool *swap)
{
	*swap = false;
	switch (t)
	{
		case ET_OR: return EF_OR;
		case ET_AND: return EF_AND;
		case ET_LT: return EF_LT;
		case ET_GT: *swap = true; return EF_LT;
		case ET_LE: return EF_LE;
		case ET_GE: *swap = true; return EF_LE;
		case ET_EQ: return EF_EQ;
		case ET_NE: return EF_NE;
		case ET_BITOR: return EF_BITOR;
		case ET_BITXOR: return EF_BITXOR;
		case ET_BITAND: return EF_BITAND;
		case ET_LSHIFT: return EF_LSHIFT;
		case ET_RSHIFT: return EF_RSHIFT;
		case ET_PLUS: return EF_ADD;
		case ET_MINUS: return EF_SUB;
		case ET_MUL: return EF_MUL;
		case ET_DIV: return EF_DIV;
		case ET_MOD: return EF_MOD;
		default: return EF_ADD;		/* not reached */
	}
}

/* postfix IS [NOT] NULL|TRUE|FALSE, ISNULL, NOTNULL applied to lhs */
static ExprNode *
expr_parse_is(ExprParser *p, ExprNode *lhs)
{
	bool		negate = false;
	ExprNode   *rhs;
	ExprNode   *node;

	if (p->tok.kind == ET_ISNULL || p->tok.kind == ET_NOTNULL)
	{
		negate = p->tok.kind == ET_NOTNULL;
		expr_lex(p);
		rhs = expr_make_const(p, EXPR_VAL_NULL, 0, 0, false);
	}
	else
	{
		expr_lex(p);			/* IS */
		if (p->tok.kind == ET_NOT)
		{
			negate = true;
			expr_lex(p);
		}
		if (p->tok.kind == ET_NULL)
			rhs = expr_make_const(p, EXPR_VAL_NULL, 0, 0, false);
		else if (p->tok.kind == ET_BOOL)
			rhs = expr_make_const(p, EXPR_VAL_BOOL, 0, 0, p->tok.bval);
		else
		{
			if (p->tok.kind != ET_ERROR)
				expr_syntax_error(p);
			expr_free(lhs);
			return NULL;
		}
		expr_lex(p);
	}
	node = expr_make_op(p, EF_IS, lhs, rhs);
	if (negate)
		node = expr_make_uop(p, EF_NOT, node);
	return node;
}

static ExprNode *
expr_parse_expr(ExprParser *p, int minprec)
{
	ExprNode   *lhs;

	if (++p->nesting > EXPR_MAX_DEPTH)
	{
		expr_set_error(p, p->tok.end - 1, "expression is too deeply nested",
					   NULL, 0);
		p->nesting--;
		return NULL;
	}

	lhs = expr_parse_prefix(p);
	while (lhs != NULL)
	{
		ExprTok		op = p->tok.kind;
		int			prec;
		bool		swap;
		ExprFunc	func;
		ExprNode   *rhs;

		if (op == ET_IS || op == ET_ISNULL || op == ET_NOTNULL)
		{
			if (PREC_IS < minprec)
				break;
			lhs = expr_parse_is(p, lhs);
			continue;
		}
		prec = expr_binary_prec(op);
		if (prec == 0 || prec < minprec)
			break;
		expr_lex(p);
		rhs = expr_parse_expr(p, prec + 1);
		if (rhs == NULL)
		{
			expr_free(lhs);
			lhs = NULL;
			break;
		}
		/* comparisons are non-associative: "a < b < c" is an error */
		if (prec == PREC_CMP && expr_binary_prec(p->tok.kind) == PREC_CMP)
		{
			expr_syntax_error(p);
			expr_free(lhs);
			expr_free(rhs);
			lhs = NULL;
			break;
		}
		func = expr_binary_func(op, &swap);
		lhs = swap ? expr_make_op(p, func, rhs, lhs)
			: expr_make_op(p, func, lhs, rhs);
	}
	p->nesting--;
	return lhs;
}

/*
 * After an error, pgbench's scanner lexes on to the end of the line to echo
 * it, and an error its lexer meets on the way (an unexpected character, a
 * constant overflow) reports itself instead: the last one on the line wins,
 * with its own caret.  Do the same from just after the first error.
 */
static void
expr_relex_rest(ExprParser *p)
{
	ExprParser	q;
	ExprParseError later;

	if (strcmp(p->err->message, "parsing was interrupted") == 0 ||
		strcmp(p->err->message, "out of memory") == 0)
		return;
	q = *p;
	q.err = &later;
	q.failed = false;
	q.pos = p->err->offset + 1;
	while (q.pos < q.len)
	{
		expr_lex(&q);
		if (q.tok.kind == ET_EOF)
			break;
		if (q.failed)
		{
			*p->err = later;
			q.failed = false;
		}
	}
}

ExprNode *
expr_parse(const char *text, size_t len, int end_offset,
		   ExprResolveVar resolve, void *resolve_arg, ExprParseError *err)
{
	ExprParser	p;
	ExprNode   *node;

	memset(&p, 0, sizeof(p));
	memset(err, 0, sizeof(*err));
	p.text = text;
	p.len = (int) len;
	p.end_offset = end_offset;
	p.err = err;
	p.resolve = resolve;
	p.resolve_arg = resolve_arg;

	expr_lex(&p);
	node = expr_parse_expr(&p, 0);
	if (node != NULL && p.tok.kind != ET_EOF)
	{
		if (p.tok.kind != ET_ERROR)
			expr_syntax_error(&p);
		expr_free(node);
		node = NULL;
	}
	if (node == NULL && !p.failed)
		expr_syntax_error(&p);
	if (node == NULL)
		expr_relex_rest(&p);
	return node;
}

/* ----------------------------------------------------------------------
 * Random distributions, hashes, permutation (pgbench semantics)
 * ---------------------------------------------------------------------- */

/*
 * (int64) of a double, defined for every input: NaN and out-of-range values
 * give INT64_MIN, which is what pgbench's plain cast yields on x86-64.
 */
static int64_t
expr_double_to_int64(double d)
{
	if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
		return INT64_MIN;
	return (int64_t) d;
}

static int64_t
expr_getrand(prng_state *st, int64_t min, int64_t max)
{
	return min + (int64_t) prng_uint64_range(st, 0, (uint64_t) max - (uint64_t) min);
}

static int64_t
expr_rand_exponential(prng_state *st, int64_t min, int64_t max, double param)
{
	double		cut = exp(-param);
	double		uniform = 1.0 - prng_double(st);	/* (0, 1] */
	double		r = -log(cut + (1.0 - cut) * uniform) / param;

	return min + expr_double_to_int64((max - min + 1) * r);
}

static int64_t
expr_rand_gaussian(prng_state *st, int64_t min, int64_t max, double param)
{
	double		z;
	double		r;

	do
		z = prng_double_normal(st);
	while (z < -param || z >= param);

	r = (z + param) / (param * 2.0);
	return min + expr_double_to_int64((max - min + 1) * r);
}

/* Devroye's rejection method for the zipfian distribution, s > 1 */
static int64_t
expr_rand_zipfian(prng_state *st, int64_t min, int64_t max, double s)
{
	int64_t		n = max - min + 1;
	double		b = pow(2.0, s - 1.0);
	double		x;

	if (n <= 1)
		return min;
	for (;;)
	{
		double		u = prng_double(st);
		double		v = prng_double(st);
		double		t;

		x = floor(pow(u, -1.0 / (s - 1.0)));
		t = pow(1.0 + 1.0 / x, s - 1.0);
		if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= n)
			break;
	}
	return min - 1 + expr_double_to_int64(x);
}

int64_t
expr_hash_fnv1a(int64_t val, uint64_t seed)
{
	uint64_t	h = UINT64_C(0xcbf29ce484222325) ^ seed;
	uint64_t	v = (uint64_t) val;
	int			i;

	for (i = 0; i < 8; i++)
	{
		h ^= v & 0xff;
		h *= UINT64_C(0x100000001b3);
		v >>= 8;
	}
	return (int64_t) h;
}

int64_t
expr_hash_murmur2(int64_t val, uint64_t seed)
{
	const uint64_t m = UINT64_C(0xc6a4a7935bd1e995);
	uint64_t	h = seed ^ UINT64_C(0x35253c9ade8f4ca8);	/* m * 8 */
	uint64_t	k = (uint64_t) val;

	k *= m;
	k ^= k >> 47;
	k *= m;
	h ^= k;
	h *= m;
	h ^= h >> 47;
	h *= m;
	h ^= h >> 47;
	return (int64_t) h;
}

int64_t
expr_permute(int64_t val, int64_t isize, int64_t seed)
{
	prng_state	st;
	uint64_t	size;
	uint64_t	v;
	uint64_t	mask;
	int			bits;
	int			round;

	if (isize < 2)
		return 0;
	prng_seed(&st, (uint64_t) seed);
	size = (uint64_t) isize;
	v = (uint64_t) val % size;
	bits = prng_leftmost_one_pos64(size);
	mask = (UINT64_C(1) << bits) - 1;

	/*
	 * Six rounds of: an odd multiply / xor / rotate bijection on the low
	 * window [0, mask], the same on the high window [size-1-mask, size-1],
	 * then a random rotation of the whole range.
	 */
	for (round = 0; round < 6; round++)
	{
		uint64_t	m,
					r,
					t;

		m = (prng_uint64(&st) & mask) | 1;
		r = prng_uint64(&st) & mask;
		if (v <= mask)
		{
			v = ((v * m) ^ r) & mask;
			v = ((v << 1) & mask) | (v >> (bits - 1));
		}

		m = (prng_uint64(&st) & mask) | 1;
		r = prng_uint64(&st) & mask;
		t = size - 1 - v;
		if (t <= mask)
		{
			t = ((t * m) ^ r) & mask;
			t = ((t << 1) & mask) | (t >> (bits - 1));
			v = size - 1 - t;
		}

		r = prng_uint64_range(&st, 0, size - 1);
		v = (v + r) % size;
	}
	return (int64_t) v;
}

/* ----------------------------------------------------------------------
 * Evaluator
 * ---------------------------------------------------------------------- */

static bool expr_eval_node(const ExprNode *node, ExprEvalContext *ctx,
						   ExprValue *ret);

static bool expr_error(ExprEvalContext *ctx, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

static bool
expr_error(ExprEvalContext *ctx, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(ctx->errmsg, sizeof(ctx->errmsg), fmt, ap);
	va_end(ap);
	return false;
}

static inline void
expr_set_int(ExprValue *v, int64_t i)
{
	v->type = EXPR_VAL_INT;
	v->u.ival = i;
}

static inline void
expr_set_double(ExprValue *v, double d)
{
	v->type = EXPR_VAL_DOUBLE;
	v->u.dval = d;
}

static inline void
expr_set_bool(ExprValue *v, bool b)
{
	v->type = EXPR_VAL_BOOL;
	v->u.bval = b;
}

static inline void
expr_set_null(ExprValue *v)
{
	v->type = EXPR_VAL_NULL;
	v->u.ival = 0;
}

static bool
expr_to_bool(ExprEvalContext *ctx, const ExprValue *v, bool *out)
{
	if (v->type == EXPR_VAL_BOOL)
	{
		*out = v->u.bval;
		return true;
	}
	*out = false;
	return expr_error(ctx, "cannot coerce %s to boolean", expr_type_name(v->type));
}

static bool
expr_to_int(ExprEvalContext *ctx, const ExprValue *v, int64_t *out)
{
	if (v->type == EXPR_VAL_INT)
	{
		*out = v->u.ival;
		return true;
	}
	if (v->type == EXPR_VAL_DOUBLE)
	{
		double		d = rint(v->u.dval);

		/* the int64 range check PostgreSQL calls FLOAT8_FITS_IN_INT64 */
		if (isnan(d) || !(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
		{
			char		buf[400];

			expr_format_double(buf, sizeof(buf), "%f", d);
			return expr_error(ctx, "double to int overflow for %s", buf);
		}
		*out = (int64_t) d;
		return true;
	}
	return expr_error(ctx, "cannot coerce %s to int", expr_type_name(v->type));
}

static bool
expr_to_double(ExprEvalContext *ctx, const ExprValue *v, double *out)
{
	if (v->type == EXPR_VAL_DOUBLE)
	{
		*out = v->u.dval;
		return true;
	}
	if (v->type == EXPR_VAL_INT)
	{
		*out = (double) v->u.ival;
		return true;
	}
	return expr_error(ctx, "cannot coerce %s to double", expr_type_name(v->type));
}

/* AND, OR, CASE: arguments evaluated only as needed */
static bool
expr_eval_lazy(const ExprNode *node, ExprEvalContext *ctx, ExprValue *ret)
{
	ExprValue	a;
	bool		b;
	int			i;

	if (node->func == EF_CASE)
	{
		/* args: cond1, value1, ..., condN, valueN, else */
		for (i = 0; i + 1 < node->nargs; i += 2)
		{
			if (!expr_eval_node(node->args[i], ctx, &a))
				return false;
			if (expr_value_truth(&a))
				return expr_eval_node(node->args[i + 1], ctx, ret);
		}
		return expr_eval_node(node->args[node->nargs - 1], ctx, ret);
	}

	/* AND / OR: NULL on the left yields NULL; no SQL three-valued logic */
	if (!expr_eval_node(node->args[0], ctx, &a))
		return false;
	if (a.type == EXPR_VAL_NULL)
	{
		expr_set_null(ret);
		return true;
	}
	if (!expr_to_bool(ctx, &a, &b))
		return false;
	if (node->func == EF_AND ? !b : b)
	{
		expr_set_bool(ret, b);
		return true;
	}
	if (!expr_eval_node(node->args[1], ctx, &a))
		return false;
	if (a.type == EXPR_VAL_NULL)
	{
		expr_set_null(ret);
		return true;
	}
	if (!expr_to_bool(ctx, &a, &b))
		return false;
	expr_set_bool(ret, b);
	return true;
}

static bool
expr_eval_arith(ExprFunc f, ExprEvalContext *ctx, const ExprValue *l,
				const ExprValue *r, ExprValue *ret)
{
	if ((l->type == EXPR_VAL_DOUBLE || r->type == EXPR_VAL_DOUBLE) && f != EF_MOD)
	{
		double		ld = 0,
					rd = 0;

		if (!expr_to_double(ctx, l, &ld) || !expr_to_double(ctx, r, &rd))
			return false;
		switch (f)
		{
			case EF_ADD: expr_set_double(ret, ld + rd); return true;
			case EF_SUB: expr_set_double(ret, ld - rd); return true;
			case EF_MUL: expr_set_double(ret, ld * rd); return true;
			case EF_DIV: expr_set_double(ret, ld / rd); return true;
			case EF_EQ: expr_set_bool(ret, ld == rd); return true;
			case EF_NE: expr_set_bool(ret, ld != rd); return true;
			case EF_LE: expr_set_bool(ret, ld <= rd); return true;
			case EF_LT: expr_set_bool(ret, ld < rd); return true;
			default: break;
		}
	}
	else
	{
		int64_t		li,
					ri,
					res;

		if (!expr_to_int(ctx, l, &li) || !expr_to_int(ctx, r, &ri))
			return false;
		switch (f)
		{
			case EF_ADD:
				if (__builtin_add_overflow(li, ri, &res))
					return expr_error(ctx, "bigint add out of range");
				expr_set_int(ret, res);
				return true;
			case EF_SUB:
				if (__builtin_sub_overflow(li, ri, &res))
					return expr_error(ctx, "bigint sub out of range");
				expr_set_int(ret, res);
				return true;
			case EF_MUL:
				if (__builtin_mul_overflow(li, ri, &res))
					return expr_error(ctx, "bigint mul out of range");
				expr_set_int(ret, res);
				return true;
			case EF_EQ: expr_set_bool(ret, li == ri); return true;
			case EF_NE: expr_set_bool(ret, li != ri); return true;
			case EF_LE: expr_set_bool(ret, li <= ri); return true;
			case EF_LT: expr_set_bool(ret, li < ri); return true;
			case EF_DIV:
			case EF_MOD:
				if (ri == 0)
					return expr_error(ctx, "division by zero");
				if (ri == -1)
				{
					if (f == EF_MOD)
						expr_set_int(ret, 0);
					else if (li == INT64_MIN)
						return expr_error(ctx, "bigint div out of range");
					else
						expr_set_int(ret, -li);
					return true;
				}
				expr_set_int(ret, f == EF_DIV ? li / ri : li % ri);
				return true;
			default:
				break;
		}
	}
	return expr_error(ctx, "unexpected operator");
}

static bool
expr_eval_random(ExprFunc f, ExprEvalContext *ctx, const ExprValue *v,
				 ExprValue *ret)
{
	int64_t		lb,
				ub,
				delta;
	double		param = 0;
	char		b1[400];

	if (!expr_to_int(ctx, &v[0], &lb) || !expr_to_int(ctx, &v[1], &ub))
		return false;
	if (lb > ub)
		return expr_error(ctx, "empty range given to random");
	if (__builtin_sub_overflow(ub, lb, &delta) ||
		__builtin_add_overflow(delta, 1, &delta))
		return expr_error(ctx, "random range is too large");

	if (f == EF_RANDOM)
	{
		expr_set_int(ret, expr_getrand(ctx->prng, lb, ub));
		return true;
	}
	if (!expr_to_double(ctx, &v[2], &param))
		return false;
	expr_format_double(b1, sizeof(b1), "%f", param);
	if (f == EF_RANDOM_GAUSSIAN)
	{
		if (!(param >= MIN_GAUSSIAN_PARAM) || isinf(param))
			return expr_error(ctx, "gaussian parameter must be at least %f (not %s)",
							  MIN_GAUSSIAN_PARAM, b1);
		expr_set_int(ret, expr_rand_gaussian(ctx->prng, lb, ub, param));
	}
	else if (f == EF_RANDOM_ZIPFIAN)
	{
		if (!(param >= MIN_ZIPFIAN_PARAM && param <= MAX_ZIPFIAN_PARAM))
			return expr_error(ctx, "zipfian parameter must be in range [%.3f, %.0f] (not %s)",
							  MIN_ZIPFIAN_PARAM, MAX_ZIPFIAN_PARAM, b1);
		expr_set_int(ret, expr_rand_zipfian(ctx->prng, lb, ub, param));
	}
	else
	{
		if (!(param > 0.0))
			return expr_error(ctx, "exponential parameter must be greater than zero (not %s)",
							  b1);
		expr_set_int(ret, expr_rand_exponential(ctx->prng, lb, ub, param));
	}
	return true;
}

static bool
expr_eval_std(const ExprNode *node, ExprEvalContext *ctx, ExprValue *ret)
{
	ExprValue	v[EXPR_MAX_FARGS];
	int			nargs;
	int			i;
	bool		has_null = false;
	ExprFunc	f = node->func;

	for (nargs = 0; nargs < EXPR_MAX_FARGS && nargs < node->nargs; nargs++)
	{
		if (!expr_eval_node(node->args[nargs], ctx, &v[nargs]))
			return false;
		has_null |= v[nargs].type == EXPR_VAL_NULL;
	}
	if (node->nargs > EXPR_MAX_FARGS)
		return expr_error(ctx, "too many function arguments, maximum is %d",
						  EXPR_MAX_FARGS);

	if (has_null && f != EF_IS && f != EF_DEBUG)
	{
		expr_set_null(ret);
		return true;
	}

	switch (f)
	{
		case EF_ADD: case EF_SUB: case EF_MUL: case EF_DIV: case EF_MOD:
		case EF_EQ: case EF_NE: case EF_LE: case EF_LT:
			return expr_eval_arith(f, ctx, &v[0], &v[1], ret);

		case EF_BITAND: case EF_BITOR: case EF_BITXOR:
		case EF_LSHIFT: case EF_RSHIFT:
			{
				int64_t		l,
							r;

				if (!expr_to_int(ctx, &v[0], &l) || !expr_to_int(ctx, &v[1], &r))
					return false;
				if (f == EF_BITAND)
					expr_set_int(ret, l & r);
				else if (f == EF_BITOR)
					expr_set_int(ret, l | r);
				else if (f == EF_BITXOR)
					expr_set_int(ret, l ^ r);
				else if (f == EF_LSHIFT)
					/* pgbench does a plain C shift; mask to stay defined */
					expr_set_int(ret, (int64_t) ((uint64_t) l << (r & 63)));
				else
					expr_set_int(ret, l >> (r & 63));
				return true;
			}

		case EF_NOT:
			{
				bool		b;

				if (!expr_to_bool(ctx, &v[0], &b))
					return false;
				expr_set_bool(ret, !b);
				return true;
			}

		case EF_IS:
			expr_set_bool(ret, v[0].type == v[1].type &&
						  (v[0].type != EXPR_VAL_BOOL ||
						   v[0].u.bval == v[1].u.bval));
			return true;

		case EF_PI:
			expr_set_double(ret, M_PI);
			return true;

		case EF_ABS:
			if (v[0].type == EXPR_VAL_INT)
				/* no overflow check, as in pgbench: abs(INT64_MIN) wraps */
				expr_set_int(ret, v[0].u.ival < 0 ?
							 (int64_t) (0 - (uint64_t) v[0].u.ival) : v[0].u.ival);
			else if (v[0].type == EXPR_VAL_DOUBLE)
				expr_set_double(ret, v[0].u.dval < 0.0 ? -v[0].u.dval : v[0].u.dval);
			else
				/*
				 * pgbench 15 reads a boolean's union as a double here (a
				 * denormal or leftover bytes: abs(1 = 1) gave 6.9e-310);
				 * nothing can rely on that, so refuse it as sqrt() does
				 */
				return expr_error(ctx, "cannot coerce %s to double",
								  expr_type_name(v[0].type));
			return true;

		case EF_DEBUG:
			if (ctx->debug != NULL)
				ctx->debug(ctx->debug_arg, &v[0]);
			*ret = v[0];
			return true;

		case EF_DOUBLE: case EF_SQRT: case EF_LN: case EF_EXP:
			{
				double		d = 0;

				if (!expr_to_double(ctx, &v[0], &d))
					return false;
				if (f == EF_SQRT)
					d = sqrt(d);
				else if (f == EF_LN)
					d = log(d);
				else if (f == EF_EXP)
					d = exp(d);
				expr_set_double(ret, d);
				return true;
			}

		case EF_INT:
			{
				int64_t		iv;

				if (!expr_to_int(ctx, &v[0], &iv))
					return false;
				expr_set_int(ret, iv);
				return true;
			}

		case EF_LEAST: case EF_GREATEST:
			{
				bool		havedouble = false;

				for (i = 0; i < nargs; i++)
					if (v[i].type == EXPR_VAL_DOUBLE)
						havedouble = true;
				if (havedouble)
				{
					double		ext = 0,
								d = 0;

					if (!expr_to_double(ctx, &v[0], &ext))
						return false;
					for (i = 1; i < nargs; i++)
					{
						if (!expr_to_double(ctx, &v[i], &d))
							return false;
						if (f == EF_LEAST ? d < ext : d > ext)
							ext = d;
					}
					expr_set_double(ret, ext);
				}
				else
				{
					int64_t		ext,
								iv;

					if (!expr_to_int(ctx, &v[0], &ext))
						return false;
					for (i = 1; i < nargs; i++)
					{
						if (!expr_to_int(ctx, &v[i], &iv))
							return false;
						if (f == EF_LEAST ? iv < ext : iv > ext)
							ext = iv;
					}
					expr_set_int(ret, ext);
				}
				return true;
			}

		case EF_RANDOM: case EF_RANDOM_EXPONENTIAL:
		case EF_RANDOM_GAUSSIAN: case EF_RANDOM_ZIPFIAN:
			return expr_eval_random(f, ctx, v, ret);

		case EF_POW:
			{
				double		l = 0,
							r = 0;

				if (!expr_to_double(ctx, &v[0], &l) || !expr_to_double(ctx, &v[1], &r))
					return false;
				expr_set_double(ret, pow(l, r));
				return true;
			}

		case EF_HASH_FNV1A: case EF_HASH_MURMUR2:
			{
				int64_t		val,
							seed;

				if (!expr_to_int(ctx, &v[0], &val) || !expr_to_int(ctx, &v[1], &seed))
					return false;
				expr_set_int(ret, f == EF_HASH_FNV1A ?
							 expr_hash_fnv1a(val, (uint64_t) seed) :
							 expr_hash_murmur2(val, (uint64_t) seed));
				return true;
			}

		case EF_PERMUTE:
			{
				int64_t		val,
							size,
							seed;

				if (!expr_to_int(ctx, &v[0], &val) ||
					!expr_to_int(ctx, &v[1], &size) ||
					!expr_to_int(ctx, &v[2], &seed))
					return false;
				if (size <= 0)
					return expr_error(ctx, "permute size parameter must be greater than zero");
				expr_set_int(ret, expr_permute(val, size, seed));
				return true;
			}

		case EF_AND: case EF_OR: case EF_CASE:
			break;				/* handled by expr_eval_lazy */
	}
	return expr_error(ctx, "unexpected function");
}

static bool
expr_eval_node(const ExprNode *node, ExprEvalContext *ctx, ExprValue *ret)
{
	switch (node->kind)
	{
		case EN_CONST:
			*ret = node->constant;
			return true;
		case EN_VAR:
			return ctx->get_var(ctx->var_arg, node->varid, node->varname,
								ret, ctx->errmsg);
		case EN_FUNC:
			if (node->func == EF_AND || node->func == EF_OR || node->func == EF_CASE)
				return expr_eval_lazy(node, ctx, ret);
			return expr_eval_std(node, ctx, ret);
	}
	return expr_error(ctx, "unexpected expression node");
}

bool
expr_eval(const ExprNode *node, ExprEvalContext *ctx, ExprValue *result)
{
	ctx->errmsg[0] = '\0';
	return expr_eval_node(node, ctx, result);
}
