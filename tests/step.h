/* Steps for tests: a step that fails (out of memory) ends the test at once
 * with a TAP bail-out, instead of being ignored while the checks after it
 * look at a world that never moved. */
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

#endif
