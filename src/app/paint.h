/* Drawing on the CPU into a buffer of pixels: antialiased thick lines with
 * round caps (walls, spin marks, trails, arrows), panels and text. The
 * window and the --png frames both draw through here, so neither needs a
 * display and both look the same. Coverage is the usual one-pixel ramp:
 * a pixel whose centre lies d from a shape of half-width r is covered
 * clamp(r + 0.5 - d, 0, 1), which integrates to the shape's true area
 * (up to pi/12 px^2 at a round end). */
#ifndef BP_PAINT_H
#define BP_PAINT_H

#include <stdbool.h>
#include <stdint.h>

/* A buffer of 32-bit ARGB pixels, pitch pixels to a row. Opaque: alpha is
 * always 0xff. */
typedef struct bp_pixels {
    uint32_t *pixels;
    int width, height, pitch;
} bp_pixels;

/* 0xffRRGGBB from three channels. */
static inline uint32_t bp_rgb(uint8_t r, uint8_t g, uint8_t b)
{
    return 0xff000000u | ((uint32_t)r << 16) | ((uint32_t)g << 8) | b;
}

/* x / 255, rounded, for x up to 255 * 255. */
static inline uint32_t bp_div255(uint32_t x)
{
    x += 128u;
    return (x + (x >> 8)) >> 8;
}

/* The colour rgb with each channel times level/255 (level 0-255). */
static inline uint32_t bp_shade(uint32_t rgb, uint32_t level)
{
    return 0xff000000u | (bp_div255(((rgb >> 16) & 0xffu) * level) << 16) |
           (bp_div255(((rgb >> 8) & 0xffu) * level) << 8) | bp_div255((rgb & 0xffu) * level);
}

/* rgb laid over the opaque pixel dst at alpha (0-255): each channel
 * (s alpha + d (255 - alpha)) / 255 rounded as bp_div255 does, red and
 * blue side by side in one word (no sum reaches 2^16, so no carry crosses
 * from one to the other). */
static inline uint32_t bp_over(uint32_t rgb, uint32_t dst, uint32_t alpha)
{
    uint32_t rest = 255u - alpha;
    uint32_t rb = (rgb & 0xff00ffu) * alpha + (dst & 0xff00ffu) * rest + 0x800080u;
    rb = ((rb + ((rb >> 8) & 0xff00ffu)) >> 8) & 0xff00ffu;
    uint32_t g = (rgb & 0xff00u) * alpha + (dst & 0xff00u) * rest + 0x8000u;
    g = ((g + ((g >> 8) & 0xff00u)) >> 8) & 0xff00u;
    return 0xff000000u | rb | g;
}

/* A segment from (x1, y1) to (x2, y2), half-width r (pixels), with round
 * ends, in rgb at opacity (0-1). A zero-length one is a disc. */
void bp_paint_capsule(const bp_pixels *out, float x1, float y1, float x2, float y2, float r,
                      uint32_t rgb, float opacity);
/* A hairline about a pixel wide from (x1, y1) to (x2, y2): each step along
 * its longer axis shares its ink between the two pixels nearest the line
 * (Xiaolin Wu's way), with no distance to work out per pixel: for crowds'
 * trails and arrows, which are mostly long thin lines. */
void bp_paint_line(const bp_pixels *out, float x1, float y1, float x2, float y2, uint32_t rgb,
                   float opacity);
/* An arrow from (x1, y1) to (x2, y2) with a head of size head px; r <= 0.5
 * draws it in hairlines. */
void bp_paint_arrow(const bp_pixels *out, float x1, float y1, float x2, float y2, float r,
                    float head, uint32_t rgb, float opacity);
/* The pixels [x0, x1) x [y0, y1), clipped, covered with rgb at alpha. */
void bp_paint_rect(const bp_pixels *out, int x0, int y0, int x1, int y1, uint32_t rgb,
                   uint32_t alpha);

/* Glyph cell of the built-in 8x8 font (SDL2_gfx's), px at scale 1. */
#define BP_PAINT_GLYPH 8
/* s with its first glyph's top-left corner at (x, y), each font pixel a
 * scale x scale square. */
void bp_paint_text(const bp_pixels *out, int x, int y, int scale, const char *s, uint32_t rgb);

#endif
