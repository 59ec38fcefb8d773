/* What --dump and --png write, for the window and the headless runner
 * alike: frames.csv and energy.csv rows and, optionally, a PNG per dumped
 * step. */
#ifndef BP_RECORDER_H
#define BP_RECORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "dump.h"
#include "energy.h"
#include "options.h"
#include "png.h"

typedef struct bp_recorder {
    bool active;
    uint64_t every;
    bp_dump dump;
    bp_energy_log energy;
    bp_png_writer *png;
} bp_recorder;

/* Does nothing without --dump. false with a message on failure (exit 1). */
bool bp_recorder_open(bp_recorder *rec, const bp_options *opts, const bp_world *world,
                      char *err, size_t err_size);
/* After every step: records the world as step `step` if it is a dumped
 * step (and keeps the PNG frames' trails in any case). */
bool bp_recorder_step(bp_recorder *rec, const bp_world *world, uint64_t step, char *err,
                      size_t err_size);
/* false when something already written could not be saved. */
bool bp_recorder_close(bp_recorder *rec, char *err, size_t err_size);

#endif
