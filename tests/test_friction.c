/* Friction, spin and rolling against the textbook: a disk on an incline
 * rolls or slips as mu against tan(theta)/3 says, a rolling ball keeps
 * rolling without resistance, energy never grows, and a rough heap stands
 * where a smooth one spreads. */
#include <math.h>
#include <stdlib.h>

#include "scene.h"
#include "step.h"
#include "tap.h"
#include "world.h"

#define BP_TEST_PI 3.14159265358979323846

/* A world with no drag and no rolling resistance, g = 980 down. */
static bp_params plain(double friction)
{
    bp_params p = bp_params_default();
    p.width = 1200.0;
    p.height = 900.0;
    p.drag = 0.0;
    p.rolling = 0.0;
    p.restitution = 0.0;
    p.friction = friction;
    return p;
}

/* Drops a ball of radius r at rest onto a slope of theta degrees (down to
 * the right), lets it run for t seconds, and reports its speed along the
 * slope and its spin. */
static void run_on_incline(double theta_deg, double friction, double t, double *v_along,
                           double *w_spin, double r)
{
    bp_params p = plain(friction);
    bp_world *w = bp_world_new(&p);
    double th = theta_deg * BP_TEST_PI / 180.0;
    double ux = cos(th), uy = sin(th), nx = sin(th), ny = -cos(th);
    double x1 = 50.0, y1 = 100.0;
    bp_world_insert_wall(w, (bp_wall){x1, y1, x1 + 1100.0 * ux, y1 + 1100.0 * uy, 0.0});
    /* Touching the slope, 100 px along it. */
    bp_world_insert_ball(w, x1 + 100.0 * ux + r * nx, y1 + 100.0 * uy + r * ny, 0.0, 0.0, r, 0.0);
    int steps = (int)lround(t * p.hz);
    for (int s = 0; s < steps; s++)
        step_or_bail(w);
    *v_along = w->vx[0] * ux + w->vy[0] * uy;
    *w_spin = w->w[0];
    bp_world_destroy(w);
}

static void a_disk_rolls_down_an_incline_at_two_thirds_g_sin_theta(void)
{
    /* tan 20 / 3 = 0.12: friction 0.5 holds the contact point still, and
     * a disk (I = m r^2 / 2) then runs down at a = g sin(theta) / (1 +
     * I / (m r^2)) = 2/3 g sin(theta), turning at w = v / r. The step
     * starts each ball from rest a step late at most: 2/3 g sin(theta) dt
     * = 1.9 px/s. */
    double r = 10.0, v, spin, t = 1.0;
    run_on_incline(20.0, 0.5, t, &v, &spin, r);
    double a = 2.0 / 3.0 * 980.0 * sin(20.0 * BP_TEST_PI / 180.0);
    TAP_NEAR(v, a * t, a / 120.0, "incline, mu 0.5 >= tan 20 / 3: rolls at 2/3 g sin(theta)");
    TAP_NEAR(spin * r, v, 1e-6 * v, "incline, rolling: w = v / r");
}

static void a_disk_slips_down_a_steep_incline_below_the_friction_it_needs(void)
{
    /* tan 40 / 3 = 0.28 > 0.1: the contact slips, friction takes its most,
     * mu g cos(theta), so a = g (sin(theta) - mu cos(theta)), while that
     * friction spins the disk up at 2 mu g cos(theta) / r. */
    double r = 10.0, v, spin, t = 0.5, mu = 0.1;
    double th = 40.0 * BP_TEST_PI / 180.0;
    run_on_incline(40.0, mu, t, &v, &spin, r);
    double a = 980.0 * (sin(th) - mu * cos(th));
    double alpha = 2.0 * mu * 980.0 * cos(th) / r;
    TAP_NEAR(v, a * t, a / 120.0, "incline, mu 0.1 < tan 40 / 3: slides at g(sin - mu cos)");
    TAP_NEAR(spin, alpha * t, alpha / 120.0, "incline, slipping: spun up at 2 mu g cos / r");
    TAP_OK(spin * r < v, "incline, slipping: the contact point still slides down");
}

static void a_rolling_ball_keeps_rolling_without_resistance(void)
{
    /* Rolling (w = v / r) on the floor without rolling resistance or drag:
     * the contact point stands still, friction has nothing to do, and the
     * ball covers v t. */
    bp_params p = plain(0.3);
    bp_world *w = bp_world_new(&p);
    double r = 12.0, v = 150.0;
    bp_world_insert_ball(w, 100.0, p.height - r, v, 0.0, r, 0.0);
    w->w[0] = v / r;
    for (int s = 0; s < 5 * 120; s++)
        step_or_bail(w);
    TAP_NEAR(w->vx[0], v, 1e-9, "rolling without resistance: keeps its speed for 5 s");
    TAP_NEAR(w->x[0], 100.0 + v * 5.0, 1e-6, "rolling without resistance: covers v t");
    TAP_NEAR(w->w[0], v / r, 1e-9, "rolling without resistance: keeps w = v / r");
    bp_world_destroy(w);
}

/* Kinetic (with rotation) plus potential energy, mass px^2/s^2. */
static double energy(const bp_world *w)
{
    double kinetic, potential;
    bp_world_energy(w, &kinetic, &potential);
    return kinetic + potential;
}

static void energy_never_grows_with_friction_and_spin(void)
{
    /* Balls bouncing off each other and off slanted walls, with friction,
     * spin and rolling resistance: every step may only lose energy. The
     * allowance is rounding: 1e-9 of the energy the run starts with. */
    bp_params p = plain(0.4);
    p.restitution = 0.8;
    p.rolling = 0.02;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_wall(w, (bp_wall){100.0, 500.0, 600.0, 800.0, 3.0});
    bp_world_insert_wall(w, (bp_wall){1100.0, 450.0, 700.0, 800.0, 3.0});
    for (int k = 0; k < 12; k++)
        bp_world_insert_ball(w, 150.0 + 80.0 * k, 100.0 + 17.0 * (k % 3), 120.0 * ((k % 5) - 2),
                             -60.0 * (k % 4), 8.0 + 2.0 * (k % 4), 0.0);
    double e0 = energy(w), before = e0, worst = 0.0;
    for (int s = 0; s < 8 * 120; s++) {
        step_or_bail(w);
        double now = energy(w);
        worst = fmax(worst, now - before);
        before = now;
    }
    TAP_NEAR(worst, 0.0, 1e-9 * e0, "energy: no step of 8 s adds any (beyond rounding)");
    TAP_OK(before < 0.5 * e0, "energy: friction, bounces and rolling take most of it");
    bp_world_destroy(w);
}

/* The highest ball's top above the floor after the heap scene has run for
 * 12 s with this friction, px; and the share of its balls within 250 px of
 * the hopper's axis. */
static double heap_height(double friction, double *central)
{
    bp_scene scene = {0};
    char err[256];
    if (bp_scene_load(&scene, BP_SCENES_DIR "/heap.scene", err, sizeof err) != 0) {
        printf("# %s\n", err);
        return -1.0;
    }
    scene.params.friction = friction;
    bp_world *w = bp_world_new(&scene.params);
    if (bp_scene_build(&scene, "heap.scene", w, err, sizeof err) != 0) {
        bp_world_destroy(w);
        bp_scene_free(&scene);
        return -1.0;
    }
    for (int s = 0; s < 12 * 120; s++)
        step_or_bail(w);
    double top = 0.0, near_axis = 0.0;
    for (size_t i = 0; i < w->count; i++) {
        top = fmax(top, scene.params.height - (w->y[i] - w->r[i]));
        near_axis += fabs(w->x[i] - 0.5 * scene.params.width) < 250.0;
    }
    *central = near_axis / (double)w->count;
    bp_world_destroy(w);
    bp_scene_free(&scene);
    return top;
}

static void a_rough_heap_stands_where_a_smooth_one_spreads(void)
{
    /* The same 332 balls poured from a hopper. A smooth heap is a liquid:
     * it runs out over the whole floor. A rough one (friction 0.6) holds
     * its slopes: a cone, with only the first few balls, which land on
     * bare floor, rolling away. */
    double rough_central, smooth_central;
    double rough = heap_height(0.6, &rough_central), smooth = heap_height(0.0, &smooth_central);
    printf("# heap top: %.1f px rough, %.1f px smooth; within 250 px of the axis: %.2f, %.2f\n",
           rough, smooth, rough_central, smooth_central);
    TAP_OK(rough > 0.0 && smooth > 0.0, "heap: the scene loads");
    TAP_OK(rough > 1.2 * smooth, "heap: the rough heap stands higher");
    TAP_OK(rough_central > 0.85, "heap: the rough heap keeps its balls near the axis");
    TAP_OK(smooth_central < 0.7, "heap: the smooth heap runs out over the floor");
}

int main(void)
{
    a_disk_rolls_down_an_incline_at_two_thirds_g_sin_theta();
    a_disk_slips_down_a_steep_incline_below_the_friction_it_needs();
    a_rolling_ball_keeps_rolling_without_resistance();
    energy_never_grows_with_friction_and_spin();
    a_rough_heap_stands_where_a_smooth_one_spreads();
    return tap_done();
}
