/* From SDL events to what they mean: inputs for the simulation (grab, move,
 * release, key actions, applied to the session at once, between steps) and
 * view actions that only change how the window runs (pause, time scale,
 * HUD, help, screenshots). During a replay the simulation takes its inputs
 * from the file, so only view actions are honoured. */
#ifndef BP_INPUT_H
#define BP_INPUT_H

#include <SDL2/SDL.h>
#include <stdbool.h>

#include "camera.h"
#include "look.h"
#include "rng.h"
#include "session.h"
#include "throw.h"
#include "undo.h"
#include "zoom.h"

/* How the window runs; nothing here reaches the simulation. */
typedef struct bp_view {
    bool quit;
    bool paused;          /* no steps except single steps */
    uint64_t single_steps; /* steps asked for while paused, not yet taken: at most
                            * BP_SINGLE_STEPS_AHEAD s of them, a slice a frame */
    double time_scale;    /* simulated seconds per real second */
    bool show_hud, show_help;
    bool hud_full;        /* the HUD's every figure, not the short line: Tab
                           * cycles short -> full -> off */
    bool hint;            /* "drag a ball to throw it" with the HUD, until the
                           * first grab (never in a replay) */
    bool screenshot;      /* save the next drawn frame to a PNG */
    bool save_scene;      /* save the world to a scene file */
    bool prompting;       /* Ctrl+O: typing a scene's name into prompt ... */
    char prompt[128];
    bool load_scene;      /* ... and Enter asks to load it */
    bool replaying;       /* inputs come from --replay */
    bool one_scene;       /* --dump: its frames are one scene's, so Ctrl+O
                           * loads no other (a recording holds the loads) */
    bp_look look;         /* colours and overlays (T, V, C, B); its inspect is
                           * the replay's own pin (else the session's counts) */
    double trails_on;     /* seconds of trail T brings back, s */
    bool show_chart;      /* the energy chart (K) */
    bool show_panel;      /* the parameter panel (P, or its tab; panel.h) */
    bp_camera camera;     /* the part of the arena shown, and how large */
    char message[160];    /* a note on screen (bp_view_tell) ... */
    Uint32 message_until; /* ... until then, SDL ticks ... */
    bool message_error;   /* ... an error, or a question: Esc closes it */
    bool echo;            /* notes go to stdout too (the window; not tests) */
    bool quit_asked;      /* Esc with unsaved edits asked: Esc again quits */
} bp_view;

typedef struct bp_input_handler {
    bp_throw_tracker tracker;  /* cursor samples since the grab */
    bool dragging;             /* the left button holds a ball */
    bool drawing_wall;         /* Shift + left button: a wall from (wall_x, wall_y) */
    double wall_x, wall_y;     /* px */
    double cursor_x, cursor_y; /* last cursor position in the arena, px */
    bp_zoom_hand zoom;         /* the cursor on screen, the camera's drag (zoom.h) */
    double led_x, led_y;       /* where the cursor last led the held ball, px */
    bool lead_pending;         /* the cursor has moved on from there */
    double max_throw;          /* px/s */
    double gravity_on;         /* gravity the G toggle brings back (its sign too), px/s^2 */
    double r_min, r_max;       /* radius range of spawned balls, px */
    bp_rng rng;                /* radii of spawned balls */
    /* The spawn tool (the panel's Spawn section): view settings, not
     * physics; each spawn input carries the radius and mass it made. */
    double spawn_r;            /* radius of the next ball, px; 0: random in r_min..r_max */
    double spawn_density;      /* its mass over the default r^2 (1: the default) */
    double stream_rate;        /* balls per simulated second while S or the right
                                * button is held */
    bool stream_key, stream_button; /* S, the right button, held down */
    double stream_clock;       /* simulated time since the stream's last ball, s */
    bool walls_enabled;        /* Shift-drag draws walls */
    bool shift_held;           /* a Shift key is down, as the events in order say:
                                * SDL's modifier state can lag a press that comes
                                * in the same instant as the click (xdotool) */
    bp_undo undo;              /* edits to take back (Ctrl+Z) and redo (Ctrl+Y) */
    bool dragging_end;         /* the left button holds end end_which of wall end_wall */
    size_t end_wall;
    int end_which;
} bp_input_handler;

/* Seconds of trail T shows when --trails did not say. */
#define BP_TRAILS_DEFAULT 2.0

/* Simulated time single steps may be asked for ahead, s: a held
 * Shift+Right at 100,000 Hz overflowed an int. */
#define BP_SINGLE_STEPS_AHEAD 60.0

/* Time scales the [ and ] keys step through. */
#define BP_TIME_SCALE_MIN 0.125
#define BP_TIME_SCALE_MAX 4.0

void bp_input_init(bp_input_handler *h, bp_view *view, const bp_options *opts,
                   const bp_world *world);

/* Shows "what detail" on screen for a while (an error longer, until Esc);
 * with view->echo, prints it on stdout at once too. */
void bp_view_tell(bp_view *view, const char *what, const char *detail, bool error);
/* Whether a note is on screen now. */
bool bp_view_message_due(const bp_view *view);

/* Whether the edits made since the start, the last load, reset or save
 * (walls, balls spawned or deleted, parameters) would be lost by quitting. */
bool bp_input_unsaved(const bp_input_handler *h);

/* The velocity (px/s) a release at time now_s (s, SDL ticks) would throw
 * the held ball with; false when nothing is held. */
bool bp_input_aim(const bp_input_handler *h, const bp_session *s, double now_s, double *vx,
                  double *vy);

/* Before each of the steps a frame takes: moves the held ball's target
 * 1/steps_left of the way from where the cursor last led it to where the
 * cursor is now. Motion events come in bursts, once a frame, and a frame
 * takes several steps: set at once, the target jumped a frame's travel in
 * one step and stood still for the rest, and a ball dragged at 300 px/s
 * shoved the pile at 1,200 px/s (31 fps under Xvfb). Spread out, the held
 * ball moves at the cursor's own speed. Returns as bp_input_handle. */
int bp_input_lead(bp_input_handler *h, bp_session *s, int steps_left, char *err,
                  size_t err_size);

/* Default and range of the stream's rate, balls per second. */
#define BP_STREAM_RATE_DEFAULT 10.0
#define BP_STREAM_RATE_MIN 1.0
#define BP_STREAM_RATE_MAX 60.0

/* After each step (dt simulated seconds): while S or the right button is
 * held, spawns the stream's next ball at the cursor when it is due.
 * Returns as bp_input_handle. */
int bp_input_stream(bp_input_handler *h, bp_session *s, double dt, char *err, size_t err_size);

/* What a pointer (the mouse, or a finger standing in for its left button)
 * did. */
typedef enum bp_pointer_kind { BP_POINTER_DOWN, BP_POINTER_MOVE, BP_POINTER_UP } bp_pointer_kind;

/* What the mouse's events do, for a pointer at arena point (x, y) px at
 * time ms (SDL ticks); button: SDL_BUTTON_LEFT, _MIDDLE or _RIGHT (not
 * read for a move). bp_input_handle's mouse events come here, and so do
 * fingers (touch.h). Returns as bp_input_handle. */
int bp_input_pointer(bp_input_handler *h, bp_view *view, bp_session *s, bp_pointer_kind kind,
                     Uint8 button, double x, double y, Uint32 ms, char *err, size_t err_size);

/* Whether the left button holds something: a ball, a wall's end, a wall
 * being drawn. */
bool bp_input_holding(const bp_input_handler *h);

/* Lets go of what the left button holds without a throw: a ball at rest
 * where it is, a wall's end where it is, a wall being drawn not drawn.
 * Returns as bp_input_handle. */
int bp_input_drop(bp_input_handler *h, bp_session *s, char *err, size_t err_size);

/* Handles one event. Returns 0, or 1 with a message when applying an input
 * failed (a runtime failure: the window should close). */
int bp_input_handle(bp_input_handler *h, bp_view *view, bp_session *s, const SDL_Event *ev,
                    char *err, size_t err_size);

#endif
