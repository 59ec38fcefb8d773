/* How crowded a scene's balls are: the pairs of them that overlap. A scene
 * may overlap balls (the first step pushes them apart), but every
 * overlapping pair is a contact the step keeps in memory, and the step
 * reserves room for every pair of balls that share a spot: 50,000 balls
 * given at one point asked for tens of gigabytes at the first step. */
#ifndef BP_CROWD_H
#define BP_CROWD_H

#include <stddef.h>

/* Most pairs of a scene's balls that may overlap: as many as the contact
 * lines a scene file may hold (BP_SCENE_MAX_CONTACTS), about 5,700 balls
 * at one point. */
#define BP_CROWD_MAX_OVERLAPS 16000000u

/* The pairs of the n balls (centres x, y, radii r, px, all finite and
 * within 0.5..10,000) whose discs overlap, counting stops past most: then
 * most + 1. 0 and no work below two balls; (size_t)-1 when memory runs
 * out. The work is about n log n plus a constant times the pairs counted. */
size_t bp_count_overlaps(const double *x, const double *y, const double *r, size_t n,
                         size_t most);

#endif
