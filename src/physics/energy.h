/* The world's energy in its parts and its momentum, read from the ball
 * arrays. */
#ifndef BP_ENERGY_H
#define BP_ENERGY_H

#include <stdbool.h>
#include <stddef.h>

#include "bodies.h"

/* bp_energy is the public header's. */

bp_energy bp_energy_measure(const bp_world *world);

#endif
