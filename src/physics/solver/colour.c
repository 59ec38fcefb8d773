/* The order the soft solver's sweeps take the contacts in: a Gauss-Seidel
 * sweep's result depends on it, and from the floor up a sweep carries the
 * floor's push up through a pile. Batches of contacts that share no ball,
 * for threads to sweep side by side, belong here too; today there is one
 * ordered list. */
#include <math.h>
#include <stdlib.h>
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
    double ya = soft->bodies[c->a].y;
    double yb = c->b == world->count ? ya : soft->bodies[c->b].y;
    return g > 0.0 ? world->params.height - bp_max(ya, yb) : bp_min(ya, yb);
}

/* A contact by its height, and its place in the list. */
typedef struct contact_at {
    double at;
    uint32_t k;
} contact_at;

static int by_height(const void *x, const void *y)
{
    const contact_at *a = x, *b = y;
    if (a->at != b->at)
        return a->at < b->at ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

/* Puts the contacts in order from the floor up, by the height of their
 * lower ball, ties in the order they were listed: each sweep then carries
 * the floor's push up through a pile as it goes, where an order that
 * starts at the top needs a sweep for every layer. A settled pile's balls
 * keep a quarter of the speed (and fall asleep in about half the time).
 * A counting sort into thin bins, then each bin by height (a bin holds a
 * few contacts): about linear, where one qsort of them all made the
 * 10,000-ball pit a fifth slower. Without gravity, nothing is up: no
 * order. */
bool bp_soft_order_from_floor(bp_soft *soft, const bp_world *world)
{
    size_t n = soft->contact_count;
    double g = world->params.gravity, height = world->params.height;
    if (n < 2 || g == 0.0)
        return true;
    double bin = BP_SOFT_ORDER_BIN_OVER_R * world->r_min, max_bins = 4.0 * (double)n + 4096.0;
    if (height / bin > max_bins)
        bin = height / max_bins;
    size_t bins = (size_t)ceil(height / bin) + 1;
    contact_at *by_bin = bp_scratch_alloc(world->scratch, n, sizeof(contact_at));
    contact_at *listed = bp_scratch_alloc(world->scratch, n, sizeof(contact_at));
    uint32_t *bin_of = bp_scratch_alloc(world->scratch, n, sizeof(uint32_t));
    uint32_t *start = bp_scratch_alloc(world->scratch, bins + 1, sizeof(uint32_t));
    soft_contact *contacts = bp_scratch_alloc(world->scratch, n, sizeof(soft_contact));
    contact_key *keys = bp_scratch_alloc(world->scratch, n, sizeof(contact_key));
    if (!by_bin || !listed || !bin_of || !start || !contacts || !keys)
        return false;
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
     * order: sort each by height, ties staying in that order. */
    for (size_t b = 0, lo = 0; b < bins; lo = start[b++]) {
        size_t count = start[b] - lo;
        if (count > BP_SOFT_INSERTION_MAX) {
            qsort(by_bin + lo, count, sizeof(contact_at), by_height);
            continue;
        }
        for (size_t i = lo + 1; i < start[b]; i++) {
            contact_at item = by_bin[i];
            size_t j = i;
            for (; j > lo && by_bin[j - 1].at > item.at; j--)
                by_bin[j] = by_bin[j - 1];
            by_bin[j] = item;
        }
    }
    for (size_t i = 0; i < n; i++) {
        contacts[i] = soft->contacts[by_bin[i].k];
        keys[i] = soft->keys[by_bin[i].k];
    }
    memcpy(soft->contacts, contacts, n * sizeof(soft_contact));
    memcpy(soft->keys, keys, n * sizeof(contact_key));
    return true;
}
