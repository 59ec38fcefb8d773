#include "render.h"

#include <SDL2/SDL2_gfxPrimitives.h>
#include <math.h>
#include <stdlib.h>

#include "raster.h"

/* The sprite's size, px: big enough for the largest balls people draw in
 * crowds, scaled down smoothly for the small ones. */
#define BP_SPRITE_SIZE 64

/* Two ways to draw a crowd: quads of the sprite (one SDL_RenderGeometry
 * call), or the balls written into a buffer on the CPU (raster.h) and drawn
 * as one texture. Which is faster depends on the renderer: a GPU draws the
 * quads in no time, a software renderer spends a microsecond on each. So
 * the window times both now and then (bp_ball_batch_frame_time) and keeps
 * the faster; without such reports, as for the PNG frames, quads it is. */
typedef enum draw_way { BP_DRAW_QUADS, BP_DRAW_RASTER, BP_DRAW_WAYS } draw_way;

/* Frames each way is timed for in a trial (the fastest counts), and frames
 * between trials. */
#define BP_TRIAL_FRAMES 4
#define BP_FRAMES_BETWEEN_TRIALS 600

struct bp_ball_batch {
    SDL_Texture *sprite;
    SDL_Vertex *vertices;
    int *indices;
    size_t capacity; /* balls */
    bp_raster *raster;  /* BP_DRAW_RASTER's discs ... */
    SDL_Texture *layer; /* ... and texture, layer_w x layer_h */
    int layer_w, layer_h;
    bool raster_failed; /* the renderer would not take it: quads only */
    draw_way way;       /* how crowds are drawn now */
    bool drew_crowd;    /* the last frame drew the balls as a batch */
    int trying;         /* frames left in this trial of way; 0: not on trial */
    double fastest[BP_DRAW_WAYS]; /* ms a frame, in this trial */
    int since_trial;    /* frames */
};

SDL_Color bp_ball_color(uint32_t id)
{
    /* Golden-ratio hue steps keep neighbouring ids far apart in colour. */
    double hue = fmod((double)id * 0.618033988749895, 1.0) * 6.0;
    double s = 0.62, v = 0.95;
    int sector = (int)hue;
    double f = hue - sector;
    double p = v * (1.0 - s), q = v * (1.0 - s * f), t = v * (1.0 - s * (1.0 - f));
    double rgb[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
    double *c = rgb[sector % 6];
    return (SDL_Color){(Uint8)(c[0] * 255.0), (Uint8)(c[1] * 255.0), (Uint8)(c[2] * 255.0), 255};
}

/* SDL2_gfx takes 16-bit coordinates. */
static Sint16 to_screen(double v)
{
    if (v < -32000.0)
        return -32000;
    if (v > 32000.0)
        return 32000;
    return (Sint16)lround(v);
}

static void draw_wall(SDL_Renderer *renderer, const bp_wall *w)
{
    const Uint8 c = 200, a = 255;
    Sint16 x1 = to_screen(w->x1), y1 = to_screen(w->y1);
    Sint16 x2 = to_screen(w->x2), y2 = to_screen(w->y2);
    int width = (int)lround(2.0 * w->r);
    if (width <= 1) {
        aalineRGBA(renderer, x1, y1, x2, y2, c, c, c, a);
        return;
    }
    /* A zero-length wall is a peg: only its round caps, no square body. */
    if (x1 != x2 || y1 != y2)
        thickLineRGBA(renderer, x1, y1, x2, y2, (Uint8)(width > 255 ? 255 : width), c, c, c, a);
    Sint16 rad = to_screen(w->r);
    aacircleRGBA(renderer, x1, y1, rad, c, c, c, a);
    aacircleRGBA(renderer, x2, y2, rad, c, c, c, a);
    filledCircleRGBA(renderer, x1, y1, rad, c, c, c, a);
    filledCircleRGBA(renderer, x2, y2, rad, c, c, c, a);
}

/* A white disc with a darker rim and an anti-aliased edge in alpha: drawn
 * with a ball's colour as vertex colour it looks like the SDL2_gfx ball (the
 * rim comes out at a third of the colour, as there). */
static SDL_Texture *make_sprite(SDL_Renderer *renderer)
{
    SDL_Surface *surface = SDL_CreateRGBSurfaceWithFormat(0, BP_SPRITE_SIZE, BP_SPRITE_SIZE, 32,
                                                          SDL_PIXELFORMAT_ARGB8888);
    if (!surface)
        return NULL;
    const double radius = BP_SPRITE_SIZE / 2.0;
    const double rim = radius * 2.0 / 16.0; /* 2 px on a 16 px ball */
    Uint32 *pixels = surface->pixels;
    int pitch = surface->pitch / 4;
    for (int y = 0; y < BP_SPRITE_SIZE; y++)
        for (int x = 0; x < BP_SPRITE_SIZE; x++) {
            double d = hypot(x + 0.5 - radius, y + 0.5 - radius);
            double alpha = radius - d + 0.5; /* one texel of smooth edge */
            alpha = alpha < 0.0 ? 0.0 : (alpha > 1.0 ? 1.0 : alpha);
            double shade = radius - d - rim; /* into the fill past the rim */
            shade = shade < 0.0 ? 0.0 : (shade > 1.0 ? 1.0 : shade);
            Uint8 level = (Uint8)lround(85.0 + (255.0 - 85.0) * shade);
            Uint8 a = (Uint8)lround(alpha * 255.0);
            pixels[y * pitch + x] = ((Uint32)a << 24) | ((Uint32)level << 16) |
                                    ((Uint32)level << 8) | (Uint32)level;
        }
    return bp_blended_texture(renderer, surface, SDL_ScaleModeLinear);
}

SDL_Texture *bp_blended_texture(SDL_Renderer *renderer, SDL_Surface *surface, SDL_ScaleMode mode)
{
    SDL_Texture *texture = SDL_CreateTextureFromSurface(renderer, surface);
    SDL_FreeSurface(surface);
    if (texture) {
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND);
        SDL_SetTextureScaleMode(texture, mode);
    }
    return texture;
}

void bp_quad_indices(int *indices, int first_vertex)
{
    const int corners[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < 6; k++)
        indices[k] = first_vertex + corners[k];
}

bp_ball_batch *bp_ball_batch_create(SDL_Renderer *renderer)
{
    bp_ball_batch *batch = calloc(1, sizeof *batch);
    if (!batch)
        return NULL;
    batch->sprite = make_sprite(renderer);
    if (!batch->sprite) {
        free(batch);
        return NULL;
    }
    batch->raster = bp_raster_create();
    batch->raster_failed = batch->raster == NULL;
    batch->way = BP_DRAW_QUADS;
    batch->since_trial = BP_FRAMES_BETWEEN_TRIALS; /* the first report starts one */
    return batch;
}

void bp_ball_batch_destroy(bp_ball_batch *batch)
{
    if (!batch)
        return;
    SDL_DestroyTexture(batch->sprite);
    if (batch->layer)
        SDL_DestroyTexture(batch->layer);
    bp_raster_destroy(batch->raster);
    free(batch->vertices);
    free(batch->indices);
    free(batch);
}

static bool reserve_batch(bp_ball_batch *batch, size_t balls)
{
    if (balls <= batch->capacity)
        return true;
    size_t capacity = batch->capacity ? batch->capacity : 4096;
    while (capacity < balls)
        capacity *= 2;
    SDL_Vertex *vertices = realloc(batch->vertices, capacity * 4 * sizeof *vertices);
    if (!vertices)
        return false;
    batch->vertices = vertices;
    int *indices = realloc(batch->indices, capacity * 6 * sizeof *indices);
    if (!indices)
        return false;
    batch->indices = indices;
    /* The pattern never changes. */
    for (size_t q = batch->capacity; q < capacity; q++)
        bp_quad_indices(&indices[6 * q], (int)(4 * q));
    batch->capacity = capacity;
    return true;
}

/* All balls in one call, in id order like the one-by-one path. false when
 * the batch cannot be drawn (the caller falls back). */
static bool draw_batched(SDL_Renderer *renderer, bp_ball_batch *batch, const bp_world *world,
                         const double *draw_x, const double *draw_y)
{
    if (!reserve_batch(batch, world->count) || world->count > (size_t)INT32_MAX / 6)
        return false;
    size_t q = 0;
    for (uint32_t id = 0; id < world->next_id; id++) {
        int64_t index = bp_world_index_of(world, id);
        if (index < 0)
            continue;
        size_t i = (size_t)index;
        float x = (float)(draw_x ? draw_x[i] : world->x[i]);
        float y = (float)(draw_y ? draw_y[i] : world->y[i]);
        float r = (float)world->r[i];
        SDL_Color c = bp_ball_color(id);
        SDL_Vertex *v = &batch->vertices[4 * q++];
        v[0] = (SDL_Vertex){{x - r, y - r}, c, {0.0f, 0.0f}};
        v[1] = (SDL_Vertex){{x + r, y - r}, c, {1.0f, 0.0f}};
        v[2] = (SDL_Vertex){{x + r, y + r}, c, {1.0f, 1.0f}};
        v[3] = (SDL_Vertex){{x - r, y + r}, c, {0.0f, 1.0f}};
    }
    return SDL_RenderGeometry(renderer, batch->sprite, batch->vertices, (int)(4 * q),
                              batch->indices, (int)(6 * q)) == 0;
}

/* The layer texture at w x h pixels, made anew when the size changed. */
static SDL_Texture *layer_of(SDL_Renderer *renderer, bp_ball_batch *batch, int w, int h)
{
    if (batch->layer && batch->layer_w == w && batch->layer_h == h)
        return batch->layer;
    if (batch->layer)
        SDL_DestroyTexture(batch->layer);
    batch->layer = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888,
                                     SDL_TEXTUREACCESS_STREAMING, w, h);
    /* Opaque: copied as it is, not blended over the background. */
    if (batch->layer)
        SDL_SetTextureBlendMode(batch->layer, SDL_BLENDMODE_NONE);
    batch->layer_w = w;
    batch->layer_h = h;
    return batch->layer;
}

/* The background and every ball, written on the CPU at the renderer's
 * scale and drawn as one texture. false when the renderer will not take
 * it (the caller then draws quads from now on). */
static bool draw_rastered(SDL_Renderer *renderer, bp_ball_batch *batch, const bp_world *world,
                          const double *draw_x, const double *draw_y, SDL_Color background)
{
    float scale_x, scale_y;
    SDL_RenderGetScale(renderer, &scale_x, &scale_y);
    double scale = scale_x > 0.0f ? scale_x : 1.0;
    double w = ceil(world->params.width * scale), h = ceil(world->params.height * scale);
    if (!(w >= 1.0 && h >= 1.0 && w * h <= 64.0 * 1024.0 * 1024.0))
        return false;
    SDL_Texture *layer = layer_of(renderer, batch, (int)w, (int)h);
    void *pixels;
    int pitch;
    if (!layer || SDL_LockTexture(layer, NULL, &pixels, &pitch) != 0)
        return false;
    bp_pixels out = {pixels, (int)w, (int)h, pitch / 4};
    bool drawn = bp_raster_balls(batch->raster, &out, background, scale, world, draw_x, draw_y);
    SDL_UnlockTexture(layer);
    SDL_Rect arena = {0, 0, (int)ceil(world->params.width), (int)ceil(world->params.height)};
    return drawn && SDL_RenderCopy(renderer, layer, NULL, &arena) == 0;
}

void bp_ball_batch_frame_time(bp_ball_batch *batch, double draw_ms)
{
    if (!batch || !batch->drew_crowd)
        return;
    if (batch->trying > 0) {
        double *fastest = &batch->fastest[batch->way];
        *fastest = draw_ms < *fastest ? draw_ms : *fastest;
        if (--batch->trying > 0)
            return;
        if (batch->way == BP_DRAW_QUADS && !batch->raster_failed) {
            batch->way = BP_DRAW_RASTER;
            batch->trying = BP_TRIAL_FRAMES;
            return;
        }
        bool raster = !batch->raster_failed &&
                      batch->fastest[BP_DRAW_RASTER] < batch->fastest[BP_DRAW_QUADS];
        batch->way = raster ? BP_DRAW_RASTER : BP_DRAW_QUADS;
        batch->since_trial = 0;
        return;
    }
    if (++batch->since_trial < BP_FRAMES_BETWEEN_TRIALS || batch->raster_failed)
        return;
    batch->way = BP_DRAW_QUADS;
    batch->trying = BP_TRIAL_FRAMES;
    batch->fastest[BP_DRAW_QUADS] = batch->fastest[BP_DRAW_RASTER] = INFINITY;
}

void bp_render_world(SDL_Renderer *renderer, bp_ball_batch *batch, const bp_world *world,
                     const double *draw_x, const double *draw_y)
{
    const SDL_Color background = {22, 24, 30, 255};
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(renderer, background.r, background.g, background.b, 255);
    SDL_RenderClear(renderer);
    bool crowd = batch && world->count >= BP_RENDER_BATCH_MIN_BALLS;
    if (batch)
        batch->drew_crowd = false;
    if (crowd && batch->way == BP_DRAW_RASTER) {
        if (draw_rastered(renderer, batch, world, draw_x, draw_y, background)) {
            /* Over the balls: they never reach into a wall, so only the
             * walls' soft edges tell. */
            for (size_t k = 0; k < world->wall_count; k++)
                draw_wall(renderer, &world->walls[k]);
            batch->drew_crowd = true;
            return;
        }
        batch->raster_failed = true;
        batch->way = BP_DRAW_QUADS;
    }
    for (size_t k = 0; k < world->wall_count; k++)
        draw_wall(renderer, &world->walls[k]);
    if (crowd && draw_batched(renderer, batch, world, draw_x, draw_y)) {
        batch->drew_crowd = true;
        return;
    }
    /* In id order, so the ball drawn on top is the one bp_query_point picks,
     * however the core orders its arrays. */
    for (uint32_t id = 0; id < world->next_id; id++) {
        int64_t index = bp_world_index_of(world, id);
        if (index < 0)
            continue;
        size_t i = (size_t)index;
        double x = draw_x ? draw_x[i] : world->x[i];
        double y = draw_y ? draw_y[i] : world->y[i];
        Sint16 sx = to_screen(x), sy = to_screen(y);
        Sint16 rad = to_screen(world->r[i]);
        SDL_Color fill = bp_ball_color(world->id[i]);
        Uint8 rim_r = (Uint8)(fill.r / 3), rim_g = (Uint8)(fill.g / 3), rim_b = (Uint8)(fill.b / 3);
        /* A dark rim keeps touching balls apart to the eye; its anti-aliased
         * outer edge smooths the silhouette. */
        if (rad >= 4) {
            filledCircleRGBA(renderer, sx, sy, rad, rim_r, rim_g, rim_b, 255);
            filledCircleRGBA(renderer, sx, sy, (Sint16)(rad - 2), fill.r, fill.g, fill.b, 255);
        } else {
            filledCircleRGBA(renderer, sx, sy, rad, fill.r, fill.g, fill.b, 255);
        }
        aacircleRGBA(renderer, sx, sy, rad, rim_r, rim_g, rim_b, 255);
    }
}
