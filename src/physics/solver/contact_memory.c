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
#include "workers.h"

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

/* The recall on the step's threads: one piece per core, which wait for
 * each other between its stages. Each piece lists and sorts its part of
 * the contacts' keys and looks its part up in the memory; the result does
 * not depend on the number of pieces. */
enum { RADIX = 1u << BP_SOFT_RADIX_BITS };
typedef struct recall_job {
    bp_soft *soft;
    const bp_world *world;
    keyed_contact *items, *spare; /* the keys, and room to sort them into */
    uint32_t *count;              /* RADIX per piece: a pass's digits in the piece */
    double unit;
    int passes, pieces;
    bp_barrier all;
} recall_job;

static inline uint32_t digit(const keyed_contact *item, int pass)
{
    return (item->key.id_a >> (pass * BP_SOFT_RADIX_BITS)) & (RADIX - 1);
}

/* One pass of the radix sort by id_a over piece `piece` (its items [lo,
 * hi) of from): its digits counted, and once all are, its items put where
 * the stable order puts them in to. */
static void radix_pass(recall_job *job, int piece, int pass, const keyed_contact *from,
                       keyed_contact *to, size_t lo, size_t hi, size_t *waits)
{
    uint32_t *count = job->count + (size_t)piece * RADIX;
    memset(count, 0, RADIX * sizeof(uint32_t));
    for (size_t i = lo; i < hi; i++)
        count[digit(&from[i], pass)]++;
    bp_barrier_wait(&job->all, waits);
    /* at[d]: every item of a smaller digit, then those of digit d in the
     * pieces before this one. */
    uint32_t at[RADIX];
    uint32_t before = 0;
    for (size_t d = 0; d < RADIX; d++) {
        at[d] = before;
        for (int p = 0; p < piece; p++)
            at[d] += job->count[(size_t)p * RADIX + d];
        for (int p = 0; p < job->pieces; p++)
            before += job->count[(size_t)p * RADIX + d];
    }
    for (size_t i = lo; i < hi; i++)
        to[at[digit(&from[i], pass)]++] = from[i];
    bp_barrier_wait(&job->all, waits);
}

/* From i on, the first item that starts a run of one id_a (n: none). */
static size_t run_start(const keyed_contact *items, size_t n, size_t i)
{
    while (i > 0 && i < n && items[i].key.id_a == items[i - 1].key.id_a)
        i++;
    return i;
}

/* The runs of one id_a in items[lo, hi) (lo and hi start runs) sorted by
 * kind and code_b (a ball has a handful of contacts: insertion, or qsort
 * for a long run). */
static void sort_runs(keyed_contact *items, size_t lo, size_t hi)
{
    for (size_t end; lo < hi; lo = end) {
        for (end = lo + 1; end < hi && items[end].key.id_a == items[lo].key.id_a; end++)
            ;
        if (end - lo > BP_SOFT_INSERTION_MAX) {
            qsort(items + lo, end - lo, sizeof *items, keyed_order);
            continue;
        }
        for (size_t i = lo + 1; i < end; i++) {
            keyed_contact item = items[i];
            size_t j = i;
            for (; j > lo && key_compare(&items[j - 1].key, &item.key) > 0; j--)
                items[j] = items[j - 1];
            items[j] = item;
        }
    }
}

/* The first of the memory's n contacts whose key is not below key. */
static size_t first_not_below(const contact_memory *memory, size_t n, const contact_key *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_compare(&memory[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The contacts by_key[lo, hi) given the impulses the memory holds for
 * them, times unit, within today's friction and rolling resistance (the
 * window may have lowered them since: a warm start is a guess that a
 * sweep could only take back in part). */
static void recall_range(bp_soft *soft, const bp_world *world, const keyed_contact *by_key,
                         size_t lo, size_t hi, double unit)
{
    const contact_memory *memory = soft->memory;
    size_t count = soft->memory_count;
    const bp_params *p = &world->params;
    if (lo == hi)
        return;
    size_t m = first_not_below(memory, count, &by_key[lo].key);
    for (size_t i = lo; i < hi && m < count; i++) {
        while (m < count && key_compare(&memory[m].key, &by_key[i].key) < 0)
            m++;
        if (m == count || key_compare(&memory[m].key, &by_key[i].key) != 0)
            continue;
        soft_contact *c = &soft->contacts[by_key[i].k];
        double jn = memory[m].jn * unit, t_most = p->friction * jn;
        double r_most = p->rolling * jn * c->roll_r;
        c->jn = jn;
        c->jt = bp_min(bp_max(memory[m].jt * unit, -t_most), t_most);
        c->jr = bp_min(bp_max(memory[m].jr * unit, -r_most), r_most);
    }
}

static void recall_piece(void *context, int piece)
{
    recall_job *job = context;
    bp_soft *soft = job->soft;
    size_t n = soft->contact_count, waits = 0;
    size_t lo = bp_piece_start(n, piece, job->pieces);
    size_t hi = bp_piece_start(n, piece + 1, job->pieces);
    for (size_t k = lo; k < hi; k++)
        job->items[k] = (keyed_contact){soft->keys[k], (uint32_t)k};
    keyed_contact *from = job->items, *to = job->spare;
    for (int pass = 0; pass < job->passes; pass++) {
        radix_pass(job, piece, pass, from, to, lo, hi, &waits);
        keyed_contact *t = from;
        from = to;
        to = t;
    }
    /* The runs that start in the piece's part are its to sort: found
     * before any piece sorts, which moves items near the parts' ends. */
    size_t first = run_start(from, n, lo), end = run_start(from, n, hi);
    bp_barrier_wait(&job->all, &waits);
    sort_runs(from, first, end);
    bp_barrier_wait(&job->all, &waits);
    recall_range(soft, job->world, from, lo, hi, job->unit);
}

/* Gives every contact listed the impulses the last step left it with (the
 * memory, sorted by key), times unit (a piece's part of a step), and
 * returns the contacts sorted by key for bp_soft_remember (NULL when
 * memory runs out): one sort and one walk along the memory, where a binary
 * search of it for every contact missed the cache a dozen times. The sort
 * is by id_a in passes of BP_SOFT_RADIX_BITS bits (a ball has a handful of
 * contacts, so a run of one id_a is short), then each run by kind and
 * code_b: linear, and no allocation (qsort of a step's contacts was a
 * tenth of the step, a third of it in the kernel, mapping and unmapping
 * its buffer). On the step's threads, one piece per core. */
keyed_contact *bp_soft_recall_all(bp_soft *soft, const bp_world *world, double unit)
{
    size_t n = soft->contact_count;
    int cores = bp_workers_cores(soft->workers);
    recall_job job = {.soft = soft, .world = world, .unit = unit, .pieces = cores};
    job.items = bp_scratch_alloc(world->scratch, n + 1, sizeof(keyed_contact));
    job.spare = bp_scratch_alloc(world->scratch, n + 1, sizeof(keyed_contact));
    job.count = bp_scratch_alloc(world->scratch, (size_t)job.pieces * RADIX, sizeof(uint32_t));
    if (!job.items || !job.spare || !job.count)
        return NULL;
    for (uint32_t ids = world->next_id; job.passes == 0 || ids > 0; ids >>= BP_SOFT_RADIX_BITS)
        job.passes++;
    bp_barrier_init(&job.all, job.pieces);
    bp_workers_run(job.pieces > 1 ? soft->workers : NULL, recall_piece, &job, job.pieces);
    return job.passes % 2 == 0 ? job.items : job.spare;
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
