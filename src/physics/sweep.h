/* Continuous collision for fast balls.
 *
 * The ball-ball solver only sees where balls end a step, so a ball that
 * moves further than its radius in one step could end on the far side of
 * another and be pushed on through it. Balls that fast are held back from
 * the ordinary move and handed to this module, which finds their ball-ball
 * times of impact along the step and plays the collisions in order; the slow
 * majority never pays for it. */
#ifndef BP_SWEEP_H
#define BP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "workers.h"
#include "bodies.h"
#include "tolerances.h"

void bp_sweep_destroy(bp_sweep *sw);

/* Makes room for the world's balls before a step starts; false when memory
 * runs out (nothing has changed then). */
bool bp_sweep_reserve(bp_world *world);

/* Holds ball i (fast, not yet moved this step) for the next bp_sweep_run.
 * Threads may hold different balls at the same time. */
void bp_sweep_hold(bp_world *world, size_t i);

/* Moves every ball held since the last run (held of them, 0 if none)
 * through the step of dt seconds, colliding it with the balls on its path
 * (other balls have already moved: they are traced back along their
 * velocity to the time of impact) and with walls, and moves the balls it
 * hits through the rest of the step. r_max is the largest radius, px.
 * workers (NULL: none) share the part that looks at every ball; the result
 * is the same without. false when memory runs out (the held balls then
 * make an ordinary swept move). */
bool bp_sweep_run(bp_world *world, size_t held, double dt, double r_max, double rest_speed,
                  bp_workers *workers);

#endif
