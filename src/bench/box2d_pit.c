/* The benchmark pit in Box2D v3, for the comparison program.
 *
 * Box2D is tuned for metres, so the pit is scaled down 100 times: balls of
 * 0.05 m and gravity 10 m/s^2 keep our g/r. It steps at the pit's rate with
 * its recommended 4 substeps, sleeping and continuous collision on (its
 * defaults), on its own scheduler when given more than one thread. It mixes
 * restitution as the larger and friction as the geometric mean of the two
 * shapes', so every shape gets the pit's own values. The pit keeps Box2D's
 * restitution threshold (1 m/s); the crowd bounces at every speed, as ours
 * does, or it would cool down and sleep. */
#include <box2d/box2d.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "engines.h"
#include "spawn.h"

/* Our pixels per Box2D metre. */
#define PX_PER_M 100.0
/* Box2D's substeps per step: what its documentation recommends. */
#define SUBSTEPS 4

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static b2ShapeDef material(const bp_params *params)
{
    b2ShapeDef shape = b2DefaultShapeDef();
    shape.density = 1.0f;
    shape.material.restitution = (float)params->restitution;
    shape.material.friction = (float)params->friction;
    return shape;
}

/* Four boxes 1 m thick outside the arena, so their inner faces are the sides. */
static void add_sides(b2WorldId world, const bp_params *params)
{
    const float t = 0.5f; /* half a box's thickness, m */
    float w = (float)(params->width / PX_PER_M), h = (float)(params->height / PX_PER_M);
    b2Polygon sides[4] = {
        b2MakeOffsetBox(0.5f * w + 2.0f * t, t, (b2Vec2){0.5f * w, -t}, b2Rot_identity),
        b2MakeOffsetBox(0.5f * w + 2.0f * t, t, (b2Vec2){0.5f * w, h + t}, b2Rot_identity),
        b2MakeOffsetBox(t, 0.5f * h + 2.0f * t, (b2Vec2){-t, 0.5f * h}, b2Rot_identity),
        b2MakeOffsetBox(t, 0.5f * h + 2.0f * t, (b2Vec2){w + t, 0.5f * h}, b2Rot_identity),
    };
    b2BodyDef body = b2DefaultBodyDef(); /* static */
    b2BodyId ground = b2CreateBody(world, &body);
    b2ShapeDef shape = material(params);
    for (int i = 0; i < 4; i++)
        b2CreatePolygonShape(ground, &shape, &sides[i]);
}

/* Our balls, where they are and as fast, into balls[0..count-1]. */
static void add_balls(b2WorldId world, const bp_world *ours, b2BodyId *balls)
{
    b2BodyDef body = b2DefaultBodyDef();
    body.type = b2_dynamicBody;
    b2ShapeDef shape = material(&ours->params);
    b2Circle circle = {{0.0f, 0.0f}, (float)(BP_PIT_RADIUS / PX_PER_M)};
    for (size_t i = 0; i < ours->count; i++) {
        body.position = (b2Vec2){(float)(ours->x[i] / PX_PER_M), (float)(ours->y[i] / PX_PER_M)};
        body.linearVelocity =
            (b2Vec2){(float)(ours->vx[i] / PX_PER_M), (float)(ours->vy[i] / PX_PER_M)};
        balls[i] = b2CreateBody(world, &body);
        b2CreateCircleShape(balls[i], &shape, &circle);
    }
}

const char *bp_box2d_version(void)
{
    static char text[32];
    b2Version v = b2GetVersion();
    snprintf(text, sizeof text, "%d.%d.%d", v.major, v.minor, v.revision);
    return text;
}

double bp_box2d_run(bp_world *world, bool crowd, int threads)
{
    const bp_params *params = &world->params;
    b2BodyId *balls = malloc(sizeof(b2BodyId) * world->count);
    if (!balls)
        return -1.0;
    b2WorldDef def = b2DefaultWorldDef();
    def.gravity = (b2Vec2){0.0f, (float)(params->gravity / PX_PER_M)};
    def.workerCount = threads;
    if (crowd)
        def.restitutionThreshold = 0.0f;
    b2WorldId box2d = b2CreateWorld(&def);
    add_sides(box2d, params);
    add_balls(box2d, world, balls);

    float dt = (float)(1.0 / params->hz);
    double start = now_s();
    for (int s = 0; s < BP_BENCH_STEPS; s++)
        b2World_Step(box2d, dt, SUBSTEPS);
    double wall = now_s() - start;

    for (size_t i = 0; i < world->count; i++) {
        b2Vec2 p = b2Body_GetPosition(balls[i]);
        world->x[i] = p.x * PX_PER_M;
        world->y[i] = p.y * PX_PER_M;
    }
    b2DestroyWorld(box2d);
    free(balls);
    return wall;
}
