#include "placed.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "arena.h"
#include "broadphase.h"
#include "sleep.h"
#include "tolerances.h"
#include "walls.h"

/* How a sleeper meets one static: pressed (deeper than slop), touching,
 * and resting on it as on a floor (touching, facing up). */
static void meet_static(const bp_segment *g, const bp_world *world, size_t i, double slop,
                        bool *pressed, bool *touching, bool *floor)
{
    double r = world->r[i], nx, ny;
    double gap = bp_segment_distance(g, world->x[i], world->y[i], 0.0, 0.0, &nx, &ny) - g->r - r;
    *pressed |= gap < -slop;
    *touching |= gap < BP_TOUCH_OVER_R * r;
    /* (nx, ny) points from the surface to the ball, as the class wants. */
    *floor |= gap < BP_TOUCH_OVER_R * r &&
              bp_contact_classify(nx, ny, world->params.gravity) == BP_CONTACT_FLOOR;
}

/* Sleeper i against the sides and walls: whether it is pressed into one,
 * touches one, and rests on a floor. */
static void against_statics(const bp_world *world, size_t i, const bp_sleep_rules *rules,
                            bool *pressed, bool *touching, bool *floor)
{
    const bp_statics *st = world->statics;
    double slop = rules->wake_overlap + BP_SLEEP_OVERLAP_OVER_R * world->r[i];
    for (int k = 0; k < BP_SIDES; k++)
        meet_static(&st->sides[k], world, i, slop, pressed, touching, floor);
    if (st->count == 0)
        return;
    uint32_t near[BP_WALLS_QUERY_MAX];
    bp_cell_box cells;
    double x = world->x[i], y = world->y[i], reach = 2.0 * world->r[i];
    size_t m = bp_statics_query(st, x - reach, y - reach, x + reach, y + reach, near, &cells);
    size_t all = m == SIZE_MAX ? st->count : m; /* too many near: every wall */
    for (size_t q = 0; q < all; q++)
        meet_static(&st->segs[m == SIZE_MAX ? q : near[q]], world, i, slop, pressed, touching,
                    floor);
}

/* Marks in touching[] (one per ball) the balls of every pair that touch. */
static void mark_touching(const bp_world *world, const bp_broadphase *bp, uint8_t *touching)
{
    for (size_t k = 0; k < bp->pair_count; k++) {
        uint32_t a = bp->pairs[k].a, b = bp->pairs[k].b;
        double dx = world->x[b] - world->x[a], dy = world->y[b] - world->y[a];
        double ra = world->r[a], rb = world->r[b];
        double reach = ra + rb + BP_TOUCH_OVER_R * (ra < rb ? ra : rb);
        if (dx * dx + dy * dy < reach * reach)
            touching[a] = touching[b] = 1;
    }
}

bool bp_placed_settle(bp_world *world)
{
    size_t sleepers = 0;
    for (size_t i = 0; i < world->count; i++)
        sleepers += (world->flags[i] & BP_BALL_ASLEEP) != 0;
    if (sleepers == 0)
        return true; /* nothing to judge: spare a big scene its pairs */
    if (!bp_statics_prepare(world))
        return false;
    bp_sleep_rules rules = bp_sleep_rules_for(&world->params);
    /* Every pair, sleepers' too: those are the ones no step looks at. */
    bp_broadphase bp = {.awake_pairs_only = false};
    double margin = BP_TOUCH_OVER_R * (world->count > 0 ? world->r_min : 1.0);
    bool ok = bp_broadphase_find_pairs(&bp, world, margin);
    uint32_t *woken = ok ? malloc((2 * bp.pair_count + 1) * sizeof *woken) : NULL;
    uint8_t *touching = woken ? calloc(world->count + 1, 1) : NULL;
    if (touching) {
        mark_touching(world, &bp, touching);
        bp_sleep_wake_on_contact(world, bp.pairs, bp.pair_count, &rules, woken);
    }
    free(woken);
    bp_broadphase_free(&bp);
    if (!touching)
        return false;
    bool gravity = world->params.gravity != 0.0;
    for (size_t i = 0; i < world->count; i++) {
        if (!(world->flags[i] & BP_BALL_ASLEEP))
            continue;
        bool pressed = false, touches = touching[i], floor = false;
        against_statics(world, i, &rules, &pressed, &touches, &floor);
        /* Under gravity a ball touching nothing falls: it cannot be at rest. */
        if (pressed || (gravity && !touches))
            bp_world_wake(world, i);
        else if (floor && gravity)
            world->flags[i] |= BP_BALL_GROUNDED;
    }
    free(touching);
    return true;
}
