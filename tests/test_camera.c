/* The camera (src/app/camera.c): zooming keeps the point under the hand,
 * panning moves the arena with it, and neither shows anything outside the
 * arena. Figures worked by hand for an 800 x 600 arena. */
#include <math.h>

#include "camera.h"
#include "tap.h"

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

int main(void)
{
    bp_camera c = bp_camera_whole(800, 600);
    double ax, ay, sx, sy;
    bp_camera_to_arena(&c, 123, 456, &ax, &ay);
    TAP_OK(bp_camera_is_whole(&c) && ax == 123 && ay == 456,
           "whole: screen points are arena points");

    /* x4 at (200, 150): the arena point (200, 150) stays there, so the top
     * left is 200 - 200/4 = 150, 150 - 150/4 = 112.5. */
    bp_camera_zoom_at(&c, 200, 150, 4.0);
    TAP_OK(near(c.zoom, 4) && near(c.x, 150) && near(c.y, 112.5),
           "zoom x4 at (200, 150) puts (150, 112.5) at the top left");
    bp_camera_to_arena(&c, 200, 150, &ax, &ay);
    TAP_OK(near(ax, 200) && near(ay, 150), "the point under the hand stays under it");
    bp_camera_to_screen(&c, 160, 120, &sx, &sy);
    TAP_OK(near(sx, 40) && near(sy, 30), "arena (160, 120) shows at (40, 30): 4 x (10, 7.5)");

    /* Drag 40 screen points right: 10 arena px at x4. */
    bp_camera_pan(&c, 40, 0);
    TAP_OK(near(c.x, 140) && near(c.y, 112.5), "a pan of 40 points at x4 moves 10 px");
    bp_camera_pan(&c, 1e6, 1e6);
    TAP_OK(c.x == 0 && c.y == 0, "panning past the top left stops at the arena's corner");
    bp_camera_pan(&c, -1e6, -1e6);
    TAP_OK(near(c.x, 600) && near(c.y, 450),
           "past the bottom right stops with the arena's corner at the window's");

    /* Zoom at the bottom right corner, out to 1 and beyond. */
    bp_camera_zoom_at(&c, 800, 600, 1e9);
    TAP_OK(c.zoom == BP_CAMERA_MAX_ZOOM, "zoom stops at its most");
    bp_camera_to_arena(&c, 800, 600, &ax, &ay);
    TAP_OK(near(ax, 800) && near(ay, 600), "the corner under the hand stays at the most zoom");
    bp_camera_zoom_at(&c, 400, 300, 1e-9);
    TAP_OK(bp_camera_is_whole(&c) && c.x == 0 && c.y == 0,
           "zooming out past 1 shows the whole arena again");

    bp_camera_zoom_at(&c, 400, 300, NAN);
    bp_camera_pan(&c, INFINITY, NAN);
    TAP_OK(bp_camera_is_whole(&c) && c.x == 0 && c.y == 0,
           "non-numbers change nothing");
    return tap_done();
}
