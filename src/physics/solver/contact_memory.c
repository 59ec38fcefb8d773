/* The soft solver's contact memory: the impulses each contact ended a
 * step with, kept sorted by the contact's key (what it joins), through
 * sleep too. Each step's contacts start from them (warm start), and the
 * public contact functions read and write them (kept.h). */
#include "solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "minmax.h"
#include "scratch.h"
#include "soft_internal.h"
#include "walls.h"

/* Bits of id_a a pass of the radix sort takes. */
#define BP_SOFT_RADIX_BITS 11

static int key_compare(const contact_key *x, const contact_key *y)
{
    if (x->id_a != y->id_a)
        return x->id_a < y->id_a ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->code_b < y->code_b ? -1 : x->code_b > y->code_b;
}

static int keyed_order(const void *x, const void *y)
{
    return key_compare(&((const keyed_contact *)x)->key, &((const keyed_contact *)y)->key);
}

/* Sorts items[0 .. n) by key (spare: room for n): by id_a in passes of
 * BP_SOFT_RADIX_BITS bits (a ball has a handful of contacts, so a run of
 * one id_a is short), then each run by kind and code_b. Linear, and no
 * allocation: qsort of a step's contacts was a tenth of the step, a third
 * of it in the kernel, mapping and unmapping its buffer. */
static void sort_by_key(keyed_contact *items, keyed_contact *spare, size_t n, uint32_t ids)
{
    enum { RADIX = 1u << BP_SOFT_RADIX_BITS };
    uint32_t count[RADIX + 1];
    for (unsigned shift = 0; shift < 32 && (shift == 0 || (ids >> shift) > 0);
         shift += BP_SOFT_RADIX_BITS) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[((items[i].key.id_a >> shift) & (RADIX - 1)) + 1]++;
        for (size_t d = 0; d < RADIX; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            spare[count[(items[i].key.id_a >> shift) & (RADIX - 1)]++] = items[i];
        memcpy(items, spare, n * sizeof *items);
    }
    for (size_t lo = 0, hi; lo < n; lo = hi) {
        for (hi = lo + 1; hi < n && items[hi].key.id_a == items[lo].key.id_a; hi++)
            ;
        if (hi - lo > BP_SOFT_INSERTION_MAX) {
            qsort(items + lo, hi - lo, sizeof *items, keyed_order);
            continue;
        }
        for (size_t i = lo + 1; i < hi; i++) {
            keyed_contact item = items[i];
            size_t j = i;
            for (; j > lo && key_compare(&items[j - 1].key, &item.key) > 0; j--)
                items[j] = items[j - 1];
            items[j] = item;
        }
    }
}

/* Gives every contact listed the impulses the last step left it with (the
 * memory, sorted by key), times unit (a piece's part of a step), and
 * returns the contacts sorted by key for bp_soft_remember (NULL when
 * memory runs out): one sort and one walk along the memory, where a binary
 * search of it for every contact missed the cache a dozen times. */
keyed_contact *bp_soft_recall_all(bp_soft *soft, const bp_world *world, double unit)
{
    size_t n = soft->contact_count;
    keyed_contact *by_key = bp_scratch_alloc(world->scratch, n + 1, sizeof(keyed_contact));
    keyed_contact *spare = bp_scratch_alloc(world->scratch, n + 1, sizeof(keyed_contact));
    if (!by_key || !spare)
        return NULL;
    for (size_t k = 0; k < n; k++)
        by_key[k] = (keyed_contact){soft->keys[k], (uint32_t)k};
    sort_by_key(by_key, spare, n, world->next_id);
    const contact_memory *memory = soft->memory;
    const bp_params *p = &world->params;
    for (size_t i = 0, m = 0; i < n && m < soft->memory_count; i++) {
        while (m < soft->memory_count && key_compare(&memory[m].key, &by_key[i].key) < 0)
            m++;
        if (m < soft->memory_count && key_compare(&memory[m].key, &by_key[i].key) == 0) {
            soft_contact *c = &soft->contacts[by_key[i].k];
            /* Within today's friction and rolling resistance, which the
             * window may have lowered since (a warm start is a guess that
             * a sweep could only take back in part). */
            double jn = memory[m].jn * unit, t_most = p->friction * jn;
            double r_most = p->rolling * jn * c->roll_r;
            c->jn = jn;
            c->jt = bp_min(bp_max(memory[m].jt * unit, -t_most), t_most);
            c->jr = bp_min(bp_max(memory[m].jr * unit, -r_most), r_most);
        }
    }
    return by_key;
}

/* Whether a remembered contact joins balls (or a ball and a static) that
 * all still exist and sleep. */
static bool between_sleepers(const bp_world *world, const contact_memory *m)
{
    int64_t ia = bp_world_index_of(world, m->key.id_a);
    int64_t ib = m->key.kind == KIND_BALL ? bp_world_index_of(world, m->key.code_b) : ia;
    return ia >= 0 && ib >= 0 && (world->flags[ia] & world->flags[ib] & BP_BALL_ASLEEP);
}

/* Keeps the impulses of this step's contacts (by_key: them in key order,
 * from bp_soft_recall_all; a piece's times pieces, a whole step's, within
 * the friction and rolling resistance of the normal impulse, as a recall
 * would take them: restitution may have lowered the normal impulse after
 * the sweeps, and a scene file holds nothing a ball could not carry), and
 * those of contacts between sleepers (which no pair lists while they
 * sleep): a pile woken starts from the impulses it fell asleep with. Both
 * are sorted already, and merged (sorting a settled pile's whole memory
 * every step was a fifth of its cost). No contact of this step joins two
 * sleepers (pairs of two are not listed), so the two have no key in
 * common. */
bool bp_soft_remember(bp_soft *soft, const bp_world *world, const keyed_contact *by_key,
                      int pieces)
{
    contact_memory *fresh =
        bp_scratch_alloc(world->scratch, soft->contact_count + 1, sizeof(contact_memory));
    if (!fresh)
        return false;
    size_t fresh_count = 0;
    const bp_params *p = &world->params;
    for (size_t i = 0; i < soft->contact_count; i++) {
        const soft_contact *c = &soft->contacts[by_key[i].k];
        double t_most = p->friction * c->jn, r_most = p->rolling * c->jn * c->roll_r;
        double jt = bp_min(bp_max(c->jt, -t_most), t_most);
        double jr = bp_min(bp_max(c->jr, -r_most), r_most);
        if (c->jn > 0.0 || jt != 0.0)
            fresh[fresh_count++] =
                (contact_memory){by_key[i].key, c->jn * pieces, jt * pieces, jr * pieces};
    }
    if (!bp_reserve((void **)&soft->spare, &soft->spare_capacity,
                    soft->memory_count + fresh_count + 1, sizeof(contact_memory)))
        return false;
    size_t n = 0, j = 0;
    for (size_t k = 0; k < soft->memory_count; k++) {
        const contact_memory *m = &soft->memory[k];
        if (!between_sleepers(world, m))
            continue;
        while (j < fresh_count && key_compare(&fresh[j].key, &m->key) < 0)
            soft->spare[n++] = fresh[j++];
        soft->spare[n++] = *m;
    }
    while (j < fresh_count)
        soft->spare[n++] = fresh[j++];
    contact_memory *t = soft->memory;
    soft->memory = soft->spare;
    soft->spare = t;
    size_t cap = soft->memory_capacity;
    soft->memory_capacity = soft->spare_capacity;
    soft->spare_capacity = cap;
    soft->memory_count = n;
    return true;
}

/* Sorts memory[0 .. n) by key, stably (a key given twice keeps its
 * order), with spare (room for n) to merge into. */
static void merge_sort_memory(contact_memory *memory, contact_memory *spare, size_t n)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                spare[o++] = key_compare(&memory[j].key, &memory[i].key) < 0 ? memory[j++]
                                                                              : memory[i++];
            while (i < mid)
                spare[o++] = memory[i++];
            while (j < hi)
                spare[o++] = memory[j++];
        }
        for (size_t k = 0; k < n; k++)
            memory[k] = spare[k];
    }
}

size_t bp_soft_kept_count(const bp_world *world)
{
    return world->soft ? world->soft->memory_count : 0;
}

bp_kept_contact bp_soft_kept(const bp_world *world, size_t k)
{
    const contact_memory *m = &world->soft->memory[k];
    return (bp_kept_contact){m->key.id_a, m->key.kind, m->key.code_b, m->jn, m->jt, m->jr};
}

static bool keepable(const bp_kept_contact *c)
{
    bool finite = isfinite(c->jn) && isfinite(c->jt) && isfinite(c->jr);
    bool joins = (c->kind == KIND_BALL && c->id_a < c->code_b) ||
                 (c->kind == KIND_SIDE && c->code_b < BP_SIDES) || c->kind == KIND_WALL;
    return finite && c->jn >= 0.0 && joins;
}

bool bp_soft_keep(bp_world *world, const bp_kept_contact *contacts, size_t count)
{
    for (size_t k = 0; k < count; k++)
        if (!keepable(&contacts[k]))
            return false;
    bp_soft *soft = bp_soft_of(world);
    if (!soft)
        return false;
    size_t total = soft->memory_count + count;
    if (!bp_reserve((void **)&soft->memory, &soft->memory_capacity, total + 1,
                    sizeof(contact_memory)) ||
        !bp_reserve((void **)&soft->spare, &soft->spare_capacity, total + 1,
                    sizeof(contact_memory)))
        return false;
    /* The new ones after the old, sorted stably, and of a key given twice
     * the last kept: the memory stays sorted with every key once. */
    size_t n = soft->memory_count;
    for (size_t k = 0; k < count; k++) {
        const bp_kept_contact *c = &contacts[k];
        soft->memory[n++] = (contact_memory){{c->id_a, c->kind, c->code_b}, c->jn, c->jt, c->jr};
    }
    merge_sort_memory(soft->memory, soft->spare, n);
    size_t kept = 0;
    for (size_t k = 0; k < n; k++) {
        if (k + 1 < n && key_compare(&soft->memory[k].key, &soft->memory[k + 1].key) == 0)
            continue;
        soft->memory[kept++] = soft->memory[k];
    }
    soft->memory_count = kept;
    /* The next step keeps the memory anew (see bp_soft_step, solver.c). */
    soft->kept_count = SIZE_MAX;
    return true;
}
