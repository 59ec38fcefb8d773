#include "png.h"

#include <SDL2/SDL.h>
#include <SDL2/SDL_image.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picture.h"
#include "trails.h"

struct bp_png_writer {
    SDL_Surface *surface;
    bp_picture *picture;
    bp_look look;
    bp_trails trails;
};

bp_png_writer *bp_png_writer_create(const bp_world *world, const bp_look *look, char *err,
                                    size_t err_size)
{
    bp_png_writer *writer = calloc(1, sizeof *writer);
    if (!writer) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    writer->look = *look;
    int w = (int)SDL_ceil(world->params.width), h = (int)SDL_ceil(world->params.height);
    writer->surface = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    if (writer->surface)
        writer->picture = bp_picture_create();
    if (!writer->picture) {
        snprintf(err, err_size, "cannot make a %dx%d image: %s", w, h,
                 writer->surface ? "out of memory" : SDL_GetError());
        bp_png_writer_destroy(writer);
        return NULL;
    }
    return writer;
}

void bp_png_writer_destroy(bp_png_writer *writer)
{
    if (!writer)
        return;
    bp_picture_destroy(writer->picture);
    bp_trails_free(&writer->trails);
    if (writer->surface)
        SDL_FreeSurface(writer->surface);
    free(writer);
}

void bp_png_writer_inspect(bp_png_writer *writer, int64_t id)
{
    writer->look.inspect = id;
}

bool bp_png_writer_step(bp_png_writer *writer, const bp_world *world)
{
    return writer->look.trails <= 0.0 ||
           bp_trails_record(&writer->trails, world, writer->look.trails);
}

/* Writes next to the target and renames, so a reader never sees half a PNG. */
static bool save_surface(SDL_Surface *surface, const char *path, char *err, size_t err_size)
{
    size_t len = strlen(path) + sizeof ".part";
    char *tmp = malloc(len);
    if (!tmp) {
        snprintf(err, err_size, "%s: out of memory", path);
        return false;
    }
    snprintf(tmp, len, "%s.part", path);
    /* Through a FILE of our own: SDL_image does not tell a failed write (a
     * full disk) from a whole PNG, the FILE's error flag and close do. */
    FILE *out = fopen(tmp, "wb");
    SDL_RWops *rw = out ? SDL_RWFromFP(out, SDL_FALSE) : NULL;
    bool ok = rw && IMG_SavePNG_RW(surface, rw, 0) == 0;
    if (rw)
        SDL_RWclose(rw);
    bool written = out && fflush(out) == 0 && !ferror(out);
    if (out && fclose(out) != 0)
        written = false;
    if (!ok)
        snprintf(err, err_size, "%s: cannot write PNG: %s", path,
                 out ? IMG_GetError() : strerror(errno));
    else if (!written) {
        snprintf(err, err_size, "%s: cannot write PNG: %s", path, strerror(errno));
        ok = false;
    } else if (rename(tmp, path) != 0) {
        snprintf(err, err_size, "%s: cannot write PNG", path);
        ok = false;
    }
    if (!ok)
        remove(tmp);
    free(tmp);
    return ok;
}

/* The surface at the world's arena size: a scene loaded mid-run may bring
 * another. false with a message when it cannot be made. */
static bool fit_arena(bp_png_writer *writer, const bp_world *world, const char *path, char *err,
                      size_t err_size)
{
    int w = (int)SDL_ceil(SDL_min(world->params.width, BP_PNG_MAX_SIDE + 1.0));
    int h = (int)SDL_ceil(SDL_min(world->params.height, BP_PNG_MAX_SIDE + 1.0));
    if (writer->surface->w == w && writer->surface->h == h)
        return true;
    SDL_Surface *fresh = w <= BP_PNG_MAX_SIDE && h <= BP_PNG_MAX_SIDE
                             ? SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888)
                             : NULL;
    if (!fresh) {
        snprintf(err, err_size, "%s: cannot make an image of the loaded scene's %gx%g arena", path,
                 world->params.width, world->params.height);
        return false;
    }
    SDL_FreeSurface(writer->surface);
    writer->surface = fresh;
    return true;
}

bool bp_png_write(bp_png_writer *writer, const bp_world *world, const char *path, char *err,
                  size_t err_size)
{
    if (!fit_arena(writer, world, path, err, err_size))
        return false;
    SDL_Surface *surface = writer->surface;
    bp_pixels out = {surface->pixels, surface->w, surface->h, surface->pitch / 4};
    bp_picture_extras extras = {.trails = &writer->trails};
    if (!bp_picture_draw(writer->picture, &out, 1.0, world, NULL, NULL, &writer->look,
                         &extras)) {
        snprintf(err, err_size, "%s: out of memory", path);
        return false;
    }
    return save_surface(surface, path, err, err_size);
}

bool bp_png_save_renderer(void *sdl_renderer, int width, int height, const char *path,
                          char *err, size_t err_size)
{
    SDL_Renderer *renderer = sdl_renderer;
    SDL_Surface *shot = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32,
                                                       SDL_PIXELFORMAT_ARGB8888);
    if (!shot) {
        snprintf(err, err_size, "%s: %s", path, SDL_GetError());
        return false;
    }
    bool ok = SDL_RenderReadPixels(renderer, NULL, SDL_PIXELFORMAT_ARGB8888, shot->pixels,
                                   shot->pitch) == 0;
    if (!ok)
        snprintf(err, err_size, "%s: cannot read the screen: %s", path, SDL_GetError());
    else
        ok = save_surface(shot, path, err, err_size);
    SDL_FreeSurface(shot);
    return ok;
}
