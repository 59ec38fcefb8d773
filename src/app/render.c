#include "render.h"

#include <math.h>
#include <stdlib.h>

struct bp_render {
    bp_picture *picture;
    SDL_Texture *layer; /* layer_w x layer_h, streaming */
    int layer_w, layer_h;
    bool layer_whole;   /* holds a whole picture, drawn at layer_scale ... */
    double layer_scale;
    bp_camera layer_camera; /* ... through this camera */
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
    render->layer_whole = false;
    return render->layer;
}

/* The renderer's scale, and the layer's size in pixels at it for the
 * arena: the logical area's, which is the window's (letterboxed), whatever
 * the zoom. false when there is no sensible layer. */
static bool layer_size(SDL_Renderer *renderer, const bp_world *world, double *scale, int *w,
                       int *h)
{
    float scale_x, scale_y;
    SDL_RenderGetScale(renderer, &scale_x, &scale_y);
    *scale = scale_x > 0.0f ? scale_x : 1.0;
    double fw = ceil(world->params.width * *scale), fh = ceil(world->params.height * *scale);
    if (!(fw >= 1.0 && fh >= 1.0 && fw * fh <= 64.0 * 1024.0 * 1024.0))
        return false;
    *w = (int)fw;
    *h = (int)fh;
    return true;
}

/* The layer copied over the arena, in arena coordinates. */
static bool copy_layer(SDL_Renderer *renderer, const bp_render *render, const bp_world *world)
{
    SDL_Rect arena = {0, 0, (int)ceil(world->params.width), (int)ceil(world->params.height)};
    return SDL_RenderCopy(renderer, render->layer, NULL, &arena) == 0;
}

/* The camera to draw through: cam, or the whole arena. */
static bp_camera camera_of(const bp_camera *cam, const bp_world *world)
{
    return cam ? *cam : bp_camera_whole(world->params.width, world->params.height);
}

bool bp_render_world(SDL_Renderer *renderer, bp_render *render, const bp_world *world,
                     const bp_camera *cam, const double *draw_x, const double *draw_y,
                     const bp_look *look, const bp_picture_extras *extras)
{
    double scale;
    int w, h;
    if (!layer_size(renderer, world, &scale, &w, &h))
        return false;
    bp_camera camera = camera_of(cam, world);
    /* Screen point s shows arena point camera.x + s / zoom, and a layer
     * pixel is 1 / scale screen points: at zoom 1 the --png frame's view. */
    bp_picture_view view = {{scale * camera.zoom, camera.x, camera.y}, scale};
    SDL_Texture *layer = layer_of(renderer, render, w, h);
    void *pixels;
    int pitch;
    if (!layer || SDL_LockTexture(layer, NULL, &pixels, &pitch) != 0)
        return false;
    bp_pixels out = {pixels, w, h, pitch / 4};
    bool drawn = bp_picture_draw_part(render->picture, &out, &view, world, draw_x, draw_y, look,
                                      extras);
    SDL_UnlockTexture(layer);
    render->layer_whole = drawn;
    render->layer_scale = scale;
    render->layer_camera = camera;
    return copy_layer(renderer, render, world) && drawn;
}

void bp_render_layer_size(const bp_render *render, int *w, int *h)
{
    *w = render->layer ? render->layer_w : 0;
    *h = render->layer ? render->layer_h : 0;
}

bool bp_render_again(SDL_Renderer *renderer, bp_render *render, const bp_world *world,
                     const bp_camera *cam)
{
    double scale;
    int w, h;
    bp_camera camera = camera_of(cam, world), *last = &render->layer_camera;
    if (!render->layer || !render->layer_whole || !layer_size(renderer, world, &scale, &w, &h) ||
        scale != render->layer_scale || w != render->layer_w || h != render->layer_h ||
        camera.zoom != last->zoom || camera.x != last->x || camera.y != last->y)
        return false;
    return copy_layer(renderer, render, world);
}
