/* The camera (camera.h) under the mouse and the keys: the wheel zooms
 * about the cursor, + and - about the window's centre, 0 or Home show the
 * whole arena, and the middle button drags the arena along (a middle
 * click without a drag is still the inspector's). All in screen points,
 * the window's logical coordinates; input.c maps what is left of each
 * mouse event through the camera into the arena. */
#ifndef BP_ZOOM_H
#define BP_ZOOM_H

#include <SDL2/SDL.h>
#include <stdbool.h>

#include "camera.h"

/* What the mouse is doing to the camera. */
typedef struct bp_zoom_hand {
    double x, y;             /* the cursor, screen points (the last mouse event's) */
    bool middle_down;        /* the middle button is held ... */
    bool panning;            /* ... and has moved far enough to drag the arena */
    double press_x, press_y; /* where it went down, screen points */
    double grab_x, grab_y;   /* the arena point under it then, px: it stays under the cursor */
} bp_zoom_hand;

/* Magnification of one notch of the wheel, and of one press of + or -. */
#define BP_ZOOM_WHEEL_STEP 1.25
#define BP_ZOOM_KEY_STEP 2.0
/* Screen points the middle button must move before a click becomes a drag. */
#define BP_ZOOM_PAN_SLOP 3.0

/* What an event meant to the camera. */
typedef enum bp_zoom_result {
    BP_ZOOM_NONE,  /* nothing: the event is the arena's as before */
    BP_ZOOM_TAKEN, /* the camera's alone (the wheel, a middle press or release) */
    BP_ZOOM_CLICK, /* a middle click that dragged nothing: the inspector's */
} bp_zoom_result;

/* Offers one event to the camera. A motion while the middle button drags
 * moves the camera (the arena point grabbed stays under the cursor) and
 * is still the arena's (BP_ZOOM_NONE): the hand goes on following the
 * cursor. wheel: whether the wheel may zoom (not over the picker). */
bp_zoom_result bp_zoom_event(bp_zoom_hand *hand, bp_camera *cam, const SDL_Event *ev,
                             bool wheel);

/* Whether key is one of the camera's (+, -, 0, Home and their keypad
 * twins); if so, it acted on the camera. */
bool bp_zoom_key(bp_camera *cam, SDL_Keycode key);
/* Whether a held key goes on acting (+ and -, as the wheel would). */
bool bp_zoom_key_repeats(SDL_Keycode key);

#endif
