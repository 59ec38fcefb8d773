/* The impact stage: contacts that close fast between balls that carry no
 * load, met pairwise by the seed's law (collide.h) rather than by the
 * sweeps, so an elastic crowd keeps its energy and equal masses swap
 * speeds exactly, while a pile is left to the sweeps whole. */
#include <math.h>
#include <string.h>

#include "collide.h"
#include "scratch.h"
#include "soft_internal.h"
#include "workers.h"

/* Most rounds of impacts at once: a row of balls passes an impact one
 * ball a round. */
#define BP_SOFT_IMPACT_ROUNDS 8

/* The block of the i-th lane listed for impacts, and its lane (*l). */
static inline contact_block *listed_lane(const bp_soft *soft, size_t i, int *l)
{
    uint32_t slot = soft->impact_lanes[i].slot;
    *l = (int)(slot % BP_SOFT_LANES);
    return &soft->blocks[slot / BP_SOFT_LANES];
}

/* A ball resting alone on a side or wall carries no more than this many
 * of its own weights there, and no ball pushes on it. */
#define BP_SOFT_ALONE_WEIGHTS 1.5

/* The most normal impulse (in a substep) lane l of q may carry and leave
 * its ball free of load: none between two balls, and against a side or
 * wall the ball's own weight (up to BP_SOFT_ALONE_WEIGHTS of it). A ball
 * resting alone on the floor then meets a ball dropped on it by the
 * pairwise law, and the floor as an impact after it: dropped with e = 0.8
 * on a ball lying on the floor, a ball came back up at 0.40 of its speed
 * (the sweeps stopped both against the floor, and restitution then drove
 * the lower one into it), where the law in turn gives 0.64. Between balls
 * any push is load: a pile's balls met pairwise were bounced by the push
 * out of their overlaps, and a pile whose bottom row was free of load
 * rattled on the floor at 500 px/s and never slept. */
static inline double free_load(const bp_soft *soft, const contact_block *q, int l)
{
    if (q->b[l] != soft->still)
        return 0.0;
    double im = soft->bodies[q->a[l]].im;
    return im > 0.0 ? BP_SOFT_ALONE_WEIGHTS * soft->weight_h / im : 0.0;
}

/* Whether lane i listed pushes or has pushed in this step (jn or jn_max)
 * more than a ball free of load carries (free_load). */
static inline bool carries_load(const bp_soft *soft, size_t i)
{
    int l;
    const contact_block *q = listed_lane(soft, i, &l);
    double most = free_load(soft, q, l);
    return q->jn[l] > most || q->jn_max[l] > most;
}

/* Whether lane l of block q (bodies a and b) closes within the next h s
 * faster than resting balls meet: only then may it meet an impact. */
static inline bool closing(const soft_body *a, const soft_body *b, const contact_block *q, int l,
                           double h, double rest_speed)
{
    double nx = q->nx[l], ny = q->ny[l];
    double vn = (b->vx - a->vx) * nx + (b->vy - a->vy) * ny;
    if (!(vn < -rest_speed))
        return false;
    double s = q->s0[l] + (b->dx - a->dx) * nx + (b->dy - a->dy) * ny;
    return !(s + vn * h > 0.0);
}

/* A look at every lane listed on the step's threads, into its mark
 * (impact_marks): whether it carries load (carries_load), or with closes,
 * for a lane free of load, whether it closes (closing) as the bodies are
 * now (its seen count set to now). */
typedef struct marks_job {
    bp_soft *soft;
    bool closes;
    double h, rest_speed;
    int pieces;
} marks_job;

static void marks_piece(void *context, int piece)
{
    const marks_job *job = context;
    bp_soft *soft = job->soft;
    size_t lo = bp_piece_start(soft->impact_count, piece, job->pieces);
    size_t hi = bp_piece_start(soft->impact_count, piece + 1, job->pieces);
    const uint8_t *loaded = soft->loaded;
    for (size_t i = lo; i < hi; i++) {
        impact_lane *lane = &soft->impact_lanes[i];
        if (!job->closes) {
            soft->impact_marks[i] = carries_load(soft, i);
            continue;
        }
        lane->seen = soft->impacts_met;
        if (loaded[lane->a] || (lane->b != soft->still && loaded[lane->b]))
            continue; /* the rounds pass it over */
        int l;
        const contact_block *q = listed_lane(soft, i, &l);
        const soft_body *a = &soft->bodies[lane->a], *b = &soft->bodies[lane->b];
        soft->impact_marks[i] = closing(a, b, q, l, job->h, job->rest_speed);
    }
}

/* Marks every lane listed (marks_job) on the step's threads: false
 * without threads, when nothing is marked. */
static bool mark_lanes(bp_soft *soft, bool closes, double h, double rest_speed)
{
    int threads = bp_workers_count(soft->workers);
    if (threads < 2)
        return false;
    int pieces = bp_workers_pieces(threads, BP_WORKERS_MAX_PIECES);
    marks_job job = {soft, closes, h, rest_speed, pieces};
    bp_workers_run(soft->workers, marks_piece, &job, job.pieces);
    return true;
}

/* Marks both balls of every lane listed in soft->impact_lanes that
 * carries load (carries_load) as carrying it; with prune, keeps listed
 * only the lanes with a ball still free of it. With threads, the lanes
 * are looked at on them first (the marks, on one, are the same). */
static void mark_loaded(bp_soft *soft, bool prune)
{
    uint8_t *loaded = soft->loaded;
    impact_lane *lanes = soft->impact_lanes;
    bool marked = mark_lanes(soft, false, 0.0, 0.0);
    for (size_t i = 0; i < soft->impact_count; i++)
        if (marked ? soft->impact_marks[i] : carries_load(soft, i))
            loaded[lanes[i].a] = loaded[lanes[i].b] = 1;
    if (!prune)
        return;
    size_t kept = 0;
    for (size_t i = 0; i < soft->impact_count; i++)
        if (!loaded[lanes[i].a] || !loaded[lanes[i].b])
            lanes[kept++] = lanes[i];
    soft->impact_count = kept;
}

/* Every lane's balls free of load again (the still body marked loaded, so
 * that a lane stays listed only for a ball that may be free of it). */
static void clear_loaded(bp_soft *soft, size_t still)
{
    for (size_t i = 0; i < soft->impact_count; i++)
        soft->loaded[soft->impact_lanes[i].a] = soft->loaded[soft->impact_lanes[i].b] = 0;
    soft->loaded[still] = 1;
}

/* The step's lanes that may meet impacts (every contact), and the load
 * their balls carry before the first sweep: the impulses kept from the
 * last step, in substeps of h s. false when memory runs out. */
bool bp_soft_begin_impacts(bp_soft *soft, const bp_world *world, double h)
{
    soft->still = (uint32_t)world->count;
    soft->weight_h = fabs(world->params.gravity) * h;
    size_t slots = soft->block_count * BP_SOFT_LANES;
    soft->loaded = bp_scratch_alloc(world->scratch, world->count + 1, sizeof(uint8_t));
    soft->impact_lanes = bp_scratch_alloc(world->scratch, slots, sizeof(impact_lane));
    soft->impact_marks = bp_scratch_alloc(world->scratch, slots, sizeof(uint8_t));
    soft->changed_at = bp_scratch_alloc(world->scratch, world->count + 1, sizeof(uint32_t));
    if (!soft->loaded || !soft->impact_lanes || !soft->impact_marks || !soft->changed_at)
        return false;
    memset(soft->changed_at, 0, (world->count + 1) * sizeof(uint32_t));
    soft->impacts_met = 0;
    soft->impact_count = 0;
    for (size_t i = 0; i < soft->block_count; i++)
        for (int l = 0; l < BP_SOFT_LANES; l++) {
            uint32_t a = soft->blocks[i].a[l], b = soft->blocks[i].b[l];
            uint32_t slot = (uint32_t)(i * BP_SOFT_LANES + (size_t)l);
            if (a != b)
                soft->impact_lanes[soft->impact_count++] = (impact_lane){slot, a, b, 0};
        }
    clear_loaded(soft, world->count);
    mark_loaded(soft, false);
    soft->impacts_swept = false;
    return true;
}

/* Lane l of block q met as an impact if its balls close within the next h
 * s faster than resting balls meet: whether it was. */
static bool meet(const bp_world *world, const bp_contact_law *law, soft_body *bodies,
                 contact_block *q, int l, double h, double rest_speed)
{
    const bp_params *p = &world->params;
    soft_body *a = &bodies[q->a[l]], *b = &bodies[q->b[l]];
    double nx = q->nx[l], ny = q->ny[l];
    if (!closing(a, b, q, l, h, rest_speed))
        return false;
    if (q->b[l] >= world->count) {
        if (a->im == 0.0)
            return false;
        bp_collide_surface(law, -nx, -ny, a->r, a->im, a->ii, &a->vx, &a->vy, &a->w,
                           p->restitution, rest_speed);
    } else {
        bool a_held = world->flags[q->a[l]] & BP_BALL_HELD;
        bool b_held = world->flags[q->b[l]] & BP_BALL_HELD;
        if ((a->im == 0.0 && !a_held) || (b->im == 0.0 && !b_held))
            return false; /* a sleeper: the sweeps' */
        /* A held ball meets as the law's hand, of no inverse mass: it
         * shoves the other on at its own speed (its body has its mass for
         * the sweeps' sake only). */
        bp_contact_side sa = {&a->vx, &a->vy, &a->w, a_held ? 0.0 : a->im, a_held ? 0.0 : a->ii,
                              a->r};
        bp_contact_side sb = {&b->vx, &b->vy, &b->w, b_held ? 0.0 : b->im, b_held ? 0.0 : b->ii,
                              b->r};
        bp_collide_pair(law, p->restitution, rest_speed, nx, ny, &sa, &sb);
    }
    q->vn0[l] = (b->vx - a->vx) * nx + (b->vy - a->vy) * ny;
    return true;
}

/* Contacts that close within the next h s faster than resting balls meet,
 * between balls neither of which carries load: impacts, each met by the
 * pairwise law (collide.h: the 1D law along the normal with the world's
 * restitution, friction bounded by its impulse), in rounds until none
 * approaches, so an impact passes down a row as the seed law passes it.
 * Elastic balls then keep their energy to rounding (a Gauss-Seidel sweep
 * over a cluster would not) and equal masses swap. A ball meets a side or
 * wall by the static law. A contact met here closes no more in the
 * sweeps, and restitution leaves it alone (its vn0 is the speed it parts
 * at). Sleepers (no inverse mass, not held) are left to the sweeps.
 *
 * A ball that carries load is the sweeps' in all its contacts: after the
 * move its velocity holds the push out of its overlaps, which the relax
 * takes back; met here, the push would bounce it off its neighbours and a
 * pile would fall asleep out of balance (docs/benchmarks.md, "True rest
 * over thirty pours"). */
void bp_soft_resolve_impacts(bp_soft *soft, const bp_world *world, double h, double rest_speed,
                             bool swept)
{
    bp_contact_law law = {world->params.friction, world->params.rolling};
    /* From the first sweep on, jn <= jn_max: a ball's load is then
     * whether a contact of its has pushed (jn_max > 0), which only grows,
     * so lanes whose balls both carry load leave the list for the step. */
    if (swept && !soft->impacts_swept) {
        clear_loaded(soft, world->count);
        soft->impacts_swept = true;
    }
    if (swept)
        mark_loaded(soft, true);
    const uint8_t *loaded = soft->loaded;
    uint32_t still = (uint32_t)world->count, *changed_at = soft->changed_at;
    /* The look ahead: which lanes close as the bodies are before the
     * first round, on the threads. The first round then looks again only
     * at those, and at lanes an impact before them in the round changed;
     * without threads it looks at every lane itself. */
    const uint8_t *closes = mark_lanes(soft, true, h, rest_speed) ? soft->impact_marks : NULL;
    for (int round = 0; round < BP_SOFT_IMPACT_ROUNDS; round++) {
        bool met = false;
        for (size_t i = 0; i < soft->impact_count; i++) {
            impact_lane *lane = &soft->impact_lanes[i];
            uint32_t a = lane->a, b = lane->b;
            if (loaded[a] || (b != still && loaded[b]))
                continue;
            /* A lane whose balls no impact changed since it was last
             * looked at meets none again (nor one that was seen not to
             * close in the look ahead). */
            bool looked = round > 0 || (closes && !closes[i]);
            if (looked && changed_at[a] <= lane->seen && changed_at[b] <= lane->seen)
                continue;
            lane->seen = soft->impacts_met;
            int l;
            contact_block *q = listed_lane(soft, i, &l);
            if (!meet(world, &law, soft->bodies, q, l, h, rest_speed))
                continue;
            met = true;
            changed_at[a] = ++soft->impacts_met;
            if (b != still)
                changed_at[b] = soft->impacts_met;
        }
        if (!met)
            return;
    }
}
