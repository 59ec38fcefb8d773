/* The --raycast report: the hits of a ray cast into the starting world,
 * one line each. */
#ifndef BP_RAYCASTREPORT_H
#define BP_RAYCASTREPORT_H

#include <stdio.h>

#include "ballpit/ballpit.h"

/* The --raycast report: casts ray = {x, y, dx, dy} without a length limit
 * and prints one line per hit, `hit kind=K id=N dist=D x=X y=Y nx=NX
 * ny=NY`, nearest first. 0, or 1 when memory runs out or the write fails. */
int bp_raycast_report(const bp_world *world, const double ray[4], FILE *out);

#endif
