/* The --bench pit in Chipmunk 7 beside ballpit, in one run:
 * the same balls (our own spawn, same seed), walls, step and measures, so
 * the two lines and their ratio compare like with like.
 *
 * usage: ballpit-vs-chipmunk [--crowd] N [SEED]
 *
 * With --crowd, both run the all-awake crowd (--bench-crowd): the pit
 * without gravity, restitution 1, friction 0.
 *
 * Chipmunk multiplies the elasticities and frictions of the two shapes in a
 * contact, so each shape gets the square root of the pit's value. Chipmunk
 * runs with its spatial hash (cell = one diameter), its default 10
 * iterations and no sleeping. */
#include <chipmunk/chipmunk.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "solver.h"
#include "spawn.h"
#include "world.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void add_side(cpSpace *space, cpVect a, cpVect b, double e, double mu)
{
    /* Thick segments outside the arena, so the inner face is the side. */
    const double thickness = 50.0;
    cpVect out = cpvmult(cpvnormalize(cpvperp(cpvsub(b, a))), -thickness);
    cpShape *side =
        cpSegmentShapeNew(cpSpaceGetStaticBody(space), cpvadd(a, out), cpvadd(b, out), thickness);
    cpShapeSetElasticity(side, e);
    cpShapeSetFriction(side, mu);
    cpSpaceAddShape(space, side);
}

int main(int argc, char **argv)
{
    bool crowd = argc > 1 && strcmp(argv[1], "--crowd") == 0;
    if (crowd) {
        argc--;
        argv++;
    }
    char *end = NULL;
    errno = 0;
    unsigned long long n = argc > 1 ? strtoull(argv[1], &end, 10) : 0;
    if (argc < 2 || argc > 3 || *end || errno || n < 1 || n > 2000000) {
        fprintf(stderr,
                "usage: ballpit-vs-chipmunk [--crowd] N [SEED]  (1 <= N <= 2000000)\n");
        return 2;
    }
    unsigned long long seed = argc > 2 ? strtoull(argv[2], &end, 10) : 1;
    if (argc > 2 && (*end || errno)) {
        fprintf(stderr, "ballpit-vs-chipmunk: SEED: '%s' is not a number\n", argv[2]);
        return 2;
    }

    bp_bench_result ours;
    if (!bp_bench_run(n, BP_PIT_ASPECT, crowd, BP_SOLVER_PASSES, 1, seed, &ours)) {
        fprintf(stderr, "ballpit-vs-chipmunk: out of memory\n");
        return 1;
    }
    bp_bench_print(&ours, stdout);

    /* The same starting state, read back from our own spawn. */
    bp_params params = bp_bench_params(n, BP_PIT_ASPECT, crowd);
    bp_world *world = bp_world_new(&params);
    if (!world || !bp_spawn_pit(world, n, seed)) {
        fprintf(stderr, "ballpit-vs-chipmunk: out of memory\n");
        return 1;
    }
    double e = sqrt(params.restitution), mu = sqrt(params.friction);
    double w = params.width, h = params.height, r = BP_PIT_RADIUS;
    cpSpace *space = cpSpaceNew();
    cpSpaceSetGravity(space, cpv(0.0, params.gravity));
    cpSpaceUseSpatialHash(space, 2.0 * r, (int)(2 * n));
    add_side(space, cpv(0, 0), cpv(w, 0), e, mu);
    add_side(space, cpv(w, 0), cpv(w, h), e, mu);
    add_side(space, cpv(w, h), cpv(0, h), e, mu);
    add_side(space, cpv(0, h), cpv(0, 0), e, mu);
    cpBody **bodies = malloc(sizeof(cpBody *) * n);
    if (!bodies) {
        fprintf(stderr, "ballpit-vs-chipmunk: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < world->count; i++) {
        double m = world->mass[i];
        cpBody *body = cpSpaceAddBody(space, cpBodyNew(m, cpMomentForCircle(m, 0.0, r, cpvzero)));
        cpBodySetPosition(body, cpv(world->x[i], world->y[i]));
        cpBodySetVelocity(body, cpv(world->vx[i], world->vy[i]));
        cpShape *shape = cpSpaceAddShape(space, cpCircleShapeNew(body, r, cpvzero));
        cpShapeSetElasticity(shape, e);
        cpShapeSetFriction(shape, mu);
        bodies[i] = body;
    }

    double start = now_s();
    for (int s = 0; s < BP_BENCH_STEPS; s++)
        cpSpaceStep(space, 1.0 / params.hz);
    double wall = now_s() - start;

    for (size_t i = 0; i < world->count; i++) {
        cpVect p = cpBodyGetPosition(bodies[i]);
        world->x[i] = p.x;
        world->y[i] = p.y;
    }
    unsigned long long escaped = bp_bench_count_escaped(world->x, world->y, world->count, w, h);
    bp_bench_result theirs = {
        .n = n,
        .threads = 1,
        .wall_s = wall,
        .max_overlap_over_r = bp_solver_max_overlap(world) / r,
        .escaped = escaped,
    };
    /* Same line as ours, with the engine's name. */
    double steps_per_s = wall > 0.0 ? BP_BENCH_STEPS / wall : 0.0;
    printf("engine=chipmunk n=%llu steps=%d threads=1 wall_s=%.6f steps_per_s=%.1f "
           "ball_steps_per_s=%.0f max_overlap_over_r=%.4f escaped=%llu%s\n",
           n, BP_BENCH_STEPS, wall, steps_per_s, steps_per_s * (double)n,
           theirs.max_overlap_over_r, escaped, crowd ? " case=crowd" : "");
    double ours_per_s = ours.wall_s > 0.0 ? BP_BENCH_STEPS / ours.wall_s : 0.0;
    printf("ratio n=%llu ballpit_over_chipmunk_steps_per_s=%.2f\n", n,
           steps_per_s > 0.0 ? ours_per_s / steps_per_s : 0.0);

    cpSpaceFree(space); /* shapes and bodies stay Chipmunk's to leak at exit */
    free(bodies);
    bp_world_destroy(world);
    return 0;
}
