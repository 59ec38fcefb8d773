/* The camera: which part of the arena the window shows, and how large.
 * Screen points here are the window's logical points, which SDL maps to
 * the arena one to one when the whole arena is in view (zoom 1); the
 * camera only magnifies and moves within the arena. It is how the window
 * looks, never the simulation: inputs reach the world in arena
 * coordinates, so recordings and --png frames do not depend on it. */
#ifndef BP_CAMERA_H
#define BP_CAMERA_H

#include <stdbool.h>

/* Invariant: 1 <= zoom <= BP_CAMERA_MAX_ZOOM, and the shown part
 * [x, x + width / zoom] x [y, y + height / zoom] lies inside the arena. */
typedef struct bp_camera {
    double zoom;          /* screen points per arena px */
    double x, y;          /* the arena point at the window's top left, px */
    double width, height; /* the arena's size, px */
} bp_camera;

/* Magnification at which the window shows 1/64 of the arena's width. */
#define BP_CAMERA_MAX_ZOOM 64.0

/* The whole arena of width x height px in view. */
bp_camera bp_camera_whole(double width, double height);
/* Whether the camera shows the whole arena (zoom 1). */
bool bp_camera_is_whole(const bp_camera *cam);
/* The arena point under screen point (sx, sy). */
void bp_camera_to_arena(const bp_camera *cam, double sx, double sy, double *ax, double *ay);
/* The screen point over arena point (ax, ay). */
void bp_camera_to_screen(const bp_camera *cam, double ax, double ay, double *sx, double *sy);
/* Magnifies by factor (> 1 in, < 1 out) keeping the arena point under
 * screen point (sx, sy) where it is, as far as the invariant lets it. */
void bp_camera_zoom_at(bp_camera *cam, double sx, double sy, double factor);
/* Moves the arena with the hand: the point under the screen point s goes
 * under s + (dx, dy), as far as the arena's edges let it. */
void bp_camera_pan(bp_camera *cam, double dx, double dy);

#endif
