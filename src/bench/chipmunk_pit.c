/* The benchmark pit in Chipmunk 7, for the comparison program.
 *
 * Chipmunk multiplies the elasticities and frictions of the two shapes in a
 * contact, so each shape gets the square root of the pit's value. Chipmunk
 * runs with its spatial hash (cell = one diameter), its default 10
 * iterations, no sleeping and one thread. */
#include <chipmunk/chipmunk.h>
#include <math.h>
#include <stdlib.h>

#include "bench.h"
#include "engines.h"
#include "spawn.h"

static cpShape *add_side(cpSpace *space, cpVect a, cpVect b, double e, double mu)
{
    /* Thick segments outside the arena, so the inner face is the side. */
    const double thickness = 50.0;
    cpVect out = cpvmult(cpvnormalize(cpvperp(cpvsub(b, a))), -thickness);
    cpShape *side =
        cpSegmentShapeNew(cpSpaceGetStaticBody(space), cpvadd(a, out), cpvadd(b, out), thickness);
    cpShapeSetElasticity(side, e);
    cpShapeSetFriction(side, mu);
    return cpSpaceAddShape(space, side);
}

/* The four sides, into sides[0..3]. */
static void add_sides(cpSpace *space, double w, double h, double e, double mu, cpShape **sides)
{
    sides[0] = add_side(space, cpv(0, 0), cpv(w, 0), e, mu);
    sides[1] = add_side(space, cpv(w, 0), cpv(w, h), e, mu);
    sides[2] = add_side(space, cpv(w, h), cpv(0, h), e, mu);
    sides[3] = add_side(space, cpv(0, h), cpv(0, 0), e, mu);
}

/* Chipmunk frees neither a space's bodies nor its shapes with it. */
static void free_space(cpSpace *space, cpBody **bodies, cpShape **shapes, size_t n)
{
    cpSpaceFree(space);
    for (size_t i = 0; i < n + 4; i++)
        cpShapeFree(shapes[i]);
    for (size_t i = 0; i < n; i++)
        cpBodyFree(bodies[i]);
    free(bodies);
    free(shapes);
}

const char *bp_chipmunk_version(void)
{
    return cpVersionString;
}

double bp_chipmunk_run(bp_world *world, bool crowd, int threads)
{
    (void)crowd;   /* the crowd is in the world's parameters */
    (void)threads; /* Chipmunk's space steps on one thread */
    const bp_params *params = &world->params;
    size_t n = world->count;
    cpBody **bodies = malloc(sizeof(cpBody *) * n);
    cpShape **shapes = malloc(sizeof(cpShape *) * (n + 4)); /* the balls', then the sides */
    if (!bodies || !shapes) {
        free(bodies);
        free(shapes);
        return -1.0;
    }
    double e = sqrt(params->restitution), mu = sqrt(params->friction), r = BP_PIT_RADIUS;
    cpSpace *space = cpSpaceNew();
    cpSpaceSetGravity(space, cpv(0.0, params->gravity));
    cpSpaceUseSpatialHash(space, 2.0 * r, (int)(2 * n));
    add_sides(space, params->width, params->height, e, mu, shapes + n);
    for (size_t i = 0; i < n; i++) {
        double m = world->mass[i];
        cpBody *body = cpSpaceAddBody(space, cpBodyNew(m, cpMomentForCircle(m, 0.0, r, cpvzero)));
        cpBodySetPosition(body, cpv(world->x[i], world->y[i]));
        cpBodySetVelocity(body, cpv(world->vx[i], world->vy[i]));
        cpShape *shape = cpSpaceAddShape(space, cpCircleShapeNew(body, r, cpvzero));
        cpShapeSetElasticity(shape, e);
        cpShapeSetFriction(shape, mu);
        bodies[i] = body;
        shapes[i] = shape;
    }

    double start = bp_bench_clock_s();
    for (int s = 0; s < BP_BENCH_STEPS; s++)
        cpSpaceStep(space, 1.0 / params->hz);
    double wall = bp_bench_clock_s() - start;

    for (size_t i = 0; i < n; i++) {
        cpVect p = cpBodyGetPosition(bodies[i]);
        world->x[i] = p.x;
        world->y[i] = p.y;
    }
    free_space(space, bodies, shapes, n);
    return wall;
}
