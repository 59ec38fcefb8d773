/* Input recordings and the session that applies them: the file format (good
 * files, every class of malformed or truncated file, FILE:LINE messages),
 * and the rules of grabbing, dragging, releasing, placing, deleting and
 * resetting, down to the bit where the design promises bits. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "query.h"
#include "replay.h"
#include "session.h"
#include "setup.h"
#include "step.h"
#include "tap.h"

static int parse(const char *text, bp_replay *rp, char *err, size_t err_size)
{
    return bp_replay_parse(rp, "rec.txt", text, strlen(text), err, err_size);
}

static void a_good_recording_parses_in_full(void)
{
    const char *text = "ballpit-input 1\n"
                       "# a comment line\n"
                       "\n"
                       "3 grab 10.5 20\n"
                       "3 move 11 21   # trailing comment\n"
                       "7 release -1e3 2.5e2\n"
                       "7 set restitution 0.25\n"
                       "9 spawn 100 100 12\n"
                       "9 delete 100 100\n"
                       "9 pause\n"
                       "9 resume\n"
                       "9 reset\n"
                       "12 wall 0 0 50 50 2\n"
                       "end 40\n";
    bp_replay rp;
    char err[256] = "";
    int status = parse(text, &rp, err, sizeof err);
    TAP_OK(status == 0, "a recording using every kind parses");
    if (status != 0) {
        printf("#   %s\n", err);
        return;
    }
    TAP_OK(rp.count == 10 && rp.end_step == 40, "ten inputs and the end step 40");
    TAP_OK(rp.inputs[0].kind == BP_INPUT_GRAB && rp.inputs[0].step == 3 &&
               rp.inputs[0].v[0] == 10.5 && rp.inputs[0].v[1] == 20.0 && rp.inputs[0].line == 4,
           "grab: step, position and source line kept");
    TAP_OK(rp.inputs[2].kind == BP_INPUT_RELEASE && rp.inputs[2].v[0] == -1000.0 &&
               rp.inputs[2].v[1] == 250.0,
           "release velocity read exactly");
    TAP_OK(rp.inputs[3].kind == BP_INPUT_SET && rp.inputs[3].param == BP_PARAM_RESTITUTION &&
               rp.inputs[3].v[0] == 0.25,
           "set names its parameter");
    TAP_OK(rp.inputs[9].kind == BP_INPUT_WALL && rp.inputs[9].v[4] == 2.0, "wall with radius");
    TAP_OK(bp_replay_next(&rp, 2) == NULL, "nothing is due before step 3");
    TAP_OK(bp_replay_next(&rp, 3) == &rp.inputs[0] && bp_replay_next(&rp, 3) == &rp.inputs[1] &&
               bp_replay_next(&rp, 3) == NULL,
           "both step-3 inputs are due at step 3, in file order, and then none");
    bp_replay_free(&rp);
}

/* Each bad file must be refused with status 2 and a message that starts
 * with rec.txt:LINE: for the line at fault. */
static void bad(const char *text, int line, const char *what)
{
    bp_replay rp;
    char err[256] = "";
    char want[32];
    snprintf(want, sizeof want, "rec.txt:%d: ", line);
    int status = parse(text, &rp, err, sizeof err);
    int ok = status == 2 && strncmp(err, want, strlen(want)) == 0 && !strchr(err, '\n');
    TAP_OK(ok, what);
    if (!ok)
        printf("#   status %d, message '%s', wanted prefix '%s'\n", status, err, want);
    if (status == 0)
        bp_replay_free(&rp);
}

static void malformed_and_truncated_recordings_name_file_and_line(void)
{
    bad("", 1, "empty file: rec.txt:1");
    bad("ballpit-scene 1\n1 grab 0 0\nend 5\n", 1, "wrong header: rec.txt:1");
    bad("ballpit-input 1\n1 grab 0 0\n2 move 3 4\n", 4, "no end line (cut short): rec.txt:4");
    bad("ballpit-input 1\n1 grab 0 0\nend 5", 3, "end line without its newline: rec.txt:3");
    bad("ballpit-input 1\n1 grab 0 0\n2 move 3", 3, "cut in the middle of a line: rec.txt:3");
    bad("ballpit-input 1\n1 throw 0 0\nend 5\n", 2, "unknown input kind: rec.txt:2");
    bad("ballpit-input 1\n1 grab 0\nend 5\n", 2, "too few numbers: rec.txt:2");
    bad("ballpit-input 1\n1 grab 0 0 0\nend 5\n", 2, "too many numbers: rec.txt:2");
    bad("ballpit-input 1\n1 move nan 0\nend 5\n", 2, "nan: rec.txt:2");
    bad("ballpit-input 1\n1 move inf 0\nend 5\n", 2, "inf: rec.txt:2");
    bad("ballpit-input 1\n1 move 1e999 0\nend 5\n", 2, "overflowing number: rec.txt:2");
    bad("ballpit-input 1\n1 move 0x10 0\nend 5\n", 2, "hex number: rec.txt:2");
    bad("ballpit-input 1\nx grab 0 0\nend 5\n", 2, "step not a number: rec.txt:2");
    bad("ballpit-input 1\n-1 grab 0 0\nend 5\n", 2, "negative step: rec.txt:2");
    bad("ballpit-input 1\n5 grab 0 0\n4 move 0 0\nend 5\n", 3, "step going backwards: rec.txt:3");
    bad("ballpit-input 1\n5 grab 0 0\nend 4\n", 3, "end before the last input: rec.txt:3");
    bad("ballpit-input 1\nend 4\n5 grab 0 0\n", 3, "input after the end: rec.txt:3");
    bad("ballpit-input 1\nend 4\nend 4\n", 3, "two end lines: rec.txt:3");
    bad("ballpit-input 1\n1 set gravityx 3\nend 5\n", 2, "unknown parameter: rec.txt:2");
    bad("ballpit-input 1\n1 set restitution 1.5\nend 5\n", 2, "restitution 1.5: rec.txt:2");
    bad("ballpit-input 1\n1 set drag -1\nend 5\n", 2, "negative drag: rec.txt:2");
    bad("ballpit-input 1\n1 spawn 0 0 0\nend 5\n", 2, "spawn radius 0: rec.txt:2");
    bad("ballpit-input 1\n1 release 1e300 0\nend 5\n", 2, "absurd velocity: rec.txt:2");
    bad("ballpit-input 1\n1 restore 0 1 2 3 4 5 6 7\nend 5\n", 2,
        "restore with 8 numbers of 9: rec.txt:2");
    bad("ballpit-input 1\n1 restore 0 1 2 3 4 5 6 7 8 9\nend 5\n", 2,
        "restore with 10 numbers: rec.txt:2");
    bad("ballpit-input 1\n1 restore 0.5 10 10 5 25 0 0 0 0\nend 5\n", 2,
        "restore of id 0.5: rec.txt:2");
    bad("ballpit-input 1\n1 restore 0 10 10 5 0 0 0 0 0\nend 5\n", 2,
        "restore with mass 0: rec.txt:2");
    bad("ballpit-input 1\n1 restore 0 10 10 5 25 0 0 1e300 0\nend 5\n", 2,
        "restore with an absurd spin: rec.txt:2");
    bad("ballpit-input 1\n1\nend 5\n", 2, "step without a kind: rec.txt:2");
    bad("ballpit-input 1\n1 grab 0 0\nend\n", 3, "end without a step: rec.txt:3");
    bad("ballpit-input 1\n1 grab\0 0 0\nend 5\n", 2, "a NUL byte: rec.txt:2");
    bad("ballpit-input 1\n1 scene\nend 5\n", 2, "scene without its line count: rec.txt:2");
    bad("ballpit-input 1\n1 scene 2 3\nend 5\n", 2, "scene with two numbers: rec.txt:2");
    bad("ballpit-input 1\n1 scene 1.5\nx\nend 5\n", 2, "scene of 1.5 lines: rec.txt:2");
    bad("ballpit-input 1\n1 scene -1\nend 5\n", 2, "scene of -1 lines: rec.txt:2");
    bad("ballpit-input 1\n1 scene 1e300\nend 5\n", 2, "scene of 1e300 lines: rec.txt:2");
    bad("ballpit-input 1\n1 scene 999999999\nworld w=500\nend 5\n", 5,
        "scene of more lines than the file has: truncated at rec.txt:5");
    bad("ballpit-input 1\n1 scene 2\nworld w=500\n", 4,
        "scene whose last line is missing: rec.txt:4");
    bad("ballpit-input 1\n1 scene 1\nworld w=500", 3,
        "scene whose line lacks its newline: rec.txt:3");
    bad("ballpit-input 1\n1 scene 2\nworld w=500\nbal x=1\nend 5\n", 4,
        "a scene line that does not parse: rec.txt:4, the recording's line");
    bad("ballpit-input 1\n5 scene 0\n6 rewind 4\nend 8\n", 3,
        "a rewind past a scene load: rec.txt:3");
    const char nul[] = "ballpit-input 1\n1 scene 1\nworld\0 w=500\nend 5\n";
    bp_replay rp;
    char err[256] = "";
    int status = bp_replay_parse(&rp, "rec.txt", nul, sizeof nul - 1, err, sizeof err);
    TAP_OK(status == 2 && strncmp(err, "rec.txt:3: ", 11) == 0,
           "a NUL byte in a scene's line: rec.txt:3");
    if (status == 0)
        bp_replay_free(&rp);
}

/* A world with no gravity or drag, ball 0 (r 20) at (200, 200) and ball 1
 * (r 10) at (300, 200), both at rest. */
static bp_world *two_balls(bp_options *opts, double gravity)
{
    *opts = bp_options_default();
    opts->balls = 0;
    bp_params p = bp_params_default();
    p.gravity = gravity;
    p.drag = 0.0;
    p.width = 800.0;
    p.height = 600.0;
    bp_world *w = bp_world_new(&p);
    bp_world_insert_ball(w, 200.0, 200.0, 0.0, 0.0, 20.0, 0.0);
    bp_world_insert_ball(w, 300.0, 200.0, 0.0, 0.0, 10.0, 0.0);
    return w;
}

static int act(bp_session *s, bp_input_kind kind, double a, double b)
{
    char err[128];
    bp_input in = {.kind = kind, .v = {a, b}};
    return bp_session_apply(s, &in, err, sizeof err);
}

static void a_grab_keeps_its_offset_and_the_ball_follows_exactly(void)
{
    bp_options opts;
    bp_world *w = two_balls(&opts, 980.0);
    bp_session s;
    bp_session_init(&s, w, &opts);
    act(&s, BP_INPUT_GRAB, 207.0, 195.0);
    TAP_OK(s.held == 0 && (w->flags[0] & BP_BALL_HELD) && w->inv_mass[0] == 0.0,
           "grabbing a point 7 px right of ball 0's centre picks ball 0, infinitely heavy");
    char err[128];
    for (int k = 0; k < 60; k++)
        bp_session_step(&s, err, sizeof err);
    TAP_OK(w->x[0] == 200.0 && w->y[0] == 200.0,
           "held still for 60 steps under gravity, it does not move at all (no jump, no fall)");
    act(&s, BP_INPUT_MOVE, 237.0, 190.0);
    bp_session_step(&s, err, sizeof err);
    /* (target - x) / dt * dt is the target up to rounding of two products:
     * a few ulps of 250 px, far below 1e-9 px. 30 px in a step is 3,600
     * px/s, under the throw cap of 5,000. */
    TAP_NEAR(w->x[0], 230.0, 1e-9, "after a move the centre is cursor + offset in x, in one step");
    TAP_NEAR(w->y[0], 195.0, 1e-9, "... and in y");
    /* A jerk far past the corner: the hand moves at most at the throw cap,
     * 5000 px/s, so the 273 px to (20, 20) take ceil(273 / (5000 / 120))
     * = 7 steps. */
    act(&s, BP_INPUT_MOVE, -1000.0, -1000.0);
    double fastest = 0.0;
    int steps = 0;
    while (steps < 100 && !(fabs(w->x[0] - 20.0) < 1e-9 && fabs(w->y[0] - 20.0) < 1e-9)) {
        bp_session_step(&s, err, sizeof err);
        fastest = fmax(fastest, hypot(w->vx[0], w->vy[0]));
        steps++;
    }
    int want = (int)ceil(hypot(230.0 - 20.0, 195.0 - 20.0) / (opts.max_throw / 120.0));
    TAP_OK(steps == want, "a jerk of the mouse: the held ball gets there at the throw cap's pace");
    TAP_NEAR(fastest, opts.max_throw, 1e-9, "... never faster than the throw cap");
    TAP_NEAR(w->x[0], 20.0, 1e-9, "dragged past the left side it stops at x = r");
    TAP_NEAR(w->y[0], 20.0, 1e-9, "dragged past the top it stops at y = r");
    bp_world_destroy(w);
}

static void a_held_ball_shoves_others_and_is_not_shoved(void)
{
    /* Drag ball 0 (r 20) onto ball 1 (r 10) at (300, 200), 10 px per step.
     * Held, ball 0 has infinite mass: it lands on every target exactly and
     * ball 1 must end up outside it (contact distance 30 px, less the
     * solver's rounding). */
    bp_options opts;
    bp_world *w = two_balls(&opts, 0.0);
    bp_session s;
    bp_session_init(&s, w, &opts);
    act(&s, BP_INPUT_GRAB, 200.0, 200.0);
    char err[128];
    int on_target = 1;
    for (int k = 1; k <= 10; k++) {
        act(&s, BP_INPUT_MOVE, 200.0 + 10.0 * k, 200.0);
        bp_session_step(&s, err, sizeof err);
        on_target &= fabs(w->x[0] - (200.0 + 10.0 * k)) < 1e-9 && fabs(w->y[0] - 200.0) < 1e-9;
    }
    int64_t i1 = bp_world_index_of(w, 1);
    double dx = w->x[i1] - w->x[0], dy = w->y[i1] - w->y[0];
    TAP_OK(on_target, "the held ball reached every target though a ball was in the way");
    TAP_OK(sqrt(dx * dx + dy * dy) >= 30.0 - 1e-6, "the other ball was pushed out of it");
    /* Shoved at the held ball's 1200 px/s, not batted at (1 + e) times it;
     * pushed along every step since, it keeps that speed, less drag. */
    TAP_NEAR(w->vx[i1], 1200.0, 1.0, "and sent off ahead of it at its speed, 1200 px/s");
    bp_world_destroy(w);
}

/* Grabs the top ball of a settled pile of 300 random balls (seed, under
 * solver) and drags it 200 px down into the pile, then 300 px right and
 * back, at speed px/s.
 * Returns how many ball-steps some other ball spent faster than twice that
 * sideways or upwards (a ball pushed over the pile's edge may fall faster
 * by gravity alone). */
static long drag_through_pile(uint64_t seed, double speed, int64_t solver)
{
    bp_options opts = bp_options_default();
    opts.balls = 300;
    opts.seed = seed;
    opts.params.solver = solver;
    opts.params_set |= BP_SET_SOLVER;
    int status;
    char err[256];
    bp_world *w = bp_setup_world(&opts, &status, err, sizeof err);
    if (!w)
        return -1;
    bp_session s;
    bp_session_init(&s, w, &opts);
    for (int k = 0; k < 900; k++)
        bp_session_step(&s, err, sizeof err);
    size_t top = 0;
    for (size_t i = 1; i < w->count; i++)
        top = w->y[i] < w->y[top] ? i : top;
    double cx = w->x[top], cy = w->y[top];
    act(&s, BP_INPUT_GRAB, cx, cy);
    double per_step = speed / w->params.hz;
    const double legs[3][3] = {{0.0, 1.0, 200.0}, {1.0, 0.0, 300.0}, {-1.0, 0.0, 300.0}};
    long too_fast = 0;
    for (int leg = 0; leg < 3; leg++)
        for (double gone = 0.0; gone < legs[leg][2]; gone += per_step) {
            cx += legs[leg][0] * per_step;
            cy += legs[leg][1] * per_step;
            act(&s, BP_INPUT_MOVE, cx, cy);
            bp_session_step(&s, err, sizeof err);
            for (size_t i = 0; i < w->count; i++)
                too_fast += !(w->flags[i] & BP_BALL_HELD) &&
                            (fabs(w->vx[i]) > 2.0 * speed || -w->vy[i] > 2.0 * speed);
        }
    bp_world_destroy(w);
    return too_fast;
}

static void dragging_through_a_pile_shoves_it_aside_without_flinging_it(void)
{
    /* A ball the held ball pushes leaves at the held ball's speed, and
     * wedged between it and others somewhat faster, not many times as fast.
     * With the 1D law a jammed ball was batted off the infinitely heavy
     * held ball at (1 + e) v in every pass, and the pile erupted: 9, 16 and
     * 28 ball-steps over 2 v for these seeds, balls flung at up to 4.5 v. */
    long too_fast = 0;
    for (uint64_t seed = 3; seed <= 5; seed++)
        too_fast += drag_through_pile(seed, 600.0, BP_SOLVER_PASSES);
    TAP_OK(too_fast >= 0 && too_fast <= 5,
           "dragged through three piles at 600 px/s, no ball is flung: "
           "at most 5 ball-steps faster than 1200 px/s");
    printf("# ball-steps faster than twice the hand: %ld\n", too_fast);
    /* The same under the soft solver, whose hand pulls the held ball back
     * within the step with a bounded strength: left behind by the pile
     * for a step, it then rammed it at the whole lag's speed (19). */
    too_fast = 0;
    for (uint64_t seed = 3; seed <= 5; seed++)
        too_fast += drag_through_pile(seed, 600.0, BP_SOLVER_SOFT);
    printf("# soft: ball-steps faster than twice the hand: %ld\n", too_fast);
    TAP_OK(too_fast >= 0 && too_fast <= 5,
           "soft: dragged through three piles at 600 px/s, no ball is flung");
    /* Slowly, at 132 px/s, the pile only moves aside: a ball squeezed
     * between the hand and the balls or the wall behind it took the bounce
     * off each in turn and was flung at up to 513 px/s. */
    too_fast = 0;
    for (uint64_t seed = 3; seed <= 5; seed++)
        too_fast += drag_through_pile(seed, 132.0, BP_SOLVER_PASSES);
    printf("# slow drag, ball-steps faster than twice the hand: %ld\n", too_fast);
    TAP_OK(too_fast >= 0 && too_fast <= 5,
           "dragged through three piles at 132 px/s, the pile moves gently: "
           "at most 5 ball-steps faster than 264 px/s sideways or up");
}

static void a_held_ball_stops_at_a_wall_and_slides_along_it(void)
{
    /* A horizontal wall at y = 100 (half thickness 2) and ball 0 (r 20)
     * below it. The cursor jumps to a point beyond the wall, up and to the
     * right. The ball must stop touching the wall (centre at y = 122) and
     * slide the rest of the way along it to x = 300, the target's x, without
     * crossing it or bouncing back off it, however long it is held there. */
    bp_options opts;
    bp_world *w = two_balls(&opts, 0.0);
    bp_world_delete_ball(w, 1);
    bp_world_insert_wall(w, (bp_wall){0.0, 100.0, 800.0, 100.0, 2.0});
    bp_session s;
    bp_session_init(&s, w, &opts);
    act(&s, BP_INPUT_GRAB, 200.0, 200.0);
    act(&s, BP_INPUT_MOVE, 300.0, 0.0);
    char err[128];
    double highest = 1e9;
    for (int k = 0; k < 30; k++) {
        bp_session_step(&s, err, sizeof err);
        highest = fmin(highest, w->y[0]);
    }
    TAP_NEAR(w->y[0], 122.0, 1e-6, "held against the wall: resting on it, centre at y = 122");
    TAP_OK(highest >= 122.0 - 1e-6, "never through the wall, not even for a step");
    TAP_NEAR(w->x[0], 300.0, 1e-6, "slid along it to the cursor's x = 300");
    act(&s, BP_INPUT_PAUSE, 0, 0);
    act(&s, BP_INPUT_MOVE, 100.0, -50.0);
    TAP_OK(w->y[0] >= 122.0 - 1e-6 && fabs(w->x[0] - 100.0) < 1e-6,
           "paused, placing it beyond the wall also stops at the wall");
    bp_world_destroy(w);
}

static void release_sets_the_recorded_velocity_bit_for_bit(void)
{
    bp_options opts;
    bp_world *w = two_balls(&opts, 0.0);
    bp_session s;
    bp_session_init(&s, w, &opts);
    act(&s, BP_INPUT_GRAB, 200.0, 200.0);
    act(&s, BP_INPUT_RELEASE, 0.1 + 0.2, -1234.5678);
    TAP_OK(s.held == -1 && !(w->flags[0] & BP_BALL_HELD) && w->inv_mass[0] == 1.0 / w->mass[0],
           "released: no longer held, finite mass again");
    TAP_OK(w->vx[0] == 0.1 + 0.2 && w->vy[0] == -1234.5678, "the velocity is exactly as given");
    act(&s, BP_INPUT_RELEASE, 5.0, 5.0);
    TAP_OK(w->vx[0] == 0.1 + 0.2, "a release with nothing held changes nothing");
    act(&s, BP_INPUT_GRAB, 500.0, 500.0);
    TAP_OK(s.held == -1, "a grab on empty space holds nothing");
    bp_world_destroy(w);
}

static void while_paused_a_move_places_the_ball(void)
{
    bp_options opts;
    bp_world *w = two_balls(&opts, 980.0);
    bp_session s;
    bp_session_init(&s, w, &opts);
    act(&s, BP_INPUT_PAUSE, 0, 0);
    act(&s, BP_INPUT_GRAB, 195.0, 200.0);
    act(&s, BP_INPUT_MOVE, 395.0, 400.0);
    TAP_OK(w->x[0] == 400.0 && w->y[0] == 400.0 && s.jumped,
           "paused: the ball is at cursor + offset at once, without a step");
    act(&s, BP_INPUT_RESUME, 0, 0);
    act(&s, BP_INPUT_RELEASE, 0.0, 0.0);
    char err[128];
    bp_session_step(&s, err, sizeof err);
    /* Released at rest: one step of gravity, v = g dt, y += v dt. */
    double dt = 1.0 / 120.0;
    TAP_NEAR(w->vy[0], 980.0 * dt, 1e-12, "released at rest, it starts to fall: vy = g dt");
    bp_world_destroy(w);
}

static void delete_takes_the_topmost_ball_and_lets_go(void)
{
    bp_options opts;
    bp_world *w = two_balls(&opts, 0.0);
    bp_session s;
    bp_session_init(&s, w, &opts);
    bp_world_insert_ball(w, 205.0, 200.0, 0.0, 0.0, 5.0, 0.0); /* id 2, on top of ball 0 */
    act(&s, BP_INPUT_GRAB, 190.0, 200.0);
    act(&s, BP_INPUT_DELETE, 205.0, 200.0);
    TAP_OK(bp_world_index_of(w, 2) < 0 && bp_world_index_of(w, 0) >= 0 && s.held == 0,
           "delete at a point on two balls removes the top one (id 2)");
    act(&s, BP_INPUT_DELETE, 190.0, 200.0);
    TAP_OK(bp_world_index_of(w, 0) < 0 && s.held == -1, "deleting the held ball lets go of it");
    char err[128];
    TAP_OK(bp_session_step(&s, err, sizeof err) == BP_STEP_DONE, "and the next step runs without it");
    bp_world_destroy(w);
}

static bool same_world(const bp_world *a, const bp_world *b)
{
    if (a->count != b->count || a->next_id != b->next_id || a->wall_count != b->wall_count ||
        memcmp(&a->params, &b->params, sizeof a->params) != 0)
        return false;
    size_t n = a->count * sizeof(double);
    return memcmp(a->x, b->x, n) == 0 && memcmp(a->y, b->y, n) == 0 &&
           memcmp(a->vx, b->vx, n) == 0 && memcmp(a->vy, b->vy, n) == 0 &&
           memcmp(a->r, b->r, n) == 0 && memcmp(a->inv_mass, b->inv_mass, n) == 0 &&
           memcmp(a->id, b->id, a->count * sizeof(uint32_t)) == 0;
}

static void reset_restores_the_initial_world_exactly(void)
{
    bp_options opts = bp_options_default();
    int status;
    char err[256];
    bp_world *w = bp_setup_world(&opts, &status, err, sizeof err);
    bp_world *fresh = bp_setup_world(&opts, &status, err, sizeof err);
    bp_session s;
    bp_session_init(&s, w, &opts);
    for (int k = 0; k < 50; k++)
        bp_session_step(&s, err, sizeof err);
    act(&s, BP_INPUT_GRAB, w->x[3], w->y[3]);
    bp_input spawn = {.kind = BP_INPUT_SPAWN, .v = {100.0, 100.0, 12.0}};
    bp_session_apply(&s, &spawn, err, sizeof err);
    bp_input set = {.kind = BP_INPUT_SET, .param = BP_PARAM_GRAVITY, .v = {-500.0}};
    bp_session_apply(&s, &set, err, sizeof err);
    bp_input wall = {.kind = BP_INPUT_WALL, .v = {0, 0, 100, 100, 2}};
    bp_session_apply(&s, &wall, err, sizeof err);
    bp_session_step(&s, err, sizeof err);
    act(&s, BP_INPUT_RESET, 0, 0);
    TAP_OK(s.held == -1 && s.tick == 51, "reset lets go; the tick keeps counting (frames stay unique)");
    TAP_OK(same_world(w, fresh), "after reset every ball, id, parameter and wall is as at the start");
    for (int k = 0; k < 200; k++) {
        bp_session_step(&s, err, sizeof err);
        step_or_bail(fresh);
    }
    TAP_OK(same_world(w, fresh), "and 200 steps later it still matches a fresh run bit for bit");
    bp_world_destroy(w);
    bp_world_destroy(fresh);
}

/* Makes the file named by the template path (its XXXXXX replaced) for a
 * recording to be written to. */
static bool temp_recording(char *path)
{
    int fd = mkstemp(path);
    TAP_OK(fd >= 0, "temporary recording file");
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

static void a_recorded_session_replays_bit_for_bit(void)
{
    /* Drive a session by hand while recording it, then feed the file to a
     * second session on a fresh copy of the same world: the worlds must be
     * identical at the end. */
    char path[] = "/tmp/bp-test-replay-XXXXXX";
    if (!temp_recording(path))
        return;
    bp_options opts = bp_options_default();
    int status;
    char err[256];
    bp_world *live = bp_setup_world(&opts, &status, err, sizeof err);
    bp_world *again = bp_setup_world(&opts, &status, err, sizeof err);
    bp_input_writer writer;
    TAP_OK(bp_input_writer_open(&writer, path, err, sizeof err), "recording opens");
    bp_session s;
    bp_session_init(&s, live, &opts);
    s.writer = &writer;
    for (int k = 0; k < 240; k++) {
        if (k == 100) {
            int64_t top = bp_query_point(live, live->x[5], live->y[5]);
            act(&s, BP_INPUT_GRAB, live->x[5] + 1.0 / 3.0, live->y[5]);
            TAP_OK(s.held == top, "picked the ball under the cursor");
        }
        if (k > 100 && k < 140)
            act(&s, BP_INPUT_MOVE, 300.0 + 7.25 * (k - 100), 500.0 - 3.1 * (k - 100));
        if (k == 140)
            act(&s, BP_INPUT_RELEASE, 1234.0 / 7.0, -2000.0 / 3.0);
        if (k == 170) {
            act(&s, BP_INPUT_PAUSE, 0, 0);
            act(&s, BP_INPUT_GRAB, live->x[0], live->y[0]);
            act(&s, BP_INPUT_MOVE, 512.0, 100.0);
            act(&s, BP_INPUT_RELEASE, 0.0, 0.0);
            act(&s, BP_INPUT_RESUME, 0, 0);
            bp_input spawn = {.kind = BP_INPUT_SPAWN, .v = {700.0, 100.0, 15.0}};
            bp_session_apply(&s, &spawn, err, sizeof err);
            act(&s, BP_INPUT_DELETE, live->x[10], live->y[10]);
        }
        bp_session_step(&s, err, sizeof err);
    }
    TAP_OK(bp_input_writer_close(&writer, s.tick, err, sizeof err), "recording closes");
    bp_replay rp;
    status = bp_replay_load(&rp, path, err, sizeof err);
    TAP_OK(status == 0 && rp.end_step == 240, "the recording loads back, end 240");
    bp_session r;
    bp_session_init(&r, again, &opts);
    while (status == 0 && r.tick < rp.end_step) {
        bp_session_feed(&r, &rp, err, sizeof err);
        bp_session_step(&r, err, sizeof err);
    }
    TAP_OK(same_world(live, again), "replayed world equals the live one bit for bit");
    bp_replay_free(&rp);
    bp_world_destroy(live);
    bp_world_destroy(again);
    remove(path);
}

/* A small scene a session loads mid-run: its own arena and rules, three
 * balls and a wall, and a comment (a '#' inside the embedded text). */
static const char small_scene[] = "# three balls on a slope\n"
                                  "world w=400 h=300 gravity=500 restitution=0.7 hz=240\n"
                                  "wall x1=0 y1=200 x2=400 y2=280 r=3\n"
                                  "ball x=50 y=50 r=10 vx=30\n"
                                  "ball x=150 y=60 r=12\n"
                                  "ball x=250 y=70 r=8 vy=-40\n";

/* One session drives, records and rewinds across a scene load; a second
 * replays the file. */
static void a_scene_load_is_recorded_whole_and_replays_bit_for_bit(void)
{
    char path[] = "/tmp/bp-test-scene-XXXXXX";
    if (!temp_recording(path))
        return;
    bp_options opts = bp_options_default();
    int status;
    char err[256] = "";
    bp_world *live = bp_setup_world(&opts, &status, err, sizeof err);
    bp_world *again = bp_setup_world(&opts, &status, err, sizeof err);
    bp_input_writer writer;
    bp_input_writer_open(&writer, path, err, sizeof err);
    bp_history h;
    bp_history_init(&h, 30.0, live->params.hz, BP_HISTORY_MAX_BYTES);
    bp_session s;
    bp_session_init(&s, live, &opts);
    bp_session_keep_history(&s, &h);
    s.writer = &writer;
    bp_input set = {.kind = BP_INPUT_SET, .param = BP_PARAM_GRAVITY, .v = {0.0}};
    bp_input scene = {.kind = BP_INPUT_SCENE, .text = (char *)small_scene, .name = "small.scene"};
    scene.v[0] = (double)bp_input_scene_lines(small_scene);
    bp_input broken = scene;
    broken.text = "world w=5\n";
    for (int k = 0; k < 120; k++) {
        if (k == 30)
            bp_session_apply(&s, &set, err, sizeof err);
        if (k == 60) {
            size_t before = live->count;
            int refused = bp_session_apply(&s, &broken, err, sizeof err);
            TAP_OK(refused == 2 && strncmp(err, "small.scene:1: ", 15) == 0 &&
                       live->count == before && live->params.gravity == 0.0,
                   "a scene that does not build is bad input (2, NAME:LINE), the world untouched");
            status = bp_session_apply(&s, &scene, err, sizeof err);
            TAP_OK(status == 0 && live->count == 3 && live->wall_count == 1 &&
                       live->params.width == 400.0 && live->params.gravity == 500.0 &&
                       live->params.hz == 240.0 && s.tick == 60,
                   "a scene input swaps in the scene: its 3 balls, wall, arena and rules");
        }
        if (k == 90) {
            bp_input rewind = {.kind = BP_INPUT_REWIND, .v = {75.0}};
            status = bp_session_apply(&s, &rewind, err, sizeof err);
            TAP_OK(status == 0 && s.tick == 75 && live->count == 3,
                   "a rewind to after the load stays in the loaded scene");
            bp_input past = {.kind = BP_INPUT_REWIND, .v = {59.0}};
            TAP_OK(bp_session_apply(&s, &past, err, sizeof err) == 1 && s.tick == 75,
                   "a rewind to before the load is refused: the history starts at the load");
        }
        if (k == 100) {
            act(&s, BP_INPUT_RESET, 0, 0);
            TAP_OK(live->count == 3 && live->params.width == 400.0 && live->x[0] == 50.0,
                   "reset goes back to the loaded scene, not the first one");
        }
        bp_session_step(&s, err, sizeof err);
    }
    bp_input_writer_close(&writer, s.tick, err, sizeof err);
    bp_replay rp;
    status = bp_replay_load(&rp, path, err, sizeof err);
    const bp_input *load = NULL;
    for (size_t k = 0; status == 0 && k < rp.count; k++)
        load = rp.inputs[k].kind == BP_INPUT_SCENE ? &rp.inputs[k] : load;
    TAP_OK(status == 0 && load && load->step == 60 && strcmp(load->text, small_scene) == 0,
           "the recording holds the scene's text whole at step 60");
    if (status)
        printf("#   %s\n", err);
    bp_params first = again->params;
    TAP_OK(status == 0 && bp_replay_check_arena(&rp, &first, path, err, sizeof err) == 0,
           "its inputs fit the arenas they act in");
    bp_history h2;
    bp_history_init(&h2, 30.0, again->params.hz, BP_HISTORY_MAX_BYTES);
    bp_session r;
    bp_session_init(&r, again, &opts);
    bp_session_keep_history(&r, &h2);
    while (status == 0 && r.tick < rp.end_step) {
        status = bp_session_feed(&r, &rp, err, sizeof err);
        bp_session_step(&r, err, sizeof err);
    }
    TAP_OK(status == 0 && same_world(live, again),
           "the replay, load and rewind and reset included, equals the live run bit for bit");
    bp_replay_free(&rp);
    bp_session_free(&s);
    bp_session_free(&r);
    bp_history_free(&h);
    bp_history_free(&h2);
    bp_world_destroy(live);
    bp_world_destroy(again);
    remove(path);
}

static void a_stop_request_ends_the_step_unfinished_and_survives_a_reset(void)
{
    bp_options opts = bp_options_default();
    int status;
    char err[256];
    bp_world *w = bp_setup_world(&opts, &status, err, sizeof err);
    bp_session s;
    bp_session_init(&s, w, &opts);
    volatile int stop = 0;
    w->stop = &stop;
    TAP_OK(bp_session_step(&s, err, sizeof err) == BP_STEP_DONE && s.tick == 1,
           "with the stop flag clear a step is done and counted");
    act(&s, BP_INPUT_RESET, 0, 0);
    TAP_OK(w->stop == &stop, "a reset rebuilds the world but keeps its stop flag");
    stop = 1;
    TAP_OK(bp_session_step(&s, err, sizeof err) == BP_STEP_STOPPED && s.tick == 1,
           "once a stop is asked for, the step reports stopped and the tick does not advance");
    bp_world_destroy(w);
}

static void inputs_that_break_the_arena_limits_are_clamped_or_dropped(void)
{
    bp_options opts;
    bp_world *w = two_balls(&opts, 980.0);
    bp_session s;
    bp_session_init(&s, w, &opts);
    char err[128];
    bp_input big = {.kind = BP_INPUT_SPAWN, .v = {100.0, 100.0, 400.0}};
    size_t before = w->count;
    TAP_OK(bp_session_apply(&s, &big, err, sizeof err) == 0 && w->count == before,
           "a spawn larger than the 800x600 arena makes no ball (a recording of it is refused)");
    bp_input wall = {.kind = BP_INPUT_WALL, .v = {-50.0, 100.0, 900.0, 700.0, 3.0}};
    TAP_OK(bp_session_apply(&s, &wall, err, sizeof err) == 0 && w->wall_count == 1 &&
               w->walls[0].x1 == 0.0 && w->walls[0].x2 == 800.0 && w->walls[0].y2 == 600.0 &&
               wall.v[0] == 0.0 && wall.v[3] == 600.0,
           "a wall drawn past the arena's edge ends on it, and is recorded so");
    bp_world_destroy(w);
}

/* The panel's sliders set rolling resistance and the step rate as inputs
 * like the others: named in the file, checked against the command line's
 * ranges, and applied to the world's parameters. */
static void rolling_and_hz_are_set_by_name_and_checked(void)
{
    const char *text = "ballpit-input 1\n"
                       "2 set rolling 0.25\n"
                       "2 set hz 240\n"
                       "end 5\n";
    bp_replay rp;
    char err[256] = "";
    int status = parse(text, &rp, err, sizeof err);
    TAP_OK(status == 0 && rp.count == 2 && rp.inputs[0].param == BP_PARAM_ROLLING &&
               rp.inputs[0].v[0] == 0.25 && rp.inputs[1].param == BP_PARAM_HZ &&
               rp.inputs[1].v[0] == 240.0,
           "set rolling and set hz parse with their values");
    if (status == 0)
        bp_replay_free(&rp);
    TAP_OK(parse("ballpit-input 1\n0 set hz 0\nend 1\n", &rp, err, sizeof err) == 2 &&
               parse("ballpit-input 1\n0 set rolling 2\nend 1\n", &rp, err, sizeof err) == 2,
           "hz 0 and rolling 2 are refused, as on the command line");
    bp_params p = bp_params_default();
    bp_world *w = bp_world_new(&p);
    bp_options opts = bp_options_default();
    bp_session s;
    bp_session_init(&s, w, &opts);
    bp_input roll = {.kind = BP_INPUT_SET, .param = BP_PARAM_ROLLING, .v = {0.5}};
    bp_input hz = {.kind = BP_INPUT_SET, .param = BP_PARAM_HZ, .v = {60.0}};
    TAP_OK(bp_session_apply(&s, &roll, err, sizeof err) == 0 &&
               bp_session_apply(&s, &hz, err, sizeof err) == 0 && w->params.rolling == 0.5 &&
               w->params.hz == 60.0,
           "applied, they set the world's rolling resistance and step rate");
    bp_world_destroy(w);
}

int main(void)
{
    a_good_recording_parses_in_full();
    malformed_and_truncated_recordings_name_file_and_line();
    a_grab_keeps_its_offset_and_the_ball_follows_exactly();
    a_held_ball_shoves_others_and_is_not_shoved();
    dragging_through_a_pile_shoves_it_aside_without_flinging_it();
    a_held_ball_stops_at_a_wall_and_slides_along_it();
    release_sets_the_recorded_velocity_bit_for_bit();
    while_paused_a_move_places_the_ball();
    delete_takes_the_topmost_ball_and_lets_go();
    reset_restores_the_initial_world_exactly();
    a_recorded_session_replays_bit_for_bit();
    a_scene_load_is_recorded_whole_and_replays_bit_for_bit();
    a_stop_request_ends_the_step_unfinished_and_survives_a_reset();
    inputs_that_break_the_arena_limits_are_clamped_or_dropped();
    rolling_and_hz_are_set_by_name_and_checked();
    return tap_done();
}
