/* A simulation driven by inputs: the world, the ball the user holds, and the
 * rules by which inputs change them. The window and the headless replay both
 * go through here, so that the same inputs at the same steps give the same
 * world bit for bit.
 *
 * Inputs act only between steps. A held ball is kinematic: before each step
 * its velocity is set to carry it to the target in exactly one step, so it
 * follows the cursor and, having infinite mass, shoves the others aside
 * (at its own speed: see bp_collide_shove).
 * The soft solver's sweeps give it its own mass instead (design.md), so it
 * shoves a pile with its own momentum rather than driving it.
 * While paused, moves place the held ball directly at the target. */
#ifndef BP_SESSION_H
#define BP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "history.h"
#include "options.h"
#include "replay.h"
#include "ballpit/ballpit.h"

typedef struct bp_session {
    bp_world *world;           /* not owned; reset swaps its contents */
    const bp_options *opts;    /* what reset rebuilds the initial world from */
    uint64_t tick;             /* steps taken since the start, across resets */
    int64_t held;              /* id of the held ball, or -1 */
    double grab_dx, grab_dy;   /* held ball's centre minus the cursor, px */
    double target_x, target_y; /* where the held ball's centre goes next, px */
    bool paused;               /* moves place rather than drag */
    bool jumped;               /* balls moved outside a step (a viewer should not
                                * interpolate); the viewer clears it */
    bp_input_writer *writer;   /* every applied input is recorded here, if set */
    int64_t inspect;           /* id of the ball the inspector follows, or -1: an
                                * input, so a recording pins it in --png frames */
    bp_history *history;       /* the past, for rewinds; NULL: none kept */
    bp_options scene_opts;     /* what a scene input loaded (opts then points here), */
    char *scene_text;          /* with its text and its name, owned, */
    char *scene_name;          /* kept for resets to it */
    unsigned loads;            /* scene inputs applied (a window follows them) */
} bp_session;

/* Starts a session on a world freshly built from opts by bp_setup_world. */
void bp_session_init(bp_session *s, bp_world *world, const bp_options *opts);

/* Applies one input now, stamping it with the current tick, and records it.
 * Returns 0, or 1 with a message on a runtime failure (memory, writing the
 * recording, rebuilding the world for a reset), or 2 when a scene input's
 * scene does not build (bad input: the world is left as it was). */
int bp_session_apply(bp_session *s, bp_input *in, char *err, size_t err_size);

/* How a step ended. */
typedef enum bp_step_status {
    BP_STEP_DONE,    /* the world is one step further on */
    BP_STEP_STOPPED, /* a stop was asked for (world->stop) during the step: the
                      * world may be mid-step, so the caller records nothing
                      * more and finishes its files cleanly */
    BP_STEP_FAILED,  /* out of memory; message in err */
} bp_step_status;

/* One physics step (held ball first). The tick advances only when it is
 * done. */
bp_step_status bp_session_step(bp_session *s, char *err, size_t err_size);

/* Carries on with fresh (built by bp_setup_world from opts, which the
 * session then points to) in place of the world: fresh's contents move
 * into s->world, the old ones into fresh for the caller to destroy. Nothing
 * is held; the history kept, if any, starts again, opts->history seconds
 * long at the new world's rate. false when memory runs out. */
bool bp_session_load(bp_session *s, bp_world *fresh, const bp_options *opts);

/* Frees what scene inputs left the session holding (not the world). */
void bp_session_free(bp_session *s);

/* Keeps the session's past in h (initialised, empty, owned by the caller)
 * from now on, so that rewind inputs work. false when memory runs out. */
bool bp_session_keep_history(bp_session *s, bp_history *h);

/* Builds the world of each scene input of rp with the run's options, as
 * a replay will (and throws it away), so that a scene they do not fit is
 * refused before anything is written, not when the replay reaches it;
 * max_side > 0: nor may its arena be wider or taller than that (--png).
 * 0, or 2 with "NAME:LINE: message" (1 when memory runs out). */
int bp_session_check_scenes(const bp_replay *rp, const bp_options *opts, double max_side,
                            char *err, size_t err_size);

/* Applies every input of the replay due at the current tick. Returns as
 * bp_session_apply. A scene input swaps the world's contents as
 * bp_session_load does, and the history starts again there: a rewind
 * reaches back to just after the load, not before it. */
int bp_session_feed(bp_session *s, bp_replay *rp, char *err, size_t err_size);

/* Index of the wall a point at (x, y) picks (within a few px of its
 * thickness; the last drawn first), or -1. */
int64_t bp_session_wall_at(const bp_world *world, double x, double y);

/* Where a ball of radius r centred at (x, y) must go to lie inside the arena. */
void bp_session_clamp(const bp_world *world, double r, double *x, double *y);

#endif
