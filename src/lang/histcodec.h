/*-------------------------------------------------------------------------
 *
 * histcodec.h
 *	  The portable bytea encoding of a latency histogram (stats.h).
 *
 * This file owns: the byte format in which runs.latency_hist and
 * samples.latency_hist store a histogram, its encoder, and a decoder that
 * is safe on untrusted bytes (pgbenchx.import): every read bounds-checked,
 * no integer overflow, sizes limited, the content checked for consistency.
 *
 * Must not: include PostgreSQL headers, allocate, lock, or log (the SQL
 * wrappers in hist_sql.c turn the error codes into ereport).
 *
 * Format, version 1 (all integers unsigned LEB128 varints of at most 10
 * bytes, little-endian groups of 7 bits; byte order free):
 *
 *	  byte 0   'H'                      magic
 *	  byte 1   1                        version
 *	  byte 2   STATS_SUB_BITS (6)       layout: sub-bucket bits
 *	  byte 3   32                       layout: bits of the largest value
 *	  varint   count, sum, sumsq_lo, sumsq_hi, min, max     (the moments, us)
 *	  varint   n                        non-empty buckets, <= STATS_BUCKETS
 *	  n times  varint index delta (the first: index + 1; then the gap to
 *	           the previous index, >= 1), varint count (>= 1)
 *
 * Consistency checked by the decoder: the counts add up to count without
 * overflow, min <= max, min lies in the first bucket and max in the last
 * (or above the tracked range, in the top bucket), an empty histogram has
 * all moments 0 and no bucket, and nothing follows the last bucket.
 * Sizes: an empty histogram is 11 bytes; at most HISTCODEC_MAX_BYTES.
 *
 * src/lang/histcodec.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_HISTCODEC_H
#define PGBENCHX_HISTCODEC_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

#define HISTCODEC_MAGIC			'H'
#define HISTCODEC_VERSION		1
#define HISTCODEC_VALUE_BITS	32
/* 4 header bytes, 7 varints of 10, per bucket 2 + 10 bytes */
#define HISTCODEC_MAX_BYTES		(4 + 7 * 10 + STATS_BUCKETS * 12)

typedef enum histcodec_error
{
	HISTCODEC_OK = 0,
	HISTCODEC_TOO_LARGE,		/* more than HISTCODEC_MAX_BYTES */
	HISTCODEC_TRUNCATED,		/* ends inside the header or a varint */
	HISTCODEC_BAD_MAGIC,		/* not a pgbenchx histogram */
	HISTCODEC_BAD_VERSION,		/* a format version this build cannot read */
	HISTCODEC_BAD_LAYOUT,		/* other bucket layout parameters */
	HISTCODEC_BAD_VARINT,		/* a varint over 64 bits */
	HISTCODEC_BAD_BUCKET,		/* index out of range, or not increasing */
	HISTCODEC_ZERO_COUNT,		/* a listed bucket with count 0 */
	HISTCODEC_COUNT_MISMATCH,	/* bucket counts do not add up to count */
	HISTCODEC_BAD_MINMAX,		/* min/max inconsistent with the buckets */
	HISTCODEC_TRAILING			/* bytes after the last bucket */
} histcodec_error;

/* Encode t into buf (at least HISTCODEC_MAX_BYTES); returns the length. */
extern size_t histcodec_encode(const stats_total *t, uint8_t *buf);
/* The same for a per-second histogram. */
extern size_t histcodec_encode_hist(const stats_hist *h, uint8_t *buf);
/* Decode len bytes into *t (overwritten even on error). */
extern histcodec_error histcodec_decode(const uint8_t *buf, size_t len, stats_total *t);
/* A short lower-case description of an error code. */
extern const char *histcodec_strerror(histcodec_error e);

#endif							/* PGBENCHX_HISTCODEC_H */
