/* The soft solver's stages over the contacts: the contacts packed into
 * blocks of lanes in their batches' order, the impulses they carry given
 * again (warm start), the Gauss-Seidel sweeps that stop every approach and
 * push overlaps out through a soft constraint, the sweep without the push
 * (relax), restitution, and the impulses unpacked for the contacts' memory.
 * This is the scalar sweep; contact_solver_wide.c does the same operations
 * in SIMD lanes, in the same order, for the same bits. With worker threads
 * the groups of blocks that share no ball (columns of a big pile,
 * colour.c) are shared out among them, which gives the same bits too. */
#include <math.h>

#include "minmax.h"
#include "scratch.h"
#include "soft_internal.h"
#include "workers.h"

/* A damped spring of frequency hz and damping ratio zeta, solved
 * implicitly over h s: the part of an overlap it closes per second, and how
 * much of the rigid response it gives. */
softness bp_soft_softness_for(double hz, double zeta, double h)
{
    double omega = 2.0 * M_PI * hz;
    double a1 = 2.0 * zeta + h * omega, a2 = h * omega * a1, a3 = 1.0 / (1.0 + a2);
    return (softness){omega / a1, a2 * a3, a3};
}

/* Contact c into lane l of block q. */
static void pack_lane(contact_block *q, int l, const soft_contact *c)
{
    q->a[l] = c->a;
    q->b[l] = c->b;
    q->nx[l] = c->nx;
    q->ny[l] = c->ny;
    q->s0[l] = c->s0;
    q->kn[l] = c->kn;
    q->kt[l] = c->kt;
    q->kr[l] = c->kr;
    q->roll_r[l] = c->roll_r;
    q->jn[l] = c->jn;
    q->jt[l] = c->jt;
    q->jr[l] = c->jr;
    q->jn_max[l] = c->jn_max;
    q->vn0[l] = c->vn0;
    q->stiff[l] = c->stiff;
}

/* Lane l of block q's impulses back in contact c. */
static void unpack_lane(soft_contact *c, const contact_block *q, int l)
{
    c->jn = q->jn[l];
    c->jt = q->jt[l];
    c->jr = q->jr[l];
    c->jn_max = q->jn_max[l];
}

/* The contacts into their blocks' lanes (pack) or the impulses back
 * (unpack), cut into pieces of blocks for the step's threads: each
 * block's part depends on that block alone. */
typedef struct blocks_job {
    bp_soft *soft;
    const soft_contact *none; /* what an empty lane holds (pack) */
    bool pack;
    int pieces;
} blocks_job;

static void blocks_piece(void *context, int piece)
{
    const blocks_job *job = context;
    bp_soft *soft = job->soft;
    size_t lo = bp_piece_start(soft->block_count, piece, job->pieces);
    size_t hi = bp_piece_start(soft->block_count, piece + 1, job->pieces);
    for (size_t q = lo; q < hi; q++)
        for (int l = 0; l < BP_SOFT_LANES; l++) {
            uint32_t k = soft->slots[q * BP_SOFT_LANES + (size_t)l];
            soft_contact *c = k == BP_SOFT_NO_CONTACT ? NULL : &soft->contacts[k];
            if (job->pack)
                pack_lane(&soft->blocks[q], l, c ? c : job->none);
            else if (c)
                unpack_lane(c, &soft->blocks[q], l);
        }
}

static void run_blocks_job(bp_soft *soft, const soft_contact *none, bool pack)
{
    int pieces = bp_workers_pieces(bp_workers_count(soft->workers), BP_WORKERS_MAX_PIECES);
    blocks_job job = {soft, none, pack, pieces};
    bp_workers_run(soft->workers, blocks_piece, &job, pieces);
}

/* The step's contacts, with the impulses recalled, into blocks in their
 * batches' order (bp_soft_batch_contacts); an empty lane joins the still
 * body to itself. false when memory runs out. */
bool bp_soft_pack_blocks(bp_soft *soft, const bp_world *world)
{
    soft->blocks = bp_scratch_alloc(world->scratch, soft->block_count, sizeof(contact_block));
    if (!soft->blocks)
        return false;
    soft_contact none = {.a = (uint32_t)world->count, .b = (uint32_t)world->count};
    run_blocks_job(soft, &none, true);
    return true;
}

/* The impulses the sweeps left, back in the contacts they came from. */
void bp_soft_unpack_blocks(bp_soft *soft)
{
    run_blocks_job(soft, NULL, false);
}

/* Gives lane l's impulses (normal pn, tangential pt, rolling pr) to its
 * bodies at the contact point: b takes them, a their opposite. The still
 * body (a side's or wall's, index still) is left as it is: of no mass, it
 * would stay 0, and left alone it is written by no thread. */
static inline void apply(soft_body *bodies, const contact_block *q, int l, uint32_t still,
                         double pn, double pt, double pr)
{
    double px = pn * q->nx[l] - pt * q->ny[l], py = pn * q->ny[l] + pt * q->nx[l];
    soft_body *a = &bodies[q->a[l]], *b = &bodies[q->b[l]];
    a->vx -= px * a->im;
    a->vy -= py * a->im;
    a->w -= (pt * a->r + pr) * a->ii;
    if (q->b[l] == still)
        return;
    b->vx += px * b->im;
    b->vy += py * b->im;
    b->w += (pr - pt * b->r) * b->ii;
}

/* Whether lane l of block q holds no contact. */
static inline bool empty_lane(const contact_block *q, int l)
{
    return q->a[l] == q->b[l];
}

/* The impulses blocks [lo, hi) carry, given again (shared: while other
 * threads do other blocks). */
static void warm_start_blocks(bp_soft *soft, size_t lo, size_t hi, bool shared)
{
    if (bp_soft_wide_available()) {
        bp_soft_warm_start_wide(soft, lo, hi, shared);
        return;
    }
    for (size_t i = lo; i < hi; i++) {
        const contact_block *q = &soft->blocks[i];
        for (int l = 0; l < BP_SOFT_LANES; l++)
            if (!empty_lane(q, l))
                apply(soft->bodies, q, l, soft->still, q->jn[l], q->jt[l], q->jr[l]);
    }
}

/* Lane l of block q swept once (law: the substep's push and laws). */
static inline void sweep_lane(soft_body *bodies, contact_block *q, int l, uint32_t still,
                              const sweep_law *law)
{
    soft_body *a = &bodies[q->a[l]], *b = &bodies[q->b[l]];
    /* The gap now: as listed, and closed by how far each centre moved. */
    double s = q->s0[l] + (b->dx - a->dx) * q->nx[l] + (b->dy - a->dy) * q->ny[l];
    double bias = 0.0, mass_scale = 1.0, impulse_scale = 0.0;
    if (s > 0.0) {
        bias = s * law->inv_h; /* speculative: it may close the gap, no more */
    } else if (law->push) {
        bool stiff = q->stiff[l] > 0.0;
        bias = bp_max((stiff ? law->stiff_bias_rate : law->bias_rate) * s, -law->max_push);
        mass_scale = stiff ? law->stiff_mass_scale : law->mass_scale;
        impulse_scale = stiff ? law->stiff_impulse_scale : law->impulse_scale;
    }
    double dvx = b->vx - a->vx, dvy = b->vy - a->vy;
    double vn = dvx * q->nx[l] + dvy * q->ny[l];
    double jn0 = q->jn[l];
    double jn = bp_max(jn0 - q->kn[l] * mass_scale * (vn + bias) - impulse_scale * jn0, 0.0);
    double dn = jn - jn0;
    q->jn[l] = jn;
    q->jn_max[l] = bp_max(q->jn_max[l], jn);
    /* Friction on the contact points' relative speed, spin included. */
    double vt = -dvx * q->ny[l] + dvy * q->nx[l] - b->w * b->r - a->w * a->r;
    double limit = law->friction * jn;
    double jt = bp_min(bp_max(q->jt[l] - vt * q->kt[l], -limit), limit);
    double dt_ = jt - q->jt[l];
    q->jt[l] = jt;
    apply(bodies, q, l, still, dn, dt_, 0.0);
    /* Rolling resistance against the relative spin, never reversing it. */
    if (law->rolling > 0.0 && q->kr[l] > 0.0) {
        double spin = a->w - b->w;
        double rlimit = law->rolling * jn * q->roll_r[l];
        double jr = bp_min(bp_max(q->jr[l] + spin * q->kr[l], -rlimit), rlimit);
        double dr = jr - q->jr[l];
        q->jr[l] = jr;
        apply(bodies, q, l, still, 0.0, 0.0, dr);
    }
}

/* Blocks [lo, hi) swept once (shared: while other threads do other
 * blocks). */
static void sweep_blocks(bp_soft *soft, size_t lo, size_t hi, const sweep_law *law, bool shared)
{
    if (bp_soft_wide_available()) {
        bp_soft_sweep_wide(soft, lo, hi, law, shared);
        return;
    }
    for (size_t i = lo; i < hi; i++) {
        contact_block *q = &soft->blocks[i];
        for (int l = 0; l < BP_SOFT_LANES; l++)
            if (!empty_lane(q, l))
                sweep_lane(soft->bodies, q, l, soft->still, law);
    }
}

/* Blocks [lo, hi) swept, or given their impulses again (law NULL). */
static void sweep_or_warm(bp_soft *soft, size_t lo, size_t hi, const sweep_law *law, bool shared)
{
    if (law)
        sweep_blocks(soft, lo, hi, law, shared);
    else
        warm_start_blocks(soft, lo, hi, shared);
}

/* Sweeps shared among threads: each piece takes its share of the groups
 * of each kind in turn (groups of one kind share no ball), and all wait
 * for all between kinds; the groups of neither kind and the hand's pull
 * (hand.c) go to the first piece alone. One job for a substep's sweeps,
 * its waits spun, where a job for each kind cost tens of microseconds in
 * hand-overs. */
typedef struct sweeps_job {
    bp_soft *soft;
    const sweep_law *law;
    int sweeps;
    bool warm; /* a warm start and the hand's grip first */
    int pieces;
    bp_barrier all; /* between the kinds of groups */
} sweeps_job;

/* Piece `piece`'s share of the groups [first, end). */
static void share_groups(bp_soft *soft, size_t first, size_t end, int piece, int pieces,
                         const sweep_law *law)
{
    size_t lo = first + bp_piece_start(end - first, piece, pieces);
    size_t hi = first + bp_piece_start(end - first, piece + 1, pieces);
    sweep_or_warm(soft, soft->group_first[lo], soft->group_first[hi], law, pieces > 1);
}

/* The sweeps (a warm start first, with warm), and after each what the
 * hand does, on piece `piece` of pieces. */
static void sweeps_piece(void *context, int piece)
{
    sweeps_job *job = context;
    bp_soft *soft = job->soft;
    size_t waits = 0;
    for (int s = job->warm ? -1 : 0; s < job->sweeps; s++) {
        const sweep_law *law = s < 0 ? NULL : job->law;
        share_groups(soft, 0, soft->shared[0], piece, job->pieces, law);
        bp_barrier_wait(&job->all, &waits);
        share_groups(soft, soft->shared[0], soft->shared[1], piece, job->pieces, law);
        bp_barrier_wait(&job->all, &waits);
        if (piece == 0) {
            sweep_or_warm(soft, soft->group_first[soft->shared[1]], soft->block_count, law, false);
            if (s < 0)
                bp_soft_hand_substep(soft);
            else
                bp_soft_pull(soft);
        }
        if (s + 1 < job->sweeps)
            bp_barrier_wait(&job->all, &waits);
    }
}

/* Gauss-Seidel sweeps over the contacts, batch by batch, each followed by
 * the hand's pull (with warm: after the impulses the contacts carry, given
 * again, and the hand's grip): the push out of overlaps with law->push
 * (BP_SOFT_SWEEPS a substep, before the move), else only the approach
 * stopped and the speculative gap kept (the relax after the move: the push
 * leaves no speed behind). On the step's threads where the pile is in
 * columns; the same bits on any number. */
void bp_soft_sweeps(bp_soft *soft, const sweep_law *law, int sweeps, bool warm)
{
    int cores = bp_workers_cores(soft->workers);
    int pieces = cores > 1 && soft->shared[1] > 0 ? cores : 1;
    sweeps_job job = {.soft = soft, .law = law, .sweeps = sweeps, .warm = warm, .pieces = pieces};
    bp_barrier_init(&job.all, pieces);
    bp_workers_run(pieces > 1 ? soft->workers : NULL, sweeps_piece, &job, pieces);
}

/* A contact hit faster than a resting one closes bounces with the
 * world's restitution: its normal speed is set to -e times the approach. */
void bp_soft_restitution(bp_soft *soft, double e, double rest_speed)
{
    if (e == 0.0)
        return;
    for (size_t i = 0; i < soft->block_count; i++) {
        contact_block *q = &soft->blocks[i];
        for (int l = 0; l < BP_SOFT_LANES; l++) {
            if (empty_lane(q, l) || q->vn0[l] > -rest_speed || q->jn_max[l] == 0.0)
                continue;
            const soft_body *a = &soft->bodies[q->a[l]], *b = &soft->bodies[q->b[l]];
            double vn = (b->vx - a->vx) * q->nx[l] + (b->vy - a->vy) * q->ny[l];
            double jn = bp_max(q->jn[l] - q->kn[l] * (vn + e * q->vn0[l]), 0.0);
            double dn = jn - q->jn[l];
            q->jn[l] = jn;
            apply(soft->bodies, q, l, soft->still, dn, 0.0, 0.0);
        }
    }
}
