/* Step-time statistics: percentiles within the 1.1% the bins promise,
 * exact extremes, and no nonsense from empty or odd input. */
#include <math.h>

#include "steptime.h"
#include "tap.h"

int main(void)
{
    bp_steptime st;
    bp_steptime_reset(&st);
    TAP_OK(st.count == 0 && bp_steptime_quantile(&st, 0.5) == 0.0 &&
               bp_steptime_quantile(&st, 0.99) == 0.0,
           "no steps: count 0 and every percentile 0");

    bp_steptime_add(&st, 0.0042);
    TAP_OK(bp_steptime_quantile(&st, 0.5) == 0.0042 && bp_steptime_quantile(&st, 0.99) == 0.0042 &&
               st.max_s == 0.0042,
           "one step of 4.2 ms: every percentile is exactly it");

    /* 1, 2, ..., 1000 ms, shuffled by a stride coprime with 1000. */
    bp_steptime_reset(&st);
    for (int k = 0; k < 1000; k++)
        bp_steptime_add(&st, 1e-3 * (double)(1 + (k * 357) % 1000));
    TAP_OK(st.count == 1000, "1000 steps counted");
    TAP_NEAR(st.total_s, 500.5, 1e-9, "their total is 500.5 s");
    /* Ranks ceil(0.5 * 1000) = 500 and ceil(0.99 * 1000) = 990. */
    TAP_NEAR(bp_steptime_quantile(&st, 0.5), 0.500, 0.500 * 0.011, "p50 of 1..1000 ms is 500 ms within 1.1%");
    TAP_NEAR(bp_steptime_quantile(&st, 0.99), 0.990, 0.990 * 0.011, "p99 is 990 ms within 1.1%");
    TAP_OK(st.max_s == 1.0 && st.min_s == 0.001 && bp_steptime_quantile(&st, 1.0) == 1.0,
           "the maximum (and p100) is exactly 1000 ms, the minimum exactly 1 ms");

    /* One slow step among fast ones shows in the maximum, not the median. */
    bp_steptime_reset(&st);
    for (int k = 0; k < 999; k++)
        bp_steptime_add(&st, 2e-6);
    bp_steptime_add(&st, 3.0);
    TAP_NEAR(bp_steptime_quantile(&st, 0.5), 2e-6, 2e-6 * 0.011, "999 steps of 2 us and one of 3 s: p50 2 us");
    TAP_NEAR(bp_steptime_quantile(&st, 0.99), 2e-6, 2e-6 * 0.011, "... p99 still 2 us (rank 990)");
    TAP_OK(st.max_s == 3.0, "... and the maximum 3 s exactly");

    /* Out-of-range times land in the end bins and stay finite. */
    bp_steptime_reset(&st);
    bp_steptime_add(&st, NAN);
    bp_steptime_add(&st, -1.0);
    bp_steptime_add(&st, 1e-12);
    bp_steptime_add(&st, 5000.0);
    double p50 = bp_steptime_quantile(&st, 0.5);
    TAP_OK(st.count == 4 && st.min_s == 0.0 && st.max_s == 5000.0 && isfinite(p50) && p50 >= 0.0 &&
               p50 <= 5000.0,
           "NaN and negative times count as 0, 1 ps and 5000 s stay in range");
    return tap_done();
}
