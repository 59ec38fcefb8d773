/* The world's energy in its parts and its momentum, read from the ball
 * arrays, and DIR/energy.csv, which --dump writes beside frames.csv. */
#ifndef BP_ENERGY_H
#define BP_ENERGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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

/* DIR/energy.csv: frame,t,kinetic,rotational,potential,total,px,py, a row
 * per dumped step, numbers that round-trip. */
typedef struct bp_energy_log {
    FILE *csv;
} bp_energy_log;

/* dir must exist. false with a message in err. */
bool bp_energy_log_open(bp_energy_log *log, const char *dir, char *err, size_t err_size);
bool bp_energy_log_frame(bp_energy_log *log, const bp_world *world, unsigned long long frame,
                         char *err, size_t err_size);
/* false when something written was lost. */
bool bp_energy_log_close(bp_energy_log *log, char *err, size_t err_size);

#endif
