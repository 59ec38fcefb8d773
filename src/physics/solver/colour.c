/* The order the soft solver's sweeps take the contacts in, and its
 * batches: a Gauss-Seidel sweep's result depends on the order, and from
 * the floor up a sweep carries the floor's push up through a pile. The
 * contacts of a batch share no ball, so a batch is swept several contacts
 * at a time (contact_solver_wide.c) with the ordered sweep's result. */
#include <math.h>
#include <string.h>

#include "minmax.h"
#include "scratch.h"
#include "soft_internal.h"

/* Bins of the order from the floor up, in smallest radii. */
#define BP_SOFT_ORDER_BIN_OVER_R 0.05

/* Height above the floor of contact k's lower ball (a side's or wall's:
 * its ball's), px; g the gravity (not 0). */
static inline double contact_height(const bp_soft *soft, const bp_world *world, size_t k,
                                    double g)
{
    const soft_contact *c = &soft->contacts[k];
    double ya = world->y[c->a];
    double yb = c->b == world->count ? ya : world->y[c->b];
    return g > 0.0 ? world->params.height - bp_max(ya, yb) : bp_min(ya, yb);
}

/* A contact by its height, and its place in the list. */
typedef struct contact_at {
    double at;
    uint32_t k;
} contact_at;

/* Sorts items[0 .. n) by height, ties keeping their order (tmp: room for
 * n): insertion for a few, else a merge sort, stable both; inline, where
 * qsort, a call per comparison, took 4% of a 10k pit's step. */
static void sort_by_height(contact_at *items, contact_at *tmp, size_t n)
{
    if (n <= BP_SOFT_INSERTION_MAX) {
        for (size_t i = 1; i < n; i++) {
            contact_at item = items[i];
            size_t j = i;
            for (; j > 0 && items[j - 1].at > item.at; j--)
                items[j] = items[j - 1];
            items[j] = item;
        }
        return;
    }
    size_t half = n / 2;
    sort_by_height(items, tmp, half);
    sort_by_height(items + half, tmp, n - half);
    if (!(items[half].at < items[half - 1].at))
        return; /* already in order */
    memcpy(tmp, items, half * sizeof *items);
    size_t i = 0, j = half, k = 0;
    while (i < half && j < n)
        items[k++] = items[j].at < tmp[i].at ? items[j++] : tmp[i++];
    while (i < half)
        items[k++] = tmp[i++];
}

/* The contacts' indices in order from the floor up, by the height of
 * their lower ball, ties in the order they were listed: each sweep then
 * carries the floor's push up through a pile as it goes, where an order
 * that starts at the top needs a sweep for every layer. A settled pile's
 * balls keep a quarter of the speed (and fall asleep in about half the
 * time). A counting sort into thin bins, then each bin by height (a bin
 * holds a few contacts): about linear, where one qsort of them all made
 * the 10,000-ball pit a fifth slower. Without gravity, nothing is up: the
 * order listed. NULL when memory runs out. */
static uint32_t *order_from_floor(const bp_soft *soft, const bp_world *world)
{
    size_t n = soft->contact_count;
    double g = world->params.gravity, height = world->params.height;
    uint32_t *order = bp_scratch_alloc(world->scratch, n, sizeof(uint32_t));
    if (!order)
        return NULL;
    if (n < 2 || g == 0.0) {
        for (size_t k = 0; k < n; k++)
            order[k] = (uint32_t)k;
        return order;
    }
    double bin = BP_SOFT_ORDER_BIN_OVER_R * world->r_min, max_bins = 4.0 * (double)n + 4096.0;
    if (height / bin > max_bins)
        bin = height / max_bins;
    size_t bins = (size_t)ceil(height / bin) + 1;
    contact_at *by_bin = bp_scratch_alloc(world->scratch, n, sizeof(contact_at));
    contact_at *listed = bp_scratch_alloc(world->scratch, n, sizeof(contact_at));
    uint32_t *bin_of = bp_scratch_alloc(world->scratch, n, sizeof(uint32_t));
    uint32_t *start = bp_scratch_alloc(world->scratch, bins + 1, sizeof(uint32_t));
    if (!by_bin || !listed || !bin_of || !start)
        return NULL;
    memset(start, 0, (bins + 1) * sizeof(uint32_t));
    double last_bin = (double)(bins - 1);
    for (size_t k = 0; k < n; k++) {
        listed[k] = (contact_at){contact_height(soft, world, k, g), (uint32_t)k};
        double b = floor(listed[k].at / bin);
        bin_of[k] = (uint32_t)(b > 0.0 ? (b < last_bin ? b : last_bin) : 0.0);
        start[bin_of[k] + 1]++;
    }
    for (size_t b = 0; b < bins; b++)
        start[b + 1] += start[b];
    for (size_t k = 0; k < n; k++)
        by_bin[start[bin_of[k]]++] = listed[k];
    /* start[b] is now the end of bin b, whose contacts are in listed
     * order: sort each by height, ties staying in that order (listed is
     * free again). */
    for (size_t b = 0, lo = 0; b < bins; lo = start[b++])
        sort_by_height(by_bin + lo, listed, start[b] - lo);
    for (size_t i = 0; i < n; i++)
        order[i] = by_bin[i].k;
    return order;
}

/* Each contact's batch, taking them in order: one past the last batch
 * either of its balls is in (the sides' and walls' still body never
 * changes, so it binds nothing). A contact then comes after every contact
 * before it in order that shares a ball, and no two in a batch share one:
 * batch by batch, the sweep's result is the ordered sweep's, bit for bit.
 * Returns the number of batches; batch_of[k] for contact order[k]. */
static size_t number_batches(const bp_soft *soft, const bp_world *world, const uint32_t *order,
                             uint32_t *next_batch, uint32_t *batch_of)
{
    size_t n = soft->contact_count, batches = 0;
    for (size_t k = 0; k < n; k++) {
        next_batch[soft->contacts[k].a] = 0;
        next_batch[soft->contacts[k].b] = 0;
    }
    uint32_t still = (uint32_t)world->count;
    for (size_t i = 0; i < n; i++) {
        const soft_contact *c = &soft->contacts[order[i]];
        uint32_t batch = next_batch[c->a];
        if (c->b != still && next_batch[c->b] > batch)
            batch = next_batch[c->b];
        batch_of[i] = batch;
        next_batch[c->a] = next_batch[c->b] = batch + 1;
        batches = batch + 1 > batches ? batch + 1 : batches;
    }
    return batches;
}

/* The contacts in batches that share no ball, each batch in blocks of
 * BP_SOFT_LANES (the last block of a batch padded with BP_SOFT_NO_CONTACT),
 * batches in the order from the floor up: soft->slots, batch_first and
 * their counts, in the step's scratch. */
bool bp_soft_batch_contacts(bp_soft *soft, const bp_world *world)
{
    size_t n = soft->contact_count;
    uint32_t *order = order_from_floor(soft, world);
    uint32_t *next_batch = bp_scratch_alloc(world->scratch, world->count + 1, sizeof(uint32_t));
    uint32_t *batch_of = bp_scratch_alloc(world->scratch, n, sizeof(uint32_t));
    if (!order || !next_batch || !batch_of)
        return false;
    size_t batches = number_batches(soft, world, order, next_batch, batch_of);
    uint32_t *count = bp_scratch_alloc(world->scratch, batches + 1, sizeof(uint32_t));
    uint32_t *first = bp_scratch_alloc(world->scratch, batches + 1, sizeof(uint32_t));
    if (!count || !first)
        return false;
    memset(count, 0, (batches + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++)
        count[batch_of[i]]++;
    first[0] = 0;
    for (size_t b = 0; b < batches; b++)
        first[b + 1] = first[b] + (count[b] + BP_SOFT_LANES - 1) / BP_SOFT_LANES;
    size_t slots = (size_t)first[batches] * BP_SOFT_LANES;
    uint32_t *slot = bp_scratch_alloc(world->scratch, slots, sizeof(uint32_t));
    if (!slot)
        return false;
    for (size_t i = 0; i < slots; i++)
        slot[i] = BP_SOFT_NO_CONTACT;
    for (size_t b = 0; b < batches; b++)
        count[b] = first[b] * BP_SOFT_LANES; /* now: the batch's next free slot */
    for (size_t i = 0; i < n; i++)
        slot[count[batch_of[i]]++] = order[i];
    soft->slots = slot;
    soft->batch_first = first;
    soft->batch_count = batches;
    soft->block_count = first[batches];
    return true;
}
