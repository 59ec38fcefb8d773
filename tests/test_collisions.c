/* Ball-ball collisions against the 1D law worked by hand. */
#include "tap.h"
#include "world.h"

static bp_world *free_space(void)
{
    bp_params p = bp_params_default();
    p.gravity = 0.0;
    p.drag = 0.0;
    p.restitution = 1.0;
    p.width = 1000.0;
    p.height = 1000.0;
    return bp_world_create(&p);
}

static void run_until_apart(bp_world *w, int steps)
{
    for (int s = 0; s < steps; s++)
        bp_world_step(w);
}

static void head_on_equal_masses_swap_velocities_exactly(void)
{
    bp_world *w = free_space();
    bp_world_add_ball(w, 400.0, 500.0, 120.0, 0.0, 10.0, 0.0);
    bp_world_add_ball(w, 600.0, 500.0, -80.0, 0.0, 10.0, 0.0);
    run_until_apart(w, 240);
    TAP_OK(w->vx[0] == -80.0 && w->vx[1] == 120.0,
           "equal masses, e=1, head-on: normal velocities swap bit for bit");
    TAP_OK(w->vy[0] == 0.0 && w->vy[1] == 0.0, "head-on along x leaves vy at exactly 0");
    bp_world_destroy(w);
}

int main(void)
{
    head_on_equal_masses_swap_velocities_exactly();
    return tap_done();
}
