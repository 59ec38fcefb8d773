/* The world owns every ball and wall and the parameters they live by.
 *
 * Balls live in flat arrays (structure of arrays) so that 100,000 of them
 * stream through the cache; the step sorts them by grid cell (from 2,048
 * balls on), so code outside the core refers to a ball by its stable id,
 * never by an index or pointer kept across steps. */
#ifndef BP_BODIES_H
#define BP_BODIES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "ballpit/ballpit.h"
#include "bytescan.h"
#include "params.h"

/* Ball flags (BP_BALL_*) and bp_wall are the public header's. */

typedef struct bp_passes bp_passes;
typedef struct bp_statics bp_statics;
typedef struct bp_sweep bp_sweep;
typedef struct bp_soft bp_soft;
typedef struct bp_scratch bp_scratch;
typedef struct bp_workers bp_workers;

typedef struct bp_world {
    bp_params params;

    size_t count;    /* live balls, stored at indices [0, count) */
    size_t capacity;
    double *x, *y;   /* centre, px */
    double *vx, *vy; /* velocity, px/s */
    double *r;       /* radius, px */
    double *angle;   /* rotation, rad, from +x toward +y (clockwise on screen) */
    double *w;       /* angular velocity, rad/s, same sense as angle */
    double *mass;    /* mass, arbitrary units (default r^2) */
    double *inv_mass;/* 1/mass; 0 while held */
    double *inv_inertia; /* 1/I with I = m r^2 / 2 (a solid disk); 0 while held */
    uint32_t *id;    /* stable id */
    uint8_t *flags;  /* BP_BALL_* */
    uint16_t *calm;  /* steps in a row the ball has rested, up to the
                        sleep rules' count; 0 while asleep (see sleep.c) */
    double *calm_vx, *calm_vy; /* its velocity when that count began, px/s */
    double r_min, r_max; /* smallest and largest radius (INFINITY and 0 with no balls) */

    int32_t *index_of_id; /* id -> index, -1 once removed */
    uint32_t next_id;
    size_t id_capacity;

    bp_wall *walls;
    size_t wall_count, wall_capacity;

    /* Spare buffers for reordering the arrays above. */
    double *spare_double;
    uint32_t *spare_id;
    uint8_t *spare_flags;
    uint16_t *spare_calm;
    size_t spare_capacity;

    uint64_t steps; /* physics steps taken so far */
    /* Changes whenever balls are added, removed or reordered: what a cache
     * of per-index data (the broad phase's sort) checks to stay valid. */
    uint64_t layout_stamp;
    int threads;    /* worker threads for the step (results never depend on it) */
    bp_workers *workers; /* their pool, for either solver (world.h: bp_world_workers) */
    bp_passes *passes;   /* the passes solver's state (passes.h) */
    bp_statics *statics; /* walls and sides prepared for collision (walls.h) */
    bp_sweep *sweep;     /* the fast-ball sweep's per-ball state and grid (sweep.h) */
    bp_scratch *scratch; /* memory that lives within one step (scratch.h) */
    bp_soft *soft;       /* the soft solver's contacts and islands (solver/solver.h), made on first use */
    const volatile int *stop; /* non-NULL: the step returns early, unfinished, once *stop != 0 */
} bp_world;

/* Frees the balls' and walls' arrays (not the world itself, nor its
 * subsystems: bp_world_destroy does both). */
void bp_bodies_release(bp_world *world);

/* Adds a ball and returns its id, or -1 when memory runs out. mass <= 0 means
 * the default, proportional to the area (r^2). */
int64_t bp_world_insert_ball(bp_world *world, double x, double y, double vx, double vy, double r,
                             double mass);
/* Brings a removed ball back under its old id, as bp_world_insert_ball
 * would make a new one: whatever follows it by id goes on where it
 * stopped (undo of a delete). -1 if the id is in use or was never given,
 * or out of memory. */
int64_t bp_world_revive_ball(bp_world *world, uint32_t id, double x, double y, double vx,
                             double vy, double r, double mass);
/* Removes the ball with this id; false if there is none. Sleepers that
 * touched it wake: what it held up must fall. */
bool bp_world_delete_ball(bp_world *world, uint32_t id);
/* Index of the ball with this id, or -1. */
int64_t bp_world_index_of(const bp_world *world, uint32_t id);

/* Adds a static wall; false when memory runs out. Every sleeper wakes:
 * the wall may cut through them. */
bool bp_world_insert_wall(bp_world *world, bp_wall wall);

/* dst[k] = src[order[k]] for k in [lo, hi), elements of size bytes (8, 4,
 * 2 or 1). */
void bp_gather(void *dst, const void *src, size_t size, const uint32_t *order, size_t lo,
               size_t hi);
/* What does a reorder's gathers: bp_gather over [lo, hi), or the same cut
 * into pieces on other threads. */
typedef void (*bp_gather_fn)(void *context, void *dst, const void *src, size_t size,
                             const uint32_t *order, size_t lo, size_t hi);

/* Permutes the balls so that new index k holds the ball at old index
 * order[k] (a permutation of [0, count) with order[k] == k outside
 * [lo, hi)); ids stay. Each array is gathered by gather(context, ...)
 * (NULL: bp_gather on this thread). false when memory runs out (the world
 * is then unchanged). */
bool bp_world_reorder(bp_world *world, const uint32_t *order, size_t lo, size_t hi,
                      bp_gather_fn gather, void *context);

/* The first index from i on of a ball that is not asleep, or count: loops
 * over the balls awake, in index order, skipping sleepers eight at a time. */
static inline size_t bp_world_next_awake(const bp_world *world, size_t i)
{
    return bp_scan_bytes(world->flags, i, world->count, BP_BALL_ASLEEP, false);
}

/* The same below end (end if none): reads no flag from end on, which
 * another thread may be writing. */
static inline size_t bp_world_next_awake_below(const bp_world *world, size_t i, size_t end)
{
    return bp_scan_bytes(world->flags, i, end, BP_BALL_ASLEEP, false);
}

/* Whether the balls' arrays outgrow the cache next to a core (2 MiB here):
 * only then do the loops over pairs ask for balls ahead (bp_world_prefetch);
 * below, it costs instructions and saves nothing. */
#define BP_PREFETCH_MIN_BALLS 32768
/* How many pairs ahead those loops ask for a ball. */
#define BP_PREFETCH_AHEAD 8

/* Starts loading ball i's centre and radius into the cache. The other ball
 * of a pair often lies a grid row away in memory, a jump the hardware does
 * not foresee. */
static inline void bp_world_prefetch(const bp_world *world, uint32_t i)
{
    __builtin_prefetch(&world->x[i]);
    __builtin_prefetch(&world->y[i]);
    __builtin_prefetch(&world->r[i]);
}

/* Of a loop over count pairs, how many ask for the ball of the pair
 * BP_PREFETCH_AHEAD on: none in a world that fits the cache. */
static inline size_t bp_world_prefetches(const bp_world *world, size_t count)
{
    return world->count >= BP_PREFETCH_MIN_BALLS && count > BP_PREFETCH_AHEAD
               ? count - BP_PREFETCH_AHEAD
               : 0;
}

/* Gives ball i its own inverse mass and inertia again (after holding or
 * sleeping, when both were 0). */
void bp_world_set_free_mass(bp_world *world, size_t i);
/* Wakes the ball at index i if it sleeps. */
void bp_world_wake(bp_world *world, size_t i);
/* Puts the ball at index i to sleep where it is: still, and immovable
 * until woken. A held ball stays awake. */
void bp_world_sleep(bp_world *world, size_t i);
/* Wakes every ball: for a change of the rules (gravity, walls) under which
 * they fell asleep. */
void bp_world_wake_all(bp_world *world);

/* Marks a ball as held (infinite mass, no gravity) or lets it go. */
void bp_world_set_held(bp_world *world, uint32_t id, bool held);

/* Total kinetic energy (translation and rotation) and gravitational potential energy (zero at the floor),
 * in mass * px^2 / s^2. */
void bp_world_energy(const bp_world *world, double *kinetic, double *potential);

/* bp_world_step (step.c) is declared in the public header. */

/* A copy of everything the step reads that persists between steps: the
 * balls' arrays in index order, the walls, the parameters and the step
 * counter. Solver caches are not in it: a restore invalidates them (a new
 * layout_stamp), so the steps after a restore depend on the restored state
 * alone. */
typedef struct bp_world_state {
    bp_params params;
    size_t count, wall_count;
    uint32_t next_id;
    double r_min, r_max;
    uint64_t steps;
    unsigned char *bytes;  /* the arrays, one after another, then the solver's part */
    size_t size, capacity; /* bytes used and allocated */
    size_t solver_at;      /* where the solver's part begins in bytes */
} bp_world_state;

/* The ball store's part of a state (world.h has the whole: the store and
 * the memory a solver carries from step to step). */
size_t bp_store_state_size(const bp_world *world);
/* Copies the store into st, reusing its buffer, with room for `tail`
 * bytes after it, from solver_at on. false when memory runs out (st then
 * holds no state: size 0). */
bool bp_store_save(const bp_world *world, bp_world_state *st, size_t tail);
/* Makes the store what st holds, bit for bit, and gives the world a new
 * layout_stamp. false when memory runs out (the world is then unchanged). */
bool bp_store_restore(bp_world *world, const bp_world_state *st);
void bp_world_state_free(bp_world_state *st);

#endif
