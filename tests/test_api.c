/* The public API (<ballpit/ballpit.h>) as an embedder uses it: nothing
 * here includes a header of the library's own. Outcomes are worked out by
 * hand: a head-on elastic collision of equal masses swaps the velocities,
 * a ray meets a ball where the geometry says, a held ball does not fall,
 * ids name the same ball after the step has reordered the arrays. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ballpit/ballpit.h"
#include "tap.h"

static bp_world_def still_world(void)
{
    bp_world_def def = bp_default_world_def();
    def.gravity = 0.0;
    def.drag = 0.0;
    def.friction = 0.0;
    def.rolling = 0.0;
    def.restitution = 1.0;
    return def;
}

static bp_ball_id ball_at(bp_world *world, double x, double y, double vx, double r)
{
    bp_ball_def b = bp_default_ball_def();
    b.x = x;
    b.y = y;
    b.vx = vx;
    b.radius = r;
    return bp_world_add_ball(world, &b);
}

static bool steps(bp_world *world, int n)
{
    for (int k = 0; k < n; k++)
        if (!bp_world_step(world))
            return false;
    return true;
}

static void test_defaults_and_bad_defs(void)
{
    bp_world_def d = bp_default_world_def();
    TAP_OK(d.width == 1024.0 && d.height == 768.0 && d.gravity == 980.0 && d.hz == 120.0 &&
               d.restitution == 0.9 && d.friction == 0.1 && d.rolling == 0.01 &&
               d.drag == 0.05 && d.threads == 1,
           "the default def is the program's defaults");
    TAP_OK(bp_world_def_check(&d) == NULL, "the default def passes");

    bp_world_def bad = d;
    bad.hz = 0.0;
    TAP_OK(bp_world_create(&bad) == NULL && bp_world_def_check(&bad) != NULL,
           "hz 0 makes no world, with a reason");
    bad = d;
    bad.restitution = NAN;
    TAP_OK(bp_world_create(&bad) == NULL, "a NaN restitution makes no world");
    bad = d;
    bad.threads = 0;
    TAP_OK(bp_world_create(&bad) == NULL, "0 threads make no world");
    TAP_OK(bp_world_create(NULL) == NULL, "no def makes no world");

    bp_world *world = bp_world_create(&d);
    TAP_OK(world != NULL, "the default def makes a world");
    if (!world)
        return;
    bp_ball_def b = bp_default_ball_def();
    b.x = 100.0;
    b.y = 100.0;
    TAP_OK(!bp_ball_id_is_null(bp_world_add_ball(world, &b)), "a ball inside the arena is added");
    b.x = -5.0;
    TAP_OK(bp_ball_id_is_null(bp_world_add_ball(world, &b)), "a ball outside is refused");
    b.x = 100.0;
    b.vx = NAN;
    TAP_OK(bp_ball_id_is_null(bp_world_add_ball(world, &b)), "a NaN velocity is refused");
    b.vx = 0.0;
    b.mass = 1e-309;
    TAP_OK(bp_ball_id_is_null(bp_world_add_ball(world, &b)) && bp_ball_def_check(world, &b),
           "a mass whose reciprocal overflows is refused");
    b.mass = 0.0;
    b.radius = 0.0;
    TAP_OK(bp_ball_id_is_null(bp_world_add_ball(world, &b)), "radius 0 is refused");
    TAP_OK(!bp_world_add_wall(world, 10.0, 10.0, 5000.0, 10.0, 2.0),
           "a wall out of the arena is refused");
    TAP_OK(!bp_world_add_wall(world, 10.0, 10.0, 50.0, 10.0, -1.0),
           "a wall of negative thickness is refused");
    bp_world_def wider = bp_world_get_def(world);
    wider.width = 2000.0;
    TAP_OK(bp_world_set_def(world, &wider) != NULL, "a running world keeps its size");
    TAP_OK(bp_world_get_stats(world).balls == 1, "only the good ball is in the world");
    bp_world_destroy(world);
}

/* The soft solver is an embedder's choice as it is the program's, and a
 * def set on a running world keeps it (it silently went back to the
 * passes). */
static void test_solver_choice(void)
{
    bp_world_def d = bp_default_world_def();
    TAP_OK(d.solver == BP_SOLVER_PASSES, "the default def's solver is the passes");
    d.solver = (bp_solver_kind)7;
    TAP_OK(bp_world_create(&d) == NULL && bp_world_def_check(&d) != NULL,
           "an unknown solver makes no world, with a reason");
    d.solver = BP_SOLVER_SOFT;
    bp_world *world = bp_world_create(&d);
    TAP_OK(world && bp_world_get_def(world).solver == BP_SOLVER_SOFT,
           "a world made with the soft solver says so");
    if (!world)
        return;
    bp_world_def lower = bp_world_get_def(world);
    lower.gravity = 500.0;
    bool set = bp_world_set_def(world, &lower) == NULL;
    bp_world_def now = bp_world_get_def(world);
    TAP_OK(set && now.solver == BP_SOLVER_SOFT && now.gravity == 500.0,
           "a new gravity set on it keeps the soft solver");
    bp_world_destroy(world);
}

/* Equal masses, e = 1, no friction: the 1D law swaps the velocities. */
static void test_equal_masses_swap(void)
{
    bp_world_def def = still_world();
    bp_world *world = bp_world_create(&def);
    bp_ball_id a = ball_at(world, 300.0, 400.0, 200.0, 10.0);
    bp_ball_id b = ball_at(world, 400.0, 400.0, -50.0, 10.0);
    TAP_OK(steps(world, 60), "half a second steps");
    bp_ball_state sa = bp_world_get_ball(world, a), sb = bp_world_get_ball(world, b);
    TAP_OK(sa.vx == -50.0 && sb.vx == 200.0 && sa.vy == 0.0 && sb.vy == 0.0,
           "equal masses with e=1 swap their velocities exactly");
    TAP_OK(sa.w == 0.0 && sb.w == 0.0, "a head-on frictionless hit spins nothing");
    bp_energy e = bp_world_get_energy(world);
    TAP_NEAR(e.px, 150.0 * 100.0, 1e-9, "momentum m (200 - 50) holds (m = r^2 = 100)");
    TAP_NEAR(e.kinetic, 0.5 * 100.0 * (200.0 * 200.0 + 50.0 * 50.0), 1e-6,
             "kinetic energy holds");
    bp_world_destroy(world);
}

/* 3,000 balls: the step sorts the arrays by grid cell, yet every id still
 * names its ball, and the view agrees with get_ball. */
static void test_ids_survive_reordering(void)
{
    bp_world_def def = bp_default_world_def();
    def.width = 1600.0;
    def.height = 1200.0;
    def.threads = 2;
    def.solver = BP_SOLVER_PASSES; /* the solver that sorts the balls by grid cell */
    bp_world *world = bp_world_create(&def);
    enum { N = 3000 };
    static bp_ball_id ids[N];
    static double x0[N];
    for (int k = 0; k < N; k++) {
        /* Spread apart, so none touch (each falls on its own), in an order
         * that is not the grid's (7919 is prime to 3,000). */
        int slot = (int)((long)k * 7919 % N);
        x0[k] = 10.0 + (double)(slot % 60) * 26.0;
        ids[k] = ball_at(world, x0[k], 10.0 + (double)(slot / 60) * 22.0, 0.0, 4.0);
    }
    TAP_OK(steps(world, 9), "nine steps of 3,000 balls");
    bp_ball_view v = bp_world_view_balls(world);
    bool reordered = false, same = v.count == N;
    for (size_t i = 0; i < v.count && same; i++) {
        bp_ball_id id = {v.id[i]};
        bp_ball_state s = bp_world_get_ball(world, id);
        reordered |= v.id[i] != ids[i].value;
        same = s.x == v.x[i] && s.y == v.y[i] && s.radius == v.radius[i];
    }
    TAP_OK(reordered, "the step reordered the arrays");
    TAP_OK(same, "the view and get_ball agree ball by ball");
    bool kept = true;
    for (int k = 0; k < N && kept; k++)
        kept = bp_world_get_ball(world, ids[k]).x == x0[k];
    TAP_OK(kept, "each id still names the ball added with it (its x is unchanged)");

    TAP_OK(bp_world_remove_ball(world, ids[7]) && !bp_world_has_ball(world, ids[7]) &&
               bp_world_get_ball(world, ids[7]).radius == 0.0,
           "a removed ball is gone");
    TAP_OK(!bp_world_remove_ball(world, ids[7]) && !bp_world_remove_ball(world, BP_NULL_BALL_ID),
           "removing it again, or the null id, fails");
    bp_ball_id again = ball_at(world, 800.0, 1100.0, 0.0, 4.0);
    TAP_OK(again.value != ids[7].value, "a new ball never takes an old id");
    bp_world_destroy(world);
}

static void test_ray_and_point(void)
{
    bp_world_def def = still_world();
    bp_world *world = bp_world_create(&def);
    bp_ball_id id = ball_at(world, 500.0, 300.0, 0.0, 10.0);
    bp_ray_hit hit;
    TAP_OK(bp_world_cast_ray(world, 100.0, 300.0, 2.0, 0.0, INFINITY, &hit) &&
               hit.kind == BP_HIT_BALL && hit.id == id.value,
           "a ray along +x hits the ball");
    TAP_NEAR(hit.dist, 390.0, 1e-9, "at 500 - 10 - 100 px");
    TAP_OK(hit.nx == -1.0 && hit.ny == 0.0, "with the normal against the ray");
    TAP_OK(bp_world_cast_ray(world, 100.0, 300.0, 0.0, -1.0, INFINITY, &hit) &&
               hit.kind == BP_HIT_ARENA && hit.id == 0,
           "straight up it meets the top side");
    TAP_NEAR(hit.dist, 300.0, 1e-9, "300 px up");
    TAP_OK(!bp_world_cast_ray(world, 100.0, 300.0, 1.0, 0.0, 100.0, &hit),
           "a short ray hits nothing");
    TAP_OK(!bp_world_cast_ray(world, -1.0, 300.0, 1.0, 0.0, 100.0, &hit) &&
               bp_world_cast_ray_all(world, 100.0, 300.0, 0.0, 0.0, 10.0, NULL, 0) == SIZE_MAX,
           "a ray from outside or without a direction is refused");
    TAP_OK(bp_world_cast_ray_all(world, 100.0, 300.0, 1.0, 0.0, INFINITY, NULL, 0) == 2,
           "the whole ray enters the ball and then the right side");
    TAP_OK(bp_world_ball_at(world, 505.0, 305.0).value == id.value &&
               bp_ball_id_is_null(bp_world_ball_at(world, 520.0, 300.0)),
           "the point query finds the ball under a point, and nothing beside it");
    bp_world_destroy(world);
}

/* A wall stops a fast ball; a held ball stays where it is put. */
static void test_walls_and_held(void)
{
    bp_world_def def = bp_default_world_def();
    bp_world *world = bp_world_create(&def);
    TAP_OK(bp_world_add_wall(world, 600.0, 100.0, 600.0, 700.0, 2.0), "a wall is added");
    size_t n_walls;
    const bp_wall *walls = bp_world_get_walls(world, &n_walls);
    TAP_OK(n_walls == 1 && walls[0].x1 == 600.0 && walls[0].r == 2.0, "the wall reads back");
    bp_ball_id fast = ball_at(world, 300.0, 400.0, 50000.0, 5.0);
    bp_ball_id held = ball_at(world, 200.0, 200.0, 0.0, 10.0);
    TAP_OK(bp_world_set_ball_held(world, held, true), "a ball is held");
    bool never_past = true;
    for (int k = 0; k < 120; k++) {
        never_past &= bp_world_step(world);
        never_past &= bp_world_get_ball(world, fast).x <= 600.0 - 2.0 - 5.0 + 1e-9;
    }
    TAP_OK(never_past, "a ball at 50,000 px/s never passes the wall");
    bp_ball_state h = bp_world_get_ball(world, held);
    TAP_OK(h.x == 200.0 && h.y == 200.0 && (h.flags & BP_BALL_HELD),
           "the held ball feels no gravity");
    TAP_OK(bp_world_set_ball_velocity(world, held, 60.0, 0.0, 0.0) && steps(world, 60),
           "a held ball is moved by setting its velocity");
    TAP_NEAR(bp_world_get_ball(world, held).x, 230.0, 1e-9, "half a second at 60 px/s");
    TAP_OK(!bp_world_set_ball_velocity(world, held, INFINITY, 0.0, 0.0),
           "an infinite velocity is refused");
    bp_world_set_ball_held(world, held, false);
    TAP_OK(steps(world, 10) && bp_world_get_ball(world, held).vy > 0.0, "let go, it falls");
    bp_world_destroy(world);
}

/* A ball at rest on the floor: its potential energy is zero there, and
 * it goes to sleep; one lifted h px has m g h. */
static void test_energy_stats_stop(void)
{
    bp_world_def def = bp_default_world_def();
    def.restitution = 0.5; /* bounces that die out in 1.4 s */
    bp_world *world = bp_world_create(&def);
    bp_ball_id id = ball_at(world, 512.0, 768.0 - 10.0 - 100.0, 0.0, 10.0);
    bp_energy e = bp_world_get_energy(world);
    TAP_NEAR(e.potential, 100.0 * 980.0 * 100.0, 1e-6, "potential m g h, h = 100 px");
    TAP_OK(steps(world, 600), "five seconds");
    bp_ball_state s = bp_world_get_ball(world, id);
    TAP_NEAR(s.y, 768.0 - 10.0, 0.05, "the ball rests on the floor");
    bp_world_stats st = bp_world_get_stats(world);
    TAP_OK(st.steps == 600 && st.balls == 1 && st.awake == 0 && (s.flags & BP_BALL_ASLEEP),
           "the stats count 600 steps and a sleeping ball");
    volatile int stop = 1;
    bp_world_set_stop_flag(world, &stop);
    bp_world_set_ball_velocity(world, id, 0.0, -300.0, 0.0);
    TAP_OK(!bp_world_step(world), "a raised stop flag ends the step early");
    stop = 0;
    TAP_OK(bp_world_step(world), "lowered, the step runs");
    bp_world_destroy(world);
}

/* A soft world of friction 0.5 without bounce or drag, for a stack. */
static bp_world *soft_stack_world(void)
{
    bp_world_def def = bp_default_world_def();
    def.solver = BP_SOLVER_SOFT;
    def.drag = 0.0;
    def.restitution = 0.0;
    def.friction = 0.5;
    return bp_world_create(&def);
}

static double fastest(const bp_world *world)
{
    bp_ball_view v = bp_world_view_balls(world);
    double most = 0.0;
    for (size_t i = 0; i < v.count; i++)
        most = fmax(most, hypot(v.vx[i], v.vy[i]));
    return most;
}

/* Three balls of radius 10 stacked on the floor (two side by side, one
 * on them) come to rest carrying impulses: the floor's, summed, is the
 * three balls' weight over a substep, 3 m g / (4 hz), m = 100. Copied into
 * a new world at the same places, they hold the stack from its first step
 * (without them the balls sag as the contacts take up the load); a bad
 * entry is refused with a reason and changes nothing. */
static void test_contact_impulses(void)
{
    bp_world *a = soft_stack_world();
    double r = 10.0, floor_y = 768.0 - r - 0.01;
    double xs[3] = {500.0, 520.0, 510.0}, ys[3] = {floor_y, floor_y, floor_y - r * sqrt(3.0)};
    for (int i = 0; i < 3; i++)
        ball_at(a, xs[i], ys[i], 0.0, r);
    for (int k = 0; k < 360; k++)
        bp_world_step(a);
    bp_contact_impulse got[16];
    size_t n = bp_world_get_contact_impulses(a, got, 16);
    double floor_jn = 0.0;
    for (size_t k = 0; k < n && k < 16; k++)
        if (got[k].kind == BP_CONTACT_WITH_SIDE && got[k].b == 2)
            floor_jn += got[k].jn;
    TAP_OK(n == 5, "a stack of three carries 5 contacts: 2 on the floor, 2 to the top, 1 between");
    TAP_NEAR(floor_jn, 3.0 * 100.0 * 980.0 / (4.0 * 120.0), 1e-9,
             "the floor carries the stack's weight over a substep");
    TAP_OK(bp_world_get_contact_impulses(a, NULL, 0) == n, "with max 0 it only counts");

    /* Rebuilt in the order of the ids (0, 1, 2), the balls keep them. */
    bp_world *with = soft_stack_world(), *without = soft_stack_world();
    for (uint32_t id = 0; id < 3; id++) {
        bp_ball_state b = bp_world_get_ball(a, (bp_ball_id){id});
        ball_at(with, b.x, b.y, 0.0, r);
        ball_at(without, b.x, b.y, 0.0, r);
    }
    size_t refused_none = 0;
    const char *why = bp_world_set_contact_impulses(with, got, n, &refused_none);
    TAP_OK(why == NULL && refused_none == n, "the impulses are taken (refused: count, none)");
    bp_world_step(with);
    bp_world_step(without);
    TAP_NEAR(fastest(with), 0.0, 1e-6, "restored with its impulses, the stack is still");
    TAP_OK(fastest(without) > 1e-3, "restored without them, it sags");

    bp_contact_impulse bad[6] = {got[0], got[0], got[0], got[0], got[0], got[0]};
    bad[0].a = 99;
    bad[1].kind = BP_CONTACT_WITH_BALL, bad[1].a = 1, bad[1].b = 0;
    bad[2].kind = BP_CONTACT_WITH_SIDE, bad[2].b = 4;
    bad[3].jn = -1.0;
    bad[4].jt = bad[4].jn * 1.5;
    bad[5].kind = BP_CONTACT_WITH_WALL, bad[5].b = 0;
    bp_contact_impulse before[16], after[16];
    size_t count_before = bp_world_get_contact_impulses(without, before, 16);
    bool all_refused = true;
    for (int k = 0; k < 6; k++) {
        bp_contact_impulse pair[2] = {got[1], bad[k]};
        size_t at = 99;
        all_refused = all_refused && bp_world_set_contact_impulses(without, pair, 2, &at) != NULL &&
                      at == 1;
    }
    TAP_OK(all_refused, "an unknown ball, a > b, side 4, jn < 0, |jt| > jn, a missing wall: "
                        "refused, the bad entry named");
    size_t count_after = bp_world_get_contact_impulses(without, after, 16);
    bool same = count_after == count_before && count_before <= 16;
    for (size_t k = 0; same && k < count_before; k++)
        same = before[k].a == after[k].a && before[k].kind == after[k].kind &&
               before[k].b == after[k].b && before[k].jn == after[k].jn &&
               before[k].jt == after[k].jt && before[k].jr == after[k].jr;
    TAP_OK(same, "a refused list changes nothing, not even its good entries");
    bp_world_def passes = bp_default_world_def();
    passes.solver = BP_SOLVER_PASSES;
    bp_world *p = bp_world_create(&passes);
    for (uint32_t id = 0; id < 3; id++) {
        bp_ball_state b = bp_world_get_ball(a, (bp_ball_id){id});
        ball_at(p, b.x, b.y, 0.0, r);
    }
    bp_world_step(p);
    size_t at_passes = 0, bad_at_passes = 0;
    bp_contact_impulse good_then_bad[2] = {got[0], bad[0]};
    TAP_OK(bp_world_get_contact_impulses(p, NULL, 0) == 0 &&
               bp_world_set_contact_impulses(p, got, n, &at_passes) != NULL && at_passes == n &&
               bp_world_set_contact_impulses(p, good_then_bad, 2, &bad_at_passes) != NULL &&
               bad_at_passes == 1,
           "the passes, on the same stack, carry none and take none (a bad entry still named)");
    /* A removed ball's contacts are kept until the next step: never listed. */
    bp_world_remove_ball(a, (bp_ball_id){2});
    size_t left = bp_world_get_contact_impulses(a, got, 16);
    bool none_of_2 = left == 3;
    for (size_t k = 0; k < left && k < 16; k++)
        none_of_2 = none_of_2 && got[k].a != 2 &&
                    !(got[k].kind == BP_CONTACT_WITH_BALL && got[k].b == 2);
    TAP_OK(none_of_2, "a removed ball's contacts are not listed (3 of 5 left)");
    bp_world_destroy(p);
    bp_world_destroy(a);
    bp_world_destroy(with);
    bp_world_destroy(without);
}

int main(void)
{
    test_defaults_and_bad_defs();
    test_solver_choice();
    test_equal_masses_swap();
    test_ids_survive_reordering();
    test_ray_and_point();
    test_walls_and_held();
    test_energy_stats_stop();
    test_contact_impulses();
    return tap_done();
}
