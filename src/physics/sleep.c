#include "sleep.h"

#include <math.h>

#include "tolerances.h"

bp_sleep_rules bp_sleep_rules_for(const bp_params *params)
{
    double g_step = fabs(params->gravity) / params->hz; /* speed gravity adds per step */
    double steps = ceil(BP_SLEEP_AFTER_S * params->hz);
    return (bp_sleep_rules){
        .sleep_speed = BP_SLEEP_SPEED_OVER_G_STEP * g_step,
        .calm_steps = (uint16_t)(steps < 1.0 ? 1.0 : (steps > 60000.0 ? 60000.0 : steps)),
        .wake_speed = BP_WAKE_SPEED_OVER_G_STEP * g_step,
        .wake_overlap = BP_WAKE_OVERLAP_OVER_G_FALL * g_step / params->hz,
    };
}

size_t bp_sleep_wake_on_contact(bp_world *world, const bp_pair *pairs, size_t pair_count,
                                const bp_sleep_rules *rules, uint32_t *woken_list)
{
    size_t woken = 0;
    const uint8_t *flags = world->flags;
    for (size_t k = 0; k < pair_count; k++) {
        uint32_t a = pairs[k].a, b = pairs[k].b;
        uint8_t fa = flags[a], fb = flags[b];
        if (!((fa | fb) & BP_BALL_ASLEEP))
            continue;
        double dx = world->x[b] - world->x[a];
        double dy = world->y[b] - world->y[a];
        double d2 = dx * dx + dy * dy;
        double ra = world->r[a], rb = world->r[b];
        double slop = rules->wake_overlap + BP_SLEEP_OVERLAP_OVER_R * (ra < rb ? ra : rb);
        double deep = ra + rb - slop;
        bool pressed = d2 < deep * deep;
        if (fa & fb & BP_BALL_ASLEEP) {
            if (pressed) {
                bp_world_wake(world, a);
                bp_world_wake(world, b);
                woken_list[woken++] = a;
                woken_list[woken++] = b;
            }
            continue;
        }
        uint32_t sleeper = (fa & BP_BALL_ASLEEP) ? a : b;
        uint32_t other = sleeper == a ? b : a;
        bool overlapping = d2 < (ra + rb) * (ra + rb);
        /* Approach speed of the other ball along the line of centres. */
        double sign = other == b ? 1.0 : -1.0;
        double closing = d2 > 0.0 ? -sign * (world->vx[other] * dx + world->vy[other] * dy) / sqrt(d2)
                                  : 0.0;
        if (pressed || closing > rules->wake_speed ||
            ((flags[other] & BP_BALL_HELD) && overlapping)) {
            bp_world_wake(world, sleeper);
            woken_list[woken++] = sleeper;
        }
    }
    return woken;
}

/* Whether a and b are pressed into each other deeper than the clean-up
 * leaves a free pair, but not so deep that the one would wake the other
 * asleep (bp_sleep_wake_on_contact). */
static inline bool jammed(const bp_world *world, uint32_t a, uint32_t b,
                          const bp_sleep_rules *rules)
{
    double dx = world->x[b] - world->x[a], dy = world->y[b] - world->y[a];
    double d2 = dx * dx + dy * dy;
    double ra = world->r[a], rb = world->r[b], reach = ra + rb;
    double smaller = ra < rb ? ra : rb;
    double jam = reach - BP_SLEEP_JAM_OVER_R * smaller;
    double wake = reach - (rules->wake_overlap + BP_SLEEP_OVERLAP_OVER_R * smaller);
    /* Small balls at a low rate: a step's fall is deeper than the balls
     * are wide, and no overlap would wake a sleeper. */
    return d2 < jam * jam && !(wake > 0.0 && d2 < wake * wake);
}

/* A ready ball waits while it is jammed into a ball awake that is calm but
 * not ready yet, or into one that waits; the group then falls asleep in one
 * step. One at a time, two balls jammed into each other in a pocket of
 * sleepers took turns for good: the one left awake, pushed out of the new
 * sleeper alone, pressed deep enough into it or the pocket to wake it, and
 * so on (piles of 2,000 balls of radius 4-8 at 120 Hz: in 10 seeds of 120,
 * two to five balls trembled by up to 0.2 px in a cycle of six steps after
 * 25 s, and in 2 of 30 piles of 1,000 at 240 Hz; now in none of either). Asleep
 * together, they are no pair any pass looks at, and their overlap is no
 * deeper than one a sleeper bears from a ball awake. The overlap has to be
 * deeper than BP_SLEEP_JAM_OVER_R: every ball in a pile touches others, and
 * with any overlap at all whole stretches of it waited for their slowest
 * ball (10k pit: 32% more instructions). A ball not calm, such as a big one
 * sliding away under a small one, is no reason to wait. Waiting balls get
 * calm_steps + 1, so that they still count as ready: which balls wait does
 * not depend on the order they are looked at in. The candidates are the
 * balls the step's supported pass found touching a ready ball (which was
 * awake, so visited): looking only there, instead of walking every pair,
 * took the cost of this from 2% of the 1k pit's work to next to nothing. */
static void hold_back_jammed(bp_world *world, const bp_support *support,
                             const uint32_t *ready, size_t ready_count,
                             const bp_sleep_rules *rules)
{
    uint16_t ready_calm = rules->calm_steps, waiting_calm = (uint16_t)(ready_calm + 1);
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t r = 0; r < ready_count; r++) {
            uint32_t i = ready[r];
            if (world->calm[i] != ready_calm)
                continue; /* waiting already */
            uint32_t count;
            const uint32_t *touching = bp_support_touching(support, i, &count);
            for (uint32_t k = 0; k < count; k++) {
                uint32_t j = touching[k] & ~BP_SUPPORTER_BIT;
                uint16_t cj = world->calm[j]; /* not calm, or ready and not waiting: */
                if (cj == 0 || cj == ready_calm ||
                    (world->flags[j] & (BP_BALL_ASLEEP | BP_BALL_HELD)) ||
                    !jammed(world, i, j, rules))
                    continue;
                world->calm[i] = waiting_calm;
                changed = true;
                break;
            }
        }
    }
}

void bp_sleep_update(bp_world *world, const bp_support *support, double *start_x,
                     double *start_y, const bp_sleep_rules *rules, uint32_t *ready)
{
    const uint8_t *supported = support->supported;
    double limit2 = rules->sleep_speed * rules->sleep_speed;
    double dt = 1.0 / world->params.hz;
    double travel2 = limit2 * dt * dt;
    /* The most a calm ball's velocity may change while it stays calm, and
     * the least a step moves a ball that is not held in place. */
    double turn2 = BP_SLEEP_TURN * BP_SLEEP_TURN * limit2;
    double held2 = BP_SLEEP_HELD * BP_SLEEP_HELD * travel2;
    size_t ready_count = 0;
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1)) {
        if (world->flags[i] & BP_BALL_HELD)
            continue;
        double v2 = world->vx[i] * world->vx[i] + world->vy[i] * world->vy[i];
        double dx = world->x[i] - start_x[i], dy = world->y[i] - start_y[i];
        /* Calm: slow and steady, or held in place. A ball jammed between
         * others can keep a velocity that the position passes undo every
         * step: it barely moves, and rests as surely as a slow one. A slow
         * ball that moves must also have kept its velocity since its calm
         * began: one that rolls up a slope is slow for a few steps at the
         * top, where it turns back, and must not be frozen there. */
        double cx = world->vx[i] - world->calm_vx[i], cy = world->vy[i] - world->calm_vy[i];
        bool steady = world->calm[i] == 0 || cx * cx + cy * cy <= turn2;
        bool calm = (v2 <= limit2 && steady) || dx * dx + dy * dy <= held2;
        if (!supported[i] || !calm)
            world->calm[i] = 0;
        else if (world->calm[i] < rules->calm_steps) {
            if (world->calm[i] == 0) {
                world->calm_vx[i] = world->vx[i];
                world->calm_vy[i] = world->vy[i];
            }
            world->calm[i]++;
        }
        if (world->calm[i] >= rules->calm_steps)
            ready[ready_count++] = (uint32_t)i;
    }
    /* With one calm step to sleep, no ball is calm and not ready: none has
     * one to wait for. */
    if (rules->calm_steps > 1)
        hold_back_jammed(world, support, ready, ready_count, rules);
    for (size_t r = 0; r < ready_count; r++) {
        uint32_t i = ready[r];
        bool waits = world->calm[i] > rules->calm_steps;
        /* A sleeper's count starts again when it wakes; kept at 0 meanwhile,
         * a sleeper drops out of hold_back_jammed at once. */
        world->calm[i] = waits ? rules->calm_steps : 0;
        if (waits)
            continue;
        bp_world_sleep(world, i);
        start_x[i] = world->x[i];
        start_y[i] = world->y[i];
    }
}
