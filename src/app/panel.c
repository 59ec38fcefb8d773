#include "panel.h"

#include <SDL2/SDL2_gfxPrimitives.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "program.h"

/* Sizes in panel units (output pixels at the HUD's text scale). */
#define GLYPH 8
#define PANEL_W 256
#define PAD 12
#define CONTENT_W (PANEL_W - 2 * PAD)
#define EDGE 8           /* from the window's right edge */
#define HEADER_H 26
#define SECTION_H 18     /* a section's title and its rule */
#define SLIDER_H 34      /* label and value, then the track */
#define BUTTON_H 20
#define BUTTON_ROW_H 26
#define GAP 8
#define KNOB_R 6
#define TRACK_R 2        /* half the track's thickness */
#define TAB_W (8 * GLYPH + 14)
#define TAB_H 22
/* Panel units a press off the sliders moves before it scrolls the panel:
 * a click on a button that shakes a little does not. */
#define BP_PANEL_SCROLL_SLOP 6.0
/* Units one notch of the wheel scrolls a panel taller than the window. */
#define BP_PANEL_WHEEL_STEP 40
/* World: 6 sliders; spawn: 3; time: a slider and a row of buttons; view:
 * two rows. */
#define PANEL_H                                                                               \
    (PAD + HEADER_H + SECTION_H + 6 * SLIDER_H + GAP + SECTION_H + 3 * SLIDER_H + GAP +       \
     SECTION_H + SLIDER_H + BUTTON_ROW_H + GAP + SECTION_H + 2 * BUTTON_ROW_H + PAD - 6)

/* Colours: a dark translucent card, the timeline's blue for what is on. */
static const SDL_Color BG = {16, 18, 26, 222}, RULE = {255, 255, 255, 34},
                       TITLE = {150, 175, 225, 255}, LABEL = {222, 224, 232, 255},
                       VALUE = {255, 214, 140, 255}, DIM = {120, 124, 136, 255},
                       ACCENT = {90, 150, 255, 255}, TRACK = {64, 70, 88, 255},
                       BUTTON = {44, 48, 62, 235}, HOVER = {62, 68, 88, 245};

/* UI_FIND: where a slider's knob would stand (bp_panel_knob_at). */
typedef enum ui_pass { UI_DRAW, UI_PRESS, UI_DRAG, UI_FIND } ui_pass;

/* One pass of the layout: drawing, or acting on one mouse event. */
typedef struct ui {
    bp_panel *p;
    ui_pass pass;
    SDL_Renderer *r; /* UI_DRAW only */
    bp_text *glyphs;
    bp_input_handler *h;
    bp_view *view;
    bp_session *s;
    int x, y; /* the content's left edge, the next row's top */
    int status;
    char *err;
    size_t err_size;
    const char *find;  /* UI_FIND: the slider's label ... */
    double find_value; /* ... the value ... */
    bool found;        /* ... and where its knob stands, panel units */
    double fx, fy;
} ui;

/* How a slider's track maps to its value. */
typedef enum curve { LINEAR, SQUARE, LOG, OCTAVES } curve;

typedef struct slider_spec {
    int id;            /* nonzero, one per slider */
    const char *label;
    double lo, hi;     /* the track's ends */
    curve curve;       /* SQUARE: finer near lo, for small values that matter */
    double step;       /* values snap to multiples of it (OCTAVES: of an octave) */
} slider_spec;

static const slider_spec GRAVITY = {1, "gravity", 0.0, 3000.0, LINEAR, 10.0};
static const slider_spec RESTITUTION = {2, "restitution", 0.0, 1.0, LINEAR, 0.01};
static const slider_spec FRICTION = {3, "friction", 0.0, 1.0, LINEAR, 0.01};
static const slider_spec ROLLING = {4, "rolling resistance", 0.0, 1.0, SQUARE, 0.001};
static const slider_spec DRAG = {5, "drag", 0.0, 10.0, SQUARE, 0.01};
static const slider_spec HZ = {6, "steps per second", 30.0, 480.0, LOG, 10.0};
/* The spawn tool's: view settings as the time scale is (input.h). */
static const slider_spec DENSITY = {8, "spawn density", 0.1, 10.0, LOG, 0.05};
static const slider_spec STREAM = {9, "stream rate", BP_STREAM_RATE_MIN, BP_STREAM_RATE_MAX,
                                   LOG, 1.0};
/* The radius's slider, its upper end the arena's (spawn_radius_spec). */
#define SPAWN_RADIUS_ID 10
#define SPAWN_RADIUS_MIN 1.0
static const slider_spec TIME_SCALE = {7, "time scale", BP_TIME_SCALE_MIN, BP_TIME_SCALE_MAX,
                                       OCTAVES, 0.25};

static double clamp01(double t)
{
    return t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
}

/* Where value sits along the track, 0..1. */
static double to_t(const slider_spec *sp, double v)
{
    switch (sp->curve) {
    case SQUARE:
        return clamp01(sqrt(fmax(v - sp->lo, 0.0) / (sp->hi - sp->lo)));
    case LOG:
    case OCTAVES:
        return clamp01(log(fmax(v, sp->lo) / sp->lo) / log(sp->hi / sp->lo));
    default:
        return clamp01((v - sp->lo) / (sp->hi - sp->lo));
    }
}

/* The value at t along the track, snapped to the slider's step. */
static double from_t(const slider_spec *sp, double t)
{
    double v;
    switch (sp->curve) {
    case SQUARE:
        v = sp->lo + t * t * (sp->hi - sp->lo);
        break;
    case LOG:
        v = sp->lo * pow(sp->hi / sp->lo, t);
        break;
    case OCTAVES: {
        double octaves = round(log2(sp->hi / sp->lo) * t / sp->step) * sp->step;
        return fmin(sp->hi, sp->lo * exp2(octaves));
    }
    default:
        v = sp->lo + t * (sp->hi - sp->lo);
    }
    v = round(v / sp->step) * sp->step;
    return fmin(sp->hi, fmax(sp->lo, v));
}

static bool inside(const ui *u, int x, int y, int w, int h)
{
    return u->p->mx >= x && u->p->mx < x + w && u->p->my >= y && u->p->my < y + h;
}

static void text(ui *u, int x, int y, SDL_Color c, const char *s)
{
    if (u->pass == UI_DRAW)
        bp_text_add(u->glyphs, u->r, x, y, s, c);
}

static void box(ui *u, int x, int y, int w, int h, int radius, SDL_Color c)
{
    roundedBoxRGBA(u->r, (Sint16)x, (Sint16)y, (Sint16)(x + w - 1), (Sint16)(y + h - 1),
                   (Sint16)radius, c.r, c.g, c.b, c.a);
}

/* A button; true when this pass is a press on it. on: drawn lit (a toggle
 * that is on). */
static bool button(ui *u, int x, int y, int w, const char *label, bool on, bool enabled)
{
    bool over = enabled && inside(u, x, y, w, BUTTON_H);
    if (u->pass == UI_DRAW) {
        SDL_Color fill = on ? ACCENT : over ? HOVER : BUTTON;
        if (on && over)
            fill = (SDL_Color){120, 172, 255, 255};
        box(u, x, y, w, BUTTON_H, 4, fill);
        int n = (int)strlen(label);
        SDL_Color ink = !enabled ? DIM : on ? (SDL_Color){255, 255, 255, 255} : LABEL;
        text(u, x + (w - n * GLYPH) / 2, y + (BUTTON_H - GLYPH) / 2, ink, label);
    }
    return u->pass == UI_PRESS && over;
}

/* The track of a slider, its filled part up to the knob at t, and the knob. */
static void draw_track(ui *u, int x, int y, int w, double t, bool enabled, bool lit)
{
    int knob = x + (int)lround(t * w);
    box(u, x - TRACK_R, y - TRACK_R, w + 2 * TRACK_R, 2 * TRACK_R + 1, TRACK_R, TRACK);
    SDL_Color fill = enabled ? ACCENT : DIM;
    if (knob > x)
        box(u, x - TRACK_R, y - TRACK_R, knob - x + 2 * TRACK_R, 2 * TRACK_R + 1, TRACK_R, fill);
    Uint8 k = lit ? 255 : enabled ? 232 : 150;
    filledCircleRGBA(u->r, (Sint16)knob, (Sint16)y, KNOB_R, k, k, k, 255);
    aacircleRGBA(u->r, (Sint16)knob, (Sint16)y, KNOB_R, k, k, k, 255);
    if (lit)
        aacircleRGBA(u->r, (Sint16)knob, (Sint16)y, KNOB_R + 2, fill.r, fill.g, fill.b, 200);
}

/* A slider showing value as shown: its label and value on one line, the
 * track under them. True when the mouse moved it this pass, with the new
 * value (snapped) in *out. A press on the track jumps the knob there and
 * holds it until the button comes up. */
static bool slider(ui *u, const slider_spec *sp, double value, const char *shown, bool enabled,
                   double *out)
{
    int tx = u->x + KNOB_R, tw = CONTENT_W - 2 * KNOB_R, ty = u->y + GLYPH + 14;
    /* The track's row is the slider's grip (below a button on the label's). */
    bool over = enabled && inside(u, u->x - 4, ty - KNOB_R - 3, CONTENT_W + 8, 2 * KNOB_R + 6);
    bool changed = false;
    if (u->pass == UI_PRESS && over)
        u->p->active = sp->id;
    if (u->pass == UI_FIND && strcmp(u->find, sp->label) == 0) {
        u->found = true;
        u->fx = tx + to_t(sp, u->find_value) * tw;
        u->fy = ty;
    }
    if ((u->pass == UI_PRESS || u->pass == UI_DRAG) && enabled && u->p->active == sp->id) {
        *out = from_t(sp, clamp01((u->p->mx - tx) / tw));
        changed = true;
    }
    if (u->pass == UI_DRAW) {
        text(u, u->x, u->y, enabled ? LABEL : DIM, sp->label);
        text(u, u->x + CONTENT_W - (int)strlen(shown) * GLYPH, u->y, enabled ? VALUE : DIM, shown);
        draw_track(u, tx, ty, tw, to_t(sp, value), enabled, u->p->active == sp->id || over);
    }
    u->y += SLIDER_H;
    return changed;
}

static void section(ui *u, const char *title)
{
    if (u->pass == UI_DRAW) {
        text(u, u->x, u->y, TITLE, title);
        int after = u->x + (int)strlen(title) * GLYPH + 8;
        box(u, after, u->y + GLYPH / 2, u->x + CONTENT_W - after, 1, 0, RULE);
    }
    u->y += SECTION_H;
}

/* A parameter set as the keys set it, merged into one undo step while the
 * slider is held (bp_undo_end_drag when the button comes up). */
static void set(ui *u, bp_input_param param, double value, bool merge)
{
    if (u->status != 0)
        return;
    bp_input in = {.kind = BP_INPUT_SET, .param = param, .v = {value}};
    u->status = bp_undo_apply(&u->h->undo, u->s, in, merge, u->err, u->err_size);
}

/* A button does what its key does: the same input, the same rules. */
static void press_key(ui *u, SDL_Keycode key)
{
    if (u->status != 0)
        return;
    SDL_Event ev = {.type = SDL_KEYDOWN};
    ev.key.state = SDL_PRESSED;
    ev.key.keysym.sym = key;
    u->status = bp_input_handle(u->h, u->view, u->s, &ev, u->err, u->err_size);
}

/* Gravity: its strength on the slider, its way by the button beside the
 * label (turned off, the way G brings it back in). */
static void gravity_row(ui *u)
{
    double g = u->s->world->params.gravity;
    bool enabled = !u->view->replaying;
    bool up = g < 0.0 || (g == 0.0 && u->h->gravity_on < 0.0);
    int bx = u->x + 8 * GLYPH + 4;
    /* CP437's arrows: 0x18 up, 0x19 down. */
    if (button(u, bx, u->y - 7, 7 * GLYPH, up ? "\x18 up" : "\x19 down", false, enabled)) {
        if (g == 0.0)
            u->h->gravity_on = -u->h->gravity_on;
        else
            set(u, BP_PARAM_GRAVITY, -g, false);
    }
    char shown[32];
    snprintf(shown, sizeof shown, "%.0f px/s^2", fabs(g));
    double v;
    if (slider(u, &GRAVITY, fabs(g), shown, enabled, &v)) {
        v = up ? -v : v;
        if (v != 0.0)
            u->h->gravity_on = v; /* what G brings back after turning it off */
        if (v != g)
            set(u, BP_PARAM_GRAVITY, v, true);
    }
}

/* One slider of a parameter in [0, 1] or beyond, shown with fmt. */
static void param_row(ui *u, const slider_spec *sp, bp_input_param param, double value,
                      const char *fmt)
{
    char shown[32];
    snprintf(shown, sizeof shown, fmt, value);
    double v;
    if (slider(u, sp, value, shown, !u->view->replaying, &v) && v != value)
        set(u, param, v, true);
}

static void world_section(ui *u)
{
    const bp_params *p = &u->s->world->params;
    section(u, "World");
    gravity_row(u);
    param_row(u, &RESTITUTION, BP_PARAM_RESTITUTION, p->restitution, "%.2f");
    param_row(u, &FRICTION, BP_PARAM_FRICTION, p->friction, "%.2f");
    param_row(u, &ROLLING, BP_PARAM_ROLLING, p->rolling, "%.3f");
    param_row(u, &DRAG, BP_PARAM_DRAG, p->drag, "%.2f /s");
    param_row(u, &HZ, BP_PARAM_HZ, p->hz, "%.0f Hz");
}

/* From 1 px (limits.h allows 0.5) to a quarter of the arena's shorter side
 * (a ball that still leaves room to fall), at most BP_RADIUS_MAX. */
static slider_spec spawn_radius_spec(const bp_params *p)
{
    double hi = fmin(fmin(p->width, p->height) / 4.0, BP_RADIUS_MAX);
    return (slider_spec){SPAWN_RADIUS_ID, "spawn radius", SPAWN_RADIUS_MIN,
                         fmax(hi, 2.0 * SPAWN_RADIUS_MIN), LOG, 0.5};
}

/* The spawn tool: what S and the right button make, and how fast a held
 * one streams. Not inputs; the spawns they shape are. */
static void spawn_section(ui *u)
{
    bp_input_handler *h = u->h;
    u->y += GAP;
    section(u, "Spawn");
    slider_spec radius = spawn_radius_spec(&u->s->world->params);
    char shown[32];
    if (h->spawn_r > 0.0)
        snprintf(shown, sizeof shown, "%.1f px", h->spawn_r);
    else /* untouched: random in --radius's range, as before the panel */
        snprintf(shown, sizeof shown, "%.0f..%.0f px", h->r_min, h->r_max);
    double v;
    if (slider(u, &radius, h->spawn_r > 0.0 ? h->spawn_r : h->r_min, shown, true, &v))
        h->spawn_r = v;
    snprintf(shown, sizeof shown, "%.2fx", h->spawn_density);
    if (slider(u, &DENSITY, h->spawn_density, shown, true, &v))
        h->spawn_density = v;
    snprintf(shown, sizeof shown, "%.0f /s", h->stream_rate);
    if (slider(u, &STREAM, h->stream_rate, shown, true, &v))
        h->stream_rate = v;
}

static void time_section(ui *u)
{
    bp_view *view = u->view;
    u->y += GAP;
    section(u, "Time");
    char shown[32];
    snprintf(shown, sizeof shown, "%.2fx", view->time_scale);
    double v;
    /* A view setting, as [ and ] are: not an input. */
    if (slider(u, &TIME_SCALE, view->time_scale, shown, true, &v))
        view->time_scale = v;
    int w = (CONTENT_W - 3 * 6) / 4, x = u->x;
    bool edits = !view->replaying, rewinds = edits && u->s->history != NULL;
    if (button(u, x, u->y, w, view->paused ? "resume" : "pause", view->paused, true))
        press_key(u, SDLK_SPACE);
    if (button(u, x + (w + 6), u->y, w, "step", false, view->paused))
        press_key(u, SDLK_PERIOD);
    if (button(u, x + 2 * (w + 6), u->y, w, "-1 s", false, rewinds))
        press_key(u, SDLK_BACKSPACE);
    if (button(u, x + 3 * (w + 6), u->y, w, "reset", false, edits))
        press_key(u, SDLK_r);
    u->y += BUTTON_ROW_H;
}

static void view_section(ui *u)
{
    static const char *const colours[] = {"by id", "by speed", "by sleep"};
    const bp_view *view = u->view;
    u->y += GAP;
    section(u, "View");
    int w = (CONTENT_W - 2 * 6) / 3, x = u->x;
    const char *colour = colours[view->look.color_by % BP_COLOR_BY_COUNT];
    if (button(u, x, u->y, w, "trails", view->look.trails > 0.0, true))
        press_key(u, SDLK_t);
    if (button(u, x + (w + 6), u->y, w, "vectors", view->look.vectors, true))
        press_key(u, SDLK_v);
    if (button(u, x + 2 * (w + 6), u->y, w, colour, view->look.color_by != BP_COLOR_ID, true))
        press_key(u, SDLK_c);
    u->y += BUTTON_ROW_H;
    if (button(u, x, u->y, w, "debug", view->look.debug, true))
        press_key(u, SDLK_b);
    if (button(u, x + (w + 6), u->y, w, "energy", view->show_chart, true))
        press_key(u, SDLK_k);
    if (button(u, x + 2 * (w + 6), u->y, w, "HUD", view->show_hud, true))
        press_key(u, SDLK_TAB);
    u->y += BUTTON_ROW_H;
}

/* How far the panel may scroll up: what a window shorter than it hides. */
static int scroll_most(const bp_panel *p)
{
    int hidden = PANEL_H + 2 * EDGE - p->height;
    return hidden > 0 ? hidden : 0;
}

/* The panel's top left corner: at the right edge, centred down it; in a
 * window shorter than it, at the top, less what the wheel scrolled. */
static void panel_corner(const bp_panel *p, int *x, int *y)
{
    *x = p->width - PANEL_W - EDGE;
    *y = (p->height - PANEL_H) / 2;
    *y = *y < EDGE ? EDGE : *y;
    int most = scroll_most(p), scroll = p->scroll < most ? p->scroll : most;
    *y -= scroll > 0 ? scroll : 0;
}

/* The tab that opens the panel, against the right edge. */
static void tab_corner(const bp_panel *p, int *x, int *y)
{
    *x = p->width - TAB_W;
    *y = (p->height - TAB_H) / 2;
}

static void draw_tab(ui *u, int x, int y)
{
    bool over = inside(u, x, y, TAB_W, TAB_H);
    box(u, x, y, TAB_W + 6, TAB_H, 6, over ? HOVER : BG);
    roundedRectangleRGBA(u->r, (Sint16)x, (Sint16)y, (Sint16)(x + TAB_W + 5),
                         (Sint16)(y + TAB_H - 1), 6, RULE.r, RULE.g, RULE.b, 90);
    text(u, x + 7, y + (TAB_H - GLYPH) / 2, LABEL, "P: panel");
}

/* Every widget, in order: the one layout of both passes. */
static void layout(ui *u)
{
    int x, y;
    if (!u->view->show_panel) {
        tab_corner(u->p, &x, &y);
        if (u->pass == UI_DRAW)
            draw_tab(u, x, y);
        else if (u->pass == UI_PRESS && inside(u, x, y, TAB_W, TAB_H))
            u->view->show_panel = true;
        return;
    }
    panel_corner(u->p, &x, &y);
    if (u->pass == UI_DRAW) {
        box(u, x, y, PANEL_W, PANEL_H, 8, BG);
        roundedRectangleRGBA(u->r, (Sint16)x, (Sint16)y, (Sint16)(x + PANEL_W - 1),
                             (Sint16)(y + PANEL_H - 1), 8, RULE.r, RULE.g, RULE.b, 70);
    }
    u->x = x + PAD;
    u->y = y + PAD;
    text(u, u->x, u->y + 6, (SDL_Color){255, 255, 255, 255},
         u->view->replaying ? "Parameters (replay)" : "Parameters");
    if (button(u, u->x + CONTENT_W - 8 * GLYPH, u->y, 8 * GLYPH, "P: hide", false, true))
        u->view->show_panel = false;
    /* The scene picker, as Ctrl+O opens it (not in a replay). */
    if (button(u, u->x + CONTENT_W - 16 * GLYPH - 6, u->y, 8 * GLYPH, "scenes", false,
               !u->view->replaying) &&
        u->status == 0) {
        SDL_Event ev = {.type = SDL_KEYDOWN};
        ev.key.state = SDL_PRESSED;
        ev.key.keysym.sym = SDLK_o;
        ev.key.keysym.mod = KMOD_LCTRL;
        u->status = bp_input_handle(u->h, u->view, u->s, &ev, u->err, u->err_size);
    }
    u->y += HEADER_H;
    world_section(u);
    spawn_section(u);
    time_section(u);
    view_section(u);
}

static int run(bp_panel *p, ui_pass pass, bp_input_handler *h, bp_view *view, bp_session *s,
               char *err, size_t err_size)
{
    ui u = {.p = p, .pass = pass, .h = h, .view = view, .s = s, .err = err,
            .err_size = err_size};
    layout(&u);
    return u.status;
}

void bp_panel_init(bp_panel *p, int width, int height)
{
    *p = (bp_panel){.k = 1.0, .width = width, .height = height, .scale = 1};
}

void bp_panel_map(bp_panel *p, SDL_Renderer *renderer)
{
    int out_w = 0, out_h = 0, win_w = 0, win_h = 0;
    SDL_Window *window = SDL_RenderGetWindow(renderer);
    if (!window || SDL_GetRendererOutputSize(renderer, &out_w, &out_h) != 0 || out_w <= 0)
        return;
    SDL_GetWindowSize(window, &win_w, &win_h);
    if (win_w <= 0)
        return;
    p->scale = bp_text_scale(out_w, out_h, win_w);
    p->width = out_w / p->scale;
    p->height = out_h / p->scale;
    /* Two points of the arena through the logical size to the window, then
     * to output pixels (more than the window's on a high-DPI screen). */
    int x0, y0, x1, y1;
    SDL_RenderLogicalToWindow(renderer, 0.0f, 0.0f, &x0, &y0);
    SDL_RenderLogicalToWindow(renderer, 1000.0f, 1000.0f, &x1, &y1);
    double out_per_win = (double)out_w / win_w;
    p->k = (x1 - x0) / 1000.0 * out_per_win / p->scale;
    p->ox = x0 * out_per_win / p->scale;
    p->oy = y0 * out_per_win / p->scale;
}

bool bp_panel_covers(const bp_panel *p, const bp_view *view, double x, double y)
{
    double ux = x * p->k + p->ox, uy = y * p->k + p->oy;
    int cx, cy, w = PANEL_W, h = PANEL_H;
    if (view->show_panel) {
        panel_corner(p, &cx, &cy);
    } else {
        tab_corner(p, &cx, &cy);
        w = TAB_W;
        h = TAB_H;
    }
    return ux >= cx && ux < cx + w && uy >= cy && uy < cy + h;
}

/* Scrolls the panel up by units (down if negative), as far as it goes. */
static void scroll_by(bp_panel *p, int units)
{
    p->scroll += units;
    p->scroll = p->scroll < 0 ? 0 : (p->scroll > scroll_most(p) ? scroll_most(p) : p->scroll);
}

/* The slider let go: the drag's sets were one edit, and the next is new. */
static void let_go(bp_panel *p, bp_input_handler *h)
{
    if (p->active)
        bp_undo_end_drag(&h->undo);
    p->active = 0;
}

static void locate(bp_panel *p, double x, double y)
{
    p->mx = x * p->k + p->ox;
    p->my = y * p->k + p->oy;
}

int bp_panel_event(bp_panel *p, bp_input_handler *h, bp_view *view, bp_session *s,
                   const SDL_Event *ev, bool *used, char *err, size_t err_size)
{
    *used = false;
    if (!view->show_panel)
        let_go(p, h); /* P closed it mid-drag */
    switch (ev->type) {
    case SDL_MOUSEBUTTONDOWN:
        locate(p, ev->button.x, ev->button.y);
        if (!bp_panel_covers(p, view, ev->button.x, ev->button.y))
            return 0;
        *used = true; /* no button of the mouse reaches the arena under the panel */
        if (ev->button.button != SDL_BUTTON_LEFT)
            return 0;
        p->captured = true;
        p->scrolling = false;
        p->grip_y = p->my;
        return run(p, UI_PRESS, h, view, s, err, err_size);
    case SDL_MOUSEMOTION:
        locate(p, ev->motion.x, ev->motion.y);
        if (p->captured && !p->active && view->show_panel) {
            /* Held off the sliders: the panel moves with the hand (a
             * finger has no wheel), once it has moved further than a
             * click's shake. */
            *used = true;
            p->scrolling |= fabs(p->grip_y - p->my) >= BP_PANEL_SCROLL_SLOP;
            if (!p->scrolling)
                return 0;
            scroll_by(p, (int)lround(p->grip_y - p->my));
            p->grip_y = p->my;
            return 0;
        }
        if (!p->active)
            return 0; /* the arena follows the cursor too */
        *used = true;
        return run(p, UI_DRAG, h, view, s, err, err_size);
    case SDL_MOUSEBUTTONUP:
        locate(p, ev->button.x, ev->button.y);
        if (!p->captured || ev->button.button != SDL_BUTTON_LEFT)
            return 0;
        *used = true;
        p->captured = false;
        let_go(p, h);
        return 0;
    case SDL_MOUSEWHEEL: {
        /* Over the panel the wheel is the panel's, never the arena's zoom
         * behind it: it scrolls what a window shorter than it cannot show. */
        int x, y;
        panel_corner(p, &x, &y);
        if (!view->show_panel || p->mx < x || p->mx >= x + PANEL_W || p->my < y ||
            p->my >= y + PANEL_H)
            return 0;
        *used = true;
        scroll_by(p, -ev->wheel.y * BP_PANEL_WHEEL_STEP);
        return 0;
    }
    default:
        return 0;
    }
}

bool bp_panel_knob_at(bp_panel *p, bp_input_handler *h, bp_view *view, bp_session *s,
                      const char *label, double value, double *x, double *y)
{
    ui u = {.p = p, .pass = UI_FIND, .h = h, .view = view, .s = s, .find = label,
            .find_value = value};
    layout(&u);
    if (!u.found || p->k <= 0.0)
        return false;
    *x = (u.fx - p->ox) / p->k;
    *y = (u.fy - p->oy) / p->k;
    return true;
}

void bp_panel_draw(bp_panel *p, SDL_Renderer *renderer, bp_text *glyphs, bp_input_handler *h,
                   bp_view *view, bp_session *s)
{
    int out_w = 0, out_h = 0;
    if (SDL_GetRendererOutputSize(renderer, &out_w, &out_h) != 0)
        return;
    p->scale = bp_text_scale_of(renderer);
    p->width = out_w / p->scale;
    p->height = out_h / p->scale;
    SDL_RenderSetScale(renderer, (float)p->scale, (float)p->scale);
    ui u = {.p = p, .pass = UI_DRAW, .r = renderer, .glyphs = glyphs, .h = h, .view = view,
            .s = s};
    layout(&u);
    bp_text_flush(glyphs, renderer);
    SDL_RenderSetScale(renderer, 1.0f, 1.0f);
}
