/* Collision laws as pure functions of their inputs: no world, no side effects.
 * The resolver and the tests both call these. */
#ifndef BP_COLLIDE_H
#define BP_COLLIDE_H

/* Post-collision speeds along the normal for two bodies meeting head-on in 1D.
 *
 * With w_a = m_a/(m_a+m_b) = inv_b/(inv_a+inv_b) and w_b = 1 - w_a, the law
 *     u_a' = u_a - (1+e) w_b (u_a - u_b)
 *     u_b' = u_b + (1+e) w_a (u_a - u_b)
 * conserves m_a u_a + m_b u_b and scales the relative speed by -e. We write
 * it as weighted sums, u_a' = (w_a - e w_b) u_a + (1+e) w_b u_b, because for
 * equal masses and e = 1 the weights are exactly 0 and 1: the speeds swap
 * bit for bit. An infinite mass (inverse 0) keeps its speed. */
static inline void bp_collide_1d(double u_a, double u_b, double inv_a, double inv_b, double e,
                                 double *u_a_out, double *u_b_out)
{
    double inv_sum = inv_a + inv_b;
    if (inv_sum <= 0.0) {
        *u_a_out = u_a;
        *u_b_out = u_b;
        return;
    }
    double w_a = inv_a == inv_b ? 0.5 : inv_b / inv_sum;
    double w_b = inv_a == inv_b ? 0.5 : inv_a / inv_sum;
    *u_a_out = (w_a - e * w_b) * u_a + (1.0 + e) * w_b * u_b;
    *u_b_out = (1.0 + e) * w_a * u_a + (w_b - e * w_a) * u_b;
}

/* A body of infinite mass (speed u_a along the normal towards b) meeting b:
 * a keeps its speed, and b leaves with it, plus e times the speed at which
 * b came in, measured against a as far as a drew back, and against the
 * ground as far as a pushed forward. Only a held ball moves with infinite
 * mass (a sleeper stands still, and for it this is the 1D law exactly): it
 * is the user's hand, and a hand shoves, it does not bat. With the 1D law a
 * ball jammed in a pile was batted off the held ball at (1 + e) times its
 * speed in every pass, and dragging a ball through a pile at 300 px/s
 * flung balls out at 800 px/s. A hand drawing back is a wall that recedes:
 * a ball chasing it bounces off at e times the speed it closes in at. */
static inline void bp_collide_shove(double u_a, double u_b, double e, double *u_a_out,
                                    double *u_b_out)
{
    double closing = (u_a < 0.0 ? u_a : 0.0) - u_b;
    *u_a_out = u_a;
    *u_b_out = u_a + e * (closing > 0.0 ? closing : 0.0);
}

/* Exchanges velocity between two balls along the unit normal n (pointing from
 * a to b) when they approach: both velocities are rotated into the contact
 * frame (n, t), the normal parts follow bp_collide_1d, the tangential parts
 * stay, and the result is rotated back. Restitution drops to 0 below
 * rest_speed so that resting contacts do not bounce. Returns 1 if the balls
 * were approaching (and so were changed). */
static inline int bp_collide_balls(double nx, double ny, double *vxa, double *vya, double *vxb,
                                   double *vyb, double inv_a, double inv_b, double e,
                                   double rest_speed)
{
    double un_a = *vxa * nx + *vya * ny;
    double un_b = *vxb * nx + *vyb * ny;
    double approach = un_a - un_b;
    if (!(approach > 0.0))
        return 0;
    double ut_a = -*vxa * ny + *vya * nx;
    double ut_b = -*vxb * ny + *vyb * nx;
    double e_used = approach < rest_speed ? 0.0 : e;
    double un_a2, un_b2;
    if (inv_a == 0.0 && inv_b > 0.0)
        bp_collide_shove(un_a, un_b, e_used, &un_a2, &un_b2);
    else if (inv_b == 0.0 && inv_a > 0.0) {
        bp_collide_shove(-un_b, -un_a, e_used, &un_b2, &un_a2);
        un_a2 = -un_a2;
        un_b2 = -un_b2;
    } else
        bp_collide_1d(un_a, un_b, inv_a, inv_b, e_used, &un_a2, &un_b2);
    *vxa = un_a2 * nx - ut_a * ny;
    *vya = un_a2 * ny + ut_a * nx;
    *vxb = un_b2 * nx - ut_b * ny;
    *vyb = un_b2 * ny + ut_b * nx;
    return 1;
}

/* Response of a ball to a static surface with outward unit normal n: the
 * normal velocity, if it points into the surface, is reflected with
 * restitution e (0 below rest_speed), and the tangential velocity loses up to
 * friction times the normal impulse, never changing sign (Coulomb). */
static inline void bp_collide_static(double nx, double ny, double *vx, double *vy, double e,
                                     double friction, double rest_speed)
{
    double un = *vx * nx + *vy * ny;
    if (!(un < 0.0))
        return;
    double ut = -*vx * ny + *vy * nx;
    double approach = -un;
    double e_used = approach < rest_speed ? 0.0 : e;
    double un_after = e_used * approach;
    double dv_normal = un_after - un;
    double dv_friction = friction * dv_normal;
    double ut_after = ut > 0.0 ? (ut > dv_friction ? ut - dv_friction : 0.0)
                               : (-ut > dv_friction ? ut + dv_friction : 0.0);
    *vx = un_after * nx - ut_after * ny;
    *vy = un_after * ny + ut_after * nx;
}

#endif
