#include "look.h"

#include <math.h>

bp_look bp_look_from_options(const bp_options *opts)
{
    return (bp_look){.color_by = opts->color_by,
                     .trails = opts->trails,
                     .vectors = opts->vectors,
                     .debug = opts->debug_view,
                     .inspect = opts->inspect};
}

bool bp_look_same(const bp_look *a, const bp_look *b)
{
    return a->color_by == b->color_by && a->trails == b->trails && a->vectors == b->vectors &&
           a->debug == b->debug && a->inspect == b->inspect;
}

static uint32_t from_unit(double r, double g, double b)
{
    return bp_rgb((uint8_t)lround(r * 255.0), (uint8_t)lround(g * 255.0),
                  (uint8_t)lround(b * 255.0));
}

uint32_t bp_look_id_colour(uint32_t id)
{
    /* Golden-ratio hue steps keep neighbouring ids far apart in colour;
     * soft saturation keeps a crowd of them calm. */
    double hue = fmod((double)id * 0.618033988749895, 1.0) * 6.0;
    double s = 0.45, v = 0.9;
    int sector = (int)hue;
    double f = hue - sector;
    double p = v * (1.0 - s), q = v * (1.0 - s * f), t = v * (1.0 - s * (1.0 - f));
    double rgb[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
    double *c = rgb[sector % 6];
    return from_unit(c[0], c[1], c[2]);
}

uint32_t bp_look_speed_colour(double speed)
{
    /* Blue, teal, green, amber, coral: equal steps of sqrt(speed), so the
     * slow end, where most balls of a pile are, is spread out. */
    static const double stops[5][3] = {{0.29, 0.42, 0.75},
                                       {0.27, 0.66, 0.68},
                                       {0.55, 0.76, 0.40},
                                       {0.93, 0.76, 0.33},
                                       {0.93, 0.45, 0.36}};
    double t = speed > 0.0 ? sqrt(fmin(speed / BP_LOOK_SPEED_FULL, 1.0)) : 0.0;
    double at = t * 4.0;
    int k = at >= 4.0 ? 3 : (int)at;
    double f = at - k;
    return from_unit(stops[k][0] + (stops[k + 1][0] - stops[k][0]) * f,
                     stops[k][1] + (stops[k + 1][1] - stops[k][1]) * f,
                     stops[k][2] + (stops[k + 1][2] - stops[k][2]) * f);
}

uint32_t bp_look_ball_colour(const bp_look *look, const bp_world *world, size_t i,
                             uint32_t id_colour)
{
    switch (look ? look->color_by : BP_COLOR_ID) {
    case BP_COLOR_SPEED:
        return bp_look_speed_colour(hypot(world->vx[i], world->vy[i]));
    case BP_COLOR_SLEEP:
        /* Asleep: a quiet blue-grey; awake: amber. */
        return (world->flags[i] & BP_BALL_ASLEEP) ? 0xff5f6f8au : 0xffe8bb6cu;
    default:
        return id_colour;
    }
}
