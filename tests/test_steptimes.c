/* The HUD's step-time figures (src/app/steptimes.c): nearest-rank median
 * and 99th percentile and the worst, over the steps of the last second
 * only. */
#include "steptimes.h"
#include "tap.h"

static bp_step_times t;

int main(void)
{
    double p50 = -1, p99 = -1, max = -1;
    TAP_OK(bp_step_times_percentiles(&t, 1000, 1000, &p50, &p99, &max) == 0 && p50 == -1,
           "no steps: no figures");
    /* 200 steps of 1..200 ms, in shuffled order, ending at ticks 1..200. */
    for (int k = 0; k < 200; k++)
        bp_step_times_add(&t, (uint64_t)(k + 1), (float)((k * 37) % 200 + 1));
    int n = bp_step_times_percentiles(&t, 200, 1000, &p50, &p99, &max);
    TAP_OK(n == 200, "all 200 steps lie within the window");
    TAP_NEAR(p50, 100.0, 0.0, "the median of 1..200 by nearest rank is 100");
    TAP_NEAR(p99, 198.0, 0.0, "the 99th percentile is 198 (rank ceil(0.99 x 200))");
    TAP_NEAR(max, 200.0, 0.0, "the worst is 200");
    /* At tick 1150, with a window of 1000 ticks, the steps that ended at
     * ticks 150..200 count (51 of them), not the older ones. */
    n = bp_step_times_percentiles(&t, 1150, 1000, &p50, &p99, &max);
    TAP_OK(n == 51, "steps that ended over the window ago are left out");
    /* More steps than the ring holds: the oldest are forgotten. */
    for (int k = 0; k < BP_STEP_TIMES + 10; k++)
        bp_step_times_add(&t, 5000, 2.0f);
    n = bp_step_times_percentiles(&t, 5000, 1000, &p50, &p99, &max);
    TAP_OK(n == BP_STEP_TIMES && max == 2.0, "the ring keeps the last BP_STEP_TIMES steps");
    return tap_done();
}
