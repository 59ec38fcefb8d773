#include "render.h"

#include <math.h>
#include <stdlib.h>

struct bp_render {
    bp_picture *picture;
    SDL_Texture *layer; /* layer_w x layer_h, streaming */
    int layer_w, layer_h;
};

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

bp_render *bp_render_create(void)
{
    bp_render *render = calloc(1, sizeof *render);
    if (!render)
        return NULL;
    render->picture = bp_picture_create();
    if (!render->picture) {
        free(render);
        return NULL;
    }
    return render;
}

void bp_render_destroy(bp_render *render)
{
    if (!render)
        return;
    if (render->layer)
        SDL_DestroyTexture(render->layer);
    bp_picture_destroy(render->picture);
    free(render);
}

/* The layer texture at w x h pixels, made anew when the size changed. */
static SDL_Texture *layer_of(SDL_Renderer *renderer, bp_render *render, int w, int h)
{
    if (render->layer && render->layer_w == w && render->layer_h == h)
        return render->layer;
    if (render->layer)
        SDL_DestroyTexture(render->layer);
    render->layer = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888,
                                      SDL_TEXTUREACCESS_STREAMING, w, h);
    /* Opaque: copied as it is, not blended over the background. */
    if (render->layer)
        SDL_SetTextureBlendMode(render->layer, SDL_BLENDMODE_NONE);
    render->layer_w = w;
    render->layer_h = h;
    return render->layer;
}

bool bp_render_world(SDL_Renderer *renderer, bp_render *render, const bp_world *world,
                     const double *draw_x, const double *draw_y, const bp_look *look,
                     const bp_picture_extras *extras)
{
    float scale_x, scale_y;
    SDL_RenderGetScale(renderer, &scale_x, &scale_y);
    double scale = scale_x > 0.0f ? scale_x : 1.0;
    double w = ceil(world->params.width * scale), h = ceil(world->params.height * scale);
    if (!(w >= 1.0 && h >= 1.0 && w * h <= 64.0 * 1024.0 * 1024.0))
        return false;
    SDL_Texture *layer = layer_of(renderer, render, (int)w, (int)h);
    void *pixels;
    int pitch;
    if (!layer || SDL_LockTexture(layer, NULL, &pixels, &pitch) != 0)
        return false;
    bp_pixels out = {pixels, (int)w, (int)h, pitch / 4};
    bool drawn = bp_picture_draw(render->picture, &out, scale, world, draw_x, draw_y, look,
                                 extras);
    SDL_UnlockTexture(layer);
    SDL_Rect arena = {0, 0, (int)ceil(world->params.width), (int)ceil(world->params.height)};
    return SDL_RenderCopy(renderer, layer, NULL, &arena) == 0 && drawn;
}
