/* The soft solver's bodies: the balls awake gathered from the world into
 * the bodies the sweeps read and write, a substep's gravity and drag, the
 * substep's move (swept where a ball is fast or hits a side or wall), and
 * the velocities scattered back with the balls' grounded flags. */
#include <math.h>

#include "arena.h"
#include "soft_internal.h"
#include "sweep.h"
#include "workers.h"

/* A stage over the balls awake, cut by ball index into pieces for the
 * step's threads: each ball's part depends on that ball alone, so any
 * number of threads gives the same bits. */
typedef struct bodies_job {
    bp_soft *soft;
    bp_world *world;
    double dv, damping;                  /* integrate */
    double h, fast_scale, rest_speed;    /* move */
    int pieces;
    struct {
        double r_max;
        size_t held; /* fast balls held for the sweep */
    } part[BP_WORKERS_MAX_PIECES];
} bodies_job;

/* The first ball of piece `piece` (piece == pieces: the count). */
static inline size_t piece_start(const bodies_job *job, int piece)
{
    return bp_piece_start(job->world->count, piece, job->pieces);
}

/* Loops ball i over the balls awake of piece `piece` of job. */
#define FOR_AWAKE_OF_PIECE(i, job, piece)                                                         \
    for (size_t end_ = piece_start(job, (piece) + 1),                                             \
                i = bp_world_next_awake_below((job)->world, piece_start(job, piece), end_);       \
         i < end_; i = bp_world_next_awake_below((job)->world, i + 1, end_))

/* Runs piece_fn over job's balls on the step's threads. */
static void run_pieces(bodies_job *job, bp_job piece_fn)
{
    bp_workers *workers = job->soft->workers;
    job->pieces = bp_workers_pieces(bp_workers_count(workers), BP_WORKERS_MAX_PIECES);
    bp_workers_run(workers, piece_fn, job, job->pieces);
}

static void gather_piece(void *context, int piece)
{
    bodies_job *job = context;
    FOR_AWAKE_OF_PIECE(i, job, piece)
        job->soft->bodies[i] = body_listed_now(job->soft, job->world, i);
}

/* The sweeps' bodies: every ball awake as the world has it, and the still
 * body last. */
void bp_soft_gather_bodies(bp_soft *soft, bp_world *world)
{
    bodies_job job = {.soft = soft, .world = world};
    run_pieces(&job, gather_piece);
    soft->bodies[world->count] = (soft_body){0};
}

static void integrate_piece(void *context, int piece)
{
    const bodies_job *job = context;
    const uint8_t *flags = job->world->flags;
    soft_body *bodies = job->soft->bodies;
    double dv = job->dv, damping = job->damping;
    FOR_AWAKE_OF_PIECE(i, job, piece) {
        if (flags[i] & BP_BALL_HELD)
            continue;
        soft_body *b = &bodies[i];
        b->vy += dv;
        if (damping != 1.0) {
            b->vx *= damping;
            b->vy *= damping;
            b->w *= damping;
        }
    }
}

/* A substep's gravity and drag on every free ball awake. */
void bp_soft_integrate(bp_soft *soft, bp_world *world, double dv, double damping)
{
    bodies_job job = {.soft = soft, .world = world, .dv = dv, .damping = damping};
    run_pieces(&job, integrate_piece);
}

/* angle + turn, kept within a few turns of 0 (the wrap is exact, and rare). */
static inline double turned(double angle, double turn)
{
    double a = angle + turn;
    return fabs(a) < 64.0 ? a : remainder(a, 2.0 * M_PI);
}

static void move_piece(void *context, int piece)
{
    bodies_job *job = context;
    bp_soft *soft = job->soft;
    bp_world *world = job->world;
    double h = job->h, fast_scale = job->fast_scale, r_max = 0.0;
    size_t held = 0;
    FOR_AWAKE_OF_PIECE(i, job, piece) {
        soft_body *b = &soft->bodies[i];
        world->flags[i] &= (uint8_t)~BP_BALL_GROUNDED;
        world->angle[i] = turned(world->angle[i], b->w * h);
        double vx = b->vx, vy = b->vy, r = world->r[i];
        world->vx[i] = vx;
        world->vy[i] = vy;
        world->w[i] = b->w;
        r_max = r > r_max ? r : r_max;
        /* Fast: swept against the balls on its path and the walls, as
         * the passes' fast balls are. */
        if (vx * vx + vy * vy > r * r * fast_scale) {
            bp_sweep_hold(world, i);
            held++;
            continue;
        }
        /* A ball that hits a side or wall (and the hand) is swept
         * through them: nothing passes, and the impact bounces where
         * it happens, on the path the substeps' positions lie on
         * (arena.h). The others rest on them through their contacts:
         * the swept move's own friction would upset the contacts'
         * balance (a stack of 4 rows rolled apart). */
        if (!soft->swept[i]) {
            world->x[i] += vx * h;
            world->y[i] += vy * h;
            b->dx = world->x[i] - soft->listed_at[i].x;
            b->dy = world->y[i] - soft->listed_at[i].y;
            continue;
        }
        if (!bp_arena_move_open(world, i, h))
            bp_arena_move(world, i, h, 0.0, h, BP_MAX_IMPACTS, false, job->rest_speed);
        *b = body_from_world(soft, world, i); /* as the swept move left it */
    }
    job->part[piece].r_max = r_max;
    job->part[piece].held = held;
}

static void reread_piece(void *context, int piece)
{
    bodies_job *job = context;
    FOR_AWAKE_OF_PIECE(i, job, piece)
        job->soft->bodies[i] = body_from_world(job->soft, job->world, i);
}

/* Moves every ball awake through a substep of h s: fast balls swept
 * against the balls on their path, balls that hit a side or wall swept
 * through them, the rest along their velocity. */
void bp_soft_move_substep(bp_soft *soft, bp_world *world, double h, double fast_scale,
                          double rest_speed)
{
    bodies_job job = {.soft = soft,
                      .world = world,
                      .h = h,
                      .fast_scale = fast_scale,
                      .rest_speed = rest_speed};
    run_pieces(&job, move_piece);
    size_t held = 0;
    double r_max = 0.0;
    for (int piece = 0; piece < job.pieces; piece++) {
        held += job.part[piece].held;
        r_max = job.part[piece].r_max > r_max ? job.part[piece].r_max : r_max;
    }
    if (held == 0)
        return;
    /* Out of memory the sweep still moves every held ball. */
    (void)bp_sweep_run(world, held, h, r_max, rest_speed, soft->workers);
    /* What the sweep changed, back in the bodies: the balls it moved and
     * those they hit (a sleeper it woke now has its mass). */
    run_pieces(&job, reread_piece);
}

/* Balls pressed onto a side or wall that faces up (against gravity), no
 * steeper than the arena's slope limit, are grounded. */
static void mark_grounded(const bp_soft *soft, bp_world *w)
{
    double g = w->params.gravity;
    if (g == 0.0)
        return;
    for (size_t k = 0; k < soft->contact_count; k++) {
        const soft_contact *c = &soft->contacts[k];
        /* n points from the ball into the surface; the class wants it from
         * the surface to the ball. */
        bool floor = bp_contact_classify(-c->nx, -c->ny, g) == BP_CONTACT_FLOOR;
        if (soft->keys[k].kind != KIND_BALL && c->jn > 0.0 && floor)
            w->flags[c->a] |= BP_BALL_GROUNDED;
    }
}

/* How deep (a part of its radius) a ball must be in a side before the
 * step puts it back inside. A ball resting on a side keeps the overlap its
 * contact's spring holds the load with (under the 1,000-ball pit, 0.0008 r);
 * put back every step (at any overlap, as the passes are), the floor row
 * and the side columns were lifted out of it at every step's end and the
 * pile sank back through the next step's substeps: the whole pile shook by
 * that much at the step rate, and its contacts at the friction limit
 * ratcheted, so an awake pile never rested. Shallower overlaps are the
 * contacts' to push out. */
#define BP_SOFT_CONTAIN_OVER_R 0.5

static void scatter_piece(void *context, int piece)
{
    bodies_job *job = context;
    const soft_body *bodies = job->soft->bodies;
    bp_world *world = job->world;
    FOR_AWAKE_OF_PIECE(i, job, piece) {
        world->vx[i] = bodies[i].vx;
        world->vy[i] = bodies[i].vy;
        world->w[i] = bodies[i].w;
    }
}

/* The bodies' velocities back in the world, and balls pushed deep into a
 * side (only a deep overlap can) back inside. */
void bp_soft_scatter_bodies(bp_soft *soft, bp_world *world, double rest_speed)
{
    bodies_job job = {.soft = soft, .world = world};
    run_pieces(&job, scatter_piece);
    mark_grounded(soft, world);
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1))
        if (bp_arena_nearer_than(world, i, (1.0 - BP_SOFT_CONTAIN_OVER_R) * world->r[i]))
            bp_arena_contain(world, i, rest_speed);
}
