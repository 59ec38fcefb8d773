/* Ball against static geometry.
 *
 * A step moves each ball by a swept move: find the earliest wall it would
 * touch, go there, bounce, go on with what is left of the step. Resting is
 * the same path: a ball lying on a floor touches it at s = 0 every step and
 * loses the normal speed gravity gave it, so it neither sinks nor buzz.
 *
 * A ball wedged between two surfaces (the bottom of a V) would ping-pong
 * between them: gravity sends it down one face into the other, the resting
 * contact there keeps the tangential part, up the other face, and back next
 * step, a buzz of one step's worth of gravity that never dies. When a ball
 * still sliding on one surface makes a resting contact with a second, the
 * velocity that came into the first contact is projected onto the cone both
 * surfaces allow instead (both constraints at once, as a solver of the pair
 * would): in the bottom of a V that is zero. */
#include "arena.h"

#include <math.h>

#include "collide.h"
#include "minmax.h"
#include "walls.h"

/* cos(BP_SLOPE_LIMIT_DEG). */
#define BP_SLOPE_LIMIT_COS 0.70710678118654752
/* Position sweeps of solver pushes: surfaces slid along per push. */
#define BP_PUSH_SLIDES 4

bp_contact_class bp_contact_classify(double nx, double ny, double gravity)
{
    (void)nx;
    double up = gravity >= 0.0 ? -ny : ny;
    if (up >= BP_SLOPE_LIMIT_COS)
        return BP_CONTACT_FLOOR;
    if (up <= -BP_SLOPE_LIMIT_COS)
        return BP_CONTACT_CEILING;
    return BP_CONTACT_WALL;
}

/* The segments that may touch a circle inside a box (grown by its radius):
 * the sides in reach, and the walls listed, or, when they are too many to
 * list, the grid cells that hold them. */
typedef struct candidates {
    const bp_segment *seg[BP_SIDES + BP_WALLS_QUERY_MAX];
    size_t n;
    bool in_cells; /* also every wall of the cells of box (some more than once) */
    bp_cell_box box;
} candidates;

static void gather(const bp_statics *st, double w, double h, double x0, double y0, double x1,
                   double y1, candidates *c)
{
    c->n = 0;
    c->in_cells = false;
    /* The sides' bounding boxes: the cheap cull that keeps a ball in the
     * middle of the arena from ever reaching the segment tests. */
    if (y0 <= 0.0)
        c->seg[c->n++] = &st->sides[BP_SIDE_TOP];
    if (x1 >= w)
        c->seg[c->n++] = &st->sides[BP_SIDE_RIGHT];
    if (y1 >= h)
        c->seg[c->n++] = &st->sides[BP_SIDE_BOTTOM];
    if (x0 <= 0.0)
        c->seg[c->n++] = &st->sides[BP_SIDE_LEFT];
    if (st->count == 0)
        return;
    uint32_t found[BP_WALLS_QUERY_MAX];
    size_t k = bp_statics_query(st, x0, y0, x1, y1, found, &c->box);
    if (k == SIZE_MAX) {
        c->in_cells = true;
        return;
    }
    for (size_t j = 0; j < k; j++)
        c->seg[c->n++] = &st->segs[found[j]];
}

/* Earliest contact of one segment so far: best (> 1 while none). */
static inline void earliest_of(const bp_segment *g, double x, double y, double dx, double dy,
                               double r, double *best, double *nx, double *ny)
{
    double t, tx, ty;
    if (bp_segment_sweep(g, x, y, dx, dy, r, &t, &tx, &ty) && t < *best) {
        *best = t;
        *nx = tx;
        *ny = ty;
    }
}

/* Earliest contact over the candidates, as a fraction s of the move; a wall
 * met twice (in two cells) gives the same time twice. */
static inline bool earliest(const bp_statics *st, const candidates *c, double x, double y,
                            double dx, double dy, double r, double *s, double *nx, double *ny)
{
    double best = 2.0;
    for (size_t k = 0; k < c->n; k++)
        earliest_of(c->seg[k], x, y, dx, dy, r, &best, nx, ny);
    if (c->in_cells)
        for (int cy = c->box.r0; cy <= c->box.r1; cy++)
            for (int cx = c->box.c0; cx <= c->box.c1; cx++) {
                uint32_t first, end;
                bp_statics_cell(st, cx, cy, &first, &end);
                for (uint32_t k = first; k < end; k++)
                    earliest_of(&st->segs[st->grid.items[k]], x, y, dx, dy, r, &best, nx, ny);
            }
    if (best > 1.0)
        return false;
    *s = best;
    return true;
}

/* Grid cells a path may run along before it is swept in pieces. */
#define BP_PATH_CELLS 4.0

/* Earliest contact of a circle of radius r moving from (x,y) by (dx,dy)
 * with the walls and sides, as earliest() over the whole box of the move
 * would find it. A move longer than a few grid cells is taken in pieces
 * of BP_PATH_CELLS cells, each with only the walls near it, in order: a
 * wall the centre touches during a piece is within reach of that piece, so
 * once the earliest time found is within the pieces looked at, no later
 * piece can hold an earlier one. A fast ball thus looks at the walls along
 * its path and not at every wall in the box it spans. */
static inline bool earliest_along(const bp_statics *st, const bp_params *p, double x, double y,
                                  double dx, double dy, double r, double *s, double *nx,
                                  double *ny)
{
    double reach = bp_arena_touch_reach(r);
    double len = sqrt(dx * dx + dy * dy);
    candidates c;
    double pieces = st->count > 0 ? ceil(len / (BP_PATH_CELLS * st->grid.shape.cell)) : 1.0;
    if (!(pieces > 1.0)) {
        gather(st, p->width, p->height, bp_min(x, x + dx) - reach, bp_min(y, y + dy) - reach,
               bp_max(x, x + dx) + reach, bp_max(y, y + dy) + reach, &c);
        return earliest(st, &c, x, y, dx, dy, r, s, nx, ny);
    }
    double best = 2.0, bnx = 0.0, bny = 0.0;
    /* Each piece ends at a side at the latest: the sides stop every centre. */
    for (double k = 0.0; k < pieces; k += 1.0) {
        double u0 = k / pieces, u1 = (k + 1.0) / pieces;
        double ax = x + u0 * dx, ay = y + u0 * dy, bx = x + u1 * dx, by = y + u1 * dy;
        gather(st, p->width, p->height, bp_min(ax, bx) - reach, bp_min(ay, by) - reach,
               bp_max(ax, bx) + reach, bp_max(ay, by) + reach, &c);
        double t, tx = 0.0, ty = 0.0;
        if (earliest(st, &c, x, y, dx, dy, r, &t, &tx, &ty) && t < best) {
            best = t;
            bnx = tx;
            bny = ty;
        }
        if (best <= u1)
            break;
    }
    if (best > 1.0)
        return false;
    *s = best;
    *nx = bnx;
    *ny = bny;
    return true;
}

/* Closest velocity to (vx,vy) that moves into neither surface: the
 * projection onto the cone {u : u.n1 >= 0, u.n2 >= 0}. In 2D it lies on one
 * of the two edges or at the apex. */
static void project_wedge(double *vx, double *vy, double n1x, double n1y, double n2x,
                          double n2y)
{
    double v1 = *vx * n1x + *vy * n1y, v2 = *vx * n2x + *vy * n2y;
    double best = INFINITY, bx = 0.0, by = 0.0;
    const double tol = -BP_SPEED_ROUNDING * (fabs(*vx) + fabs(*vy));
    if (v1 >= tol && v2 >= tol)
        return;
    double ax = *vx - v1 * n1x, ay = *vy - v1 * n1y;
    if (v1 < 0.0 && ax * n2x + ay * n2y >= tol && -v1 < best) {
        best = -v1;
        bx = ax;
        by = ay;
    }
    double cx = *vx - v2 * n2x, cy = *vy - v2 * n2y;
    if (v2 < 0.0 && cx * n1x + cy * n1y >= tol && -v2 < best) {
        bx = cx;
        by = cy;
    }
    *vx = bx;
    *vy = by;
}

static void set_anchor(bp_world *world, size_t i)
{
    bp_statics *st = world->statics;
    if (world->wall_count == 0)
        return;
    st->anchor_x[i] = world->x[i];
    st->anchor_y[i] = world->y[i];
    st->anchor_id[i] = world->id[i];
}

double bp_arena_move(bp_world *world, size_t i, double t, double then, double step_dt,
                     int max_impacts, bool stop_at_first, double rest_speed)
{
    const bp_statics *st = world->statics;
    const bp_params *p = &world->params;
    double gravity = world->flags[i] & BP_BALL_HELD ? 0.0 : p->gravity;
    double x = world->x[i], y = world->y[i], vx = world->vx[i], vy = world->vy[i];
    double w = world->w[i], inv_mass = world->inv_mass[i], inv_inertia = world->inv_inertia[i];
    bp_contact_law law = {p->friction, p->rolling};
    double r = world->r[i];
    double left = t;
    double prev_nx = 0.0, prev_ny = 0.0, in_x = 0.0, in_y = 0.0, in_w = 0.0;
    bool prev = false;
    int impacts = 0;
    while (left > 0.0) {
        double dx = vx * left, dy = vy * left;
        /* The common case, a ball in open space: nothing to sweep against. */
        if (bp_arena_path_open(world, x, y, dx, dy, r)) {
            x += dx;
            y += dy;
            left = 0.0;
            break;
        }
        double s, nx = 0.0, ny = 0.0;
        if (!earliest_along(st, p, x, y, dx, dy, r, &s, &nx, &ny)) {
            x += dx;
            y += dy;
            left = 0.0;
            break;
        }
        x += s * dx;
        y += s * dy;
        left *= 1.0 - s;
        double vx0 = vx, vy0 = vy, w0 = w;
        /* The velocity that bounces is the ball's at the moment of impact.
         * A step's positions lie on the parabola whose velocity at the
         * step's start is v + g dt/2 (v the stored velocity, which holds
         * the whole step's gravity); at the impact that is the stored one
         * less the gravity of the time after it, plus g dt/2. Bouncing the
         * stored velocity sent every bounce off up to g dt faster than the
         * ball came in (a low bounce never died); bouncing it less all of
         * the later gravity lost g dt/2 each bounce (the apex of an elastic
         * bounce sank 8 px a bounce at 120 Hz). */
        double gathered_later = gravity * (left + then - 0.5 * step_dt);
        vy -= gathered_later;
        bp_collide_surface(&law, nx, ny, r, inv_mass, inv_inertia, &vx, &vy, &w,
                           p->restitution, rest_speed);
        vy += gathered_later;
        /* Too slow off the surface to leave it within the step, the ball
         * stays on it, pressed on by that gravity, and friction takes its
         * part. */
        bp_collide_surface(&law, nx, ny, r, inv_mass, inv_inertia, &vx, &vy, &w, 0.0,
                           rest_speed);
        /* Still sliding on the previous surface (no speed off it), and this
         * contact is a resting one on another surface: the ball is wedged
         * between the two, and the velocity that came into both is what
         * they must stop, spin as it came in (the friction the velocity no
         * longer shows must not stay in the spin: that made energy). The
         * same surface met again along a slide is no wedge. */
        double slide_tol = BP_SPEED_ROUNDING * (fabs(vx0) + fabs(vy0) + rest_speed);
        bool same_surface = nx * prev_nx + ny * prev_ny > 1.0 - 1e-9;
        if (prev && !same_surface && fabs(vx0 * prev_nx + vy0 * prev_ny) <= slide_tol &&
            -(vx0 * nx + vy0 * ny) < rest_speed) {
            vx = in_x;
            vy = in_y;
            w = in_w;
            project_wedge(&vx, &vy, prev_nx, prev_ny, nx, ny);
        } else {
            in_x = vx0;
            in_y = vy0;
            in_w = w0;
        }
        prev = true;
        prev_nx = nx;
        prev_ny = ny;
        if (bp_contact_classify(nx, ny, p->gravity) == BP_CONTACT_FLOOR)
            world->flags[i] |= BP_BALL_GROUNDED;
        if (++impacts >= max_impacts || (stop_at_first && s > 0.0))
            break;
    }
    world->x[i] = x;
    world->y[i] = y;
    world->vx[i] = vx;
    world->vy[i] = vy;
    world->w[i] = w;
    set_anchor(world, i);
    return left;
}

/* Sweeps the displacement from the ball's anchor to where it is now, sliding
 * along the surfaces it meets, so a push never crosses a wall. */
static void sweep_push(const bp_world *world, size_t i, double *x, double *y)
{
    const bp_statics *st = world->statics;
    const bp_params *p = &world->params;
    double px = st->anchor_x[i], py = st->anchor_y[i];
    double dx = *x - px, dy = *y - py, r = world->r[i];
    if (dx == 0.0 && dy == 0.0)
        return;
    for (int k = 0; k < BP_PUSH_SLIDES; k++) {
        double s, nx = 0.0, ny = 0.0;
        if (!earliest_along(st, p, px, py, dx, dy, r, &s, &nx, &ny)) {
            *x = px + dx;
            *y = py + dy;
            return;
        }
        px += s * dx;
        py += s * dy;
        dx *= 1.0 - s;
        dy *= 1.0 - s;
        /* The surface takes the part of the push into it and, as Coulomb
         * friction does with an impulse, up to friction times that much of
         * the part along it: a ball pressed onto a slope by its neighbours
         * does not slide unless the push leans more than the friction
         * angle. */
        double dn = dx * nx + dy * ny;
        if (dn < 0.0) {
            double tx = -ny, ty = nx;
            double dt = dx * tx + dy * ty, hold = -dn * p->friction;
            dt = dt > hold ? dt - hold : dt < -hold ? dt + hold : 0.0;
            dx = dt * tx;
            dy = dt * ty;
        }
    }
    /* Out of slides: stay at the last contact. */
    *x = px;
    *y = py;
}

/* A ball being put back inside: where it is and how it moves. */
typedef struct contained {
    double x, y, vx, vy, w, r, inv_mass, inv_inertia, rest_speed;
    bp_contact_law law;
    bool grounded, pushed;
} contained;

/* The contact of the ball with one segment, if it touches: an overlap is
 * pushed out, a velocity into it bounces, and a floor contact grounds it.
 * Met twice (a wall listed in two cells), the second time finds it
 * touching and leaving. */
static inline void contain_against(const bp_params *p, const bp_segment *g, contained *b)
{
    double nx, ny;
    double d = bp_segment_distance(g, b->x, b->y, b->vx, b->vy, &nx, &ny);
    double R = b->r + g->r;
    if (d >= R + BP_TOUCH_OVER_R * b->r)
        return;
    if (d < R) {
        b->x += nx * (R - d);
        b->y += ny * (R - d);
        b->pushed = true;
    }
    bp_collide_surface(&b->law, nx, ny, b->r, b->inv_mass, b->inv_inertia, &b->vx, &b->vy, &b->w,
                       p->restitution, b->rest_speed);
    if (bp_contact_classify(nx, ny, p->gravity) == BP_CONTACT_FLOOR)
        b->grounded = true;
}

void bp_arena_contain(bp_world *world, size_t i, double rest_speed)
{
    const bp_statics *st = world->statics;
    const bp_params *p = &world->params;
    contained b = {.x = world->x[i], .y = world->y[i], .vx = world->vx[i], .vy = world->vy[i],
                   .w = world->w[i], .r = world->r[i], .inv_mass = world->inv_mass[i],
                   .inv_inertia = world->inv_inertia[i], .rest_speed = rest_speed,
                   .law = {p->friction, p->rolling}};
    double r = b.r, reach = bp_arena_touch_reach(r);
    if (st && st->ready) {
        if (st->anchors_valid && world->wall_count && st->anchor_id[i] == world->id[i])
            sweep_push(world, i, &b.x, &b.y);
        candidates c;
        /* Two rounds: leaving one surface of a corner may press into the
         * other. */
        for (int round = 0; round < 2; round++) {
            gather(st, p->width, p->height, b.x - reach, b.y - reach, b.x + reach, b.y + reach,
                   &c);
            b.pushed = false;
            for (size_t k = 0; k < c.n; k++)
                contain_against(p, c.seg[k], &b);
            if (c.in_cells)
                for (int cy = c.box.r0; cy <= c.box.r1; cy++)
                    for (int cx = c.box.c0; cx <= c.box.c1; cx++) {
                        uint32_t first, end;
                        bp_statics_cell(st, cx, cy, &first, &end);
                        for (uint32_t k = first; k < end; k++)
                            contain_against(p, &st->segs[st->grid.items[k]], &b);
                    }
            if (!b.pushed)
                break;
        }
        if (b.grounded)
            world->flags[i] |= BP_BALL_GROUNDED;
    }
    double x = b.x, y = b.y;
    /* Backstop for a ball too big for the arena, which the sides would push
     * back and forth: it is centred on that axis. */
    double lo_x = r, hi_x = p->width - r, lo_y = r, hi_y = p->height - r;
    if (lo_x > hi_x)
        lo_x = hi_x = 0.5 * p->width;
    if (lo_y > hi_y)
        lo_y = hi_y = 0.5 * p->height;
    x = x < lo_x ? lo_x : x > hi_x ? hi_x : x;
    y = y < lo_y ? lo_y : y > hi_y ? hi_y : y;
    world->x[i] = x;
    world->y[i] = y;
    world->vx[i] = b.vx;
    world->vy[i] = b.vy;
    world->w[i] = b.w;
    if (st && st->ready)
        set_anchor(world, i);
}
