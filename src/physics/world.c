#include "world.h"

#include <math.h>
#include <stdlib.h>

#include "passes.h"
#include "scratch.h"
#include "solver/solver.h"
#include "sweep.h"
#include "walls.h"
#include "workers.h"

bp_world *bp_world_new(const bp_params *params)
{
    bp_world *world = calloc(1, sizeof *world);
    if (!world)
        return NULL;
    world->params = *params;
    world->threads = 1;
    world->r_min = INFINITY;
    world->passes = bp_passes_create();
    world->scratch = bp_scratch_create();
    if (!world->passes || !world->scratch) {
        bp_passes_destroy(world->passes);
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
    bp_passes_destroy(world->passes);
    bp_workers_destroy(world->workers);
    bp_statics_destroy(world->statics);
    bp_sweep_destroy(world->sweep);
    bp_soft_destroy(world->soft);
    bp_scratch_destroy(world->scratch);
    bp_bodies_release(world);
    free(world);
}

bp_workers *bp_world_workers(bp_world *world)
{
    int wanted = world->threads > 1 && world->count >= BP_WORLD_THREADS_MIN_BALLS
                     ? world->threads
                     : 1;
    if (bp_workers_count(world->workers) != wanted) {
        bp_workers_destroy(world->workers);
        world->workers = wanted > 1 ? bp_workers_create(wanted) : NULL;
    }
    return world->workers;
}

size_t bp_world_state_size(const bp_world *world)
{
    return bp_store_state_size(world) + bp_soft_state_size(world);
}

bool bp_world_save(const bp_world *world, bp_world_state *st)
{
    if (!bp_store_save(world, st, bp_soft_state_size(world)))
        return false;
    if (st->size > st->solver_at)
        bp_soft_state_write(world, st->bytes + st->solver_at);
    return true;
}

bool bp_world_restore(bp_world *world, const bp_world_state *st)
{
    size_t solver_size = st->size > st->solver_at ? st->size - st->solver_at : 0;
    const unsigned char *solver = solver_size > 0 ? st->bytes + st->solver_at : NULL;
    /* Room first, for both parts: a failure leaves the world as it was
     * (a solver made for the restore goes again). */
    bool had_soft = world->soft != NULL;
    if (!bp_soft_state_reserve(world, solver, solver_size) ||
        !bp_store_restore(world, st)) {
        if (!had_soft) {
            bp_soft_destroy(world->soft);
            world->soft = NULL;
        }
        return false;
    }
    bp_soft_state_read(world, solver, solver_size);
    return true;
}
