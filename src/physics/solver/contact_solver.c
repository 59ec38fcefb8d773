/* The soft solver's stages over the contacts: the impulses they carry
 * given again (warm start), the Gauss-Seidel sweeps that stop every
 * approach and push overlaps out through a soft constraint, the sweep
 * without the push (relax), and restitution. apply and the sweep stay in
 * this one file so that the compiler inlines them where they are used. */
#include <math.h>

#include "minmax.h"
#include "soft_internal.h"

/* Gives contact c's impulses (normal pn, tangential pt, rolling pr) to
 * its bodies at the contact point: b takes them, a their opposite. */
static inline void apply(soft_body *bodies, const soft_contact *c, double pn, double pt,
                         double pr)
{
    double px = pn * c->nx - pt * c->ny, py = pn * c->ny + pt * c->nx;
    soft_body *a = &bodies[c->a], *b = &bodies[c->b];
    a->vx -= px * a->im;
    a->vy -= py * a->im;
    a->w -= (pt * c->la + pr) * a->ii;
    b->vx += px * b->im;
    b->vy += py * b->im;
    b->w += (pr - pt * c->lb) * b->ii;
}

/* A damped spring of frequency hz and damping ratio zeta, solved
 * implicitly over h s: the part of an overlap it closes per second, and how
 * much of the rigid response it gives. */
softness bp_soft_softness_for(double hz, double zeta, double h)
{
    double omega = 2.0 * M_PI * hz;
    double a1 = 2.0 * zeta + h * omega, a2 = h * omega * a1, a3 = 1.0 / (1.0 + a2);
    return (softness){omega / a1, a2 * a3, a3};
}

/* The impulses the contacts carry, given again at the substep's start. */
void bp_soft_warm_start(bp_soft *soft)
{
    for (size_t k = 0; k < soft->contact_count; k++) {
        const soft_contact *c = &soft->contacts[k];
        apply(soft->bodies, c, c->jn, c->jt, c->jr);
    }
}

/* One Gauss-Seidel sweep over the contacts. push: the soft push out of
 * overlaps (else only the approach is stopped, and the speculative gap
 * kept). */
static void sweep_contacts(bp_soft *soft, const bp_params *p, double h, const softness *soft_push,
                           double max_push, bool push)
{
    double mu = p->friction, rolling = p->rolling, inv_h = 1.0 / h;
    soft_body *bodies = soft->bodies;
    for (size_t k = 0; k < soft->contact_count; k++) {
        soft_contact *c = &soft->contacts[k];
        soft_body *a = &bodies[c->a], *b = &bodies[c->b];
        /* The gap now: as listed, and closed by how far each centre moved. */
        double s = c->s0 + ((b->x - c->xb) - (a->x - c->xa)) * c->nx +
                   ((b->y - c->yb) - (a->y - c->ya)) * c->ny;
        double bias = 0.0, mass_scale = 1.0, impulse_scale = 0.0;
        if (s > 0.0) {
            bias = s * inv_h; /* speculative: it may close the gap, no more */
        } else if (push) {
            bias = bp_max(soft_push->bias_rate * s, -max_push);
            mass_scale = soft_push->mass_scale;
            impulse_scale = soft_push->impulse_scale;
        }
        double dvx = b->vx - a->vx, dvy = b->vy - a->vy;
        double vn = dvx * c->nx + dvy * c->ny;
        double jn = bp_max(c->jn - c->kn * mass_scale * (vn + bias) - impulse_scale * c->jn, 0.0);
        double dn = jn - c->jn;
        c->jn = jn;
        c->jn_max = bp_max(c->jn_max, jn);
        /* Friction on the contact points' relative speed, spin included. */
        double vt = -dvx * c->ny + dvy * c->nx - b->w * c->lb - a->w * c->la;
        double limit = mu * jn;
        double jt = bp_min(bp_max(c->jt - vt * c->kt, -limit), limit);
        double dt_ = jt - c->jt;
        c->jt = jt;
        apply(bodies, c, dn, dt_, 0.0);
        /* Rolling resistance against the relative spin, never reversing it. */
        if (rolling > 0.0 && c->kr > 0.0) {
            double spin = a->w - b->w;
            double rlimit = rolling * jn * c->roll_r;
            double jr = bp_min(bp_max(c->jr + spin * c->kr, -rlimit), rlimit);
            double dr = jr - c->jr;
            c->jr = jr;
            apply(bodies, c, 0.0, 0.0, dr);
        }
    }
}

/* A sweep with the push out of overlaps (BP_SOFT_SWEEPS of them a
 * substep, before the move). */
void bp_soft_sweep(bp_soft *soft, const bp_params *p, double h, const softness *soft_push,
                   double max_push)
{
    sweep_contacts(soft, p, h, soft_push, max_push, true);
}

/* The sweep without the push, after the move: the push leaves no speed
 * behind. */
void bp_soft_relax(bp_soft *soft, const bp_params *p, double h, const softness *soft_push,
                   double max_push)
{
    sweep_contacts(soft, p, h, soft_push, max_push, false);
}

/* A contact hit faster than a resting one closes bounces with the
 * world's restitution: its normal speed is set to -e times the approach. */
void bp_soft_restitution(bp_soft *soft, double e, double rest_speed)
{
    if (e == 0.0)
        return;
    for (size_t k = 0; k < soft->contact_count; k++) {
        soft_contact *c = &soft->contacts[k];
        if (c->vn0 > -rest_speed || c->jn_max == 0.0)
            continue;
        const soft_body *a = &soft->bodies[c->a], *b = &soft->bodies[c->b];
        double vn = (b->vx - a->vx) * c->nx + (b->vy - a->vy) * c->ny;
        double jn = bp_max(c->jn - c->kn * (vn + e * c->vn0), 0.0);
        double dn = jn - c->jn;
        c->jn = jn;
        apply(soft->bodies, c, dn, 0.0, 0.0);
    }
}
