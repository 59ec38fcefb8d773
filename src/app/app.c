/* The window loop.
 *
 * Physics advances in whole fixed steps of 1/hz, paid for out of an
 * accumulator of real time (times the time scale), so the simulation never
 * depends on the frame rate; the drawn state is interpolated between the
 * last two steps so motion is smooth at any refresh rate. Inputs reach the
 * session between frames, that is between steps, stamped with the step they
 * act on, so a recording of them replays the run exactly. */
#include "app.h"

#include <SDL2/SDL.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

#include "chart.h"
#include "hud.h"
#include "input.h"
#include "panel.h"
#include "picker.h"
#include "png.h"
#include "recorder.h"
#include "render.h"
#include "scene.h"
#include "scenepath.h"
#include "setup.h"
#include "steptime.h"
#include "textfile.h"
#include "touch.h"
#include "trails.h"

/* A slow frame may catch up this many steps at most, then the simulation
 * slows down instead of spiralling. */
#define BP_MAX_STEPS_PER_FRAME 8
/* Wall time a frame's steps may take, s: fewer steps a frame once they
 * are slow, so that the window keeps drawing (at least one step a
 * frame). Stirring 100,000 balls, 8 steps of 14-35 ms made frames of
 * a quarter second or more. */
#define BP_FRAME_STEP_BUDGET 0.05
/* Longest real time one frame may account for (a stalled window), s. */
#define BP_MAX_FRAME_TIME 0.25
/* Frames a second on the desktop: the display's refresh rate, or the
 * default when the display does not say (Xvfb) or says something odd. */
#define BP_DEFAULT_REFRESH_HZ 60
#define BP_MIN_REFRESH_HZ 24
#define BP_MAX_REFRESH_HZ 360
/* Of the display's usable area, what a window may take at first (room
 * for the frame and title a window manager adds). */
#define BP_WINDOW_ROOM_W 0.95
#define BP_WINDOW_ROOM_H 0.90
/* Canvas limits: a whole scale factor up to 4 (4K on a small arena), and
 * a side no GPU should refuse. */
#define BP_MAX_CANVAS_SCALE 4
#define BP_MAX_CANVAS_SIDE 8192

/* Fresh memory written for the next rewind snapshot per frame: about
 * 2.5 ms on a test VM; 15 frames between snapshots at 60 fps cover the
 * 10 MB of 100,000 balls. */
#define BP_HISTORY_PREPARE_PER_FRAME ((size_t)1 << 20)

/* What the HUD's figures are made of, over the half second they cover. */
typedef struct hud_period {
    Uint64 start;            /* performance counter when it began */
    uint64_t first_tick;     /* the physics step then */
    int drawn;               /* frames drawn since */
    int skipped;             /* times round the loop with nothing new to draw */
    Uint64 draw_ticks, step_ticks; /* counter ticks spent drawing, stepping */
} hud_period;

typedef struct bp_app {
    SDL_Window *window;
    SDL_Renderer *renderer;
    int width, height; /* arena = logical size, px */
    SDL_Texture *canvas; /* see canvas() */
    bp_render *render;    /* the world's picture (render.h); NULL: not drawn */
    bp_text *glyphs;      /* text in one draw call a block (text.h); may be NULL */
    int canvas_k;
    bool canvas_failed;
    bp_session session;
    bp_input_writer writer;
    bp_replay replay;
    int fed; /* the replay's feed's status, when it failed */
    bool replay_done;
    bp_recorder rec;
    bp_input_handler input;
    bp_view view;
    bp_panel panel; /* the parameter panel (P) */
    bp_picker picker; /* the scene picker over the Ctrl+O prompt */
    bp_touch touch;   /* fingers' gestures (touch.h) */
    const bp_options *opts;
    /* Positions after the step before last, by id, for interpolation. */
    double *prev_x, *prev_y;
    size_t prev_capacity;
    /* Drawn positions, by index. */
    double *draw_x, *draw_y;
    size_t draw_capacity;
    /* What the window shows: where each ball was drawn, by id, and of
     * which world. */
    double *shown_x, *shown_y;
    size_t shown_capacity, shown_count, shown_walls;
    uint64_t shown_asleep;    /* the balls asleep in the frame shown (--color-by sleep),
                               * as the sum of their ids plus one each */
    uint32_t shown_next_id;
    bp_params shown_params;
    bool shown_valid;
    bp_look shown_look;
    int64_t shown_inspect;
    bool shown_chart, shown_message;
    char loaded_name[128];  /* the name of a scene loaded with Ctrl+O */
    bp_trails trails;
    bool trails_live; /* trails holds the recent path (T is on) */
    bp_chart chart;
    /* The steps' wall time, for the HUD: the second under way, and the
     * last whole second, which the HUD shows. */
    bp_steptime second_now, second_last;
    Uint64 second_start; /* performance counter when second_now began */
    bp_history history;       /* the past, for rewinding (--history) */
    uint64_t furthest;        /* the latest step reached; after a rewind, the
                               * timeline shows how far back it went */
    uint64_t last_tick;       /* the step of the last frame */
    /* The frame loop's own state, kept between frames (see frame()). */
    double dt, accumulator, freq;
    Uint64 last;              /* performance counter at the last frame */
    double last_step_s;       /* wall time of the last step, s */
    hud_period period;
    bp_hud_stats stats;
    bool recording, dumping;  /* --record-input, --dump files open */
    int idle_ms;              /* how long an unchanged frame may wait */
    Uint64 frame_ticks;       /* one refresh of the display, in counter ticks */
    char err[512];            /* why the loop failed */
    bool failed;
} bp_app;

static bool grow(double **a, double **b, size_t *capacity, size_t wanted)
{
    if (wanted <= *capacity)
        return true;
    size_t cap = *capacity ? *capacity : 64;
    while (cap < wanted)
        cap *= 2;
    double *na = realloc(*a, cap * sizeof(double));
    if (na)
        *a = na;
    double *nb = realloc(*b, cap * sizeof(double));
    if (nb)
        *b = nb;
    if (!na || !nb)
        return false;
    *capacity = cap;
    return true;
}

/* Remembers where every ball is now, so the next step interpolates from
 * here. */
static bool snapshot(bp_app *app)
{
    const bp_world *w = app->session.world;
    if (!grow(&app->prev_x, &app->prev_y, &app->prev_capacity, w->next_id + 1u))
        return false;
    for (size_t i = 0; i < w->count; i++) {
        app->prev_x[w->id[i]] = w->x[i];
        app->prev_y[w->id[i]] = w->y[i];
    }
    return true;
}

/* Counts a step that ran from one performance-counter reading to another
 * into the second under way; a second on, that becomes the last whole one. */
static void note_step_time(bp_app *app, Uint64 from, Uint64 to)
{
    Uint64 freq = SDL_GetPerformanceFrequency();
    if (app->second_now.count == 0)
        app->second_start = from;
    else if (to - app->second_start >= freq) {
        app->second_last = app->second_now;
        bp_steptime_reset(&app->second_now);
        app->second_start = from;
    }
    bp_steptime_add(&app->second_now, (double)(to - from) / (double)freq);
}

static void follow_load(bp_app *app);

static bool step(bp_app *app, char *err, size_t err_size)
{
    bp_session *s = &app->session;
    if (app->opts->replay_path) {
        unsigned loads = s->loads;
        /* 2: a scene input the options do not fit, bad input (exit 2). */
        if ((app->fed = bp_session_feed(s, &app->replay, err, err_size)) != 0)
            return false;
        if (s->loads != loads)
            follow_load(app);
        if (!app->replay_done && app->replay.next == app->replay.count &&
            s->tick >= app->replay.end_step) {
            app->replay_done = true;
            printf("ballpit: replay finished at step %llu\n", (unsigned long long)s->tick);
        }
    }
    if (!snapshot(app)) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    s->jumped = false;
    Uint64 from = SDL_GetPerformanceCounter();
    if (bp_session_step(s, err, err_size) != BP_STEP_DONE)
        return false; /* the window sets no world->stop: only a failure ends here */
    Uint64 to = SDL_GetPerformanceCounter();
    note_step_time(app, from, to);
    app->last_step_s = (double)(to - from) / app->freq;
    bp_chart_record(&app->chart, s->world);
    if (app->view.look.trails > 0.0) {
        if (!bp_trails_record(&app->trails, s->world, app->view.look.trails)) {
            snprintf(err, err_size, "trails: out of memory");
            return false;
        }
        app->trails_live = true;
    } else if (app->trails_live) {
        /* Off: the next T starts from where the balls are then, not from
         * where they were when trails went off. */
        bp_trails_clear(&app->trails);
        app->trails_live = false;
    }
    return bp_recorder_step(&app->rec, s->world, s->tick, err, err_size);
}

static bool steps_done(const bp_app *app)
{
    return app->opts->steps_set && app->session.tick >= app->opts->steps;
}

/* Interpolated positions to draw, alpha of the way from the last step's
 * start to its end. */
static bool interpolate(bp_app *app, double alpha)
{
    const bp_world *w = app->session.world;
    if (!grow(&app->draw_x, &app->draw_y, &app->draw_capacity, w->count + 1u) ||
        !grow(&app->prev_x, &app->prev_y, &app->prev_capacity, w->next_id + 1u))
        return false;
    for (size_t i = 0; i < w->count; i++) {
        double px = app->prev_x[w->id[i]], py = app->prev_y[w->id[i]];
        app->draw_x[i] = px + (w->x[i] - px) * alpha;
        app->draw_y[i] = py + (w->y[i] - py) * alpha;
    }
    return true;
}

/* First free name PREFIX-NNN.EXT in the working directory. */
static bool free_name(char *path, size_t size, const char *prefix, const char *ext)
{
    for (int n = 1; n < 1000; n++) {
        snprintf(path, size, "%s-%03d.%s", prefix, n, ext);
        if (access(path, F_OK) != 0)
            return true;
    }
    return false;
}

/* A short note on screen, and on stdout at once. */
static void tell(bp_app *app, const char *what, const char *path)
{
    bp_view_tell(&app->view, what, path, false);
}

/* An error on screen (Esc closes it), and on stdout at once. */
static void tell_error(bp_app *app, const char *what, const char *why)
{
    bp_view_tell(&app->view, what, why, true);
}

/* Whether a note is to be on screen now. */
static bool message_due(const bp_app *app)
{
    return bp_view_message_due(&app->view);
}

static void screenshot(bp_app *app)
{
    char path[64], err[512];
    int w = 0, h = 0;
    if (!free_name(path, sizeof path, "ballpit", "png") ||
        SDL_GetRendererOutputSize(app->renderer, &w, &h) != 0) {
        fprintf(stderr, "ballpit: screenshot: no free file name\n");
        return;
    }
    if (bp_png_save_renderer(app->renderer, w, h, path, err, sizeof err))
        tell(app, "screenshot saved to", path);
    else
        fprintf(stderr, "ballpit: screenshot: %s\n", err);
}

/* The window's size for the arena on a display: the arena's own, shrunk
 * (never grown) to fit the display's usable area, keeping its shape. */
static void window_size_for(const bp_app *app, int display, int *w, int *h)
{
    *w = app->width;
    *h = app->height;
#ifndef __EMSCRIPTEN__ /* the page sizes the canvas (docs/web.md) */
    SDL_Rect usable;
    if (SDL_GetDisplayUsableBounds(display, &usable) != 0 || usable.w <= 0 || usable.h <= 0)
        return;
    double fit = SDL_min(BP_WINDOW_ROOM_W * usable.w / app->width,
                         BP_WINDOW_ROOM_H * usable.h / app->height);
    if (fit < 1.0) {
        *w = SDL_max(1, (int)(app->width * fit));
        *h = SDL_max(1, (int)(app->height * fit));
    }
#else
    (void)display;
#endif
}

/* Sizes the window for a newly loaded arena, and brings it back onto its
 * display's usable area if that left it partly outside. */
static void fit_window(bp_app *app)
{
    int display = SDL_max(0, SDL_GetWindowDisplayIndex(app->window)), w, h;
    window_size_for(app, display, &w, &h);
    SDL_SetWindowSize(app->window, w, h);
#ifndef __EMSCRIPTEN__
    SDL_Rect usable;
    int x, y;
    SDL_GetWindowPosition(app->window, &x, &y);
    if (SDL_GetDisplayUsableBounds(display, &usable) == 0 &&
        (x < usable.x || y < usable.y || x + w > usable.x + usable.w ||
         y + h > usable.y + usable.h))
        SDL_SetWindowPosition(app->window, SDL_WINDOWPOS_CENTERED_DISPLAY(display),
                              SDL_WINDOWPOS_CENTERED_DISPLAY(display));
#endif
}

/* After a load (Ctrl+O, or a replayed scene input): the window fits the
 * new arena, and the edits and drags of the old scene are gone. */
static void follow_load(bp_app *app)
{
    const bp_world *w = app->session.world;
    app->furthest = app->session.tick;
    app->input.dragging = app->input.drawing_wall = app->input.dragging_end = false;
    bp_undo_clear(&app->input.undo);
    app->input.undo.changed = false; /* a fresh scene: nothing to save yet */
    app->width = (int)SDL_ceil(w->params.width);
    app->height = (int)SDL_ceil(w->params.height);
    app->view.camera = bp_camera_whole(w->params.width, w->params.height);
    fit_window(app);
    SDL_RenderSetLogicalSize(app->renderer, app->width, app->height);
}

/* Ctrl+O: the scene named in the prompt (a file, or an example by name)
 * as a scene input carrying its text, so a recording holds it whole; R
 * then goes back to it. Not while dumping, so that a live dump keeps one
 * arena (a replayed scene input may still change it, and the PNG size).
 * false when memory runs out (app->err). */
static bool load_scene(bp_app *app)
{
    if (app->view.one_scene) {
        tell_error(app, "Ctrl+O:", "not while --dump writes one scene's frames");
        return true;
    }
    /* A name that fails to load leaves the one R resets to as it was. */
    char name[sizeof app->loaded_name], path[4096], why[512];
    snprintf(name, sizeof name, "%s", app->view.prompt);
    char *text = NULL;
    size_t len = 0;
    int status = bp_scene_find(name, path, sizeof path, why, sizeof why) ? 0 : 2;
    if (status == 0)
        status = bp_read_text_file(path, BP_TEXT_MAX_BYTES, &text, &len, why, sizeof why);
    if (status == 0) {
        bp_input in = {.kind = BP_INPUT_SCENE, .text = text, .name = path};
        in.v[0] = (double)bp_input_scene_lines(text);
        status = bp_session_apply(&app->session, &in, why, sizeof why);
    }
    free(text);
    if (status == 2) {
        tell_error(app, "cannot load:", why);
        return true;
    }
    if (status != 0) {
        snprintf(app->err, sizeof app->err, "%s", why);
        return false;
    }
    memcpy(app->loaded_name, name, sizeof name);
    follow_load(app);
    tell(app, "loaded", app->loaded_name);
    return true;
}

static void save_scene(bp_app *app)
{
    char path[64];
    if (!free_name(path, sizeof path, "ballpit-scene", "scene")) {
        fprintf(stderr, "ballpit: save scene: no free file name\n");
        return;
    }
    char why[128];
    if (!bp_scene_fits(app->session.world, why, sizeof why)) {
        tell_error(app, "Ctrl+S: cannot save:", why); /* the file would not load */
        return;
    }
    FILE *f = fopen(path, "w");
    bool ok = f && bp_scene_save(app->session.world, f);
    if (f && fclose(f) != 0)
        ok = false;
    if (ok) {
        app->input.undo.changed = false; /* Esc quits without asking again */
        tell(app, "scene saved to", path);
    }
    else
        fprintf(stderr, "ballpit: save scene: cannot write %s\n", path);
}

/* The canvas the world is drawn on: the arena times a whole factor k near
 * the window's scale (k > 1 on large or high-DPI windows), then
 * scaled to the window in one copy. Drawing straight at a fractional scale
 * above 1 would leave gaps between SDL2_gfx's spans. NULL if the renderer
 * cannot draw into textures, or the arena is shown smaller than its size;
 * then the world is drawn directly, at the window's own scale: a big arena
 * in a small window is drawn at the size it is shown, not at its own and
 * then shrunk (the marks shrink themselves, bp_hud_draw_marks). */
static SDL_Texture *canvas(bp_app *app, int *k_out)
{
    int out_w = 0, out_h = 0;
    if (app->canvas_failed || SDL_GetRendererOutputSize(app->renderer, &out_w, &out_h) != 0)
        return NULL;
    double fit = SDL_min((double)out_w / app->width, (double)out_h / app->height);
    if (fit < 1.0)
        return NULL;
    /* Nearest whole factor: crisp at 2x (high DPI), and a window only a
     * little larger than the arena does not pay for four times the pixels. */
    int k = (int)SDL_floor(fit + 0.5);
    k = k < 1 ? 1 : k > BP_MAX_CANVAS_SCALE ? BP_MAX_CANVAS_SCALE : k;
    while (k > 1 && (app->width * k > BP_MAX_CANVAS_SIDE || app->height * k > BP_MAX_CANVAS_SIDE))
        k--;
    /* A window that fits the arena times k exactly is drawn straight, at
     * the logical size's whole scale: a canvas would only add a copy of
     * every pixel. */
    if (out_w == app->width * k && out_h == app->height * k)
        return NULL;
    if (!app->canvas || app->canvas_k != k) {
        if (app->canvas)
            SDL_DestroyTexture(app->canvas);
        app->canvas = SDL_CreateTexture(app->renderer, SDL_PIXELFORMAT_ARGB8888,
                                        SDL_TEXTUREACCESS_TARGET, app->width * k,
                                        app->height * k);
        if (!app->canvas) {
            app->canvas_failed = true;
            return NULL;
        }
        app->canvas_k = k;
    }
    /* Smoothed when it is stretched to the window; copied pixel for pixel
     * when it fits exactly, which a software renderer does in about half
     * the time. */
    bool exact = out_w == app->width * k && out_h == app->height * k;
    SDL_SetTextureScaleMode(app->canvas, exact ? SDL_ScaleModeNearest : SDL_ScaleModeLinear);
    *k_out = k;
    return app->canvas;
}

/* A ball drawn this close (px) to where the window shows it looks the
 * same. A ball jammed in a pile may tremble for good without falling
 * asleep: one in a pile of 2,000 shook by 0.05 px at every step, and the
 * window redrew it at full rate. */
#define BP_SHOWN_SLACK 0.1

/* Notes what the frame just drawn shows. */
static bool note_shown(bp_app *app, const double *draw_x, const double *draw_y)
{
    const bp_world *w = app->session.world;
    app->shown_valid = grow(&app->shown_x, &app->shown_y, &app->shown_capacity, w->next_id + 1u);
    if (!app->shown_valid)
        return false;
    uint64_t asleep = 0;
    for (size_t i = 0; i < w->count; i++) {
        app->shown_x[w->id[i]] = draw_x ? draw_x[i] : w->x[i];
        app->shown_y[w->id[i]] = draw_y ? draw_y[i] : w->y[i];
        asleep += (w->flags[i] & BP_BALL_ASLEEP) ? w->id[i] + 1u : 0u;
    }
    app->shown_asleep = asleep;
    app->shown_count = w->count;
    app->shown_next_id = w->next_id;
    app->shown_walls = w->wall_count;
    app->shown_params = w->params;
    app->shown_look = app->view.look;
    app->shown_inspect = app->session.inspect;
    app->shown_chart = app->view.show_chart;
    return true;
}

static bool near_shown(double shown, double at)
{
    return fabs(at - shown) <= BP_SHOWN_SLACK;
}

/* Whether the window shows the world as a frame drawn now would: the same
 * balls (a replay may delete one and spawn another between frames), each
 * where it was drawn, both at the last step's start and end (the frame is
 * drawn between the two; paused, at the end), the same ones asleep (by
 * the sum of their ids: a pile that falls asleep moves no ball, and
 * coloured by sleep it turned blue only when something else moved), and
 * the same walls and settings. */
static bool world_shown(const bp_app *app)
{
    const bp_world *w = app->session.world;
    if (!app->shown_valid || w->count != app->shown_count || w->next_id != app->shown_next_id ||
        w->wall_count != app->shown_walls ||
        memcmp(&w->params, &app->shown_params, sizeof w->params) != 0 ||
        !bp_look_same(&app->view.look, &app->shown_look) ||
        app->session.inspect != app->shown_inspect ||
        app->view.show_chart != app->shown_chart ||
        w->next_id + 1u > app->prev_capacity)
        return false;
    bool paused = app->view.paused;
    uint64_t asleep = 0;
    for (size_t i = 0; i < w->count; i++) {
        uint32_t id = w->id[i];
        asleep += (w->flags[i] & BP_BALL_ASLEEP) ? id + 1u : 0u;
        if (!near_shown(app->shown_x[id], w->x[i]) || !near_shown(app->shown_y[id], w->y[i]) ||
            (!paused && (!near_shown(app->shown_x[id], app->prev_x[id]) ||
                         !near_shown(app->shown_y[id], app->prev_y[id]))))
            return false;
    }
    return asleep == app->shown_asleep;
}

/* The world's picture with the overlays the view asks for: the last one
 * again when again and it can be (bp_render_again), else drawn afresh and
 * noted as shown. */
static void draw_world(bp_app *app, const double *dx, const double *dy, bool again)
{
    if (again && app->render &&
        bp_render_again(app->renderer, app->render, app->session.world, &app->view.camera))
        return; /* what the window shows stays as noted */
    (void)note_shown(app, dx, dy); /* without it, every frame is drawn */
    bp_picture_extras extras = {.trails = &app->trails,
                                .chart = app->view.show_chart ? &app->chart : NULL};
    bp_look look = app->view.look;
    if (!app->view.replaying || look.inspect < 0)
        look.inspect = app->session.inspect;
    if (app->render)
        bp_render_world(app->renderer, app->render, app->session.world, &app->view.camera, dx,
                        dy, &look, &extras);
}

/* Where step t falls on a timeline from x0 to x0 + width whose right end is
 * step right and which spans span steps, px (the left end for older). */
static int timeline_x(uint64_t t, double right, double span, double x0, double width)
{
    return (int)(x0 + width * fmax(0.0, ((double)t - (right - span)) / span));
}

/* A bar along the bottom, while paused or after a rewind: the last
 * --history seconds up to the latest step reached; blue what can be gone
 * back to, grey what a rewind left behind, a white mark where the world is. */
static void draw_timeline(bp_app *app)
{
    const bp_session *s = &app->session;
    if (!s->history || !(app->view.paused || s->tick < app->furthest))
        return;
    SDL_Renderer *r = app->renderer;
    int w = 0, h = 0;
    if (SDL_GetRendererOutputSize(r, &w, &h) != 0 || w < 80 || h < 40)
        return;
    double span = (double)(s->history->keep_steps ? s->history->keep_steps : 1);
    double right = (double)(s->tick > app->furthest ? s->tick : app->furthest);
    double x0 = 20.0, width = w - 40.0;
    int y = h - 16, bar = 6;
    int oldest = timeline_x(bp_history_oldest(s->history), right, span, x0, width);
    int now = timeline_x(s->tick, right, span, x0, width);
    int furthest = timeline_x(app->furthest, right, span, x0, width);
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, 60, 60, 70, 200);
    SDL_RenderFillRect(r, &(SDL_Rect){(int)x0, y, (int)width, bar});
    SDL_SetRenderDrawColor(r, 110, 110, 120, 230);
    SDL_RenderFillRect(r, &(SDL_Rect){now, y, furthest - now, bar});
    SDL_SetRenderDrawColor(r, 90, 150, 255, 255);
    SDL_RenderFillRect(r, &(SDL_Rect){oldest, y, now - oldest, bar});
    SDL_SetRenderDrawColor(r, 255, 255, 255, 255);
    SDL_RenderFillRect(r, &(SDL_Rect){now - 1, y - 4, 3, bar + 8});
}

/* A frame: the world (the last picture again when again, see draw_world),
 * the marks, the HUD. */
static void draw(bp_app *app, double alpha, bool again, bp_hud_stats *stats)
{
    SDL_Renderer *r = app->renderer;
    bool smooth = interpolate(app, alpha);
    const double *dx = smooth ? app->draw_x : NULL, *dy = smooth ? app->draw_y : NULL;
    int k = 1;
    SDL_Texture *tex = canvas(app, &k);
    if (tex && SDL_SetRenderTarget(r, tex) == 0) {
        SDL_RenderSetScale(r, (float)k, (float)k);
        draw_world(app, dx, dy, again);
        bp_hud_draw_marks(r, &app->session, &app->input, &app->view.camera, dx, dy);
        SDL_SetRenderTarget(r, NULL);
        SDL_SetRenderDrawColor(r, 0, 0, 0, 255);
        SDL_RenderClear(r);
        SDL_RenderCopy(r, tex, NULL, NULL);
    } else {
        SDL_SetRenderDrawColor(r, 0, 0, 0, 255);
        SDL_RenderClear(r);
        draw_world(app, dx, dy, again);
        bp_hud_draw_marks(r, &app->session, &app->input, &app->view.camera, dx, dy);
    }
    /* Text in output pixels, so it stays sharp whatever the arena's size. */
    SDL_RenderSetLogicalSize(r, 0, 0);
    SDL_RenderSetViewport(r, NULL);
    bp_panel_draw(&app->panel, r, app->glyphs, &app->input, &app->view, &app->session);
    bp_picker_draw(&app->picker, &app->panel, r, app->glyphs, &app->view, app->session.opts);
    app->shown_message = message_due(app) || app->view.prompting;
    /* The picker (picker.h) shows what is typed itself. */
    stats->message = app->view.prompting ? NULL : app->shown_message ? app->view.message : NULL;
    bp_hud_draw_text(r, app->glyphs, &app->session, &app->view, stats);
    draw_timeline(app);
    if (app->view.screenshot) {
        app->view.screenshot = false;
        screenshot(app);
    }
    /* SDL queues the drawing: this does it, so the caller can time it apart
     * from the present, which may wait for the screen's refresh. */
    SDL_RenderFlush(r);
}

static void present(bp_app *app)
{
    SDL_RenderPresent(app->renderer);
    /* Back to arena coordinates before the next events arrive: SDL maps
     * mouse positions through the logical size in force at that time. */
    SDL_RenderSetLogicalSize(app->renderer, app->width, app->height);
}

/* Once the period has covered half a second at now: its figures into
 * stats, a new period from now, and true. */
static bool hud_period_roll(hud_period *w, Uint64 now, uint64_t tick, double freq,
                            bp_hud_stats *stats)
{
    double since = (double)(now - w->start) / freq;
    if (since < 0.5)
        return false;
    /* A rewind takes the step count back: no steps counted then. */
    uint64_t steps = tick >= w->first_tick ? tick - w->first_tick : 0;
    stats->fps = w->drawn / since;
    /* Frames were left out because nothing changed: a frame rate would
     * only count how often the HUD itself was refreshed. */
    stats->idle = w->skipped > 0 && w->drawn <= 2;
    stats->steps_per_s = (double)steps / since;
    stats->draw_ms = w->drawn > 0 ? 1e3 * (double)w->draw_ticks / freq / w->drawn : 0.0;
    stats->step_ms = steps > 0 ? 1e3 * (double)w->step_ticks / freq / (double)steps : 0.0;
    *w = (hud_period){.start = now, .first_tick = tick};
    return true;
}

/* The HUD's step-time percentiles: over the last whole second, or the
 * second under way before one has passed. */
static void step_percentiles(const bp_app *app, bp_hud_stats *stats)
{
    const bp_steptime *st = app->second_last.count > 0 ? &app->second_last : &app->second_now;
    if (st->count == 0) {
        stats->step_p50 = stats->step_p99 = stats->step_max = NAN;
        return;
    }
    stats->step_p50 = 1e3 * bp_steptime_quantile(st, 0.5);
    stats->step_p99 = 1e3 * bp_steptime_quantile(st, 0.99);
    stats->step_max = 1e3 * st->max_s;
}

/* Whether a frame now would show what the window shows: no input or other
 * event, no ball placed, none in hand (its aim moves with time), the world
 * as shown, and (with the HUD up) the same figures. */
static bool frame_unchanged(const bp_app *app, bool events, bool jumped, bool stats_new)
{
    bool message = message_due(app) || app->view.prompting;
    return !events && !jumped && app->session.held < 0 && !app->view.screenshot &&
           message == app->shown_message &&
           !(stats_new && app->view.show_hud) && world_shown(app);
}

/* The single steps asked for (paused: N, Right, Shift+Right), as many as
 * the frame's step budget allows, at least one; the rest wait for the next
 * frames. All at once, 100 Shift+Right ran for 6.7 s in one frame, deaf
 * to Esc and SIGTERM. false on failure (app->err). */
static bool single_steps(bp_app *app, Uint64 frame_from)
{
    Uint64 budget = (Uint64)(BP_FRAME_STEP_BUDGET * app->freq);
    if (steps_done(app))
        app->view.single_steps = 0;
    for (int taken = 0; app->view.single_steps > 0 && !steps_done(app); taken++) {
        if (taken > 0 && SDL_GetPerformanceCounter() - frame_from >= budget)
            return true;
        if (!step(app, app->err, sizeof app->err))
            return false;
        app->view.single_steps--;
    }
    return true;
}

/* What a frame did, and so what the loop does before the next one. */
typedef enum frame_result {
    FRAME_END,       /* quit, --steps, or a failure (app->failed, app->err) */
    FRAME_DRAWN,     /* drawn and presented: wait for the next refresh */
    FRAME_UNCHANGED, /* nothing new to draw: wait app->idle_ms for an event */
} frame_result;

/* Ends the loop on a failure whose message is in app->err. */
static frame_result failed(bp_app *app)
{
    app->failed = true;
    return FRAME_END;
}

/* The picker, then the panel: what lies over the arena takes a mouse's
 * event (or a finger's, as touch.h hands it on) before the arena does. */
static int over_arena(void *ctx, const SDL_Event *ev, bool *used, char *err, size_t err_size)
{
    bp_app *app = ctx;
    bp_picker_event(&app->picker, &app->panel, &app->view, ev, used);
    if (*used)
        return 0;
    return bp_panel_event(&app->panel, &app->input, &app->view, &app->session, ev, used, err,
                          err_size);
}

/* Every event queued, in turn: fingers first (they reach the panel
 * themselves), then what is over the arena (a click on it must not reach
 * the arena behind), then the arena. Then a finger's long press, if due.
 * *events: there were some. false on failure (app->err). */
static bool take_events(bp_app *app, bool *events)
{
    char *err = app->err;
    size_t err_size = sizeof app->err;
    bp_session *s = &app->session;
    bp_panel_map(&app->panel, app->renderer);
    bp_touch_map(&app->touch, app->renderer);
    bp_touch_target fingers = {.ui = over_arena, .ui_ctx = app, .h = &app->input,
                               .view = &app->view, .s = s};
    SDL_Event ev;
    while (SDL_PollEvent(&ev)) {
        *events = true;
        bool used = false;
        if (bp_touch_event(&app->touch, &fingers, &ev, &used, err, err_size) != 0 ||
            (!used && over_arena(app, &ev, &used, err, err_size) != 0) ||
            (!used && bp_input_handle(&app->input, &app->view, s, &ev, err, err_size) != 0))
            return false;
        /* Opened (Ctrl+O, the panel's button): the scenes as they are now. */
        if (app->view.prompting && !app->picker.open) {
            bp_picker_forget(&app->picker);
            bp_picker_list(&app->picker, ".");
        }
        app->picker.open = app->view.prompting;
    }
    return bp_touch_tick(&app->touch, &fingers, SDL_GetTicks(), err, err_size) == 0;
}

/* One frame: the events, the steps due, and the drawing if anything
 * changed. The desktop runs frames in a loop; the browser calls one per
 * screen refresh. */
static frame_result frame(bp_app *app)
{
    bp_session *s = &app->session;
    char *err = app->err;
    size_t err_size = sizeof app->err;
    if (app->view.quit || steps_done(app))
        return FRAME_END;
    bool events = false;
    if (!take_events(app, &events))
        return failed(app);
    if (app->view.save_scene) {
        app->view.save_scene = false;
        save_scene(app);
    }
    if (app->view.load_scene) {
        app->view.load_scene = false;
        if (!load_scene(app))
            return failed(app);
    }
    /* A loaded scene may run at its own rate, and a set input (the panel's
     * hz slider, or a replayed one) may change it. */
    app->dt = 1.0 / s->world->params.hz;
    if (s->tick < app->last_tick && app->trails_live)
        bp_trails_clear(&app->trails); /* no line back to where the balls were */
    app->last_tick = s->tick;
    app->furthest = s->tick > app->furthest ? s->tick : app->furthest;
    bool jumped = s->jumped;
    if (s->jumped) {
        /* Balls were placed, added or removed: draw them where they are. */
        if (!snapshot(app)) {
            snprintf(err, err_size, "out of memory");
            return failed(app);
        }
        s->jumped = false;
    }
    double dt = app->dt;
    Uint64 now = SDL_GetPerformanceCounter();
    double real = (double)(now - app->last) / app->freq;
    app->last = now;
    if (real > BP_MAX_FRAME_TIME)
        real = BP_MAX_FRAME_TIME;
    if (app->view.paused)
        app->accumulator = 0.0;
    else
        app->accumulator += real * app->view.time_scale;
    int taken = 0;
    /* As many steps as the time owes, within the cap and the budget (the
     * last step's time foretells the next: the hand's lead spreads the
     * cursor's travel over the steps this frame will really take). */
    int most = BP_MAX_STEPS_PER_FRAME;
    if (app->last_step_s * most > BP_FRAME_STEP_BUDGET)
        most = (int)SDL_max(1.0, BP_FRAME_STEP_BUDGET / app->last_step_s);
    int due = app->accumulator / dt < most ? (int)(app->accumulator / dt) : most;
    Uint64 steps_from = SDL_GetPerformanceCounter();
    while (app->accumulator >= dt && taken < most && !steps_done(app)) {
        if (bp_input_lead(&app->input, s, due - taken, err, err_size) != 0 ||
            !step(app, err, err_size) ||
            bp_input_stream(&app->input, s, 1.0 / s->world->params.hz, err, err_size) != 0)
            return failed(app);
        app->accumulator -= dt;
        taken++;
    }
    /* Behind by more than a frame may take: the simulation slows down
     * rather than spiral. */
    if (taken == most)
        app->accumulator = 0.0;
    if (!single_steps(app, steps_from))
        return failed(app);
    /* The next snapshot's fresh memory a slice a frame, rather than all of
     * it in the step that takes it (a 25 ms hitch at 100,000 balls). */
    if (s->history)
        bp_history_prepare(s->history, s->world, BP_HISTORY_PREPARE_PER_FRAME);
    Uint64 draw_from = SDL_GetPerformanceCounter();
    app->period.step_ticks += draw_from - steps_from;
    bool stats_new = hud_period_roll(&app->period, now, s->tick, app->freq, &app->stats);
    if (stats_new)
        step_percentiles(app, &app->stats);
    /* A world at rest is not drawn again and again: a pile asleep under a
     * software renderer kept a core and a half busy redrawing the same
     * picture. Steps go on meanwhile, and any event wakes the loop at
     * once. */
    if (frame_unchanged(app, events, jumped, stats_new)) {
        double wait = app->view.paused ? 0.01 : (dt - app->accumulator) / app->view.time_scale;
        app->period.skipped++;
        app->idle_ms = (int)SDL_max(1.0, SDL_min(1e3 * wait, 10.0));
        return FRAME_UNCHANGED;
    }
    /* Only the HUD's figures are new: the world's picture is the last one
     * again. Not with the energy chart up, which moves on with time. */
    bool again = !app->view.show_chart && frame_unchanged(app, events, jumped, false);
    /* The world moves again: "idle" from the last half second would say
     * otherwise until the next one is counted. */
    if (app->stats.idle && !world_shown(app))
        app->stats.idle = false;
    draw(app, app->view.paused ? 1.0 : app->accumulator / dt, again, &app->stats);
    Uint64 draw_ticks = SDL_GetPerformanceCounter() - draw_from;
    app->period.draw_ticks += draw_ticks;
    app->period.drawn++;
    present(app);
    return FRAME_DRAWN;
}

/* Waits until the frame that began at app->last has had its refresh,
 * pumping the events every millisecond meanwhile: SDL stamps an event with
 * the time it was pumped, and a throw is measured from those stamps (a
 * present held for vsync gave a whole frame's events one stamp). */
static void wait_for_next_frame(bp_app *app)
{
    Uint64 due = app->last + app->frame_ticks;
    for (;;) {
        SDL_PumpEvents();
        if (SDL_GetPerformanceCounter() >= due)
            return;
        SDL_Delay(1);
    }
}

/* Runs frames until quit or --steps; false with a message in app->err on
 * failure. */
static bool loop(bp_app *app)
{
    for (;;) {
        switch (frame(app)) {
        case FRAME_END:
            return !app->failed;
        case FRAME_UNCHANGED:
            SDL_WaitEventTimeout(NULL, app->idle_ms);
            break;
        case FRAME_DRAWN:
            wait_for_next_frame(app);
            break;
        }
    }
}

/* Why there is no display to show a window on, or NULL. Without one (over
 * ssh) SDL falls back to a driver that shows nothing, and the window ran
 * invisibly until killed: those drivers only when SDL_VIDEODRIVER asks. */
static const char *display_missing(bool initialised)
{
    const char *asked = SDL_getenv("SDL_VIDEODRIVER");
    bool named = asked && *asked;
#if defined(__unix__) && !defined(__APPLE__) && !defined(__EMSCRIPTEN__)
    /* Before SDL_Init, which would only probe and complain. */
    if (!named && !SDL_getenv("DISPLAY") && !SDL_getenv("WAYLAND_DISPLAY"))
        return "DISPLAY and WAYLAND_DISPLAY are unset";
#endif
    const char *driver = initialised ? SDL_GetCurrentVideoDriver() : NULL;
    if (driver && !(named && SDL_strcasecmp(asked, driver) == 0) &&
        (SDL_strcmp(driver, "offscreen") == 0 || SDL_strcmp(driver, "dummy") == 0))
        return "none of SDL's video drivers reached one";
    return NULL;
}

/* Opens the window and its renderer; false on failure, the reason in
 * app->err when there is no display (else SDL_GetError's). */
static bool open_window(bp_app *app)
{
    const char *none = display_missing(false);
    /* Fingers are handled as fingers (touch.h): no mouse made of them. */
    SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0");
    if (!none && SDL_Init(SDL_INIT_VIDEO) != 0)
        return false;
    if (none || (none = display_missing(true))) {
        snprintf(app->err, sizeof app->err,
                 "no display to open a window on (%s); use --headless to run without one", none);
        return false;
    }
    Uint32 flags = SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
#ifdef __EMSCRIPTEN__
    /* The renderer there is WebGL's: a window made for it at once is not
     * made again when the renderer comes, which costs the first frame. */
    flags |= SDL_WINDOW_OPENGL;
#endif
    int w, h;
    window_size_for(app, 0, &w, &h);
    app->window =
        SDL_CreateWindow("ballpit", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, flags);
    if (!app->window)
        return false;
    /* Before the renderer, whose watch would pin fingers in the letterbox
     * bars to the arena's edge. Without it fingers still work, less well
     * there. */
    bp_touch_keep_fractions();
#ifdef __EMSCRIPTEN__
    /* The browser calls a frame per refresh of the page. */
    app->renderer = SDL_CreateRenderer(app->window, -1, SDL_RENDERER_PRESENTVSYNC);
#else
    /* The desktop waits for its refreshes itself (wait_for_next_frame). */
    app->renderer = SDL_CreateRenderer(app->window, -1, 0);
    SDL_DisplayMode mode;
    int hz = SDL_GetWindowDisplayMode(app->window, &mode) == 0 ? mode.refresh_rate : 0;
    hz = hz < BP_MIN_REFRESH_HZ ? BP_DEFAULT_REFRESH_HZ : SDL_min(hz, BP_MAX_REFRESH_HZ);
    app->frame_ticks = SDL_GetPerformanceFrequency() / (Uint64)hz;
#endif
    if (!app->renderer)
        return false;
    app->render = bp_render_create();
    app->glyphs = bp_text_create(app->renderer);      /* NULL: glyph by glyph */
    return SDL_RenderSetLogicalSize(app->renderer, app->width, app->height) == 0;
}

/* Everything before the first frame: the history, the replay, the window,
 * the recording and the dump. Returns the exit status of a failure (its
 * message printed), else 0. */
static int app_start(bp_app *app, bp_world *world, const bp_options *opts)
{
    char err[512];
    app->opts = opts;
    app->width = (int)SDL_ceil(world->params.width);
    app->height = (int)SDL_ceil(world->params.height);
    bp_session_init(&app->session, world, opts);
    if (opts->history > 0.0) {
        bp_history_init(&app->history, opts->history, world->params.hz, BP_HISTORY_MAX_BYTES);
        if (!bp_session_keep_history(&app->session, &app->history)) {
            fprintf(stderr, "ballpit: history: out of memory\n");
            return 1;
        }
    }
    if (opts->replay_path) {
        int status = bp_replay_load(&app->replay, opts->replay_path, err, sizeof err);
        if (status == 0)
            status = bp_replay_check_arena(&app->replay, &world->params, opts->replay_path, err,
                                           sizeof err);
        if (status == 0)
            status = bp_recorder_check_scenes(opts, &app->replay, err, sizeof err);
        if (status) {
            fprintf(stderr, "ballpit: %s\n", err);
            return status;
        }
    }
    if (!bp_recorder_check(opts, world, err, sizeof err)) {
        fprintf(stderr, "ballpit: %s\n", err);
        return 2;
    }
    if (!open_window(app)) {
        if (app->err[0])
            fprintf(stderr, "ballpit: %s\n", app->err);
        else
            fprintf(stderr, "ballpit: cannot open a window: %s\n", SDL_GetError());
        return 1;
    }
    if (opts->record_path &&
        !(app->recording = bp_input_writer_open(&app->writer, opts->record_path, err,
                                                sizeof err))) {
        fprintf(stderr, "ballpit: %s\n", err);
        return 1;
    }
    if (!(app->dumping = bp_recorder_open(&app->rec, opts, world, err, sizeof err)) ||
        !bp_recorder_follow(&app->rec, &app->session.inspect) ||
        !bp_recorder_step(&app->rec, world, 0, err, sizeof err)) {
        fprintf(stderr, "ballpit: %s\n", err);
        return 1;
    }
    if (app->recording)
        app->session.writer = &app->writer;
    bp_input_init(&app->input, &app->view, opts, world);
    bp_panel_init(&app->panel, app->width, app->height);
    bp_touch_init(&app->touch, app->width, app->height);
    app->view.echo = true;
    if (!snapshot(app)) {
        fprintf(stderr, "ballpit: out of memory\n");
        return 1;
    }
    app->dt = 1.0 / world->params.hz;
    app->freq = (double)SDL_GetPerformanceFrequency();
    app->last = SDL_GetPerformanceCounter();
    app->period = (hud_period){.start = app->last, .first_tick = app->session.tick};
    return 0;
}

/* Closes what app_start opened (the recording and the dump are finished,
 * which may fail) and frees the app. Returns the exit status. */
static int app_finish(bp_app *app, int status)
{
    char err[512];
    if (app->recording &&
        !bp_input_writer_close(&app->writer, app->session.tick, err, sizeof err)) {
        fprintf(stderr, "ballpit: %s\n", err);
        status = 1;
    }
    if (app->dumping && !bp_recorder_close(&app->rec, err, sizeof err)) {
        fprintf(stderr, "ballpit: %s\n", err);
        status = 1;
    }
    bp_replay_free(&app->replay);
    bp_history_free(&app->history);
    bp_session_free(&app->session);
    free(app->prev_x);
    free(app->prev_y);
    free(app->draw_x);
    free(app->draw_y);
    free(app->shown_x);
    free(app->shown_y);
    bp_render_destroy(app->render);
    bp_trails_free(&app->trails);
    bp_picker_forget(&app->picker);
    bp_text_destroy(app->glyphs);
    if (app->canvas)
        SDL_DestroyTexture(app->canvas);
    if (app->renderer)
        SDL_DestroyRenderer(app->renderer);
    if (app->window)
        SDL_DestroyWindow(app->window);
    SDL_Quit();
    free(app);
    return status;
}

#ifdef __EMSCRIPTEN__
/* The app the browser is running, for the page (bp_app_browser_world). */
static bp_app *browser_app;

const bp_world *bp_app_browser_world(void)
{
    return browser_app ? browser_app->session.world : NULL;
}

/* The browser calls this once per screen refresh. An unchanged frame
 * costs next to nothing, so there is no waiting to do here. When the loop
 * ends, the program exits with its status, which the page hears of
 * (Module.onExit). */
static void browser_frame(void *arg)
{
    bp_app *app = arg;
    if (frame(app) != FRAME_END)
        return;
    emscripten_cancel_main_loop();
    int status = 0;
    if (app->failed) {
        fprintf(stderr, "ballpit: %s\n", app->err);
        status = app->fed == 2 ? 2 : 1;
    }
    browser_app = NULL;
    emscripten_force_exit(app_finish(app, status));
}
#endif

int bp_app_run(bp_world *world, const bp_options *opts)
{
    /* On the heap: in the browser the frames run after this call is gone. */
    bp_app *app = calloc(1, sizeof *app);
    if (!app) {
        fprintf(stderr, "ballpit: out of memory\n");
        return 1;
    }
    int status = app_start(app, world, opts);
    if (status == 0) {
#ifdef __EMSCRIPTEN__
        /* Unwinds the stack and never returns: main and its world stay
         * as they are while the browser calls browser_frame. */
        browser_app = app;
        emscripten_set_main_loop_arg(browser_frame, app, 0, 1);
#endif
        if (!loop(app)) {
            fprintf(stderr, "ballpit: %s\n", app->err);
            status = app->fed == 2 ? 2 : 1;
        }
    }
    return app_finish(app, status);
}
