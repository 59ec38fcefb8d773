#include "hud.h"

#include <SDL2/SDL2_gfxPrimitives.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "program.h"
#include "text.h"

/* The built-in font's glyph cell, px. */
#define BP_GLYPH 8
#define BP_LINE 11

static Sint16 clamp16(double v)
{
    return (Sint16)(v < -32000.0 ? -32000 : v > 32000.0 ? 32000 : lround(v));
}

/* Points of the aim preview: up to this many steps of flight. */
#define BP_AIM_POINTS 400
/* Longest flight the preview shows, s. */
#define BP_AIM_TIME 1.5

/* From the arena to where the marks are drawn: arena point a at
 * (a - origin) * k in the renderer's units, which are pixel units of
 * screen points (see bp_hud_draw_marks). */
typedef struct mark_map {
    double x, y; /* the arena point at the window's top left, px */
    double k;    /* renderer units per arena px: the camera's zoom times unit */
    double unit; /* renderer units per screen point */
} mark_map;

static Sint16 mark_x(const mark_map *m, double x)
{
    return clamp16((x - m->x) * m->k);
}

static Sint16 mark_y(const mark_map *m, double y)
{
    return clamp16((y - m->y) * m->k);
}

/* Clips the segment (x0, y0)-(x1, y1) to the square |x|, |y| <= lim, as a
 * 16-bit drawing call needs it: clamping each end alone would turn the
 * segment (a wall drawn at a high zoom, one end far off screen).
 * false when nothing of it lies inside. */
static bool clip_segment(double *x0, double *y0, double *x1, double *y1, double lim)
{
    double dx = *x1 - *x0, dy = *y1 - *y0, t0 = 0.0, t1 = 1.0;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {*x0 + lim, lim - *x0, *y0 + lim, lim - *y0};
    for (int k = 0; k < 4; k++) {
        if (p[k] == 0.0) {
            if (q[k] < 0.0)
                return false; /* parallel to this edge and outside it */
            continue;
        }
        double t = q[k] / p[k];
        if (p[k] < 0.0)
            t0 = t > t0 ? t : t0;
        else
            t1 = t < t1 ? t : t1;
    }
    if (!(t0 <= t1))
        return false;
    double ax = *x0 + t0 * dx, ay = *y0 + t0 * dy;
    *x1 = *x0 + t1 * dx;
    *y1 = *y0 + t1 * dy;
    *x0 = ax;
    *y0 = ay;
    return true;
}

/* A wall on its way from (x0, y0) to (x1, y1), arena px: as wide as the
 * wall it will be (6 arena px, input.c), up to 255. */
static void draw_wall_preview(SDL_Renderer *renderer, const mark_map *m, double x0, double y0,
                              double x1, double y1)
{
    double ax = (x0 - m->x) * m->k, ay = (y0 - m->y) * m->k;
    double bx = (x1 - m->x) * m->k, by = (y1 - m->y) * m->k;
    if (!clip_segment(&ax, &ay, &bx, &by, 32000.0))
        return;
    thickLineRGBA(renderer, clamp16(ax), clamp16(ay), clamp16(bx), clamp16(by),
                  (Uint8)SDL_min(255.0, SDL_max(1.0, SDL_floor(6.0 * m->k + 0.5))), 200, 200,
                  200, 140);
}

/* The path the held ball would fly if let go now, as dots every few steps
 * (closer dots: slower flight), and a ring where it would first touch
 * something. */
static void draw_aim(SDL_Renderer *renderer, const bp_world *w, size_t i, double vx, double vy,
                     const mark_map *m)
{
    static double xs[BP_AIM_POINTS], ys[BP_AIM_POINTS];
    bp_ray_hit hit;
    bool hit_found = false;
    double max_time = SDL_min(BP_AIM_TIME, (BP_AIM_POINTS - 2) / w->params.hz);
    size_t n = bp_predict_flight(w, w->x[i], w->y[i], vx, vy, w->r[i], w->id[i], max_time, xs,
                                 ys, BP_AIM_POINTS, &hit, &hit_found);
    if (n < 2 || n > BP_AIM_POINTS)
        return;
    /* A dot every 1/30 s of flight, whatever the physics rate. */
    size_t every = (size_t)SDL_max(1.0, SDL_floor(w->params.hz / 30.0));
    Sint16 dot = (Sint16)SDL_floor(2.0 * m->unit); /* 0: a pixel */
    for (size_t j = every; j + 1 < n; j += every) {
        double dx = xs[j] - xs[0], dy = ys[j] - ys[0];
        if (dx * dx + dy * dy < w->r[i] * w->r[i])
            continue; /* hidden by the ball itself */
        Uint8 a = (Uint8)(200 - 150 * j / n);
        filledCircleRGBA(renderer, mark_x(m, xs[j]), mark_y(m, ys[j]), dot, 255, 255, 255, a);
    }
    if (hit_found)
        aacircleRGBA(renderer, mark_x(m, xs[n - 1]), mark_y(m, ys[n - 1]),
                     clamp16(SDL_max(1.0, w->r[i] * m->k)), 255, 255, 255, 110);
}

void bp_hud_draw_marks(SDL_Renderer *renderer, const bp_session *s, const bp_input_handler *h,
                       const bp_camera *cam, const double *draw_x, const double *draw_y)
{
    /* Shown smaller than the arena, SDL would draw each point of a circle
     * as a rect a fraction of a pixel wide, and miss some: the marks go
     * in output pixels then, positions times the scale, sizes at least a
     * pixel. */
    float scale_x = 1.0f, scale_y = 1.0f;
    SDL_RenderGetScale(renderer, &scale_x, &scale_y);
    double k = scale_x > 0.0f && scale_x < 1.0f ? scale_x : 1.0;
    if (k < 1.0)
        SDL_RenderSetScale(renderer, 1.0f, 1.0f);
    const bp_world *w = s->world;
    double zoom = cam ? cam->zoom : 1.0;
    mark_map m = {cam ? cam->x : 0.0, cam ? cam->y : 0.0, zoom * k, k};
    int64_t i = s->held >= 0 ? bp_world_index_of(w, (uint32_t)s->held) : -1;
    double vx, vy;
    if (i >= 0 && bp_input_aim(h, s, SDL_GetTicks() / 1000.0, &vx, &vy))
        draw_aim(renderer, w, (size_t)i, vx, vy, &m);
    if (i >= 0) {
        /* A bright ring just outside the ball: it is in hand. */
        double x = draw_x ? draw_x[i] : w->x[i], y = draw_y ? draw_y[i] : w->y[i];
        Sint16 r = clamp16(w->r[i] * m.k + 3.0);
        aacircleRGBA(renderer, mark_x(&m, x), mark_y(&m, y), r, 255, 255, 255, 230);
        aacircleRGBA(renderer, mark_x(&m, x), mark_y(&m, y), (Sint16)(r + 1), 255, 255, 255,
                     120);
    }
    if (h->drawing_wall)
        draw_wall_preview(renderer, &m, h->wall_x, h->wall_y, h->cursor_x, h->cursor_y);
    if (k < 1.0)
        SDL_RenderSetScale(renderer, scale_x, scale_y);
}

/* A block of text lines on a dark panel just wide and tall enough for
 * them: the lines are gathered first, then the panel and the text drawn. */
#define BP_BOX_LINES 40
typedef struct text_box {
    SDL_Renderer *renderer;
    bp_text *text;
    int x, y; /* top left of the first line, in scaled pixels */
    int count;
    char lines[BP_BOX_LINES][160]; /* as long as a message or the load prompt */
    SDL_Color colors[BP_BOX_LINES];
} text_box;

static void line(text_box *b, Uint8 r, Uint8 g, Uint8 bl, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void line(text_box *b, Uint8 r, Uint8 g, Uint8 bl, const char *fmt, ...)
{
    if (b->count == BP_BOX_LINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->lines[b->count], sizeof b->lines[0], fmt, ap);
    va_end(ap);
    b->colors[b->count++] = (SDL_Color){r, g, bl, 255};
}

/* A gap of half a line after the lines so far. */
static void gap(text_box *b)
{
    line(b, 0, 0, 0, "%s", "");
}

/* A dark panel cols glyphs wide and height px of lines tall, from (x, y). */
static void panel(SDL_Renderer *renderer, int x, int y, int cols, int height)
{
    boxRGBA(renderer, (Sint16)x, (Sint16)y, (Sint16)(x + cols * BP_GLYPH + 12),
            (Sint16)(y + height + 10), 0, 0, 0, 170);
}

/* The height of a text line: a gap (an empty line) takes half. */
static int line_height(const char *line)
{
    return line[0] ? BP_LINE : BP_LINE / 2;
}

/* The panel's size round the lines, px (scaled). */
static void box_size(const text_box *b, int *w, int *h)
{
    int cols = 0, height = 0;
    for (int k = 0; k < b->count; k++) {
        int n = (int)strlen(b->lines[k]);
        cols = n > cols ? n : cols;
        height += line_height(b->lines[k]);
    }
    *w = cols * BP_GLYPH + 12;
    *h = height + 10;
}

/* Draws the panel round the lines, then the lines. */
static void flush(text_box *b)
{
    int w, h;
    box_size(b, &w, &h);
    panel(b->renderer, b->x - 6, b->y - 6, (w - 12) / BP_GLYPH, h - 10);
    int y = b->y;
    for (int k = 0; k < b->count; k++) {
        if (b->lines[k][0])
            bp_text_add(b->text, b->renderer, b->x, y, b->lines[k], b->colors[k]);
        y += line_height(b->lines[k]);
    }
}

/* Room between a HUD panel and the window's edge, px (scaled); at the
 * bottom more, for the timeline bar (draw_timeline, 22 output px). */
#define BP_HUD_EDGE 4
#define BP_HUD_EDGE_BOTTOM 26

/* The panel's top left in corner c (bit 0: right, bit 1: bottom) of a
 * width x height window (scaled px), for a panel w x h. */
static void corner_at(int c, int width, int height, int scale, int w, int h, int *x, int *y)
{
    *x = c & 1 ? width - BP_HUD_EDGE - w : BP_HUD_EDGE;
    *y = c & 2 ? height - (BP_HUD_EDGE_BOTTOM + scale - 1) / scale - h : BP_HUD_EDGE;
}

/* How much of the balls a w x h panel at (x, y) would cover, in square
 * px (scaled; each ball taken as its bounding square, enough to rank
 * corners). The arena is letterboxed into the window as SDL's logical
 * size does it, and shown through the camera. */
static double covered(const bp_world *world, const bp_camera *cam, int out_w, int out_h,
                      int scale, int x, int y, int w, int h)
{
    double aw = SDL_ceil(world->params.width), ah = SDL_ceil(world->params.height);
    double k = SDL_min(out_w / aw, out_h / ah) / scale;
    double ox = (out_w / (double)scale - aw * k) / 2.0, oy = (out_h / (double)scale - ah * k) / 2.0;
    double sum = 0.0;
    for (size_t i = 0; i < world->count; i++) {
        double sx, sy;
        bp_camera_to_screen(cam, world->x[i], world->y[i], &sx, &sy);
        double cx = ox + sx * k, cy = oy + sy * k, r = world->r[i] * cam->zoom * k;
        double dx = SDL_min(cx + r, (double)(x + w)) - SDL_max(cx - r, (double)x);
        double dy = SDL_min(cy + r, (double)(y + h)) - SDL_max(cy - r, (double)y);
        if (dx > 0.0 && dy > 0.0)
            sum += dx * dy;
    }
    return sum;
}

/* Draws the HUD's lines in the corner of the window where they cover the
 * fewest balls. *corner is where they were last time: they move only to
 * cover under half as much, so the panel does not hop about as balls roll
 * past it. */
static void flush_in_corner(text_box *b, const bp_world *world, const bp_camera *cam, int out_w,
                            int out_h, int scale, int *corner)
{
    int w, h, x, y;
    box_size(b, &w, &h);
    int width = out_w / scale, height = out_h / scale;
    double cover[4];
    int best = *corner & 3;
    for (int c = 0; c < 4; c++) {
        corner_at(c, width, height, scale, w, h, &x, &y);
        cover[c] = covered(world, cam, out_w, out_h, scale, x, y, w, h);
    }
    for (int c = 0; c < 4; c++)
        if (cover[c] < cover[best] * 0.5)
            best = c;
    *corner = best;
    corner_at(best, width, height, scale, w, h, &x, &y);
    b->x = x + 6;
    b->y = y + 6;
    flush(b);
}

/* The hint a first-time user sees with the HUD until the first grab. */
#define BP_HINT "drag a ball to throw it; P for the panel"

/* The short HUD, the window's first: one line of what a glance needs
 * (state, frame rate, balls) and the keys that lead on, then the hint. */
static void short_hud(text_box *b, const bp_session *s, const bp_view *view,
                      const bp_hud_stats *st, int cols)
{
    char rate[32] = "-- fps"; /* the first half second: not measured yet */
    if (st->idle)
        snprintf(rate, sizeof rate, "idle");
    else if (st->fps > 0.0)
        snprintf(rate, sizeof rate, "%.0f fps", st->fps);
    const char *state = view->replaying ? "REPLAY  " : "";
    if (view->paused)
        state = view->replaying ? "PAUSED REPLAY  " : "PAUSED  ";
    char zoom[24] = ""; /* zoomed in: how far (0 shows the whole arena) */
    if (!bp_camera_is_whole(&view->camera))
        snprintf(zoom, sizeof zoom, "  x%.1f", view->camera.zoom);
    char figures[96];
    snprintf(figures, sizeof figures, "%s%s  %zu balls%s", state, rate, s->world->count, zoom);
    const char *keys = "H: help  P: panel  Tab: more";
    /* A narrow window (a phone) takes the keys on a line of their own. */
    if (strlen(figures) + 2 + strlen(keys) <= (size_t)cols) {
        line(b, 220, 220, 220, "%s  %s", figures, keys);
    } else {
        line(b, 220, 220, 220, "%s", figures);
        line(b, 220, 220, 220, "%s", keys);
    }
}

/* Below this width (output px at text scale 1) the full HUD keeps to the
 * figures that change, in short lines: the full one would cover over half
 * of a 500 px window. */
#define BP_HUD_COMPACT_BELOW 640

static void compact_hud(text_box *b, const bp_session *s, const bp_view *view,
                        const bp_hud_stats *st)
{
    line(b, 255, 255, 255, "ballpit%s", view->paused ? "  PAUSED" : "");
    if (st->idle)
        line(b, 150, 220, 160, "idle");
    else
        line(b, 220, 220, 220, "fps %.0f  steps/s %.0f", st->fps, st->steps_per_s);
    line(b, 220, 220, 220, "step %llu  x%g", (unsigned long long)s->world->steps,
         view->time_scale);
    line(b, 220, 220, 220, "balls %zu", s->world->count);
    line(b, 220, 220, 220, "step ms p50 p99 max");
    if (isnan(st->step_p50))
        line(b, 220, 220, 220, "        none");
    else
        line(b, 220, 220, 220, "     %5.2f %.2f %.2f", st->step_p50, st->step_p99, st->step_max);
    line(b, 160, 200, 255, "H: help  Tab: off");
}

static void full_hud(text_box *b, const bp_session *s, const bp_view *view,
                     const bp_hud_stats *st)
{
    const bp_world *w = s->world;
    const bp_params *p = &w->params;
    bp_energy e = bp_world_get_energy(w);
    const char *state = view->paused ? "  PAUSED" : "";
    line(b, 255, 255, 255, "ballpit%s%s", state, view->replaying ? "  REPLAY" : "");
    if (st->idle)
        line(b, 150, 220, 160, "idle (nothing moves)");
    else
        line(b, 220, 220, 220, "fps %.1f  steps/s %.1f", st->fps, st->steps_per_s);
    line(b, 220, 220, 220, "step %llu  time x%g", (unsigned long long)s->world->steps,
         view->time_scale);
    if (bp_camera_is_whole(&view->camera))
        line(b, 220, 220, 220, "balls %zu  draw %.1f ms", w->count, st->draw_ms);
    else
        line(b, 220, 220, 220, "balls %zu  draw %.1f ms  zoom x%.1f", w->count, st->draw_ms,
             view->camera.zoom);
    if (isnan(st->step_p50))
        line(b, 220, 220, 220, "step ms: no steps");
    else
        line(b, 220, 220, 220, "step ms %.2f p99 %.2f max %.2f", st->step_p50, st->step_p99,
             st->step_max);
    line(b, 220, 220, 220, "energy (mass px^2/s^2):");
    line(b, 220, 220, 220, " kinetic %.4g  spin %.4g", e.kinetic, e.rotational);
    line(b, 220, 220, 220, " potential %.4g  total %.4g", e.potential, e.total);
    line(b, 220, 220, 220, "g %g px/s^2  hz %g", p->gravity, p->hz);
    line(b, 220, 220, 220, "e %.2f  mu %.2f  roll %.3g  drag %g/s", p->restitution, p->friction,
         p->rolling, p->drag);
    line(b, 160, 200, 255, "H or F1: help  Tab: off");
}

static const char *const help_lines[] = {
    "left drag       grab a ball and throw it (dots:",
    "                where it flies if let go now)",
    "Shift+drag      draw a wall (Shift+click: a peg)",
    "drag wall end   move that end",
    "S, right click  spawn a ball at the cursor",
    "fingers         1: as the left button; held",
    "                still: a ball; 2: pinch zoom",
    "X, Delete       delete the ball (or wall) there",
    "Space           pause / resume",
    ". or N          single step while paused",
    "Backspace       rewind 1 s",
    "Left, Right     paused: a step back / on",
    "                (Shift: a second)",
    "[ and ]         slower / faster (time scale)",
    "R               reset to the initial state",
    "G               gravity on / off",
    "Up, Down        gravity pulls up / down",
    "E, Shift+E      restitution up / down",
    "F, Shift+F      friction up / down",
    "D, Shift+D      drag up / down",
    "Ctrl+Z, Ctrl+Y  undo / redo an edit",
    "F12             screenshot (ballpit-NNN.png)",
    "Ctrl+S          save scene (ballpit-scene-NNN.scene)",
    "Ctrl+O          load a scene (pick, or type a name)",
    "Tab             HUD: short / full / off",
    "T               trails (last seconds of path)",
    "V               velocity arrows (0.1 s ahead)",
    "C               colour by id / speed / sleep",
    "B               debug: grid cells, contacts",
    "K               energy chart (last 10 s)",
    "P               parameter panel (sliders, buttons)",
    "I, middle click inspect the ball (again: off)",
    "wheel           zoom in / out at the cursor",
    "+, -, 0 or Home zoom in / out at the centre; all",
    "middle drag     move the zoomed-in arena",
    "H, F1           this help",
    "Esc             close note/help; quit (asks)",
};
#define BP_HELP_LINES (int)(sizeof help_lines / sizeof help_lines[0])

/* The help's size: columns of its widest line, and rows with its title. */
#define BP_HELP_COLS 52
#define BP_HELP_ROWS (BP_HELP_LINES + 3)

/* The text scale the help is drawn at: the HUD's, or less where the help
 * would not fit the output (a phone: at its finger-sized scale the help
 * ran off the screen's side upright, off its bottom turned). */
static int help_scale(int out_w, int out_h, int scale)
{
    while (scale > 1 && ((BP_HELP_COLS * BP_GLYPH + 12) * scale > out_w ||
                         (BP_HELP_ROWS * BP_LINE + 12) * scale > out_h))
        scale--;
    return scale;
}

static void draw_help(SDL_Renderer *renderer, bp_text *glyphs, int width, int height,
                      bool replaying)
{
    int cols = BP_HELP_COLS, rows = BP_HELP_ROWS;
    int x = (width - cols * BP_GLYPH) / 2, y = (height - rows * BP_LINE) / 2;
    text_box b = {.renderer = renderer, .text = glyphs, .x = x < 6 ? 6 : x, .y = y < 6 ? 6 : y};
    line(&b, 255, 255, 255, "ballpit keys");
    gap(&b);
    for (int k = 0; k < BP_HELP_LINES; k++)
        line(&b, 220, 220, 220, "%s", help_lines[k]);
    if (replaying)
        line(&b, 255, 200, 120, "replaying: only view keys act");
    flush(&b);
}

/* A note as lines of at most cols glyphs, broken at spaces (a word longer
 * than a line, such as a path, where it must): an error naming a long
 * path ran off both sides of the window. */
static void wrapped(text_box *b, SDL_Color colour, const char *msg, int cols)
{
    cols = SDL_max(8, SDL_min(cols, (int)sizeof b->lines[0] - 1));
    size_t n = strlen(msg);
    while (n > 0) {
        size_t cut = n;
        if (n > (size_t)cols) {
            cut = (size_t)cols;
            while (cut > 0 && msg[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = (size_t)cols;
        }
        line(b, colour.r, colour.g, colour.b, "%.*s", (int)cut, msg);
        while (cut < n && msg[cut] == ' ')
            cut++;
        msg += cut;
        n -= cut;
    }
}

/* Glyphs a line of text may hold across a window width px wide (scaled),
 * less the HUD's margins. */
static int text_columns(int width)
{
    return (width - 2 * (BP_HUD_EDGE + 6)) / BP_GLYPH;
}

/* The note, centred near the bottom, wrapped to the window's width. */
static void draw_message(SDL_Renderer *renderer, bp_text *glyphs, const char *msg, int width,
                         int height)
{
    text_box b = {.renderer = renderer, .text = glyphs};
    wrapped(&b, (SDL_Color){255, 240, 200, 255}, msg, text_columns(width));
    int w, h;
    box_size(&b, &w, &h);
    b.x = (width - w) / 2 + 6;
    b.y = height - 2 * BP_LINE - h + 10;
    flush(&b);
}

void bp_hud_draw_text(SDL_Renderer *renderer, bp_text *glyphs, const bp_session *s,
                      const bp_view *view, bp_hud_stats *stats)
{
    if (!view->show_hud && !view->show_help && !stats->message)
        return;
    int out_w = 0, out_h = 0;
    if (SDL_GetRendererOutputSize(renderer, &out_w, &out_h) != 0)
        return;
    int scale = bp_text_scale_of(renderer);
    SDL_RenderSetScale(renderer, (float)scale, (float)scale);
    if (view->show_hud) {
        text_box b = {.renderer = renderer, .text = glyphs};
        if (!view->hud_full)
            short_hud(&b, s, view, stats, text_columns(out_w / scale));
        else if (out_w / scale < BP_HUD_COMPACT_BELOW)
            compact_hud(&b, s, view, stats);
        else
            full_hud(&b, s, view, stats);
        if (view->hint && !view->show_help)
            wrapped(&b, (SDL_Color){255, 220, 120, 255}, BP_HINT, text_columns(out_w / scale));
        flush_in_corner(&b, s->world, &view->camera, out_w, out_h, scale, &stats->corner);
        bp_text_flush(glyphs, renderer); /* before the help's panel covers it */
    }
    if (stats->message) {
        draw_message(renderer, glyphs, stats->message, out_w / scale, out_h / scale);
        bp_text_flush(glyphs, renderer);
    }
    if (view->show_help) {
        scale = help_scale(out_w, out_h, scale);
        SDL_RenderSetScale(renderer, (float)scale, (float)scale);
        draw_help(renderer, glyphs, out_w / scale, out_h / scale, view->replaying);
        bp_text_flush(glyphs, renderer);
    }
    SDL_RenderSetScale(renderer, 1.0f, 1.0f);
}
