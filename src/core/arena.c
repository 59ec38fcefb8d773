#include "arena.h"

#include "collide.h"

void bp_arena_contain(bp_world *world, size_t i, double rest_speed)
{
    const bp_params *p = &world->params;
    double r = world->r[i];
    double e = p->restitution, mu = p->friction;
    /* A ball too big for the arena is centred on that axis. */
    double lo_x = r, hi_x = p->width - r;
    double lo_y = r, hi_y = p->height - r;
    if (lo_x > hi_x)
        lo_x = hi_x = 0.5 * p->width;
    if (lo_y > hi_y)
        lo_y = hi_y = 0.5 * p->height;

    double *x = &world->x[i], *y = &world->y[i];
    double *vx = &world->vx[i], *vy = &world->vy[i];
    if (*x <= lo_x) {
        *x = lo_x;
        bp_collide_static(1.0, 0.0, vx, vy, e, mu, rest_speed);
    } else if (*x >= hi_x) {
        *x = hi_x;
        bp_collide_static(-1.0, 0.0, vx, vy, e, mu, rest_speed);
    }
    bool floor_is_bottom = p->gravity >= 0.0;
    if (*y >= hi_y) {
        *y = hi_y;
        bp_collide_static(0.0, -1.0, vx, vy, e, mu, rest_speed);
        if (floor_is_bottom)
            world->flags[i] |= BP_BALL_GROUNDED;
    } else if (*y <= lo_y) {
        *y = lo_y;
        bp_collide_static(0.0, 1.0, vx, vy, e, mu, rest_speed);
        if (!floor_is_bottom)
            world->flags[i] |= BP_BALL_GROUNDED;
    }
}
