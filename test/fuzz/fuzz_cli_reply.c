/*
 * fuzz_cli_reply.c -- libFuzzer target for src/cli/cli_reply.c, the checks
 * through which the pgbenchx client program reads every reply of the server
 * (issue 34 §4: the command line trusts no reply).
 *
 * Owns: turning an arbitrary byte string into a reply (a PGresult made with
 * libpq's own PQmakeEmptyPGresult / PQsetResultAttrs / PQsetvalue: columns,
 * rows, values with NULLs, embedded NULs and any bytes) and reading it as
 * the program's reply sites do: cli_reply_check against an expected shape,
 * then every value through the accessor and the range a selector byte
 * picks; oracles that abort when an accessor returns what its contract
 * excludes (an integer outside its range or not the value of the text's
 * decimal digits, a float that is not finite or outside its range, a word
 * that is not the text, a check passed by a reply of another shape).
 * A refusal (cli_reply_fail) is a normal outcome: its hook jumps back.
 *
 * Input: byte 0 the columns (% 8), byte 1 the rows (% 6), bytes 2-4 the
 * shape expected (columns % 8, min rows % 6, max rows % 6); then each value
 * as a length byte (255: NULL) and its bytes; then a selector byte per value.
 *
 * Must not: leak, or depend on anything but cli_reply.c and libpq.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpq-fe.h"
#include "cli_reply.h"

#define ORACLE(cond, ...) \
	do { \
		if (!(cond)) \
		{ \
			fprintf(stdout, "fuzz_cli_reply oracle failed: " __VA_ARGS__); \
			fputc('\n', stdout); \
			abort(); \
		} \
	} while (0)

static jmp_buf refused;

static void
on_fail(void)
{
	longjmp(refused, 1);
}

int			LLVMFuzzerInitialize(int *argc, char ***argv);
int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void) argc;
	(void) argv;
	/* the refusals' messages on stderr are the normal path: run with -close_fd_mask=2 */
	cli_reply_fail_hook = on_fail;
	return 0;
}

static const struct
{
	long long	min,
				max;
}			int_ranges[] = {
	{0, INT_MAX}, {1, LLONG_MAX}, {LLONG_MIN, LLONG_MAX}, {0, 0}, {-5, 5}, {0, LLONG_MAX}
};

static const struct
{
	double		min,
				max;
}			float_ranges[] = {
	{0, DBL_MAX}, {-DBL_MAX, DBL_MAX}, {0, 1e12}, {0, 1}
};

static const char *const words[] = {"running", "completed", "cancelled", "failed", "aborted", "", NULL};

/* the reference: a decimal integer as the contract says, by hand */
static int
reference_int(const char *v, int len, long long *out)
{
	int			i = 0;
	int			neg = 0;
	unsigned long long acc = 0;

	if (len > 0 && v[0] == '-')
	{
		neg = 1;
		i = 1;
	}
	if (i >= len)
		return 0;
	for (; i < len; i++)
	{
		if (v[i] < '0' || v[i] > '9')
			return 0;
		if (acc > (ULLONG_MAX - 9) / 10)
			return -1;			/* out of range */
		acc = acc * 10 + (unsigned) (v[i] - '0');
	}
	if (!neg && acc > (unsigned long long) LLONG_MAX)
		return -1;
	if (neg && acc > (unsigned long long) LLONG_MAX + 1)
		return -1;
	*out = neg ? (acc == (unsigned long long) LLONG_MAX + 1 ? LLONG_MIN : -(long long) acc) : (long long) acc;
	return 1;
}

static void
read_value(PGresult *res, int r, int c, uint8_t sel)
{
	const char *what = "fuzz";
	volatile int kind = sel % 6;

	if (setjmp(refused) != 0)
		return;					/* refused: the program would have exited */
	switch (kind)
	{
		case 0:
			{
				const char *t = cli_reply_text(res, r, c, what);

				ORACLE(!PQgetisnull(res, r, c) && t == PQgetvalue(res, r, c), "text of a NULL");
				break;
			}
		case 1:
			{
				int			k = (sel / 6) % (int) (sizeof(int_ranges) / sizeof(int_ranges[0]));
				long long	v = cli_reply_int(res, r, c, what, int_ranges[k].min, int_ranges[k].max);
				long long	ref = 0;
				int			ok = reference_int(PQgetvalue(res, r, c), PQgetlength(res, r, c), &ref);

				ORACLE(v >= int_ranges[k].min && v <= int_ranges[k].max, "int %lld out of its range", v);
				ORACLE(ok == 1 && ref == v, "int %lld is not the text's value", v);
				break;
			}
		case 2:
			{
				int			k = (sel / 6) % (int) (sizeof(float_ranges) / sizeof(float_ranges[0]));
				double		d = cli_reply_float(res, r, c, what, float_ranges[k].min, float_ranges[k].max);

				ORACLE(isfinite(d) && d >= float_ranges[k].min && d <= float_ranges[k].max,
					   "float %g out of its range", d);
				ORACLE(strspn(PQgetvalue(res, r, c), "0123456789+-.eE") == (size_t) PQgetlength(res, r, c),
					   "a float from text that is not decimal");
				break;
			}
		case 3:
			{
				int			b = cli_reply_bool(res, r, c, what);
				const char *t = PQgetvalue(res, r, c);

				ORACLE(PQgetlength(res, r, c) == 1 && t[0] == (b ? 't' : 'f'), "bool of another text");
				break;
			}
		case 4:
			{
				int			i = cli_reply_word(res, r, c, what, words);

				ORACLE(i >= 0 && i < 6 && (size_t) PQgetlength(res, r, c) == strlen(words[i]) &&
					   memcmp(PQgetvalue(res, r, c), words[i], strlen(words[i])) == 0,
					   "word %d of another text", i);
				break;
			}
		default:
			/* out of the result's bounds: always refused */
			(void) cli_reply_isnull(res, r + (sel & 1 ? PQntuples(res) : 0),
									c + (sel & 2 ? PQnfields(res) : -1 - c), what);
			ORACLE(0, "a value outside the result read");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	PGresult   *res;
	PGresAttDesc atts[8];
	char		names[8][8];
	int			ncols,
				nrows,
				want_cols,
				min_rows,
				max_rows;
	size_t		pos = 5;
	volatile int checked = 0;

	if (size < 5)
		return 0;
	ncols = data[0] % 8;
	nrows = data[1] % 6;
	want_cols = data[2] % 8;
	min_rows = data[3] % 6;
	max_rows = data[4] % 6;

	res = PQmakeEmptyPGresult(NULL, PGRES_TUPLES_OK);
	if (res == NULL)
		return 0;
	memset(atts, 0, sizeof(atts));
	for (int c = 0; c < ncols; c++)
	{
		snprintf(names[c], sizeof(names[c]), "c%d", c);
		atts[c].name = names[c];
		atts[c].typid = 25;
		atts[c].typlen = -1;
		atts[c].atttypmod = -1;
	}
	if (!PQsetResultAttrs(res, ncols, ncols ? atts : NULL))
	{
		PQclear(res);
		return 0;
	}
	for (int r = 0; r < nrows; r++)
		for (int c = 0; c < ncols; c++)
		{
			int			len = pos < size ? data[pos++] : 0;
			char		buf[256];

			if (len == 255)
			{
				PQsetvalue(res, r, c, NULL, -1);
				continue;
			}
			if ((size_t) len > size - pos)
				len = (int) (size - pos);
			memcpy(buf, data + pos, len);
			pos += len;
			PQsetvalue(res, r, c, buf, len);
		}

	/* the shape */
	if (setjmp(refused) == 0)
	{
		cli_reply_check(res, "fuzz", want_cols, min_rows, max_rows);
		checked = 1;
	}
	if (checked)
		ORACLE(PQnfields(res) == want_cols && PQntuples(res) >= min_rows && PQntuples(res) <= max_rows,
			   "a reply of %d columns and %d rows passed the check of %d columns and %d..%d rows",
			   PQnfields(res), PQntuples(res), want_cols, min_rows, max_rows);

	/* every value, as the selectors say */
	for (int r = 0; r < PQntuples(res); r++)
		for (int c = 0; c < PQnfields(res); c++)
			read_value(res, r, c, pos < size ? data[pos++] : 0);
	/* and one value outside */
	read_value(res, 0, 0, 5);
	PQclear(res);
	return 0;
}
