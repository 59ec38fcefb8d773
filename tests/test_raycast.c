/* Ray casts against hand-computed geometry: distances, entry points and
 * normals, the order of hits, rays that start inside a ball, rays that miss
 * everything, and the aim preview against the step it must agree with. */
#include <math.h>

#include "raycast.h"
#include "step.h"
#include "tap.h"
#include "walls.h"
#include "world.h"

/* 400 x 300, no gravity: ball 0 at (100,100) r 10, ball 1 at (200,100)
 * r 20, wall 0 from (300,50) to (300,250) with r 2. */
static bp_world *small_world(void)
{
    bp_params p = bp_params_default();
    p.width = 400.0;
    p.height = 300.0;
    p.gravity = 0.0;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 100.0, 100.0, 0.0, 0.0, 10.0, 0.0);
    bp_world_insert_ball(w, 200.0, 100.0, 0.0, 0.0, 20.0, 0.0);
    bp_world_insert_wall(w, (bp_wall){300.0, 50.0, 300.0, 250.0, 2.0});
    return w;
}

static bool hit_is(const bp_ray_hit *h, bp_hit_kind kind, uint32_t id, double dist, double x,
                   double y, double nx, double ny)
{
    const double tol = 1e-9;
    bool ok = h->kind == kind && h->id == id && fabs(h->dist - dist) <= tol &&
              fabs(h->x - x) <= tol && fabs(h->y - y) <= tol && fabs(h->nx - nx) <= tol &&
              fabs(h->ny - ny) <= tol;
    if (!ok)
        printf("#   got %s %u dist %.17g at (%.17g, %.17g) n (%.17g, %.17g)\n",
               bp_hit_kind_name(h->kind), (unsigned)h->id, h->dist, h->x, h->y, h->nx, h->ny);
    return ok;
}

/* Along y = 100 from x = 20: ball 0's left edge at 90 (70 px), ball 1's at
 * 180 (160 px), the wall's face at 300 - 2 (278 px), the right side at 400
 * (380 px); every normal points back at the ray, (-1, 0). */
static void straight_ray_enters_everything_in_order(void)
{
    bp_world *w = small_world();
    bp_ray_hit h[8];
    size_t n = bp_raycast(w, 20.0, 100.0, 5.0, 0.0, 1e6, h, 8);
    TAP_OK(n == 4, "ray along y=100: four shapes entered");
    TAP_OK(n >= 1 && hit_is(&h[0], BP_HIT_BALL, 0, 70.0, 90.0, 100.0, -1.0, 0.0),
           "ray: ball 0 first, 70 px, at its left edge");
    TAP_OK(n >= 2 && hit_is(&h[1], BP_HIT_BALL, 1, 160.0, 180.0, 100.0, -1.0, 0.0),
           "ray: ball 1 second, 160 px");
    TAP_OK(n >= 3 && hit_is(&h[2], BP_HIT_WALL, 0, 278.0, 298.0, 100.0, -1.0, 0.0),
           "ray: the wall's face 2 px before its core, 278 px");
    TAP_OK(n >= 4 && hit_is(&h[3], BP_HIT_ARENA, BP_SIDE_RIGHT, 380.0, 400.0, 100.0, -1.0, 0.0),
           "ray: the right side last, 380 px, normal into the arena");
    bp_ray_hit few[2];
    TAP_OK(bp_raycast(w, 20.0, 100.0, 1.0, 0.0, 1e6, few, 2) == 4 && few[1].id == 1,
           "ray: a short buffer gets the nearest hits and the full count");
    TAP_OK(bp_raycast(w, 20.0, 100.0, 1.0, 0.0, 100.0, h, 8) == 1,
           "ray: max_dist 100 px reaches only ball 0");
    bp_world_destroy(w);
}

/* Along y = 110 into ball 1 (centre (200,100), r 20): the chord enters at
 * x = 200 - sqrt(20^2 - 10^2) = 182.679..., normal ((x-200)/20, 10/20). */
static void oblique_ray_meets_a_ball_off_centre(void)
{
    bp_world *w = small_world();
    bp_ray_hit h[8];
    size_t n = bp_raycast(w, 120.0, 110.0, 1.0, 0.0, 1e6, h, 8);
    double x = 200.0 - sqrt(300.0);
    TAP_OK(n >= 1 && hit_is(&h[0], BP_HIT_BALL, 1, x - 120.0, x, 110.0, (x - 200.0) / 20.0, 0.5),
           "oblique: chord entry and normal (-sqrt3/2, 1/2) on ball 1");
    /* Straight down onto the wall's top end cap: the cap circle of radius 2
     * around (300,50) is entered at (300,48), normal (0,-1). */
    n = bp_raycast(w, 300.0, 10.0, 0.0, 1.0, 1e6, h, 8);
    TAP_OK(n >= 1 && hit_is(&h[0], BP_HIT_WALL, 0, 38.0, 300.0, 48.0, 0.0, -1.0),
           "cap: a ray down onto the wall's end meets its rounded cap");
    /* A diagonal from (250,150) at 45 degrees onto the wall face x = 298. */
    n = bp_raycast(w, 250.0, 150.0, 1.0, 1.0, 1e6, h, 8);
    TAP_OK(n >= 1 && hit_is(&h[0], BP_HIT_WALL, 0, 48.0 * sqrt(2.0), 298.0, 198.0, -1.0, 0.0),
           "diagonal: 48 sqrt2 px to the wall face at (298, 198)");
    bp_world_destroy(w);
}

/* From ball 0's centre straight down: it is hit at once (distance 0, normal
 * against the ray), then nothing until the floor 200 px down. */
static void ray_from_inside_a_ball(void)
{
    bp_world *w = small_world();
    bp_ray_hit h[8];
    size_t n = bp_raycast(w, 100.0, 100.0, 0.0, 2.0, 1e6, h, 8);
    TAP_OK(n == 2, "inside: two hits");
    TAP_OK(n >= 1 && hit_is(&h[0], BP_HIT_BALL, 0, 0.0, 100.0, 100.0, 0.0, -1.0),
           "inside: the ball it starts in, at distance 0");
    TAP_OK(n >= 2 && hit_is(&h[1], BP_HIT_ARENA, BP_SIDE_BOTTOM, 200.0, 100.0, 300.0, 0.0, -1.0),
           "inside: then the floor, 200 px down");
    bp_world_destroy(w);
}

/* Rays through empty space reach exactly one side, and nothing beyond it. */
static void ray_missing_everything_hits_the_arena(void)
{
    bp_world *w = small_world();
    bp_ray_hit h[8];
    size_t n = bp_raycast(w, 50.0, 250.0, -1.0, 0.0, 1e6, h, 8);
    TAP_OK(n == 1 && hit_is(&h[0], BP_HIT_ARENA, BP_SIDE_LEFT, 50.0, 0.0, 250.0, 1.0, 0.0),
           "miss: left side 50 px away, normal (1, 0)");
    n = bp_raycast(w, 50.0, 250.0, 0.0, -1.0, 1e6, h, 8);
    TAP_OK(n == 1 && hit_is(&h[0], BP_HIT_ARENA, BP_SIDE_TOP, 250.0, 50.0, 0.0, 0.0, 1.0),
           "miss: top side 250 px up, normal (0, 1)");
    n = bp_raycast(w, 350.0, 250.0, 3.0, 4.0, 1e6, h, 8);
    TAP_OK(n == 1 && hit_is(&h[0], BP_HIT_ARENA, BP_SIDE_BOTTOM, 62.5, 387.5, 300.0, 0.0, -1.0),
           "miss: a 3-4-5 ray to the floor, 62.5 px, and no side beyond it");
    bp_world_destroy(w);
}

/* A circle of radius 5 swept along y = 100, ignoring ball 0: it touches ball
 * 1 when its centre is 25 px from ball 1's, at x = 175. */
static void circle_cast_ignores_and_grows(void)
{
    bp_world *w = small_world();
    bp_ray_hit h;
    TAP_OK(bp_raycast_first(w, 20.0, 100.0, 1.0, 0.0, 1e6, 5.0, 0, &h) &&
               hit_is(&h, BP_HIT_BALL, 1, 155.0, 175.0, 100.0, -1.0, 0.0),
           "circle cast: ball 0 ignored, touches ball 1 at centre x = 175");
    TAP_OK(bp_raycast_first(w, 20.0, 100.0, 1.0, 0.0, 1e6, 5.0, -1, &h) && h.id == 0 &&
               fabs(h.dist - 65.0) < 1e-9,
           "circle cast: without ignoring, ball 0 at 65 px");
    bp_world_destroy(w);
}

/* The aim preview steps exactly like the world, under either solver (the
 * soft one moves a ball in four substeps a step): a ball thrown in an
 * empty world must pass through the predicted points, and the flight must
 * end where the ball first touches the floor (centre 5 px above it). */
static void aim_preview_follows_the_step(int64_t solver)
{
    bp_params p = bp_params_default();
    p.solver = solver;
    p.width = 800.0;
    p.height = 600.0;
    p.gravity = 980.0;
    p.drag = 0.3;
    bp_world *empty = bp_world_new(&p);
    double xs[400], ys[400];
    bp_ray_hit hit;
    bool found;
    size_t n = bp_predict_flight(empty, 100.0, 100.0, 150.0, -200.0, 5.0, -1, 3.0, xs, ys, 400,
                                 &hit, &found);
    TAP_OK(found && hit.kind == BP_HIT_ARENA && hit.id == BP_SIDE_BOTTOM,
           "preview: the flight ends on the floor");
    TAP_NEAR(ys[n - 1], 595.0, 1e-9, "preview: its last point is the centre touching the floor");

    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 100.0, 100.0, 150.0, -200.0, 5.0, 0.0);
    double worst = 0.0;
    for (size_t k = 1; k + 1 < n; k++) {
        step_or_bail(w);
        worst = fmax(worst, hypot(w->x[0] - xs[k], w->y[0] - ys[k]));
    }
    TAP_NEAR(worst, 0.0, 1e-9, "preview: every point is where the real ball is at that step");
    double vy_before = w->vy[0];
    step_or_bail(w);
    TAP_OK(ys[n - 2] < 595.0 && vy_before > 0.0 && w->vy[0] < 0.0,
           "preview: the real ball bounces off the floor in the step the preview ends in");
    bp_world_destroy(w);

    /* Without gravity, a ball in the way cuts the flight where the two
     * would touch. */
    empty->params.gravity = 0.0;
    bp_world_insert_ball(empty, 400.0, 100.0, 0.0, 0.0, 20.0, 0.0);
    n = bp_predict_flight(empty, 100.0, 100.0, 1000.0, 0.0, 5.0, -1, 3.0, xs, ys, 400, &hit,
                          &found);
    TAP_OK(found && hit.kind == BP_HIT_BALL && hit.id == 0, "preview: cut at a ball in the way");
    TAP_NEAR(hypot(xs[n - 1] - 400.0, ys[n - 1] - 100.0), 25.0, 1e-9,
             "preview: the cut is where the two surfaces touch (25 px apart)");
    bp_world_destroy(empty);
}

int main(void)
{
    straight_ray_enters_everything_in_order();
    oblique_ray_meets_a_ball_off_centre();
    ray_from_inside_a_ball();
    ray_missing_everything_hits_the_arena();
    circle_cast_ignores_and_grows();
    aim_preview_follows_the_step(BP_SOLVER_PASSES);
    aim_preview_follows_the_step(BP_SOLVER_SOFT);
    return tap_done();
}
