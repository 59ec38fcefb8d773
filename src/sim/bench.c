#include "bench.h"

#include <time.h>

#include "program.h"
#include "spawn.h"

double bp_bench_clock_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bp_params bp_bench_params(uint64_t n, double aspect, bool crowd)
{
    bp_params p = bp_pit_params_shaped(n, aspect);
    if (crowd) {
        p.gravity = 0.0;
        p.restitution = 1.0;
        p.friction = 0.0;
    }
    return p;
}

bool bp_bench_run(uint64_t n, double aspect, bool crowd, int64_t solver, int threads,
                  uint64_t seed, bp_bench_result *result)
{
    bp_params params = bp_bench_params(n, aspect, crowd);
    params.solver = solver;
    bp_world *world = bp_world_new(&params);
    if (!world)
        return false;
    world->threads = threads;
    if (!bp_spawn_pit(world, n, seed)) {
        bp_world_destroy(world);
        return false;
    }
    double start = bp_bench_clock_s();
    for (int s = 0; s < BP_BENCH_STEPS; s++)
        if (!bp_world_step(world)) {
            bp_world_destroy(world);
            return false;
        }
    double wall = bp_bench_clock_s() - start;

    uint64_t escaped = bp_bench_count_escaped(world->x, world->y, world->count, params.width,
                                              params.height);
    *result = (bp_bench_result){
        .n = n,
        .aspect = aspect,
        .crowd = crowd,
        .solver = solver,
        .threads = threads,
        .wall_s = wall,
        .max_overlap_over_r = bp_world_get_stats(world).max_overlap / BP_PIT_RADIUS,
        .escaped = escaped,
    };
    bp_world_destroy(world);
    return true;
}

uint64_t bp_bench_count_escaped(const double *x, const double *y, size_t n, double width,
                                double height)
{
    uint64_t escaped = 0;
    for (size_t i = 0; i < n; i++)
        if (!(x[i] >= 0.0 && x[i] <= width && y[i] >= 0.0 && y[i] <= height))
            escaped++;
    return escaped;
}

void bp_bench_print(const bp_bench_result *r, FILE *out)
{
    double steps_per_s = r->wall_s > 0.0 ? BP_BENCH_STEPS / r->wall_s : 0.0;
    fprintf(out,
            "engine=ballpit n=%llu steps=%d threads=%d wall_s=%.6f steps_per_s=%.1f "
            "ball_steps_per_s=%.0f max_overlap_over_r=%.4f escaped=%llu",
            (unsigned long long)r->n, BP_BENCH_STEPS, r->threads, r->wall_s, steps_per_s,
            steps_per_s * (double)r->n, r->max_overlap_over_r, (unsigned long long)r->escaped);
    if (r->aspect != BP_PIT_ASPECT)
        fprintf(out, " aspect=%g", r->aspect);
    if (r->crowd)
        fputs(" case=crowd", out);
    if (r->solver != BP_SOLVER_PASSES)
        fprintf(out, " solver=%s", bp_solver_name(r->solver));
    fputc('\n', out);
}
