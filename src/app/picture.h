/* The whole picture of the world, drawn on the CPU into a buffer of pixels:
 * the one drawing code of the window and the --png frames. Layers, bottom
 * up: background, walls and sleepers (raster.h), the grid (debug view),
 * trails, the balls awake, velocity arrows, contacts (debug view), the
 * inspector's panel, and the energy chart. */
#ifndef BP_PICTURE_H
#define BP_PICTURE_H

#include <stdbool.h>

#include "chart.h"
#include "look.h"
#include "paint.h"
#include "raster.h"
#include "trails.h"
#include "ballpit/ballpit.h"

typedef struct bp_picture bp_picture;

/* NULL when memory runs out. */
bp_picture *bp_picture_create(void);
void bp_picture_destroy(bp_picture *p);

/* What to draw besides the world itself; any may be NULL. */
typedef struct bp_picture_extras {
    const bp_trails *trails; /* with look->trails > 0 */
    const bp_chart *chart;   /* the energy chart, top right */
} bp_picture_extras;

/* Velocity arrows reach where the ball will be this long from now, s. */
#define BP_PICTURE_ARROW_TIME 0.1

/* Draws the world into out at scale pixels to the arena's px, balls at
 * draw_x/draw_y (by index; NULL: their own positions). false when memory
 * ran out (the picture may be incomplete). */
bool bp_picture_draw(bp_picture *p, const bp_pixels *out, double scale, const bp_world *world,
                     const double *draw_x, const double *draw_y, const bp_look *look,
                     const bp_picture_extras *extras);

/* The part of the arena a picture shows (raster.h), and how large its
 * marks are: text, arrow heads, contact dots and line widths are drawn at
 * marks pixels to a screen point, so they keep their size in a zoomed
 * window while the balls, walls and trails grow. The whole arena at scale
 * is {{scale, 0, 0}, scale}. */
typedef struct bp_picture_view {
    bp_raster_view part;
    double marks; /* pixels per screen point */
} bp_picture_view;

/* bp_picture_draw for the part of the arena view says. */
bool bp_picture_draw_part(bp_picture *p, const bp_pixels *out, const bp_picture_view *view,
                          const bp_world *world, const double *draw_x, const double *draw_y,
                          const bp_look *look, const bp_picture_extras *extras);

#endif
