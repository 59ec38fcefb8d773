#include "raster.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "paint.h"
#include "program.h"

/* The rim's brightness out of 255 (look.h). */
#define BP_RIM_LEVEL ((float)BP_LOOK_RIM_LEVEL)
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

/* Most places a frame repairs in the still layer (below); past that it is
 * drawn afresh. */
#define BP_STILL_MAX_REPAIRS 64

/* Pixels [x0, x1) x [y0, y1). */
typedef struct pixel_box {
    int x0, y0, x1, y1;
} pixel_box;

struct bp_raster {
    disc_mask *masks;  /* [radius step][phase], BP_MASK_RADII * BP_MASK_PHASES */
    double mask_scale; /* what they were made for: the scale if below 1, else 1 */
    uint32_t *colours; /* per ball id, ARGB (bp_look_id_colour) */
    size_t colours_count, colours_capacity;
    /* The still layer: the background, the walls and every sleeper, kept
     * from frame to frame, for none of them move. A pile at rest then costs
     * a copy and the few balls awake instead of every ball. */
    uint32_t *still; /* still_w x still_h pixels, pitch still_w */
    size_t still_capacity;
    int still_w, still_h;
    bp_raster_view still_view; /* the part of the arena it shows */
    uint32_t still_ground;
    bool still_valid;
    size_t still_count;   /* balls drawn into it */
    uint8_t *in_still;    /* per id: drawn into it ... */
    double *still_at;     /* ... at x, y, radius, angle, colour (BP_STILL_KEY per id) */
    size_t in_still_capacity, still_at_capacity, ids_known;
    uint64_t still_walls; /* hash of the walls drawn into it */
    pixel_box repairs[BP_STILL_MAX_REPAIRS];
    bool base_whole; /* the last base came from a whole still layer */
};

/* What a sleeper in the still layer was drawn with: x, y, r, angle, colour. */
#define BP_STILL_KEY 5

/* The rim's width in pixels for a disc of this radius (pixels): thin on
 * small balls, which would otherwise be all rim, and at most 2.5 px. */
static inline float rim_of(float radius)
{
    return radius < 3.0f ? radius * 0.28f : fminf(0.6f + 0.08f * radius, 2.5f);
}

/* dst (opaque ARGB) with the colour c at brightness level (0-255) laid
 * over it at alpha (0-255). */
static inline uint32_t blend(uint32_t c, uint32_t level, uint32_t dst, uint32_t alpha)
{
    return bp_over(bp_shade(c, level), dst, alpha);
}

static inline float clamp01(float v)
{
    return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

/* How a disc of radius pixels is shaded. Its edge is the one-pixel ramp
 * of coverage at any scale. At scale 1 and above, a rim rim_of(radius)
 * wide within the edge, brightening to the fill over a pixel inward. Below
 * 1 (a big arena shown small), as the disc drawn at scale 1 would look
 * shrunk: its rim and ramp shrink with it, the fill filling a circle of
 * radius inner, and a pixel is as bright as its share of ink from the fill
 * (else a ball a pixel or two wide, its rim a pixel, shows all rim). */
typedef struct disc_shade {
    float radius, rim;
    bool shrunk;
    float inner; /* shrunk: the fill's radius, at most radius */
    float solid; /* within: fill, fully opaque */
} disc_shade;

static disc_shade shade_of(float radius, double scale)
{
    disc_shade s = {radius, rim_of(radius), false, 0.0f, 0.0f};
    s.solid = radius - s.rim - 1.0f;
    if (scale < 1.0) {
        float full = radius / (float)scale; /* its radius at scale 1 */
        s.shrunk = true;
        s.inner = (full - rim_of(full) - 0.5f) * (float)scale;
        s.solid = fminf(radius, s.inner) - 0.5f;
    }
    return s;
}

/* The brightness (0-255) at distance d from the centre, where the
 * coverage is alpha > 0. */
static inline float level_at(const disc_shade *s, float d, float alpha)
{
    float shade = s->shrunk ? clamp01(s->inner + 0.5f - d) / alpha
                            : clamp01(s->radius - d - s->rim);
    return BP_RIM_LEVEL + (255.0f - BP_RIM_LEVEL) * shade;
}

/* The soft edge's pixel at px on a row: the colour faded by the distance
 * from the centre, over what is there. */
static inline void edge_pixel(uint32_t *pixel, float fx, float fy2, const disc_shade *s,
                              uint32_t c)
{
    float d = sqrtf(fx * fx + fy2);
    float alpha = clamp01(s->radius + 0.5f - d);
    if (alpha <= 0.0f)
        return;
    float level = level_at(s, d, alpha);
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
static void draw_disc(const bp_pixels *out, float cx, float cy, float radius, double scale,
                      uint32_t c)
{
    disc_shade shade = shade_of(radius, scale);
    float outer = radius + 0.5f;  /* beyond: nothing */
    float solid = shade.solid;    /* within: fill, fully opaque */
    int y0 = floor_int(cy - outer), y1 = ceil_int(cy + outer);
    y0 = y0 < 0 ? 0 : y0;
    y1 = y1 > out->height - 1 ? out->height - 1 : y1;
    uint32_t fill = c | 0xff000000u;
    for (int py = y0; py <= y1; py++) {
        float fy = (float)py + 0.5f - cy, fy2 = fy * fy;
        uint32_t *row = out->pixels + (size_t)py * (size_t)out->pitch;
        int from, to, fill_from = 1, fill_to = 0;
        span(out, cx, outer, fy2, &from, &to);
        if (solid > 0.0f)
            span(out, cx, solid, fy2, &fill_from, &fill_to);
        if (fill_from > fill_to) {
            for (int px = from; px <= to; px++)
                edge_pixel(&row[px], (float)px + 0.5f - cx, fy2, &shade, c);
            continue;
        }
        for (int px = from; px < fill_from; px++)
            edge_pixel(&row[px], (float)px + 0.5f - cx, fy2, &shade, c);
        for (int px = fill_from; px <= fill_to; px++)
            row[px] = fill;
        for (int px = fill_to + 1; px <= to; px++)
            edge_pixel(&row[px], (float)px + 0.5f - cx, fy2, &shade, c);
    }
}

/* The mask of radius step q with the centre at phase (its place within its
 * pixel, in quarters), made on first use. NULL when memory runs out. */
static const disc_mask *mask_for(bp_raster *raster, int q, int phase_x, int phase_y)
{
    disc_mask *m = &raster->masks[q * BP_MASK_PHASES + phase_y * BP_MASK_STEPS + phase_x];
    if (m->size > 0)
        return m;
    float radius = (float)q / BP_MASK_STEPS;
    disc_shade shade = shade_of(radius, raster->mask_scale);
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
            float alpha = clamp01(radius + 0.5f - d);
            float level = alpha > 0.0f ? level_at(&shade, d, alpha) : BP_RIM_LEVEL;
            cells[j * size + i] = (uint8_t)(alpha * 255.0f + 0.5f);
            cells[size * size + j * size + i] = (uint8_t)(level + 0.5f);
        }
    *m = (disc_mask){size, reach, cells, cells + (size_t)size * (size_t)size};
    return m;
}

/* The masks for drawing at scale: made anew when the scale was below 1
 * and changed (a shrunk disc's shading depends on it, shade_of), or went
 * from below 1 to 1 or above. */
static void masks_at(bp_raster *raster, double scale)
{
    double wanted = scale < 1.0 ? scale : 1.0;
    if (raster->mask_scale == wanted)
        return;
    for (size_t k = 0; k < (size_t)BP_MASK_RADII * BP_MASK_PHASES; k++) {
        free(raster->masks[k].alpha);
        raster->masks[k] = (disc_mask){0};
    }
    raster->mask_scale = wanted;
}

/* A small disc from its mask. false when the mask cannot be made. */
static bool stamp_disc(bp_raster *raster, const bp_pixels *out, float cx, float cy, float radius,
                       double scale, uint32_t c)
{
    uint32_t fill = c | 0xff000000u;
    masks_at(raster, scale);
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
    raster->mask_scale = 1.0;
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
    free(raster->still);
    free(raster->in_still);
    free(raster->still_at);
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
        raster->colours[id] = bp_look_id_colour(id);
    raster->colours_count = ids;
    return true;
}

static void fill_box(const bp_pixels *out, pixel_box b, uint32_t ground)
{
    for (int y = b.y0; y < b.y1; y++) {
        uint32_t *row = out->pixels + (size_t)y * (size_t)out->pitch;
        for (int x = b.x0; x < b.x1; x++)
            row[x] = ground;
    }
}

/* Ball i's colour under the look. */
static uint32_t colour_of(const bp_raster *raster, const bp_look *look, const bp_world *world,
                          size_t i)
{
    return bp_look_ball_colour(look, world, i, raster->colours[world->id[i]]);
}

/* Ball i at (x, y) in arena px, drawn into out, whose first pixel is the
 * pixel (ox, oy) of a buffer showing the part view says: a part of a
 * bigger buffer, which clips it. A mark from the centre toward the rim
 * turns with the ball's angle. */
static bool draw_ball(bp_raster *raster, const bp_pixels *out, const bp_world *world, size_t i,
                      double x, double y, const bp_raster_view *view, int ox, int oy, uint32_t c)
{
    double scale = view->scale;
    /* Rounded to float first, as a whole drawing does: taking a whole number
     * of pixels off is then exact, and the disc lands on the same quarter
     * pixel (rounding x scale - ox instead moved balls far from the origin,
     * and left seams at the edge of a repaired place). */
    float cx = (float)((x - view->x) * scale) - (float)ox;
    float cy = (float)((y - view->y) * scale) - (float)oy;
    float radius = (float)(world->r[i] * scale);
    /* Shrunk (a big arena fit to a small window), a ball is at least a
     * pixel across: a crowd shown small still shows every ball. At scale 1
     * and above, as it is (the --png frames). */
    if (scale < 1.0 && radius < BP_RASTER_MIN_RADIUS)
        radius = BP_RASTER_MIN_RADIUS;
    /* Wholly outside the buffer (most balls, in a zoomed window): it would
     * touch no pixel, disc (radius + 0.5) nor mark (within the disc). */
    float reach = radius + 2.0f;
    if (cx + reach < 0.0f || cy + reach < 0.0f || cx - reach > (float)out->width ||
        cy - reach > (float)out->height)
        return true;
    if (radius <= BP_MASK_RADIUS_MAX) {
        if (!stamp_disc(raster, out, cx, cy, radius, scale, c))
            return false;
    } else {
        draw_disc(out, cx, cy, radius, scale, c);
    }
    /* A hand from a quarter to three quarters of the radius: off the
     * centre, so the turning reads even on a small ball. Below 2.5 px a
     * mark would only blur the disc. Its colour is the rim's, the ball's
     * own darkened, as is all of the disc. */
    if (radius >= 2.5f) {
        float width = fmaxf(0.5f, radius * 0.09f);
        float ux = (float)cos(world->angle[i]), uy = (float)sin(world->angle[i]);
        bp_paint_capsule(out, cx + ux * radius * 0.25f, cy + uy * radius * 0.25f,
                         cx + ux * radius * 0.72f, cy + uy * radius * 0.72f, width,
                         bp_shade(c, BP_LOOK_RIM_LEVEL), 1.0f);
    }
    return true;
}

/* The walls drawn into out, a part of the picture whose first pixel is the
 * picture's (ox, oy), the picture showing the part view says. At least a
 * pixel wide, so a thin wall still shows. */
static void draw_walls(const bp_pixels *out, const bp_world *world, const bp_raster_view *view,
                       int ox, int oy)
{
    double scale = view->scale;
    for (size_t k = 0; k < world->wall_count; k++) {
        const bp_wall *w = &world->walls[k];
        float r = (float)(w->r * scale);
        bp_paint_capsule(out, (float)((w->x1 - view->x) * scale) - (float)ox,
                         (float)((w->y1 - view->y) * scale) - (float)oy,
                         (float)((w->x2 - view->x) * scale) - (float)ox,
                         (float)((w->y2 - view->y) * scale) - (float)oy, r < 0.5f ? 0.5f : r,
                         BP_LOOK_WALL, 1.0f);
    }
}

/* FNV-1a over the walls: the still layer holds them, and a wall moved or
 * gone must redraw it. */
static uint64_t walls_hash(const bp_world *world)
{
    uint64_t h = 1469598103934665603ull ^ world->wall_count;
    const unsigned char *bytes = (const unsigned char *)world->walls;
    for (size_t k = 0; k < world->wall_count * sizeof *world->walls; k++)
        h = (h ^ bytes[k]) * 1099511628211ull;
    return h;
}

/* The pixels a ball at (x, y) of radius r (arena px) may touch, within
 * w x h showing the part view says. */
static pixel_box box_of(double x, double y, double r, const bp_raster_view *view, int w, int h)
{
    double scale = view->scale, reach = r * scale + 2.0;
    double px = (x - view->x) * scale, py = (y - view->y) * scale;
    int x0 = (int)floor(px - reach), y0 = (int)floor(py - reach);
    int x1 = (int)ceil(px + reach) + 1, y1 = (int)ceil(py + reach) + 1;
    return (pixel_box){x0 < 0 ? 0 : x0, y0 < 0 ? 0 : y0, x1 > w ? w : x1, y1 > h ? h : y1};
}

static bool boxes_meet(pixel_box a, pixel_box b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

static pixel_box box_around(pixel_box a, pixel_box b)
{
    return (pixel_box){a.x0 < b.x0 ? a.x0 : b.x0, a.y0 < b.y0 ? a.y0 : b.y0,
                       a.x1 > b.x1 ? a.x1 : b.x1, a.y1 > b.y1 ? a.y1 : b.y1};
}

/* Merges boxes that share pixels until none do; returns how many are left.
 * A ball is drawn again once in each box it meets: where two boxes shared
 * pixels, its soft edge was blended in twice. */
static int merge_boxes(pixel_box *boxes, int count)
{
    for (bool merged = true; merged;) {
        merged = false;
        for (int i = 0; i < count; i++)
            for (int j = i + 1; j < count; j++)
                if (boxes_meet(boxes[i], boxes[j])) {
                    boxes[i] = box_around(boxes[i], boxes[j]);
                    boxes[j--] = boxes[--count];
                    merged = true;
                }
    }
    return count;
}

static bool reserve_still(bp_raster *raster, size_t pixels, size_t ids)
{
    if (!bp_reserve((void **)&raster->still, &raster->still_capacity, pixels,
                    sizeof *raster->still) ||
        !bp_reserve((void **)&raster->in_still, &raster->in_still_capacity, ids + 1, 1) ||
        !bp_reserve((void **)&raster->still_at, &raster->still_at_capacity,
                    BP_STILL_KEY * (ids + 1),
                    sizeof *raster->still_at))
        return false;
    if (ids > raster->ids_known) {
        memset(raster->in_still + raster->ids_known, 0, ids - raster->ids_known);
        raster->ids_known = ids;
    }
    return true;
}

/* Takes out of the still layer every ball in it that woke, moved or is no
 * longer there, and lists the places to repair. Returns how many places,
 * or -1 when it is quicker to draw the layer afresh. */
static int take_out_changed(bp_raster *raster, const bp_world *world, const bp_pixels *still,
                            const bp_look *look)
{
    int repairs = 0;
    size_t kept = 0;
    for (size_t i = 0; i < world->count; i++) {
        uint32_t id = world->id[i];
        if (!raster->in_still[id])
            continue;
        const double *at = &raster->still_at[BP_STILL_KEY * (size_t)id];
        if ((world->flags[i] & BP_BALL_ASLEEP) && at[0] == world->x[i] && at[1] == world->y[i] &&
            at[2] == world->r[i] && at[3] == world->angle[i] &&
            at[4] == (double)colour_of(raster, look, world, i)) {
            kept++;
            continue;
        }
        if (repairs == BP_STILL_MAX_REPAIRS)
            return -1;
        raster->repairs[repairs++] =
            box_of(at[0], at[1], at[2], &raster->still_view, still->width, still->height);
        raster->in_still[id] = 0;
    }
    /* Balls in the layer that were not met have gone from the world. */
    if (kept + (size_t)repairs != raster->still_count)
        return -1;
    raster->still_count = kept;
    return repairs;
}

/* Brings the still layer up to date with the world's sleepers. false when
 * memory runs out. */
static bool update_still(bp_raster *raster, int w, int h, uint32_t ground,
                         const bp_raster_view *view, const bp_world *world, const bp_look *look)
{
    uint64_t walls = walls_hash(world);
    if (!reserve_still(raster, (size_t)w * (size_t)h, world->next_id))
        return false;
    bp_pixels still = {raster->still, w, h, w};
    bool same_frame = raster->still_valid && raster->still_w == w && raster->still_h == h &&
                      raster->still_view.scale == view->scale &&
                      raster->still_view.x == view->x && raster->still_view.y == view->y &&
                      raster->still_ground == ground &&
                      raster->still_walls == walls;
    int repairs = same_frame ? take_out_changed(raster, world, &still, look) : -1;
    raster->still_w = w;
    raster->still_h = h;
    raster->still_view = *view;
    raster->still_ground = ground;
    raster->still_walls = walls;
    raster->still_valid = false; /* until it is whole again */
    if (repairs < 0) {
        fill_box(&still, (pixel_box){0, 0, w, h}, ground);
        draw_walls(&still, world, view, 0, 0);
        memset(raster->in_still, 0, raster->ids_known);
        raster->still_count = 0;
        repairs = 0;
    }
    repairs = merge_boxes(raster->repairs, repairs);
    pixel_box all = {w, h, 0, 0}; /* around every repaired place */
    for (int k = 0; k < repairs; k++) {
        pixel_box b = raster->repairs[k];
        fill_box(&still, b, ground);
        bp_pixels part = {still.pixels + (size_t)b.y0 * (size_t)w + (size_t)b.x0, b.x1 - b.x0,
                          b.y1 - b.y0, w};
        draw_walls(&part, world, view, b.x0, b.y0);
        all = box_around(all, b);
    }
    /* The balls still in the layer around a repaired place, drawn again
     * within it alone: outside it they are already there. */
    for (size_t i = 0; i < world->count && repairs > 0; i++) {
        if (!raster->in_still[world->id[i]])
            continue;
        pixel_box ball = box_of(world->x[i], world->y[i], world->r[i], view, w, h);
        if (!boxes_meet(ball, all))
            continue;
        for (int k = 0; k < repairs; k++) {
            pixel_box b = raster->repairs[k];
            if (!boxes_meet(ball, b))
                continue;
            bp_pixels part = {still.pixels + (size_t)b.y0 * (size_t)w + (size_t)b.x0,
                              b.x1 - b.x0, b.y1 - b.y0, w};
            if (!draw_ball(raster, &part, world, i, world->x[i], world->y[i], view, b.x0, b.y0,
                           (uint32_t)raster->still_at[BP_STILL_KEY * (size_t)world->id[i] + 4]))
                return false;
        }
    }
    for (size_t i = 0; i < world->count; i++) {
        uint32_t id = world->id[i];
        if (!(world->flags[i] & BP_BALL_ASLEEP) || raster->in_still[id])
            continue;
        uint32_t c = colour_of(raster, look, world, i);
        if (!draw_ball(raster, &still, world, i, world->x[i], world->y[i], view, 0, 0, c))
            return false;
        raster->in_still[id] = 1;
        double *at = &raster->still_at[BP_STILL_KEY * (size_t)id];
        at[0] = world->x[i];
        at[1] = world->y[i];
        at[2] = world->r[i];
        at[3] = world->angle[i];
        at[4] = (double)c;
        raster->still_count++;
    }
    raster->still_valid = true;
    return true;
}

bool bp_raster_base(bp_raster *raster, const bp_pixels *out, bp_raster_view view,
                    const bp_world *world, const bp_look *look)
{
    if (!colours_for(raster, world->next_id))
        return false;
    uint32_t ground = BP_LOOK_BACKGROUND;
    raster->base_whole =
        update_still(raster, out->width, out->height, ground, &view, world, look);
    if (raster->base_whole) {
        for (int y = 0; y < out->height; y++)
            memcpy(out->pixels + (size_t)y * (size_t)out->pitch,
                   raster->still + (size_t)y * (size_t)out->width,
                   (size_t)out->width * sizeof(uint32_t));
        return true;
    }
    fill_box(out, (pixel_box){0, 0, out->width, out->height}, ground);
    draw_walls(out, world, &view, 0, 0);
    return true;
}

bool bp_raster_awake(bp_raster *raster, const bp_pixels *out, bp_raster_view view,
                     const bp_world *world, const double *draw_x, const double *draw_y,
                     const bp_look *look)
{
    if (!colours_for(raster, world->next_id))
        return false;
    /* Sleepers lie in the layer; the balls awake go over it, interpolated.
     * In the world's memory order, which the core keeps close to the order
     * in space: in id order every ball lands on other rows of the buffer
     * and other lines of the world's arrays. Overlapping balls may then cover
     * each other in another order than their ids; balls touch by their soft
     * edges only, unless they are pushed into each other, as a held ball
     * pushes. */
    bool still = raster->base_whole;
    for (size_t i = 0; i < world->count; i++) {
        if (still && raster->in_still[world->id[i]])
            continue;
        double x = draw_x ? draw_x[i] : world->x[i], y = draw_y ? draw_y[i] : world->y[i];
        if (!draw_ball(raster, out, world, i, x, y, &view, 0, 0,
                       colour_of(raster, look, world, i)))
            return false;
    }
    return true;
}

bool bp_raster_balls(bp_raster *raster, const bp_pixels *out, double scale,
                     const bp_world *world, const double *draw_x, const double *draw_y,
                     const bp_look *look)
{
    bp_raster_view whole = {scale, 0.0, 0.0};
    return bp_raster_base(raster, out, whole, world, look) &&
           bp_raster_awake(raster, out, whole, world, draw_x, draw_y, look);
}
