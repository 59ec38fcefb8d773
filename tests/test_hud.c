/* The window's text over the scene (src/app/hud.c), drawn by SDL's software
 * renderer into memory: the short HUD first, Tab to the full one and off,
 * the hint until the first grab, the HUD kept off the balls, and a long
 * note, the short HUD and the hint wrapped inside a narrow window. */
#include <SDL2/SDL.h>
#include <string.h>

#include "hud.h"
#include "input.h"
#include "session.h"
#include "setup.h"
#include "tap.h"

typedef struct canvas {
    SDL_Surface *surface;
    SDL_Renderer *renderer;
} canvas;

static canvas canvas_make(int w, int h)
{
    canvas c = {SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888), NULL};
    if (c.surface)
        c.renderer = SDL_CreateSoftwareRenderer(c.surface);
    return c;
}

static void canvas_free(canvas c)
{
    if (c.renderer)
        SDL_DestroyRenderer(c.renderer);
    SDL_FreeSurface(c.surface);
}

/* The text over a blank grey window: the pixels it changed, panel and
 * glyphs, are its footprint. */
static void draw_text(canvas *c, const bp_session *s, const bp_view *v, bp_hud_stats *st)
{
    SDL_SetRenderDrawColor(c->renderer, 100, 100, 100, 255);
    SDL_RenderClear(c->renderer);
    SDL_SetRenderDrawBlendMode(c->renderer, SDL_BLENDMODE_BLEND);
    bp_hud_draw_text(c->renderer, NULL, s, v, st);
    SDL_RenderFlush(c->renderer);
}

static bool lit(const canvas *c, int x, int y)
{
    const Uint32 *p = c->surface->pixels;
    return (p[y * (c->surface->pitch / 4) + x] & 0xffffffu) != 0x646464u;
}

/* Pixels the text covers; and of them, those inside a ball (the window is
 * the arena's size here, so arena px are window px). */
static int footprint(const canvas *c, const bp_world *w, int *on_balls)
{
    int n = 0;
    *on_balls = 0;
    for (int y = 0; y < c->surface->h; y++)
        for (int x = 0; x < c->surface->w; x++) {
            if (!lit(c, x, y))
                continue;
            n++;
            for (size_t i = 0; i < w->count; i++) {
                double dx = x + 0.5 - w->x[i], dy = y + 0.5 - w->y[i];
                if (dx * dx + dy * dy <= w->r[i] * w->r[i]) {
                    (*on_balls)++;
                    break;
                }
            }
        }
    return n;
}

/* Whether any text or panel touches column x. */
static bool column_lit(const canvas *c, int x)
{
    for (int y = 0; y < c->surface->h; y++)
        if (lit(c, x, y))
            return true;
    return false;
}

static int press(bp_input_handler *h, bp_view *v, bp_session *s, SDL_Keycode key)
{
    SDL_Event ev = {.key = {.type = SDL_KEYDOWN, .keysym = {.sym = key}}};
    char err[256];
    return bp_input_handle(h, v, s, &ev, err, sizeof err);
}

/* TAP_OK with a formatted sentence. */
#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        char what_[200];                                                                       \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                            \
        TAP_OK(cond, what_);                                                                   \
    } while (0)

static bp_world *load(bp_options *opts, const char *scene)
{
    *opts = bp_options_default();
    opts->scene_path = scene;
    int status = 0;
    char why[512] = "";
    bp_world *w = bp_setup_world(opts, &status, why, sizeof why);
    if (!w)
        printf("# %s: %s\n", scene, why);
    return w;
}

/* The ramp scene's first balls line its top left, where the HUD began. */
static void ramp_checks(void)
{
    bp_options opts;
    bp_world *w = load(&opts, BP_SCENES_DIR "/ramp.scene");
    TAP_OK(w != NULL, "the ramp scene loads");
    if (!w)
        return;
    bp_session s;
    bp_session_init(&s, w, &opts);
    bp_input_handler h;
    bp_view v;
    bp_input_init(&h, &v, &opts, w);
    bp_hud_stats st = {.fps = 60.0, .steps_per_s = 120.0, .step_p50 = 0.1};
    canvas c = canvas_make((int)w->params.width, (int)w->params.height);
    TAP_OK(c.renderer != NULL, "a software renderer at the ramp's size, 1024x768");
    if (!c.renderer)
        return;
    int on_balls, area = c.surface->w * c.surface->h;
    draw_text(&c, &s, &v, &st);
    int short_px = footprint(&c, w, &on_balls);
    TAP_OK(v.show_hud && !v.hud_full && v.hint, "the window opens with the short HUD and the hint");
    /* Two lines of text on a panel: 40 glyphs by 2 lines is 330 x 32 px,
     * 1.3% of the window; the full HUD took 5.5%. */
    CHECK(short_px > 0 && short_px < area / 50,
           "the short HUD and hint cover %d px, under 2%% of the window", short_px);
    CHECK(on_balls == 0, "they cover none of the ramp's balls (%d px on balls)", on_balls);
    press(&h, &v, &s, SDLK_TAB);
    draw_text(&c, &s, &v, &st);
    int full_px = footprint(&c, w, &on_balls);
    CHECK(v.hud_full && full_px > 2 * short_px, "Tab: the full HUD, %d px", full_px);
    CHECK(on_balls == 0, "the full HUD too keeps off the ramp's balls (%d px on them)",
           on_balls);
    press(&h, &v, &s, SDLK_TAB);
    draw_text(&c, &s, &v, &st);
    TAP_OK(!v.show_hud && footprint(&c, w, &on_balls) == 0, "Tab again: no HUD at all");
    press(&h, &v, &s, SDLK_TAB);
    TAP_OK(v.show_hud && !v.hud_full, "and Tab once more: the short HUD");
    SDL_Event down = {.button = {.type = SDL_MOUSEBUTTONDOWN, .button = SDL_BUTTON_LEFT,
                                 .x = (int)w->x[0], .y = (int)w->y[0]}};
    char err[256];
    bp_input_handle(&h, &v, &s, &down, err, sizeof err);
    draw_text(&c, &s, &v, &st);
    int grabbed_px = footprint(&c, w, &on_balls);
    CHECK(s.held >= 0 && !v.hint && grabbed_px < short_px,
           "a grab puts the hint away (%d px, was %d)", grabbed_px, short_px);
    canvas_free(c);
    bp_world_destroy(w);
}

/* A note naming a long path, in a 500 px window. */
/* An empty world of width x height px, its session, and the window's view
 * of it as it opens. */
typedef struct empty_window {
    bp_options opts;
    bp_world *w;
    bp_session s;
    bp_input_handler h;
    bp_view v;
} empty_window;

static void empty_window_open(empty_window *e, double width, double height)
{
    bp_params p = bp_params_default();
    p.width = width;
    p.height = height;
    e->w = bp_world_new(&p);
    e->opts = bp_options_default();
    bp_session_init(&e->s, e->w, &e->opts);
    bp_input_init(&e->h, &e->v, &e->opts, e->w);
}

static void message_checks(void)
{
    empty_window e;
    empty_window_open(&e, 500, 400);
    bp_world *w = e.w;
    bp_session *s = &e.s;
    bp_view *v = &e.v;
    v->show_hud = false;
    bp_view_tell(v, "cannot load:",
                 "no-such-dir/a-rather-long-scene-file-name-that-does-not-exist.scene: "
                 "cannot open: No such file or directory",
                 true);
    bp_hud_stats st = {.message = v->message};
    canvas c = canvas_make(500, 400);
    draw_text(&c, s, v, &st);
    int on_balls;
    TAP_OK(footprint(&c, w, &on_balls) > 0 && !column_lit(&c, 0) && !column_lit(&c, 499),
           "a 117-character error is wrapped inside a 500 px window");
    canvas_free(c);
    bp_world_destroy(w);
}

/* A window as narrow as a phone's screen (300 px, text at scale 1: 32
 * glyphs a line): the short HUD's line and the hint are 45 and 40 glyphs
 * long; they break into lines that stay inside it. */
static void narrow_checks(void)
{
    empty_window e;
    empty_window_open(&e, 300, 400);
    bp_world *w = e.w;
    bp_session *s = &e.s;
    bp_view *v = &e.v;
    bp_hud_stats st = {.fps = 60.0};
    canvas c = canvas_make(300, 400);
    draw_text(&c, s, v, &st);
    int on_balls;
    TAP_OK(v->show_hud && v->hint && footprint(&c, w, &on_balls) > 0 && !column_lit(&c, 0) &&
               !column_lit(&c, 299),
           "in a 300 px window the short HUD and the hint break into lines inside it");
    canvas_free(c);
    bp_world_destroy(w);
}

int main(void)
{
    ramp_checks();
    message_checks();
    narrow_checks();
    return tap_done();
}
