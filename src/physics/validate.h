/* A debug check of the world's invariants, asserted one by one so that a
 * failure names the invariant broken. Off unless the build defines
 * BP_VALIDATE (meson -Dvalidate=true, on in CI's sanitizer build): it
 * reads every ball, so it costs as much as a light step. */
#ifndef BP_VALIDATE_H
#define BP_VALIDATE_H

#include "bodies.h"

/* Asserts that the ball store is whole (ids and indices agree, counts within
 * capacities), every number finite, every centre inside the arena, and
 * each ball's inverse mass what its flags say (0 while held or asleep;
 * a sleeper also still). */
void bp_world_validate(const bp_world *world);

/* What the step calls: the check in a validating build, nothing else. */
#ifdef BP_VALIDATE
#define BP_WORLD_VALIDATE(world) bp_world_validate(world)
#else
#define BP_WORLD_VALIDATE(world) ((void)(world))
#endif

#endif
