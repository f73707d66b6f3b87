/*
 * unit_check.h
 *	  What the standalone unit tests share: CHECK(cond, fmt, ...) counts a
 *	  check and, when cond is false, a failure, printed with its place and
 *	  the message; main prints the counts and exits non-zero on a failure.
 */
#ifndef PGBENCHX_UNIT_CHECK_H
#define PGBENCHX_UNIT_CHECK_H

#include <stdio.h>

static int	failures = 0;
static int	checks = 0;

#define CHECK(cond, ...) \
	do { \
		checks++; \
		if (!(cond)) \
		{ \
			failures++; \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
		} \
	} while (0)

#endif							/* PGBENCHX_UNIT_CHECK_H */
