/* Point queries against the world: which ball is under a point. Picking in
 * the window goes through here. (Ray casts live in raycast.h.) */
#ifndef BP_QUERY_H
#define BP_QUERY_H

#include <stdint.h>

#include "bodies.h"

/* Id of the topmost ball containing (x, y) — the one drawn last, i.e. the
 * highest id — or -1 when the point is on no ball. */
int64_t bp_query_point(const bp_world *world, double x, double y);

#endif
