/* Where each ball has been over the last seconds: a ring of points per ball
 * id, sampled every few steps, for the trails overlay (T, --trails). */
#ifndef BP_TRAILS_H
#define BP_TRAILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ballpit/ballpit.h"

/* Points kept per ball: the trail's time is cut into this many pieces. */
#define BP_TRAIL_POINTS 48

typedef struct bp_trails {
    float *xy;        /* per id, BP_TRAIL_POINTS (x, y) pairs in a ring, px */
    uint16_t *count;  /* per id: points held */
    uint16_t *head;   /* per id: the slot the next point goes to */
    size_t ids, capacity_ids;
    uint64_t last_step; /* world->steps at the last call */
} bp_trails;

/* Notes the balls' places after a step, if this step is sampled for a
 * trail of seconds (every seconds * hz / BP_TRAIL_POINTS steps). The world
 * going back in steps (a reset) starts the trails afresh. false when
 * memory runs out (the trails are then cleared). */
bool bp_trails_record(bp_trails *t, const bp_world *world, double seconds);
/* Forgets every point. */
void bp_trails_clear(bp_trails *t);
void bp_trails_free(bp_trails *t);

/* The points of ball id, oldest first, into xy (room for BP_TRAIL_POINTS
 * pairs); returns how many. */
int bp_trails_points(const bp_trails *t, uint32_t id, float *xy);

#endif
