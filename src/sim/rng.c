#include "rng.h"

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

bp_rng bp_rng_seed(uint64_t seed)
{
    bp_rng rng;
    for (int i = 0; i < 4; i++)
        rng.s[i] = splitmix64(&seed);
    return rng;
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t bp_rng_next(bp_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double bp_rng_range(bp_rng *rng, double lo, double hi)
{
    double unit = (double)(bp_rng_next(rng) >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * unit;
}
