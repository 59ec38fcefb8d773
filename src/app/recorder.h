/* What --dump and --png write, for the window and the headless runner
 * alike: frames.csv and energy.csv rows and, optionally, a PNG per dumped
 * step. */
#ifndef BP_RECORDER_H
#define BP_RECORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "dump.h"
#include "energylog.h"
#include "options.h"
#include "png.h"
#include "replay.h"

typedef struct bp_recorder {
    bool active;
    uint64_t every;
    bp_dump dump;
    bp_energy_log energy;
    bp_png_writer *png;
    const int64_t *inspect; /* the ball the PNG frames' inspector follows (the
                             * session's), or NULL: as the options say */
} bp_recorder;

/* Whether the options can record this world: false (bad input, exit 2)
 * with a message when --png would render a larger arena than it can. */
bool bp_recorder_check(const bp_options *opts, const bp_world *world, char *err,
                       size_t err_size);
/* Whether the run's options fit every scene input of the replay rp: each
 * must build with them (bp_session_check_scenes) and, with --png, be no
 * larger than a PNG can be. 0, or 2 (bad input) with "FILE:LINE: message"
 * (1 when memory runs out), before anything is written. */
int bp_recorder_check_scenes(const bp_options *opts, const bp_replay *rp, char *err,
                             size_t err_size);
/* Does nothing without --dump. false with a message on failure (exit 1). */
bool bp_recorder_open(bp_recorder *rec, const bp_options *opts, const bp_world *world,
                      char *err, size_t err_size);
/* The PNG frames' inspector follows *inspect (a session's) from now on.
 * Returns true. */
bool bp_recorder_follow(bp_recorder *rec, const int64_t *inspect);
/* After every step: records the world as step `step` if it is a dumped
 * step (and keeps the PNG frames' trails in any case). */
bool bp_recorder_step(bp_recorder *rec, const bp_world *world, uint64_t step, char *err,
                      size_t err_size);
/* false when something already written could not be saved. */
bool bp_recorder_close(bp_recorder *rec, char *err, size_t err_size);

#endif
