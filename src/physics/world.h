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

#endif
