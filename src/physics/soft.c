#include "soft.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "broadphase.h"
#include "collide.h"
#include "detmath.h"
#include "grow.h"
#include "minmax.h"
#include "scratch.h"
#include "sweep.h"
#include "tolerances.h"
#include "walls.h"

/* Substeps of a step: each moves the balls once between two sweeps. */
#define BP_SOFT_SUBSTEPS 4
/* Gauss-Seidel sweeps with the push per substep (then one without): one
 * lets a stack of 4 or 6 rows roll apart well above the friction it needs
 * (a frozen stack's friction converges slowly); 4 hold them. */
#define BP_SOFT_SWEEPS 4
/* Contact stiffness as a part of the substep rate, and its damping ratio:
 * at a quarter, a settled pile crept at up to 1 px/s and some fell asleep
 * creeping (woken, 5 pours of 30 moved their top percent over 0.1 r); a
 * half, with the contacts solved from the floor up (order_from_floor),
 * does not ring and held all 30; heavily damped, the push does not
 * bounce. */
#define BP_SOFT_HERTZ_OF_RATE 0.5
/* Bins of the order from the floor up, in smallest radii. */
#define BP_SOFT_ORDER_BIN_OVER_R 0.05
#define BP_SOFT_DAMPING_RATIO 10.0
/* Fastest push out of an overlap, in smallest radii per second: an overlap
 * heals over a few steps instead of throwing the balls apart. */
#define BP_SOFT_PUSH_R_PER_S 20.0
/* Pairs are listed when this far apart (a part of the smallest radius) or
 * closer, plus what the fastest ball travels in a step: every contact the
 * step can make is listed, and solved as speculative until it touches. */
#define BP_SOFT_MARGIN_OVER_R 0.5
/* Closer than this (a part of the smaller radius) two surfaces touch: they
 * join one island, and a ball awake touching a sleeper wakes it. */
#define BP_SOFT_TOUCH_OVER_R 0.05
/* A ball is slow below this speed (and spin times radius), as a part of
 * the speed gravity adds in a step; without gravity, as a part of the
 * smallest radius per second. */
#define BP_SOFT_SLEEP_SPEED_G_STEP 0.25
#define BP_SOFT_SLEEP_SPEED_R_PER_S 0.05
/* An island sleeps when every ball in it has been slow this long, s. */
#define BP_SOFT_SLEEP_AFTER_S 0.5
/* Rounds of waking (and listing the pairs of the woken) in one step. */
#define BP_SOFT_WAKE_ROUNDS 8

enum { KIND_BALL = BP_KEPT_BALL, KIND_SIDE = BP_KEPT_SIDE, KIND_WALL = BP_KEPT_WALL };

/* A contact by what it joins: ball a's id, then the other's kind and its
 * id (a ball's, a > ... never: a is the smaller id), side or wall index. */
typedef struct contact_key {
    uint32_t id_a, kind, code_b;
} contact_key;

/* The impulses a contact ended a step with, kept for the next step. */
typedef struct contact_memory {
    contact_key key;
    double jn, jt, jr;
} contact_memory;

/* A ball as the sweeps see it, in one cache line: what a contact reads
 * and writes of both its balls. Index = the ball's; one past the last
 * ball, a body that never moves stands for the sides and walls. A sleeper
 * has a body of its own (at rest, no inverse mass): a fast ball's sweep
 * may wake it within the step, and from then on it moves. */
typedef struct soft_body {
    double vx, vy, w; /* velocity, px/s, and spin, rad/s */
    double x, y;      /* centre, px */
    double im, ii;    /* inverse mass and inverse moment of inertia */
    double unused;    /* pads the body to 64 bytes */
} soft_body;

typedef struct soft_contact {
    uint32_t a, b;       /* bodies (b: the still body for a side or a wall) */
    double nx, ny;       /* unit normal from a into b */
    double s0;           /* gap when listed, px (negative: overlap) */
    double xa, ya, xb, yb; /* centres when listed (the still body's: 0) */
    double la, lb;       /* levers: centre to contact point along n, px */
    double kn, kt, kr;   /* effective masses: normal, tangential, rolling */
    double roll_r;       /* radius rolling resistance acts at, px */
    double jn, jt, jr;   /* accumulated impulses: normal, tangential, rolling */
    double vn0;          /* relative normal speed when listed, px/s */
    double jn_max;       /* the largest normal impulse the step gave it */
} soft_contact;

struct bp_soft {
    bp_broadphase broadphase;
    soft_contact *contacts;
    contact_key *keys;   /* per contact: what it joins */
    size_t contact_count, contact_capacity, key_capacity;
    soft_body *bodies;   /* per ball index, and the still body last */
    size_t body_capacity;
    contact_memory *memory, *spare; /* sorted by key */
    size_t memory_count, memory_capacity, spare_capacity;
    uint32_t *island_of; /* per ball id: the island it sleeps in (0: none) */
    size_t island_capacity;
    uint32_t next_island;
    uint32_t *parent;    /* union-find over ball indices, while islands form */
    uint8_t *blocked;    /* per root: the island may not sleep */
    uint8_t *swept;      /* per ball: it hits a side or wall this step (hits) */
    uint32_t *new_island;/* per root: the island number it sleeps as */
    size_t ball_capacity;
    size_t kept_count;   /* the world's balls, and its next id, when the */
    uint32_t kept_next_id; /* memory was last kept */
    uint32_t *waking;    /* islands to wake this round, sorted */
    size_t waking_count, waking_capacity;
};

void bp_soft_destroy(bp_soft *soft)
{
    if (!soft)
        return;
    bp_broadphase_free(&soft->broadphase);
    free(soft->contacts);
    free(soft->keys);
    free(soft->bodies);
    free(soft->memory);
    free(soft->spare);
    free(soft->island_of);
    free(soft->parent);
    free(soft->blocked);
    free(soft->swept);
    free(soft->new_island);
    free(soft->waking);
    free(soft);
}

static int key_compare(const contact_key *x, const contact_key *y)
{
    if (x->id_a != y->id_a)
        return x->id_a < y->id_a ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->code_b < y->code_b ? -1 : x->code_b > y->code_b;
}

/* A contact's key, and its place in the list. */
typedef struct keyed_contact {
    contact_key key;
    uint32_t k;
} keyed_contact;

static int keyed_order(const void *x, const void *y)
{
    return key_compare(&((const keyed_contact *)x)->key, &((const keyed_contact *)y)->key);
}

/* Bits of id_a a pass of the radix sort takes; and a run of one id_a, or
 * a bin of the order from the floor up, longer than this is sorted by
 * qsort rather than by insertion (a pile's floor row, all at one height,
 * fills one bin). */
#define BP_SOFT_RADIX_BITS 11
#define BP_SOFT_INSERTION_MAX 16

/* Sorts items[0 .. n) by key (spare: room for n): by id_a in passes of
 * BP_SOFT_RADIX_BITS bits (a ball has a handful of contacts, so a run of
 * one id_a is short), then each run by kind and code_b. Linear, and no
 * allocation: qsort of a step's contacts was a tenth of the step, a third
 * of it in the kernel, mapping and unmapping its buffer. */
static void sort_by_key(keyed_contact *items, keyed_contact *spare, size_t n, uint32_t ids)
{
    enum { RADIX = 1u << BP_SOFT_RADIX_BITS };
    uint32_t count[RADIX + 1];
    for (unsigned shift = 0; shift < 32 && (shift == 0 || (ids >> shift) > 0);
         shift += BP_SOFT_RADIX_BITS) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[((items[i].key.id_a >> shift) & (RADIX - 1)) + 1]++;
        for (size_t d = 0; d < RADIX; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            spare[count[(items[i].key.id_a >> shift) & (RADIX - 1)]++] = items[i];
        memcpy(items, spare, n * sizeof *items);
    }
    for (size_t lo = 0, hi; lo < n; lo = hi) {
        for (hi = lo + 1; hi < n && items[hi].key.id_a == items[lo].key.id_a; hi++)
            ;
        if (hi - lo > BP_SOFT_INSERTION_MAX) {
            qsort(items + lo, hi - lo, sizeof *items, keyed_order);
            continue;
        }
        for (size_t i = lo + 1; i < hi; i++) {
            keyed_contact item = items[i];
            size_t j = i;
            for (; j > lo && key_compare(&items[j - 1].key, &item.key) > 0; j--)
                items[j] = items[j - 1];
            items[j] = item;
        }
    }
}

/* Gives every contact listed the impulses the last step left it with (the
 * memory, sorted by key), and returns the contacts sorted by key for
 * remember (NULL when memory runs out): one sort and one walk along the
 * memory, where a binary search of it for every contact missed the cache
 * a dozen times. */
static keyed_contact *recall_all(bp_soft *soft, const bp_world *world)
{
    size_t n = soft->contact_count;
    keyed_contact *by_key = bp_scratch_alloc(world->scratch, n + 1, sizeof(keyed_contact));
    keyed_contact *spare = bp_scratch_alloc(world->scratch, n + 1, sizeof(keyed_contact));
    if (!by_key || !spare)
        return NULL;
    for (size_t k = 0; k < n; k++)
        by_key[k] = (keyed_contact){soft->keys[k], (uint32_t)k};
    sort_by_key(by_key, spare, n, world->next_id);
    const contact_memory *memory = soft->memory;
    const bp_params *p = &world->params;
    for (size_t i = 0, m = 0; i < n && m < soft->memory_count; i++) {
        while (m < soft->memory_count && key_compare(&memory[m].key, &by_key[i].key) < 0)
            m++;
        if (m < soft->memory_count && key_compare(&memory[m].key, &by_key[i].key) == 0) {
            soft_contact *c = &soft->contacts[by_key[i].k];
            /* Within today's friction and rolling resistance, which the
             * window may have lowered since (a warm start is a guess that
             * a sweep could only take back in part). */
            double jn = memory[m].jn, t_most = p->friction * jn;
            double r_most = p->rolling * jn * c->roll_r;
            c->jn = jn;
            c->jt = bp_min(bp_max(memory[m].jt, -t_most), t_most);
            c->jr = bp_min(bp_max(memory[m].jr, -r_most), r_most);
        }
    }
    return by_key;
}

/* Ball i's body as the world has it now. */
static inline soft_body body_from_world(const bp_world *world, size_t i)
{
    return (soft_body){world->vx[i], world->vy[i], world->w[i], world->x[i], world->y[i],
                       world->inv_mass[i], world->inv_inertia[i], 0.0};
}

/* The body a ball stands as in the sweeps: its own, or for a side or a
 * wall (-1) the still body. A sleeper's is set when a contact first names
 * it (the balls awake are set at the step's start). */
static inline uint32_t body_of(bp_soft *soft, const bp_world *world, int32_t i)
{
    if (i < 0)
        return (uint32_t)world->count;
    if (world->flags[i] & BP_BALL_ASLEEP)
        soft->bodies[i] = body_from_world(world, (size_t)i);
    return (uint32_t)i;
}

static bool add_contact(bp_soft *soft, const bp_world *world, uint32_t a, int32_t b,
                        contact_key key, double nx, double ny, double s0, double lb)
{
    if (soft->contact_count == soft->contact_capacity &&
        !bp_reserve((void **)&soft->contacts, &soft->contact_capacity, soft->contact_count + 1,
                    sizeof(soft_contact)))
        return false;
    if (soft->contact_count == soft->key_capacity &&
        !bp_reserve((void **)&soft->keys, &soft->key_capacity, soft->contact_count + 1,
                    sizeof(contact_key)))
        return false;
    soft->keys[soft->contact_count] = key;
    soft_contact *c = &soft->contacts[soft->contact_count++];
    uint32_t ia = body_of(soft, world, (int32_t)a), ib = body_of(soft, world, b);
    const soft_body *ba = &soft->bodies[ia], *bb = &soft->bodies[ib];
    *c = (soft_contact){.a = ia, .b = ib, .nx = nx, .ny = ny};
    c->s0 = s0;
    c->xa = ba->x;
    c->ya = ba->y;
    c->xb = bb->x;
    c->yb = bb->y;
    c->la = world->r[a];
    c->lb = lb;
    double kn = ba->im + bb->im, kt = kn + c->la * c->la * ba->ii + lb * lb * bb->ii;
    double kr = ba->ii + bb->ii;
    c->kn = kn > 0.0 ? 1.0 / kn : 0.0;
    c->kt = kt > 0.0 ? 1.0 / kt : 0.0;
    c->kr = kr > 0.0 ? 1.0 / kr : 0.0;
    c->roll_r = b < 0 ? c->la : c->la * lb / (c->la + lb);
    c->vn0 = (bb->vx - ba->vx) * nx + (bb->vy - ba->vy) * ny;
    return true;
}

/* Whether ball i approaches a static surface (normal n from the ball into
 * it) faster than a resting ball does: an impact, which the swept move
 * bounces exactly where it happens (arena.h), rather than a contact. */
static bool hits(bp_soft *soft, const bp_world *world, size_t i, double nx, double ny,
                 double rest_speed)
{
    bool hit = world->vx[i] * nx + world->vy[i] * ny > rest_speed;
    soft->swept[i] |= hit;
    return hit;
}

/* Every contact of the step: the pairs the broad phase lists, and the
 * sides and walls near each ball awake, within margin (px) plus what the
 * ball travels in a step. */
static bool list_contacts(bp_soft *soft, const bp_world *world, double margin, double dt,
                          double rest_speed)
{
    soft->contact_count = 0;
    const bp_broadphase *bp = &soft->broadphase;
    const uint8_t *flags = world->flags;
    for (size_t k = 0; k < bp->pair_count; k++) {
        uint32_t i = bp->pairs[k].a, j = bp->pairs[k].b;
        if (flags[i] & flags[j] & BP_BALL_ASLEEP)
            continue;
        /* a is the one of smaller id: the key does not depend on the order. */
        if (world->id[j] < world->id[i]) {
            uint32_t t = i;
            i = j;
            j = t;
        }
        double dx = world->x[j] - world->x[i], dy = world->y[j] - world->y[i];
        double d2 = dx * dx + dy * dy, reach = world->r[i] + world->r[j];
        double travel =
            (fabs(world->vx[j] - world->vx[i]) + fabs(world->vy[j] - world->vy[i])) * dt;
        double far = reach + margin + travel;
        if (!(d2 < far * far))
            continue;
        double d = sqrt(d2), nx, ny;
        if (d > 0.0) {
            nx = dx / d;
            ny = dy / d;
        } else {
            bp_coincident_normal(world->id[i], world->id[j], &nx, &ny);
        }
        contact_key key = {world->id[i], KIND_BALL, world->id[j]};
        if (!add_contact(soft, world, i, (int32_t)j, key, nx, ny, d - reach, world->r[j]))
            return false;
    }
    const bp_statics *st = world->statics;
    double fall = fabs(world->params.gravity) * dt * dt; /* what gravity adds to a step's travel */
    memset(soft->swept, 0, world->count);
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1)) {
        soft->swept[i] = (world->flags[i] & BP_BALL_HELD) != 0;
        double x = world->x[i], y = world->y[i], r = world->r[i];
        double reach = margin + (fabs(world->vx[i]) + fabs(world->vy[i])) * dt + fall;
        for (int k = 0; k < BP_SIDES; k++) {
            double gx, gy;
            double gap = bp_segment_distance(&st->sides[k], x, y, 0.0, 0.0, &gx, &gy) - r;
            contact_key key = {world->id[i], KIND_SIDE, (uint32_t)k};
            if (gap < reach && !hits(soft, world, i, -gx, -gy, rest_speed) &&
                !add_contact(soft, world, (uint32_t)i, -1, key, -gx, -gy, gap, 0.0))
                return false;
        }
        if (st->count == 0)
            continue;
        uint32_t near[BP_WALLS_QUERY_MAX];
        bp_cell_box cells;
        double grow = r + reach;
        size_t m = bp_statics_query(st, x - grow, y - grow, x + grow, y + grow, near, &cells);
        size_t all = m == SIZE_MAX ? st->count : m;
        for (size_t q = 0; q < all; q++) {
            uint32_t w = m == SIZE_MAX ? (uint32_t)q : near[q];
            const bp_segment *g = &st->segs[w];
            double gx, gy;
            double gap =
                bp_segment_distance(g, x, y, world->vx[i], world->vy[i], &gx, &gy) - g->r - r;
            contact_key key = {world->id[i], KIND_WALL, w};
            if (gap < reach && !hits(soft, world, i, -gx, -gy, rest_speed) &&
                !add_contact(soft, world, (uint32_t)i, -1, key, -gx, -gy, gap, 0.0))
                return false;
        }
    }
    return true;
}

static inline void apply(soft_body *bodies, const soft_contact *c, double pn, double pt,
                         double pr)
{
    double px = pn * c->nx - pt * c->ny, py = pn * c->ny + pt * c->nx;
    soft_body *a = &bodies[c->a], *b = &bodies[c->b];
    a->vx -= px * a->im;
    a->vy -= py * a->im;
    a->w -= (pt * c->la + pr) * a->ii;
    b->vx += px * b->im;
    b->vy += py * b->im;
    b->w += (pr - pt * c->lb) * b->ii;
}

typedef struct softness {
    double bias_rate, mass_scale, impulse_scale;
} softness;

/* A damped spring of frequency hz and damping ratio zeta, solved
 * implicitly over h s: the part of an overlap it closes per second, and how
 * much of the rigid response it gives. */
static softness softness_for(double hz, double zeta, double h)
{
    double omega = 2.0 * M_PI * hz;
    double a1 = 2.0 * zeta + h * omega, a2 = h * omega * a1, a3 = 1.0 / (1.0 + a2);
    return (softness){omega / a1, a2 * a3, a3};
}

/* One Gauss-Seidel sweep over the contacts. push: the soft push out of
 * overlaps (else only the approach is stopped, and the speculative gap
 * kept). */
static void sweep_contacts(bp_soft *soft, const bp_params *p, double h, const softness *soft_push,
                           double max_push, bool push)
{
    double mu = p->friction, rolling = p->rolling, inv_h = 1.0 / h;
    soft_body *bodies = soft->bodies;
    for (size_t k = 0; k < soft->contact_count; k++) {
        soft_contact *c = &soft->contacts[k];
        soft_body *a = &bodies[c->a], *b = &bodies[c->b];
        /* The gap now: as listed, and closed by how far each centre moved. */
        double s = c->s0 + ((b->x - c->xb) - (a->x - c->xa)) * c->nx +
                   ((b->y - c->yb) - (a->y - c->ya)) * c->ny;
        double bias = 0.0, mass_scale = 1.0, impulse_scale = 0.0;
        if (s > 0.0) {
            bias = s * inv_h; /* speculative: it may close the gap, no more */
        } else if (push) {
            bias = bp_max(soft_push->bias_rate * s, -max_push);
            mass_scale = soft_push->mass_scale;
            impulse_scale = soft_push->impulse_scale;
        }
        double dvx = b->vx - a->vx, dvy = b->vy - a->vy;
        double vn = dvx * c->nx + dvy * c->ny;
        double jn = bp_max(c->jn - c->kn * mass_scale * (vn + bias) - impulse_scale * c->jn, 0.0);
        double dn = jn - c->jn;
        c->jn = jn;
        c->jn_max = bp_max(c->jn_max, jn);
        /* Friction on the contact points' relative speed, spin included. */
        double vt = -dvx * c->ny + dvy * c->nx - b->w * c->lb - a->w * c->la;
        double limit = mu * jn;
        double jt = bp_min(bp_max(c->jt - vt * c->kt, -limit), limit);
        double dt_ = jt - c->jt;
        c->jt = jt;
        apply(bodies, c, dn, dt_, 0.0);
        /* Rolling resistance against the relative spin, never reversing it. */
        if (rolling > 0.0 && c->kr > 0.0) {
            double spin = a->w - b->w;
            double rlimit = rolling * jn * c->roll_r;
            double jr = bp_min(bp_max(c->jr + spin * c->kr, -rlimit), rlimit);
            double dr = jr - c->jr;
            c->jr = jr;
            apply(bodies, c, 0.0, 0.0, dr);
        }
    }
}

/* A contact hit faster than a resting one closes bounces with the
 * world's restitution: its normal speed is set to -e times the approach. */
static void restitution(bp_soft *soft, double e, double rest_speed)
{
    if (e == 0.0)
        return;
    for (size_t k = 0; k < soft->contact_count; k++) {
        soft_contact *c = &soft->contacts[k];
        if (c->vn0 > -rest_speed || c->jn_max == 0.0)
            continue;
        const soft_body *a = &soft->bodies[c->a], *b = &soft->bodies[c->b];
        double vn = (b->vx - a->vx) * c->nx + (b->vy - a->vy) * c->ny;
        double jn = bp_max(c->jn - c->kn * (vn + e * c->vn0), 0.0);
        double dn = jn - c->jn;
        c->jn = jn;
        apply(soft->bodies, c, dn, 0.0, 0.0);
    }
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

/* Whether a remembered contact joins balls (or a ball and a static) that
 * all still exist and sleep. */
static bool between_sleepers(const bp_world *world, const contact_memory *m)
{
    int64_t ia = bp_world_index_of(world, m->key.id_a);
    int64_t ib = m->key.kind == KIND_BALL ? bp_world_index_of(world, m->key.code_b) : ia;
    return ia >= 0 && ib >= 0 && (world->flags[ia] & world->flags[ib] & BP_BALL_ASLEEP);
}

/* Keeps the impulses of this step's contacts (by_key: them in key order,
 * from recall_all), and those of contacts between sleepers (which no pair
 * lists while they sleep): a pile woken starts from the impulses it fell
 * asleep with. Both are sorted already, and merged (sorting a settled
 * pile's whole memory every step was a fifth of its cost). No
 * contact of this step joins two sleepers (pairs of two are not listed),
 * so the two have no key in common. */
static bool remember(bp_soft *soft, const bp_world *world, const keyed_contact *by_key)
{
    contact_memory *fresh =
        bp_scratch_alloc(world->scratch, soft->contact_count + 1, sizeof(contact_memory));
    if (!fresh)
        return false;
    size_t fresh_count = 0;
    for (size_t i = 0; i < soft->contact_count; i++) {
        const soft_contact *c = &soft->contacts[by_key[i].k];
        if (c->jn > 0.0 || c->jt != 0.0)
            fresh[fresh_count++] = (contact_memory){by_key[i].key, c->jn, c->jt, c->jr};
    }
    if (!bp_reserve((void **)&soft->spare, &soft->spare_capacity,
                    soft->memory_count + fresh_count + 1, sizeof(contact_memory)))
        return false;
    size_t n = 0, j = 0;
    for (size_t k = 0; k < soft->memory_count; k++) {
        const contact_memory *m = &soft->memory[k];
        if (!between_sleepers(world, m))
            continue;
        while (j < fresh_count && key_compare(&fresh[j].key, &m->key) < 0)
            soft->spare[n++] = fresh[j++];
        soft->spare[n++] = *m;
    }
    while (j < fresh_count)
        soft->spare[n++] = fresh[j++];
    contact_memory *t = soft->memory;
    soft->memory = soft->spare;
    soft->spare = t;
    size_t cap = soft->memory_capacity;
    soft->memory_capacity = soft->spare_capacity;
    soft->spare_capacity = cap;
    soft->memory_count = n;
    return true;
}

static bool reserve_balls(bp_soft *soft, const bp_world *world)
{
    size_t n = world->count + 1, c1 = soft->ball_capacity, c2 = c1, c4 = c1;
    size_t ids = (size_t)world->next_id + 1;
    if (!bp_reserve((void **)&soft->parent, &c1, n, sizeof(uint32_t)) ||
        !bp_reserve((void **)&soft->blocked, &c2, n, sizeof(uint8_t)) ||
        !bp_reserve((void **)&soft->swept, &c4, n, sizeof(uint8_t)))
        return false;
    size_t c3 = soft->ball_capacity;
    if (!bp_reserve((void **)&soft->new_island, &c3, c1, sizeof(uint32_t)))
        return false;
    soft->ball_capacity = c1 < c2 ? (c1 < c4 ? c1 : c4) : (c2 < c4 ? c2 : c4);
    if (!bp_reserve((void **)&soft->bodies, &soft->body_capacity, n, sizeof(soft_body)))
        return false;
    size_t old = soft->island_capacity;
    if (!bp_reserve((void **)&soft->island_of, &soft->island_capacity, ids, sizeof(uint32_t)))
        return false;
    memset(soft->island_of + old, 0, (soft->island_capacity - old) * sizeof(uint32_t));
    return true;
}

static uint32_t find_root(uint32_t *parent, uint32_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static int u32_order(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* Wakes every sleeper that a ball awake touches, with its whole island.
 * Returns how many woke (SIZE_MAX: out of memory). */
static size_t wake_touched(bp_soft *soft, bp_world *world)
{
    const bp_broadphase *bp = &soft->broadphase;
    soft->waking_count = 0;
    for (size_t k = 0; k < bp->pair_count; k++) {
        uint32_t i = bp->pairs[k].a, j = bp->pairs[k].b;
        uint8_t fi = world->flags[i], fj = world->flags[j];
        if (!((fi ^ fj) & BP_BALL_ASLEEP))
            continue;
        double dx = world->x[j] - world->x[i], dy = world->y[j] - world->y[i];
        double ri = world->r[i], rj = world->r[j];
        double touch = ri + rj + BP_SOFT_TOUCH_OVER_R * (ri < rj ? ri : rj);
        if (!(dx * dx + dy * dy < touch * touch))
            continue;
        uint32_t sleeper = (fi & BP_BALL_ASLEEP) ? i : j;
        if (soft->waking_count == soft->waking_capacity &&
            !bp_reserve((void **)&soft->waking, &soft->waking_capacity, soft->waking_count + 1,
                        sizeof(uint32_t)))
            return SIZE_MAX;
        uint32_t island = soft->island_of[world->id[sleeper]];
        if (island == 0) { /* asleep by no island of ours: wake it alone */
            bp_world_wake(world, sleeper);
            continue;
        }
        soft->waking[soft->waking_count++] = island;
    }
    if (soft->waking_count == 0)
        return 0;
    qsort(soft->waking, soft->waking_count, sizeof(uint32_t), u32_order);
    size_t woken = 0;
    for (size_t i = 0; i < world->count; i++) {
        if (!(world->flags[i] & BP_BALL_ASLEEP))
            continue;
        uint32_t island = soft->island_of[world->id[i]];
        if (island && bsearch(&island, soft->waking, soft->waking_count, sizeof(uint32_t),
                              u32_order)) {
            bp_world_wake(world, i);
            soft->island_of[world->id[i]] = 0;
            woken++;
        }
    }
    return woken;
}

/* Islands: the balls awake joined by touching contacts. An island sleeps
 * whole once every ball in it has been slow for the sleep time, none is
 * held, and none touches a ball awake outside it (it then would be in it). */
static bool sleep_islands(bp_soft *soft, bp_world *world, double dt)
{
    const bp_params *p = &world->params;
    double slow = fabs(p->gravity) > 0.0 ? BP_SOFT_SLEEP_SPEED_G_STEP * fabs(p->gravity) * dt
                                         : BP_SOFT_SLEEP_SPEED_R_PER_S * world->r_min;
    double steps = ceil(BP_SOFT_SLEEP_AFTER_S / dt);
    uint16_t calm_steps = (uint16_t)(steps < 1.0 ? 1.0 : (steps > 60000.0 ? 60000.0 : steps));
    size_t n = world->count;
    /* Only balls awake join islands (contacts with a sleeper or a static
     * join none): their entries alone are set, so a world asleep costs
     * nothing here. */
    size_t awake = 0;
    for (size_t i = bp_world_next_awake(world, 0); i < n; i = bp_world_next_awake(world, i + 1)) {
        awake++;
        soft->parent[i] = (uint32_t)i;
        soft->blocked[i] = 0;
        soft->new_island[i] = 0;
        double v2 = world->vx[i] * world->vx[i] + world->vy[i] * world->vy[i];
        double spin = world->w[i] * world->r[i];
        bool is_slow = v2 < slow * slow && spin * spin < slow * slow;
        if (!is_slow || (world->flags[i] & BP_BALL_HELD))
            world->calm[i] = 0;
        else if (world->calm[i] < calm_steps)
            world->calm[i]++;
    }
    if (awake == 0)
        return true;
    for (size_t k = 0; k < soft->contact_count; k++) {
        const soft_contact *c = &soft->contacts[k];
        uint32_t a = c->a, b = c->b;
        if (b == world->count || ((world->flags[a] | world->flags[b]) & BP_BALL_ASLEEP))
            continue; /* a side or wall, or a sleeper */
        double dx = world->x[b] - world->x[a], dy = world->y[b] - world->y[a];
        double ra = world->r[a], rb = world->r[b];
        double touch = ra + rb + BP_SOFT_TOUCH_OVER_R * (ra < rb ? ra : rb);
        if (!(dx * dx + dy * dy < touch * touch))
            continue;
        uint32_t x = find_root(soft->parent, a), y = find_root(soft->parent, b);
        if (x != y)
            soft->parent[x < y ? y : x] = x < y ? x : y;
    }
    for (size_t i = bp_world_next_awake(world, 0); i < n; i = bp_world_next_awake(world, i + 1))
        if (world->calm[i] < calm_steps || (world->flags[i] & BP_BALL_HELD))
            soft->blocked[find_root(soft->parent, (uint32_t)i)] = 1;
    for (size_t i = bp_world_next_awake(world, 0); i < n; i = bp_world_next_awake(world, i + 1)) {
        uint32_t root = find_root(soft->parent, (uint32_t)i);
        if (soft->blocked[root])
            continue;
        if (soft->new_island[root] == 0) {
            soft->next_island = soft->next_island == UINT32_MAX ? 1 : soft->next_island + 1;
            soft->new_island[root] = soft->next_island;
        }
        soft->island_of[world->id[i]] = soft->new_island[root];
        world->flags[i] |= BP_BALL_ASLEEP;
        world->calm[i] = 0;
        world->vx[i] = world->vy[i] = world->w[i] = 0.0;
        world->inv_mass[i] = world->inv_inertia[i] = 0.0;
    }
    return true;
}

/* angle + turn, kept within a few turns of 0 (the wrap is exact, and rare). */
static inline double turned(double angle, double turn)
{
    double a = angle + turn;
    return fabs(a) < 64.0 ? a : remainder(a, 2.0 * M_PI);
}

/* Height above the floor of contact k's lower ball (a side's or wall's:
 * its ball's), px; g the gravity (not 0). */
static inline double contact_height(const bp_soft *soft, const bp_world *world, size_t k,
                                    double g)
{
    const soft_contact *c = &soft->contacts[k];
    double ya = soft->bodies[c->a].y;
    double yb = c->b == world->count ? ya : soft->bodies[c->b].y;
    return g > 0.0 ? world->params.height - bp_max(ya, yb) : bp_min(ya, yb);
}

/* A contact by its height, and its place in the list. */
typedef struct contact_at {
    double at;
    uint32_t k;
} contact_at;

static int by_height(const void *x, const void *y)
{
    const contact_at *a = x, *b = y;
    if (a->at != b->at)
        return a->at < b->at ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

/* Puts the contacts in order from the floor up, by the height of their
 * lower ball, ties in the order they were listed: each sweep then carries
 * the floor's push up through a pile as it goes, where an order that
 * starts at the top needs a sweep for every layer. A settled pile's balls
 * keep a quarter of the speed (and fall asleep in about half the time).
 * A counting sort into thin bins, then each bin by height (a bin holds a
 * few contacts): about linear, where one qsort of them all made the
 * 10,000-ball pit a fifth slower. Without gravity, nothing is up: no
 * order. */
static bool order_from_floor(bp_soft *soft, const bp_world *world)
{
    size_t n = soft->contact_count;
    double g = world->params.gravity, height = world->params.height;
    if (n < 2 || g == 0.0)
        return true;
    double bin = BP_SOFT_ORDER_BIN_OVER_R * world->r_min, max_bins = 4.0 * (double)n + 4096.0;
    if (height / bin > max_bins)
        bin = height / max_bins;
    size_t bins = (size_t)ceil(height / bin) + 1;
    contact_at *by_bin = bp_scratch_alloc(world->scratch, n, sizeof(contact_at));
    contact_at *listed = bp_scratch_alloc(world->scratch, n, sizeof(contact_at));
    uint32_t *bin_of = bp_scratch_alloc(world->scratch, n, sizeof(uint32_t));
    uint32_t *start = bp_scratch_alloc(world->scratch, bins + 1, sizeof(uint32_t));
    soft_contact *contacts = bp_scratch_alloc(world->scratch, n, sizeof(soft_contact));
    contact_key *keys = bp_scratch_alloc(world->scratch, n, sizeof(contact_key));
    if (!by_bin || !listed || !bin_of || !start || !contacts || !keys)
        return false;
    memset(start, 0, (bins + 1) * sizeof(uint32_t));
    double last_bin = (double)(bins - 1);
    for (size_t k = 0; k < n; k++) {
        listed[k] = (contact_at){contact_height(soft, world, k, g), (uint32_t)k};
        double b = floor(listed[k].at / bin);
        bin_of[k] = (uint32_t)(b > 0.0 ? (b < last_bin ? b : last_bin) : 0.0);
        start[bin_of[k] + 1]++;
    }
    for (size_t b = 0; b < bins; b++)
        start[b + 1] += start[b];
    for (size_t k = 0; k < n; k++)
        by_bin[start[bin_of[k]]++] = listed[k];
    /* start[b] is now the end of bin b, whose contacts are in listed
     * order: sort each by height, ties staying in that order. */
    for (size_t b = 0, lo = 0; b < bins; lo = start[b++]) {
        size_t count = start[b] - lo;
        if (count > BP_SOFT_INSERTION_MAX) {
            qsort(by_bin + lo, count, sizeof(contact_at), by_height);
            continue;
        }
        for (size_t i = lo + 1; i < start[b]; i++) {
            contact_at item = by_bin[i];
            size_t j = i;
            for (; j > lo && by_bin[j - 1].at > item.at; j--)
                by_bin[j] = by_bin[j - 1];
            by_bin[j] = item;
        }
    }
    for (size_t i = 0; i < n; i++) {
        contacts[i] = soft->contacts[by_bin[i].k];
        keys[i] = soft->keys[by_bin[i].k];
    }
    memcpy(soft->contacts, contacts, n * sizeof(soft_contact));
    memcpy(soft->keys, keys, n * sizeof(contact_key));
    return true;
}

static bool list_pairs(bp_soft *soft, const bp_world *world, double margin)
{
    bp_broadphase *bp = &soft->broadphase;
    bp->awake_pairs_only = true;
    return bp_broadphase_sort(bp, world, margin, NULL) &&
           bp_broadphase_pairs(bp, world, margin, NULL);
}

/* The world's solver state, made (empty) the first time it is needed;
 * NULL when memory runs out. */
static bp_soft *soft_of(bp_world *world)
{
    if (!world->soft)
        world->soft = calloc(1, sizeof(bp_soft));
    return world->soft;
}

/* How far apart pairs are listed (px): the solver's margin, plus what the
 * fastest ball travels in a step, at most what a ball not swept travels:
 * faster balls are swept instead (bp_sweep_run), so the work of a step
 * stays bounded whatever the speeds. */
static double listing_margin(const bp_world *world, double dt, double r_min)
{
    double v_max = 0.0;
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1))
        v_max = fmax(v_max, fabs(world->vx[i]) + fabs(world->vy[i]));
    double travel = 2.0 * v_max * dt, most = 2.0 * BP_FAST_FRACTION * world->r_max;
    return BP_SOFT_MARGIN_OVER_R * r_min + (travel < most ? travel : most);
}

/* The pairs of the balls awake, after waking every island they touch (and
 * the islands those touch, for a few rounds). */
static bool wake_and_list(bp_soft *soft, bp_world *world, double margin)
{
    if (!list_pairs(soft, world, margin))
        return false;
    for (int round = 0; round < BP_SOFT_WAKE_ROUNDS; round++) {
        size_t woken = wake_touched(soft, world);
        if (woken == SIZE_MAX || (woken > 0 && !list_pairs(soft, world, margin)))
            return false;
        if (woken == 0)
            break;
    }
    return true;
}

/* The sweeps' bodies: every ball awake as the world has it, and the still
 * body last. */
static void gather_bodies(bp_soft *soft, const bp_world *world)
{
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1))
        soft->bodies[i] = body_from_world(world, i);
    soft->bodies[world->count] = (soft_body){0};
}

/* A substep's gravity and drag on every free ball awake. */
static void integrate(bp_soft *soft, const bp_world *world, double dv, double damping)
{
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1)) {
        if (world->flags[i] & BP_BALL_HELD)
            continue;
        soft_body *b = &soft->bodies[i];
        b->vy += dv;
        if (damping != 1.0) {
            b->vx *= damping;
            b->vy *= damping;
            b->w *= damping;
        }
    }
}

/* The impulses the contacts carry, given again at the substep's start. */
static void warm_start(bp_soft *soft)
{
    for (size_t k = 0; k < soft->contact_count; k++) {
        const soft_contact *c = &soft->contacts[k];
        apply(soft->bodies, c, c->jn, c->jt, c->jr);
    }
}

/* Moves every ball awake through a substep of h s: fast balls swept
 * against the balls on their path, balls that hit a side or wall swept
 * through them, the rest along their velocity. */
static void move_substep(bp_soft *soft, bp_world *world, double h, double fast_scale,
                         double rest_speed)
{
    soft_body *bodies = soft->bodies;
    size_t held = 0;
    double r_max = 0.0;
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1)) {
        soft_body *b = &bodies[i];
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
            b->x += vx * h;
            b->y += vy * h;
            world->x[i] = b->x;
            world->y[i] = b->y;
            continue;
        }
        if (!bp_arena_move_open(world, i, h))
            bp_arena_move(world, i, h, 0.0, h, BP_MAX_IMPACTS, false, rest_speed);
    }
    /* Out of memory the sweep still moves every held ball. */
    (void)bp_sweep_run(world, held, h, r_max, rest_speed, NULL);
    /* What the swept moves changed, back in the bodies (a sleeper the
     * sweep woke now has its mass). */
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1))
        bodies[i] = body_from_world(world, i);
}

/* The bodies' velocities back in the world, and balls pushed past a side
 * (only a deep overlap can) back inside. */
static void scatter_bodies(const bp_soft *soft, bp_world *world, double rest_speed)
{
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1)) {
        world->vx[i] = soft->bodies[i].vx;
        world->vy[i] = soft->bodies[i].vy;
        world->w[i] = soft->bodies[i].w;
    }
    mark_grounded(soft, world);
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1))
        if (bp_arena_outside(world, i))
            bp_arena_contain(world, i, rest_speed);
}

/* The step as stages: pairs (waking what they touch), contacts, their
 * impulses recalled; then per substep gravity, warm start, sweeps with
 * the push, the move and a sweep without; restitution; and last the
 * impulses kept and the islands put to sleep. */
bool bp_soft_step(bp_world *world, double dt)
{
    bp_soft *soft = soft_of(world);
    if (!soft)
        return false;
    const bp_params *p = &world->params;
    if (!reserve_balls(soft, world) || !bp_sweep_reserve(world))
        return false;
    double r_min = world->count > 0 ? world->r_min : 1.0;
    if (!wake_and_list(soft, world, listing_margin(world, dt, r_min)))
        return false;
    double rest_speed = bp_params_rest_speed(p);
    gather_bodies(soft, world);
    if (!list_contacts(soft, world, BP_SOFT_MARGIN_OVER_R * r_min, dt, rest_speed) ||
        !order_from_floor(soft, world))
        return false;
    const keyed_contact *by_key = recall_all(soft, world);
    if (!by_key)
        return false;

    double h = dt / BP_SOFT_SUBSTEPS;
    softness push = softness_for(BP_SOFT_HERTZ_OF_RATE / h, BP_SOFT_DAMPING_RATIO, h);
    double max_push = BP_SOFT_PUSH_R_PER_S * r_min;
    /* Fast: more than BP_FAST_FRACTION of its radius in a step, further
     * than the pair list reaches for it. */
    double fast_scale = BP_FAST_FRACTION * BP_FAST_FRACTION / (dt * dt);
    world->statics->anchors_valid = false; /* the passes' anchors: not kept here */
    for (int s = 0; s < BP_SOFT_SUBSTEPS; s++) {
        if (world->stop && *world->stop)
            return false;
        integrate(soft, world, p->gravity * h, bp_exp(-p->drag * h));
        warm_start(soft);
        for (int it = 0; it < BP_SOFT_SWEEPS; it++)
            sweep_contacts(soft, p, h, &push, max_push, true);
        move_substep(soft, world, h, fast_scale, rest_speed);
        sweep_contacts(soft, p, h, &push, max_push, false);
    }
    restitution(soft, p->restitution, rest_speed);
    scatter_bodies(soft, world, rest_speed);
    /* With no ball awake, and none added or removed since, the memory
     * holds (contacts between sleepers) and is left as it is. */
    if (bp_world_next_awake(world, 0) == world->count && soft->kept_count == world->count &&
        soft->kept_next_id == world->next_id)
        return true;
    soft->kept_count = world->count;
    soft->kept_next_id = world->next_id;
    return remember(soft, world, by_key) && sleep_islands(soft, world, dt);
}

/* A state's part: the memory's length and the next island number, then
 * each kept contact (its key's three numbers and its three impulses, field
 * by field: no padding bytes go out), then the island of every id. */
#define BP_SOFT_STATE_HEAD (sizeof(uint64_t) + sizeof(uint32_t))

/* The fields of a kept contact as a state holds them, in order: one table
 * for writing and reading alike. */
static const struct {
    size_t at, size;
} entry_layout[] = {
    {offsetof(contact_memory, key.id_a), sizeof(uint32_t)},
    {offsetof(contact_memory, key.kind), sizeof(uint32_t)},
    {offsetof(contact_memory, key.code_b), sizeof(uint32_t)},
    {offsetof(contact_memory, jn), sizeof(double)},
    {offsetof(contact_memory, jt), sizeof(double)},
    {offsetof(contact_memory, jr), sizeof(double)},
};
#define BP_SOFT_ENTRY_FIELDS (sizeof entry_layout / sizeof entry_layout[0])

/* Bytes of one kept contact in a state. */
static size_t entry_bytes(void)
{
    size_t n = 0;
    for (size_t f = 0; f < BP_SOFT_ENTRY_FIELDS; f++)
        n += entry_layout[f].size;
    return n;
}

size_t bp_soft_state_size(const bp_world *world)
{
    const bp_soft *soft = world->soft;
    if (!soft)
        return 0;
    return BP_SOFT_STATE_HEAD + soft->memory_count * entry_bytes() +
           (size_t)world->next_id * sizeof(uint32_t);
}


static unsigned char *put(unsigned char *out, const void *value, size_t size)
{
    memcpy(out, value, size);
    return out + size;
}

static const unsigned char *get(const unsigned char *in, void *value, size_t size)
{
    memcpy(value, in, size);
    return in + size;
}

void bp_soft_state_write(const bp_world *world, unsigned char *out)
{
    const bp_soft *soft = world->soft;
    if (!soft)
        return;
    uint64_t count = soft->memory_count;
    out = put(out, &count, sizeof count);
    out = put(out, &soft->next_island, sizeof soft->next_island);
    for (size_t k = 0; k < soft->memory_count; k++)
        for (size_t f = 0; f < BP_SOFT_ENTRY_FIELDS; f++)
            out = put(out, (const unsigned char *)&soft->memory[k] + entry_layout[f].at,
                      entry_layout[f].size);
    /* An island array shorter than the ids has 0 (no island) past its end. */
    size_t ids = world->next_id, have = ids < soft->island_capacity ? ids : soft->island_capacity;
    if (have > 0)
        out = put(out, soft->island_of, have * sizeof(uint32_t));
    if (ids > have)
        memset(out, 0, (ids - have) * sizeof(uint32_t));
}

bool bp_soft_state_reserve(bp_world *world, const unsigned char *in, size_t size,
                           uint32_t next_id)
{
    if (size < BP_SOFT_STATE_HEAD)
        return true;
    bp_soft *soft = soft_of(world);
    if (!soft)
        return false;
    uint64_t count;
    get(in, &count, sizeof count);
    size_t old = soft->island_capacity;
    if (!bp_reserve((void **)&soft->memory, &soft->memory_capacity, (size_t)count + 1,
                    sizeof(contact_memory)) ||
        !bp_reserve((void **)&soft->island_of, &soft->island_capacity, (size_t)next_id + 1,
                    sizeof(uint32_t)))
        return false;
    memset(soft->island_of + old, 0, (soft->island_capacity - old) * sizeof(uint32_t));
    return true;
}

void bp_soft_state_read(bp_world *world, const unsigned char *in, size_t size, uint32_t next_id)
{
    bp_soft *soft = world->soft;
    if (!soft)
        return;
    /* Whatever the memory held, the next step keeps it anew. */
    soft->kept_count = SIZE_MAX;
    if (size < BP_SOFT_STATE_HEAD) {
        soft->memory_count = 0;
        soft->next_island = 0;
        if (soft->island_capacity > 0)
            memset(soft->island_of, 0, soft->island_capacity * sizeof(uint32_t));
        return;
    }
    uint64_t count;
    in = get(in, &count, sizeof count);
    in = get(in, &soft->next_island, sizeof soft->next_island);
    soft->memory_count = (size_t)count;
    for (size_t k = 0; k < soft->memory_count; k++)
        for (size_t f = 0; f < BP_SOFT_ENTRY_FIELDS; f++)
            in = get(in, (unsigned char *)&soft->memory[k] + entry_layout[f].at,
                     entry_layout[f].size);
    if (next_id > 0)
        get(in, soft->island_of, (size_t)next_id * sizeof(uint32_t));
    memset(soft->island_of + next_id, 0, (soft->island_capacity - next_id) * sizeof(uint32_t));
}

/* Sorts memory[0 .. n) by key, stably (a key given twice keeps its
 * order), with spare (room for n) to merge into. */
static void merge_sort_memory(contact_memory *memory, contact_memory *spare, size_t n)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                spare[o++] = key_compare(&memory[j].key, &memory[i].key) < 0 ? memory[j++]
                                                                              : memory[i++];
            while (i < mid)
                spare[o++] = memory[i++];
            while (j < hi)
                spare[o++] = memory[j++];
        }
        for (size_t k = 0; k < n; k++)
            memory[k] = spare[k];
    }
}

size_t bp_soft_kept_count(const bp_world *world)
{
    return world->soft ? world->soft->memory_count : 0;
}

bp_kept_contact bp_soft_kept(const bp_world *world, size_t k)
{
    const contact_memory *m = &world->soft->memory[k];
    return (bp_kept_contact){m->key.id_a, m->key.kind, m->key.code_b, m->jn, m->jt, m->jr};
}

static bool keepable(const bp_kept_contact *c)
{
    bool finite = isfinite(c->jn) && isfinite(c->jt) && isfinite(c->jr);
    bool joins = (c->kind == KIND_BALL && c->id_a < c->code_b) ||
                 (c->kind == KIND_SIDE && c->code_b < BP_SIDES) || c->kind == KIND_WALL;
    return finite && c->jn >= 0.0 && joins;
}

bool bp_soft_keep(bp_world *world, const bp_kept_contact *contacts, size_t count)
{
    for (size_t k = 0; k < count; k++)
        if (!keepable(&contacts[k]))
            return false;
    bp_soft *soft = soft_of(world);
    if (!soft)
        return false;
    size_t total = soft->memory_count + count;
    if (!bp_reserve((void **)&soft->memory, &soft->memory_capacity, total + 1,
                    sizeof(contact_memory)) ||
        !bp_reserve((void **)&soft->spare, &soft->spare_capacity, total + 1,
                    sizeof(contact_memory)))
        return false;
    /* The new ones after the old, sorted stably, and of a key given twice
     * the last kept: the memory stays sorted with every key once. */
    size_t n = soft->memory_count;
    for (size_t k = 0; k < count; k++) {
        const bp_kept_contact *c = &contacts[k];
        soft->memory[n++] = (contact_memory){{c->id_a, c->kind, c->code_b}, c->jn, c->jt, c->jr};
    }
    merge_sort_memory(soft->memory, soft->spare, n);
    size_t kept = 0;
    for (size_t k = 0; k < n; k++) {
        if (k + 1 < n && key_compare(&soft->memory[k].key, &soft->memory[k + 1].key) == 0)
            continue;
        soft->memory[kept++] = soft->memory[k];
    }
    soft->memory_count = kept;
    /* The next step keeps the memory anew (see bp_soft_step). */
    soft->kept_count = SIZE_MAX;
    return true;
}
