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
    float reach2 = reach * reach;
    for (int py = py0; py <= py1; py++) {
        float fy = (float)py + 0.5f - y1;
        uint32_t *row = out->pixels + (size_t)py * (size_t)out->pitch;
        for (int px = px0; px <= px1; px++) {
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

void bp_paint_arrow(const bp_pixels *out, float x1, float y1, float x2, float y2, float r,
                    float head, uint32_t rgb, float opacity)
{
    float dx = x2 - x1, dy = y2 - y1, len = sqrtf(dx * dx + dy * dy);
    if (!(len > 0.0f))
        return;
    float ux = dx / len, uy = dy / len;
    head = head < len ? head : len;
    bp_paint_capsule(out, x1, y1, x2, y2, r, rgb, opacity);
    /* Two barbs at 30 degrees off the shaft. */
    const float c = 0.866f, s = 0.5f;
    bp_paint_capsule(out, x2, y2, x2 - head * (ux * c - uy * s), y2 - head * (uy * c + ux * s),
                     r, rgb, opacity);
    bp_paint_capsule(out, x2, y2, x2 - head * (ux * c + uy * s), y2 - head * (uy * c - ux * s),
                     r, rgb, opacity);
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
