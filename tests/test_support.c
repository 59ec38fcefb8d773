/* The supported pass lets the pairs far above where its last pass stopped
 * wait, and finds them only if it gets that high. Whatever it lets wait,
 * the result must be the one listing every pair at once gives, bit for
 * bit: the same balls where they were put and the same touching lists. */
#include <math.h>
#include <string.h>

#include <stdio.h>

#include "ballpit/ballpit.h"
#include "broadphase.h"
#include "spawn.h"
#include "support.h"
#include "step.h"
#include "tap.h"
#include "workers.h"
#include "world.h"

#define BALLS 3000
/* The pit's first layers have landed; the crowd above them still falls. */
#define STEPS 45

static bp_world *landing_pit(void)
{
    bp_params params = bp_pit_params(BALLS);
    bp_world *world = bp_world_new(&params);
    if (!world || !bp_spawn_pit(world, BALLS, 1))
        return NULL;
    for (int s = 0; s < STEPS; s++)
        step_or_bail(world);
    return world;
}

/* One supported pass over the world's pairs as the solver lists them. */
static bool support_pass(bp_world *world, bp_support *support, bp_workers *workers)
{
    bp_broadphase bp = {0};
    bp.awake_pairs_only = true;
    double margin = world->r_min;
    bool ok = bp_broadphase_sort(&bp, world, margin, NULL) &&
              bp_broadphase_pairs(&bp, world, margin, workers) &&
              bp_support_pass(support, world, &bp, world->r_min, workers);
    bp_broadphase_free(&bp);
    return ok;
}

static bool same_balls(const bp_world *a, const bp_world *b)
{
    size_t n = a->count, d = n * sizeof(double);
    return n == b->count && memcmp(a->x, b->x, d) == 0 && memcmp(a->y, b->y, d) == 0 &&
           memcmp(a->vx, b->vx, d) == 0 && memcmp(a->vy, b->vy, d) == 0 &&
           memcmp(a->w, b->w, d) == 0 && memcmp(a->angle, b->angle, d) == 0 &&
           memcmp(a->flags, b->flags, n) == 0;
}

/* Whether b gives every ball the list a gives it. With b_may_lack, b may
 * give none (NULL) for a ball a's pass did not support: the balls above
 * where a pass stops, whose pairs waited. *lacking counts those. */
static bool same_lists(const bp_support *a, const bp_support *b, size_t balls, bool b_may_lack,
                       size_t *lacking)
{
    *lacking = 0;
    for (uint32_t i = 0; i < balls; i++) {
        uint32_t na, nb;
        const uint32_t *la = bp_support_touching(a, i, &na);
        const uint32_t *lb = bp_support_touching(b, i, &nb);
        if (b_may_lack && la && !lb && !a->supported[i]) {
            (*lacking)++;
            continue;
        }
        if ((la == NULL) != (lb == NULL) || na != nb ||
            (na > 0 && memcmp(la, lb, na * sizeof(uint32_t)) != 0))
            return false;
    }
    return true;
}

/* How many pairs the last pass let wait at first. */
static size_t deferred(const bp_support *s, size_t pairs)
{
    size_t count = 0;
    for (size_t p = 0; p < pairs; p++)
        count += s->pair_state[p] == BP_SUPPORT_PAIR_DEFERRED;
    return count;
}

static size_t pair_count(const bp_world *world)
{
    bp_broadphase bp = {0};
    bp.awake_pairs_only = true;
    size_t count = 0;
    if (bp_broadphase_sort(&bp, world, world->r_min, NULL) &&
        bp_broadphase_pairs(&bp, world, world->r_min, NULL))
        count = bp.pair_count;
    bp_broadphase_free(&bp);
    return count;
}

static void waiting_pairs_change_nothing(void)
{
    bp_world *before = landing_pit(), *none = landing_pit(), *all = landing_pit();
    bp_world *all_threads = landing_pit(), *autom = landing_pit();
    if (!before || !none || !all || !all_threads || !autom) {
        TAP_OK(false, "the pits are made");
        return;
    }
    size_t pairs = pair_count(before);
    bp_workers *workers = bp_workers_create(2);

    bp_support s_none = {.defer = BP_SUPPORT_DEFER_NONE};
    bp_support s_all = {.defer = BP_SUPPORT_DEFER_ALL};
    bp_support s_threads = {.defer = BP_SUPPORT_DEFER_ALL};
    bp_support s_auto = {.defer = BP_SUPPORT_DEFER_AUTO};
    bool ok = support_pass(none, &s_none, NULL) && support_pass(all, &s_all, NULL) &&
              support_pass(all_threads, &s_threads, workers);
    /* Where a pass of this step would stop: the pairs well above it wait. */
    s_auto.last_top = s_none.last_top;
    ok = ok && support_pass(autom, &s_auto, NULL);
    TAP_OK(ok, "the passes run");

    TAP_OK(!same_balls(before, none), "the pass settles balls (so the comparisons below can fail)");
    TAP_OK(deferred(&s_all, pairs) == pairs && pairs > 0,
           "every pair waited at first, and was found at the first ball");
    size_t lacking;
    TAP_OK(same_balls(none, all) && same_lists(&s_none, &s_all, BALLS, false, &lacking),
           "all pairs found late: the same balls and lists as all found at once");
    TAP_OK(same_balls(none, all_threads) &&
               same_lists(&s_none, &s_threads, BALLS, false, &lacking),
           "the same on two threads");
    size_t waited = deferred(&s_auto, pairs);
    TAP_OK(waited > pairs / 10, "the falling crowd's pairs wait by themselves");
    TAP_OK(same_balls(none, autom), "the crowd's pairs waiting: the same balls");
    TAP_OK(same_lists(&s_none, &s_auto, BALLS, true, &lacking) && lacking > 0,
           "the same lists, but none for balls above where the pass stopped");

    bp_support_free(&s_none);
    bp_support_free(&s_all);
    bp_support_free(&s_threads);
    bp_support_free(&s_auto);
    bp_workers_destroy(workers);
    bp_world_destroy(before);
    bp_world_destroy(none);
    bp_world_destroy(all);
    bp_world_destroy(all_threads);
    bp_world_destroy(autom);
}

/* Two threads share the finding of who touches whom, strip by strip: the
 * result must be one thread's, bit for bit. */
static void two_threads_change_nothing(void)
{
    const uint64_t n = 9000;
    bp_params params = bp_pit_params(n);
    bp_world *pits[4];
    for (int k = 0; k < 4; k++) {
        pits[k] = bp_world_new(&params);
        if (pits[k] && bp_spawn_pit(pits[k], n, 2))
            for (int s = 0; s < 100; s++) /* half the pit has landed */
                step_or_bail(pits[k]);
    }
    bp_world *before = pits[0], *one = pits[1], *two = pits[2], *three = pits[3];
    bp_workers *workers = bp_workers_create(2), *more = bp_workers_create(3);
    bp_support s_one = {.defer = BP_SUPPORT_DEFER_NONE};
    bp_support s_two = {.defer = BP_SUPPORT_DEFER_NONE};
    bp_support s_three = {.defer = BP_SUPPORT_DEFER_NONE};
    bool ok = before && one && two && three && workers && more &&
              support_pass(one, &s_one, NULL) && support_pass(two, &s_two, workers) &&
              support_pass(three, &s_three, more);
    TAP_OK(ok, "9,000 balls: the passes run");
    TAP_OK(ok && !same_balls(before, one), "the pass settles balls");
    /* The visits themselves were shared: each lane waits where its balls
     * meet another's, so a wrong wait would show as other bits. */
    /* No more lanes than the machine has cores (they wait by spinning). */
    int cores = bp_workers_cores(more);
    TAP_OK(ok && s_one.lanes == 1 && s_two.lanes == (cores < 2 ? 1 : 2) && s_three.lanes == cores,
           "the visits went to 1, 2 and 3 lanes (as many as there are cores)");
    size_t lacking;
    TAP_OK(ok && same_balls(one, two) && same_lists(&s_one, &s_two, n, false, &lacking),
           "two threads: the same balls and lists as one thread");
    TAP_OK(ok && same_balls(one, three) && same_lists(&s_one, &s_three, n, false, &lacking),
           "three threads: the same balls and lists as one thread");
    bp_support_free(&s_one);
    bp_support_free(&s_two);
    bp_support_free(&s_three);
    bp_workers_destroy(workers);
    bp_workers_destroy(more);
    for (int k = 0; k < 4; k++)
        bp_world_destroy(pits[k]);
}

/* Whether two worlds hold the same balls, bit for bit, by id: the step
 * reorders the balls in memory. */
static bool same_by_id(const bp_world *a, const bp_world *b)
{
    if (a->count != b->count)
        return false;
    for (uint32_t id = 0; id < a->count; id++) {
        int64_t i = bp_world_index_of(a, id), j = bp_world_index_of(b, id);
        if (i < 0 || j < 0 || memcmp(&a->x[i], &b->x[j], sizeof(double)) ||
            memcmp(&a->y[i], &b->y[j], sizeof(double)) ||
            memcmp(&a->vx[i], &b->vx[j], sizeof(double)) ||
            memcmp(&a->vy[i], &b->vy[j], sizeof(double)) ||
            memcmp(&a->w[i], &b->w[j], sizeof(double)) ||
            memcmp(&a->angle[i], &b->angle[j], sizeof(double)) || a->flags[i] != b->flags[j])
            return false;
    }
    return true;
}

/* n balls in a world of the pit's size, falling: half from a tall narrow
 * block left of the middle, which lands as a heap, half from a wide low
 * block right of it, which lands flat. Where the lanes meet, one side's
 * pile stands far higher than the other's, and balls fall past it. */
static bool heap_and_layer(bp_world *world, uint64_t n)
{
    double w = world->params.width, h = world->params.height, r = 3.0, gap = 3.0 * r;
    int narrow = (int)(0.2 * w / gap), wide = (int)(0.45 * w / gap);
    for (uint64_t k = 0; k < n; k++) {
        bool left = k < n / 2;
        uint64_t i = left ? k : k - n / 2;
        int cols = left ? narrow : wide;
        bp_ball_def ball = bp_default_ball_def();
        ball.radius = r + 0.25 * (double)(k % 3);
        ball.x = (left ? 0.25 * w : 0.5 * w) + gap * (double)(i % (uint64_t)cols) +
                 r * (double)((k * 7919) % 100) / 100.0;
        ball.y = h - 2.0 * r - gap * (double)(i / (uint64_t)cols);
        if (ball.y < 2.0 * r)
            return false;
        if (bp_ball_id_is_null(bp_world_add_ball(world, &ball)))
            return false;
    }
    return true;
}

/* A heap and a layer landing, stepped whole on one, two and three threads
 * and compared after every step: the lanes stop where the balls still
 * falling are out of reach of everything supported, which is far higher
 * on one side than on the other (a lane that stopped on its own side's
 * height differed from step 117 on). */
static void landing_steps_change_nothing(void)
{
    const uint64_t n = 12000;
    const int steps = 150;
    bp_params params = bp_pit_params(n);
    bp_world *worlds[3];
    for (int k = 0; k < 3; k++) {
        worlds[k] = bp_world_new(&params);
        if (worlds[k]) {
            worlds[k]->threads = k + 1;
            if (!heap_and_layer(worlds[k], n)) {
                bp_world_destroy(worlds[k]);
                worlds[k] = NULL;
            }
        }
    }
    bool made = worlds[0] && worlds[1] && worlds[2];
    TAP_OK(made, "12,000 balls: the heap and the layer are made");
    int first_differ = -1;
    for (int step = 0; made && step < steps && first_differ < 0; step++) {
        for (int k = 0; k < 3; k++)
            step_or_bail(worlds[k]);
        if (!same_by_id(worlds[0], worlds[1]) || !same_by_id(worlds[0], worlds[2]))
            first_differ = step;
    }
    if (first_differ >= 0)
        printf("# first differs after step %d\n", first_differ);
    TAP_OK(made && first_differ < 0,
           "a heap and a layer landing, 150 steps: two and three threads give one's bits "
           "after every step");
    for (int k = 0; k < 3; k++)
        bp_world_destroy(worlds[k]);
}

/* Adds a ball of radius 3 at (x, y), asleep or awake; its index. */
static size_t add_at(bp_world *world, double x, double y, bool asleep)
{
    bp_ball_def ball = bp_default_ball_def();
    ball.x = x;
    ball.y = y;
    ball.radius = 3.0;
    if (bp_ball_id_is_null(bp_world_add_ball(world, &ball)))
        return SIZE_MAX;
    size_t i = world->count - 1;
    if (asleep)
        bp_world_sleep(world, i);
    return i;
}

/* Balls on each side of where two lanes meet. */
#define SIDE_BALLS 12000

/* A sleeper that loses its support wakes, and one asleep on it then
 * finds nothing under it and wakes too: on one thread, in the pass's
 * order. Here the two lie on either side of where two lanes meet, the
 * lower one's lane has 12,000 balls to visit before it and the upper
 * one's a hundred: only the waits of the balls in the columns next to
 * another lane's (a sleeper searches the cells around it, and the two are
 * not a listed pair) keep the upper one from being visited first. */
static bool sleepers_across_lanes(bp_world *world, double cell, size_t *lower, size_t *upper)
{
    double w = world->params.width, h = world->params.height, step = 6.5;
    /* The column boundary the two lie across, near the middle. */
    double seam = cell * floor(0.5 * w / cell);
    int per_row = (int)((seam - 40.0) / step);
    bool ok = true;
    /* Left: balls awake low down, and one next to the lower sleeper. */
    for (int k = 0; k < SIDE_BALLS && ok; k++)
        ok = add_at(world, 20.0 + step * (k % per_row), h - 3.0 - step * (k / per_row), false) !=
             SIZE_MAX;
    double yl = h - 400.0;
    ok = ok && add_at(world, seam - 1.5 - 6.2, yl, false) != SIZE_MAX;
    /* Right: as many, a hundred on the floor and the rest high above, and
     * one next to the upper sleeper. */
    for (int k = 0; k < SIDE_BALLS && ok; k++) {
        double x = seam + 20.0 + step * (k % per_row);
        double y = k < 100 ? h - 3.0 : h - 800.0 - step * ((k - 100) / per_row);
        ok = add_at(world, x, y, false) != SIZE_MAX;
    }
    double yu = yl - 5.2;
    ok = ok && add_at(world, seam + 1.5 + 6.2, yu, false) != SIZE_MAX;
    /* The lower sleeper hangs in the air; the upper one rests on it. */
    *lower = add_at(world, seam - 1.5, yl, true);
    *upper = add_at(world, seam + 1.5, yu, true);
    return ok && *lower != SIZE_MAX && *upper != SIZE_MAX;
}

static void sleepers_across_lanes_wake_in_order(void)
{
    bp_params params = bp_pit_params(60000);
    bp_world *one = bp_world_new(&params), *two = bp_world_new(&params);
    size_t lower[2], upper[2];
    /* The grid's cell (it depends on how many balls there are), from a
     * sort of a world of as many balls. */
    bp_broadphase bp = {0};
    double cell = 0.0;
    if (one && sleepers_across_lanes(one, 9.0, &lower[0], &upper[0]) &&
        bp_broadphase_sort(&bp, one, one->r_min, NULL))
        cell = bp.shape.cell;
    bp_broadphase_free(&bp);
    bp_world_destroy(one);
    one = bp_world_new(&params);
    bp_workers *workers = bp_workers_create(2);
    bool ok = cell > 0.0 && one && two && workers &&
              sleepers_across_lanes(one, cell, &lower[0], &upper[0]) &&
              sleepers_across_lanes(two, cell, &lower[1], &upper[1]);
    bp_support s_one = {.defer = BP_SUPPORT_DEFER_NONE};
    bp_support s_two = {.defer = BP_SUPPORT_DEFER_NONE};
    ok = ok && support_pass(one, &s_one, NULL) && support_pass(two, &s_two, workers);
    TAP_OK(ok, "two sleepers across a lanes' edge: the passes run");
    TAP_OK(ok && !(one->flags[lower[0]] & BP_BALL_ASLEEP) &&
               !(one->flags[upper[0]] & BP_BALL_ASLEEP),
           "one thread: the sleeper in the air wakes, and the one on it after it");
    TAP_OK(ok && s_two.lanes == bp_workers_cores(workers) && same_balls(one, two),
           "lanes: the same wakes and balls as one thread");
    bp_support_free(&s_one);
    bp_support_free(&s_two);
    bp_workers_destroy(workers);
    bp_world_destroy(one);
    bp_world_destroy(two);
}

int main(void)
{
    waiting_pairs_change_nothing();
    two_threads_change_nothing();
    landing_steps_change_nothing();
    sleepers_across_lanes_wake_in_order();
    return tap_done();
}
