/* The parameter panel (P, or the "P: panel" tab at the right edge):
 * sliders for the world's parameters and the time scale, buttons for
 * pause, step, rewind, reset and the overlays. An immediate-mode panel:
 * one layout function lays out every widget, called once per mouse event
 * to act on it and once per frame to draw it, so what is drawn is what
 * the mouse hits.
 *
 * It changes nothing of its own: a slider applies the set input the keys
 * apply (recorded, replayed, undone), merged into one undo step while the
 * button is held; a button acts as its key does (input.c). The view's
 * show_panel says whether it is open. */
#ifndef BP_PANEL_H
#define BP_PANEL_H

#include <SDL2/SDL.h>
#include <stdbool.h>

#include "input.h"
#include "session.h"
#include "text.h"

typedef struct bp_panel {
    int active;        /* the slider the left button holds (its id), 0: none */
    bool captured;     /* a press began on the panel: its release is the panel's */
    double mx, my;     /* the cursor, in panel units */
    /* Event coordinates (the arena's px) to panel units: u = e * k + o. */
    double k, ox, oy;
    int width, height; /* the window in panel units */
    int scale;         /* output pixels per panel unit (as the HUD's text) */
    int scroll;        /* units the panel is scrolled up, in a window shorter than it */
    double grip_y;     /* where a press off the sliders holds the panel, panel units */
    bool scrolling;    /* that press has moved past the slop: it scrolls */
} bp_panel;

/* A panel for a window width x height panel units across, event
 * coordinates taken as panel units (bp_panel_map refines both). */
void bp_panel_init(bp_panel *p, int width, int height);

/* Takes the mapping from event coordinates to panel units from the
 * renderer, while the arena's logical size is in force (before the
 * events of a frame are read). */
void bp_panel_map(bp_panel *p, SDL_Renderer *renderer);

/* Whether the panel (or, closed, its tab) covers the point (x, y) in event
 * coordinates. */
bool bp_panel_covers(const bp_panel *p, const bp_view *view, double x, double y);

/* Offers one event to the panel. *used: the panel took it (a click on it,
 * a slider's drag), so the arena must not see it: a click on the panel
 * grabs no ball behind it. Returns as bp_input_handle. */
int bp_panel_event(bp_panel *p, bp_input_handler *h, bp_view *view, bp_session *s,
                   const SDL_Event *ev, bool *used, char *err, size_t err_size);

/* Where, in event coordinates, the knob of the slider labelled label
 * ("restitution", "time scale", ...) stands when it shows value; false
 * when the panel is closed or has no such slider. For scripted drags (the
 * tests). */
bool bp_panel_knob_at(bp_panel *p, bp_input_handler *h, bp_view *view, bp_session *s,
                      const char *label, double value, double *x, double *y);

/* Draws the panel (or its tab) in output pixels; changes nothing. */
void bp_panel_draw(bp_panel *p, SDL_Renderer *renderer, bp_text *glyphs, bp_input_handler *h,
                   bp_view *view, bp_session *s);

#endif
