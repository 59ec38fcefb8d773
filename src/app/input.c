#include "input.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "program.h"

void bp_input_init(bp_input_handler *h, bp_view *view, const bp_options *opts,
                   const bp_world *world)
{
    *view = (bp_view){.time_scale = 1.0,
                      .show_hud = true,
                      .hint = opts->replay_path == NULL,
                      .replaying = opts->replay_path != NULL,
                      .one_scene = opts->dump_dir != NULL,
                      .look = bp_look_from_options(opts),
                      .camera = bp_camera_whole(world->params.width, world->params.height),
                      .trails_on = opts->trails > 0.0 ? opts->trails : BP_TRAILS_DEFAULT};
    *h = (bp_input_handler){
        .max_throw = opts->max_throw,
        .gravity_on = world->params.gravity != 0.0 ? world->params.gravity : 980.0,
        .r_min = opts->radius_min,
        .r_max = opts->radius_max,
        /* Its own stream, so spawned radii do not echo the initial balls'. */
        .rng = bp_rng_seed(opts->seed ^ 0x5eedba11u),
        .walls_enabled = true,
        .spawn_density = 1.0,
        .stream_rate = BP_STREAM_RATE_DEFAULT,
    };
    bp_throw_reset(&h->tracker);
}

/* How long a note stays on screen, and an error (until Esc closes it), ms. */
#define BP_NOTE_MS 2500
#define BP_ERROR_MS 6000

void bp_view_tell(bp_view *view, const char *what, const char *detail, bool error)
{
    /* A long one is cut on screen (stdout gets it whole). */
    if (snprintf(view->message, sizeof view->message, "%s %s", what, detail) < 0)
        view->message[0] = '\0';
    view->message_until = SDL_GetTicks() + (error ? BP_ERROR_MS : BP_NOTE_MS);
    view->message_error = error;
    if (view->echo) {
        printf("ballpit: %s %s\n", what, detail);
        fflush(stdout);
    }
}

bool bp_view_message_due(const bp_view *view)
{
    return view->message[0] != '\0' && (Sint32)(view->message_until - SDL_GetTicks()) > 0;
}

bool bp_input_unsaved(const bp_input_handler *h)
{
    return h->undo.changed;
}

/* Esc closes what is open first (an error or question on screen, then the
 * help), and only then quits; with unsaved edits it asks, and Esc again
 * (the next key) quits. asked: the last key was the Esc that asked. */
static void escape(const bp_input_handler *h, bp_view *view, bool asked)
{
    if (asked) {
        view->quit = true;
    } else if (view->message_error && bp_view_message_due(view)) {
        view->message[0] = '\0';
    } else if (view->show_help) {
        view->show_help = false;
    } else if (bp_input_unsaved(h) && !view->replaying) {
        view->quit_asked = true;
        bp_view_tell(view, "unsaved edits:", "Esc again to quit, Ctrl+S to save", true);
    } else {
        view->quit = true;
    }
}

/* Every input goes through the undo history, which keeps the edits. */
static int apply(bp_input_handler *h, bp_session *s, bp_input_kind kind, double a, double b,
                 double c, char *err, size_t err_size)
{
    bp_input in = {.kind = kind, .v = {a, b, c}};
    return bp_undo_apply(&h->undo, s, in, false, err, err_size);
}

static int set_param(bp_input_handler *h, bp_session *s, bp_input_param param, double value,
                     char *err, size_t err_size)
{
    bp_input in = {.kind = BP_INPUT_SET, .param = param, .v = {value}};
    return bp_undo_apply(&h->undo, s, in, false, err, err_size);
}

/* Restitution and friction move in steps of 0.05, kept on the grid so the
 * HUD shows round numbers. */
static double nudge(double value, double delta)
{
    double v = round((value + delta) * 100.0) / 100.0;
    return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
}

/* Drag spans decades (0.05 barely shows, 2 is syrup): double or halve. */
static double nudge_drag(double drag, bool up)
{
    if (up)
        return drag < 0.01 ? 0.05 : fmin(drag * 2.0, 1000.0);
    return drag / 2.0 < 0.01 ? 0.0 : drag / 2.0;
}

/* Lets go of a held wall end. Before any edit that may renumber the walls
 * (X, Delete, undo, redo): the drag would go on moving whichever wall took
 * the held one's index. */
static void end_wall_drag(bp_input_handler *h)
{
    if (!h->dragging_end)
        return;
    h->dragging_end = false;
    bp_undo_end_drag(&h->undo);
}

/* One ball of the spawn tool's radius and mass at (x, y): an input, so
 * recorded with both, replayed and undone as any. */
static int spawn_at(bp_input_handler *h, bp_session *s, double x, double y, char *err,
                    size_t err_size)
{
    double r = h->spawn_r > 0.0 ? h->spawn_r : bp_rng_range(&h->rng, h->r_min, h->r_max);
    double m = h->spawn_density == 1.0 ? 0.0 : h->spawn_density * r * r; /* 0: r^2 */
    bp_input in = {.kind = BP_INPUT_SPAWN, .v = {x, y, r, m}};
    return bp_undo_apply(&h->undo, s, in, false, err, err_size);
}

int bp_input_stream(bp_input_handler *h, bp_session *s, double dt, char *err, size_t err_size)
{
    if (!h->stream_key && !h->stream_button)
        return 0;
    h->stream_clock += dt;
    double every = 1.0 / h->stream_rate;
    if (h->stream_clock < every)
        return 0;
    h->stream_clock -= every;
    if (h->stream_clock >= every)
        h->stream_clock = 0.0; /* behind (a slow frame): no burst to catch up */
    return spawn_at(h, s, h->cursor_x, h->cursor_y, err, err_size);
}

static int sim_key(bp_input_handler *h, bp_session *s, SDL_Keycode key, bool shift, char *err,
                   size_t err_size)
{
    const bp_params *p = &s->world->params;
    double cx = h->cursor_x, cy = h->cursor_y;
    switch (key) {
    case SDLK_r:
    {
        h->dragging = h->drawing_wall = h->dragging_end = false;
        int status = apply(h, s, BP_INPUT_RESET, 0, 0, 0, err, err_size);
        bp_undo_clear(&h->undo); /* what it knew is gone */
        h->undo.changed = false; /* and so are the edits: nothing to save */
        /* The initial gravity, sign and all, is what G brings back now. */
        h->gravity_on = p->gravity != 0.0 ? p->gravity : 980.0;
        return status;
    }
    case SDLK_s: /* one ball now, and a stream while it is held */
        h->stream_key = true;
        h->stream_clock = 0.0;
        return spawn_at(h, s, cx, cy, err, err_size);
    case SDLK_DELETE:
    case SDLK_x:
        end_wall_drag(h);
        /* A ball under the cursor goes first, else a wall. */
        if (bp_query_point(s->world, cx, cy) < 0 && bp_session_wall_at(s->world, cx, cy) >= 0)
            return apply(h, s, BP_INPUT_UNWALL, cx, cy, 0, err, err_size);
        return apply(h, s, BP_INPUT_DELETE, cx, cy, 0, err, err_size);
    case SDLK_g:
        if (p->gravity != 0.0) {
            h->gravity_on = p->gravity;
            return set_param(h, s, BP_PARAM_GRAVITY, 0.0, err, err_size);
        }
        return set_param(h, s, BP_PARAM_GRAVITY, h->gravity_on, err, err_size);
    case SDLK_UP:
    case SDLK_DOWN: {
        double g = p->gravity != 0.0 ? fabs(p->gravity) : fabs(h->gravity_on);
        return set_param(h, s, BP_PARAM_GRAVITY, key == SDLK_UP ? -g : g, err, err_size);
    }
    case SDLK_e:
        return set_param(h, s, BP_PARAM_RESTITUTION, nudge(p->restitution, shift ? -0.05 : 0.05),
                         err, err_size);
    case SDLK_f:
        return set_param(h, s, BP_PARAM_FRICTION, nudge(p->friction, shift ? -0.05 : 0.05), err,
                         err_size);
    case SDLK_d:
        return set_param(h, s, BP_PARAM_DRAG, nudge_drag(p->drag, !shift), err, err_size);
    default:
        return 0;
    }
}

/* Pins the inspector to the ball at (x, y), or unpins it when there is
 * none there or it is the one already pinned. An input, so recordings pin
 * it in their --png frames; during a replay the window's own pin. */
static int inspect_at(bp_input_handler *h, bp_view *view, bp_session *s, double x, double y,
                      char *err, size_t err_size)
{
    int64_t id = bp_query_point(s->world, x, y);
    if (view->replaying) {
        view->look.inspect = id == view->look.inspect ? -1 : id;
        return 0;
    }
    return apply(h, s, BP_INPUT_INSPECT, id == s->inspect ? -1.0 : (double)id, 0, 0, err, err_size);
}

/* Asks for n more single steps, up to BP_SINGLE_STEPS_AHEAD s of them. */
static void ask_single_steps(bp_view *view, uint64_t n, double hz)
{
    uint64_t most = (uint64_t)(BP_SINGLE_STEPS_AHEAD * hz);
    view->single_steps = view->single_steps + n < most ? view->single_steps + n : most;
}

/* Backspace goes back a second; paused, Left goes back a step (Shift: a
 * second) and Right on (single steps). Going back is a rewind input: the
 * edits after that point are gone, so their undo goes too. Not while the
 * mouse holds something, whose state the rewind would change under it. */
static int time_key(bp_input_handler *h, bp_view *view, bp_session *s, SDL_Keycode key,
                    bool shift, char *err, size_t err_size)
{
    uint64_t second = (uint64_t)s->world->params.hz;
    if (key == SDLK_RIGHT) {
        if (view->paused)
            ask_single_steps(view, shift ? second : 1, s->world->params.hz);
        return 0;
    }
    if (view->replaying || !s->history || h->dragging || h->drawing_wall || h->dragging_end ||
        (key == SDLK_LEFT && !view->paused))
        return 0;
    uint64_t back = key == SDLK_LEFT && !shift ? 1 : second;
    uint64_t oldest = bp_history_oldest(s->history);
    uint64_t to = s->tick > back ? s->tick - back : 0;
    to = to < oldest ? oldest : to;
    if (to >= s->tick)
        return 0;
    bp_input in = {.kind = BP_INPUT_REWIND, .v = {(double)to}};
    bp_undo_clear(&h->undo);
    view->single_steps = 0;
    int status = bp_session_apply(s, &in, err, err_size);
    /* Back in the middle of a throw, the ball was held then, but no button
     * holds it now: it is let go at rest, or it would hang there. */
    if (status == 0 && s->held >= 0) {
        bp_input drop = {.kind = BP_INPUT_RELEASE};
        status = bp_session_apply(s, &drop, err, err_size);
    }
    return status;
}

static bool is_modifier(SDL_Keycode key)
{
    return key == SDLK_LSHIFT || key == SDLK_RSHIFT || key == SDLK_LCTRL || key == SDLK_RCTRL ||
           key == SDLK_LALT || key == SDLK_RALT || key == SDLK_LGUI || key == SDLK_RGUI;
}

/* Keys that change only how the window runs and looks; false for others.
 * ctrl: Ctrl is down (Ctrl+C is no colour key). */
static bool view_key(bp_view *view, SDL_Keycode key, bool ctrl)
{
    switch (key) {
    case SDLK_LEFTBRACKET:
        view->time_scale = fmax(view->time_scale / 2.0, BP_TIME_SCALE_MIN);
        return true;
    case SDLK_RIGHTBRACKET:
        view->time_scale = fmin(view->time_scale * 2.0, BP_TIME_SCALE_MAX);
        return true;
    case SDLK_h:
    case SDLK_F1:
        view->show_help = !view->show_help;
        return true;
    case SDLK_TAB: /* short -> full -> off -> short */
        if (view->show_hud && !view->hud_full) {
            view->hud_full = true;
        } else {
            view->show_hud = !view->show_hud;
            view->hud_full = false;
        }
        return true;
    case SDLK_F12:
        view->screenshot = true;
        return true;
    case SDLK_t:
        view->look.trails = view->look.trails > 0.0 ? 0.0 : view->trails_on;
        return true;
    case SDLK_v:
        view->look.vectors = !view->look.vectors;
        return true;
    case SDLK_c:
        if (ctrl)
            return false;
        view->look.color_by = (bp_color_by)((view->look.color_by + 1) % BP_COLOR_BY_COUNT);
        return true;
    case SDLK_b:
        view->look.debug = !view->look.debug;
        return true;
    case SDLK_k:
        view->show_chart = !view->show_chart;
        return true;
    case SDLK_p:
        view->show_panel = !view->show_panel;
        return true;
    default:
        return false;
    }
}

/* While a scene's name is typed, keys edit it and nothing else. */
static void prompt_key(bp_view *view, SDL_Keycode key)
{
    size_t n = strlen(view->prompt);
    if (key == SDLK_RETURN || key == SDLK_KP_ENTER) {
        view->prompting = false;
        view->load_scene = n > 0;
    } else if (key == SDLK_ESCAPE) {
        view->prompting = false;
    } else if (key == SDLK_BACKSPACE && n > 0) {
        view->prompt[n - 1] = '\0';
    }
}

/* Any key but Esc (a modifier alone is no key yet) takes back the question
 * Esc asked, and its note. Returns whether the question was open. */
static bool take_back_question(bp_view *view, SDL_Keycode key)
{
    bool asked = view->quit_asked;
    if (asked && !is_modifier(key)) {
        view->quit_asked = false;
        if (key != SDLK_ESCAPE)
            view->message[0] = '\0';
    }
    return asked;
}

static int follow_camera(bp_input_handler *h, bp_view *view, bp_session *s, Uint32 ms,
                         char *err, size_t err_size);

static int key_down(bp_input_handler *h, bp_view *view, bp_session *s, const SDL_KeyboardEvent *k,
                    char *err, size_t err_size)
{
    SDL_Keycode key = k->keysym.sym;
    bool shift = (k->keysym.mod & KMOD_SHIFT) != 0, ctrl = (k->keysym.mod & KMOD_CTRL) != 0;
    if (view->prompting) {
        prompt_key(view, key);
        return 0;
    }
    /* A held key repeats only where repeating means something: single steps
     * and the time scale. Toggles and one-shot actions act once per press. */
    if (k->repeat && key != SDLK_PERIOD && key != SDLK_n && key != SDLK_LEFTBRACKET &&
        key != SDLK_RIGHTBRACKET && key != SDLK_LEFT && key != SDLK_RIGHT &&
        !bp_zoom_key_repeats(key))
        return 0;
    bool asked = take_back_question(view, key);
    if (view_key(view, key, ctrl))
        return 0;
    if (bp_zoom_key(&view->camera, key))
        return follow_camera(h, view, s, k->timestamp, err, err_size);
    switch (key) {
    case SDLK_ESCAPE:
        escape(h, view, asked);
        return 0;
    case SDLK_SPACE: {
        view->paused = !view->paused;
        view->single_steps = 0;
        if (view->replaying)
            return 0;
        int status =
            apply(h, s, view->paused ? BP_INPUT_PAUSE : BP_INPUT_RESUME, 0, 0, 0, err, err_size);
        /* Travel the held ball had still to go is placed at once: paused,
         * no steps take it there. */
        if (status == 0 && view->paused)
            status = bp_input_lead(h, s, 1, err, err_size);
        return status;
    }
    case SDLK_PERIOD:
    case SDLK_n:
        if (view->paused)
            ask_single_steps(view, 1, s->world->params.hz);
        return 0;
    case SDLK_i:
        return inspect_at(h, view, s, h->cursor_x, h->cursor_y, err, err_size);
    default:
        break;
    }
    if (key == SDLK_s && ctrl) {
        view->save_scene = true;
        return 0;
    }
    if (key == SDLK_o && ctrl && !view->replaying) {
        /* Locked to one scene, the load says why at once, before any typing. */
        view->prompting = !view->one_scene;
        view->load_scene = view->one_scene;
        view->prompt[0] = '\0';
        return 0;
    }
    if (ctrl && !view->replaying && (key == SDLK_z || key == SDLK_y)) {
        int status = 0;
        end_wall_drag(h);
        if (key == SDLK_y || shift)
            bp_undo_redo(&h->undo, s, &status, err, err_size);
        else
            bp_undo_undo(&h->undo, s, &status, err, err_size);
        return status;
    }
    if (!ctrl && (key == SDLK_BACKSPACE || key == SDLK_LEFT || key == SDLK_RIGHT))
        return time_key(h, view, s, key, shift, err, err_size);
    if (view->replaying || ctrl)
        return 0;
    if (key == SDLK_r) { /* R puts back everything to the start */
        view->time_scale = 1.0;
        view->camera = bp_camera_whole(view->camera.width, view->camera.height);
    }
    int status = sim_key(h, s, key, shift, err, err_size);
    return status == 0 && key == SDLK_r ? follow_camera(h, view, s, k->timestamp, err, err_size)
                                        : status;
}

static double seconds(Uint32 timestamp_ms)
{
    return (double)timestamp_ms / 1000.0;
}

/* How far outside a wall's end a press still takes hold of it, px. */
#define BP_WALL_END_PICK 6.0

/* Whether (x, y) is on a wall's end (the last drawn first); if so the
 * handler holds it. */
static bool wall_end_at(bp_input_handler *h, const bp_world *w, double x, double y)
{
    for (size_t k = w->wall_count; k-- > 0;) {
        const bp_wall *g = &w->walls[k];
        for (int e = 1; e >= 0; e--) {
            double ex = e ? g->x2 : g->x1, ey = e ? g->y2 : g->y1;
            if (hypot(x - ex, y - ey) <= g->r + BP_WALL_END_PICK) {
                h->dragging_end = true;
                h->end_wall = k;
                h->end_which = e;
                return true;
            }
        }
    }
    return false;
}

/* The button went down at the arena point (x, y), ms SDL ticks. */
static int pointer_down(bp_input_handler *h, bp_session *s, Uint8 button, double x, double y,
                        Uint32 ms, char *err, size_t err_size)
{
    if (button == SDL_BUTTON_RIGHT) {
        h->stream_button = true;
        h->stream_clock = 0.0;
        return spawn_at(h, s, x, y, err, err_size);
    }
    if (button != SDL_BUTTON_LEFT || bp_input_holding(h))
        return 0;
    bool shift = h->shift_held || (SDL_GetModState() & KMOD_SHIFT);
    if (shift && h->walls_enabled) {
        h->drawing_wall = true;
        h->wall_x = x;
        h->wall_y = y;
        return 0;
    }
    if (bp_query_point(s->world, x, y) < 0 && wall_end_at(h, s->world, x, y))
        return 0;
    int status = apply(h, s, BP_INPUT_GRAB, x, y, 0, err, err_size);
    if (status == 0 && s->held >= 0) {
        h->dragging = true;
        h->led_x = x;
        h->led_y = y;
        h->lead_pending = false;
        bp_throw_reset(&h->tracker);
        bp_throw_add(&h->tracker, seconds(ms), x, y);
    }
    return status;
}

/* Walls shorter than this are a click: a peg. px */
#define BP_MIN_WALL_LENGTH 6.0
/* Radius of a peg placed with Shift+click, px. */
#define BP_PEG_RADIUS 6.0
/* Half the thickness of a drawn wall, px. */
#define BP_DRAWN_WALL_RADIUS 3.0

/* The button came up at the arena point (x, y), ms SDL ticks. */
static int pointer_up(bp_input_handler *h, bp_session *s, Uint8 button, double x, double y,
                      Uint32 ms, char *err, size_t err_size)
{
    if (button != SDL_BUTTON_LEFT)
        return 0;
    if (h->drawing_wall) {
        h->drawing_wall = false;
        double dx = x - h->wall_x, dy = y - h->wall_y;
        bp_input in = {.kind = BP_INPUT_WALL,
                       .v = {h->wall_x, h->wall_y, x, y, BP_DRAWN_WALL_RADIUS}};
        if (sqrt(dx * dx + dy * dy) < BP_MIN_WALL_LENGTH)
            in = (bp_input){.kind = BP_INPUT_WALL,
                            .v = {h->wall_x, h->wall_y, h->wall_x, h->wall_y, BP_PEG_RADIUS}};
        return bp_undo_apply(&h->undo, s, in, false, err, err_size);
    }
    if (h->dragging_end) {
        end_wall_drag(h);
        return 0;
    }
    if (!h->dragging)
        return 0;
    h->dragging = false;
    h->lead_pending = false;
    bp_throw_add(&h->tracker, seconds(ms), x, y);
    int status = apply(h, s, BP_INPUT_MOVE, x, y, 0, err, err_size);
    if (status)
        return status;
    double vx, vy;
    bp_throw_velocity(&h->tracker, BP_THROW_WINDOW, h->max_throw, &vx, &vy);
    return apply(h, s, BP_INPUT_RELEASE, vx, vy, 0, err, err_size);
}

bool bp_input_aim(const bp_input_handler *h, const bp_session *s, double now_s, double *vx,
                  double *vy)
{
    if (!h->dragging || s->held < 0)
        return false;
    /* As if the button came up now, where the cursor rests: a cursor that
     * stopped a while ago aims a drop, not its last movement. */
    bp_throw_tracker now = h->tracker;
    bp_throw_add(&now, now_s, h->cursor_x, h->cursor_y);
    bp_throw_velocity(&now, BP_THROW_WINDOW, h->max_throw, vx, vy);
    return true;
}

int bp_input_lead(bp_input_handler *h, bp_session *s, int steps_left, char *err,
                  size_t err_size)
{
    if (!h->lead_pending || !h->dragging)
        return 0;
    if (steps_left <= 1) {
        h->led_x = h->cursor_x;
        h->led_y = h->cursor_y;
        h->lead_pending = false;
    } else {
        h->led_x += (h->cursor_x - h->led_x) / steps_left;
        h->led_y += (h->cursor_y - h->led_y) / steps_left;
    }
    return apply(h, s, BP_INPUT_MOVE, h->led_x, h->led_y, 0, err, err_size);
}

/* The cursor went to the arena point (x, y) at t s: a held wall end and a
 * held ball follow it. flick: the hand moved, and the throw counts the
 * move; else the camera moved under a still hand, and the ball is placed
 * there, its throw measured afresh from there. */
static int cursor_to(bp_input_handler *h, bp_view *view, bp_session *s, double x, double y,
                     double t, bool flick, char *err, size_t err_size)
{
    h->cursor_x = x;
    h->cursor_y = y;
    if (!view->replaying && h->dragging_end) {
        bp_input in = {.kind = BP_INPUT_WALL_END, .v = {(double)h->end_wall, h->end_which, x, y}};
        return bp_undo_apply(&h->undo, s, in, true, err, err_size);
    }
    if (view->replaying || !h->dragging)
        return 0;
    if (!flick)
        bp_throw_reset(&h->tracker);
    bp_throw_add(&h->tracker, t, x, y);
    if (!s->paused) {
        h->lead_pending = true; /* bp_input_lead takes it there */
        return 0;
    }
    /* Paused, a move places the ball: nothing to spread. */
    h->led_x = x;
    h->led_y = y;
    h->lead_pending = false;
    return apply(h, s, BP_INPUT_MOVE, x, y, 0, err, err_size);
}

/* The camera moved (a key, the wheel) at ms: the still cursor may point at
 * another arena point now (the wheel keeps it, unless the arena's edge
 * stops the camera), and what the hand holds goes there. */
static int follow_camera(bp_input_handler *h, bp_view *view, bp_session *s, Uint32 ms,
                         char *err, size_t err_size)
{
    double x, y;
    bp_camera_to_arena(&view->camera, h->zoom.x, h->zoom.y, &x, &y);
    if (fabs(x - h->cursor_x) < 1e-6 && fabs(y - h->cursor_y) < 1e-6)
        return 0;
    return cursor_to(h, view, s, x, y, seconds(ms), false, err, err_size);
}

int bp_input_pointer(bp_input_handler *h, bp_view *view, bp_session *s, bp_pointer_kind kind,
                     Uint8 button, double x, double y, Uint32 ms, char *err, size_t err_size)
{
    switch (kind) {
    case BP_POINTER_MOVE:
        return cursor_to(h, view, s, x, y, seconds(ms), true, err, err_size);
    case BP_POINTER_DOWN: {
        h->cursor_x = x;
        h->cursor_y = y;
        if (view->replaying)
            return 0;
        int status = pointer_down(h, s, button, x, y, ms, err, err_size);
        if (h->dragging)
            view->hint = false; /* a ball in hand: the hint has done its job */
        return status;
    }
    case BP_POINTER_UP:
        h->cursor_x = x;
        h->cursor_y = y;
        if (button == SDL_BUTTON_RIGHT)
            h->stream_button = false;
        return view->replaying ? 0 : pointer_up(h, s, button, x, y, ms, err, err_size);
    }
    return 0;
}

bool bp_input_holding(const bp_input_handler *h)
{
    return h->dragging || h->drawing_wall || h->dragging_end;
}

int bp_input_drop(bp_input_handler *h, bp_session *s, char *err, size_t err_size)
{
    end_wall_drag(h);
    h->drawing_wall = false;
    if (!h->dragging)
        return 0;
    h->dragging = false;
    h->lead_pending = false;
    bp_throw_reset(&h->tracker);
    return apply(h, s, BP_INPUT_RELEASE, 0, 0, 0, err, err_size);
}

int bp_input_handle(bp_input_handler *h, bp_view *view, bp_session *s, const SDL_Event *ev,
                    char *err, size_t err_size)
{
    /* The camera first (the wheel, the middle button's drag), then the
     * cursor's screen point mapped through it: the session hears only
     * arena coordinates. */
    bp_zoom_result zoom = bp_zoom_event(&h->zoom, &view->camera, ev, !view->prompting);
    double ax = h->cursor_x, ay = h->cursor_y;
    if (ev->type == SDL_MOUSEMOTION || ev->type == SDL_MOUSEBUTTONDOWN ||
        ev->type == SDL_MOUSEBUTTONUP)
        bp_camera_to_arena(&view->camera, h->zoom.x, h->zoom.y, &ax, &ay);
    if (zoom == BP_ZOOM_CLICK) {
        h->cursor_x = ax;
        h->cursor_y = ay;
        return inspect_at(h, view, s, ax, ay, err, err_size);
    }
    if (zoom == BP_ZOOM_TAKEN) {
        if (ev->type == SDL_MOUSEWHEEL)
            return follow_camera(h, view, s, ev->wheel.timestamp, err, err_size);
        h->cursor_x = ax;
        h->cursor_y = ay;
        return 0;
    }
    switch (ev->type) {
    case SDL_QUIT:
        view->quit = true;
        return 0;
    case SDL_KEYDOWN:
        if (ev->key.keysym.sym == SDLK_LSHIFT || ev->key.keysym.sym == SDLK_RSHIFT)
            h->shift_held = true;
        return key_down(h, view, s, &ev->key, err, err_size);
    case SDL_KEYUP:
        if (ev->key.keysym.sym == SDLK_LSHIFT || ev->key.keysym.sym == SDLK_RSHIFT)
            h->shift_held = false;
        if (ev->key.keysym.sym == SDLK_s)
            h->stream_key = false;
        return 0;
    case SDL_TEXTINPUT:
        if (view->prompting) {
            size_t n = strlen(view->prompt);
            snprintf(view->prompt + n, sizeof view->prompt - n, "%s", ev->text.text);
        }
        return 0;
    case SDL_MOUSEMOTION:
        return bp_input_pointer(h, view, s, BP_POINTER_MOVE, 0, ax, ay, ev->motion.timestamp, err,
                                err_size);
    case SDL_MOUSEBUTTONDOWN:
        return bp_input_pointer(h, view, s, BP_POINTER_DOWN, ev->button.button, ax, ay,
                                ev->button.timestamp, err, err_size);
    case SDL_MOUSEBUTTONUP:
        return bp_input_pointer(h, view, s, BP_POINTER_UP, ev->button.button, ax, ay,
                                ev->button.timestamp, err, err_size);
    default:
        return 0;
    }
}
