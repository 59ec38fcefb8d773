/* The step's scratch arena (scratch.h): aligned allocations, reset and
 * release, growth of the block to the high-water mark, and a stepping
 * world that stops asking the system for scratch once warmed up. */
#include <stdint.h>
#include <string.h>

#include "scratch.h"
#include "spawn.h"
#include "step.h"
#include "tap.h"
#include "world.h"

static bool aligned(const void *p)
{
    return (uintptr_t)p % BP_SCRATCH_ALIGN == 0;
}

static void allocations_are_aligned(void)
{
    bp_scratch *s = bp_scratch_create();
    bool all = s != NULL;
    /* Odd sizes, from the overflow (no block yet), then from the block. */
    for (int round = 0; round < 2 && all; round++) {
        for (size_t k = 1; k < 40 && all; k++) {
            unsigned char *p = bp_scratch_alloc(s, 3 * k + 1, 1);
            all = p && aligned(p);
            if (all)
                memset(p, 0xab, 3 * k + 1); /* every byte asked for is there */
        }
        bp_scratch_reset(s);
    }
    TAP_OK(all, "every allocation is aligned to a cache line, from overflow and from the block");
    void *a = bp_scratch_alloc(s, 0, 8), *b = bp_scratch_alloc(s, 0, 8);
    TAP_OK(a && b && a != b, "no elements give distinct valid pointers");
    TAP_OK(bp_scratch_alloc(s, SIZE_MAX / 2 + 1, 2) == NULL, "a size that overflows gives NULL");
    bp_scratch_destroy(s);
}

static void reset_and_release(void)
{
    bp_scratch *s = bp_scratch_create();
    (void)bp_scratch_alloc(s, 1000, 8);
    bp_scratch_reset(s); /* the block now holds 8000 bytes */
    void *first = bp_scratch_alloc(s, 1000, 8);
    bp_scratch_reset(s);
    void *again = bp_scratch_alloc(s, 1000, 8);
    TAP_OK(first && first == again, "after a reset the block is handed out from its start");

    bp_scratch_mark mark = bp_scratch_mark_now(s);
    void *after = bp_scratch_alloc(s, 10, 8);
    uint64_t had = bp_scratch_stats_of(s).overflows;
    void *overflow = bp_scratch_alloc(s, 1 << 20, 1); /* more than the block holds */
    uint64_t overflows = bp_scratch_stats_of(s).overflows - had;
    bp_scratch_release(s, mark);
    void *reused = bp_scratch_alloc(s, 10, 8);
    TAP_OK(overflow && overflows == 1, "an allocation past the block comes from an overflow");
    TAP_OK(after && after == reused, "a release hands out again what came after its mark");
    bp_scratch_destroy(s);
}

static void block_grows_to_high_water(void)
{
    bp_scratch *s = bp_scratch_create();
    /* A step of three arrays, one released halfway: at most 2 in use. */
    size_t bytes = 100000;
    bool ok = true;
    for (int step = 0; step < 4; step++) {
        bp_scratch_reset(s);
        void *a = bp_scratch_alloc(s, bytes, 1);
        bp_scratch_mark mark = bp_scratch_mark_now(s);
        void *b = bp_scratch_alloc(s, bytes, 1);
        bp_scratch_release(s, mark);
        void *c = bp_scratch_alloc(s, bytes, 1);
        ok = ok && a && b && c;
        if (step == 0) {
            bp_scratch_stats st = bp_scratch_stats_of(s);
            TAP_OK(st.block_size == 0 && st.overflows == 3,
                   "the first step, without a block, is served by overflows");
            TAP_OK(st.high_water >= 2 * bytes && st.high_water < 3 * bytes,
                   "the high-water mark counts what was in use at once");
        }
    }
    bp_scratch_stats st = bp_scratch_stats_of(s);
    TAP_OK(ok, "every allocation succeeded");
    TAP_OK(st.block_size >= 2 * bytes, "the block grew to the high-water mark");
    TAP_OK(st.grows == 1 && st.overflows == 3 && st.system_allocs == 4,
           "the steps after the first make no system allocation");
    bp_scratch_destroy(s);
}

static void reserve_keeps_contents(void)
{
    bp_scratch *s = bp_scratch_create();
    (void)bp_scratch_alloc(s, 1 << 16, 1);
    bp_scratch_reset(s);
    uint64_t had = bp_scratch_stats_of(s).overflows;
    uint32_t *list = NULL, *other = NULL;
    size_t room = 0, other_room = 0;
    bool ok = true;
    for (uint32_t k = 0; k < 1000 && ok; k++) {
        ok = bp_scratch_reserve(s, (void **)&list, &room, k, k + 1, sizeof *list);
        if (ok)
            list[k] = k;
    }
    bool in_place = ok && bp_scratch_stats_of(s).overflows == had;
    /* Another list after it: the first now grows by copying. */
    ok = ok && bp_scratch_reserve(s, (void **)&other, &other_room, 0, 1, sizeof *other);
    ok = ok && bp_scratch_reserve(s, (void **)&list, &room, 1000, 5000, sizeof *list);
    for (uint32_t k = 0; k < 1000 && ok; k++)
        ok = list[k] == k;
    TAP_OK(in_place, "the last allocation grows in place");
    TAP_OK(ok && room >= 5000 && aligned(list), "a list that grows keeps its elements");
    bp_scratch_destroy(s);
}

/* The world's arena makes no system allocation once a pit has landed: its
 * block grows a few times while the pile gathers pairs, then holds. */
static void world_stops_allocating(uint64_t n, int threads, int steps, int warm_up)
{
    bp_params p = bp_pit_params(n);
    bp_world *w = bp_world_new(&p);
    if (!w || !bp_spawn_pit(w, n, 3)) {
        printf("Bail out! no memory for the pit\n");
        exit(1);
    }
    w->threads = threads;
    uint64_t warm = 0;
    for (int s = 0; s < steps; s++) {
        if (s == warm_up)
            warm = bp_scratch_stats_of(w->scratch).system_allocs;
        step_or_bail(w);
    }
    bp_scratch_stats st = bp_scratch_stats_of(w->scratch);
    char what[160];
    snprintf(what, sizeof what,
             "%llu balls, %d thread(s): no scratch allocation after step %d of %d "
             "(%llu before, %llu after)",
             (unsigned long long)n, threads, warm_up, steps, (unsigned long long)warm,
             (unsigned long long)(st.system_allocs - warm));
    TAP_OK(warm > 0 && st.system_allocs == warm, what);
    TAP_OK(st.block_size >= st.high_water, "the last step fit in the block");
    bp_world_destroy(w);
}

int main(void)
{
    allocations_are_aligned();
    reset_and_release();
    block_grows_to_high_water();
    reserve_keeps_contents();
    world_stops_allocating(1000, 1, 600, 120);
    world_stops_allocating(10000, 2, 300, 120);
    return tap_done();
}
