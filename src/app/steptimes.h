/* The wall time of the last physics steps, for the HUD's median, 99th
 * percentile and worst step over the last second. */
#ifndef BP_STEPTIMES_H
#define BP_STEPTIMES_H

#include <stdint.h>

/* Steps remembered: a second at up to 4096 steps per second. */
#define BP_STEP_TIMES 4096

typedef struct bp_step_times {
    uint64_t end[BP_STEP_TIMES]; /* when each step ended, clock ticks */
    float ms[BP_STEP_TIMES];     /* how long it took */
    uint64_t next;               /* steps noted so far; the ring's next slot */
    float sorted[BP_STEP_TIMES]; /* scratch */
} bp_step_times;

/* Notes a step that ended at end (ticks of any clock) and took ms. */
void bp_step_times_add(bp_step_times *t, uint64_t end, float ms);

/* Over the steps that ended within window ticks before now (and after
 * it): nearest-rank median, 99th percentile and the worst, ms. Returns how
 * many steps that was (0: the three are left alone). */
int bp_step_times_percentiles(bp_step_times *t, uint64_t now, uint64_t window, double *p50,
                              double *p99, double *max);

#endif
