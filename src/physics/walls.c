/* Static geometry.
 *
 * The swept test treats a capsule as the union of its face slab (the band
 * within R = r_wall + r_ball of the core, between the ends) and the two end
 * discs of radius R; the circle's centre first touches the capsule where it
 * first enters one of those three, so the earliest of three simple tests is
 * the time of impact. A zero-thickness wall is two-sided: the side a ball is
 * on is the side its centre starts on, and since every move is swept, a
 * centre never crosses the core. */
#include "walls.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "tolerances.h"

bp_segment bp_segment_make(double ax, double ay, double bx, double by, double r)
{
    double dx = bx - ax, dy = by - ay;
    double len = sqrt(dx * dx + dy * dy);
    bp_segment g = {.ax = ax, .ay = ay, .bx = bx, .by = by, .len = len, .r = r};
    if (len > 0.0) {
        g.ux = dx / len;
        g.uy = dy / len;
    } else {
        g.ux = 1.0;
        g.uy = 0.0;
    }
    return g;
}

bp_segment bp_segment_side(int k, double w, double h)
{
    /* Ends reach past the corners so that a ball in a corner meets two faces,
     * never a corner point. */
    double ex = w + h, ey = w + h;
    bp_segment g;
    switch (k) {
    case BP_SIDE_TOP:
        g = bp_segment_make(-ex, 0.0, w + ex, 0.0, 0.0);
        break;
    case BP_SIDE_RIGHT:
        g = bp_segment_make(w, -ey, w, h + ey, 0.0);
        break;
    case BP_SIDE_BOTTOM:
        g = bp_segment_make(w + ex, h, -ex, h, 0.0);
        break;
    default:
        g = bp_segment_make(0.0, h + ey, 0.0, -ey, 0.0);
        break;
    }
    g.one_sided = true;
    return g;
}

static bool sweep_cap(double ex, double ey, double dx, double dy, double R, double slide,
                      double *s, double *nx, double *ny)
{
    /* |e + s d| = R with e the centre relative to the cap's centre. */
    double b = ex * dx + ey * dy;
    double e_len2 = ex * ex + ey * ey;
    if (!(b < -slide * sqrt(e_len2)))
        return false;
    double c = e_len2 - R * R;
    double t;
    if (c <= 0.0) {
        t = 0.0;
    } else {
        double a = dx * dx + dy * dy;
        double disc = b * b - a * c;
        if (disc < 0.0)
            return false;
        /* The smaller root, written without cancellation. */
        t = c / (-b + sqrt(disc));
        if (t > 1.0)
            return false;
    }
    double cx = ex + t * dx, cy = ey + t * dy;
    double len = sqrt(cx * cx + cy * cy);
    if (len > 0.0) {
        *nx = cx / len;
        *ny = cy / len;
    } else {
        double d = sqrt(dx * dx + dy * dy);
        *nx = -dx / d;
        *ny = -dy / d;
    }
    *s = t;
    return true;
}

bool bp_segment_sweep(const bp_segment *g, double px, double py, double dx, double dy, double rr,
                      double *s, double *nx, double *ny)
{
    double R = g->r + rr;
    double slide = BP_APPROACH_OVER_R * rr; /* moves into the surface shorter than this slide */
    double best = 2.0, bnx = 0.0, bny = 0.0;
    double fx = -g->uy, fy = g->ux; /* face normal */
    double rx = px - g->ax, ry = py - g->ay;
    double h = rx * fx + ry * fy;
    double dn = dx * fx + dy * fy;
    /* A centre exactly on the core belongs to the side it comes from. */
    double side = g->one_sided ? 1.0 : h > 0.0 ? 1.0 : h < 0.0 ? -1.0 : (dn > 0.0 ? -1.0 : 1.0);
    double hs = h * side, dns = dn * side;
    if (g->len > 0.0 && dns < -slide) {
        double t = hs > R ? (hs - R) / -dns : 0.0;
        if (t <= 1.0) {
            double along = rx * g->ux + ry * g->uy + t * (dx * g->ux + dy * g->uy);
            if (along >= 0.0 && along <= g->len) {
                best = t;
                bnx = fx * side;
                bny = fy * side;
            }
        }
    }
    double t, cnx, cny;
    if (sweep_cap(px - g->ax, py - g->ay, dx, dy, R, slide, &t, &cnx, &cny) && t < best) {
        best = t;
        bnx = cnx;
        bny = cny;
    }
    if (sweep_cap(px - g->bx, py - g->by, dx, dy, R, slide, &t, &cnx, &cny) && t < best) {
        best = t;
        bnx = cnx;
        bny = cny;
    }
    if (best > 1.0)
        return false;
    *s = best;
    *nx = bnx;
    *ny = bny;
    return true;
}

double bp_segment_distance(const bp_segment *g, double px, double py, double hint_x,
                           double hint_y, double *nx, double *ny)
{
    double rx = px - g->ax, ry = py - g->ay;
    if (g->one_sided) {
        *nx = -g->uy;
        *ny = g->ux;
        return rx * *nx + ry * *ny;
    }
    double t = rx * g->ux + ry * g->uy;
    if (t < 0.0)
        t = 0.0;
    else if (t > g->len)
        t = g->len;
    double dx = rx - t * g->ux, dy = ry - t * g->uy;
    double d = sqrt(dx * dx + dy * dy);
    if (d > 1e-12) {
        *nx = dx / d;
        *ny = dy / d;
        return d;
    }
    double fx = -g->uy, fy = g->ux;
    if (fx * hint_x + fy * hint_y > 0.0) {
        fx = -fx;
        fy = -fy;
    }
    *nx = fx;
    *ny = fy;
    return d;
}

void bp_statics_destroy(bp_statics *st)
{
    if (!st)
        return;
    free(st->segs);
    bp_grid_free(&st->grid);
    free(st->seen);
    free(st->anchor_x);
    free(st->anchor_y);
    free(st->anchor_id);
    free(st);
}


/* Half a cell's diagonal, a little over: a cell whose centre lies further
 * than this plus a capsule's radius from its core cannot meet it. */
#define BP_HALF_DIAGONAL 0.7072

/* Calls back for each grid cell the capsule can reach: the cells whose
 * centre lies within r + half a cell diagonal of the core. Row by row, and
 * in each row only the columns the core comes within that reach of, so
 * that a long slanted wall costs its cells and not its bounding box's.
 * Counts when items is NULL, else fills. */
static void rasterize(bp_statics *st, uint32_t w, bool fill)
{
    const bp_segment *g = &st->segs[w];
    const bp_grid_shape *s = &st->grid.shape;
    double reach = g->r + s->cell * BP_HALF_DIAGONAL;
    int r0 = bp_grid_row(s, fmin(g->ay, g->by) - reach);
    int r1 = bp_grid_row(s, fmax(g->ay, g->by) + reach);
    double dx = g->bx - g->ax, dy = g->by - g->ay;
    for (int cy = r0; cy <= r1; cy++) {
        double yc = s->y0 + (cy + 0.5) * s->cell;
        /* The part of the core within reach of this row's centres in y. */
        double t0 = 0.0, t1 = 1.0;
        if (dy != 0.0) {
            double ta = (yc - reach - g->ay) / dy, tb = (yc + reach - g->ay) / dy;
            t0 = fmax(t0, fmin(ta, tb));
            t1 = fmin(t1, fmax(ta, tb));
        } else if (fabs(g->ay - yc) > reach) {
            continue;
        }
        if (t0 > t1)
            continue;
        double xa = g->ax + t0 * dx, xb = g->ax + t1 * dx;
        int c0 = bp_grid_col(s, fmin(xa, xb) - reach);
        int c1 = bp_grid_col(s, fmax(xa, xb) + reach);
        for (int cx = c0; cx <= c1; cx++) {
            double nx, ny;
            double d =
                bp_segment_distance(g, s->x0 + (cx + 0.5) * s->cell, yc, 0.0, 0.0, &nx, &ny);
            if (d > reach)
                continue;
            size_t c = (size_t)cy * (size_t)s->cols + (size_t)cx;
            if (fill)
                bp_grid_fill(&st->grid, c, w);
            else
                bp_grid_count(&st->grid, c);
        }
    }
}

/* About how many cells of side cell the walls are listed in: each covers a
 * band of its length plus twice its reach, twice its reach wide, and at
 * most its bounding box. */
static double items_estimate(const bp_statics *st, double cell)
{
    double total = 0.0;
    for (size_t i = 0; i < st->count; i++) {
        const bp_segment *g = &st->segs[i];
        double reach = g->r + cell * BP_HALF_DIAGONAL;
        double band = ((g->len + 2.0 * reach) / cell + 1.0) * (2.0 * reach / cell + 1.0);
        double box = ((fabs(g->bx - g->ax) + 2.0 * g->r) / cell + 2.0) *
                     ((fabs(g->by - g->ay) + 2.0 * g->r) / cell + 2.0);
        total += band < box ? band : box;
    }
    return total;
}

/* Lays the grid over the walls' bounding box: about two cells a wall (4096
 * at least), none narrower than 32 px while the walls are few, and coarser
 * again if the walls would be listed in more than 16 cells each on
 * average, so that memory stays O(walls). */
static void grid_layout(bp_statics *st)
{
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (size_t i = 0; i < st->count; i++) {
        const bp_segment *g = &st->segs[i];
        x0 = fmin(x0, fmin(g->ax, g->bx) - g->r);
        x1 = fmax(x1, fmax(g->ax, g->bx) + g->r);
        y0 = fmin(y0, fmin(g->ay, g->by) - g->r);
        y1 = fmax(y1, fmax(g->ay, g->by) + g->r);
    }
    if (st->count == 0)
        x0 = y0 = x1 = y1 = 0.0;
    double bw = x1 - x0, bh = y1 - y0;
    double target = st->count > 2048 ? 2.0 * (double)st->count : 4096.0;
    double cell = sqrt(bw * bh / target);
    /* A box thin in one direction: no more than target cells along it. */
    cell = fmax(cell, fmax(bw, bh) / target);
    if (st->count <= 2048)
        cell = fmax(cell, 32.0);
    if (!(cell > 1e-3))
        cell = 1.0; /* every wall a point on one spot */
    double budget = 16.0 * (double)st->count + 65536.0;
    while (items_estimate(st, cell) > budget)
        cell *= 1.25;
    st->grid.shape = bp_grid_lay(x0, y0, bw, bh, cell, INFINITY);
}

static bool build(bp_statics *st, const bp_world *world)
{
    const bp_params *p = &world->params;
    size_t n = world->wall_count;
    if (!bp_reserve((void **)&st->segs, &st->capacity, n, sizeof(bp_segment)) ||
        !bp_reserve((void **)&st->seen, &st->seen_capacity, n, sizeof(bp_wall)))
        return false;
    for (int k = 0; k < BP_SIDES; k++)
        st->sides[k] = bp_segment_side(k, p->width, p->height);
    for (size_t i = 0; i < n; i++) {
        const bp_wall *w = &world->walls[i];
        st->segs[i] = bp_segment_make(w->x1, w->y1, w->x2, w->y2, w->r);
    }
    st->count = n;
    if (n)
        memcpy(st->seen, world->walls, n * sizeof(bp_wall));
    st->seen_w = p->width;
    st->seen_h = p->height;

    grid_layout(st);
    if (!bp_grid_begin(&st->grid))
        return false;
    for (size_t i = 0; i < n; i++)
        rasterize(st, (uint32_t)i, false);
    if (!bp_grid_fill_start(&st->grid))
        return false;
    for (size_t i = 0; i < n; i++)
        rasterize(st, (uint32_t)i, true);
    bp_grid_end(&st->grid);
    return true;
}

bool bp_statics_prepare(bp_world *world)
{
    if (!world->statics) {
        world->statics = calloc(1, sizeof(bp_statics));
        if (!world->statics)
            return false;
    }
    bp_statics *st = world->statics;
    const bp_params *p = &world->params;
    bool same = st->ready && st->count == world->wall_count && st->seen_w == p->width &&
                st->seen_h == p->height &&
                (world->wall_count == 0 ||
                 memcmp(st->seen, world->walls, world->wall_count * sizeof(bp_wall)) == 0);
    if (!same) {
        st->ready = false;
        if (!build(st, world))
            return false;
        st->ready = true;
    }
    st->anchors_valid = false;
    if (world->wall_count) {
        size_t n = world->count, cap_x = st->anchor_capacity, cap_y = cap_x, cap_id = cap_x;
        if (!bp_reserve((void **)&st->anchor_x, &cap_x, n, sizeof(double)) ||
            !bp_reserve((void **)&st->anchor_y, &cap_y, n, sizeof(double)) ||
            !bp_reserve((void **)&st->anchor_id, &cap_id, n, sizeof(uint32_t)))
            return false;
        st->anchor_capacity = cap_x;
    }
    return true;
}

size_t bp_statics_query(const bp_statics *st, double x0, double y0, double x1, double y1,
                        uint32_t out[BP_WALLS_QUERY_MAX], bp_cell_box *cells)
{
    if (st->count == 0)
        return 0;
    const bp_grid_shape *s = &st->grid.shape;
    double gx0 = (x0 - s->x0) * s->inv_cell, gx1 = (x1 - s->x0) * s->inv_cell;
    double gy0 = (y0 - s->y0) * s->inv_cell, gy1 = (y1 - s->y0) * s->inv_cell;
    /* A box beyond the walls' bounding box meets none of them. */
    if (gx1 < 0.0 || gy1 < 0.0 || gx0 > (double)s->cols || gy0 > (double)s->rows)
        return 0;
    bp_cell_box box = {bp_grid_clamp(gx0, s->cols), bp_grid_clamp(gx1, s->cols),
                       bp_grid_clamp(gy0, s->rows), bp_grid_clamp(gy1, s->rows)};
    size_t found = 0;
    for (int cy = box.r0; cy <= box.r1; cy++)
        for (int cx = box.c0; cx <= box.c1; cx++) {
            uint32_t first, end;
            bp_statics_cell(st, cx, cy, &first, &end);
            for (uint32_t k = first; k < end; k++) {
                uint32_t w = st->grid.items[k];
                /* Kept sorted: the place of w, by bisection. */
                size_t lo = 0, hi = found;
                while (lo < hi) {
                    size_t mid = (lo + hi) / 2;
                    if (out[mid] < w)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                if (lo < found && out[lo] == w)
                    continue;
                if (found == BP_WALLS_QUERY_MAX) {
                    *cells = box;
                    return SIZE_MAX;
                }
                memmove(&out[lo + 1], &out[lo], (found - lo) * sizeof(uint32_t));
                out[lo] = w;
                found++;
            }
        }
    return found;
}
