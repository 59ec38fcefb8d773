/* The impact stage: contacts that close fast, met pairwise by the seed's
 * law (collide.h) rather than by the sweeps, so an elastic crowd keeps its
 * energy and equal masses swap speeds exactly. */
#include "collide.h"
#include "soft_internal.h"

/* Most rounds of impacts at once: a row of balls passes an impact one
 * ball a round. */
#define BP_SOFT_IMPACT_ROUNDS 8

/* Contacts that close within the next h s faster than resting balls meet
 * and carry no load (a loaded one is the sweeps' to hold): impacts, each
 * met by the pairwise law (collide.h: the 1D law along the normal with the
 * world's restitution, friction bounded by its impulse),
 * in rounds until none approaches, so an impact passes down a row as the
 * seed law passes it. Elastic balls then keep their energy to rounding
 * (a Gauss-Seidel sweep over a cluster would not) and equal masses swap.
 * A ball meets a side or wall by the static law. A contact met here
 * closes no more in the sweeps, and restitution leaves it alone (its vn0
 * is the speed it parts at). Sleepers (no inverse mass, not held) are left
 * to the sweeps. */
void bp_soft_resolve_impacts(bp_soft *soft, const bp_world *world, double h, double rest_speed)
{
    const bp_params *p = &world->params;
    bp_contact_law law = {p->friction, p->rolling};
    soft_body *bodies = soft->bodies;
    for (int round = 0; round < BP_SOFT_IMPACT_ROUNDS; round++) {
        bool met = false;
        for (size_t k = 0; k < soft->contact_count; k++) {
            soft_contact *c = &soft->contacts[k];
            soft_body *a = &bodies[c->a], *b = &bodies[c->b];
            double vn = (b->vx - a->vx) * c->nx + (b->vy - a->vy) * c->ny;
            if (!(vn < -rest_speed) || c->jn > 0.0)
                continue;
            double s = c->s0 + ((b->x - c->xb) - (a->x - c->xa)) * c->nx +
                       ((b->y - c->yb) - (a->y - c->ya)) * c->ny;
            if (s + vn * h > 0.0)
                continue;
            if (c->b >= world->count) {
                if (a->im == 0.0)
                    continue;
                bp_collide_surface(&law, -c->nx, -c->ny, c->la, a->im, a->ii, &a->vx, &a->vy,
                                   &a->w, p->restitution, rest_speed);
                c->vn0 = (b->vx - a->vx) * c->nx + (b->vy - a->vy) * c->ny;
                met = true;
                continue;
            }
            if ((a->im == 0.0 && !(world->flags[c->a] & BP_BALL_HELD)) ||
                (b->im == 0.0 && !(world->flags[c->b] & BP_BALL_HELD)))
                continue;
            bp_contact_side sa = {&a->vx, &a->vy, &a->w, a->im, a->ii, c->la};
            bp_contact_side sb = {&b->vx, &b->vy, &b->w, b->im, b->ii, c->lb};
            bp_collide_pair(&law, p->restitution, rest_speed, c->nx, c->ny, &sa, &sb);
            c->vn0 = (b->vx - a->vx) * c->nx + (b->vy - a->vy) * c->ny;
            met = true;
        }
        if (!met)
            return;
    }
}
