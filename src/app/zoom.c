#include "zoom.h"

#include <math.h>

/* Notches the wheel turned, away from the user positive (in), fractions
 * from a touchpad's smooth scrolling where SDL says them. */
static double notches(const SDL_MouseWheelEvent *w)
{
#if SDL_VERSION_ATLEAST(2, 0, 18)
    double turned = w->preciseY != 0.0f ? w->preciseY : w->y;
#else
    double turned = w->y;
#endif
    return w->direction == SDL_MOUSEWHEEL_FLIPPED ? -turned : turned;
}

/* The middle button moved the cursor to (x, y): past the slop it drags
 * the arena, the grabbed point kept under the cursor. */
static void drag(bp_zoom_hand *hand, bp_camera *cam, double x, double y)
{
    if (!hand->panning &&
        hypot(x - hand->press_x, y - hand->press_y) < BP_ZOOM_PAN_SLOP)
        return;
    hand->panning = true;
    double gx, gy;
    bp_camera_to_screen(cam, hand->grab_x, hand->grab_y, &gx, &gy);
    bp_camera_pan(cam, x - gx, y - gy);
}

bp_zoom_result bp_zoom_event(bp_zoom_hand *hand, bp_camera *cam, const SDL_Event *ev,
                             bool wheel)
{
    switch (ev->type) {
    case SDL_MOUSEWHEEL:
        if (!wheel)
            return BP_ZOOM_NONE;
        bp_camera_zoom_at(cam, hand->x, hand->y, pow(BP_ZOOM_WHEEL_STEP, notches(&ev->wheel)));
        return BP_ZOOM_TAKEN;
    case SDL_MOUSEMOTION:
        hand->x = ev->motion.x;
        hand->y = ev->motion.y;
        /* A release something else took (the picker over the arena takes
         * every event) ends the drag too: the button is up. */
        if (!(ev->motion.state & SDL_BUTTON_MMASK))
            hand->middle_down = hand->panning = false;
        if (hand->middle_down)
            drag(hand, cam, hand->x, hand->y);
        return BP_ZOOM_NONE;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        hand->x = ev->button.x;
        hand->y = ev->button.y;
        if (ev->button.button != SDL_BUTTON_MIDDLE)
            return BP_ZOOM_NONE;
        if (ev->type == SDL_MOUSEBUTTONDOWN) {
            hand->middle_down = true;
            hand->panning = false;
            hand->press_x = hand->x;
            hand->press_y = hand->y;
            bp_camera_to_arena(cam, hand->x, hand->y, &hand->grab_x, &hand->grab_y);
            return BP_ZOOM_TAKEN;
        }
        if (!hand->middle_down)
            return BP_ZOOM_TAKEN; /* pressed before the window saw it */
        hand->middle_down = false;
        return hand->panning ? BP_ZOOM_TAKEN : BP_ZOOM_CLICK;
    default:
        return BP_ZOOM_NONE;
    }
}

bool bp_zoom_key(bp_camera *cam, SDL_Keycode key)
{
    /* The window's centre: the logical size is the arena's. */
    double cx = cam->width / 2.0, cy = cam->height / 2.0;
    switch (key) {
    case SDLK_EQUALS: /* + without Shift on most layouts */
    case SDLK_PLUS:
    case SDLK_KP_PLUS:
        bp_camera_zoom_at(cam, cx, cy, BP_ZOOM_KEY_STEP);
        return true;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        bp_camera_zoom_at(cam, cx, cy, 1.0 / BP_ZOOM_KEY_STEP);
        return true;
    case SDLK_0:
    case SDLK_KP_0:
    case SDLK_HOME:
        *cam = bp_camera_whole(cam->width, cam->height);
        return true;
    default:
        return false;
    }
}

bool bp_zoom_key_repeats(SDL_Keycode key)
{
    return key == SDLK_EQUALS || key == SDLK_PLUS || key == SDLK_KP_PLUS || key == SDLK_MINUS ||
           key == SDLK_KP_MINUS;
}
