/* Collision laws as pure functions of their inputs: no world, no side effects.
 * The resolver and the tests both call these. */
#ifndef BP_COLLIDE_H
#define BP_COLLIDE_H

#include <stdint.h>

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

/* The unit normal from ball a to ball b when their centres coincide and
 * the line between them says nothing: one of 16 directions around the
 * circle, picked by the two ids (the opposite one for the pair the other
 * way round), so that balls started on one spot come apart in every
 * direction, the same way on every run and any number of threads. */
static inline void bp_coincident_normal(uint32_t id_a, uint32_t id_b, double *nx, double *ny)
{
    /* cos and sin of k * 2 pi / 16, written out: no libm on this path. */
    static const double c16[16] = {1.0,
                                   0.92387953251128674,
                                   0.70710678118654757,
                                   0.38268343236508978,
                                   0.0,
                                   -0.38268343236508978,
                                   -0.70710678118654757,
                                   -0.92387953251128674,
                                   -1.0,
                                   -0.92387953251128674,
                                   -0.70710678118654757,
                                   -0.38268343236508978,
                                   0.0,
                                   0.38268343236508978,
                                   0.70710678118654757,
                                   0.92387953251128674};
    uint32_t lo = id_a < id_b ? id_a : id_b, hi = id_a < id_b ? id_b : id_a;
    uint32_t k = (lo * 2654435761u ^ hi * 40503u) >> 28;
    double sign = id_a < id_b ? 1.0 : -1.0;
    *nx = sign * c16[k];
    *ny = sign * c16[(k + 12) & 15]; /* sin(x) = cos(x - pi/2) */
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
 * rest_speed so that resting contacts do not bounce. Returns the normal
 * impulse the law applied (mass * px/s, >= 0; 0 if the balls were not
 * approaching and so were left alone): what bounds the friction after it. */
static inline double bp_collide_balls(double nx, double ny, double *vxa, double *vya,
                                      double *vxb, double *vyb, double inv_a, double inv_b,
                                      double e, double rest_speed)
{
    double un_a = *vxa * nx + *vya * ny;
    double un_b = *vxb * nx + *vyb * ny;
    double approach = un_a - un_b;
    if (!(approach > 0.0))
        return 0.0;
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
    if (inv_a > 0.0)
        return (un_a - un_a2) / inv_a;
    return inv_b > 0.0 ? (un_b2 - un_b) / inv_b : 0.0;
}

/* One side of a contact as friction sees it: the ball's velocity and spin
 * (written back), its inverse mass and inverse moment of inertia (both 0 for
 * a static surface, a sleeper or a held ball), and its lever: the distance
 * from its centre to the contact point along the normal. */
typedef struct bp_contact_side {
    double *vx, *vy, *w;
    double inv_mass, inv_inertia, lever;
} bp_contact_side;

/* What the surfaces at a contact are made of. */
typedef struct bp_contact_law {
    double friction; /* Coulomb coefficient: |tangential impulse| <= friction * normal */
    double rolling;  /* rolling resistance: angular impulse <= rolling * normal * radius */
} bp_contact_law;

/* Friction and rolling resistance at a contact with unit normal n (from a
 * to b) whose normal law has just applied the impulse jn >= 0.
 *
 * Friction acts on the contact points' relative velocity along t = (-ny, nx)
 * with spin included (a point at lever l along n from a centre moves at
 * v + w l t, w counted from +x toward +y):
 *     vt = (v_b - v_a) . t - w_a l_a - w_b l_b.
 * An impulse j t on b (and -j t on a) changes vt by j k with
 *     k = 1/m_a + 1/m_b + l_a^2/I_a + l_b^2/I_b,
 * so j = -vt / k stops the sliding; Coulomb clamps it to friction * jn.
 * Both sides get the impulse at the same point, so linear and angular
 * momentum are conserved; only sliding loses energy.
 *
 * Rolling resistance then opposes the relative spin w_a - w_b with equal
 * and opposite angular impulses of at most rolling * jn * r, r the reduced
 * radius l_a l_b / (l_a + l_b) (the ball's own against a flat surface),
 * and never reverses it. */
static inline void bp_collide_friction(const bp_contact_law *law, double nx, double ny,
                                       double jn, const bp_contact_side *a,
                                       const bp_contact_side *b)
{
    if (!(jn > 0.0))
        return;
    double tx = -ny, ty = nx;
    double k = a->inv_mass + b->inv_mass + a->lever * a->lever * a->inv_inertia +
               b->lever * b->lever * b->inv_inertia;
    if (law->friction > 0.0 && k > 0.0) {
        double vt = (*b->vx - *a->vx) * tx + (*b->vy - *a->vy) * ty - *a->w * a->lever -
                    *b->w * b->lever;
        double limit = law->friction * jn;
        double j = -vt / k;
        j = j > limit ? limit : (j < -limit ? -limit : j);
        *a->vx -= j * tx * a->inv_mass;
        *a->vy -= j * ty * a->inv_mass;
        *a->w -= j * a->lever * a->inv_inertia;
        *b->vx += j * tx * b->inv_mass;
        *b->vy += j * ty * b->inv_mass;
        *b->w -= j * b->lever * b->inv_inertia;
    }
    double k_spin = a->inv_inertia + b->inv_inertia;
    double spin = *a->w - *b->w;
    if (law->rolling > 0.0 && k_spin > 0.0 && spin != 0.0) {
        double r = a->inv_inertia == 0.0   ? b->lever
                   : b->inv_inertia == 0.0 ? a->lever
                                           : a->lever * b->lever / (a->lever + b->lever);
        double limit = law->rolling * jn * r;
        double stop = spin / k_spin; /* the angular impulse that ends the relative spin */
        double l = stop > limit ? limit : (stop < -limit ? -limit : stop);
        *a->w -= l * a->inv_inertia;
        *b->w += l * b->inv_inertia;
    }
}

/* The lever of ball a (radius ra) at a contact with ball b (radius rb)
 * whose centres are d apart: the contact point divides the centres' line
 * in the ratio of the radii, one point for both (the surfaces may overlap
 * or lie a margin apart). */
static inline double bp_contact_lever(double ra, double rb, double d)
{
    return d * ra / (ra + rb);
}

/* A whole ball-ball contact: the normal law (bp_collide_balls, restitution e,
 * 0 below rest_speed), then friction and rolling resistance bounded by the
 * normal impulse it took. Nothing happens unless the balls approach. */
static inline void bp_collide_pair(const bp_contact_law *law, double e, double rest_speed,
                                   double nx, double ny, const bp_contact_side *a,
                                   const bp_contact_side *b)
{
    double jn = bp_collide_balls(nx, ny, a->vx, a->vy, b->vx, b->vy, a->inv_mass, b->inv_mass,
                                 e, rest_speed);
    bp_collide_friction(law, nx, ny, jn, a, b);
}

/* Response of a ball to a static surface with outward unit normal n: the
 * normal velocity, if it points into the surface, is reflected with
 * restitution e (0 below rest_speed). Returns the speed the ball gained
 * along n (px/s, >= 0): times its mass, the normal impulse, which
 * bp_collide_friction then takes for the tangential part. */
static inline double bp_collide_static(double nx, double ny, double *vx, double *vy, double e,
                                       double rest_speed)
{
    double un = *vx * nx + *vy * ny;
    if (!(un < 0.0))
        return 0.0;
    double ut = -*vx * ny + *vy * nx;
    double approach = -un;
    double e_used = approach < rest_speed ? 0.0 : e;
    double un_after = e_used * approach;
    *vx = un_after * nx - ut * ny;
    *vy = un_after * ny + ut * nx;
    return un_after - un;
}

/* A static surface's side of a contact: nothing moves it. */
static inline bp_contact_side bp_contact_static_side(double *zeros)
{
    zeros[0] = zeros[1] = zeros[2] = 0.0;
    return (bp_contact_side){&zeros[0], &zeros[1], &zeros[2], 0.0, 0.0, 0.0};
}

/* bp_collide_static, then friction and rolling resistance against the
 * surface, for a ball of radius r with inverse mass inv_mass and inverse
 * inertia inv_inertia whose velocity and spin are (*vx, *vy, *w). */
static inline void bp_collide_surface(const bp_contact_law *law, double nx, double ny, double r,
                                      double inv_mass, double inv_inertia, double *vx, double *vy,
                                      double *w, double e, double rest_speed)
{
    double dv = bp_collide_static(nx, ny, vx, vy, e, rest_speed);
    if (!(dv > 0.0) || !(inv_mass > 0.0))
        return;
    double zeros[3];
    bp_contact_side surface = bp_contact_static_side(zeros);
    bp_contact_side ball = {vx, vy, w, inv_mass, inv_inertia, r};
    bp_collide_friction(law, nx, ny, dv / inv_mass, &surface, &ball);
}

#endif
