/* The supported pass.
 *
 * Gauss-Seidel relaxation cannot hold a deep pile within a few passes: the
 * floor's push has to travel up through every layer, one layer per pass, so
 * the pile sinks into itself and keeps a downward "ghost" velocity that
 * grows with depth. This pass applies the idea of shock propagation
 * (Guendelman, Bridson and Fedkiw, 2003): visit the balls from the floor
 * upwards; a ball is supported when it stands on the floor or rests on a
 * supported ball (or a held one); balls already visited act as immovable for
 * the ones visited after them. One sweep then settles the whole pile: each
 * ball is pushed out of every visited neighbour (supporters and side
 * neighbours alike) and loses the velocity that would sink it into its
 * supporters, as if it stood on the floor itself.
 *
 * Order matters, so balls are counting-sorted by height in bins smaller than
 * the least height difference a support contact can have (contacts flatter
 * than asin(BP_SUPPORT_MIN_UP) are side contacts, not support): every
 * supporter is visited before the balls it supports.
 *
 * Momentum: this pass hands momentum to the floor and the sides, as they do
 * in any contact. It only touches balls with a chain down to the floor,
 * after the relaxation passes have applied the exact collision law, and it
 * only ever removes velocity, so collisions between free balls keep their
 * exact momentum balance and no energy is made. */
#include "support.h"

#include <math.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collide.h"
#include "grow.h"
#include "minmax.h"
#include "tolerances.h"

/* Push-out sweeps over the neighbours of one ball: each push disturbs the
 * other contacts, and a ball in a pocket converges geometrically. */
#define BP_SUPPORT_SWEEPS 4
/* Pairs of two balls this many diameters above where the last pass stopped
 * (and a ball's reach) wait until the pass gets near them. */
#define BP_SUPPORT_DEFER_DIAMETERS 8.0
/* Velocity constraints per ball at most (the floor, a side and its settled
 * neighbours). */
#define BP_SUPPORT_MAX_CONSTRAINTS 6
/* Most lanes (threads) the visits are shared among. */
#define BP_SUPPORT_MAX_LANES 8
/* With fewer balls awake to visit, one thread visits them all: setting up
 * the lanes and their waits would cost more than they save. */
#define BP_SUPPORT_LANES_MIN_AWAKE 2048

void bp_support_free(bp_support *s)
{
    free(s->visited);
    free(s->slot);
    free(s->in_visit);
    free(s->order);
    free(s->first);
    free(s->near);
    free(s->supported);
    free(s->anchor);
    free(s->degree);
    bp_scratch_destroy(s->own_scratch);
    free(s->whole);
    *s = (bp_support){0};
}

static bool reserve_all(bp_support *s, size_t balls, size_t bins, size_t pairs, int strips)
{
    if (balls + 1 > s->ball_capacity) {
        size_t had = s->ball_capacity;
        size_t c[8] = {had, had, had, had, had, had, had, had};
        if (!bp_reserve((void **)&s->visited, &c[0], balls + 1, sizeof(uint32_t)) ||
            !bp_reserve((void **)&s->slot, &c[1], balls + 1, sizeof(uint32_t)) ||
            !bp_reserve((void **)&s->in_visit, &c[2], balls + 1, sizeof(uint8_t)) ||
            !bp_reserve((void **)&s->order, &c[3], balls + 1, sizeof(uint32_t)) ||
            !bp_reserve((void **)&s->first, &c[4], balls + 1, sizeof(uint32_t)) ||
            !bp_reserve((void **)&s->supported, &c[5], balls + 1, sizeof(uint8_t)) ||
            !bp_reserve((void **)&s->degree, &c[6], balls + 1, sizeof(uint32_t)) ||
            !bp_reserve((void **)&s->whole, &c[7], balls + 1, sizeof(uint8_t)))
            return false;
        memset(s->in_visit + had, 0, c[2] - had);
        memset(s->degree + had, 0, (c[6] - had) * sizeof(uint32_t));
        /* bp_support_touching tells visited balls by their slot. */
        for (size_t k = had; k < c[1]; k++)
            s->slot[k] = UINT32_MAX;
        s->ball_capacity = c[0];
    }
    /* The pass's own arrays: workers write edges, spare_edges and
     * pair_state from each strip's first pair on, edge_count at its slot. */
    s->bin_start = bp_scratch_alloc(s->scratch, bins + 1, sizeof(uint32_t));
    s->edges = bp_scratch_alloc(s->scratch, 2 * pairs + 1, sizeof(uint32_t));
    s->spare_edges = bp_scratch_alloc(s->scratch, 2 * pairs + 1, sizeof(uint32_t));
    s->pair_state = bp_scratch_alloc(s->scratch, pairs + 1, 1);
    s->edge_count = bp_scratch_alloc(s->scratch, (size_t)strips + 1, sizeof(size_t));
    return bp_reserve((void **)&s->near, &s->near_capacity, 2 * pairs + 1, sizeof(uint32_t)) &&
           s->bin_start && s->edges && s->spare_edges && s->pair_state && s->edge_count;
}

/* Height above the floor, px. */
static inline double height_of(const bp_world *world, size_t i, double up_y)
{
    return up_y < 0.0 ? world->params.height - world->y[i] : world->y[i];
}

/* What a worker needs for its share of the neighbour lists: the strips
 * of one parity at a time (the slots with pairs from busy[slot_begin] on,
 * broadphase.h), which share no ball, so the counts and lists of a ball
 * are written by one strip per parity. */
typedef struct neighbour_job {
    bp_support *s;
    const bp_world *world;
    const bp_broadphase *bp;
    double up_y, margin;
    double deferred_above; /* height: pairs of two balls this high wait (defer) */
    int slot_begin;
} neighbour_job;

/* 0 if a and b are further apart than margin, else 1, with the supporter
 * bit on the side of the lower ball when the contact is steep enough. */
static inline bool touching(const bp_world *world, uint32_t a, uint32_t b, double margin,
                            double up_y, uint32_t *a_entry, uint32_t *b_entry)
{
    double dx = world->x[b] - world->x[a];
    double dy = world->y[b] - world->y[a];
    double reach = world->r[a] + world->r[b] + margin;
    double d2 = dx * dx + dy * dy;
    if (d2 >= reach * reach)
        return false;
    double up = dy * up_y; /* how far b stands above a */
    bool steep = up * up >= BP_SUPPORT_MIN_UP * BP_SUPPORT_MIN_UP * d2;
    *a_entry = b | (steep && up < 0.0 ? BP_SUPPORTER_BIT : 0u); /* b holds a up */
    *b_entry = a | (steep && up > 0.0 ? BP_SUPPORTER_BIT : 0u); /* a holds b up */
    return true;
}

/* Piece k: the pairs of one strip. Marks their balls for a visit, and keeps
 * the touching ones in the strip's stretch of edges (from twice its first
 * pair on), counting each ball's neighbours in degree. A pair of two balls
 * at deferred_above or higher waits (see bp_support_pass). */
static void find_touching(void *context, int k)
{
    const neighbour_job *job = context;
    bp_support *s = job->s;
    const bp_world *world = job->world;
    int j = job->bp->busy[job->slot_begin + k];
    size_t lo = job->bp->strip_first[j], hi = job->bp->strip_first[j + 1];
    const bp_pair *pairs = job->bp->pairs;
    uint32_t *edges = s->edges + 2 * lo, *degree = s->degree;
    uint8_t *state = s->pair_state;
    size_t count = 0, fetches = bp_world_prefetches(world, hi - lo);
    for (size_t p = lo; p < hi; p++) {
        uint32_t a = pairs[p].a, b = pairs[p].b, ea, eb;
        if (p < lo + fetches)
            bp_world_prefetch(world, pairs[p + BP_PREFETCH_AHEAD].b);
        s->in_visit[a] = 1;
        s->in_visit[b] = 1;
        if (height_of(world, a, job->up_y) >= job->deferred_above &&
            height_of(world, b, job->up_y) >= job->deferred_above) {
            state[p] = BP_SUPPORT_PAIR_DEFERRED;
        } else if (touching(world, a, b, job->margin, job->up_y, &ea, &eb)) {
            state[p] = BP_SUPPORT_PAIR_TOUCHING;
            edges[2 * count] = ea;
            edges[2 * count + 1] = eb;
            count++;
            degree[a]++;
            degree[b]++;
        } else {
            state[p] = BP_SUPPORT_PAIR_APART;
        }
    }
    s->edge_count[j] = count;
}

/* Piece k: the touching pairs of one strip again, with the ones that
 * waited, in pair order, from edges into spare_edges; counts degree anew.
 * Neither ball of a pair that waited has moved since find_touching, so
 * this gives what find_touching would have given without the wait. */
static void find_deferred(void *context, int k)
{
    const neighbour_job *job = context;
    bp_support *s = job->s;
    int j = job->bp->busy[job->slot_begin + k];
    size_t lo = job->bp->strip_first[j], hi = job->bp->strip_first[j + 1];
    const bp_pair *pairs = job->bp->pairs;
    const uint32_t *found = s->edges + 2 * lo;
    uint32_t *edges = s->spare_edges + 2 * lo, *degree = s->degree;
    size_t count = 0, kept = 0;
    for (size_t p = lo; p < hi; p++) {
        uint32_t ea, eb;
        if (s->pair_state[p] == BP_SUPPORT_PAIR_TOUCHING) {
            ea = found[2 * kept];
            eb = found[2 * kept + 1];
            kept++;
        } else if (s->pair_state[p] != BP_SUPPORT_PAIR_DEFERRED ||
                   !touching(job->world, pairs[p].a, pairs[p].b, job->margin, job->up_y, &ea,
                             &eb)) {
            continue;
        }
        edges[2 * count] = ea;
        edges[2 * count + 1] = eb;
        count++;
        degree[ea & ~BP_SUPPORTER_BIT]++;
        degree[eb & ~BP_SUPPORTER_BIT]++;
    }
    s->edge_count[j] = count;
}

/* Piece k: files the touching pairs of one strip in both balls' lists. */
static void file_touching(void *context, int k)
{
    const neighbour_job *job = context;
    bp_support *s = job->s;
    int j = job->bp->busy[job->slot_begin + k];
    const uint32_t *edges = s->filed_edges + 2 * job->bp->strip_first[j];
    uint32_t *first = s->first, *slot = s->slot;
    for (size_t e = 0; e < s->edge_count[j]; e++) {
        uint32_t ea = edges[2 * e], eb = edges[2 * e + 1];
        /* Each entry names the other ball: a's entry holds b, and so on. */
        s->near[first[slot[eb & ~BP_SUPPORTER_BIT]]++] = ea;
        s->near[first[slot[ea & ~BP_SUPPORTER_BIT]]++] = eb;
    }
}

/* Runs piece job over the strips of each parity in turn, the even ones
 * first, then over the big slot on this thread: each ball then gets its
 * entries in the order of the pair list. */
static void by_parity(bp_workers *workers, bp_job piece, neighbour_job *job)
{
    const bp_broadphase *bp = job->bp;
    job->slot_begin = 0;
    bp_workers_run(workers, piece, job, bp->busy_even);
    job->slot_begin = bp->busy_even;
    bp_workers_run(workers, piece, job, bp->busy_odd);
    job->slot_begin = bp->busy_even + bp->busy_odd;
    bp_workers_run(NULL, piece, job, bp->busy_big);
}

/* Lists the balls the pass has to visit, by index: every ball awake and
 * every sleeper in a listed pair (one next to a ball awake; find_touching
 * marked those). The other sleepers rest among sleepers only: nothing
 * under them changed, so they stay as they are, supported, and cost
 * nothing. Returns how many. */
static size_t list_visits(bp_support *s, const bp_world *world)
{
    uint8_t *in_visit = s->in_visit;
    size_t n = world->count;
    for (size_t i = bp_world_next_awake(world, 0); i < n; i = bp_world_next_awake(world, i + 1))
        in_visit[i] = 1;
    size_t count = 0;
    for (size_t i = bp_scan_bytes(in_visit, 0, n, 1, true); i < n;
         i = bp_scan_bytes(in_visit, i + 1, n, 1, true)) {
        s->slot[i] = (uint32_t)count;
        s->visited[count++] = (uint32_t)i;
    }
    return count;
}

/* The height bin of ball i: bins of bin px from the floor up, the lowest
 * and highest taking whatever lies beyond. */
static inline size_t bin_of(const bp_world *world, size_t i, double up_y, double inv_bin,
                            size_t bins)
{
    double h = height_of(world, i, up_y) * inv_bin;
    return h <= 0.0 ? 0 : (h >= (double)(bins - 1) ? bins - 1 : (size_t)h);
}

/* Counting sort by height of the visited balls into order. Notes which
 * balls stand below deferred_above, whose lists will be whole. */
static void sort_by_height(bp_support *s, const bp_world *world, size_t visits, double up_y,
                           double bin, size_t bins, double deferred_above)
{
    uint32_t *start = s->bin_start;
    for (size_t b = 0; b <= bins; b++)
        start[b] = 0;
    double inv_bin = 1.0 / bin;
    /* first[] is free until the neighbour lists are built: it holds bins. */
    for (size_t k = 0; k < visits; k++) {
        uint32_t i = s->visited[k];
        size_t b = bin_of(world, i, up_y, inv_bin, bins);
        s->whole[k] = height_of(world, i, up_y) < deferred_above;
        s->first[k] = (uint32_t)b;
        start[b + 1]++;
    }
    for (size_t b = 0; b < bins; b++)
        start[b + 1] += start[b];
    for (size_t k = 0; k < visits; k++)
        s->order[start[s->first[k]]++] = s->visited[k];
}

/* Neighbour lists (CSR) of the visited balls, from the counts and edges
 * find_touching left: near[first[k] .. first[k+1]) for the ball in slot k.
 * Clears degree for the next pass. Returns the longest list's length. */
static uint32_t build_neighbours(bp_support *s, bp_workers *workers, neighbour_job *job,
                                 size_t visits)
{
    uint32_t *first = s->first, *degree = s->degree;
    first[0] = 0;
    uint32_t longest = 0;
    for (size_t k = 0; k < visits; k++) {
        uint32_t i = s->visited[k];
        longest = degree[i] > longest ? degree[i] : longest;
        first[k + 1] = first[k] + degree[i];
        degree[i] = 0;
    }
    by_parity(workers, file_touching, job);
    /* Filing moved each start to the next one's: move them back. */
    for (size_t k = visits; k > 0; k--)
        first[k] = first[k - 1];
    first[0] = 0;
    return longest;
}

/* The neighbour lists from edges (s->edges, or s->spare_edges once the
 * pairs that waited are found), and room to settle a ball with the longest
 * of them. false when memory runs out. */
static bool list_neighbours(bp_support *s, bp_workers *workers, neighbour_job *job,
                            size_t visits, const uint32_t *edges)
{
    s->filed_edges = edges;
    uint32_t longest = build_neighbours(s, workers, job, visits);
    s->settled_room = (size_t)longest + 1;
    s->settled = bp_scratch_alloc(s->scratch, s->settled_room, sizeof(uint32_t));
    return s->settled != NULL;
}

/* Ends the pass's visits: in_visit is all 0 between passes. Returns ok. */
static bool end_visits(bp_support *s, size_t visits, bool ok)
{
    for (size_t k = 0; k < visits; k++)
        s->in_visit[s->visited[k]] = 0;
    return ok;
}

/* Whether balls a and b were sorted into the same or neighbouring cells. */
static bool cells_meet(const bp_broadphase *bp, uint32_t a, uint32_t b)
{
    uint32_t cols = (uint32_t)bp->shape.cols, ca = bp->ball_cell[a], cb = bp->ball_cell[b];
    uint32_t ra = ca / cols, rb = cb / cols, xa = ca % cols, xb = cb % cols;
    return (ra > rb ? ra - rb : rb - ra) <= 1 && (xa > xb ? xa - xb : xb - xa) <= 1;
}

/* Whether sleeper u, listed with the balls awake in near[0 .. count), has
 * lost what held it up: none of them is under it and supported, and no
 * sleeper under it still stands (those are not listed: the grid has them).
 * A supporter may fall away, or roll out from under it: a small ball asleep
 * on a big one that still slid at 30 px/s hung in the air once that one
 * had gone, because only a supporter still touching was looked at. */
static bool lost_support(const bp_world *world, const bp_broadphase *bp, const uint8_t *supported,
                         uint32_t u, const uint32_t *near, uint32_t count, double up_y,
                         double margin, uint32_t *anchor)
{
    for (uint32_t j = 0; j < count; j++)
        if ((near[j] & BP_SUPPORTER_BIT) && supported[near[j] & ~BP_SUPPORTER_BIT])
            return false;
    /* A sleeper is supported: one that lost its support woke. The one
     * found last time usually still holds u up: checking it first, by the
     * same test as the search, spares the search of the grid. */
    uint32_t u_entry, l_entry;
    int64_t last = *anchor == UINT32_MAX ? -1 : bp_world_index_of(world, *anchor);
    /* A sleeper that touches u was sorted into the cells around u's (it has
     * not moved); one that woke may have left: the cells tell at once. */
    if (last >= 0 && cells_meet(bp, (uint32_t)last, u) && (world->flags[last] & BP_BALL_ASLEEP) &&
        touching(world, (uint32_t)last, u, margin, up_y, &l_entry, &u_entry) &&
        (u_entry & BP_SUPPORTER_BIT))
        return false;
    uint32_t around[32];
    size_t found = bp_broadphase_query_below(bp, world, u, margin, up_y, around, 32);
    for (size_t k = 0; k < found; k++) {
        uint32_t l = around[k];
        if ((world->flags[l] & BP_BALL_ASLEEP) &&
            touching(world, l, u, margin, up_y, &l_entry, &u_entry) &&
            (u_entry & BP_SUPPORTER_BIT)) {
            *anchor = world->id[l];
            return false;
        }
    }
    return true;
}

/* Pushes a ball of radius r at (*x, *y) out of an overlap with the settled
 * ball l. The ball is in locals, not the world's arrays: a store to x[u]
 * and a load back for every push was a chain the CPU had to wait on. */
static inline bool push_out(const bp_world *world, uint32_t l, double r, double *x, double *y)
{
    double dx = *x - world->x[l];
    double dy = *y - world->y[l];
    double d2 = dx * dx + dy * dy;
    double reach = world->r[l] + r;
    double tiny = BP_COINCIDENT_OVER_R * reach;
    if (d2 >= reach * reach || !(d2 > tiny * tiny))
        return false;
    double d = sqrt(d2);
    double along = (reach - d) / d;
    *x += dx * along;
    *y += dy * along;
    return true;
}

static inline void keep_in_arena(const bp_world *world, double r, double *x, double *y)
{
    double w = world->params.width, h = world->params.height;
    if (2.0 * r <= w)
        *x = bp_min(bp_max(*x, r), w - r);
    if (2.0 * r <= h)
        *y = bp_min(bp_max(*y, r), h - r);
}

/* Velocity constraints v . n >= c on one ball. */
typedef struct constraint_set {
    int count;
    double nx[BP_SUPPORT_MAX_CONSTRAINTS], ny[BP_SUPPORT_MAX_CONSTRAINTS];
    double c[BP_SUPPORT_MAX_CONSTRAINTS];
    double least[BP_SUPPORT_MAX_CONSTRAINTS]; /* c less a rounding allowance */
} constraint_set;

/* Sets constraint i's bound c (and the allowance satisfies gives it, for
 * rounding: in proportion to the bound and to the rest speed). */
static void set_bound(constraint_set *cs, int i, double c, double rest_speed)
{
    cs->c[i] = c;
    cs->least[i] = c - BP_BOUND_ROUNDING * (BP_BOUND_SPEED_OVER_REST * rest_speed + fabs(c));
}

static bool satisfies(const constraint_set *cs, double vx, double vy)
{
    for (int i = 0; i < cs->count; i++)
        if (vx * cs->nx[i] + vy * cs->ny[i] < cs->least[i])
            return false;
    return true;
}

/* The velocity closest to (vx, vy) that satisfies every constraint. In 2D at
 * most two constraints are active at the optimum, so trying each one alone
 * and each pair together finds it exactly. Order-free on purpose: projecting
 * onto the constraints one after another also ends inside them, but at a
 * point that depends on the order, and that bias made piles drift sideways.
 *
 * The projection onto one constraint alone is the closest point of a larger
 * set than the one sought, so if it satisfies the others it is the answer
 * (the answer is unique): no need to try the pairs, which is most of the
 * work and the usual case, a ball sinking into the one below it. */
static void closest_velocity(const constraint_set *cs, double *vx, double *vy)
{
    if (satisfies(cs, *vx, *vy))
        return;
    for (int i = 0; i < cs->count; i++) {
        double excess = cs->c[i] - (*vx * cs->nx[i] + *vy * cs->ny[i]);
        if (excess <= 0.0)
            continue;
        double x = *vx + excess * cs->nx[i], y = *vy + excess * cs->ny[i];
        if (satisfies(cs, x, y)) {
            *vx = x;
            *vy = y;
            return;
        }
    }
    double best_x = 0.0, best_y = 0.0, best_cost = INFINITY;
    for (int i = 0; i < cs->count; i++)
        for (int j = i + 1; j < cs->count; j++) {
            double det = cs->nx[i] * cs->ny[j] - cs->ny[i] * cs->nx[j];
            if (fabs(det) < 1e-9)
                continue;
            double x = (cs->c[i] * cs->ny[j] - cs->ny[i] * cs->c[j]) / det;
            double y = (cs->nx[i] * cs->c[j] - cs->c[i] * cs->nx[j]) / det;
            double cost = (x - *vx) * (x - *vx) + (y - *vy) * (y - *vy);
            if (cost < best_cost && satisfies(cs, x, y)) {
                best_cost = cost;
                best_x = x;
                best_y = y;
            }
        }
    if (best_cost < INFINITY) {
        *vx = best_x;
        *vy = best_y;
        return;
    }
    /* Degenerate sets (three nearly active at once): alternating
     * projections, in both orders, still end inside. */
    for (int sweep = 0; sweep < 8; sweep++)
        for (int k = 0; k < cs->count; k++) {
            int i = sweep % 2 ? cs->count - 1 - k : k;
            double excess = cs->c[i] - (*vx * cs->nx[i] + *vy * cs->ny[i]);
            if (excess > 0.0) {
                *vx += excess * cs->nx[i];
                *vy += excess * cs->ny[i];
            }
        }
}

typedef struct settle_context {
    bp_world *world;
    uint32_t *settled; /* room for any ball's neighbours */
    double rest_speed; /* px/s: faster approaches are impacts, not rest */
    const uint8_t *supported;
    double up_y, dt;
    double margin; /* px: planes this near hold the ball too */
} settle_context;

/* held_by of the arena's floor and sides, which no ball index reaches. */
#define BP_HELD_BY_FLOOR UINT32_MAX
#define BP_HELD_BY_LEFT (UINT32_MAX - 1)
#define BP_HELD_BY_RIGHT (UINT32_MAX - 2)
_Static_assert(BP_HELD_BY_RIGHT > (uint32_t)INT32_MAX, "ball indices stay below 2^31");

/* How far ball u is from the arena's floor or side, px. */
static double plane_gap(const bp_world *world, uint32_t u, uint32_t plane, double up_y)
{
    double r = world->r[u];
    if (plane == BP_HELD_BY_LEFT)
        return world->x[u] - r;
    if (plane == BP_HELD_BY_RIGHT)
        return world->params.width - r - world->x[u];
    return up_y < 0.0 ? world->params.height - r - world->y[u] : world->y[u] - r;
}

/* Friction at the contacts that closest_velocity just pressed ball u
 * against (its velocity went from (vx0, vy0) to (*vx, *vy)): each such
 * contact took a normal impulse, m times its share of that change, and
 * friction of up to that much times the coefficient then acts on the
 * contact points' sliding, as at any contact (collide.h). Supporters are
 * immovable here, as in the rest of the pass, and still: dragging u along
 * with a moving supporter that cannot pay for it would make energy, as a
 * rising one would along the normal (see settle). The shares are exact for
 * one or two contacts pressed (all that a 2D projection presses at once);
 * more, in a degenerate set, each take the change's part along their
 * normal. Returns whether anything changed, so that the caller projects
 * again: friction along one contact may lean into another. */
static bool friction_at_supports(const settle_context *ctx, uint32_t u, const constraint_set *cs,
                                 const uint32_t *held_by, double vx0, double vy0, double *vx,
                                 double *vy)
{
    bp_world *world = ctx->world;
    const bp_contact_law law = {world->params.friction, world->params.rolling};
    double inv_mass = world->inv_mass[u];
    if ((law.friction <= 0.0 && law.rolling <= 0.0) || !(inv_mass > 0.0))
        return false;
    double dvx = *vx - vx0, dvy = *vy - vy0;
    if (dvx == 0.0 && dvy == 0.0)
        return false;
    int pressed[BP_SUPPORT_MAX_CONSTRAINTS], count = 0;
    double scale = BP_SPEED_ROUNDING * (fabs(*vx) + fabs(*vy) + fabs(dvx) + fabs(dvy));
    for (int i = 0; i < cs->count; i++)
        if (cs->c[i] > -INFINITY && *vx * cs->nx[i] + *vy * cs->ny[i] <= cs->c[i] + scale)
            pressed[count++] = i;
    double share[BP_SUPPORT_MAX_CONSTRAINTS];
    if (count == 2) {
        int i = pressed[0], j = pressed[1];
        double det = cs->nx[i] * cs->ny[j] - cs->ny[i] * cs->nx[j];
        if (fabs(det) < 1e-9)
            count = 1;
        else {
            share[0] = (dvx * cs->ny[j] - dvy * cs->nx[j]) / det;
            share[1] = (cs->nx[i] * dvy - cs->ny[i] * dvx) / det;
        }
    }
    if (count != 2)
        for (int k = 0; k < count; k++)
            share[k] = dvx * cs->nx[pressed[k]] + dvy * cs->ny[pressed[k]];
    double w = world->w[u], r = world->r[u];
    bp_contact_side ball = {vx, vy, &w, inv_mass, world->inv_inertia[u], 0.0};
    for (int k = 0; k < count; k++) {
        int i = pressed[k];
        if (!(share[k] > 0.0))
            continue;
        uint32_t l = held_by[i];
        double still[3];
        bp_contact_side support = bp_contact_static_side(still);
        if (l < BP_HELD_BY_RIGHT) {
            /* The contact point divides the centres' line by the radii. */
            double dx = world->x[u] - world->x[l], dy = world->y[u] - world->y[l];
            double d = sqrt(dx * dx + dy * dy);
            ball.lever = d - bp_contact_lever(world->r[l], r, d);
        } else
            ball.lever = r;
        bp_collide_friction(&law, cs->nx[i], cs->ny[i], share[k] / inv_mass, &support, &ball);
    }
    world->w[u] = w;
    return true;
}

/* Settles ball u on the balls visited before it (and the floor or a side
 * within margin of it): out of every overlap with them, and without the
 * velocity that would sink it into one of them, the floor or the side
 * within the next step (resting contacts only: impacts are the
 * relaxation passes' to bounce). Side neighbours count as well as
 * supporters: a deep pile of frictionless balls presses sideways
 * like a liquid, and the relaxation passes alone let its lower layers
 * squeeze into each other (measured: 10,000 balls, deepest overlap 0.045 r
 * with supporters only, 0.014 r with side neighbours too). Gaps count as they
 * were before the pushes (a speculative contact: a ball just above its
 * supporter may land on it; a gap that a push out of one neighbour opens
 * towards another is no room to fall into).
 *
 * A supporter's own motion along n counts only when it falls away: treating
 * a supporter that rises into u as immovable would throw u with energy
 * nobody paid for (lifting is the relaxation passes' job, with true masses).
 * So the correction only ever removes velocity. */
static void settle(const settle_context *ctx, uint32_t u, const uint32_t *near, uint32_t count)
{
    bp_world *world = ctx->world;
    double up_y = ctx->up_y;

    constraint_set cs;
    cs.count = 0;
    uint32_t held_by[BP_SUPPORT_MAX_CONSTRAINTS];
    double gap_before[BP_SUPPORT_MAX_CONSTRAINTS];
    /* The floor, and a side the ball leans on: without the side, a ball
     * wedged between it and a ball below slid down it and was pushed back
     * out, step after step, and never came to rest. */
    const struct {
        uint32_t plane;
        double nx, ny;
    } planes[3] = {{BP_HELD_BY_FLOOR, 0.0, up_y},
                   {BP_HELD_BY_LEFT, 1.0, 0.0},
                   {BP_HELD_BY_RIGHT, -1.0, 0.0}};
    for (int p = 0; p < 3; p++) {
        double gap = plane_gap(world, u, planes[p].plane, up_y);
        if (gap >= ctx->margin)
            continue;
        cs.nx[cs.count] = planes[p].nx;
        cs.ny[cs.count] = planes[p].ny;
        held_by[cs.count] = planes[p].plane;
        gap_before[cs.count] = gap;
        cs.count++;
    }
    /* u stays in locals until it is settled (see push_out). */
    double x = world->x[u], y = world->y[u], r = world->r[u];
    uint32_t *settled = ctx->settled, settled_count = 0;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t l = near[k] & ~BP_SUPPORTER_BIT;
        if (!ctx->supported[l])
            continue;
        settled[settled_count++] = l;
        if (cs.count < BP_SUPPORT_MAX_CONSTRAINTS) {
            double dx = x - world->x[l], dy = y - world->y[l];
            held_by[cs.count] = l;
            gap_before[cs.count] = sqrt(dx * dx + dy * dy) - (world->r[l] + r);
            cs.count++;
        }
    }
    for (int sweep = 0; sweep < BP_SUPPORT_SWEEPS; sweep++) {
        /* Alternate the order so that no side is favoured. */
        bool pushed = false;
        for (uint32_t k = 0; k < settled_count; k++)
            pushed |= push_out(world, settled[sweep % 2 ? settled_count - 1 - k : k], r, &x, &y);
        keep_in_arena(world, r, &x, &y);
        if (!pushed)
            break;
    }
    world->x[u] = x;
    world->y[u] = y;

    double vx = world->vx[u], vy = world->vy[u];
    for (int i = 0; i < cs.count; i++) {
        uint32_t l = held_by[i];
        if (l >= BP_HELD_BY_RIGHT) {
            double now = plane_gap(world, u, l, up_y);
            double gap = bp_max(bp_min(now, gap_before[i]), 0.0);
            /* An impact to come gets no bound: it will bounce. */
            double closing = -(vx * cs.nx[i] + vy * cs.ny[i]);
            bool impact = gap > 0.0 && closing >= ctx->rest_speed;
            set_bound(&cs, i, impact ? -INFINITY : -gap / ctx->dt, ctx->rest_speed);
            continue;
        }
        double dx = x - world->x[l], dy = y - world->y[l];
        double d = sqrt(dx * dx + dy * dy);
        bool apart = d > BP_COINCIDENT_OVER_R * (world->r[l] + r);
        double nx = apart ? dx / d : 0.0, ny = apart ? dy / d : up_y;
        double gap = bp_max(bp_min(d - (world->r[l] + r), gap_before[i]), 0.0);
        cs.nx[i] = nx;
        cs.ny[i] = ny;
        double carried = bp_min(world->vx[l] * nx + world->vy[l] * ny, 0.0);
        /* Only resting contacts: a ball still a gap away and closing in
         * faster than the rest speed is an impact to come, and the
         * relaxation passes will give it its bounce. */
        bool impact = gap > 0.0 && carried - (vx * nx + vy * ny) >= ctx->rest_speed;
        set_bound(&cs, i, impact ? -INFINITY : carried - gap / ctx->dt, ctx->rest_speed);
    }
    double vx0 = vx, vy0 = vy;
    closest_velocity(&cs, &vx, &vy);
    if (friction_at_supports(ctx, u, &cs, held_by, vx0, vy0, &vx, &vy))
        closest_velocity(&cs, &vx, &vy);
    world->vx[u] = vx;
    world->vy[u] = vy;
}

/* Visits ball u, in order: a sleeper that lost what held it up wakes; a
 * ball on the floor, on a wall that carries it or on a supported ball
 * settles and is supported. true if it settled. */
static bool visit(bp_support *s, const bp_broadphase *bp, const settle_context *ctx, uint32_t u)
{
    bp_world *world = ctx->world;
    uint8_t *supported = s->supported;
    uint32_t lo = s->first[s->slot[u]], hi = s->first[s->slot[u] + 1];
    if (world->flags[u] & BP_BALL_ASLEEP) {
        /* A sleeper does not move, but it must not hang in the air once
         * what held it up goes: it wakes when neither a ball awake nor a
         * sleeper holds it up any more (lost_support). */
        if (!(world->flags[u] & BP_BALL_GROUNDED) &&
            lost_support(world, bp, supported, u, s->near + lo, hi - lo, ctx->up_y, ctx->margin,
                         &s->anchor[world->id[u]])) {
            bp_world_wake(world, u);
            supported[u] = 0;
        }
        return false;
    }
    if (supported[u])
        return false;
    bool on_floor = plane_gap(world, u, BP_HELD_BY_FLOOR, ctx->up_y) < ctx->margin;
    bool on_ball = false;
    for (uint32_t j = lo; j < hi && !on_ball; j++)
        on_ball = (s->near[j] & BP_SUPPORTER_BIT) && supported[s->near[j] & ~BP_SUPPORTER_BIT];
    /* A ball on a sloped wall that carries it (a floor contact, see
     * arena.h) is supported too; the wall's own contact stays the wall
     * code's, only the arena's floor and sides get constraints here. */
    bool on_wall = (world->flags[u] & BP_BALL_GROUNDED) != 0;
    if (!on_floor && !on_ball && !on_wall)
        return false;
    settle(ctx, u, s->near + lo, hi - lo);
    supported[u] = 1;
    return true;
}

/* The visits shared among threads, with the same result as one thread.
 *
 * The arena is cut into lanes of grid columns, each lane visited by one
 * thread in the order of the whole pass. A visit writes only the ball
 * visited, and reads its touching neighbours and, for a sleeper that may
 * have lost its support, the balls filed in the cells around it (its own
 * column and the next ones) and the big balls. So a ball none of whose
 * neighbours or cells lies in another lane does the same in a lane as
 * alone; no big ball may move while lanes run (plan_lanes), so the big
 * balls read are the same for all. A ball that does (a boundary ball,
 * at place k of the order) waits until every other lane is past k: then
 * each ball before it in the order has been visited, and none after it,
 * as with one thread, since those of its neighbours that come later are
 * boundary balls too and wait for it in turn (a ball awake in a column
 * next to another lane is one, as a sleeper there may read it).
 *
 * The pass stops at the first ball out of reach of everything supported.
 * A lane that finds its ball out of reach of what it has supported waits
 * until the others are past the ball's place, and stops if the ball is
 * out of reach of the highest top of all lanes too. That top may hold
 * balls after the place, of lanes that are ahead, so it may be higher than
 * one thread's there, and a lane may go on where one thread stopped: but
 * every ball past the place where one thread stops is out of reach of
 * everything supported, so its visit changes nothing, and no lane stops
 * before that place. */
typedef struct lane_mark {
    /* The place in order of the next ball the lane visits: every ball of
     * the lane before it has been visited (SIZE_MAX: the lane is done). */
    alignas(64) atomic_size_t next;
    _Atomic double top; /* the lane's height of the highest supported ball */
} lane_mark;

typedef struct lanes_job {
    bp_support *s;
    const bp_broadphase *bp;
    settle_context ctx; /* shared but for settled, one per lane */
    uint32_t *settled[BP_SUPPORT_MAX_LANES];
    uint32_t *lane_order;                     /* places in order, lane by lane */
    size_t lane_start[BP_SUPPORT_MAX_LANES + 1];
    uint8_t *boundary;                        /* per slot */
    uint8_t *lane_of_col, *lane_of_slot;      /* while the lanes are planned */
    int lanes, pieces;
    double top, bin, inv_bin, max_rise;       /* as in bp_support_pass */
    size_t bins;
    lane_mark mark[BP_SUPPORT_MAX_LANES];
    atomic_bool stopped;                      /* a lane reached the pass's end */
} lanes_job;

/* Waits until every lane but lane is past place k of the order. */
static void wait_for_lanes(lanes_job *job, int lane, size_t k)
{
    for (int t = 0; t < job->lanes; t++)
        for (unsigned spin = 0;
             t != lane && atomic_load_explicit(&job->mark[t].next, memory_order_acquire) < k;
             spin++)
            bp_workers_idle_round(spin);
}

static double highest_top(lanes_job *job)
{
    double top = job->top;
    for (int t = 0; t < job->lanes; t++)
        top = bp_max(top, atomic_load_explicit(&job->mark[t].top, memory_order_acquire));
    return top;
}

/* Piece lane: the lane's balls, in order. */
static void visit_lane(void *context, int lane)
{
    lanes_job *job = context;
    bp_support *s = job->s;
    const bp_world *world = job->ctx.world;
    settle_context ctx = job->ctx;
    ctx.settled = job->settled[lane];
    lane_mark *mark = &job->mark[lane];
    double top = job->top;
    for (size_t e = job->lane_start[lane]; e < job->lane_start[lane + 1]; e++) {
        size_t k = job->lane_order[e];
        uint32_t u = s->order[k];
        size_t bin = bin_of(world, u, ctx.up_y, job->inv_bin, job->bins);
        double floor_of_bin = (double)bin * job->bin;
        bool waited = false;
        if (floor_of_bin > top + job->max_rise) {
            wait_for_lanes(job, lane, k);
            waited = true;
            if (floor_of_bin > highest_top(job) + job->max_rise) {
                atomic_store(&job->stopped, true);
                break;
            }
        }
        if (job->boundary[s->slot[u]] && !waited)
            wait_for_lanes(job, lane, k);
        if (visit(s, job->bp, &ctx, u)) {
            top = bp_max(top, height_of(world, u, ctx.up_y));
            atomic_store_explicit(&mark->top, top, memory_order_relaxed);
        }
        size_t next = e + 1 < job->lane_start[lane + 1] ? job->lane_order[e + 1] : SIZE_MAX;
        atomic_store_explicit(&mark->next, next, memory_order_release);
    }
    atomic_store_explicit(&mark->next, SIZE_MAX, memory_order_release);
}

/* Piece k of the visited balls' slots: each one's lane, and whether it is a
 * boundary ball by its cells: a column next to another lane's, where a
 * sleeper's search reads the other lane's balls, and a sleeper of the
 * other lane may read this one. */
static void lane_by_cells(void *context, int k)
{
    lanes_job *job = context;
    const bp_support *s = job->s;
    size_t cols = (size_t)job->bp->shape.cols;
    size_t from = bp_piece_start(s->visits, k, job->pieces);
    size_t to = bp_piece_start(s->visits, k + 1, job->pieces);
    for (size_t slot = from; slot < to; slot++) {
        size_t c = job->bp->ball_cell[s->visited[slot]] % cols;
        const uint8_t *lane = job->lane_of_col;
        job->lane_of_slot[slot] = lane[c];
        job->boundary[slot] = (c > 0 && lane[c - 1] != lane[c]) ||
                              (c + 1 < cols && lane[c + 1] != lane[c]);
    }
}

/* Piece k of the slots: a ball with a neighbour in another lane is a
 * boundary ball too. */
static void lane_by_neighbours(void *context, int k)
{
    lanes_job *job = context;
    const bp_support *s = job->s;
    size_t from = bp_piece_start(s->visits, k, job->pieces);
    size_t to = bp_piece_start(s->visits, k + 1, job->pieces);
    for (size_t slot = from; slot < to; slot++)
        for (uint32_t j = s->first[slot]; j < s->first[slot + 1] && !job->boundary[slot]; j++)
            job->boundary[slot] = job->lane_of_slot[s->slot[s->near[j] & ~BP_SUPPORTER_BIT]] !=
                                  job->lane_of_slot[slot];
}

/* Cuts the grid's columns into lanes with as much work each, among the
 * first `end` places of the order, and notes each visited ball's lane and
 * boundary flag. false (visit with one thread) when there are too few,
 * when a big ball that is not held is visited (every sleeper's search
 * reads the big balls, so one that may move or wake would belong to
 * every lane), or out of memory. */
static bool plan_lanes(lanes_job *job, const bp_world *world, size_t end, bp_workers *workers)
{
    bp_support *s = job->s;
    const bp_broadphase *bp = job->bp;
    for (size_t k = 0; k < bp->big_count; k++) {
        uint32_t b = bp->big[k];
        if (s->in_visit[b] && !(world->flags[b] & BP_BALL_HELD))
            return false;
    }
    size_t cols = (size_t)bp->shape.cols, awake = 0;
    uint32_t *per_col = bp_scratch_alloc(s->scratch, cols, sizeof(uint32_t));
    uint8_t *lane_of_col = job->lane_of_col = bp_scratch_alloc(s->scratch, cols, 1);
    uint8_t *lane_of_slot = job->lane_of_slot = bp_scratch_alloc(s->scratch, s->visits, 1);
    job->boundary = bp_scratch_alloc(s->scratch, s->visits, 1);
    job->lane_order = bp_scratch_alloc(s->scratch, end + 1, sizeof(uint32_t));
    if (!per_col || !lane_of_col || !lane_of_slot || !job->boundary || !job->lane_order)
        return false;
    /* Each column's share of the work: a ball awake settles (counts two),
     * a sleeper next to one looks for what holds it up (one). */
    memset(per_col, 0, cols * sizeof(uint32_t));
    for (size_t k = 0; k < end; k++) {
        uint32_t u = s->order[k];
        bool asleep = world->flags[u] & BP_BALL_ASLEEP;
        per_col[bp->ball_cell[u] % cols] += asleep ? 1 : 2;
        awake += !asleep;
    }
    if (awake < BP_SUPPORT_LANES_MIN_AWAKE || cols < 2 * (size_t)job->lanes)
        return false;
    size_t work = 0, seen = 0;
    for (size_t c = 0; c < cols; c++)
        work += per_col[c];
    int lane = 0;
    for (size_t c = 0; c < cols; c++) {
        while (lane + 1 < job->lanes && seen * (size_t)job->lanes >= work * (size_t)(lane + 1))
            lane++;
        lane_of_col[c] = (uint8_t)lane;
        seen += per_col[c];
    }
    job->pieces = bp_workers_pieces(bp_workers_count(workers), BP_WORKERS_MAX_PIECES);
    bp_workers_run(workers, lane_by_cells, job, job->pieces);
    bp_workers_run(workers, lane_by_neighbours, job, job->pieces);
    size_t count[BP_SUPPORT_MAX_LANES] = {0};
    for (size_t k = 0; k < end; k++)
        count[lane_of_slot[s->slot[s->order[k]]]]++;
    job->lane_start[0] = 0;
    for (int t = 0; t < job->lanes; t++)
        job->lane_start[t + 1] = job->lane_start[t] + count[t];
    size_t fill[BP_SUPPORT_MAX_LANES];
    memcpy(fill, job->lane_start, sizeof fill);
    for (size_t k = 0; k < end; k++)
        job->lane_order[fill[lane_of_slot[s->slot[s->order[k]]]]++] = (uint32_t)k;
    for (int t = 0; t < job->lanes; t++) {
        job->settled[t] = bp_scratch_alloc(s->scratch, s->settled_room, sizeof(uint32_t));
        if (!job->settled[t])
            return false;
        size_t first = job->lane_start[t] < job->lane_start[t + 1]
                           ? job->lane_order[job->lane_start[t]]
                           : SIZE_MAX;
        atomic_init(&job->mark[t].next, first);
        atomic_init(&job->mark[t].top, job->top);
    }
    atomic_init(&job->stopped, false);
    return true;
}

bool bp_support_pass(bp_support *s, bp_world *world, const bp_broadphase *bp, double r_min,
                     bp_workers *workers)
{
    size_t n = world->count;
    s->visits = 0; /* no neighbour lists until they are made below */
    s->lanes = 1;
    if (n == 0 || world->params.gravity == 0.0)
        return true;
    double up_y = world->params.gravity > 0.0 ? -1.0 : 1.0;
    double margin = BP_SUPPORT_MARGIN_OVER_R * r_min;
    /* A support contact rises at least 2 r_min BP_SUPPORT_MIN_UP; bins
     * smaller than that put every supporter in an earlier bin. */
    double bin = 0.9 * 2.0 * r_min * BP_SUPPORT_MIN_UP;
    double max_bins = 4.0 * (double)n + 4096.0;
    if (world->params.height / bin > max_bins)
        bin = world->params.height / max_bins;
    size_t bins = (size_t)ceil(world->params.height / bin) + 1;
    if (!s->scratch)
        s->scratch = s->own_scratch = bp_scratch_create();
    if (!s->scratch)
        return false;
    /* The last pass's arrays in an arena of its own are done with. */
    if (s->own_scratch)
        bp_scratch_reset(s->own_scratch);
    if (!reserve_all(s, n, bins, bp->pair_count, bp->strips + 1))
        return false;
    size_t had = s->anchor_capacity;
    if (!bp_reserve((void **)&s->anchor, &s->anchor_capacity, world->next_id + 1,
                    sizeof(uint32_t)))
        return false;
    for (size_t k = had; k < s->anchor_capacity; k++)
        s->anchor[k] = UINT32_MAX;

    /* How far above its supporter a supported ball can stand (and a bin
     * more, against rounding). */
    double max_rise = 2.0 * world->r_max + margin + bin, inv_bin = 1.0 / bin;
    /* The loop below stops at the first ball out of reach of everything
     * supported; in a falling crowd that is most of the balls, and finding
     * who touches whom among them was most of the pass's work. So pairs of
     * two balls well above where the last pass stopped wait: if the loop
     * gets that high after all, it finds them then, with the same result. */
    double deferred_above =
        s->defer == BP_SUPPORT_DEFER_NONE  ? INFINITY
        : s->defer == BP_SUPPORT_DEFER_ALL ? -INFINITY
                                           : s->last_top + max_rise +
                                               BP_SUPPORT_DEFER_DIAMETERS * 2.0 * world->r_max;
    neighbour_job job = {.s = s,
                         .world = world,
                         .bp = bp,
                         .up_y = up_y,
                         .margin = margin,
                         .deferred_above = deferred_above};
    by_parity(workers, find_touching, &job);
    size_t visits = list_visits(s, world);
    sort_by_height(s, world, visits, up_y, bin, bins, deferred_above);
    s->visits = visits;
    if (!list_neighbours(s, workers, &job, visits, s->edges))
        return end_visits(s, visits, false);
    uint8_t *supported = s->supported;
    /* The height of the highest ball that is or may be supported: so far,
     * a ball on the floor, or one supported from the start (held or asleep)
     * or on a wall. */
    double top = world->r_max + margin;
    for (size_t k = 0; k < visits; k++) {
        uint32_t i = s->visited[k];
        supported[i] = (world->flags[i] & (BP_BALL_HELD | BP_BALL_ASLEEP)) != 0;
        if (world->flags[i] & (BP_BALL_HELD | BP_BALL_ASLEEP | BP_BALL_GROUNDED))
            top = bp_max(top, height_of(world, i, up_y));
    }

    settle_context ctx = {world, s->settled, bp_params_rest_speed(&world->params), supported,
                          up_y, 1.0 / world->params.hz, margin};
    /* The balls up to the first whose pairs waited go to the lanes, if
     * there are threads and enough balls; the rest, or all, come below. */
    size_t from = 0;
    int lanes = bp_workers_cores(workers);
    if (lanes > 1) {
        size_t end = 0;
        while (end < visits && s->whole[s->slot[s->order[end]]])
            end++;
        lanes_job lanes_job = {.s = s,
                               .bp = bp,
                               .ctx = ctx,
                               .lanes = lanes < BP_SUPPORT_MAX_LANES ? lanes : BP_SUPPORT_MAX_LANES,
                               .top = top,
                               .bin = bin,
                               .inv_bin = inv_bin,
                               .max_rise = max_rise,
                               .bins = bins};
        if (plan_lanes(&lanes_job, world, end, workers)) {
            bp_workers_run(workers, visit_lane, &lanes_job, lanes_job.lanes);
            top = highest_top(&lanes_job);
            from = atomic_load(&lanes_job.stopped) ? visits : end;
            s->lanes = lanes_job.lanes;
        }
    }
    for (size_t k = from; k < visits; k++) {
        uint32_t u = s->order[k];
        /* Its bin, and every ball's after it, lies out of reach of
         * everything supported: nothing more will be. In a falling crowd
         * that is most of the visits. (top holds every sleeper, held and
         * wall-borne ball; settling lowers a ball only when a higher
         * settled one pushes it, and that one's height is in top.) */
        if ((double)bin_of(world, u, up_y, inv_bin, bins) * bin > top + max_rise)
            break;
        /* A ball this high may be in a pair that waited: list those now.
         * No ball visited so far is in one (their lists are whole), and
         * neither ball of one has moved. */
        if (!s->whole[s->slot[u]]) {
            job.deferred_above = INFINITY;
            memset(s->whole, 1, visits);
            by_parity(workers, find_deferred, &job);
            if (!list_neighbours(s, workers, &job, visits, s->spare_edges))
                return end_visits(s, visits, false);
            ctx.settled = s->settled;
        }
        if (visit(s, bp, &ctx, u))
            top = bp_max(top, height_of(world, u, up_y));
    }
    s->last_top = top;
    return end_visits(s, visits, true);
}

const uint32_t *bp_support_touching(const bp_support *s, uint32_t i, uint32_t *count)
{
    uint32_t k = i < s->ball_capacity ? s->slot[i] : UINT32_MAX;
    if (k >= s->visits || s->visited[k] != i || !s->whole[k]) {
        *count = 0;
        return NULL;
    }
    *count = s->first[k + 1] - s->first[k];
    return s->near + s->first[k];
}
