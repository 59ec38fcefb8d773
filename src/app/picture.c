#include "picture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contacts.h"
#include "raster.h"

struct bp_picture {
    bp_raster *raster;
    bp_contacts contacts;
};

bp_picture *bp_picture_create(void)
{
    bp_picture *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->raster = bp_raster_create();
    if (!p->raster) {
        free(p);
        return NULL;
    }
    return p;
}

void bp_picture_destroy(bp_picture *p)
{
    if (!p)
        return;
    bp_raster_destroy(p->raster);
    bp_contacts_free(&p->contacts);
    free(p);
}

static uint32_t colour_of(const bp_look *look, const bp_world *w, size_t i)
{
    return bp_look_ball_colour(look, w, i, bp_look_id_colour(w->id[i]));
}

/* Where the arena's x (or y) lands in the picture, pixels. */
static inline double at_x(const bp_raster_view *v, double x)
{
    return (x - v->x) * v->scale;
}

static inline double at_y(const bp_raster_view *v, double y)
{
    return (y - v->y) * v->scale;
}

static void draw_grid(const bp_pixels *out, const bp_contacts *c, const bp_raster_view *v)
{
    for (int col = 1; col < c->cols; col++) {
        int x = (int)lround(at_x(v, col * c->cell));
        bp_paint_rect(out, x, 0, x + 1, out->height, 0xff7a8696u, 60u);
    }
    for (int row = 1; row < c->rows; row++) {
        int y = (int)lround(at_y(v, row * c->cell));
        bp_paint_rect(out, 0, y, out->width, y + 1, 0xff7a8696u, 60u);
    }
}

static void draw_contacts(const bp_pixels *out, const bp_contacts *c, const bp_world *w,
                          const bp_raster_view *v, float ts)
{
    for (size_t k = 0; k < c->count; k++) {
        const bp_contact *t = &c->list[k];
        float x = (float)at_x(v, t->x), y = (float)at_y(v, t->y);
        if (t->b != BP_CONTACT_STATIC)
            bp_paint_capsule(out, (float)at_x(v, w->x[t->a]), (float)at_y(v, w->y[t->a]),
                             (float)at_x(v, w->x[t->b]), (float)at_y(v, w->y[t->b]),
                             0.5f * ts, 0xffff7a70u, 0.7f);
        bp_paint_capsule(out, x, y, x, y, 1.5f * ts, 0xffffd166u, 1.0f);
    }
}

/* zoom: the picture's scale over its marks', the window's magnification. */
static void draw_trails(const bp_pixels *out, const bp_trails *t, const bp_world *w,
                        const double *dx, const double *dy, const bp_raster_view *v, float zoom,
                        const bp_look *look)
{
    double scale = v->scale;
    float fs = (float)scale, fx = (float)v->x, fy = (float)v->y;
    float xy[2 * BP_TRAIL_POINTS + 2];
    /* A crowd's trails take every few points, some 40,000 pieces in all:
     * the ink grows with the balls, the pieces need not. */
    size_t pieces = w->count * BP_TRAIL_POINTS;
    int every = pieces > 40000 ? (int)((pieces + 39999) / 40000) : 1;
    every = every > BP_TRAIL_POINTS / 2 ? BP_TRAIL_POINTS / 2 : every;
    for (size_t i = 0; i < w->count; i++) {
        /* A sleeper's path is over: its trail would only hold the eye on
         * a pile at rest (and cost most of a crowd's frame). */
        if (w->flags[i] & BP_BALL_ASLEEP)
            continue;
        int all = bp_trails_points(t, w->id[i], xy), n = 0;
        if (all == 0)
            continue;
        /* Keep every every-th point counting back from the newest. */
        for (int k = (all - 1) % every; k < all; k += every, n++) {
            xy[2 * n] = xy[2 * k];
            xy[2 * n + 1] = xy[2 * k + 1];
        }
        xy[2 * n] = (float)(dx ? dx[i] : w->x[i]);
        xy[2 * n + 1] = (float)(dy ? dy[i] : w->y[i]);
        /* A hairline behind small balls and in crowds (a crowd's trails
         * are a lot of ink), up to 4 px wide behind big ones (magnified
         * with them in a zoomed window). */
        float r = (float)(w->r[i] * scale) * 0.1f;
        r = r > 2.0f * zoom ? 2.0f * zoom : r;
        bool thin = r <= 0.75f || w->count > 500;
        uint32_t c = colour_of(look, w, i);
        /* Fades in from the oldest point: the colour is mixed with the
         * background beforehand, so where two pieces overlap at a joint
         * the trail does not darken into beads. */
        for (int k = 0; k < n; k++) {
            if (xy[2 * k] == xy[2 * k + 2] && xy[2 * k + 1] == xy[2 * k + 3])
                continue; /* a ball at rest leaves no dot under it */
            uint32_t faded = bp_over(c, BP_LOOK_BACKGROUND,
                                     (uint32_t)(150.0f * (float)(k + 1) / (float)(n + 1)));
            float ax = (xy[2 * k] - fx) * fs, ay = (xy[2 * k + 1] - fy) * fs;
            float bx = (xy[2 * k + 2] - fx) * fs, by = (xy[2 * k + 3] - fy) * fs;
            if (thin)
                bp_paint_line(out, ax, ay, bx, by, faded, 1.0f);
            else
                bp_paint_capsule(out, ax, ay, bx, by, r, faded, 1.0f);
        }
    }
}

static void draw_vectors(const bp_pixels *out, const bp_world *w, const double *dx,
                         const double *dy, const bp_raster_view *v, float ts)
{
    double scale = v->scale;
    for (size_t i = 0; i < w->count; i++) {
        if (w->flags[i] & BP_BALL_ASLEEP)
            continue;
        float x = (float)at_x(v, dx ? dx[i] : w->x[i]);
        float y = (float)at_y(v, dy ? dy[i] : w->y[i]);
        float ex = x + (float)(w->vx[i] * BP_PICTURE_ARROW_TIME * scale);
        float ey = y + (float)(w->vy[i] * BP_PICTURE_ARROW_TIME * scale);
        float len = hypotf(ex - x, ey - y);
        if (len < 1.5f)
            continue;
        bp_paint_arrow(out, x, y, ex, ey, ts > 1.0f ? 0.6f * ts : 0.5f,
                       fminf(6.0f * ts, 0.4f * len), 0xfff2f5f8u, 0.85f);
    }
}

/* A ring round the inspected ball and a panel beside it, if it is in view. */
static void draw_inspector(const bp_pixels *out, const bp_world *w, size_t i, const double *dx,
                           const double *dy, const bp_raster_view *v, size_t contacts, int ts)
{
    double bx = dx ? dx[i] : w->x[i], by = dy ? dy[i] : w->y[i];
    float cx = (float)at_x(v, bx), cy = (float)at_y(v, by);
    float rr = (float)(w->r[i] * v->scale) + 3.0f * (float)ts;
    /* Zoomed in elsewhere: the ball is out of view, and a panel clamped to
     * the edge would stand beside nothing. */
    if (cx + rr < 0.0f || cy + rr < 0.0f || cx - rr > (float)out->width ||
        cy - rr > (float)out->height)
        return;
    for (int k = 0; k < 48; k++) {
        double a0 = k * (2.0 * M_PI / 48), a1 = (k + 1) * (2.0 * M_PI / 48);
        bp_paint_capsule(out, cx + rr * (float)cos(a0), cy + rr * (float)sin(a0),
                         cx + rr * (float)cos(a1), cy + rr * (float)sin(a1), 0.8f * (float)ts,
                         0xffffffffu, 0.9f);
    }
    const char *state = (w->flags[i] & BP_BALL_HELD)     ? "held"
                        : (w->flags[i] & BP_BALL_ASLEEP) ? "asleep"
                                                         : "awake";
    char lines[7][64];
    snprintf(lines[0], sizeof lines[0], "ball %u  %s", w->id[i], state);
    snprintf(lines[1], sizeof lines[1], "at  %.1f, %.1f px", w->x[i], w->y[i]);
    snprintf(lines[2], sizeof lines[2], "v   %.1f, %.1f px/s", w->vx[i], w->vy[i]);
    snprintf(lines[3], sizeof lines[3], "    |v| %.1f px/s", hypot(w->vx[i], w->vy[i]));
    snprintf(lines[4], sizeof lines[4], "spin %.2f rad  %.2f rad/s", w->angle[i], w->w[i]);
    snprintf(lines[5], sizeof lines[5], "r %.1f px  mass %.4g", w->r[i], w->mass[i]);
    snprintf(lines[6], sizeof lines[6], "contacts %zu", contacts);
    int cols = 0;
    for (int k = 0; k < 7; k++) {
        int n = (int)strlen(lines[k]);
        cols = n > cols ? n : cols;
    }
    int line = (BP_PAINT_GLYPH + 3) * ts, pw = cols * BP_PAINT_GLYPH * ts + 12 * ts,
        ph = 7 * line + 9 * ts;
    int px = (int)(cx + rr) + 8 * ts, py = (int)cy - ph / 2;
    if (px + pw > out->width)
        px = (int)(cx - rr) - 8 * ts - pw;
    px = px < 0 ? 0 : (px + pw > out->width ? out->width - pw : px);
    py = py < 0 ? 0 : (py + ph > out->height ? out->height - ph : py);
    bp_paint_rect(out, px, py, px + pw, py + ph, 0xff0e1117u, 215u);
    for (int k = 0; k < 7; k++)
        bp_paint_text(out, px + 6 * ts, py + 5 * ts + k * line, ts, lines[k],
                      k == 0 ? 0xffffffffu : 0xffd0d6dcu);
}

bool bp_picture_draw(bp_picture *p, const bp_pixels *out, double scale, const bp_world *world,
                     const double *dx, const double *dy, const bp_look *look,
                     const bp_picture_extras *extras)
{
    bp_picture_view whole = {{scale, 0.0, 0.0}, scale};
    return bp_picture_draw_part(p, out, &whole, world, dx, dy, look, extras);
}

bool bp_picture_draw_part(bp_picture *p, const bp_pixels *out, const bp_picture_view *view,
                          const bp_world *world, const double *dx, const double *dy,
                          const bp_look *look, const bp_picture_extras *extras)
{
    bp_look plain = {.inspect = -1};
    look = look ? look : &plain;
    const bp_raster_view *v = &view->part;
    double marks = view->marks > 0.0 ? view->marks : v->scale;
    int ts = marks >= 1.5 ? (int)lround(marks) : 1;
    int64_t inspected = look->inspect >= 0 && look->inspect <= UINT32_MAX
                            ? bp_world_index_of(world, (uint32_t)look->inspect)
                            : -1;
    bool need_contacts = look->debug || inspected >= 0;
    bool ok = !need_contacts || bp_contacts_find(&p->contacts, world);
    ok = bp_raster_base(p->raster, out, *v, world, look) && ok;
    if (look->debug && ok)
        draw_grid(out, &p->contacts, v);
    if (look->trails > 0.0 && extras && extras->trails)
        draw_trails(out, extras->trails, world, dx, dy, v, (float)(v->scale / marks), look);
    ok = bp_raster_awake(p->raster, out, *v, world, dx, dy, look) && ok;
    if (look->vectors)
        draw_vectors(out, world, dx, dy, v, (float)ts);
    if (look->debug && ok)
        draw_contacts(out, &p->contacts, world, v, (float)ts);
    if (inspected >= 0)
        draw_inspector(out, world, (size_t)inspected, dx, dy, v,
                       ok ? bp_contacts_of(&p->contacts, (size_t)inspected) : 0, ts);
    if (extras && extras->chart)
        bp_chart_draw(extras->chart, out, ts);
    return ok;
}
