/* The world's energy in its parts and its momentum, read from the ball
 * arrays. */
#ifndef BP_ENERGY_H
#define BP_ENERGY_H

#include <stdbool.h>
#include <stddef.h>

#include "world.h"

/* Energies in mass * px^2 / s^2, momentum in mass * px / s (mass in the
 * world's units, default r^2). */
typedef struct bp_energy {
    double kinetic;    /* translation: sum m v^2 / 2 */
    double rotational; /* sum I w^2 / 2, I = m r^2 / 2 */
    double potential;  /* sum m g h, h the height above where the ball would
                          rest on the side gravity pulls toward */
    double total;      /* the three */
    double px, py;     /* sum m v */
} bp_energy;

bp_energy bp_energy_measure(const bp_world *world);

#endif
