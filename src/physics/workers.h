/* A small pool of worker threads for the parts of the step that split into
 * independent pieces. Every piece is fixed by the data, never by the
 * number of threads, so results are the same with any --threads. */
#ifndef BP_WORKERS_H
#define BP_WORKERS_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct bp_workers bp_workers;

/* A round of a wait for another thread: a pause of the core, and every
 * 64th round a hand-over of it, in case the thread waited for needs it on
 * a busy machine. spin counts the rounds from 0. */
static inline void bp_workers_idle_round(unsigned spin)
{
    if (spin % 64 == 63)
        sched_yield();
#if defined(__x86_64__) || defined(__i386__)
    else
        __builtin_ia32_pause();
#elif defined(__aarch64__)
    else
        __asm__ volatile("yield");
#endif
}

/* A wait of every piece of a job for all the others, as often as the job
 * needs (spun: only in a job of no more pieces than bp_workers_cores). */
typedef struct bp_barrier {
    atomic_size_t arrived; /* waits reached, summed over the pieces */
    int pieces;
} bp_barrier;

static inline void bp_barrier_init(bp_barrier *barrier, int pieces)
{
    atomic_init(&barrier->arrived, 0);
    barrier->pieces = pieces;
}

/* Waits until every piece has reached its wait number *waits (+1): each
 * piece counts its own waits, from 0. */
static inline void bp_barrier_wait(bp_barrier *barrier, size_t *waits)
{
    size_t all = ++*waits * (size_t)barrier->pieces;
    atomic_fetch_add(&barrier->arrived, 1);
    for (unsigned spin = 0; atomic_load(&barrier->arrived) < all; spin++)
        bp_workers_idle_round(spin);
}

/* Where piece `piece` of `pieces` even pieces of count items starts (piece
 * == pieces: count). */
static inline size_t bp_piece_start(size_t count, int piece, int pieces)
{
    return count / (size_t)pieces * (size_t)piece +
           count % (size_t)pieces * (size_t)piece / (size_t)pieces;
}

/* Most pieces a job over a long array is cut into (bp_workers_pieces). */
#define BP_WORKERS_MAX_PIECES 64

/* How many pieces to cut a job over a long array into: several per thread,
 * so that the caller goes on to the next piece while a helper that slept
 * wakes up (tens of microseconds), up to most; 1 without helpers. */
static inline int bp_workers_pieces(int threads, int most)
{
    int pieces = threads > 1 ? 8 * threads : 1;
    return pieces < most ? pieces : most;
}

/* One piece of a job, piece in [0, pieces). Pieces of one job must not
 * touch the same data, or must order their touches themselves. A piece
 * may wait for another only in a job of no more pieces than
 * bp_workers_cores: a thread runs one piece at a time, and a helper that
 * is free takes the next piece left, so every piece waited for gets run;
 * with no more pieces than cores, the waits are short. */
typedef void (*bp_job)(void *context, int piece);

/* Starts threads - 1 helper threads (the caller works too). NULL when
 * threads cannot be had. */
bp_workers *bp_workers_create(int threads);
void bp_workers_destroy(bp_workers *workers);
int bp_workers_count(const bp_workers *workers);
/* How many of them can run at once: the count, or the machine's CPUs
 * online when it has fewer (1 for NULL). Pieces that wait for each other
 * spin, so there should be no more of them than this. */
int bp_workers_cores(const bp_workers *workers);

/* Runs every piece of job once and returns when all are done. Pieces are
 * handed out one at a time to whoever is free, the caller included: a
 * helper that wakes late finds the work done rather than being waited for.
 * The caller takes them from the first on, the helpers from the last back,
 * so that two threads work on pieces far apart, and on the same pieces from
 * one job to the next. With a NULL pool the caller runs them all, in
 * order. */
void bp_workers_run(bp_workers *workers, bp_job job, void *context, int pieces);

#endif
