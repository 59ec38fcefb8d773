/* The physics as ballpit's own program sees it: what the files and
 * session layer (src/sim) and the app (src/app) use beyond the public
 * header, in one place. They are the library's own front ends, so they
 * read and write the world's ball store in place (bodies.h: drawing and
 * dumping 100,000 balls a frame without a copy) and check input against
 * the world's limits before it reaches a world (limits.h). The contacts'
 * kept impulses they save and load with a scene through the public
 * header, as an embedder would. They include this header and no other of
 * src/physics. An embedder has the public header alone
 * (include/ballpit/ballpit.h), which reaches everything a user of the
 * program can do. */
#ifndef BP_PROGRAM_H
#define BP_PROGRAM_H

#include "ballpit/ballpit.h"

#include "grid.h"      /* the uniform grid's cells, for spawning without overlap */
#include "grow.h"      /* bp_reserve: arrays that grow */
#include "limits.h"    /* the ranges input must lie in */
#include "params.h"    /* the world's parameters */
#include "placed.h"    /* balls placed by hand settled before the first step */
#include "query.h"     /* the ball under a point */
#include "raycast.h"   /* ray casts and a thrown ball's predicted flight */
#include "walls.h"     /* a ball swept against a wall: a held ball slides along walls */
#include "world.h"     /* the world's life, its ball store and snapshots */

#endif
