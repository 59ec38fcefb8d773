/* The soft solver's step: its stages in order over the substeps, and
 * nothing else (solver.h tells the design; each stage is in the file of
 * its job). */
#include "solver.h"

#include <math.h>

#include "detmath.h"
#include "soft_internal.h"
#include "sweep.h"
#include "tolerances.h"
#include "walls.h"

/* Gauss-Seidel sweeps with the push per substep (then one without): one
 * or two let a stack of 4 or 6 rows roll apart well above the friction it
 * needs (a frozen stack's friction converges slowly); 3 hold them. */
#define BP_SOFT_SWEEPS 3
/* Contact stiffness as a part of the substep rate (a whole step's
 * substeps, also in a step cut into pieces), and its damping ratio
 * (heavily damped: the push does not bounce). At a half, a deep pile never
 * came to rest: the 10,000-ball pit breathed up and down as a whole (a
 * period of 3 s, 8 px/s) for as long as it ran, and a mixed 20,000 never
 * slept; the sweeps cannot converge a spring that stiff through 50 rows.
 * At 0.35 both sleep within 4 and 8 s, and a pile is pressed no deeper
 * than 0.08 r at 10,000 balls (0.25, Box2D v3's bound: 0.12 r). */
#define BP_SOFT_HERTZ_OF_RATE 0.35
#define BP_SOFT_DAMPING_RATIO 10.0
/* Fastest push out of an overlap, in smallest radii per second: an overlap
 * heals over a few steps instead of throwing the balls apart. */
#define BP_SOFT_PUSH_R_PER_S 20.0
/* Rounds of waking (and listing the pairs of the woken) in one step: one
 * ring of sleepers a round, as far as wake.c's margin reaches (8). */
#define BP_SOFT_WAKE_ROUNDS 8

double bp_soft_sag(const bp_params *params)
{
    double h = 1.0 / params->hz / BP_SOFT_SUBSTEPS;
    double omega = 2.0 * M_PI * BP_SOFT_HERTZ_OF_RATE / h;
    return fabs(params->gravity) / (omega * omega);
}

/* The pairs of the balls awake, after waking the sleepers they hit
 * within the piece of dt s or move near (wake.c), and those the woken
 * reach in turn, for a few rounds. */
static bool wake_and_list(bp_soft *soft, bp_world *world, double margin, double dt)
{
    if (!bp_soft_list_pairs(soft, world, margin))
        return false;
    for (int round = 0; round < BP_SOFT_WAKE_ROUNDS; round++) {
        size_t woken = bp_soft_wake_near_motion(soft, world, dt);
        if (woken == SIZE_MAX || (woken > 0 && !bp_soft_list_pairs(soft, world, margin)))
            return false;
        if (woken == 0)
            break;
    }
    return true;
}

/* The step as stages: pairs (waking what they touch), contacts, their
 * impulses recalled, the held balls gripped; then per substep gravity,
 * warm start, sweeps with the push (each followed by the hand's pull),
 * the move and a sweep without; restitution; and last the impulses kept
 * and the islands put to sleep. */
bool bp_soft_step(bp_world *world, double dt, int pieces, bp_workers *workers)
{
    double piece = dt / pieces, unit = 1.0 / pieces; /* unit: exact, pieces a power of two */
    bp_soft *soft = bp_soft_of(world);
    if (!soft)
        return false;
    const bp_params *p = &world->params;
    if (!bp_soft_reserve_balls(soft, world) || !bp_sweep_reserve(world))
        return false;
    soft->workers = workers;
    /* As step.c splits a step: a ball that travels more than
     * BP_SUBSTEP_TRAVEL radii in it (none when it is whole). */
    soft->split_scale = pieces > 1 ? BP_SUBSTEP_TRAVEL * BP_SUBSTEP_TRAVEL / (dt * dt) : INFINITY;
    double r_min = world->count > 0 ? world->r_min : 1.0;
    if (!wake_and_list(soft, world, bp_soft_listing_margin(world, piece, r_min), piece))
        return false;
    double rest_speed = bp_params_rest_speed(p);
    bp_soft_gather_bodies(soft, world);
    if (!bp_soft_list_contacts(soft, world, BP_SOFT_MARGIN_OVER_R * r_min, piece, rest_speed) ||
        !bp_soft_batch_contacts(soft, world))
        return false;
    const keyed_contact *by_key = bp_soft_recall_all(soft, world, unit);
    double h = piece / BP_SOFT_SUBSTEPS;
    if (!by_key || !bp_soft_pack_blocks(soft, world) || !bp_soft_begin_impacts(soft, world, h) ||
        !bp_soft_grip(soft, world, h))
        return false;

    /* Contacts as stiff as in a whole step's substeps, whatever the
     * pieces, except those of the fast balls that split the step and those
     * closing fast, stiff as the piece's substeps (a landing crowd then
     * stops on a pile, and a fast ball on a thin wall, about as shallow as
     * in one piece). Stiffened all, a resting pile's overlaps, which hold
     * its weight at the usual stiffness, were 16 times too deep for the
     * pieces' stiffness, and the contacts pushed the whole pile up at the
     * fastest push: a 10,000-ball pile rose at 125 px/s when one ball flew
     * past it, and 7,000 of its balls moved more than a radius. */
    double h_step = dt / BP_SOFT_SUBSTEPS;
    softness push =
        bp_soft_softness_for(BP_SOFT_HERTZ_OF_RATE / h_step, BP_SOFT_DAMPING_RATIO, h);
    softness stiff = bp_soft_softness_for(BP_SOFT_HERTZ_OF_RATE / h, BP_SOFT_DAMPING_RATIO, h);
    sweep_law law = {1.0 / h,
                     push.bias_rate,
                     push.mass_scale,
                     push.impulse_scale,
                     stiff.bias_rate,
                     stiff.mass_scale,
                     stiff.impulse_scale,
                     BP_SOFT_PUSH_R_PER_S * r_min,
                     p->friction,
                     p->rolling,
                     true};
    sweep_law relax = law;
    relax.push = false;
    /* Fast: more than BP_FAST_FRACTION of its radius in the piece, further
     * than the pair list reaches for it. */
    double fast_scale = BP_FAST_FRACTION * BP_FAST_FRACTION / (piece * piece);
    world->statics->anchors_valid = false; /* the passes' anchors: not kept here */
    for (int s = 0; s < BP_SOFT_SUBSTEPS; s++) {
        if (world->stop && *world->stop)
            return false;
        bp_soft_integrate(soft, world, p->gravity * h, bp_exp(-p->drag * h));
        if (s == 0)
            bp_soft_resolve_impacts(soft, world, h, rest_speed, false);
        bp_soft_sweeps(soft, &law, BP_SOFT_SWEEPS, true);
        bp_soft_move_substep(soft, world, h, fast_scale, rest_speed);
        bp_soft_resolve_impacts(soft, world, h, rest_speed, true);
        bp_soft_sweeps(soft, &relax, 1, false);
    }
    bp_soft_restitution(soft, p->restitution, rest_speed);
    bp_soft_unpack_blocks(soft);
    bp_soft_scatter_bodies(soft, world, rest_speed);
    /* With no ball awake, and none added or removed since, the memory
     * holds (contacts between sleepers) and is left as it is. */
    if (bp_world_next_awake(world, 0) == world->count && soft->kept_count == world->count &&
        soft->kept_next_id == world->next_id)
        return true;
    soft->kept_count = world->count;
    soft->kept_next_id = world->next_id;
    return bp_soft_remember(soft, world, by_key, pieces) &&
           bp_soft_sleep_islands(soft, world, piece);
}
