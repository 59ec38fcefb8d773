/* Piles, sleeping and threads: a deep pile stands firm and still, sleeping
 * balls wake when disturbed and never hang in the air, and the step gives
 * the same bits with any number of worker threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "solver/solver.h"
#include "spawn.h"
#include "step.h"
#include "tap.h"
#include "world.h"

static double ball_x(const bp_world *w, uint32_t id)
{
    return w->x[bp_world_index_of(w, id)];
}

static double ball_y(const bp_world *w, uint32_t id)
{
    return w->y[bp_world_index_of(w, id)];
}

static double ball_vy(const bp_world *w, uint32_t id)
{
    return w->vy[bp_world_index_of(w, id)];
}

static uint8_t ball_flags(const bp_world *w, uint32_t id)
{
    return w->flags[bp_world_index_of(w, id)];
}

/* The default rules in a width x height arena without drag, so that what
 * a test measures is the contacts' doing. */
static bp_params arena_without_drag(double width, double height)
{
    bp_params p = bp_params_default();
    p.width = width;
    p.height = height;
    p.drag = 0.0;
    return p;
}

/* The benchmark pit (--bench) at 2,000 balls, under solver: after 5 s
 * the pile must be firm (the bench line's deepest-overlap measure, with
 * the 0.05 r targeted for 1,000 balls as the bar), nobody may have left,
 * and after 10 s the balls on the floor must stand still: not one moves
 * more than 0.01 px in the last second (a jittering pile shows up as
 * motion at the bottom first). */
/* The benchmark pit of n balls (seed 7) under solver, stepped `steps`
 * times; *p its parameters. */
static bp_world *stepped_pit(int64_t solver, uint64_t n, int steps, bp_params *p)
{
    *p = bp_pit_params(n);
    p->solver = solver;
    bp_world *w = bp_world_new(p);
    bp_spawn_pit(w, n, 7);
    for (int s = 0; s < steps; s++)
        step_or_bail(w);
    return w;
}

static void deep_pile_is_firm_and_still(int64_t solver)
{
    const uint64_t n = 2000;
    bp_params p;
    bp_world *w = stepped_pit(solver, n, 600, &p);
    double overlap = bp_passes_max_overlap(w) / BP_PIT_RADIUS;
    printf("# deepest overlap after 600 steps: %.4f r\n", overlap);
    TAP_OK(overlap <= 0.05, "pit of 2,000 balls: deepest overlap at most 0.05 r after 5 s");

    /* Inside by its radius, to rounding; under the soft solver, whose
     * sides are springs that press in under load (0.067 px, 0.013 r, in
     * this pit at 5 s: more than the column above a floor ball would press,
     * 0.047 px, where the pile still settles and its force chains gather
     * load), no deeper than the overlaps between balls may be. */
    double slack = solver == BP_SOLVER_SOFT ? 0.05 * BP_PIT_RADIUS : 1e-9;
    size_t escaped = 0;
    double deepest = 0.0;
    for (size_t i = 0; i < w->count; i++) {
        double r = w->r[i];
        double in = fmax(fmax(r - w->x[i], w->x[i] - (p.width - r)),
                         fmax(r - w->y[i], w->y[i] - (p.height - r)));
        deepest = fmax(deepest, in);
        escaped += in > slack;
    }
    printf("# deepest into a side %.3g px (allowed %.3g)\n", deepest, slack);
    TAP_OK(escaped == 0, "pit of 2,000 balls: every ball inside the arena");

    for (int s = 0; s < 480; s++)
        step_or_bail(w);
    /* Remember the floor row by id, then watch it for one more second. */
    static double x0[2000], y0[2000];
    bool on_floor[2000] = {false};
    for (uint32_t id = 0; id < n; id++) {
        on_floor[id] = ball_y(w, id) > p.height - BP_PIT_RADIUS - 0.01;
        x0[id] = ball_x(w, id);
        y0[id] = ball_y(w, id);
    }
    for (int s = 0; s < 120; s++)
        step_or_bail(w);
    double worst = 0.0;
    int floor_balls = 0;
    for (uint32_t id = 0; id < n; id++) {
        if (!on_floor[id])
            continue;
        floor_balls++;
        double moved = hypot(ball_x(w, id) - x0[id], ball_y(w, id) - y0[id]);
        worst = moved > worst ? moved : worst;
    }
    printf("# %d balls on the floor, the most any moved in the 10th second: %.3g px\n",
           floor_balls, worst);
    TAP_OK(floor_balls > 50, "pit: the floor row is full (the pile settled on the floor)");
    TAP_OK(worst < 0.01, "pit: no ball on the floor moves 0.01 px in the 10th second");
    bp_world_destroy(w);
}

/* Whether sleeper i stands on something: the floor, or a ball under it
 * (contact normal steeper than 6 degrees), within the supported pass's
 * reach of a quarter radius (a ball in mid-air is a whole fall away). */
static bool stands_on_something(const bp_world *w, size_t i)
{
    double reach = 0.25 * w->r[i];
    if (w->y[i] + w->r[i] > w->params.height - reach)
        return true;
    for (size_t j = 0; j < w->count; j++) {
        double dx = w->x[i] - w->x[j], dy = w->y[j] - w->y[i]; /* dy > 0: j is lower */
        double d = hypot(dx, dy);
        if (j != i && d < w->r[i] + w->r[j] + reach && dy > 0.1 * d)
            return true;
    }
    return false;
}

/* The pit of 1,000 balls, 10 s: a settled pile must go to sleep (balls
 * jammed between others included: the position passes undo their
 * velocities every step, and they rest all the same), and every sleeper
 * must stand on something. Checked over three seeds. */
static void settled_pit_sleeps_on_support(void)
{
    const uint64_t n = 1000;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        bp_params p = bp_pit_params(n);
        bp_world *w = bp_world_new(&p);
        bp_spawn_pit(w, n, seed);
        for (int s = 0; s < 1200; s++)
            step_or_bail(w);
        size_t asleep = 0, hanging = 0;
        for (size_t i = 0; i < w->count; i++) {
            if (!(w->flags[i] & BP_BALL_ASLEEP))
                continue;
            asleep++;
            hanging += !stands_on_something(w, i);
        }
        printf("# seed %llu: %zu of %llu asleep after 10 s, %zu hanging\n",
               (unsigned long long)seed, asleep, (unsigned long long)n, hanging);
        TAP_OK(asleep >= 0.98 * (double)n, "pit of 1,000 balls: 98 percent asleep after 10 s");
        TAP_OK(hanging == 0, "pit of 1,000 balls: every sleeper stands on something");
        bp_world_destroy(w);
    }
}

/* Piles of balls of mixed radii (4-8 px) in the default arena, as
 * `--balls N --radius 4:8` makes them: after 25 s not one ball may move at
 * all in the next half second (twice the rest a ball needs to fall asleep,
 * so that one waking and sleeping by turns shows).
 * - A ball resting on a sleeper sinks in by up to a step of gravity before
 *   the passes push it out; when the clean-up woke every sleeper pressed in
 *   that deep, a few balls per pile (5, 11 and 9 for the first three) woke
 *   and fell asleep by turns for good, trembling by up to 0.5 px, and kept
 *   a window showing the pile drawing (the three piles at 120 Hz).
 * - A ball wedged between a side and a ball below it slid down the side
 *   and was pushed back out every step, while the supported pass held it
 *   against the floor only: 5 balls of the last pile (at 240 Hz, where a
 *   step's sink is under the clean-up's own 0.01 r) never came to rest.
 * - Two balls jammed into each other in a pocket of sleepers fell asleep
 *   one at a time, and the one left awake woke the other, for good: in
 *   the last two piles (2,000 balls, seed 3; 1,000 at 240 Hz, seed 11)
 *   two balls trembled by 0.2 px in a cycle of six steps (sleep.c). */
static void mixed_piles_come_to_rest(void)
{
    static const struct {
        uint64_t balls, seed;
        double hz;
    } piles[] = {{2000, 2, 120.0}, {2000, 5, 120.0}, {2000, 7, 120.0},
                 {1000, 2, 240.0}, {2000, 3, 120.0}, {1000, 11, 240.0}};
    for (size_t k = 0; k < sizeof piles / sizeof piles[0]; k++) {
        bp_params p = bp_params_default();
        p.hz = piles[k].hz;
        bp_world *w = bp_world_new(&p);
        char err[128];
        TAP_OK(bp_spawn_random(w, piles[k].balls, 4.0, 8.0, piles[k].seed, err, sizeof err) == 0,
               "mixed pile: the balls fit the default arena");
        for (int s = 0; s < (int)(25.0 * p.hz); s++)
            step_or_bail(w);
        size_t n = w->count, moving = 0;
        double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
        TAP_OK(x && y, "mixed pile: memory for the positions");
        if (!x || !y) {
            free(x);
            free(y);
            bp_world_destroy(w);
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            x[i] = ball_x(w, (uint32_t)i);
            y[i] = ball_y(w, (uint32_t)i);
        }
        /* Step by step: a ball that trembles in a cycle is back where it
         * was every so many steps. A ball that moved gets x NaN, so that
         * it counts once. */
        for (int s = 0; s < (int)(0.5 * p.hz); s++) {
            step_or_bail(w);
            for (size_t i = 0; i < n; i++) {
                if (isnan(x[i]))
                    continue;
                if (ball_x(w, (uint32_t)i) != x[i] || ball_y(w, (uint32_t)i) != y[i]) {
                    moving++;
                    x[i] = NAN;
                }
            }
        }
        printf("# %llu balls, seed %llu, %.0f Hz: %zu moved in the half second after 25 s\n",
               (unsigned long long)piles[k].balls, (unsigned long long)piles[k].seed, p.hz,
               moving);
        TAP_OK(moving == 0, "mixed pile: every ball at rest after 25 s");
        free(x);
        free(y);
        bp_world_destroy(w);
    }
}

/* A small ball in a short shaft, resting on a big ball that slides on under
 * the shaft, frictionless, at 30 px/s: the shaft holds the small one in
 * place, it sinks slowly enough to fall asleep on top (under the passes,
 * which put balls to sleep one by one; under the soft solver it stays
 * awake, in one island with the sliding ball, which never rests, so the
 * check that it never sleeps hanging holds there trivially), and then its
 * supporter slides out from under it. It must wake and fall, never hang:
 * at no step may it sleep without something under it. */
static void sleeper_falls_when_its_supporter_slides_away(int64_t solver)
{
    bp_params p = arena_without_drag(600.0, 400.0);
    p.solver = solver;
    p.friction = 0.0;
    p.restitution = 0.5;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 100.0, p.height - 20.0, 30.0, 0.0, 20.0, 0.0);        /* id 0 */
    bp_world_insert_ball(w, 100.0, p.height - 40.0 - 10.0, 0.0, 0.0, 10.0, 0.0); /* id 1 */
    /* The shaft's walls end 3 px above the big ball's top. */
    bp_world_insert_wall(w, (bp_wall){88.0, 200.0, 88.0, p.height - 45.0, 2.0});
    bp_world_insert_wall(w, (bp_wall){112.0, 200.0, 112.0, p.height - 45.0, 2.0});
    bool slept_on_top = false, hung = false;
    for (int s = 0; s < 480; s++) {
        step_or_bail(w);
        size_t small = (size_t)bp_world_index_of(w, 1);
        if (!(w->flags[small] & BP_BALL_ASLEEP))
            continue;
        slept_on_top |= w->y[small] < p.height - 30.0;
        hung |= !stands_on_something(w, small);
    }
    if (solver == BP_SOLVER_SOFT)
        TAP_OK(!slept_on_top, "small ball on a sliding big one: awake on top, as its island is");
    else
        TAP_OK(slept_on_top, "small ball on a sliding big one: falls asleep on top");
    TAP_OK(!hung, "small ball on a sliding big one: never sleeps with nothing under it");
    TAP_NEAR(ball_y(w, 1), p.height - 10.0, 0.5,
             "small ball on a sliding big one: ends on the floor once the big one has gone");
    bp_world_destroy(w);
}

/* A column of 30 balls in a shaft one ball wide, settled 3 s, under
 * solver. */
static bp_world *settled_column(int64_t solver, int n)
{
    bp_params p = arena_without_drag(21.0, 700.0);
    p.restitution = 0.5;
    p.solver = solver;
    bp_world *w = bp_world_new(&p);
    for (int k = 0; k < n; k++)
        bp_world_insert_ball(w, 10.5, p.height - 10.0 - 21.0 * k, 0.0, 0.0, 10.0, 0.0);
    for (int s = 0; s < 360; s++)
        step_or_bail(w);
    return w;
}

/* The floor must carry the whole column. Without a supported pass,
 * Gauss-Seidel sinks each ball into the one below by a share of the weight
 * above it; with it, every gap is closed to rounding (1e-6 px) and every
 * ball is at rest. */
static void column_stands_on_the_floor(void)
{
    const int n = 30;
    bp_world *w = settled_column(BP_SOLVER_PASSES, n);
    double worst_gap = 0.0, fastest = 0.0;
    for (int k = 1; k < n; k++) {
        double gap = fabs(ball_y(w, (uint32_t)k - 1) - ball_y(w, (uint32_t)k) - 20.0);
        worst_gap = gap > worst_gap ? gap : worst_gap;
    }
    for (int k = 0; k < n; k++)
        fastest = fabs(ball_vy(w, (uint32_t)k)) > fastest ? fabs(ball_vy(w, (uint32_t)k)) : fastest;
    printf("# column: worst gap error %.3g px, fastest %.3g px/s\n", worst_gap, fastest);
    TAP_OK(worst_gap < 1e-6, "column of 30: every ball rests exactly on the one below");
    TAP_OK(fastest == 0.0, "column of 30: every ball at rest (velocity exactly 0)");
    TAP_NEAR(ball_y(w, n - 1), w->params.height - 10.0 - 20.0 * (n - 1), 1e-6,
             "column of 30: the top ball stands 29 diameters above the floor ball");
    bp_world_destroy(w);
}

/* Under the soft solver each contact of the column is a spring that
 * carries the weights above it by pressing in: the floor's, one-sided,
 * sinks 30 sags (bp_soft_sag, g / omega^2 a weight), and the contact under
 * ball k, between two equal balls (half the mass to push), 2 (30 - k)
 * sags. So the gap below ball k closes 2 (30 - k) sags too far, and the
 * top ball stands 30 + 2 (29 + 28 + ... + 1) = 900 sags (0.79 px) below
 * 29 diameters over the floor ball's place: a chain of springs, worked by
 * hand, to 1% of each. */
static void column_of_springs_under_the_soft_solver(void)
{
    const int n = 30;
    bp_world *w = settled_column(BP_SOLVER_SOFT, n);
    double sag = bp_soft_sag(&w->params), worst = 0.0, fastest = 0.0;
    for (int k = 1; k < n; k++) {
        double pressed = 20.0 - (ball_y(w, (uint32_t)k - 1) - ball_y(w, (uint32_t)k));
        double want = 2.0 * (n - k) * sag;
        worst = fmax(worst, fabs(pressed - want) / want);
    }
    for (int k = 0; k < n; k++)
        fastest = fmax(fastest, fabs(ball_vy(w, (uint32_t)k)));
    double top = ball_y(w, (uint32_t)n - 1) - (w->params.height - 10.0 - 20.0 * (n - 1));
    printf("# soft column: sag %.6f px, gaps off their springs' by %.3g of it at most, top "
           "%.4f px low (900 sags: %.4f)\n",
           sag, worst, top, 900.0 * sag);
    TAP_OK(worst < 0.01, "soft column of 30: each gap pressed 2 sags a weight above it, to 1%");
    TAP_OK(fastest < 1e-9, "soft column of 30: every ball at rest");
    TAP_NEAR(top, 900.0 * sag, 9.0 * sag, "soft column of 30: the top ball 900 sags low, to 1%");
    bp_world_destroy(w);
}

/* A ball resting on the floor falls asleep after half a second at rest,
 * keeps exactly still (under the soft solver, sunk into the floor by the
 * contact's give under its weight, bp_soft_sag), and a ball dropped onto
 * it wakes it: the impact is passed on (the sleeper is pressed into the
 * floor and bounces the other ball up), not absorbed by a frozen body. */
static void sleeper_wakes_when_hit(int64_t solver)
{
    bp_params p = arena_without_drag(200.0, 400.0);
    p.solver = solver;
    p.restitution = 0.8;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 100.0, p.height - 10.0, 0.0, 0.0, 10.0, 0.0);
    for (int s = 0; s < 120; s++)
        step_or_bail(w);
    TAP_OK(ball_flags(w, 0) & BP_BALL_ASLEEP, "a ball at rest on the floor sleeps after 1 s");
    double sunk = solver == BP_SOLVER_SOFT ? bp_soft_sag(&p) : 0.0;
    TAP_OK(ball_vy(w, 0) == 0.0, "a sleeping ball is still");
    TAP_NEAR(ball_y(w, 0), p.height - 10.0 + sunk, 1e-9, "a sleeping ball rests on the floor");

    /* Dropped from 200 px: it arrives at ~626 px/s, far above the wake speed. */
    bp_world_insert_ball(w, 100.0, p.height - 230.0, 0.0, 0.0, 10.0, 0.0);
    double lowest_vy = 0.0;
    bool woke = false;
    for (int s = 0; s < 120; s++) {
        step_or_bail(w);
        woke |= !(ball_flags(w, 0) & BP_BALL_ASLEEP);
        lowest_vy = ball_vy(w, 1) < lowest_vy ? ball_vy(w, 1) : lowest_vy;
    }
    TAP_OK(woke, "a ball dropped onto a sleeper wakes it");
    /* e = 0.8 off a ball standing on the floor: it must come back up fast
     * (more than half its impact speed), not stop dead on a frozen body. */
    printf("# the dropped ball came back up at %.1f px/s\n", -lowest_vy);
    TAP_OK(-lowest_vy > 0.5 * sqrt(2.0 * p.gravity * 200.0),
           "the dropped ball bounces off the woken sleeper");
    bp_world_destroy(w);
}

/* Two balls stacked on the floor fall asleep; when the lower one is taken
 * away, the upper one must wake and fall, not hang where it slept. */
static void sleeper_never_hangs(int64_t solver)
{
    bp_params p = arena_without_drag(22.0, 400.0);
    p.solver = solver;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 11.0, p.height - 10.0, 0.0, 0.0, 10.0, 0.0);
    bp_world_insert_ball(w, 11.0, p.height - 30.0, 0.0, 0.0, 10.0, 0.0);
    for (int s = 0; s < 240; s++)
        step_or_bail(w);
    TAP_OK((ball_flags(w, 0) & ball_flags(w, 1) & BP_BALL_ASLEEP) != 0,
           "a stack of two sleeps after 2 s");
    bp_world_delete_ball(w, 0);
    double lowest = ball_y(w, 1);
    for (int s = 0; s < 60; s++) {
        step_or_bail(w);
        lowest = ball_y(w, 1) > lowest ? ball_y(w, 1) : lowest;
    }
    /* It falls 20 px and bounces: the step's end sees the floor to within
     * one step's travel at the impact speed sqrt(2 g 20). */
    TAP_NEAR(lowest, p.height - 10.0, sqrt(2.0 * p.gravity * 20.0) / p.hz,
             "with its support removed, the upper sleeper falls to the floor");
    bp_world_destroy(w);
}

/* The grid is sized from the largest radius. A ball far bigger than any
 * before it, added to a world that has already stepped, must still meet the
 * small balls it lands on: with the grid of the small balls, the big one's
 * centre is several cells from theirs and no pair would be listed. Taking
 * it away again must leave the small ones colliding as before. */
static void a_big_ball_added_later_meets_the_small_ones(void)
{
    bp_params p = arena_without_drag(400.0, 400.0);
    p.gravity = 0.0;
    bp_world *w = bp_world_new(&p);
    for (int k = 0; k < 10; k++)
        bp_world_insert_ball(w, 100.0 + 10.0 * k, 200.0, 0.0, 0.0, 5.0, 0.0);
    for (int s = 0; s < 10; s++)
        step_or_bail(w);
    /* 60 px above the middle ones: 5 px into them. */
    int64_t big = bp_world_insert_ball(w, 145.0, 140.0, 0.0, 0.0, 60.0, 0.0);
    for (int s = 0; s < 30; s++)
        step_or_bail(w);
    double deepest = 0.0;
    for (uint32_t id = 0; id < 10; id++) {
        int64_t i = bp_world_index_of(w, id), b = bp_world_index_of(w, (uint32_t)big);
        double dx = w->x[i] - w->x[b], dy = w->y[i] - w->y[b];
        double overlap = 65.0 - sqrt(dx * dx + dy * dy);
        deepest = overlap > deepest ? overlap : deepest;
    }
    printf("# deepest overlap with the big ball after 30 steps: %.3g px\n", deepest);
    TAP_OK(deepest < 0.05, "a big ball added later is pushed out of the small balls it overlapped");
    bp_world_delete_ball(w, (uint32_t)big);
    /* Two small ones thrown at each other, head on, equal masses, e = 0.9. */
    int64_t a = bp_world_insert_ball(w, 300.0, 300.0, 200.0, 0.0, 5.0, 0.0);
    int64_t b = bp_world_insert_ball(w, 330.0, 300.0, -200.0, 0.0, 5.0, 0.0);
    for (int s = 0; s < 30; s++)
        step_or_bail(w);
    double va = w->vx[bp_world_index_of(w, (uint32_t)a)];
    double vb = w->vx[bp_world_index_of(w, (uint32_t)b)];
    TAP_NEAR(va, -0.9 * 200.0, 1e-6, "after it is gone, small balls still bounce off each other");
    TAP_NEAR(vb, 0.9 * 200.0, 1e-6, "... both of them, with the restitution's share");
    bp_world_destroy(w);
}

/* Under gravity, two balls colliding in mid-air stand on nothing: the
 * supported pass must leave them alone, so their momentum changes by
 * exactly the gravity impulse (to rounding). */
static void midair_collision_keeps_momentum(void)
{
    bp_params p = arena_without_drag(2000.0, 2000.0);
    p.restitution = 0.7;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 900.0, 300.0, 150.0, 5.0, 12.0, 0.0);
    bp_world_insert_ball(w, 1000.0, 300.0, -60.0, -5.0, 20.0, 0.0);
    double m0 = w->mass[0], m1 = w->mass[1];
    double px0 = m0 * w->vx[0] + m1 * w->vx[1], py0 = m0 * w->vy[0] + m1 * w->vy[1];
    const int steps = 60;
    for (int s = 0; s < steps; s++)
        step_or_bail(w);
    double px = m0 * w->vx[bp_world_index_of(w, 0)] + m1 * w->vx[bp_world_index_of(w, 1)];
    double py = m0 * ball_vy(w, 0) + m1 * ball_vy(w, 1);
    double gravity_impulse = (m0 + m1) * p.gravity * steps / p.hz;
    TAP_OK(ball_x(w, 0) < ball_x(w, 1) && w->vx[bp_world_index_of(w, 0)] < 150.0,
           "mid-air: the balls did collide");
    TAP_NEAR(px, px0, 1e-9 * fabs(m0 * 150.0), "mid-air collision: horizontal momentum kept");
    TAP_NEAR(py, py0 + gravity_impulse, 1e-9 * gravity_impulse,
             "mid-air collision: vertical momentum changes by the gravity impulse only");
    bp_world_destroy(w);
}

/* Thirty balls poured into a V of two walls: the pile must come to rest,
 * not buzz. Balls resting on a sloped wall count as supported, so the ones
 * above them settle too. After 8 s nothing may move faster than
 * 0.01 px/s (a buzzing pile keeps tens of px/s). */
static void pile_in_a_v_comes_to_rest(void)
{
    bp_params p = bp_params_default();
    p.restitution = 0.5;
    p.friction = 0.3;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_wall(w, (bp_wall){212.0, 520.0, 512.0, 700.0, 2.0});
    bp_world_insert_wall(w, (bp_wall){512.0, 700.0, 812.0, 520.0, 2.0});
    for (int k = 0; k < 30; k++)
        bp_world_insert_ball(w, 380.0 + 26.0 * (k % 10), 300.0 - 30.0 * (k / 10), 0.0, 0.0,
                             9.0 + (k % 3), 0.0);
    for (int s = 0; s < 960; s++)
        step_or_bail(w);
    double fastest = 0.0;
    for (size_t i = 0; i < w->count; i++)
        fastest = fmax(fastest, hypot(w->vx[i], w->vy[i]));
    printf("# V pile after 8 s: fastest ball %.3g px/s\n", fastest);
    TAP_OK(fastest < 0.01, "a pile of 30 balls in a V comes to rest within 8 s");
    bp_world_destroy(w);
}

/* A crowd landing very fast: 2,000 balls of 5 px dropped down a shaft
 * 4,000 px tall hit the pile at up to sqrt(2 g h) ~ 2,800 px/s, 4.7 radii
 * per step at 120 Hz. The step must split itself into substeps, or the
 * landing drives balls through each other (overlaps of 2 r that never heal
 * were seen in the 100,000-ball pit). After 6 s the pile must be firm. */
static void crowd_landing_fast_stays_firm(void)
{
    bp_params p = arena_without_drag(300.0, 4000.0);
    p.gravity = 1000.0;
    p.restitution = 0.5;
    p.friction = 0.2;
    bp_world *w = bp_world_new(&p);
    for (int k = 0; k < 2000; k++)
        bp_world_insert_ball(w, 10.0 + 14.0 * (k % 20), 3400.0 - 14.0 * (k / 20), 0.0, 0.0, 5.0,
                             0.0);
    for (int s = 0; s < 720; s++)
        step_or_bail(w);
    double overlap = bp_passes_max_overlap(w) / 5.0;
    printf("# crowd landed from 3,400 px: deepest overlap %.4f r\n", overlap);
    TAP_OK(overlap <= 0.05, "a crowd landing at 4.7 radii per step leaves a firm pile");
    bp_world_destroy(w);
}

/* The pit of 5,000 balls while it lands (seeds 1-3, the first 200 steps):
 * after every step no two balls may be left pressed into each other by
 * more than 0.15 r. A ball knocked down into the pile is pushed back up by
 * it, further than the margin of the step's pair list, and into a ball
 * above it that the list did not hold: such pairs stayed 0.18-0.62 r deep
 * (1 r at 10,000 balls) until the clean-up looked for them. */
static void a_landing_pit_never_sinks_balls_into_each_other(void)
{
    const uint64_t n = 5000;
    double worst = 0.0;
    int worst_step = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        bp_params p = bp_pit_params(n);
        bp_world *w = bp_world_new(&p);
        bp_spawn_pit(w, n, seed);
        for (int s = 1; s <= 200; s++) {
            step_or_bail(w);
            double overlap = bp_passes_max_overlap(w) / BP_PIT_RADIUS;
            if (overlap > worst) {
                worst = overlap;
                worst_step = s;
            }
        }
        bp_world_destroy(w);
    }
    printf("# landing, 5,000 balls, seeds 1-3: deepest overlap after any step %.3f r (step %d)\n",
           worst, worst_step);
    TAP_OK(worst <= 0.15, "pit of 5,000 landing: no two balls left more than 0.15 r deep");
}

/* Big enough that the worker threads really run (the solver uses them from
 * 8,192 balls on): one and two threads must give the same bits. */
static void threads_give_identical_results(void)
{
    const uint64_t n = 9000;
    bp_params p = bp_pit_params(n);
    bp_world *one = bp_world_new(&p), *two = bp_world_new(&p);
    one->threads = 1;
    two->threads = 2;
    bp_spawn_pit(one, n, 3);
    bp_spawn_pit(two, n, 3);
    for (int s = 0; s < 150; s++) {
        step_or_bail(one);
        step_or_bail(two);
    }
    size_t differ = 0;
    for (uint32_t id = 0; id < n; id++) {
        int64_t a = bp_world_index_of(one, id), b = bp_world_index_of(two, id);
        if (memcmp(&one->x[a], &two->x[b], sizeof(double)) ||
            memcmp(&one->y[a], &two->y[b], sizeof(double)) ||
            memcmp(&one->vx[a], &two->vx[b], sizeof(double)) ||
            memcmp(&one->vy[a], &two->vy[b], sizeof(double)))
            differ++;
    }
    TAP_OK(differ == 0, "9,000 balls, 150 steps: --threads 2 gives the same bits as one thread");

    /* The step sorts balls by cell: ids must still find their ball. */
    size_t lost = 0;
    for (uint32_t id = 0; id < n; id++)
        if (two->id[bp_world_index_of(two, id)] != id)
            lost++;
    TAP_OK(lost == 0, "after cell reordering every id still finds its own ball");
    bp_world_destroy(one);
    bp_world_destroy(two);
}

/* A few big balls among the small ones get the grid cut for the small ones
 * and their pairs listed apart (broadphase.h): a ball of 20 px held and
 * dragged through the pit of 9,000 while it lands, with another one let
 * fall into it or not (the supported pass shares its work between two
 * threads only while every big ball is held), must give the same bits on
 * two threads as on one and end out of the balls around them. */
static void big_balls_in_a_pit_on_two_threads(bool with_free_ball)
{
    const uint64_t n = 9000;
    bp_params p = bp_pit_params(n);
    bp_world *w[2] = {bp_world_new(&p), bp_world_new(&p)};
    int64_t held = -1, free_ball = -1;
    for (int k = 0; k < 2; k++) {
        w[k]->threads = k + 1;
        bp_spawn_pit(w[k], n, 5);
        if (with_free_ball)
            free_ball = bp_world_insert_ball(w[k], 0.3 * p.width, 40.0, 0.0, 0.0, 20.0, 0.0);
        held = bp_world_insert_ball(w[k], 0.6 * p.width, 40.0, 0.0, 0.0, 20.0, 0.0);
        bp_world_set_held(w[k], (uint32_t)held, true);
    }
    for (int s = 0; s < 200; s++)
        for (int k = 0; k < 2; k++) {
            /* The hand goes down and across at 600 px/s. */
            int64_t h = bp_world_index_of(w[k], (uint32_t)held);
            w[k]->vx[h] = s < 100 ? 0.0 : 600.0 * (s % 40 < 20 ? 1.0 : -1.0);
            w[k]->vy[h] = s < 100 ? 600.0 : 0.0;
            step_or_bail(w[k]);
        }
    size_t differ = 0;
    for (uint32_t id = 0; id < w[0]->next_id; id++) {
        int64_t a = bp_world_index_of(w[0], id), b = bp_world_index_of(w[1], id);
        if (memcmp(&w[0]->x[a], &w[1]->x[b], sizeof(double)) ||
            memcmp(&w[0]->y[a], &w[1]->y[b], sizeof(double)) ||
            memcmp(&w[0]->vx[a], &w[1]->vx[b], sizeof(double)) ||
            memcmp(&w[0]->vy[a], &w[1]->vy[b], sizeof(double)))
            differ++;
    }
    TAP_OK(differ == 0, with_free_ball
                            ? "9,000 balls, a big one held and one free: two threads give one's bits"
                            : "9,000 balls and a big one held: two threads give one's bits");
    double deepest = 0.0;
    for (int k = with_free_ball ? 0 : 1; k < 2; k++) {
        int64_t big = bp_world_index_of(w[0], (uint32_t)(k ? held : free_ball));
        for (size_t i = 0; i < w[0]->count; i++) {
            double dx = w[0]->x[i] - w[0]->x[big], dy = w[0]->y[i] - w[0]->y[big];
            double o = w[0]->r[i] + w[0]->r[big] - sqrt(dx * dx + dy * dy);
            if ((int64_t)i != big && o > deepest)
                deepest = o;
        }
    }
    printf("# deepest overlap with a big ball: %.3f r\n", deepest / BP_PIT_RADIUS);
    /* The pit's own target above 1,000 balls. */
    TAP_OK(deepest <= 0.1 * BP_PIT_RADIUS, "no small ball is left deeper than 0.1 r in a big one");
    bp_world_destroy(w[0]);
    bp_world_destroy(w[1]);
}

/* --bench-aspect: a pit A times as wide as high holds the same balls over
 * the same area (H = sqrt(N pi r^2 / (0.35 A))), so N balls at 1.6 N / 1,000
 * stand as deep as the standard 1,000-ball pit; a shape with no room for a
 * row or a column of balls is refused; the balls start inside and apart,
 * across the whole width. */
static void pit_shapes(void)
{
    const double r = BP_PIT_RADIUS;
    bp_params standard = bp_pit_params(1000);
    for (uint64_t n = 10000; n <= 100000; n *= 10) {
        double aspect = BP_PIT_ASPECT * (double)n / 1000.0;
        bp_params p = bp_pit_params_shaped(n, aspect);
        double cover = (double)n * BP_PI * r * r / (p.width * p.height);
        printf("# %llu balls at aspect %g: %.3f x %.3f px, cover %.4f\n",
               (unsigned long long)n, aspect, p.width, p.height, cover);
        TAP_OK(fabs(p.height - standard.height) < 1e-9 * standard.height &&
                   fabs(p.width / p.height - aspect) < 1e-9 * aspect &&
                   fabs(cover - 0.35) < 1e-12,
               "a pit N / 1,000 times as wide holds N balls as deep as the 1,000-ball pit");
    }
    char why[160];
    TAP_OK(!bp_pit_check(1000, BP_PIT_ASPECT, why, sizeof why) &&
               !bp_pit_check(1, BP_PIT_ASPECT, why, sizeof why) &&
               !bp_pit_check(2000000, BP_PIT_ASPECT, why, sizeof why),
           "the standard pit fits from 1 to 2,000,000 balls");
    TAP_OK(bp_pit_check(1000, 1e5, why, sizeof why) && bp_pit_check(1000, 1e-5, why, sizeof why),
           "a pit too shallow or too narrow for one row or column of balls is refused");

    /* 100 balls at aspect 150: more grid columns than balls would fit, so
     * one row of 100 must spread over the whole width. */
    const struct { uint64_t n; double aspect; } shapes[] = {{2000, 3.2}, {100, 150.0}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        uint64_t n = shapes[k].n;
        TAP_OK(!bp_pit_check(n, shapes[k].aspect, why, sizeof why), "a pit of this shape fits");
        bp_params p = bp_pit_params_shaped(n, shapes[k].aspect);
        bp_world *w = bp_world_new(&p);
        bp_spawn_pit(w, n, 3);
        size_t outside = 0, overlapping = 0;
        double x_min = INFINITY, x_max = -INFINITY;
        for (size_t i = 0; i < w->count; i++) {
            if (w->x[i] < r || w->x[i] > p.width - r || w->y[i] < r || w->y[i] > p.height - r)
                outside++;
            x_min = fmin(x_min, w->x[i]);
            x_max = fmax(x_max, w->x[i]);
            for (size_t j = i + 1; j < w->count; j++) {
                double dx = w->x[j] - w->x[i], dy = w->y[j] - w->y[i];
                if (dx * dx + dy * dy < 4.0 * r * r)
                    overlapping++;
            }
        }
        printf("# %llu balls at aspect %g: %zu out, %zu pairs overlap, x %.0f..%.0f of %.0f\n",
               (unsigned long long)n, shapes[k].aspect, outside, overlapping, x_min, x_max,
               p.width);
        TAP_OK(w->count == n && outside == 0 && overlapping == 0 &&
                   x_min < 0.05 * p.width && x_max > 0.95 * p.width,
               "the pit's balls start inside, apart and across the whole width");
        bp_world_destroy(w);
    }
}

/* A crowd landing fast: 3,000 balls of radius 3 falling under 10,000
 * px/s^2 reach 1,500 px/s, over four radii a step at 120 Hz, and land
 * within 2 s. The deepest overlap while they land, and at the end (the
 * pile at rest), in radii; name says which solver. */
static void land_a_fast_crowd(int64_t solver, const char *name, double *worst, double *at_rest)
{
    bp_params p = bp_params_default();
    p.solver = solver;
    p.width = 600.0;
    p.height = 900.0;
    p.gravity = 10000.0;
    p.restitution = 0.5;
    p.drag = 0.0;
    bp_world *w = bp_world_new(&p);
    char err[128], what[96];
    snprintf(what, sizeof what, "%s: 3,000 balls placed", name);
    TAP_OK(bp_spawn_random(w, 3000, 3.0, 3.0, 1, err, sizeof err) == 0, what);
    *worst = 0.0;
    for (int s = 0; s < 240; s++) {
        step_or_bail(w);
        *worst = fmax(*worst, bp_passes_max_overlap(w) / 3.0);
    }
    *at_rest = bp_passes_max_overlap(w) / 3.0;
    printf("# %s: deepest overlap %.3f r, at the end %.3f r\n", name, *worst, *at_rest);
    bp_world_destroy(w);
}

/* Taken in one step, such a crowd sinks into the pile before any contact
 * is seen and leaves balls sitting 2 r deep in each other; the step splits
 * into substeps of at most 2.5 radii of travel, and the deepest overlap
 * stays under 0.15 r from the first landing to the end. */
static void a_crowd_landing_fast_is_split_into_substeps(void)
{
    double worst, at_rest;
    land_a_fast_crowd(BP_SOLVER_PASSES, "fast landing", &worst, &at_rest);
    TAP_OK(worst < 0.15, "fast landing: the deepest overlap stays under 0.15 r");
}

/* The soft solver's contacts are springs (of a third of the substep rate)
 * that hold a load by pressing in, g / omega^2 a weight: 0.009 px at this
 * 10 g, so the pile at rest, 30 rows deep and squeezed into the corners,
 * is pressed up to about 0.3 r. Landing adds to that: in one piece of a
 * step, the balls ahead stopped on the pile and those behind, not yet
 * listed as their contacts, came on into them, 1.96 r deep. Now 0.23 r
 * more than at rest (0.69 and 0.46 r; 0.1-0.7 r over seeds 1-6 while the
 * whole pile took the pieces' stiffness, the passes 0.01-0.06 r): a ball
 * knocked fast within a step by a faster one still reaches balls it was
 * not listed with, and the pile's resting contacts keep a whole step's
 * stiffness in the pieces (a_ball_flying_past_moves_no_pile). */
static void a_crowd_landing_fast_under_the_soft_solver(void)
{
    double worst, at_rest;
    land_a_fast_crowd(BP_SOLVER_SOFT, "soft fast landing", &worst, &at_rest);
    TAP_OK(at_rest < 0.5, "soft fast landing: the pile at rest is pressed less than 0.5 r");
    TAP_OK(worst < at_rest + 0.3,
           "soft fast landing: landing presses at most 0.3 r deeper than the pile at rest");
}

/* A resting pile holds its weight by pressing its contacts in as far as
 * their stiffness asks, and a step cut into pieces (for a fast ball
 * anywhere) keeps that stiffness for every contact but the fast ball's:
 * stiffened to the pieces' substeps, the pile's overlaps were too deep
 * for them and the contacts pushed the whole pile up (a 10,000-ball pile
 * rose at 125 px/s while a ball flew past it). A settled 2,000-ball pit,
 * woken whole, and a ball flying over it at 12 radii a step: no ball of
 * the pile moves 0.01 r in half a second. */
static void a_ball_flying_past_moves_no_pile(void)
{
    enum { N = 2000 };
    bp_params p;
    bp_world *w = stepped_pit(BP_SOLVER_SOFT, N, 1200, &p);
    bp_world_def def = bp_world_get_def(w);
    TAP_OK(bp_world_set_def(w, &def) == NULL, "flyby: the settled pit woken whole");
    static double x0[N], y0[N];
    for (uint32_t id = 0; id < N; id++) {
        x0[id] = ball_x(w, id);
        y0[id] = ball_y(w, id);
    }
    bp_ball_def flyer = bp_default_ball_def();
    flyer.radius = BP_PIT_RADIUS;
    flyer.x = 2.0 * BP_PIT_RADIUS;
    flyer.y = 2.0 * BP_PIT_RADIUS;
    flyer.vx = 12.0 * BP_PIT_RADIUS * p.hz;
    TAP_OK(!bp_ball_id_is_null(bp_world_add_ball(w, &flyer)), "flyby: a ball flies over the pit");
    for (int s = 0; s < 60; s++)
        step_or_bail(w);
    double worst = 0.0;
    for (uint32_t id = 0; id < N; id++)
        worst = fmax(worst, hypot(ball_x(w, id) - x0[id], ball_y(w, id) - y0[id]));
    printf("# flyby: the most a ball of the pile moved in 0.5 s: %.3g r\n",
           worst / BP_PIT_RADIUS);
    TAP_OK(worst < 0.01 * BP_PIT_RADIUS, "flyby: no ball of the pile moves 0.01 r");
    bp_world_destroy(w);
}

/* 100 balls started on one spot: the line between two centres that
 * coincide says nothing, and taking "up" for it stacked them in a column
 * that stayed overlapping for good. Each pair now gets a direction of its
 * own, so they come apart in every direction: after 5 s none overlaps
 * another by more than 0.02 r, and they lie on both sides of the spot. */
static void balls_started_on_one_spot_come_apart(void)
{
    bp_params p = bp_params_default();
    bp_world *w = bp_world_new(&p);
    for (int k = 0; k < 100; k++)
        bp_world_insert_ball(w, 512.0, 384.0, 0.0, 0.0, 8.0, 0.0);
    for (int s = 0; s < 600; s++)
        step_or_bail(w);
    double deepest = bp_passes_max_overlap(w) / 8.0;
    size_t left = 0, right = 0;
    for (size_t i = 0; i < w->count; i++) {
        left += w->x[i] < 512.0 - 8.0;
        right += w->x[i] > 512.0 + 8.0;
    }
    printf("# one spot: deepest overlap %.4f r, %zu left and %zu right of it\n", deepest, left,
           right);
    TAP_OK(deepest < 0.02, "one spot: the balls come apart (no overlap over 0.02 r)");
    TAP_OK(left >= 20 && right >= 20, "one spot: they spread to both sides");
    bp_world_destroy(w);
}

int main(void)
{
    balls_started_on_one_spot_come_apart();
    a_crowd_landing_fast_is_split_into_substeps();
    a_crowd_landing_fast_under_the_soft_solver();
    a_ball_flying_past_moves_no_pile();
    pit_shapes();
    deep_pile_is_firm_and_still(BP_SOLVER_PASSES);
    deep_pile_is_firm_and_still(BP_SOLVER_SOFT);
    column_stands_on_the_floor();
    column_of_springs_under_the_soft_solver();
    for (int64_t solver = BP_SOLVER_PASSES; solver <= BP_SOLVER_SOFT; solver++) {
        printf("# sleepers under the %s\n", solver == BP_SOLVER_SOFT ? "soft solver" : "passes");
        sleeper_wakes_when_hit(solver);
        sleeper_never_hangs(solver);
        sleeper_falls_when_its_supporter_slides_away(solver);
    }
    settled_pit_sleeps_on_support();
    mixed_piles_come_to_rest();
    midair_collision_keeps_momentum();
    a_big_ball_added_later_meets_the_small_ones();
    pile_in_a_v_comes_to_rest();
    crowd_landing_fast_stays_firm();
    a_landing_pit_never_sinks_balls_into_each_other();
    threads_give_identical_results();
    big_balls_in_a_pit_on_two_threads(false);
    big_balls_in_a_pit_on_two_threads(true);
    return tap_done();
}
