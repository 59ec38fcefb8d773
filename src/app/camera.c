#include "camera.h"

#include <math.h>

/* The invariant restored: zoom within its range (1 for a non-number), the
 * shown part inside the arena. */
static void keep_inside(bp_camera *cam)
{
    if (!(cam->zoom >= 1.0))
        cam->zoom = 1.0;
    if (cam->zoom > BP_CAMERA_MAX_ZOOM)
        cam->zoom = BP_CAMERA_MAX_ZOOM;
    double max_x = cam->width - cam->width / cam->zoom;
    double max_y = cam->height - cam->height / cam->zoom;
    cam->x = isfinite(cam->x) ? fmin(fmax(cam->x, 0.0), max_x) : 0.0;
    cam->y = isfinite(cam->y) ? fmin(fmax(cam->y, 0.0), max_y) : 0.0;
}

bp_camera bp_camera_whole(double width, double height)
{
    return (bp_camera){.zoom = 1.0, .x = 0.0, .y = 0.0, .width = width, .height = height};
}

bool bp_camera_is_whole(const bp_camera *cam)
{
    return cam->zoom == 1.0;
}

void bp_camera_to_arena(const bp_camera *cam, double sx, double sy, double *ax, double *ay)
{
    *ax = cam->x + sx / cam->zoom;
    *ay = cam->y + sy / cam->zoom;
}

void bp_camera_to_screen(const bp_camera *cam, double ax, double ay, double *sx, double *sy)
{
    *sx = (ax - cam->x) * cam->zoom;
    *sy = (ay - cam->y) * cam->zoom;
}

void bp_camera_zoom_at(bp_camera *cam, double sx, double sy, double factor)
{
    if (!(factor > 0.0) || !isfinite(factor))
        return;
    double ax, ay;
    bp_camera_to_arena(cam, sx, sy, &ax, &ay);
    cam->zoom *= factor;
    keep_inside(cam);
    /* The point under (sx, sy) stays: x + sx / zoom = ax. */
    cam->x = ax - sx / cam->zoom;
    cam->y = ay - sy / cam->zoom;
    keep_inside(cam);
}

void bp_camera_pan(bp_camera *cam, double dx, double dy)
{
    if (!isfinite(dx) || !isfinite(dy))
        return;
    cam->x -= dx / cam->zoom;
    cam->y -= dy / cam->zoom;
    keep_inside(cam);
}
