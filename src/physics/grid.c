#include "grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

bp_grid_shape bp_grid_lay(double x0, double y0, double w, double h, double cell,
                          double max_cells)
{
    if ((w / cell) * (h / cell) > max_cells)
        cell = sqrt(w * h / max_cells);
    /* Each side stays within the cap too: rounding up a thin box's one
     * row or column can multiply the cells by far more than the cap. */
    double most = fmin(max_cells, 1073741824.0);
    double cols = fmin(ceil(w / cell), most), rows = fmin(ceil(h / cell), most);
    return (bp_grid_shape){
        .x0 = x0,
        .y0 = y0,
        .cell = cell,
        .inv_cell = 1.0 / cell,
        .cols = cols >= 1.0 ? (int)cols : 1,
        .rows = rows >= 1.0 ? (int)rows : 1,
    };
}

bool bp_grid_begin(bp_grid *g)
{
    size_t cells = bp_grid_cells(&g->shape);
    if (!bp_reserve((void **)&g->start, &g->start_capacity, cells + 1, sizeof(uint32_t)))
        return false;
    memset(g->start, 0, (cells + 1) * sizeof(uint32_t));
    return true;
}

bool bp_grid_fill_start(bp_grid *g)
{
    size_t cells = bp_grid_cells(&g->shape);
    /* start[c + 1] held cell c's count: summed, start[c] is where cell c
     * begins, and counts up to where it ends as it fills. */
    for (size_t c = 0; c < cells; c++)
        g->start[c + 1] += g->start[c];
    return bp_reserve((void **)&g->items, &g->items_capacity, (size_t)g->start[cells] + 1,
                      sizeof(uint32_t));
}

void bp_grid_end(bp_grid *g)
{
    /* Filling left start[c] at cell c's end, which is cell c + 1's start. */
    size_t cells = bp_grid_cells(&g->shape);
    memmove(g->start + 1, g->start, cells * sizeof(uint32_t));
    g->start[0] = 0;
}

void bp_grid_free(bp_grid *g)
{
    free(g->start);
    free(g->items);
    g->start = g->items = NULL;
    g->start_capacity = g->items_capacity = 0;
}
