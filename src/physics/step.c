/* One fixed step: semi-implicit Euler (gravity, then drag), then each ball's
 * swept move through the walls and sides (arena.h), fast balls held back for
 * the ball-ball sweep (sweep.h), then ball-ball contacts (passes.h).
 *
 * A step in which some ball would travel more than BP_SUBSTEP_TRAVEL of its
 * radius is split into up to BP_MAX_SUBSTEPS equal substeps. The sweep keeps
 * a single fast ball from passing through others, but a whole crowd landing
 * that fast on a pile drives balls deep into it before any contact is seen.
 * Substeps are decided from the world's state alone, so the step stays
 * deterministic and the caller still sees one step of 1/hz. Only the last
 * substep runs the solver's clean-up and its relaxation passes after the
 * supported pass: the state in between is not shown, and the next
 * substep's passes start from it anyway (docs/benchmarks.md has the
 * measurements behind both choices). Under the soft solver the step is
 * its (solver/solver.h), split into pieces by the same rule. */
#include <math.h>
#include <string.h>

#include "arena.h"
#include "detmath.h"
#include "passes.h"
#include "scratch.h"
#include "solver/solver.h"
#include "sweep.h"
#include "tolerances.h"
#include "validate.h"
#include "walls.h"
#include "workers.h"
#include "world.h"

#define BP_MAX_SUBSTEPS 4
/* Most pieces the move is split into. */
#define BP_MAX_PIECES 16

/* angle + turn, kept within a few turns of 0 so that it keeps its
 * precision over a long run: the wrap is exact (remainder), and rare. */
static inline double bp_turn(double angle, double turn)
{
    double a = angle + turn;
    return fabs(a) < 64.0 ? a : remainder(a, 2.0 * M_PI);
}

/* A job over the balls awake, in pieces by index for the step's threads,
 * each with a result of its own. */
typedef struct awake_job {
    bp_world *world;
    double rest_speed;
    int pieces;
    double part[BP_MAX_PIECES];
} awake_job;

/* The largest (speed / radius)^2 of a piece's balls awake and not held. */
static void fastest_piece(void *context, int piece)
{
    awake_job *job = context;
    const bp_world *world = job->world;
    size_t begin = bp_piece_start(world->count, piece, job->pieces);
    size_t end = bp_piece_start(world->count, piece + 1, job->pieces);
    double worst = 0.0;
    for (size_t i = bp_world_next_awake_below(world, begin, end); i < end;
         i = bp_world_next_awake_below(world, i + 1, end)) {
        if (world->flags[i] & BP_BALL_HELD)
            continue;
        double v2 = world->vx[i] * world->vx[i] + world->vy[i] * world->vy[i];
        double ratio = v2 / (world->r[i] * world->r[i]);
        worst = ratio > worst ? ratio : worst;
    }
    job->part[piece] = worst;
}

/* How many substeps this step needs: the farthest an awake ball would go,
 * in its own radii, over BP_SUBSTEP_TRAVEL. */
static int substeps_for(bp_world *world, double dt, bp_workers *workers)
{
    awake_job job = {.world = world,
                     .pieces = bp_workers_pieces(bp_workers_count(workers), BP_MAX_PIECES)};
    bp_workers_run(workers, fastest_piece, &job, job.pieces);
    double worst = 0.0; /* (speed / radius)^2: the largest of the pieces', exact in any order */
    for (int piece = 0; piece < job.pieces; piece++)
        worst = job.part[piece] > worst ? job.part[piece] : worst;
    double travel = sqrt(worst) * dt;
    int k = (int)ceil(travel / BP_SUBSTEP_TRAVEL);
    return k < 1 ? 1 : (k > BP_MAX_SUBSTEPS ? BP_MAX_SUBSTEPS : k);
}

/* The move of one substep, split by ball index for the step's threads:
 * each ball's move depends on that ball alone. */
typedef struct move_job {
    bp_world *world;
    double dt, dv_gravity, damping, rest_speed;
    double fast_scale; /* fast: (v dt)^2 > (BP_FAST_FRACTION r)^2, as v^2 > r^2 fast_scale */
    int pieces;
    struct {
        double r_max;
        size_t held; /* fast balls held for the sweep */
    } part[BP_MAX_PIECES];
} move_job;

static void move_piece(void *context, int piece)
{
    move_job *job = context;
    bp_world *world = job->world;
    size_t n = world->count;
    size_t begin = bp_piece_start(n, piece, job->pieces);
    size_t end = bp_piece_start(n, piece + 1, job->pieces);
    double r_max = 0.0;
    size_t held = 0;
    /* Sleepers stay exactly where they were, still on the ground. */
    for (size_t i = bp_world_next_awake_below(world, begin, end); i < end;
         i = bp_world_next_awake_below(world, i + 1, end)) {
        /* Arrays a step would rewrite unchanged are left alone: the move
         * of a big crowd is bound by memory traffic, not arithmetic. */
        if (world->flags[i] & BP_BALL_GROUNDED)
            world->flags[i] &= (uint8_t)~BP_BALL_GROUNDED;
        if (!(world->flags[i] & BP_BALL_HELD)) {
            if (job->dv_gravity != 0.0)
                world->vy[i] += job->dv_gravity;
            /* Without drag the factor is 1, which changes no bit. */
            if (job->damping != 1.0) {
                world->vx[i] *= job->damping;
                world->vy[i] *= job->damping;
                world->w[i] *= job->damping;
            }
        }
        if (world->w[i] != 0.0) /* no turn, no change (a turn of 0 adds exactly 0) */
            world->angle[i] = bp_turn(world->angle[i], world->w[i] * job->dt);
        double vx = world->vx[i], vy = world->vy[i], r = world->r[i];
        r_max = r > r_max ? r : r_max;
        if (vx * vx + vy * vy > r * r * job->fast_scale) {
            bp_sweep_hold(world, i);
            held++;
            continue;
        }
        if (!bp_arena_move_open(world, i, job->dt))
            bp_arena_move(world, i, job->dt, 0.0, job->dt, BP_MAX_IMPACTS, false,
                          job->rest_speed);
    }
    job->part[piece].r_max = r_max;
    job->part[piece].held = held;
}

static bool substep(bp_world *world, double dt, bool last, bp_workers *workers)
{
    const bp_params *p = &world->params;
    move_job job = {
        .world = world,
        .dt = dt,
        .dv_gravity = p->gravity * dt,
        /* Exact solution of dv/dt = -drag v over the step: the same decay
         * per second at any hz. */
        .damping = bp_exp(-p->drag * dt),
        /* Two substeps' worth of gravity: what a resting ball gathers. */
        .rest_speed = 2.0 * fabs(p->gravity) * dt,
        .fast_scale = BP_FAST_FRACTION * BP_FAST_FRACTION / (dt * dt),
        .pieces = bp_workers_pieces(bp_workers_count(workers), BP_MAX_PIECES),
    };
    world->statics->anchors_valid = false; /* set again once every ball moved */
    /* What the sweep and the solver allocate is this substep's alone. */
    bp_scratch_mark mark = bp_scratch_mark_now(world->scratch);
    bp_workers_run(workers, move_piece, &job, job.pieces);
    double r_max = 0.0;
    size_t held = 0;
    for (int piece = 0; piece < job.pieces; piece++) {
        r_max = job.part[piece].r_max > r_max ? job.part[piece].r_max : r_max;
        held += job.part[piece].held;
    }
    /* Out of memory the sweep still moves every held ball (without ball
     * impacts), so the step goes on either way. */
    (void)bp_sweep_run(world, held, dt, r_max, job.rest_speed, workers);
    world->statics->anchors_valid = world->wall_count > 0;
    bool ok = bp_passes_resolve(world, job.rest_speed, last);
    bp_scratch_release(world->scratch, mark);
    return ok;
}

/* Puts back inside every ball awake whose centre the passes left outside
 * the arena. The passes contain only the balls listed near a side when the
 * pairs were made, and a ball pushed out of a deep overlap (a big ball
 * started on small ones, balls started on one spot) can travel further than
 * that list's margin; the centre inside the arena is an invariant of every
 * step, so it is checked for every ball that moved. */
static void contain_piece(void *context, int piece)
{
    awake_job *job = context;
    bp_world *world = job->world;
    size_t begin = bp_piece_start(world->count, piece, job->pieces);
    size_t end = bp_piece_start(world->count, piece + 1, job->pieces);
    for (size_t i = bp_world_next_awake_below(world, begin, end); i < end;
         i = bp_world_next_awake_below(world, i + 1, end))
        if (bp_arena_outside(world, i))
            bp_arena_contain(world, i, job->rest_speed);
}

/* Each ball's containment touches that ball alone: pieces by index. */
static void contain_strays(bp_world *world, double dt, bp_workers *workers)
{
    awake_job job = {.world = world,
                     .rest_speed = 2.0 * fabs(world->params.gravity) * dt,
                     .pieces = bp_workers_pieces(bp_workers_count(workers), BP_MAX_PIECES)};
    bp_workers_run(workers, contain_piece, &job, job.pieces);
}

/* A step's velocity is a full step's (semi-implicit Euler: the velocity
 * half a step before the position's time, which makes a free flight under
 * gravity exact). Substeps of dt/k need it half a substep before instead:
 * without this shift each change of k bent a flight, and a small ball
 * bouncing with restitution 1, whose steps split only near the floor, lost
 * height at every bounce. The gravity of half the difference between the
 * two substeps: gravity_shift(world, dt, k). */
static double gravity_shift(const bp_world *world, double dt, int k)
{
    return world->params.gravity * (dt - dt / k) / 2.0;
}

/* Shifts by dv, and marks, every ball awake and not held that is fast
 * enough to split a step of dt by itself (the others: resting and slow
 * balls, whose error is as small as their speed, keep the bits they had);
 * NULL when out of memory. */
static uint8_t *shift_to_substeps(bp_world *world, double dt, double dv)
{
    uint8_t *shifted = bp_scratch_alloc(world->scratch, world->count + 1, 1);
    if (!shifted)
        return NULL;
    memset(shifted, 0, world->count);
    if (dv == 0.0)
        return shifted;
    double fast = BP_SUBSTEP_TRAVEL / dt, fast2 = fast * fast;
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1)) {
        double r = world->r[i], v2 = world->vx[i] * world->vx[i] + world->vy[i] * world->vy[i];
        if (!(world->flags[i] & BP_BALL_HELD) && v2 > fast2 * r * r) {
            world->vy[i] += dv;
            shifted[i] = 1;
        }
    }
    return shifted;
}

/* Shifts the marked balls' velocities back by dv; one that fell asleep
 * within the step stays still. */
static void shift_from_substeps(bp_world *world, double dv, const uint8_t *shifted)
{
    for (size_t i = 0; i < world->count; i++)
        if (shifted[i] && !(world->flags[i] & BP_BALL_ASLEEP))
            world->vy[i] -= dv;
}

bool bp_world_step(bp_world *world)
{
    BP_WORLD_VALIDATE(world);
    double dt = 1.0 / world->params.hz;
    /* Nothing allocated in the last step is in use: its memory is this one's. */
    bp_scratch_reset(world->scratch);
    if (world->params.solver == BP_SOLVER_SOFT) {
        if (!bp_statics_prepare(world))
            return false;
        /* Split as the passes' steps are (into a power of two, so that
         * the kept impulses go into pieces and back exactly): in one
         * piece a crowd landing at 1,500 px/s on a pile sank balls 1.96 r
         * into each other where the balls ahead stopped and those behind,
         * further than the contacts listed reach, came on. */
        bp_workers *workers = bp_world_workers(world);
        int k = substeps_for(world, dt, workers), pieces = k > 2 ? 4 : k;
        double dv = gravity_shift(world, dt / BP_SOFT_SUBSTEPS, pieces);
        uint8_t *shifted = pieces > 1 ? shift_to_substeps(world, dt, dv) : NULL;
        if (pieces > 1 && !shifted)
            return false;
        for (int s = 0; s < pieces; s++)
            if (!bp_soft_step(world, dt, pieces, workers))
                return false;
        if (shifted)
            shift_from_substeps(world, dv, shifted);
        world->steps++;
        BP_WORLD_VALIDATE(world);
        return true;
    }
    bp_workers *workers = bp_world_workers(world);
    int k = substeps_for(world, dt, workers);
    /* Walls and ball count do not change within a step: prepare once. */
    if (!bp_statics_prepare(world) || !bp_sweep_reserve(world) ||
        !bp_passes_begin_step(world, workers))
        return false;
    uint8_t *shifted = k > 1 ? shift_to_substeps(world, dt, gravity_shift(world, dt, k)) : NULL;
    if (k > 1 && !shifted)
        return false;
    for (int s = 0; s < k; s++) {
        if (world->stop && *world->stop)
            return false;
        if (!substep(world, dt / k, s == k - 1, workers))
            return false;
    }
    if (shifted)
        shift_from_substeps(world, gravity_shift(world, dt, k), shifted);
    contain_strays(world, dt, workers);
    bp_passes_end_step(world);
    world->steps++;
    BP_WORLD_VALIDATE(world);
    return true;
}
