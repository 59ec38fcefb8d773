/* Uniform grids: how one lies over a box (bp_grid_shape), and a grid that
 * files items by cell with a counting sort (bp_grid).
 *
 * Every grid of the physics and the spawner is laid by bp_grid_lay and read
 * through bp_grid_col/bp_grid_row: the broad phase's and the sweep's (which
 * keep their own storage: strips, lists that grow within a step), the
 * walls' and the ray casts' (bp_grid), and the placement of new balls. So
 * one rule sizes them all: cells as small as the caller asks, coarser only
 * where so many would not pay (a huge, sparse arena), and a point outside
 * the box files into the border cell nearest it. */
#ifndef BP_GRID_H
#define BP_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bp_grid_shape {
    double x0, y0;         /* corner of cell (0, 0), px */
    double cell, inv_cell; /* cell edge, px, and its inverse */
    int cols, rows;        /* at least one of each */
} bp_grid_shape;

/* Cells of edge `cell` px over the w x h box from (x0, y0), grown until
 * there are at most max_cells of them. */
bp_grid_shape bp_grid_lay(double x0, double y0, double w, double h, double cell,
                          double max_cells);

/* Grid coordinate c (a position over the cell edge) as an index in [0, n):
 * below 0 (or NaN) is 0, past the end is n - 1. */
static inline int bp_grid_clamp(double c, int n)
{
    return !(c >= 0.0) ? 0 : c >= (double)(n - 1) ? n - 1 : (int)c;
}

/* The column (row) of x (y), clamped into the grid. */
static inline int bp_grid_col(const bp_grid_shape *s, double x)
{
    return bp_grid_clamp((x - s->x0) * s->inv_cell, s->cols);
}
static inline int bp_grid_row(const bp_grid_shape *s, double y)
{
    return bp_grid_clamp((y - s->y0) * s->inv_cell, s->rows);
}

/* The cell of (x, y): rows one after another. */
static inline size_t bp_grid_cell_at(const bp_grid_shape *s, double x, double y)
{
    return (size_t)bp_grid_row(s, y) * (size_t)s->cols + (size_t)bp_grid_col(s, x);
}

static inline size_t bp_grid_cells(const bp_grid_shape *s)
{
    return (size_t)s->cols * (size_t)s->rows;
}

/* Items filed by cell: cell c holds items[start[c] .. start[c + 1]). */
typedef struct bp_grid {
    bp_grid_shape shape;
    uint32_t *start; /* cells + 1 offsets into items */
    uint32_t *items;
    size_t start_capacity, items_capacity;
} bp_grid;

/* Filing, in three steps: bp_grid_begin; bp_grid_count(c) once for every
 * (cell, item) there will be; bp_grid_fill_start; then bp_grid_fill(c, item)
 * for the same ones in any order (a cell lists its items in the order they
 * were filed); bp_grid_end. false when memory runs out. */
bool bp_grid_begin(bp_grid *g);
static inline void bp_grid_count(bp_grid *g, size_t c)
{
    g->start[c + 1]++;
}
bool bp_grid_fill_start(bp_grid *g);
static inline void bp_grid_fill(bp_grid *g, size_t c, uint32_t item)
{
    g->items[g->start[c]++] = item;
}
void bp_grid_end(bp_grid *g);

void bp_grid_free(bp_grid *g);

#endif
