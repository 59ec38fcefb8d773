/* Scale: no tolerance of the physics is in pixels (tolerances.h), so a
 * world scaled by any factor (radii, arena, walls, gravity) moves the same,
 * up to that factor. A small scene (three balls on the floor and one on
 * them, a ball resting on a wall, a ball bouncing) runs at scale 1, 1024,
 * 1000 and 0.001, and a lone tiny ball must rest on the floor. Radii of
 * very different sizes in one world do not widen the pair list of the
 * small balls, and a pile of small balls under a huge one still settles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "step.h"
#include "tap.h"
#include "world.h"

#define STEPS 720

typedef struct run {
    double x[STEPS][6], y[STEPS][6];
    uint8_t asleep[STEPS][6], grounded[STEPS][6];
} run;

static run runs[4];

/* The scene at scale s, in the units of scale 1. */
static void run_scene(double s, run *out)
{
    bp_params p = bp_params_default();
    p.width = 400.0 * s;
    p.height = 300.0 * s;
    p.gravity = 980.0 * s;
    p.restitution = 0.5; /* the bounce dies down within the run */
    bp_world *w = bp_world_new(&p);
    bp_world_insert_wall(w, (bp_wall){240.0 * s, 200.0 * s, 360.0 * s, 200.0 * s, 2.0 * s});
    double balls[6][4] = {
        {60.0, 289.0, 0.0, 10.0},  /* three on the floor, touching */
        {80.0, 289.0, 0.0, 10.0},
        {100.0, 289.0, 0.0, 10.0},
        {70.0, 270.0, 0.0, 10.0},  /* one resting between two of them */
        {300.0, 190.0, 0.0, 8.0},  /* one resting on the wall */
        {160.0, 100.0, 0.0, 6.0},  /* one bouncing */
    };
    for (int b = 0; b < 6; b++)
        bp_world_insert_ball(w, balls[b][0] * s, balls[b][1] * s, balls[b][2] * s, 0.0,
                             balls[b][3] * s, 0.0);
    for (int k = 0; k < STEPS; k++) {
        step_or_bail(w);
        for (size_t i = 0; i < w->count; i++) {
            uint32_t id = w->id[i];
            out->x[k][id] = w->x[i] / s;
            out->y[k][id] = w->y[i] / s;
            out->asleep[k][id] = (w->flags[i] & BP_BALL_ASLEEP) != 0;
            out->grounded[k][id] = (w->flags[i] & BP_BALL_GROUNDED) != 0;
        }
    }
    bp_world_destroy(w);
}

/* Compares a run with the one at scale 1: the largest difference in
 * position (px of scale 1), and whether sleeping and grounding agree at
 * every step. */
static void compare(const run *a, const run *b, double *worst, bool *same_sleep,
                    bool *same_ground)
{
    *worst = 0.0;
    *same_sleep = *same_ground = true;
    for (int k = 0; k < STEPS; k++)
        for (int i = 0; i < 6; i++) {
            *worst = fmax(*worst, hypot(a->x[k][i] - b->x[k][i], a->y[k][i] - b->y[k][i]));
            *same_sleep &= a->asleep[k][i] == b->asleep[k][i];
            *same_ground &= a->grounded[k][i] == b->grounded[k][i];
        }
}

static void scaled_runs_agree(void)
{
    const double scales[4] = {1.0, 1024.0, 1000.0, 0.001};
    for (int k = 0; k < 4; k++)
        run_scene(scales[k], &runs[k]);
    char what[160];
    bool all_asleep = true;
    for (int i = 0; i < 6; i++) {
        all_asleep &= runs[0].asleep[STEPS - 1][i];
        if (!runs[0].asleep[STEPS - 1][i])
            printf("# scale 1: ball %d awake at (%.2f, %.2f)\n", i, runs[0].x[STEPS - 1][i],
                   runs[0].y[STEPS - 1][i]);
    }
    TAP_OK(all_asleep, "scale 1: every ball of the scene sleeps after 6 s");

    /* A power of two scales every number exactly: the same bits. */
    bool exact = memcmp(runs[0].x, runs[1].x, sizeof runs[0].x) == 0 &&
                 memcmp(runs[0].y, runs[1].y, sizeof runs[0].y) == 0 &&
                 memcmp(runs[0].asleep, runs[1].asleep, sizeof runs[0].asleep) == 0 &&
                 memcmp(runs[0].grounded, runs[1].grounded, sizeof runs[0].grounded) == 0;
    TAP_OK(exact, "scale 1024: the same motion to the bit, divided by 1024");

    for (int k = 2; k < 4; k++) {
        double worst;
        bool same_sleep, same_ground;
        compare(&runs[0], &runs[k], &worst, &same_sleep, &same_ground);
        printf("# scale %g: positions differ by at most %.3g px of scale 1\n", scales[k],
               worst);
        /* Scaling by a factor not a power of two rounds every product
         * differently, by 1e-16 relative; the scene is calm (no chaotic
         * pile), so those differences grow by a few orders at most, and a
         * millionth of a pixel is far below any decision's margin. */
        snprintf(what, sizeof what,
                 "scale %g: every position, divided by the scale, within 1e-6 px", scales[k]);
        TAP_OK(worst <= 1e-6, what);
        snprintf(what, sizeof what, "scale %g: every ball falls asleep at the same step",
                 scales[k]);
        TAP_OK(same_sleep, what);
        snprintf(what, sizeof what, "scale %g: every ball is grounded at the same steps",
                 scales[k]);
        TAP_OK(same_ground, what);
    }
}

/* A lone ball of radius r dropped onto the floor comes to rest on it: over
 * its last second it neither sinks (its bottom within the touch margin of
 * the floor, never below) nor moves, and it sleeps. */
static void tiny_ball_rests(double r)
{
    bp_params p = bp_params_default();
    p.width = 40.0;
    p.height = 30.0;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 20.0, 25.0, 0.0, 0.0, r, 0.0);
    double lowest = -INFINITY, highest = INFINITY, first_y = 0.0, moved = 0.0;
    int steps = 8 * (int)p.hz;
    for (int k = 0; k < steps; k++) {
        step_or_bail(w);
        if (k == steps - (int)p.hz)
            first_y = w->y[0];
        if (k >= steps - (int)p.hz) {
            lowest = fmax(lowest, w->y[0]);
            highest = fmin(highest, w->y[0]);
            moved = fmax(moved, fabs(w->y[0] - first_y));
        }
    }
    double floor_y = p.height - r;
    char what[160];
    printf("# radius %g: rests %.3g r above the floor, moved %.3g r in the last second\n", r,
           (floor_y - lowest) / r, moved / r);
    snprintf(what, sizeof what, "radius %g: never sinks into the floor", r);
    TAP_OK(lowest <= floor_y, what);
    snprintf(what, sizeof what, "radius %g: rests on the floor, within 0.01 r of it", r);
    TAP_OK(highest >= floor_y - 0.01 * r, what);
    snprintf(what, sizeof what, "radius %g: does not move in its last second", r);
    TAP_OK(moved == 0.0, what);
    snprintf(what, sizeof what, "radius %g: sleeps", r);
    TAP_OK((w->flags[0] & BP_BALL_ASLEEP) != 0, what);
    bp_world_destroy(w);
}

/* Radii 0.5 and 5000 in one world: the pair list stays as wide as the small
 * balls want (half a radius of theirs would be 0.002 of the big one's 20
 * times over), and a layer of small balls under the big one settles
 * without any pair pressed deep. */
static void mixed_sizes_keep_the_list_narrow(void)
{
    bp_params p = bp_params_default();
    p.width = 12000.0;
    p.height = 12000.0;
    bp_world *w = bp_world_new(&p);
    if (!w) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    for (int k = 0; k < 2000; k++)
        bp_world_insert_ball(w, 1000.0 + (k % 1000) * 1.1, 11990.0 - (k / 1000) * 1.1, 0.0, 0.0, 0.5,
                             0.0);
    double alone = bp_passes_list_margin(w);
    bp_world_insert_ball(w, 6000.0, 5000.0, 0.0, 0.0, 5000.0, 0.0);
    double mixed = bp_passes_list_margin(w);
    printf("# list margin: small balls alone %g px, with a ball of r 5000 %g px\n", alone, mixed);
    TAP_OK(alone == 0.5 && mixed == alone,
           "a ball of radius 5000 among balls of 0.5 leaves their pair list 0.5 px wide");
    for (int s = 0; s < 240; s++)
        step_or_bail(w);
    double deepest = bp_passes_max_overlap(w);
    printf("# after 2 s: deepest overlap %g px\n", deepest);
    TAP_OK(deepest < 0.25, "the small balls settle without a pair pressed half a radius deep");
    bp_world_destroy(w);
}

int main(void)
{
    scaled_runs_agree();
    tiny_ball_rests(0.5);  /* the smallest a scene or the command line allows */
    tiny_ball_rests(0.01); /* below the limits, through the library's insides */
    mixed_sizes_keep_the_list_narrow();
    return tap_done();
}
