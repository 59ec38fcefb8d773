#include "spawn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "program.h"
#include "rng.h"

/* Tries per ball before we call the arena full. Random sequential placement
 * jams near 55% cover; far below that a free spot turns up in a few tries. */
#define BP_SPAWN_TRIES 2000

static double segment_distance(const bp_wall *w, double x, double y)
{
    double dx = w->x2 - w->x1, dy = w->y2 - w->y1;
    double len2 = dx * dx + dy * dy;
    double t = len2 > 0.0 ? ((x - w->x1) * dx + (y - w->y1) * dy) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    double px = w->x1 + t * dx - x, py = w->y1 + t * dy - y;
    return sqrt(px * px + py * py);
}

typedef struct placement_grid {
    bp_grid_shape shape;
    int32_t *head; /* first ball index in each cell, -1 if none */
    int32_t *next; /* next ball index in the same cell */
} placement_grid;

static bool fits(const bp_world *world, const placement_grid *g, double x, double y, double r,
                 double r_max)
{
    for (size_t k = 0; k < world->wall_count; k++)
        if (segment_distance(&world->walls[k], x, y) < r + world->walls[k].r)
            return false;
    const bp_grid_shape *s = &g->shape;
    int reach = (int)ceil((r + r_max) / s->cell);
    int cx = bp_grid_col(s, x), cy = bp_grid_row(s, y);
    for (int yy = cy - reach; yy <= cy + reach; yy++) {
        if (yy < 0 || yy >= s->rows)
            continue;
        for (int xx = cx - reach; xx <= cx + reach; xx++) {
            if (xx < 0 || xx >= s->cols)
                continue;
            for (int32_t j = g->head[yy * s->cols + xx]; j >= 0; j = g->next[j]) {
                double dx = world->x[j] - x, dy = world->y[j] - y, rr = world->r[j] + r;
                if (dx * dx + dy * dy < rr * rr)
                    return false;
            }
        }
    }
    return true;
}

/* Random placement finds room quickly up to this cover (it jams near 55%):
 * what the advice after a failure aims for. */
#define BP_SPAWN_EASY_COVER 0.35

/* Advice for balls that did not fit: an arena of the same shape in which
 * count of them cover BP_SPAWN_EASY_COVER (if one within the largest allowed
 * arena holds them), and how many cover that much of this one (at most
 * placed, the number that did go in). */
static void fit_advice(const bp_world *world, uint64_t count, double r_max, double mean_area,
                       uint64_t placed, char *out, size_t out_size)
{
    double w = world->params.width, h = world->params.height;
    double scale = sqrt((double)count * mean_area / (BP_SPAWN_EASY_COVER * w * h));
    double aw = ceil(fmax(w * scale, 2.0 * r_max)), ah = ceil(fmax(h * scale, 2.0 * r_max));
    double fit = floor(BP_SPAWN_EASY_COVER * w * h / mean_area);
    uint64_t most = fit < (double)placed ? (uint64_t)fit : placed;
    char arena[96] = "";
    if (aw <= 1e6 && ah <= 1e6)
        snprintf(arena, sizeof arena, "--arena %.0fx%.0f, or ", aw, ah);
    if (most > 0)
        snprintf(out, out_size, ": try %sat most %llu balls", arena, (unsigned long long)most);
    else if (arena[0])
        snprintf(out, out_size, ": try --arena %.0fx%.0f", aw, ah);
    else
        snprintf(out, out_size, ": try smaller balls");
}

int bp_spawn_random(bp_world *world, uint64_t count, double r_min, double r_max, uint64_t seed,
                    char *err, size_t err_size)
{
    double w = world->params.width, h = world->params.height;
    if (count == 0)
        return 0;
    if (2.0 * r_max > w || 2.0 * r_max > h) {
        snprintf(err, err_size, "--radius: %g px balls do not fit a %gx%g arena", r_max, w, h);
        return 2;
    }
    /* Random placement jams near 55% cover: past that, many balls would each
     * spend every try before we could say no. A handful of balls is left to
     * the tries, so one ball that just fits is placed. */
    double mean_area = BP_PI * (r_min * r_min + r_min * r_max + r_max * r_max) / 3.0;
    if (count > 16 && (double)count * mean_area > 0.5 * w * h) {
        char advice[160];
        fit_advice(world, count, r_max, mean_area, count, advice, sizeof advice);
        snprintf(err, err_size,
                 "--balls: %llu balls of radius %g..%g px cannot fit a %gx%g arena without "
                 "overlapping%s",
                 (unsigned long long)count, r_min, r_max, w, h, advice);
        return 2;
    }

    placement_grid g = {.shape = bp_grid_lay(0.0, 0.0, w, h, 2.0 * r_max,
                                             4.0 * (double)count + 4096.0)};
    size_t base = world->count, cells = bp_grid_cells(&g.shape);
    g.head = malloc(sizeof(int32_t) * cells);
    g.next = malloc(sizeof(int32_t) * (base + count));
    if (!g.head || !g.next) {
        free(g.head);
        free(g.next);
        snprintf(err, err_size, "out of memory placing %llu balls", (unsigned long long)count);
        return 1;
    }
    for (size_t c = 0; c < cells; c++)
        g.head[c] = -1;
    /* Balls already in the world are obstacles too. */
    for (size_t j = 0; j < base; j++) {
        size_t c = bp_grid_cell_at(&g.shape, world->x[j], world->y[j]);
        g.next[j] = g.head[c];
        g.head[c] = (int32_t)j;
    }

    bp_rng rng = bp_rng_seed(seed);
    int rc = 0;
    for (uint64_t k = 0; k < count && rc == 0; k++) {
        double r = r_min == r_max ? r_min : bp_rng_range(&rng, r_min, r_max);
        bool placed = false;
        for (int attempt = 0; attempt < BP_SPAWN_TRIES && !placed; attempt++) {
            double x = bp_rng_range(&rng, r, w - r);
            double y = bp_rng_range(&rng, r, h - r);
            if (!fits(world, &g, x, y, r, r_max))
                continue;
            double vx = bp_rng_range(&rng, -150.0, 150.0);
            double vy = bp_rng_range(&rng, -150.0, 150.0);
            int64_t id = bp_world_insert_ball(world, x, y, vx, vy, r, 0.0);
            if (id < 0) {
                snprintf(err, err_size, "out of memory placing %llu balls",
                         (unsigned long long)count);
                rc = 1;
                break;
            }
            size_t j = world->count - 1;
            size_t c = bp_grid_cell_at(&g.shape, x, y);
            g.next[j] = g.head[c];
            g.head[c] = (int32_t)j;
            placed = true;
        }
        if (!placed && rc == 0) {
            char advice[160];
            fit_advice(world, count, r_max, mean_area, k, advice, sizeof advice);
            snprintf(err, err_size,
                     "--balls: only %llu of %llu balls of radius %g..%g px fit the %gx%g arena "
                     "without overlapping%s",
                     (unsigned long long)k, (unsigned long long)count, r_min, r_max, w, h, advice);
            rc = 2;
        }
    }
    free(g.head);
    free(g.next);
    return rc;
}

bp_params bp_pit_params(uint64_t n)
{
    return bp_pit_params_shaped(n, BP_PIT_ASPECT);
}

bp_params bp_pit_params_shaped(uint64_t n, double aspect)
{
    bp_params p = bp_params_default();
    double area = (double)n * BP_PI * BP_PIT_RADIUS * BP_PIT_RADIUS / 0.35;
    p.height = sqrt(area / aspect);
    p.width = aspect * p.height;
    p.gravity = 1000.0;
    p.restitution = 0.5;
    p.friction = 0.2;
    p.rolling = 0.0;
    p.drag = 0.0;
    p.hz = 120.0;
    return p;
}

/* The jittered grid of n balls in a w x h arena: near-square cells, as
 * many as the balls or a few more. */
static void pit_grid(uint64_t n, double w, double h, int *cols, int *rows)
{
    double c = ceil(sqrt((double)n * w / h));
    *cols = (int)fmax(1.0, fmin(c, (double)n));
    *rows = (int)ceil((double)n / *cols);
}

const char *bp_pit_check(uint64_t n, double aspect, char *why, size_t why_size)
{
    bp_params p = bp_pit_params_shaped(n, aspect);
    double r = BP_PIT_RADIUS;
    int cols, rows;
    pit_grid(n, p.width, p.height, &cols, &rows);
    bool fits = p.width <= 1e6 && p.height <= 1e6 && p.width >= 2.0 * r && p.height >= 2.0 * r;
    if (fits && n > 1)
        fits = p.width / cols >= 2.0 * r && p.height / rows >= 2.0 * r;
    if (fits)
        return NULL;
    snprintf(why, why_size, "%llu balls of radius %g px do not fit a pit of %.1fx%.1f px",
             (unsigned long long)n, r, p.width, p.height);
    return why;
}

bool bp_spawn_pit(bp_world *world, uint64_t n, uint64_t seed)
{
    double w = world->params.width, h = world->params.height, r = BP_PIT_RADIUS;
    int cols, rows;
    pit_grid(n, w, h, &cols, &rows);
    double cell_w = w / cols, cell_h = h / rows;
    /* Cells are ~15 px for 10 px balls; jitter within the slack keeps every
     * pair apart. */
    double slack_x = fmax(0.0, cell_w - 2.0 * r) * 0.45;
    double slack_y = fmax(0.0, cell_h - 2.0 * r) * 0.45;
    bp_rng rng = bp_rng_seed(seed);
    for (uint64_t k = 0; k < n; k++) {
        int cx = (int)(k % (uint64_t)cols), cy = (int)(k / (uint64_t)cols);
        double x = (cx + 0.5) * cell_w + bp_rng_range(&rng, -slack_x, slack_x);
        double y = (cy + 0.5) * cell_h + bp_rng_range(&rng, -slack_y, slack_y);
        double vx = bp_rng_range(&rng, -100.0, 100.0);
        double vy = bp_rng_range(&rng, -100.0, 100.0);
        if (bp_world_insert_ball(world, x, y, vx, vy, r, 0.0) < 0)
            return false;
    }
    return true;
}
