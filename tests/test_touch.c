/* Fingers (src/app/touch.c), driven with hand-made SDL events as the
 * window's loop hands them on: the gestures first, then the panel and the
 * arena what they leave. A flick throws as the mouse's drag does, a long
 * press spawns one ball, a pinch zooms the camera about its midpoint, a
 * second finger lets go without a throw, a tap opens the panel, and SDL's
 * mouse copies of fingers do nothing twice. No display needed. */
#include <SDL2/SDL.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "apprig.h"
#include "sdlevents.h"
#include "session.h"
#include "tap.h"
#include "touch.h"

#define WIDTH 1024
#define HEIGHT 768

/* The panel as the window's loop offers it a finger's mouse events. */
static int panel_ui(void *ctx, const SDL_Event *mouse, bool *used, char *err, size_t err_size)
{
    rig *r = ctx;
    return bp_panel_event(&r->panel, &r->input, &r->view, &r->session, mouse, used, err,
                          err_size);
}

/* One ball (r 40) at (300, 500), no gravity or drag: where it goes is the
 * hand's doing alone. The window is the arena, logical points its px. */
static void rig_make(rig *r)
{
    rig_one_ball(r, 300.0, 500.0, 40.0);
    bp_panel_init(&r->panel, WIDTH, HEIGHT);
    bp_touch_init(&r->touch, WIDTH, HEIGHT);
    r->target = (bp_touch_target){.ui = panel_ui, .ui_ctx = r, .h = &r->input,
                                  .view = &r->view, .s = &r->session};
}

static void rig_free(rig *r)
{
    bp_world_destroy(r->world);
}

/* As the window's loop: the gestures, then the panel, then the arena. */
static void feed(rig *r, SDL_Event ev)
{
    bool used = false;
    int status = bp_touch_event(&r->touch, &r->target, &ev, &used, r->err, sizeof r->err);
    if (status == 0 && !used)
        status = bp_panel_event(&r->panel, &r->input, &r->view, &r->session, &ev, &used, r->err,
                                sizeof r->err);
    if (status == 0 && !used)
        status = bp_input_handle(&r->input, &r->view, &r->session, &ev, r->err, sizeof r->err);
    if (status != 0)
        printf("#   %s\n", r->err);
}

/* A finger at arena point (x, y) px: the window is the arena. */
static SDL_Event finger_at(Uint32 type, SDL_FingerID id, double x, double y, Uint32 ms)
{
    return finger(type, id, x / WIDTH, y / HEIGHT, ms);
}

/* A frame after an event: the hand's lead, then a step. */
static void frame(rig *r)
{
    bp_input_lead(&r->input, &r->session, 1, r->err, sizeof r->err);
    bp_session_step(&r->session, r->err, sizeof r->err);
}

/* 160 px right and 80 up in 8 moves 15 ms apart from the ball's centre,
 * let go at once: by the mouse, or by a finger. */
static void flick(rig *r, bool by_finger)
{
    for (int k = 0; k <= 9; k++) {
        int j = k < 9 ? k : 8;
        int x = 300 + 20 * j, y = 500 - 10 * j;
        Uint32 ms = 1000 + 15 * (Uint32)k - (k == 9 ? 10 : 0);
        Uint32 type = k == 0 ? SDL_MOUSEBUTTONDOWN : k == 9 ? SDL_MOUSEBUTTONUP : SDL_MOUSEMOTION;
        if (by_finger) {
            Uint32 ft = k == 0 ? SDL_FINGERDOWN : k == 9 ? SDL_FINGERUP : SDL_FINGERMOTION;
            feed(r, finger_at(ft, 7, x, y, ms));
        } else {
            feed(r, type == SDL_MOUSEMOTION ? mouse_motion(x, y, ms)
                                            : mouse_button(type, x, y, ms));
        }
        if (k < 9)
            frame(r);
    }
}

static void a_flick_throws_as_the_mouse_does(void)
{
    rig m, f;
    rig_make(&m);
    rig_make(&f);
    flick(&m, false);
    flick(&f, true);
    double mvx = m.world->vx[0], mvy = m.world->vy[0];
    printf("# mouse throw (%.3f, %.3f) px/s, finger throw (%.3f, %.3f)\n", mvx, mvy,
           f.world->vx[0], f.world->vy[0]);
    TAP_OK(m.session.held < 0 && mvx > 200.0 && mvy < 0.0,
           "the mouse's flick throws the ball up and to the right");
    TAP_OK(f.session.held < 0, "the finger's flick lets the ball go");
    /* Fractions are floats: 2^-24 of 768 px is 5e-5 px, 1e-3 px/s over
     * the throw's 60 ms. */
    TAP_NEAR(f.world->vx[0], mvx, 0.01, "a finger's flick throws at the mouse's vx");
    TAP_NEAR(f.world->vy[0], mvy, 0.01, "a finger's flick throws at the mouse's vy");
    TAP_OK(!f.view.hint, "the finger's grab takes the hint away, as the mouse's does");
    rig_free(&m);
    rig_free(&f);
}

static void a_long_press_spawns_one_ball(void)
{
    rig r;
    rig_make(&r);
    r.input.spawn_r = 17.0;
    r.input.spawn_density = 2.0;
    feed(&r, finger_at(SDL_FINGERDOWN, 3, 700, 200, 5000));
    feed(&r, finger_at(SDL_FINGERMOTION, 3, 704, 203, 5100)); /* 5 px: within the slop */
    bp_touch_tick(&r.touch, &r.target, 5300, r.err, sizeof r.err);
    TAP_OK(r.world->count == 1, "at 0.3 s a press spawns nothing yet");
    bp_touch_tick(&r.touch, &r.target, 5500, r.err, sizeof r.err);
    TAP_OK(r.world->count == 2, "at 0.5 s a press on empty space spawns a ball");
    TAP_OK(r.world->count == 2 && r.world->r[1] == 17.0 && r.world->mass[1] == 2.0 * 17.0 * 17.0,
           "of the spawn tool's radius and density");
    TAP_OK(r.world->count == 2 && fabs(r.world->x[1] - 704.0) < 1e-3 &&
               fabs(r.world->y[1] - 203.0) < 1e-3,
           "where the finger rests");
    bp_touch_tick(&r.touch, &r.target, 6500, r.err, sizeof r.err);
    for (int k = 0; k < 120; k++)
        bp_input_stream(&r.input, &r.session, 1.0 / 120.0, r.err, sizeof r.err);
    feed(&r, finger_at(SDL_FINGERUP, 3, 704, 203, 6600));
    TAP_OK(r.world->count == 2, "held on for a second more and lifted: still one ball");

    feed(&r, finger_at(SDL_FINGERDOWN, 4, 600, 100, 8000));
    feed(&r, finger_at(SDL_FINGERMOTION, 4, 620, 100, 8100));
    feed(&r, finger_at(SDL_FINGERMOTION, 4, 600, 100, 8200));
    bp_touch_tick(&r.touch, &r.target, 8600, r.err, sizeof r.err);
    feed(&r, finger_at(SDL_FINGERUP, 4, 600, 100, 8700));
    TAP_OK(r.world->count == 2, "a press that strayed 20 px on the way spawns nothing");

    feed(&r, finger_at(SDL_FINGERDOWN, 5, 300, 500, 9000));
    bp_touch_tick(&r.touch, &r.target, 9600, r.err, sizeof r.err);
    TAP_OK(r.world->count == 2 && r.session.held == 0,
           "a long press on a ball holds it and spawns nothing");
    feed(&r, finger_at(SDL_FINGERUP, 5, 300, 500, 9700));
    rig_free(&r);
}

static void a_pinch_zooms_about_its_midpoint(void)
{
    rig r;
    rig_make(&r);
    feed(&r, finger_at(SDL_FINGERDOWN, 1, 550, 300, 100));
    feed(&r, finger_at(SDL_FINGERDOWN, 2, 650, 300, 120));
    for (int k = 1; k <= 10; k++) {
        double d = 50.0 + 5.0 * k; /* each finger's distance from the midpoint */
        feed(&r, finger_at(SDL_FINGERMOTION, 1, 600 - d, 300, 120 + 10 * (Uint32)k));
        feed(&r, finger_at(SDL_FINGERMOTION, 2, 600 + d, 300, 125 + 10 * (Uint32)k));
    }
    double ax, ay;
    bp_camera_to_arena(&r.view.camera, 600, 300, &ax, &ay);
    TAP_NEAR(r.view.camera.zoom, 2.0, 1e-4, "fingers twice as far apart: the camera zooms 2x");
    TAP_OK(fabs(ax - 600.0) < 1e-3 && fabs(ay - 300.0) < 1e-3,
           "about their midpoint: the arena point under it stays");
    TAP_OK(r.world->count == 1 && r.session.held < 0, "a pinch grabs and spawns nothing");
    /* Both fingers 40 px to the left: the point under them follows. */
    feed(&r, finger_at(SDL_FINGERMOTION, 1, 460, 300, 300));
    feed(&r, finger_at(SDL_FINGERMOTION, 2, 660, 300, 305));
    bp_camera_to_arena(&r.view.camera, 560, 300, &ax, &ay);
    TAP_OK(fabs(ax - 600.0) < 1e-3 && fabs(ay - 300.0) < 1e-3,
           "moved together, the fingers pan the view with them");
    feed(&r, finger_at(SDL_FINGERUP, 1, 460, 300, 400));
    feed(&r, finger_at(SDL_FINGERMOTION, 2, 300, 500, 420));
    feed(&r, finger_at(SDL_FINGERUP, 2, 300, 500, 440));
    TAP_OK(r.session.held < 0 && r.world->vx[0] == 0.0,
           "the pinch's last finger, alone, grabs nothing on its way");
    rig_free(&r);
}

static void a_second_finger_lets_go_without_a_throw(void)
{
    rig r;
    rig_make(&r);
    feed(&r, finger_at(SDL_FINGERDOWN, 1, 300, 500, 1000));
    frame(&r);
    for (int k = 1; k <= 4; k++) {
        feed(&r, finger_at(SDL_FINGERMOTION, 1, 300 + 30 * k, 500, 1000 + 15 * (Uint32)k));
        frame(&r);
    }
    TAP_OK(r.session.held == 0 && r.input.dragging, "one finger holds the ball");
    feed(&r, finger_at(SDL_FINGERDOWN, 2, 700, 300, 1065));
    TAP_OK(r.session.held < 0 && !r.input.dragging, "a second finger lets go of it");
    TAP_OK(r.world->vx[0] == 0.0 && r.world->vy[0] == 0.0,
           "without a throw: it rests, though the first finger was moving at 2,000 px/s");
    double x = r.world->x[0];
    feed(&r, finger_at(SDL_FINGERMOTION, 1, 500, 500, 1080));
    feed(&r, finger_at(SDL_FINGERUP, 1, 520, 500, 1090));
    feed(&r, finger_at(SDL_FINGERUP, 2, 700, 300, 1100));
    frame(&r);
    TAP_OK(r.world->vx[0] == 0.0 && r.world->x[0] == x,
           "nor is it thrown when the first finger flicks on and lifts");
    rig_free(&r);
}

static void a_tap_opens_the_panel_and_a_finger_drags_its_slider(void)
{
    rig r;
    rig_make(&r);
    /* The tab: the right edge, halfway down (panel.c). */
    feed(&r, finger_at(SDL_FINGERDOWN, 1, WIDTH - 30, HEIGHT / 2, 100));
    feed(&r, finger_at(SDL_FINGERUP, 1, WIDTH - 30, HEIGHT / 2, 160));
    TAP_OK(r.view.show_panel, "a tap on the panel's tab opens the panel");
    double x0, y, x1, y1;
    bool found = bp_panel_knob_at(&r.panel, &r.input, &r.view, &r.session, "gravity", 0.0, &x0,
                                  &y) &&
                 bp_panel_knob_at(&r.panel, &r.input, &r.view, &r.session, "gravity", 1500.0,
                                  &x1, &y1);
    TAP_OK(found, "the open panel has a gravity slider");
    feed(&r, finger_at(SDL_FINGERDOWN, 2, x0, y, 300));
    for (int k = 1; k <= 10; k++)
        feed(&r, finger_at(SDL_FINGERMOTION, 2, x0 + (x1 - x0) * k / 10.0, y, 300 + 20 * (Uint32)k));
    feed(&r, finger_at(SDL_FINGERUP, 2, x1, y, 520));
    bp_touch_tick(&r.touch, &r.target, 2000, r.err, sizeof r.err);
    TAP_NEAR(r.world->params.gravity, 1500.0, 10.0,
             "a finger dragged along the gravity slider sets gravity (to its step of 10)");
    TAP_OK(r.world->count == 1 && r.input.undo.past_count == 1,
           "as one edit, and no long press on the panel spawns a ball");
    rig_free(&r);
}

static void a_finger_scrolls_a_panel_taller_than_the_window(void)
{
    rig r;
    rig_make(&r);
    r.view.show_panel = true;
    r.panel.height = 300; /* a landscape phone's: the panel is 558 units tall */
    /* The panel's title, off every widget: its top left is (760, 8). */
    feed(&r, finger_at(SDL_FINGERDOWN, 1, 790, 26, 100));
    for (int k = 1; k <= 5; k++)
        feed(&r, finger_at(SDL_FINGERMOTION, 1, 790, 26 + 20 * k, 100 + 20 * (Uint32)k));
    TAP_OK(r.panel.scroll == 0, "dragged down at the top, the panel stays put");
    for (int k = 1; k <= 10; k++)
        feed(&r, finger_at(SDL_FINGERMOTION, 1, 790, 126 - 20 * k, 200 + 20 * (Uint32)k));
    feed(&r, finger_at(SDL_FINGERUP, 1, 790, -74, 420));
    TAP_OK(r.panel.scroll == 200, "dragged up 200 px, it scrolls up 200 units with the finger");
    TAP_OK(r.world->count == 1 && r.session.held < 0 && r.input.undo.past_count == 0,
           "and the drag sets, grabs and spawns nothing");
    /* A tap that shakes by 4 units on the way is a tap, not a scroll. */
    feed(&r, finger_at(SDL_FINGERDOWN, 2, 790, 126, 500));
    feed(&r, finger_at(SDL_FINGERMOTION, 2, 790, 122, 510));
    feed(&r, finger_at(SDL_FINGERUP, 2, 790, 122, 520));
    TAP_OK(r.panel.scroll == 200, "a tap that shakes 4 units scrolls nothing");
    rig_free(&r);
}

/* SDL's mouse made of a finger (the hint SDL_HINT_TOUCH_MOUSE_EVENTS on):
 * its button at the finger's point, its which SDL_TOUCH_MOUSEID. */
static SDL_Event touch_mouse(Uint32 type, int x, int y, Uint32 ms)
{
    SDL_Event ev = type == SDL_MOUSEMOTION ? mouse_motion(x, y, ms) : mouse_button(type, x, y, ms);
    if (type == SDL_MOUSEMOTION)
        ev.motion.which = SDL_TOUCH_MOUSEID;
    else
        ev.button.which = SDL_TOUCH_MOUSEID;
    return ev;
}

static void mouse_copies_of_fingers_do_nothing_twice(void)
{
    rig r;
    rig_make(&r);
    /* SDL sends its copy first: the mouse moves there and presses, then
     * the finger comes down. */
    feed(&r, touch_mouse(SDL_MOUSEMOTION, 300, 500, 100));
    feed(&r, touch_mouse(SDL_MOUSEBUTTONDOWN, 300, 500, 100));
    feed(&r, finger_at(SDL_FINGERDOWN, 1, 300, 500, 100));
    TAP_OK(r.session.held == 0 && r.touch.state == BP_TOUCH_HOLD,
           "a finger on the ball grabs it, as a finger");
    feed(&r, touch_mouse(SDL_MOUSEBUTTONUP, 300, 500, 150));
    feed(&r, finger_at(SDL_FINGERUP, 1, 300, 500, 150));
    TAP_OK(r.session.held < 0 && !r.input.dragging, "and lets it go when it lifts");
    /* A tap on the tab: a copy handled too would open the panel, and the
     * finger would then press whatever of the open panel stands there. */
    feed(&r, touch_mouse(SDL_MOUSEMOTION, WIDTH - 30, HEIGHT / 2, 300));
    feed(&r, touch_mouse(SDL_MOUSEBUTTONDOWN, WIDTH - 30, HEIGHT / 2, 300));
    feed(&r, finger_at(SDL_FINGERDOWN, 2, WIDTH - 30, HEIGHT / 2, 300));
    feed(&r, touch_mouse(SDL_MOUSEMOTION, WIDTH - 300, HEIGHT / 2, 320));
    feed(&r, touch_mouse(SDL_MOUSEBUTTONUP, WIDTH - 30, HEIGHT / 2, 340));
    feed(&r, finger_at(SDL_FINGERUP, 2, WIDTH - 30, HEIGHT / 2, 340));
    TAP_OK(r.view.show_panel && r.input.cursor_x == 300.0 && r.input.undo.past_count == 0,
           "a tap on the tab opens the panel once; SDL's copies move and set nothing");
    /* SDL's fingers made of the mouse (SDL_HINT_MOUSE_TOUCH_EVENTS on). */
    SDL_Event fake = finger_at(SDL_FINGERDOWN, 0, 300, 500, 500);
    fake.tfinger.touchId = SDL_MOUSE_TOUCHID;
    feed(&r, fake);
    TAP_OK(r.session.held < 0 && r.touch.state == BP_TOUCH_IDLE,
           "a finger made of the mouse grabs nothing: the mouse does, as itself");
    feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 300, 500, 600));
    TAP_OK(r.session.held == 0, "and the mouse itself still grabs as it always did");
    rig_free(&r);
}

int main(void)
{
    a_flick_throws_as_the_mouse_does();
    a_long_press_spawns_one_ball();
    a_pinch_zooms_about_its_midpoint();
    a_second_finger_lets_go_without_a_throw();
    a_tap_opens_the_panel_and_a_finger_drags_its_slider();
    a_finger_scrolls_a_panel_taller_than_the_window();
    mouse_copies_of_fingers_do_nothing_twice();
    return tap_done();
}
