#include "steptimes.h"

#include <math.h>
#include <stdlib.h>

void bp_step_times_add(bp_step_times *t, uint64_t end, float ms)
{
    t->end[t->next % BP_STEP_TIMES] = end;
    t->ms[t->next % BP_STEP_TIMES] = ms;
    t->next++;
}

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int bp_step_times_percentiles(bp_step_times *t, uint64_t now, uint64_t window, double *p50,
                              double *p99, double *max)
{
    uint64_t held = t->next < BP_STEP_TIMES ? t->next : BP_STEP_TIMES;
    size_t n = 0;
    /* Newest first, until one ended before the window. */
    for (uint64_t k = 0; k < held; k++) {
        size_t slot = (size_t)((t->next - 1u - k) % BP_STEP_TIMES);
        if (t->end[slot] < now && now - t->end[slot] > window)
            break;
        t->sorted[n++] = t->ms[slot];
    }
    if (n == 0)
        return 0;
    qsort(t->sorted, n, sizeof *t->sorted, by_value);
    /* Nearest rank: the smallest time at or above that share of the steps. */
    *p50 = t->sorted[(size_t)ceil(0.50 * (double)n) - 1];
    *p99 = t->sorted[(size_t)ceil(0.99 * (double)n) - 1];
    *max = t->sorted[n - 1];
    return (int)n;
}
