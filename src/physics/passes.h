/* Ball-ball contact resolution: several relaxation passes over the pairs the
 * broad phase finds, then one supported pass that lets the floor carry a
 * pile. See passes.c for the design. */
#ifndef BP_PASSES_H
#define BP_PASSES_H

#include <stdbool.h>

#include "workers.h"
#include "bodies.h"

bp_passes *bp_passes_create(void);
void bp_passes_destroy(bp_passes *solver);

/* Separates overlapping balls and exchanges their normal velocities. Balls
 * must already have moved for this step. last_substep: the state the step
 * ends in, which alone gets the passes that only finish what the next
 * substep's passes would take up anyway (the relaxation passes after the
 * supported pass, and the clean-up of the last overlaps). false on
 * allocation failure. */
bool bp_passes_resolve(bp_world *world, double rest_speed, bool last_substep);

/* Around the substeps of one step: the first remembers where the balls
 * start, and the step's worker threads (NULL: none) for its substeps
 * (false on allocation failure); the last counts the balls that rested
 * through the step towards sleep (sleep.h). */
bool bp_passes_begin_step(bp_world *world, bp_workers *workers);
void bp_passes_end_step(bp_world *world);

/* How far apart (px, beyond touching) two balls are still listed as a
 * pair: a fraction of the smallest radius, at least every pair's touch
 * margin. */
double bp_passes_list_margin(const bp_world *world);

/* Deepest overlap between any two balls, px (0 when none touch). */
double bp_passes_max_overlap(const bp_world *world);

#endif
