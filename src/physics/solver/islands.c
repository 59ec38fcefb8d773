/* The soft solver's islands: the balls awake joined by touching contacts.
 * An island sleeps whole, keeping its contacts' impulses (contact
 * memory), and a ball awake that touches a sleeper wakes its island. */
#include <math.h>
#include <stdlib.h>

#include "grow.h"
#include "soft_internal.h"

/* Closer than this (a part of the smaller radius) two surfaces touch: they
 * join one island, and a ball awake touching a sleeper wakes it. */
#define BP_SOFT_TOUCH_OVER_R 0.05
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

static uint32_t find_root(uint32_t *parent, uint32_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static int u32_order(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* Whether the ball awake of pair (i, j), one of them asleep, touches the
 * sleeper, or hits it within dt s: closes on it faster than a resting
 * contact does (rest_speed), with its velocity and a step's gravity, and
 * reaches it. A sleeper hit within the step, not woken, stood in it as a
 * rock: a ball dropped on a sleeping ball bounced off as off the floor, and
 * the sleeper never moved (awake, it rolls aside). Slower, it touches the
 * sleeper in a later step and wakes it then. */
static bool reaches_sleeper(const bp_world *world, uint32_t i, uint32_t j, double dt,
                            double rest_speed)
{
    uint32_t awake = (world->flags[i] & BP_BALL_ASLEEP) ? j : i;
    double dx = world->x[j] - world->x[i], dy = world->y[j] - world->y[i];
    double ri = world->r[i], rj = world->r[j];
    double touch = ri + rj + BP_SOFT_TOUCH_OVER_R * (ri < rj ? ri : rj);
    double d2 = dx * dx + dy * dy;
    if (d2 < touch * touch)
        return true;
    double d = sqrt(d2), toward = awake == i ? 1.0 / d : -1.0 / d; /* n = toward * (dx, dy) */
    double vy = world->vy[awake] + world->params.gravity * dt;
    double closing = (world->vx[awake] * dx + vy * dy) * toward;
    return closing > rest_speed && d - touch < closing * dt;
}

/* Wakes every sleeper that a ball awake touches or reaches within the
 * step of dt s, with its whole island. Returns how many woke (SIZE_MAX:
 * out of memory). */
size_t bp_soft_wake_touched(bp_soft *soft, bp_world *world, double dt)
{
    double rest_speed = bp_params_rest_speed(&world->params);
    const bp_broadphase *bp = &soft->broadphase;
    soft->waking_count = 0;
    for (size_t k = 0; k < bp->pair_count; k++) {
        uint32_t i = bp->pairs[k].a, j = bp->pairs[k].b;
        uint8_t fi = world->flags[i], fj = world->flags[j];
        if (!((fi ^ fj) & BP_BALL_ASLEEP) || !reaches_sleeper(world, i, j, dt, rest_speed))
            continue;
        uint32_t sleeper = (fi & BP_BALL_ASLEEP) ? i : j;
        if (soft->waking_count == soft->waking_capacity &&
            !bp_reserve((void **)&soft->waking, &soft->waking_capacity, soft->waking_count + 1,
                        sizeof(uint32_t)))
            return SIZE_MAX;
        uint32_t island = soft->island_of[world->id[sleeper]];
        if (island == 0) { /* asleep by no island of ours: wake it alone */
            bp_world_wake(world, sleeper);
            continue;
        }
        soft->waking[soft->waking_count++] = island;
    }
    if (soft->waking_count == 0)
        return 0;
    qsort(soft->waking, soft->waking_count, sizeof(uint32_t), u32_order);
    size_t woken = 0;
    for (size_t i = 0; i < world->count; i++) {
        if (!(world->flags[i] & BP_BALL_ASLEEP))
            continue;
        uint32_t island = soft->island_of[world->id[i]];
        if (island && bsearch(&island, soft->waking, soft->waking_count, sizeof(uint32_t),
                              u32_order)) {
            bp_world_wake(world, i);
            soft->island_of[world->id[i]] = 0;
            woken++;
        }
    }
    return woken;
}

/* Islands: the balls awake joined by touching contacts. An island sleeps
 * whole once every ball in it has been slow for the sleep time, none is
 * held, and none touches a ball awake outside it (it then would be in it). */
bool bp_soft_sleep_islands(bp_soft *soft, bp_world *world, double dt)
{
    const bp_params *p = &world->params;
    double slow = fabs(p->gravity) > 0.0 ? BP_SOFT_SLEEP_SPEED_G_STEP * fabs(p->gravity) * dt
                                         : BP_SOFT_SLEEP_SPEED_R_PER_S * world->r_min;
    slow = fmin(slow, BP_SOFT_SLEEP_MOVE_R_PER_STEP * world->r_min / dt);
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
        soft->new_island[i] = 0;
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
        double dx = world->x[b] - world->x[a], dy = world->y[b] - world->y[a];
        double ra = world->r[a], rb = world->r[b];
        double touch = ra + rb + BP_SOFT_TOUCH_OVER_R * (ra < rb ? ra : rb);
        if (!(dx * dx + dy * dy < touch * touch))
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
        if (soft->new_island[root] == 0) {
            soft->next_island = soft->next_island == UINT32_MAX ? 1 : soft->next_island + 1;
            soft->new_island[root] = soft->next_island;
        }
        soft->island_of[world->id[i]] = soft->new_island[root];
        world->flags[i] |= BP_BALL_ASLEEP;
        world->calm[i] = 0;
        world->vx[i] = world->vy[i] = world->w[i] = 0.0;
        world->inv_mass[i] = world->inv_inertia[i] = 0.0;
    }
    return true;
}
