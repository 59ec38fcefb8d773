/* The past of a session, for rewinding: a ring of snapshots of the world
 * (and of the session's own state), one every `every` steps, and the inputs
 * applied since the oldest of them. Going back to step S restores the last
 * snapshot at or before S and steps on to S, applying the logged inputs
 * again: as exact as the restore, since the step is deterministic.
 *
 * Budget: the snapshots of the last `seconds` (one before them kept, so
 * that all of them can be reached), at most `max_bytes` in all; beyond
 * either, the oldest go first. */
#ifndef BP_HISTORY_H
#define BP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "program.h"
#include "replay.h"

/* Snapshots per second of simulated time (every hz/4 steps). */
#define BP_HISTORY_PER_SECOND 4
/* Default bound on the snapshots' memory. */
#define BP_HISTORY_MAX_BYTES ((size_t)1 << 30)

/* The session's part of a snapshot: what inputs left behind. */
typedef struct bp_history_session {
    int64_t held, inspect;
    double grab_dx, grab_dy, target_x, target_y;
    bool paused;
} bp_history_session;

typedef struct bp_snapshot {
    uint64_t tick; /* the session's step count: the state after that step */
    bp_world_state world;
    bp_history_session session;
} bp_snapshot;

typedef struct bp_history {
    uint64_t every;      /* steps between snapshots */
    uint64_t keep_steps; /* how far back it reaches, steps */
    size_t max_bytes;
    bp_snapshot *ring;   /* oldest at start */
    size_t start, count, capacity;
    size_t bytes;        /* memory of the snapshots' buffers */
    bp_input *log;       /* inputs applied since the oldest snapshot, in order */
    size_t log_count, log_capacity;
    /* Bytes at the start of the next snapshot's buffer that
     * bp_history_prepare has written: 0 whenever that buffer may change. */
    size_t ready;
} bp_history;

/* seconds > 0 of a world stepping hz times a second. */
void bp_history_init(bp_history *h, double seconds, double hz, size_t max_bytes);
void bp_history_free(bp_history *h);

/* Records the state at tick (taken only when tick is a multiple of every,
 * or when the history is empty). false when memory runs out. */
bool bp_history_take(bp_history *h, uint64_t tick, const bp_world *world,
                     const bp_history_session *session);
/* Gets the buffer of the next snapshot of world ready ahead of its time:
 * allocated, and its memory written once, at most `budget` more bytes a
 * call. Memory never written before costs a page fault a page on first
 * touch (25 ms for the 10 MB of 100,000 balls on a test VM, against
 * 0.4 ms for the copy itself), which a window spreads over its frames
 * this way instead of taking it in one step. Does nothing when the next
 * snapshot will reuse the oldest's buffer, or when memory runs out (the
 * snapshot then allocates, or fails, itself). */
void bp_history_prepare(bp_history *h, const bp_world *world, size_t budget);
/* Logs an input applied at its step. false when memory runs out. */
bool bp_history_log(bp_history *h, const bp_input *in);

/* The oldest step it can go back to (UINT64_MAX when empty). */
uint64_t bp_history_oldest(const bp_history *h);
/* The last snapshot at or before tick, or NULL. */
const bp_snapshot *bp_history_at(const bp_history *h, uint64_t tick);
/* Forgets the snapshots after tick and the inputs at tick and after: a new
 * branch starts there. */
void bp_history_cut(bp_history *h, uint64_t tick);

#endif
