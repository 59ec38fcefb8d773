/* The other engines of the comparison program (compare.c): each builds the
 * benchmark pit it is handed in its own terms, steps it as ballpit does and
 * hands back the balls' final centres. */
#ifndef BP_ENGINES_H
#define BP_ENGINES_H

#include <stdbool.h>

#include "stirpath.h"
#include "world.h"

/* Runs the pit or crowd that world holds (made with bp_bench_params and
 * bp_spawn_pit, not yet stepped) for BP_BENCH_STEPS steps at its rate on
 * this many threads, then writes the balls' final centres into world.
 * Returns the wall time of the steps alone, s, or a negative number when
 * memory runs out. */
typedef double bp_engine_run(bp_world *world, bool crowd, int threads);

#ifdef BP_HAVE_CHIPMUNK
/* Chipmunk 7: one thread whatever threads says. */
double bp_chipmunk_run(bp_world *world, bool crowd, int threads);
/* Chipmunk's version, as it prints it. */
const char *bp_chipmunk_version(void);
#endif

#ifdef BP_HAVE_BOX2D
/* Box2D v3, with its own scheduler on more than one thread. */
double bp_box2d_run(bp_world *world, bool crowd, int threads);
/* Box2D's version, "3.2.0". */
const char *bp_box2d_version(void);
/* The pit world holds (spawned, not yet stepped) settled for settle steps
 * untimed, then stirred by a kinematic hand along path, each step timed.
 * false when memory runs out. */
bool bp_box2d_stir(const bp_world *world, uint64_t settle, const bp_stir_path *path, int threads,
                   bp_stir_result *out);
#endif

#endif
