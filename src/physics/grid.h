/* A uniform grid over the arena that files items by cell with a counting
 * sort: cell c holds items[start[c] .. start[c + 1]). The walls' grid and
 * the flight preview's grid of balls are both one of these; the broad
 * phase's and the sweep's grids keep their own layouts (strips, lists that
 * grow within a step) but size their cells the same way (bp_grid_shape). */
#ifndef BP_GRID_H
#define BP_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bp_grid {
    double cell, inv_cell; /* cell edge, px, and its inverse */
    int cols, rows;
    uint32_t *start; /* cols * rows + 1 offsets into items */
    uint32_t *items;
    size_t start_capacity, items_capacity;
} bp_grid;

/* Cells of edge `cell` px over a w x h arena, grown until there are at
 * most max_cells of them (at least one). */
void bp_grid_shape(bp_grid *g, double w, double h, double cell, double max_cells);

/* The column (row) of coordinate v, clamped into the grid: a ball or wall
 * that reaches past the arena files into its border cells. */
static inline int bp_grid_clamp(const bp_grid *g, double v, int n)
{
    double c = v * g->inv_cell;
    return !(c >= 0.0) ? 0 : c >= (double)(n - 1) ? n - 1 : (int)c;
}

static inline size_t bp_grid_cell_at(const bp_grid *g, double x, double y)
{
    return (size_t)bp_grid_clamp(g, y, g->rows) * (size_t)g->cols +
           (size_t)bp_grid_clamp(g, x, g->cols);
}

/* Filing, in three steps: bp_grid_begin; bp_grid_count(c) once for every
 * (cell, item) there will be; bp_grid_fill_start; then bp_grid_fill(c, item)
 * for the same ones in any order; bp_grid_end. false when memory runs out. */
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
