#include "world.h"

#include <math.h>
#include <stdlib.h>

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
    if (!world->solver) {
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
    bp_bodies_release(world);
    free(world);
}
