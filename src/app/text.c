#include "text.h"

#include <SDL2/SDL2_gfxPrimitives.h>
#include <SDL2/SDL2_gfxPrimitives_font.h>
#include <stdlib.h>

#include "program.h"
#include "render.h"

/* Glyphs are 8 px squares, 16 to a row of the atlas, 256 of them. */
#define BP_GLYPH_PX 8
#define BP_ATLAS_COLS 16
#define BP_ATLAS_PX (BP_GLYPH_PX * BP_ATLAS_COLS)

struct bp_text {
    SDL_Texture *atlas;
    SDL_Vertex *vertices;
    int *indices;
    size_t glyphs; /* queued */
    size_t vertex_capacity, index_capacity;
};

/* Every glyph of the font, white where its bits are set. */
static SDL_Texture *make_atlas(SDL_Renderer *renderer)
{
    SDL_Surface *surface = SDL_CreateRGBSurfaceWithFormat(0, BP_ATLAS_PX, BP_ATLAS_PX, 32,
                                                          SDL_PIXELFORMAT_ARGB8888);
    if (!surface)
        return NULL;
    Uint32 *pixels = surface->pixels;
    int pitch = surface->pitch / 4;
    for (int g = 0; g < 256; g++)
        for (int row = 0; row < BP_GLYPH_PX; row++) {
            unsigned char bits = gfxPrimitivesFontdata[g * BP_GLYPH_PX + row];
            int y = (g / BP_ATLAS_COLS) * BP_GLYPH_PX + row;
            for (int col = 0; col < BP_GLYPH_PX; col++) {
                int x = (g % BP_ATLAS_COLS) * BP_GLYPH_PX + col;
                pixels[y * pitch + x] = (bits & (0x80u >> col)) ? 0xffffffffu : 0x00ffffffu;
            }
        }
    return bp_blended_texture(renderer, surface, SDL_ScaleModeNearest);
}

bp_text *bp_text_create(SDL_Renderer *renderer)
{
    bp_text *text = calloc(1, sizeof *text);
    if (!text)
        return NULL;
    text->atlas = make_atlas(renderer);
    if (!text->atlas) {
        free(text);
        return NULL;
    }
    return text;
}

void bp_text_destroy(bp_text *text)
{
    if (!text)
        return;
    SDL_DestroyTexture(text->atlas);
    free(text->vertices);
    free(text->indices);
    free(text);
}

/* Room for this many glyphs in all; false when memory runs out. */
static bool reserve_glyphs(bp_text *text, size_t glyphs)
{
    return bp_reserve((void **)&text->vertices, &text->vertex_capacity, 4 * glyphs,
                      sizeof(SDL_Vertex)) &&
           bp_reserve((void **)&text->indices, &text->index_capacity, 6 * glyphs, sizeof(int));
}

void bp_text_add(bp_text *text, SDL_Renderer *renderer, int x, int y, const char *s,
                 SDL_Color colour)
{
    if (!text) {
        stringRGBA(renderer, (Sint16)x, (Sint16)y, s, colour.r, colour.g, colour.b, colour.a);
        return;
    }
    size_t length = SDL_strlen(s);
    if (length == 0 || !reserve_glyphs(text, text->glyphs + length))
        return;
    const float cell = 1.0f / BP_ATLAS_COLS;
    for (size_t k = 0; k < length; k++) {
        unsigned char g = (unsigned char)s[k];
        float u = (float)(g % BP_ATLAS_COLS) * cell, v = (float)(g / BP_ATLAS_COLS) * cell;
        float left = (float)(x + (int)k * BP_GLYPH_PX), top = (float)y;
        float right = left + BP_GLYPH_PX, bottom = top + BP_GLYPH_PX;
        size_t q = text->glyphs++;
        SDL_Vertex *quad = &text->vertices[4 * q];
        quad[0] = (SDL_Vertex){{left, top}, colour, {u, v}};
        quad[1] = (SDL_Vertex){{right, top}, colour, {u + cell, v}};
        quad[2] = (SDL_Vertex){{right, bottom}, colour, {u + cell, v + cell}};
        quad[3] = (SDL_Vertex){{left, bottom}, colour, {u, v + cell}};
        bp_quad_indices(&text->indices[6 * q], (int)(4 * q));
    }
}

void bp_text_flush(bp_text *text, SDL_Renderer *renderer)
{
    if (!text || text->glyphs == 0)
        return;
    SDL_RenderGeometry(renderer, text->atlas, text->vertices, (int)(4 * text->glyphs),
                       text->indices, (int)(6 * text->glyphs));
    text->glyphs = 0;
}

int bp_text_scale(int out_w, int out_h, int win_w)
{
    int scale = SDL_min(out_w / 640, out_h / 480);
    if (win_w > 0)
        scale = SDL_max(scale, (int)(4.0 * out_w / (3.0 * win_w)));
    return scale > 1 ? scale : 1;
}

int bp_text_scale_of(SDL_Renderer *renderer)
{
    int out_w = 0, out_h = 0, win_w = 0, win_h = 0;
    if (SDL_GetRendererOutputSize(renderer, &out_w, &out_h) != 0)
        return 1;
    SDL_Window *window = SDL_RenderGetWindow(renderer);
    if (window)
        SDL_GetWindowSize(window, &win_w, &win_h);
    return bp_text_scale(out_w, out_h, win_w);
}
