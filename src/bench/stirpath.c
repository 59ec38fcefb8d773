#include "stirpath.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

/* Whether input k of rp is of this kind and acts at this step. */
static bool is(const bp_replay *rp, size_t k, bp_input_kind kind, uint64_t step)
{
    return k < rp->count && rp->inputs[k].kind == kind && rp->inputs[k].step == step;
}

/* Whether every point of the hand (radius r) centred at input k of rp
 * lies in the arena. */
static bool inside(const bp_replay *rp, size_t k, double r, double width, double height)
{
    double x = rp->inputs[k].v[0], y = rp->inputs[k].v[1];
    return x >= r && x <= width - r && y >= r && y <= height - r;
}

int bp_stir_path_read(const bp_replay *rp, const char *name, double width, double height,
                      bp_stir_path *path, char *err, size_t err_size)
{
    *path = (bp_stir_path){0};
    /* Grabbed at its centre: ours holds the ball grabbed where the cursor
     * is, another engine's hand is where the ball was made. */
    if (!is(rp, 0, BP_INPUT_SPAWN, 0) || !is(rp, 1, BP_INPUT_GRAB, 0) ||
        rp->inputs[1].v[0] != rp->inputs[0].v[0] || rp->inputs[1].v[1] != rp->inputs[0].v[1]) {
        snprintf(err, err_size, "%s: a stir spawns a ball and grabs it at its centre at step 0",
                 name);
        return 2;
    }
    size_t release = 2;
    while (release < rp->count && rp->inputs[release].kind == BP_INPUT_MOVE)
        release++;
    const bp_input *last = release < rp->count ? &rp->inputs[release] : NULL;
    if (!last || last->kind != BP_INPUT_RELEASE || last->v[0] != 0.0 || last->v[1] != 0.0 ||
        release + 1 != rp->count) {
        snprintf(err, err_size, "%s: a stir only moves the hand, then lets it go at rest",
                 name);
        return 2;
    }
    if (last->step > BP_STIR_MAX_HELD) {
        snprintf(err, err_size, "%s: a stir lets go within %u steps", name, BP_STIR_MAX_HELD);
        return 2;
    }
    for (size_t k = 0; k < release; k++)
        if (!inside(rp, k, rp->inputs[0].v[2], width, height)) {
            snprintf(err, err_size, "%s:%d: the hand leaves the arena (%g by %g px): is the "
                     "recording for this pit?", name, rp->inputs[k].line, width, height);
            return 2;
        }
    path->x0 = rp->inputs[0].v[0], path->y0 = rp->inputs[0].v[1], path->r = rp->inputs[0].v[2];
    path->moves = last->step;
    path->end = rp->end_step;
    path->x = malloc((path->moves + 1) * sizeof *path->x);
    path->y = malloc((path->moves + 1) * sizeof *path->y);
    if (!path->x || !path->y) {
        bp_stir_path_free(path);
        snprintf(err, err_size, "%s: out of memory", name);
        return 1;
    }
    /* Where the hand is told to be before each step: the last move so far. */
    double x = path->x0, y = path->y0;
    size_t k = 2;
    for (uint64_t s = 0; s < path->moves; s++) {
        for (; k < release && rp->inputs[k].step <= s; k++)
            x = rp->inputs[k].v[0], y = rp->inputs[k].v[1];
        path->x[s] = x, path->y[s] = y;
    }
    return 0;
}

void bp_stir_path_free(bp_stir_path *path)
{
    free(path->x);
    free(path->y);
    *path = (bp_stir_path){0};
}

void bp_stir_measure(const double *start, const double *end, size_t count, double r,
                     double width, double height, bp_stir_result *out)
{
    out->moved = out->nudged = out->escaped = 0;
    for (size_t i = 0; i < count; i++) {
        double dx = end[2 * i] - start[2 * i], dy = end[2 * i + 1] - start[2 * i + 1];
        out->moved += dx * dx + dy * dy > 4.0 * r * r;
        out->nudged += dx * dx + dy * dy > 0.01 * r * r;
        out->escaped += bp_bench_count_escaped(&end[2 * i], &end[2 * i + 1], 1, width, height);
    }
}
