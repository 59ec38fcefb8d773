#include "validate.h"

#include <assert.h>
#include <math.h>

void bp_world_validate(const bp_world *world)
{
    const bp_params *p = &world->params;
    assert(world->count <= world->capacity);
    assert(world->next_id <= world->id_capacity || world->next_id == 0);
    assert(world->wall_count <= world->wall_capacity || world->wall_count == 0);
    size_t live = 0;
    for (uint32_t id = 0; id < world->next_id; id++)
        live += world->index_of_id[id] >= 0;
    assert(live == world->count && "every live id names a ball, and only those");
    for (size_t i = 0; i < world->count; i++) {
        assert(world->id[i] < world->next_id);
        assert(world->index_of_id[world->id[i]] == (int32_t)i && "id -> index -> id");
        assert(isfinite(world->x[i]) && isfinite(world->y[i]));
        assert(isfinite(world->vx[i]) && isfinite(world->vy[i]));
        assert(isfinite(world->w[i]) && isfinite(world->angle[i]));
        assert(world->x[i] >= 0.0 && world->x[i] <= p->width && "centre inside the arena");
        assert(world->y[i] >= 0.0 && world->y[i] <= p->height && "centre inside the arena");
        assert(world->r[i] > 0.0 && world->r[i] >= world->r_min && world->r[i] <= world->r_max);
        assert(world->mass[i] > 0.0 && isfinite(world->mass[i]));
        uint8_t f = world->flags[i];
        if (f & (BP_BALL_HELD | BP_BALL_ASLEEP)) {
            assert(world->inv_mass[i] == 0.0 && world->inv_inertia[i] == 0.0 &&
                   "held and sleeping balls are immovable");
        } else {
            assert(world->inv_mass[i] == 1.0 / world->mass[i] && "a free ball has its own mass");
            assert(world->inv_inertia[i] > 0.0 && isfinite(world->inv_inertia[i]));
        }
        if ((f & BP_BALL_ASLEEP) && !(f & BP_BALL_HELD))
            assert(world->vx[i] == 0.0 && world->vy[i] == 0.0 && world->w[i] == 0.0 &&
                   "a sleeper is still");
    }
    for (size_t k = 0; k < world->wall_count; k++) {
        const bp_wall *g = &world->walls[k];
        assert(isfinite(g->x1) && isfinite(g->y1) && isfinite(g->x2) && isfinite(g->y2));
        assert(g->r >= 0.0 && isfinite(g->r));
    }
}
