/* PNG frames without a display: the picture (picture.h) drawn into a
 * surface of the arena's size, saved with SDL2_image. */
#ifndef BP_PNG_H
#define BP_PNG_H

#include <stdbool.h>
#include <stddef.h>

#include "look.h"
#include "ballpit/ballpit.h"

/* Largest PNG side we render, px: 16384^2 is already a 1 GiB surface. The
 * one limit: bp_recorder_check refuses a larger arena up front, a scene
 * input's too (bp_recorder_check_scenes), and the writer makes none. */
#define BP_PNG_MAX_SIDE 16384

typedef struct bp_png_writer bp_png_writer;

/* NULL with a message in err when SDL cannot make the surface. Frames are
 * drawn with look. */
bp_png_writer *bp_png_writer_create(const bp_world *world, const bp_look *look, char *err,
                                    size_t err_size);
void bp_png_writer_destroy(bp_png_writer *writer);

/* After every step (dumped or not): keeps the trails. false when memory
 * ran out. */
bool bp_png_writer_step(bp_png_writer *writer, const bp_world *world);

/* Pins the frames' inspector to ball id (-1: none). */
void bp_png_writer_inspect(bp_png_writer *writer, int64_t id);

/* Renders the world and writes it to path (whole, or not at all). */
bool bp_png_write(bp_png_writer *writer, const bp_world *world, const char *path, char *err,
                  size_t err_size);

/* Saves what a renderer shows (e.g. the window) to path. */
bool bp_png_save_renderer(void *sdl_renderer, int width, int height, const char *path,
                          char *err, size_t err_size);

#endif
