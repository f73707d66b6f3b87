/*
 * prng.c -- xoroshiro128** with PostgreSQL pg_prng semantics.
 *
 * Owns: the generator core and the derived draws used by pgbench (ranges,
 * doubles, normals).  The algorithms are Blackman & Vigna's xoroshiro128**
 * 1.0 and Steele/Vigna's splitmix64 seeder, written here from their public
 * descriptions and checked value for value against pgbench's documented
 * outputs (see test/unit/test_script.c).
 *
 * Must not: allocate, use global state, or include PostgreSQL headers.
 */
#include "prng.h"

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static inline uint64_t
prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* One step of xoroshiro128**: returns the output, advances the state. */
static inline uint64_t
prng_next(prng_state *st)
{
	uint64_t	a = st->s0;
	uint64_t	b = st->s1 ^ a;
	uint64_t	out = prng_rotl(a * 5, 7) * 9;

	st->s0 = prng_rotl(a, 24) ^ b ^ (b << 16);
	st->s1 = prng_rotl(b, 37);
	return out;
}

/* splitmix64: advance *x by the golden-ratio increment and mix it. */
static uint64_t
prng_splitmix64(uint64_t *x)
{
	uint64_t	z;

	*x += UINT64_C(0x9E3779B97F4A7C15);
	z = *x;
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

void
prng_seed(prng_state *state, uint64_t seed)
{
	uint64_t	x = seed;

	state->s0 = prng_splitmix64(&x);
	state->s1 = prng_splitmix64(&x);
	/* an all-zero state is a fixed point; replace it as PostgreSQL does */
	if (state->s0 == 0 && state->s1 == 0)
	{
		state->s0 = UINT64_C(0x5851F42D4C957F2D);
		state->s1 = UINT64_C(0x14057B7EF767814F);
	}
}

uint64_t
prng_uint64(prng_state *state)
{
	return prng_next(state);
}

int
prng_leftmost_one_pos64(uint64_t x)
{
	return 63 - __builtin_clzll(x);
}

uint64_t
prng_uint64_range(prng_state *state, uint64_t rmin, uint64_t rmax)
{
	uint64_t	range;
	uint64_t	v;
	int			shift;

	if (rmax <= rmin)
		return rmin;

	/*
	 * Keep only as many high bits as the range needs and retry until the
	 * value fits: fewer than two draws on average.
	 */
	range = rmax - rmin;
	shift = 63 - prng_leftmost_one_pos64(range);
	do
		v = prng_next(state) >> shift;
	while (v > range);

	return rmin + v;
}

double
prng_double(prng_state *state)
{
	/* the top 52 bits, scaled into [0, 1) */
	return ldexp((double) (prng_next(state) >> 12), -52);
}

double
prng_double_normal(prng_state *state)
{
	/* Box-Muller on (0, 1] uniforms, so that log() never sees 0 */
	double		u1 = 1.0 - prng_double(state);
	double		u2 = 1.0 - prng_double(state);

	return sqrt(-2.0 * log(u1)) * sin(2.0 * M_PI * u2);
}
