/* The grid: kept from one sort to the next, with the few balls that
 * changed cell moved over one by one, it must hold exactly what a new sort
 * of the same world would: the same cells, the same balls in each, in the
 * same order, and so the same pairs. */
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
    size_t cells = (size_t)fresh.cols * (size_t)fresh.rows;
    same = same && fresh.cols == kept->cols && fresh.rows == kept->rows &&
           memcmp(fresh.cell_start, kept->cell_start, (cells + 1) * sizeof(uint32_t)) == 0 &&
           memcmp(fresh.items, kept->items, world->count * sizeof(uint32_t)) == 0 &&
           memcmp(fresh.ball_cell, kept->ball_cell, world->count * sizeof(uint32_t)) == 0 &&
           fresh.pair_count == kept->pair_count &&
           memcmp(fresh.pairs, kept->pairs, fresh.pair_count * sizeof(bp_pair)) == 0;
    bp_broadphase_free(&fresh);
    return same;
}

/* Rounds of moves, each followed by a sort of the kept grid: a few balls
 * nudged a cell or two (moved over one by one), a ball sent across the
 * arena (crossing many rows), and now and then most of the balls (a new
 * sort). Every round must give what a new sort gives. */
static void kept_grid_matches_a_new_sort(void)
{
    bp_params params = bp_params_default();
    params.width = 960.0;
    params.height = 720.0;
    bp_world *world = bp_world_new(&params);
    bp_rng rng = bp_rng_seed(7);
    for (int k = 0; k < BALLS; k++)
        bp_world_insert_ball(world, bp_rng_range(&rng, 5.0, 955.0), bp_rng_range(&rng, 5.0, 715.0),
                             0.0, 0.0, bp_rng_range(&rng, 3.0, 6.0), 0.0);
    double margin = 3.0;
    bp_broadphase kept = {0};
    bool sorted = bp_broadphase_find_pairs(&kept, world, margin);
    TAP_OK(sorted && same_as_new_sort(&kept, world, margin), "the first sort is a new sort");

    int agreed = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int movers = round % 10 == 9 ? BALLS : 1 + (int)(bp_rng_next(&rng) % 6);
        double step = round % 3 == 0 ? 30.0 : 12.0;
        for (int k = 0; k < movers; k++) {
            size_t i = bp_rng_next(&rng) % world->count;
            world->x[i] += bp_rng_range(&rng, -step, step);
            world->y[i] += bp_rng_range(&rng, -step, step);
        }
        if (round % 7 == 0) { /* across the arena, corner to corner */
            size_t i = bp_rng_next(&rng) % world->count;
            world->x[i] = world->x[i] < 480.0 ? 950.0 : 10.0;
            world->y[i] = world->y[i] < 360.0 ? 710.0 : 10.0;
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

int main(void)
{
    kept_grid_matches_a_new_sort();
    return tap_done();
}
