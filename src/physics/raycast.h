/* Ray casts against the world's balls, walls and arena sides, and the aim
 * preview built on them: the path a thrown ball would fly, cut at the first
 * thing it would hit. */
#ifndef BP_RAYCAST_H
#define BP_RAYCAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bodies.h"

/* bp_hit_kind and bp_ray_hit are the public header's. */

/* "ball", "wall" or "arena". */
const char *bp_hit_kind_name(bp_hit_kind kind);

/* Casts a ray from (ox,oy) along (dx,dy) (any nonzero finite length) for up to
 * max_dist px, or to the nearest arena side it reaches (nothing lies beyond),
 * and collects every ball, wall and side it enters, at the entry point,
 * nearest first (ties: balls, walls, sides, then by id). A ray
 * that starts inside a ball or wall reports it at distance 0 with the
 * normal against the ray. Writes at most max_hits and returns how many there
 * are in all, or SIZE_MAX when memory runs out. */
size_t bp_raycast(const bp_world *world, double ox, double oy, double dx, double dy,
                  double max_dist, bp_ray_hit *hits, size_t max_hits);

/* Why the ray {x, y, dx, dy} cannot be cast in this world (a message), or
 * NULL: the origin must lie in the arena (a ray from outside would report
 * the side it starts beyond), the direction be finite and not zero. */
const char *bp_raycast_check(const bp_world *world, const double ray[4]);

/* The nearest hit of a circle of radius rr px swept from (ox,oy) along
 * (dx,dy) for up to max_dist px (rr = 0: a plain ray), ignoring the ball
 * with id ignore_id (-1: none). false when it hits nothing. */
bool bp_raycast_first(const bp_world *world, double ox, double oy, double dx, double dy,
                      double max_dist, double rr, int64_t ignore_id, bp_ray_hit *hit);

/* The flight of a ball of radius r px thrown from (x,y) at (vx,vy) px/s,
 * stepped exactly as the physics step moves a free ball (gravity, drag, at
 * the world's hz, in the solver's substeps) for up to max_time s, cut at
 * the first ball (other than ignore_id), wall or side it would touch, found
 * by sweeping the ball along each substep's segment. One point a step. Writes the centre positions, the throw point first
 * and the point of impact last, into xs/ys (at most max_points, >= 2) and
 * returns their number; *hit and *hit_found tell what ends the flight. */
size_t bp_predict_flight(const bp_world *world, double x, double y, double vx, double vy,
                         double r, int64_t ignore_id, double max_time, double *xs, double *ys,
                         size_t max_points, bp_ray_hit *hit, bool *hit_found);

#endif
