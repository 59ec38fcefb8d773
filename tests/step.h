/* Worlds and steps for tests: a world, a ball or a step that fails (out of
 * memory) ends the test at once with a TAP bail-out, instead of being
 * ignored while the checks after it look at a world that never moved. */
#ifndef BP_TEST_STEP_H
#define BP_TEST_STEP_H

#include <stdio.h>
#include <stdlib.h>

#include "world.h"

static inline void step_or_bail(bp_world *world)
{
    if (!bp_world_step(world)) {
        printf("Bail out! bp_world_step failed at step %llu\n",
               (unsigned long long)world->steps);
        exit(1);
    }
}

static inline bp_world *world_or_bail(const bp_params *p)
{
    bp_world *w = bp_world_new(p);
    if (!w) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    return w;
}

/* A ball added at (x, y) with velocity (vx, vy) and radius r: its index. */
static inline size_t add_or_bail(bp_world *w, double x, double y, double vx, double vy, double r)
{
    int64_t id = bp_world_insert_ball(w, x, y, vx, vy, r, 0.0);
    if (id < 0) {
        printf("Bail out! cannot add a ball\n");
        exit(1);
    }
    return (size_t)bp_world_index_of(w, (uint32_t)id);
}

#endif
