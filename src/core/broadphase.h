/* Broad phase: a uniform grid, rebuilt every step by a counting sort, that
 * turns N balls into the list of pairs close enough to touch in O(N). */
#ifndef BP_BROADPHASE_H
#define BP_BROADPHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "world.h"

typedef struct bp_pair {
    uint32_t a, b; /* ball indices */
} bp_pair;

typedef struct bp_broadphase {
    double cell;              /* cell edge, px */
    int cols, rows;
    uint32_t *cell_start;     /* cols*rows + 1 offsets into items */
    uint32_t *items;          /* ball indices ordered by cell */
    uint32_t *ball_cell;      /* cell of each ball */
    size_t cells_capacity, items_capacity, ball_cell_capacity;

    bp_pair *pairs;           /* candidate contacts, ordered along -gravity */
    size_t pair_count, pair_capacity;
} bp_broadphase;

void bp_broadphase_free(bp_broadphase *bp);

/* Finds every pair whose surfaces are closer than margin px. Pairs come out
 * in rows from the floor upwards (the side gravity pulls towards first), so
 * a resolver sweeping them in order meets supporting balls before the balls
 * they support. false on allocation failure. */
bool bp_broadphase_find_pairs(bp_broadphase *bp, const bp_world *world, double margin);

/* The two halves of bp_broadphase_find_pairs, for a caller that reorders the
 * world's balls by cell in between: sorting fills items (ball indices in cell
 * order), pairing reads items. */
bool bp_broadphase_sort(bp_broadphase *bp, const bp_world *world, double margin);
bool bp_broadphase_pairs(bp_broadphase *bp, const bp_world *world, double margin);

#endif
