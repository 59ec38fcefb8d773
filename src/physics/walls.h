/* Static geometry: the scene's walls and the arena's four sides as one set of
 * capsules (segments with rounded ends), the swept circle-vs-capsule test
 * that both the step and the ray casts use, and a coarse grid that hands a
 * ball only the walls near it. */
#ifndef BP_WALLS_H
#define BP_WALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "grid.h"

/* The arena's sides, in the order they sit in the static set (and the ids
 * the ray casts report for them). */
enum { BP_SIDE_TOP = 0, BP_SIDE_RIGHT = 1, BP_SIDE_BOTTOM = 2, BP_SIDE_LEFT = 3, BP_SIDES = 4 };

/* A capsule with its direction precomputed. */
typedef struct bp_segment {
    double ax, ay, bx, by; /* ends, px */
    double ux, uy;         /* unit vector from a to b (1,0 for a point) */
    double len;            /* |b - a|, px */
    double r;              /* half thickness, px */
    bool one_sided;        /* an arena side: solid behind its face normal (-uy, ux) */
} bp_segment;

/* A segment from (ax,ay) to (bx,by) with half thickness r, px. */
bp_segment bp_segment_make(double ax, double ay, double bx, double by, double r);

/* The arena side k (BP_SIDE_*) of a w x h arena: a zero-thickness,
 * one-sided segment whose face normal points into the arena. */
bp_segment bp_segment_side(int k, double w, double h);

/* Earliest fraction s in [0, 1] of the move from (px,py) by (dx,dy) at which
 * a circle of radius rr touches the capsule while approaching it (s = 0 if it
 * already touches or overlaps and moves further in). On a hit, stores s and
 * the unit normal pointing from the capsule to the circle. */
bool bp_segment_sweep(const bp_segment *g, double px, double py, double dx, double dy, double rr,
                      double *s, double *nx, double *ny);

/* Distance from (px,py) to the capsule's core segment, px, and the unit
 * normal from the core to the point (for a point on the core: the face
 * normal on the side that (hint_x,hint_y) points away from). For a one-sided
 * segment: the signed distance along its face normal, negative behind it. */
double bp_segment_distance(const bp_segment *g, double px, double py, double hint_x,
                           double hint_y, double *nx, double *ny);

/* Most walls one query lists; near more than that, the caller visits the
 * grid cells themselves (bp_statics_query). */
#define BP_WALLS_QUERY_MAX 128

/* A box of grid cells, inclusive: columns c0..c1, rows r0..r1. */
typedef struct bp_cell_box {
    int c0, c1, r0, r1;
} bp_cell_box;

/* The static set of one world, rebuilt whenever its walls or size change. */
typedef struct bp_statics {
    bp_segment *segs; /* the world's walls, in their order */
    size_t count, capacity;
    bp_segment sides[BP_SIDES];

    /* Wall indices by cell, over the walls' bounding box. Finer as the
     * walls get more (about two cells a wall), so that a ball is handed
     * the walls near it and not all. */
    bp_grid grid;

    bp_wall *seen; /* the walls the set was built from, to notice changes */
    size_t seen_capacity;
    double seen_w, seen_h;
    bool ready;

    /* Where each ball stood after its swept move, so that later pushes by
     * the ball-ball solver are swept too and cannot carry a ball across a
     * zero-thickness wall. Only kept while the world has walls. */
    double *anchor_x, *anchor_y;
    uint32_t *anchor_id;
    size_t anchor_capacity;
    bool anchors_valid;
} bp_statics;

void bp_statics_destroy(bp_statics *st);

/* Brings world->statics up to date with the world's walls and arena (and
 * sizes the anchors for its balls). false when memory runs out. */
bool bp_statics_prepare(bp_world *world);

/* The walls whose capsules may meet a circle anywhere in the box
 * [x0,x1] x [y0,y1] (already grown by the circle's radius): lists them in
 * out, in index order and each once, and returns their number; or, when
 * they are more than BP_WALLS_QUERY_MAX, returns SIZE_MAX and sets *cells
 * to the grid cells that hold them (bp_statics_cell), where a wall may
 * appear in more than one cell. */
size_t bp_statics_query(const bp_statics *st, double x0, double y0, double x1, double y1,
                        uint32_t out[BP_WALLS_QUERY_MAX], bp_cell_box *cells);

/* The walls listed in cell (cx, cy): [*first, *end) of st->grid.items. */
static inline void bp_statics_cell(const bp_statics *st, int cx, int cy, uint32_t *first,
                                   uint32_t *end)
{
    size_t c = (size_t)cy * (size_t)st->grid.shape.cols + (size_t)cx;
    *first = st->grid.start[c];
    *end = st->grid.start[c + 1];
}

#endif
