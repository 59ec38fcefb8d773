/* Ray casts. A ray is a swept circle of radius 0, so both go through the
 * same two tests: a quadratic against a disc (balls) and the capsule sweep of
 * walls.h (walls and the arena's sides), which the step's collisions use
 * too; what a ray reports is therefore what a ball moving along it would
 * meet. */
#include "raycast.h"

#include <math.h>
#include <stdlib.h>

#include "detmath.h"
#include "grid.h"
#include "solver/solver.h"
#include "walls.h"

const char *bp_hit_kind_name(bp_hit_kind kind)
{
    switch (kind) {
    case BP_HIT_BALL:
        return "ball";
    case BP_HIT_WALL:
        return "wall";
    default:
        return "arena";
    }
}

/* Entry of the ray o + t u (u unit, 0 <= t <= max_dist) into the disc of
 * radius R around c. Inside already: t = 0 with the normal against u. */
static bool cast_disc(double ox, double oy, double ux, double uy, double max_dist, double cx,
                      double cy, double R, bp_ray_hit *h)
{
    double px = ox - cx, py = oy - cy;
    double c = px * px + py * py - R * R;
    if (c < 0.0) {
        *h = (bp_ray_hit){.dist = 0.0, .x = ox, .y = oy, .nx = -ux, .ny = -uy};
        return true;
    }
    double b = px * ux + py * uy;
    if (!(b < 0.0))
        return false;
    double disc = b * b - c;
    if (disc < 0.0)
        return false;
    /* The nearer root without cancellation. */
    double t = c / (-b + sqrt(disc));
    if (t > max_dist)
        return false;
    double x = ox + t * ux, y = oy + t * uy;
    double nx = (x - cx) / R, ny = (y - cy) / R;
    *h = (bp_ray_hit){.dist = t, .x = x, .y = y, .nx = nx, .ny = ny};
    return true;
}

/* Entry into a capsule grown by rr, same conventions. */
static bool cast_segment(const bp_segment *g, double ox, double oy, double ux, double uy,
                         double max_dist, double rr, bp_ray_hit *h)
{
    double nx, ny;
    double d = bp_segment_distance(g, ox, oy, ux, uy, &nx, &ny);
    if (d < g->r + rr) {
        *h = (bp_ray_hit){.dist = 0.0, .x = ox, .y = oy, .nx = -ux, .ny = -uy};
        return true;
    }
    double s;
    if (!bp_segment_sweep(g, ox, oy, ux * max_dist, uy * max_dist, rr, &s, &nx, &ny))
        return false;
    double t = s * max_dist;
    *h = (bp_ray_hit){.dist = t, .x = ox + t * ux, .y = oy + t * uy, .nx = nx, .ny = ny};
    return true;
}

static int by_distance(const void *a, const void *b)
{
    const bp_ray_hit *p = a, *q = b;
    if (p->dist != q->dist)
        return p->dist < q->dist ? -1 : 1;
    if (p->kind != q->kind)
        return p->kind < q->kind ? -1 : 1;
    return p->id < q->id ? -1 : p->id > q->id ? 1 : 0;
}

static bool push(bp_ray_hit **list, size_t *count, size_t *capacity, bp_ray_hit h)
{
    if (*count == *capacity) {
        size_t n = *capacity ? *capacity * 2 : 16;
        bp_ray_hit *p = realloc(*list, n * sizeof *p);
        if (!p)
            return false;
        *list = p;
        *capacity = n;
    }
    (*list)[(*count)++] = h;
    return true;
}

/* The unit vector along (dx, dy), scaled by its larger part before the
 * squares are taken, so that neither 1e-160 nor 1e155 under- or overflows:
 * (1e-160, 0) gives exactly what (1, 0) gives. false for a zero or
 * non-finite direction. */
static bool unit(double dx, double dy, double *ux, double *uy)
{
    double s = fmax(fabs(dx), fabs(dy));
    if (!(s > 0.0) || !isfinite(s))
        return false;
    dx /= s;
    dy /= s;
    double len = sqrt(dx * dx + dy * dy);
    *ux = dx / len;
    *uy = dy / len;
    return true;
}

const char *bp_raycast_check(const bp_world *world, const double ray[4])
{
    double ux, uy;
    if (!unit(ray[2], ray[3], &ux, &uy))
        return "the direction must be finite and not zero";
    if (!(ray[0] >= 0.0 && ray[0] <= world->params.width && ray[1] >= 0.0 &&
          ray[1] <= world->params.height))
        return "the origin lies outside the arena";
    return NULL;
}

size_t bp_raycast(const bp_world *world, double ox, double oy, double dx, double dy,
                  double max_dist, bp_ray_hit *hits, size_t max_hits)
{
    double ux, uy;
    if (!unit(dx, dy, &ux, &uy) || !(max_dist >= 0.0) || !isfinite(ox) || !isfinite(oy))
        return 0;
    bp_ray_hit *list = NULL, h;
    size_t count = 0, capacity = 0;
    bool ok = true;
    /* The arena ends the ray: nothing lies beyond its nearest side. */
    bp_ray_hit side[BP_SIDES];
    bool side_hit[BP_SIDES];
    for (int k = 0; k < BP_SIDES; k++) {
        bp_segment g = bp_segment_side(k, world->params.width, world->params.height);
        side_hit[k] = cast_segment(&g, ox, oy, ux, uy, max_dist, 0.0, &side[k]);
        if (side_hit[k] && side[k].dist < max_dist)
            max_dist = side[k].dist;
    }
    for (int k = 0; k < BP_SIDES && ok; k++)
        if (side_hit[k] && side[k].dist <= max_dist) {
            side[k].kind = BP_HIT_ARENA;
            side[k].id = (uint32_t)k;
            ok = push(&list, &count, &capacity, side[k]);
        }
    for (size_t i = 0; i < world->count && ok; i++)
        if (cast_disc(ox, oy, ux, uy, max_dist, world->x[i], world->y[i], world->r[i], &h)) {
            h.kind = BP_HIT_BALL;
            h.id = world->id[i];
            ok = push(&list, &count, &capacity, h);
        }
    for (size_t i = 0; i < world->wall_count && ok; i++) {
        const bp_wall *w = &world->walls[i];
        bp_segment g = bp_segment_make(w->x1, w->y1, w->x2, w->y2, w->r);
        if (cast_segment(&g, ox, oy, ux, uy, max_dist, 0.0, &h)) {
            h.kind = BP_HIT_WALL;
            h.id = (uint32_t)i;
            ok = push(&list, &count, &capacity, h);
        }
    }
    if (!ok) {
        free(list);
        return SIZE_MAX;
    }
    if (count)
        qsort(list, count, sizeof *list, by_distance);
    for (size_t k = 0; k < count && k < max_hits; k++)
        hits[k] = list[k];
    free(list);
    return count;
}

/* Nearest hit among the walls and sides for a circle cast. */
static void nearest_static(const bp_world *world, double ox, double oy, double ux, double uy,
                           double max_dist, double rr, bp_ray_hit *best, bool *found)
{
    bp_ray_hit h;
    for (size_t i = 0; i < world->wall_count; i++) {
        const bp_wall *w = &world->walls[i];
        bp_segment g = bp_segment_make(w->x1, w->y1, w->x2, w->y2, w->r);
        if (cast_segment(&g, ox, oy, ux, uy, max_dist, rr, &h) && (!*found || h.dist < best->dist)) {
            h.kind = BP_HIT_WALL;
            h.id = (uint32_t)i;
            *best = h;
            *found = true;
        }
    }
    for (int k = 0; k < BP_SIDES; k++) {
        bp_segment g = bp_segment_side(k, world->params.width, world->params.height);
        if (cast_segment(&g, ox, oy, ux, uy, max_dist, rr, &h) && (!*found || h.dist < best->dist)) {
            h.kind = BP_HIT_ARENA;
            h.id = (uint32_t)k;
            *best = h;
            *found = true;
        }
    }
}

static void consider_ball(const bp_world *world, size_t i, double ox, double oy, double ux,
                          double uy, double max_dist, double rr, int64_t ignore_id,
                          bp_ray_hit *best, bool *found)
{
    bp_ray_hit h;
    if ((int64_t)world->id[i] == ignore_id)
        return;
    if (cast_disc(ox, oy, ux, uy, max_dist, world->x[i], world->y[i], world->r[i] + rr, &h) &&
        (!*found || h.dist < best->dist)) {
        h.kind = BP_HIT_BALL;
        h.id = world->id[i];
        *best = h;
        *found = true;
    }
}

bool bp_raycast_first(const bp_world *world, double ox, double oy, double dx, double dy,
                      double max_dist, double rr, int64_t ignore_id, bp_ray_hit *hit)
{
    double ux, uy;
    if (!unit(dx, dy, &ux, &uy) || !(max_dist >= 0.0) || !isfinite(ox) || !isfinite(oy))
        return false;
    bool found = false;
    for (size_t i = 0; i < world->count; i++)
        consider_ball(world, i, ox, oy, ux, uy, max_dist, rr, ignore_id, hit, &found);
    nearest_static(world, ox, oy, ux, uy, max_dist, rr, hit, &found);
    return found;
}

/* Files the balls by coarse cell, once per preview, so that each short
 * segment of the flight looks at a few cells, not at every ball. */
static bool grid_build(bp_grid *g, const bp_world *world, double cell)
{
    double max_cells = world->count * 2.0 > 1024.0 ? world->count * 2.0 : 1024.0;
    g->shape = bp_grid_lay(0.0, 0.0, world->params.width, world->params.height, cell, max_cells);
    if (!bp_grid_begin(g))
        return false;
    for (size_t i = 0; i < world->count; i++)
        bp_grid_count(g, bp_grid_cell_at(&g->shape, world->x[i], world->y[i]));
    if (!bp_grid_fill_start(g))
        return false;
    for (size_t i = 0; i < world->count; i++)
        bp_grid_fill(g, bp_grid_cell_at(&g->shape, world->x[i], world->y[i]), (uint32_t)i);
    bp_grid_end(g);
    return true;
}

/* The first ball (found through grid when have_grid), wall or side a
 * ball of radius r moving from (x,y) along (dx,dy) would touch; false
 * when none. */
static bool first_on_segment(const bp_world *world, const bp_grid *grid, bool have_grid, double x,
                             double y, double dx, double dy, double r, int64_t ignore_id,
                             bp_ray_hit *best)
{
    double len = sqrt(dx * dx + dy * dy);
    if (!(len > 0.0))
        return false;
    double ux = dx / len, uy = dy / len, reach = r + world->r_max;
    bool found = false;
    if (have_grid) {
        const bp_grid_shape *s = &grid->shape;
        int c0 = bp_grid_col(s, fmin(x, x + dx) - reach);
        int c1 = bp_grid_col(s, fmax(x, x + dx) + reach);
        int r0 = bp_grid_row(s, fmin(y, y + dy) - reach);
        int r1 = bp_grid_row(s, fmax(y, y + dy) + reach);
        for (int cy = r0; cy <= r1; cy++)
            for (int cx = c0; cx <= c1; cx++) {
                size_t c = (size_t)cy * (size_t)s->cols + (size_t)cx;
                for (uint32_t k = grid->start[c]; k < grid->start[c + 1]; k++)
                    consider_ball(world, grid->items[k], x, y, ux, uy, len, r, ignore_id, best,
                                  &found);
            }
    } else {
        for (size_t i = 0; i < world->count; i++)
            consider_ball(world, i, x, y, ux, uy, len, r, ignore_id, best, &found);
    }
    nearest_static(world, x, y, ux, uy, len, r, best, &found);
    return found;
}

size_t bp_predict_flight(const bp_world *world, double x, double y, double vx, double vy,
                         double r, int64_t ignore_id, double max_time, double *xs, double *ys,
                         size_t max_points, bp_ray_hit *hit, bool *hit_found)
{
    const bp_params *p = &world->params;
    *hit_found = false;
    if (max_points < 2)
        return 0;
    bp_grid grid = {0};
    double reach = r + world->r_max;
    bool have_grid = grid_build(&grid, world, 2.0 * reach > 16.0 ? 2.0 * reach : 16.0);
    /* The soft solver moves a free ball in substeps of its step (a flight
     * split into pieces for speed follows the same law: step.c). */
    int substeps = p->solver == BP_SOLVER_SOFT ? BP_SOFT_SUBSTEPS : 1;
    double dt = 1.0 / p->hz, h = dt / substeps, damping = bp_exp(-p->drag * h);
    size_t n = 0;
    xs[n] = x;
    ys[n++] = y;
    for (double t = 0.0; t < max_time && n < max_points; t += dt) {
        for (int s = 0; s < substeps; s++) {
            vy += p->gravity * h;
            vx *= damping;
            vy *= damping;
            double dx = vx * h, dy = vy * h;
            if (first_on_segment(world, &grid, have_grid, x, y, dx, dy, r, ignore_id, hit)) {
                xs[n] = hit->x;
                ys[n++] = hit->y;
                *hit_found = true;
                bp_grid_free(&grid);
                return n;
            }
            x += dx;
            y += dy;
        }
        xs[n] = x;
        ys[n++] = y;
    }
    bp_grid_free(&grid);
    return n;
}
