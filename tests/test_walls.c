/* Static walls and continuous collision: tunnelling, corners, resting in a
 * V, sliding down a slope, a pile that must not creep, and fast balls that
 * must hand their momentum on instead of passing through. */
#include <math.h>
#include <string.h>

#include "arena.h"
#include "solver/solver.h"
#include "walls.h"
#include "step.h"
#include "tap.h"
#include "world.h"

#define BP_TEST_PI 3.14159265358979323846

static bp_params quiet(double w, double h)
{
    bp_params p = bp_params_default();
    p.width = w;
    p.height = h;
    p.gravity = 0.0;
    p.drag = 0.0;
    p.friction = 0.0;
    p.restitution = 1.0;
    return p;
}

static void add_wall(bp_world *w, double x1, double y1, double x2, double y2, double r)
{
    bp_world_insert_wall(w, (bp_wall){x1, y1, x2, y2, r});
}

/* Distance from a point to the segment (x1,y1)-(x2,y2). */
static double seg_dist(double px, double py, double x1, double y1, double x2, double y2)
{
    double dx = x2 - x1, dy = y2 - y1;
    double len2 = dx * dx + dy * dy;
    double t = len2 > 0.0 ? ((px - x1) * dx + (py - y1) * dy) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return hypot(px - (x1 + t * dx), py - (y1 + t * dy));
}

/* A 2 px ball fired at a zero-thickness wall across the arena at 1e5 and
 * 1e6 px/s moves 833 and 8333 px per 120 Hz step, hundreds of times its
 * size: the swept move must still stop it at x = 500 - 2 and send it back.
 * Its centre may touch x = 498 up to rounding (1e-9 px) and never pass. */
static void thin_wall_stops_a_fast_small_ball(double speed)
{
    bp_params p = quiet(1000.0, 1000.0);
    bp_world *w = bp_world_new(&p);
    add_wall(w, 500.0, 0.0, 500.0, 1000.0, 0.0);
    bp_world_insert_ball(w, 300.0, 500.0, speed, 0.0, 2.0, 0.0);
    bp_world_insert_ball(w, 300.0, 300.0, speed * 0.8, speed * 0.6, 2.0, 0.0);
    double max_x = 0.0;
    for (int s = 0; s < 240; s++) {
        step_or_bail(w);
        for (size_t i = 0; i < w->count; i++)
            if (w->x[i] > max_x)
                max_x = w->x[i];
    }
    char what[128];
    snprintf(what, sizeof what, "thin wall: 2 px balls at %.0e px/s never pass x = 500 - r",
             speed);
    TAP_OK(max_x <= 498.0 + 1e-9, what);
    if (max_x > 498.0 + 1e-9)
        printf("#   max x %.17g\n", max_x);
    snprintf(what, sizeof what, "thin wall: at %.0e px/s every ball stays left of the wall",
             speed);
    TAP_OK(w->x[0] < 500.0 && w->x[1] < 500.0, what);
    bp_world_destroy(w);
}

/* A closed box of four zero-thickness walls, balls inside at speeds from
 * 1e3 to 1e6 px/s, some aimed straight at the corners, under gravity and
 * with ball-ball contacts: after every step every centre is inside the box
 * by its radius (up to 1e-9 px of rounding). */
static void closed_box_holds_at_any_speed(void)
{
    bp_params p = quiet(1000.0, 1000.0);
    p.gravity = 980.0;
    bp_world *w = bp_world_new(&p);
    const double lo = 200.0, hi = 600.0;
    add_wall(w, lo, lo, hi, lo, 0.0);
    add_wall(w, hi, lo, hi, hi, 0.0);
    add_wall(w, hi, hi, lo, hi, 0.0);
    add_wall(w, lo, hi, lo, lo, 0.0);
    const double speeds[] = {1e3, 1e4, 1e5, 1e6};
    for (int k = 0; k < 4; k++) {
        double v = speeds[k] / sqrt(2.0);
        /* Straight at each corner from the centre line. */
        bp_world_insert_ball(w, 400.0, 400.0 - 40.0 * k, v, v, 3.0, 0.0);
        bp_world_insert_ball(w, 400.0 + 40.0 * k, 400.0, -v, -v, 4.0, 0.0);
        bp_world_insert_ball(w, 300.0, 300.0 + 20.0 * k, v, -v, 5.0, 0.0);
        bp_world_insert_ball(w, 500.0, 500.0 - 20.0 * k, speeds[k] * 0.6, speeds[k] * 0.8, 2.0,
                             0.0);
    }
    int escaped_at = -1;
    for (int s = 0; s < 600 && escaped_at < 0; s++) {
        step_or_bail(w);
        for (size_t i = 0; i < w->count; i++) {
            double r = w->r[i] - 1e-9;
            if (!(w->x[i] >= lo + r && w->x[i] <= hi - r && w->y[i] >= lo + r &&
                  w->y[i] <= hi - r))
                escaped_at = s;
        }
    }
    if (escaped_at >= 0)
        printf("#   first escape at step %d\n", escaped_at);
    TAP_OK(escaped_at < 0, "closed box: 16 balls at 1e3..1e6 px/s stay inside for 600 steps");
    bp_world_destroy(w);
}

/* A V of two 30-degree slopes meeting at (500, vy). A ball dropped off
 * centre bounces and rolls until restitution, friction and drag take its
 * energy; it must then sit at the bottom touching both walls: centre on the
 * axis, r / cos 30 above the vertex. Over the last second its speed must be
 * zero and its position still, to rounding (1e-9). Touching is to 1e-6 px
 * under the passes; the soft solver's contacts hold the ball by pressing
 * in, each by at most the sag of the whole weight (bp_soft_sag), so there
 * it is to that sag (the vertex: to twice it). */
static void ball_comes_to_rest_in_a_v(int64_t solver)
{
    bp_params p = quiet(1000.0, 800.0);
    p.solver = solver;
    p.gravity = 980.0;
    p.restitution = 0.5;
    p.friction = 0.2;
    p.drag = 0.05;
    bp_world *w = bp_world_new(&p);
    double slope = tan(30.0 * BP_TEST_PI / 180.0);
    double vx0 = 500.0, vy0 = 400.0 + 300.0 * slope;
    add_wall(w, 200.0, 400.0, vx0, vy0, 0.0);
    add_wall(w, vx0, vy0, 800.0, 400.0, 0.0);
    const double r = 10.0;
    bp_world_insert_ball(w, 430.0, 200.0, 60.0, 0.0, r, 0.0);
    for (int s = 0; s < 120 * 9; s++)
        step_or_bail(w);
    double x0 = w->x[0], y0 = w->y[0], max_move = 0.0, max_speed = 0.0;
    for (int s = 0; s < 120; s++) {
        step_or_bail(w);
        max_move = fmax(max_move, hypot(w->x[0] - x0, w->y[0] - y0));
        max_speed = fmax(max_speed, hypot(w->vx[0], w->vy[0]));
    }
    double tol = solver == BP_SOLVER_SOFT ? bp_soft_sag(&p) : 1e-6;
    TAP_NEAR(w->x[0], vx0, tol, "V: the ball rests on the axis of the V");
    TAP_NEAR(w->y[0], vy0 - r / cos(30.0 * BP_TEST_PI / 180.0), 2.0 * tol,
             "V: r / cos 30 above the vertex");
    TAP_NEAR(seg_dist(w->x[0], w->y[0], 200.0, 400.0, vx0, vy0), r, tol,
             "V: touching the left wall");
    TAP_NEAR(seg_dist(w->x[0], w->y[0], vx0, vy0, 800.0, 400.0), r, tol,
             "V: touching the right wall");
    TAP_NEAR(max_speed, 0.0, 1e-9, "V: speed 0 through the last second (no jitter)");
    TAP_NEAR(max_move, 0.0, 1e-9, "V: position still through the last second");
    TAP_OK((w->flags[0] & BP_BALL_GROUNDED) != 0, "V: the ball is grounded (30-degree floors)");
    bp_world_destroy(w);
}

/* Frictionless 30-degree slope: each step gravity adds g dt straight down
 * and the contact removes exactly the normal part, so the speed along the
 * slope grows by g sin 30 dt per step, with nothing else to it but rounding
 * (~1e-13 px/s per step). Over 100 steps the measured acceleration must be
 * g sin 30 = 490 px/s^2 to 1e-6; the ball must also stay on the slope (to
 * 1e-9 px; under the soft solver, pressed in by at most the sag of its
 * weight, bp_soft_sag). */
static void frictionless_slope_accelerates_at_g_sin_30(int64_t solver)
{
    bp_params p = quiet(2000.0, 1400.0);
    p.solver = solver;
    p.gravity = 980.0;
    p.restitution = 0.0;
    bp_world *w = bp_world_new(&p);
    double th = 30.0 * BP_TEST_PI / 180.0;
    double x1 = 100.0, y1 = 200.0, x2 = 1900.0, y2 = 200.0 + 1800.0 * tan(th);
    add_wall(w, x1, y1, x2, y2, 0.0);
    const double r = 10.0;
    /* On the slope at 100 px along, lifted by r along the upward normal. */
    double ux = cos(th), uy = sin(th), nx = sin(th), ny = -cos(th);
    double stop = 400.0 + 2.0 * r * 5.0 + r;
    add_wall(w, x1 + stop * ux, y1 + stop * uy, x1 + stop * ux + 60.0 * nx,
             y1 + stop * uy + 60.0 * ny, 0.0);
    bp_world_insert_ball(w, x1 + 100.0 * ux + r * nx, y1 + 100.0 * uy + r * ny, 0.0, 0.0, r, 0.0);
    for (int s = 0; s < 10; s++)
        step_or_bail(w);
    double v_a = w->vx[0] * ux + w->vy[0] * uy;
    double max_off = 0.0;
    bool grounded = true;
    for (int s = 0; s < 100; s++) {
        step_or_bail(w);
        max_off = fmax(max_off, fabs(seg_dist(w->x[0], w->y[0], x1, y1, x2, y2) - r));
        grounded = grounded && (w->flags[0] & BP_BALL_GROUNDED);
    }
    double v_b = w->vx[0] * ux + w->vy[0] * uy;
    double accel = (v_b - v_a) / (100.0 / p.hz);
    TAP_NEAR(accel, 980.0 * 0.5, 1e-6, "slope: acceleration g sin 30 on a frictionless 30 deg");
    TAP_NEAR(w->vx[0] * nx + w->vy[0] * ny, 0.0, 1e-9, "slope: no speed off the slope");
    TAP_NEAR(max_off, 0.0, solver == BP_SOLVER_SOFT ? bp_soft_sag(&p) : 1e-9,
             "slope: the ball stays touching the slope");
    TAP_OK(grounded, "slope: a 30 deg slope is a floor (grounded every step)");
    bp_world_destroy(w);
}

/* A resting pile on a 20-degree slope with friction 0.6 > tan 20 = 0.36: a
 * row of balls on the slope against a stop across it, and a second row in
 * the grooves on top. (Without the stop the row would roll away: a ball
 * rolls down any slope steeper than its rolling resistance allows, however
 * rough; jammed together, the balls' contacts rub against every roll.)
 * Once settled (2 s) nothing may move more than 0.01 px in the next 5 s; a
 * creep of even one ulp of speed per step would travel further. */
static void pile_on_a_slope_does_not_creep(int64_t solver)
{
    bp_params p = quiet(1200.0, 900.0);
    p.solver = solver;
    p.gravity = 980.0;
    p.restitution = 0.0;
    p.friction = 0.6;
    p.drag = 0.05;
    bp_world *w = bp_world_new(&p);
    double th = 20.0 * BP_TEST_PI / 180.0;
    double x1 = 50.0, y1 = 300.0, x2 = 1150.0, y2 = 300.0 + 1100.0 * tan(th);
    add_wall(w, x1, y1, x2, y2, 0.0);
    const double r = 10.0;
    double ux = cos(th), uy = sin(th), nx = sin(th), ny = -cos(th);
    double stop = 400.0 + 2.0 * r * 5.0 + r;
    add_wall(w, x1 + stop * ux, y1 + stop * uy, x1 + stop * ux + 60.0 * nx,
             y1 + stop * uy + 60.0 * ny, 0.0);
    for (int k = 0; k < 6; k++) {
        double a = 400.0 + 2.0 * r * k;
        bp_world_insert_ball(w, x1 + a * ux + r * nx, y1 + a * uy + r * ny, 0.0, 0.0, r, 0.0);
    }
    double lift = r + r * sqrt(3.0);
    for (int k = 0; k < 5; k++) {
        double a = 400.0 + r + 2.0 * r * k;
        bp_world_insert_ball(w, x1 + a * ux + lift * nx, y1 + a * uy + lift * ny, 0.0, 0.0, r,
                             0.0);
    }
    for (int s = 0; s < 240; s++)
        step_or_bail(w);
    /* By id: the step may reorder balls in memory. */
    double sx[16], sy[16];
    for (size_t i = 0; i < w->count; i++) {
        sx[w->id[i]] = w->x[i];
        sy[w->id[i]] = w->y[i];
    }
    for (int s = 0; s < 600; s++)
        step_or_bail(w);
    double creep = 0.0;
    for (size_t i = 0; i < w->count; i++)
        creep = fmax(creep, hypot(w->x[i] - sx[w->id[i]], w->y[i] - sy[w->id[i]]));
    TAP_NEAR(creep, 0.0, 0.01, "slope pile: no ball creeps more than 0.01 px in 5 s");
    bp_world_destroy(w);
}

/* A 5 px ball at 20,000 px/s moves 167 px per step, 33 diameters, towards a
 * resting 5 px ball. With e = 1 and equal masses the 1D law swaps the
 * speeds exactly (collide.h): the striker stops dead and the target leaves
 * at 20,000 px/s, in front of it. With e = 0.9 the target gets
 * (1 + e)/2 of the speed and momentum is conserved to rounding. */
static void fast_ball_hands_on_its_momentum(int64_t solver, double e)
{
    bp_params p = quiet(4000.0, 400.0);
    p.solver = solver;
    p.restitution = e;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 100.0, 200.0, 20000.0, 0.0, 5.0, 0.0);
    bp_world_insert_ball(w, 1000.0, 200.0, 0.0, 0.0, 5.0, 0.0);
    /* Contact after 890 px: in step 6; 8 steps leave the target 2 steps to
     * travel, well short of the far side at 4000 px. */
    for (int s = 0; s < 8; s++)
        step_or_bail(w);
    char what[128];
    size_t a = (size_t)bp_world_index_of(w, 0), b = (size_t)bp_world_index_of(w, 1);
    snprintf(what, sizeof what, "bullet e=%.1f: the target takes (1+e)/2 of 20000 px/s", e);
    TAP_NEAR(w->vx[b], (1.0 + e) / 2.0 * 20000.0, 1e-6, what);
    snprintf(what, sizeof what, "bullet e=%.1f: the striker keeps (1-e)/2 of it", e);
    TAP_NEAR(w->vx[a], (1.0 - e) / 2.0 * 20000.0, 1e-6, what);
    snprintf(what, sizeof what, "bullet e=%.1f: the striker did not pass the target", e);
    TAP_OK(w->x[a] < w->x[b], what);
    if (e == 1.0)
        TAP_NEAR(w->x[a], 990.0, 1e-6, "bullet e=1.0: the striker stopped where they touched");
    bp_world_destroy(w);
}

/* The same on the floor under gravity, against a ball that has rested there
 * for 2 s (long enough to be put to sleep): the hit must wake it and hand it
 * the momentum, not bounce off a frozen ball. Frictionless floor, e = 1:
 * the speeds swap exactly as in free space. Under the soft solver the
 * target rests deeper in the floor than the striker skims it, by the
 * contact's give under its weight (bp_soft_sag), so the line of centres
 * tilts by sag / 2r: the striker keeps v (sag / 2r)^2 (1.5e-4 px/s here)
 * and the target takes the rest. */
static void fast_ball_wakes_a_resting_ball(int64_t solver)
{
    bp_params p = quiet(4000.0, 400.0);
    p.solver = solver;
    p.gravity = 980.0;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 1000.0, 395.0, 0.0, 0.0, 5.0, 0.0);
    for (int s = 0; s < 240; s++)
        step_or_bail(w);
    bp_world_insert_ball(w, 100.0, 395.0, 20000.0, 0.0, 5.0, 0.0);
    for (int s = 0; s < 8; s++)
        step_or_bail(w);
    int64_t target = bp_world_index_of(w, 0), striker = bp_world_index_of(w, 1);
    double tilt = solver == BP_SOLVER_SOFT ? bp_soft_sag(&p) / 10.0 : 0.0;
    double kept = 20000.0 * tilt * tilt;
    TAP_NEAR(w->vx[target], 20000.0 - kept, 1e-6,
             "bullet on the floor: the resting ball takes it all (but the tilt's part)");
    TAP_NEAR(w->vx[striker], kept, 1e-9,
             "bullet on the floor: the striker stops (but the tilt's part)");
    TAP_OK(w->x[striker] < w->x[target], "bullet on the floor: no pass-through");
    bp_world_destroy(w);
}

/* A fast ball into a row of touching balls (a cradle at 30,000 px/s): the
 * momentum must travel down the row, none passed through. */
static void fast_ball_into_a_row(int64_t solver)
{
    bp_params p = quiet(6000.0, 400.0);
    p.solver = solver;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 100.0, 200.0, 30000.0, 0.0, 5.0, 0.0);
    for (int k = 0; k < 5; k++)
        bp_world_insert_ball(w, 1000.0 + 10.0 * k, 200.0, 0.0, 0.0, 5.0, 0.0);
    /* Resting bystanders off the path, so that the one fast ball is a small
     * minority (the sweep then files only the balls near its path). */
    for (int k = 0; k < 40; k++)
        bp_world_insert_ball(w, 100.0 + 20.0 * k, 350.0, 0.0, 0.0, 5.0, 0.0);
    for (int s = 0; s < 8; s++)
        step_or_bail(w);
    /* By id: the step may reorder balls in memory. */
    size_t at[6];
    for (uint32_t id = 0; id < 6; id++)
        at[id] = (size_t)bp_world_index_of(w, id);
    bool ordered = true;
    for (size_t k = 0; k + 1 < 6; k++)
        ordered = ordered && w->x[at[k]] < w->x[at[k + 1]];
    double px = 0.0;
    for (size_t k = 0; k < 6; k++)
        px += w->vx[at[k]];
    TAP_OK(ordered, "row: no ball passed through another");
    TAP_NEAR(px, 30000.0, 1e-6, "row: momentum conserved");
    TAP_OK(w->vx[at[5]] > 10000.0, "row: the last ball of the row carries the momentum away");
    bp_world_destroy(w);
}

/* The grounded flag: on a floor yes, against a vertical wall only no, and
 * contact classes by the 45-degree limit. */
static void contacts_are_classed_by_their_normal(void)
{
    TAP_OK(bp_contact_classify(0.0, -1.0, 980.0) == BP_CONTACT_FLOOR, "class: up is floor");
    TAP_OK(bp_contact_classify(-0.8, -0.6, 980.0) == BP_CONTACT_WALL,
           "class: 53 deg from up is a wall");
    TAP_OK(bp_contact_classify(0.0, 1.0, 980.0) == BP_CONTACT_CEILING, "class: down is ceiling");
    TAP_OK(bp_contact_classify(0.0, 1.0, -980.0) == BP_CONTACT_FLOOR,
           "class: with gravity up, a downward normal is the floor");

    bp_params p = quiet(400.0, 400.0);
    p.gravity = 980.0;
    p.restitution = 0.0;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 200.0, 390.0, 0.0, 0.0, 10.0, 0.0);
    for (int s = 0; s < 10; s++)
        step_or_bail(w);
    TAP_OK((w->flags[0] & BP_BALL_GROUNDED) != 0, "grounded: a ball on the floor");
    bp_world_destroy(w);

    p.gravity = 0.0;
    w = bp_world_new(&p);
    bp_world_insert_ball(w, 390.0, 200.0, 100.0, 0.0, 10.0, 0.0);
    for (int s = 0; s < 2; s++)
        step_or_bail(w);
    TAP_OK((w->flags[0] & BP_BALL_GROUNDED) == 0, "grounded: not against a side wall");
    bp_world_destroy(w);
}

/* A fixed pseudo-random sequence in [0, 1) (a linear congruential
 * generator: the same walls on every machine). */
static double lcg(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0;
}

/* Distance from the segment (x1,y1)-(x2,y2) to the box [bx0,bx1]x[by0,by1]:
 * 0 if the segment enters the box (clipped against its four slabs), else
 * the least of the ends' distances to the box and the corners' distances
 * to the segment. */
static double seg_box_dist(double x1, double y1, double x2, double y2, double bx0, double by0,
                           double bx1, double by1)
{
    double t0 = 0.0, t1 = 1.0, d[2] = {x2 - x1, y2 - y1}, o[2] = {x1, y1};
    double lo[2] = {bx0, by0}, hi[2] = {bx1, by1};
    for (int a = 0; a < 2 && t0 <= t1; a++) {
        if (d[a] == 0.0) {
            if (o[a] < lo[a] || o[a] > hi[a])
                t0 = 2.0;
            continue;
        }
        double ta = (lo[a] - o[a]) / d[a], tb = (hi[a] - o[a]) / d[a];
        t0 = fmax(t0, fmin(ta, tb));
        t1 = fmin(t1, fmax(ta, tb));
    }
    if (t0 <= t1)
        return 0.0;
    double best = INFINITY;
    double ends[2][2] = {{x1, y1}, {x2, y2}};
    for (int e = 0; e < 2; e++) {
        double dx = fmax(fmax(bx0 - ends[e][0], 0.0), ends[e][0] - bx1);
        double dy = fmax(fmax(by0 - ends[e][1], 0.0), ends[e][1] - by1);
        best = fmin(best, hypot(dx, dy));
    }
    double corners[4][2] = {{bx0, by0}, {bx1, by0}, {bx0, by1}, {bx1, by1}};
    for (int c = 0; c < 4; c++)
        best = fmin(best, seg_dist(corners[c][0], corners[c][1], x1, y1, x2, y2));
    return best;
}

/* Whether the query reported wall k: in its list, or in a cell of its box. */
static bool reported(const bp_statics *st, size_t found, const uint32_t *list,
                     const bp_cell_box *box, uint32_t k)
{
    if (found != SIZE_MAX) {
        for (size_t j = 0; j < found; j++)
            if (list[j] == k)
                return true;
        return false;
    }
    for (int cy = box->r0; cy <= box->r1; cy++)
        for (int cx = box->c0; cx <= box->c1; cx++) {
            uint32_t first, end;
            bp_statics_cell(st, cx, cy, &first, &end);
            for (uint32_t j = first; j < end; j++)
                if (st->grid.items[j] == k)
                    return true;
        }
    return false;
}

/* The wall grid, at a few hundred walls (coarse cells) and at 5,000 (fine
 * ones): every wall whose capsule meets a box is reported for it, a list
 * comes in index order with no wall twice, whatever the box's size (1 px
 * to most of the arena) and place (also beyond the walls). */
static void wall_grid_reports_every_wall_in_reach(size_t walls)
{
    bp_params p = quiet(2000.0, 1500.0);
    bp_world *w = bp_world_new(&p);
    uint64_t rng = 7;
    for (size_t k = 0; k < walls; k++) {
        double x = 100.0 + 1800.0 * lcg(&rng), y = 100.0 + 1300.0 * lcg(&rng);
        double len = k % 3 == 0 ? 0.0 : 300.0 * lcg(&rng) * lcg(&rng), a = 6.3 * lcg(&rng);
        add_wall(w, x, y, fmin(fmax(x + len * cos(a), 0.0), 2000.0),
                 fmin(fmax(y + len * sin(a), 0.0), 1500.0), 6.0 * lcg(&rng) * lcg(&rng));
    }
    bool prepared = bp_statics_prepare(w);
    const bp_statics *st = w->statics;
    size_t missed = 0, unsorted = 0, listed = 0;
    for (int q = 0; q < 2000 && prepared; q++) {
        double size = q % 10 == 0 ? 1500.0 * lcg(&rng) : 1.0 + 60.0 * lcg(&rng);
        double x0 = -200.0 + 2400.0 * lcg(&rng), y0 = -200.0 + 1900.0 * lcg(&rng);
        double x1 = x0 + size, y1 = y0 + size * (0.2 + lcg(&rng));
        uint32_t list[BP_WALLS_QUERY_MAX];
        bp_cell_box box;
        size_t found = bp_statics_query(st, x0, y0, x1, y1, list, &box);
        if (found != SIZE_MAX) {
            listed++;
            for (size_t j = 1; j < found; j++)
                unsorted += list[j - 1] >= list[j];
        }
        for (uint32_t k = 0; k < walls; k++) {
            const bp_wall *g = &w->walls[k];
            if (seg_box_dist(g->x1, g->y1, g->x2, g->y2, x0, y0, x1, y1) <= g->r &&
                !reported(st, found, list, &box, k))
                missed++;
        }
    }
    char what[160];
    snprintf(what, sizeof what, "wall grid, %zu walls: every wall meeting a box is reported (%zu "
             "of 2000 boxes as a list)", walls, listed);
    TAP_OK(prepared && missed == 0, what);
    if (missed)
        printf("#   %zu walls missed\n", missed);
    snprintf(what, sizeof what, "wall grid, %zu walls: a list is in index order, each wall once",
             walls);
    TAP_OK(prepared && unsorted == 0, what);
    bp_world_destroy(w);
}

/* 100,000 pegs (the most a scene may hold) over a 1024x768 arena, one in
 * 7.9 px^2: a box of 24x24 px (a ball of radius 12) meets about 75 of
 * them, and the grid must hand it those as a list (at most
 * BP_WALLS_QUERY_MAX), at every place: not every peg of the arena, as a
 * grid of a few thousand cells had to. */
static void dense_pegs_are_handed_out_a_few_at_a_time(void)
{
    bp_params p = quiet(1024.0, 768.0);
    bp_world *w = bp_world_new(&p);
    uint64_t rng = 11;
    for (int k = 0; k < 100000; k++) {
        double x = 1024.0 * lcg(&rng), y = 768.0 * lcg(&rng);
        add_wall(w, x, y, x, y, 0.0);
    }
    bool prepared = bp_statics_prepare(w);
    size_t most = 0, overflows = 0;
    for (int q = 0; q < 1000 && prepared; q++) {
        double x = 1000.0 * lcg(&rng), y = 744.0 * lcg(&rng);
        uint32_t list[BP_WALLS_QUERY_MAX];
        bp_cell_box box;
        size_t found = bp_statics_query(w->statics, x, y, x + 24.0, y + 24.0, list, &box);
        if (found == SIZE_MAX)
            overflows++;
        else if (found > most)
            most = found;
    }
    char what[160];
    snprintf(what, sizeof what, "100,000 pegs: a 24 px box is handed a list of at most %zu pegs, "
             "never all", most);
    TAP_OK(prepared && overflows == 0, what);
    bp_world_destroy(w);
}

/* Small balls fired at 1e5..1e6 px/s through a forest of 10,000 pegs (r 1,
 * 10 px apart) towards a zero-thickness wall, under solver: with walls
 * this many, the swept move looks only at the walls along its path, piece
 * by piece, and must still stop at the first one. No centre ever passes
 * x = 500 - r, and none ends a step inside a peg (3 px from its centre),
 * less 1e-6 px of the passes' rounding, or under the soft solver less
 * 0.05 r (2: 0.1 px), what its contacts' springs may press in (a ball
 * through would be pixels off). */
static bp_world *peg_forest(int64_t solver)
{
    bp_params p = quiet(1000.0, 1000.0);
    p.solver = solver;
    bp_world *w = bp_world_new(&p);
    for (int gy = 0; gy < 100; gy++)
        for (int gx = 0; gx < 100; gx++)
            add_wall(w, 5.0 + 10.0 * gx, 5.0 + 10.0 * gy, 5.0 + 10.0 * gx, 5.0 + 10.0 * gy, 1.0);
    add_wall(w, 500.0, 0.0, 500.0, 1000.0, 0.0);
    uint64_t rng = 3;
    for (int k = 0; k < 20; k++) {
        double speed = 1e5 + 9e5 * lcg(&rng), a = 6.3 * lcg(&rng);
        bp_world_insert_ball(w, 10.0 + 10.0 * (k % 40), 10.0 + 10.0 * (k / 4), speed * cos(a),
                             speed * sin(a), 2.0, 0.0);
    }
    return w;
}

static void fast_balls_in_a_peg_forest(int64_t solver, const char *who)
{
    double slack = solver == BP_SOLVER_SOFT ? 0.05 * 2.0 : 1e-6;
    bp_world *w = peg_forest(solver);
    double max_x = 0.0, closest = INFINITY;
    for (int s = 0; s < 240; s++) {
        step_or_bail(w);
        for (size_t i = 0; i < w->count; i++) {
            max_x = fmax(max_x, w->x[i]);
            double gx = fmin(fmax(round((w->x[i] - 5.0) / 10.0), 0.0), 99.0);
            double gy = fmin(fmax(round((w->y[i] - 5.0) / 10.0), 0.0), 99.0);
            closest =
                fmin(closest, hypot(w->x[i] - (5.0 + 10.0 * gx), w->y[i] - (5.0 + 10.0 * gy)));
        }
    }
    char what[128];
    printf("# %speg forest: rightmost centre %.9g px, closest to a peg %.9g px\n", who, max_x,
           closest);
    snprintf(what, sizeof what, "%speg forest: balls at up to 1e6 px/s never pass the thin wall",
             who);
    TAP_OK(max_x <= 498.0 + slack, what);
    snprintf(what, sizeof what, "%speg forest: no ball ends a step inside a peg", who);
    TAP_OK(closest >= 3.0 - slack, what);
    if (solver == BP_SOLVER_SOFT) {
        /* Walls met at every gap, a touching one included: the sweeps'
         * lanes must give the scalar sweep's bits here too. */
        bp_soft_use_lanes(false);
        bp_world *scalar = peg_forest(solver);
        for (int s = 0; s < 240; s++)
            step_or_bail(scalar);
        bp_soft_use_lanes(true);
        size_t bytes = w->count * sizeof(double);
        TAP_OK(scalar->count == w->count && memcmp(scalar->x, w->x, bytes) == 0 &&
                   memcmp(scalar->y, w->y, bytes) == 0 && memcmp(scalar->vx, w->vx, bytes) == 0,
               "soft: peg forest: the sweeps' lanes give the scalar sweep's bits");
        bp_world_destroy(scalar);
    }
    bp_world_destroy(w);
}

int main(void)
{
    thin_wall_stops_a_fast_small_ball(1e5);
    thin_wall_stops_a_fast_small_ball(1e6);
    closed_box_holds_at_any_speed();
    for (int64_t solver = BP_SOLVER_PASSES; solver <= BP_SOLVER_SOFT; solver++) {
        printf("# under the %s\n", solver == BP_SOLVER_SOFT ? "soft solver" : "passes");
        ball_comes_to_rest_in_a_v(solver);
        frictionless_slope_accelerates_at_g_sin_30(solver);
        pile_on_a_slope_does_not_creep(solver);
        fast_ball_hands_on_its_momentum(solver, 1.0);
        fast_ball_hands_on_its_momentum(solver, 0.9);
        fast_ball_wakes_a_resting_ball(solver);
        fast_ball_into_a_row(solver);
    }
    printf("# the rest under the passes\n");
    contacts_are_classed_by_their_normal();
    wall_grid_reports_every_wall_in_reach(300);
    wall_grid_reports_every_wall_in_reach(5000);
    dense_pegs_are_handed_out_a_few_at_a_time();
    fast_balls_in_a_peg_forest(BP_SOLVER_PASSES, "");
    fast_balls_in_a_peg_forest(BP_SOLVER_SOFT, "soft: ");
    return tap_done();
}
