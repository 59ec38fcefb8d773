/* The order the soft solver's sweeps take the contacts in, and its
 * batches: a Gauss-Seidel sweep's result depends on the order, and from
 * the floor up a sweep carries the floor's push up through a pile. The
 * contacts of a batch share no ball, so a batch is swept several contacts
 * at a time (contact_solver_wide.c) with the ordered sweep's result. A big
 * pile's contacts are first cut into columns, each in batches of its own,
 * so that threads can sweep columns that share no ball side by side. */
#include <math.h>
#include <string.h>

#include "minmax.h"
#include "scratch.h"
#include "soft_internal.h"
#include "world.h"

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

/* Each contact's batch, taking order[0 .. n) in turn: one past the last
 * batch either of its balls is in (the sides' and walls' still body never
 * changes, so it binds nothing). A contact then comes after every contact
 * before it in order that shares a ball, and no two in a batch share one:
 * batch by batch, the sweep's result is the ordered sweep's, bit for bit.
 * batch_of[i] for contact order[i]. */
static void number_batches(const bp_soft *soft, const bp_world *world, const uint32_t *order,
                           size_t n, uint32_t *next_batch, uint32_t *batch_of)
{
    for (size_t i = 0; i < n; i++) {
        next_batch[soft->contacts[order[i]].a] = 0;
        next_batch[soft->contacts[order[i]].b] = 0;
    }
    uint32_t still = (uint32_t)world->count;
    for (size_t i = 0; i < n; i++) {
        const soft_contact *c = &soft->contacts[order[i]];
        uint32_t batch = next_batch[c->a];
        if (c->b != still && next_batch[c->b] > batch)
            batch = next_batch[c->b];
        batch_of[i] = batch;
        next_batch[c->a] = next_batch[c->b] = batch + 1;
    }
}

/* Columns of a big pile, so that threads can share the sweeps: at least
 * this many smallest radii wide, and this many largest, and at most
 * BP_SOFT_MOST_COLUMNS of them; too few, and there are none. */
#define BP_SOFT_COLUMN_OVER_R_MIN 24.0
#define BP_SOFT_COLUMN_OVER_R_MAX 4.0
#define BP_SOFT_LEAST_COLUMNS 4
#define BP_SOFT_MOST_COLUMNS 8

/* How many columns of equal width the sweeps take a world's contacts in
 * (0: none): from the world alone, never from its threads, so that every
 * thread count sweeps in the same order. */
static size_t column_count(const bp_world *world)
{
    if (world->count < BP_WORLD_THREADS_MIN_BALLS)
        return 0;
    double width = fmax(BP_SOFT_COLUMN_OVER_R_MIN * world->r_min,
                        BP_SOFT_COLUMN_OVER_R_MAX * world->r_max);
    double columns = floor(world->params.width / width);
    if (!(columns >= BP_SOFT_LEAST_COLUMNS))
        return 0;
    return (size_t)fmin(columns, BP_SOFT_MOST_COLUMNS);
}

/* Each ball's column, of columns across the arena. */
static void find_columns(const bp_world *world, size_t columns, uint32_t *column)
{
    double per_px = (double)columns / world->params.width, last = (double)(columns - 1);
    for (size_t i = 0; i < world->count; i++) {
        double c = floor(world->x[i] * per_px);
        column[i] = (uint32_t)(c > 0.0 ? (c < last ? c : last) : 0.0);
    }
}

/* The group of contact k, its balls in columns: the left one's column,
 * the even columns first and then the odd, so that no two groups of one
 * kind share a ball (a contact reaches one column right at most); a
 * contact across more (between big balls) is in the last group,
 * columns. */
static uint32_t group_of(const bp_soft *soft, const bp_world *world, uint32_t k,
                         const uint32_t *column, size_t columns)
{
    const soft_contact *c = &soft->contacts[k];
    uint32_t ca = column[c->a], cb = c->b == world->count ? ca : column[c->b];
    uint32_t left = ca < cb ? ca : cb, right = ca < cb ? cb : ca;
    if (right - left > 1)
        return (uint32_t)columns;
    return (uint32_t)(left % 2 == 0 ? left / 2 : (columns + 1) / 2 + left / 2);
}

/* How many contacts of the next batch a block with lanes to spare looks
 * at for one to fill them. */
#define BP_SOFT_FILL_LOOK 16

/* Whether contact k shares a ball with any of the n contacts in lanes. */
static bool shares_ball(const bp_soft *soft, uint32_t k, const uint32_t *lanes, int n,
                        uint32_t still)
{
    const soft_contact *c = &soft->contacts[k];
    for (int l = 0; l < n; l++) {
        const soft_contact *d = &soft->contacts[lanes[l]];
        if (c->a == d->a || c->a == d->b || (c->b != still && (c->b == d->a || c->b == d->b)))
            return true;
    }
    return false;
}

/* One group's contacts laid out in blocks from block `blocks` on: seq[0 ..
 * n), sorted by batch (batch[i] for seq[i]), a new block for each batch.
 * A batch's last block with lanes to spare takes contacts of the next
 * batch that share no ball with it: they still follow every contact
 * before them that shares a ball, so the sweep's bits stay the same. The
 * rest of its lanes stay BP_SOFT_NO_CONTACT. taken: n flags, all 0.
 * Returns the blocks' count after the group's. */
static size_t lay_out_group(const bp_soft *soft, uint32_t still, const uint32_t *seq,
                            const uint32_t *batch, size_t n, uint8_t *taken, uint32_t *slot,
                            size_t blocks)
{
    uint32_t lanes[BP_SOFT_LANES];
    for (size_t j = 0, end; j < n; j = end) {
        for (end = j + 1; end < n && batch[end] == batch[j]; end++)
            ;
        int lane = BP_SOFT_LANES;
        for (size_t k = j; k < end; k++) {
            if (taken[k])
                continue;
            if (lane == BP_SOFT_LANES) {
                for (int l = 0; l < BP_SOFT_LANES; l++)
                    slot[blocks * BP_SOFT_LANES + (size_t)l] = BP_SOFT_NO_CONTACT;
                blocks++, lane = 0;
            }
            lanes[lane] = seq[k];
            slot[(blocks - 1) * BP_SOFT_LANES + (size_t)lane++] = seq[k];
        }
        if (end == n || batch[end] != batch[j] + 1)
            continue;
        for (size_t k = end; lane > 0 && lane < BP_SOFT_LANES && k < n &&
                             k < end + BP_SOFT_FILL_LOOK && batch[k] == batch[end];
             k++)
            if (!shares_ball(soft, seq[k], lanes, lane, still)) {
                taken[k] = 1;
                lanes[lane] = seq[k];
                slot[(blocks - 1) * BP_SOFT_LANES + (size_t)lane++] = seq[k];
            }
    }
    return blocks;
}

/* The room a layout of n contacts in groups needs: the scratch arrays of
 * bp_soft_batch_contacts. */
typedef struct batch_room {
    uint32_t *grouped, *group_start, *batch, *by_batch, *count, *next_batch, *slot;
    uint8_t *taken;
} batch_room;

static bool make_room(batch_room *room, const bp_world *world, size_t n, size_t groups)
{
    bp_scratch *s = world->scratch;
    room->grouped = bp_scratch_alloc(s, n + 1, sizeof(uint32_t));
    room->group_start = bp_scratch_alloc(s, groups + 2, sizeof(uint32_t));
    room->batch = bp_scratch_alloc(s, n + 1, sizeof(uint32_t));
    room->by_batch = bp_scratch_alloc(s, n + 1, sizeof(uint32_t));
    room->count = bp_scratch_alloc(s, n + 2, sizeof(uint32_t));
    room->next_batch = bp_scratch_alloc(s, world->count + 1, sizeof(uint32_t));
    /* At most a block per contact. */
    room->slot = bp_scratch_alloc(s, n * BP_SOFT_LANES + 1, sizeof(uint32_t));
    room->taken = bp_scratch_alloc(s, n + 1, sizeof(uint8_t));
    return room->grouped && room->group_start && room->batch && room->by_batch && room->count &&
           room->next_batch && room->slot && room->taken;
}

/* order[0 .. n) into room->grouped by group (ties in order), and each
 * group's start (group_start[groups]: n). */
static void sort_into_groups(const bp_soft *soft, const bp_world *world, const uint32_t *order,
                             size_t n, size_t columns, batch_room *room)
{
    size_t groups = columns + 1;
    uint32_t *start = room->group_start;
    if (columns == 0) {
        memcpy(room->grouped, order, n * sizeof(uint32_t));
        start[0] = 0;
        start[1] = (uint32_t)n;
        return;
    }
    uint32_t *column = room->next_batch; /* free until the batches are numbered */
    uint32_t *group = room->batch;       /* likewise */
    find_columns(world, columns, column);
    memset(start, 0, (groups + 2) * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) {
        group[i] = group_of(soft, world, order[i], column, columns);
        start[group[i] + 2]++;
    }
    for (size_t g = 0; g < groups; g++)
        start[g + 2] += start[g + 1];
    for (size_t i = 0; i < n; i++)
        room->grouped[start[group[i] + 1]++] = order[i];
}

/* The contacts in groups (columns of a big pile, else one), each group's
 * in batches that share no ball, in blocks of BP_SOFT_LANES, batches in
 * the order from the floor up: soft->slots, group_first and their counts,
 * in the step's scratch. */
bool bp_soft_batch_contacts(bp_soft *soft, const bp_world *world)
{
    size_t n = soft->contact_count;
    size_t columns = column_count(world), groups = columns + 1;
    const uint32_t *order = order_from_floor(soft, world);
    batch_room room;
    uint32_t *first = bp_scratch_alloc(world->scratch, groups + 1, sizeof(uint32_t));
    if (!order || !first || !make_room(&room, world, n, groups))
        return false;
    sort_into_groups(soft, world, order, n, columns, &room);
    memset(room.taken, 0, n + 1);
    uint32_t still = (uint32_t)world->count;
    size_t blocks = 0;
    for (size_t g = 0; g < groups; g++) {
        first[g] = (uint32_t)blocks;
        size_t lo = room.group_start[g], m = room.group_start[g + 1] - lo;
        if (m == 0)
            continue;
        /* The group's batches, and its contacts sorted by them. */
        const uint32_t *in = room.grouped + lo;
        uint32_t *batch = room.batch + lo, *by_batch = room.by_batch + lo;
        number_batches(soft, world, in, m, room.next_batch, batch);
        uint32_t batches = 0;
        for (size_t i = 0; i < m; i++)
            batches = batch[i] + 1 > batches ? batch[i] + 1 : batches;
        uint32_t *count = room.count;
        memset(count, 0, ((size_t)batches + 1) * sizeof(uint32_t));
        for (size_t i = 0; i < m; i++)
            count[batch[i] + 1]++;
        for (uint32_t b = 0; b < batches; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < m; i++)
            by_batch[count[batch[i]]++] = in[i];
        for (uint32_t b = 0, i = 0; b < batches; b++) /* now by_batch[i]'s batch */
            while (i < count[b])
                batch[i++] = b;
        blocks = lay_out_group(soft, still, by_batch, batch, m, room.taken + lo, room.slot, blocks);
    }
    first[groups] = (uint32_t)blocks;
    soft->slots = room.slot;
    soft->group_first = first;
    soft->shared[0] = columns > 0 ? (columns + 1) / 2 : 0;
    soft->shared[1] = columns;
    soft->block_count = blocks;
    return true;
}
