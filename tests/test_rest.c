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
 * pass today guard what holds for these two pours: nothing leaves the
 * arena, the pile falls asleep again, and no ball of either pile moves a
 * radius (other pours of the pit do, up to 1.7 r in seeds 1-8: four of
 * them are here, with both targets TODO over the four). Last, the
 * textbook stack of three balls: it stands with friction above 2 - sqrt 3
 * and falls apart below (the falling is TODO: it falls asleep before it
 * moves and then stands down to friction 0.05; docs/design.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"
#include "spawn.h"
#include "step.h"
#include "tap.h"
#include "woken.h"
#include "world.h"

/* The woken pile's checks (woken.h): what holds today is asserted, the
 * true-rest targets are TODO. */
static void woken_pile_stays(bp_world *w, const char *name, int max_steps, bool worst_holds)
{
    char what[160];
    woken_pile m = woken_pile_measure(w, name, max_steps);
    snprintf(what, sizeof what, "%s: every one of %zu balls sleeps after settling", name, m.balls);
    TAP_OK(m.slept, what);
    snprintf(what, sizeof what, "%s: woken, every ball stays in the arena", name);
    TAP_OK(m.inside, what);
    snprintf(what, sizeof what, "%s: woken, the pile falls asleep again within 2 s", name);
    TAP_OK(m.slept_again, what);
    snprintf(what, sizeof what, "%s: woken, 99%% of the balls move at most 0.1 r in 2 s", name);
    TAP_TODO(m.p99 <= 0.1, what, "the awake solver does not hold a pile yet");
    snprintf(what, sizeof what, "%s: woken, no ball moves more than 1 r in 2 s", name);
    if (worst_holds)
        TAP_OK(m.worst <= 1.0, what);
    else
        TAP_TODO(m.worst <= 1.0, what, "the awake solver does not hold a pile yet");
}

static void the_pit(void)
{
    bp_world *w = woken_pit(BP_SOLVER_PASSES);
    woken_pile_stays(w, "pit of 1,000", 20 * 120, true);
    bp_world_destroy(w);
}

/* Other pours of the same pit: its balls' jittered start differs in the
 * seed. The benchmark's own pour (seed 1) happens to keep every ball
 * within a radius; these show how far from true rest the passes are. */
static void other_pours(void)
{
    double p99 = 0.0, worst = 0.0;
    bool sound = true;
    for (uint64_t seed = WOKEN_POURS_FIRST; seed <= WOKEN_POURS_LAST; seed++) {
        char name[64];
        woken_pour_name(name, sizeof name, seed);
        bp_world *w = woken_pit_poured(BP_SOLVER_PASSES, seed);
        woken_pile m = woken_pile_measure(w, name, 20 * 120);
        sound &= m.slept && m.inside && m.slept_again;
        p99 = m.p99 > p99 ? m.p99 : p99;
        worst = m.worst > worst ? m.worst : worst;
        bp_world_destroy(w);
    }
    TAP_OK(sound, "pits from seeds 2-5: each sleeps, stays in the arena woken, sleeps again");
    TAP_TODO(p99 <= 0.1, "pits from seeds 2-5: woken, 99% of the balls of each move at most 0.1 r",
             "the awake solver does not hold a pile yet");
    TAP_TODO(worst <= 1.0, "pits from seeds 2-5: woken, no ball of any moves more than 1 r",
             "the awake solver does not hold a pile yet");
}

static void the_heap(void)
{
    bp_world *w = woken_heap(BP_SOLVER_PASSES);
    woken_pile_stays(w, "heap", 40 * 120, true);
    bp_world_destroy(w);
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
    p.solver = BP_SOLVER_PASSES; /* the soft solver's stacks: test_soft.c */
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
             "asleep before it moves, it stands down to friction 0.05");
}

int main(void)
{
    the_pit();
    other_pours();
    the_heap();
    three_ball_stack();
    return tap_done();
}
