/* The public API (include/ballpit/ballpit.h) over the world's own
 * functions: checks every value that comes in, so that a world made and
 * fed through here holds the same invariants as one the program builds
 * (limits.h), and turns ids into indices. */
#include "ballpit/ballpit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "energy.h"
#include "grow.h"
#include "kept.h"
#include "limits.h"
#include "query.h"
#include "raycast.h"
#include "passes.h"
#include "solver/solver.h"
#include "world.h"
#include "workers.h"

static bp_params params_of(const bp_world_def *def)
{
    return (bp_params){
        .width = def->width,
        .height = def->height,
        .gravity = def->gravity,
        .restitution = def->restitution,
        .friction = def->friction,
        .rolling = def->rolling,
        .drag = def->drag,
        .hz = def->hz,
        .solver = def->solver,
    };
}

/* The def of a world with these parameters and threads. */
static bp_world_def def_of(const bp_params *p, int threads)
{
    return (bp_world_def){
        .width = p->width,
        .height = p->height,
        .gravity = p->gravity,
        .restitution = p->restitution,
        .friction = p->friction,
        .rolling = p->rolling,
        .drag = p->drag,
        .hz = p->hz,
        .threads = threads,
        .solver = (bp_solver_kind)p->solver,
    };
}

bp_world_def bp_default_world_def(void)
{
    bp_params p = bp_params_default();
    return def_of(&p, 1);
}

bp_ball_def bp_default_ball_def(void)
{
    return (bp_ball_def){.radius = 10.0};
}

const char *bp_world_def_check(const bp_world_def *def)
{
    if (!def)
        return "no def";
    if (def->threads < 1 || def->threads > BP_WORKERS_MAX_PIECES)
        return "threads must be between 1 and 64";
    bp_params p = params_of(def);
    return bp_params_check(&p);
}

bp_world *bp_world_create(const bp_world_def *def)
{
    if (bp_world_def_check(def))
        return NULL;
    bp_params p = params_of(def);
    bp_world *world = bp_world_new(&p);
    if (world)
        world->threads = def->threads;
    return world;
}

bp_world_def bp_world_get_def(const bp_world *world)
{
    return def_of(&world->params, world->threads);
}

const char *bp_world_set_def(bp_world *world, const bp_world_def *def)
{
    const char *why = bp_world_def_check(def);
    if (why)
        return why;
    if (def->width != world->params.width || def->height != world->params.height)
        return "a running world keeps its width and height";
    world->params = params_of(def);
    world->threads = def->threads;
    bp_world_wake_all(world);
    return NULL;
}

const char *bp_ball_def_check(const bp_world *world, const bp_ball_def *def)
{
    const char *why;
    if (!def)
        return "no def";
    if ((why = bp_check_radius(def->radius)) || (why = bp_check_velocity(def->vx, def->vy)) ||
        (why = bp_check_spin(def->w)) || (why = bp_check_angle(def->angle)) ||
        (why = bp_check_ball_in_arena(&world->params, def->x, def->y, def->radius)))
        return why;
    if (def->mass != 0.0 && (why = bp_check_mass(def->mass)))
        return why;
    return NULL;
}

/* Index of the ball named id, or -1. */
static int64_t index_of(const bp_world *world, bp_ball_id id)
{
    return bp_ball_id_is_null(id) ? -1 : bp_world_index_of(world, id.value);
}

bp_ball_id bp_world_add_ball(bp_world *world, const bp_ball_def *def)
{
    if (bp_ball_def_check(world, def))
        return BP_NULL_BALL_ID;
    int64_t id = bp_world_insert_ball(world, def->x, def->y, def->vx, def->vy, def->radius,
                                      def->mass);
    if (id < 0)
        return BP_NULL_BALL_ID;
    size_t i = world->count - 1;
    world->angle[i] = def->angle;
    world->w[i] = def->w;
    return (bp_ball_id){(uint32_t)id};
}

bool bp_world_remove_ball(bp_world *world, bp_ball_id id)
{
    return !bp_ball_id_is_null(id) && bp_world_delete_ball(world, id.value);
}

bool bp_world_has_ball(const bp_world *world, bp_ball_id id)
{
    return index_of(world, id) >= 0;
}

bp_ball_state bp_world_get_ball(const bp_world *world, bp_ball_id id)
{
    int64_t i = index_of(world, id);
    if (i < 0)
        return (bp_ball_state){0};
    return (bp_ball_state){
        .x = world->x[i],
        .y = world->y[i],
        .vx = world->vx[i],
        .vy = world->vy[i],
        .radius = world->r[i],
        .angle = world->angle[i],
        .w = world->w[i],
        .mass = world->mass[i],
        .flags = world->flags[i],
    };
}

bool bp_world_set_ball_velocity(bp_world *world, bp_ball_id id, double vx, double vy, double w)
{
    int64_t i = index_of(world, id);
    if (i < 0 || bp_check_velocity(vx, vy) || bp_check_spin(w))
        return false;
    bp_world_wake(world, (size_t)i);
    world->vx[i] = vx;
    world->vy[i] = vy;
    world->w[i] = w;
    return true;
}

bool bp_world_set_ball_held(bp_world *world, bp_ball_id id, bool held)
{
    if (index_of(world, id) < 0)
        return false;
    bp_world_set_held(world, id.value, held);
    return true;
}

bp_ball_id bp_world_ball_at(const bp_world *world, double x, double y)
{
    int64_t id = bp_query_point(world, x, y);
    return id < 0 ? BP_NULL_BALL_ID : (bp_ball_id){(uint32_t)id};
}

bp_ball_view bp_world_view_balls(const bp_world *world)
{
    return (bp_ball_view){
        .count = world->count,
        .x = world->x,
        .y = world->y,
        .vx = world->vx,
        .vy = world->vy,
        .radius = world->r,
        .angle = world->angle,
        .w = world->w,
        .mass = world->mass,
        .id = world->id,
        .flags = world->flags,
    };
}

bool bp_world_add_wall(bp_world *world, double x1, double y1, double x2, double y2,
                       double radius)
{
    bp_wall wall = {x1, y1, x2, y2, radius};
    if (bp_check_wall_radius(radius) || bp_check_wall_in_arena(&world->params, &wall))
        return false;
    return bp_world_insert_wall(world, wall);
}

const bp_wall *bp_world_get_walls(const bp_world *world, size_t *count)
{
    *count = world->wall_count;
    return world->walls;
}

void bp_world_set_stop_flag(bp_world *world, const volatile int *flag)
{
    world->stop = flag;
}

/* Whether a ray from (ox, oy) along (dx, dy) can be cast in this world;
 * an endless one (max_dist infinite) is cut where it surely left the arena. */
static bool castable(const bp_world *world, double ox, double oy, double dx, double dy,
                     double *max_dist)
{
    double ray[4] = {ox, oy, dx, dy};
    if (bp_raycast_check(world, ray) || !(*max_dist >= 0.0))
        return false;
    double far = 4.0 * (world->params.width + world->params.height);
    *max_dist = *max_dist < far ? *max_dist : far;
    return true;
}

bool bp_world_cast_ray(const bp_world *world, double ox, double oy, double dx, double dy,
                       double max_dist, bp_ray_hit *hit)
{
    return castable(world, ox, oy, dx, dy, &max_dist) &&
           bp_raycast_first(world, ox, oy, dx, dy, max_dist, 0.0, -1, hit);
}

size_t bp_world_cast_ray_all(const bp_world *world, double ox, double oy, double dx, double dy,
                             double max_dist, bp_ray_hit *hits, size_t max_hits)
{
    if (!castable(world, ox, oy, dx, dy, &max_dist))
        return SIZE_MAX;
    return bp_raycast(world, ox, oy, dx, dy, max_dist, hits, max_hits);
}

_Static_assert((int)BP_CONTACT_WITH_BALL == BP_KEPT_BALL &&
                   (int)BP_CONTACT_WITH_SIDE == BP_KEPT_SIDE &&
                   (int)BP_CONTACT_WITH_WALL == BP_KEPT_WALL,
               "the public contact kinds are the kept ones");

/* Whether kept contact c joins what the world has now: the memory keeps a
 * removed ball's contacts until the next step. */
static bool still_there(const bp_world *world, const bp_kept_contact *c)
{
    if (bp_world_index_of(world, c->id_a) < 0)
        return false;
    if (c->kind == BP_KEPT_BALL)
        return bp_world_index_of(world, c->code_b) >= 0;
    return c->kind == BP_KEPT_SIDE || c->code_b < world->wall_count;
}

size_t bp_world_get_contact_impulses(const bp_world *world, bp_contact_impulse *out, size_t max)
{
    size_t kept = world->params.solver == BP_SOLVER_SOFT ? bp_soft_kept_count(world) : 0;
    size_t count = 0;
    for (size_t k = 0; k < kept; k++) {
        bp_kept_contact c = bp_soft_kept(world, k);
        if (!still_there(world, &c))
            continue;
        if (count < max)
            out[count] = (bp_contact_impulse){c.id_a, (bp_contact_with)c.kind, c.code_b,
                                              c.jn,   c.jt,                    c.jr};
        count++;
    }
    return count;
}

/* Why contact c cannot be in this world (most: the largest normal
 * impulse), or NULL. */
static const char *contact_check(const bp_world *world, const bp_contact_impulse *c, double most)
{
    int64_t a = bp_world_index_of(world, c->a);
    if (a < 0)
        return "a contact names a ball the world does not have";
    switch (c->kind) {
    case BP_CONTACT_WITH_BALL:
        if (bp_world_index_of(world, c->b) < 0)
            return "a contact names a ball the world does not have";
        if (!(c->a < c->b))
            return "a contact between balls must name the smaller id as a";
        break;
    case BP_CONTACT_WITH_SIDE:
        if (c->b > 3)
            return "a contact names a side past 3";
        break;
    case BP_CONTACT_WITH_WALL:
        if (c->b >= world->wall_count)
            return "a contact names a wall the world does not have";
        break;
    default:
        return "a contact's kind must be BP_CONTACT_WITH_BALL, _SIDE or _WALL";
    }
    return bp_check_kept_impulses(c->jn, c->jt, c->jr, world->r[a], most);
}

/* Kept impulses for the contacts in (checked): NULL, or why not. */
static const char *keep_all(bp_world *world, const bp_contact_impulse *in, size_t count)
{
    bp_kept_contact *kept = NULL;
    size_t capacity = 0;
    if (count > 0 && !bp_reserve((void **)&kept, &capacity, count, sizeof *kept))
        return "out of memory";
    for (size_t k = 0; k < count; k++)
        kept[k] = (bp_kept_contact){in[k].a, (uint32_t)in[k].kind, in[k].b,
                                    in[k].jn, in[k].jt, in[k].jr};
    bool ok = bp_soft_keep(world, kept, count);
    free(kept);
    return ok ? NULL : "out of memory";
}

const char *bp_world_set_contact_impulses(bp_world *world, const bp_contact_impulse *in,
                                          size_t count, size_t *refused)
{
    double mass = 0.0;
    for (size_t i = 0; i < world->count; i++)
        mass += world->mass[i];
    double most = bp_kept_impulse_most(&world->params, mass);
    size_t at_fault = 0;
    const char *why = NULL;
    while (at_fault < count && !(why = contact_check(world, &in[at_fault], most)))
        at_fault++;
    if (!why) /* else entry at_fault is refused */
        why = world->params.solver != BP_SOLVER_SOFT
                  ? "only the soft solver carries contact impulses"
                  : keep_all(world, in, count);
    if (refused)
        *refused = at_fault;
    return why;
}

bp_energy bp_world_get_energy(const bp_world *world)
{
    return bp_energy_measure(world);
}

bp_world_stats bp_world_get_stats(const bp_world *world)
{
    size_t awake = 0;
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1))
        awake++;
    return (bp_world_stats){
        .steps = world->steps,
        .balls = world->count,
        .awake = awake,
        .walls = world->wall_count,
        .max_overlap = bp_passes_max_overlap(world),
    };
}
