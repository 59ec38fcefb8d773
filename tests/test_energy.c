/* The energy in its parts (src/physics/energy.c) against values worked out by
 * hand, with spin set directly (the step does not spin balls yet). */
#include "energy.h"
#include "tap.h"
#include "world.h"

int main(void)
{
    bp_params p = bp_params_default();
    p.width = 400;
    p.height = 300;
    p.gravity = -50.0; /* up: heights count from the ceiling */
    bp_world *w = bp_world_new(&p);
    TAP_OK(w && bp_world_insert_ball(w, 100, 40, 3, -4, 10, 0) >= 0 &&
               bp_world_insert_ball(w, 200, 150, 0, 2, 5, 7.0) >= 0,
           "a world of two balls");
    w->w[0] = 2.0;
    w->w[1] = -4.0;
    bp_energy e = bp_energy_measure(w);
    /* m = r^2 = 100 and the given 7; I = m r^2 / 2. */
    TAP_NEAR(e.kinetic, 0.5 * 100 * 25 + 0.5 * 7 * 4, 1e-9, "kinetic: sum m v^2 / 2");
    TAP_NEAR(e.rotational, 0.5 * (100 * 100 / 2.0) * 4 + 0.5 * (7 * 25 / 2.0) * 16, 1e-9,
             "rotational: sum I w^2 / 2 with I = m r^2 / 2");
    /* Gravity -50 pulls up: rest at y = r, the height is y - r, and the
     * energy m |g| (y - r). */
    TAP_NEAR(e.potential, 100 * 50 * (40 - 10) + 7 * 50 * (150 - 5), 1e-9,
             "potential: m |g| h from where the ball would rest against the ceiling");
    TAP_NEAR(e.total, e.kinetic + e.rotational + e.potential, 1e-9, "total: the three");
    TAP_NEAR(e.px, 100 * 3, 1e-12, "momentum x: sum m vx");
    TAP_NEAR(e.py, 100 * -4 + 7 * 2, 1e-12, "momentum y: sum m vy");
    double ke, pe;
    bp_world_energy(w, &ke, &pe);
    TAP_NEAR(e.kinetic + e.rotational, ke, 1e-9, "the parts add up to the world's kinetic energy");
    TAP_NEAR(e.potential, pe, 1e-9, "and to its potential energy");
    bp_world_destroy(w);
    return tap_done();
}
