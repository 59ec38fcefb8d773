/* Balls drawn on the CPU straight into a pixel buffer. A renderer that
 * rasterises in software (Mesa's llvmpipe under Xvfb, say) spends about a
 * microsecond on each triangle whatever its size, so tens of thousands of
 * small balls as textured quads take far longer there. render.c picks
 * whichever of the two ways is faster where it runs. */
#ifndef BP_RASTER_H
#define BP_RASTER_H

#include <SDL2/SDL.h>
#include <stdbool.h>
#include <stdint.h>

#include "world.h"

/* A buffer of 32-bit ARGB pixels, pitch pixels to a row. */
typedef struct bp_pixels {
    uint32_t *pixels;
    int width, height, pitch;
} bp_pixels;

/* The discs drawn so far, kept for reuse (see raster.c). */
typedef struct bp_raster bp_raster;

bp_raster *bp_raster_create(void);
void bp_raster_destroy(bp_raster *raster);

/* Fills the buffer with background, then draws every ball, scale pixels to
 * the arena's px: a disc in the ball's colour with a darker rim and a
 * one-pixel soft edge, as the ball sprite of render.c looks. draw_x/draw_y
 * as for bp_render_world. Sleepers come from a layer kept between calls
 * (they do not move), the balls awake go over them. false when memory runs
 * out (the picture is then incomplete). */
bool bp_raster_balls(bp_raster *raster, const bp_pixels *out, SDL_Color background,
                     double scale, const bp_world *world, const double *draw_x,
                     const double *draw_y);

#endif
