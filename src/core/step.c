/* One fixed step: semi-implicit Euler (gravity, then drag), then each ball's
 * swept move through the walls and sides (arena.h), fast balls held back for
 * the ball-ball sweep (sweep.h), then ball-ball contacts (solver.h). */
#include <math.h>

#include "arena.h"
#include "solver.h"
#include "sweep.h"
#include "walls.h"
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
    if (!bp_statics_prepare(world) || !bp_sweep_reserve(world))
        return false;

    /* fast: (v dt)^2 > (BP_FAST_FRACTION r)^2, as v^2 > r^2 * fast_scale. */
    double fast_scale = BP_FAST_FRACTION * BP_FAST_FRACTION * p->hz * p->hz;
    double r_max = 0.0;
    bool sweeping = false;
    for (size_t i = 0; i < world->count; i++) {
        if (world->flags[i] & BP_BALL_ASLEEP)
            continue; /* still exactly where it was, still on the ground */
        world->flags[i] &= (uint8_t)~BP_BALL_GROUNDED;
        if (!(world->flags[i] & BP_BALL_HELD)) {
            world->vy[i] += dv_gravity;
            world->vx[i] *= damping;
            world->vy[i] *= damping;
        }
        double vx = world->vx[i], vy = world->vy[i], r = world->r[i];
        r_max = r > r_max ? r : r_max;
        if (vx * vx + vy * vy > r * r * fast_scale) {
            if (!sweeping) {
                bp_sweep_begin(world);
                sweeping = true;
            }
            bp_sweep_add(world, i);
            continue;
        }
        bp_arena_move(world, i, dt, BP_MAX_IMPACTS, false, rest_speed);
    }
    /* Out of memory the sweep still moves every held ball (without ball
     * impacts), so the step goes on either way. */
    if (sweeping)
        (void)bp_sweep_run(world, dt, r_max, rest_speed);
    world->statics->anchors_valid = world->wall_count > 0;
    if (!bp_solver_resolve(world, rest_speed))
        return false;
    world->steps++;
    return true;
}
