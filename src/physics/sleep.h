/* Sleeping: balls that have rested on a support for a while stop being
 * simulated until something disturbs them. A settled pile then costs little
 * more than its broad phase. Deterministic: every decision depends only on
 * the world's state. */
#ifndef BP_SLEEP_H
#define BP_SLEEP_H

#include <stddef.h>
#include <stdint.h>

#include "broadphase.h"
#include "support.h"
#include "bodies.h"

/* Speeds (px/s) and times of sleeping for a world's parameters. */
typedef struct bp_sleep_rules {
    double sleep_speed;    /* a supported ball slower than this is calm */
    uint16_t calm_steps;   /* calm this many steps in a row: it is ready to sleep */
    double wake_speed;     /* a ball approaching a sleeper faster wakes it */
    double wake_overlap;   /* ... and so does one pressed deeper into it, px */
} bp_sleep_rules;

bp_sleep_rules bp_sleep_rules_for(const bp_params *params);

/* Wakes every sleeper that an awake ball approaches faster than the wake
 * speed or presses into deeper than the wake overlap, or that a held ball
 * overlaps; and both of two sleepers pressed into each other. A frozen ball
 * must not stay where the balls around it cannot fit. Returns how many
 * woke, and lists them in woken (room for every ball). */
size_t bp_sleep_wake_on_contact(bp_world *world, const bp_pair *pairs, size_t pair_count,
                                const bp_sleep_rules *rules, uint32_t *woken);

/* After the step: counts the calm steps of supported balls (supported[i] as
 * the supported pass left it; start_x/start_y where each ball began the
 * step) and puts the ones calm for long enough to sleep, except those
 * jammed into a calm ball awake that is not ready yet (support: the step's
 * last supported pass, whose lists of touching balls it reads; see
 * sleep.c). A ball put to sleep gets its start set to where it sleeps: a
 * sleeper stays put, so its start then holds until it wakes, and no step
 * needs to copy it. ready: room for every ball, for the balls ready to sleep. */
void bp_sleep_update(bp_world *world, const bp_support *support, double *start_x,
                     double *start_y, const bp_sleep_rules *rules, uint32_t *ready);

#endif
