#include "limits.h"

#include <math.h>

const char *bp_check_radius(double r)
{
    return r >= BP_RADIUS_MIN && r <= BP_RADIUS_MAX ? NULL
                                                     : "ball radius must be 0.5..10000 px";
}

const char *bp_check_velocity(double vx, double vy)
{
    /* Each part first, so that the sum of squares cannot overflow. */
    if (fabs(vx) <= BP_SPEED_MAX && fabs(vy) <= BP_SPEED_MAX &&
        vx * vx + vy * vy <= BP_SPEED_MAX * BP_SPEED_MAX)
        return NULL;
    return "ball speed must be at most 10^7 px/s";
}

const char *bp_check_mass(double m)
{
    return m >= BP_MASS_MIN && m <= BP_MASS_MAX ? NULL : "ball mass must be 1e-9..1e12";
}

const char *bp_check_spin(double w)
{
    return fabs(w) <= BP_SPIN_MAX ? NULL : "ball spin w must be within +-1e9 rad/s";
}

const char *bp_check_angle(double angle)
{
    return fabs(angle) <= BP_ANGLE_MAX ? NULL : "ball angle must be within +-1e12 rad";
}

const char *bp_check_wall_radius(double r)
{
    return r >= 0.0 && r <= BP_WALL_RADIUS_MAX ? NULL : "wall radius must be 0..10000 px";
}

double bp_kept_impulse_most(const bp_params *p, double total_mass)
{
    return total_mass * (BP_SPEED_MAX + fabs(p->gravity) / p->hz);
}

const char *bp_check_kept_impulses(double jn, double jt, double jr, double r_a, double most)
{
    if (!(jn >= 0.0 && jn <= most))
        return "jn, the normal impulse, must be 0 or more, and at most what stops every ball "
               "of the world at 10^7 px/s";
    if (!(fabs(jt) <= jn))
        return "jt, the friction impulse, must be within +-jn (friction is at most 1)";
    if (!(fabs(jr) <= jn * r_a))
        return "jr, the rolling impulse, must be within +-jn times ball a's radius";
    return NULL;
}

const char *bp_check_ball_size(const bp_params *p, double r)
{
    return 2.0 * r <= p->width && 2.0 * r <= p->height ? NULL : "ball is larger than the arena";
}

const char *bp_check_ball_in_arena(const bp_params *p, double x, double y, double r)
{
    /* Strictly inside: a centre on the border is half out of the arena,
     * and a side pushes it back in with the whole overlap at once. */
    if (!(x > 0.0 && x < p->width && y > 0.0 && y < p->height))
        return "ball centre must lie inside the arena, not on its border or beyond";
    return bp_check_ball_size(p, r);
}

const char *bp_check_wall_in_arena(const bp_params *p, const bp_wall *w)
{
    bool inside = w->x1 >= 0.0 && w->x1 <= p->width && w->x2 >= 0.0 && w->x2 <= p->width &&
                  w->y1 >= 0.0 && w->y1 <= p->height && w->y2 >= 0.0 && w->y2 <= p->height;
    return inside ? NULL : "wall end lies outside the arena";
}
