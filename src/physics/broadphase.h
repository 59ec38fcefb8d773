/* Broad phase: a uniform grid, rebuilt every step by a counting sort, that
 * turns N balls into the list of pairs close enough to touch in O(N). */
#ifndef BP_BROADPHASE_H
#define BP_BROADPHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "grid.h"
#include "scratch.h"
#include "workers.h"

typedef struct bp_pair {
    uint32_t a, b; /* ball indices */
} bp_pair;

/* A ball that left the cell it was sorted into. */
typedef struct bp_cell_move {
    uint32_t ball, from;
} bp_cell_move;

/* What the broad phase keeps from one step to the next: the grid as last
 * sorted (a settled world is not sorted again) and the big balls. What
 * lives within one round of sorting and pairing (the pair list, the moves
 * that mend the sort) comes from the scratch arena. */
typedef struct bp_broadphase {
    /* The arena the round's arrays come from: the world's, set by the
     * solver. NULL: the broad phase makes one of its own (own_scratch,
     * freed with it) and resets it at each sort, for callers outside a
     * step. */
    bp_scratch *scratch;
    bp_scratch *own_scratch;
    bp_grid_shape shape;      /* over the arena, cells of the smaller balls' reach */
    double r_max;             /* largest radius, px */
    uint32_t *cell_start;     /* cols*rows + 1 offsets into items */
    uint32_t *items;          /* ball indices ordered by cell */
    uint32_t *ball_cell;      /* cell of each ball */
    uint8_t *cell_awake;      /* per cell: holds a ball that is not asleep */
    uint8_t *strip_row_awake; /* per row of each strip (row-major): a ball awake in
                                 that row lies in the strip or next to its edge */
    uint32_t *marked_cells;   /* the cells cell_awake marks */
    size_t marked_count, marked_capacity;
    /* What the last sort was made for: while the world's layout and the
     * grid stay the same and no ball that was or is awake changed cell,
     * items still holds. */
    bool sorted;
    uint64_t sorted_layout;
    size_t sorted_count;
    double sorted_cell;
    size_t cells_capacity, items_capacity, ball_cell_capacity, cell_awake_capacity;
    uint8_t *strip_awake;     /* per strip: some row of it is marked in strip_row_awake */
    size_t strip_row_awake_capacity, strip_awake_capacity;
    /* Per ball, while adding woken balls' pairs; all 0 between uses, so
     * kept rather than cleared anew in the arena each time. */
    uint8_t *woken_mark;
    size_t woken_mark_capacity;
    /* Scratch of keeping the sort: the balls that changed cell. */
    bp_cell_move *moves;
    size_t move_count;

    /* Big balls. When a few balls (1 to BP_BIG_MAX) are more than twice as
     * wide as every other, the grid's cells are cut for the others, and
     * the few (radius above small_r) are filed in one extra bucket after
     * the last cell, [cell_start[cells], cell_start[cells + 1]), which no
     * query of cells sees: their pairs are found apart, into the big slot
     * (below). One hand among 100,000 balls of a fifth its size made every
     * cell 9 times as large, and listing the pairs 9 times the work. */
    double small_r;         /* the largest radius of a ball filed in a cell */
    uint32_t *big;          /* the big balls' indices, ascending */
    size_t big_count, big_capacity;
    bool big_known;         /* big and small_r hold for the world of ... */
    uint64_t big_layout;    /* ... this layout, */
    size_t big_for_count;   /* ... this many balls */
    double big_for_r_max;   /* ... and this largest radius */

    /* Leave out pairs of two sleepers. Neither moves, so the solver has
     * nothing to do between them, and a settled pile then costs the pairing
     * next to nothing. Off for callers that want every pair. */
    bool awake_pairs_only;

    bp_pair *pairs;           /* candidate contacts, in strip order (below);
                                 scratch, valid until the arena's reset */
    size_t pair_count;

    /* Pairs are grouped by strips of BP_STRIP_COLS cell columns, each strip
     * walked from the floor row up; the even strips come first, then the
     * odd ones. Two strips of the same parity share no ball, so a pass can
     * run them in parallel and still meet every pair in the same order as
     * one thread would. Slot j (0 .. strips-1) is the j-th strip of that
     * order; its pairs are [strip_first[j], strip_first[j+1]) (scratch, as
     * pairs). */
    int strips, even_strips;
    size_t *strip_first;
    /* The slots that hold pairs: the even strips' (busy_even of them),
     * then the odd strips' (busy_odd), then the big slot if it has any
     * (busy_big, 0 or 1). Jobs over the strips of a parity take these, so
     * that the empty strips of a pile at rest cost no hand-over between
     * threads. Scratch, as pairs. */
    int *busy;
    int busy_even, busy_odd, busy_big;
    /* Per strip, while pairing. Each strip's list is grown by the worker
     * that pairs the strip, so the lists are kept from step to step rather
     * than taken from the arena, which only the stepping thread uses. */
    struct bp_strip_list *lists;
    size_t strips_capacity;
} bp_broadphase;

/* Cell columns per strip; two or more keep same-parity strips apart. */
#define BP_STRIP_COLS 4

/* Most big balls: each query of the grid looks at every one of them. */
#define BP_BIG_MAX 32

/* Whether ball i is a big ball, filed in the extra bucket (see small_r). */
static inline bool bp_broadphase_is_big(const bp_broadphase *bp, const bp_world *world,
                                        size_t i)
{
    return bp->big_count > 0 && world->r[i] > bp->small_r;
}

void bp_broadphase_free(bp_broadphase *bp);

/* Finds every pair whose surfaces are closer than margin px. Within a strip,
 * pairs come out in rows from the floor upwards (the side gravity pulls
 * towards first), so a resolver sweeping them in order meets supporting
 * balls before the balls they support. false on allocation failure. */
bool bp_broadphase_find_pairs(bp_broadphase *bp, const bp_world *world, double margin);

/* The two halves of bp_broadphase_find_pairs, for a caller that reorders the
 * world's balls by cell in between: sorting fills items (ball indices in cell
 * order), pairing reads items. workers (NULL: none) share the sort; the
 * result is the same without. */
bool bp_broadphase_sort(bp_broadphase *bp, const bp_world *world, double margin,
                        bp_workers *workers);
/* After the caller reordered the world as items says (bp_world_reorder),
 * which moved the balls of [lo, hi) only: the sort then holds every ball
 * in its place, items is 0, 1, 2... */
void bp_broadphase_follow_reorder(bp_broadphase *bp, const bp_world *world, size_t lo,
                                  size_t hi);
bool bp_broadphase_pairs(bp_broadphase *bp, const bp_world *world, double margin,
                         bp_workers *workers);

/* After the balls in woken[0 .. count) woke up (all asleep when the pairs
 * were made, with awake_pairs_only): adds their pairs with the balls still
 * asleep and with each other, each to the end of its strip, where pairing
 * again would have put them in among the rest. Far cheaper than pairing
 * again: a landing pile wakes a few balls in a third of its steps. false
 * on allocation failure. */
bool bp_broadphase_add_woken(bp_broadphase *bp, const bp_world *world, double margin,
                             const uint32_t *woken, size_t count, bp_workers *workers);

/* Writes into out (room for every ball) the balls of the cells within
 * reach px of a side of the arena, as sorted, then every big ball, and
 * returns how many: every ball whose centre is within reach of a side is
 * among them. */
size_t bp_broadphase_border_balls(const bp_broadphase *bp, double reach, uint32_t *out);

/* The balls filed at the last sort in the cells that meet the square of
 * half-side reach around (x, y): up to max of them in out. Returns how many
 * there are, which may be more than max. Big balls are in no cell: they
 * are not among them. */
size_t bp_broadphase_query_square(const bp_broadphase *bp, double x, double y, double reach,
                                  uint32_t *out, size_t max);

/* Writes up to max neighbours of ball i (balls whose surface is closer than
 * margin, at most the margin given to the sort) that may stand below it
 * (up_y: the sign of up on the y axis) into out; returns how many. Every
 * neighbour whose centre is lower is among them, big balls too. Reads the
 * grid as sorted: valid until a ball moves to another cell. */
size_t bp_broadphase_query_below(const bp_broadphase *bp, const bp_world *world, uint32_t i,
                                 double margin, double up_y, uint32_t *out, size_t max);

#endif
