#include "steptime.h"

#include <math.h>
#include <string.h>

void bp_steptime_reset(bp_steptime *st)
{
    memset(st, 0, sizeof *st);
}

static int bin_of(double seconds)
{
    if (!(seconds >= ldexp(1.0, BP_STEPTIME_MIN_EXP)))
        return 0;
    double k = floor((log2(seconds) - BP_STEPTIME_MIN_EXP) * BP_STEPTIME_PER_OCTAVE);
    if (k >= BP_STEPTIME_BINS - 2)
        return BP_STEPTIME_BINS - 1;
    return 1 + (int)k;
}

/* The geometric middle of bin b, s. */
static double middle_of(int b)
{
    if (b == 0)
        return 0.0;
    double lo = BP_STEPTIME_MIN_EXP + (double)(b - 1) / BP_STEPTIME_PER_OCTAVE;
    return exp2(lo + 0.5 / BP_STEPTIME_PER_OCTAVE);
}

void bp_steptime_add(bp_steptime *st, double seconds)
{
    if (!(seconds > 0.0))
        seconds = 0.0;
    if (st->count == 0 || seconds < st->min_s)
        st->min_s = seconds;
    if (seconds > st->max_s)
        st->max_s = seconds;
    st->count++;
    st->total_s += seconds;
    st->bins[bin_of(seconds)]++;
}

double bp_steptime_quantile(const bp_steptime *st, double q)
{
    if (st->count == 0)
        return 0.0;
    /* The rank-th smallest time, rank = ceil(q count), at least 1. */
    double want = ceil(q * (double)st->count);
    uint64_t rank = want < 1.0 ? 1 : want > (double)st->count ? st->count : (uint64_t)want;
    if (rank == st->count)
        return st->max_s;
    if (rank == 1)
        return st->min_s;
    uint64_t seen = 0;
    for (int b = 0; b < BP_STEPTIME_BINS; b++) {
        seen += st->bins[b];
        if (seen >= rank) {
            double t = b == BP_STEPTIME_BINS - 1 ? st->max_s : middle_of(b);
            return fmin(fmax(t, st->min_s), st->max_s);
        }
    }
    return st->max_s;
}
