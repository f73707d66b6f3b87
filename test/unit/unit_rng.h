/*
 * unit_rng.h: the unit tests' random numbers (splitmix64), shared by
 * test_stats.c and test_ci.c: a seed in rng_state gives the same series on
 * every machine, so no test result depends on chance.
 */
#ifndef UNIT_RNG_H
#define UNIT_RNG_H

#include <stdint.h>

static uint64_t rng_state;

static inline uint64_t
rng_next(void)
{
	uint64_t	z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* uniform in (0, 1] */
static inline double
rng_unit(void)
{
	return ((double) (rng_next() >> 11) + 1.0) * (1.0 / 9007199254740992.0);
}

#endif
