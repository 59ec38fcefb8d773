/* The soft solver's contacts: the broad phase's pairs of the balls awake,
 * and from them and from the sides and walls near each ball awake the
 * step's contacts, each with its key, its normal, its gap and its
 * effective masses. */
#include <math.h>
#include <string.h>

#include "collide.h"
#include "grow.h"
#include "minmax.h"
#include "soft_internal.h"
#include "tolerances.h"
#include "walls.h"

/* How far apart pairs are listed (px): the solver's margin, plus what the
 * fastest ball travels in a step, at most what a ball not swept travels:
 * faster balls are swept instead (bp_sweep_run), so the work of a step
 * stays bounded whatever the speeds. */
double bp_soft_listing_margin(const bp_world *world, double dt, double r_min)
{
    double v_max = 0.0;
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1))
        v_max = fmax(v_max, fabs(world->vx[i]) + fabs(world->vy[i]));
    double travel = 2.0 * v_max * dt, most = 2.0 * BP_FAST_FRACTION * world->r_max;
    return BP_SOFT_MARGIN_OVER_R * r_min + (travel < most ? travel : most);
}

/* The pairs of the balls awake (none of two sleepers), within margin px,
 * found on the step's threads (the same list with any number); false when
 * memory runs out. */
bool bp_soft_list_pairs(bp_soft *soft, const bp_world *world, double margin)
{
    bp_broadphase *bp = &soft->broadphase;
    bp->awake_pairs_only = true;
    return bp_broadphase_sort(bp, world, margin, soft->workers) &&
           bp_broadphase_pairs(bp, world, margin, soft->workers);
}

/* The body a ball stands as in the sweeps: its own, or for a side or a
 * wall (-1) the still body. A sleeper's is set when a contact first names
 * it (the balls awake are set at the step's start). */
static inline uint32_t body_of(bp_soft *soft, const bp_world *world, int32_t i)
{
    if (i < 0)
        return (uint32_t)world->count;
    if (world->flags[i] & BP_BALL_ASLEEP)
        soft->bodies[i] = body_listed_now(soft, world, (size_t)i);
    return (uint32_t)i;
}

/* Whether ball i, not held, is fast enough to split the step into pieces
 * by itself (step.c): its contacts then take the piece's stiffness. */
static inline bool splits(const bp_soft *soft, const bp_world *world, uint32_t i)
{
    double v2 = world->vx[i] * world->vx[i] + world->vy[i] * world->vy[i];
    return !(world->flags[i] & BP_BALL_HELD) && v2 > world->r[i] * world->r[i] * soft->split_scale;
}

static bool add_contact(bp_soft *soft, const bp_world *world, uint32_t a, int32_t b,
                        contact_key key, double nx, double ny, double s0, double lb)
{
    if (soft->contact_count == soft->contact_capacity &&
        !bp_reserve((void **)&soft->contacts, &soft->contact_capacity, soft->contact_count + 1,
                    sizeof(soft_contact)))
        return false;
    if (soft->contact_count == soft->key_capacity &&
        !bp_reserve((void **)&soft->keys, &soft->key_capacity, soft->contact_count + 1,
                    sizeof(contact_key)))
        return false;
    soft->keys[soft->contact_count] = key;
    soft_contact *c = &soft->contacts[soft->contact_count++];
    uint32_t ia = body_of(soft, world, (int32_t)a), ib = body_of(soft, world, b);
    const soft_body *ba = &soft->bodies[ia], *bb = &soft->bodies[ib];
    *c = (soft_contact){.a = ia, .b = ib, .nx = nx, .ny = ny};
    c->s0 = s0;
    double la = world->r[a];
    double kn = ba->im + bb->im, kt = kn + la * la * ba->ii + lb * lb * bb->ii;
    double kr = ba->ii + bb->ii;
    c->kn = kn > 0.0 ? 1.0 / kn : 0.0;
    c->kt = kt > 0.0 ? 1.0 / kt : 0.0;
    c->kr = kr > 0.0 ? 1.0 / kr : 0.0;
    c->roll_r = b < 0 ? la : la * lb / (la + lb);
    /* The hand shoves, it does not bat (collide.h): no restitution off a
     * held ball, whose body has its mass for the sweeps' sake. */
    bool held = (world->flags[a] & BP_BALL_HELD) || (b >= 0 && (world->flags[b] & BP_BALL_HELD));
    c->vn0 = held ? 0.0 : (bb->vx - ba->vx) * nx + (bb->vy - ba->vy) * ny;
    return true;
}

/* Whether ball i approaches a static surface (normal n from the ball into
 * it) faster than a resting ball does, with no other ball near: an impact,
 * which the swept move bounces exactly where it happens (arena.h), rather
 * than a contact. A ball with others near meets the surface as a contact
 * (its bounce is the restitution stage's): swept after the sweeps, it
 * turned back under the balls following it, which the sweeps had let on
 * at its own speed, and they sank into it (a crowd landing at 1,500 px/s
 * left balls 1.98 r deep in each other). */
static bool hits(bp_soft *soft, const bp_world *world, size_t i, double nx, double ny,
                 double rest_speed)
{
    bool hit = !soft->near_ball[i] && world->vx[i] * nx + world->vy[i] * ny > rest_speed;
    soft->swept[i] |= hit;
    return hit;
}

/* The contacts of the sides and walls near each ball awake, within margin
 * (px) plus what the ball travels in a step; marks the balls that hit
 * one instead (swept). */
static bool list_static_contacts(bp_soft *soft, const bp_world *world, double margin, double dt,
                                 double rest_speed)
{
    const bp_statics *st = world->statics;
    double fall = fabs(world->params.gravity) * dt * dt; /* what gravity adds to a step's travel */
    memset(soft->swept, 0, world->count);
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1)) {
        soft->swept[i] = (world->flags[i] & BP_BALL_HELD) != 0;
        double x = world->x[i], y = world->y[i], r = world->r[i];
        double reach = margin + (fabs(world->vx[i]) + fabs(world->vy[i])) * dt + fall;
        for (int k = 0; k < BP_SIDES; k++) {
            double gx, gy;
            double gap = bp_segment_distance(&st->sides[k], x, y, 0.0, 0.0, &gx, &gy) - r;
            contact_key key = {world->id[i], KIND_SIDE, (uint32_t)k};
            if (gap < reach && !hits(soft, world, i, -gx, -gy, rest_speed) &&
                !add_contact(soft, world, (uint32_t)i, -1, key, -gx, -gy, gap, 0.0))
                return false;
        }
        if (st->count == 0)
            continue;
        uint32_t near[BP_WALLS_QUERY_MAX];
        bp_cell_box cells;
        double grow = r + reach;
        size_t m = bp_statics_query(st, x - grow, y - grow, x + grow, y + grow, near, &cells);
        size_t all = m == SIZE_MAX ? st->count : m;
        for (size_t q = 0; q < all; q++) {
            uint32_t w = m == SIZE_MAX ? (uint32_t)q : near[q];
            const bp_segment *g = &st->segs[w];
            double gx, gy;
            double gap =
                bp_segment_distance(g, x, y, world->vx[i], world->vy[i], &gx, &gy) - g->r - r;
            contact_key key = {world->id[i], KIND_WALL, w};
            if (gap < reach && !hits(soft, world, i, -gx, -gy, rest_speed) &&
                !add_contact(soft, world, (uint32_t)i, -1, key, -gx, -gy, gap, 0.0))
                return false;
        }
    }
    return true;
}

/* The contacts of the broad phase's pairs, within margin plus what the two
 * may close on each other in a step: at their relative speed, or at
 * either's own, since either may be stopped within the step (two balls
 * falling together close on each other once the lower one lands); marks
 * the balls with one. */
static bool list_pair_contacts(bp_soft *soft, const bp_world *world, double margin, double dt)
{
    memset(soft->near_ball, 0, world->count);
    const bp_broadphase *bp = &soft->broadphase;
    const uint8_t *flags = world->flags;
    for (size_t k = 0; k < bp->pair_count; k++) {
        uint32_t i = bp->pairs[k].a, j = bp->pairs[k].b;
        if (flags[i] & flags[j] & BP_BALL_ASLEEP)
            continue;
        /* a is the one of smaller id: the key does not depend on the order. */
        if (world->id[j] < world->id[i]) {
            uint32_t t = i;
            i = j;
            j = t;
        }
        double dx = world->x[j] - world->x[i], dy = world->y[j] - world->y[i];
        double d2 = dx * dx + dy * dy, reach = world->r[i] + world->r[j];
        double rel = fabs(world->vx[j] - world->vx[i]) + fabs(world->vy[j] - world->vy[i]);
        double own_i = fabs(world->vx[i]) + fabs(world->vy[i]);
        double own_j = fabs(world->vx[j]) + fabs(world->vy[j]);
        double travel = bp_max(rel, bp_max(own_i, own_j)) * dt;
        double far = reach + margin + travel;
        if (!(d2 < far * far))
            continue;
        double d = sqrt(d2), nx, ny;
        if (d > 0.0) {
            nx = dx / d;
            ny = dy / d;
        } else {
            bp_coincident_normal(world->id[i], world->id[j], &nx, &ny);
        }
        contact_key key = {world->id[i], KIND_BALL, world->id[j]};
        if (!add_contact(soft, world, i, (int32_t)j, key, nx, ny, d - reach, world->r[j]))
            return false;
        soft->near_ball[i] = soft->near_ball[j] = 1;
    }
    return true;
}

/* In a step cut into pieces, the contacts that take the pieces'
 * stiffness (solver.c): those of a ball that splits the step by itself,
 * and those closing faster than rest_speed when listed. */
static void mark_stiff(bp_soft *soft, const bp_world *world, double rest_speed)
{
    uint32_t still = (uint32_t)world->count;
    for (size_t k = 0; k < soft->contact_count; k++) {
        soft_contact *c = &soft->contacts[k];
        bool stiff = c->vn0 < -rest_speed || splits(soft, world, c->a) ||
                     (c->b != still && splits(soft, world, c->b));
        c->stiff = stiff ? 1.0 : 0.0;
    }
}

/* Every contact of the step: the pairs the broad phase lists, then the
 * sides and walls near each ball awake; in a step in pieces, which are
 * stiff. */
bool bp_soft_list_contacts(bp_soft *soft, const bp_world *world, double margin, double dt,
                           double rest_speed)
{
    soft->contact_count = 0;
    if (!list_pair_contacts(soft, world, margin, dt) ||
        !list_static_contacts(soft, world, margin, dt, rest_speed))
        return false;
    if (soft->split_scale < INFINITY)
        mark_stiff(soft, world, rest_speed);
    return true;
}
