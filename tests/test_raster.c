/* Balls drawn on the CPU (src/app/raster.c): where a disc's fill, rim and
 * edge land, clipping at the buffer's sides, scale, and the stored small
 * discs agreeing with the ones computed pixel by pixel. */
#include <stdint.h>
#include <string.h>

#include "raster.h"
#include "look.h"
#include "tap.h"
#include "world.h"

#define SIZE 96
#define BACKGROUND BP_LOOK_BACKGROUND

static uint32_t pixels[SIZE * SIZE];

static uint32_t fill_of(uint32_t id)
{
    return bp_look_id_colour(id);
}

static uint32_t at(int x, int y)
{
    return pixels[y * SIZE + x];
}

/* The sum of the three channels: how bright a pixel is. */
static int brightness(uint32_t p)
{
    return (int)((p >> 16) & 0xffu) + (int)((p >> 8) & 0xffu) + (int)(p & 0xffu);
}

/* Balls at exactly the given places, even past the sides: drawing takes
 * positions as they come (the interpolated ones may lie anywhere). */
static bp_world *world_with(const double *xyr, int balls)
{
    bp_params p = bp_params_default();
    p.width = SIZE;
    p.height = SIZE;
    bp_world *w = bp_world_new(&p);
    for (int k = 0; k < balls; k++)
        if (bp_world_insert_ball(w, SIZE / 2.0, SIZE / 2.0, 0.0, 0.0, xyr[3 * k + 2], 0.0) >= 0) {
            w->x[k] = xyr[3 * k];
            w->y[k] = xyr[3 * k + 1];
            /* The spin mark points left, from a quarter of the radius out:
             * the pixel right of the centre shows the fill. */
            w->angle[k] = 3.14159265358979;
        }
    return w;
}

static bool draw(bp_raster *raster, const bp_world *w, double scale, int size)
{
    bp_pixels out = {pixels, size, size, SIZE};
    return bp_raster_balls(raster, &out, scale, w, NULL, NULL, NULL);
}

/* Pixels not left as background. */
static int covered(int size)
{
    int count = 0;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++)
            count += at(x, y) != BACKGROUND;
    return count;
}

static void a_disc_has_fill_rim_and_edge(bp_raster *raster, double radius, const char *what)
{
    double xyr[] = {48.0, 48.0, radius};
    bp_world *w = world_with(xyr, 1);
    char line[160];
    TAP_OK(draw(raster, w, 1.0, SIZE), what);
    snprintf(line, sizeof line, "%s: the centre has the ball's colour", what);
    TAP_OK(at(48, 48) == fill_of(0), line);
    /* The rim, up to 2.5 px wide, is darker. */
    int rim_y = 48 - (int)(radius - 0.5) - 1;
    snprintf(line, sizeof line, "%s: the rim is darker than the fill, brighter than nothing",
             what);
    TAP_OK(brightness(at(48, rim_y)) < brightness(fill_of(0)) &&
               at(48, rim_y) != BACKGROUND,
           line);
    snprintf(line, sizeof line, "%s: beyond the radius and the soft edge, background", what);
    TAP_OK(at(48, 48 - (int)radius - 2) == BACKGROUND && at(48 + (int)radius + 2, 48) ==
                                                             BACKGROUND,
           line);
    /* Every pixel touched lies within r + 1 of the centre; the disc's
     * area, give or take its one-pixel edge. */
    double pi = 3.14159265358979;
    snprintf(line, sizeof line, "%s: covers about pi r^2 pixels", what);
    TAP_OK(covered(SIZE) >= pi * (radius - 1.0) * (radius - 1.0) &&
               covered(SIZE) <= pi * (radius + 1.0) * (radius + 1.0),
           line);
    bp_world_destroy(w);
}

static void balls_half_outside_are_clipped(bp_raster *raster)
{
    /* Corners and sides, small (stored) and large (computed) discs. */
    double xyr[] = {-3.0, -3.0, 10.0, 100.0, 40.0, 6.0, 40.0, 99.0, 20.0, 95.5, 95.5, 3.0};
    bp_world *w = world_with(xyr, 4);
    TAP_OK(draw(raster, w, 1.0, SIZE), "balls reaching past every side are drawn");
    TAP_OK(at(0, 0) == fill_of(0) && at(95, 95) != BACKGROUND && at(40, 95) == fill_of(2),
           "each shows the part of it inside the buffer");
    TAP_OK(at(48, 48) == BACKGROUND, "and nothing else");
    bp_world_destroy(w);
}

static void scale_draws_in_output_pixels(bp_raster *raster)
{
    double xyr[] = {12.0, 12.0, 5.0};
    bp_world *w = world_with(xyr, 1);
    TAP_OK(draw(raster, w, 2.0, SIZE), "drawn at twice the arena's size");
    TAP_OK(at(24, 24) == fill_of(0) && at(24, 24 - 9) != BACKGROUND &&
               at(24, 24 - 12) == BACKGROUND,
           "a 5 px ball at (12, 12) covers 10 pixels around (24, 24)");
    bp_world_destroy(w);
}

/* The ink of the first size x size pixels: how much brighter than the
 * background they are, summed. */
static long ink(int size)
{
    long sum = 0;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++)
            sum += brightness(at(x, y)) - brightness(BACKGROUND);
    return sum;
}

/* A big arena shown small is drawn at the scale it is shown: positions and
 * radii scaled, the edge soft over one output pixel. */
static void shrunk_balls_land_where_scaled(bp_raster *raster)
{
    double xyr[] = {48.0, 48.0, 16.0};
    bp_world *w = world_with(xyr, 1);
    TAP_OK(draw(raster, w, 0.25, SIZE / 4), "drawn at a quarter of the arena's size");
    TAP_OK(at(12, 12) == fill_of(0) && at(12, 12 - 3) != BACKGROUND &&
               at(12 + 3, 12) != BACKGROUND,
           "a 16 px ball at (48, 48) shown at 0.25: fill at (12, 12), ink 3 px out");
    TAP_OK(at(12, 12 - 5) == BACKGROUND && at(12 + 5, 12) == BACKGROUND &&
               at(12 - 5, 12) == BACKGROUND && at(12, 12 + 5) == BACKGROUND,
           "and nothing 5 px out (its radius is 4)");
    double pi = 3.14159265358979;
    TAP_OK(covered(SIZE / 4) >= pi * 3.0 * 3.0 && covered(SIZE / 4) <= pi * 5.0 * 5.0,
           "it covers about pi 4^2 pixels");
    bp_world_destroy(w);
}

/* Shown small, a ball looks as the one drawn at scale 1 would shrunk: as
 * much ink, give or take. Its rim and the ramp to the fill shrink with it;
 * were they a pixel at any scale, a ball 3 px across would be all rim,
 * a pile of them dark (0.81 of the ink). Under a pixel in radius it has up
 * to a third more: the soft edge's extra pi/12 px^2 is then a large part
 * of it. */
static void shrunk_balls_keep_their_ink(bp_raster *raster)
{
    static const double radii[] = {3.0, 6.0, 16.0}, most[] = {1.35, 1.15, 1.15};
    for (int k = 0; k < 3; k++) {
        double xyr[] = {48.0, 48.0, radii[k]};
        bp_world *w = world_with(xyr, 1);
        draw(raster, w, 1.0, SIZE);
        long full = ink(SIZE);
        draw(raster, w, 0.25, SIZE / 4);
        double ratio = (double)ink(SIZE / 4) * 16.0 / (double)full;
        char line[160];
        snprintf(line, sizeof line,
                 "a %g px ball shown at 0.25 has %.2f of the ink of the one at 1, over 16",
                 radii[k], ratio);
        TAP_OK(ratio > 0.85 && ratio < most[k], line);
        bp_world_destroy(w);
    }
}

/* However small it is shown, a ball is a pixel across: a crowd in a small
 * window still shows each of its balls. */
static void a_tiny_ball_still_shows(bp_raster *raster)
{
    /* A 1 px ball at 0.25 is a quarter pixel in radius, drawn as half. */
    double centred[] = {50.0, 50.0, 1.0}, cornered[] = {48.0, 48.0, 1.0};
    bp_world *w = world_with(centred, 1);
    TAP_OK(draw(raster, w, 0.25, SIZE / 4), "a 1 px ball drawn at a quarter");
    TAP_OK(covered(SIZE / 4) >= 1 &&
               brightness(at(12, 12)) >= brightness(bp_shade(fill_of(0), BP_LOOK_RIM_LEVEL)),
           "centred on a pixel: that pixel has all of its ink, at least the rim's colour");
    bp_world_destroy(w);
    w = world_with(cornered, 1);
    draw(raster, w, 0.25, SIZE / 4);
    TAP_OK(covered(SIZE / 4) == 4 &&
               ink(SIZE / 4) * 2 >= brightness(bp_shade(fill_of(0), BP_LOOK_RIM_LEVEL)) -
                                        brightness(BACKGROUND),
           "on a corner: the four pixels round it share at least half a pixel's ink");
    bp_world_destroy(w);
}

/* Draws two discs that differ by a hair, one from a stored mask and one
 * computed, at scale: true when they look the same but for the hair (by at
 * most 6 of 765 in any pixel); what says what was compared. */
static void discs_agree(bp_raster *raster, const double stored[3], const double computed[3],
                        double scale, int size, const char *what)
{
    static uint32_t first[SIZE * SIZE];
    bp_world *a = world_with(stored, 1), *b = world_with(computed, 1);
    draw(raster, a, scale, size);
    memcpy(first, pixels, sizeof first);
    draw(raster, b, scale, size);
    int worst = 0;
    for (int k = 0; k < SIZE * SIZE; k++) {
        int d = brightness(first[k]) - brightness(pixels[k]);
        worst = d < 0 ? (-d > worst ? -d : worst) : (d > worst ? d : worst);
    }
    char line[160];
    snprintf(line, sizeof line, "%s differ by %d of 765 at most", what, worst);
    TAP_OK(worst <= 6, line);
    bp_world_destroy(a);
    bp_world_destroy(b);
}

/* Shown small as at scale 1, a disc of radius 16 px comes from a stored
 * mask and one a hair bigger is computed: both shaded alike. */
static void shrunk_stored_and_computed_discs_agree(bp_raster *raster)
{
    double stored[] = {192.5, 192.5, 64.0}, computed[] = {192.5, 192.5, 64.004};
    discs_agree(raster, stored, computed, 0.25, SIZE,
                "shown at 0.25: stored and computed discs");
}

/* A disc of radius 16 comes from a stored mask, one a hair bigger is
 * computed: the two must look the same but for the hair. Masks are cut to
 * a quarter pixel, at the middle of each quarter: there, at 48.125, they
 * are exact. */
static void stored_and_computed_discs_agree(bp_raster *raster)
{
    double stored[] = {48.125, 48.125, 16.0}, computed[] = {48.125, 48.125, 16.001};
    discs_agree(raster, stored, computed, 1.0, SIZE, "stored and computed discs");
}

/* Draws w with the long-lived raster, and afresh with a new one, and
 * compares. Balls here never touch, so the order they are drawn in does
 * not matter and the two must agree to the bit. */
static bool same_as_fresh(bp_raster *raster, const bp_world *w)
{
    static uint32_t kept[SIZE * SIZE];
    bp_raster *fresh = bp_raster_create();
    bool ok = fresh && draw(fresh, w, 1.0, SIZE);
    memcpy(kept, pixels, sizeof kept);
    ok = ok && draw(raster, w, 1.0, SIZE) && memcmp(kept, pixels, sizeof kept) == 0;
    bp_raster_destroy(fresh);
    return ok;
}

/* Sleepers are kept drawn from frame to frame; what woke, moved or went
 * away must leave no trace, and the sleepers next to it must stay whole. */
static void the_still_layer_follows_the_sleepers(void)
{
    /* Three small sleepers 3 px apart in a row, a big one (computed, not
     * stored), one awake, one more sleeper. The third one's x rounds up to
     * a quarter pixel as a float, but not once the place repaired next to
     * it (from x = 19) is taken off. */
    const double balls[] = {12.25, 12.5, 6.0, 27.25, 12.5, 6.0, 42.2499985, 12.5, 6.0,
                            60.5, 60.25, 20.0, 20.0, 40.0, 5.0, 80.0, 20.0, 4.0};
    bp_world *w = world_with(balls, 6);
    for (int k = 0; k < 6; k++)
        if (k != 4)
            w->flags[k] |= BP_BALL_ASLEEP;
    bp_raster *raster = bp_raster_create();
    TAP_OK(raster && draw(raster, w, 1.0, SIZE), "the layer is drawn");
    TAP_OK(raster && same_as_fresh(raster, w), "drawn again from the layer, nothing changed");
    /* The middle one of the row wakes and is thrown elsewhere; the big one
     * wakes where it is; the last is moved and sleeps again. */
    w->flags[1] &= (uint8_t)~BP_BALL_ASLEEP;
    w->x[1] = 20.5;
    w->y[1] = 80.5;
    w->flags[3] &= (uint8_t)~BP_BALL_ASLEEP;
    w->x[5] = 85.0;
    w->y[5] = 85.0;
    TAP_OK(raster && same_as_fresh(raster, w),
           "a sleeper woken and moved, one woken in place, one moved asleep: as if drawn afresh");
    int64_t gone = bp_world_index_of(w, 0);
    TAP_OK(gone >= 0 && bp_world_delete_ball(w, 0) && raster && same_as_fresh(raster, w),
           "a sleeper taken out of the world is gone from the picture");
    w->flags[bp_world_index_of(w, 3)] |= BP_BALL_ASLEEP;
    TAP_OK(raster && same_as_fresh(raster, w), "a ball that fell asleep joins the layer");
    bp_raster_destroy(raster);
    bp_world_destroy(w);
}

/* Two sleepers next to each other wake and fly off in the same frame: the
 * places to repair share pixels, and the sleeper beside both must still be
 * drawn in them once, not blended in twice. */
static void neighbours_waking_together_leave_no_trace(void)
{
    const double balls[] = {20.3, 20.3, 6.0, 33.3, 20.3, 6.0, 26.8, 30.6, 5.0};
    bp_world *w = world_with(balls, 3);
    for (int k = 0; k < 3; k++)
        w->flags[k] |= BP_BALL_ASLEEP;
    bp_raster *raster = bp_raster_create();
    bool drawn = raster && draw(raster, w, 1.0, SIZE);
    for (int k = 0; k < 2; k++) {
        w->flags[k] &= (uint8_t)~BP_BALL_ASLEEP;
        w->x[k] = 20.0 + 40.0 * k;
        w->y[k] = 80.0;
    }
    TAP_OK(drawn && same_as_fresh(raster, w),
           "two touching sleepers woken together: the one beside them is whole, as afresh");
    bp_raster_destroy(raster);
    bp_world_destroy(w);
}

/* The spin mark is the ball's own colour darkened, a hand from a quarter
 * to three quarters of the radius: it turns with the angle. */
static void the_spin_mark_turns_with_the_angle(void)
{
    double xyr[] = {48.0, 48.0, 20.0};
    bp_world *w = world_with(xyr, 1);
    bp_raster *raster = bp_raster_create();
    int right = 0, down = 0;
    static const double angles[2] = {0.0, 1.5707963267948966};
    int dark_right[2], dark_down[2];
    for (int k = 0; k < 2; k++) {
        w->angle[0] = angles[k];
        draw(raster, w, 1.0, SIZE);
        /* Half the radius out, to the right (+x) and down (+y). */
        dark_right[k] = brightness(at(58, 48)) < brightness(fill_of(0));
        dark_down[k] = brightness(at(48, 58)) < brightness(fill_of(0));
    }
    right = dark_right[0] && !dark_down[0];
    down = dark_down[1] && !dark_right[1];
    TAP_OK(right, "angle 0: the mark points right (+x), nothing below the centre");
    TAP_OK(down, "angle pi/2: the mark points down (+y, clockwise on screen)");
    bp_raster_destroy(raster);
    bp_world_destroy(w);
}

int main(void)
{
    the_spin_mark_turns_with_the_angle();
    bp_raster *raster = bp_raster_create();
    TAP_OK(raster != NULL, "a raster is made");
    a_disc_has_fill_rim_and_edge(raster, 6.0, "a 6 px disc (stored)");
    a_disc_has_fill_rim_and_edge(raster, 2.5, "a 2.5 px disc (stored)");
    a_disc_has_fill_rim_and_edge(raster, 30.0, "a 30 px disc (computed)");
    balls_half_outside_are_clipped(raster);
    scale_draws_in_output_pixels(raster);
    stored_and_computed_discs_agree(raster);
    shrunk_balls_land_where_scaled(raster);
    shrunk_balls_keep_their_ink(raster);
    a_tiny_ball_still_shows(raster);
    shrunk_stored_and_computed_discs_agree(raster);
    stored_and_computed_discs_agree(raster); /* at 1 again: the masks made anew */
    bp_raster_destroy(raster);
    the_still_layer_follows_the_sleepers();
    neighbours_waking_together_leave_no_trace();
    return tap_done();
}
