/* Fast-ball sweep.
 *
 * Each ball has a time within the step, as a fraction in [0, 1]: the fast
 * ones start at 0 (held back), everyone else is already at 1. A position at
 * any other time is extrapolated along the ball's velocity, backwards too,
 * which for a slow ball is at most half its radius off its real path.
 *
 * A queue takes the fast balls one at a time. For the ball at the head, the
 * earliest ball it would touch while approaching fast is found (a quadratic
 * in the relative motion); the ball moves there with its wall sweep (a wall
 * on the way ends that and the search starts again from the wall), the
 * partner is brought to the same time, the collision law of collide.h acts,
 * and both go on from there: the partner joins the queue, since whatever it
 * does next happens after the impact. Pairs closing by less than
 * BP_FAST_FRACTION of their summed radii per step are left to the solver,
 * so the sweep never changes how slow crowds behave.
 *
 * Candidates come from a coarse grid that holds only what is near a fast
 * path: cells along each fast path are marked, one pass puts every ball in a
 * marked cell into it, and a path that leaves the marked cells (a ball sent
 * off by an impact) marks more and repeats that pass. Every fast ball is
 * also entered in the cells along its path, so two fast balls find each
 * other wherever they cross. */
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "scratch.h"
#include "bytescan.h"
#include "collide.h"
#include "grid.h"
#include "grow.h"
#include "workers.h"

/* Searches for the next impact per queued ball before it just moves on. */
#define BP_SWEEP_EVENTS 16
/* One fast ball in this many or more: every ball is filed at once. */
#define BP_SWEEP_CROWD 16
/* Passes that extend the grid before it takes every ball at once. */
#define BP_SWEEP_EXTENDS 8
/* Work a run may do (cells looked at and balls tested), per ball of the
 * world and of the queue, and at least: past it the balls still queued
 * creep on (creep_to_end), so that no speed or crowd makes a step take
 * unbounded time. Ordinary fast crowds stay far below it: the pits use at
 * most 3 a ball, a gas at 10^5 px/s 170; at 10^6 px/s it would be 4,400. */
#define BP_SWEEP_WORK_PER_BALL 256
#define BP_SWEEP_WORK_MIN 65536
/* Cells per side of a block: each block keeps the velocity box of every
 * ball filed in its cells, so that a search whose cells all lie in calm
 * blocks need not visit its 20-30 cells one by one. */
#define BP_SWEEP_BLOCK 4

/* IN_PATH: the ball's path from its time on, at its velocity, is marked and
 * entered in the grid. */
enum { IN_QUEUE = 1u, IN_GRID = 2u, IN_PATH = 4u };

struct bp_sweep {
    size_t capacity;  /* per-ball arrays */
    uint32_t *stamp;  /* == step_stamp: time[] and state[] are this step's */
    double *time;     /* fraction of the step reached */
    uint8_t *state;   /* IN_* */
    uint8_t *held;    /* 1: bp_sweep_hold, for the next run */
    uint32_t step_stamp;

    /* The grid's cells (head, mark, cell_stamp, vbox) are kept from run to
     * run, head and mark cleared after each; what is marked with (scratch)
     * is one run's, from the world's scratch arena, with room for the
     * *_room elements that run asked for so far. */
    bp_scratch *scratch;  /* the world's, during a run */
    uint32_t *queue;      /* scratch */
    size_t queue_head, queue_count, queue_room;

    bp_grid_shape shape; /* over the arena, cells as wide as the largest ball */
    double dt, r_max, reach;
    size_t cells, cells_capacity;
    int32_t *head;        /* first node of a cell, -1 when empty */
    uint8_t *mark;
    uint32_t *cell_stamp; /* == query_stamp: visited by the current walk */
    double *vbox;         /* per cell: min vx, max vx, min vy, max vy of its balls */
    double *block_vbox;   /* the same per block of BP_SWEEP_BLOCK^2 cells (scratch) */
    int block_cols;
    size_t blocks;
    double *hood_spread2; /* per block: spread_around_blocks (scratch) */
    double *piece_vbox;   /* drop_calm's block boxes of pieces 1 on (scratch) */
    uint8_t *calm;        /* drop_calm: per queued ball, whether it went (scratch) */
    uint32_t query_stamp;
    int fresh[4];         /* x0, x1, y0, y1: the cells marked since the last fill */
    uint32_t *touched;    /* cells to reset after the run (scratch) */
    size_t touched_count, touched_room;
    int32_t *next;        /* the cells' lists of balls (scratch) */
    uint32_t *node_ball;
    size_t node_count, node_room;
    int extends;
    size_t events_left; /* impacts still allowed this step, so that it ends */
    size_t work_left;   /* cells and balls still to be looked at this run */
    bool spent;         /* work_left ran out: searches are cut short */
    bool everything; /* every ball is in the grid */
    bool failed;
};

void bp_sweep_destroy(bp_sweep *sw)
{
    if (!sw)
        return;
    free(sw->stamp);
    free(sw->time);
    free(sw->state);
    free(sw->held);
    free(sw->head);
    free(sw->mark);
    free(sw->cell_stamp);
    free(sw->vbox);
    free(sw);
}

bool bp_sweep_reserve(bp_world *world)
{
    if (!world->sweep) {
        world->sweep = calloc(1, sizeof(bp_sweep));
        if (!world->sweep)
            return false;
    }
    bp_sweep *sw = world->sweep;
    size_t n = world->count;
    if (n <= sw->capacity)
        return true;
    size_t c1 = sw->capacity, c2 = c1, c3 = c1, c4 = c1;
    if (!bp_reserve((void **)&sw->stamp, &c1, n, sizeof(uint32_t)) ||
        !bp_reserve((void **)&sw->time, &c2, n, sizeof(double)) ||
        !bp_reserve((void **)&sw->state, &c3, n, sizeof(uint8_t)) ||
        !bp_reserve((void **)&sw->held, &c4, c1, sizeof(uint8_t)))
        return false;
    /* New slots must not look stamped or held. */
    memset(sw->stamp + sw->capacity, 0, (c1 - sw->capacity) * sizeof(uint32_t));
    memset(sw->held + sw->capacity, 0, c1 - sw->capacity);
    sw->capacity = c1;
    return true;
}

static void begin(bp_world *world)
{
    bp_sweep *sw = world->sweep;
    if (++sw->step_stamp == 0) {
        memset(sw->stamp, 0, sw->capacity * sizeof(uint32_t));
        sw->step_stamp = 1;
    }
    sw->scratch = world->scratch;
    sw->queue = NULL;
    sw->queue_head = sw->queue_count = sw->queue_room = 0;
    sw->failed = false;
}

static void touch(bp_sweep *sw, size_t i, double t)
{
    if (sw->stamp[i] != sw->step_stamp) {
        sw->stamp[i] = sw->step_stamp;
        sw->state[i] = 0;
    }
    sw->time[i] = t;
}

static double time_of(const bp_sweep *sw, size_t i)
{
    return sw->stamp[i] == sw->step_stamp ? sw->time[i] : 1.0;
}

static uint8_t state_of(const bp_sweep *sw, size_t i)
{
    return sw->stamp[i] == sw->step_stamp ? sw->state[i] : 0;
}

static void enqueue(bp_sweep *sw, size_t i)
{
    if (sw->state[i] & IN_QUEUE)
        return;
    if (!bp_scratch_reserve(sw->scratch, (void **)&sw->queue, &sw->queue_room, sw->queue_count,
                            sw->queue_count + 1, sizeof(uint32_t))) {
        sw->failed = true;
        return;
    }
    sw->queue[sw->queue_count++] = (uint32_t)i;
    sw->state[i] |= IN_QUEUE;
}

void bp_sweep_hold(bp_world *world, size_t i)
{
    world->sweep->held[i] = 1;
}

/* The index along an axis of n cells of coordinate v (inv: 1 / cell). */
static inline int cell_of(double v, double inv, int n)
{
    return bp_grid_clamp(v * inv, n);
}

/* Velocity boxes: min vx, max vx, min vy, max vy; empty when min > max. */
static void vbox_clear(double *b)
{
    b[0] = b[2] = INFINITY;
    b[1] = b[3] = -INFINITY;
}

static void vbox_add(double *b, double vx, double vy)
{
    b[0] = vx < b[0] ? vx : b[0];
    b[1] = vx > b[1] ? vx : b[1];
    b[2] = vy < b[2] ? vy : b[2];
    b[3] = vy > b[3] ? vy : b[3];
}

/* Whether every velocity in the box differs from (vx, vy) by at most
 * sqrt(slow2): true for an empty box. */
static bool vbox_slow(const double *b, double vx, double vy, double slow2)
{
    if (b[0] > b[1])
        return true;
    double ex0 = fabs(vx - b[0]), ex1 = fabs(vx - b[1]);
    double ey0 = fabs(vy - b[2]), ey1 = fabs(vy - b[3]);
    double ex = ex0 > ex1 ? ex0 : ex1, ey = ey0 > ey1 ? ey0 : ey1;
    return ex * ex + ey * ey <= slow2;
}

/* The velocity box of block (bx, by), in blocks. */
static double *block_box(const bp_sweep *sw, size_t bx, size_t by)
{
    return &sw->block_vbox[4 * (by * (size_t)sw->block_cols + bx)];
}

static void no_fresh_cells(bp_sweep *sw)
{
    sw->fresh[0] = sw->fresh[2] = INT32_MAX;
    sw->fresh[1] = sw->fresh[3] = -1;
}

static bool layout(bp_sweep *sw, const bp_world *world)
{
    /* The run's lists start empty: nothing is filed in a cell yet. */
    sw->touched = NULL;
    sw->next = NULL;
    sw->node_ball = NULL;
    sw->touched_count = sw->touched_room = sw->node_count = sw->node_room = 0;
    double w = world->params.width, h = world->params.height;
    bp_grid_shape shape =
        bp_grid_lay(0.0, 0.0, w, h, 2.0 * sw->r_max > 4.0 ? 2.0 * sw->r_max : 4.0,
                    world->count * 4.0 > 4096.0 ? world->count * 4.0 : 4096.0);
    int cols = shape.cols, rows = shape.rows;
    size_t cells = bp_grid_cells(&shape);
    if (cells > sw->cells_capacity) {
        /* Every array holds cells_capacity cells: the velocity boxes are
         * reserved for the capacity the others got, not for cells (grown
         * from 64 up, 4 * cells may stop short of 4 * capacity, and a later
         * world of more cells, still within capacity, wrote past them). */
        size_t c1 = sw->cells_capacity, c2 = c1, c3 = c1, c4 = c1 * 4;
        if (!bp_reserve((void **)&sw->head, &c1, cells, sizeof(int32_t)) ||
            !bp_reserve((void **)&sw->mark, &c2, c1, sizeof(uint8_t)) ||
            !bp_reserve((void **)&sw->cell_stamp, &c3, c1, sizeof(uint32_t)) ||
            !bp_reserve((void **)&sw->vbox, &c4, c1 * 4, sizeof(double)))
            return false;
        sw->cells_capacity = c1;
    }
    if (cells != sw->cells || cols != sw->shape.cols) {
        for (size_t c = 0; c < cells; c++)
            sw->head[c] = -1;
        memset(sw->mark, 0, cells);
        memset(sw->cell_stamp, 0, cells * sizeof(uint32_t));
        sw->query_stamp = 0;
    }
    int block_cols = (cols + BP_SWEEP_BLOCK - 1) / BP_SWEEP_BLOCK;
    size_t blocks = (size_t)block_cols * (size_t)((rows + BP_SWEEP_BLOCK - 1) / BP_SWEEP_BLOCK);
    sw->block_vbox = bp_scratch_alloc(sw->scratch, blocks * 4, sizeof(double));
    if (!sw->block_vbox)
        return false;
    for (size_t k = 0; k < blocks; k++)
        vbox_clear(&sw->block_vbox[4 * k]);
    sw->block_cols = block_cols;
    sw->blocks = blocks;
    sw->shape = shape;
    sw->cells = cells;
    sw->extends = 0;
    no_fresh_cells(sw);
    sw->everything = false;
    return true;
}

/* Empties every cell the run filed or marked, so that the next run starts
 * from an empty grid. Out of memory, a cell may have been filed without
 * being listed: then every cell is emptied. */
static void finish_grid(bp_sweep *sw)
{
    if (sw->failed) {
        for (size_t c = 0; c < sw->cells; c++)
            sw->head[c] = -1;
        memset(sw->mark, 0, sw->cells);
    }
    for (size_t k = 0; k < sw->touched_count; k++) {
        sw->head[sw->touched[k]] = -1;
        sw->mark[sw->touched[k]] = 0;
    }
    sw->touched_count = 0;
}

/* Lists cell c among the cells the run touches (once); false when memory
 * runs out, and then the cell must stay untouched. */
static inline bool note_cell(bp_sweep *sw, size_t c)
{
    if (sw->mark[c] || sw->head[c] >= 0)
        return true;
    if (!bp_scratch_reserve(sw->scratch, (void **)&sw->touched, &sw->touched_room,
                            sw->touched_count, sw->touched_count + 1, sizeof(uint32_t))) {
        sw->failed = true;
        return false;
    }
    sw->touched[sw->touched_count++] = (uint32_t)c;
    vbox_clear(&sw->vbox[4 * c]);
    return true;
}

/* Files ball (at its current velocity) under cell c. */
static void insert(bp_sweep *sw, const bp_world *world, size_t c, size_t ball)
{
    if (!note_cell(sw, c))
        return;
    double vx = world->vx[ball], vy = world->vy[ball];
    vbox_add(&sw->vbox[4 * c], vx, vy);
    size_t gx = c % (size_t)sw->shape.cols, gy = c / (size_t)sw->shape.cols;
    vbox_add(block_box(sw, gx / BP_SWEEP_BLOCK, gy / BP_SWEEP_BLOCK), vx, vy);
    if (sw->head[c] >= 0 && sw->node_ball[sw->head[c]] == ball)
        return;
    /* The two arrays grow alike, from the same room. */
    size_t next_room = sw->node_room, ball_room = sw->node_room;
    if (!bp_scratch_reserve(sw->scratch, (void **)&sw->next, &next_room, sw->node_count,
                            sw->node_count + 1, sizeof(int32_t)) ||
        !bp_scratch_reserve(sw->scratch, (void **)&sw->node_ball, &ball_room, sw->node_count,
                            sw->node_count + 1, sizeof(uint32_t))) {
        sw->failed = true;
        return;
    }
    sw->node_room = next_room;
    int32_t node = (int32_t)sw->node_count++;
    sw->node_ball[node] = (uint32_t)ball;
    sw->next[node] = sw->head[c];
    sw->head[c] = node;
}

typedef void (*cell_visitor)(bp_sweep *sw, size_t c, void *ctx);

/* Counts units of work against the run's budget; true while some is left. */
static bool spend(bp_sweep *sw, size_t units)
{
    if (units < sw->work_left) {
        sw->work_left -= units;
        return true;
    }
    sw->work_left = 0;
    sw->spent = true;
    return false;
}

/* Cuts the path from (*x,*y) by (*dx,*dy) to the part within margin px of
 * the arena, when it leaves that. The cells out there are the edge cells
 * again and again, and nothing can be met there: every centre stands in
 * the arena and a partner traced back is at most its radius off, so a ball
 * touches another only within its own radius and twice the largest one. */
static void clip_to_arena(const bp_world *world, double *x, double *y, double *dx, double *dy,
                          double margin)
{
    double lo[2] = {-margin, -margin};
    double hi[2] = {world->params.width + margin, world->params.height + margin};
    double o[2] = {*x, *y}, d[2] = {*dx, *dy};
    double e[2] = {o[0] + d[0], o[1] + d[1]};
    if (e[0] >= lo[0] && e[0] <= hi[0] && e[1] >= lo[1] && e[1] <= hi[1])
        return;
    double u0 = 0.0, u1 = 1.0;
    for (int a = 0; a < 2; a++) {
        if (d[a] == 0.0)
            continue;
        double ua = (lo[a] - o[a]) / d[a], ub = (hi[a] - o[a]) / d[a];
        u0 = fmax(u0, fmin(ua, ub));
        u1 = fmin(u1, fmax(ua, ub));
    }
    if (!(u0 <= u1))
        return; /* a start outside that never comes in: left as it is */
    *x = o[0] + u0 * d[0];
    *y = o[1] + u0 * d[1];
    *dx = (u1 - u0) * d[0];
    *dy = (u1 - u0) * d[1];
}

/* Whether the path from (x,y) by (dx,dy) is short enough for one box of
 * cells to cover it, grown by grow_px: [x0, x1] x [y0, y1]. */
static bool short_path_box(const bp_sweep *sw, double x, double y, double dx, double dy,
                           double grow_px, int box[4])
{
    if (dx * dx + dy * dy > 4.0 * sw->shape.cell * sw->shape.cell)
        return false;
    double inv = 1.0 / sw->shape.cell;
    box[0] = cell_of((dx < 0.0 ? x + dx : x) - grow_px, inv, sw->shape.cols);
    box[1] = cell_of((dx < 0.0 ? x : x + dx) + grow_px, inv, sw->shape.cols);
    box[2] = cell_of((dy < 0.0 ? y + dy : y) - grow_px, inv, sw->shape.rows);
    box[3] = cell_of((dy < 0.0 ? y : y + dy) + grow_px, inv, sw->shape.rows);
    return true;
}

/* walk's long paths: samples along the path a cell apart, a block of cells
 * around each, each cell visited once. */
static void walk_long(bp_sweep *sw, const bp_world *world, double x, double y, double dx,
                      double dy, double grow_px, cell_visitor visit, void *ctx)
{
    /* grow_px is at least 0, the reach twice the largest radius. */
    clip_to_arena(world, &x, &y, &dx, &dy, grow_px + 2.0 * sw->reach);
    double len = sqrt(dx * dx + dy * dy);
    double inv = 1.0 / sw->shape.cell;
    double n = len * inv + 1.0;
    size_t samples = n < (double)sw->cells ? (size_t)n : sw->cells;
    /* A point between two samples is within half their spacing of one. */
    grow_px += 0.5 * len / (double)samples;
    if (++sw->query_stamp == 0) {
        memset(sw->cell_stamp, 0, sw->cells * sizeof(uint32_t));
        sw->query_stamp = 1;
    }
    for (size_t k = 0; k <= samples; k++) {
        double f = (double)k / (double)samples;
        double sx = x + f * dx, sy = y + f * dy;
        int x0 = cell_of(sx - grow_px, inv, sw->shape.cols), x1 = cell_of(sx + grow_px, inv, sw->shape.cols);
        int y0 = cell_of(sy - grow_px, inv, sw->shape.rows), y1 = cell_of(sy + grow_px, inv, sw->shape.rows);
        if (!spend(sw, (size_t)(x1 - x0 + 1) * (size_t)(y1 - y0 + 1)))
            return;
        for (int gy = y0; gy <= y1; gy++)
            for (int gx = x0; gx <= x1; gx++) {
                size_t c = (size_t)gy * (size_t)sw->shape.cols + (size_t)gx;
                if (sw->cell_stamp[c] == sw->query_stamp)
                    continue;
                sw->cell_stamp[c] = sw->query_stamp;
                visit(sw, c, ctx);
            }
    }
}

/* Visits each cell within grow_px of the path from (x,y) by (dx,dy) once,
 * counting the cells looked at against the run's work. */
static inline void walk(bp_sweep *sw, const bp_world *world, double x, double y, double dx,
                        double dy, double grow_px, cell_visitor visit, void *ctx)
{
    int box[4];
    if (!short_path_box(sw, x, y, dx, dy, grow_px, box)) {
        walk_long(sw, world, x, y, dx, dy, grow_px, visit, ctx);
        return;
    }
    /* Short paths (nearly all): one box, no cell visited twice. */
    int x0 = box[0], x1 = box[1], y0 = box[2], y1 = box[3];
    if (!spend(sw, (size_t)(x1 - x0 + 1) * (size_t)(y1 - y0 + 1)))
        return;
    for (int gy = y0; gy <= y1; gy++)
        for (int gx = x0; gx <= x1; gx++)
            visit(sw, (size_t)gy * (size_t)sw->shape.cols + (size_t)gx, ctx);
}

static void visit_mark(bp_sweep *sw, size_t c, void *ctx)
{
    (void)ctx;
    if (sw->mark[c] || !note_cell(sw, c))
        return;
    sw->mark[c] = 1;
    int gx = (int)(c % (size_t)sw->shape.cols), gy = (int)(c / (size_t)sw->shape.cols);
    sw->fresh[0] = gx < sw->fresh[0] ? gx : sw->fresh[0];
    sw->fresh[1] = gx > sw->fresh[1] ? gx : sw->fresh[1];
    sw->fresh[2] = gy < sw->fresh[2] ? gy : sw->fresh[2];
    sw->fresh[3] = gy > sw->fresh[3] ? gy : sw->fresh[3];
}

/* What visit_insert files: a ball of a world. */
typedef struct filing {
    const bp_world *world;
    size_t ball;
} filing;

static void visit_insert(bp_sweep *sw, size_t c, void *ctx)
{
    const filing *f = ctx;
    insert(sw, f->world, c, f->ball);
}

static void visit_check(bp_sweep *sw, size_t c, void *ctx)
{
    if (!sw->mark[c])
        *(bool *)ctx = false;
}

/* Puts every ball that stands in a marked cell and is not in yet into the
 * grid. Only the cells marked since the last fill can hold such a ball:
 * the balls in the others went in then, and a ball moved since went in
 * along its new path (enter_path). */
static void fill(bp_sweep *sw, const bp_world *world)
{
    /* The box of those cells, a cell wider each way against rounding: a
     * ball outside it stands in none of them. A few fast balls in a big
     * world that rests mark a few cells, and most balls are then passed
     * over with four comparisons; so are the balls of a landing crowd when
     * one ball's new path marks more (in the 100k pit's landing, those
     * fills looked at 75,000 balls each). */
    int x0 = sw->fresh[0], x1 = sw->fresh[1], y0 = sw->fresh[2], y1 = sw->fresh[3];
    no_fresh_cells(sw);
    if (x1 < 0)
        return;
    /* Edge cells also hold whatever lies beyond the arena's sides. */
    double lo_x = x0 > 0 ? (x0 - 1) * sw->shape.cell : -INFINITY;
    double hi_x = x1 < sw->shape.cols - 1 ? (x1 + 2) * sw->shape.cell : INFINITY;
    double lo_y = y0 > 0 ? (y0 - 1) * sw->shape.cell : -INFINITY;
    double hi_y = y1 < sw->shape.rows - 1 ? (y1 + 2) * sw->shape.cell : INFINITY;
    double inv = 1.0 / sw->shape.cell;
    for (size_t j = 0; j < world->count; j++) {
        double x = world->x[j], y = world->y[j];
        if (x < lo_x || x >= hi_x || y < lo_y || y >= hi_y)
            continue;
        size_t c = (size_t)cell_of(world->y[j], inv, sw->shape.rows) * (size_t)sw->shape.cols +
                   (size_t)cell_of(world->x[j], inv, sw->shape.cols);
        if (!sw->mark[c] || (state_of(sw, j) & IN_GRID))
            continue;
        touch(sw, j, time_of(sw, j));
        sw->state[j] |= IN_GRID;
        insert(sw, world, c, j);
    }
}

/* Files every ball under the cell it stands in (fast ones are filed along
 * their paths too; a second entry only costs a repeated test). */
static void fill_all(bp_sweep *sw, const bp_world *world)
{
    double inv = 1.0 / sw->shape.cell;
    for (size_t j = 0; j < world->count; j++)
        insert(sw, world,
               (size_t)cell_of(world->y[j], inv, sw->shape.rows) * (size_t)sw->shape.cols +
                   (size_t)cell_of(world->x[j], inv, sw->shape.cols),
               j);
}

static void enter_path(bp_sweep *sw, const bp_world *world, size_t i)
{
    double left = (1.0 - time_of(sw, i)) * sw->dt;
    filing f = {world, i};
    /* Along the centre's own path is enough: whoever can touch the ball
     * searches within its reach of it, which covers these cells. */
    walk(sw, world, world->x[i], world->y[i], world->vx[i] * left, world->vy[i] * left, 0.0,
         visit_insert, &f);
    sw->state[i] |= IN_GRID;
}

/* Marks the cells of ball i's remaining path and fills them if they were not
 * all marked yet. */
static void cover_path(bp_sweep *sw, const bp_world *world, size_t i)
{
    if (sw->everything)
        return;
    double left = (1.0 - time_of(sw, i)) * sw->dt;
    double dx = world->vx[i] * left, dy = world->vy[i] * left;
    double grow_px = world->r[i] + sw->reach;
    bool all_marked = true;
    walk(sw, world, world->x[i], world->y[i], dx, dy, grow_px, visit_check, &all_marked);
    if (all_marked)
        return;
    if (++sw->extends > BP_SWEEP_EXTENDS) {
        for (size_t c = 0; c < sw->cells; c++) {
            note_cell(sw, c);
            sw->mark[c] = 1;
        }
        sw->fresh[0] = sw->fresh[2] = 0;
        sw->fresh[1] = sw->shape.cols - 1;
        sw->fresh[3] = sw->shape.rows - 1;
        sw->everything = true;
    } else {
        walk(sw, world, world->x[i], world->y[i], dx, dy, grow_px, visit_mark, NULL);
    }
    fill(sw, world);
}

/* Earliest time in [t0, 1] at which balls a (at time t0) and b close in to
 * touching while approaching faster than BP_FAST_FRACTION of their summed
 * radii per step; < 0 when they do not. */
static double pair_toi(const bp_world *world, const bp_sweep *sw, size_t a, size_t b, double t0)
{
    double dt = sw->dt, span = 1.0 - t0;
    double wx = (world->vx[b] - world->vx[a]) * span * dt;
    double wy = (world->vy[b] - world->vy[a]) * span * dt;
    double R = world->r[a] + world->r[b];
    double ww = wx * wx + wy * wy;
    double slow = BP_FAST_FRACTION * R;
    if (ww <= slow * slow)
        return -1.0;
    double tb = time_of(sw, b);
    if (tb > t0) {
        /* Tracing b back is only safe for a short way: a fast ball that is
         * already past t0 may have turned at a wall since. */
        double back = (tb - t0) * dt, reach = BP_FAST_FRACTION * world->r[b];
        if ((world->vx[b] * world->vx[b] + world->vy[b] * world->vy[b]) * back * back >
            reach * reach)
            return -1.0;
    }
    double bx = world->x[b] + world->vx[b] * (t0 - tb) * dt;
    double by = world->y[b] + world->vy[b] * (t0 - tb) * dt;
    double px = bx - world->x[a], py = by - world->y[a];
    double bq = px * wx + py * wy;
    double pp = px * px + py * py;
    /* Closing along the line of centres; a pair that has just collided is
     * level here up to rounding and must not be found again. */
    if (!(bq < -BP_APPROACH_COS * sqrt(pp * ww)))
        return -1.0;
    double c = pp - R * R;
    if (c <= 0.0) /* already overlapping: ours only if it closes fast */
        return bq * bq > slow * slow * pp ? t0 : -1.0;
    double disc = bq * bq - ww * c;
    if (disc < 0.0)
        return -1.0;
    double u = c / (-bq + sqrt(disc));
    return u <= 1.0 ? t0 + u * span : -1.0;
}

/* Moves ball i from its time to time t (never backwards through walls: a
 * ball ahead of t is traced back along its velocity). Returns the time it
 * reached, which is short of t when a wall stopped it (stop_at_wall). */
static double bring_to(bp_world *world, bp_sweep *sw, size_t i, double t, bool stop_at_wall,
                       double rest_speed)
{
    double ti = time_of(sw, i);
    if (ti > t) {
        world->x[i] -= world->vx[i] * (ti - t) * sw->dt;
        world->y[i] -= world->vy[i] * (ti - t) * sw->dt;
        touch(sw, i, t);
        return t;
    }
    double left = bp_arena_move(world, i, (t - ti) * sw->dt, (1.0 - t) * sw->dt, sw->dt,
                                BP_MAX_IMPACTS, stop_at_wall, rest_speed);
    double reached = stop_at_wall ? t - left / sw->dt : t;
    touch(sw, i, reached);
    return reached;
}

/* Moves ball i on to the end of the step without looking for other balls,
 * for the balls the sweep had no work left for: slowed first, if need be,
 * to BP_FAST_FRACTION of its radius over the time left, the most the
 * solver takes alone. Such a ball cannot pass through another; a fast
 * crowd left unswept does not all reach the floor in one go, where it
 * would lie in a line of balls deep in each other (hundreds of pairs a
 * ball for the solver); and the energy only goes down (moving less far at
 * the same speed would leave it the speed of a fall it never made). */
static void creep_to_end(bp_world *world, bp_sweep *sw, size_t i, double rest_speed)
{
    double left = (1.0 - time_of(sw, i)) * sw->dt;
    double v2 = world->vx[i] * world->vx[i] + world->vy[i] * world->vy[i];
    double most = BP_FAST_FRACTION * world->r[i];
    if (v2 * left * left > most * most) {
        double scale = most / (sqrt(v2) * left);
        world->vx[i] *= scale;
        world->vy[i] *= scale;
    }
    bp_arena_move(world, i, left, 0.0, sw->dt, BP_MAX_IMPACTS, false, rest_speed);
    touch(sw, i, 1.0);
}

typedef struct search {
    const bp_world *world;
    size_t f, partner;
    double t0, best;
    double vx, vy, slow2; /* f's velocity; closing speeds^2 the solver can take */
} search;

static void visit_search(bp_sweep *sw, size_t c, void *ctx)
{
    search *q = ctx;
    if (sw->head[c] < 0)
        return;
    /* No ball filed here moves fast against f: the whole cell is the
     * solver's (a pair's limit is never below BP_FAST_FRACTION of f's radius). */
    if (vbox_slow(&sw->vbox[4 * c], q->vx, q->vy, q->slow2))
        return;
    size_t tested = 0;
    for (int32_t node = sw->head[c]; node >= 0; node = sw->next[node], tested++) {
        size_t j = sw->node_ball[node];
        if (j == q->f)
            continue;
        double s = pair_toi(q->world, sw, q->f, j, q->t0);
        if (s >= 0.0 && s < q->best) {
            q->best = s;
            q->partner = j;
        }
    }
    spend(sw, tested);
}

/* Whether every cell a search along a short path would visit lies in a
 * block where nothing moves fast against (vx, vy): then the search would
 * find nothing, as each cell's box lies within its block's. In a falling
 * crowd that is most fast balls: they fall with their neighbours. */
static bool calm_around(const bp_sweep *sw, double x, double y, double dx, double dy,
                        double grow_px, double vx, double vy, double slow2)
{
    int box[4];
    if (!short_path_box(sw, x, y, dx, dy, grow_px, box))
        return false;
    for (int by = box[2] / BP_SWEEP_BLOCK; by <= box[3] / BP_SWEEP_BLOCK; by++)
        for (int bx = box[0] / BP_SWEEP_BLOCK; bx <= box[1] / BP_SWEEP_BLOCK; bx++)
            if (!vbox_slow(block_box(sw, (size_t)bx, (size_t)by), vx, vy, slow2))
                return false;
    return true;
}

/* For every block of rows [row_begin, row_end), the squared spread of the
 * velocities in it and in the eight blocks around it: how far apart
 * (vx, vy) in the box of all nine can be. Empty boxes add nothing. */
static void spread_around_blocks(bp_sweep *sw, int row_begin, int row_end)
{
    int cols = sw->block_cols, rows = (int)(sw->blocks / (size_t)cols);
    for (int by = row_begin; by < row_end; by++)
        for (int bx = 0; bx < cols; bx++) {
            double hood[4];
            vbox_clear(hood);
            for (int y = by > 0 ? by - 1 : 0; y <= by + 1 && y < rows; y++)
                for (int x = bx > 0 ? bx - 1 : 0; x <= bx + 1 && x < cols; x++) {
                    const double *b = block_box(sw, (size_t)x, (size_t)y);
                    if (b[0] > b[1])
                        continue;
                    vbox_add(hood, b[0], b[2]);
                    vbox_add(hood, b[1], b[3]);
                }
            double ex = hood[0] <= hood[1] ? hood[1] - hood[0] : 0.0;
            double ey = hood[2] <= hood[3] ? hood[3] - hood[2] : 0.0;
            sw->hood_spread2[(size_t)by * (size_t)cols + (size_t)bx] = ex * ex + ey * ey;
        }
}

/* A quick yes for calm_around, for a ball standing at (x, y) among the
 * blocks it was added to, whose velocity is in their boxes: if its search
 * stays within its block and the eight around it (the search reaches less
 * than a block from the ball) and their spread is within slow2, then no
 * velocity in any of their boxes differs from its own by more, and
 * calm_around would say yes. false means: ask calm_around. */
static bool calm_hood(const bp_sweep *sw, double x, double y, double dx, double dy,
                      double grow_px, double slow2)
{
    double block_px = BP_SWEEP_BLOCK * sw->shape.cell;
    /* calm_around takes only short paths. With today's layout (a path of
     * at most 2 cells, a reach of at most 1.75 cells) the search always
     * stays within the blocks around; the test keeps that true if the
     * layout changes. */
    if (dx * dx + dy * dy > 4.0 * sw->shape.cell * sw->shape.cell || fabs(dx) + grow_px >= block_px ||
        fabs(dy) + grow_px >= block_px)
        return false;
    double inv = 1.0 / sw->shape.cell;
    size_t bx = (size_t)cell_of(x, inv, sw->shape.cols) / BP_SWEEP_BLOCK;
    size_t by = (size_t)cell_of(y, inv, sw->shape.rows) / BP_SWEEP_BLOCK;
    return sw->hood_spread2[by * (size_t)sw->block_cols + bx] <= slow2;
}

/* Adds ball j's velocity to the blocks it may stand in during the step:
 * along its path if it is queued (still at the step's start), else where
 * it stands. */
static void add_to_blocks(const bp_sweep *sw, const bp_world *world, size_t j, double inv,
                          double *boxes)
{
    double vx = world->vx[j], vy = world->vy[j];
    if (!(state_of(sw, j) & IN_QUEUE)) {
        /* Most balls, sleepers and all: one block. */
        size_t bx = (size_t)cell_of(world->x[j], inv, sw->shape.cols) / BP_SWEEP_BLOCK;
        size_t by = (size_t)cell_of(world->y[j], inv, sw->shape.rows) / BP_SWEEP_BLOCK;
        vbox_add(&boxes[4 * (by * (size_t)sw->block_cols + bx)], vx, vy);
        return;
    }
    double dx = vx * sw->dt, dy = vy * sw->dt;
    int x0 = cell_of(dx < 0.0 ? world->x[j] + dx : world->x[j], inv, sw->shape.cols);
    int x1 = cell_of(dx < 0.0 ? world->x[j] : world->x[j] + dx, inv, sw->shape.cols);
    int y0 = cell_of(dy < 0.0 ? world->y[j] + dy : world->y[j], inv, sw->shape.rows);
    int y1 = cell_of(dy < 0.0 ? world->y[j] : world->y[j] + dy, inv, sw->shape.rows);
    for (int by = y0 / BP_SWEEP_BLOCK; by <= y1 / BP_SWEEP_BLOCK; by++)
        for (int bx = x0 / BP_SWEEP_BLOCK; bx <= x1 / BP_SWEEP_BLOCK; bx++)
            vbox_add(&boxes[4 * ((size_t)by * (size_t)sw->block_cols + (size_t)bx)], vx, vy);
}

/* drop_calm's work, split into pieces by ball index (the boxes) and by
 * queue position (the calm test) for the step's threads. Boxes take the
 * least and greatest velocity of their balls, whichever piece adds them,
 * so the split changes no box. */
typedef struct calm_job {
    bp_sweep *sw;
    bp_world *world;
    int pieces;      /* of the boxes: one per thread, each with its own */
    int pass_pieces; /* of the other passes */
    bool hoods;      /* hood_spread2 holds every block's spread */
} calm_job;

static double *piece_boxes(const bp_sweep *sw, int piece)
{
    return piece == 0 ? sw->block_vbox : sw->piece_vbox + 4 * sw->blocks * (size_t)(piece - 1);
}

static void spread_piece(void *context, int piece)
{
    const calm_job *job = context;
    size_t rows = job->sw->blocks / (size_t)job->sw->block_cols;
    spread_around_blocks(job->sw, (int)bp_piece_start(rows, piece, job->pass_pieces),
                         (int)bp_piece_start(rows, piece + 1, job->pass_pieces));
}

static void add_piece_to_blocks(void *context, int piece)
{
    const calm_job *job = context;
    const bp_sweep *sw = job->sw;
    double *boxes = piece_boxes(sw, piece);
    if (piece > 0) /* piece 0's are the blocks' own, cleared by layout */
        for (size_t b = 0; b < sw->blocks; b++)
            vbox_clear(&boxes[4 * b]);
    double inv = 1.0 / sw->shape.cell;
    size_t end = bp_piece_start(job->world->count, piece + 1, job->pieces);
    for (size_t j = bp_piece_start(job->world->count, piece, job->pieces); j < end; j++)
        add_to_blocks(sw, job->world, j, inv, boxes);
}

/* Marks calm[k] for each calm queued ball of the piece, and moves it to the
 * end of the step. */
static void drop_calm_piece(void *context, int piece)
{
    const calm_job *job = context;
    bp_sweep *sw = job->sw;
    bp_world *world = job->world;
    size_t end = bp_piece_start(sw->queue_count, piece + 1, job->pass_pieces);
    for (size_t k = bp_piece_start(sw->queue_count, piece, job->pass_pieces); k < end; k++) {
        size_t f = sw->queue[k];
        double x = world->x[f], y = world->y[f];
        double dx = world->vx[f] * sw->dt, dy = world->vy[f] * sw->dt;
        double slow = BP_FAST_FRACTION * world->r[f] / sw->dt;
        double grow_px = world->r[f] + sw->reach;
        sw->calm[k] =
            bp_arena_path_open(world, x, y, dx, dy, world->r[f]) &&
            ((job->hoods && calm_hood(sw, x, y, dx, dy, grow_px, slow * slow)) ||
             calm_around(sw, x, y, dx, dy, grow_px, world->vx[f], world->vy[f], slow * slow));
        if (sw->calm[k]) {
            bp_arena_move_open(world, f, sw->dt);
            touch(sw, f, 1.0);
            sw->state[f] = 0;
        }
    }
}

/* Takes out of the queue, and moves straight to the end of the step, every
 * fast ball in open space with nothing moving fast against it anywhere near
 * its path (calm_around, on blocks that hold every ball). Its search would
 * find nothing, and a falling crowd is mostly such balls: filing them all
 * along their paths was most of the sweep's cost while a big pit landed. */
static void drop_calm(bp_sweep *sw, bp_world *world, bp_workers *workers)
{
    int threads = bp_workers_count(workers);
    calm_job job = {.sw = sw,
                    .world = world,
                    .pieces = threads,
                    .pass_pieces = bp_workers_pieces(threads, BP_WORKERS_MAX_PIECES)};
    sw->calm = bp_scratch_alloc(sw->scratch, sw->queue_count, 1);
    if (!sw->calm)
        return; /* every fast ball searches */
    sw->piece_vbox =
        bp_scratch_alloc(sw->scratch, 4 * sw->blocks * (size_t)(job.pieces - 1), sizeof(double));
    if (!sw->piece_vbox)
        job.pieces = 1;
    bp_workers_run(workers, add_piece_to_blocks, &job, job.pieces);
    for (int piece = 1; piece < job.pieces; piece++) {
        const double *from = piece_boxes(sw, piece);
        for (size_t b = 0; b < 4 * sw->blocks; b += 4) {
            double *to = &sw->block_vbox[b];
            to[0] = bp_min(to[0], from[b]);
            to[1] = bp_max(to[1], from[b + 1]);
            to[2] = bp_min(to[2], from[b + 2]);
            to[3] = bp_max(to[3], from[b + 3]);
        }
    }
    /* Out of memory, every ball asks calm_around. */
    sw->hood_spread2 = bp_scratch_alloc(sw->scratch, sw->blocks, sizeof(double));
    job.hoods = sw->hood_spread2 != NULL;
    if (job.hoods)
        bp_workers_run(workers, spread_piece, &job, job.pass_pieces);
    bp_workers_run(workers, drop_calm_piece, &job, job.pass_pieces);
    size_t kept = 0;
    for (size_t k = 0; k < sw->queue_count; k++)
        if (!sw->calm[k])
            sw->queue[kept++] = sw->queue[k];
    sw->queue_count = kept;
    for (size_t b = 0; b < sw->blocks; b++)
        vbox_clear(&sw->block_vbox[4 * b]);
}

static void run_ball(bp_world *world, bp_sweep *sw, size_t f, double rest_speed)
{
    for (int event = 0;
         event < BP_SWEEP_EVENTS && sw->events_left > 0 && !sw->failed && !sw->spent;
         event++, sw->events_left--) {
        double tf = time_of(sw, f);
        if (tf >= 1.0)
            return;
        if (!(sw->state[f] & IN_PATH)) {
            cover_path(sw, world, f);
            enter_path(sw, world, f);
            sw->state[f] |= IN_PATH;
        }
        double left = (1.0 - tf) * sw->dt;
        double slow = BP_FAST_FRACTION * world->r[f] / left;
        search q = {.world = world, .f = f, .t0 = tf, .best = 2.0, .vx = world->vx[f],
                    .vy = world->vy[f], .slow2 = slow * slow};
        double path_x = world->vx[f] * left, path_y = world->vy[f] * left;
        double grow_px = world->r[f] + sw->reach;
        if (!calm_around(sw, world->x[f], world->y[f], path_x, path_y, grow_px, q.vx, q.vy,
                         q.slow2))
            walk(sw, world, world->x[f], world->y[f], path_x, path_y, grow_px, visit_search, &q);
        if (sw->spent)
            break; /* the search may have missed the earliest impact */
        double best = q.best;
        size_t partner = q.partner;
        if (best > 1.0) {
            double reached = bring_to(world, sw, f, 1.0, true, rest_speed);
            if (reached >= 1.0)
                return;
            sw->state[f] &= (uint8_t)~IN_PATH;
            continue; /* a wall turned it: look again from there */
        }
        if (bring_to(world, sw, f, best, true, rest_speed) < best) {
            sw->state[f] &= (uint8_t)~IN_PATH;
            continue;
        }
        size_t j = partner;
        bring_to(world, sw, j, best, false, rest_speed);
        /* A sleeper is frozen with infinite mass; a hit this fast is what
         * waking is for. */
        if (world->flags[j] & BP_BALL_ASLEEP)
            bp_world_wake(world, j);
        double dx = world->x[j] - world->x[f], dy = world->y[j] - world->y[f];
        double d = sqrt(dx * dx + dy * dy);
        bool apart = d > BP_COINCIDENT_OVER_R * (world->r[f] + world->r[j]);
        double nx = apart ? dx / d : 1.0, ny = apart ? dy / d : 0.0;
        double lever_f = bp_contact_lever(world->r[f], world->r[j], d);
        bp_contact_side side_f = {&world->vx[f], &world->vy[f], &world->w[f],
                                  world->inv_mass[f], world->inv_inertia[f], lever_f};
        bp_contact_side side_j = {&world->vx[j], &world->vy[j], &world->w[j],
                                  world->inv_mass[j], world->inv_inertia[j], d - lever_f};
        bp_contact_law law = {world->params.friction, world->params.rolling};
        bp_collide_pair(&law, world->params.restitution, rest_speed, nx, ny, &side_f, &side_j);
        sw->state[f] &= (uint8_t)~IN_PATH;
        sw->state[j] &= (uint8_t)~IN_PATH;
        enqueue(sw, j);
        cover_path(sw, world, j);
        enter_path(sw, world, j);
        sw->state[j] |= IN_PATH;
    }
    if (sw->spent)
        creep_to_end(world, sw, f, rest_speed);
    else if (!sw->failed)
        bring_to(world, sw, f, 1.0, false, rest_speed);
}

static bool run(bp_world *world, double dt, double r_max, double rest_speed,
                bp_workers *workers)
{
    bp_sweep *sw = world->sweep;
    sw->dt = dt;
    sw->r_max = r_max;
    /* A slow partner may be up to BP_FAST_FRACTION of its radius off the
     * cell it was filed under; the slack is for rounding. */
    sw->reach = r_max * (1.0 + BP_FAST_FRACTION + BP_SWEEP_SLACK_OVER_R);
    bool ok = layout(sw, world);
    sw->work_left = BP_SWEEP_WORK_PER_BALL * (world->count + sw->queue_count) + BP_SWEEP_WORK_MIN;
    sw->spent = false;
    /* Worth a pass over every ball only for a crowd of fast balls. */
    if (ok && sw->queue_count * BP_SWEEP_CROWD > world->count)
        drop_calm(sw, world, workers);
    if (ok) {
        /* Many fast balls (a falling crowd): filing every ball costs less
         * than marking around each of them. */
        sw->everything = sw->queue_count * BP_SWEEP_CROWD > world->count;
        for (size_t k = 0; k < sw->queue_count && !sw->spent && !(world->stop && *world->stop);
             k++) {
            size_t i = sw->queue[k];
            double left = sw->dt;
            if (!sw->everything)
                walk(sw, world, world->x[i], world->y[i], world->vx[i] * left, world->vy[i] * left,
                     world->r[i] + sw->reach, visit_mark, NULL);
            enter_path(sw, world, i);
            sw->state[i] |= IN_PATH;
        }
        sw->events_left = 64 * sw->queue_count + 1024;
        if (sw->everything)
            fill_all(sw, world);
        else
            fill(sw, world);
        /* A stop asked for ends the sweeping: the step is unfinished then,
         * and a crowd of fast balls can take seconds to sweep. */
        while (sw->queue_head < sw->queue_count && !sw->failed && !sw->spent &&
               !(world->stop && *world->stop)) {
            size_t f = sw->queue[sw->queue_head++];
            sw->state[f] &= (uint8_t)~IN_QUEUE;
            run_ball(world, sw, f, rest_speed);
        }
        ok = !sw->failed;
    }
    /* Whatever is still short of the end of the step (memory or the work
     * allowed ran out, or a stop was asked for) creeps on. */
    for (size_t k = 0; k < sw->queue_count; k++) {
        size_t i = sw->queue[k];
        if (time_of(sw, i) < 1.0)
            creep_to_end(world, sw, i, rest_speed);
    }
    finish_grid(sw);
    return ok;
}

bool bp_sweep_run(bp_world *world, size_t held, double dt, double r_max, double rest_speed,
                  bp_workers *workers)
{
    if (held == 0)
        return true;
    bp_sweep *sw = world->sweep;
    begin(world);
    for (size_t i = bp_scan_bytes(sw->held, 0, world->count, 1, true); held > 0;
         i = bp_scan_bytes(sw->held, i + 1, world->count, 1, true), held--) {
        sw->held[i] = 0;
        touch(sw, i, 0.0);
        enqueue(sw, i);
    }
    return run(world, dt, r_max, rest_speed, workers);
}
