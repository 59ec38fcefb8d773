#include "raster.h"

#include <math.h>
#include <stdlib.h>

#include "grow.h"
#include "render.h"

/* The rim's width as a fraction of the radius, and its brightness out of
 * 255, as in the ball sprite (render.c). */
#define BP_RIM_OVER_R 0.125f
#define BP_RIM_LEVEL 85.0f
/* Discs up to this radius (pixels) are drawn from stored masks, cut to a
 * quarter pixel in radius and in where the centre lies within its pixel:
 * computing each small disc's soft edge afresh cost 0.8 us a ball, and for
 * small balls nearly every pixel is edge. Bigger discs are mostly plain
 * fill, which draw_disc writes in runs. */
#define BP_MASK_RADIUS_MAX 16
#define BP_MASK_STEPS 4
#define BP_MASK_RADII (BP_MASK_RADIUS_MAX * BP_MASK_STEPS + 1)
#define BP_MASK_PHASES (BP_MASK_STEPS * BP_MASK_STEPS)

/* A disc's coverage (alpha) and brightness (level) per pixel of a square
 * of size pixels a side, whose first pixel lies reach pixels left of and
 * above the centre's pixel. size 0: not made yet. */
typedef struct disc_mask {
    int size, reach;
    uint8_t *alpha, *level;
} disc_mask;

struct bp_raster {
    disc_mask *masks;  /* [radius step][phase], BP_MASK_RADII * BP_MASK_PHASES */
    uint32_t *colours; /* per ball id, ARGB */
    size_t colours_count, colours_capacity;
};

static inline uint32_t argb_of(SDL_Color c)
{
    return 0xff000000u | ((uint32_t)c.r << 16) | ((uint32_t)c.g << 8) | c.b;
}

/* x / 255, rounded, for x up to 255 * 255. */
static inline uint32_t div255(uint32_t x)
{
    x += 128u;
    return (x + (x >> 8)) >> 8;
}

/* dst (opaque ARGB) with the colour c at brightness level (0-255) laid
 * over it at alpha (0-255). */
static inline uint32_t blend(SDL_Color c, uint32_t level, uint32_t dst, uint32_t alpha)
{
    uint32_t out = 0xff000000u;
    uint32_t src[3] = {div255(c.r * level), div255(c.g * level), div255(c.b * level)};
    for (int k = 0; k < 3; k++) {
        int shift = 16 - 8 * k;
        uint32_t under = (dst >> shift) & 0xffu;
        out |= div255(src[k] * alpha + under * (255u - alpha)) << shift;
    }
    return out;
}

static inline float clamp01(float v)
{
    return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

/* The soft edge's pixel at px on a row: the colour faded by the distance
 * from the centre, over what is there. */
static inline void edge_pixel(uint32_t *pixel, float fx, float fy2, float radius, float rim,
                              SDL_Color c)
{
    float d = sqrtf(fx * fx + fy2);
    float alpha = clamp01(radius + 0.5f - d);
    if (alpha <= 0.0f)
        return;
    float shade = clamp01(radius - d - rim);
    float level = BP_RIM_LEVEL + (255.0f - BP_RIM_LEVEL) * shade;
    *pixel = blend(c, (uint32_t)(level + 0.5f), *pixel, (uint32_t)(alpha * 255.0f + 0.5f));
}

/* floor and ceil to int without a call into libm (x86-64 without SSE4.1
 * has no instruction for them). */
static inline int floor_int(float v)
{
    int i = (int)v;
    return i - (v < (float)i);
}

static inline int ceil_int(float v)
{
    int i = (int)v;
    return i + (v > (float)i);
}

/* The pixels of row py whose centres lie within reach of the centre cx:
 * [*from, *to], clipped to the buffer (empty when *from > *to). */
static inline void span(const bp_pixels *out, float cx, float reach, float fy2, int *from,
                        int *to)
{
    float half = reach * reach - fy2;
    if (half < 0.0f) {
        *from = 1;
        *to = 0;
        return;
    }
    half = sqrtf(half);
    int a = ceil_int(cx - half - 0.5f), b = floor_int(cx + half - 0.5f);
    *from = a < 0 ? 0 : a;
    *to = b > out->width - 1 ? out->width - 1 : b;
}

/* One ball, centre (cx, cy) and radius in pixels: each row is a run of
 * edge pixels, a run of plain fill, and edge pixels again. */
static void draw_disc(const bp_pixels *out, float cx, float cy, float radius, SDL_Color c)
{
    float rim = radius * BP_RIM_OVER_R;
    float outer = radius + 0.5f;       /* beyond: nothing */
    float solid = radius - rim - 1.0f; /* within: fill, fully opaque */
    int y0 = floor_int(cy - outer), y1 = ceil_int(cy + outer);
    y0 = y0 < 0 ? 0 : y0;
    y1 = y1 > out->height - 1 ? out->height - 1 : y1;
    uint32_t fill = argb_of(c);
    for (int py = y0; py <= y1; py++) {
        float fy = (float)py + 0.5f - cy, fy2 = fy * fy;
        uint32_t *row = out->pixels + (size_t)py * (size_t)out->pitch;
        int from, to, fill_from = 1, fill_to = 0;
        span(out, cx, outer, fy2, &from, &to);
        if (solid > 0.0f)
            span(out, cx, solid, fy2, &fill_from, &fill_to);
        if (fill_from > fill_to) {
            for (int px = from; px <= to; px++)
                edge_pixel(&row[px], (float)px + 0.5f - cx, fy2, radius, rim, c);
            continue;
        }
        for (int px = from; px < fill_from; px++)
            edge_pixel(&row[px], (float)px + 0.5f - cx, fy2, radius, rim, c);
        for (int px = fill_from; px <= fill_to; px++)
            row[px] = fill;
        for (int px = fill_to + 1; px <= to; px++)
            edge_pixel(&row[px], (float)px + 0.5f - cx, fy2, radius, rim, c);
    }
}

/* The mask of radius step q with the centre at phase (its place within its
 * pixel, in quarters), made on first use. NULL when memory runs out. */
static const disc_mask *mask_for(bp_raster *raster, int q, int phase_x, int phase_y)
{
    disc_mask *m = &raster->masks[q * BP_MASK_PHASES + phase_y * BP_MASK_STEPS + phase_x];
    if (m->size > 0)
        return m;
    float radius = (float)q / BP_MASK_STEPS, rim = radius * BP_RIM_OVER_R;
    float fx = ((float)phase_x + 0.5f) / BP_MASK_STEPS;
    float fy = ((float)phase_y + 0.5f) / BP_MASK_STEPS;
    int reach = (int)ceilf(radius + 0.5f) + 1, size = 2 * reach + 1;
    uint8_t *cells = malloc(2 * (size_t)size * (size_t)size);
    if (!cells)
        return NULL;
    for (int j = 0; j < size; j++)
        for (int i = 0; i < size; i++) {
            float dx = (float)(i - reach) + 0.5f - fx, dy = (float)(j - reach) + 0.5f - fy;
            float d = sqrtf(dx * dx + dy * dy);
            float alpha = clamp01(radius + 0.5f - d), shade = clamp01(radius - d - rim);
            cells[j * size + i] = (uint8_t)(alpha * 255.0f + 0.5f);
            cells[size * size + j * size + i] =
                (uint8_t)(BP_RIM_LEVEL + (255.0f - BP_RIM_LEVEL) * shade + 0.5f);
        }
    *m = (disc_mask){size, reach, cells, cells + (size_t)size * (size_t)size};
    return m;
}

/* A small disc from its mask. false when the mask cannot be made. */
static bool stamp_disc(bp_raster *raster, const bp_pixels *out, float cx, float cy, float radius,
                       SDL_Color c, uint32_t fill)
{
    int q = (int)(radius * BP_MASK_STEPS + 0.5f);
    int px = floor_int(cx), py = floor_int(cy);
    int phase_x = (int)((cx - (float)px) * BP_MASK_STEPS);
    int phase_y = (int)((cy - (float)py) * BP_MASK_STEPS);
    phase_x = phase_x < 0 ? 0 : (phase_x >= BP_MASK_STEPS ? BP_MASK_STEPS - 1 : phase_x);
    phase_y = phase_y < 0 ? 0 : (phase_y >= BP_MASK_STEPS ? BP_MASK_STEPS - 1 : phase_y);
    const disc_mask *m = mask_for(raster, q < 1 ? 1 : q, phase_x, phase_y);
    if (!m)
        return false;
    int x0 = px - m->reach, y0 = py - m->reach;
    int i0 = x0 < 0 ? -x0 : 0, j0 = y0 < 0 ? -y0 : 0;
    int i1 = x0 + m->size > out->width ? out->width - x0 : m->size;
    int j1 = y0 + m->size > out->height ? out->height - y0 : m->size;
    for (int j = j0; j < j1; j++) {
        uint32_t *row = out->pixels + (size_t)(y0 + j) * (size_t)out->pitch;
        const uint8_t *alpha = m->alpha + j * m->size, *level = m->level + j * m->size;
        for (int i = i0; i < i1; i++) {
            uint32_t *pixel = &row[x0 + i];
            if (alpha[i] == 0)
                continue;
            if (alpha[i] == 255 && level[i] == 255)
                *pixel = fill;
            else
                *pixel = blend(c, level[i], *pixel, alpha[i]);
        }
    }
    return true;
}

bp_raster *bp_raster_create(void)
{
    bp_raster *raster = calloc(1, sizeof *raster);
    if (!raster)
        return NULL;
    raster->masks = calloc((size_t)BP_MASK_RADII * BP_MASK_PHASES, sizeof *raster->masks);
    if (!raster->masks) {
        free(raster);
        return NULL;
    }
    return raster;
}

void bp_raster_destroy(bp_raster *raster)
{
    if (!raster)
        return;
    for (size_t k = 0; k < (size_t)BP_MASK_RADII * BP_MASK_PHASES; k++)
        free(raster->masks[k].alpha);
    free(raster->masks);
    free(raster->colours);
    free(raster);
}

/* Every id's colour, worked out once. */
static bool colours_for(bp_raster *raster, uint32_t ids)
{
    if (ids <= raster->colours_count)
        return true;
    if (!bp_reserve((void **)&raster->colours, &raster->colours_capacity, ids,
                    sizeof *raster->colours))
        return false;
    for (uint32_t id = (uint32_t)raster->colours_count; id < ids; id++)
        raster->colours[id] = argb_of(bp_ball_color(id));
    raster->colours_count = ids;
    return true;
}

bool bp_raster_balls(bp_raster *raster, const bp_pixels *out, SDL_Color background,
                     double scale, const bp_world *world, const double *draw_x,
                     const double *draw_y)
{
    if (!colours_for(raster, world->next_id))
        return false;
    uint32_t ground = argb_of(background);
    for (int y = 0; y < out->height; y++) {
        uint32_t *row = out->pixels + (size_t)y * (size_t)out->pitch;
        for (int x = 0; x < out->width; x++)
            row[x] = ground;
    }
    /* In the world's memory order, which the core keeps close to the order
     * in space: in id order every ball landed on other rows of the buffer
     * and other lines of the world's arrays, and 50,000 balls took 64 ms
     * instead of 38 (before the masks). Overlapping balls may then cover
     * each other differently from the id order that SDL2_gfx and the quads
     * keep (render.c); balls touch by their soft edges only, unless they
     * are pushed into each other, as a held ball pushes. */
    for (size_t i = 0; i < world->count; i++) {
        float x = (float)((draw_x ? draw_x[i] : world->x[i]) * scale);
        float y = (float)((draw_y ? draw_y[i] : world->y[i]) * scale);
        float radius = (float)(world->r[i] * scale);
        uint32_t fill = raster->colours[world->id[i]];
        SDL_Color c = {(Uint8)(fill >> 16), (Uint8)(fill >> 8), (Uint8)fill, 255};
        if (radius > BP_MASK_RADIUS_MAX)
            draw_disc(out, x, y, radius, c);
        else if (!stamp_disc(raster, out, x, y, radius, c, fill))
            return false;
    }
    return true;
}
