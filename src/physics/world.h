/* The world's life: making one owns the subsystems (solver, swept moves,
 * prepared walls, the step's scratch arena) that the step drives over the
 * ball store (bodies.h);
 * they read and write the store, never the world's life back. */
#ifndef BP_WORLD_H
#define BP_WORLD_H

#include "bodies.h"
#include "params.h"

/* NULL on allocation failure. Parameters must already pass bp_params_check. */
bp_world *bp_world_new(const bp_params *params);
/* Frees the world, its balls and walls and every subsystem. */
void bp_world_destroy(bp_world *world);
/* From this many balls on, worker threads (--threads) pay for their
 * hand-overs. */
#define BP_WORLD_THREADS_MIN_BALLS 8192

/* The step's worker threads, for whichever solver steps: as many as
 * world->threads once the world has BP_WORLD_THREADS_MIN_BALLS balls,
 * else NULL (the caller does all the work; results are the same either
 * way). */
bp_workers *bp_world_workers(bp_world *world);

/* Snapshots (bp_world_state, bodies.h): the ball store, and the memory
 * the soft solver carries from step to step (its kept impulses), so that
 * a world restored steps on exactly as the saved one. */
/* Bytes a state of this world holds. */
size_t bp_world_state_size(const bp_world *world);
/* Copies the world into st, reusing its buffer. false when memory runs out
 * (st then holds no state: size 0). */
bool bp_world_save(const bp_world *world, bp_world_state *st);
/* Makes the world what st holds, bit for bit, and gives it a new
 * layout_stamp. false when memory runs out (the world is then unchanged). */
bool bp_world_restore(bp_world *world, const bp_world_state *st);

#endif
