/* The window's drag (src/app/input.c): motion events arrive once a frame,
 * and the held ball must follow the cursor at the cursor's own speed over
 * the frame's steps, not jump a frame's travel in one step. Driven with
 * hand-made SDL events, no display needed. */
#include <SDL2/SDL.h>
#include <math.h>

#include "input.h"
#include "session.h"
#include "tap.h"

static SDL_Event button(Uint32 type, int x, int y, Uint32 ms)
{
    SDL_Event ev = {.type = type};
    ev.button.button = SDL_BUTTON_LEFT;
    ev.button.x = x;
    ev.button.y = y;
    ev.button.timestamp = ms;
    return ev;
}

static SDL_Event motion(int x, int y, Uint32 ms)
{
    SDL_Event ev = {.type = SDL_MOUSEMOTION};
    ev.motion.x = x;
    ev.motion.y = y;
    ev.motion.timestamp = ms;
    return ev;
}

typedef struct rig {
    bp_options opts;
    bp_world *world;
    bp_session session;
    bp_input_handler input;
    bp_view view;
    char err[128];
} rig;

/* One ball (r 20) at (200, 200), no gravity: where it goes is the hand's
 * doing alone. */
static void rig_make(rig *r)
{
    r->opts = bp_options_default();
    bp_params p = bp_params_default();
    p.gravity = 0.0;
    p.drag = 0.0;
    r->world = bp_world_create(&p);
    bp_world_add_ball(r->world, 200.0, 200.0, 0.0, 0.0, 20.0, 0.0);
    bp_session_init(&r->session, r->world, &r->opts);
    bp_input_init(&r->input, &r->view, &r->opts, r->world);
}

static int feed(rig *r, SDL_Event ev)
{
    return bp_input_handle(&r->input, &r->view, &r->session, &ev, r->err, sizeof r->err);
}

static void a_frame_of_travel_is_spread_over_its_steps(void)
{
    rig r;
    rig_make(&r);
    feed(&r, button(SDL_MOUSEBUTTONDOWN, 200, 200, 1000));
    TAP_OK(r.session.held == 0, "the press grabs the ball under the cursor");
    /* One frame: the cursor went 40 px right in three events; the frame
     * takes 4 steps. */
    feed(&r, motion(210, 200, 1010));
    feed(&r, motion(230, 200, 1020));
    feed(&r, motion(240, 200, 1030));
    TAP_OK(r.world->x[0] == 200.0, "motion alone does not move the ball: steps do");
    int even = 1;
    for (int k = 0; k < 4; k++) {
        bp_input_lead(&r.input, &r.session, 4 - k, r.err, sizeof r.err);
        bp_session_step(&r.session, r.err, sizeof r.err);
        even &= fabs(r.world->x[0] - (210.0 + 10.0 * k)) < 1e-9 && r.world->y[0] == 200.0;
    }
    TAP_OK(even, "over the frame's 4 steps the ball goes 10 px a step (1,200 px/s), "
                 "not 40 px in the first and none in the rest");
    /* The next frame takes 2 steps, and the cursor did not move: nothing
     * is left to spread, the ball stays. */
    for (int k = 0; k < 2; k++) {
        bp_input_lead(&r.input, &r.session, 2 - k, r.err, sizeof r.err);
        bp_session_step(&r.session, r.err, sizeof r.err);
    }
    TAP_OK(fabs(r.world->x[0] - 240.0) < 1e-9, "with the cursor still, the ball stays at it");
    /* Let go mid-frame: thrown from where it is, with the flick. */
    feed(&r, motion(260, 200, 1100));
    bp_input_lead(&r.input, &r.session, 4, r.err, sizeof r.err);
    bp_session_step(&r.session, r.err, sizeof r.err);
    TAP_OK(fabs(r.world->x[0] - 245.0) < 1e-9, "a quarter of the next frame's travel first");
    feed(&r, button(SDL_MOUSEBUTTONUP, 260, 200, 1110));
    bp_input_lead(&r.input, &r.session, 3, r.err, sizeof r.err);
    bp_session_step(&r.session, r.err, sizeof r.err);
    TAP_OK(r.session.held < 0 && r.world->vx[0] > 0.0,
           "released, it flies off to the right with the flick");
    TAP_NEAR(r.world->x[0], 245.0 + r.world->vx[0] / 120.0, 1e-9,
             "from where it was, and the lead moves it no more");
    bp_world_destroy(r.world);
}

static SDL_Event key(SDL_Keycode sym)
{
    SDL_Event ev = {.type = SDL_KEYDOWN};
    ev.key.keysym.sym = sym;
    return ev;
}

static void pausing_places_the_travel_left(void)
{
    rig r;
    rig_make(&r);
    feed(&r, button(SDL_MOUSEBUTTONDOWN, 200, 200, 1000));
    feed(&r, motion(240, 210, 1010));
    feed(&r, key(SDLK_SPACE));
    TAP_OK(r.session.paused && fabs(r.world->x[0] - 240.0) < 1e-9 &&
               fabs(r.world->y[0] - 210.0) < 1e-9,
           "paused with travel left, the ball is placed at the cursor: no step would take it");
    bp_world_destroy(r.world);
}

static void paused_a_move_places_at_once(void)
{
    rig r;
    rig_make(&r);
    feed(&r, button(SDL_MOUSEBUTTONDOWN, 200, 200, 1000));
    r.session.paused = true;
    feed(&r, motion(250, 180, 1010));
    TAP_OK(r.world->x[0] == 250.0 && r.world->y[0] == 180.0,
           "paused, the ball is placed at the cursor with the event, no steps needed");
    r.session.paused = false;
    bp_input_lead(&r.input, &r.session, 3, r.err, sizeof r.err);
    bp_session_step(&r.session, r.err, sizeof r.err);
    TAP_OK(fabs(r.world->x[0] - 250.0) < 1e-9 && fabs(r.world->y[0] - 180.0) < 1e-9,
           "and, running again, stays there: nothing was left to spread");
    bp_world_destroy(r.world);
}

int main(void)
{
    a_frame_of_travel_is_spread_over_its_steps();
    paused_a_move_places_at_once();
    pausing_places_the_travel_left();
    return tap_done();
}
