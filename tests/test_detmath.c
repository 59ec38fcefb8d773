/* bp_exp: the correctly rounded e^x at points worked out exactly, within
 * an ulp of the C library's exp everywhere, and the same bits on every
 * platform (the checksum over a sweep: this test also runs compiled to
 * WebAssembly, where the C library is another one). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "detmath.h"
#include "tap.h"

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* Distance in ulps between two finite doubles of one sign. */
static uint64_t ulps_apart(double a, double b)
{
    uint64_t x = bits_of(a), y = bits_of(b);
    return x > y ? x - y : y - x;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* e^x rounded to nearest, worked out to 80 digits (Python's decimal
 * module): the first six are inputs where glibc's exp (or musl's) rounds
 * the other way, then the step's damping for drag 0.05 at 120 Hz in 1 to 4
 * substeps, then plain and extreme points. */
static const struct {
    double x, want;
} exact[] = {
    {-0x1.535e26f7fbc60p-2, 0x1.6f91a3383075ap-1},
    {-0x1.bd2361492d12cp-9, 0x1.fe439de7b048ap-1},
    {-0x1.80aa320d0ea20p-10, 0x1.ff3fcf02645bdp-1},
    {-0x1.3395e0e830558p+9, 0x1.6906713745381p-888},
    {0x1.399cf92ae0156p+9, 0x1.dc8185d44a62ep+904},
    {0x1.90ec010c3a730p+6, 0x1.849036f8c7229p+144},
    {-0x1.b4e81b4e81b4fp-12, 0x1.ffc965e6231cdp-1},
    {-0x1.b4e81b4e81b4fp-13, 0x1.ffe4b238b1a37p-1},
    {-0x1.23456789abcdfp-13, 0x1.ffedcbfc6020fp-1},
    {-0x1.b4e81b4e81b4fp-14, 0x1.fff258edbf98ep-1},
    {0x1.0p+0, 0x1.5bf0a8b145769p+1},
    {-0x1.0p+0, 0x1.78b56362cef38p-2},
    {0x1.0p-1, 0x1.a61298e1e069cp+0},
    {0x1.56e1fc2f8f359p-997, 0x1.0p+0},
    {-0x1.5ep+9, 0x1.14f2b0fb9307fp-1010},
    {0x1.628p+9, 0x1.d422d2be5dc9bp+1022},
    {-0x1.7490a3d70a3d7p+9, 0x1p-1074},
};

int main(void)
{
    int wrong = 0;
    for (size_t k = 0; k < sizeof exact / sizeof exact[0]; k++) {
        double got = bp_exp(exact[k].x);
        if (bits_of(got) != bits_of(exact[k].want)) {
            wrong++;
            printf("#   bp_exp(%a) = %a, want %a\n", exact[k].x, got, exact[k].want);
        }
    }
    TAP_OK(wrong == 0, "bp_exp gives the correctly rounded e^x at 17 points worked out exactly, "
                       "among them six where a C library rounds the other way");

    TAP_OK(bp_exp(0.0) == 1.0 && bp_exp(-0.0) == 1.0, "e^0 is exactly 1");
    TAP_OK(isnan(bp_exp(NAN)), "e^NaN is NaN");
    TAP_OK(bp_exp(INFINITY) == INFINITY && bp_exp(710.0) == INFINITY &&
               bp_exp(0x1.62e42fefa39efp9) < INFINITY,
           "overflow to +inf just above ln(DBL_MAX), and not at it");
    TAP_OK(bp_exp(-INFINITY) == 0.0 && bp_exp(-746.0) == 0.0 && bp_exp(-745.0) > 0.0,
           "underflow to 0 below ln(2^-1075), and not at -745");

    /* Against the C library over the whole range and over the step's
     * (drag times a step of at most a second). A C library's exp is within
     * an ulp (glibc documents at most 1 ulp for exp on x86_64 and most
     * others), bp_exp within half an ulp and a hair: between them at most
     * 1 ulp apart, and at most a few in a thousand apart at all. */
    uint64_t seed = 88172645463325252u, checksum = 0;
    const struct {
        double lo, hi;
        const char *what;
    } ranges[] = {
        {-745.0, 709.0, "over [-745, 709]"},
        {-5.0, 0.0, "over [-5, 0], the damping of any drag up to 5 per second"},
        {-0x1p-20, 0x1p-20, "near 0, where e^x is 1 + x"},
    };
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        uint64_t far = 0, apart = 0;
        const int n = 200000;
        for (int i = 0; i < n; i++) {
            double u = (double)(xorshift(&seed) >> 11) * 0x1p-53;
            double x = ranges[r].lo + (ranges[r].hi - ranges[r].lo) * u;
            double got = bp_exp(x), libm = exp(x);
            checksum = (checksum ^ bits_of(got)) * 0x100000001b3u;
            uint64_t d = ulps_apart(got, libm);
            if (d > far)
                far = d;
            apart += d != 0;
        }
        char what[160];
        snprintf(what, sizeof what, "within 1 ulp of the C library's exp %s (%llu of %d differ)",
                 ranges[r].what, (unsigned long long)apart, n);
        TAP_OK(far <= 1 && apart * 100 < (uint64_t)n, what);
    }

    /* Monotonic where the range reduction changes k, at x = (k + 1/2) ln 2,
     * where a slip in the reduction would show as a step backwards. */
    int backwards = 0;
    for (int k = -1070; k < 1020; k++) {
        double x = ((double)k + 0.5) * 0x1.62e42fefa39efp-1;
        double prev = bp_exp(x);
        for (int j = 0; j < 64; j++) {
            x = nextafter(x, INFINITY);
            double e = bp_exp(x);
            backwards += e < prev;
            prev = e;
        }
    }
    TAP_OK(backwards == 0, "never decreases across the 64 doubles after each (k + 1/2) ln 2");

    /* The same bits on every platform: the checksum of the 600,000 results
     * above, as computed with gcc on x86_64. */
    printf("# checksum %016llx\n", (unsigned long long)checksum);
    TAP_OK(checksum == 0x832a75cad2b0b13aull, "the sweep's 600,000 results have the checksum they have on x86_64");
    return tap_done();
}
