/* The limits a ball's or a wall's values must keep, wherever they come from:
 * a scene file, a recording, the command line or the window. Checked here
 * and only here, so a value one source refuses no other lets in.
 *
 * Every limit keeps the arithmetic of the step finite: squares of speeds
 * and spins, and the reciprocals of masses and radii (1/m, 2/(m r^2)),
 * stay far from overflow and underflow. */
#ifndef BP_LIMITS_H
#define BP_LIMITS_H

#include <stdint.h>

#include "params.h"
#include "bodies.h"

#define BP_RADIUS_MIN 0.5     /* ball radius, px */
#define BP_RADIUS_MAX 10000.0
#define BP_SPEED_MAX 1e7      /* ball speed, px/s */
#define BP_MASS_MIN 1e-9      /* ball mass (the default is r^2: 0.25 .. 1e8) */
#define BP_MASS_MAX 1e12
#define BP_SPIN_MAX 1e9       /* |angular velocity|, rad/s */
#define BP_ANGLE_MAX 1e12     /* |angle|, rad: still better than 1e-3 rad apart */
#define BP_WALL_RADIUS_MAX 10000.0 /* half a wall's thickness, px (0 allowed) */
#define BP_CURSOR_MAX 1e9     /* |cursor coordinate| in a recording, px */
#define BP_STEPS_MAX 1000000000000ull /* steps a run or a recording may last */

/* Each returns NULL when the value is allowed, else a message naming the
 * value and its range. NaN and infinities never pass. */
const char *bp_check_radius(double r);
const char *bp_check_velocity(double vx, double vy);
const char *bp_check_mass(double m);
const char *bp_check_spin(double w);
const char *bp_check_angle(double angle);
const char *bp_check_wall_radius(double r);

/* The largest normal impulse a contact can carry in a step of a world of
 * p whose balls weigh total_mass: what stops all of them at the top speed,
 * and holds them against gravity for the step. */
double bp_kept_impulse_most(const bp_params *p, double total_mass);
/* Whether the impulses a contact is said to have carried (normal jn,
 * tangential jt, rolling jr; ball a of radius r_a) are ones it could carry:
 * jn from 0 to most, friction and rolling resistance within what
 * coefficients of at most 1 allow (|jt| <= jn, |jr| <= jn r_a). A larger
 * impulse, warm-starting a step, throws balls faster than any limit here
 * allows. */
const char *bp_check_kept_impulses(double jn, double jt, double jr, double r_a, double most);

/* Whether a ball of radius r centred at (x, y) belongs in the arena of p:
 * its centre strictly inside (a centre on the border is refused), and the
 * ball no larger than the arena. */
const char *bp_check_ball_in_arena(const bp_params *p, double x, double y, double r);
/* Whether a ball of radius r fits the arena at all (placed anywhere). */
const char *bp_check_ball_size(const bp_params *p, double r);
/* Whether both ends of a wall lie inside the arena. */
const char *bp_check_wall_in_arena(const bp_params *p, const bp_wall *w);

#endif
