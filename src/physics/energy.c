#include "energy.h"

bp_energy bp_energy_measure(const bp_world *world)
{
    bp_energy e = {0};
    double g = world->params.gravity;
    /* Heights as bp_world_energy measures them: from the rest on the floor
     * (or on the ceiling when gravity pulls up). */
    double floor_y = g >= 0.0 ? world->params.height : 0.0;
    for (size_t i = 0; i < world->count; i++) {
        double m = world->mass[i], r = world->r[i];
        double vx = world->vx[i], vy = world->vy[i], w = world->w[i];
        e.kinetic += 0.5 * m * (vx * vx + vy * vy);
        e.rotational += 0.25 * m * r * r * w * w;
        double rest_y = g >= 0.0 ? floor_y - r : floor_y + r;
        e.potential += m * g * (rest_y - world->y[i]);
        e.px += m * vx;
        e.py += m * vy;
    }
    e.total = e.kinetic + e.rotational + e.potential;
    return e;
}
