/* The supported pass: lets the floor carry a pile in one sweep. See
 * support.c for the design. */
#ifndef BP_SUPPORT_H
#define BP_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "broadphase.h"
#include "scratch.h"
#include "workers.h"
#include "bodies.h"

/* Whether the pass lets the pairs far above where the last pass stopped
 * wait (see support.c): as it sees fit, never, or every pair (which makes
 * it find them all again at its first ball: tests use that to check the
 * result is the same either way). */
typedef enum bp_support_defer {
    BP_SUPPORT_DEFER_AUTO = 0,
    BP_SUPPORT_DEFER_NONE,
    BP_SUPPORT_DEFER_ALL,
} bp_support_defer;

/* What the pass made of each pair at first, in pair_state. */
enum { BP_SUPPORT_PAIR_APART, BP_SUPPORT_PAIR_TOUCHING, BP_SUPPORT_PAIR_DEFERRED };

typedef struct bp_support {
    /* The arena the pass's own arrays come from (bin_start, edges,
     * spare_edges, edge_count, pair_state, settled: valid during the pass
     * alone): the world's, set by the solver. NULL: the pass makes one of
     * its own (own_scratch, freed with it) and resets it at each pass. The
     * rest is kept from pass to pass: per-ball arrays that stay zero
     * between passes, the anchors, and the neighbour lists, which
     * bp_support_touching reads after the pass. */
    bp_scratch *scratch;
    bp_scratch *own_scratch;
    /* The pass visits the balls awake and those next to one (the sleepers
     * in listed pairs), and costs nothing per other ball: a settled pile
     * of 100,000 with a few balls awake visits a few. */
    uint32_t *visited;      /* the balls it visits, by index */
    uint32_t *slot;         /* per ball: its place in visited (visited balls only) */
    uint8_t *in_visit;      /* per ball: 1 while in visited, 0 between passes */
    uint32_t *order;        /* the visited balls, lowest (nearest the floor) first */
    uint32_t *bin_start;    /* height bins of the counting sort */
    uint32_t *first;        /* per slot: start of its neighbours in near */
    uint32_t *near;         /* touching neighbours (ball indices), grouped by slot */
    uint32_t *edges;        /* touching pairs as found, before grouping: each
                               strip's from twice its first pair's index on */
    size_t *edge_count;     /* per strip slot: its touching pairs in edges */
    uint32_t *spare_edges;  /* the same, once pairs that waited are found */
    const uint32_t *filed_edges; /* edges or spare_edges: what the lists hold */
    uint8_t *pair_state;    /* per pair: BP_SUPPORT_PAIR_* */
    uint8_t *whole;         /* per slot: its list has every touching ball */
    double last_top;        /* height where the last pass stopped */
    bp_support_defer defer;
    uint32_t *degree;       /* per ball: touching pairs found; 0 between passes */
    uint32_t *settled;      /* one ball's settled neighbours, while it settles */
    size_t settled_room;    /* room in settled: the longest list and one */
    uint8_t *supported;     /* per ball: settled, on the floor through a chain
                               (this pass's for visited balls; every ball awake is) */
    uint32_t *anchor;       /* per ball id: the sleeper it last rested on, as
                               lost_support found it (UINT32_MAX: none yet) */
    size_t ball_capacity, near_capacity, anchor_capacity;
    size_t visits;          /* how many balls the last pass visited */
    int lanes;              /* threads the last pass's visits were shared
                               among (1: the caller alone; see support.c) */
} bp_support;

/* Flag in an entry of near: the neighbour is a supporter. */
#define BP_SUPPORTER_BIT 0x80000000u

void bp_support_free(bp_support *support);

/* Makes every ball that rests on a supported ball stop sinking into it:
 * positions pushed out, approach velocity removed, bottom-up. The pairs are
 * the broad phase's candidates (pairs of two sleepers left out), in its
 * strips, its grid as sorted for this step; r_min the smallest ball radius,
 * px. Finding who touches whom is shared among workers (NULL: the caller
 * alone), with the same result. false on allocation failure. */
bool bp_support_pass(bp_support *support, bp_world *world, const bp_broadphase *bp,
                     double r_min, bp_workers *workers);

/* The balls that touched ball i (within the pass's margin, as the last pass
 * found them; entries may carry BP_SUPPORTER_BIT), and how many in *count:
 * NULL for a ball the last pass did not visit, or whose pairs it let wait
 * and never came back to (balls above where it stopped: never supported).
 * Every ball awake during the pass was visited. Valid until the next pass
 * or a reorder of the balls. */
const uint32_t *bp_support_touching(const bp_support *support, uint32_t i, uint32_t *count);

#endif
