/* Balls a loader puts to sleep as a pile saved at rest (a scene's
 * asleep=1): a sleeper keeps only the state a ball at rest could have. */
#ifndef BP_PLACED_H
#define BP_PLACED_H

#include <stdbool.h>

#include "bodies.h"

/* Wakes every sleeper pressed into another ball, a wall or a side deeper
 * than resting on it explains (the depth at which a touch wakes a sleeper,
 * sleep.h): asleep, it would keep that overlap for ever; and, under
 * gravity, every sleeper touching nothing, which would fall. Marks the
 * sleepers left resting on a floor grounded, as a ball that fell asleep
 * there is. false when memory runs out (nothing is then changed). */
bool bp_placed_settle(bp_world *world);

#endif
