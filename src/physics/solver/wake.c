/* The soft solver's waking, in part: a sleeper wakes alone, when a ball
 * awake hits it, or when a ball awake that moves is within a few contacts
 * of it. The rest of its island sleeps on and holds it as a still
 * support. Motion wakes a margin of still balls around it, so that what
 * the moving balls push on is awake and yields as it would; a margin
 * that stays still holds the sleepers beyond, which carry the loads they
 * fell asleep under. */
#include <math.h>
#include <string.h>

#include "scratch.h"
#include "soft_internal.h"

/* Contacts from a ball that moves within which sleepers wake, and one
 * more for each half of its radius (or part of one) it goes in the piece
 * of a step, at most BP_SOFT_WAKE_RINGS_MAX in all: a ball the hand drags
 * through a pile at 600 px/s shoved its neighbours into sleepers two
 * contacts off, which stood like rocks and squeezed them out at twice the
 * hand's speed. A round of the step's start (solver.c) wakes one ring, so
 * its rounds must be at least BP_SOFT_WAKE_RINGS_MAX. */
#define BP_SOFT_WAKE_RINGS 4
#define BP_SOFT_WAKE_RADII_PER_RING 0.5
#define BP_SOFT_WAKE_RINGS_MAX 8

/* Whether the ball awake of pair (i, j), one of them asleep, hits the
 * sleeper within dt s: closes on it faster than a resting contact does
 * (rest_speed), with its velocity and a step's gravity, and reaches it. A
 * sleeper hit within the step, not woken, stood in it as a rock: a ball
 * dropped on a sleeping ball bounced off it as off the floor, and the
 * sleeper never moved (awake, it rolls aside). */
static bool hits_sleeper(const bp_world *world, uint32_t i, uint32_t j, double dt,
                         double rest_speed)
{
    uint32_t awake = (world->flags[i] & BP_BALL_ASLEEP) ? j : i;
    double dx = world->x[j] - world->x[i], dy = world->y[j] - world->y[i];
    double touch = bp_soft_touch_distance(world, i, j);
    double d = sqrt(dx * dx + dy * dy);
    if (!(d > 0.0))
        return true; /* one centre on the other: no normal, and the deepest overlap */
    double toward = awake == i ? 1.0 / d : -1.0 / d;
    double vy = world->vy[awake] + world->params.gravity * dt;
    double closing = (world->vx[awake] * dx + vy * dy) * toward; /* along (dx, dy) * toward */
    return closing > rest_speed && d - touch < closing * dt;
}

/* How many contacts ball i, awake, reaches on its own in a step of dt s:
 * 0 unless it moves faster than a ball falling asleep, or is held. */
static uint8_t own_reach(const bp_world *world, size_t i, double slow, double dt)
{
    double v2 = world->vx[i] * world->vx[i] + world->vy[i] * world->vy[i];
    double spin = world->w[i] * world->r[i];
    bool held = world->flags[i] & BP_BALL_HELD;
    if (!held && v2 <= slow * slow && spin * spin <= slow * slow)
        return 0;
    double rings = BP_SOFT_WAKE_RINGS +
                   ceil(sqrt(v2) * dt / (BP_SOFT_WAKE_RADII_PER_RING * world->r[i]));
    return (uint8_t)(rings < BP_SOFT_WAKE_RINGS_MAX ? rings : BP_SOFT_WAKE_RINGS_MAX);
}

/* Whether balls i and j are both awake and touch. */
static bool awake_and_touching(const bp_world *world, uint32_t i, uint32_t j)
{
    return !((world->flags[i] | world->flags[j]) & BP_BALL_ASLEEP) && bp_soft_touching(world, i, j);
}

/* Per ball, how many contacts further the motion around it reaches: a
 * ball's own reach, or one less than its most reaching neighbour's
 * through touching balls awake (a breadth-first search from the movers,
 * level by level from the farthest reach down). NULL when memory runs
 * out. */
static uint8_t *reach_of_motion(const bp_soft *soft, const bp_world *world, double dt)
{
    const bp_broadphase *bp = &soft->broadphase;
    size_t n = world->count;
    uint8_t *reach = bp_scratch_alloc(world->scratch, n + 1, sizeof(uint8_t));
    uint32_t *start = bp_scratch_alloc(world->scratch, n + 2, sizeof(uint32_t));
    uint32_t *reached = bp_scratch_alloc(world->scratch, n + 1, sizeof(uint32_t));
    if (!reach || !start || !reached)
        return NULL;
    double slow = bp_soft_slow_speed(world, dt);
    size_t reached_count = 0;
    uint8_t farthest = 0;
    for (size_t i = 0; i < n; i++) {
        reach[i] = (world->flags[i] & BP_BALL_ASLEEP) ? 0 : own_reach(world, i, slow, dt);
        if (reach[i] > 0)
            reached[reached_count++] = (uint32_t)i;
        farthest = reach[i] > farthest ? reach[i] : farthest;
    }
    if (farthest < 2)
        return reach;
    /* The touching pairs of balls awake, as lists of neighbours. */
    memset(start, 0, (n + 2) * sizeof(uint32_t));
    size_t links = 0;
    for (size_t k = 0; k < bp->pair_count; k++) {
        uint32_t i = bp->pairs[k].a, j = bp->pairs[k].b;
        if (awake_and_touching(world, i, j)) {
            start[i + 2]++;
            start[j + 2]++;
            links += 2;
        }
    }
    for (size_t i = 0; i < n; i++)
        start[i + 2] += start[i + 1];
    uint32_t *next = bp_scratch_alloc(world->scratch, links + 1, sizeof(uint32_t));
    if (!next)
        return NULL;
    for (size_t k = 0; k < bp->pair_count; k++) {
        uint32_t i = bp->pairs[k].a, j = bp->pairs[k].b;
        if (awake_and_touching(world, i, j)) {
            next[start[i + 1]++] = j;
            next[start[j + 1]++] = i;
        }
    }
    /* start[i] .. start[i + 1]: ball i's neighbours. */
    for (uint8_t level = farthest; level >= 2; level--)
        for (size_t q = 0; q < reached_count; q++) {
            uint32_t i = reached[q];
            if (reach[i] != level)
                continue;
            for (uint32_t e = start[i]; e < start[i + 1]; e++) {
                uint32_t j = next[e];
                if (reach[j] >= level - 1)
                    continue;
                if (reach[j] == 0)
                    reached[reached_count++] = j;
                reach[j] = (uint8_t)(level - 1);
            }
        }
    return reach;
}

size_t bp_soft_wake_near_motion(bp_soft *soft, bp_world *world, double dt)
{
    const bp_broadphase *bp = &soft->broadphase;
    bool any_asleep = false;
    for (size_t i = 0; i < world->count && !any_asleep; i++)
        any_asleep = world->flags[i] & BP_BALL_ASLEEP;
    if (!any_asleep)
        return 0; /* a pile landing: every ball awake */
    bool mixed = false;
    for (size_t k = 0; k < bp->pair_count && !mixed; k++)
        mixed = (world->flags[bp->pairs[k].a] ^ world->flags[bp->pairs[k].b]) & BP_BALL_ASLEEP;
    if (!mixed)
        return 0; /* no ball awake is near a sleeper */
    /* This round's arrays go back at its end: a step has up to
     * BP_SOFT_WAKE_ROUNDS rounds in each of up to four pieces. */
    bp_scratch_mark mark = bp_scratch_mark_now(world->scratch);
    const uint8_t *reach = reach_of_motion(soft, world, dt);
    if (!reach) {
        bp_scratch_release(world->scratch, mark);
        return SIZE_MAX;
    }
    double rest_speed = bp_params_rest_speed(&world->params);
    size_t woken = 0;
    for (size_t k = 0; k < bp->pair_count; k++) {
        uint32_t i = bp->pairs[k].a, j = bp->pairs[k].b;
        uint8_t fi = world->flags[i], fj = world->flags[j];
        if (!((fi ^ fj) & BP_BALL_ASLEEP))
            continue;
        uint32_t sleeper = (fi & BP_BALL_ASLEEP) ? i : j, awake = sleeper == i ? j : i;
        /* A held ball reaches at least BP_SOFT_WAKE_RINGS: what it touches wakes. */
        bool near_motion = reach[awake] > 0 && bp_soft_touching(world, i, j);
        if (near_motion || hits_sleeper(world, i, j, dt, rest_speed)) {
            bp_world_wake(world, sleeper);
            woken++;
        }
    }
    bp_scratch_release(world->scratch, mark);
    return woken;
}
