#include "paint.h"

#include <SDL2/SDL2_gfxPrimitives_font.h>
#include <math.h>
#include <string.h>

static inline float clamp01(float v)
{
    return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

void bp_paint_capsule(const bp_pixels *out, float x1, float y1, float x2, float y2, float r,
                      uint32_t rgb, float opacity)
{
    if (!(r > 0.0f) || !(opacity > 0.0f) || !isfinite(x1) || !isfinite(y1) || !isfinite(x2) ||
        !isfinite(y2))
        return;
    float reach = r + 0.5f;
    float lo_x = fminf(x1, x2) - reach, hi_x = fmaxf(x1, x2) + reach;
    float lo_y = fminf(y1, y2) - reach, hi_y = fmaxf(y1, y2) + reach;
    if (hi_x < 0.0f || hi_y < 0.0f || lo_x > (float)out->width || lo_y > (float)out->height)
        return;
    int px0 = lo_x < 0.0f ? 0 : (int)lo_x, py0 = lo_y < 0.0f ? 0 : (int)lo_y;
    int px1 = hi_x >= (float)out->width ? out->width - 1 : (int)hi_x;
    int py1 = hi_y >= (float)out->height ? out->height - 1 : (int)hi_y;
    float dx = x2 - x1, dy = y2 - y1, len2 = dx * dx + dy * dy;
    float inv_len2 = len2 > 0.0f ? 1.0f / len2 : 0.0f;
    float reach2 = reach * reach, len = sqrtf(len2);
    for (int py = py0; py <= py1; py++) {
        float fy = (float)py + 0.5f - y1;
        uint32_t *row = out->pixels + (size_t)py * (size_t)out->pitch;
        int from = px0, to = px1;
        /* Only the pixels within reach of the segment's line: a long
         * slanted segment's box is mostly far from it. The line's distance
         * is |fx dy - fy dx| / len, linear in fx. */
        if (fabsf(dy) > 1e-3f * len) {
            float a = (fy * dx - reach * len) / dy, b = (fy * dx + reach * len) / dy;
            float lo = fminf(a, b) + x1 - 0.5f, hi = fmaxf(a, b) + x1 - 0.5f;
            if (lo > (float)from)
                from = lo > (float)px1 ? px1 + 1 : (int)lo;
            if (hi < (float)to)
                to = hi < (float)px0 ? px0 - 1 : (int)hi + 1;
        }
        for (int px = from; px <= to; px++) {
            float fx = (float)px + 0.5f - x1;
            /* Distance to the nearest point of the segment. */
            float t = clamp01((fx * dx + fy * dy) * inv_len2);
            float ex = fx - t * dx, ey = fy - t * dy, d2 = ex * ex + ey * ey;
            if (d2 >= reach2)
                continue;
            float a = clamp01(reach - sqrtf(d2)) * opacity;
            uint32_t alpha = (uint32_t)(a * 255.0f + 0.5f);
            if (alpha >= 255u)
                row[px] = rgb | 0xff000000u;
            else if (alpha > 0u)
                row[px] = bp_over(rgb, row[px], alpha);
        }
    }
}

static inline void ink(const bp_pixels *out, int x, int y, uint32_t rgb, float a)
{
    if (x < 0 || y < 0 || x >= out->width || y >= out->height || !(a > 0.0f))
        return;
    uint32_t *p = out->pixels + (size_t)y * (size_t)out->pitch + x;
    uint32_t alpha = (uint32_t)(clamp01(a) * 255.0f + 0.5f);
    *p = alpha >= 255u ? (rgb | 0xff000000u) : bp_over(rgb, *p, alpha);
}

void bp_paint_line(const bp_pixels *out, float x1, float y1, float x2, float y2, uint32_t rgb,
                   float opacity)
{
    if (!isfinite(x1) || !isfinite(y1) || !isfinite(x2) || !isfinite(y2) || !(opacity > 0.0f))
        return;
    /* Clipped to the buffer's box (and a pixel): nothing to walk beyond. */
    float w = (float)out->width + 1.0f, h = (float)out->height + 1.0f;
    if ((x1 < -1.0f && x2 < -1.0f) || (y1 < -1.0f && y2 < -1.0f) || (x1 > w && x2 > w) ||
        (y1 > h && y2 > h))
        return;
    bool steep = fabsf(y2 - y1) > fabsf(x2 - x1);
    /* Pixel centres at +0.5: in the walk, integer coordinates are centres. */
    float a1 = (steep ? y1 : x1) - 0.5f, b1 = (steep ? x1 : y1) - 0.5f;
    float a2 = (steep ? y2 : x2) - 0.5f, b2 = (steep ? x2 : y2) - 0.5f;
    if (a1 > a2) {
        float t = a1;
        a1 = a2;
        a2 = t;
        t = b1;
        b1 = b2;
        b2 = t;
    }
    float span = a2 - a1, slope = span > 0.0f ? (b2 - b1) / span : 0.0f;
    float limit = steep ? h : w;
    int from = (int)ceilf(fmaxf(a1, -1.0f)), to = (int)floorf(fminf(a2, limit));
    for (int a = from; a <= to; a++) {
        float b = b1 + slope * ((float)a - a1);
        int lo = (int)floorf(b);
        float f = b - (float)lo;
        if (steep) {
            ink(out, lo, a, rgb, (1.0f - f) * opacity);
            ink(out, lo + 1, a, rgb, f * opacity);
        } else {
            ink(out, a, lo, rgb, (1.0f - f) * opacity);
            ink(out, a, lo + 1, rgb, f * opacity);
        }
    }
}

void bp_paint_arrow(const bp_pixels *out, float x1, float y1, float x2, float y2, float r,
                    float head, uint32_t rgb, float opacity)
{
    float dx = x2 - x1, dy = y2 - y1, len = sqrtf(dx * dx + dy * dy);
    if (!(len > 0.0f))
        return;
    float ux = dx / len, uy = dy / len;
    head = head < len ? head : len;
    const float c = 0.866f, s = 0.5f; /* two barbs at 30 degrees off the shaft */
    float bx1 = x2 - head * (ux * c - uy * s), by1 = y2 - head * (uy * c + ux * s);
    float bx2 = x2 - head * (ux * c + uy * s), by2 = y2 - head * (uy * c - ux * s);
    if (r <= 0.5f) {
        bp_paint_line(out, x1, y1, x2, y2, rgb, opacity);
        bp_paint_line(out, x2, y2, bx1, by1, rgb, opacity);
        bp_paint_line(out, x2, y2, bx2, by2, rgb, opacity);
        return;
    }
    bp_paint_capsule(out, x1, y1, x2, y2, r, rgb, opacity);
    bp_paint_capsule(out, x2, y2, bx1, by1, r, rgb, opacity);
    bp_paint_capsule(out, x2, y2, bx2, by2, r, rgb, opacity);
}

void bp_paint_rect(const bp_pixels *out, int x0, int y0, int x1, int y1, uint32_t rgb,
                   uint32_t alpha)
{
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > out->width ? out->width : x1;
    y1 = y1 > out->height ? out->height : y1;
    for (int y = y0; y < y1; y++) {
        uint32_t *row = out->pixels + (size_t)y * (size_t)out->pitch;
        for (int x = x0; x < x1; x++)
            row[x] = alpha >= 255u ? (rgb | 0xff000000u) : bp_over(rgb, row[x], alpha);
    }
}

void bp_paint_text(const bp_pixels *out, int x, int y, int scale, const char *s, uint32_t rgb)
{
    scale = scale < 1 ? 1 : scale;
    for (size_t k = 0; s[k]; k++) {
        const unsigned char *glyph = &gfxPrimitivesFontdata[(unsigned char)s[k] * BP_PAINT_GLYPH];
        int gx = x + (int)k * BP_PAINT_GLYPH * scale;
        if (gx >= out->width)
            break;
        for (int row = 0; row < BP_PAINT_GLYPH; row++)
            for (int col = 0; col < BP_PAINT_GLYPH; col++)
                if (glyph[row] & (0x80u >> col))
                    bp_paint_rect(out, gx + col * scale, y + row * scale, gx + (col + 1) * scale,
                                  y + (row + 1) * scale, rgb, 255u);
    }
}
