/* The impact stage: contacts that close fast between balls that carry no
 * load, met pairwise by the seed's law (collide.h) rather than by the
 * sweeps, so an elastic crowd keeps its energy and equal masses swap
 * speeds exactly, while a pile is left to the sweeps whole. */
#include <string.h>

#include "collide.h"
#include "scratch.h"
#include "soft_internal.h"

/* Most rounds of impacts at once: a row of balls passes an impact one
 * ball a round. */
#define BP_SOFT_IMPACT_ROUNDS 8

/* Per body: whether it carries load, a contact of its pushing or having
 * pushed in this step (jn > 0 now, or jn_max > 0; before the first warm
 * start, jn is the impulse kept from the last step). The still body
 * never does. NULL when scratch memory runs out. */
static uint8_t *loaded_bodies(const bp_soft *soft, const bp_world *world)
{
    uint8_t *loaded = bp_scratch_alloc(world->scratch, world->count + 1, sizeof(uint8_t));
    if (!loaded)
        return NULL;
    memset(loaded, 0, world->count + 1);
    for (size_t k = 0; k < soft->contact_count; k++) {
        const soft_contact *c = &soft->contacts[k];
        if (c->jn > 0.0 || c->jn_max > 0.0)
            loaded[c->a] = loaded[c->b] = 1;
    }
    loaded[world->count] = 0;
    return loaded;
}

/* Contacts that close within the next h s faster than resting balls meet,
 * between balls neither of which carries load: impacts, each met by the
 * pairwise law (collide.h: the 1D law along the normal with the world's
 * restitution, friction bounded by its impulse), in rounds until none
 * approaches, so an impact passes down a row as the seed law passes it.
 * Elastic balls then keep their energy to rounding (a Gauss-Seidel sweep
 * over a cluster would not) and equal masses swap. A ball meets a side or
 * wall by the static law. A contact met here closes no more in the
 * sweeps, and restitution leaves it alone (its vn0 is the speed it parts
 * at). Sleepers (no inverse mass, not held) are left to the sweeps.
 *
 * A ball that carries load is the sweeps' in all its contacts. After the
 * move its velocity holds the push out of its overlaps, which the relax
 * then takes back; met here, that push bounced it off a neighbour with
 * the world's restitution. Leaving only contacts that pushed to the sweeps
 * was not enough: in the 1,000-ball pit (e 0.5) the stage met 10,600-11,300
 * contacts a pour, 98% of them right after a move and 90% of them never
 * pushing in their step (moved after the relax, 1,450-1,630: the others
 * were the push), and piles fell asleep out of balance (woken, the top
 * percent of seed 1 moved 0.59 r, of seed 2 0.78 r, the same with the
 * stage off after waking). Between balls free of load it meets
 * 2,910-3,020 a pour (balls in flight and landing), none in a pile woken,
 * and the elastic gas keeps its energy as before. */
void bp_soft_resolve_impacts(bp_soft *soft, const bp_world *world, double h, double rest_speed)
{
    const bp_params *p = &world->params;
    bp_contact_law law = {p->friction, p->rolling};
    soft_body *bodies = soft->bodies;
    const uint8_t *loaded = loaded_bodies(soft, world);
    if (!loaded)
        return;
    for (int round = 0; round < BP_SOFT_IMPACT_ROUNDS; round++) {
        bool met = false;
        for (size_t k = 0; k < soft->contact_count; k++) {
            soft_contact *c = &soft->contacts[k];
            soft_body *a = &bodies[c->a], *b = &bodies[c->b];
            double vn = (b->vx - a->vx) * c->nx + (b->vy - a->vy) * c->ny;
            if (!(vn < -rest_speed) || loaded[c->a] || loaded[c->b])
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
