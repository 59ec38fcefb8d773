/* The woken pile, the measure of true rest that test_rest (the passes) and
 * test_soft (the soft solver) share: a pile is settled until every ball
 * sleeps, woken whole (as a pile loaded back awake would be) and run 2 s;
 * a pile truly at rest barely moves. */
#ifndef BP_TEST_WOKEN_H
#define BP_TEST_WOKEN_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "scene.h"
#include "spawn.h"
#include "step.h"
#include "world.h"

static inline size_t asleep_count(const bp_world *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->count; i++)
        n += (w->flags[i] & BP_BALL_ASLEEP) != 0;
    return n;
}

typedef struct woken_pile {
    size_t balls;
    bool slept;       /* every ball slept after settling */
    bool inside;      /* woken, every ball stayed in the arena */
    bool slept_again; /* woken, the pile was asleep again 2 s later */
    double p50, p99, worst; /* how far the balls moved in 2 s, in their radii */
} woken_pile;

static inline int woken_by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Wakes w whole (if it sleeps) and runs it 2 s; how far its balls moved,
 * whether they stayed inside and fell asleep again (slept: whether every
 * ball slept before). Prints the figures under name. */
static inline woken_pile woken_pile_run(bp_world *w, const char *name)
{
    size_t n = w->count;
    woken_pile out = {.balls = n, .inside = true, .slept = n > 0 && asleep_count(w) == n};
    uint32_t ids = w->next_id;
    double *x0 = malloc((ids ? ids : 1) * sizeof *x0), *y0 = malloc((ids ? ids : 1) * sizeof *y0);
    double *moved = malloc((n ? n : 1) * sizeof *moved);
    if (!x0 || !y0 || !moved) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        x0[w->id[i]] = w->x[i];
        y0[w->id[i]] = w->y[i];
    }
    bp_world_wake_all(w);
    for (int s = 0; s < (int)(2.0 * w->params.hz); s++) {
        step_or_bail(w);
        for (size_t i = 0; i < n; i++)
            out.inside &= w->x[i] >= 0.0 && w->x[i] <= w->params.width && w->y[i] >= 0.0 &&
                          w->y[i] <= w->params.height;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t id = w->id[i];
        moved[i] = hypot(w->x[i] - x0[id], w->y[i] - y0[id]) / w->r[i];
    }
    qsort(moved, n, sizeof *moved, woken_by_value);
    if (n > 0) {
        out.p50 = moved[n / 2];
        out.p99 = moved[n * 99 / 100];
        out.worst = moved[n - 1];
    }
    out.slept_again = asleep_count(w) == n;
    printf("# %s woken for 2 s: moved p50 %.4f r, p99 %.4f r, max %.4f r\n", name, out.p50,
           out.p99, out.worst);
    free(x0);
    free(y0);
    free(moved);
    return out;
}

/* Settles w for up to max_steps (until every ball sleeps), wakes it whole
 * and runs it 2 s (woken_pile_run). */
static inline woken_pile woken_pile_measure(bp_world *w, const char *name, int max_steps)
{
    for (int s = 0; s < max_steps && asleep_count(w) < w->count; s++)
        step_or_bail(w);
    return woken_pile_run(w, name);
}

/* The two piles measured: the 1,000-ball benchmark pit (one radius,
 * friction 0.2; the pour is the seed's) and the heap scene (radii 4-8
 * poured from a hopper, friction 0.6), with the given solver. Bails out if
 * they cannot be built. */
static inline bp_world *woken_pit_poured(int64_t solver, uint64_t seed)
{
    bp_params p = bp_pit_params(1000);
    p.solver = solver;
    bp_world *w = bp_world_new(&p);
    if (!w || !bp_spawn_pit(w, 1000, seed)) {
        printf("Bail out! cannot build the pit\n");
        exit(1);
    }
    return w;
}

/* The other pours both solvers are woken from (seeds 2-5), and the name
 * one goes by in the test output. */
#define WOKEN_POURS_FIRST 2
#define WOKEN_POURS_LAST 5

static inline void woken_pour_name(char *name, size_t size, uint64_t seed)
{
    snprintf(name, size, "pit of 1,000 poured from seed %llu", (unsigned long long)seed);
}

/* The pit as the benchmark pours it (seed 1). */
static inline bp_world *woken_pit(int64_t solver)
{
    return woken_pit_poured(solver, 1);
}

static inline bp_world *woken_heap(int64_t solver)
{
    bp_scene scene = {0};
    char err[256];
    if (bp_scene_load(&scene, BP_SCENES_DIR "/heap.scene", err, sizeof err) != 0) {
        printf("Bail out! %s\n", err);
        exit(1);
    }
    scene.params.solver = solver;
    bp_world *w = bp_world_new(&scene.params);
    if (!w || bp_scene_build(&scene, "heap.scene", w, err, sizeof err) != 0) {
        printf("Bail out! cannot build the heap\n");
        exit(1);
    }
    bp_scene_free(&scene);
    return w;
}

#endif
