/*
 * script.c -- pgbench script parsing, per-client variables and step machine.
 *
 * Owns: see script.h.  In short: text -> immutable Script (commands, a
 * symbol table of every variable name the script mentions, SQL in both
 * protocol forms, \if jump targets); Script + options -> ScriptClient
 * (variables indexed by symbol id, so that the hot path never looks a name
 * up); script_step() runs meta-commands and hands SQL/sleeps to the driver.
 *
 * Must not: do I/O, run shell commands, include PostgreSQL headers, or
 * allocate on the hot path once a client's buffers have grown: variable
 * string buffers, the SQL substitution buffer and the parameter array are
 * per client and reused.
 */
#include "script.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ======================================================================
 * Name indexes: open addressing over dense ids 0..count-1, whose names
 * the owner gives back (a script's symbols, a client's variables), so
 * that finding a name costs O(1) and a script of n names parses in O(n).
 * ====================================================================== */

typedef const char *(*ScriptNameOf) (const void *owner, int id);

static uint32_t
script_name_hash(const char *name, size_t len)
{
	uint32_t	h = 2166136261u;	/* FNV-1a */

	for (size_t i = 0; i < len; i++)
	{
		h ^= (unsigned char) name[i];
		h *= 16777619u;
	}
	return h;
}

static int
script_index_find(const ScriptNameIndex *ix, const void *owner, ScriptNameOf name_of,
				  const char *name, size_t len)
{
	uint32_t	h;

	if (ix->slots == NULL)
		return -1;
	for (h = script_name_hash(name, len) & ix->mask;; h = (h + 1) & ix->mask)
	{
		int			id = ix->slots[h];
		const char *nm;

		if (id < 0)
			return -1;
		nm = name_of(owner, id);
		if (strncmp(nm, name, len) == 0 && nm[len] == '\0')
			return id;
	}
}

static void
script_index_put(ScriptNameIndex *ix, const char *name, int id)
{
	uint32_t	h = script_name_hash(name, strlen(name)) & ix->mask;

	while (ix->slots[h] >= 0)
		h = (h + 1) & ix->mask;
	ix->slots[h] = id;
}

/* add id (== the number of ids so far); false on out of memory */
static bool
script_index_add(ScriptNameIndex *ix, const void *owner, ScriptNameOf name_of, int id)
{
	if (ix->slots == NULL || (size_t) (id + 1) * 2 > (size_t) ix->mask + 1)
	{
		size_t		ncap = ix->slots ? ((size_t) ix->mask + 1) * 2 : 64;
		int		   *ns;

		while (ncap < (size_t) (id + 1) * 2)
			ncap *= 2;
		ns = script_mem_alloc(sizeof(int) * ncap);
		if (ns == NULL)
			return false;
		memset(ns, 0xff, sizeof(int) * ncap);
		script_mem_free(ix->slots);
		ix->slots = ns;
		ix->mask = (uint32_t) (ncap - 1);
		for (int i = 0; i < id; i++)
			script_index_put(ix, name_of(owner, i), i);
	}
	script_index_put(ix, name_of(owner, id), id);
	return true;
}

static void
script_index_free(ScriptNameIndex *ix)
{
	script_mem_free(ix->slots);
	ix->slots = NULL;
	ix->mask = 0;
}

static char *
script_strndup(const char *s, size_t n)
{
	char	   *r = script_mem_alloc(n + 1);

	if (r != NULL)
	{
		memcpy(r, s, n);
		r[n] = '\0';
	}
	return r;
}

/* growable byte buffer */
typedef struct ScriptBuf
{
	char	   *data;
	size_t		len;
	size_t		cap;
} ScriptBuf;

static bool
script_buf_reserve(ScriptBuf *b, size_t extra)
{
	size_t		need = b->len + extra + 1;

	if (need > b->cap)
	{
		size_t		ncap = b->cap ? b->cap : 64;
		char	   *d;

		while (ncap < need)
			ncap *= 2;
		d = script_mem_realloc(b->data, ncap);
		if (d == NULL)
			return false;
		b->data = d;
		b->cap = ncap;
	}
	return true;
}

static bool
script_buf_append(ScriptBuf *b, const char *s, size_t n)
{
	if (!script_buf_reserve(b, n))
		return false;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return true;
}

/* ======================================================================
 * Errors
 * ====================================================================== */

static void
script_err_clear(ScriptError *err)
{
	memset(err, 0, sizeof(*err));
	err->column = -1;
	err->command_index = -1;
}

static void
script_err_nomem(ScriptError *err)
{
	script_err_clear(err);
	err->kind = SCRIPT_ERR_NOMEM;
	snprintf(err->message, sizeof(err->message), "out of memory");
}

static bool script_runtime_error(ScriptError *err, int cmd, const char *cmdname,
								 const char *fmt,...)
			__attribute__((format(printf, 4, 5)));

static bool
script_runtime_error(ScriptError *err, int cmd, const char *cmdname,
					 const char *fmt,...)
{
	va_list		ap;

	script_err_clear(err);
	err->kind = SCRIPT_ERR_RUNTIME;
	err->command_index = cmd;
	snprintf(err->command, sizeof(err->command), "%s", cmdname ? cmdname : "");
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return false;
}

int
script_error_format(const ScriptError *err, char *buf, size_t size)
{
	int			n = 0;
	size_t		off;

#define SCRIPT_APPEND(...) \
	do { \
		off = (size_t) n < size ? (size_t) n : size; \
		n += snprintf(buf + off, size - off, __VA_ARGS__); \
	} while (0)

	if (size > 0)
		buf[0] = '\0';
	if (err->kind == SCRIPT_ERR_SYNTAX)
	{
		SCRIPT_APPEND("%s:%d: %s", err->source, err->lineno, err->message);
		if (err->more[0])
			SCRIPT_APPEND(" (%s)", err->more);
		if (err->column >= 0 && err->line[0] == '\0')
			SCRIPT_APPEND(" at column %d", err->column + 1);
		if (err->command[0])
			SCRIPT_APPEND(" in command \"%s\"", err->command);
		if (err->line[0])
		{
			SCRIPT_APPEND("\n%s", err->line);
			if (err->column >= 0)
				SCRIPT_APPEND("\n%*c error found here", err->column + 1, '^');
		}
	}
	else
	{
		SCRIPT_APPEND("%s", err->message);
		if (err->more[0])
			SCRIPT_APPEND(" (%s)", err->more);
	}
#undef SCRIPT_APPEND
	return n;
}

/* ======================================================================
 * Parsed script
 * ====================================================================== */

/* one ":name" occurrence in an SQL command */
typedef struct ScriptSqlRef
{
	int			offset;			/* of the colon */
	int			len;			/* colon + name */
	int			varid;
} ScriptSqlRef;

typedef struct ScriptCommand
{
	ScriptCommandKind kind;
	int			lineno;
	char	   *text;			/* SQL text, or meta source text */
	size_t		text_len;
	char	   *first_line;

	/* SQL */
	char	   *param_text;
	size_t		param_text_len;
	ScriptSqlRef *refs;
	int			nrefs;
	int			sql_index;
	ScriptResultStore store;
	char	   *store_prefix;

	/* \set */
	int			set_var;
	ExprNode   *expr;			/* \set, \if, \elif */

	/* \sleep: usec = (var ? atoi(var) : value) * mult, in pgbench's int */
	int			sleep_var;		/* -1 for a literal */
	int32_t		sleep_value;
	int32_t		sleep_mult;

	/* \if, \elif: where to go when false; \elif, \else: matching \endif */
	int			jump_false;
	int			jump_end;
} ScriptCommand;

struct Script
{
	char	   *name;
	ScriptCommand *cmds;
	int			ncmds;
	int			cmdcap;
	char	  **syms;			/* variable names, indexed by id */
	int			nsyms;
	int			symcap;
	ScriptNameIndex symindex;	/* name -> id */
	int			nsql;
	int			max_params;
	int			pgbench_major;	/* the language it was read in */
};

static const char *const script_kind_names[] = {
	"sql", "set", "sleep", "if", "elif", "else", "endif",
	"startpipeline", "syncpipeline", "endpipeline"
};

static const char *
script_symbol_name(const void *owner, int id)
{
	return ((const Script *) owner)->syms[id];
}

/* find or add a variable name; returns its id or -1 (out of memory) */
static int
script_symbol(Script *s, const char *name, size_t len)
{
	int			i;
	char	   *copy;

	i = script_index_find(&s->symindex, s, script_symbol_name, name, len);
	if (i >= 0)
		return i;
	if (s->nsyms == s->symcap)
	{
		int			ncap = s->symcap ? s->symcap * 2 : 16;
		char	  **n = script_mem_realloc(s->syms, sizeof(char *) * ncap);

		if (n == NULL)
			return -1;
		s->syms = n;
		s->symcap = ncap;
	}
	copy = script_strndup(name, len);
	if (copy == NULL)
		return -1;
	s->syms[s->nsyms] = copy;
	if (!script_index_add(&s->symindex, s, script_symbol_name, s->nsyms))
	{
		script_mem_free(copy);
		return -1;
	}
	return s->nsyms++;
}

static int
script_resolve_cb(void *arg, const char *name, size_t len)
{
	return script_symbol((Script *) arg, name, len);
}

static ScriptCommand *
script_new_command(Script *s, ScriptCommandKind kind, int lineno)
{
	ScriptCommand *c;

	if (s->ncmds == s->cmdcap)
	{
		int			ncap = s->cmdcap ? s->cmdcap * 2 : 32;
		ScriptCommand *n = script_mem_realloc(s->cmds, sizeof(ScriptCommand) * ncap);

		if (n == NULL)
			return NULL;
		s->cmds = n;
		s->cmdcap = ncap;
	}
	c = &s->cmds[s->ncmds++];
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->lineno = lineno;
	c->set_var = -1;
	c->sleep_var = -1;
	c->jump_false = -1;
	c->jump_end = -1;
	return c;
}

void
script_free(Script *s)
{
	int			i;

	if (s == NULL)
		return;
	for (i = 0; i < s->ncmds; i++)
	{
		ScriptCommand *c = &s->cmds[i];

		script_mem_free(c->text);
		script_mem_free(c->first_line);
		script_mem_free(c->param_text);
		script_mem_free(c->refs);
		script_mem_free(c->store_prefix);
		expr_free(c->expr);
	}
	for (i = 0; i < s->nsyms; i++)
		script_mem_free(s->syms[i]);
	script_mem_free(s->syms);
	script_index_free(&s->symindex);
	script_mem_free(s->cmds);
	script_mem_free(s->name);
	script_mem_free(s);
}

/* ----------------------------------------------------------------------
 * Parse context and parse errors
 * ---------------------------------------------------------------------- */

typedef struct ScriptParser
{
	Script	   *script;
	const char *src;
	size_t		len;
	ScriptError *err;
	bool		failed;
	size_t		line_pos;		/* cache for script_line_at() */
	int			line_no;
	int			major;			/* the pgbench major whose language this is */
	/*
	 * Where pgbench's psql lexer resumes scanning: after the last ";" that
	 * ended an SQL command, or after the last meta-command (false, 0 before
	 * either).  pgbench 15 to 17 number a misplaced \gset by it.
	 */
	bool		rescanned;
	size_t		scan_from;
} ScriptParser;

/* 1-based line of src[pos]; positions asked for mostly increase */
static int
script_line_at(ScriptParser *p, size_t pos)
{
	if (pos < p->line_pos)
	{
		p->line_pos = 0;
		p->line_no = 1;
	}
	for (; p->line_pos < pos && p->line_pos < p->len; p->line_pos++)
		if (p->src[p->line_pos] == '\n')
			p->line_no++;
	return p->line_no;
}

/* a command's text shown under a syntax error is cut to this (bytes) */
#define SCRIPT_ECHO_LINE_MAX 200

/*
 * pgbench's syntax_error(): line is the command text shown under the message
 * (NULL for none), column is relative to it (-1 for none).
 */
static bool
script_syntax_error(ScriptParser *p, int lineno, const char *line, size_t linelen,
					const char *command, const char *msg, const char *more,
					int column)
{
	ScriptError *err = p->err;

	p->failed = true;
	script_err_clear(err);
	err->kind = SCRIPT_ERR_SYNTAX;
	snprintf(err->source, sizeof(err->source), "%s", p->script->name);
	err->lineno = lineno;
	err->column = column;
	err->command_index = p->script->ncmds;
	snprintf(err->message, sizeof(err->message), "%s", msg);
	if (more != NULL)
		snprintf(err->more, sizeof(err->more), "%s", more);
	if (command != NULL)
		snprintf(err->command, sizeof(err->command), "%s", command);
	if (line != NULL)
	{
		/* trim the trailing newline as pgbench does */
		while (linelen > 0 && (line[linelen - 1] == '\n' || line[linelen - 1] == '\r'))
			linelen--;
		/* echoed input: a long command is cut, and a caret past the cut dropped */
		if (linelen > SCRIPT_ECHO_LINE_MAX)
		{
			size_t		cut = SCRIPT_ECHO_LINE_MAX;

			while (cut > 0 && ((unsigned char) line[cut] & 0xC0) == 0x80)
				cut--;
			snprintf(err->line, sizeof(err->line), "%.*s...", (int) cut, line);
			if (column > (int) cut)
				err->column = -1;
		}
		else
			snprintf(err->line, sizeof(err->line), "%.*s", (int) linelen, line);
	}
	return false;
}

static bool
script_parser_nomem(ScriptParser *p)
{
	p->failed = true;
	script_err_nomem(p->err);
	return false;
}

/* ----------------------------------------------------------------------
 * SQL commands
 * ---------------------------------------------------------------------- */

/*
 * Record the ":name" candidates of an SQL text (the same scan pgbench's
 * assignVariables() and parseQuery() make: a colon not followed by a name
 * start skips the whole run of colons, so "::" casts are left alone) and
 * build the "$n" form.
 */
static bool
script_finish_sql(ScriptParser *p, ScriptCommand *c)
{
	const char *t = c->text;
	size_t		n = c->text_len;
	size_t		i = 0;
	int			cap = 0;
	ScriptBuf	pb = {NULL, 0, 0};
	size_t		copied = 0;
	size_t		fl;

	while (i < n)
	{
		const char *colon = memchr(t + i, ':', n - i);
		size_t		j;

		if (colon == NULL)
			break;
		i = (size_t) (colon - t);
		if (i + 1 < n && expr_is_name_start((unsigned char) t[i + 1]))
		{
			ScriptSqlRef *r;
			char		num[16];
			int			nl;

			j = i + 2;
			while (j < n && expr_is_name_char((unsigned char) t[j]))
				j++;
			if (c->nrefs == cap)
			{
				int			ncap = cap ? cap * 2 : 8;
				ScriptSqlRef *nr = script_mem_realloc(c->refs, sizeof(ScriptSqlRef) * ncap);

				if (nr == NULL)
					goto nomem;
				c->refs = nr;
				cap = ncap;
			}
			r = &c->refs[c->nrefs++];
			r->offset = (int) i;
			r->len = (int) (j - i);
			r->varid = script_symbol(p->script, t + i + 1, j - i - 1);
			if (r->varid < 0)
				goto nomem;
			nl = snprintf(num, sizeof(num), "$%d", c->nrefs);
			if (!script_buf_append(&pb, t + copied, i - copied) ||
				!script_buf_append(&pb, num, (size_t) nl))
				goto nomem;
			copied = j;
			i = j;
		}
		else
		{
			while (i < n && t[i] == ':')
				i++;
		}
	}
	if (!script_buf_append(&pb, t + copied, n - copied))
		goto nomem;
	c->param_text = pb.data;
	c->param_text_len = pb.len;
	if (c->nrefs > p->script->max_params)
		p->script->max_params = c->nrefs;

	/* first line, at most 127 bytes, for reports */
	fl = strcspn(t, "\r\n");
	if (fl > 127)
		fl = 127;
	c->first_line = script_strndup(t, fl);
	if (c->first_line == NULL)
		return script_parser_nomem(p);
	c->sql_index = p->script->nsql++;
	return true;

nomem:
	script_mem_free(pb.data);
	return script_parser_nomem(p);
}

/*
 * Turn the collected SQL buffer into a command, unless it holds only
 * whitespace and "--" comments (pgbench's skip_sql_comments()).
 */
static bool
script_emit_sql(ScriptParser *p, ScriptBuf *b, int lineno)
{
	const char *s = b->data;
	size_t		i = 0;
	ScriptCommand *c;

	if (b->len == 0)
		return true;
	for (;;)
	{
		if (i < b->len && isspace((unsigned char) s[i]))
			i++;
		else if (i + 1 < b->len && s[i] == '-' && s[i + 1] == '-')
		{
			const char *nl = memchr(s + i, '\n', b->len - i);

			if (nl == NULL)
			{
				i = b->len;
				break;
			}
			i = (size_t) (nl - s) + 1;
		}
		else
			break;
	}
	if (i >= b->len)
	{
		b->len = 0;
		return true;
	}
	c = script_new_command(p->script, SCRIPT_CMD_SQL, lineno);
	if (c == NULL)
		return script_parser_nomem(p);
	c->text = script_strndup(s + i, b->len - i);
	if (c->text == NULL)
		return script_parser_nomem(p);
	c->text_len = b->len - i;
	b->len = 0;
	return script_finish_sql(p, c);
}

/* ----------------------------------------------------------------------
 * Meta-commands
 * ---------------------------------------------------------------------- */

typedef struct ScriptWord
{
	size_t		start;			/* absolute offsets in the source */
	size_t		end;
} ScriptWord;

/* length of a "\" [\r] "\n" continuation at src[i], or 0 */
static size_t
script_continuation_at(const char *src, size_t len, size_t i)
{
	if (i + 1 < len && src[i] == '\\' && src[i + 1] == '\n')
		return 2;
	if (i + 2 < len && src[i] == '\\' && src[i + 1] == '\r' && src[i + 2] == '\n')
		return 3;
	return 0;
}

static bool
script_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * Split [from, end) into whitespace-separated words; "\"+newline is
 * whitespace, also right after a word.  Returns the number of words found
 * (capped at max, *overflow set if there were more).
 */
static int
script_split_words(const char *src, size_t from, size_t end,
				   ScriptWord *words, int max, bool *overflow)
{
	size_t		i = from;
	int			n = 0;

	*overflow = false;
	while (i < end)
	{
		size_t		k;

		if (script_is_space(src[i]) || src[i] == '\n')
		{
			i++;
			continue;
		}
		if ((k = script_continuation_at(src, end, i)) > 0)
		{
			i += k;
			continue;
		}
		if (n == max)
		{
			*overflow = true;
			return n;
		}
		words[n].start = i;
		while (i < end && !script_is_space(src[i]) && src[i] != '\n' &&
			   script_continuation_at(src, end, i) == 0)
			i++;
		words[n].end = i;
		n++;
	}
	return n;
}

typedef enum ScriptMeta
{
	META_NONE, META_SET, META_SETSHELL, META_SHELL, META_SLEEP,
	META_IF, META_ELIF, META_ELSE, META_ENDIF, META_GSET, META_ASET,
	META_STARTPIPELINE, META_SYNCPIPELINE, META_ENDPIPELINE
} ScriptMeta;

static ScriptMeta
script_meta_lookup(const char *w, size_t n, int major)
{
	static const struct
	{
		const char *name;
		ScriptMeta	meta;
	}			metas[] = {
		{"set", META_SET}, {"setshell", META_SETSHELL}, {"shell", META_SHELL},
		{"sleep", META_SLEEP}, {"if", META_IF}, {"elif", META_ELIF},
		{"else", META_ELSE}, {"endif", META_ENDIF}, {"gset", META_GSET},
		{"aset", META_ASET}, {"startpipeline", META_STARTPIPELINE},
		{"syncpipeline", META_SYNCPIPELINE}, {"endpipeline", META_ENDPIPELINE},
	};
	size_t		i;

	for (i = 0; i < sizeof(metas) / sizeof(metas[0]); i++)
		if (strlen(metas[i].name) == n && strncasecmp(metas[i].name, w, n) == 0)
		{
			/* \syncpipeline came with pgbench 17: 15 and 16 know no such command */
			if (metas[i].meta == META_SYNCPIPELINE && major < 17)
				return META_NONE;
			return metas[i].meta;
		}
	return META_NONE;
}

/*
 * The line a misplaced \gset or \aset is reported at ("\gset must follow
 * an SQL command"): from pgbench 18 the line of its backslash; before, the
 * line where pgbench's psql lexer resumed scanning for the command that
 * reached it, which pgbench 15 to 17 count up to the lexer's position at
 * that time: the line after the previous meta-command (its newline read),
 * the line of the previous ";", or, before the first scan has stopped
 * anywhere, the whole text but its last character (so "\gset\nSELECT 1;\n"
 * reads as line 2).
 */
static int
script_gset_lineno(ScriptParser *p, int backslash_line)
{
	int			n = 1;

	if (p->major >= 18)
		return backslash_line;
	if (p->rescanned)
		return script_line_at(p, p->scan_from);
	for (size_t i = 0; i + 1 < p->len; i++)
		if (p->src[i] == '\n')
			n++;
	return n;
}

/*
 * pgbench's atoi() on a bounded word: glibc's atoi is (int) strtol(), so a
 * value beyond long saturates and then keeps its low 32 bits.
 */
static int32_t
script_atoi_word(const char *s, size_t n)
{
	size_t		i = 0;
	uint64_t	v = 0;
	uint64_t	limit;
	bool		neg = false;

	while (i < n && isspace((unsigned char) s[i]))
		i++;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	/* strtol saturates at LONG_MIN / LONG_MAX */
	limit = neg ? (uint64_t) INT64_MAX + 1 : (uint64_t) INT64_MAX;
	for (; i < n && isdigit((unsigned char) s[i]); i++)
	{
		unsigned	d = s[i] - '0';

		if (v > (limit - d) / 10)
		{
			v = limit;
			break;
		}
		v = v * 10 + d;
	}
	/* atoi keeps the low 32 bits of strtol's long */
	return (int32_t) (uint32_t) (neg ? 0 - v : v);
}

/*
 * Parse the meta-command whose backslash is at src[bs]; *next receives the
 * offset where SQL scanning resumes.
 */
static bool
script_parse_meta(ScriptParser *p, size_t bs, size_t *next)
{
	const char *src = p->src;
	size_t		len = p->len;
	size_t		end = bs + 1;
	bool		has_newline;
	int			lineno = script_line_at(p, bs);
	ScriptWord	words[SCRIPT_MAX_ARGS];
	int			nwords;
	bool		overflow;
	char		name[64];
	ScriptMeta	meta;
	const char *line = src + bs;
	size_t		linelen;
	ScriptCommand *c;
	Script	   *s = p->script;

	/* the command runs to the first newline not escaped by a backslash */
	while (end < len)
	{
		if (src[end] == '\n' &&
			!(src[end - 1] == '\\' ||
			  (src[end - 1] == '\r' && end >= 2 && src[end - 2] == '\\')))
			break;
		end++;
	}
	has_newline = end < len;
	*next = has_newline ? end + 1 : end;
	linelen = end - bs;

	/* command name */
	nwords = script_split_words(src, bs + 1, end, words, 1, &overflow);
	if (nwords == 0)
		return true;			/* a lone backslash: nothing, as in pgbench */
	snprintf(name, sizeof(name), "%.*s",
			 (int) (words[0].end - words[0].start), src + words[0].start);
	meta = script_meta_lookup(src + words[0].start, words[0].end - words[0].start,
							  p->major);

	if (meta == META_SET || meta == META_IF || meta == META_ELIF)
	{
		size_t		expr_start = words[0].end;
		ExprParseError perr;
		ExprNode   *expr;
		int			setvar = -1;

		if (meta == META_SET)
		{
			ScriptWord	w[2];

			if (script_split_words(src, bs + 1, end, w, 2, &overflow) < 2)
				return script_syntax_error(p, lineno, NULL, 0, name,
										   "missing argument", NULL, -1);
			setvar = script_symbol(s, src + w[1].start, w[1].end - w[1].start);
			if (setvar < 0)
				return script_parser_nomem(p);
			expr_start = w[1].end;
		}
		expr = expr_parse(src + expr_start, end - expr_start,
						  (int) (end - expr_start) + (has_newline ? 1 : 0),
						  script_resolve_cb, s, &perr);
		if (expr == NULL)
			return script_syntax_error(p, lineno, line, linelen, name,
									   perr.message,
									   perr.more[0] ? perr.more : NULL,
									   perr.offset + (int) (expr_start - bs));
		c = script_new_command(s, meta == META_SET ? SCRIPT_CMD_SET :
							   meta == META_IF ? SCRIPT_CMD_IF : SCRIPT_CMD_ELIF,
							   lineno);
		if (c == NULL)
		{
			expr_free(expr);
			return script_parser_nomem(p);
		}
		c->expr = expr;
		c->set_var = setvar;
		goto save_text;
	}

	/* all other commands: collect the words */
	nwords = script_split_words(src, bs + 1, end, words, SCRIPT_MAX_ARGS, &overflow);
	if (overflow)
		return script_syntax_error(p, lineno, NULL, 0, name,
								   "too many arguments", NULL, -1);

	switch (meta)
	{
		case META_SLEEP:
			{
				const char *a1;
				size_t		a1len;
				size_t		unit_start = 0,
							unit_len = 0;
				int64_t		mult = 1000000;

				if (nwords < 2)
					return script_syntax_error(p, lineno, line, linelen, name,
											   "missing argument", NULL, -1);
				if (nwords > 3)
					return script_syntax_error(p, lineno, line, linelen, name,
											   "too many arguments", NULL,
											   (int) (words[3].start - bs));
				a1 = src + words[1].start;
				a1len = words[1].end - words[1].start;
				if (nwords == 3)
				{
					unit_start = words[2].start;
					unit_len = words[2].end - words[2].start;
				}
				if (a1[0] != ':')
				{
					size_t		k = 0;
					bool		have_digit;

					/* split "10ms" into number and unit */
					if (a1[k] == '+' || a1[k] == '-')
						k++;
					have_digit = k < a1len && isdigit((unsigned char) a1[k]);
					while (k < a1len && isdigit((unsigned char) a1[k]))
						k++;
					if (k < a1len)
					{
						char		more[128];

						if (nwords == 2 && have_digit)
						{
							unit_start = words[1].start + k;
							unit_len = a1len - k;
							nwords = 3;
						}
						else
						{
							snprintf(more, sizeof(more), "%.*s", (int) a1len, a1);
							return script_syntax_error(p, lineno, line, linelen, name,
													   "invalid sleep time, must be an integer",
													   more, (int) (words[1].start - bs));
						}
					}
				}
				if (nwords == 3)
				{
					const char *u = src + unit_start;

					if (unit_len == 2 && strncasecmp(u, "us", 2) == 0)
						mult = 1;
					else if (unit_len == 2 && strncasecmp(u, "ms", 2) == 0)
						mult = 1000;
					else if (unit_len == 1 && strncasecmp(u, "s", 1) == 0)
						mult = 1000000;
					else
					{
						char		more[128];

						snprintf(more, sizeof(more), "%.*s", (int) unit_len, u);
						return script_syntax_error(p, lineno, line, linelen, name,
												   "unrecognized time unit, must be us, ms or s",
												   more, (int) (unit_start - bs));
					}
				}
				c = script_new_command(s, SCRIPT_CMD_SLEEP, lineno);
				if (c == NULL)
					return script_parser_nomem(p);
				c->sleep_mult = mult;
				if (a1[0] == ':')
				{
					c->sleep_var = script_symbol(s, a1 + 1, a1len - 1);
					if (c->sleep_var < 0)
						return script_parser_nomem(p);
				}
				else
					c->sleep_value = script_atoi_word(a1, a1len);
				goto save_text;
			}

		case META_SHELL:
		case META_SETSHELL:
			/* pgbench's own checks first: its words, and a parse error */
			if (meta == META_SHELL && nwords < 2)
				return script_syntax_error(p, lineno, line, linelen, name,
										   "missing command", NULL, -1);
			if (meta == META_SETSHELL && nwords < 3)
				return script_syntax_error(p, lineno, line, linelen, name,
										   "missing argument", NULL, -1);
			return script_syntax_error(p, lineno, line, linelen, name,
									   SCRIPT_SHELL_REFUSED,
									   "they would run operating system commands as the database server's user",
									   -1);

		case META_ELSE:
		case META_ENDIF:
		case META_STARTPIPELINE:
		case META_SYNCPIPELINE:
		case META_ENDPIPELINE:
			if (nwords != 1)
				return script_syntax_error(p, lineno, line, linelen, name,
										   "unexpected argument", NULL, -1);
			c = script_new_command(s,
								   meta == META_ELSE ? SCRIPT_CMD_ELSE :
								   meta == META_ENDIF ? SCRIPT_CMD_ENDIF :
								   meta == META_STARTPIPELINE ? SCRIPT_CMD_STARTPIPELINE :
								   meta == META_SYNCPIPELINE ? SCRIPT_CMD_SYNCPIPELINE :
								   SCRIPT_CMD_ENDPIPELINE, lineno);
			if (c == NULL)
				return script_parser_nomem(p);
			goto save_text;

		case META_GSET:
		case META_ASET:
			{
				ScriptCommand *prev;

				if (nwords > 2)
					return script_syntax_error(p, lineno, line, linelen, name,
											   "too many arguments", NULL, -1);
				if (s->ncmds == 0)
					return script_syntax_error(p, script_gset_lineno(p, lineno), NULL, 0, NULL,
											   "\\gset must follow an SQL command",
											   NULL, -1);
				prev = &s->cmds[s->ncmds - 1];
				if (prev->kind != SCRIPT_CMD_SQL || prev->store != SCRIPT_STORE_NONE)
					return script_syntax_error(p, script_gset_lineno(p, lineno), NULL, 0, NULL,
											   "\\gset must follow an SQL command",
											   prev->kind != SCRIPT_CMD_SQL ? prev->first_line : NULL,
											   -1);
				prev->store = meta == META_GSET ? SCRIPT_STORE_GSET : SCRIPT_STORE_ASET;
				if (nwords == 2)
					prev->store_prefix = script_strndup(src + words[1].start,
														words[1].end - words[1].start);
				else
					prev->store_prefix = script_strndup("", 0);
				if (prev->store_prefix == NULL)
					return script_parser_nomem(p);
				return true;
			}

		default:
			return script_syntax_error(p, lineno, line, linelen, name,
									   "invalid command", NULL, -1);
	}

save_text:
	/* meta source text, trailing newline trimmed, as pgbench's first_line */
	while (linelen > 0 && (line[linelen - 1] == '\r' || line[linelen - 1] == '\n'))
		linelen--;
	c->text = script_strndup(line, linelen);
	c->first_line = script_strndup(line, linelen);
	if (c->text == NULL || c->first_line == NULL)
		return script_parser_nomem(p);
	c->text_len = linelen;
	return true;
}

/* ----------------------------------------------------------------------
 * The splitter (what psql's lexer does for pgbench)
 * ---------------------------------------------------------------------- */

static bool
script_ident_char(char c)
{
	return expr_is_name_char((unsigned char) c) || c == '$';
}

/* length of a dollar-quote delimiter "$tag$" at src[i], or 0 */
static size_t
script_dollar_tag(const char *src, size_t len, size_t i)
{
	size_t		j = i + 1;

	if (j < len && expr_is_name_start((unsigned char) src[j]))
	{
		j++;
		while (j < len && expr_is_name_char((unsigned char) src[j]))
			j++;
	}
	if (j < len && src[j] == '$')
		return j - i + 1;
	return 0;
}

/*
 * psql's lexer keeps a ";" inside BEGIN ... END from ending a statement that
 * starts CREATE [OR REPLACE] {FUNCTION|PROCEDURE} (a SQL-standard body:
 * BEGIN ATOMIC ... END), and so does pgbench: the first keywords of the
 * statement are noted by their initial (outside parentheses), and then each
 * BEGIN, each CASE inside a BEGIN and each END counted.  pgbench 19 also
 * notes SCHEMA, and tracks each CREATE element of a CREATE SCHEMA the same
 * way.  The notes end at a ";" or "\;" outside parentheses and blocks (as
 * the binaries of 15.20, 16.15, 17.11, 18.6 and 19beta3 do; 15.18's source
 * ended them at any "\;"); a meta-command does not end them (after "SELECT
 * 1 \gset" pgbench reads a CREATE FUNCTION on the next line as no routine).
 */
typedef struct ScriptBlocks
{
	char		init[4];		/* the statement's first keywords' initials */
	int			ninit;
	char		sub[4];			/* 19: those of a CREATE SCHEMA element */
	int			nsub;
	int			begin_depth;
} ScriptBlocks;

static bool
script_word_is(const char *w, size_t n, const char *keyword)
{
	return strlen(keyword) == n && strncasecmp(w, keyword, n) == 0;
}

static void
script_blocks_note(const char *w, size_t n, int major, char *idents, int *count)
{
	if (*count >= 4)
		return;
	if (script_word_is(w, n, "create") || script_word_is(w, n, "function") ||
		script_word_is(w, n, "procedure") || script_word_is(w, n, "or") ||
		script_word_is(w, n, "replace") ||
		(major >= 19 && script_word_is(w, n, "schema")))
		idents[*count] = (char) tolower((unsigned char) w[0]);
	(*count)++;
}

static bool
script_blocks_routine(const char *idents)
{
	return idents[0] == 'c' &&
		(idents[1] == 'f' || idents[1] == 'p' ||
		 (idents[1] == 'o' && idents[2] == 'r' &&
		  (idents[3] == 'f' || idents[3] == 'p')));
}

/* an identifier of the SQL text, outside parentheses */
static void
script_blocks_word(ScriptBlocks *b, const char *w, size_t n, int major)
{
	bool		schema;

	if (b->ninit == 0)
	{
		memset(b->init, 0, sizeof(b->init));
		memset(b->sub, 0, sizeof(b->sub));
		b->nsub = 0;
	}
	script_blocks_note(w, n, major, b->init, &b->ninit);
	schema = b->init[0] == 'c' && b->init[1] == 's';	/* noted from 19 */
	if (schema && b->begin_depth == 0)
	{
		if (script_word_is(w, n, "create"))
		{
			memset(b->sub, 0, sizeof(b->sub));
			b->nsub = 0;
		}
		script_blocks_note(w, n, major, b->sub, &b->nsub);
	}
	if (!script_blocks_routine(b->init) && !(schema && script_blocks_routine(b->sub)))
		return;
	if (script_word_is(w, n, "begin"))
		b->begin_depth++;
	else if (script_word_is(w, n, "case"))
	{
		if (b->begin_depth >= 1)	/* CASE ends with END too */
			b->begin_depth++;
	}
	else if (script_word_is(w, n, "end") && b->begin_depth > 0)
		b->begin_depth--;
}

/*
 * Whether an identifier token of psql's lexer starts at src[i]: a letter,
 * "_" or a non-ASCII byte not inside another token (a number's "1begin", a
 * variable's ":begin"; "::" is a cast).
 */
static bool
script_identifier_at(const char *src, size_t i)
{
	if (!expr_is_name_start((unsigned char) src[i]))
		return false;
	if (i == 0)
		return true;
	if (expr_is_name_char((unsigned char) src[i - 1]) || src[i - 1] == '$')
		return false;
	return !(src[i - 1] == ':' && !(i >= 2 && src[i - 2] == ':'));
}

static bool
script_split(ScriptParser *p)
{
	const char *src = p->src;
	size_t		len = p->len;
	size_t		i = 0;
	int			depth = 0;
	int			lineno = 1;
	ScriptBuf	b = {NULL, 0, 0};
	ScriptBlocks blocks;

	memset(&blocks, 0, sizeof(blocks));

#define APPEND(ptr, n) \
	do { if (!script_buf_append(&b, (ptr), (n))) goto nomem; } while (0)

	while (i < len && !p->failed)
	{
		char		c = src[i];
		size_t		start = i;

		if (script_poll_interrupt())
		{
			script_mem_free(b.data);
			return false;
		}

		if (b.len == 0)
		{
			/* whitespace and "--" comments before a command are dropped */
			if (isspace((unsigned char) c))
			{
				i++;
				continue;
			}
			if (c == '-' && i + 1 < len && src[i + 1] == '-')
			{
				while (i < len && src[i] != '\n')
					i++;
				continue;
			}
			lineno = script_line_at(p, i);
		}

		if (c == '\'')
		{
			/* E'...' strings take backslash escapes */
			bool		escapes = i >= 1 && (src[i - 1] == 'E' || src[i - 1] == 'e') &&
				(i < 2 || !script_ident_char(src[i - 2]));

			i++;
			while (i < len)
			{
				if (escapes && src[i] == '\\' && i + 1 < len)
					i += 2;
				else if (src[i] == '\'' && i + 1 < len && src[i + 1] == '\'')
					i += 2;
				else if (src[i] == '\'')
				{
					i++;
					break;
				}
				else
					i++;
			}
			APPEND(src + start, i - start);
		}
		else if (c == '"')
		{
			i++;
			while (i < len)
			{
				if (src[i] == '"' && i + 1 < len && src[i + 1] == '"')
					i += 2;
				else if (src[i++] == '"')
					break;
			}
			APPEND(src + start, i - start);
		}
		else if (c == '$' && (i == 0 || !script_ident_char(src[i - 1])) &&
				 script_dollar_tag(src, len, i) > 0)
		{
			size_t		tl = script_dollar_tag(src, len, i);
			const char *tag = src + i;

			i += tl;
			for (;;)
			{
				if (i >= len)
					break;
				if (src[i] == '$' && i + tl <= len && memcmp(src + i, tag, tl) == 0)
				{
					i += tl;
					break;
				}
				i++;
			}
			APPEND(src + start, i - start);
		}
		else if (c == '/' && i + 1 < len && src[i + 1] == '*')
		{
			int			nest = 1;

			i += 2;
			while (i < len && nest > 0)
			{
				if (src[i] == '/' && i + 1 < len && src[i + 1] == '*')
					nest++, i += 2;
				else if (src[i] == '*' && i + 1 < len && src[i + 1] == '/')
					nest--, i += 2;
				else
					i++;
			}
			APPEND(src + start, i - start);
		}
		else if (c == '-' && i + 1 < len && src[i + 1] == '-')
		{
			while (i < len && src[i] != '\n')
				i++;
			APPEND(src + start, i - start);
		}
		else if (c == ';')
		{
			APPEND(";", 1);
			i++;
			if (depth == 0 && blocks.begin_depth == 0)
			{
				blocks.ninit = 0;
				/* psql's lexer stops here: pgbench's next scan starts after */
				p->rescanned = true;
				p->scan_from = i;
				if (!script_emit_sql(p, &b, lineno))
					break;
			}
		}
		else if (c == '\\')
		{
			if (i + 1 < len && (src[i + 1] == ';' || src[i + 1] == ':'))
			{
				/* "\;" and "\:" put the bare character into the query */
				if (src[i + 1] == ';' && depth == 0 && blocks.begin_depth == 0)
					blocks.ninit = 0;
				APPEND(src + i + 1, 1);
				i += 2;
			}
			else
			{
				size_t		next;

				if (!script_emit_sql(p, &b, lineno))
					break;
				depth = 0;
				if (!script_parse_meta(p, i, &next))
					break;
				i = next;
				p->rescanned = true;
				p->scan_from = next;
			}
		}
		else if (script_identifier_at(src, i))
		{
			size_t		e = i + 1;

			while (e < len && script_ident_char(src[e]))
				e++;
			if (depth == 0)
				script_blocks_word(&blocks, src + i, e - i, p->major);
			APPEND(src + i, e - i);
			i = e;
		}
		else
		{
			if (c == '(')
				depth++;
			else if (c == ')' && depth > 0)
				depth--;
			APPEND(src + i, 1);
			i++;
		}
	}
	if (!p->failed)
		script_emit_sql(p, &b, lineno);
	script_mem_free(b.data);
	return !p->failed;

nomem:
	script_mem_free(b.data);
	return script_parser_nomem(p);
#undef APPEND
}

/*
 * pgbench's CheckConditional(), plus the jump targets the step machine uses:
 * \if/\elif jump_false = next \elif/\else/\endif at the same level;
 * \elif/\else jump_end = the matching \endif.
 */
static bool
script_check_conditionals(ScriptParser *p)
{
	Script	   *s = p->script;
	int		   *stack;
	int			depth = 0;
	int			i;
	const char *msg = NULL;

	stack = script_mem_alloc(sizeof(int) * (s->ncmds + 1));
	if (stack == NULL)
		return script_parser_nomem(p);

	for (i = 0; i < s->ncmds && msg == NULL; i++)
	{
		ScriptCommand *c = &s->cmds[i];
		ScriptCommand *open;

		switch (c->kind)
		{
			case SCRIPT_CMD_IF:
				stack[depth++] = i;
				break;
			case SCRIPT_CMD_ELIF:
			case SCRIPT_CMD_ELSE:
				if (depth == 0)
				{
					msg = c->kind == SCRIPT_CMD_ELIF ?
						"\\elif without matching \\if" : "\\else without matching \\if";
					break;
				}
				open = &s->cmds[stack[depth - 1]];
				if (open->kind == SCRIPT_CMD_ELSE)
				{
					msg = c->kind == SCRIPT_CMD_ELIF ?
						"\\elif after \\else" : "\\else after \\else";
					break;
				}
				open->jump_false = i;
				stack[depth - 1] = i;
				break;
			case SCRIPT_CMD_ENDIF:
				if (depth == 0)
				{
					msg = "\\endif without matching \\if";
					break;
				}
				s->cmds[stack[--depth]].jump_false = i;
				break;
			default:
				break;
		}
	}
	if (msg == NULL && depth > 0)
	{
		msg = "\\if without matching \\endif";
		i = s->ncmds + 1;
	}
	script_mem_free(stack);

	if (msg != NULL)
	{
		ScriptError *err = p->err;

		p->failed = true;
		script_err_clear(err);
		err->kind = SCRIPT_ERR_CONDITION;
		snprintf(err->source, sizeof(err->source), "%s", s->name);
		err->command_index = i - 1;
		snprintf(err->message, sizeof(err->message),
				 "condition error in script \"%s\" command %d: %s", s->name, i, msg);
		return false;
	}

	/* each \elif/\else: walk the chain from it to find its \endif */
	for (i = 0; i < s->ncmds; i++)
	{
		ScriptCommand *c = &s->cmds[i];

		if (c->kind == SCRIPT_CMD_ELIF || c->kind == SCRIPT_CMD_ELSE)
		{
			int			j = i;

			while (s->cmds[j].kind != SCRIPT_CMD_ENDIF)
				j = s->cmds[j].jump_false;
			c->jump_end = j;
		}
	}
	return true;
}

Script *
script_parse(const char *name, const char *text, const ScriptParseOptions *opts,
			 ScriptError *err)
{
	ScriptParser p;
	Script	   *s;

	script_err_clear(err);
	s = script_mem_alloc(sizeof(Script));
	if (s == NULL)
	{
		script_err_nomem(err);
		return NULL;
	}
	memset(s, 0, sizeof(*s));
	s->pgbench_major = opts != NULL ? opts->pgbench_major : 0;
	if (s->pgbench_major < SCRIPT_PGBENCH_MAJOR_DEFAULT)
		s->pgbench_major = SCRIPT_PGBENCH_MAJOR_DEFAULT;
	s->name = script_strndup(name, strlen(name));
	if (s->name == NULL)
	{
		script_free(s);
		script_err_nomem(err);
		return NULL;
	}

	memset(&p, 0, sizeof(p));
	p.script = s;
	p.src = text;
	p.len = strlen(text);
	p.err = err;
	p.line_no = 1;
	p.major = s->pgbench_major;

	script_interrupt_reset();
	if (!script_split(&p) || !script_check_conditionals(&p))
	{
		script_free(s);
		/* whatever error the stop left half-written, say what happened */
		if (script_interrupt_stopped())
		{
			script_err_clear(err);
			err->kind = SCRIPT_ERR_INTERRUPTED;
			snprintf(err->source, sizeof(err->source), "%s", name);
			snprintf(err->message, sizeof(err->message), "parsing was interrupted");
		}
		script_interrupt_reset();
		return NULL;
	}
	if (script_interrupt_stopped())
	{
		/* a stop seen where no one checked: the script may be incomplete */
		script_free(s);
		script_err_clear(err);
		err->kind = SCRIPT_ERR_INTERRUPTED;
		snprintf(err->source, sizeof(err->source), "%s", name);
		snprintf(err->message, sizeof(err->message), "parsing was interrupted");
		script_interrupt_reset();
		return NULL;
	}
	if (s->ncmds == 0)
	{
		script_err_clear(err);
		err->kind = SCRIPT_ERR_SCRIPT;
		snprintf(err->source, sizeof(err->source), "%s", name);
		snprintf(err->message, sizeof(err->message),
				 "empty command list for script \"%s\"", name);
		script_free(s);
		return NULL;
	}
	return s;
}

/* ----------------------------------------------------------------------
 * Accessors
 * ---------------------------------------------------------------------- */

const char *
script_name(const Script *s)
{
	return s->name;
}

int
script_pgbench_major(const Script *s)
{
	return s->pgbench_major;
}

int
script_command_count(const Script *s)
{
	return s->ncmds;
}

int
script_sql_count(const Script *s)
{
	return s->nsql;
}

ScriptCommandKind
script_command_kind(const Script *s, int i)
{
	return s->cmds[i].kind;
}

const char *
script_command_name(const Script *s, int i)
{
	return script_kind_names[s->cmds[i].kind];
}

const char *
script_command_text(const Script *s, int i)
{
	return s->cmds[i].text;
}

const char *
script_command_first_line(const Script *s, int i)
{
	return s->cmds[i].first_line;
}

int
script_command_lineno(const Script *s, int i)
{
	return s->cmds[i].lineno;
}

const char *
script_sql_param_text(const Script *s, int i)
{
	return s->cmds[i].param_text;
}

int
script_sql_nparams(const Script *s, int i)
{
	return s->cmds[i].nrefs;
}

int
script_sql_index(const Script *s, int i)
{
	return s->cmds[i].kind == SCRIPT_CMD_SQL ? s->cmds[i].sql_index : -1;
}

ScriptResultStore
script_sql_store(const Script *s, int i, const char **prefix)
{
	if (prefix != NULL)
		*prefix = s->cmds[i].store_prefix;
	return s->cmds[i].store;
}

/* ======================================================================
 * Built-in scripts
 * ====================================================================== */

static const ScriptBuiltin script_builtin_table[] = {
	{
		"tpcb-like",
		"<builtin: TPC-B (sort of)>",
		"\\set aid random(1, 100000 * :scale)\n"
		"\\set bid random(1, 1 * :scale)\n"
		"\\set tid random(1, 10 * :scale)\n"
		"\\set delta random(-5000, 5000)\n"
		"BEGIN;\n"
		"UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
		"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
		"UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n"
		"UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n"
		"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
		"END;\n"
	},
	{
		"simple-update",
		"<builtin: simple update>",
		"\\set aid random(1, 100000 * :scale)\n"
		"\\set bid random(1, 1 * :scale)\n"
		"\\set tid random(1, 10 * :scale)\n"
		"\\set delta random(-5000, 5000)\n"
		"BEGIN;\n"
		"UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
		"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
		"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
		"END;\n"
	},
	{
		"select-only",
		"<builtin: select only>",
		"\\set aid random(1, 100000 * :scale)\n"
		"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
	},
};

const ScriptBuiltin *
script_builtins(int *count)
{
	*count = (int) (sizeof(script_builtin_table) / sizeof(script_builtin_table[0]));
	return script_builtin_table;
}

const ScriptBuiltin *
script_builtin_find(const char *name, ScriptError *err)
{
	int			n;
	int			i;
	int			found = 0;
	const ScriptBuiltin *b = script_builtins(&n);
	const ScriptBuiltin *result = NULL;
	size_t		len = strlen(name);
	char		ebuf[EXPR_ECHO_SIZE];

	for (i = 0; i < n; i++)
	{
		if (strncmp(b[i].name, name, len) == 0)
		{
			result = &b[i];
			found++;
		}
	}
	if (found == 1)
		return result;

	script_err_clear(err);
	err->kind = SCRIPT_ERR_SCRIPT;
	if (found == 0)
		snprintf(err->message, sizeof(err->message),
				 "no builtin script found for name \"%s\"", expr_echo(name, ebuf));
	else
		snprintf(err->message, sizeof(err->message),
				 "ambiguous builtin name: %d builtin scripts found for prefix \"%s\"",
				 found, expr_echo(name, ebuf));
	return NULL;
}

/* ======================================================================
 * Seeding (pgbench's order)
 * ====================================================================== */

void
script_seed_client(uint64_t seed, int client_index, prng_state *state)
{
	prng_state	base;
	uint64_t	draw = 0;
	int			i;

	prng_seed(&base, seed);
	for (i = 0; i <= client_index; i++)
		draw = prng_uint64(&base);
	prng_seed(state, draw);
}

int64_t
script_seed_default_seed(uint64_t seed, int nclients)
{
	prng_state	base;
	int			i;

	prng_seed(&base, seed);
	for (i = 0; i < nclients; i++)
		(void) prng_uint64(&base);
	return (int64_t) prng_uint64(&base);
}

void
script_seed_thread(uint64_t seed, int nclients, bool default_seed_drawn,
				   int thread_index, prng_state *choose,
				   prng_state *throttle, prng_state *sample)
{
	prng_state	base;
	int			i;
	int			skip = nclients + (default_seed_drawn ? 1 : 0) + 3 * thread_index;

	prng_seed(&base, seed);
	for (i = 0; i < skip; i++)
		(void) prng_uint64(&base);
	prng_seed(choose, prng_uint64(&base));
	prng_seed(throttle, prng_uint64(&base));
	prng_seed(sample, prng_uint64(&base));
}

/* ======================================================================
 * Clients
 * ====================================================================== */

typedef struct ScriptVar
{
	const char *name;			/* script symbol, or own copy */
	bool		owns_name;
	bool		defined;
	bool		str_valid;		/* str holds the current string form */
	ExprValue	value;			/* EXPR_VAL_NONE: typed lazily from str */
	char	   *str;			/* own buffer, or a shared define's value */
	size_t		str_cap;		/* 0 when str is not ours (shared or NULL) */
} ScriptVar;

struct ScriptClient
{
	/* the mix; every script's symbol ids map to slots of the shared vars */
	const Script **scripts;
	int			nscripts;
	int		  **maps;			/* [script][symbol id] -> index in vars */
	int		   *mapdata;		/* storage of all the maps */

	/* the selected script (pgbench's use_file) */
	const Script *script;
	const int  *map;
	int			cur;
	int			bad_index;		/* select() got this out-of-range index... */
	bool		bad_select;		/* ...and the next step must fail */

	ScriptQueryMode mode;
	int			client_id;

	ScriptVar  *vars;			/* shared by all scripts, by name; script 0's
								 * symbols are [0, nsyms) in its order */
	int			nvars;
	int			varcap;
	ScriptNameIndex varindex;	/* name -> index in vars */

	int			pc;
	bool		sql_pending;
	bool		tx_started;
	bool		in_pipeline;
	prng_state	prng;
	prng_state	tx_prng;		/* at transaction start, for retries */

	ScriptBuf	sqlbuf;
	const char **params;
	ScriptBuf	namebuf;

	ExprEvalContext ectx;
	void		(*debug) (void *arg, int script_index, int command_index, const ExprValue *value);
	void	   *debug_arg;
};

static const char *
script_client_var_name(const void *owner, int id)
{
	return ((const ScriptClient *) owner)->vars[id].name;
}

static int
script_client_find(const ScriptClient *c, const char *name)
{
	return script_index_find(&c->varindex, c, script_client_var_name, name, strlen(name));
}

/* find or create a variable by name; -1 on out of memory */
static int
script_client_lookup_create(ScriptClient *c, const char *name)
{
	int			i = script_client_find(c, name);
	ScriptVar  *v;

	if (i >= 0)
		return i;
	if (c->nvars == c->varcap)
	{
		int			ncap = c->varcap ? c->varcap * 2 : 16;
		ScriptVar  *nv = script_mem_realloc(c->vars, sizeof(ScriptVar) * ncap);

		if (nv == NULL)
			return -1;
		c->vars = nv;
		c->varcap = ncap;
	}
	v = &c->vars[c->nvars];
	memset(v, 0, sizeof(*v));
	v->name = script_strndup(name, strlen(name));
	if (v->name == NULL)
		return -1;
	v->owns_name = true;
	if (!script_index_add(&c->varindex, c, script_client_var_name, c->nvars))
	{
		script_mem_free((char *) v->name);
		v->name = NULL;
		return -1;
	}
	return c->nvars++;
}

/*
 * Make str an own buffer of at least n + 1 bytes.  Its content is not kept:
 * every caller writes the whole string next.  A shared define's value
 * (str_cap 0) is left alone, never written or freed.
 */
static bool
script_var_reserve(ScriptVar *v, size_t n)
{
	if (n + 1 > v->str_cap)
	{
		size_t		ncap = v->str_cap ? v->str_cap : 32;
		char	   *s;

		while (ncap < n + 1)
			ncap *= 2;
		if (v->str_cap == 0)
			s = script_mem_alloc(ncap);
		else
			s = script_mem_realloc(v->str, ncap);
		if (s == NULL)
			return false;
		v->str = s;
		v->str_cap = ncap;
	}
	return true;
}

/* a string variable reading a value that outlives it, without a copy */
static void
script_var_share_string(ScriptVar *v, const char *value)
{
	if (v->str_cap > 0)
		script_mem_free(v->str);
	v->str = (char *) value;
	v->str_cap = 0;
	v->str_valid = true;
	v->value.type = EXPR_VAL_NONE;
	v->defined = true;
}

static bool
script_var_set_string(ScriptVar *v, const char *value)
{
	size_t		n = strlen(value);

	if (!script_var_reserve(v, n))
		return false;
	memmove(v->str, value, n + 1);
	v->str_valid = true;
	v->value.type = EXPR_VAL_NONE;
	v->defined = true;
	return true;
}

static void
script_var_set_value(ScriptVar *v, const ExprValue *value)
{
	v->value = *value;
	v->str_valid = false;
	v->defined = true;
}

/* the string form (pgbench's getVariable); NULL if undefined or no memory */
static const char *
script_var_string(ScriptVar *v)
{
	if (!v->defined)
		return NULL;
	if (!v->str_valid)
	{
		if (!script_var_reserve(v, 31))
			return NULL;
		expr_value_format(&v->value, v->str, v->str_cap);
		v->str_valid = true;
	}
	return v->str;
}

/* typed value, typing a string lazily (pgbench's makeVariableValue) */
static bool
script_var_value(ScriptVar *v, ExprValue *out, char *errmsg)
{
	if (!v->defined)
	{
		char		ebuf[EXPR_ECHO_SIZE];

		snprintf(errmsg, EXPR_MSG_SIZE, "undefined variable \"%s\"", expr_echo(v->name, ebuf));
		return false;
	}
	if (v->value.type == EXPR_VAL_NONE &&
		!expr_value_from_string(v->str, v->name, &v->value, errmsg))
		return false;
	*out = v->value;
	return true;
}

/* the slot of the selected script's variable id (the hot-path lookup) */
static inline ScriptVar *
script_client_var(ScriptClient *c, int varid)
{
	return &c->vars[c->map[varid]];
}

static bool
script_get_var_cb(void *arg, int varid, const char *name, ExprValue *out,
				  char *errmsg)
{
	ScriptClient *c = arg;

	(void) name;
	return script_var_value(script_client_var(c, varid), out, errmsg);
}

static void
script_debug_cb(void *arg, const ExprValue *value)
{
	ScriptClient *c = arg;

	if (c->debug != NULL)
		c->debug(c->debug_arg, c->cur, c->pc, value);
}

static bool
script_client_set_int(ScriptClient *c, const char *name, int64_t val)
{
	int			i = script_client_lookup_create(c, name);
	ExprValue	v;

	if (i < 0)
		return false;
	v.type = EXPR_VAL_INT;
	v.u.ival = val;
	script_var_set_value(&c->vars[i], &v);
	return true;
}

/* in extended/prepared mode, pgbench refuses a statement with > 255 params */
static bool
script_check_params(const Script *s, ScriptQueryMode mode, ScriptError *err)
{
	int			i;

	if (mode == SCRIPT_QUERY_SIMPLE || s->max_params <= SCRIPT_MAX_PARAMS)
		return true;
	for (i = 0; i < s->ncmds; i++)
	{
		if (s->cmds[i].kind == SCRIPT_CMD_SQL && s->cmds[i].nrefs > SCRIPT_MAX_PARAMS)
		{
			err->kind = SCRIPT_ERR_SCRIPT;
			err->command_index = i;
			snprintf(err->source, sizeof(err->source), "%s", s->name);
			snprintf(err->message, sizeof(err->message),
					 "statement has too many arguments (maximum is %d): %.150s",
					 SCRIPT_MAX_PARAMS, s->cmds[i].text);
			return false;
		}
	}
	return true;
}

/*
 * Give every symbol of every script a slot in the client's variable table.
 * Script 0's symbols take slots 0..nsyms-1 in order (so a single-script
 * client is laid out exactly as before); a later script's symbol reuses the
 * slot of an earlier symbol of the same name, or gets a new one.
 */
static bool
script_client_map_symbols(ScriptClient *c)
{
	int			k;
	int		   *next = c->mapdata;

	for (k = 0; k < c->nscripts; k++)
	{
		const Script *s = c->scripts[k];
		int			i;

		c->maps[k] = next;
		next += s->nsyms;
		for (i = 0; i < s->nsyms; i++)
		{
			int			slot = k == 0 ? -1 : script_client_find(c, s->syms[i]);

			if (slot < 0)
			{
				slot = c->nvars;
				c->vars[slot].name = s->syms[i];
				if (!script_index_add(&c->varindex, c, script_client_var_name, slot))
					return false;
				c->nvars++;
			}
			c->maps[k][i] = slot;
		}
	}
	return true;
}

ScriptClient *
script_client_create(const Script *s, const ScriptClientOptions *opts,
					 ScriptError *err)
{
	return script_client_create_multi(&s, 1, opts, err);
}

ScriptClient *
script_client_create_multi(const Script *const *scripts, int nscripts,
						   const ScriptClientOptions *opts, ScriptError *err)
{
	ScriptClient *c;
	int			i;
	int			totsyms = 0;
	int			max_params = 0;
	static const char *const autos[] = {"scale", "client_id", "random_seed", "default_seed"};

	script_err_clear(err);

	if (scripts == NULL || nscripts < 1)
	{
		err->kind = SCRIPT_ERR_SCRIPT;
		snprintf(err->message, sizeof(err->message), "no script to run");
		return NULL;
	}
	for (i = 0; i < nscripts; i++)
	{
		/* pgbench checks the parameter limit when it prepares the script */
		if (!script_check_params(scripts[i], opts->query_mode, err))
			return NULL;
		totsyms += scripts[i]->nsyms;
		if (scripts[i]->max_params > max_params)
			max_params = scripts[i]->max_params;
	}

	c = script_mem_alloc(sizeof(ScriptClient));
	if (c == NULL)
		goto nomem;
	memset(c, 0, sizeof(*c));
	c->mode = opts->query_mode;
	c->client_id = opts->client_id;
	c->prng = opts->prng;
	c->tx_prng = opts->prng;
	c->debug = opts->debug;
	c->debug_arg = opts->debug_arg;

	c->scripts = script_mem_alloc(sizeof(const Script *) * nscripts);
	c->maps = script_mem_alloc(sizeof(int *) * nscripts);
	c->mapdata = script_mem_alloc(sizeof(int) * totsyms);
	c->varcap = totsyms + 8;
	c->vars = script_mem_alloc(sizeof(ScriptVar) * c->varcap);
	if (c->scripts == NULL || c->maps == NULL || c->mapdata == NULL || c->vars == NULL)
		goto nomem;
	memcpy(c->scripts, scripts, sizeof(const Script *) * nscripts);
	c->nscripts = nscripts;
	memset(c->vars, 0, sizeof(ScriptVar) * c->varcap);
	if (!script_client_map_symbols(c))
		goto nomem;

	if (max_params > 0)
	{
		c->params = script_mem_alloc(sizeof(char *) * max_params);
		if (c->params == NULL)
			goto nomem;
	}

	/* -D definitions first: they override the automatic variables */
	for (i = 0; i < opts->ndefines; i++)
	{
		int			k;

		if (!expr_valid_variable_name(opts->defines[i].name))
		{
			char		ebuf[EXPR_ECHO_SIZE];

			err->kind = SCRIPT_ERR_SCRIPT;
			snprintf(err->message, sizeof(err->message),
					 "option: invalid variable name: \"%s\"",
					 expr_echo(opts->defines[i].name, ebuf));
			script_client_free(c);
			return NULL;
		}
		k = script_client_lookup_create(c, opts->defines[i].name);
		if (k < 0)
			goto nomem;
		if (opts->share_defines)
			script_var_share_string(&c->vars[k], opts->defines[i].value);
		else if (!script_var_set_string(&c->vars[k], opts->defines[i].value))
			goto nomem;
	}
	for (i = 0; i < 4; i++)
	{
		int			k = script_client_find(c, autos[i]);
		int64_t		val;

		if (k >= 0 && c->vars[k].defined)
			continue;
		val = i == 0 ? opts->scale : i == 1 ? opts->client_id :
			i == 2 ? (int64_t) opts->random_seed : opts->default_seed;
		if (!script_client_set_int(c, autos[i], val))
			goto nomem;
	}

	c->ectx.get_var = script_get_var_cb;
	c->ectx.var_arg = c;
	c->ectx.debug = script_debug_cb;
	c->ectx.debug_arg = c;
	c->ectx.prng = &c->prng;
	script_client_select(c, 0);
	return c;

nomem:
	script_client_free(c);
	script_err_nomem(err);
	return NULL;
}

void
script_client_select(ScriptClient *c, int script_index)
{
	/* a transaction in progress is abandoned, as by script_client_reset */
	c->pc = 0;
	c->sql_pending = false;
	c->in_pipeline = false;
	c->tx_started = false;
	if (script_index < 0 || script_index >= c->nscripts)
	{
		c->bad_select = true;
		c->bad_index = script_index;
		return;
	}
	c->bad_select = false;
	c->cur = script_index;
	c->script = c->scripts[script_index];
	c->map = c->maps[script_index];
}

int
script_client_selected(const ScriptClient *c)
{
	return c->cur;
}

int
script_client_script_count(const ScriptClient *c)
{
	return c->nscripts;
}

const Script *
script_client_script(const ScriptClient *c, int script_index)
{
	if (script_index < 0 || script_index >= c->nscripts)
		return NULL;
	return c->scripts[script_index];
}

void
script_client_free(ScriptClient *c)
{
	int			i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nvars; i++)
	{
		if (c->vars[i].str_cap > 0)
			script_mem_free(c->vars[i].str);
		if (c->vars[i].owns_name)
			script_mem_free((char *) c->vars[i].name);
	}
	script_mem_free(c->vars);
	script_index_free(&c->varindex);
	script_mem_free(c->scripts);
	script_mem_free(c->maps);
	script_mem_free(c->mapdata);
	script_mem_free(c->params);
	script_mem_free(c->sqlbuf.data);
	script_mem_free(c->namebuf.data);
	script_mem_free(c);
}

/* ----------------------------------------------------------------------
 * The step machine
 * ---------------------------------------------------------------------- */

/* simple protocol: substitute defined variables into the SQL text */
static bool
script_build_simple_sql(ScriptClient *c, const ScriptCommand *cmd,
						ScriptStep *out, ScriptError *err, int pc)
{
	size_t		need = cmd->text_len;
	size_t		copied = 0;
	int			i;
	ScriptBuf  *b = &c->sqlbuf;

	if (cmd->nrefs == 0)
	{
		out->sql = cmd->text;
		out->sql_len = cmd->text_len;
		return true;
	}
	for (i = 0; i < cmd->nrefs; i++)
	{
		ScriptVar  *v = script_client_var(c, cmd->refs[i].varid);

		if (v->defined)
		{
			const char *sv = script_var_string(v);

			if (sv == NULL)
				goto nomem;
			need += strlen(sv);
			need -= (size_t) cmd->refs[i].len;
		}
	}
	b->len = 0;
	if (!script_buf_reserve(b, need))
		goto nomem;
	for (i = 0; i < cmd->nrefs; i++)
	{
		const ScriptSqlRef *r = &cmd->refs[i];
		ScriptVar  *v = script_client_var(c, r->varid);

		if (!v->defined)
			continue;
		memcpy(b->data + b->len, cmd->text + copied, (size_t) r->offset - copied);
		b->len += (size_t) r->offset - copied;
		{
			size_t		n = strlen(v->str);

			memcpy(b->data + b->len, v->str, n);
			b->len += n;
		}
		copied = (size_t) (r->offset + r->len);
	}
	memcpy(b->data + b->len, cmd->text + copied, cmd->text_len - copied);
	b->len += cmd->text_len - copied;
	b->data[b->len] = '\0';
	out->sql = b->data;
	out->sql_len = b->len;
	return true;

nomem:
	script_err_nomem(err);
	err->command_index = pc;
	return false;
}

static bool
script_eval_cond(ScriptClient *c, int pc, bool *truth, ScriptError *err)
{
	const ScriptCommand *cmd = &c->script->cmds[pc];
	ExprValue	v;

	if (!expr_eval(cmd->expr, &c->ectx, &v))
		return script_runtime_error(err, pc, script_kind_names[cmd->kind],
									"%s", c->ectx.errmsg);
	*truth = expr_value_truth(&v);
	return true;
}

static ScriptStepKind
script_step_error(ScriptStep *out, int pc)
{
	out->kind = SCRIPT_STEP_ERROR;
	out->command = pc;
	return SCRIPT_STEP_ERROR;
}

ScriptStepKind
script_step(const Script *s, ScriptClient *c, ScriptStep *out, ScriptError *err)
{
	/* a mix stepped with an explicit script: select it at a boundary */
	if (s != c->script && !c->bad_select)
	{
		int			k;

		for (k = 0; k < c->nscripts; k++)
			if (c->scripts[k] == s)
				break;
		if (k == c->nscripts ||
			c->pc != 0 || c->tx_started || c->sql_pending || c->in_pipeline)
		{
			memset(out, 0, sizeof(*out));
			out->script = c->cur;
			script_runtime_error(err, -1, NULL,
								 k == c->nscripts ?
								 "script \"%s\" is not one of the client's scripts" :
								 "cannot switch to script \"%s\" inside a transaction",
								 s ? s->name : "(null)");
			return script_step_error(out, c->pc);
		}
		script_client_select(c, k);
	}
	return script_step_client(c, out, err);
}

ScriptStepKind
script_step_client(ScriptClient *c, ScriptStep *out, ScriptError *err)
{
	const Script *s = c->script;

	memset(out, 0, sizeof(*out));
	out->script = c->cur;

	if (c->bad_select)
	{
		script_runtime_error(err, -1, NULL, "invalid script index %d (the client has %d)",
							 c->bad_index, c->nscripts);
		return script_step_error(out, 0);
	}

	if (c->sql_pending)
		script_sql_done(c);

	for (;;)
	{
		const ScriptCommand *cmd;
		int			pc = c->pc;

		if (!c->tx_started)
		{
			c->tx_prng = c->prng;
			c->tx_started = true;
		}

		if (pc >= s->ncmds)
		{
			c->pc = 0;
			c->tx_started = false;
			if (c->in_pipeline)
			{
				c->in_pipeline = false;
				script_runtime_error(err, pc, NULL,
									 "end of script reached with pipeline open");
				return script_step_error(out, pc);
			}
			out->kind = SCRIPT_STEP_END_OF_TRANSACTION;
			out->command = pc;
			return out->kind;
		}

		cmd = &s->cmds[pc];
		out->command = pc;

		switch (cmd->kind)
		{
			case SCRIPT_CMD_SQL:
				if (c->in_pipeline && cmd->store != SCRIPT_STORE_NONE)
				{
					bool		g = cmd->store == SCRIPT_STORE_GSET;

					script_runtime_error(err, pc, g ? "gset" : "aset",
										 g ? "\\gset is not allowed in pipeline mode"
										 : "\\aset is not allowed in pipeline mode");
					return script_step_error(out, pc);
				}
				out->kind = SCRIPT_STEP_SQL;
				out->sql_index = cmd->sql_index;
				out->store = cmd->store;
				out->store_prefix = cmd->store_prefix;
				if (c->mode == SCRIPT_QUERY_SIMPLE)
				{
					if (!script_build_simple_sql(c, cmd, out, err, pc))
						return script_step_error(out, pc);
				}
				else
				{
					int			i;

					out->sql = cmd->param_text;
					out->sql_len = cmd->param_text_len;
					for (i = 0; i < cmd->nrefs; i++)
					{
						ScriptVar  *v = script_client_var(c, cmd->refs[i].varid);

						c->params[i] = v->defined ? script_var_string(v) : NULL;
						if (v->defined && c->params[i] == NULL)
						{
							script_err_nomem(err);
							return script_step_error(out, pc);
						}
					}
					out->nparams = cmd->nrefs;
					out->params = c->params;
				}
				c->sql_pending = true;
				return SCRIPT_STEP_SQL;

			case SCRIPT_CMD_SET:
				{
					ExprValue	v;
					ScriptVar  *var = script_client_var(c, cmd->set_var);

					if (!expr_eval(cmd->expr, &c->ectx, &v))
					{
						script_runtime_error(err, pc, "set", "%s", c->ectx.errmsg);
						return script_step_error(out, pc);
					}
					if (!var->defined && !expr_valid_variable_name(var->name))
					{
						char		ebuf[EXPR_ECHO_SIZE];

						script_runtime_error(err, pc, "set",
											 "set: invalid variable name: \"%s\"",
											 expr_echo(var->name, ebuf));
						return script_step_error(out, pc);
					}
					script_var_set_value(var, &v);
					c->pc++;
					continue;
				}

			case SCRIPT_CMD_SLEEP:
				{
					int32_t		usec;

					if (cmd->sleep_var >= 0)
					{
						ScriptVar  *v = script_client_var(c, cmd->sleep_var);
						const char *sv = script_var_string(v);

						if (sv == NULL)
						{
							char		ebuf[EXPR_ECHO_SIZE];

							script_runtime_error(err, pc, "sleep",
												 "sleep: undefined variable \"%s\"",
												 expr_echo(v->name, ebuf));
							return script_step_error(out, pc);
						}
						usec = script_atoi_word(sv, strlen(sv));
						if (usec == 0 && !isdigit((unsigned char) sv[0]))
						{
							char		ebuf[EXPR_ECHO_SIZE];
							char		ebuf2[EXPR_ECHO_SIZE];

							script_runtime_error(err, pc, "sleep",
												 "sleep: invalid sleep time \"%s\" for variable \"%s\"",
												 expr_echo(sv, ebuf2), expr_echo(v->name, ebuf));
							return script_step_error(out, pc);
						}
					}
					else
						usec = cmd->sleep_value;
					/*
					 * pgbench's int multiplication, which wraps (PostgreSQL
					 * builds with -fwrapv): 2148 s is negative, no sleep at
					 * all; a negative sleep ends at once.
					 */
					usec = (int32_t) ((uint32_t) usec * (uint32_t) cmd->sleep_mult);
					c->pc++;
					out->kind = SCRIPT_STEP_SLEEP;
					out->sleep_usec = usec > 0 ? usec : 0;
					return SCRIPT_STEP_SLEEP;
				}

			case SCRIPT_CMD_IF:
				{
					bool		truth;
					int			t;

					if (!script_eval_cond(c, pc, &truth, err))
						return script_step_error(out, pc);
					if (truth)
					{
						c->pc++;
						continue;
					}
					/* false: try each \elif in turn, else \else or \endif */
					t = cmd->jump_false;
					while (s->cmds[t].kind == SCRIPT_CMD_ELIF)
					{
						c->pc = t;
						if (!script_eval_cond(c, t, &truth, err))
							return script_step_error(out, t);
						if (truth)
							break;
						t = s->cmds[t].jump_false;
					}
					c->pc = t + 1;
					continue;
				}

			case SCRIPT_CMD_ELIF:
			case SCRIPT_CMD_ELSE:
				/* reached after a true branch: skip to after \endif */
				c->pc = cmd->jump_end + 1;
				continue;

			case SCRIPT_CMD_ENDIF:
				c->pc++;
				continue;

			case SCRIPT_CMD_STARTPIPELINE:
				if (c->mode == SCRIPT_QUERY_SIMPLE)
				{
					script_runtime_error(err, pc, "startpipeline",
										 "cannot use pipeline mode with the simple query protocol");
					return script_step_error(out, pc);
				}
				if (c->in_pipeline)
				{
					script_runtime_error(err, pc, "startpipeline",
										 "already in pipeline mode");
					return script_step_error(out, pc);
				}
				c->in_pipeline = true;
				c->pc++;
				out->kind = SCRIPT_STEP_PIPELINE_START;
				return out->kind;

			case SCRIPT_CMD_SYNCPIPELINE:
			case SCRIPT_CMD_ENDPIPELINE:
				if (!c->in_pipeline)
				{
					script_runtime_error(err, pc, script_kind_names[cmd->kind],
										 "not in pipeline mode");
					return script_step_error(out, pc);
				}
				if (cmd->kind == SCRIPT_CMD_ENDPIPELINE)
					c->in_pipeline = false;
				c->pc++;
				out->kind = cmd->kind == SCRIPT_CMD_ENDPIPELINE ?
					SCRIPT_STEP_PIPELINE_END : SCRIPT_STEP_PIPELINE_SYNC;
				return out->kind;
		}
	}
}

void
script_sql_done(ScriptClient *c)
{
	if (c->sql_pending)
	{
		c->sql_pending = false;
		c->pc++;
	}
}

bool
script_store_result(ScriptClient *c, const char *prefix, const char *column,
					const char *value, ScriptError *err)
{
	ScriptBuf  *nb = &c->namebuf;
	int			k;

	nb->len = 0;
	if (!script_buf_append(nb, prefix ? prefix : "", prefix ? strlen(prefix) : 0) ||
		!script_buf_append(nb, column, strlen(column)))
	{
		script_err_nomem(err);
		return false;
	}
	k = script_client_find(c, nb->data);
	if (k < 0)
	{
		if (!expr_valid_variable_name(nb->data))
			return script_runtime_error(err, c->pc, NULL,
										"error storing into variable %s", nb->data);
		k = script_client_lookup_create(c, nb->data);
		if (k < 0)
		{
			script_err_nomem(err);
			return false;
		}
	}
	if (!script_var_set_string(&c->vars[k], value))
	{
		script_err_nomem(err);
		return false;
	}
	return true;
}

void
script_client_restart_transaction(ScriptClient *c)
{
	c->pc = 0;
	c->sql_pending = false;
	c->in_pipeline = false;
	if (c->tx_started)
		c->prng = c->tx_prng;
}

void
script_client_reset(ScriptClient *c)
{
	c->pc = 0;
	c->sql_pending = false;
	c->in_pipeline = false;
	c->tx_started = false;
}

int
script_client_position(const ScriptClient *c)
{
	return c->pc;
}

bool
script_client_in_pipeline(const ScriptClient *c)
{
	return c->in_pipeline;
}

bool
script_client_get_value(ScriptClient *c, const char *name, ExprValue *out,
						ScriptError *err)
{
	int			k = script_client_find(c, name);
	char		msg[EXPR_MSG_SIZE];
	char		ebuf[EXPR_ECHO_SIZE];

	if (k < 0 || !c->vars[k].defined)
		return script_runtime_error(err, -1, NULL, "undefined variable \"%s\"", expr_echo(name, ebuf));
	if (!script_var_value(&c->vars[k], out, msg))
		return script_runtime_error(err, -1, NULL, "%s", msg);
	return true;
}

const char *
script_client_get_string(ScriptClient *c, const char *name)
{
	int			k = script_client_find(c, name);

	return k < 0 ? NULL : script_var_string(&c->vars[k]);
}

bool
script_client_set_string(ScriptClient *c, const char *name, const char *value,
						 ScriptError *err)
{
	int			k = script_client_find(c, name);

	if (k < 0)
	{
		char		ebuf[EXPR_ECHO_SIZE];

		if (!expr_valid_variable_name(name))
			return script_runtime_error(err, -1, NULL,
										"invalid variable name: \"%s\"", expr_echo(name, ebuf));
		k = script_client_lookup_create(c, name);
	}
	if (k < 0 || !script_var_set_string(&c->vars[k], value))
	{
		script_err_nomem(err);
		return false;
	}
	return true;
}

prng_state *
script_client_prng(ScriptClient *c)
{
	return &c->prng;
}

/* ======================================================================
 * Script mixes and throttling (pgbench's per-thread draws)
 * ====================================================================== */

bool
script_parse_weight(const char *spec, char **name_out, int64_t *weight_out,
					ScriptError *err)
{
	const char *at = strrchr(spec, '@');
	size_t		namelen = at != NULL ? (size_t) (at - spec) : strlen(spec);
	long		w = 1;

	script_err_clear(err);
	*name_out = NULL;
	if (at != NULL)
	{
		char	   *end;

		/* pgbench: strtol, base 10; errno, no digits or trailing junk fail */
		errno = 0;
		w = strtol(at + 1, &end, 10);
		if (errno != 0 || end == at + 1 || *end != '\0')
		{
			char		ebuf[EXPR_ECHO_SIZE];

			err->kind = SCRIPT_ERR_SCRIPT;
			snprintf(err->message, sizeof(err->message),
					 "invalid weight specification: %s", expr_echo(at, ebuf));
			return false;
		}
		if (w < 0 || w > INT_MAX)
		{
			err->kind = SCRIPT_ERR_SCRIPT;
			snprintf(err->message, sizeof(err->message),
					 "weight specification out of range (0 .. %d): %lld",
					 INT_MAX, (long long) w);
			return false;
		}
	}
	*name_out = script_strndup(spec, namelen);
	if (*name_out == NULL)
	{
		script_err_nomem(err);
		return false;
	}
	*weight_out = w;
	return true;
}

int
script_choose(prng_state *choose_rs, const int64_t *weights, int nscripts,
			  int64_t total_weight)
{
	int64_t		w;
	int			i;

	/* pgbench does not draw at all when there is a single script */
	if (nscripts == 1)
		return 0;
	if (nscripts < 1 || total_weight <= 0)
		return -1;

	/*
	 * pgbench: getrand(ts_choose_rs, 0, total_weight - 1), i.e. one ranged
	 * draw (none when total_weight is 1: an empty range yields its minimum).
	 * Then walk the scripts subtracting weights until the draw goes negative.
	 */
	w = (int64_t) prng_uint64_range(choose_rs, 0, (uint64_t) (total_weight - 1));
	for (i = 0; i < nscripts; i++)
	{
		w -= weights[i];
		if (w < 0)
			return i;
	}
	return -1;					/* total_weight exceeded the sum of the weights */
}

int64_t
script_poisson_delay_usec(prng_state *throttle_rs, double center_usec)
{
	/* inverse transform sampling on a uniform in (0, 1], mean center_usec */
	double		u = 1.0 - prng_double(throttle_rs);

	return (int64_t) (center_usec * -log(u) + 0.5);
}
