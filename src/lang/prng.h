/*
 * prng.h -- pgbenchx's pseudo-random number generator.
 *
 * Owns: a from-scratch implementation of xoroshiro128** with exactly the
 * semantics of PostgreSQL's src/common/pg_prng.c (splitmix64 seeding, the
 * all-zero guard, bitmask-rejection ranges, 52-bit doubles, Box-Muller
 * normals), so that every value drawn here equals the value stock pgbench
 * draws from the same seed.
 *
 * Must not: depend on PostgreSQL headers, allocate memory, or keep any global
 * state (every function works on a caller-owned prng_state).
 */
#ifndef PGBENCHX_PRNG_H
#define PGBENCHX_PRNG_H

#include <stdint.h>

typedef struct prng_state
{
	uint64_t	s0;
	uint64_t	s1;
} prng_state;

/* Seed from a 64-bit value, as pg_prng_seed() does. */
extern void prng_seed(prng_state *state, uint64_t seed);

/* Uniform in [0, UINT64_MAX], as pg_prng_uint64(). */
extern uint64_t prng_uint64(prng_state *state);

/* Uniform in [rmin, rmax] (rmin if the range is empty), as pg_prng_uint64_range(). */
extern uint64_t prng_uint64_range(prng_state *state, uint64_t rmin, uint64_t rmax);

/* Uniform in [0.0, 1.0), as pg_prng_double(). */
extern double prng_double(prng_state *state);

/* Standard normal (mean 0, stddev 1), as pg_prng_double_normal(). */
extern double prng_double_normal(prng_state *state);

/* Position of the most significant set bit (0..63); x must be non-zero. */
extern int	prng_leftmost_one_pos64(uint64_t x);

#endif							/* PGBENCHX_PRNG_H */
