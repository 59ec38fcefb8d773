/* A small, fast, portable generator (xoshiro256**, seeded by splitmix64) so
 * that the same seed gives the same world on every machine. */
#ifndef BP_RNG_H
#define BP_RNG_H

#include <stdint.h>

typedef struct bp_rng {
    uint64_t s[4];
} bp_rng;

bp_rng bp_rng_seed(uint64_t seed);
uint64_t bp_rng_next(bp_rng *rng);
/* Uniform in [lo, hi). */
double bp_rng_range(bp_rng *rng, double lo, double hi);

#endif
