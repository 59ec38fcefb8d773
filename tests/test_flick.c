/* A ball flicked out of a pile leaves with the flick and only what lies
 * in its path is hit: the heap settled under the soft solver, a ball of
 * its top grabbed through the session (as the window and a replay do),
 * dragged a few steps and let go. A ball the held one does not reach (its
 * centre farther from the hand's path than the two touch, plus two rings
 * of the biggest balls) may not move faster than 500 px/s while the hand
 * drags it (later, balls it threw may hit others); a ball it hits may leave at most (1 + e) times
 * the hand's speed, as off a wall moving at that speed. Before the soft
 * solver gave the held ball its mass, the hand drove the pile like a
 * piston: 27 balls at once faster than 500 px/s, up to 79 px from the
 * hand, up to 3,339 px/s. Held still in the pile, the ball stays where the
 * hand holds it. */
#include <math.h>
#include <stdlib.h>

#include "options.h"
#include "session.h"
#include "step.h"
#include "tap.h"
#include "woken.h"

static void apply(bp_session *s, bp_input_kind kind, double x, double y)
{
    char err[256];
    bp_input in = {.kind = kind, .v = {x, y}};
    if (bp_session_apply(s, &in, err, sizeof err) != 0) {
        printf("Bail out! %s\n", err);
        exit(1);
    }
}

static void session_step(bp_session *s)
{
    char err[256];
    if (bp_session_step(s, err, sizeof err) != BP_STEP_DONE) {
        printf("Bail out! %s\n", err);
        exit(1);
    }
}

/* The heap poured and settled under the soft solver until it sleeps. */
static bp_world *settled_heap(void)
{
    bp_world *w = woken_heap(BP_SOLVER_SOFT);
    for (int s = 0; s < 40 * 120 && asleep_count(w) < w->count; s++)
        step_or_bail(w);
    return w;
}

/* The rank-th highest ball (0: the highest) within 200 px of the arena's
 * middle. */
static size_t near_top(const bp_world *w, size_t rank)
{
    size_t picked = SIZE_MAX;
    for (size_t k = 0; k <= rank; k++) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < w->count; i++) {
            if (fabs(w->x[i] - 0.5 * w->params.width) > 200.0)
                continue;
            bool taken = picked != SIZE_MAX && (w->y[i] < w->y[picked] ||
                                                (w->y[i] == w->y[picked] && i <= picked));
            if (!taken && (best == SIZE_MAX || w->y[i] < w->y[best]))
                best = i;
        }
        picked = best;
    }
    return picked;
}

typedef struct flick {
    double thrown;  /* the thrown ball's speed just after the release, px/s */
    int fast;       /* other balls faster than 500 px/s at some step */
    int far_fast;   /* balls out of the held one's reach fast in the drag */
    double fastest; /* the fastest other ball's top speed, px/s */
} flick;

/* Distance from (x, y) to the segment from (ax, ay) to (bx, by), px. */
static double to_segment(double x, double y, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    double t = len2 > 0.0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    return hypot(x - (ax + t * dx), y - (ay + t * dy));
}

/* Grabs ball i of w, drags it `steps` steps at speed px/s, `degrees` above
 * the horizontal, lets go at that velocity and runs 0.5 s (w: the solver
 * its params name). */
static flick flick_ball(bp_world *w, size_t i, double speed, double degrees, int steps)
{
    bp_options opts = bp_options_default();
    bp_session s;
    bp_session_init(&s, w, &opts);
    uint32_t id = w->id[i];
    double cx = w->x[i], cy = w->y[i], a = degrees * M_PI / 180.0;
    double vx = speed * cos(a), vy = -speed * sin(a), dt = 1.0 / w->params.hz;
    double *top = calloc(w->next_id, sizeof *top), *reach = calloc(w->next_id, sizeof *reach);
    if (!top || !reach) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    /* How far each ball starts from the hand's path, less what the held
     * ball reaches: touching it on the way, or through two more balls. */
    for (size_t j = 0; j < w->count; j++)
        reach[w->id[j]] = to_segment(w->x[j], w->y[j], cx, cy, cx + vx * dt * steps,
                                     cy + vy * dt * steps) -
                          (w->r[i] + w->r[j] + 4.0 * w->r_max);
    apply(&s, BP_INPUT_GRAB, cx, cy);
    flick out = {0};
    int release = 2 + steps, end = release + (int)(0.5 * w->params.hz);
    for (int k = 0; k < end; k++) {
        if (k >= 2 && k < release) {
            cx += vx * dt;
            cy += vy * dt;
            apply(&s, BP_INPUT_MOVE, cx, cy);
        }
        if (k == release)
            apply(&s, BP_INPUT_RELEASE, vx, vy);
        session_step(&s);
        if (k == release) {
            int64_t t = bp_world_index_of(w, id);
            out.thrown = t < 0 ? 0.0 : hypot(w->vx[t], w->vy[t]);
        }
        for (size_t j = 0; j < w->count; j++) {
            double v = hypot(w->vx[j], w->vy[j]);
            top[w->id[j]] = fmax(top[w->id[j]], v);
            if (k <= release && w->id[j] != id && v > 500.0 && reach[w->id[j]] > 0.0) {
                out.far_fast++;
                reach[w->id[j]] = 0.0; /* counted once */
            }
        }
    }
    for (uint32_t q = 0; q < w->next_id; q++) {
        if (q == id)
            continue;
        out.fast += top[q] > 500.0;
        out.fastest = fmax(out.fastest, top[q]);
    }
    free(top);
    free(reach);
    return out;
}

/* The flick under the soft solver and under the passes, from the same
 * settled pile (the soft solver's). */
static void flick_out_of_the_heap(size_t rank, double speed, double degrees, const char *what)
{
    char line[200];
    bp_world *soft = settled_heap();
    bp_world *passes = settled_heap();
    passes->params.solver = BP_SOLVER_PASSES;
    size_t i = near_top(soft, rank);
    flick f = flick_ball(soft, i, speed, degrees, 6);
    flick p = flick_ball(passes, i, speed, degrees, 6);
    printf("# %s at %.0f px/s, %.0f deg: thrown at %.0f px/s; others past 500 px/s: %d, out of "
           "its reach in the drag: %d (fastest %.0f px/s); the passes: %d, %d (%.0f px/s)\n",
           what, speed, degrees, f.thrown, f.fast, f.far_fast, f.fastest, p.fast, p.far_fast,
           p.fastest);
    snprintf(line, sizeof line, "%s: the ball leaves with the flick (within 5%%)", what);
    TAP_OK(fabs(f.thrown - speed) <= 0.05 * speed, line);
    snprintf(line, sizeof line,
             "%s: no ball out of the held ball's reach faster than 500 px/s in the drag", what);
    TAP_OK(f.far_fast == 0, line);
    snprintf(line, sizeof line, "%s: none faster than (1 + e) times the hand", what);
    TAP_OK(f.fastest <= (1.0 + soft->params.restitution) * speed, line);
    bp_world_destroy(soft);
    bp_world_destroy(passes);
}

/* A ball of the heap grabbed and held still for 1 s stays in the hand,
 * and the pile around it stands. */
static void held_still_in_the_pile(void)
{
    bp_world *w = settled_heap();
    size_t i = near_top(w, 12);
    uint32_t id = w->id[i];
    double x0 = w->x[i], y0 = w->y[i], r = w->r[i];
    double *px = malloc(w->next_id * sizeof *px), *py = malloc(w->next_id * sizeof *py);
    if (!px || !py) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    for (size_t j = 0; j < w->count; j++) {
        px[w->id[j]] = w->x[j];
        py[w->id[j]] = w->y[j];
    }
    bp_options opts = bp_options_default();
    bp_session s;
    bp_session_init(&s, w, &opts);
    apply(&s, BP_INPUT_GRAB, x0, y0);
    double off = 0.0;
    for (int k = 0; k < (int)w->params.hz; k++) {
        session_step(&s);
        int64_t t = bp_world_index_of(w, id);
        off = fmax(off, hypot(w->x[t] - x0, w->y[t] - y0));
    }
    double moved = 0.0;
    for (size_t j = 0; j < w->count; j++)
        if (w->id[j] != id)
            moved = fmax(moved, hypot(w->x[j] - px[w->id[j]], w->y[j] - py[w->id[j]]) / w->r[j]);
    printf("# held still 1 s: the ball strays %.4f r from the hand, its neighbours move up to "
           "%.4f r\n", off / r, moved);
    TAP_OK(off <= 0.05 * r, "held still in the pile: the ball stays within 0.05 r of the hand");
    TAP_OK(moved <= 0.1, "held still in the pile: no other ball moves 0.1 r");
    free(px);
    free(py);
    bp_world_destroy(w);
}

int main(void)
{
    flick_out_of_the_heap(1, 3000.0, 20.0, "a ball of the top layer flicked along the top");
    flick_out_of_the_heap(1, 1500.0, 20.0, "the same, slower");
    flick_out_of_the_heap(0, 3000.0, 45.0, "the top ball flicked up and along");
    held_still_in_the_pile();
    return tap_done();
}
