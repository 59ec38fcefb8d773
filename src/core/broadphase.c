#include "broadphase.h"

#include <math.h>
#include <stdlib.h>

void bp_broadphase_free(bp_broadphase *bp)
{
    free(bp->cell_start);
    free(bp->items);
    free(bp->ball_cell);
    free(bp->pairs);
    *bp = (bp_broadphase){0};
}

static bool reserve(void **array, size_t *capacity, size_t wanted, size_t element_size)
{
    if (wanted <= *capacity)
        return true;
    size_t grown = *capacity ? *capacity : 256;
    while (grown < wanted)
        grown *= 2;
    void *p = realloc(*array, grown * element_size);
    if (!p)
        return false;
    *array = p;
    *capacity = grown;
    return true;
}

static int clamp_index(double v, int n)
{
    if (!(v >= 0.0))
        return 0;
    if (v >= (double)(n - 1))
        return n - 1;
    return (int)v;
}

static bool layout_grid(bp_broadphase *bp, const bp_world *world, double margin)
{
    size_t n = world->count;
    double r_max = 0.0;
    for (size_t i = 0; i < n; i++)
        if (world->r[i] > r_max)
            r_max = world->r[i];
    double width = world->params.width, height = world->params.height;
    /* Any two balls that may touch sit in the same or adjacent cells. */
    double cell = 2.0 * r_max + margin;
    /* Keep the cell table in proportion to the ball count: a huge, sparse
     * arena gets coarse cells rather than billions of empty ones. */
    double max_cells = n * 4.0 > 4096.0 ? n * 4.0 : 4096.0;
    if ((width / cell) * (height / cell) > max_cells)
        cell = sqrt(width * height / max_cells);
    bp->cell = cell;
    bp->cols = (int)ceil(width / cell);
    bp->rows = (int)ceil(height / cell);
    if (bp->cols < 1)
        bp->cols = 1;
    if (bp->rows < 1)
        bp->rows = 1;
    size_t cells = (size_t)bp->cols * (size_t)bp->rows;
    return reserve((void **)&bp->cell_start, &bp->cells_capacity, cells + 1, sizeof(uint32_t));
}

static bool sort_into_cells(bp_broadphase *bp, const bp_world *world)
{
    size_t n = world->count;
    if (!reserve((void **)&bp->items, &bp->items_capacity, n, sizeof(uint32_t)) ||
        !reserve((void **)&bp->ball_cell, &bp->ball_cell_capacity, n, sizeof(uint32_t)))
        return false;

    size_t cells = (size_t)bp->cols * (size_t)bp->rows;
    uint32_t *start = bp->cell_start;
    for (size_t c = 0; c <= cells; c++)
        start[c] = 0;
    double inv_cell = 1.0 / bp->cell;
    for (size_t i = 0; i < n; i++) {
        int cx = clamp_index(world->x[i] * inv_cell, bp->cols);
        int cy = clamp_index(world->y[i] * inv_cell, bp->rows);
        uint32_t c = (uint32_t)cy * (uint32_t)bp->cols + (uint32_t)cx;
        bp->ball_cell[i] = c;
        start[c + 1]++;
    }
    for (size_t c = 0; c < cells; c++)
        start[c + 1] += start[c];
    /* Stable: balls keep their index order within a cell. */
    for (size_t i = 0; i < n; i++)
        bp->items[start[bp->ball_cell[i]]++] = (uint32_t)i;
    for (size_t c = cells; c > 0; c--)
        start[c] = start[c - 1];
    start[0] = 0;
    return true;
}

static bool push_pair(bp_broadphase *bp, uint32_t a, uint32_t b)
{
    if (bp->pair_count == bp->pair_capacity &&
        !reserve((void **)&bp->pairs, &bp->pair_capacity, bp->pair_count + 1, sizeof(bp_pair)))
        return false;
    bp->pairs[bp->pair_count++] = (bp_pair){a, b};
    return true;
}

static inline bool near(const bp_world *world, uint32_t a, uint32_t b, double margin)
{
    double dx = world->x[b] - world->x[a];
    double dy = world->y[b] - world->y[a];
    double reach = world->r[a] + world->r[b] + margin;
    return dx * dx + dy * dy < reach * reach;
}

bool bp_broadphase_find_pairs(bp_broadphase *bp, const bp_world *world, double margin)
{
    return bp_broadphase_sort(bp, world, margin) && bp_broadphase_pairs(bp, world, margin);
}

bool bp_broadphase_sort(bp_broadphase *bp, const bp_world *world, double margin)
{
    return layout_grid(bp, world, margin) && sort_into_cells(bp, world);
}

bool bp_broadphase_pairs(bp_broadphase *bp, const bp_world *world, double margin)
{
    bp->pair_count = 0;

    int cols = bp->cols, rows = bp->rows;
    /* Walk rows starting at the floor; "ahead" is the next row up. */
    bool floor_at_bottom = world->params.gravity >= 0.0;
    int first_row = floor_at_bottom ? rows - 1 : 0;
    int ahead = floor_at_bottom ? -1 : 1;
    const uint32_t *start = bp->cell_start, *items = bp->items;

    for (int k = 0; k < rows; k++) {
        int cy = first_row + k * ahead;
        int ny = cy + ahead;
        for (int cx = 0; cx < cols; cx++) {
            size_t c = (size_t)cy * (size_t)cols + (size_t)cx;
            for (uint32_t s = start[c]; s < start[c + 1]; s++) {
                uint32_t a = items[s];
                for (uint32_t t = s + 1; t < start[c + 1]; t++)
                    if (near(world, a, items[t], margin) && !push_pair(bp, a, items[t]))
                        return false;
                /* Half of the 8 neighbours, so each pair is found once. */
                const int offsets[4][2] = {{1, 0}, {-1, 1}, {0, 1}, {1, 1}};
                for (int o = 0; o < 4; o++) {
                    int x = cx + offsets[o][0];
                    int y = offsets[o][1] ? ny : cy;
                    if (x < 0 || x >= cols || y < 0 || y >= rows)
                        continue;
                    size_t d = (size_t)y * (size_t)cols + (size_t)x;
                    for (uint32_t u = start[d]; u < start[d + 1]; u++)
                        if (near(world, a, items[u], margin) && !push_pair(bp, a, items[u]))
                            return false;
                }
            }
        }
    }
    return true;
}
