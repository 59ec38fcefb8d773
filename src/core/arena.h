/* The arena's four sides: the closed box (0,0)-(W,H) every ball lives in. */
#ifndef BP_ARENA_H
#define BP_ARENA_H

#include "world.h"

/* Puts ball i back inside the arena if it reaches through a side, bouncing
 * its velocity off that side (restitution, friction, rest threshold), and
 * flags it grounded when the side is the floor. */
void bp_arena_contain(bp_world *world, size_t i, double rest_speed);

#endif
