#include "chart.h"

#include <math.h>
#include <stdio.h>

#include "program.h"

void bp_chart_record(bp_chart *c, const bp_world *world)
{
    if (world->steps < c->last_step) {
        c->count = c->head = 0;
        c->started = false;
    }
    c->last_step = world->steps;
    double every_d = floor(BP_CHART_SECONDS * world->params.hz / BP_CHART_SAMPLES);
    uint64_t every = every_d < 1.0 ? 1 : (uint64_t)every_d;
    if (world->steps % every != 0)
        return;
    c->e[c->head] = bp_world_get_energy(world);
    if (!c->started) {
        c->start_total = c->e[c->head].total;
        c->started = true;
    }
    c->t[c->head] = (double)world->steps / world->params.hz;
    c->head = (c->head + 1) % BP_CHART_SAMPLES;
    if (c->count < BP_CHART_SAMPLES)
        c->count++;
}

static const bp_energy *sample(const bp_chart *c, int k)
{
    return &c->e[(c->head + BP_CHART_SAMPLES - c->count + k) % BP_CHART_SAMPLES];
}

static double part(const bp_energy *e, int series)
{
    return series == 0 ? e->kinetic : series == 1 ? e->rotational
                                    : series == 2 ? e->potential : e->total;
}

void bp_chart_draw(const bp_chart *c, const bp_pixels *out, int ts)
{
    static const char *const names[4] = {"kinetic", "rotation", "potential", "total"};
    static const uint32_t colours[4] = {0xffe8bb6cu, 0xffb99ae6u, 0xff6fa8dcu, 0xfff0f0f0u};
    int line = (BP_PAINT_GLYPH + 3) * ts;
    int w = out->width - 16 * ts, h = 6 * line + 92 * ts;
    w = w > 460 * ts ? 460 * ts : w;
    if (w < 120 || h > out->height)
        return;
    /* Top right: the HUD holds the top left, piles the bottom. */
    int x0 = out->width - w - 8 * ts, y0 = 8 * ts;
    bp_paint_rect(out, x0, y0, x0 + w, y0 + h, 0xff0e1117u, 200u);
    int px = x0 + 6 * ts, py = y0 + 5 * ts;
    bp_paint_text(out, px, py, ts, "energy, last 10 s (mass px^2/s^2)", 0xffdcdcdcu);
    py += line;
    if (c->count == 0)
        return;
    const bp_energy *now = sample(c, c->count - 1);
    char text[96];
    for (int s = 0; s < 4; s++) {
        if (s == 3 && c->start_total != 0.0)
            snprintf(text, sizeof text, "%-9s %11.4g  (%.1f%% of the start)", names[s],
                     part(now, s), 100.0 * now->total / c->start_total);
        else
            snprintf(text, sizeof text, "%-9s %11.4g", names[s], part(now, s));
        bp_paint_rect(out, px, py + 2 * ts, px + 6 * ts, py + 6 * ts, colours[s], 255u);
        bp_paint_text(out, px + 9 * ts, py, ts, text, colours[s]);
        py += line;
    }
    snprintf(text, sizeof text, "momentum  %.4g, %.4g (mass px/s)", now->px, now->py);
    bp_paint_text(out, px + 9 * ts, py, ts, text, 0xffa0a8b0u);
    /* The plot: a shared scale from the lowest to the highest value. */
    int gx = px, gy = y0 + h - 84 * ts, gw = w - 12 * ts, gh = 78 * ts;
    double lo = 0.0, hi = 0.0;
    for (int k = 0; k < c->count; k++)
        for (int s = 0; s < 4; s++) {
            double v = part(sample(c, k), s);
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
    if (!(hi > lo))
        hi = lo + 1.0;
    bp_paint_rect(out, gx, gy, gx + gw, gy + gh, 0xff000000u, 90u);
    double t_end = c->t[(c->head + BP_CHART_SAMPLES - 1) % BP_CHART_SAMPLES];
    for (int s = 0; s < 4; s++) {
        float last_x = 0.0f, last_y = 0.0f;
        for (int k = 0; k < c->count; k++) {
            double t = c->t[(c->head + BP_CHART_SAMPLES - c->count + k) % BP_CHART_SAMPLES];
            float x = (float)(gx + gw * (1.0 - (t_end - t) / BP_CHART_SECONDS));
            float y = (float)(gy + gh - gh * (part(sample(c, k), s) - lo) / (hi - lo));
            if (k > 0)
                bp_paint_capsule(out, last_x, last_y, x, y, 0.6f * (float)ts, colours[s], 1.0f);
            last_x = x;
            last_y = y;
        }
    }
}
