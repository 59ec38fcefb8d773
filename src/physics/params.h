/* World parameters: one struct that defaults, the scene file and the command
 * line all write into, validated in one place. */
#ifndef BP_PARAMS_H
#define BP_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "ballpit/ballpit.h"

typedef struct bp_params {
    double width;       /* arena width, px */
    double height;      /* arena height, px */
    double gravity;     /* downward acceleration, px/s^2 (negative pulls up) */
    double restitution; /* bounciness of every contact, 0..1 */
    double friction;    /* Coulomb friction coefficient at every contact, 0..1 */
    double rolling;     /* rolling resistance: torque rolling * N * r against the spin, 0..1 */
    double drag;        /* air drag rate, 1/s: v *= exp(-drag*dt) per step */
    double hz;          /* fixed physics steps per second */
    int64_t solver;     /* BP_SOLVER_*: how contacts are resolved (64 bits: no padding, so
                           that params compare whole with memcmp) */
} bp_params;

/* The contact solvers, BP_SOLVER_PASSES (passes.h) and BP_SOLVER_SOFT
 * (solver/solver.h), are the public header's: an embedder chooses one too. */

/* The solver named name ("passes" or "soft"), or -1. */
int bp_solver_named(const char *name);
/* The name of a solver, or NULL for none. */
const char *bp_solver_name(int64_t solver);

/* The documented defaults (docs/cli.md). */
bp_params bp_params_default(void);

/* NULL when every field is in range, else a message naming the field. */
const char *bp_params_check(const bp_params *p);

/* Approach speeds below this bounce with restitution 0, so that a resting
 * ball does not buzz: two steps' worth of gravity. px/s. */
double bp_params_rest_speed(const bp_params *p);

#endif
