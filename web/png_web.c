/* png.h in the browser, where SDL2_image is left out: the screenshot (F12)
 * is the canvas, handed to the browser as a download; PNG frames of a dump
 * (--png) are not made. */
#include "png.h"

#include <SDL2/SDL.h>
#include <stdio.h>

/* web/library.js */
int bp_web_download_canvas(const char *name);

struct bp_png_writer {
    int unused;
};

bp_png_writer *bp_png_writer_create(const bp_world *world, const bp_look *look, char *err,
                                    size_t err_size)
{
    (void)world;
    (void)look;
    snprintf(err, err_size, "--png: PNG frames are not made in the browser");
    return NULL;
}

void bp_png_writer_destroy(bp_png_writer *writer)
{
    (void)writer;
}

bool bp_png_writer_step(bp_png_writer *writer, const bp_world *world)
{
    (void)writer;
    (void)world;
    return true;
}

void bp_png_writer_inspect(bp_png_writer *writer, int64_t id)
{
    (void)writer;
    (void)id;
}

bool bp_png_write(bp_png_writer *writer, const bp_world *world, const char *path, char *err,
                  size_t err_size)
{
    (void)writer;
    (void)world;
    snprintf(err, err_size, "%s: PNG frames are not made in the browser", path);
    return false;
}

/* The canvas as the browser shows it, offered as a download named path.
 * WebGL keeps the picture only until the frame is handed to the screen,
 * so SDL's queue is flushed and the canvas read now, within the frame. */
bool bp_png_save_renderer(void *sdl_renderer, int width, int height, const char *path,
                          char *err, size_t err_size)
{
    (void)width;
    (void)height;
    SDL_RenderFlush(sdl_renderer);
    int ok = bp_web_download_canvas(path);
    if (!ok)
        snprintf(err, err_size, "%s: the browser would not give the canvas", path);
    return ok;
}
