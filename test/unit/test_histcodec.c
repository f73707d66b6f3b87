/*
 * test_histcodec.c
 *	  Standalone unit test for src/lang/histcodec.c (histogram bytes).
 *
 * Owns: round trips (empty, one value, random, extreme values), exact merge
 * through the encoding, the size bounds, and rejection of corrupt input
 * with the right error code (every truncation, every single-byte change
 * either rejected or decoded to a consistent histogram, never a crash).
 * Deterministic.  make -C test/unit check.
 */
#include "../../src/lang/histcodec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_check.h"

static uint64_t rng_state = 42;

static uint64_t
rng_next(void)
{
	uint64_t	z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static stats_total a, b, u, d, d2;
static uint8_t buf[HISTCODEC_MAX_BYTES],
			buf2[HISTCODEC_MAX_BYTES];

static void
round_trip(const stats_total *t, const char *what)
{
	size_t		len = histcodec_encode(t, buf);
	histcodec_error e = histcodec_decode(buf, len, &d);

	CHECK(len <= HISTCODEC_MAX_BYTES, "%s: %zu bytes", what, len);
	CHECK(e == HISTCODEC_OK, "%s: %s", what, histcodec_strerror(e));
	CHECK(memcmp(t, &d, sizeof(d)) == 0, "%s: not identical after a round trip", what);
}

int
main(void)
{
	size_t		len;
	int			i;

	/* empty */
	stats_total_reset(&a);
	round_trip(&a, "empty");
	CHECK(histcodec_encode(&a, buf) == 11, "empty is 11 bytes");

	/* one value, extremes */
	stats_total_record(&a, 1500);
	round_trip(&a, "one value");
	stats_total_reset(&a);
	stats_total_record(&a, 0);
	stats_total_record(&a, UINT64_MAX);
	stats_total_record(&a, STATS_MAX_TRACKABLE_US);
	round_trip(&a, "extremes");

	/* every bucket non-empty, huge counts: the bound holds */
	stats_total_reset(&a);
	for (i = 0; i < STATS_BUCKETS; i++)
		stats_total_record(&a, stats_bucket_lower((uint32_t) i));
	for (i = 0; i < STATS_BUCKETS; i++)
		a.counts[i] += UINT64_C(1) << 50;
	a.m.count += (uint64_t) STATS_BUCKETS << 50;
	round_trip(&a, "full");

	/* random, merge through the bytes equals the union */
	stats_total_reset(&a);
	stats_total_reset(&b);
	stats_total_reset(&u);
	for (i = 0; i < 200000; i++)
	{
		uint64_t	v = 100 + rng_next() % (1u << (rng_next() % 24));

		stats_total_record((i & 1) ? &a : &b, v);
		stats_total_record(&u, v);
	}
	round_trip(&a, "random a");
	len = histcodec_encode(&a, buf);
	CHECK(histcodec_decode(buf, len, &d) == HISTCODEC_OK, "a");
	len = histcodec_encode(&b, buf2);
	CHECK(histcodec_decode(buf2, len, &d2) == HISTCODEC_OK, "b");
	stats_total_merge(&d, &d2);
	CHECK(memcmp(&d, &u, sizeof(u)) == 0, "merge of decoded = union");
	CHECK(stats_total_percentile(&d, 99) == stats_total_percentile(&u, 99), "p99 of merge");

	/* per-second form encodes the same bytes as the total form */
	{
		static stats_hist h;

		stats_hist_reset(&h);
		stats_total_reset(&a);
		for (i = 0; i < 1000; i++)
		{
			uint64_t	v = rng_next() % 100000;

			stats_hist_record(&h, v);
			stats_total_record(&a, v);
		}
		len = histcodec_encode_hist(&h, buf2);
		CHECK(len == histcodec_encode(&a, buf) && memcmp(buf, buf2, len) == 0, "hist = total bytes");
		CHECK(histcodec_decode(buf2, len, &d) == HISTCODEC_OK &&
			  stats_total_percentile(&d, 99) == stats_hist_percentile(&h, 99), "hist p99");
	}

	/* corrupt input: every truncation is rejected */
	len = histcodec_encode(&u, buf);
	for (size_t k = 0; k < len; k++)
		CHECK(histcodec_decode(buf, k, &d) != HISTCODEC_OK, "truncated at %zu accepted", k);
	/* every single-byte change: rejected or consistent, never a crash */
	for (size_t k = 0; k < len; k++)
		for (int x = 1; x < 256; x <<= 1)
		{
			histcodec_error e;

			memcpy(buf2, buf, len);
			buf2[k] ^= (uint8_t) x;
			e = histcodec_decode(buf2, len, &d);
			if (e == HISTCODEC_OK)
			{
				uint64_t	s = 0;

				for (i = 0; i < STATS_BUCKETS; i++)
					s += d.counts[i];
				CHECK(s == d.m.count && d.m.min <= d.m.max, "inconsistent accept at %zu", k);
			}
		}
	/* specific codes */
	memcpy(buf2, buf, len);
	buf2[0] = 'X';
	CHECK(histcodec_decode(buf2, len, &d) == HISTCODEC_BAD_MAGIC, "magic");
	memcpy(buf2, buf, len);
	buf2[1] = 2;
	CHECK(histcodec_decode(buf2, len, &d) == HISTCODEC_BAD_VERSION, "version");
	memcpy(buf2, buf, len);
	buf2[2] = 7;
	CHECK(histcodec_decode(buf2, len, &d) == HISTCODEC_BAD_LAYOUT, "layout");
	memcpy(buf2, buf, len);
	buf2[len] = 0;
	CHECK(histcodec_decode(buf2, len + 1, &d) == HISTCODEC_TRAILING, "trailing");
	CHECK(histcodec_decode(buf2, HISTCODEC_MAX_BYTES + 1, &d) == HISTCODEC_TOO_LARGE, "too large");
	{
		/* an 11-byte varint; bucket index out of range; zero count */
		const uint8_t over[] = {'H', 1, 6, 32, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02};
		const uint8_t range[] = {'H', 1, 6, 32, 1, 5, 25, 0, 5, 5, 1, 0xC1, 0x0D, 1};
		const uint8_t zero[] = {'H', 1, 6, 32, 1, 5, 25, 0, 5, 5, 1, 6, 0};
		const uint8_t ok[] = {'H', 1, 6, 32, 1, 5, 25, 0, 5, 5, 1, 6, 1};
		const uint8_t sum[] = {'H', 1, 6, 32, 2, 5, 25, 0, 5, 5, 1, 6, 1};
		const uint8_t mm[] = {'H', 1, 6, 32, 1, 5, 25, 0, 5, 5, 1, 7, 1};

		CHECK(histcodec_decode(over, sizeof(over), &d) == HISTCODEC_BAD_VARINT, "varint");
		CHECK(histcodec_decode(range, sizeof(range), &d) == HISTCODEC_BAD_BUCKET, "range");
		CHECK(histcodec_decode(zero, sizeof(zero), &d) == HISTCODEC_ZERO_COUNT, "zero");
		CHECK(histcodec_decode(ok, sizeof(ok), &d) == HISTCODEC_OK && d.counts[5] == 1, "ok");
		CHECK(histcodec_decode(sum, sizeof(sum), &d) == HISTCODEC_COUNT_MISMATCH, "sum");
		CHECK(histcodec_decode(mm, sizeof(mm), &d) == HISTCODEC_BAD_MINMAX, "minmax");
	}

	printf("test_histcodec: %d checks, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
