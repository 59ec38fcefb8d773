/* One fixed step: semi-implicit Euler (gravity, then drag, then position),
 * the arena's sides, then ball-ball contacts. */
#include <math.h>

#include "arena.h"
#include "solver.h"
#include "world.h"

bool bp_world_step(bp_world *world)
{
    const bp_params *p = &world->params;
    double dt = 1.0 / p->hz;
    double dv_gravity = p->gravity * dt;
    /* Exact solution of dv/dt = -drag v over the step: the same decay per
     * second at any hz. */
    double damping = exp(-p->drag * dt);
    double rest_speed = bp_params_rest_speed(p);

    for (size_t i = 0; i < world->count; i++) {
        if (world->flags[i] & BP_BALL_ASLEEP)
            continue; /* still exactly where it was, still on the ground */
        world->flags[i] &= (uint8_t)~BP_BALL_GROUNDED;
        if (!(world->flags[i] & BP_BALL_HELD)) {
            world->vy[i] += dv_gravity;
            world->vx[i] *= damping;
            world->vy[i] *= damping;
        }
        world->x[i] += world->vx[i] * dt;
        world->y[i] += world->vy[i] * dt;
        bp_arena_contain(world, i, rest_speed);
    }
    if (!bp_solver_resolve(world, rest_speed))
        return false;
    world->steps++;
    return true;
}
