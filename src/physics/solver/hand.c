/* The hand: a held ball pulled, after every sweep, back toward the
 * velocity it was given for the step, with at most the hand's strength.
 *
 * A held ball has its own mass in the sweeps (body_from_world): its
 * neighbours slow it, and it shoves them with its momentum rather than
 * setting them to its speed (an immovable hand threw a pile's balls about
 * on a flick). Slowed for a whole step, it fell behind the cursor, and the
 * next step's velocity, the whole of the lag in one step, rammed the pile
 * at up to 2.7 times the mouse's speed. Pulled back within the step, it
 * keeps up with the cursor; bounded, it shoves a pile with a strong but
 * finite force. In free space the first pull restores the velocity
 * exactly, so the ball follows the hand as before. */
#include <math.h>

#include "scratch.h"
#include "soft_internal.h"

/* The hand's strength: in one step it changes the held ball's velocity
 * by at most this many of its radii per step (2,400 px/s for a ball of
 * radius 10 at 120 Hz, an acceleration of 300 g). Far stronger, it is an
 * immovable hand again (at 16, a flick along the heap's top threw balls
 * beyond the held ball's path); far weaker, the cursor runs away from it. */
#define BP_SOFT_HAND_R_PER_STEP 2.0

/* The held balls awake, each with the velocity the step gave it and the
 * hand's strength in a substep of h s, in the step's scratch. */
bool bp_soft_grip(bp_soft *soft, const bp_world *world, double h)
{
    size_t held = 0;
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1))
        held += (world->flags[i] & BP_BALL_HELD) != 0;
    soft->hand_count = 0;
    if (held == 0)
        return true;
    soft->hands = bp_scratch_alloc(world->scratch, held, sizeof(soft_hand));
    if (!soft->hands)
        return false;
    double hz = world->params.hz;
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1)) {
        if (!(world->flags[i] & BP_BALL_HELD))
            continue;
        double reach = BP_SOFT_HAND_R_PER_STEP * world->r[i] * hz * hz * h; /* dv in h */
        soft->hands[soft->hand_count++] = (soft_hand){
            .i = (uint32_t)i,
            .vx = world->vx[i],
            .vy = world->vy[i],
            .j_max = world->mass[i] * reach,
        };
    }
    return true;
}

/* A new substep: the hand has given nothing in it yet. */
void bp_soft_hand_substep(bp_soft *soft)
{
    for (size_t k = 0; k < soft->hand_count; k++)
        soft->hands[k].jx = soft->hands[k].jy = 0.0;
}

/* Each held ball pulled toward its velocity: the impulse the hand has
 * given in this substep grows by what would restore it, clamped to the
 * hand's strength, and the ball takes the change. */
void bp_soft_pull(bp_soft *soft)
{
    for (size_t k = 0; k < soft->hand_count; k++) {
        soft_hand *hand = &soft->hands[k];
        soft_body *b = &soft->bodies[hand->i];
        double m = 1.0 / b->im;
        double jx = hand->jx + m * (hand->vx - b->vx), jy = hand->jy + m * (hand->vy - b->vy);
        double j = sqrt(jx * jx + jy * jy);
        if (j > hand->j_max) {
            jx *= hand->j_max / j;
            jy *= hand->j_max / j;
        }
        b->vx += (jx - hand->jx) * b->im;
        b->vy += (jy - hand->jy) * b->im;
        hand->jx = jx;
        hand->jy = jy;
    }
}
