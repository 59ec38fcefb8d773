#include "contacts.h"

#include <math.h>
#include <stdlib.h>

#include "program.h"

void bp_contacts_free(bp_contacts *c)
{
    free(c->list);
    free(c->start);
    free(c->items);
    *c = (bp_contacts){0};
}

static bool add(bp_contacts *c, uint32_t a, uint32_t b, double x, double y)
{
    if (!bp_reserve((void **)&c->list, &c->capacity, c->count + 1, sizeof *c->list))
        return false;
    c->list[c->count++] = (bp_contact){a, b, (float)x, (float)y};
    return true;
}

static int cell_of(double v, double cell, int n)
{
    double k = floor(v / cell);
    return k < 0.0 ? 0 : (k >= n ? n - 1 : (int)k);
}

/* Files every ball by grid cell (a counting sort). */
static bool sort_into_cells(bp_contacts *c, const bp_world *w)
{
    double width = w->params.width, height = w->params.height;
    double cell = w->count ? 2.0 * w->r_max * (1.0 + BP_CONTACT_SLOP) : width;
    /* At most about four cells a ball, as the broad phase does. */
    double most = 4.0 * (double)w->count + 16.0;
    if (width * height / (cell * cell) > most)
        cell = sqrt(width * height / most);
    c->cell = cell;
    c->cols = (int)ceil(width / cell);
    c->rows = (int)ceil(height / cell);
    c->cols = c->cols < 1 ? 1 : c->cols;
    c->rows = c->rows < 1 ? 1 : c->rows;
    size_t cells = (size_t)c->cols * (size_t)c->rows;
    if (!bp_reserve((void **)&c->start, &c->start_capacity, cells + 1, sizeof *c->start) ||
        !bp_reserve((void **)&c->items, &c->items_capacity, w->count + 1, sizeof *c->items))
        return false;
    for (size_t k = 0; k <= cells; k++)
        c->start[k] = 0;
    for (size_t i = 0; i < w->count; i++)
        c->start[(size_t)cell_of(w->y[i], cell, c->rows) * (size_t)c->cols +
                 (size_t)cell_of(w->x[i], cell, c->cols) + 1]++;
    for (size_t k = 0; k < cells; k++)
        c->start[k + 1] += c->start[k];
    for (size_t i = 0; i < w->count; i++) {
        size_t k = (size_t)cell_of(w->y[i], cell, c->rows) * (size_t)c->cols +
                   (size_t)cell_of(w->x[i], cell, c->cols);
        c->items[c->start[k]++] = (uint32_t)i;
    }
    /* The offsets moved one cell on while filing: back to each cell's start. */
    for (size_t k = cells; k > 0; k--)
        c->start[k] = c->start[k - 1];
    c->start[0] = 0;
    return true;
}

static bool touch_statics(bp_contacts *c, const bp_world *w, size_t i)
{
    double x = w->x[i], y = w->y[i], r = w->r[i], slop = BP_CONTACT_SLOP * r;
    double W = w->params.width, H = w->params.height;
    if ((x - r <= slop && !add(c, (uint32_t)i, BP_CONTACT_STATIC, 0.0, y)) ||
        (W - x - r <= slop && !add(c, (uint32_t)i, BP_CONTACT_STATIC, W, y)) ||
        (y - r <= slop && !add(c, (uint32_t)i, BP_CONTACT_STATIC, x, 0.0)) ||
        (H - y - r <= slop && !add(c, (uint32_t)i, BP_CONTACT_STATIC, x, H)))
        return false;
    for (size_t k = 0; k < w->wall_count; k++) {
        const bp_wall *g = &w->walls[k];
        double dx = g->x2 - g->x1, dy = g->y2 - g->y1, len2 = dx * dx + dy * dy;
        double t = len2 > 0.0 ? ((x - g->x1) * dx + (y - g->y1) * dy) / len2 : 0.0;
        t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
        double px = g->x1 + t * dx, py = g->y1 + t * dy;
        double d = hypot(x - px, y - py);
        if (d - r - g->r > slop)
            continue;
        double s = d > 0.0 ? g->r / d : 0.0;
        if (!add(c, (uint32_t)i, BP_CONTACT_STATIC, px + (x - px) * s, py + (y - py) * s))
            return false;
    }
    return true;
}

bool bp_contacts_find(bp_contacts *c, const bp_world *w)
{
    c->count = 0;
    if (!sort_into_cells(c, w))
        return false;
    for (int row = 0; row < c->rows; row++)
        for (int col = 0; col < c->cols; col++) {
            size_t k = (size_t)row * (size_t)c->cols + (size_t)col;
            for (uint32_t a = c->start[k]; a < c->start[k + 1]; a++) {
                size_t i = c->items[a];
                if (!touch_statics(c, w, i))
                    return false;
                /* This cell (later balls only) and the four after it. */
                static const int next[5][2] = {{0, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
                for (int n = 0; n < 5; n++) {
                    int nc = col + next[n][0], nr = row + next[n][1];
                    if (nc < 0 || nc >= c->cols || nr >= c->rows)
                        continue;
                    size_t m = (size_t)nr * (size_t)c->cols + (size_t)nc;
                    for (uint32_t b = n == 0 ? a + 1 : c->start[m]; b < c->start[m + 1]; b++) {
                        size_t j = c->items[b];
                        double dx = w->x[j] - w->x[i], dy = w->y[j] - w->y[i];
                        double reach = w->r[i] + w->r[j];
                        double slop = BP_CONTACT_SLOP * fmin(w->r[i], w->r[j]);
                        if (dx * dx + dy * dy > (reach + slop) * (reach + slop))
                            continue;
                        double d = sqrt(dx * dx + dy * dy), s = d > 0.0 ? w->r[i] / d : 0.0;
                        if (!add(c, (uint32_t)i, (uint32_t)j, w->x[i] + dx * s, w->y[i] + dy * s))
                            return false;
                    }
                }
            }
        }
    return true;
}

size_t bp_contacts_of(const bp_contacts *c, size_t i)
{
    size_t n = 0;
    for (size_t k = 0; k < c->count; k++)
        n += c->list[k].a == i || c->list[k].b == i;
    return n;
}
