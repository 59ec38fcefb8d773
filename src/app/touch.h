/* Fingers on the window, as gestures. One finger is the mouse's left
 * button: on the panel (or the picker) it taps and drags as the mouse
 * does; on the arena it grabs and throws through the mouse's own code
 * (bp_input_pointer), so with its grab rule, throw and recorded inputs.
 * A finger held still on the arena for BP_TOUCH_LONG_MS spawns a ball
 * there, as the right button does. Two fingers pinch the camera: zoom by
 * the ratio of their distances about their midpoint, pan by the
 * midpoint's motion; the second finger lets go of what the first held,
 * without a throw. A gesture ends when every finger is up.
 *
 * SDL also makes a mouse of the first finger (SDL_TOUCH_MOUSEID), and
 * may make fingers of the mouse (SDL_MOUSE_TOUCHID): both are swallowed
 * here, so each touch is handled once, by the gestures. A state machine
 * over SDL's finger events, fed by hand in the tests: no window needed. */
#ifndef BP_TOUCH_H
#define BP_TOUCH_H

#include <SDL2/SDL.h>
#include <stdbool.h>

#include "input.h"
#include "session.h"

/* How long a finger must rest for a long press, ms, and how far it may
 * stray meanwhile, window points. */
#define BP_TOUCH_LONG_MS 500
#define BP_TOUCH_SLOP 10.0

/* Where a finger's window fractions land in logical points (the mouse's
 * event coordinates: the arena's px at the camera's zoom 1). */
typedef struct bp_touch_screen {
    double ox, oy;  /* the logical point at the window's top left */
    double w, h;    /* the whole window in logical points, letterbox bars and all */
    double point;   /* logical points per window point */
} bp_touch_screen;

typedef enum bp_touch_state {
    BP_TOUCH_IDLE,  /* no finger down */
    BP_TOUCH_UI,    /* one finger, which the panel or the picker took */
    BP_TOUCH_PRESS, /* one finger on the arena holding nothing: it may long-press */
    BP_TOUCH_HOLD,  /* one finger holding what the left button holds */
    BP_TOUCH_PINCH, /* two fingers moving the camera */
    BP_TOUCH_SPENT, /* the gesture is over: nothing until every finger is up */
} bp_touch_state;

/* Fingers down at once that are kept count of; more are not seen. */
#define BP_TOUCH_FINGERS 10

typedef struct bp_touch {
    bp_touch_state state;
    bp_touch_screen screen;
    SDL_FingerID id[2];    /* the gesture's first finger, and the pinch's second */
    double x[2], y[2];     /* where they are, logical points */
    double start_x, start_y; /* where the first came down, logical points */
    Uint32 down_ms;        /* when, SDL ticks */
    bool strayed;          /* it has gone further than BP_TOUCH_SLOP from there */
    SDL_FingerID down[BP_TOUCH_FINGERS]; /* every finger down, gesture or not */
    int down_count;
} bp_touch;

/* The panel and the picker, which fingers reach before the arena: offered
 * a finger's event as the mouse's left button would send it, in logical
 * points; *used: it took the event. Returns as bp_input_handle. */
typedef int (*bp_touch_ui)(void *ctx, const SDL_Event *mouse, bool *used, char *err,
                           size_t err_size);

/* What the gestures act on. */
typedef struct bp_touch_target {
    bp_touch_ui ui;
    void *ui_ctx;
    bp_input_handler *h;
    bp_view *view; /* its camera is what a pinch moves */
    bp_session *s;
} bp_touch_target;

/* No finger down, fractions mapped onto a window of width x height
 * logical points with nothing around it (bp_touch_map refines it). */
void bp_touch_init(bp_touch *t, double width, double height);

/* Takes the mapping from window fractions to logical points from the
 * renderer, while the arena's logical size is in force. */
void bp_touch_map(bp_touch *t, SDL_Renderer *renderer);

/* Keeps finger events in the window's fractions on their way to the
 * queue. SDL's renderer maps them onto its logical viewport instead, and
 * clamps a finger in the letterbox bars to the viewport's edge, where
 * the panel's tab may stand: its watch is dodged by giving finger events
 * types of their own before it sees them, which bp_touch_event knows. Call
 * once before the renderer is created; false if SDL has no types left. */
bool bp_touch_keep_fractions(void);

/* Offers one event to the gestures. *used: it was a touch's (a finger's,
 * or SDL's mouse made of one), handled here, and goes no further. Returns
 * as bp_input_handle. */
int bp_touch_event(bp_touch *t, const bp_touch_target *tg, const SDL_Event *ev, bool *used,
                   char *err, size_t err_size);

/* Once a frame, at now_ms (SDL ticks): a finger at rest on the arena for
 * BP_TOUCH_LONG_MS spawns its ball. Returns as bp_input_handle. */
int bp_touch_tick(bp_touch *t, const bp_touch_target *tg, Uint32 now_ms, char *err,
                  size_t err_size);

#endif
