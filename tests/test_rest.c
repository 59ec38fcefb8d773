/* True rest: a pile that sleeps must be a pile that would stand awake.
 *
 * A pile is settled until every ball sleeps, then every ball is woken (as a
 * saved pile reloads: awake) and the world runs on for 2 s. A pile truly at
 * rest barely moves: 99% of its balls by at most 0.1 r, none by more than
 * 1 r. Two piles: the 1,000-ball benchmark pit (one radius, friction 0.2)
 * and the heap scene (radii 4-8 poured from a hopper, friction 0.6).
 *
 * The targets are TODO: the solver's position passes do not yet hold a
 * pile awake (it creeps while awake and is held only by sleep), so the
 * woken piles shift (docs/design.md, "Known limits"). The checks that
 * pass today guard what does hold: nothing leaves the arena, the pile
 * falls asleep again, and no ball of either pile moves a radius. Last, the
 * textbook stack of three balls: it stands with friction above 2 - sqrt 3
 * and falls apart below (the falling is TODO: the passes hold it down to
 * friction 0.05). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"
#include "spawn.h"
#include "step.h"
#include "tap.h"
#include "world.h"

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static size_t asleep_count(const bp_world *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->count; i++)
        n += (w->flags[i] & BP_BALL_ASLEEP) != 0;
    return n;
}

/* Settles w for up to max_steps (until every ball sleeps), wakes it whole,
 * runs 2 s and checks how far the balls moved, in their own radii. */
static void woken_pile_stays(bp_world *w, const char *name, int max_steps, bool worst_holds)
{
    char what[160];
    for (int s = 0; s < max_steps && asleep_count(w) < w->count; s++)
        step_or_bail(w);
    size_t n = w->count;
    snprintf(what, sizeof what, "%s: every one of %zu balls sleeps after settling", name, n);
    TAP_OK(n > 0 && asleep_count(w) == n, what);

    uint32_t ids = w->next_id;
    double *x0 = malloc(ids * sizeof *x0), *y0 = malloc(ids * sizeof *y0);
    double *moved = malloc((n ? n : 1) * sizeof *moved);
    if (!x0 || !y0 || !moved) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        x0[w->id[i]] = w->x[i];
        y0[w->id[i]] = w->y[i];
    }
    bp_world_wake_all(w);
    int steps = (int)(2.0 * w->params.hz);
    bool inside = true;
    for (int s = 0; s < steps; s++) {
        step_or_bail(w);
        for (size_t i = 0; i < n; i++)
            inside &= w->x[i] >= 0.0 && w->x[i] <= w->params.width && w->y[i] >= 0.0 &&
                      w->y[i] <= w->params.height;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t id = w->id[i];
        moved[i] = hypot(w->x[i] - x0[id], w->y[i] - y0[id]) / w->r[i];
    }
    qsort(moved, n, sizeof *moved, by_value);
    double p50 = moved[n / 2], p99 = moved[n * 99 / 100], worst = moved[n - 1];
    printf("# %s woken for 2 s: moved p50 %.3f r, p99 %.3f r, max %.3f r\n", name, p50, p99,
           worst);
    snprintf(what, sizeof what, "%s: woken, every ball stays in the arena", name);
    TAP_OK(inside, what);
    snprintf(what, sizeof what, "%s: woken, the pile falls asleep again within 2 s", name);
    TAP_OK(asleep_count(w) == n, what);
    snprintf(what, sizeof what, "%s: woken, 99%% of the balls move at most 0.1 r in 2 s", name);
    TAP_TODO(p99 <= 0.1, what, "the awake solver does not hold a pile yet");
    snprintf(what, sizeof what, "%s: woken, no ball moves more than 1 r in 2 s", name);
    if (worst_holds)
        TAP_OK(worst <= 1.0, what);
    else
        TAP_TODO(worst <= 1.0, what, "the awake solver does not hold a pile yet");
    free(x0);
    free(y0);
    free(moved);
}

static void the_pit(void)
{
    bp_params p = bp_pit_params(1000);
    bp_world *w = bp_world_new(&p);
    if (!w || !bp_spawn_pit(w, 1000, 1)) {
        printf("Bail out! cannot build the pit\n");
        exit(1);
    }
    woken_pile_stays(w, "pit of 1,000", 20 * 120, true);
    bp_world_destroy(w);
}

static void the_heap(void)
{
    bp_scene scene = {0};
    char err[256];
    if (bp_scene_load(&scene, BP_SCENES_DIR "/heap.scene", err, sizeof err) != 0) {
        printf("Bail out! %s\n", err);
        exit(1);
    }
    bp_world *w = bp_world_new(&scene.params);
    if (!w || bp_scene_build(&scene, "heap.scene", w, err, sizeof err) != 0) {
        printf("Bail out! cannot build the heap\n");
        exit(1);
    }
    woken_pile_stays(w, "heap", 40 * 120, true);
    bp_world_destroy(w);
    bp_scene_free(&scene);
}

/* Two equal balls on the floor, touching, and a third resting on them: with
 * no rolling resistance each lower ball's torque balance makes the floor's
 * friction equal the top contact's, and the lower balls' forces balance
 * only when friction reaches T / N = 1 / (2 + sqrt 3) = 0.268 at both
 * contacts. Below that the lower balls roll apart and the top one drops to
 * the floor; above it the stack stands. */
static bool three_ball_stack_stands(double friction)
{
    bp_params p = bp_params_default();
    p.friction = friction;
    p.rolling = 0.0;
    p.drag = 0.0;
    p.restitution = 0.2;
    p.width = 400.0;
    p.height = 300.0;
    bp_world *w = bp_world_new(&p);
    if (!w) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    double r = 10.0, floor_y = p.height - r;
    bp_world_insert_ball(w, 190.0, floor_y, 0.0, 0.0, r, 0.0);
    bp_world_insert_ball(w, 210.0, floor_y, 0.0, 0.0, r, 0.0);
    int64_t top = bp_world_insert_ball(w, 200.0, floor_y - 2.0 * r * sqrt(0.75), 0.0, 0.0, r, 0.0);
    for (int s = 0; s < 240; s++)
        step_or_bail(w);
    double y = w->y[bp_world_index_of(w, (uint32_t)top)];
    bp_world_destroy(w);
    return y < floor_y - r; /* still above the lower balls' centres */
}

static void three_ball_stack(void)
{
    TAP_OK(three_ball_stack_stands(0.3), "three balls stacked stand with friction 0.3 (> 0.268)");
    TAP_TODO(!three_ball_stack_stands(0.2), "three balls stacked fall apart with friction 0.2",
             "the position passes hold a stack with friction down to 0.05");
}

int main(void)
{
    the_pit();
    the_heap();
    three_ball_stack();
    return tap_done();
}
