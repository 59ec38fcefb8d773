/* The benchmark pit, and the stirred pile, in Box2D v3, for the
 * comparison programs.
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

#include "bench.h"
#include "engines.h"
#include "spawn.h"
#include "stirpath.h"

/* Our pixels per Box2D metre. */
#define PX_PER_M 100.0
/* Box2D's substeps per step: what its documentation recommends. */
#define SUBSTEPS 4

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

/* A Box2D world of our pit's (or crowd's) balls, into balls[]. */
static b2WorldId make_world(const bp_world *world, bool crowd, int threads, b2BodyId *balls)
{
    const bp_params *params = &world->params;
    b2WorldDef def = b2DefaultWorldDef();
    def.gravity = (b2Vec2){0.0f, (float)(params->gravity / PX_PER_M)};
    def.workerCount = threads;
    if (crowd)
        def.restitutionThreshold = 0.0f;
    b2WorldId box2d = b2CreateWorld(&def);
    add_sides(box2d, params);
    add_balls(box2d, world, balls);
    return box2d;
}

/* The balls' centres, px: ball i's at x[i * stride], y[i * stride]. */
static void centres(const b2BodyId *balls, size_t count, double *x, double *y, size_t stride)
{
    for (size_t i = 0; i < count; i++) {
        b2Vec2 p = b2Body_GetPosition(balls[i]);
        x[i * stride] = p.x * PX_PER_M;
        y[i * stride] = p.y * PX_PER_M;
    }
}

double bp_box2d_run(bp_world *world, bool crowd, int threads)
{
    b2BodyId *balls = malloc(sizeof(b2BodyId) * world->count);
    if (!balls)
        return -1.0;
    b2WorldId box2d = make_world(world, crowd, threads, balls);

    float dt = (float)(1.0 / world->params.hz);
    double start = bp_bench_clock_s();
    for (int s = 0; s < BP_BENCH_STEPS; s++)
        b2World_Step(box2d, dt, SUBSTEPS);
    double wall = bp_bench_clock_s() - start;
    centres(balls, world->count, world->x, world->y, 1);
    b2DestroyWorld(box2d);
    free(balls);
    return wall;
}

/* The hand: a ball made where the path starts, held kinematic (it pushes
 * and is not pushed, as our held ball), moved onto each point of the path
 * in one step, then let go at rest. Box2D wakes a sleeping island that a
 * moving body touches, so the hand wakes the pile as ours does. */
static b2BodyId make_hand(b2WorldId box2d, const bp_stir_path *path, const bp_params *params)
{
    b2BodyDef body = b2DefaultBodyDef();
    body.type = b2_kinematicBody;
    body.position = (b2Vec2){(float)(path->x0 / PX_PER_M), (float)(path->y0 / PX_PER_M)};
    b2BodyId hand = b2CreateBody(box2d, &body);
    b2ShapeDef shape = material(params);
    b2Circle circle = {{0.0f, 0.0f}, (float)(path->r / PX_PER_M)};
    b2CreateCircleShape(hand, &shape, &circle);
    return hand;
}

bool bp_box2d_stir(const bp_world *world, uint64_t settle, const bp_stir_path *path, int threads,
                   bp_stir_result *out)
{
    size_t n = world->count;
    b2BodyId *balls = malloc(sizeof(b2BodyId) * n);
    double *start = malloc(sizeof(double) * 2 * n), *end = malloc(sizeof(double) * 2 * n);
    if (!balls || !start || !end) {
        free(balls);
        free(start);
        free(end);
        return false;
    }
    b2WorldId box2d = make_world(world, false, threads, balls);
    float dt = (float)(1.0 / world->params.hz);
    for (uint64_t s = 0; s < settle; s++)
        b2World_Step(box2d, dt, SUBSTEPS);
    centres(balls, n, start, start + 1, 2);
    *out = (bp_stir_result){.asleep_at_start = n - (size_t)b2World_GetAwakeBodyCount(box2d)};
    bp_steptime_reset(&out->steps);
    b2BodyId hand = make_hand(box2d, path, &world->params);
    for (uint64_t s = 0; s < path->end; s++) {
        if (s < path->moves) {
            b2Vec2 at = b2Body_GetPosition(hand);
            b2Vec2 to = {(float)(path->x[s] / PX_PER_M), (float)(path->y[s] / PX_PER_M)};
            b2Body_SetLinearVelocity(hand, (b2Vec2){(to.x - at.x) / dt, (to.y - at.y) / dt});
        } else if (s == path->moves) {
            b2Body_SetType(hand, b2_dynamicBody);
            b2Body_SetLinearVelocity(hand, (b2Vec2){0.0f, 0.0f});
        }
        double t0 = bp_bench_clock_s();
        b2World_Step(box2d, dt, SUBSTEPS);
        bp_steptime_add(&out->steps, bp_bench_clock_s() - t0);
        /* The hand is a body too: the pile's count leaves it out. */
        int awake = b2World_GetAwakeBodyCount(box2d) - (b2Body_IsAwake(hand) ? 1 : 0);
        out->awake_sum += (double)awake;
        for (size_t i = 0; i < n; i++) {
            b2Vec2 v = b2Body_GetLinearVelocity(balls[i]);
            out->moving_sum += bp_stir_moving(v.x * PX_PER_M, v.y * PX_PER_M,
                                              world->params.gravity, world->params.hz);
        }
    }
    centres(balls, n, end, end + 1, 2);
    bp_stir_measure(start, end, n, BP_PIT_RADIUS, world->params.width, world->params.height, out);
    for (size_t i = 0; i < n; i++)
        out->awake_at_end += b2Body_IsAwake(balls[i]);
    b2DestroyWorld(box2d);
    free(balls);
    free(start);
    free(end);
    return true;
}
