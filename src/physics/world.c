#include "world.h"

#include <math.h>
#include <stdlib.h>

#include "scratch.h"
#include "soft.h"
#include "solver.h"
#include "sweep.h"
#include "walls.h"

bp_world *bp_world_new(const bp_params *params)
{
    bp_world *world = calloc(1, sizeof *world);
    if (!world)
        return NULL;
    world->params = *params;
    world->threads = 1;
    world->r_min = INFINITY;
    world->solver = bp_solver_create();
    world->scratch = bp_scratch_create();
    if (!world->solver || !world->scratch) {
        bp_solver_destroy(world->solver);
        bp_scratch_destroy(world->scratch);
        free(world);
        return NULL;
    }
    return world;
}

void bp_world_destroy(bp_world *world)
{
    if (!world)
        return;
    bp_solver_destroy(world->solver);
    bp_statics_destroy(world->statics);
    bp_sweep_destroy(world->sweep);
    bp_soft_destroy(world->soft);
    bp_scratch_destroy(world->scratch);
    bp_bodies_release(world);
    free(world);
}
