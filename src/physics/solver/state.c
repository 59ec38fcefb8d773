/* The soft solver's state as a whole: made on first use, its per-ball
 * arrays sized for the step, freed; and the part of it a snapshot of the
 * world keeps (the impulses kept by contact). */
#include "solver.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "soft_internal.h"

/* The world's solver state, made (empty) the first time it is needed;
 * NULL when memory runs out. */
bp_soft *bp_soft_of(bp_world *world)
{
    if (!world->soft)
        world->soft = calloc(1, sizeof(bp_soft));
    return world->soft;
}

/* Room for n bodies, each on a cache line of its own (a body is 64
 * bytes): threads that sweep different bodies then never write one line
 * (realloc aligns to 16 bytes, and two threads' bodies shared lines). */
static bool reserve_bodies(bp_soft *soft, size_t n)
{
    if (n <= soft->body_capacity)
        return true;
    size_t grown;
    if (!bp_grown_capacity(soft->body_capacity, n, sizeof(soft_body), &grown))
        return false;
    soft_body *bodies = aligned_alloc(BP_SOFT_BODY_ALIGN, grown * sizeof(soft_body));
    if (!bodies)
        return false;
    if (soft->body_capacity > 0)
        memcpy(bodies, soft->bodies, soft->body_capacity * sizeof(soft_body));
    free(soft->bodies);
    soft->bodies = bodies;
    soft->body_capacity = grown;
    return true;
}

/* Room for the step's per-ball arrays; false when memory runs out. */
bool bp_soft_reserve_balls(bp_soft *soft, const bp_world *world)
{
    size_t n = world->count + 1, c1 = soft->ball_capacity, c2 = c1, c4 = c1, c5 = c1;
    if (!bp_reserve((void **)&soft->parent, &c1, n, sizeof(uint32_t)) ||
        !bp_reserve((void **)&soft->blocked, &c2, n, sizeof(uint8_t)) ||
        !bp_reserve((void **)&soft->swept, &c4, n, sizeof(uint8_t)) ||
        !bp_reserve((void **)&soft->near_ball, &c5, n, sizeof(uint8_t)))
        return false;
    size_t least = c1 < c2 ? c1 : c2;
    least = least < c4 ? least : c4;
    soft->ball_capacity = least < c5 ? least : c5;
    if (!reserve_bodies(soft, n))
        return false;
    /* Zeroed: a ball woken within the step without a contact reads its
     * place (and never uses it). */
    size_t places = soft->listed_capacity;
    if (!bp_reserve((void **)&soft->listed_at, &soft->listed_capacity, n, sizeof(soft_place)))
        return false;
    memset(soft->listed_at + places, 0, (soft->listed_capacity - places) * sizeof(soft_place));
    return true;
}

void bp_soft_destroy(bp_soft *soft)
{
    if (!soft)
        return;
    bp_broadphase_free(&soft->broadphase);
    free(soft->contacts);
    free(soft->keys);
    free(soft->bodies);
    free(soft->listed_at);
    free(soft->memory);
    free(soft->spare);
    free(soft->parent);
    free(soft->blocked);
    free(soft->swept);
    free(soft->near_ball);
    free(soft);
}

/* A state's part: the memory's length, then each kept contact (its key's
 * three numbers and its three impulses, field by field: no padding bytes
 * go out). */
#define BP_SOFT_STATE_HEAD sizeof(uint64_t)

/* The fields of a kept contact as a state holds them, in order: one table
 * for writing and reading alike. */
static const struct {
    size_t at, size;
} entry_layout[] = {
    {offsetof(contact_memory, key.id_a), sizeof(uint32_t)},
    {offsetof(contact_memory, key.kind), sizeof(uint32_t)},
    {offsetof(contact_memory, key.code_b), sizeof(uint32_t)},
    {offsetof(contact_memory, jn), sizeof(double)},
    {offsetof(contact_memory, jt), sizeof(double)},
    {offsetof(contact_memory, jr), sizeof(double)},
};
#define BP_SOFT_ENTRY_FIELDS (sizeof entry_layout / sizeof entry_layout[0])

/* Bytes of one kept contact in a state. */
static size_t entry_bytes(void)
{
    size_t n = 0;
    for (size_t f = 0; f < BP_SOFT_ENTRY_FIELDS; f++)
        n += entry_layout[f].size;
    return n;
}

size_t bp_soft_state_size(const bp_world *world)
{
    const bp_soft *soft = world->soft;
    if (!soft)
        return 0;
    return BP_SOFT_STATE_HEAD + soft->memory_count * entry_bytes();
}

static unsigned char *put(unsigned char *out, const void *value, size_t size)
{
    memcpy(out, value, size);
    return out + size;
}

static const unsigned char *get(const unsigned char *in, void *value, size_t size)
{
    memcpy(value, in, size);
    return in + size;
}

void bp_soft_state_write(const bp_world *world, unsigned char *out)
{
    const bp_soft *soft = world->soft;
    if (!soft)
        return;
    uint64_t count = soft->memory_count;
    out = put(out, &count, sizeof count);
    for (size_t k = 0; k < soft->memory_count; k++)
        for (size_t f = 0; f < BP_SOFT_ENTRY_FIELDS; f++)
            out = put(out, (const unsigned char *)&soft->memory[k] + entry_layout[f].at,
                      entry_layout[f].size);
}

bool bp_soft_state_reserve(bp_world *world, const unsigned char *in, size_t size)
{
    if (size < BP_SOFT_STATE_HEAD)
        return true;
    bp_soft *soft = bp_soft_of(world);
    if (!soft)
        return false;
    uint64_t count;
    get(in, &count, sizeof count);
    return bp_reserve((void **)&soft->memory, &soft->memory_capacity, (size_t)count + 1,
                      sizeof(contact_memory));
}

void bp_soft_state_read(bp_world *world, const unsigned char *in, size_t size)
{
    bp_soft *soft = world->soft;
    if (!soft)
        return;
    /* Whatever the memory held, the next step keeps it anew. */
    soft->kept_count = SIZE_MAX;
    if (size < BP_SOFT_STATE_HEAD) {
        soft->memory_count = 0;
        return;
    }
    uint64_t count;
    in = get(in, &count, sizeof count);
    soft->memory_count = (size_t)count;
    for (size_t k = 0; k < soft->memory_count; k++)
        for (size_t f = 0; f < BP_SOFT_ENTRY_FIELDS; f++)
            in = get(in, (unsigned char *)&soft->memory[k] + entry_layout[f].at,
                     entry_layout[f].size);
}
