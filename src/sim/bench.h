/* The standard pit benchmark (--bench; docs/benchmarks.md): N balls of 5 px settling for 600
 * steps; only the steps are timed. The all-awake crowd (--bench-crowd) is the same pit
 * without gravity, restitution 1 and friction 0: a gas in which no ball ever sleeps. */
#ifndef BP_BENCH_H
#define BP_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "program.h"

#define BP_BENCH_STEPS 600

typedef struct bp_bench_result {
    uint64_t n;
    double aspect; /* the pit's width over height */
    bool crowd;    /* the all-awake crowd rather than the pit */
    int64_t solver; /* BP_SOLVER_* */
    int threads;
    double wall_s;
    double max_overlap_over_r;
    uint64_t escaped;
} bp_bench_result;

/* Runs the pit of this aspect (BP_PIT_ASPECT for the standard one; it must
 * pass bp_pit_check), or with crowd its all-awake crowd; false when memory
 * runs out. */
bool bp_bench_run(uint64_t n, double aspect, bool crowd, int64_t solver, int threads,
                  uint64_t seed, bp_bench_result *result);
/* A monotonic clock, s: what the benchmarks time steps with. */
double bp_bench_clock_s(void);
/* The parameters of the pit (crowd false) or of the crowd in it. */
bp_params bp_bench_params(uint64_t n, double aspect, bool crowd);
/* Balls whose centre lies outside the arena (NaN counts as outside). Soft
 * engines let balls sink a little into a side; that is an overlap, not an
 * escape. */
uint64_t bp_bench_count_escaped(const double *x, const double *y, size_t n, double width,
                                double height);
/* Prints the one documented bench line, with aspect=A at its end for a pit that is
 * not the standard one, then case=crowd for the crowd, then solver=soft for
 * the soft solver. */
void bp_bench_print(const bp_bench_result *result, FILE *out);

#endif
