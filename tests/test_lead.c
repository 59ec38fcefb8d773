/* The window's drag (src/app/input.c): motion events arrive once a frame,
 * and the held ball must follow the cursor at the cursor's own speed over
 * the frame's steps, not jump a frame's travel in one step. Driven with
 * hand-made SDL events, no display needed. */
#include <SDL2/SDL.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "apprig.h"
#include "sdlevents.h"
#include "session.h"
#include "tap.h"

/* One ball (r 20) at (200, 200), no gravity: where it goes is the hand's
 * doing alone. */
static void rig_make(rig *r)
{
    rig_one_ball(r, 200.0, 200.0, 20.0);
}

static int feed(rig *r, SDL_Event ev)
{
    return bp_input_handle(&r->input, &r->view, &r->session, &ev, r->err, sizeof r->err);
}

static void a_frame_of_travel_is_spread_over_its_steps(void)
{
    rig r;
    rig_make(&r);
    feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 200, 200, 1000));
    TAP_OK(r.session.held == 0, "the press grabs the ball under the cursor");
    /* One frame: the cursor went 40 px right in three events; the frame
     * takes 4 steps. */
    feed(&r, mouse_motion(210, 200, 1010));
    feed(&r, mouse_motion(230, 200, 1020));
    feed(&r, mouse_motion(240, 200, 1030));
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
    feed(&r, mouse_motion(260, 200, 1100));
    bp_input_lead(&r.input, &r.session, 4, r.err, sizeof r.err);
    bp_session_step(&r.session, r.err, sizeof r.err);
    TAP_OK(fabs(r.world->x[0] - 245.0) < 1e-9, "a quarter of the next frame's travel first");
    feed(&r, mouse_button(SDL_MOUSEBUTTONUP, 260, 200, 1110));
    bp_input_lead(&r.input, &r.session, 3, r.err, sizeof r.err);
    bp_session_step(&r.session, r.err, sizeof r.err);
    TAP_OK(r.session.held < 0 && r.world->vx[0] > 0.0,
           "released, it flies off to the right with the flick");
    TAP_NEAR(r.world->x[0], 245.0 + r.world->vx[0] / 120.0, 1e-9,
             "from where it was, and the lead moves it no more");
    bp_world_destroy(r.world);
}

static void pausing_places_the_travel_left(void)
{
    rig r;
    rig_make(&r);
    feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 200, 200, 1000));
    feed(&r, mouse_motion(240, 210, 1010));
    feed(&r, key_down(SDLK_SPACE, 0));
    TAP_OK(r.session.paused && fabs(r.world->x[0] - 240.0) < 1e-9 &&
               fabs(r.world->y[0] - 210.0) < 1e-9,
           "paused with travel left, the ball is placed at the cursor: no step would take it");
    bp_world_destroy(r.world);
}

static void paused_a_move_places_at_once(void)
{
    rig r;
    rig_make(&r);
    feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 200, 200, 1000));
    r.session.paused = true;
    feed(&r, mouse_motion(250, 180, 1010));
    TAP_OK(r.world->x[0] == 250.0 && r.world->y[0] == 180.0,
           "paused, the ball is placed at the cursor with the event, no steps needed");
    r.session.paused = false;
    bp_input_lead(&r.input, &r.session, 3, r.err, sizeof r.err);
    bp_session_step(&r.session, r.err, sizeof r.err);
    TAP_OK(fabs(r.world->x[0] - 250.0) < 1e-9 && fabs(r.world->y[0] - 180.0) < 1e-9,
           "and, running again, stays there: nothing was left to spread");
    bp_world_destroy(r.world);
}

/* Shift+Right asks for a second of single steps; a held key repeats. At
 * 100,000 Hz, 30,000 presses asked for 3e9 steps, past an int. */
static void single_steps_are_bounded(void)
{
    rig r;
    rig_make(&r);
    r.world->params.hz = 100000.0;
    feed(&r, key_down(SDLK_SPACE, 0));
    for (int k = 0; k < 30000; k++)
        feed(&r, key_down(SDLK_RIGHT, KMOD_LSHIFT));
    /* A minute of simulated time ahead at most: 6,000,000 steps here. */
    TAP_OK(r.view.single_steps == 6000000,
           "30,000 Shift+Right at 100,000 Hz ask for a minute of steps, no more (no overflow)");
    if (r.view.single_steps != 6000000)
        printf("#   pending %lld\n", (long long)r.view.single_steps);
    feed(&r, key_down(SDLK_SPACE, 0));
    TAP_OK(r.view.single_steps == 0, "Space, running again, drops the single steps asked for");
    bp_world_destroy(r.world);
}

static void g_keeps_the_sign_of_gravity(void)
{
    rig r;
    rig_make(&r);
    r.world->params.gravity = 980.0;
    feed(&r, key_down(SDLK_UP, 0));
    feed(&r, key_down(SDLK_g, 0));
    TAP_OK(r.world->params.gravity == 0.0, "G turns gravity off");
    feed(&r, key_down(SDLK_g, 0));
    TAP_OK(r.world->params.gravity == -980.0, "Up, G, G: gravity is back, still pulling up");
    bp_world_destroy(r.world);
}

static void r_resets_the_time_scale(void)
{
    rig r;
    rig_make(&r);
    feed(&r, key_down(SDLK_RIGHTBRACKET, 0));
    TAP_OK(r.view.time_scale == 2.0, "] doubles the time scale");
    bp_session_step(&r.session, r.err, sizeof r.err);
    feed(&r, key_down(SDLK_r, 0));
    TAP_OK(r.view.time_scale == 1.0, "R puts the time scale back to x1");
    TAP_OK(r.world->steps == 0 && r.session.tick == 1,
           "and the step count the HUD shows to 0 (the session's count of every step, which "
           "recordings are stamped with, goes on)");
    bp_world_destroy(r.world);
}

static void walls_are_placed_deleted_and_dragged(void)
{
    rig r;
    rig_make(&r);
    SDL_SetModState(KMOD_LSHIFT);
    feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 500, 300, 1000));
    feed(&r, mouse_button(SDL_MOUSEBUTTONUP, 500, 300, 1050));
    SDL_SetModState(KMOD_NONE);
    TAP_OK(r.world->wall_count == 1 && r.world->walls[0].x1 == 500.0 &&
               r.world->walls[0].x2 == 500.0 && r.world->walls[0].y1 == 300.0 &&
               r.world->walls[0].r > 1.0,
           "Shift+click places a peg: a wall of no length");
    bp_input in = {.kind = BP_INPUT_WALL, .v = {100, 500, 400, 500, 3}};
    bp_session_apply(&r.session, &in, r.err, sizeof r.err);
    /* Take the second wall's far end, at (400, 500), and drag it. */
    feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 402, 501, 2000));
    feed(&r, mouse_motion(450, 450, 2010));
    feed(&r, mouse_button(SDL_MOUSEBUTTONUP, 450, 450, 2020));
    TAP_OK(r.session.held < 0 && r.world->walls[1].x2 == 450.0 && r.world->walls[1].y2 == 450.0 &&
               r.world->walls[1].x1 == 100.0,
           "dragging a wall's end moves that end alone, and grabs no ball");
    feed(&r, mouse_motion(200, 200, 2100));
    feed(&r, key_down(SDLK_x, 0));
    TAP_OK(r.world->count == 0 && r.world->wall_count == 2,
           "X over a ball deletes the ball, not a wall");
    feed(&r, mouse_motion(120, 500, 2200));
    feed(&r, key_down(SDLK_x, 0));
    TAP_OK(r.world->wall_count == 1 && r.world->walls[0].x1 == 500.0,
           "X over a wall deletes that wall; the other stays");
    feed(&r, mouse_motion(10, 10, 2300));
    feed(&r, key_down(SDLK_DELETE, 0));
    TAP_OK(r.world->wall_count == 1, "Delete over nothing deletes nothing");
    bp_world_destroy(r.world);
}


/* X on the wall whose end is held: the walls after it move down a place,
 * and the drag went on moving whichever wall took the held one's index. */
static void x_on_a_dragged_wall_ends_the_drag(void)
{
    rig r;
    rig_make(&r);
    bp_input a = {.kind = BP_INPUT_WALL, .v = {100, 500, 400, 500, 3}};
    bp_input b = {.kind = BP_INPUT_WALL, .v = {100, 100, 400, 100, 3}};
    bp_session_apply(&r.session, &a, r.err, sizeof r.err);
    bp_session_apply(&r.session, &b, r.err, sizeof r.err);
    feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 400, 500, 1000));
    feed(&r, mouse_motion(420, 480, 1010));
    feed(&r, key_down(SDLK_x, 0));
    TAP_OK(r.world->wall_count == 1 && r.world->walls[0].y1 == 100.0,
           "X over the end being dragged deletes that wall");
    feed(&r, mouse_motion(450, 450, 1020));
    feed(&r, mouse_button(SDL_MOUSEBUTTONUP, 450, 450, 1030));
    TAP_OK(r.world->walls[0].x1 == 100.0 && r.world->walls[0].y1 == 100.0 &&
               r.world->walls[0].x2 == 400.0 && r.world->walls[0].y2 == 100.0,
           "moving on and letting go moves no other wall");
    feed(&r, key_down(SDLK_z, KMOD_LCTRL));
    TAP_OK(r.world->wall_count == 2 && r.world->walls[1].x2 == 420.0 &&
               r.world->walls[1].y2 == 480.0 && r.world->walls[0].x2 == 400.0,
           "Ctrl+Z brings the deleted wall back as it was dragged; the other is as it was");
    bp_world_destroy(r.world);
}

static void edits_are_undone_and_redone(void)
{
    rig r;
    rig_make(&r);
    /* Four edits: a wall drawn, the ball deleted, a ball spawned, gravity
     * changed; then a wall's end dragged. */
    SDL_SetModState(KMOD_LSHIFT);
    feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 100, 500, 1000));
    feed(&r, mouse_button(SDL_MOUSEBUTTONUP, 400, 500, 1050));
    SDL_SetModState(KMOD_NONE);
    feed(&r, mouse_motion(200, 200, 1100));
    feed(&r, key_down(SDLK_x, 0));
    feed(&r, mouse_motion(600, 300, 1200));
    feed(&r, key_down(SDLK_s, 0));
    feed(&r, key_down(SDLK_DOWN, 0));
    double g = r.world->params.gravity;
    feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 400, 500, 1300));
    feed(&r, mouse_motion(420, 450, 1310));
    feed(&r, mouse_motion(450, 400, 1320));
    feed(&r, mouse_button(SDL_MOUSEBUTTONUP, 450, 400, 1330));
    TAP_OK(r.world->wall_count == 1 && r.world->count == 1 && r.world->x[0] == 600.0 &&
               g == 980.0 && r.world->walls[0].x2 == 450.0,
           "edits: a wall, a ball deleted, a ball spawned, gravity down, a wall end dragged");
    feed(&r, key_down(SDLK_z, KMOD_LCTRL));
    TAP_OK(r.world->walls[0].x2 == 400.0 && r.world->walls[0].y2 == 500.0,
           "Ctrl+Z takes the whole drag of the wall's end back at once");
    feed(&r, key_down(SDLK_z, KMOD_LCTRL));
    TAP_OK(r.world->params.gravity == 0.0, "Ctrl+Z again: gravity as it was");
    feed(&r, key_down(SDLK_z, KMOD_LCTRL));
    TAP_OK(r.world->count == 0, "again: the spawned ball is gone");
    feed(&r, key_down(SDLK_z, KMOD_LCTRL));
    TAP_OK(r.world->count == 1 && r.world->x[0] == 200.0 && r.world->y[0] == 200.0 &&
               r.world->r[0] == 20.0,
           "again: the deleted ball is back, same place and size");
    feed(&r, key_down(SDLK_z, KMOD_LCTRL));
    TAP_OK(r.world->wall_count == 0, "again: the wall drawn is gone");
    feed(&r, key_down(SDLK_z, KMOD_LCTRL));
    TAP_OK(r.world->wall_count == 0 && r.world->count == 1,
           "with nothing left, Ctrl+Z does nothing");
    feed(&r, key_down(SDLK_y, KMOD_LCTRL));
    feed(&r, key_down(SDLK_y, KMOD_LCTRL));
    TAP_OK(r.world->wall_count == 1 && r.world->count == 0,
           "Ctrl+Y redoes: the wall again, the ball deleted again");
    feed(&r, key_down(SDLK_y, KMOD_LCTRL));
    feed(&r, key_down(SDLK_y, KMOD_LCTRL));
    feed(&r, key_down(SDLK_y, KMOD_LCTRL));
    TAP_OK(r.world->count == 1 && r.world->x[0] == 600.0 && r.world->params.gravity == 980.0 &&
               r.world->walls[0].x2 == 450.0,
           "and the spawn, the gravity and the drag: all five edits as they were");
    feed(&r, key_down(SDLK_z, KMOD_LCTRL));
    feed(&r, key_down(SDLK_e, 0));
    feed(&r, key_down(SDLK_y, KMOD_LCTRL));
    TAP_OK(r.world->walls[0].x2 == 400.0, "a new edit after an undo leaves nothing to redo");
    bp_world_destroy(r.world);
}

/* A ball deleted (X) is brought back by Ctrl+Z as it was: the same id,
 * and every number of its state to the bit, not a new ball at rest. */
static void undo_brings_a_deleted_ball_back_as_it_was(void)
{
    rig r;
    rig_make(&r);
    bp_world_insert_ball(r.world, 500.0, 400.0, 0.0, 0.0, 30.0, 10000.0);
    size_t i = (size_t)bp_world_index_of(r.world, 1);
    r.world->vx[i] = 45.6;
    r.world->vy[i] = -12.25;
    r.world->w[i] = 2.74;
    r.world->angle[i] = 5.23;
    double was[] = {r.world->x[i], r.world->y[i], r.world->r[i], r.world->mass[i],
                    r.world->vx[i], r.world->vy[i], r.world->w[i], r.world->angle[i]};
    feed(&r, mouse_motion(500, 400, 1000));
    feed(&r, key_down(SDLK_x, 0));
    TAP_OK(bp_world_index_of(r.world, 1) < 0 && r.world->count == 1, "X deletes ball 1");
    feed(&r, key_down(SDLK_z, KMOD_LCTRL));
    int64_t k = bp_world_index_of(r.world, 1);
    bool same = k >= 0 && r.world->count == 2 && r.world->next_id == 2;
    if (same) {
        double now[] = {r.world->x[k], r.world->y[k], r.world->r[k], r.world->mass[k],
                        r.world->vx[k], r.world->vy[k], r.world->w[k], r.world->angle[k]};
        same = memcmp(was, now, sizeof was) == 0;
    }
    TAP_OK(same, "Ctrl+Z brings ball 1 back under its id, with its place, size, mass, "
                 "velocity, spin and angle");
    feed(&r, key_down(SDLK_y, KMOD_LCTRL));
    TAP_OK(bp_world_index_of(r.world, 1) < 0, "Ctrl+Y deletes it again");
    feed(&r, key_down(SDLK_z, KMOD_LCTRL));
    k = bp_world_index_of(r.world, 1);
    TAP_OK(k >= 0 && r.world->mass[k] == 10000.0 && r.world->w[k] == 2.74,
           "and Ctrl+Z brings it back again");
    bp_input twice = {.kind = BP_INPUT_RESTORE, .v = {1, 100, 100, 5, 25, 0, 0, 0, 0}};
    bp_input unborn = {.kind = BP_INPUT_RESTORE, .v = {7, 100, 100, 5, 25, 0, 0, 0, 0}};
    TAP_OK(bp_session_apply(&r.session, &twice, r.err, sizeof r.err) == 0 &&
               bp_session_apply(&r.session, &unborn, r.err, sizeof r.err) == 0 &&
               r.world->count == 2 && r.world->next_id == 2 &&
               r.world->x[bp_world_index_of(r.world, 1)] == 500.0,
           "a restore of a ball that exists, or of an id never given, does nothing");
    bp_world_destroy(r.world);
}

static void ctrl_o_asks_for_a_scene_name(void)
{
    rig r;
    rig_make(&r);
    feed(&r, key_down(SDLK_o, KMOD_LCTRL));
    TAP_OK(r.view.prompting, "Ctrl+O asks for a scene's name");
    SDL_Event text = {.type = SDL_TEXTINPUT};
    snprintf(text.text.text, sizeof text.text.text, "%s", "funnelx");
    feed(&r, text);
    feed(&r, key_down(SDLK_x, 0));
    feed(&r, key_down(SDLK_BACKSPACE, 0));
    TAP_OK(strcmp(r.view.prompt, "funnel") == 0 && r.world->count == 1,
           "typing goes into the name (X deletes no ball), Backspace takes a letter back");
    feed(&r, key_down(SDLK_RETURN, 0));
    TAP_OK(!r.view.prompting && r.view.load_scene, "Enter asks the window to load it");
    r.view.load_scene = false;
    feed(&r, key_down(SDLK_o, KMOD_LCTRL));
    feed(&r, key_down(SDLK_ESCAPE, 0));
    TAP_OK(!r.view.prompting && !r.view.load_scene && !r.view.quit,
           "Esc while typing gives up, and does not quit");
    bp_world_destroy(r.world);
    rig_make(&r);
    r.opts.record_path = "run.rec";
    bp_input_init(&r.input, &r.view, &r.opts, r.world);
    feed(&r, key_down(SDLK_o, KMOD_LCTRL));
    TAP_OK(r.view.prompting && !r.view.load_scene,
           "recording, Ctrl+O asks for a name: the recording holds the load");
    r.opts.record_path = NULL;
    r.opts.dump_dir = "out";
    bp_input_init(&r.input, &r.view, &r.opts, r.world);
    feed(&r, key_down(SDLK_o, KMOD_LCTRL));
    TAP_OK(!r.view.prompting && r.view.load_scene,
           "dumping, Ctrl+O asks for no name: the load says at once why it cannot");
    bp_world_destroy(r.world);
}

static void wall_edits_replay(void)
{
    const char *text = "ballpit-input 1\n0 unwall 120 500\n3 wallend 0 1 450 450\n"
                       "4 delwall 0\n4 remove 3\nend 5\n";
    bp_replay rp = {0};
    char err[200] = "";
    int status = bp_replay_parse(&rp, "t", text, strlen(text), err, sizeof err);
    TAP_OK(status == 0 && rp.count == 4 && rp.inputs[0].kind == BP_INPUT_UNWALL &&
               rp.inputs[1].kind == BP_INPUT_WALL_END && rp.inputs[1].v[3] == 450.0 &&
               rp.inputs[2].kind == BP_INPUT_DELWALL && rp.inputs[3].kind == BP_INPUT_REMOVE,
           "a recording reads back wall deletions, moved ends and what undo does");
    if (status)
        printf("#   %s\n", err);
    bp_replay_free(&rp);
    const char *bad = "ballpit-input 1\n0 wallend 0 2 450 450\nend 5\n";
    TAP_OK(bp_replay_parse(&rp, "t", bad, strlen(bad), err, sizeof err) == 2,
           "a wall end other than 0 or 1 is refused");
    bp_replay_free(&rp);
}

/* Esc closes what is open before it quits, and asks before edits are
 * lost; closing the window (SDL_QUIT) quits at once. */
static void esc_closes_first_and_asks_before_losing_edits(void)
{
    rig r;
    rig_make(&r);
    feed(&r, key_down(SDLK_h, 0));
    feed(&r, key_down(SDLK_ESCAPE, 0));
    TAP_OK(!r.view.show_help && !r.view.quit, "Esc with the help open closes the help");
    bp_view_tell(&r.view, "cannot load:", "nowhere: no such scene file", true);
    feed(&r, key_down(SDLK_ESCAPE, 0));
    TAP_OK(!bp_view_message_due(&r.view) && !r.view.quit, "Esc closes an error on screen");
    feed(&r, key_down(SDLK_ESCAPE, 0));
    TAP_OK(r.view.quit, "with nothing open and no edits, Esc quits at once");
    bp_world_destroy(r.world);

    rig_make(&r);
    feed(&r, mouse_motion(600, 300, 1000));
    feed(&r, key_down(SDLK_s, 0));
    feed(&r, key_down(SDLK_ESCAPE, 0));
    TAP_OK(!r.view.quit && bp_view_message_due(&r.view) &&
               strstr(r.view.message, "unsaved edits") && strstr(r.view.message, "Ctrl+S"),
           "a ball spawned: Esc asks (unsaved edits, Esc again to quit, Ctrl+S to save)");
    feed(&r, key_down(SDLK_TAB, 0));
    feed(&r, key_down(SDLK_ESCAPE, 0));
    TAP_OK(!r.view.quit, "another key in between takes the question back: Esc asks again");
    SDL_Event ctrl = key_down(SDLK_LCTRL, 0);
    feed(&r, ctrl);
    feed(&r, key_down(SDLK_ESCAPE, 0));
    TAP_OK(r.view.quit, "Esc again quits (a modifier pressed between does not count)");
    bp_world_destroy(r.world);

    rig_make(&r);
    feed(&r, key_down(SDLK_e, 0));
    feed(&r, key_down(SDLK_r, 0));
    feed(&r, key_down(SDLK_ESCAPE, 0));
    TAP_OK(r.view.quit, "edits undone by R (back to the start): nothing to lose, Esc quits");
    bp_world_destroy(r.world);

    rig_make(&r);
    feed(&r, key_down(SDLK_d, 0));
    SDL_Event close = {.type = SDL_QUIT};
    feed(&r, close);
    TAP_OK(r.view.quit, "closing the window quits at once, edits or not");
    bp_world_destroy(r.world);
}

int main(void)
{
    g_keeps_the_sign_of_gravity();
    single_steps_are_bounded();
    r_resets_the_time_scale();
    walls_are_placed_deleted_and_dragged();
    wall_edits_replay();
    edits_are_undone_and_redone();
    x_on_a_dragged_wall_ends_the_drag();
    undo_brings_a_deleted_ball_back_as_it_was();
    ctrl_o_asks_for_a_scene_name();
    esc_closes_first_and_asks_before_losing_edits();
    a_frame_of_travel_is_spread_over_its_steps();
    paused_a_move_places_at_once();
    pausing_places_the_travel_left();
    return tap_done();
}
