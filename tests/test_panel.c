/* The parameter panel (src/app/panel.c), driven with hand-made SDL events
 * as the window's loop hands them on (the panel first, the arena only what
 * the panel leaves): a slider dragged for a second sets its parameter,
 * makes one undo step, grabs no ball behind the panel, and is recorded as
 * inputs that replay to the same world. No display needed; the drawing is
 * checked on a software renderer. */
#include <SDL2/SDL.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "apprig.h"
#include "sdlevents.h"
#include "session.h"
#include "setup.h"
#include "tap.h"

#define WIDTH 1024
#define HEIGHT 768

/* The default pit (restitution 0.9), the panel's units the arena's px. */
static void rig_make_n(rig *r, uint64_t balls)
{
    r->opts = bp_options_default();
    if (balls)
        r->opts.balls = balls, r->opts.balls_set = true;
    int status;
    rig_start(r, bp_setup_world(&r->opts, &status, r->err, sizeof r->err));
    bp_panel_init(&r->panel, WIDTH, HEIGHT);
}

static void rig_make(rig *r)
{
    rig_make_n(r, 0);
}

static void step(rig *r, int n)
{
    for (int k = 0; k < n; k++)
        bp_session_step(&r->session, r->err, sizeof r->err);
}

static bool same_world(const bp_world *a, const bp_world *b)
{
    if (a->count != b->count || memcmp(&a->params, &b->params, sizeof a->params) != 0)
        return false;
    size_t n = a->count * sizeof(double);
    return memcmp(a->x, b->x, n) == 0 && memcmp(a->y, b->y, n) == 0 &&
           memcmp(a->vx, b->vx, n) == 0 && memcmp(a->vy, b->vy, n) == 0 &&
           memcmp(a->w, b->w, n) == 0;
}

/* Drags the restitution slider from 0.9 to 0.2 over a second: 60 motion
 * events, two steps (120 Hz) after each, as frames would. */
static void drag_restitution(rig *r, double *grabbed)
{
    double x0, y0, x1, y1;
    bool found = bp_panel_knob_at(&r->panel, &r->input, &r->view, &r->session, "restitution", 0.9,
                                  &x0, &y0) &&
                 bp_panel_knob_at(&r->panel, &r->input, &r->view, &r->session, "restitution",
                                  0.2, &x1, &y1);
    TAP_OK(found && x1 < x0 && y1 == y0, "the open panel has a restitution slider");
    /* A ball right under the knob: the press must not grab it. */
    bp_input spawn = {.kind = BP_INPUT_SPAWN, .v = {x0, y0, 10.0}};
    bp_session_apply(&r->session, &spawn, r->err, sizeof r->err);
    *grabbed = 0.0;
    bool used = rig_feed(r, mouse_button(SDL_MOUSEBUTTONDOWN, (int)lround(x0), (int)lround(y0), 0));
    TAP_OK(used, "the press on the slider is the panel's");
    for (int k = 1; k <= 60; k++) {
        double x = x0 + (x1 - x0) * k / 60.0;
        used &= rig_feed(r, mouse_motion((int)lround(x), (int)lround(y0), 0));
        *grabbed += r->session.held >= 0 || r->input.dragging;
        step(r, 2);
    }
    used &= rig_feed(r, mouse_button(SDL_MOUSEBUTTONUP, (int)lround(x1), (int)lround(y0), 0));
    *grabbed += r->session.held >= 0 || r->input.dragging;
    TAP_OK(used, "the drag's motion and release are the panel's too");
}

/* A rig whose session records into a new temporary file (path: room for
 * the template); false when no file could be made. */
static bool rig_recording(rig *r, char *path, bp_input_writer *writer)
{
    int fd = mkstemp(path);
    TAP_OK(fd >= 0, "temporary recording file");
    if (fd < 0)
        return false;
    close(fd);
    rig_make(r);
    TAP_OK(bp_input_writer_open(writer, path, r->err, sizeof r->err), "recording opens");
    r->session.writer = writer;
    return true;
}

static void a_dragged_slider_sets_once_undoes_once_and_replays(void)
{
    char path[] = "/tmp/bp-test-panel-XXXXXX";
    rig r;
    bp_input_writer writer;
    if (!rig_recording(&r, path, &writer))
        return;
    step(&r, 30);
    rig_feed(&r, key_down(SDLK_p, 0));
    TAP_OK(r.view.show_panel, "P opens the panel");
    TAP_OK(r.world->params.restitution == 0.9, "restitution starts at 0.9");
    double grabbed;
    drag_restitution(&r, &grabbed);
    /* The slider snaps to steps of 0.01, and 0.2 is on the grid. */
    TAP_OK(fabs(r.world->params.restitution - 0.2) < 0.005,
           "dragged to 0.2, the slider sets restitution 0.2 (within its step of 0.01)");
    TAP_OK(grabbed == 0.0, "no ball under the panel was grabbed by the drag");
    TAP_OK(r.input.undo.past_count == 1, "a second's drag is one undo step, not sixty");
    step(&r, 20);
    rig_feed(&r, key_down(SDLK_z, KMOD_LCTRL));
    TAP_OK(r.world->params.restitution == 0.9, "Ctrl+Z puts restitution back to 0.9 at once");
    step(&r, 20);
    TAP_OK(bp_input_writer_close(&writer, r.session.tick, r.err, sizeof r.err),
           "recording closes");
    bp_replay rp;
    int status = bp_replay_load(&rp, path, r.err, sizeof r.err);
    size_t sets = 0;
    for (size_t k = 0; status == 0 && k < rp.count; k++)
        sets += rp.inputs[k].kind == BP_INPUT_SET && rp.inputs[k].param == BP_PARAM_RESTITUTION;
    TAP_OK(status == 0 && sets >= 2, "the drag and its undo are recorded as set inputs");
    rig again;
    rig_make(&again);
    while (status == 0 && again.session.tick < rp.end_step) {
        bp_session_feed(&again.session, &rp, again.err, sizeof again.err);
        step(&again, 1);
    }
    TAP_OK(status == 0 && same_world(r.world, again.world),
           "the recording replays to the same world, bit for bit");
    if (status == 0)
        bp_replay_free(&rp);
    bp_world_destroy(r.world);
    bp_world_destroy(again.world);
    remove(path);
}

/* The buttons act as their keys, and the tab opens the panel. */
static void buttons_and_the_tab_act_as_their_keys(void)
{
    rig r;
    rig_make(&r);
    TAP_OK(!bp_panel_knob_at(&r.panel, &r.input, &r.view, &r.session, "restitution", 0.5,
                             &(double){0}, &(double){0}),
           "closed, the panel has no slider to find");
    /* The tab: against the right edge, half way down. */
    bool used = rig_feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, WIDTH - 20, HEIGHT / 2, 0));
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONUP, WIDTH - 20, HEIGHT / 2, 0));
    TAP_OK(used && r.view.show_panel, "a click on the tab opens the panel");
    double x, y;
    bp_panel_knob_at(&r.panel, &r.input, &r.view, &r.session, "time scale", 0.5, &x, &y);
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, (int)lround(x), (int)lround(y), 0));
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONUP, (int)lround(x), (int)lround(y), 0));
    TAP_OK(r.view.time_scale == 0.5, "a click on the time scale's track sets 0.5x");
    TAP_OK(r.input.undo.past_count == 0, "the time scale is a view setting: no undo step");
    bp_panel_knob_at(&r.panel, &r.input, &r.view, &r.session, "gravity", 490.0, &x, &y);
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, (int)lround(x), (int)lround(y), 0));
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONUP, (int)lround(x), (int)lround(y), 0));
    TAP_OK(r.world->params.gravity == 490.0, "the gravity slider keeps gravity pulling down");
    rig_feed(&r, key_down(SDLK_UP, 0));
    bp_panel_knob_at(&r.panel, &r.input, &r.view, &r.session, "gravity", 1960.0, &x, &y);
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, (int)lround(x), (int)lround(y), 0));
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONUP, (int)lround(x), (int)lround(y), 0));
    TAP_OK(r.world->params.gravity == -1960.0, "... and pulling up after Up");
    rig_feed(&r, key_down(SDLK_p, 0));
    TAP_OK(!r.view.show_panel, "P closes it again");
    bp_world_destroy(r.world);
}

/* Drawn on a software renderer: the panel darkens the arena under it. */
static void the_panel_draws_over_the_arena(void)
{
    rig r;
    rig_make(&r);
    SDL_Surface *surface =
        SDL_CreateRGBSurfaceWithFormat(0, WIDTH, HEIGHT, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *renderer = surface ? SDL_CreateSoftwareRenderer(surface) : NULL;
    TAP_OK(renderer != NULL, "a software renderer to draw on");
    if (!renderer)
        return;
    r.view.show_panel = true;
    SDL_SetRenderDrawColor(renderer, 200, 200, 200, 255);
    SDL_RenderClear(renderer);
    bp_panel_draw(&r.panel, renderer, NULL, &r.input, &r.view, &r.session);
    const Uint32 *px = surface->pixels;
    int pitch = surface->pitch / 4;
    Uint32 inside = px[(HEIGHT / 2) * pitch + WIDTH - 13], outside = px[(HEIGHT / 2) * pitch + 20];
    TAP_OK((inside & 0xff) < 120 && (outside & 0xff) == 200,
           "inside the panel the light background shows dark; outside it is untouched");
    SDL_DestroyRenderer(renderer);
    SDL_FreeSurface(surface);
    bp_world_destroy(r.world);
}

/* n steps as the window takes them: the stream's clock after each. */
static void step_streaming(rig *r, int n)
{
    for (int k = 0; k < n; k++) {
        bp_session_step(&r->session, r->err, sizeof r->err);
        bp_input_stream(&r->input, &r->session, 1.0 / r->world->params.hz, r->err,
                        sizeof r->err);
    }
}

/* Clicks the track of the slider labelled label where it shows value. */
static void click_slider(rig *r, const char *label, double value)
{
    double x = 0.0, y = 0.0;
    bp_panel_knob_at(&r->panel, &r->input, &r->view, &r->session, label, value, &x, &y);
    rig_feed(r, mouse_button(SDL_MOUSEBUTTONDOWN, (int)lround(x), (int)lround(y), 0));
    rig_feed(r, mouse_button(SDL_MOUSEBUTTONUP, (int)lround(x), (int)lround(y), 0));
}

static size_t newest(const bp_world *w)
{
    size_t best = 0;
    for (size_t i = 1; i < w->count; i++)
        best = w->id[i] > w->id[best] ? i : best;
    return best;
}

/* The Spawn section sets what S and the right button make; held, they
 * stream at its rate; every ball is an input that replays and undoes. */
static void the_spawn_tool_shapes_clicks_and_streams(void)
{
    char path[] = "/tmp/bp-test-spawn-XXXXXX";
    rig r;
    bp_input_writer writer;
    if (!rig_recording(&r, path, &writer))
        return;
    rig_feed(&r, key_down(SDLK_p, 0));
    click_slider(&r, "spawn radius", 20.0);
    click_slider(&r, "spawn density", 4.0);
    click_slider(&r, "stream rate", 20.0);
    /* The sliders snap (0.5 px, 0.05, 1 /s) and the track is ~230 units
     * wide: a click lands within a unit, a few percent of these values. */
    TAP_OK(fabs(r.input.spawn_r - 20.0) <= 0.6 && fabs(r.input.spawn_density - 4.0) <= 0.1 &&
               fabs(r.input.stream_rate - 20.0) <= 1.0,
           "the Spawn sliders set radius 20 px, density 4 and 20 balls/s");
    TAP_OK(r.input.undo.past_count == 0, "they are view settings: no undo step");
    double rr = r.input.spawn_r, m = r.input.spawn_density * rr * rr;
    size_t before = r.world->count;
    /* An empty spot of the default arena: its top left, away from the panel. */
    rig_feed(&r, mouse_motion(100, 100, 0));
    rig_feed(&r, key_down(SDLK_s, 0));
    rig_feed(&r, key_up(SDLK_s));
    size_t i = newest(r.world);
    TAP_OK(r.world->count == before + 1 && r.world->r[i] == rr && r.world->mass[i] == m,
           "a press of S spawns one ball of that radius and mass");
    step_streaming(&r, 120);
    TAP_OK(r.world->count == before + 1, "let go, S streams nothing more");
    /* Balls of 5 px, the cursor sweeping right 2 px a step: at 20 /s a
     * ball every 6 steps, 12 px from the last, so each has room. */
    click_slider(&r, "spawn radius", 5.0);
    size_t held_from = r.world->count;
    SDL_Event down = mouse_button(SDL_MOUSEBUTTONDOWN, 100, 300, 0), up;
    down.button.button = SDL_BUTTON_RIGHT;
    rig_feed(&r, down);
    for (int k = 1; k <= 120; k++) { /* a second at 120 Hz */
        rig_feed(&r, mouse_motion(100 + 2 * k, 300, 0));
        step_streaming(&r, 1);
    }
    up = mouse_button(SDL_MOUSEBUTTONUP, 340, 300, 0);
    up.button.button = SDL_BUTTON_RIGHT;
    rig_feed(&r, up);
    size_t streamed = r.world->count - held_from;
    /* One at the press, then one every 1/rate s of the second held (the
     * last may fall either side of it): rate + 1, give or take one. */
    TAP_OK(fabs((double)streamed - (r.input.stream_rate + 1.0)) <= 1.0,
           "the right button held for a second streams at the panel's rate");
    step_streaming(&r, 60);
    TAP_OK(r.world->count == held_from + streamed, "let go, the stream stops");
    rig_feed(&r, key_down(SDLK_z, KMOD_LCTRL));
    TAP_OK(r.world->count == held_from + streamed - 1, "Ctrl+Z takes the last ball back");
    step(&r, 10);
    TAP_OK(bp_input_writer_close(&writer, r.session.tick, r.err, sizeof r.err),
           "recording closes");
    bp_replay rp;
    int status = bp_replay_load(&rp, path, r.err, sizeof r.err);
    size_t with_mass = 0;
    for (size_t k = 0; status == 0 && k < rp.count; k++)
        with_mass += rp.inputs[k].kind == BP_INPUT_SPAWN && rp.inputs[k].v[3] == m;
    size_t with_mass5 = 0;
    for (size_t k = 0; status == 0 && k < rp.count; k++)
        with_mass5 += rp.inputs[k].kind == BP_INPUT_SPAWN && rp.inputs[k].v[2] == r.input.spawn_r &&
                      rp.inputs[k].v[3] == r.input.spawn_density * 25.0;
    TAP_OK(status == 0 && with_mass == 1 && with_mass5 == streamed,
           "every spawn is recorded with its radius and mass");
    rig again;
    rig_make(&again);
    while (status == 0 && again.session.tick < rp.end_step) {
        bp_session_feed(&again.session, &rp, again.err, sizeof again.err);
        step(&again, 1);
    }
    bp_session_feed(&again.session, &rp, again.err, sizeof again.err);
    TAP_OK(status == 0 && same_world(r.world, again.world),
           "the recording replays to the same world, bit for bit");
    if (status == 0)
        bp_replay_free(&rp);
    bp_world_destroy(r.world);
    bp_world_destroy(again.world);
    remove(path);
}

/* The deepest overlap of ball k with any other, in the smaller radius. */
static double deepest_overlap(const bp_world *w, size_t k)
{
    double worst = 0.0;
    for (size_t i = 0; i < w->count; i++) {
        double d = hypot(w->x[i] - w->x[k], w->y[i] - w->y[k]);
        double depth = (w->r[i] + w->r[k] - d) / fmin(w->r[i], w->r[k]);
        worst = i != k && depth > worst ? depth : worst;
    }
    return worst;
}

/* A stream held into a settled pile for 2 s: each ball goes to a free spot
 * (or none is made), so no overlap pushes the pile apart. */
static void a_stream_into_a_pile_does_not_explode_it(void)
{
    rig r;
    rig_make_n(&r, 300);
    const bp_params *p = &r.world->params;
    bp_input damp = {.kind = BP_INPUT_SET, .param = BP_PARAM_RESTITUTION, .v = {0.1}};
    bp_session_apply(&r.session, &damp, r.err, sizeof r.err);
    step(&r, (int)(4.0 * p->hz)); /* 4 s: the pit's balls come to rest on the floor */
    /* Into the pile's top: the highest ball within 100 px of mid-arena. */
    size_t in = 0;
    double top = 1e300;
    for (size_t i = 0; i < r.world->count; i++)
        if (fabs(r.world->x[i] - 0.5 * p->width) < 100.0 && r.world->y[i] < top) {
            top = r.world->y[i];
            in = i;
        }
    size_t before = r.world->count;
    rig_feed(&r, mouse_motion((int)lround(r.world->x[in]), (int)lround(r.world->y[in]), 0));
    /* One ball asked for right on a ball's centre goes beside it. */
    rig_feed(&r, key_down(SDLK_s, 0));
    rig_feed(&r, key_up(SDLK_s));
    TAP_OK(r.world->count == before + 1, "S over a ball's centre makes one ball");
    TAP_OK(deepest_overlap(r.world, newest(r.world)) <= 0.05,
           "placed at a free spot: it overlaps no ball by over 5% of the smaller radius");
    rig_feed(&r, key_down(SDLK_s, 0));
    step_streaming(&r, (int)(2.0 * p->hz));
    rig_feed(&r, key_up(SDLK_s));
    printf("# %zu balls streamed into a pile of %zu\n", r.world->count - before, before);
    step(&r, (int)p->hz);
    double fastest = 0.0;
    for (size_t i = 0; i < r.world->count; i++)
        fastest = fmax(fastest, hypot(r.world->vx[i], r.world->vy[i]));
    /* Spawned balls start at rest, and the pile was at rest: all the
     * kinetic energy there can be comes from falling, at most the arena's
     * height, so no ball is faster than sqrt(2 g H) (collisions with
     * restitution below 1 only lose energy). An overlap pushed apart adds
     * energy no fall gave. */
    double bound = sqrt(2.0 * fabs(p->gravity) * p->height);
    printf("# fastest %.1f px/s, bound %.1f px/s\n", fastest, bound);
    TAP_OK(r.world->count > before, "the stream added balls");
    TAP_OK(fastest < bound, "a second later no ball is faster than a fall from the arena's top");
    bp_world_destroy(r.world);
}

/* In a window shorter than the panel, the wheel over it scrolls its last
 * rows into view; over the arena it scrolls nothing. */
static void a_short_window_scrolls_the_panel(void)
{
    rig r;
    rig_make(&r);
    bp_panel_init(&r.panel, WIDTH, 400);
    rig_feed(&r, key_down(SDLK_p, 0));
    double x, y0, y1, y2;
    bp_panel_knob_at(&r.panel, &r.input, &r.view, &r.session, "time scale", 1.0, &x, &y0);
    SDL_Event wheel = {.type = SDL_MOUSEWHEEL};
    wheel.wheel.y = -1; /* towards the user: down the panel */
    rig_feed(&r, mouse_motion(100, 200, 0));
    bool arena_used = rig_feed(&r, wheel);
    bp_panel_knob_at(&r.panel, &r.input, &r.view, &r.session, "time scale", 1.0, &x, &y1);
    rig_feed(&r, mouse_motion((int)lround(x), 200, 0));
    for (int k = 0; k < 10; k++)
        rig_feed(&r, wheel);
    bp_panel_knob_at(&r.panel, &r.input, &r.view, &r.session, "time scale", 1.0, &x, &y2);
    printf("# time scale's knob at y %.0f, after the wheel over the arena %.0f, over the "
           "panel %.0f (window 400 high)\n", y0, y1, y2);
    TAP_OK(!arena_used && y1 == y0, "the wheel over the arena leaves the panel where it is");
    TAP_OK(y0 > 400.0 && y2 > 0.0 && y2 < 400.0,
           "over the panel it brings the time scale, below the window, into view");
    bp_world_destroy(r.world);
}

int main(void)
{
    the_spawn_tool_shapes_clicks_and_streams();
    a_stream_into_a_pile_does_not_explode_it();
    a_short_window_scrolls_the_panel();
    a_dragged_slider_sets_once_undoes_once_and_replays();
    buttons_and_the_tab_act_as_their_keys();
    the_panel_draws_over_the_arena();
    return tap_done();
}
