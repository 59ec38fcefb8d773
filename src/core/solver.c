/* Contact resolution.
 *
 * Every pass walks the candidate pairs in a fixed order (rows from the floor
 * up) and, for each pair that overlaps, pushes the balls apart along the
 * contact normal (split by inverse mass) and, if they approach, applies the
 * 1D collision law to their normal velocities (collide.h). This is
 * Gauss-Seidel relaxation: exact for an isolated collision, convergent for
 * crowds. The arena's sides are contacts too, applied after each pass.
 *
 * A deep pile then needs the supported pass (support.c) to stand firm, and
 * a couple more relaxation passes afterwards for the balls still moving.
 * Balls that have rested a while sleep (sleep.c): pairs of two sleepers are
 * left out of the passes. Measured on the benchmark pit (SPEC.md): 4 + 2
 * passes keep the deepest overlap under 0.05 r at 1,000 balls and 0.10 r at
 * 10,000; 3 + 2 or fewer do not. */
#include "solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "broadphase.h"
#include "collide.h"
#include "sleep.h"
#include "support.h"
#include "walls.h"

/* Relaxation passes per step. */
#define BP_SOLVER_PASSES 4
/* Relaxation passes after the supported pass: it settles the pile, these
 * then take up the overlaps it leaves among balls still on the move. */
#define BP_SOLVER_POST_PASSES 2
/* Pairs closer than this (px) also count as touching, so that a resting
 * contact separated by rounding is still seen. */
#define BP_CONTACT_MARGIN 0.01
/* The pair list also takes neighbours up to this fraction of the smallest
 * radius apart: pushes within a pass move balls into neighbours that did not
 * touch when the list was made. In a packed pile the next ring of neighbours
 * is 1.46 r further out, so this costs no extra pairs there. */
#define BP_LIST_MARGIN_OVER_R 0.5

/* From this many balls on, the step sorts the balls by grid cell. */
#define BP_SOLVER_REORDER_MIN_BALLS 2048

struct bp_solver {
    bp_broadphase broadphase;
    bp_support support;
    bp_pair *active; /* pairs with at least one ball awake */
    size_t active_count, active_capacity;
};

bp_solver *bp_solver_create(void)
{
    return calloc(1, sizeof(bp_solver));
}

void bp_solver_destroy(bp_solver *solver)
{
    if (!solver)
        return;
    bp_broadphase_free(&solver->broadphase);
    bp_support_free(&solver->support);
    free(solver->active);
    free(solver);
}

/* The arrays one pass reads and writes, hoisted out of the world. */
typedef struct pass_context {
    double *restrict x, *restrict y, *restrict vx, *restrict vy;
    const double *restrict r, *restrict inv_mass;
    double restitution, rest_speed;
    double up_y; /* the normal for coincident centres: against gravity */
} pass_context;

static pass_context pass_context_of(bp_world *world, double rest_speed)
{
    return (pass_context){
        .x = world->x,
        .y = world->y,
        .vx = world->vx,
        .vy = world->vy,
        .r = world->r,
        .inv_mass = world->inv_mass,
        .restitution = world->params.restitution,
        .rest_speed = rest_speed,
        .up_y = world->params.gravity >= 0.0 ? -1.0 : 1.0,
    };
}

static inline void relax_pair(const pass_context *c, uint32_t a, uint32_t b)
{
    double dx = c->x[b] - c->x[a];
    double dy = c->y[b] - c->y[a];
    double reach = c->r[a] + c->r[b];
    double d2 = dx * dx + dy * dy;
    double touch = reach + BP_CONTACT_MARGIN;
    if (d2 >= touch * touch)
        return;
    double inv_a = c->inv_mass[a], inv_b = c->inv_mass[b];
    double inv_sum = inv_a + inv_b;
    if (inv_sum <= 0.0)
        return;
    double nx, ny, d;
    if (d2 > 1e-24) {
        d = sqrt(d2);
        /* Divisions, not a reciprocal: an axis-aligned contact must get an
         * exactly axis-aligned normal. */
        nx = dx / d;
        ny = dy / d;
    } else {
        d = 0.0;
        nx = 0.0;
        ny = c->up_y;
    }
    double overlap = reach - d;
    if (overlap > 0.0) {
        double share = overlap / inv_sum;
        double push_a = share * inv_a, push_b = share * inv_b;
        c->x[a] -= nx * push_a;
        c->y[a] -= ny * push_a;
        c->x[b] += nx * push_b;
        c->y[b] += ny * push_b;
    }
    if ((c->vx[a] - c->vx[b]) * nx + (c->vy[a] - c->vy[b]) * ny > 0.0)
        bp_collide_balls(nx, ny, &c->vx[a], &c->vy[a], &c->vx[b], &c->vy[b], inv_a, inv_b,
                         c->restitution, c->rest_speed);
}

/* Puts every ball that reaches a side back inside. Most balls are nowhere
 * near one, and the test for that is cheaper than the full response. */
static void contain_all(bp_world *world, double rest_speed)
{
    const double w = world->params.width, h = world->params.height;
    const bool walls = world->wall_count > 0;
    for (size_t i = 0; i < world->count; i++) {
        double r = world->r[i];
        if (world->flags[i] & BP_BALL_ASLEEP)
            continue;
        if (walls || world->x[i] - r <= 0.0 || world->x[i] + r >= w || world->y[i] - r <= 0.0 ||
            world->y[i] + r >= h)
            bp_arena_contain(world, i, rest_speed);
    }
}

/* One relaxation pass over the pairs, forwards or backwards (alternating
 * the direction keeps Gauss-Seidel from favouring one side). */
static void relax_pass(bp_world *world, const bp_pair *pairs, size_t n, double rest_speed,
                       bool backwards)
{
    pass_context c = pass_context_of(world, rest_speed);
    if (!backwards)
        for (size_t k = 0; k < n; k++)
            relax_pair(&c, pairs[k].a, pairs[k].b);
    else
        for (size_t k = n; k-- > 0;)
            relax_pair(&c, pairs[k].a, pairs[k].b);
    contain_all(world, rest_speed);
}

/* The walls keep, per ball index, where each ball ended its swept move (so
 * that the solver's pushes are swept too); they follow the balls' new
 * order. The world's spare buffers are free scratch right after a reorder. */
static void permute_anchors(bp_world *world, const uint32_t *order)
{
    bp_statics *st = world->statics;
    if (!st || !st->anchors_valid)
        return;
    size_t n = world->count;
    double *scratch = world->spare_double;
    uint32_t *scratch_id = world->spare_id;
    for (size_t k = 0; k < n; k++)
        scratch[k] = st->anchor_x[order[k]];
    memcpy(st->anchor_x, scratch, n * sizeof(double));
    for (size_t k = 0; k < n; k++)
        scratch[k] = st->anchor_y[order[k]];
    memcpy(st->anchor_y, scratch, n * sizeof(double));
    for (size_t k = 0; k < n; k++)
        scratch_id[k] = st->anchor_id[order[k]];
    memcpy(st->anchor_id, scratch_id, n * sizeof(uint32_t));
}

/* Two sleepers have nothing to resolve between them. */
static bool select_active_pairs(bp_solver *solver, const bp_world *world)
{
    const bp_broadphase *bp = &solver->broadphase;
    if (bp->pair_count > solver->active_capacity) {
        size_t capacity = bp->pair_capacity;
        bp_pair *p = realloc(solver->active, capacity * sizeof *p);
        if (!p)
            return false;
        solver->active = p;
        solver->active_capacity = capacity;
    }
    size_t count = 0;
    for (size_t k = 0; k < bp->pair_count; k++) {
        bp_pair pair = bp->pairs[k];
        if (!(world->flags[pair.a] & world->flags[pair.b] & BP_BALL_ASLEEP))
            solver->active[count++] = pair;
    }
    solver->active_count = count;
    return true;
}

bool bp_solver_resolve(bp_world *world, double rest_speed)
{
    bp_solver *solver = world->solver;
    bp_broadphase *bp = &solver->broadphase;
    double r_min = INFINITY;
    for (size_t i = 0; i < world->count; i++)
        r_min = fmin(r_min, world->r[i]);
    double list_margin = fmax(BP_CONTACT_MARGIN, BP_LIST_MARGIN_OVER_R * r_min);
    if (!bp_broadphase_sort(bp, world, list_margin))
        return false;
    /* Neighbours in space become neighbours in memory: every pass below then
     * streams through the arrays instead of jumping around them. Small
     * worlds fit the cache anyway and keep their order. */
    if (world->count >= BP_SOLVER_REORDER_MIN_BALLS) {
        if (!bp_world_reorder(world, bp->items))
            return false;
        permute_anchors(world, bp->items);
        for (size_t k = 0; k < world->count; k++)
            bp->items[k] = (uint32_t)k;
    }
    if (!bp_broadphase_pairs(bp, world, list_margin))
        return false;

    /* The sides are contacts too: a pass that pushed a ball through one must
     * be followed by putting it back, or the next pass starts from balls
     * stacked on top of each other at the wall. They also tell the supported
     * pass which balls stand on the floor. */
    bool gravity = world->params.gravity != 0.0;
    bp_sleep_rules rules = bp_sleep_rules_for(&world->params);
    if (gravity)
        bp_sleep_wake_on_contact(world, bp->pairs, bp->pair_count, &rules);
    if (!select_active_pairs(solver, world))
        return false;

    for (int pass = 0; pass < BP_SOLVER_PASSES; pass++)
        relax_pass(world, solver->active, solver->active_count, rest_speed, pass % 2 == 1);
    if (gravity) {
        if (!bp_support_pass(&solver->support, world, bp->pairs, bp->pair_count))
            return false;
        contain_all(world, rest_speed);
        for (int pass = 0; pass < BP_SOLVER_POST_PASSES; pass++)
            relax_pass(world, solver->active, solver->active_count, rest_speed, pass % 2 == 1);
        bp_sleep_update(world, solver->support.supported, &rules);
    }
    return true;
}

double bp_solver_max_overlap(const bp_world *world)
{
    bp_broadphase scratch = {0};
    double deepest = 0.0;
    if (!bp_broadphase_find_pairs(&scratch, world, 0.0)) {
        /* Without memory for a grid, fall back to checking every pair. */
        for (size_t a = 0; a < world->count; a++)
            for (size_t b = a + 1; b < world->count; b++) {
                double dx = world->x[b] - world->x[a], dy = world->y[b] - world->y[a];
                double o = world->r[a] + world->r[b] - sqrt(dx * dx + dy * dy);
                if (o > deepest)
                    deepest = o;
            }
        return deepest;
    }
    for (size_t k = 0; k < scratch.pair_count; k++) {
        uint32_t a = scratch.pairs[k].a, b = scratch.pairs[k].b;
        double dx = world->x[b] - world->x[a], dy = world->y[b] - world->y[a];
        double o = world->r[a] + world->r[b] - sqrt(dx * dx + dy * dy);
        if (o > deepest)
            deepest = o;
    }
    bp_broadphase_free(&scratch);
    return deepest;
}
