/* Undo and redo of edits (Ctrl+Z, Ctrl+Y): walls drawn, moved or deleted,
 * balls spawned or deleted, parameters changed. Each edit keeps the input
 * that takes it back, worked out from the world as the edit is made; undo
 * and redo are then ordinary inputs to the session, so a recording of them
 * replays exactly. A ball deleted and brought back by undo is the ball it
 * was: its id, place, size, mass, velocity, spin and angle. */
#ifndef BP_UNDO_H
#define BP_UNDO_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

/* Edits remembered each way; older ones are forgotten. */
#define BP_UNDO_MAX 256

typedef struct bp_edit {
    bp_input undo; /* takes the edit back */
    bool merge;    /* a drag: the next move of the same wall end or parameter joins it */
} bp_edit;

typedef struct bp_undo {
    bp_edit past[BP_UNDO_MAX], future[BP_UNDO_MAX];
    int past_count, future_count;
    bool changed; /* an edit was made, undone or redone since the owner last
                   * set this false (unsaved edits); bp_undo_clear keeps it */
} bp_undo;

/* Applies in (bp_session_apply) and, if it is an edit that changed the
 * world, remembers how to take it back. merge: part of a drag (a wall end,
 * a slider of the panel) whose first step alone needs undoing. Returns as bp_session_apply. */
int bp_undo_apply(bp_undo *u, bp_session *s, bp_input in, bool merge, char *err,
                  size_t err_size);
/* A drag ended: the next move starts a new edit. */
void bp_undo_end_drag(bp_undo *u);
/* Takes back the last edit (redo: does the last undone one again); false
 * when there is none. status as bp_session_apply. */
bool bp_undo_undo(bp_undo *u, bp_session *s, int *status, char *err, size_t err_size);
bool bp_undo_redo(bp_undo *u, bp_session *s, int *status, char *err, size_t err_size);
/* Forgets everything (after a reset). */
void bp_undo_clear(bp_undo *u);

#endif
