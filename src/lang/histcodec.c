/*-------------------------------------------------------------------------
 *
 * histcodec.c
 *	  Encoding and safe decoding of latency histograms as bytes.
 *
 * Owns the byte format described in histcodec.h.  Plain C99 like stats.c:
 * no PostgreSQL headers, no allocation; unit-tested in test/unit.
 *
 * src/lang/histcodec.c
 *
 *-------------------------------------------------------------------------
 */
#include "histcodec.h"

#include <string.h>

static uint8_t *
put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80)
	{
		*p++ = (uint8_t) (v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t) v;
	return p;
}

/* Read a varint from [*p, end); 0 on success. */
static histcodec_error
get_varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
	uint64_t	v = 0;
	int			shift = 0;

	for (;;)
	{
		uint8_t		b;

		if (*p >= end)
			return HISTCODEC_TRUNCATED;
		b = *(*p)++;
		/* the tenth byte may carry only the 64th bit */
		if (shift == 63 && (b & 0x7F) > 1)
			return HISTCODEC_BAD_VARINT;
		v |= (uint64_t) (b & 0x7F) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
		if (shift > 63)
			return HISTCODEC_BAD_VARINT;
	}
	*out = v;
	return HISTCODEC_OK;
}

static size_t
encode(const stats_moments *m, const uint32_t *c32, const uint64_t *c64, uint8_t *buf)
{
	uint8_t    *p = buf;
	uint32_t	n = 0,
				i,
				prev = 0;
	int			first = 1;

	*p++ = HISTCODEC_MAGIC;
	*p++ = HISTCODEC_VERSION;
	*p++ = STATS_SUB_BITS;
	*p++ = HISTCODEC_VALUE_BITS;
	if (m->count == 0)
	{
		/* an all-zero structure may carry stale min/max: normalise */
		for (i = 0; i < 7; i++)
			*p++ = 0;
		return (size_t) (p - buf);
	}
	p = put_varint(p, m->count);
	p = put_varint(p, m->sum);
	p = put_varint(p, m->sumsq_lo);
	p = put_varint(p, m->sumsq_hi);
	p = put_varint(p, m->min);
	p = put_varint(p, m->max);
	for (i = 0; i < STATS_BUCKETS; i++)
		if (c32 ? c32[i] : c64[i])
			n++;
	p = put_varint(p, n);
	for (i = 0; i < STATS_BUCKETS; i++)
	{
		uint64_t	c = c32 ? c32[i] : c64[i];

		if (c == 0)
			continue;
		p = put_varint(p, first ? (uint64_t) i + 1 : (uint64_t) (i - prev));
		p = put_varint(p, c);
		prev = i;
		first = 0;
	}
	return (size_t) (p - buf);
}

size_t
histcodec_encode(const stats_total *t, uint8_t *buf)
{
	return encode(&t->m, NULL, t->counts, buf);
}

size_t
histcodec_encode_hist(const stats_hist *h, uint8_t *buf)
{
	return encode(&h->m, h->counts, NULL, buf);
}

histcodec_error
histcodec_decode(const uint8_t *buf, size_t len, stats_total *t)
{
	const uint8_t *p = buf,
			   *end = buf + len;
	uint64_t	n,
				sum = 0;
	uint32_t	first = 0,
				last = 0;
	int64_t		idx = -1;
	histcodec_error e;
	uint64_t	v[6];
	int			i;

	memset(t, 0, sizeof(*t));
	if (len > HISTCODEC_MAX_BYTES)
		return HISTCODEC_TOO_LARGE;
	if (len < 1)
		return HISTCODEC_TRUNCATED;
	if (buf[0] != HISTCODEC_MAGIC)
		return HISTCODEC_BAD_MAGIC;
	if (len < 2)
		return HISTCODEC_TRUNCATED;
	if (buf[1] != HISTCODEC_VERSION)
		return HISTCODEC_BAD_VERSION;
	if (len < 4)
		return HISTCODEC_TRUNCATED;
	if (buf[2] != STATS_SUB_BITS || buf[3] != HISTCODEC_VALUE_BITS)
		return HISTCODEC_BAD_LAYOUT;
	p += 4;
	for (i = 0; i < 6; i++)
		if ((e = get_varint(&p, end, &v[i])) != HISTCODEC_OK)
			return e;
	if ((e = get_varint(&p, end, &n)) != HISTCODEC_OK)
		return e;
	if (n > STATS_BUCKETS)
		return HISTCODEC_BAD_BUCKET;
	for (uint64_t k = 0; k < n; k++)
	{
		uint64_t	d,
					c;

		if ((e = get_varint(&p, end, &d)) != HISTCODEC_OK)
			return e;
		if ((e = get_varint(&p, end, &c)) != HISTCODEC_OK)
			return e;
		/* the first delta is index + 1, so every delta is >= 1 */
		if (d == 0 || d > STATS_BUCKETS || idx + (int64_t) d >= STATS_BUCKETS)
			return HISTCODEC_BAD_BUCKET;
		idx = (k == 0) ? (int64_t) d - 1 : idx + (int64_t) d;
		if (c == 0)
			return HISTCODEC_ZERO_COUNT;
		if (c > UINT64_MAX - sum)
			return HISTCODEC_COUNT_MISMATCH;
		sum += c;
		t->counts[idx] = c;
		if (k == 0)
			first = (uint32_t) idx;
		last = (uint32_t) idx;
	}
	if (p != end)
		return HISTCODEC_TRAILING;
	if (sum != v[0])
		return HISTCODEC_COUNT_MISMATCH;
	if (v[0] == 0)
	{
		if (v[1] || v[2] || v[3] || v[4] || v[5])
			return HISTCODEC_BAD_MINMAX;
	}
	else if (v[4] > v[5] ||
			 stats_bucket_index(v[4]) != first ||
			 stats_bucket_index(v[5]) != last)
		return HISTCODEC_BAD_MINMAX;
	t->m.count = v[0];
	t->m.sum = v[1];
	t->m.sumsq_lo = v[2];
	t->m.sumsq_hi = v[3];
	t->m.min = v[4];
	t->m.max = v[5];
	return HISTCODEC_OK;
}

const char *
histcodec_strerror(histcodec_error e)
{
	switch (e)
	{
		case HISTCODEC_OK:
			return "no error";
		case HISTCODEC_TOO_LARGE:
			return "longer than any histogram";
		case HISTCODEC_TRUNCATED:
			return "truncated";
		case HISTCODEC_BAD_MAGIC:
			return "not a pgbenchx histogram (bad first byte)";
		case HISTCODEC_BAD_VERSION:
			return "unknown format version";
		case HISTCODEC_BAD_LAYOUT:
			return "bucket layout other than this build's";
		case HISTCODEC_BAD_VARINT:
			return "an integer longer than 64 bits";
		case HISTCODEC_BAD_BUCKET:
			return "a bucket index out of range or out of order";
		case HISTCODEC_ZERO_COUNT:
			return "a listed bucket with a zero count";
		case HISTCODEC_COUNT_MISMATCH:
			return "bucket counts do not add up to the total count";
		case HISTCODEC_BAD_MINMAX:
			return "minimum or maximum inconsistent with the buckets";
		case HISTCODEC_TRAILING:
			return "bytes after the last bucket";
	}
	return "unknown error";
}
