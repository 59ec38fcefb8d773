/* Contact resolution.
 *
 * Every pass walks the candidate pairs in a fixed order and, for each pair
 * that overlaps, pushes the balls apart along the contact normal (split by
 * inverse mass) and, if they approach, applies the 1D collision law to their
 * normal velocities (collide.h). This is Gauss-Seidel relaxation: exact for
 * an isolated collision, convergent for crowds.
 *
 * Gauss-Seidel alone cannot hold a deep pile: the floor's push has to travel
 * up through every layer, and with a few passes per step the pile sinks
 * (this is how general-purpose engines end up with balls half inside each
 * other). So after the relaxation passes comes one supported pass, in the
 * spirit of shock propagation (Guendelman et al., 2003): pairs are visited
 * from the floor upwards, a ball counts as supported when it rests on the
 * floor or on a supported ball below it, and a supported ball acts as
 * immovable for the slow, resting contacts of the balls on top of it. The
 * floor then carries the whole pile in one sweep. Only resting contacts
 * (approach slower than the rest speed) of balls in a chain down to the floor
 * take this path, so every real collision, and every contact between balls
 * not standing on anything, keeps its exact momentum balance. */
#include "solver.h"

#include <math.h>
#include <stdlib.h>

#include "arena.h"
#include "broadphase.h"
#include "collide.h"

/* Relaxation passes per step. */
#define BP_SOLVER_PASSES 4
/* Pairs closer than this (px) also count as touching, so that a resting
 * contact separated by rounding is still seen. */
#define BP_CONTACT_MARGIN 0.01
/* A ball rests on a lower ball when the contact normal leans at least this
 * much against gravity (sine of ~17 degrees). */
#define BP_SUPPORT_MIN_UP 0.3

struct bp_solver {
    bp_broadphase broadphase;
    uint8_t *supported;
    size_t supported_capacity;
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
    free(solver->supported);
    free(solver);
}

/* Unit normal from a to b; coincident centres get a fixed normal against
 * gravity so that stacked duplicates separate vertically. */
static inline double contact_normal(const bp_world *world, uint32_t a, uint32_t b, double *nx,
                                    double *ny)
{
    double dx = world->x[b] - world->x[a];
    double dy = world->y[b] - world->y[a];
    double d = sqrt(dx * dx + dy * dy);
    if (d > 1e-12) {
        *nx = dx / d;
        *ny = dy / d;
    } else {
        *nx = 0.0;
        *ny = world->params.gravity >= 0.0 ? -1.0 : 1.0;
        d = 0.0;
    }
    return d;
}

static inline void relax_pair(bp_world *world, uint32_t a, uint32_t b, double rest_speed)
{
    double nx, ny;
    double d = contact_normal(world, a, b, &nx, &ny);
    double reach = world->r[a] + world->r[b];
    if (d >= reach + BP_CONTACT_MARGIN)
        return;
    double inv_a = world->inv_mass[a], inv_b = world->inv_mass[b];
    double inv_sum = inv_a + inv_b;
    if (inv_sum <= 0.0)
        return;
    double overlap = reach - d;
    if (overlap > 0.0) {
        double push_a = overlap * inv_a / inv_sum;
        double push_b = overlap * inv_b / inv_sum;
        world->x[a] -= nx * push_a;
        world->y[a] -= ny * push_a;
        world->x[b] += nx * push_b;
        world->y[b] += ny * push_b;
    }
    bp_collide_balls(nx, ny, &world->vx[a], &world->vy[a], &world->vx[b], &world->vy[b], inv_a,
                     inv_b, world->params.restitution, rest_speed);
}

static bool reserve_supported(bp_solver *solver, size_t n)
{
    if (n <= solver->supported_capacity)
        return true;
    uint8_t *p = realloc(solver->supported, n);
    if (!p)
        return false;
    solver->supported = p;
    solver->supported_capacity = n;
    return true;
}

static void supported_pass(bp_world *world, bp_solver *solver, double rest_speed)
{
    const bp_broadphase *bp = &solver->broadphase;
    uint8_t *supported = solver->supported;
    double up_y = world->params.gravity >= 0.0 ? -1.0 : 1.0;
    for (size_t i = 0; i < world->count; i++)
        supported[i] = (world->flags[i] & (BP_BALL_GROUNDED | BP_BALL_HELD)) != 0;

    for (size_t k = 0; k < bp->pair_count; k++) {
        uint32_t lower = bp->pairs[k].a, upper = bp->pairs[k].b;
        if ((world->y[upper] - world->y[lower]) * up_y < 0.0) {
            lower = bp->pairs[k].b;
            upper = bp->pairs[k].a;
        }
        if (!supported[lower] || world->inv_mass[upper] == 0.0 ||
            (world->flags[upper] & BP_BALL_GROUNDED))
            continue;
        double nx, ny;
        double d = contact_normal(world, lower, upper, &nx, &ny);
        double reach = world->r[lower] + world->r[upper];
        if (d >= reach + BP_CONTACT_MARGIN || ny * up_y < BP_SUPPORT_MIN_UP)
            continue;
        double vxl = world->vx[lower], vyl = world->vy[lower];
        double vxu = world->vx[upper], vyu = world->vy[upper];
        double approach = (vxl - vxu) * nx + (vyl - vyu) * ny;
        if (approach >= rest_speed)
            continue; /* a real collision: the relaxation passes own it */
        if (d < reach) {
            world->x[upper] += nx * (reach - d);
            world->y[upper] += ny * (reach - d);
        }
        if (approach > 0.0) {
            world->vx[upper] += approach * nx;
            world->vy[upper] += approach * ny;
        }
        supported[upper] = 1;
    }
}

bool bp_solver_resolve(bp_world *world, double rest_speed)
{
    bp_solver *solver = world->solver;
    bp_broadphase *bp = &solver->broadphase;
    if (!bp_broadphase_find_pairs(bp, world, BP_CONTACT_MARGIN) ||
        !reserve_supported(solver, world->count))
        return false;

    for (int pass = 0; pass < BP_SOLVER_PASSES; pass++)
        for (size_t k = 0; k < bp->pair_count; k++)
            relax_pair(world, bp->pairs[k].a, bp->pairs[k].b, rest_speed);

    /* Pushes may have shoved balls into the sides; the sides win, and they
     * also tell the supported pass which balls stand on the floor. */
    for (size_t i = 0; i < world->count; i++)
        bp_arena_contain(world, i, rest_speed);
    if (world->params.gravity != 0.0) {
        supported_pass(world, solver, rest_speed);
        for (size_t i = 0; i < world->count; i++)
            bp_arena_contain(world, i, rest_speed);
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
