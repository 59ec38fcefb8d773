/* The stir comparison's reading of a stir recording (src/bench/stirpath.c):
 * the hand's target before each step is the last move stamped at or before
 * it, the grab point until the first; anything but a plain stir is refused;
 * and what a stir moved is counted at two radii and a tenth of one, and
 * what moves at the speed below which a ball may fall asleep. */
#include <math.h>
#include <string.h>

#include "stirpath.h"
#include "tap.h"

static int read_path(const char *text, bp_stir_path *path, char *err, size_t err_size)
{
    bp_replay rp;
    int status = bp_replay_parse(&rp, "stir.rec", text, strlen(text), err, err_size);
    if (status)
        return status;
    status = bp_stir_path_read(&rp, "stir.rec", 100.0, 50.0, path, err, err_size);
    bp_replay_free(&rp);
    return status;
}

static void a_stir_is_read_as_a_path(void)
{
    /* Moves at steps 1, 2 and 4 (none at 3); let go before step 6. */
    /* The move stamped 6 comes with the release: the hand is let go there. */
    const char *text = "ballpit-input 1\n0 spawn 10 20 5\n0 grab 10 20\n1 move 11 20\n"
                       "2 move 12 21\n4 move 14 23\n6 move 50 40\n6 release 0 0\nend 9\n";
    bp_stir_path path;
    char err[256] = "";
    int status = read_path(text, &path, err, sizeof err);
    TAP_OK(status == 0, "a stir recording is read");
    if (status)
        printf("#   %s\n", err);
    TAP_OK(status == 0 && path.x0 == 10.0 && path.y0 == 20.0 && path.r == 5.0,
           "the hand is made where it was spawned, with its radius");
    TAP_OK(status == 0 && path.moves == 6 && path.end == 9,
           "it is held before steps 0-5, let go before step 6, and the run ends at 9");
    const double want_x[6] = {10, 11, 12, 12, 14, 14}, want_y[6] = {20, 20, 21, 21, 23, 23};
    bool same = status == 0;
    for (int s = 0; same && s < 6; s++)
        same = path.x[s] == want_x[s] && path.y[s] == want_y[s];
    TAP_OK(same, "before each step it is at the last move so far (the grab point at first)");
    if (status == 0)
        bp_stir_path_free(&path);
}

static void other_recordings_are_refused(void)
{
    const char *bad[] = {
        "ballpit-input 1\n0 grab 10 20\n1 move 11 20\n2 release 0 0\nend 3\n",
        "ballpit-input 1\n0 spawn 10 20 5\n0 grab 10 20\n1 move 11 20\nend 3\n",
        "ballpit-input 1\n0 spawn 10 20 5\n0 grab 10 20\n1 move 11 20\n2 release 50 0\nend 3\n",
        "ballpit-input 1\n0 spawn 10 20 5\n0 grab 10 20\n1 set gravity 0\n2 release 0 0\nend 3\n",
        "ballpit-input 1\n0 spawn 10 20 5\n0 grab 10 20\n2 release 0 0\n3 grab 1 1\nend 4\n",
        "ballpit-input 1\n0 spawn 10 20 5\n0 grab 12 20\n1 move 11 20\n2 release 0 0\nend 3\n",
        "ballpit-input 1\n0 spawn 10 20 5\n0 grab 10 20\n10368001 release 0 0\nend 10368001\n",
    };
    /* The arena is 100 by 50 px, the hand of radius 5: centres 5-95, 5-45. */
    const char *outside[] = {
        "ballpit-input 1\n0 spawn 4 20 5\n0 grab 4 20\n1 move 11 20\n2 release 0 0\nend 3\n",
        "ballpit-input 1\n0 spawn 10 20 5\n0 grab 10 20\n1 move 11 45.5\n2 release 0 0\nend 3\n",
    };
    size_t refused = 0, count = sizeof bad / sizeof bad[0];
    for (size_t k = 0; k < count; k++) {
        bp_stir_path path;
        char err[256] = "";
        int status = read_path(bad[k], &path, err, sizeof err);
        refused += status == 2 && strstr(err, "stir.rec: a stir") != NULL;
        if (status == 0)
            bp_stir_path_free(&path);
    }
    TAP_OK(refused == count, "no spawn, no release, a throw, a change of rule, a second grab, "
                             "a grab off the centre, held past a day: each refused, exit 2, "
                             "naming the file");
    size_t left = 0;
    for (size_t k = 0; k < 2; k++) {
        bp_stir_path path;
        char err[256] = "";
        int status = read_path(outside[k], &path, err, sizeof err);
        left += status == 2 && strstr(err, "stir.rec:") && strstr(err, "leaves the arena");
        if (status == 0)
            bp_stir_path_free(&path);
    }
    TAP_OK(left == 2, "a hand made or moved partly outside the arena: refused at its line");
}

static void moves_are_counted_at_two_radii(void)
{
    /* Radius 5: a ball that moved 10 px has not moved more than 2 r; 10.01 px has. */
    const double start[8] = {100, 100, 200, 200, 300, 300, 400, 400};
    const double end[8] = {110, 100, 200, 210.01, 306, 308.01, 400, 400};
    bp_stir_result r = {0};
    bp_stir_measure(start, end, 4, 5.0, 1000.0, 1000.0, &r);
    TAP_OK(r.moved == 2 && r.escaped == 0, "moved 10 px, 10.01 px, 10.008 px and none: 2 beyond 2 r");
    const double out[8] = {100, 100, -1, 200, 300, 1001, 400, NAN};
    bp_stir_measure(start, out, 4, 5.0, 1000.0, 1000.0, &r);
    TAP_OK(r.escaped == 3, "centres left of, below and NaN: 3 escaped");
    /* And at a tenth of a radius: 0.5 px has not, 0.51 px has, 0.49 px
     * (0.3 and 0.39) has not. */
    const double near[8] = {100.5, 100, 200, 200.51, 300.3, 300.39, 400, 400};
    bp_stir_measure(start, near, 4, 5.0, 1000.0, 1000.0, &r);
    TAP_OK(r.nudged == 1 && r.moved == 0, "moved 0.5 px, 0.51 px, 0.49 px and none: 1 beyond 0.1 r");
}

/* A ball moves when faster than a quarter of what gravity adds in a step:
 * 1000 px/s^2 at 100 Hz adds 10 px/s, so 2.5 px/s is the bound. */
static void moving_is_faster_than_a_ball_falling_asleep(void)
{
    TAP_OK(!bp_stir_moving(1.5, -2.0, 1000.0, 100.0), "2.5 px/s under 1000 px/s^2 at 100 Hz: still");
    TAP_OK(bp_stir_moving(0.0, 2.51, -1000.0, 100.0), "2.51 px/s: moving, whichever way gravity points");
}

int main(void)
{
    a_stir_is_read_as_a_path();
    other_recordings_are_refused();
    moves_are_counted_at_two_radii();
    moving_is_faster_than_a_ball_falling_asleep();
    return tap_done();
}
