/* Balls and walls drawn on the CPU straight into a pixel buffer: the one
 * drawing code of the window and the --png frames (picture.h). Writing
 * pixels beats a renderer's triangles where the renderer works in software
 * (Mesa's llvmpipe under Xvfb spends about a microsecond on each triangle
 * whatever its size), and needs no display. */
#ifndef BP_RASTER_H
#define BP_RASTER_H

#include <stdbool.h>
#include <stdint.h>

#include "look.h"
#include "paint.h"
#include "ballpit/ballpit.h"

/* Drawn at a scale below 1, no ball is smaller than this radius, px:
 * a pixel across. */
#define BP_RASTER_MIN_RADIUS 0.5f

/* The part of the arena a buffer of pixels shows: its pixel (px, py)
 * covers the arena point (x + px / scale, y + py / scale). The whole
 * arena at a scale is {scale, 0, 0}; a zoomed window shows less of it at
 * a larger scale, in a buffer of its own size. */
typedef struct bp_raster_view {
    double scale; /* pixels per arena px */
    double x, y;  /* the arena point at the buffer's top left, px */
} bp_raster_view;

/* The discs drawn so far, kept for reuse (see raster.c). */
typedef struct bp_raster bp_raster;

bp_raster *bp_raster_create(void);
void bp_raster_destroy(bp_raster *raster);

/* The background, the walls and every sleeper into out, showing the part
 * view says. Sleepers come from a layer kept between calls (they do
 * not move). false when memory runs out (the picture is then incomplete). */
bool bp_raster_base(bp_raster *raster, const bp_pixels *out, bp_raster_view view,
                    const bp_world *world, const bp_look *look);
/* Then the balls awake over it, at draw_x/draw_y (by index; NULL: the
 * world's own positions), e.g. interpolated between two steps. A ball is a
 * disc in its colour with a darker rim, a one-pixel soft edge, and a mark
 * that turns with its angle (from 2.5 px in radius). At a scale below 1
 * it looks as it would at scale 1 shrunk, and is a pixel across at least
 * (BP_RASTER_MIN_RADIUS). */
bool bp_raster_awake(bp_raster *raster, const bp_pixels *out, bp_raster_view view,
                     const bp_world *world, const double *draw_x, const double *draw_y,
                     const bp_look *look);
/* Both, one after the other, for the whole arena at scale. */
bool bp_raster_balls(bp_raster *raster, const bp_pixels *out, double scale,
                     const bp_world *world, const double *draw_x, const double *draw_y,
                     const bp_look *look);

#endif
