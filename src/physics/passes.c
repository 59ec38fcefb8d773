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
 * a relaxation pass afterwards for the balls still moving (in a step's last
 * substep: the next substep's passes do that job otherwise).
 * Balls that have rested a while sleep (sleep.c): pairs of two sleepers are
 * left out of the passes. Last, position-only clean-up passes take out the
 * few overlaps left where chains of balls wedge (cleanup_overlaps), with the
 * pairs the list missed because the passes pushed balls further than its
 * margin (find_missed_pairs).
 * A few passes with the clean-up leave shallower overlaps than more passes
 * without it, for the same work (docs/benchmarks.md, "Tuning"). Every pass also
 * applies friction and spin along the tangent (collide.h). */
#include "passes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "broadphase.h"
#include "collide.h"
#include "grow.h"
#include "minmax.h"
#include "scratch.h"
#include "sleep.h"
#include "support.h"
#include "tolerances.h"
#include "walls.h"
#include "workers.h"

/* Relaxation passes per step. */
#define BP_SOLVER_PASSES 3
/* Relaxation passes after the supported pass, in a step's last substep: it
 * settles the pile, these then take up the overlaps it leaves among balls
 * still on the move. */
#define BP_SOLVER_POST_PASSES 1
/* Most position-only clean-up passes per step (the overlap they stop at:
 * BP_CLEANUP_OVER_R, tolerances.h). */
#define BP_CLEANUP_PASSES 6
/* From this many balls on, the step reorders the balls in memory by grid
 * cell, every BP_SOLVER_REORDER_EVERY steps: in a few steps few balls leave
 * their neighbours far behind in memory, so shuffling a dozen arrays every
 * step costs more than it saves (docs/benchmarks.md, "Tuning"). */
#define BP_SOLVER_REORDER_MIN_BALLS 2048
#define BP_SOLVER_REORDER_EVERY 8
/* While fewer than one ball in BP_SOLVER_REORDER_AWAKE_SHARE is awake, only
 * every BP_SOLVER_REORDER_CALM_EVERY steps: the passes then touch few balls,
 * and one of them moving across the pile shifts every ball between its old
 * and new place in memory (docs/benchmarks.md, "The stirred pile"). */
#define BP_SOLVER_REORDER_AWAKE_SHARE 4
#define BP_SOLVER_REORDER_CALM_EVERY 64

/* The balls one strip's share of a clean-up pass pushed. */
typedef struct moved_list {
    uint32_t *balls;
    size_t count, capacity;
    bool deep;   /* it met an overlap deeper than BP_CLEANUP_OVER_R */
    bool failed; /* out of memory */
} moved_list;

/* One piece of the search for missed pairs: the movers mover[from, to)
 * and what they found, in their order. */
typedef struct missed_piece {
    bp_pair *pairs;
    size_t count, capacity;
    uint32_t *around; /* the balls one search finds */
    size_t around_room;
    size_t from, to;
    bool failed;      /* memory ran out */
} missed_piece;

struct bp_passes {
    bp_broadphase broadphase;
    bp_support support;
    double *start_x, *start_y; /* where each ball began the step */
    size_t start_capacity;
    bool starts_valid;         /* start_x/y hold for the world's layout ... */
    uint64_t starts_layout;    /* ... of this stamp */
    bool supported_valid;      /* support.supported is this step's */
    /* Grown by the workers that fill them, so kept from step to step
     * rather than taken from the scratch arena. */
    moved_list *moved;      /* per strip slot: the balls a clean-up pass pushed */
    size_t moved_lists;
    bp_workers *workers;  /* the step's (bp_passes_begin_step); NULL: none */
    /* Per ball: 1 for a ball find_missed_pairs looks around; all 0
     * between uses, so kept rather than cleared anew in the arena. */
    uint8_t *far_mover;
    size_t far_mover_capacity;
    /* Per piece of find_missed_pairs: the pairs its movers found, and room
     * for a search's balls; kept like moved. */
    missed_piece *missed_pieces;
    /* The rest is the substep's, from the world's scratch arena (scratch.h):
     * valid within one bp_passes_resolve. */
    uint32_t *side_balls;   /* the balls near a side (list_side_balls) */
    size_t side_count;
    /* Where each ball was, and its flags, when the pairs were listed; and
     * the pairs the list misses (find_missed_pairs). */
    double *listed_x, *listed_y;
    uint8_t *listed_flags;
    bp_pair *missed;
    size_t missed_count;
};

bp_passes *bp_passes_create(void)
{
    return calloc(1, sizeof(bp_passes));
}

void bp_passes_destroy(bp_passes *solver)
{
    if (!solver)
        return;
    bp_broadphase_free(&solver->broadphase);
    bp_support_free(&solver->support);
    free(solver->start_x);
    free(solver->start_y);
    for (size_t k = 0; k < solver->moved_lists; k++)
        free(solver->moved[k].balls);
    free(solver->moved);
    free(solver->far_mover);
    if (solver->missed_pieces)
        for (int k = 0; k < BP_WORKERS_MAX_PIECES; k++) {
            free(solver->missed_pieces[k].pairs);
            free(solver->missed_pieces[k].around);
        }
    free(solver->missed_pieces);
    free(solver);
}

/* The arrays one pass reads and writes, hoisted out of the world. */
/* The most any pair's touch margin is in this world, px. */
static inline double touch_cap_of(const bp_world *world)
{
    return BP_TOUCH_MOST_OVER_R_MIN * world->r_min;
}

typedef struct pass_context {
    double *restrict x, *restrict y, *restrict vx, *restrict vy, *restrict w;
    const double *restrict r, *restrict inv_mass, *restrict inv_inertia;
    bp_contact_law law;
    double restitution, rest_speed;
    const uint32_t *restrict id; /* for the normal of coincident centres */
    double touch_cap;            /* touch_cap_of the world */
} pass_context;

static pass_context pass_context_of(bp_world *world, double rest_speed)
{
    return (pass_context){
        .x = world->x,
        .y = world->y,
        .vx = world->vx,
        .vy = world->vy,
        .w = world->w,
        .r = world->r,
        .inv_mass = world->inv_mass,
        .inv_inertia = world->inv_inertia,
        .law = {world->params.friction, world->params.rolling},
        .restitution = world->params.restitution,
        .rest_speed = rest_speed,
        .id = world->id,
        .touch_cap = touch_cap_of(world),
    };
}

/* The distance between the centres of balls of radii ra and rb below which
 * they touch: the summed radii and the touch margin of the smaller. */
static inline double touch_reach(double ra, double rb, double touch_cap)
{
    return ra + rb + bp_min(BP_TOUCH_OVER_R * (ra < rb ? ra : rb), touch_cap);
}


/* Whether centres d2 (squared) apart, for a pair of summed radii reach, are
 * far enough apart to give a direction. */
static inline bool apart_enough(double d2, double reach)
{
    double tiny = BP_COINCIDENT_OVER_R * reach;
    return d2 > tiny * tiny;
}

/* Relaxes the pair if it touches (relax_pair's own test decides). Out of
 * line: most pairs of a pass do not touch, and the loop over them, with
 * the whole of this inlined, kept its arrays' addresses on the stack. */
static __attribute__((noinline)) void relax_pair(const pass_context *c, uint32_t a, uint32_t b)
{
    double dx = c->x[b] - c->x[a];
    double dy = c->y[b] - c->y[a];
    double reach = c->r[a] + c->r[b];
    double d2 = dx * dx + dy * dy;
    double touch = touch_reach(c->r[a], c->r[b], c->touch_cap);
    if (d2 >= touch * touch)
        return;
    double inv_a = c->inv_mass[a], inv_b = c->inv_mass[b];
    double inv_sum = inv_a + inv_b;
    if (inv_sum <= 0.0)
        return;
    double nx, ny, d;
    if (apart_enough(d2, reach)) {
        d = sqrt(d2);
        /* Divisions, not a reciprocal: an axis-aligned contact must get an
         * exactly axis-aligned normal. */
        nx = dx / d;
        ny = dy / d;
    } else {
        d = 0.0;
        bp_coincident_normal(c->id[a], c->id[b], &nx, &ny);
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
    if ((c->vx[a] - c->vx[b]) * nx + (c->vy[a] - c->vy[b]) * ny > 0.0) {
        double apart = d > reach ? d : reach; /* the centres' distance after the push */
        double lever_a = bp_contact_lever(c->r[a], c->r[b], apart);
        bp_contact_side side_a = {&c->vx[a], &c->vy[a], &c->w[a], inv_a, c->inv_inertia[a],
                                  lever_a};
        bp_contact_side side_b = {&c->vx[b], &c->vy[b], &c->w[b], inv_b, c->inv_inertia[b],
                                  apart - lever_a};
        bp_collide_pair(&c->law, c->restitution, c->rest_speed, nx, ny, &side_a, &side_b);
    }
}

/* Whether ball i comes within reach px of a side, or there are walls
 * (which may be anywhere). */
static inline bool near_side_or_wall(const bp_world *world, size_t i, double reach)
{
    double w = world->params.width, h = world->params.height;
    return world->wall_count > 0 || world->x[i] - reach <= 0.0 || world->x[i] + reach >= w ||
           world->y[i] - reach <= 0.0 || world->y[i] + reach >= h;
}

/* Puts ball i back inside if it reaches a side (or any wall). Most balls
 * are nowhere near one, and the test for that is far cheaper than the full
 * response. */
static inline void contain_ball(bp_world *world, size_t i, double rest_speed)
{
    if (near_side_or_wall(world, i, world->r[i]))
        bp_arena_contain(world, i, rest_speed);
}

static void contain_range(bp_world *world, double rest_speed, const uint32_t *balls,
                          size_t from, size_t to)
{
    for (size_t k = from; k < to; k++) {
        uint32_t i = balls[k];
        if (!(world->flags[i] & BP_BALL_ASLEEP))
            contain_ball(world, i, rest_speed);
    }
}

/* What a worker needs for its share of a pass. */
typedef struct pass_job {
    bp_world *world;
    const bp_pair *pairs;
    const size_t *slot_first; /* pairs of slot j: [slot_first[j], slot_first[j+1]) */
    const int *busy;          /* the slots with pairs (broadphase.h) */
    int slot_begin;           /* piece k takes slot busy[slot_begin + k] */
    bool backwards;
    double rest_speed;
    const uint32_t *side_balls; /* the balls the sides are checked for */
    size_t side_count;
} pass_job;

/* Whether relax_pair would go past its first test for a and b: the same
 * arithmetic, so the same answer to the bit. */
static inline bool may_touch(const double *restrict x, const double *restrict y,
                             const double *restrict r, double touch_cap, uint32_t a, uint32_t b)
{
    double dx = x[b] - x[a];
    double dy = y[b] - y[a];
    double d2 = dx * dx + dy * dy;
    double touch = touch_reach(r[a], r[b], touch_cap);
    return !(d2 >= touch * touch);
}

/* Relaxes pairs[from .. to) forwards, or backwards from to - 1 down; with
 * fetch, asking for the ball of the pair BP_PREFETCH_AHEAD on. */
static inline void relax_run(const pass_context *c, const bp_world *world,
                             const bp_pair *pairs, size_t from, size_t to, bool backwards,
                             bool fetch)
{
    const double *x = c->x, *y = c->y, *r = c->r;
    if (!backwards) {
        for (size_t p = from; p < to; p++) {
            if (fetch)
                bp_world_prefetch(world, pairs[p + BP_PREFETCH_AHEAD].b);
            uint32_t a = pairs[p].a, b = pairs[p].b;
            if (may_touch(x, y, r, c->touch_cap, a, b))
                relax_pair(c, a, b);
        }
    } else {
        for (size_t p = to; p-- > from;) {
            if (fetch)
                bp_world_prefetch(world, pairs[p - BP_PREFETCH_AHEAD].b);
            uint32_t a = pairs[p].a, b = pairs[p].b;
            if (may_touch(x, y, r, c->touch_cap, a, b))
                relax_pair(c, a, b);
        }
    }
}

/* Piece k of a pass: the k-th strip of this parity, in either direction.
 * Strips of one parity share no ball, so their order does not change the
 * result; keeping it lets each thread take the same strips in every pass
 * (workers.h) and find their balls still in its cache. Taking them from
 * the other end in backward passes sent half the pit's balls across the
 * cores each pass (100k pit, steps 0-300, two threads: 3-5% slower). */
static void relax_strip(void *context, int k)
{
    const pass_job *job = context;
    pass_context c = pass_context_of(job->world, job->rest_speed);
    int j = job->busy[job->slot_begin + k];
    size_t lo = job->slot_first[j], hi = job->slot_first[j + 1];
    size_t fetches = bp_world_prefetches(job->world, hi - lo);
    /* The pairs that ask for one ahead first, then the rest: one loop with
     * a test per pair cost 3% more instructions where nothing is asked. */
    if (!job->backwards) {
        relax_run(&c, job->world, job->pairs, lo, lo + fetches, false, true);
        relax_run(&c, job->world, job->pairs, lo + fetches, hi, false, false);
    } else {
        relax_run(&c, job->world, job->pairs, hi - fetches, hi, true, true);
        relax_run(&c, job->world, job->pairs, lo, hi - fetches, true, false);
    }
}

/* Balls near a side per piece of contain_all: enough work to pay for
 * handing it out. */
#define BP_CONTAIN_PIECE 1024

/* Balls to put back inside from which the clean-up shares the work. */
#define BP_CONTAIN_SHARED_BALLS (4 * BP_CONTAIN_PIECE)

static void contain_piece(void *context, int piece)
{
    const pass_job *job = context;
    size_t from = (size_t)piece * BP_CONTAIN_PIECE;
    size_t to = from + BP_CONTAIN_PIECE < job->side_count ? from + BP_CONTAIN_PIECE
                                                          : job->side_count;
    contain_range(job->world, job->rest_speed, job->side_balls, from, to);
}

/* Puts back inside every ball of the step's list of balls near a side. */
static void contain_all(bp_passes *solver, bp_world *world, double rest_speed)
{
    pass_job job = {.world = world,
                    .rest_speed = rest_speed,
                    .side_balls = solver->side_balls,
                    .side_count = solver->side_count};
    int pieces = (int)((solver->side_count + BP_CONTAIN_PIECE - 1) / BP_CONTAIN_PIECE);
    bp_workers_run(solver->workers, contain_piece, &job, pieces);
}

/* Lists the balls a pass could push into a side or wall: every ball when
 * there are walls; else those within their radius and twice the list margin
 * of a side. The passes push a ball by at most an overlap, and the pair list
 * already counts on pushes staying within its margin; the rest of a large
 * pit is nowhere near a side and need not be looked at five times a step. */
static bool list_side_balls(bp_passes *solver, const bp_world *world, double list_margin)
{
    size_t n = world->count;
    solver->side_balls = bp_scratch_alloc(world->scratch, n + 1, sizeof(uint32_t));
    if (!solver->side_balls)
        return false;
    size_t count = 0;
    if (world->wall_count > 0) {
        for (size_t i = 0; i < n; i++)
            solver->side_balls[count++] = (uint32_t)i;
    } else {
        /* Only the grid's border cells can hold such a ball. */
        const bp_broadphase *bp = &solver->broadphase;
        size_t candidates = bp_broadphase_border_balls(bp, bp->r_max + 2.0 * list_margin,
                                                       solver->side_balls);
        for (size_t k = 0; k < candidates; k++) {
            uint32_t i = solver->side_balls[k];
            if (near_side_or_wall(world, i, world->r[i] + 2.0 * list_margin))
                solver->side_balls[count++] = i;
        }
    }
    solver->side_count = count;
    return true;
}

/* One relaxation pass over the active pairs, forwards or backwards
 * (alternating the direction keeps Gauss-Seidel from favouring one side):
 * the strips of one parity, then the other, each share of strips on its
 * own worker, and the big slot on one (backwards: the other way round).
 * The order of every write to a ball is the same with any number of
 * workers. Then the sides. */
static void relax_pass(bp_passes *solver, bp_world *world, double rest_speed, bool backwards)
{
    const bp_broadphase *bp = &solver->broadphase;
    pass_job job = {.world = world,
                    .pairs = bp->pairs,
                    .slot_first = bp->strip_first,
                    .busy = bp->busy,
                    .backwards = backwards,
                    .rest_speed = rest_speed};
    /* Part 0: the even strips, 1: the odd ones, 2: the big slot (one
     * thread). */
    int first[3] = {0, bp->busy_even, bp->busy_even + bp->busy_odd};
    int count[3] = {bp->busy_even, bp->busy_odd, bp->busy_big};
    for (int k = 0; k < 3; k++) {
        int part = backwards ? 2 - k : k;
        job.slot_begin = first[part];
        bp_workers_run(part == 2 ? NULL : solver->workers, relax_strip, &job, count[part]);
    }
    contain_all(solver, world, rest_speed);
}


/* A reorder's gather of one array, in pieces of the stretch on the
 * workers: every piece writes its own part. */
typedef struct gather_job {
    void *dst;
    const void *src;
    size_t size, lo, hi;
    const uint32_t *order;
    int pieces;
} gather_job;

/* Stretches from this long on are gathered in pieces by the workers. */
#define BP_GATHER_SHARED 8192

static void gather_piece(void *context, int piece)
{
    const gather_job *job = context;
    size_t span = job->hi - job->lo;
    bp_gather(job->dst, job->src, job->size, job->order,
              job->lo + bp_piece_start(span, piece, job->pieces),
              job->lo + bp_piece_start(span, piece + 1, job->pieces));
}

/* bp_gather_fn with the workers (context) sharing the stretch. */
static void gather_shared(void *context, void *dst, const void *src, size_t size,
                          const uint32_t *order, size_t lo, size_t hi)
{
    bp_workers *workers = hi - lo >= BP_GATHER_SHARED ? context : NULL;
    gather_job job = {dst, src, size, lo, hi, order,
                      bp_workers_pieces(bp_workers_count(workers), BP_WORKERS_MAX_PIECES)};
    bp_workers_run(workers, gather_piece, &job, job.pieces);
}

/* The walls keep, per ball index, where each ball ended its swept move (so
 * that the solver's pushes are swept too); they follow the balls' new
 * order, which moves only [lo, hi). The world's spare buffers are free
 * scratch right after a reorder. */
static void permute(bp_workers *workers, void *values, void *scratch, size_t size,
                    const uint32_t *order, size_t lo, size_t hi)
{
    gather_shared(workers, scratch, values, size, order, lo, hi);
    memcpy((char *)values + lo * size, (char *)scratch + lo * size, (hi - lo) * size);
}

static void permute_anchors(bp_world *world, bp_workers *workers, const uint32_t *order,
                            size_t lo, size_t hi)
{
    bp_statics *st = world->statics;
    if (!st || !st->anchors_valid)
        return;
    permute(workers, st->anchor_x, world->spare_double, sizeof(double), order, lo, hi);
    permute(workers, st->anchor_y, world->spare_double, sizeof(double), order, lo, hi);
    permute(workers, st->anchor_id, world->spare_id, sizeof(uint32_t), order, lo, hi);
}

/* Pushes the pair apart by its whole overlap, split by inverse mass, if
 * that is deeper than the slop; true if it did. *deep tells whether the
 * overlap was deeper than BP_CLEANUP_OVER_R of the smaller radius. If it
 * is also deeper than two steps of gravity's fall (wake_overlap), a sleeper
 * in the pair wakes and gives way too: a ball wedged between sleepers that
 * never give would stay pressed into them for good, and sleepers that gave
 * without waking would be pushed into other sleepers, where no pass looks.
 * A ball resting on a sleeper sinks in by up to one step's fall before the
 * passes push it out, though, and when that woke the sleeper (at
 * BP_CLEANUP_OVER_R alone), the two woke and fell asleep by turns for good:
 * in a pile of 2,000 balls of radius 4-8, 5-11 balls (seeds 2, 5, 7) never
 * came to rest, trembling by up to 0.5 px. Half of two steps' fall still
 * left 7 in one of them; the sleep rules' whole wake depth (with 2% of the
 * radius) left the benchmark pit of 10,000 balls overlapping by 0.08 r. */
static __attribute__((noinline)) bool separate(bp_world *world, bp_pair pair,
                                               double wake_overlap, bool *deep)
{
    uint32_t a = pair.a, b = pair.b;
    double *x = world->x, *y = world->y;
    const double *r = world->r, *inv_mass = world->inv_mass;
    double dx = x[b] - x[a], dy = y[b] - y[a];
    double reach = r[a] + r[b];
    double d2 = dx * dx + dy * dy;
    *deep = false;
    if (d2 >= reach * reach || !apart_enough(d2, reach))
        return false;
    double smaller = r[a] < r[b] ? r[a] : r[b];
    double slop = reach - BP_CLEANUP_SLOP_OVER_R * smaller;
    if (d2 >= slop * slop)
        return false;
    double d = sqrt(d2);
    double overlap = reach - d;
    *deep = overlap > BP_CLEANUP_OVER_R * smaller;
    /* Only sleepers wake: a ball awake keeps its rest timer, so that a ball
     * jammed for good between sleepers, pushed out and back every step,
     * rests (sleep.c) instead of keeping its neighbourhood awake. */
    if (*deep && overlap > wake_overlap) {
        if (world->flags[a] & BP_BALL_ASLEEP)
            bp_world_wake(world, a);
        if (world->flags[b] & BP_BALL_ASLEEP)
            bp_world_wake(world, b);
    }
    double inv_a = inv_mass[a], inv_b = inv_mass[b];
    if (inv_a + inv_b <= 0.0)
        return false;
    double share = overlap / ((inv_a + inv_b) * d);
    x[a] -= dx * share * inv_a;
    y[a] -= dy * share * inv_a;
    x[b] += dx * share * inv_b;
    y[b] += dy * share * inv_b;
    return true;
}

/* moved_in_pass of a ball no pass pushed: before the pass before the first. */
#define BP_NEVER_MOVED (-2)

/* What a worker needs for its share of a clean-up pass. */
typedef struct cleanup_job {
    bp_world *world;
    const bp_pair *pairs;
    const size_t *slot_first;
    const int *busy; /* the slots with pairs (broadphase.h) */
    int slot_begin;  /* piece k takes slot busy[slot_begin + k] */
    int pass;
    int8_t *moved_in_pass;
    moved_list *moved;
    double rest_speed;
    double wake_overlap; /* px: bp_sleep_rules' */
} cleanup_job;

/* Clean-up of pairs[from .. to); with fetch, asking for the ball of the
 * pair BP_PREFETCH_AHEAD on. A pass after the first looks only at pairs
 * with a ball pushed since the pair was last looked at (in this pass or the
 * one before). false when memory ran out. */
static inline bool cleanup_run(const cleanup_job *job, const bp_pair *pairs, size_t from,
                               size_t to, moved_list *list, bool fetch)
{
    int pass = job->pass;
    int8_t *moved_in_pass = job->moved_in_pass;
    for (size_t p = from; p < to; p++) {
        uint32_t a = pairs[p].a, b = pairs[p].b;
        if (fetch)
            bp_world_prefetch(job->world, pairs[p + BP_PREFETCH_AHEAD].b);
        int last = moved_in_pass[a] > moved_in_pass[b] ? moved_in_pass[a] : moved_in_pass[b];
        if (pass > 0 && last < pass - 1)
            continue;
        /* separate's own first tests, inline: most pairs do not overlap
         * by more than the slop. */
        const double *x = job->world->x, *y = job->world->y, *r = job->world->r;
        double dx = x[b] - x[a], dy = y[b] - y[a], reach = r[a] + r[b];
        double d2 = dx * dx + dy * dy;
        if (d2 >= reach * reach || !apart_enough(d2, reach))
            continue;
        double slop = reach - BP_CLEANUP_SLOP_OVER_R * (r[a] < r[b] ? r[a] : r[b]);
        if (d2 >= slop * slop)
            continue;
        bool deep;
        if (separate(job->world, pairs[p], job->wake_overlap, &deep)) {
            uint32_t both[2] = {a, b};
            for (int e = 0; e < 2; e++) {
                uint32_t i = both[e];
                if (job->world->inv_mass[i] > 0.0 && moved_in_pass[i] != pass) {
                    if (!bp_reserve((void **)&list->balls, &list->capacity, list->count + 1,
                                    sizeof(uint32_t)))
                        return false;
                    moved_in_pass[i] = (int8_t)pass;
                    list->balls[list->count++] = i;
                }
            }
        }
        list->deep |= deep;
    }
    return true;
}

/* Piece k of a clean-up pass: the k-th strip of this parity. */
static void cleanup_pairs(const cleanup_job *job, const bp_pair *pairs, size_t count,
                          moved_list *list)
{
    /* Later passes skip most pairs: asking for their balls would waste. */
    size_t fetches = job->pass == 0 ? bp_world_prefetches(job->world, count) : 0;
    list->failed = !cleanup_run(job, pairs, 0, fetches, list, true) ||
                   !cleanup_run(job, pairs, fetches, count, list, false);
}

static void cleanup_strip(void *context, int k)
{
    const cleanup_job *job = context;
    int j = job->busy[job->slot_begin + k];
    size_t lo = job->slot_first[j], hi = job->slot_first[j + 1];
    cleanup_pairs(job, job->pairs + lo, hi - lo, &job->moved[j]);
}

/* Puts back inside the balls of slot j's moved list: the balls not pushed
 * are still where the last pass put them, inside. */
static void contain_moved(void *context, int j)
{
    const cleanup_job *job = context;
    const moved_list *list = &job->moved[j];
    for (size_t k = 0; k < list->count; k++)
        contain_ball(job->world, list->balls[k], job->rest_speed);
}

/* Position-only passes until no pair overlaps by more than
 * BP_CLEANUP_OVER_R of the smaller radius or the budget is spent. The
 * velocity passes leave a few contacts pressed in where chains of balls
 * wedge against each other or against sleepers; a resting pile should not
 * show them. In list order, the strips of one parity at a time as in the
 * relaxation passes, so the result does not depend on the workers.
 *
 * Most pairs are apart and stay apart: a pass after the first looks only at
 * pairs with a ball pushed lately, and puts back inside only the balls it
 * pushed. That gives exactly what walking every pair would, for a fraction
 * of the work. */
static bool cleanup_overlaps(bp_passes *solver, bp_world *world, double rest_speed,
                             double wake_overlap)
{
    const bp_broadphase *bp = &solver->broadphase;
    /* One list per strip, one for the big slot and one for the missed pairs. */
    size_t balls = world->count, slots = (size_t)bp->strips + 2;
    int8_t *moved_in_pass = bp_scratch_alloc(world->scratch, balls + 1, sizeof(int8_t));
    if (!moved_in_pass)
        return false;
    if (slots > solver->moved_lists) {
        moved_list *lists = realloc(solver->moved, slots * sizeof *lists);
        if (!lists)
            return false;
        for (size_t k = solver->moved_lists; k < slots; k++)
            lists[k] = (moved_list){0};
        solver->moved = lists;
        solver->moved_lists = slots;
    }
    memset(moved_in_pass, BP_NEVER_MOVED, balls);
    cleanup_job job = {.world = world,
                       .pairs = bp->pairs,
                       .slot_first = bp->strip_first,
                       .busy = bp->busy,
                       .moved_in_pass = moved_in_pass,
                       .moved = solver->moved,
                       .rest_speed = rest_speed,
                       .wake_overlap = wake_overlap};
    for (int pass = 0; pass < BP_CLEANUP_PASSES; pass++) {
        for (size_t j = 0; j < slots; j++) {
            solver->moved[j].count = 0;
            solver->moved[j].deep = solver->moved[j].failed = false;
        }
        job.pass = pass;
        job.slot_begin = 0;
        bp_workers_run(solver->workers, cleanup_strip, &job, bp->busy_even);
        job.slot_begin = bp->busy_even;
        bp_workers_run(solver->workers, cleanup_strip, &job, bp->busy_odd);
        /* After the strips, on one thread: the same order with any number. */
        job.slot_begin = bp->busy_even + bp->busy_odd;
        bp_workers_run(NULL, cleanup_strip, &job, bp->busy_big);
        cleanup_pairs(&job, solver->missed, solver->missed_count,
                      &solver->moved[bp->strips + 1]);
        bool any_deep = false;
        size_t moved = 0;
        for (size_t j = 0; j < slots; j++) {
            if (solver->moved[j].failed)
                return false;
            any_deep |= solver->moved[j].deep;
            moved += solver->moved[j].count;
        }
        /* Most balls are nowhere near a side: a few thousand take less
         * than handing the strips out (100k pit, two threads: 1.7%). */
        bp_workers_run(moved >= BP_CONTAIN_SHARED_BALLS ? solver->workers : NULL, contain_moved,
                       &job, bp->strips + 2);
        if (!any_deep)
            break;
    }
    return true;
}

/* The stretch [*lo, *hi) outside which the sort left every ball where it
 * is; empty for a settled world, whose arrays need no shuffling. */
static void moved_stretch(const uint32_t *order, size_t n, size_t *lo, size_t *hi)
{
    size_t a = 0, b = n;
    while (a < b && order[a] == a)
        a++;
    while (b > a && order[b - 1] == b - 1)
        b--;
    *lo = a;
    *hi = b;
}

/* Whether this step reorders the balls in memory (see
 * BP_SOLVER_REORDER_EVERY): it depends on the world's state alone, so runs
 * stay the same with any number of threads. */
static bool reorder_due(const bp_world *world)
{
    if (world->count < BP_SOLVER_REORDER_MIN_BALLS || world->steps % BP_SOLVER_REORDER_EVERY != 0)
        return false;
    if (world->steps % BP_SOLVER_REORDER_CALM_EVERY == 0)
        return true;
    size_t enough = world->count / BP_SOLVER_REORDER_AWAKE_SHARE, awake = 0;
    for (size_t i = bp_world_next_awake(world, 0); i < world->count && awake < enough;
         i = bp_world_next_awake(world, i + 1))
        awake++;
    return awake >= enough;
}


/* Copies of the centres of balls, in pieces by index: of every ball, or of
 * the balls awake. */
typedef struct copy_job {
    const bp_world *world;
    double *x, *y;
    bool every;
    int pieces;
} copy_job;

static void copy_piece(void *context, int piece)
{
    const copy_job *job = context;
    const bp_world *world = job->world;
    size_t begin = bp_piece_start(world->count, piece, job->pieces);
    size_t end = bp_piece_start(world->count, piece + 1, job->pieces);
    if (job->every) {
        if (end == begin)
            return; /* an empty world may have no arrays */
        memcpy(job->x + begin, world->x + begin, (end - begin) * sizeof(double));
        memcpy(job->y + begin, world->y + begin, (end - begin) * sizeof(double));
        return;
    }
    for (size_t i = bp_world_next_awake_below(world, begin, end); i < end;
         i = bp_world_next_awake_below(world, i + 1, end)) {
        job->x[i] = world->x[i];
        job->y[i] = world->y[i];
    }
}

/* Copies every ball's centre (every) or those of the balls awake into x, y. */
static void copy_centres(bp_workers *workers, const bp_world *world, double *x, double *y,
                         bool every)
{
    copy_job job = {world, x, y, every,
                    bp_workers_pieces(bp_workers_count(workers), BP_WORKERS_MAX_PIECES)};
    bp_workers_run(workers, copy_piece, &job, job.pieces);
}

/* Notes where every ball is, and its flags, as the pairs are listed: for
 * finding the pairs the list missed, which only a world with gravity looks
 * for (without it the copies would be a fifth of a crowd's memory traffic). */
static bool note_listed(bp_passes *solver, const bp_world *world)
{
    size_t n = world->count;
    if (world->params.gravity == 0.0) {
        solver->listed_x = solver->listed_y = NULL;
        solver->listed_flags = NULL;
        return true;
    }
    solver->listed_x = bp_scratch_alloc(world->scratch, n + 1, sizeof(double));
    solver->listed_y = bp_scratch_alloc(world->scratch, n + 1, sizeof(double));
    solver->listed_flags = bp_scratch_alloc(world->scratch, n + 1, 1);
    if (!solver->listed_x || !solver->listed_y || !solver->listed_flags)
        return false;
    /* Sleepers stand where they fell asleep, which start_x/y hold: only the
     * balls awake need noting (a world at rest is nearly all sleepers). */
    copy_centres(solver->workers, world, solver->listed_x, solver->listed_y, false);
    memcpy(solver->listed_flags, world->flags, n);
    return true;
}

/* Where ball i was when the pairs were listed. */
static inline void listed_at(const bp_passes *solver, size_t i, double *x, double *y)
{
    bool asleep = solver->listed_flags[i] & BP_BALL_ASLEEP;
    *x = asleep ? solver->start_x[i] : solver->listed_x[i];
    *y = asleep ? solver->start_y[i] : solver->listed_y[i];
}

/* Whether balls i and j were listed as a pair: they were within the margin
 * when the list was made, and one of them was awake then. */
static bool was_listed(const bp_passes *solver, const bp_world *world, uint32_t i, uint32_t j,
                       double list_margin)
{
    double xi, yi, xj, yj;
    listed_at(solver, i, &xi, &yi);
    listed_at(solver, j, &xj, &yj);
    double dx = xj - xi, dy = yj - yi;
    double reach = world->r[i] + world->r[j] + list_margin;
    bool both_asleep = solver->listed_flags[i] & solver->listed_flags[j] & BP_BALL_ASLEEP;
    return !both_asleep && dx * dx + dy * dy < reach * reach;
}

typedef struct missed_job {
    const bp_passes *solver;
    const bp_world *world;
    const uint32_t *mover;
    const uint8_t *far_mover;
    double list_margin, beyond;
    missed_piece *pieces;
} missed_job;

/* Adds m and b to the piece's pairs if they touch now and were not
 * listed. false when memory runs out. */
static bool note_missed(const missed_job *job, missed_piece *piece, uint32_t m, uint32_t b)
{
    const bp_world *world = job->world;
    double dx = world->x[b] - world->x[m], dy = world->y[b] - world->y[m];
    double touch = touch_reach(world->r[m], world->r[b], touch_cap_of(world));
    if (dx * dx + dy * dy >= touch * touch ||
        was_listed(job->solver, world, m, b, job->list_margin))
        return true;
    if (!bp_reserve((void **)&piece->pairs, &piece->capacity, piece->count + 1, sizeof(bp_pair)))
        return false;
    piece->pairs[piece->count++] = (bp_pair){m, b};
    return true;
}

/* Piece k: the pairs its movers make with the big balls and with the balls
 * filed around them. Reads the world only, so pieces run side by side. */
static void search_movers(void *context, int k)
{
    const missed_job *job = context;
    const bp_world *world = job->world;
    const bp_broadphase *bp = &job->solver->broadphase;
    const uint8_t *far_mover = job->far_mover;
    missed_piece *piece = &job->pieces[k];
    piece->count = 0;
    bool ok = true;
    for (size_t q = piece->from; q < piece->to && ok; q++) {
        uint32_t m = job->mover[q];
        for (size_t j = 0; j < bp->big_count && ok; j++) {
            uint32_t b = bp->big[j];
            if (b != m && !(far_mover[b] && b < m))
                ok = note_missed(job, piece, m, b);
        }
        size_t found;
        double reach = world->r[m] + job->beyond;
        while (ok && (found = bp_broadphase_query_square(bp, world->x[m], world->y[m], reach,
                                                         piece->around, piece->around_room)) >
                         piece->around_room)
            ok = bp_reserve((void **)&piece->around, &piece->around_room, found,
                            sizeof(uint32_t));
        for (size_t c = 0; ok && c < found; c++) {
            uint32_t b = piece->around[c];
            /* Two movers find each other: the lower index keeps the pair. */
            if (b == m || (far_mover[b] && b < m))
                continue;
            ok = note_missed(job, piece, m, b);
        }
    }
    piece->failed = !ok;
}

/* Movers from this many on are searched by the workers, in pieces. */
#define BP_MISSED_SHARED_MOVERS 256

/* The pairs that overlap now but were not listed, for the clean-up. A pair
 * left out was list_margin or more apart when listed, and the passes push
 * balls within a margin that a pile of pushes can exceed: in a crowd
 * landing on a pile, a ball knocked down into the pile was pushed back up
 * by it and by the supported pass, 8 px in one step, into a ball falling
 * onto it that was not listed, and the two stayed pressed into each other
 * by a whole radius (10,000 balls, step 130; in 21 of the pit's 600 steps
 * some pair was left 0.2-1 r deep). To close in by the margin, one
 * of the two must have moved half of it: those balls are few, and only
 * around them is looked at. (Two balls asleep when the list was made are
 * not listed either, however close. If the supported pass wakes one, the
 * pass after it may push it into the other, by no more than the small
 * overlaps it has with balls awake; unless it moved half the margin, that
 * pair is not looked for. The one seen, in the 5,000-ball pit, stayed
 * 0.0006 px apart.) The movers are searched around in pieces, their
 * finds joined in mover order: the same list with any workers. false when
 * memory runs out. */
static bool find_missed_pairs(bp_passes *solver, bp_world *world, double list_margin)
{
    size_t n = world->count;
    /* the widest pair's touch margin */
    double touch_most = fmin(BP_TOUCH_OVER_R * world->r_max, touch_cap_of(world));
    double half = 0.5 * (list_margin - touch_most), half2 = half * half, farthest2 = 0.0;
    size_t movers = 0;
    solver->missed = NULL;
    solver->missed_count = 0;
    uint32_t *mover = bp_scratch_alloc(world->scratch, n + 1, sizeof(uint32_t));
    if (!mover)
        return false;
    for (size_t i = bp_world_next_awake(world, 0); i < n; i = bp_world_next_awake(world, i + 1)) {
        double lx, ly;
        listed_at(solver, i, &lx, &ly);
        double dx = world->x[i] - lx, dy = world->y[i] - ly;
        double d2 = dx * dx + dy * dy;
        farthest2 = d2 > farthest2 ? d2 : farthest2;
        if (d2 >= half2)
            mover[movers++] = (uint32_t)i;
    }
    if (movers == 0)
        return true;
    size_t had = solver->far_mover_capacity;
    if (!bp_reserve((void **)&solver->far_mover, &solver->far_mover_capacity, n + 1, 1))
        return false;
    if (!solver->missed_pieces &&
        !(solver->missed_pieces = calloc(BP_WORKERS_MAX_PIECES, sizeof(missed_piece))))
        return false;
    memset(solver->far_mover + had, 0, solver->far_mover_capacity - had);
    uint8_t *far_mover = solver->far_mover;
    for (size_t k = 0; k < movers; k++)
        far_mover[mover[k]] = 1;
    /* Each ball is filed where it was listed, at most this far from where
     * it is. The big balls are in no cell (broadphase.h): they are looked
     * at one by one. */
    const bp_broadphase *bp = &solver->broadphase;
    missed_job job = {.solver = solver,
                      .world = world,
                      .mover = mover,
                      .far_mover = far_mover,
                      .list_margin = list_margin,
                      .beyond = bp->small_r + touch_most + sqrt(farthest2),
                      .pieces = solver->missed_pieces};
    bp_workers *workers = movers >= BP_MISSED_SHARED_MOVERS ? solver->workers : NULL;
    int pieces = bp_workers_pieces(bp_workers_count(workers), BP_WORKERS_MAX_PIECES);
    for (int k = 0; k < pieces; k++) {
        job.pieces[k].from = bp_piece_start(movers, k, pieces);
        job.pieces[k].to = bp_piece_start(movers, k + 1, pieces);
    }
    bp_workers_run(workers, search_movers, &job, pieces);
    for (size_t k = 0; k < movers; k++)
        far_mover[mover[k]] = 0;
    size_t total = 0;
    for (int k = 0; k < pieces; k++) {
        if (job.pieces[k].failed)
            return false;
        total += job.pieces[k].count;
    }
    if (total == 0)
        return true;
    solver->missed = bp_scratch_alloc(world->scratch, total, sizeof(bp_pair));
    if (!solver->missed)
        return false;
    for (int k = 0; k < pieces; k++) {
        if (job.pieces[k].count == 0) /* its pairs may be NULL */
            continue;
        memcpy(solver->missed + solver->missed_count, job.pieces[k].pairs,
               job.pieces[k].count * sizeof(bp_pair));
        solver->missed_count += job.pieces[k].count;
    }
    return true;
}

/* Whether every ball sleeps. Then nothing is listed, moved or woken, and the
 * whole resolve would change nothing. */
static bool all_asleep(const bp_world *world)
{
    return bp_world_next_awake(world, 0) == world->count;
}

double bp_passes_list_margin(const bp_world *world)
{
    return fmax(fmin(BP_TOUCH_OVER_R * world->r_max, touch_cap_of(world)),
                BP_LIST_MARGIN_OVER_R * world->r_min);
}

bool bp_passes_resolve(bp_world *world, double rest_speed, bool last_substep)
{
    bp_passes *solver = world->passes;
    bp_broadphase *bp = &solver->broadphase;
    if (all_asleep(world))
        return true;
    bp->awake_pairs_only = true;
    /* The broad phase's and the supported pass's arrays of the round come
     * from the world's arena. */
    bp->scratch = world->scratch;
    solver->support.scratch = world->scratch;
    double r_min = world->r_min;
    double list_margin = bp_passes_list_margin(world);
    if (!bp_broadphase_sort(bp, world, list_margin, solver->workers))
        return false;
    /* Neighbours in space become neighbours in memory: every pass below then
     * streams through the arrays instead of jumping around them. Small
     * worlds fit the cache anyway and keep their order. */
    size_t lo = 0, hi = 0;
    if (reorder_due(world))
        moved_stretch(bp->items, world->count, &lo, &hi);
    if (lo < hi) {
        bp_workers *workers = solver->workers;
        if (!bp_world_reorder(world, bp->items, lo, hi, gather_shared, workers))
            return false;
        permute_anchors(world, workers, bp->items, lo, hi);
        permute(workers, solver->start_x, world->spare_double, sizeof(double), bp->items, lo, hi);
        permute(workers, solver->start_y, world->spare_double, sizeof(double), bp->items, lo, hi);
        solver->starts_layout = world->layout_stamp;
        bp_broadphase_follow_reorder(bp, world, lo, hi);
    }
    if (!bp_broadphase_pairs(bp, world, list_margin, solver->workers) ||
        !list_side_balls(solver, world, list_margin) || !note_listed(solver, world))
        return false;

    /* The sides are contacts too: a pass that pushed a ball through one must
     * be followed by putting it back, or the next pass starts from balls
     * stacked on top of each other at the wall. They also tell the supported
     * pass which balls stand on the floor. */
    bool gravity = world->params.gravity != 0.0;
    bp_sleep_rules rules = bp_sleep_rules_for(&world->params);
    /* A sleeper woken now moves in the passes below: it needs its pairs
     * with the sleepers around it, which the list left out. */
    if (gravity) {
        uint32_t *woken_balls = bp_scratch_alloc(world->scratch, world->count + 1,
                                                 sizeof(uint32_t));
        if (!woken_balls)
            return false;
        size_t woken = bp_sleep_wake_on_contact(world, bp->pairs, bp->pair_count, &rules,
                                                woken_balls);
        if (woken > 0 && !bp_broadphase_add_woken(bp, world, list_margin, woken_balls, woken,
                                                   solver->workers))
            return false;
        for (size_t k = 0; k < woken; k++) { /* its pairs are listed now */
            uint32_t i = woken_balls[k];
            solver->listed_flags[i] &= (uint8_t)~BP_BALL_ASLEEP;
            solver->listed_x[i] = world->x[i];
            solver->listed_y[i] = world->y[i];
        }
    }

    for (int pass = 0; pass < BP_SOLVER_PASSES; pass++)
        relax_pass(solver, world, rest_speed, pass % 2 == 1);
    if (gravity) {
        if (!bp_support_pass(&solver->support, world, bp, r_min, solver->workers))
            return false;
        contain_all(solver, world, rest_speed);
        if (last_substep) {
            for (int pass = 0; pass < BP_SOLVER_POST_PASSES; pass++)
                relax_pass(solver, world, rest_speed, pass % 2 == 1);
            if (!find_missed_pairs(solver, world, list_margin) ||
                !cleanup_overlaps(solver, world, rest_speed, rules.wake_overlap))
                return false;
        }
        solver->supported_valid = true;
    }
    return true;
}

bool bp_passes_begin_step(bp_world *world, bp_workers *workers)
{
    bp_passes *solver = world->passes;
    size_t n = world->count, c1 = solver->start_capacity, c2 = c1;
    if (!bp_reserve((void **)&solver->start_x, &c1, n + 1, sizeof(double)) ||
        !bp_reserve((void **)&solver->start_y, &c2, n + 1, sizeof(double)))
        return false;
    solver->start_capacity = c1;
    solver->workers = workers;
    /* The starts serve sleep and the missed pairs, which only a world with
     * gravity has: without it they are not kept, and copied whole when
     * gravity returns. */
    if (world->params.gravity == 0.0) {
        solver->starts_valid = false;
        solver->supported_valid = false;
        return true;
    }
    /* Sleepers' starts hold from when they fell asleep (bp_sleep_update),
     * as long as the balls keep their indices. */
    bool every = !solver->starts_valid || solver->starts_layout != world->layout_stamp;
    copy_centres(solver->workers, world, solver->start_x, solver->start_y, every);
    solver->starts_valid = true;
    solver->starts_layout = world->layout_stamp;
    solver->supported_valid = false;
    return true;
}

void bp_passes_end_step(bp_world *world)
{
    bp_passes *solver = world->passes;
    if (!solver->supported_valid || world->params.gravity == 0.0)
        return;
    /* Out of memory, no ball falls asleep this step: it waits a step. */
    uint32_t *ready = bp_scratch_alloc(world->scratch, world->count + 1, sizeof(uint32_t));
    if (!ready)
        return;
    bp_sleep_rules rules = bp_sleep_rules_for(&world->params);
    bp_sleep_update(world, &solver->support, solver->start_x, solver->start_y, &rules, ready);
}

double bp_passes_max_overlap(const bp_world *world)
{
    bp_broadphase scratch = {0};
    double deepest = 0.0;
    if (!bp_broadphase_find_pairs(&scratch, world, 0.0)) {
        bp_broadphase_free(&scratch);
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
