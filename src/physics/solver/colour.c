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
#include "workers.h"
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

/* Room to put n contacts in order from the floor up: a height and a bin
 * per contact, and bins + 1 counts (floor_bins). */
typedef struct floor_room {
    contact_at *by_bin, *listed;
    uint32_t *bin_of, *start;
} floor_room;

/* The bin height (px) and bin count to order n contacts from the floor up
 * with: BP_SOFT_ORDER_BIN_OVER_R smallest radii, or wider, so that there
 * are no more than about 4 n bins. */
static size_t floor_bins(const bp_world *world, size_t n, double *bin)
{
    double height = world->params.height, max_bins = 4.0 * (double)n + 4096.0;
    *bin = BP_SOFT_ORDER_BIN_OVER_R * world->r_min;
    if (height / *bin > max_bins)
        *bin = height / max_bins;
    return (size_t)ceil(height / *bin) + 1;
}

/* The contacts seq[0 .. n) put in order from the floor up, by the height
 * of their lower ball, ties in the order given: each sweep then carries
 * the floor's push up through a pile as it goes, where an order that
 * starts at the top needs a sweep for every layer. A settled pile's balls
 * keep a quarter of the speed (and fall asleep in about half the time). A
 * counting sort into thin bins, then each bin by height (a bin holds a few
 * contacts): about linear, where one qsort of them all made the
 * 10,000-ball pit a fifth slower. The result is the stable sort by height
 * whatever the bins, so a group of contacts taken apart is in the order it
 * has among all of them. Without gravity, nothing is up: the order given. */
static void order_from_floor(const bp_soft *soft, const bp_world *world, uint32_t *seq, size_t n,
                             const floor_room *room)
{
    double g = world->params.gravity, bin;
    if (n < 2 || g == 0.0)
        return;
    size_t bins = floor_bins(world, n, &bin);
    contact_at *by_bin = room->by_bin, *listed = room->listed;
    uint32_t *bin_of = room->bin_of, *start = room->start;
    memset(start, 0, (bins + 1) * sizeof(uint32_t));
    double last_bin = (double)(bins - 1);
    for (size_t k = 0; k < n; k++) {
        listed[k] = (contact_at){contact_height(soft, world, seq[k], g), seq[k]};
        double b = floor(listed[k].at / bin);
        bin_of[k] = (uint32_t)(b > 0.0 ? (b < last_bin ? b : last_bin) : 0.0);
        start[bin_of[k] + 1]++;
    }
    for (size_t b = 0; b < bins; b++)
        start[b + 1] += start[b];
    for (size_t k = 0; k < n; k++)
        by_bin[start[bin_of[k]]++] = listed[k];
    /* start[b] is now the end of bin b, whose contacts are in the order
     * given: sort each by height, ties staying in that order (listed is
     * free again). */
    for (size_t b = 0, lo = 0; b < bins; lo = start[b++])
        sort_by_height(by_bin + lo, listed, start[b] - lo);
    for (size_t i = 0; i < n; i++)
        seq[i] = by_bin[i].k;
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
    uint32_t still = (uint32_t)world->count;
    for (size_t i = 0; i < n; i++) {
        const soft_contact *c = &soft->contacts[order[i]];
        next_batch[c->a] = 0;
        if (c->b != still)
            next_batch[c->b] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        const soft_contact *c = &soft->contacts[order[i]];
        uint32_t batch = next_batch[c->a];
        if (c->b != still && next_batch[c->b] > batch)
            batch = next_batch[c->b];
        batch_of[i] = batch;
        next_batch[c->a] = batch + 1;
        if (c->b != still)
            next_batch[c->b] = batch + 1;
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
 * bp_soft_batch_contacts. Group g (its contacts from lo = group_start[g]
 * on, m of them) has its own part of each: [lo, lo + m) of the arrays per
 * contact, blocks [lo, lo + m) of slot (each block holds a contact at
 * least), [lo + g, lo + g + m + 1) of count, and bins from bins_at[g] on;
 * next_batch is per ball, and groups of one kind share no ball. */
typedef struct batch_room {
    uint32_t *grouped, *group_start, *batch, *by_batch, *count, *next_batch, *slot;
    uint32_t *bin_of, *bins, *bins_at, *blocks_end;
    contact_at *by_bin, *listed;
    uint8_t *taken;
} batch_room;

static bool make_room(batch_room *room, const bp_world *world, size_t n, size_t groups)
{
    bp_scratch *s = world->scratch;
    room->grouped = bp_scratch_alloc(s, n + 1, sizeof(uint32_t));
    room->group_start = bp_scratch_alloc(s, groups + 2, sizeof(uint32_t));
    room->batch = bp_scratch_alloc(s, n + 1, sizeof(uint32_t));
    room->by_batch = bp_scratch_alloc(s, n + 1, sizeof(uint32_t));
    room->count = bp_scratch_alloc(s, n + groups + 1, sizeof(uint32_t));
    room->next_batch = bp_scratch_alloc(s, world->count + 1, sizeof(uint32_t));
    room->slot = bp_scratch_alloc(s, n * BP_SOFT_LANES + 1, sizeof(uint32_t));
    room->bin_of = bp_scratch_alloc(s, n + 1, sizeof(uint32_t));
    room->bins_at = bp_scratch_alloc(s, groups + 1, sizeof(uint32_t));
    room->blocks_end = bp_scratch_alloc(s, groups + 1, sizeof(uint32_t));
    room->by_bin = bp_scratch_alloc(s, n + 1, sizeof(contact_at));
    room->listed = bp_scratch_alloc(s, n + 1, sizeof(contact_at));
    room->taken = bp_scratch_alloc(s, n + 1, sizeof(uint8_t));
    return room->grouped && room->group_start && room->batch && room->by_batch && room->count &&
           room->next_batch && room->slot && room->bin_of && room->bins_at &&
           room->blocks_end && room->by_bin && room->listed && room->taken;
}

/* The bins each group orders its contacts from the floor with, in one
 * array (room->bins, bins_at[g] the first of group g's). false when memory
 * runs out. */
static bool make_bins(batch_room *room, const bp_world *world, size_t groups)
{
    size_t total = 0;
    for (size_t g = 0; g < groups; g++) {
        double bin;
        size_t m = room->group_start[g + 1] - room->group_start[g];
        room->bins_at[g] = (uint32_t)total;
        total += floor_bins(world, m, &bin) + 1;
    }
    room->bins = bp_scratch_alloc(world->scratch, total, sizeof(uint32_t));
    return room->bins != NULL;
}

/* The contacts, in the order listed, into room->grouped by group, and each
 * group's start (group_start[groups]: n). */
static void sort_into_groups(const bp_soft *soft, const bp_world *world, size_t n,
                             size_t columns, batch_room *room)
{
    size_t groups = columns + 1;
    uint32_t *start = room->group_start;
    if (columns == 0) {
        for (size_t k = 0; k < n; k++)
            room->grouped[k] = (uint32_t)k;
        start[0] = 0;
        start[1] = (uint32_t)n;
        return;
    }
    uint32_t *column = room->next_batch; /* free until the batches are numbered */
    uint32_t *group = room->batch;       /* likewise */
    find_columns(world, columns, column);
    memset(start, 0, (groups + 2) * sizeof(uint32_t));
    for (size_t k = 0; k < n; k++) {
        group[k] = group_of(soft, world, (uint32_t)k, column, columns);
        start[group[k] + 2]++;
    }
    for (size_t g = 0; g < groups; g++)
        start[g + 2] += start[g + 1];
    for (size_t k = 0; k < n; k++)
        room->grouped[start[group[k] + 1]++] = (uint32_t)k;
}

/* Group g's contacts from the floor up, in batches that share no ball, in
 * blocks from block lo (its first contact's place) on, in its own parts
 * of room (the end of its blocks in blocks_end[g]). */
static void batch_group(const bp_soft *soft, const bp_world *world, const batch_room *room,
                        size_t g)
{
    size_t lo = room->group_start[g], m = room->group_start[g + 1] - lo;
    room->blocks_end[g] = (uint32_t)lo;
    if (m == 0)
        return;
    uint32_t *seq = room->grouped + lo;
    floor_room by_height = {room->by_bin + lo, room->listed + lo, room->bin_of + lo,
                            room->bins + room->bins_at[g]};
    order_from_floor(soft, world, seq, m, &by_height);
    /* The group's batches, and its contacts sorted by them. */
    uint32_t *batch = room->batch + lo, *by_batch = room->by_batch + lo;
    number_batches(soft, world, seq, m, room->next_batch, batch);
    uint32_t batches = 0;
    for (size_t i = 0; i < m; i++)
        batches = batch[i] + 1 > batches ? batch[i] + 1 : batches;
    uint32_t *count = room->count + lo + g;
    memset(count, 0, ((size_t)batches + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < m; i++)
        count[batch[i] + 1]++;
    for (uint32_t b = 0; b < batches; b++)
        count[b + 1] += count[b];
    for (size_t i = 0; i < m; i++)
        by_batch[count[batch[i]]++] = seq[i];
    for (uint32_t b = 0, i = 0; b < batches; b++) /* now by_batch[i]'s batch */
        while (i < count[b])
            batch[i++] = b;
    room->blocks_end[g] = (uint32_t)lay_out_group(soft, (uint32_t)world->count, by_batch, batch,
                                                  m, room->taken + lo, room->slot, lo);
}

/* Groups [first, first + pieces) batched, a group a piece. */
typedef struct batch_job {
    const bp_soft *soft;
    const bp_world *world;
    const batch_room *room;
    size_t first;
} batch_job;

static void batch_piece(void *context, int piece)
{
    const batch_job *job = context;
    batch_group(job->soft, job->world, job->room, job->first + (size_t)piece);
}

/* The contacts in groups (columns of a big pile, else one), each group's
 * in batches that share no ball, in blocks of BP_SOFT_LANES, batches in
 * the order from the floor up: soft->slots, group_first and their counts,
 * in the step's scratch. The groups of one kind are batched side by side
 * on the step's threads, and their blocks then put one after another. */
bool bp_soft_batch_contacts(bp_soft *soft, const bp_world *world)
{
    size_t n = soft->contact_count;
    size_t columns = column_count(world), groups = columns + 1;
    batch_room room;
    uint32_t *first = bp_scratch_alloc(world->scratch, groups + 1, sizeof(uint32_t));
    if (!first || !make_room(&room, world, n, groups))
        return false;
    sort_into_groups(soft, world, n, columns, &room);
    if (!make_bins(&room, world, groups))
        return false;
    memset(room.taken, 0, n + 1);
    size_t kinds[] = {0, (columns + 1) / 2, columns, groups};
    for (int k = 0; k < 3; k++) {
        batch_job job = {soft, world, &room, kinds[k]};
        int pieces = (int)(kinds[k + 1] - kinds[k]);
        bp_workers_run(pieces > 1 ? soft->workers : NULL, batch_piece, &job, pieces);
    }
    size_t blocks = 0;
    for (size_t g = 0; g < groups; g++) {
        size_t lo = room.group_start[g], laid = room.blocks_end[g] - lo;
        first[g] = (uint32_t)blocks;
        memmove(room.slot + blocks * BP_SOFT_LANES, room.slot + lo * BP_SOFT_LANES,
                laid * BP_SOFT_LANES * sizeof(uint32_t));
        blocks += laid;
    }
    first[groups] = (uint32_t)blocks;
    soft->slots = room.slot;
    soft->group_first = first;
    soft->shared[0] = kinds[1];
    soft->shared[1] = columns;
    soft->block_count = blocks;
    return true;
}
