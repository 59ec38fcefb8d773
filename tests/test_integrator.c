/* The step as a whole: integrator, drag, walls and crowds, against results
 * worked out by hand from the equations of motion. */
#include <math.h>

#include "rng.h"
#include "solver/solver.h"
#include "spawn.h"
#include "step.h"
#include "tap.h"
#include "world.h"

static bp_params quiet_params(void)
{
    bp_params p = bp_params_default();
    p.gravity = 0.0;
    p.drag = 0.0;
    p.friction = 0.0;
    p.restitution = 1.0;
    return p;
}

/* Semi-implicit Euler with v(0) = 0 over m substeps of h (the passes take
 * a step whole, m = n and h = dt; the soft solver in BP_SOFT_SUBSTEPS):
 * v(n) = g h m, and y(n) = y0 + h * sum_{k=1..m} g h k = y0 + g h^2 m(m+1)/2.
 * That differs from the exact 1/2 g t^2 by g h t / 2 (the scheme uses the
 * velocity at the end of each substep), here at most 980/120/2 = 4.08 px
 * after 1 s, 0.8% of the 490 px drop. Rounding over 480 additions of
 * numbers < 1e6 stays below 1e-9 px. */
static void free_fall_matches_the_discrete_and_the_exact_law(int64_t solver)
{
    bp_params p = quiet_params();
    p.solver = solver;
    p.gravity = 980.0;
    p.hz = 120.0;
    p.width = 1000.0;
    p.height = 100000.0;
    bp_world *w = bp_world_new(&p);
    const int pieces = solver == BP_SOLVER_SOFT ? BP_SOFT_SUBSTEPS : 1;
    const double y0 = 100.0, h = 1.0 / p.hz / pieces;
    bp_world_insert_ball(w, 500.0, y0, 0.0, 0.0, 10.0, 0.0);
    const int n = 120, m = n * pieces;
    for (int s = 0; s < n; s++)
        step_or_bail(w);
    double t = m * h;
    double discrete = y0 + p.gravity * h * h * m * (m + 1) / 2.0;
    const char *who = solver == BP_SOLVER_SOFT ? "soft " : "";
    char what[128];
    snprintf(what, sizeof what, "%sfree fall: y(n) = y0 + g h^2 m(m+1)/2 exactly, m = %d", who,
             m);
    TAP_NEAR(w->y[0], discrete, 1e-9, what);
    snprintf(what, sizeof what, "%sfree fall: v(t) = g t", who);
    TAP_NEAR(w->vy[0], p.gravity * t, 1e-9, what);
    snprintf(what, sizeof what, "%sfree fall: within g h t / 2 of 1/2 g t^2", who);
    TAP_NEAR(w->y[0] - y0, 0.5 * p.gravity * t * t, p.gravity * h * t / 2.0 + 1e-9, what);
    snprintf(what, sizeof what, "%sfree fall: no sideways motion", who);
    TAP_OK(w->x[0] == 500.0 && w->vx[0] == 0.0, what);
    bp_world_destroy(w);
}

/* The soft solver moves a step in four substeps of h = dt/4, and a step
 * in which a ball would travel more than 2.5 of its radii in two or four
 * pieces of those: a ball of radius 2 goes past that at 600 px/s, half a
 * second into its fall. A ball split so has its velocity shifted for the
 * shorter substeps and back (step.c), so its flight is the unsplit one's:
 * v(n) = g dt n, and semi-implicit Euler over m = 4n substeps of h,
 * y(n) = y0 + g h^2 m(m+1)/2, exactly (to the rounding of 960 additions).
 * Without the shift the flight bent at every change of the split. */
static void free_fall_in_pieces_keeps_its_gravity(void)
{
    bp_params p = quiet_params();
    p.solver = BP_SOLVER_SOFT;
    p.gravity = 980.0;
    p.width = 1000.0;
    p.height = 100000.0;
    bp_world *w = bp_world_new(&p);
    const double y0 = 100.0, h = 1.0 / p.hz / 4.0;
    bp_world_insert_ball(w, 500.0, y0, 0.0, 0.0, 2.0, 0.0);
    const int n = 120, m = 4 * n;
    for (int s = 0; s < n; s++)
        step_or_bail(w);
    TAP_NEAR(w->vy[0], p.gravity * h * m, 1e-9, "soft free fall, split into pieces: v(t) = g t");
    TAP_NEAR(w->y[0], y0 + p.gravity * h * h * m * (m + 1) / 2.0, 1e-9,
             "soft free fall, split into pieces: y = y0 + g h^2 m(m+1)/2 over its 4n substeps");
    bp_world_destroy(w);
}

/* Drag alone: v(t) = v0 exp(-D t) at any step rate, because each step
 * multiplies by exp(-D dt) exactly (up to rounding of ~1e-16 per step, so
 * 1e-12 relative after 480 steps). The per-frame divide v /= 1 + D dt would
 * miss by 0.4% at 60 Hz and 0.1% at 240 Hz. */
static double speed_after_drag(double hz, double seconds)
{
    bp_params p = quiet_params();
    p.drag = 0.5;
    p.hz = hz;
    p.width = 100000.0;
    p.height = 1000.0;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 100.0, 500.0, 1000.0, 0.0, 10.0, 0.0);
    int steps = (int)lround(seconds * hz);
    for (int s = 0; s < steps; s++)
        step_or_bail(w);
    double v = w->vx[0];
    bp_world_destroy(w);
    return v;
}

static void drag_decays_exponentially_at_any_rate(void)
{
    double want = 1000.0 * exp(-0.5 * 2.0);
    double v60 = speed_after_drag(60.0, 2.0), v240 = speed_after_drag(240.0, 2.0);
    TAP_NEAR(v60, want, want * 1e-12, "drag: v0 exp(-D t) at 60 Hz");
    TAP_NEAR(v240, want, want * 1e-12, "drag: v0 exp(-D t) at 240 Hz");
    TAP_NEAR(v60, v240, want * 1e-12, "drag: 60 Hz and 240 Hz agree");
}

/* Drop from rest with the bottom of the ball h above the floor, drag 0:
 * it hits at sqrt(2 g h), leaves at e sqrt(2 g h) and rises to e^2 h.
 * The discrete step sees the floor up to v dt late (the ball sinks that far
 * before it is put back on the surface), and the scheme's g dt t / 2 drift
 * enters on the way down and the way up; each is at most v dt of height.
 * So |h'/h - e^2| <= 2 v dt / h: at 240 Hz, v = 885 px/s, h = 400 px that is
 * 0.018. Using e instead of e^2 would be 0.16 off. */
static void bounce_height_ratio(double e)
{
    bp_params p = quiet_params();
    p.gravity = 980.0;
    p.restitution = e;
    p.hz = 240.0;
    p.width = 200.0;
    p.height = 1000.0;
    bp_world *w = bp_world_new(&p);
    const double r = 10.0, h = 400.0;
    const double floor_y = p.height - r;
    bp_world_insert_ball(w, 100.0, floor_y - h, 0.0, 0.0, r, 0.0);
    int s = 0;
    while (w->vy[0] >= 0.0 && s < 100000) {
        step_or_bail(w);
        s++;
    }
    double apex = floor_y;
    while (w->vy[0] < 0.0 && s < 100000) {
        step_or_bail(w);
        if (w->y[0] < apex)
            apex = w->y[0];
        s++;
    }
    double ratio = (floor_y - apex) / h;
    double tol = 2.0 * sqrt(2.0 * p.gravity * h) / p.hz / h;
    printf("# e=%g: rose %.3f px of %.0f, ratio %.5f, tolerance %.4f\n", e, floor_y - apex, h,
           ratio, tol);
    char what[96];
    snprintf(what, sizeof what, "bounce: apex ratio is e^2 = %.2f for e = %.1f", e * e, e);
    TAP_NEAR(ratio, e * e, tol, what);
    bp_world_destroy(w);
}

/* An elastic bounce (e = 1, no drag) keeps its apex. The step's positions
 * lie on a parabola, so the apex is exact in free flight; the bounce must
 * then reflect the velocity the ball has on that parabola at the impact.
 * Over 30 s (some 15 bounces of a 458 px drop) the last apex may lie at
 * most 1% of the drop from the first, at 60, 120 and 240 Hz: a bounce
 * that loses g dt/2 sinks it 8 px a bounce at 120 Hz, 25% in all. A ball
 * of radius 1 or 3 falls more than 2.5 radii a step near the floor, where
 * its steps split into substeps: each change of their number bent the
 * flight (until the velocity was shifted to the substeps' and back), and
 * the apex sank 4-17% of the drop in 30 s. */
static void elastic_bounce_keeps_its_apex(int64_t solver, double hz, double r)
{
    bp_params p = quiet_params();
    p.solver = solver;
    p.gravity = 980.0;
    p.restitution = 1.0;
    p.hz = hz;
    p.width = 400.0;
    p.height = 768.0;
    bp_world *w = bp_world_new(&p);
    const double y0 = 300.0, drop = p.height - r - y0;
    bp_world_insert_ball(w, 200.0, y0, 0.0, 0.0, r, 0.0);
    double prev_vy = 0.0, last_apex = y0;
    int apexes = 0;
    for (int s = 0; s < (int)(30.0 * hz); s++) {
        step_or_bail(w);
        if (prev_vy < 0.0 && w->vy[0] >= 0.0) {
            apexes++;
            last_apex = w->y[0];
        }
        prev_vy = w->vy[0];
    }
    const char *by = solver == BP_SOLVER_SOFT ? "soft: " : "";
    printf("# %s%g Hz, r %g: %d apexes, the last %.3f px from the start\n", by, hz, r, apexes,
           last_apex - y0);
    char what[96];
    snprintf(what, sizeof what, "%selastic bounce at %g Hz, r %g: the apex holds for 30 s", by,
             hz, r);
    TAP_OK(apexes >= 14 && fabs(last_apex - y0) < 0.01 * drop, what);
    bp_world_destroy(w);
}

/* A ball on the floor gets g dt of speed each step, sinks g dt^2 and is put
 * back with an approach far below the rest speed 2 g dt, so it must stop
 * dead: vy == 0 and y == H - r exactly after every step for 10 s. A small
 * sideways speed is eaten by friction (mu g dt = 0.82 px/s per step at
 * 120 Hz, so 30 px/s is gone within 37 steps) and must then stay 0. */
static void ball_at_rest_on_the_floor_stays_at_rest(void)
{
    bp_params p = bp_params_default();
    p.solver = BP_SOLVER_PASSES; /* the soft solver's rest and slide: below */
    bp_world *w = bp_world_new(&p);
    const double r = 12.0, rest_y = p.height - r;
    bp_world_insert_ball(w, 300.0, rest_y, 0.0, 0.0, r, 0.0);
    bp_world_insert_ball(w, 700.0, rest_y, 30.0, 0.0, r, 0.0);
    bool still = true;
    for (int s = 0; s < 10 * 120; s++) {
        step_or_bail(w);
        for (size_t i = 0; i < 2; i++)
            if (w->vy[i] != 0.0 || w->y[i] != rest_y)
                still = false;
        if (w->x[0] != 300.0 || w->vx[0] != 0.0)
            still = false;
    }
    TAP_OK(still, "rest: vy == 0 and y == H - r after every step for 10 s");
    /* A ball sliding at 30 px/s without spin, no drag: friction slows it
     * at mu g, and spins it up at 2 mu g / r (a disk: I = m r^2 / 2) less
     * the rolling resistance's 2 R g / r, so the slip 30 px/s closes at
     * (3 mu - 2 R) g. Once it rolls (w = v / r), rolling resistance brakes
     * it at 2/3 R g (6.53 px/s^2 at R 0.01), and it never goes backwards. */
    p.drag = 0.0;
    w = (bp_world_destroy(w), bp_world_new(&p));
    bp_world_insert_ball(w, 700.0, rest_y, 30.0, 0.0, r, 0.0);
    double g = p.gravity, mu = p.friction, R = p.rolling;
    double roll_decel = 2.0 / 3.0 * R * g;
    double t_roll = 30.0 / ((3.0 * mu - 2.0 * R) * g);
    double v_roll = 30.0 - mu * g * t_roll;
    bool backwards = false;
    double x_stopped = 0.0;
    int stopped_at = -1;
    for (int s = 0; s < 10 * 120; s++) {
        step_or_bail(w);
        double t = (s + 1) / 120.0;
        if (w->vx[0] < 0.0 || w->w[0] < 0.0)
            backwards = true;
        if (s + 1 == 60) {
            /* The step's discreteness puts off the moment it rolls by up
             * to a step (mu g dt = 0.8 px/s). */
            TAP_NEAR(w->vx[0], v_roll - roll_decel * (t - t_roll), 0.2,
                     "slide: after 0.5 s it rolls, braked by rolling resistance at 2/3 R g");
            /* Each step's rolling resistance comes after its friction: it
             * leaves a slip of 2 R g dt for the next step's friction. */
            TAP_NEAR(w->vx[0] - w->w[0] * r, 0.0, 2.0 * R * g / 120.0 + 1e-9,
                     "slide: ... without slipping (w = v / r)");
        }
        if (stopped_at < 0 && w->vx[0] == 0.0) {
            stopped_at = s + 1;
            x_stopped = w->x[0];
        }
        if (stopped_at >= 0 && (w->vx[0] != 0.0 || w->x[0] != x_stopped))
            stopped_at = 100000;
    }
    /* It sleeps once it has rolled slower than the rest speed (one step's
     * gravity, 8.2 px/s) through the calm time (0.05 s): ending a roll that
     * would have gone on for (8.2 px/s)^2 / (2 * 2/3 R g) = 5 px more. */
    double rest_speed = p.gravity / 120.0;
    TAP_NEAR(stopped_at / 120.0, t_roll + (v_roll - rest_speed) / roll_decel + 0.05, 0.05,
             "slide: rolling resistance brakes it at 2/3 R g until it rests, and it stays put");
    TAP_OK(!backwards, "slide: it never rolls or spins backwards");
    bp_world_destroy(w);
}

/* The same two balls under the soft solver, whose contacts are springs: a
 * ball on the floor sinks into it until the spring carries its weight,
 * bp_soft_sag below touching (g / omega^2, 0.00088 px here), and no
 * further. After every step for 10 s it stays on its x, its speed is 0
 * (up to the sweeps' rounding, 1e-20 px/s), and it lies between touching
 * and that sag; the sliding one is stopped by friction and rests the same
 * way. */
static void ball_at_rest_on_the_floor_sits_its_sag_deep_under_the_soft_solver(void)
{
    bp_params p = bp_params_default();
    p.solver = BP_SOLVER_SOFT;
    bp_world *w = bp_world_new(&p);
    const double r = 12.0, rest_y = p.height - r, sag = bp_soft_sag(&p);
    bp_world_insert_ball(w, 300.0, rest_y, 0.0, 0.0, r, 0.0);
    bp_world_insert_ball(w, 700.0, rest_y, 30.0, 0.0, r, 0.0);
    bool still = true, within = true;
    double deepest = 0.0;
    for (int s = 0; s < 10 * 120; s++) {
        step_or_bail(w);
        for (size_t i = 0; i < 2; i++) {
            double below = w->y[i] - rest_y;
            deepest = fmax(deepest, below);
            within = within && below >= 0.0 && below <= sag * (1.0 + 1e-9);
            still = still && fabs(w->vy[i]) < 1e-9;
        }
        still = still && w->x[0] == 300.0 && w->vx[0] == 0.0;
    }
    printf("# soft rest: sag %.6f px, deepest %.6f px, the slider stopped at x %.3f\n", sag,
           deepest, w->x[1]);
    TAP_OK(still, "soft rest: vy 0 (to 1e-9 px/s) and x unmoved after every step for 10 s");
    TAP_OK(within, "soft rest: between touching and the contact's sag (g / omega^2) below it");
    TAP_OK(w->vx[1] == 0.0 && w->x[1] > 700.0, "soft rest: the sliding ball stops and stays");
    bp_world_destroy(w);
}

/* The sliding ball of the test above under the soft solver: friction
 * turns the slide into a roll at t_roll, rolling resistance brakes it at
 * 2/3 R g, and it rolls on to a true stop at t_roll + v_roll / (2/3 R g)
 * (the soft solver's islands sleep only after half a second at rest, so
 * nothing ends the roll early): 3.06 s. As it stops, the sweeps leave it
 * at most 1e-3 px/s either way (measured 5e-4), and from then on it stays
 * within 1e-3 px of where it stopped. */
static void a_slide_rolls_to_a_true_stop_under_the_soft_solver(void)
{
    bp_params p = bp_params_default();
    p.solver = BP_SOLVER_SOFT;
    p.drag = 0.0;
    bp_world *w = bp_world_new(&p);
    const double r = 12.0;
    bp_world_insert_ball(w, 700.0, p.height - r, 30.0, 0.0, r, 0.0);
    double g = p.gravity, mu = p.friction, R = p.rolling;
    double roll_decel = 2.0 / 3.0 * R * g;
    double t_roll = 30.0 / ((3.0 * mu - 2.0 * R) * g);
    double v_roll = 30.0 - mu * g * t_roll;
    bool backwards = false;
    double x_stopped = 0.0, strayed = 0.0;
    int stopped_at = -1;
    for (int s = 0; s < 10 * 120; s++) {
        step_or_bail(w);
        if (w->vx[0] < -1e-3 || w->w[0] * r < -1e-3)
            backwards = true;
        if (stopped_at < 0 && fabs(w->vx[0]) < 1e-3) {
            stopped_at = s + 1;
            x_stopped = w->x[0];
        }
        if (stopped_at >= 0)
            strayed = fmax(strayed, fabs(w->x[0] - x_stopped));
    }
    printf("# soft slide: stopped at %.3f s (by hand %.3f s), strayed %.2g px after\n",
           stopped_at / 120.0, t_roll + v_roll / roll_decel, strayed);
    TAP_NEAR(stopped_at / 120.0, t_roll + v_roll / roll_decel, 0.05,
             "soft slide: it rolls, braked at 2/3 R g, to a true stop");
    TAP_OK(!backwards, "soft slide: never backwards faster than 1e-3 px/s");
    TAP_OK(strayed < 1e-3, "soft slide: stopped, it stays within 1e-3 px");
    bp_world_destroy(w);
}

/* Low bounces on the floor die out. A step gives the ball the whole step's
 * gravity before it moves; bouncing that velocity at an impact part way
 * through the step sent the ball off up to g dt faster than it came in
 * (gravity of the time after the impact, bounced as if gathered before it),
 * and with restitution e a bounce of about g dt / (1 - e) kept itself up:
 * 2 of these 80 drops bounced 0.4 px high at 27 px/s for good (e = 0.9),
 * and one ball in three of the default 40-ball scenes. At rest a ball is
 * still and on the floor (under the soft solver, sunk into it by at most
 * its contact's give, bp_soft_sag: a ball that lands exactly touching
 * stays there, docs/design.md). */
static void low_bounces_die_out(int64_t solver, double e)
{
    bp_params p = bp_params_default();
    p.solver = solver;
    p.restitution = e;
    p.width = 4000.0;
    p.height = 600.0;
    bp_world *w = bp_world_new(&p);
    const int drops = 80;
    for (int k = 0; k < drops; k++) {
        double r = 8.0 + (k % 7) * 2.3, h = 0.3 + k * 0.45;
        bp_world_insert_ball(w, 25.0 + 48.0 * k, p.height - r - h, 0.0, 0.0, r, 0.0);
    }
    for (int s = 0; s < 10 * 120; s++)
        step_or_bail(w);
    int bouncing = 0;
    double give = solver == BP_SOLVER_SOFT ? bp_soft_sag(&p) : 0.0;
    for (size_t i = 0; i < w->count; i++) {
        double sunk = w->y[i] - (p.height - w->r[i]);
        if (w->vx[i] != 0.0 || w->vy[i] != 0.0 || sunk < -1e-9 || sunk > give + 1e-9)
            bouncing++;
    }
    char what[96];
    snprintf(what, sizeof what,
             "low bounces%s: %d balls dropped 0.3-36 px with e = %.2f all rest within 10 s",
             solver == BP_SOLVER_SOFT ? " (soft)" : "", drops, e);
    TAP_OK(bouncing == 0, what);
    if (bouncing)
        printf("# %d still bouncing\n", bouncing);
    bp_world_destroy(w);
}

static bool all_inside(const bp_world *w, double give)
{
    for (size_t i = 0; i < w->count; i++) {
        double r = w->r[i] - give * w->r[i];
        if (!(w->x[i] >= r && w->x[i] <= w->params.width - r && w->y[i] >= r &&
              w->y[i] <= w->params.height - r))
            return false;
    }
    return true;
}

/* 300 balls thrown at up to 5000 px/s (40 px per step at 120 Hz, more than
 * the smaller radii) with e = 1 and gravity: the sides put every ball back,
 * so after every step each centre is at least r inside the box, exactly.
 * Under the soft solver a ball pressed onto a side by the balls above sinks
 * into it by its contact's give under that load (bp_soft_sag a weight:
 * 0.0038 r at most here), and the sides put back only what is deeper than
 * half a radius: no ball may be in a side by more than 0.01 r. */
static void violent_run_keeps_every_ball_inside(int64_t solver)
{
    bp_params p = bp_params_default();
    p.solver = solver;
    p.restitution = 1.0;
    p.drag = 0.0;
    bp_world *w = bp_world_new(&p);
    char err[256];
    int rc = bp_spawn_random(w, 300, 4.0, 14.0, 7, err, sizeof err);
    TAP_OK(rc == 0 && w->count == 300, "violent: 300 balls placed");
    bp_rng rng = bp_rng_seed(99);
    for (size_t i = 0; i < w->count; i++) {
        double angle = bp_rng_range(&rng, 0.0, 2.0 * BP_PI);
        double speed = bp_rng_range(&rng, 0.0, 5000.0);
        w->vx[i] = speed * cos(angle);
        w->vy[i] = speed * sin(angle);
    }
    int first_escape = -1;
    bool finite = true;
    for (int s = 0; s < 10000; s++) {
        step_or_bail(w);
        if (first_escape < 0 && !all_inside(w, solver == BP_SOLVER_SOFT ? 0.01 : 0.0))
            first_escape = s;
    }
    for (size_t i = 0; i < w->count; i++)
        if (!isfinite(w->vx[i]) || !isfinite(w->vy[i]))
            finite = false;
    if (first_escape >= 0)
        printf("# first escape after step %d\n", first_escape);
    const char *who = solver == BP_SOLVER_SOFT ? " (soft)" : "";
    char what[96];
    snprintf(what, sizeof what, "violent%s: no ball leaves the arena in 10,000 steps", who);
    TAP_OK(first_escape < 0, what);
    snprintf(what, sizeof what, "violent%s: every velocity stays finite", who);
    TAP_OK(finite, what);
    bp_world_destroy(w);
}

/* Gravity 0, e = 1, drag 0, friction 0: every contact is elastic and the
 * walls are mirrors, so kinetic energy is conserved up to rounding (each
 * collision rounds at ~1e-16 relative; tens of thousands of collisions stay
 * below 1e-11). It must never grow beyond 1e-9 relative, and an elastic gas
 * must not lose it either. */
static void closed_elastic_gas_never_gains_energy(void)
{
    bp_params p = quiet_params();
    p.width = 800.0;
    p.height = 600.0;
    bp_world *w = bp_world_new(&p);
    char err[256];
    int spawned = bp_spawn_random(w, 250, 6.0, 16.0, 3, err, sizeof err);
    double ke0, pe;
    bp_world_energy(w, &ke0, &pe);
    /* A gas of no balls keeps its energy too: the checks below only mean
     * something if the balls are there and moving. */
    TAP_OK(spawned == 0 && w->count == 250 && ke0 > 0.0,
           "elastic gas: 250 moving balls placed");
    double ke_max = ke0, ke_min = ke0;
    for (int s = 0; s < 3000; s++) {
        step_or_bail(w);
        double ke;
        bp_world_energy(w, &ke, &pe);
        ke_max = fmax(ke_max, ke);
        ke_min = fmin(ke_min, ke);
    }
    TAP_OK(ke_max <= ke0 * (1.0 + 1e-9), "elastic gas: kinetic energy never grows");
    TAP_OK(ke_min >= ke0 * (1.0 - 1e-9), "elastic gas: kinetic energy is not lost either");
    bp_world_destroy(w);
}

/* A dense cloud in the middle of a huge arena, 1 s at speeds <= 150 px/s:
 * no ball gets near a wall, so only ball-ball contacts act and total
 * momentum is conserved to rounding (1e-12 of the sum of |m v|). */
static void gas_without_walls_conserves_momentum(void)
{
    bp_params p = quiet_params();
    p.restitution = 0.7;
    p.width = 100000.0;
    p.height = 100000.0;
    bp_world *w = bp_world_new(&p);
    bp_rng rng = bp_rng_seed(5);
    /* A 20x20 grid with 25 px spacing: radii up to 12 never overlap. */
    for (int k = 0; k < 400; k++) {
        double x = 50000.0 + 25.0 * (k % 20), y = 50000.0 + 25.0 * (k / 20);
        double r = bp_rng_range(&rng, 5.0, 12.0);
        bp_world_insert_ball(w, x, y, bp_rng_range(&rng, -150.0, 150.0),
                             bp_rng_range(&rng, -150.0, 150.0), r, 0.0);
    }
    double px0 = 0.0, py0 = 0.0, scale = 0.0, ke0, pe;
    for (size_t i = 0; i < w->count; i++) {
        px0 += w->mass[i] * w->vx[i];
        py0 += w->mass[i] * w->vy[i];
        scale += w->mass[i] * hypot(w->vx[i], w->vy[i]);
    }
    bp_world_energy(w, &ke0, &pe);
    for (int s = 0; s < 120; s++)
        step_or_bail(w);
    double px = 0.0, py = 0.0, ke;
    for (size_t i = 0; i < w->count; i++) {
        px += w->mass[i] * w->vx[i];
        py += w->mass[i] * w->vy[i];
    }
    bp_world_energy(w, &ke, &pe);
    TAP_OK(ke < 0.9 * ke0, "momentum gas: the balls really collided (e=0.7 lost energy)");
    TAP_NEAR(px, px0, scale * 1e-12, "momentum gas: x momentum conserved");
    TAP_NEAR(py, py0, scale * 1e-12, "momentum gas: y momentum conserved");
    bp_world_destroy(w);
}

static void default_mass_is_the_area(void)
{
    bp_params p = bp_params_default();
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 100.0, 100.0, 0.0, 0.0, 7.5, 0.0);
    bp_world_insert_ball(w, 200.0, 100.0, 0.0, 0.0, 7.5, 3.0);
    TAP_OK(w->mass[0] == 7.5 * 7.5, "mass defaults to r^2");
    TAP_OK(w->inv_mass[0] == 1.0 / (7.5 * 7.5), "inverse mass is 1/r^2");
    TAP_OK(w->mass[1] == 3.0, "an explicit mass is kept");
    bp_world_destroy(w);
}

int main(void)
{
    for (int k = 0; k < 3; k++) {
        static const double radii[] = {10.0, 3.0, 1.0};
        for (int64_t solver = BP_SOLVER_PASSES; solver <= BP_SOLVER_SOFT; solver++) {
            elastic_bounce_keeps_its_apex(solver, 60.0, radii[k]);
            elastic_bounce_keeps_its_apex(solver, 120.0, radii[k]);
            elastic_bounce_keeps_its_apex(solver, 240.0, radii[k]);
        }
    }
    free_fall_matches_the_discrete_and_the_exact_law(BP_SOLVER_PASSES);
    free_fall_matches_the_discrete_and_the_exact_law(BP_SOLVER_SOFT);
    free_fall_in_pieces_keeps_its_gravity();
    drag_decays_exponentially_at_any_rate();
    bounce_height_ratio(0.8);
    bounce_height_ratio(0.5);
    ball_at_rest_on_the_floor_stays_at_rest();
    ball_at_rest_on_the_floor_sits_its_sag_deep_under_the_soft_solver();
    a_slide_rolls_to_a_true_stop_under_the_soft_solver();
    for (int64_t solver = BP_SOLVER_PASSES; solver <= BP_SOLVER_SOFT; solver++) {
        low_bounces_die_out(solver, 0.9);
        low_bounces_die_out(solver, 0.95);
    }
    violent_run_keeps_every_ball_inside(BP_SOLVER_PASSES);
    violent_run_keeps_every_ball_inside(BP_SOLVER_SOFT);
    closed_elastic_gas_never_gains_energy();
    gas_without_walls_conserves_momentum();
    default_mass_is_the_area();
    return tap_done();
}
