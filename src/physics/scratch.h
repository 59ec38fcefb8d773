/* The step's scratch memory: one arena per world, a stack of blocks handed
 * out by moving a pointer.
 *
 * Arrays that live only within a step (the pair list, the sort's moves,
 * the support pass's edges...) come from here rather than from arrays each
 * subsystem grows and keeps. The step resets the arena when it begins, so
 * everything allocated in one step is gone in the next. A step that asks
 * for more than the block holds is served by overflow allocations, and at
 * the next reset the block grows to the most that step had in use at once:
 * after a few steps, a world of steady size makes no system allocation.
 *
 * Allocations come from the thread that runs the step, between worker
 * runs, never from a worker: a job whose pieces need scratch is handed
 * slices of an array allocated before the run. */
#ifndef BP_SCRATCH_H
#define BP_SCRATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Alignment of every allocation, a cache line: an array whose pieces
 * different workers write shares no line with the array before it. */
#define BP_SCRATCH_ALIGN 64

typedef struct bp_scratch_overflow bp_scratch_overflow;

/* Counters for tests and tuning. */
typedef struct bp_scratch_stats {
    uint64_t system_allocs; /* blocks and overflow allocations made */
    uint64_t overflows;     /* allocations the block had no room for */
    uint64_t grows;         /* times the block was made larger */
    size_t block_size;      /* bytes of the block now */
    size_t high_water;      /* most bytes in use at once since the last reset */
} bp_scratch_stats;

typedef struct bp_scratch {
    unsigned char *block; /* BP_SCRATCH_ALIGN-aligned, size bytes */
    size_t size;
    size_t used;  /* bytes of block handed out, from its start */
    size_t need;  /* bytes handed out in all, block and overflow */
    size_t high;  /* the most need reached since the last reset */
    bp_scratch_overflow *overflow; /* since the last reset, newest first */
    bp_scratch_stats stats;
} bp_scratch;

/* A point to go back to: everything allocated after it is released at
 * once (bp_scratch_release). */
typedef struct bp_scratch_mark {
    size_t used, need;
    bp_scratch_overflow *overflow;
} bp_scratch_mark;

/* An empty arena (no block until the first reset that needs one); NULL
 * when memory runs out. */
bp_scratch *bp_scratch_create(void);
void bp_scratch_destroy(bp_scratch *s);

/* Releases every allocation. If the arena needed more than its block since
 * the last reset, the block grows to that high-water mark first (out of
 * memory it stays as it was: the next step's overflows then fail or not on
 * their own). */
void bp_scratch_reset(bp_scratch *s);

/* Room for count elements of size bytes, BP_SCRATCH_ALIGN-aligned and not
 * initialised, valid until the next reset or a release to a mark taken
 * before it. NULL when memory runs out or the size overflows; count 0
 * gives a valid pointer to no bytes. */
void *bp_scratch_alloc(bp_scratch *s, size_t count, size_t size);

/* Makes *array, of *capacity elements of size bytes from s, hold at least
 * wanted, keeping its first count elements: in place when it is the last
 * allocation of the block, else in a new one twice as large (the old one
 * stays allocated until the reset or release). For lists whose length is
 * found as they fill. false, with the array unchanged, when memory runs
 * out. */
bool bp_scratch_grow(bp_scratch *s, void **array, size_t *capacity, size_t count,
                     size_t wanted, size_t size);
static inline bool bp_scratch_reserve(bp_scratch *s, void **array, size_t *capacity,
                                      size_t count, size_t wanted, size_t size)
{
    return wanted <= *capacity || bp_scratch_grow(s, array, capacity, count, wanted, size);
}

static inline bp_scratch_mark bp_scratch_mark_now(const bp_scratch *s)
{
    return (bp_scratch_mark){s->used, s->need, s->overflow};
}

/* Releases everything allocated since mark was taken. */
void bp_scratch_release(bp_scratch *s, bp_scratch_mark mark);

/* The counters, with high_water the most in use since the last reset. */
bp_scratch_stats bp_scratch_stats_of(const bp_scratch *s);

#endif
