#include "broadphase.h"

#include <math.h>
#include <stdlib.h>

#include "grow.h"
#include <string.h>

typedef struct bp_strip_list {
    bp_pair *pairs;
    size_t count, capacity;
    bool failed;
} bp_strip_list;

void bp_broadphase_free(bp_broadphase *bp)
{
    /* One list per strip and one for the big slot. */
    for (size_t s = 0; bp->lists && s <= bp->strips_capacity; s++)
        free(bp->lists[s].pairs);
    free(bp->lists);
    bp_scratch_destroy(bp->own_scratch);
    free(bp->cell_start);
    free(bp->items);
    free(bp->ball_cell);
    free(bp->cell_awake);
    free(bp->strip_row_awake);
    free(bp->strip_awake);
    free(bp->marked_cells);
    free(bp->woken_mark);
    free(bp->big);
    *bp = (bp_broadphase){0};
}

/* The arena of this round: the one given, or else the broad phase's own,
 * made on first use. NULL when memory runs out. */
static bp_scratch *scratch_of(bp_broadphase *bp)
{
    if (!bp->scratch)
        bp->scratch = bp->own_scratch = bp_scratch_create();
    return bp->scratch;
}

static int strip_count(const bp_broadphase *bp)
{
    return (bp->shape.cols + BP_STRIP_COLS - 1) / BP_STRIP_COLS;
}

/* Entries of strip_row_awake: a row of every strip. */
static size_t strip_rows(const bp_broadphase *bp)
{
    return (size_t)strip_count(bp) * (size_t)bp->shape.rows;
}

/* Finds the big balls (see small_r): the balls more than half as wide as
 * the widest, when there are 1 to BP_BIG_MAX of them and others besides.
 * Radii change only with the layout, so this is redone only then. */
static bool find_big_balls(bp_broadphase *bp, const bp_world *world)
{
    size_t n = world->count;
    if (bp->big_known && bp->big_layout == world->layout_stamp && bp->big_for_count == n &&
        bp->big_for_r_max == world->r_max)
        return true;
    const double *r = world->r;
    double half = 0.5 * world->r_max, small = 0.0;
    size_t big = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[i] > half)
            big++;
        else
            small = r[i] > small ? r[i] : small;
    }
    bp->big_count = 0;
    bp->small_r = world->r_max;
    if (big > 0 && big <= BP_BIG_MAX && small > 0.0) {
        if (!bp_reserve((void **)&bp->big, &bp->big_capacity, big, sizeof(uint32_t)))
            return false;
        for (size_t i = 0; i < n; i++)
            if (r[i] > half)
                bp->big[bp->big_count++] = (uint32_t)i;
        bp->small_r = small;
    }
    bp->big_known = true;
    bp->big_layout = world->layout_stamp;
    bp->big_for_count = n;
    bp->big_for_r_max = world->r_max;
    return true;
}

static bool layout_grid(bp_broadphase *bp, const bp_world *world, double margin)
{
    size_t n = world->count;
    if (!find_big_balls(bp, world))
        return false;
    double r_max = world->r_max;
    double width = world->params.width, height = world->params.height;
    /* Any two balls in cells that may touch sit in the same or adjacent
     * cells; the cell table stays in proportion to the ball count. */
    bp->shape = bp_grid_lay(0.0, 0.0, width, height, 2.0 * bp->small_r + margin,
                            n * 4.0 > 4096.0 ? n * 4.0 : 4096.0);
    bp->r_max = r_max;
    size_t cells = bp_grid_cells(&bp->shape);
    /* The cells, the big balls' bucket, and the end. */
    return bp_reserve((void **)&bp->cell_start, &bp->cells_capacity, cells + 2,
                      sizeof(uint32_t)) &&
           bp_reserve((void **)&bp->cell_awake, &bp->cell_awake_capacity, cells + 1,
                      sizeof(uint8_t)) &&
           bp_reserve((void **)&bp->strip_awake, &bp->strip_awake_capacity,
                      (size_t)strip_count(bp) + 1, sizeof(uint8_t)) &&
           bp_reserve((void **)&bp->strip_row_awake, &bp->strip_row_awake_capacity,
                      strip_rows(bp) + 1, sizeof(uint8_t));
}

static inline uint32_t cell_of(const bp_broadphase *bp, double inv_cell, double x, double y)
{
    int cx = bp_grid_clamp(x * inv_cell, bp->shape.cols);
    int cy = bp_grid_clamp(y * inv_cell, bp->shape.rows);
    return (uint32_t)cy * (uint32_t)bp->shape.cols + (uint32_t)cx;
}

/* Marks the cell of a ball that is awake, and its row in the strips that
 * pair with it: its own, and the next strip over when it sits at an edge.
 * The cell joins marked[*count], the strips strip_awake: the grid's own, or
 * those of one piece of the sort, which writes only its own rows. */
static inline void mark_awake_into(bp_broadphase *bp, uint32_t cell, uint32_t *marked,
                                   size_t *count, uint8_t *strip_awake)
{
    if (bp->cell_awake[cell])
        return;
    bp->cell_awake[cell] = 1;
    marked[(*count)++] = cell;
    int row = (int)(cell / (uint32_t)bp->shape.cols), cx = (int)(cell % (uint32_t)bp->shape.cols);
    uint8_t *strips_of_row = bp->strip_row_awake + (size_t)row * (size_t)strip_count(bp);
    /* The columns either side span at most two strips, cx's among them. */
    int left = (cx > 0 ? cx - 1 : cx) / BP_STRIP_COLS;
    int right = (cx + 1 < bp->shape.cols ? cx + 1 : cx) / BP_STRIP_COLS;
    strips_of_row[left] = strips_of_row[right] = 1;
    strip_awake[left] = strip_awake[right] = 1;
}

static inline void mark_awake(bp_broadphase *bp, uint32_t cell)
{
    mark_awake_into(bp, cell, bp->marked_cells, &bp->marked_count, bp->strip_awake);
}

/* Balls that may change cell between two sorts and still be moved one by
 * one (move_to_cell), as long as the cells they cross add up to no more
 * than a quarter of the balls: a move shifts the cells and items in
 * between, so in a small world with short rows many moves cost more than a
 * new sort. */
#define BP_SORT_MAX_MOVES 256
/* Up to one ball in this many changing cell, the grid is mended in one
 * pass over the cells between the first and the last they left or joined
 * (mend_cells); beyond, a new sort costs no more. A hand stirring the 100k
 * pit moves a few thousand balls to other cells every step: a new sort of
 * all of them took 3.9 of the stir's 20.9 G instructions. */
#define BP_SORT_MEND_PART 16
/* A new sort, without looking at the balls that moved, once this part of
 * the cells holds a ball awake: then most balls are awake, and many change
 * cell. */
#define BP_SORT_AWAKE_PART 4

/* Most balls that may change cell while the sort is kept. */
static size_t most_moves(size_t n)
{
    return n / BP_SORT_MEND_PART + BP_SORT_MAX_MOVES;
}

/* Plans ball i's move from its sorted cell to cell now, and files now as
 * its cell, so that it is not found again; false when too many balls
 * moved (the sort then makes every ball's cell again) or memory ran out. */
static bool plan_move(bp_broadphase *bp, size_t n, uint32_t i, uint32_t now, size_t *crossed)
{
    uint32_t was = bp->ball_cell[i];
    *crossed += now > was ? now - was : was - now;
    if (bp->move_count >= most_moves(n))
        return false;
    bp->moves[bp->move_count++] = (bp_cell_move){i, was};
    bp->ball_cell[i] = now;
    return true;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Puts the balls of moves (whose ball_cell holds their new cell) where a
 * counting sort would: every cell's balls in order of index. The moves
 * change only the cells that balls left or joined; between those, runs of
 * cells keep their balls and shift by how many joined or left before
 * them. So from the first such cell to the last, the runs are copied
 * whole into a scratch run of items and their starts shifted, and each
 * changed cell's staying balls merged by index with its arrivals; the
 * scratch run then replaces those items. Past the last changed cell
 * nothing moves: as many balls left as joined before it. false when
 * memory runs out (the caller then sorts anew). */
static bool mend_cells(bp_broadphase *bp, size_t n)
{
    size_t count = bp->move_count;
    uint64_t *arrivals = bp_scratch_alloc(bp->scratch, 2 * count, sizeof(uint64_t));
    uint32_t *mended = bp_scratch_alloc(bp->scratch, n, sizeof(uint32_t));
    if (!arrivals || !mended)
        return false;
    /* Keys cell << 32 | ball, each list in order: where balls join, and
     * where they leave. */
    uint64_t *join = arrivals, *leave = arrivals + count;
    for (size_t k = 0; k < count; k++) {
        uint32_t i = bp->moves[k].ball;
        join[k] = (uint64_t)bp->ball_cell[i] << 32 | i;
        leave[k] = (uint64_t)bp->moves[k].from << 32 | i;
    }
    qsort(join, count, sizeof(uint64_t), compare_u64);
    qsort(leave, count, sizeof(uint64_t), compare_u64);
    uint32_t *items = bp->items, *start = bp->cell_start, *out = mended;
    size_t j = 0, l = 0, w = 0;
    uint32_t join_cell = (uint32_t)(join[0] >> 32), leave_cell = (uint32_t)(leave[0] >> 32);
    uint32_t c = join_cell < leave_cell ? join_cell : leave_cell;
    uint32_t base = start[c];
    while (j < count || l < count) {
        /* The run of cells up to the next that changes keeps its balls. */
        uint32_t next = join_cell < leave_cell ? join_cell : leave_cell;
        uint32_t from = start[c], to = start[next];
        uint32_t shift = base + (uint32_t)w - from; /* modulo 2^32: it may be negative */
        memcpy(out + w, items + from, (size_t)(to - from) * sizeof(uint32_t));
        w += to - from;
        for (uint32_t k = c; k < next; k++)
            start[k] += shift;
        /* The cell that changes: its staying balls and its arrivals, by index. */
        c = next;
        uint32_t p = start[c], end = start[c + 1];
        start[c] = base + (uint32_t)w;
        for (;;) {
            bool leaves = p < end && l < count && leave_cell == c && (uint32_t)leave[l] == items[p];
            if (leaves) {
                p++;
                l++;
                leave_cell = l < count ? (uint32_t)(leave[l] >> 32) : UINT32_MAX;
                continue;
            }
            bool joins = j < count && join_cell == c;
            if (p == end && !joins)
                break;
            if (joins && (p == end || (uint32_t)join[j] < items[p])) {
                out[w++] = (uint32_t)join[j++];
                join_cell = j < count ? (uint32_t)(join[j] >> 32) : UINT32_MAX;
            } else {
                out[w++] = items[p++];
            }
        }
        c++;
    }
    memcpy(items + base, out, w * sizeof(uint32_t));
    return true;
}

/* Moves ball m.ball from cell m.from to cell ball_cell[m.ball] in items,
 * where a counting sort would put it: among that cell's balls in order of
 * index. Shifts the items and cell starts between the two cells, which for
 * a ball that moved a cell or a row over is few next to a new sort. */
static void move_to_cell(bp_broadphase *bp, bp_cell_move m)
{
    uint32_t i = m.ball, from = m.from, to = bp->ball_cell[i];
    uint32_t *items = bp->items, *start = bp->cell_start;
    uint32_t p = start[from];
    while (items[p] != i)
        p++;
    if (to > from) {
        /* Close the gap up to the target cell, which then begins a slot
         * earlier, at the free slot; slide i up to its place in the cell. */
        for (; p + 1 < start[to]; p++)
            items[p] = items[p + 1];
        for (uint32_t c = from + 1; c <= to; c++)
            start[c]--;
        for (; p + 1 < start[to + 1] && items[p + 1] < i; p++)
            items[p] = items[p + 1];
    } else {
        for (; p > start[to + 1]; p--)
            items[p] = items[p - 1];
        for (uint32_t c = to + 1; c <= from; c++)
            start[c]++;
        for (; p > start[to] && items[p - 1] > i; p--)
            items[p] = items[p - 1];
    }
    items[p] = i;
}

/* Whether the last sort still holds: the same balls at the same indices,
 * the same grid, and every ball that is awake now or was at the last check
 * (its cell is marked) still in its cell, but for a few that are moved
 * over one by one. Sleepers do not move, so a settled world needs no new
 * sort. Then only the marks are made again. Costs the balls awake and those
 * in their cells, not the whole world. */
static bool sort_still_holds(bp_broadphase *bp, const bp_world *world)
{
    size_t n = world->count;
    if (!bp->sorted || bp->sorted_layout != world->layout_stamp || bp->sorted_count != n ||
        bp->sorted_cell != bp->shape.cell)
        return false;
    uint32_t extra = (uint32_t)bp->shape.cols * (uint32_t)bp->shape.rows;
    if (bp->marked_count > extra / BP_SORT_AWAKE_PART)
        return false;
    double inv_cell = 1.0 / bp->shape.cell;
    size_t crossed = 0;
    bp->move_count = 0;
    bp->moves = bp_scratch_alloc(bp->scratch, most_moves(n), sizeof(bp_cell_move));
    if (!bp->moves)
        return false;
    for (size_t k = 0; k < bp->marked_count; k++) {
        uint32_t c = bp->marked_cells[k];
        for (uint32_t s = bp->cell_start[c]; s < bp->cell_start[c + 1]; s++) {
            uint32_t i = bp->items[s];
            uint32_t now = cell_of(bp, inv_cell, world->x[i], world->y[i]);
            if (now != c && !plan_move(bp, n, i, now, &crossed))
                return false;
        }
    }
    for (size_t i = bp_world_next_awake(world, 0); i < n; i = bp_world_next_awake(world, i + 1)) {
        uint32_t now = bp_broadphase_is_big(bp, world, i)
                           ? extra
                           : cell_of(bp, inv_cell, world->x[i], world->y[i]);
        if (now != bp->ball_cell[i] && !plan_move(bp, n, (uint32_t)i, now, &crossed))
            return false;
    }
    if (bp->move_count <= BP_SORT_MAX_MOVES && crossed <= n / 4) {
        for (size_t k = 0; k < bp->move_count; k++)
            move_to_cell(bp, bp->moves[k]);
    } else if (!mend_cells(bp, n)) {
        return false;
    }
    for (size_t k = 0; k < bp->marked_count; k++)
        bp->cell_awake[bp->marked_cells[k]] = 0;
    bp->marked_count = 0;
    memset(bp->strip_row_awake, 0, strip_rows(bp) + 1);
    memset(bp->strip_awake, 0, (size_t)strip_count(bp) + 1);
    for (size_t i = bp_world_next_awake(world, 0); i < n; i = bp_world_next_awake(world, i + 1))
        if (bp->ball_cell[i] != extra)
            mark_awake(bp, bp->ball_cell[i]);
    return true;
}

/* Each ball's cell, in pieces by index for the step's threads. */
typedef struct cells_job {
    bp_broadphase *bp;
    const bp_world *world;
    int pieces;
} cells_job;

static void cells_piece(void *context, int piece)
{
    const cells_job *job = context;
    bp_broadphase *bp = job->bp;
    const bp_world *world = job->world;
    double inv_cell = 1.0 / bp->shape.cell;
    size_t begin = bp_piece_start(world->count, piece, job->pieces);
    size_t end = bp_piece_start(world->count, piece + 1, job->pieces);
    if (bp->big_count == 0) {
        for (size_t i = begin; i < end; i++)
            bp->ball_cell[i] = cell_of(bp, inv_cell, world->x[i], world->y[i]);
        return;
    }
    /* Big balls go to the bucket after the last cell. */
    uint32_t extra = (uint32_t)bp->shape.cols * (uint32_t)bp->shape.rows;
    double small_r = bp->small_r;
    for (size_t i = begin; i < end; i++)
        bp->ball_cell[i] = world->r[i] > small_r ? extra
                                                 : cell_of(bp, inv_cell, world->x[i], world->y[i]);
}

/* The counting sort by cell, in pieces of whole rows, one per thread. Each
 * piece reads every ball's cell and sorts the balls of its rows, from the
 * count of balls in the rows before it: the same items and starts as one
 * pass over every ball, without a count table per thread (zeroing and
 * adding up such tables cost more than the counting they shared). */
typedef struct counting_job {
    bp_broadphase *bp;
    const bp_world *world;
    int pieces;
    uint32_t first_row[BP_WORKERS_MAX_PIECES + 1];
    size_t marked[BP_WORKERS_MAX_PIECES]; /* cells each piece marked awake */
    /* strip_awake of the pieces after the first, each its own cache lines */
    uint8_t *piece_strip_awake;
    size_t piece_stride;
} counting_job;

static uint8_t *piece_strip_awake(const counting_job *job, int piece)
{
    return piece == 0 ? job->bp->strip_awake
                      : job->piece_strip_awake + (size_t)(piece - 1) * job->piece_stride;
}

static void counting_piece(void *context, int piece)
{
    counting_job *job = context;
    bp_broadphase *bp = job->bp;
    size_t n = job->world->count, strips = (size_t)strip_count(bp);
    const uint8_t *flags = job->world->flags;
    const uint32_t *ball_cell = bp->ball_cell;
    uint32_t *start = bp->cell_start;
    uint32_t rows_before = job->first_row[piece], rows = job->first_row[piece + 1] - rows_before;
    uint32_t c0 = rows_before * (uint32_t)bp->shape.cols, span = rows * (uint32_t)bp->shape.cols;
    /* The last piece sorts the big balls' bucket too; none of them is
     * marked: their pairs are not the cells'. */
    uint32_t extra = (uint32_t)bp->shape.cols * (uint32_t)bp->shape.rows;
    span += piece == job->pieces - 1;
    uint8_t *strip_awake = piece_strip_awake(job, piece);
    memset(start + c0, 0, span * sizeof *start);
    memset(bp->cell_awake + c0, 0, span);
    memset(bp->strip_row_awake + rows_before * strips, 0, rows * strips);
    memset(strip_awake, 0, strips + 1);
    /* Marked cells go at the piece's first cell: it marks no more than
     * its cells. */
    uint32_t *marked = bp->marked_cells + c0;
    size_t marked_count = 0;
    uint32_t below = 0;
    uint8_t *cell_awake = bp->cell_awake;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = ball_cell[i];
        below += c < c0;
        if (c - c0 >= span)
            continue;
        start[c]++;
        cell_awake[c] |= (uint8_t)!(flags[i] & BP_BALL_ASLEEP);
    }
    /* Each cell's end in items, and the marks of the cells holding a ball
     * awake, row by row (no division per cell). The big balls' bucket is
     * not marked: its pairs are not the cells'. */
    uint32_t placed = below, cols = (uint32_t)bp->shape.cols;
    for (uint32_t row = rows_before, c = c0; row < rows_before + rows; row++) {
        uint8_t *strips_of_row = bp->strip_row_awake + (size_t)row * strips;
        for (uint32_t cx = 0; cx < cols; cx++, c++) {
            placed += start[c];
            start[c] = placed;
            if (!cell_awake[c])
                continue;
            marked[marked_count++] = c;
            /* The columns either side span at most two strips, cx's among them. */
            uint32_t left = (cx > 0 ? cx - 1 : cx) / BP_STRIP_COLS;
            uint32_t right = (cx + 1 < cols ? cx + 1 : cx) / BP_STRIP_COLS;
            strips_of_row[left] = strips_of_row[right] = 1;
            strip_awake[left] = strip_awake[right] = 1;
        }
    }
    if (c0 + span > extra) { /* the last piece: the bucket */
        placed += start[extra];
        start[extra] = placed;
        cell_awake[extra] = 0;
    }
    /* Stable, from the last ball back: balls keep their index order within
     * a cell, and each start ends at its cell's first ball. */
    for (size_t i = n; i-- > 0;) {
        uint32_t c = ball_cell[i];
        if (c - c0 < span)
            bp->items[--start[c]] = (uint32_t)i;
    }
    job->marked[piece] = marked_count;
}

static bool sort_into_cells(bp_broadphase *bp, const bp_world *world, bp_workers *workers)
{
    if (sort_still_holds(bp, world))
        return true;
    /* The kept sort no longer holds (sort_still_holds may have rewritten
     * some balls' cells): until a full sort succeeds, nothing may trust it. */
    bp->sorted = false;
    size_t n = world->count;
    size_t cells = (size_t)bp->shape.cols * (size_t)bp->shape.rows, strips = (size_t)strip_count(bp);
    counting_job counting = {.bp = bp, .world = world, .pieces = bp_workers_count(workers)};
    if (counting.pieces > BP_WORKERS_MAX_PIECES)
        counting.pieces = BP_WORKERS_MAX_PIECES;
    counting.piece_stride = (strips + 1 + BP_SCRATCH_ALIGN - 1) / BP_SCRATCH_ALIGN * BP_SCRATCH_ALIGN;
    counting.piece_strip_awake =
        bp_scratch_alloc(bp->scratch, (size_t)counting.pieces - 1, counting.piece_stride);
    if (!bp_reserve((void **)&bp->items, &bp->items_capacity, n, sizeof(uint32_t)) ||
        !bp_reserve((void **)&bp->ball_cell, &bp->ball_cell_capacity, n, sizeof(uint32_t)) ||
        !bp_reserve((void **)&bp->marked_cells, &bp->marked_capacity, (n > cells ? n : cells) + 1,
                    sizeof(uint32_t)) ||
        !counting.piece_strip_awake)
        return false;

    cells_job job = {bp, world,
                     bp_workers_pieces(bp_workers_count(workers), BP_WORKERS_MAX_PIECES)};
    bp_workers_run(workers, cells_piece, &job, job.pieces);
    /* Rows split where the balls' order, mostly by cell, splits evenly. */
    uint32_t rows = (uint32_t)bp->shape.rows, cols = (uint32_t)bp->shape.cols;
    counting.first_row[0] = 0;
    for (int p = 1; p < counting.pieces; p++) {
        uint32_t row = bp->ball_cell[bp_piece_start(n, p, counting.pieces)] / cols;
        uint32_t floor_row = counting.first_row[p - 1];
        counting.first_row[p] = row < floor_row ? floor_row : (row > rows ? rows : row);
    }
    counting.first_row[counting.pieces] = rows;
    bp_workers_run(workers, counting_piece, &counting, counting.pieces);
    bp->cell_start[cells + 1] = (uint32_t)n;
    bp->cell_awake[cells] = 0;
    bp->strip_row_awake[strip_rows(bp)] = 0;
    bp->marked_count = 0;
    for (int p = 0; p < counting.pieces; p++) {
        memmove(bp->marked_cells + bp->marked_count,
                bp->marked_cells + (size_t)counting.first_row[p] * cols,
                counting.marked[p] * sizeof(uint32_t));
        bp->marked_count += counting.marked[p];
        const uint8_t *awake = piece_strip_awake(&counting, p);
        for (size_t s = 0; p > 0 && s <= strips; s++)
            bp->strip_awake[s] |= awake[s];
    }
    bp->sorted = true;
    bp->sorted_layout = world->layout_stamp;
    bp->sorted_count = n;
    bp->sorted_cell = bp->shape.cell;
    return true;
}

void bp_broadphase_follow_reorder(bp_broadphase *bp, const bp_world *world, size_t lo,
                                  size_t hi)
{
    /* Sorted by cell, the new order's cells run up from the one holding
     * place lo (the last whose start is at or before it; the big balls'
     * bucket is the last of all). Outside [lo, hi) each place still holds
     * its ball, in its cell. */
    size_t cells = (size_t)bp->shape.cols * (size_t)bp->shape.rows, first = 0, last = cells;
    while (first < last) {
        size_t mid = first + (last - first + 1) / 2;
        if (bp->cell_start[mid] <= lo)
            first = mid;
        else
            last = mid - 1;
    }
    size_t k = lo;
    for (size_t c = first; c <= cells && k < hi; c++)
        for (; k < bp->cell_start[c + 1] && k < hi; k++) {
            bp->items[k] = (uint32_t)k;
            bp->ball_cell[k] = (uint32_t)c;
        }
    bp->sorted_layout = world->layout_stamp;
    /* The big balls' bucket, last, now holds the last indices, in order:
     * the same balls, with no need to look for them again. */
    for (size_t j = 0; j < bp->big_count; j++)
        bp->big[j] = (uint32_t)(world->count - bp->big_count + j);
    if (bp->big_known && bp->big_layout + 1 == world->layout_stamp)
        bp->big_layout = world->layout_stamp;
}

static inline bool near(const bp_world *world, uint32_t a, uint32_t b, double margin)
{
    double dx = world->x[b] - world->x[a];
    double dy = world->y[b] - world->y[a];
    double reach = world->r[a] + world->r[b] + margin;
    return dx * dx + dy * dy < reach * reach;
}

size_t bp_broadphase_query_below(const bp_broadphase *bp, const bp_world *world, uint32_t i,
                                 double margin, double up_y, uint32_t *out, size_t max)
{
    double inv_cell = 1.0 / bp->shape.cell;
    int cx = bp_grid_clamp(world->x[i] * inv_cell, bp->shape.cols);
    int cy = bp_grid_clamp(world->y[i] * inv_cell, bp->shape.rows);
    /* A big ball reaches further than the next cell. */
    int span = 1;
    if (bp_broadphase_is_big(bp, world, i))
        span = (int)ceil((world->r[i] + bp->small_r + margin) * inv_cell);
    int below = up_y < 0.0 ? cy + span : cy - span;
    size_t found = 0;
    for (int y = cy < below ? cy : below; y <= (cy < below ? below : cy); y++)
        for (int x = cx - span; x <= cx + span; x++) {
            if (x < 0 || x >= bp->shape.cols || y < 0 || y >= bp->shape.rows)
                continue;
            size_t c = (size_t)y * (size_t)bp->shape.cols + (size_t)x;
            for (uint32_t s = bp->cell_start[c]; s < bp->cell_start[c + 1]; s++) {
                uint32_t j = bp->items[s];
                if (j != i && found < max && near(world, i, j, margin))
                    out[found++] = j;
            }
        }
    for (size_t k = 0; k < bp->big_count; k++) {
        uint32_t j = bp->big[k];
        if (j != i && found < max && near(world, i, j, margin))
            out[found++] = j;
    }
    return found;
}

size_t bp_broadphase_query_square(const bp_broadphase *bp, double x, double y, double reach,
                                  uint32_t *out, size_t max)
{
    double inv_cell = 1.0 / bp->shape.cell;
    int x0 = bp_grid_clamp((x - reach) * inv_cell, bp->shape.cols);
    int x1 = bp_grid_clamp((x + reach) * inv_cell, bp->shape.cols);
    int y0 = bp_grid_clamp((y - reach) * inv_cell, bp->shape.rows);
    int y1 = bp_grid_clamp((y + reach) * inv_cell, bp->shape.rows);
    size_t found = 0;
    for (int cy = y0; cy <= y1; cy++) {
        size_t row = (size_t)cy * (size_t)bp->shape.cols;
        /* The cells of a row are consecutive in items. */
        uint32_t from = bp->cell_start[row + (size_t)x0];
        uint32_t to = bp->cell_start[row + (size_t)x1 + 1];
        for (uint32_t s = from; s < to; s++, found++)
            if (found < max)
                out[found] = bp->items[s];
    }
    return found;
}

size_t bp_broadphase_border_balls(const bp_broadphase *bp, double reach, uint32_t *out)
{
    /* Cells deep enough that a centre within reach of a side, even one
     * rounded into the next cell, is in one of them. */
    double depth_cells = ceil(reach / bp->shape.cell) + 1.0;
    int depth = depth_cells < (double)bp->shape.cols ? (int)depth_cells : bp->shape.cols;
    size_t found = 0;
    for (int y = 0; y < bp->shape.rows; y++) {
        size_t row = (size_t)y * (size_t)bp->shape.cols;
        bool whole = y < depth || y >= bp->shape.rows - depth || 2 * depth >= bp->shape.cols;
        /* Runs of cells [from, to): the whole row, or its two ends. */
        size_t runs[2][2] = {{row, row + (size_t)(whole ? bp->shape.cols : depth)},
                             {row + (size_t)(bp->shape.cols - depth), row + (size_t)bp->shape.cols}};
        for (int k = 0; k < (whole ? 1 : 2); k++)
            for (uint32_t s = bp->cell_start[runs[k][0]]; s < bp->cell_start[runs[k][1]]; s++)
                out[found++] = bp->items[s];
    }
    for (size_t k = 0; k < bp->big_count; k++)
        out[found++] = bp->big[k];
    return found;
}

bool bp_broadphase_find_pairs(bp_broadphase *bp, const bp_world *world, double margin)
{
    return bp_broadphase_sort(bp, world, margin, NULL) &&
           bp_broadphase_pairs(bp, world, margin, NULL);
}

bool bp_broadphase_sort(bp_broadphase *bp, const bp_world *world, double margin,
                        bp_workers *workers)
{
    if (!scratch_of(bp))
        return false;
    /* A round begins: the last round's arrays in an arena of its own are done with. */
    if (bp->own_scratch)
        bp_scratch_reset(bp->own_scratch);
    return layout_grid(bp, world, margin) && sort_into_cells(bp, world, workers);
}

typedef struct pairing_job {
    bp_broadphase *bp;
    const bp_world *world;
    double margin;
    uint8_t skip; /* BP_BALL_ASLEEP: pairs of two sleepers are left out; 0: none asleep */
} pairing_job;

/* Writes the pairs of ball a with the balls items[lo .. hi) closer than
 * margin to out from count on, and returns the new count. With asleep_mask
 * BP_BALL_ASLEEP (a sleeps) only those with a ball awake are kept. out needs
 * room for hi - lo more: each candidate is written, and kept or not without
 * a branch. */
static inline size_t pair_run(const bp_world *world, const uint32_t *items, uint32_t lo,
                              uint32_t hi, uint32_t a, double margin, uint8_t asleep_mask,
                              bp_pair *out, size_t count)
{
    double ax = world->x[a], ay = world->y[a], ra = world->r[a];
    for (uint32_t u = lo; u < hi; u++) {
        uint32_t b = items[u];
        double dx = world->x[b] - ax, dy = world->y[b] - ay;
        double reach = ra + world->r[b] + margin;
        out[count] = (bp_pair){a, b};
        count += (dx * dx + dy * dy < reach * reach) & !(asleep_mask & world->flags[b]);
    }
    return count;
}

/* Whether a cell in [first, last] holds a ball awake. */
static inline bool any_awake(const uint8_t *cell_awake, size_t first, size_t last)
{
    for (size_t c = first; c <= last; c++)
        if (cell_awake[c])
            return true;
    return false;
}

/* The pairs of the cells of one strip, rows from the floor up. */
static bool pair_strip(const pairing_job *job, int strip, bp_strip_list *list)
{
    const uint8_t skip = job->skip;
    const bp_broadphase *bp = job->bp;
    const bp_world *world = job->world;
    double margin = job->margin;
    int cols = bp->shape.cols, rows = bp->shape.rows;
    int x0 = strip * BP_STRIP_COLS;
    int x1 = x0 + BP_STRIP_COLS < cols ? x0 + BP_STRIP_COLS : cols;
    bool floor_at_bottom = world->params.gravity >= 0.0;
    int first_row = floor_at_bottom ? rows - 1 : 0;
    int ahead = floor_at_bottom ? -1 : 1;
    const uint32_t *start = bp->cell_start, *items = bp->items;
    const uint8_t *flags = world->flags, *cell_awake = bp->cell_awake;
    const uint8_t *strip_row_awake = bp->strip_row_awake;
    size_t strips = (size_t)strip_count(bp);
    /* With awake_pairs_only, a pair needs a ball that is not asleep: skip
     * is BP_BALL_ASLEEP, and a pair is left out when both flags have it. */
    list->count = 0;
    /* A strip of sleepers only: every row below would be passed over. */
    if (skip && !bp->strip_awake[strip])
        return true;
    for (int k = 0; k < rows; k++) {
        int cy = first_row + k * ahead;
        int ny = cy + ahead;
        bool next_row = ny >= 0 && ny < rows;
        /* A row of sleepers under a row of sleepers: nothing to list. */
        if (skip && !strip_row_awake[(size_t)cy * strips + (size_t)strip] &&
            !(next_row && strip_row_awake[(size_t)ny * strips + (size_t)strip]))
            continue;
        for (int cx = x0; cx < x1; cx++) {
            /* Half of the 8 neighbours, so each pair is found once: the
             * cell after this one in its row, and the three next to it in
             * the next row. Cells of a row are consecutive in items, so
             * these are two runs: this cell and the next, and the three. */
            size_t c = (size_t)cy * (size_t)cols + (size_t)cx;
            uint32_t first = start[c], last = start[c + 1];
            if (first == last)
                continue; /* no ball here, so no pair to list from here */
            size_t same_last = cx + 1 < cols ? c + 1 : c;
            size_t next_first = 0, next_last = 0;
            bool same_awake = cell_awake[c] || cell_awake[same_last];
            if (next_row) {
                size_t row_first = (size_t)ny * (size_t)cols;
                next_first = row_first + (size_t)(cx > 0 ? cx - 1 : cx);
                next_last = row_first + (size_t)(cx + 1 < cols ? cx + 1 : cx);
            }
            /* Whether the next row's three cells hold a ball awake: asked
             * only for a sleeper here (-1 until then). */
            int next_awake = -1;
            if (skip && !same_awake) {
                next_awake = next_row && any_awake(cell_awake, next_first, next_last);
                if (!next_awake)
                    continue; /* a block of sleepers */
            }
            uint32_t same_end = start[same_last + 1];
            uint32_t next_begin = next_row ? start[next_first] : 0;
            uint32_t next_end = next_row ? start[next_last + 1] : 0;
            /* Room for every candidate of every ball here, so that pair_run
             * writes each one and keeps it or not without a branch. */
            size_t count = list->count;
            size_t most = count + (size_t)(last - first) *
                                      ((same_end - first) + (next_end - next_begin));
            if (!bp_reserve((void **)&list->pairs, &list->capacity, most, sizeof(bp_pair)))
                return false;
            bp_pair *out = list->pairs;
            for (uint32_t s = first; s < last; s++) {
                uint32_t a = items[s];
                if (!(flags[a] & skip)) {
                    /* The usual case, a ball awake: every candidate counts. */
                    count = pair_run(world, items, s + 1, same_end, a, margin, 0, out, count);
                    count = pair_run(world, items, next_begin, next_end, a, margin, 0, out,
                                     count);
                } else {
                    if (same_awake)
                        count = pair_run(world, items, s + 1, same_end, a, margin, skip, out,
                                         count);
                    if (next_awake < 0)
                        next_awake = next_row && any_awake(cell_awake, next_first, next_last);
                    if (next_awake)
                        count = pair_run(world, items, next_begin, next_end, a, margin, skip,
                                         out, count);
                }
            }
            list->count = count;
        }
    }
    return true;
}

/* pair_strip in a world without sleepers: the same pairs in the same
 * order, with the balls of each row of the strip taken in one run (the
 * cells of a row are consecutive in items) and each cell's neighbour runs
 * found as the run enters it, so that empty cells cost nothing and no
 * test for sleepers is made. */
static bool pair_strip_awake(const pairing_job *job, int strip, bp_strip_list *list)
{
    const bp_broadphase *bp = job->bp;
    const bp_world *world = job->world;
    double margin = job->margin;
    int cols = bp->shape.cols, rows = bp->shape.rows;
    int x0 = strip * BP_STRIP_COLS;
    int x1 = x0 + BP_STRIP_COLS < cols ? x0 + BP_STRIP_COLS : cols;
    bool floor_at_bottom = world->params.gravity >= 0.0;
    int first_row = floor_at_bottom ? rows - 1 : 0;
    int ahead = floor_at_bottom ? -1 : 1;
    const uint32_t *start = bp->cell_start, *items = bp->items;
    size_t count = 0;
    for (int k = 0; k < rows; k++) {
        int cy = first_row + k * ahead;
        int ny = cy + ahead;
        bool next_row = ny >= 0 && ny < rows;
        size_t row = (size_t)cy * (size_t)cols, next = (size_t)ny * (size_t)cols;
        uint32_t s = start[row + (size_t)x0], end = start[row + (size_t)x1];
        if (s == end)
            continue;
        /* Room for every candidate of every ball of the row: at most the
         * balls of its cells and the next, and of the three below each. */
        size_t same_most = start[row + (size_t)(x1 < cols ? x1 + 1 : x1)] - s;
        size_t next_most =
            next_row ? start[next + (size_t)(x1 < cols ? x1 + 1 : x1)] -
                           start[next + (size_t)(x0 > 0 ? x0 - 1 : x0)]
                     : 0;
        if (!bp_reserve((void **)&list->pairs, &list->capacity,
                        count + (size_t)(end - s) * (same_most + next_most), sizeof(bp_pair)))
            return false;
        bp_pair *out = list->pairs;
        int cx = x0 - 1;
        uint32_t cell_end = s, same_end = 0, next_begin = 0, next_end = 0;
        for (; s < end; s++) {
            /* Into the next cell that holds a ball: its neighbour runs,
             * this cell and the next, and the three next to it below. */
            while (s >= cell_end) {
                cx++;
                size_t c = row + (size_t)cx;
                cell_end = start[c + 1];
                same_end = start[(cx + 1 < cols ? c + 1 : c) + 1];
                if (next_row) {
                    next_begin = start[next + (size_t)(cx > 0 ? cx - 1 : cx)];
                    next_end = start[next + (size_t)(cx + 1 < cols ? cx + 1 : cx) + 1];
                }
            }
            uint32_t a = items[s];
            count = pair_run(world, items, s + 1, same_end, a, margin, 0, out, count);
            count = pair_run(world, items, next_begin, next_end, a, margin, 0, out, count);
        }
    }
    list->count = count;
    return true;
}

/* Ball a's pairs with the balls of the cells its reach meets (a big
 * ball's: in no cell itself), rows from the floor up, into list. */
static bool pair_around(const pairing_job *job, uint32_t a, bp_strip_list *list)
{
    const bp_broadphase *bp = job->bp;
    const bp_world *world = job->world;
    double inv_cell = 1.0 / bp->shape.cell, x = world->x[a], y = world->y[a];
    double reach = world->r[a] + bp->small_r + job->margin;
    int x0 = bp_grid_clamp((x - reach) * inv_cell, bp->shape.cols);
    int x1 = bp_grid_clamp((x + reach) * inv_cell, bp->shape.cols);
    int y0 = bp_grid_clamp((y - reach) * inv_cell, bp->shape.rows);
    int y1 = bp_grid_clamp((y + reach) * inv_cell, bp->shape.rows);
    bool floor_at_bottom = world->params.gravity >= 0.0;
    uint8_t mask = bp->awake_pairs_only ? (world->flags[a] & BP_BALL_ASLEEP) : 0;
    for (int k = 0; k <= y1 - y0; k++) {
        size_t row = (size_t)(floor_at_bottom ? y1 - k : y0 + k) * (size_t)bp->shape.cols;
        uint32_t lo = bp->cell_start[row + (size_t)x0], hi = bp->cell_start[row + (size_t)x1 + 1];
        if (!bp_reserve((void **)&list->pairs, &list->capacity, list->count + (hi - lo) + 1,
                        sizeof(bp_pair)))
            return false;
        list->count = pair_run(world, bp->items, lo, hi, a, job->margin, mask, list->pairs,
                               list->count);
    }
    return true;
}

/* The big slot: each big ball's pairs with the balls in cells, then with
 * the big balls after it, in the order of the big balls. */
static bool pair_big(const pairing_job *job, bp_strip_list *list)
{
    const bp_broadphase *bp = job->bp;
    const bp_world *world = job->world;
    list->count = 0;
    for (size_t k = 0; k < bp->big_count; k++) {
        uint32_t a = bp->big[k];
        if (!pair_around(job, a, list))
            return false;
        uint8_t mask = bp->awake_pairs_only ? (world->flags[a] & BP_BALL_ASLEEP) : 0;
        for (size_t j = k + 1; j < bp->big_count; j++) {
            uint32_t b = bp->big[j];
            if (!near(world, a, b, job->margin) || (mask & world->flags[b]))
                continue;
            if (!bp_reserve((void **)&list->pairs, &list->capacity, list->count + 1,
                            sizeof(bp_pair)))
                return false;
            list->pairs[list->count++] = (bp_pair){a, b};
        }
    }
    return true;
}

static void pair_strip_piece(void *context, int strip)
{
    const pairing_job *job = context;
    bp_strip_list *list = &job->bp->lists[strip];
    if (strip == job->bp->strips)
        list->failed = !pair_big(job, list);
    else if (job->skip)
        list->failed = !pair_strip(job, strip, list);
    else
        list->failed = !pair_strip_awake(job, strip, list);
}

/* Strip of slot j: the even strips in order, then the odd ones. */
static int strip_of_slot(const bp_broadphase *bp, int j)
{
    return j < bp->even_strips ? 2 * j : 2 * (j - bp->even_strips) + 1;
}

/* The pairs of every strip, one after the other in slot order, then the
 * big slot's. */
/* Copies slot j's pairs to their place in the concatenated list. */
static void copy_slot(void *context, int j)
{
    bp_broadphase *bp = context;
    const bp_strip_list *list = &bp->lists[j < bp->strips ? strip_of_slot(bp, j) : bp->strips];
    if (list->count) /* an empty strip may have no buffer at all */
        memcpy(bp->pairs + bp->strip_first[j], list->pairs, list->count * sizeof(bp_pair));
}

static bool concatenate_strips(bp_broadphase *bp, bp_workers *workers)
{
    int strips = bp->strips;
    bp->pair_count = 0;
    size_t total = 0;
    for (int s = 0; s <= strips; s++) {
        if (bp->lists[s].failed)
            return false;
        total += bp->lists[s].count;
    }
    bp->pairs = bp_scratch_alloc(bp->scratch, total + 1, sizeof(bp_pair));
    if (!bp->pairs)
        return false;
    for (int j = 0; j <= strips; j++) {
        bp->strip_first[j] = bp->pair_count;
        bp->pair_count += bp->lists[j < strips ? strip_of_slot(bp, j) : strips].count;
    }
    bp->strip_first[strips + 1] = bp->pair_count;
    bp->busy = bp_scratch_alloc(bp->scratch, (size_t)strips + 2, sizeof(int));
    if (!bp->busy)
        return false;
    int busy = 0;
    for (int j = 0; j <= strips; j++) {
        if (j == bp->even_strips)
            bp->busy_even = busy;
        if (j == strips)
            bp->busy_odd = busy - bp->busy_even;
        if (bp->strip_first[j + 1] > bp->strip_first[j])
            bp->busy[busy++] = j;
    }
    bp->busy_big = busy - bp->busy_even - bp->busy_odd;
    bp_workers_run(workers, copy_slot, bp, strips + 1);
    return true;
}

bool bp_broadphase_pairs(bp_broadphase *bp, const bp_world *world, double margin,
                         bp_workers *workers)
{
    bp->pair_count = 0;
    int strips = strip_count(bp);
    if (!scratch_of(bp))
        return false;
    if ((size_t)strips > bp->strips_capacity || !bp->lists) {
        /* A list per strip and one for the big slot. */
        bp_strip_list *lists = realloc(bp->lists, ((size_t)strips + 1) * sizeof *lists);
        if (!lists)
            return false;
        size_t had = bp->lists ? bp->strips_capacity + 1 : 0;
        bp->lists = lists;
        for (size_t s = had; s <= (size_t)strips; s++)
            bp->lists[s] = (bp_strip_list){0};
        bp->strips_capacity = (size_t)strips;
    }
    /* Each slot's first pair, and the end. */
    bp->strip_first = bp_scratch_alloc(bp->scratch, (size_t)strips + 2, sizeof(size_t));
    if (!bp->strip_first)
        return false;
    bp->strips = strips;
    bp->even_strips = (strips + 1) / 2;

    /* Without a sleeper, leaving out pairs of two leaves out none. */
    uint8_t skip = bp->awake_pairs_only &&
                           bp_scan_bytes(world->flags, 0, world->count, BP_BALL_ASLEEP, true) <
                               world->count
                       ? BP_BALL_ASLEEP
                       : 0;
    pairing_job job = {bp, world, margin, skip};
    bp->lists[strips].count = 0;
    bp->lists[strips].failed = false;
    bp_workers_run(workers, pair_strip_piece, &job, strips + (bp->big_count > 0));
    return concatenate_strips(bp, workers);
}

bool bp_broadphase_add_woken(bp_broadphase *bp, const bp_world *world, double margin,
                             const uint32_t *woken, size_t count, bp_workers *workers)
{
    size_t had = bp->woken_mark_capacity;
    if (!scratch_of(bp) || !bp_reserve((void **)&bp->woken_mark, &bp->woken_mark_capacity,
                                       world->count + 1, sizeof(uint8_t)))
        return false;
    memset(bp->woken_mark + had, 0, bp->woken_mark_capacity - had);
    uint8_t *woken_mark = bp->woken_mark;
    for (size_t k = 0; k < count; k++)
        woken_mark[woken[k]] = 1;
    bool ok = true;
    int cols = bp->shape.cols, rows = bp->shape.rows;
    uint32_t extra = (uint32_t)cols * (uint32_t)rows;
    bp_strip_list *big_list = &bp->lists[bp->strips];
    for (size_t k = 0; k < count && ok; k++) {
        uint32_t w = woken[k];
        /* Its cell and the cells around it; a big ball's, as far as it
         * reaches, and its pairs go to the big slot. */
        bool big = bp->ball_cell[w] == extra;
        int cx = (int)(bp->ball_cell[w] % (uint32_t)cols);
        int cy = (int)(bp->ball_cell[w] / (uint32_t)cols);
        int span = 1;
        if (big) {
            double inv_cell = 1.0 / bp->shape.cell;
            cx = bp_grid_clamp(world->x[w] * inv_cell, cols);
            cy = bp_grid_clamp(world->y[w] * inv_cell, rows);
            span = (int)ceil((world->r[w] + bp->small_r + margin) * inv_cell);
        }
        bp_strip_list *list = big ? big_list : &bp->lists[cx / BP_STRIP_COLS];
        for (int y = cy - span; y <= cy + span && ok; y++)
            for (int x = cx - span; x <= cx + span && ok; x++) {
                if (x < 0 || x >= cols || y < 0 || y >= rows)
                    continue;
                size_t c = (size_t)y * (size_t)cols + (size_t)x;
                for (uint32_t s = bp->cell_start[c]; s < bp->cell_start[c + 1]; s++) {
                    uint32_t b = bp->items[s];
                    /* Pairs with balls awake all along are listed; two
                     * woken ones are paired once. */
                    bool missing = (world->flags[b] & BP_BALL_ASLEEP) ||
                                   (woken_mark[b] && b > w);
                    if (!missing || !near(world, w, b, margin))
                        continue;
                    if (!bp_reserve((void **)&list->pairs, &list->capacity, list->count + 1,
                                    sizeof(bp_pair))) {
                        ok = false;
                        break;
                    }
                    list->pairs[list->count++] = (bp_pair){w, b};
                }
            }
        /* The big balls are in no cell: each is looked at. */
        for (size_t j = 0; j < bp->big_count && ok; j++) {
            uint32_t b = bp->big[j];
            bool missing = (world->flags[b] & BP_BALL_ASLEEP) || (woken_mark[b] && b > w);
            if (b == w || !missing || !near(world, w, b, margin))
                continue;
            ok = bp_reserve((void **)&big_list->pairs, &big_list->capacity, big_list->count + 1,
                            sizeof(bp_pair));
            if (ok)
                big_list->pairs[big_list->count++] = (bp_pair){w, b};
        }
    }
    for (size_t k = 0; k < count; k++)
        woken_mark[woken[k]] = 0;
    return ok && concatenate_strips(bp, workers);
}
