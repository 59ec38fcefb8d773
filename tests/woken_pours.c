/* The woken pile over many pours: how often a solver's pile is truly at
 * rest. One pour says little, since the last bits of a pour decide which
 * pile it makes and whether that pile falls asleep still creeping; this
 * settles the 1,000-ball benchmark pit poured from each seed of a range,
 * wakes it whole, runs it 2 s (woken.h) and counts the pours that held:
 * they slept, stayed inside, slept again, and moved 99% of their balls at
 * most 0.1 r and none more than 1 r.
 *
 *   woken_pours passes|soft FIRST LAST
 *
 * prints a line per pour, then
 *   woken solver=S pours=N held=H p99_median=.. p99_max=.. worst_max=.. asleep_step_median=..
 * Run by `meson test -C build --benchmark` (woken-pours-*): a measure, not
 * a test, so it always exits 0 unless its arguments are bad (2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "step.h"
#include "woken.h"

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_double);
    return n > 0 ? v[n / 2] : 0.0;
}

int main(int argc, char **argv)
{
    int64_t solver = argc == 4 && strcmp(argv[1], "soft") == 0     ? BP_SOLVER_SOFT
                     : argc == 4 && strcmp(argv[1], "passes") == 0 ? BP_SOLVER_PASSES
                                                                   : -1;
    char *end1 = NULL, *end2 = NULL;
    unsigned long first = solver >= 0 ? strtoul(argv[2], &end1, 10) : 0;
    unsigned long last = solver >= 0 ? strtoul(argv[3], &end2, 10) : 0;
    if (solver < 0 || *end1 || *end2 || first < 1 || last < first || last - first >= 1000) {
        fprintf(stderr, "usage: woken_pours passes|soft FIRST LAST (seeds 1 up, at most 1,000)\n");
        return 2;
    }
    size_t pours = last - first + 1, held = 0;
    double *p99 = malloc(pours * sizeof *p99), *asleep_at = malloc(pours * sizeof *asleep_at);
    if (!p99 || !asleep_at) {
        fprintf(stderr, "woken_pours: out of memory\n");
        return 1;
    }
    double p99_max = 0.0, worst_max = 0.0;
    for (size_t k = 0; k < pours; k++) {
        uint64_t seed = first + k;
        bp_world *w = woken_pit_poured(solver, seed);
        int steps = 0;
        for (; steps < 20 * 120 && asleep_count(w) < w->count; steps++)
            step_or_bail(w);
        char name[64];
        woken_pour_name(name, sizeof name, seed);
        woken_pile m = woken_pile_measure(w, name, 0);
        bool ok = m.slept && m.inside && m.slept_again && m.p99 <= 0.1 && m.worst <= 1.0;
        held += ok;
        p99[k] = m.p99;
        asleep_at[k] = steps;
        p99_max = m.p99 > p99_max ? m.p99 : p99_max;
        worst_max = m.worst > worst_max ? m.worst : worst_max;
        printf("pour %llu: asleep after %d steps, %s\n", (unsigned long long)seed, steps,
               ok ? "held" : "did not hold");
        bp_world_destroy(w);
    }
    printf("woken solver=%s pours=%zu held=%zu p99_median=%.4f p99_max=%.4f worst_max=%.4f "
           "asleep_step_median=%.0f\n",
           argv[1], pours, held, median(p99, pours), p99_max, worst_max,
           median(asleep_at, pours));
    free(p99);
    free(asleep_at);
    return 0;
}
