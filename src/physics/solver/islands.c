/* The soft solver's islands: the balls awake joined by touching contacts.
 * An island sleeps whole, keeping its contacts' impulses (contact
 * memory); it wakes in part (wake.c). */
#include <math.h>

#include "soft_internal.h"

/* A ball is slow below this speed (and spin times radius), as a part of
 * the speed gravity adds in a step; without gravity, as a part of the
 * smallest radius per second; and never faster than it goes this part of
 * the smallest radius in a step (or a piece of one). That binds where
 * r_min < 5 g dt^2 (0.34 px at 120 Hz and 980 px/s^2, 1.4 px at 60 Hz):
 * at 1 Hz under 10^7 px/s^2 a quarter of g dt is 2.5e6 px/s, and a crowd
 * sinking into itself at 10^6 px/s slept. */
#define BP_SOFT_SLEEP_SPEED_G_STEP 0.25
#define BP_SOFT_SLEEP_SPEED_R_PER_S 0.05
#define BP_SOFT_SLEEP_MOVE_R_PER_STEP 0.05
/* An island sleeps when every ball in it has been slow this long, s. */
#define BP_SOFT_SLEEP_AFTER_S 0.5

double bp_soft_slow_speed(const bp_world *world, double dt)
{
    const bp_params *p = &world->params;
    double slow = fabs(p->gravity) > 0.0 ? BP_SOFT_SLEEP_SPEED_G_STEP * fabs(p->gravity) * dt
                                         : BP_SOFT_SLEEP_SPEED_R_PER_S * world->r_min;
    return fmin(slow, BP_SOFT_SLEEP_MOVE_R_PER_STEP * world->r_min / dt);
}

static uint32_t find_root(uint32_t *parent, uint32_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

/* Islands: the balls awake joined by touching contacts. An island sleeps
 * whole once every ball in it has been slow for the sleep time, none is
 * held, and none touches a ball awake outside it (it then would be in it). */
bool bp_soft_sleep_islands(bp_soft *soft, bp_world *world, double dt)
{
    double slow = bp_soft_slow_speed(world, dt);
    double steps = ceil(BP_SOFT_SLEEP_AFTER_S / dt);
    uint16_t calm_steps = (uint16_t)(steps < 1.0 ? 1.0 : (steps > 60000.0 ? 60000.0 : steps));
    size_t n = world->count;
    /* Only balls awake join islands (contacts with a sleeper or a static
     * join none): their entries alone are set, so a world asleep costs
     * nothing here. */
    size_t awake = 0, ready = 0;
    for (size_t i = bp_world_next_awake(world, 0); i < n; i = bp_world_next_awake(world, i + 1)) {
        awake++;
        soft->parent[i] = (uint32_t)i;
        soft->blocked[i] = 0;
        double v2 = world->vx[i] * world->vx[i] + world->vy[i] * world->vy[i];
        double spin = world->w[i] * world->r[i];
        bool is_slow = v2 < slow * slow && spin * spin < slow * slow;
        if (!is_slow || (world->flags[i] & BP_BALL_HELD))
            world->calm[i] = 0;
        else if (world->calm[i] < calm_steps)
            world->calm[i]++;
        ready += world->calm[i] >= calm_steps;
    }
    /* An island sleeps only when all its balls are ready: with none
     * ready, none can, and the islands need not be found. */
    if (awake == 0 || ready == 0)
        return true;
    for (size_t k = 0; k < soft->contact_count; k++) {
        const soft_contact *c = &soft->contacts[k];
        uint32_t a = c->a, b = c->b;
        if (b == world->count || ((world->flags[a] | world->flags[b]) & BP_BALL_ASLEEP))
            continue; /* a side or wall, or a sleeper */
        if (!bp_soft_touching(world, a, b))
            continue;
        uint32_t x = find_root(soft->parent, a), y = find_root(soft->parent, b);
        if (x != y)
            soft->parent[x < y ? y : x] = x < y ? x : y;
    }
    for (size_t i = bp_world_next_awake(world, 0); i < n; i = bp_world_next_awake(world, i + 1))
        if (world->calm[i] < calm_steps || (world->flags[i] & BP_BALL_HELD))
            soft->blocked[find_root(soft->parent, (uint32_t)i)] = 1;
    for (size_t i = bp_world_next_awake(world, 0); i < n; i = bp_world_next_awake(world, i + 1)) {
        uint32_t root = find_root(soft->parent, (uint32_t)i);
        if (soft->blocked[root])
            continue;
        world->flags[i] |= BP_BALL_ASLEEP;
        world->calm[i] = 0;
        world->vx[i] = world->vy[i] = world->w[i] = 0.0;
        world->inv_mass[i] = world->inv_inertia[i] = 0.0;
    }
    return true;
}
