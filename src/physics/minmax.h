/* Minimum and maximum of two doubles, inline. libm's fmin/fmax are calls
 * that honour NaN; the hot loops that use these never see one. */
#ifndef BP_MINMAX_H
#define BP_MINMAX_H

static inline double bp_min(double a, double b)
{
    return a < b ? a : b;
}

static inline double bp_max(double a, double b)
{
    return a > b ? a : b;
}

#endif
