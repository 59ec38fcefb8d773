/* Contacts between balls and the static geometry (the scene's walls and the
 * arena's four sides, see walls.h): the swept move of one ball through a
 * step, and the clean-up after the ball-ball solver has pushed it. */
#ifndef BP_ARENA_H
#define BP_ARENA_H

#include <stdbool.h>

#include "minmax.h"
#include "bodies.h"
#include "tolerances.h"

/* How a contact is classed by its normal against "up" (opposite gravity). */
typedef enum bp_contact_class {
    BP_CONTACT_FLOOR,   /* within the slope limit of up: it carries the ball */
    BP_CONTACT_WALL,
    BP_CONTACT_CEILING, /* within the slope limit of down */
} bp_contact_class;

/* Classes a contact with unit normal (nx,ny), pointing from the surface to
 * the ball, under gravity g (px/s^2, + is down; 0 counts as down). */
bp_contact_class bp_contact_classify(double nx, double ny, double gravity);

/* Most wall impacts one ball takes in one step before it stops at the last. */
#define BP_MAX_IMPACTS 8

/* Moves ball i along its velocity for time t (s), sweeping it against every
 * wall and side: at each impact it stops at the contact, reflects its normal
 * velocity (restitution, 0 below rest_speed px/s), loses tangential speed to
 * friction, and goes on for the rest of the time. The velocity holds the
 * whole gravity of a step of step_dt s, which ends then s after the move:
 * what bounces is the velocity at the moment of impact on the parabola the
 * step's positions lie on (see arena.c). After max_impacts impacts the ball
 * stays at its last contact. Returns the time left over (s): 0 unless the
 * budget ran out, or stop_at_first is set and an impact after some travel
 * ended the move there. bp_statics_prepare must have run this step. */
double bp_arena_move(bp_world *world, size_t i, double t, double then, double step_dt,
                     int max_impacts, bool stop_at_first, double rest_speed);

/* How far from a surface a ball of radius r still touches it (its radius
 * and its touch margin; a wall's own radius comes on top). */
static inline double bp_arena_touch_reach(double r)
{
    return r + BP_TOUCH_OVER_R * r;
}

/* Whether a ball of radius r moving from (x,y) by (dx,dy) meets nothing on
 * the way: no walls, and the sides out of reach. */
static inline bool bp_arena_path_open(const bp_world *world, double x, double y, double dx,
                                      double dy, double r)
{
    double reach = bp_arena_touch_reach(r);
    return world->wall_count == 0 && bp_min(x, x + dx) - reach > 0.0 &&
           bp_min(y, y + dy) - reach > 0.0 && bp_max(x, x + dx) + reach < world->params.width &&
           bp_max(y, y + dy) + reach < world->params.height;
}

/* bp_arena_move's common case, inline for the step's loop over every ball:
 * a ball in open space moves straight on. false (and nothing moved) when
 * it may meet a wall or side; then bp_arena_move it. */
static inline bool bp_arena_move_open(bp_world *world, size_t i, double t)
{
    double dx = world->vx[i] * t, dy = world->vy[i] * t;
    if (!bp_arena_path_open(world, world->x[i], world->y[i], dx, dy, world->r[i]))
        return false;
    world->x[i] += dx;
    world->y[i] += dy;
    return true;
}

/* Puts ball i back in contact with, never through, the walls and sides after
 * something other than its own velocity (the ball-ball solver) moved it:
 * that displacement is swept too, overlaps are pushed out, velocities into a
 * surface bounce off it, and a floor contact flags the ball grounded. */
void bp_arena_contain(bp_world *world, size_t i, double rest_speed);

/* Whether ball i's centre lies nearer a side than `in` px (an arena
 * narrower than twice that: off its centre line, where bp_arena_contain
 * puts a ball wider than the arena). */
static inline bool bp_arena_nearer_than(const bp_world *world, size_t i, double in)
{
    double w = world->params.width, h = world->params.height;
    double x = world->x[i], y = world->y[i];
    double lo_x = in < 0.5 * w ? in : 0.5 * w, lo_y = in < 0.5 * h ? in : 0.5 * h;
    return x < lo_x || x > w - lo_x || y < lo_y || y > h - lo_y;
}

/* Whether ball i's centre lies where no ball of its radius fits: beyond a
 * radius from a side. */
static inline bool bp_arena_outside(const bp_world *world, size_t i)
{
    return bp_arena_nearer_than(world, i, world->r[i]);
}

#endif
