#include "history.h"

#include <math.h>
#include <stdlib.h>

#include "program.h"

void bp_history_init(bp_history *h, double seconds, double hz, size_t max_bytes)
{
    double every = floor(hz / BP_HISTORY_PER_SECOND);
    *h = (bp_history){
        .every = every >= 1.0 ? (uint64_t)every : 1,
        .keep_steps = (uint64_t)ceil(seconds * hz),
        .max_bytes = max_bytes,
    };
}

void bp_history_free(bp_history *h)
{
    for (size_t k = 0; k < h->capacity; k++)
        bp_world_state_free(&h->ring[k].world);
    free(h->ring);
    free(h->log);
    *h = (bp_history){0};
}

static bp_snapshot *slot(const bp_history *h, size_t k)
{
    return &h->ring[(h->start + k) % h->capacity];
}

/* Drops the oldest snapshot. Its buffer goes to the slot filled next (or
 * is freed if that one has its own), so that the buffers held stay those
 * of the snapshots kept, plus at most one. */
static void drop_oldest(bp_history *h)
{
    bp_snapshot *old = slot(h, 0);
    h->bytes -= old->world.size;
    h->start = (h->start + 1) % h->capacity;
    h->count--;
    h->ready = 0;
    bp_snapshot *next = slot(h, h->count);
    if (next == old)
        return;
    if (next->world.bytes) {
        bp_world_state_free(&old->world);
    } else {
        next->world = old->world;
        old->world = (bp_world_state){0};
    }
}

/* Drops inputs older than the oldest snapshot: nothing replays them. */
static void trim_log(bp_history *h)
{
    uint64_t oldest = bp_history_oldest(h);
    size_t k = 0;
    while (k < h->log_count && h->log[k].step < oldest)
        k++;
    if (k == 0)
        return;
    for (size_t j = k; j < h->log_count; j++)
        h->log[j - k] = h->log[j];
    h->log_count -= k;
}

static bool grow_ring(bp_history *h)
{
    size_t capacity = h->capacity ? h->capacity * 2 : 16;
    bp_snapshot *ring = calloc(capacity, sizeof *ring);
    if (!ring)
        return false;
    /* Unrolled oldest first; the spare buffers past count move along. */
    for (size_t k = 0; k < h->capacity; k++)
        ring[k] = *slot(h, k);
    free(h->ring);
    h->ring = ring;
    h->start = 0;
    h->capacity = capacity;
    h->ready = 0;
    return true;
}

/* Whether a snapshot at tick puts the oldest out of reach: the second
 * oldest already covers the window. */
static bool oldest_unneeded_at(const bp_history *h, uint64_t tick)
{
    return h->count > 1 && tick - slot(h, 1)->tick >= h->keep_steps;
}

bool bp_history_take(bp_history *h, uint64_t tick, const bp_world *world,
                     const bp_history_session *session)
{
    if (h->count > 0 && (tick % h->every != 0 || slot(h, h->count - 1)->tick >= tick))
        return true;
    while (oldest_unneeded_at(h, tick))
        drop_oldest(h);
    /* Room for it within the byte budget (one snapshot is always kept). */
    size_t size = bp_world_state_size(world);
    while (h->count > 0 && h->bytes + size > h->max_bytes)
        drop_oldest(h);
    if (h->count == h->capacity && !grow_ring(h))
        return false;
    bp_snapshot *s = slot(h, h->count);
    if (!bp_world_save(world, &s->world))
        return false;
    s->tick = tick;
    s->session = *session;
    h->count++;
    h->ready = 0;
    h->bytes += s->world.size;
    trim_log(h);
    return true;
}

/* Bytes between two writes that touch every page (a page or less). */
#define BP_HISTORY_PAGE 4096

void bp_history_prepare(bp_history *h, const bp_world *world, size_t budget)
{
    size_t size = bp_world_state_size(world);
    /* A full window, or a full budget: the next snapshot takes the
     * oldest's buffer, already written. */
    if (h->count == 0 || oldest_unneeded_at(h, slot(h, h->count - 1)->tick + h->every) ||
        h->bytes + size > h->max_bytes)
        return;
    if (h->count == h->capacity && !grow_ring(h))
        return;
    bp_world_state *next = &slot(h, h->count)->world;
    if (next->capacity < size) {
        unsigned char *grown = realloc(next->bytes, size);
        if (!grown)
            return;
        next->bytes = grown;
        next->capacity = size;
        h->ready = 0;
    }
    if (h->ready > next->capacity)
        h->ready = 0;
    size_t end = next->capacity - h->ready > budget ? h->ready + budget : next->capacity;
    volatile unsigned char *bytes = next->bytes;
    for (size_t k = h->ready; k < end; k += BP_HISTORY_PAGE)
        bytes[k] = 0;
    h->ready = end;
}

bool bp_history_log(bp_history *h, const bp_input *in)
{
    if (!bp_reserve((void **)&h->log, &h->log_capacity, h->log_count + 1, sizeof *h->log))
        return false;
    h->log[h->log_count++] = *in;
    return true;
}

uint64_t bp_history_oldest(const bp_history *h)
{
    return h->count ? slot(h, 0)->tick : UINT64_MAX;
}

const bp_snapshot *bp_history_at(const bp_history *h, uint64_t tick)
{
    for (size_t k = h->count; k-- > 0;)
        if (slot(h, k)->tick <= tick)
            return slot(h, k);
    return NULL;
}

void bp_history_cut(bp_history *h, uint64_t tick)
{
    while (h->count > 0 && slot(h, h->count - 1)->tick > tick) {
        h->count--;
        h->bytes -= slot(h, h->count)->world.size;
        h->ready = 0;
    }
    while (h->log_count > 0 && h->log[h->log_count - 1].step >= tick)
        h->log_count--;
}
