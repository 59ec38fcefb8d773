/* The throw-velocity estimator against motions whose average velocity over
 * the window is known in closed form. */
#include "tap.h"
#include "throw.h"

#define W BP_THROW_WINDOW

static void constant_velocity_with_uneven_event_timing_is_exact(void)
{
    /* Piecewise-linear reconstruction is exact for a straight line at
     * constant speed, however unevenly it is sampled; only rounding remains
     * (~1e-13 px/s at these magnitudes). */
    static const int ms[] = {0, 3, 11, 18, 34, 41, 47, 63, 70, 88, 90, 104, 131, 140};
    bp_throw_tracker tr;
    bp_throw_reset(&tr);
    for (size_t k = 0; k < sizeof ms / sizeof ms[0]; k++) {
        double t = ms[k] / 1000.0;
        bp_throw_add(&tr, t, 100.0 + 1000.0 * t, 200.0 - 500.0 * t);
    }
    double vx, vy;
    bp_throw_velocity(&tr, W, 1e6, &vx, &vy);
    TAP_NEAR(vx, 1000.0, 1e-9, "uneven timing, straight line: vx is the cursor's 1000 px/s");
    TAP_NEAR(vy, -500.0, 1e-9, "uneven timing, straight line: vy is the cursor's -500 px/s");
}

/* x = a t^2 (a flick speeding up) sampled once per frame, SDL-style: the
 * timestamp is the frame's time in whole ms and the position is where the
 * cursor was then. The release comes with the last frame at t_end. */
static double accelerating_flick(double fps, double a, double t_end_ms)
{
    bp_throw_tracker tr;
    bp_throw_reset(&tr);
    for (int k = 0;; k++) {
        double t_ms = (double)(long)(k * 1000.0 / fps);
        if (t_ms > t_end_ms)
            break;
        double t = t_ms / 1000.0;
        bp_throw_add(&tr, t, a * t * t, 50.0);
    }
    double vx, vy;
    bp_throw_velocity(&tr, W, 1e6, &vx, &vy);
    return vx;
}

/* Linear interpolation of a t^2 between samples h apart is off by at most
 * a h^2 / 4 px, so the window's average by at most a h^2 / (4 W) px/s; h is
 * the longest frame after rounding to whole ms. */
static double interpolation_bound(double a, double fps)
{
    double h = ceil(1000.0 / fps) / 1000.0;
    return a * h * h / (4.0 * W);
}

static void the_same_flick_gives_the_same_throw_at_30_60_and_144_fps(void)
{
    /* 1/3 s is a whole number of frames at all three rates (333 ms after
     * rounding). The true average velocity over the window is
     * a (2 t_end - W). */
    double a = 3000.0, t_end = 0.333;
    double want = a * (2.0 * t_end - W);
    double tol30 = interpolation_bound(a, 30.0), tol144 = interpolation_bound(a, 144.0);
    double v30 = accelerating_flick(30.0, a, 333.0);
    double v60 = accelerating_flick(60.0, a, 333.0);
    double v144 = accelerating_flick(144.0, a, 333.0);
    TAP_NEAR(v30, want, tol30, "accelerating flick at 30 fps: the window's average velocity");
    TAP_NEAR(v60, want, interpolation_bound(a, 60.0),
             "accelerating flick at 60 fps: the window's average velocity");
    TAP_NEAR(v144, want, tol144, "accelerating flick at 144 fps: the window's average velocity");
    TAP_NEAR(v30, v144, tol30 + tol144, "30 fps and 144 fps throws agree within both bounds");
}

static void a_pause_before_release_drops_the_ball(void)
{
    /* 1000 px/s for 0.3 s, then held still for 0.2 s: the whole window lies
     * in the rest, so the throw is exactly zero. */
    bp_throw_tracker tr;
    bp_throw_reset(&tr);
    for (int ms = 0; ms <= 300; ms += 10)
        bp_throw_add(&tr, ms / 1000.0, ms * 1.0, 0.0);
    bp_throw_add(&tr, 0.5, 300.0, 0.0);
    double vx, vy;
    bp_throw_velocity(&tr, W, 1e6, &vx, &vy);
    TAP_OK(vx == 0.0 && vy == 0.0, "moving then still for 200 ms: the throw is exactly zero");
}

static void a_rest_for_half_the_window_halves_the_throw(void)
{
    /* Still for the last W/2: the cursor covered W/2 * 1000 px in the window,
     * so the average is 500 px/s. */
    bp_throw_tracker tr;
    bp_throw_reset(&tr);
    for (int ms = 0; ms <= 300; ms += 10)
        bp_throw_add(&tr, ms / 1000.0, ms * 1.0, 0.0);
    bp_throw_add(&tr, 0.3 + W / 2.0, 300.0, 0.0);
    double vx, vy;
    bp_throw_velocity(&tr, W, 1e6, &vx, &vy);
    TAP_NEAR(vx, 500.0, 1e-9, "still for half the window: half the cursor's speed");
}

static void a_long_gap_counts_as_rest_then_movement(void)
{
    /* Grabbed at x=0 and held still for 1 s (no events), then one event at
     * x=40 and the release at x=60, 20 ms later. The cursor rested until
     * BP_THROW_MAX_GAP before the event, so at the window's start
     * (t = 1.02 - W) it was (t - (1 - gap)) / gap of the way to 40. */
    bp_throw_tracker tr;
    bp_throw_reset(&tr);
    bp_throw_add(&tr, 0.0, 0.0, 0.0);
    bp_throw_add(&tr, 1.0, 40.0, 0.0);
    bp_throw_add(&tr, 1.02, 60.0, 0.0);
    double start = 1.02 - W, move_start = 1.0 - BP_THROW_MAX_GAP;
    double x0 = start <= move_start ? 0.0 : 40.0 * (start - move_start) / BP_THROW_MAX_GAP;
    double vx, vy;
    bp_throw_velocity(&tr, W, 1e6, &vx, &vy);
    TAP_NEAR(vx, (60.0 - x0) / W, 1e-9, "a 1 s silence is rest, not a slow 1 s movement");
    TAP_OK(vx > 500.0, "so a flick after a long rest still throws hard");
}

static void a_single_sample_or_one_instant_gives_no_throw(void)
{
    bp_throw_tracker tr;
    bp_throw_reset(&tr);
    double vx = 1.0, vy = 1.0;
    bp_throw_velocity(&tr, W, 1e6, &vx, &vy);
    TAP_OK(vx == 0.0 && vy == 0.0, "no samples: zero");
    bp_throw_add(&tr, 2.0, 10.0, 10.0);
    bp_throw_velocity(&tr, W, 1e6, &vx, &vy);
    TAP_OK(vx == 0.0 && vy == 0.0, "a single sample (grab and release at once): zero");
    /* SDL stamps every event of one pump with the same time. */
    bp_throw_add(&tr, 2.0, 90.0, 10.0);
    bp_throw_add(&tr, 2.0, 500.0, 10.0);
    bp_throw_velocity(&tr, W, 1e6, &vx, &vy);
    TAP_OK(tr.count == 1 && tr.s[tr.start].x == 500.0, "same timestamp: the later position wins");
    TAP_OK(vx == 0.0 && vy == 0.0, "all at one instant: zero, not a division by zero");
    bp_throw_add(&tr, 1.0, 600.0, 10.0);
    TAP_OK(tr.count == 1, "a timestamp going backwards is taken as the last one");
}

static void the_cap_keeps_the_direction(void)
{
    /* 12000 px/s right and 16000 px/s down: 20000 px/s, capped at 5000 means
     * scaled by 1/4, to (3000, 4000). */
    bp_throw_tracker tr;
    bp_throw_reset(&tr);
    for (int ms = 0; ms <= 100; ms += 8)
        bp_throw_add(&tr, ms / 1000.0, 12.0 * ms, 16.0 * ms);
    double vx, vy;
    bp_throw_velocity(&tr, W, 5000.0, &vx, &vy);
    TAP_NEAR(vx, 3000.0, 1e-9, "capped throw: vx scaled to 3000");
    TAP_NEAR(vy, 4000.0, 1e-9, "capped throw: vy scaled to 4000 (direction kept)");
    bp_throw_velocity(&tr, W, 1e6, &vx, &vy);
    TAP_NEAR(vx, 12000.0, 1e-8, "under the cap nothing is scaled");
}

static void the_ring_keeps_the_newest_samples(void)
{
    /* Far more samples than fit: the old ones fall out and the estimate
     * still sees the last window, here a straight line at 250 px/s. */
    bp_throw_tracker tr;
    bp_throw_reset(&tr);
    for (int ms = 0; ms < 10 * BP_THROW_CAPACITY; ms++)
        bp_throw_add(&tr, ms / 1000.0, 0.25 * ms, 0.0);
    double vx, vy;
    bp_throw_velocity(&tr, W, 1e6, &vx, &vy);
    TAP_OK(tr.count == BP_THROW_CAPACITY, "the ring holds its capacity");
    TAP_NEAR(vx, 250.0, 1e-9, "after wrapping around: 250 px/s");
}

int main(void)
{
    constant_velocity_with_uneven_event_timing_is_exact();
    the_same_flick_gives_the_same_throw_at_30_60_and_144_fps();
    a_pause_before_release_drops_the_ball();
    a_rest_for_half_the_window_halves_the_throw();
    a_long_gap_counts_as_rest_then_movement();
    a_single_sample_or_one_instant_gives_no_throw();
    the_cap_keeps_the_direction();
    the_ring_keeps_the_newest_samples();
    return tap_done();
}
