/* Populating a world: random balls that start without overlaps, and the
 * standard benchmark pit that --bench and other engines are measured on. */
#ifndef BP_SPAWN_H
#define BP_SPAWN_H

#include <stddef.h>
#include <stdint.h>

#include "program.h"

#define BP_PI 3.14159265358979323846

/* Adds count balls with radii uniform in [r_min, r_max], positions uniform
 * over the free space of the arena (never overlapping each other or a wall)
 * and velocities uniform in [-150, 150] px/s per axis. Returns 0, 2 with a
 * message when they cannot fit, or 1 when memory runs out. */
int bp_spawn_random(bp_world *world, uint64_t count, double r_min, double r_max, uint64_t seed,
                    char *err, size_t err_size);

/* Radius of the balls in the benchmark pit, px. */
#define BP_PIT_RADIUS 5.0

/* Width over height of the standard pit. */
#define BP_PIT_ASPECT 1.6
/* Widest and narrowest pit --bench-aspect takes: a pit 100,000 balls wide
 * and one ball deep, or the reverse. */
#define BP_PIT_ASPECT_MIN 1e-5
#define BP_PIT_ASPECT_MAX 1e5

/* Parameters of the pit for n balls: W = 1.6 H and the balls cover 35% of it. */
bp_params bp_pit_params(uint64_t n);
/* The same pit with W = aspect H: the same balls over the same area, spread
 * wider (so shallower) or narrower (deeper). */
bp_params bp_pit_params_shaped(uint64_t n, double aspect);
/* Why n balls do not fit the pit of this aspect (a message naming the
 * arena's size), or NULL if they do: the arena must stay within the sizes
 * bp_params_check allows beyond 16 px, and the jittered grid's cells must
 * hold a ball each without overlaps. */
const char *bp_pit_check(uint64_t n, double aspect, char *why, size_t why_size);
/* Fills a world made with bp_pit_params: a jittered grid of n balls. false
 * when memory runs out. */
bool bp_spawn_pit(bp_world *world, uint64_t n, uint64_t seed);

#endif
