/* Wall time per physics step: how many, their total, the largest, and
 * percentiles (p50, p99) to within 1.1%, in constant memory however long
 * the run. The headless runner's --stats line is built from one for the
 * whole run; a window's HUD can keep one per second and reset it. Times
 * come in from the caller's clock: this module reads none. */
#ifndef BP_STEPTIME_H
#define BP_STEPTIME_H

#include <stdint.h>

/* Bins of 2^(1/32) (2.2% wide) from 2^-30 s (1 ns) to 2^10 s; a time is
 * reported as its bin's geometric middle, so within 1.1%. */
#define BP_STEPTIME_PER_OCTAVE 32
#define BP_STEPTIME_MIN_EXP (-30)
#define BP_STEPTIME_OCTAVES 40
#define BP_STEPTIME_BINS (BP_STEPTIME_PER_OCTAVE * BP_STEPTIME_OCTAVES + 2)

typedef struct bp_steptime {
    uint64_t count;  /* steps timed */
    double total_s;  /* their sum, s */
    double min_s, max_s; /* exact extremes, s (0 before the first step) */
    uint64_t bins[BP_STEPTIME_BINS]; /* first: below 1 ns; last: 1024 s and above */
} bp_steptime;

/* Empties it (also how it starts). */
void bp_steptime_reset(bp_steptime *st);
/* Counts one step that took seconds (negative or NaN counts as 0). */
void bp_steptime_add(bp_steptime *st, double seconds);
/* The time, s, that a fraction q (0 < q <= 1) of the steps took at most:
 * q = 0.5 the median, 0.99 the 99th percentile; exact at the ends (the
 * minimum and maximum clamp it). 0 when no step was timed. */
double bp_steptime_quantile(const bp_steptime *st, double q);

#endif
