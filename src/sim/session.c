#include "session.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"
#include "setup.h"

void bp_session_init(bp_session *s, bp_world *world, const bp_options *opts)
{
    *s = (bp_session){.world = world, .opts = opts, .held = -1, .inspect = opts->inspect};
}

void bp_session_clamp(const bp_world *world, double r, double *x, double *y)
{
    double w = world->params.width, h = world->params.height;
    double lo_x = r, hi_x = w - r, lo_y = r, hi_y = h - r;
    /* As the arena does with a ball too big for it: centred on that axis. */
    if (lo_x > hi_x)
        lo_x = hi_x = 0.5 * w;
    if (lo_y > hi_y)
        lo_y = hi_y = 0.5 * h;
    *x = *x < lo_x ? lo_x : *x > hi_x ? hi_x : *x;
    *y = *y < lo_y ? lo_y : *y > hi_y ? hi_y : *y;
}

static int64_t held_index(bp_session *s)
{
    if (s->held < 0)
        return -1;
    int64_t i = bp_world_index_of(s->world, (uint32_t)s->held);
    if (i < 0)
        s->held = -1;
    return i;
}

/* Most wall contacts a held ball slides along in one move. */
#define BP_HELD_SLIDES 4

/* Where the held ball i gets to on its way to (tx, ty): at the first wall it
 * touches it stops, and the rest of the way, less the part into the wall,
 * slides along it. Left to the step, an infinitely heavy ball driven into a
 * wall would bounce off it with the world's restitution and hover short of
 * it, pulled at by the cursor. (The arena's sides need no such care: the
 * target is already inside them.) */
static void clear_of_walls(const bp_world *w, size_t i, double *tx, double *ty)
{
    double px = w->x[i], py = w->y[i];
    double dx = *tx - px, dy = *ty - py;
    for (int slide = 0; slide < BP_HELD_SLIDES && (dx != 0.0 || dy != 0.0); slide++) {
        double first = 1.0, nx = 0.0, ny = 0.0;
        bool hit = false;
        for (size_t k = 0; k < w->wall_count; k++) {
            const bp_wall *g = &w->walls[k];
            bp_segment seg = bp_segment_make(g->x1, g->y1, g->x2, g->y2, g->r);
            double t, gx, gy;
            if (bp_segment_sweep(&seg, px, py, dx, dy, w->r[i], &t, &gx, &gy) && t < first) {
                first = t;
                nx = gx;
                ny = gy;
                hit = true;
            }
        }
        px += dx * first;
        py += dy * first;
        if (!hit)
            break;
        double rx = dx * (1.0 - first), ry = dy * (1.0 - first);
        double into = rx * nx + ry * ny;
        if (into < 0.0) {
            rx -= into * nx;
            ry -= into * ny;
        }
        dx = rx;
        dy = ry;
    }
    *tx = px;
    *ty = py;
}

static void grab(bp_session *s, double cx, double cy)
{
    bp_world *w = s->world;
    int64_t i = held_index(s);
    if (i >= 0)
        bp_world_set_held(w, (uint32_t)s->held, false);
    s->held = bp_query_point(w, cx, cy);
    i = held_index(s);
    if (i < 0)
        return;
    bp_world_set_held(w, (uint32_t)s->held, true);
    s->grab_dx = w->x[i] - cx;
    s->grab_dy = w->y[i] - cy;
    s->target_x = w->x[i];
    s->target_y = w->y[i];
    w->vx[i] = 0.0;
    w->vy[i] = 0.0;
}

static void move(bp_session *s, double cx, double cy)
{
    bp_world *w = s->world;
    int64_t i = held_index(s);
    if (i < 0)
        return;
    double x = cx + s->grab_dx, y = cy + s->grab_dy;
    bp_session_clamp(w, w->r[i], &x, &y);
    s->target_x = x;
    s->target_y = y;
    if (s->paused) {
        clear_of_walls(w, (size_t)i, &x, &y);
        w->x[i] = x;
        w->y[i] = y;
        w->vx[i] = 0.0;
        w->vy[i] = 0.0;
        s->jumped = true;
    }
}

static void release(bp_session *s, double vx, double vy)
{
    bp_world *w = s->world;
    int64_t i = held_index(s);
    if (i < 0)
        return;
    bp_world_set_held(w, (uint32_t)s->held, false);
    w->vx[i] = vx;
    w->vy[i] = vy;
    s->held = -1;
}

/* Swaps in a world rebuilt from the options: exactly the initial state,
 * walls included, with a fresh solver. */
static int reset(bp_session *s, char *err, size_t err_size)
{
    int status = 0;
    char why[512];
    bp_world *fresh = bp_setup_world(s->opts, &status, why, sizeof why);
    if (!fresh) {
        snprintf(err, err_size, "reset: %s", why);
        return 1;
    }
    bp_world old = *s->world;
    *s->world = *fresh;
    *fresh = old;
    s->world->stop = old.stop; /* the stop request belongs to the run, not the world */
    bp_world_destroy(fresh);
    s->held = -1;
    s->jumped = true;
    return 0;
}

/* How deep a spawned ball may overlap a ball or a wall, as a share of the
 * smaller radius: a ball dropped into a pile at rest would be pushed out
 * of a deeper overlap at a speed no fall gave it (the pile exploded). */
#define BP_SPAWN_OVERLAP 0.05
/* The search for a free spot: points of a grid r/4 apart, out to 3 r from
 * where it was asked for, nearest first (then the higher, then the left):
 * plain arithmetic, no libm, so every machine finds the same spot. */
#define BP_SPAWN_REACH 12

static bool spot_free(const bp_world *w, double x, double y, double r)
{
    for (size_t i = 0; i < w->count; i++) {
        double dx = w->x[i] - x, dy = w->y[i] - y, reach = w->r[i] + r;
        double slack = BP_SPAWN_OVERLAP * (w->r[i] < r ? w->r[i] : r);
        if (dx * dx + dy * dy < (reach - slack) * (reach - slack))
            return false;
    }
    for (size_t k = 0; k < w->wall_count; k++) {
        const bp_wall *g = &w->walls[k];
        double ex = g->x2 - g->x1, ey = g->y2 - g->y1, len2 = ex * ex + ey * ey;
        double t = len2 > 0.0 ? ((x - g->x1) * ex + (y - g->y1) * ey) / len2 : 0.0;
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        double dx = x - (g->x1 + t * ex), dy = y - (g->y1 + t * ey), reach = g->r + r;
        double slack = BP_SPAWN_OVERLAP * r;
        if (dx * dx + dy * dy < (reach - slack) * (reach - slack))
            return false;
    }
    return true;
}

/* Where a ball of radius r asked for at (x, y) goes: there if free, else
 * the nearest free spot the rings around it find. false: none is free
 * (the spawn is skipped). The same world gives the same spot, so a replay
 * places it where the recording did. */
static bool free_spot(const bp_world *w, double r, double *x, double *y)
{
    double cx = *x, cy = *y;
    bp_session_clamp(w, r, x, y);
    if (spot_free(w, *x, *y, r))
        return true;
    for (int d2 = 1; d2 <= BP_SPAWN_REACH * BP_SPAWN_REACH; d2++)
        for (int j = -BP_SPAWN_REACH; j <= BP_SPAWN_REACH; j++)
            for (int i = -BP_SPAWN_REACH; i <= BP_SPAWN_REACH; i++) {
                if (i * i + j * j != d2)
                    continue;
                double px = cx + 0.25 * r * i, py = cy + 0.25 * r * j;
                bp_session_clamp(w, r, &px, &py);
                if (spot_free(w, px, py, r)) {
                    *x = px;
                    *y = py;
                    return true;
                }
            }
    return false;
}

/* A spawn input (v: x y r mass, mass 0: the default, r^2). A ball the
 * arena cannot hold is not made, nor recorded: a scene or a recording
 * holding it is refused. Nor one with no free spot near the cursor
 * (free_spot). false: none was made (nothing to record); else *status
 * is 0, or 1 when memory ran out. */
static bool spawn(bp_session *s, const double *v, int *status, char *err, size_t err_size)
{
    double x = v[0], y = v[1], r = v[2];
    if (bp_check_ball_size(&s->world->params, r) || !free_spot(s->world, r, &x, &y))
        return false;
    if (bp_world_insert_ball(s->world, x, y, 0.0, 0.0, r, v[3]) < 0) {
        snprintf(err, err_size, "spawn: out of memory");
        *status = 1;
        return true;
    }
    s->jumped = true;
    return true;
}

/* v: id x y r m vx vy w angle. Nothing happens while a ball has that id,
 * or if none ever had it. */
static int restore(bp_session *s, const double *v, char *err, size_t err_size)
{
    double x = v[1], y = v[2];
    bp_session_clamp(s->world, v[3], &x, &y);
    uint32_t id = (uint32_t)v[0];
    if (id >= s->world->next_id || bp_world_index_of(s->world, id) >= 0)
        return 0;
    if (bp_world_revive_ball(s->world, id, x, y, v[5], v[6], v[3], v[4]) < 0) {
        snprintf(err, err_size, "restore: out of memory");
        return 1;
    }
    size_t i = (size_t)bp_world_index_of(s->world, id);
    s->world->w[i] = v[7];
    s->world->angle[i] = v[8];
    s->jumped = true;
    return 0;
}

static void delete_at(bp_session *s, double x, double y)
{
    int64_t id = bp_query_point(s->world, x, y);
    if (id < 0)
        return;
    if (id == s->held)
        s->held = -1;
    bp_world_delete_ball(s->world, (uint32_t)id);
    s->jumped = true;
}

/* How far outside a wall's thickness a point still picks it, px. */
#define BP_WALL_PICK 4.0

int64_t bp_session_wall_at(const bp_world *w, double x, double y)
{
    for (size_t k = w->wall_count; k-- > 0;) {
        const bp_wall *g = &w->walls[k];
        double dx = g->x2 - g->x1, dy = g->y2 - g->y1, len2 = dx * dx + dy * dy;
        double t = len2 > 0.0 ? ((x - g->x1) * dx + (y - g->y1) * dy) / len2 : 0.0;
        t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
        double ex = x - (g->x1 + t * dx), ey = y - (g->y1 + t * dy);
        if (ex * ex + ey * ey <= (g->r + BP_WALL_PICK) * (g->r + BP_WALL_PICK))
            return (int64_t)k;
    }
    return -1;
}

/* Removes wall k. The walls after it move down one, in order: the
 * collision statics follow the array (they compare it each step). */
static void delwall(bp_session *s, double k_number)
{
    bp_world *w = s->world;
    if (!(k_number < (double)w->wall_count))
        return;
    size_t k = (size_t)k_number;
    for (size_t j = (size_t)k; j + 1 < w->wall_count; j++)
        w->walls[j] = w->walls[j + 1];
    w->wall_count--;
    /* What rested on it must fall. */
    bp_world_wake_all(w);
    s->jumped = true;
}

static void unwall(bp_session *s, double x, double y)
{
    int64_t k = bp_session_wall_at(s->world, x, y);
    if (k >= 0)
        delwall(s, (double)k);
}

static void remove_id(bp_session *s, double id)
{
    if (id == (double)s->held)
        s->held = -1;
    if (bp_world_delete_ball(s->world, (uint32_t)id))
        s->jumped = true;
}

/* A wall end input (v: k e x y). An end dragged past the arena's edge
 * stops on it, as a drawn one, and is recorded so. */
static void wall_end(bp_session *s, bp_input *in)
{
    bp_world *w = s->world;
    in->v[2] = fmin(fmax(in->v[2], 0.0), w->params.width);
    in->v[3] = fmin(fmax(in->v[3], 0.0), w->params.height);
    double k = in->v[0], e = in->v[1], x = in->v[2], y = in->v[3];
    if (k >= (double)w->wall_count)
        return;
    bp_wall *g = &w->walls[(size_t)k];
    if (e == 0.0) {
        g->x1 = x;
        g->y1 = y;
    } else {
        g->x2 = x;
        g->y2 = y;
    }
    /* A wall swept through sleepers wakes them. */
    bp_world_wake_all(w);
    s->jumped = true;
}

/* A wall input (v: x1 y1 x2 y2 r). Ends drawn outside the arena come to
 * its edge, and are recorded so: a scene or a recording may not put them
 * outside. 1 when memory runs out. */
static int add_wall(bp_session *s, bp_input *in, char *err, size_t err_size)
{
    double *v = in->v;
    for (int k = 0; k < 4; k++) {
        double hi = k % 2 ? s->world->params.height : s->world->params.width;
        v[k] = v[k] < 0.0 ? 0.0 : v[k] > hi ? hi : v[k];
    }
    if (!bp_world_insert_wall(s->world, (bp_wall){v[0], v[1], v[2], v[3], v[4]})) {
        snprintf(err, err_size, "wall: out of memory");
        return 1;
    }
    return 0;
}

static void set_param(bp_session *s, bp_input_param param, double value)
{
    bp_params *p = &s->world->params;
    if (param == BP_PARAM_GRAVITY)
        p->gravity = value;
    else if (param == BP_PARAM_RESTITUTION)
        p->restitution = value;
    else if (param == BP_PARAM_FRICTION)
        p->friction = value;
    else if (param == BP_PARAM_ROLLING)
        p->rolling = value;
    else if (param == BP_PARAM_HZ)
        p->hz = value; /* the next step is 1/value long; a window follows (app.c) */
    else
        p->drag = value;
    /* Balls fell asleep under the old rules; under the new ones (gravity
     * turned round, say) they may not rest at all. */
    bp_world_wake_all(s->world);
}

static int rewind_to(bp_session *s, double target, char *err, size_t err_size);

static char *copy_text(const char *text)
{
    size_t len = strlen(text) + 1;
    char *copy = malloc(len);
    if (copy)
        memcpy(copy, text, len);
    return copy;
}

void bp_session_free(bp_session *s)
{
    free(s->scene_text);
    free(s->scene_name);
    s->scene_text = s->scene_name = NULL;
}

/* Whether msg starts "name:LINE:", so names a line of the scene already
 * (a message that merely starts with the name, as radius_fits's, does
 * not: the name is the recording's, and the line the input's). */
static bool names_line(const char *msg, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(msg, name, n) != 0 || msg[n] != ':' || !isdigit((unsigned char)msg[n + 1]))
        return false;
    const char *p = msg + n + 1;
    while (isdigit((unsigned char)*p))
        p++;
    return *p == ':';
}

/* The world of scene input in (text, from a file called name) built with
 * the run's options as --scene would build it (bp_setup_options_for_scene),
 * which go to *opts. NULL with *status 2 (bad input) or 1 and a message in
 * err naming the input's FILE:LINE. */
static bp_world *build_scene(const bp_options *run, const bp_input *in, const char *name,
                             const char *text, bp_options *opts, int *status, char *err,
                             size_t err_size)
{
    *opts = bp_setup_options_for_scene(run, name);
    opts->scene_text = text;
    opts->scene_line = in->line + 1;
    char why[512];
    bp_world *fresh = bp_setup_world(opts, status, why, sizeof why);
    if (!fresh) {
        /* Options that do not suit the scene (--balls, --radius) name no
         * line of it: the message names the input's. */
        if (in->line > 0 && !names_line(why, name))
            snprintf(err, err_size, "%s:%d: scene: %s", name, in->line, why);
        else
            snprintf(err, err_size, "%s", why);
    }
    return fresh;
}

int bp_session_check_scenes(const bp_replay *rp, const bp_options *opts, double max_side,
                            char *err, size_t err_size)
{
    for (size_t k = 0; k < rp->count; k++) {
        const bp_input *in = &rp->inputs[k];
        if (in->kind != BP_INPUT_SCENE)
            continue;
        const char *name = in->name ? in->name : "scene";
        bp_options scene_opts;
        int status = 0;
        bp_world *w = build_scene(opts, in, name, in->text ? in->text : "", &scene_opts, &status,
                                  err, err_size);
        if (!w)
            return status;
        double wide = w->params.width, high = w->params.height;
        bp_world_destroy(w);
        if (max_side > 0.0 && (wide > max_side || high > max_side)) {
            snprintf(err, err_size,
                     "%s:%d: scene: --png: a %gx%g arena is too large to render (at most %g px "
                     "a side)", name, in->line, wide, high, max_side);
            return 2;
        }
    }
    return 0;
}

/* A scene input: the world built from its text (build_scene), swapped in
 * by bp_session_load; the text and name are kept for resets. 2 when it
 * does not build, 1 when memory runs out; either way nothing changed. */
static int load_scene(bp_session *s, const bp_input *in, char *err, size_t err_size)
{
    char *text = copy_text(in->text ? in->text : "");
    char *name = copy_text(in->name ? in->name : "scene");
    if (!text || !name) {
        free(text);
        free(name);
        snprintf(err, err_size, "scene: out of memory");
        return 1;
    }
    bp_options opts;
    int status = 0;
    bp_world *fresh = build_scene(s->opts, in, name, text, &opts, &status, err, err_size);
    if (!fresh) {
        free(text);
        free(name);
        return status;
    }
    bp_session_free(s);
    s->scene_text = text;
    s->scene_name = name;
    s->scene_opts = opts;
    bool kept = bp_session_load(s, fresh, &s->scene_opts);
    bp_world_destroy(fresh);
    s->inspect = -1; /* an id of the old world's */
    s->loads++;
    if (!kept) {
        snprintf(err, err_size, "history: out of memory");
        return 1;
    }
    return 0;
}

int bp_session_apply(bp_session *s, bp_input *in, char *err, size_t err_size)
{
    in->step = s->tick;
    const double *v = in->v;
    int status = 0;
    switch (in->kind) {
    case BP_INPUT_GRAB:
        grab(s, v[0], v[1]);
        break;
    case BP_INPUT_MOVE:
        move(s, v[0], v[1]);
        break;
    case BP_INPUT_RELEASE:
        release(s, v[0], v[1]);
        break;
    case BP_INPUT_PAUSE:
        s->paused = true;
        break;
    case BP_INPUT_RESUME:
        s->paused = false;
        break;
    case BP_INPUT_RESET:
        status = reset(s, err, err_size);
        break;
    case BP_INPUT_SPAWN:
        if (!spawn(s, v, &status, err, err_size))
            return 0;
        break;
    case BP_INPUT_DELETE:
        delete_at(s, v[0], v[1]);
        break;
    case BP_INPUT_RESTORE:
        if (bp_check_ball_size(&s->world->params, v[3]))
            return 0;
        status = restore(s, v, err, err_size);
        break;
    case BP_INPUT_SET:
        set_param(s, in->param, v[0]);
        break;
    case BP_INPUT_INSPECT:
        s->inspect = (int64_t)v[0];
        break;
    case BP_INPUT_UNWALL:
        unwall(s, v[0], v[1]);
        break;
    case BP_INPUT_DELWALL:
        delwall(s, v[0]);
        break;
    case BP_INPUT_REMOVE:
        remove_id(s, v[0]);
        break;
    case BP_INPUT_WALL_END:
        wall_end(s, in);
        break;
    case BP_INPUT_REWIND:
        status = rewind_to(s, v[0], err, err_size);
        break;
    case BP_INPUT_SCENE:
        status = load_scene(s, in, err, err_size);
        break;
    case BP_INPUT_WALL:
        status = add_wall(s, in, err, err_size);
        break;
    }
    /* A load starts the history again (bp_session_load), so it never
     * stands among the inputs a rewind applies again. */
    if (status == 0 && s->history && in->kind != BP_INPUT_REWIND &&
        in->kind != BP_INPUT_SCENE && !bp_history_log(s->history, in)) {
        snprintf(err, err_size, "history: out of memory");
        status = 1;
    }
    if (status == 0 && s->writer && !bp_input_writer_put(s->writer, in, err, err_size))
        status = 1;
    return status;
}

static bool take_snapshot(bp_session *s)
{
    bp_history_session part = {
        .held = s->held, .inspect = s->inspect, .grab_dx = s->grab_dx, .grab_dy = s->grab_dy,
        .target_x = s->target_x, .target_y = s->target_y, .paused = s->paused,
    };
    return bp_history_take(s->history, s->tick, s->world, &part);
}

bool bp_session_keep_history(bp_session *s, bp_history *h)
{
    s->history = h;
    return take_snapshot(s);
}

bool bp_session_load(bp_session *s, bp_world *fresh, const bp_options *opts)
{
    bp_world *w = s->world;
    /* --history's seconds (else as many as before), at the new scene's rate:
     * the old step count over the new rate went back 3 s of 30 at 1200 Hz. */
    double seconds = opts->history > 0.0 ? opts->history
                     : s->history       ? (double)s->history->keep_steps / w->params.hz
                                        : 0.0;
    fresh->threads = w->threads;
    fresh->stop = w->stop; /* the stop request belongs to the run, as in reset() */
    bp_world old = *w;
    *w = *fresh;
    *fresh = old;
    s->opts = opts;
    s->held = -1;
    s->jumped = true;
    if (!s->history)
        return true;
    /* The past of another scene is not this one's to go back to. */
    bp_history *h = s->history;
    size_t max_bytes = h->max_bytes;
    bp_history_free(h);
    bp_history_init(h, seconds, w->params.hz, max_bytes);
    return bp_session_keep_history(s, h);
}

/* Back to the state after step target: the last snapshot at or before it,
 * then the steps and the logged inputs from there on, with nothing written
 * to the recording (the rewind input stands for them). Whether the session
 * is paused stays as it was. What came after target is forgotten. */
static int rewind_to(bp_session *s, double target, char *err, size_t err_size)
{
    bp_history *h = s->history;
    bool in_range = target >= 0.0 && target <= (double)s->tick;
    uint64_t to = in_range ? (uint64_t)target : 0;
    if (!h || !in_range || to < bp_history_oldest(h)) {
        snprintf(err, err_size, "rewind to step %.17g: the history (--history) %s", target,
                 h ? "does not reach back that far" : "is off");
        return 1;
    }
    const bp_snapshot *snap = bp_history_at(h, to);
    if (!bp_world_restore(s->world, &snap->world)) {
        snprintf(err, err_size, "rewind: out of memory");
        return 1;
    }
    bool paused = s->paused;
    uint64_t from = snap->tick;
    s->tick = from;
    s->held = snap->session.held;
    s->inspect = snap->session.inspect;
    s->grab_dx = snap->session.grab_dx;
    s->grab_dy = snap->session.grab_dy;
    s->target_x = snap->session.target_x;
    s->target_y = snap->session.target_y;
    s->paused = snap->session.paused;
    /* The inputs from the snapshot up to target, to apply again; the cut
     * drops them from the log, and applying logs them once more. */
    size_t first = 0;
    while (first < h->log_count && h->log[first].step < from)
        first++;
    size_t last = first;
    while (last < h->log_count && h->log[last].step < to)
        last++;
    size_t n = last - first;
    bp_input *redo = n ? malloc(n * sizeof *redo) : NULL;
    if (n && !redo) {
        snprintf(err, err_size, "rewind: out of memory");
        return 1;
    }
    for (size_t k = 0; k < n; k++)
        redo[k] = h->log[first + k];
    bp_history_cut(h, from);
    bp_input_writer *writer = s->writer;
    s->writer = NULL;
    int status = 0;
    size_t k = 0;
    while (status == 0) {
        while (status == 0 && k < n && redo[k].step == s->tick)
            status = bp_session_apply(s, &redo[k++], err, err_size);
        if (status != 0 || s->tick >= to)
            break;
        bp_step_status stepped = bp_session_step(s, err, err_size);
        if (stepped == BP_STEP_STOPPED)
            snprintf(err, err_size, "rewind: stopped");
        if (stepped != BP_STEP_DONE)
            status = 1;
    }
    s->writer = writer;
    free(redo);
    s->paused = paused;
    s->jumped = true;
    return status;
}

bp_step_status bp_session_step(bp_session *s, char *err, size_t err_size)
{
    bp_world *w = s->world;
    int64_t i = held_index(s);
    if (i >= 0) {
        double dt = 1.0 / w->params.hz;
        double tx = s->target_x, ty = s->target_y;
        clear_of_walls(w, (size_t)i, &tx, &ty);
        double vx = (tx - w->x[i]) / dt, vy = (ty - w->y[i]) / dt;
        /* The hand moves no faster than a throw may leave it: what it hits
         * is capped like a throw, and a jerk of the mouse catches up over
         * a few steps instead of batting balls away. */
        double speed = sqrt(vx * vx + vy * vy), cap = s->opts->max_throw;
        if (speed > cap) {
            vx *= cap / speed;
            vy *= cap / speed;
        }
        w->vx[i] = vx;
        w->vy[i] = vy;
    }
    bool stepped = bp_world_step(w);
    /* Whether the step ran to its end or returned early, it cannot tell:
     * once a stop is asked for, the step counts as unfinished. */
    if (w->stop && *w->stop)
        return BP_STEP_STOPPED;
    if (!stepped) {
        snprintf(err, err_size, "out of memory at step %llu", (unsigned long long)s->tick + 1);
        return BP_STEP_FAILED;
    }
    s->tick++;
    if (s->history && !take_snapshot(s)) {
        snprintf(err, err_size, "history: out of memory at step %llu",
                 (unsigned long long)s->tick);
        return BP_STEP_FAILED;
    }
    return BP_STEP_DONE;
}

int bp_session_feed(bp_session *s, bp_replay *rp, char *err, size_t err_size)
{
    const bp_input *next;
    while ((next = bp_replay_next(rp, s->tick)) != NULL) {
        bp_input in = *next;
        int status = bp_session_apply(s, &in, err, err_size);
        if (status)
            return status;
    }
    return 0;
}
