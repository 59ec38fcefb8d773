/* The window's input code without a window, for the tests that drive it
 * with hand-made SDL events: a session on a world, the hand and its view,
 * and what lies over the arena (the panel, the picker, the fingers), which
 * each test sets up as far as it links them. */
#ifndef BP_TEST_APPRIG_H
#define BP_TEST_APPRIG_H

#include <stdio.h>
#include <string.h>

#include "input.h"
#include "panel.h"
#include "picker.h"
#include "session.h"
#include "touch.h"

typedef struct rig {
    bp_options opts;
    bp_world *world;
    bp_session session;
    bp_input_handler input;
    bp_view view;
    bp_panel panel;
    bp_picker picker;
    bp_touch touch;
    bp_touch_target target;
    char err[256];
} rig;

/* The session and the hand on world, made with r->opts; the rig owns it. */
static inline void rig_start(rig *r, bp_world *world)
{
    r->world = world;
    bp_session_init(&r->session, world, &r->opts);
    bp_input_init(&r->input, &r->view, &r->opts, world);
}

/* A rig on one ball of radius radius at rest at (x, y) in the default
 * 1024 x 768 arena, with no gravity nor drag: where it goes is the hand's
 * doing alone. */
static inline void rig_one_ball(rig *r, double x, double y, double radius)
{
    memset(r, 0, sizeof *r);
    r->opts = bp_options_default();
    bp_params p = bp_params_default();
    p.gravity = 0.0;
    p.drag = 0.0;
    bp_world *world = bp_world_new(&p);
    bp_world_insert_ball(world, x, y, 0.0, 0.0, radius, 0.0);
    rig_start(r, world);
}

/* An event as the window's loop hands it on: the panel (the tests that
 * link panel.c), then the arena if the panel left it. Returns whether the
 * panel took it; an error is printed as a TAP note. */
static inline bool rig_feed(rig *r, SDL_Event ev)
{
    bool used = false;
    int status = bp_panel_event(&r->panel, &r->input, &r->view, &r->session, &ev, &used,
                                r->err, sizeof r->err);
    if (status == 0 && !used)
        status = bp_input_handle(&r->input, &r->view, &r->session, &ev, r->err, sizeof r->err);
    if (status != 0)
        printf("#   %s\n", r->err);
    return used;
}

#endif
