/* The grid: kept from one sort to the next, with the few balls that
 * changed cell moved over one by one, it must hold exactly what a new sort
 * of the same world would: the same cells, the same balls in each, in the
 * same order, and so the same pairs. With a few big balls among small
 * ones, the cells are cut for the small ones and every pair is still
 * found, once. */
#include <stdlib.h>
#include <string.h>

#include "broadphase.h"
#include "rng.h"
#include "tap.h"
#include "world.h"

#define BALLS 2000
#define ROUNDS 300

/* Whether the kept grid and a new one over the same world agree. */
static bool same_as_new_sort(const bp_broadphase *kept, const bp_world *world, double margin)
{
    bp_broadphase fresh = {0};
    bool same = bp_broadphase_find_pairs(&fresh, world, margin);
    size_t cells = (size_t)fresh.shape.cols * (size_t)fresh.shape.rows;
    same = same && fresh.shape.cols == kept->shape.cols && fresh.shape.rows == kept->shape.rows &&
           memcmp(fresh.cell_start, kept->cell_start, (cells + 2) * sizeof(uint32_t)) == 0 &&
           memcmp(fresh.items, kept->items, world->count * sizeof(uint32_t)) == 0 &&
           memcmp(fresh.ball_cell, kept->ball_cell, world->count * sizeof(uint32_t)) == 0 &&
           fresh.pair_count == kept->pair_count &&
           memcmp(fresh.pairs, kept->pairs, fresh.pair_count * sizeof(bp_pair)) == 0;
    bp_broadphase_free(&fresh);
    return same;
}

/* Rounds of moves, each followed by a sort of the kept grid: a few balls
 * nudged a cell or two (moved over one by one), a ball sent across the
 * arena (crossing many rows), 300 balls nudged (the grid mended in one
 * pass), and now and then most of the balls (a new sort). Balls that do
 * not move sleep, as the step's would: the kept grid looks only at the
 * balls awake. Every round must give what a new sort gives. */
static void kept_grid_matches_a_new_sort(int big, const char *what)
{
    bp_params params = bp_params_default();
    params.width = 960.0;
    params.height = 720.0;
    bp_world *world = bp_world_new(&params);
    bp_rng rng = bp_rng_seed(7);
    for (int k = 0; k < BALLS; k++)
        bp_world_insert_ball(world, bp_rng_range(&rng, 5.0, 955.0), bp_rng_range(&rng, 5.0, 715.0),
                             0.0, 0.0, k < big ? 25.0 + k : bp_rng_range(&rng, 3.0, 6.0), 0.0);
    double margin = 3.0;
    printf("# %s\n", what);
    bp_broadphase kept = {0};
    bool sorted = bp_broadphase_find_pairs(&kept, world, margin);
    TAP_OK(sorted && same_as_new_sort(&kept, world, margin), "the first sort is a new sort");

    int agreed = 0;
    for (size_t i = 0; i < world->count; i++)
        world->flags[i] = BP_BALL_ASLEEP;
    for (int round = 0; round < ROUNDS; round++) {
        /* Last round's movers have come to rest. */
        for (size_t i = 0; i < world->count; i++)
            world->flags[i] = BP_BALL_ASLEEP;
        int movers = round % 10 == 9 ? BALLS : round % 5 == 2 ? 300 : 1 + (int)(bp_rng_next(&rng) % 6);
        double step = round % 3 == 0 ? 30.0 : 12.0;
        for (int k = 0; k < movers; k++) {
            size_t i = bp_rng_next(&rng) % world->count;
            world->x[i] += bp_rng_range(&rng, -step, step);
            world->y[i] += bp_rng_range(&rng, -step, step);
            world->flags[i] = 0;
        }
        if (round % 7 == 0) { /* across the arena, corner to corner */
            size_t i = bp_rng_next(&rng) % world->count;
            world->x[i] = world->x[i] < 480.0 ? 950.0 : 10.0;
            world->y[i] = world->y[i] < 360.0 ? 710.0 : 10.0;
            world->flags[i] = 0;
        }
        agreed += bp_broadphase_find_pairs(&kept, world, margin) &&
                  same_as_new_sort(&kept, world, margin);
    }
    TAP_OK(agreed == ROUNDS, "after every round of moves the kept grid is a new sort");
    if (agreed != ROUNDS)
        printf("#   %d of %d rounds agreed\n", agreed, ROUNDS);
    bp_broadphase_free(&kept);
    bp_world_destroy(world);
}

/* Every pair of balls closer than the margin, by looking at all of them:
 * how many of them the list holds, and whether it holds anything else or
 * anything twice. */
static bool pairs_are_all_close_pairs(const bp_broadphase *bp, const bp_world *world,
                                      double margin)
{
    size_t n = world->count, close = 0, listed_close = 0;
    uint8_t *seen = calloc(n * n, 1);
    bool ok = seen != NULL;
    for (size_t k = 0; ok && k < bp->pair_count; k++) {
        uint32_t a = bp->pairs[k].a, b = bp->pairs[k].b;
        size_t lo = a < b ? a : b, hi = a < b ? b : a;
        ok = a != b && !seen[lo * n + hi];
        seen[lo * n + hi] = 1;
    }
    for (size_t a = 0; ok && a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            double dx = world->x[b] - world->x[a], dy = world->y[b] - world->y[a];
            double reach = world->r[a] + world->r[b] + margin;
            bool near = dx * dx + dy * dy < reach * reach;
            close += near;
            listed_close += near && seen[a * n + b];
        }
    free(seen);
    return ok && close == listed_close && close == bp->pair_count;
}

/* Three balls of 25-27 px among 2,000 of 3-6 px: the cells are cut for the
 * small ones, the big ones sit in the bucket after the last cell, and the
 * pairs are every close pair, once, the big ones' in the big slot. */
static void big_balls_get_every_pair(void)
{
    bp_params params = bp_params_default();
    params.width = 960.0;
    params.height = 720.0;
    bp_world *world = bp_world_new(&params);
    bp_rng rng = bp_rng_seed(11);
    for (int k = 0; k < BALLS; k++) {
        bool big = k % 700 == 5;
        bp_world_insert_ball(world, bp_rng_range(&rng, 30.0, 930.0),
                             bp_rng_range(&rng, 30.0, 690.0), 0.0, 0.0,
                             big ? bp_rng_range(&rng, 25.0, 27.0) : bp_rng_range(&rng, 3.0, 6.0),
                             0.0);
    }
    /* Two big ones touching, and one that reaches into a corner. */
    world->x[5] = 400.0;
    world->y[5] = 300.0;
    world->x[705] = 445.0;
    world->y[705] = 310.0;
    world->x[1405] = 20.0;
    world->y[1405] = 700.0;
    double margin = 3.0;
    bp_broadphase bp = {0};
    bool found = bp_broadphase_find_pairs(&bp, world, margin);
    TAP_OK(found && bp.big_count == 3 && bp.big[0] == 5 && bp.big[1] == 705 &&
               bp.big[2] == 1405,
           "three big balls among small ones are found, in index order");
    TAP_OK(found && bp.shape.cell < 2.0 * 6.0 + margin + 1e-9 && bp.small_r <= 6.0,
           "the cells are cut for the small balls");
    size_t cells = (size_t)bp.shape.cols * (size_t)bp.shape.rows;
    TAP_OK(found && bp.cell_start[cells + 1] - bp.cell_start[cells] == 3,
           "the big balls are filed in the bucket after the last cell");
    TAP_OK(found && pairs_are_all_close_pairs(&bp, world, margin),
           "every pair closer than the margin is listed once, and nothing else");
    bool big_slot = found;
    for (size_t k = 0; found && k < bp.pair_count; k++) {
        bool with_big = world->r[bp.pairs[k].a] > 20.0 || world->r[bp.pairs[k].b] > 20.0;
        big_slot = big_slot && with_big == (k >= bp.strip_first[bp.strips]);
    }
    TAP_OK(big_slot && bp.strip_first[bp.strips + 1] == bp.pair_count,
           "the pairs with a big ball, and only those, are in the big slot at the end");
    bp_broadphase_free(&bp);
    bp_world_destroy(world);
}

/* A world without sleepers is paired by a loop of its own (no tests for
 * sleepers): with one ball asleep (no pair has two sleepers, so none is
 * left out) the general loop must give the very same list, in the same
 * order, with gravity down and up (the rows run the other way). */
static void pairing_without_sleepers_matches(void)
{
    bool same = true;
    for (int up = 0; up < 2; up++) {
        bp_params params = bp_params_default();
        params.width = 700.0;
        params.height = 500.0;
        params.gravity = up ? -500.0 : 500.0;
        bp_world *world = bp_world_new(&params);
        bp_rng rng = bp_rng_seed(23 + (uint64_t)up);
        for (int k = 0; k < BALLS; k++)
            bp_world_insert_ball(world, bp_rng_range(&rng, 6.0, 694.0),
                                 bp_rng_range(&rng, 6.0, 494.0), 0.0, 0.0,
                                 bp_rng_range(&rng, 2.0, 6.0), 0.0);
        bp_broadphase all = {0}, general = {0};
        bool found = bp_broadphase_find_pairs(&all, world, 4.0);
        world->flags[BALLS / 2] = BP_BALL_ASLEEP;
        general.awake_pairs_only = true;
        found = found && bp_broadphase_find_pairs(&general, world, 4.0);
        same = same && found && all.pair_count == general.pair_count && all.pair_count > 0 &&
               memcmp(all.pairs, general.pairs, all.pair_count * sizeof(bp_pair)) == 0 &&
               memcmp(all.strip_first, general.strip_first,
                      ((size_t)all.strips + 2) * sizeof(size_t)) == 0;
        bp_broadphase_free(&all);
        bp_broadphase_free(&general);
        bp_world_destroy(world);
    }
    TAP_OK(same, "a world without sleepers gets the general loop's pairs, in its order");
}

int main(void)
{
    pairing_without_sleepers_matches();
    kept_grid_matches_a_new_sort(0, "2,000 balls of 3-6 px");
    kept_grid_matches_a_new_sort(3, "the same with three big balls (25-27 px) among them");
    big_balls_get_every_pair();
    return tap_done();
}
