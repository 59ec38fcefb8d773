#include "detmath.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* Double-double arithmetic (Dekker, Knuth): a value hi + lo with |lo| at
 * most half an ulp of hi, about 106 bits. Every operation is one of + - * /
 * on doubles, each correctly rounded, so the whole is the same anywhere. */
typedef struct {
    double hi, lo;
} dd;

/* a + b exactly, as s + e (Knuth's TwoSum: any order of magnitudes). */
static dd two_sum(double a, double b)
{
    double s = a + b;
    double bb = s - a;
    double e = (a - (s - bb)) + (b - bb);
    return (dd){s, e};
}

/* a + b exactly, when |a| >= |b| or a is 0 (Dekker's FastTwoSum). */
static dd fast_two_sum(double a, double b)
{
    double s = a + b;
    return (dd){s, b - (s - a)};
}

/* Splits a into two halves of 26 bits each, so that their products are
 * exact (Veltkamp). */
static void split(double a, double *hi, double *lo)
{
    double t = 134217729.0 * a; /* 2^27 + 1 */
    *hi = t - (t - a);
    *lo = a - *hi;
}

/* a * b exactly, as p + e, without a fused multiply-add (Dekker). */
static dd two_prod(double a, double b)
{
    double p = a * b, ah, al, bh, bl;
    split(a, &ah, &al);
    split(b, &bh, &bl);
    double e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    return (dd){p, e};
}

static dd dd_mul(dd a, dd b)
{
    dd p = two_prod(a.hi, b.hi);
    p.lo += a.hi * b.lo + a.lo * b.hi;
    return fast_two_sum(p.hi, p.lo);
}

/* a / d for a small integer d > 0: the first quotient's remainder is
 * found exactly and divided again. */
static dd dd_div_small(dd a, double d)
{
    double q1 = a.hi / d;
    dd p = two_prod(q1, d);
    double r = ((a.hi - p.hi) - p.lo) + a.lo;
    return fast_two_sum(q1, r / d);
}

static dd dd_add_one(dd a)
{
    dd s = two_sum(1.0, a.hi);
    s.lo += a.lo;
    return fast_two_sum(s.hi, s.lo);
}

/* 2^k for -1022 <= k <= 1023, built from its bits. */
static double pow2(int k)
{
    uint64_t bits = (uint64_t)(k + 1023) << 52;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* ln 2 in three parts: LN2_1 has 32 significant bits, so k * LN2_1 is
 * exact for any |k| < 2^21; LN2_2 and LN2_3 carry the next 106. */
#define LN2_1 0x1.62e42ffp-1
#define LN2_2 (-0x1.718432a1b0e26p-35)
#define LN2_3 (-0x1.9ff0342542fc3p-90)
#define INV_LN2 0x1.71547652b82fep0

/* Terms of the Taylor series of e^r for |r| <= ln 2 / 2: the first left
 * out, r^25 / 25!, is below 2^-120. */
#define EXP_TERMS 24

double bp_exp(double x)
{
    if (x != x)
        return x + x;
    /* Above ln(DBL_MAX) the result overflows; below ln of half the
     * smallest subnormal, 2^-1075, it rounds to 0. */
    if (x > 0x1.62e42fefa39efp9)
        return DBL_MAX * 2.0;
    if (x < -0x1.74910d52d3052p9)
        return 0.0;

    /* x = k ln 2 + r, |r| <= ln 2 / 2 (a little more where x * INV_LN2
     * rounds across a half): x - k LN2_1 is exact (Sterbenz, or k = 0),
     * the rest is subtracted in double-double. */
    double k = floor(x * INV_LN2 + 0.5);
    double a = x - k * LN2_1;
    dd p = two_prod(k, LN2_2);
    dd r = two_sum(a, -p.hi);
    r.lo += -p.lo - k * LN2_3;
    r = fast_two_sum(r.hi, r.lo);

    /* e^r = 1 + r (1 + r/2 (1 + r/3 (...))) in double-double. */
    dd s = {1.0, 0.0};
    for (int n = EXP_TERMS; n >= 1; n--)
        s = dd_add_one(dd_div_small(dd_mul(s, r), (double)n));

    /* s.hi is s rounded to nearest; times 2^k it stays exact but for
     * subnormal results, where the product rounds a second time. */
    int ki = (int)k;
    if (ki > 1023)
        return s.hi * 2.0 * pow2(ki - 1);
    if (ki < -1022)
        return s.hi * pow2(ki + 1022) * 0x1p-1022;
    return s.hi * pow2(ki);
}
