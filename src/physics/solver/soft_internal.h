/* What the soft solver's stages share (solver.h tells the design): the
 * solver's state, its bodies and contacts, the contacts' keys and kept
 * impulses, the settings more than one stage reads, and each stage's
 * entry. Only the files of this directory include it; they include it
 * and not each other. */
#ifndef BP_SOFT_INTERNAL_H
#define BP_SOFT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "broadphase.h"
#include "kept.h"
#include "params.h"

/* Pairs are listed when this far apart (a part of the smallest radius) or
 * closer, plus what the fastest ball travels in a step: every contact the
 * step can make is listed, and solved as speculative until it touches. */
#define BP_SOFT_MARGIN_OVER_R 0.5
/* A run of one id_a (contact_memory.c), or a bin of the order from the
 * floor up (colour.c), longer than this is sorted by qsort or a merge sort
 * rather than by insertion (a pile's floor row, all at one height, fills
 * one bin). */
#define BP_SOFT_INSERTION_MAX 16

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

/* A contact's key, and its place in the list. */
typedef struct keyed_contact {
    contact_key key;
    uint32_t k;
} keyed_contact;

/* A ball as the sweeps see it, in one cache line: what a contact reads
 * and writes of both its balls. Index = the ball's; one past the last
 * ball, a body that never moves (all 0) stands for the sides and walls. A
 * sleeper has a body of its own (at rest, no inverse mass): a fast ball's
 * sweep may wake it within the step, and from then on it moves. */
typedef struct soft_body {
    double vx, vy, w; /* velocity, px/s, and spin, rad/s */
    double dx, dy;    /* how far the centre moved since the contacts were listed, px */
    double im, ii;    /* inverse mass and inverse moment of inertia */
    double r;         /* radius, px: the lever of friction at a contact */
} soft_body;
/* The bodies' array is aligned to a cache line, which a body fills. */
#define BP_SOFT_BODY_ALIGN 64
_Static_assert(sizeof(soft_body) == BP_SOFT_BODY_ALIGN, "a body fills one cache line");

/* Where a ball was when the step listed its contacts, px. */
typedef struct soft_place {
    double x, y;
} soft_place;

typedef struct soft_contact {
    uint32_t a, b;       /* bodies (b: the still body for a side or a wall) */
    double nx, ny;       /* unit normal from a into b */
    double s0;           /* gap when listed, px (negative: overlap) */
    double kn, kt, kr;   /* effective masses: normal, tangential, rolling */
    double roll_r;       /* radius rolling resistance acts at, px */
    double jn, jt, jr;   /* accumulated impulses: normal, tangential, rolling */
    double vn0;          /* relative normal speed when listed, px/s */
    double jn_max;       /* the largest normal impulse the step gave it */
    double stiff;        /* 1: the pieces' stiffness (solver.c), else 0 */
} soft_contact;

/* Contacts solved side by side: BP_SOFT_LANES that share no ball (of one
 * batch, or of the next filling its last block: colour.c), each field a
 * row of lanes, so that a lane is a SIMD register's lane. A lane without a
 * contact joins the still body to itself with no mass: solving it changes
 * nothing. */
#define BP_SOFT_LANES 4
#define BP_SOFT_NO_CONTACT UINT32_MAX
typedef struct contact_block {
    double nx[BP_SOFT_LANES], ny[BP_SOFT_LANES], s0[BP_SOFT_LANES];
    double kn[BP_SOFT_LANES], kt[BP_SOFT_LANES], kr[BP_SOFT_LANES], roll_r[BP_SOFT_LANES];
    double jn[BP_SOFT_LANES], jt[BP_SOFT_LANES], jr[BP_SOFT_LANES], jn_max[BP_SOFT_LANES];
    uint32_t a[BP_SOFT_LANES], b[BP_SOFT_LANES];
    double stiff[BP_SOFT_LANES]; /* soft_contact's: which of the law's pushes */
    double vn0[BP_SOFT_LANES]; /* restitution's alone: last, out of the sweeps' way */
} contact_block;

/* A held ball as the hand pulls it (hand.c). */
typedef struct soft_hand {
    uint32_t i;         /* its body */
    double vx, vy;      /* the velocity the step gave it, px/s */
    double jx, jy;      /* the impulse the hand gave it in this substep */
    double j_max;       /* the most the hand gives in a substep */
} soft_hand;

/* A lane listed for impacts: its slot (block * BP_SOFT_LANES + lane), its
 * bodies, and the count of impacts met in the step when it was last looked
 * at (impacts.c). The rounds of impacts read these, not the blocks. */
typedef struct impact_lane {
    uint32_t slot, a, b, seen;
} impact_lane;

/* What the sweeps of one step read: softness, limits and the laws. */
typedef struct sweep_law {
    double inv_h;               /* 1 / the substep */
    double bias_rate, mass_scale, impulse_scale; /* the push (softness) */
    double stiff_bias_rate, stiff_mass_scale, stiff_impulse_scale; /* a stiff contact's */
    double max_push;            /* fastest push out of an overlap, px/s */
    double friction, rolling;
    bool push;                  /* false: the relax, which only stops approaches */
} sweep_law;

struct bp_soft {
    bp_broadphase broadphase;
    soft_contact *contacts;
    contact_key *keys;   /* per contact: what it joins */
    size_t contact_count, contact_capacity, key_capacity;
    soft_body *bodies;   /* per ball index, and the still body last */
    size_t body_capacity;
    soft_place *listed_at; /* per ball index with a body: where the step listed it */
    size_t listed_capacity;
    contact_memory *memory, *spare; /* sorted by key */
    size_t memory_count, memory_capacity, spare_capacity;
    uint32_t *parent;    /* union-find over ball indices, while islands form */
    uint8_t *blocked;    /* per root: the island may not sleep */
    uint8_t *swept;      /* per ball: it hits a side or wall this step (hits) */
    uint8_t *near_ball;  /* per ball: a contact with another ball is listed this step */
    size_t ball_capacity;
    size_t kept_count;   /* the world's balls, and its next id, when the */
    uint32_t kept_next_id; /* memory was last kept */
    /* The step's blocks (colour.c), in its scratch: per slot of a block,
     * the contact it holds (or BP_SOFT_NO_CONTACT); per group of blocks
     * (a column of the pile, its batches in order), its first block, and
     * one past the last group the block count. Groups [0, shared[0]) share
     * no ball with each other, nor do groups [shared[0], shared[1]); the
     * rest are swept after them, in order. */
    const uint32_t *slots, *group_first;
    size_t shared[2], block_count;
    contact_block *blocks; /* the step's contacts as the sweeps solve them */
    uint8_t *loaded;       /* per body: it carries load in this step (impacts.c) */
    uint32_t still;        /* the still body's index (the balls' count) */
    double weight_h;       /* |g| h: a unit mass's weight in a substep, as an impulse */
    impact_lane *impact_lanes; /* the lanes that may yet meet an impact */
    uint8_t *impact_marks; /* per lane listed, a mark of the stage at hand (impacts.c) */
    uint32_t *changed_at;  /* per body: the count of impacts after its last (impacts.c) */
    uint32_t impacts_met;  /* impacts met in this step */
    size_t impact_count;
    bool impacts_swept;    /* the load has been marked since the first sweep */
    soft_hand *hands;      /* the step's held balls, in its scratch */
    size_t hand_count;
    bp_workers *workers;   /* the step's threads (NULL: none) */
    /* A ball splits the step by itself when v^2 > r^2 split_scale (1/s^2;
     * infinite in a whole step): its contacts take the pieces' stiffness
     * (contacts.c). */
    double split_scale;
};

/* The push out of overlaps, a damped spring solved implicitly over a
 * substep (bp_soft_softness_for). */
typedef struct softness {
    double bias_rate, mass_scale, impulse_scale;
} softness;

/* Closer than this (a part of the smaller radius) two surfaces touch: they
 * join one island, and a ball awake that moves wakes a sleeper it touches
 * (wake.c). */
#define BP_SOFT_TOUCH_OVER_R 0.05

/* How far apart the centres of balls i and j are when they touch, px. */
static inline double bp_soft_touch_distance(const bp_world *world, uint32_t i, uint32_t j)
{
    double ri = world->r[i], rj = world->r[j];
    return ri + rj + BP_SOFT_TOUCH_OVER_R * (ri < rj ? ri : rj);
}

/* Whether balls i and j touch (within BP_SOFT_TOUCH_OVER_R). */
static inline bool bp_soft_touching(const bp_world *world, uint32_t i, uint32_t j)
{
    double dx = world->x[j] - world->x[i], dy = world->y[j] - world->y[i];
    double touch = bp_soft_touch_distance(world, i, j);
    return dx * dx + dy * dy < touch * touch;
}

/* Ball i's body as the world has it now (listed where soft->listed_at
 * says). A held ball weighs what it weighs here, though the world gives it
 * no inverse mass: in the sweeps it shoves its neighbours with its own
 * momentum and is slowed by them, and the hand pulls it back toward its
 * velocity with a bounded strength (hand.c). As an immovable body, every
 * sweep set the neighbour in its way to the hand's speed again, and that
 * neighbour's contacts carried it on: a flick out of a pile threw dozens
 * of balls (docs/design.md). */
static inline soft_body body_from_world(const bp_soft *soft, const bp_world *world, size_t i)
{
    const soft_place *at = &soft->listed_at[i];
    double im = world->inv_mass[i], ii = world->inv_inertia[i];
    if (world->flags[i] & BP_BALL_HELD) {
        im = 1.0 / world->mass[i];
        ii = 2.0 * im / (world->r[i] * world->r[i]);
    }
    return (soft_body){world->vx[i],        world->vy[i],        world->w[i],
                       world->x[i] - at->x, world->y[i] - at->y, im,
                       ii,                  world->r[i]};
}

/* Ball i's body, listed where it is now. */
static inline soft_body body_listed_now(bp_soft *soft, const bp_world *world, size_t i)
{
    soft->listed_at[i] = (soft_place){world->x[i], world->y[i]};
    return body_from_world(soft, world, i);
}

/* state.c: the state as a whole. */
bp_soft *bp_soft_of(bp_world *world);
bool bp_soft_reserve_balls(bp_soft *soft, const bp_world *world);

/* bodies.c: the balls awake gathered, moved and scattered back. */
void bp_soft_gather_bodies(bp_soft *soft, bp_world *world);
void bp_soft_integrate(bp_soft *soft, bp_world *world, double dv, double damping);
void bp_soft_move_substep(bp_soft *soft, bp_world *world, double h, double fast_scale,
                          double rest_speed);
void bp_soft_scatter_bodies(bp_soft *soft, bp_world *world, double rest_speed);

/* contacts.c: the pairs and the contacts of the step. */
double bp_soft_listing_margin(const bp_world *world, double dt, double r_min);
bool bp_soft_list_pairs(bp_soft *soft, const bp_world *world, double margin);
bool bp_soft_list_contacts(bp_soft *soft, const bp_world *world, double margin, double dt,
                           double rest_speed);

/* contact_memory.c: the impulses kept by contact key. */
keyed_contact *bp_soft_recall_all(bp_soft *soft, const bp_world *world, double unit);
bool bp_soft_remember(bp_soft *soft, const bp_world *world, const keyed_contact *by_key,
                      int pieces);

/* colour.c: the order the sweeps take the contacts in, in batches. */
bool bp_soft_batch_contacts(bp_soft *soft, const bp_world *world);

/* contact_solver.c: the sweeps and what comes before and after them. */
softness bp_soft_softness_for(double hz, double zeta, double h);
bool bp_soft_pack_blocks(bp_soft *soft, const bp_world *world);
void bp_soft_unpack_blocks(bp_soft *soft);
void bp_soft_sweeps(bp_soft *soft, const sweep_law *law, int sweeps, bool warm);
void bp_soft_restitution(bp_soft *soft, double e, double rest_speed);
/* impacts.c: impacts by the pairwise law between balls free of load. */
bool bp_soft_begin_impacts(bp_soft *soft, const bp_world *world, double h);
void bp_soft_resolve_impacts(bp_soft *soft, const bp_world *world, double h, double rest_speed,
                             bool swept);

/* hand.c: held balls pulled toward the velocity the step gave them. */
bool bp_soft_grip(bp_soft *soft, const bp_world *world, double h);
void bp_soft_hand_substep(bp_soft *soft);
void bp_soft_pull(bp_soft *soft);

/* contact_solver_wide.c: the warm start and the sweep a block at a time
 * in SIMD lanes, where the CPU has them (the scalar stages' bits). */
bool bp_soft_wide_available(void);
void bp_soft_sweep_wide(bp_soft *soft, size_t lo, size_t hi, const sweep_law *law, bool shared);
void bp_soft_warm_start_wide(bp_soft *soft, size_t lo, size_t hi, bool shared);

/* islands.c: sleep, an island at a time. Below bp_soft_slow_speed (and
 * spin times radius), px/s, a ball in a step of dt s is slow: it may fall
 * asleep. */
double bp_soft_slow_speed(const bp_world *world, double dt);
bool bp_soft_sleep_islands(bp_soft *soft, bp_world *world, double dt);

/* wake.c: waking in part. Wakes, each alone, the sleepers that a ball
 * awake hits within the step of dt s, that a held ball touches, and those
 * a few contacts from a ball awake that moves. Returns how many woke
 * (SIZE_MAX: out of memory). */
size_t bp_soft_wake_near_motion(bp_soft *soft, bp_world *world, double dt);

#endif
