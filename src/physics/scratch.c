#include "scratch.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* Under AddressSanitizer the block's bytes not handed out are poisoned, so
 * that a pointer kept past a reset or a release is caught when used. */
#if defined(__SANITIZE_ADDRESS__)
#define BP_SCRATCH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BP_SCRATCH_ASAN 1
#endif
#endif
#ifdef BP_SCRATCH_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* An allocation the block had no room for; its bytes follow the header,
 * which takes one alignment unit so that they stay aligned. */
struct bp_scratch_overflow {
    bp_scratch_overflow *next;
};
#define BP_SCRATCH_HEADER BP_SCRATCH_ALIGN

/* The block grows by at least this part of the high-water mark over it,
 * so that a world growing a little each step does not regrow each step,
 * nor a landing pile, whose contacts grow in bursts, every burst. */
#define BP_SCRATCH_HEADROOM 4
/* Block sizes are whole multiples of this. */
#define BP_SCRATCH_GRAIN 4096

/* n rounded up to a multiple of unit (a power of two); 0 on overflow. */
static size_t round_up(size_t n, size_t unit)
{
    return n > SIZE_MAX - (unit - 1) ? 0 : (n + unit - 1) & ~(unit - 1);
}

bp_scratch *bp_scratch_create(void)
{
    return calloc(1, sizeof(bp_scratch));
}

static void free_overflow_until(bp_scratch *s, const bp_scratch_overflow *keep)
{
    while (s->overflow != keep) {
        bp_scratch_overflow *o = s->overflow;
        s->overflow = o->next;
        free(o);
    }
}

void bp_scratch_destroy(bp_scratch *s)
{
    if (!s)
        return;
    free_overflow_until(s, NULL);
    UNPOISON(s->block, s->size);
    free(s->block);
    free(s);
}

void bp_scratch_reset(bp_scratch *s)
{
    free_overflow_until(s, NULL);
    if (s->high > s->size) {
        /* The mark and a part more, or the mark alone where that overflows. */
        size_t want = s->high + s->high / BP_SCRATCH_HEADROOM;
        want = round_up(want < s->high ? s->high : want, BP_SCRATCH_GRAIN);
        unsigned char *grown = want ? aligned_alloc(BP_SCRATCH_ALIGN, want) : NULL;
        if (grown) {
            UNPOISON(s->block, s->size);
            free(s->block);
            s->block = grown;
            s->size = want;
            s->stats.system_allocs++;
            s->stats.grows++;
        }
    }
    POISON(s->block, s->size);
    s->used = s->need = s->high = 0;
}

void *bp_scratch_alloc(bp_scratch *s, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    /* At least one unit, so that every pointer handed out is distinct. */
    size_t asked = count * size;
    size_t bytes = round_up(asked != 0 ? asked : 1, BP_SCRATCH_ALIGN);
    if (bytes == 0 || bytes > SIZE_MAX - s->need)
        return NULL;
    s->need += bytes;
    s->high = s->need > s->high ? s->need : s->high;
    if (bytes <= s->size - s->used) {
        unsigned char *p = s->block + s->used;
        s->used += bytes;
        UNPOISON(p, bytes);
        return p;
    }
    if (bytes > SIZE_MAX - BP_SCRATCH_HEADER)
        return NULL;
    bp_scratch_overflow *o = aligned_alloc(BP_SCRATCH_ALIGN, BP_SCRATCH_HEADER + bytes);
    if (!o)
        return NULL;
    o->next = s->overflow;
    s->overflow = o;
    s->stats.system_allocs++;
    s->stats.overflows++;
    return (unsigned char *)o + BP_SCRATCH_HEADER;
}

bool bp_scratch_grow(bp_scratch *s, void **array, size_t *capacity, size_t count,
                     size_t wanted, size_t size)
{
    if (wanted <= *capacity)
        return true;
    size_t grown;
    if (!bp_grown_capacity(*capacity, wanted, size, &grown))
        return false;
    size_t had = round_up(*capacity * size, BP_SCRATCH_ALIGN);
    size_t bytes = round_up(grown * size, BP_SCRATCH_ALIGN);
    unsigned char *p = *array;
    /* The block's last allocation grows where it is. */
    if (p && *capacity && bytes && s->block && p + had == s->block + s->used &&
        bytes - had <= s->size - s->used && bytes - had <= SIZE_MAX - s->need) {
        UNPOISON(s->block + s->used, bytes - had);
        s->used += bytes - had;
        s->need += bytes - had;
        s->high = s->need > s->high ? s->need : s->high;
        *capacity = grown;
        return true;
    }
    void *q = bp_scratch_alloc(s, grown, size);
    if (!q)
        return false;
    if (count)
        memcpy(q, *array, count * size);
    *array = q;
    *capacity = grown;
    return true;
}

void bp_scratch_release(bp_scratch *s, bp_scratch_mark mark)
{
    free_overflow_until(s, mark.overflow);
    if (s->block)
        POISON(s->block + mark.used, s->used - mark.used);
    s->used = mark.used;
    s->need = mark.need;
}

bp_scratch_stats bp_scratch_stats_of(const bp_scratch *s)
{
    bp_scratch_stats st = s->stats;
    st.block_size = s->size;
    st.high_water = s->high;
    return st;
}
