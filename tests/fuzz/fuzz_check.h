/* What every fuzz target checks of the world it stepped: every number
 * finite, every centre inside the arena, the energy not exploding. A broken
 * invariant prints what broke and aborts, which libFuzzer (or the corpus
 * driver) reports as a finding. */
#ifndef BP_FUZZ_CHECK_H
#define BP_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "world.h"

/* Balls and walls beyond which a target only parses and does not step, so
 * that each input runs in milliseconds. */
#define BP_FUZZ_MAX_BALLS 256
#define BP_FUZZ_MAX_WALLS 64
/* Steps a target takes of what it parsed. */
#define BP_FUZZ_STEPS 12

/* Translational, rotational and potential energy, the potential measured
 * from the arena's side that gravity pulls toward, so it is never negative. */
double bp_fuzz_energy(const bp_world *world);

/* Most energy a world that started with energy e0 may have after a few
 * steps: e0 twice over, plus for every ball the kinetic energy of moving by
 * its own diameter within one step (the most that pushing overlapping
 * starts apart can give it) or of one step's gravity, whichever is more.
 * A step's gravity is speed a resting ball holds until its contacts take
 * it back one after another; where a step's fall is many times a ball
 * (1 Hz, 9e6 px/s^2) friction at the first contact can leave part of it in
 * the spin. Anything above is an explosion. */
double bp_fuzz_energy_bound(const bp_world *world, double e0);

/* Aborts with a message unless every ball's numbers are finite and its
 * centre lies in the arena; also unless the energy is at most bound
 * (pass INFINITY to skip that). what names the moment, for the message. */
void bp_fuzz_check(const bp_world *world, double bound, const char *what);

/* A NUL-terminated copy of the fuzz input (free() it), NULL if it holds a
 * NUL byte, which no text file read by ballpit does. */
char *bp_fuzz_text(const uint8_t *data, size_t size);

#endif
