/* A contact's impulses as a solver keeps them from step to step (and
 * through sleep), by what the contact joins: what the public contact
 * functions (api.c) read and write, so that a pile rebuilt (a scene file
 * loaded) is held as it was. No solver owns the type. */
#ifndef BP_KEPT_H
#define BP_KEPT_H

#include <stdint.h>

/* What a kept contact joins: ball id_a, and ball id code_b (BP_KEPT_BALL,
 * id_a < code_b), side code_b (BP_KEPT_SIDE, 0-3: the arena's) or wall
 * index code_b (BP_KEPT_WALL). */
enum { BP_KEPT_BALL = 0, BP_KEPT_SIDE = 1, BP_KEPT_WALL = 2 };
typedef struct bp_kept_contact {
    uint32_t id_a, kind, code_b;
    double jn, jt, jr; /* normal (>= 0), tangential and rolling impulse */
} bp_kept_contact;

#endif
