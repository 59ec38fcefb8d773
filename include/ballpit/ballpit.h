/* libballpit: 2D ball physics for embedding.
 *
 * A world holds balls (solid disks) and static walls (segments with rounded
 * ends) inside a rectangular arena, and advances them in fixed steps of
 * 1/hz seconds: gravity, drag, collisions with restitution, Coulomb
 * friction and spin at every contact, rolling resistance, continuous
 * collision against walls, and sleep for balls truly at rest. Results are
 * the same bit for bit on every run and with any number of threads.
 *
 * Units: px for lengths, s for time, rad for angles; y grows downward, and
 * angles turn from +x toward +y. A ball's mass is in any unit you like
 * (0 asks for the default, radius^2).
 *
 *     bp_world_def def = bp_default_world_def();
 *     bp_world *world = bp_world_create(&def);
 *     bp_ball_def ball = bp_default_ball_def();
 *     ball.x = 100; ball.y = 100; ball.radius = 10;
 *     bp_ball_id id = bp_world_add_ball(world, &ball);
 *     for (int k = 0; k < 120; k++)
 *         bp_world_step(world);
 *     bp_ball_state s = bp_world_get_ball(world, id);
 *     bp_world_destroy(world);
 *
 * The world is opaque; everything else is a plain value. A world is used
 * from one thread at a time (its step may use its own worker threads). No
 * function here prints, reads a file or keeps a pointer you pass. */
#ifndef BALLPIT_BALLPIT_H
#define BALLPIT_BALLPIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bp_world bp_world;

/* How contacts are resolved (bp_world_def.solver). PASSES: relaxation
 * passes with per-ball sleep, fast, exact on impacts. SOFT: warm-started
 * impulses whose piles are truly at rest and sleep as islands, one
 * thread, slower. */
typedef enum bp_solver_kind { BP_SOLVER_PASSES = 0, BP_SOLVER_SOFT = 1 } bp_solver_kind;

/* How a world is made. Start from bp_default_world_def() and change what
 * you need: fields added in later versions then keep their defaults. */
typedef struct bp_world_def {
    double width, height; /* arena, px: 16 .. 1e6 */
    double gravity;       /* downward acceleration, px/s^2, |g| <= 1e7 */
    double restitution;   /* bounciness of every contact, 0 .. 1 */
    double friction;      /* Coulomb coefficient at every contact, 0 .. 1 */
    double rolling;       /* rolling resistance: torque rolling*N*r against spin, 0 .. 1 */
    double drag;          /* air drag rate, 1/s: v *= exp(-drag dt) each step, 0 .. 1000 */
    double hz;            /* steps per second, 1 .. 100000 */
    int threads;          /* worker threads for the step, 1 .. 64 */
    bp_solver_kind solver; /* BP_SOLVER_PASSES (the default) or BP_SOLVER_SOFT */
} bp_world_def;

/* A ball to add. Start from bp_default_ball_def(). */
typedef struct bp_ball_def {
    double x, y;   /* centre, px: inside the arena, not on its border */
    double vx, vy; /* velocity, px/s */
    double radius; /* px, 0.5 .. 10000, and no larger than the arena */
    double mass;   /* 0: the default, radius^2 */
    double angle;  /* rad */
    double w;      /* angular velocity, rad/s */
} bp_ball_def;

/* Names a ball. It stays valid while the ball exists and is never given to
 * another ball; value is the id the ballpit program writes in its dumps. */
typedef struct bp_ball_id {
    uint32_t value;
} bp_ball_id;

#define BP_NULL_BALL_ID ((bp_ball_id){UINT32_MAX})

static inline bool bp_ball_id_is_null(bp_ball_id id)
{
    return id.value == UINT32_MAX;
}

/* A ball's flags (bp_ball_state.flags, bp_ball_view.flags). */
enum {
    BP_BALL_GROUNDED = 1u, /* touched a floor-like surface in the last step */
    BP_BALL_HELD = 2u,     /* kinematic: moves at its velocity, infinitely heavy,
                              no gravity (bp_world_set_ball_held) */
    BP_BALL_ASLEEP = 4u,   /* at rest on a support: not moved until woken */
};

typedef struct bp_ball_state {
    double x, y, vx, vy, radius, angle, w;
    double mass;
    unsigned flags; /* BP_BALL_* */
} bp_ball_state;

/* A static segment with rounded ends; r is half its thickness, px. */
typedef struct bp_wall {
    double x1, y1, x2, y2, r;
} bp_wall;

/* Every ball at once, for drawing: arrays of count values, in an order
 * that may change at every step (match balls by id). Valid until the world
 * next changes (a step, an added or removed ball). */
typedef struct bp_ball_view {
    size_t count;
    const double *x, *y, *vx, *vy, *radius, *angle, *w, *mass;
    const uint32_t *id;   /* bp_ball_id values */
    const uint8_t *flags; /* BP_BALL_* */
} bp_ball_view;

/* What a ray hit. */
typedef enum bp_hit_kind { BP_HIT_BALL, BP_HIT_WALL, BP_HIT_ARENA } bp_hit_kind;

/* One shape a ray enters. For a ball the id is its bp_ball_id value, for a
 * wall its index in the order added, for the arena the side (0 top,
 * 1 right, 2 bottom, 3 left). */
typedef struct bp_ray_hit {
    bp_hit_kind kind;
    uint32_t id;
    double dist;   /* along the normalised direction, px */
    double x, y;   /* where the ray (for a swept circle: its centre) is then, px */
    double nx, ny; /* outward unit normal of the surface entered */
} bp_ray_hit;

/* Energies in mass * px^2 / s^2, momentum in mass * px / s. */
typedef struct bp_energy {
    double kinetic;    /* translation: sum m v^2 / 2 */
    double rotational; /* sum I w^2 / 2, I = m r^2 / 2 */
    double potential;  /* sum m g h, h the height above where the ball would
                          rest on the side gravity pulls toward */
    double total;      /* the three */
    double px, py;     /* sum m v */
} bp_energy;

/* What a contact joins (bp_contact_impulse.kind). */
typedef enum bp_contact_with {
    BP_CONTACT_WITH_BALL = 0, /* two balls */
    BP_CONTACT_WITH_SIDE = 1, /* a ball and a side of the arena */
    BP_CONTACT_WITH_WALL = 2, /* a ball and a wall */
} bp_contact_with;

/* The impulses a contact carries from one step to the next, through sleep
 * too: under BP_SOLVER_SOFT they hold a pile at rest, so a pile restored
 * with them stands from its first step, as the ballpit program's scene
 * files restore one. Ball a has the smaller id; b is the other ball's id,
 * the side (0 top, 1 right, 2 bottom, 3 left) or the wall's index. Ids
 * are this world's: balls of ids 0 .. n-1 added to a new world in that
 * order get the same ids there. */
typedef struct bp_contact_impulse {
    uint32_t a;           /* bp_ball_id value */
    bp_contact_with kind;
    uint32_t b;
    double jn;            /* normal impulse over a substep (4 a step), mass * px / s, >= 0:
                             m g / (4 hz) for a ball of mass m alone on the floor */
    double jt;            /* friction impulse, within +-jn */
    double jr;            /* rolling resistance impulse (times px), within +-jn * a's radius */
} bp_contact_impulse;

typedef struct bp_world_stats {
    uint64_t steps;     /* steps taken */
    size_t balls, awake, walls;
    double max_overlap; /* deepest overlap between two balls, px */
} bp_world_stats;

/* The defaults of the ballpit program: a 1024x768 arena, gravity 980,
 * restitution 0.9, friction 0.1, rolling 0.01, drag 0.05, 120 Hz, 1 thread. */
bp_world_def bp_default_world_def(void);
/* A still ball of radius 10 at (0, 0) (move it into the arena). */
bp_ball_def bp_default_ball_def(void);

/* NULL when the def can make a world, else a message naming the field. */
const char *bp_world_def_check(const bp_world_def *def);
/* NULL on a bad def (see bp_world_def_check) or when memory runs out. */
bp_world *bp_world_create(const bp_world_def *def);
void bp_world_destroy(bp_world *world);
/* The def the world runs by now. */
bp_world_def bp_world_get_def(const bp_world *world);
/* Changes the rules of a running world (not its size: width and height
 * must stay); every ball wakes. The message of a bad def, else NULL. */
const char *bp_world_set_def(bp_world *world, const bp_world_def *def);

/* NULL when the def makes a ball in this world, else a message. */
const char *bp_ball_def_check(const bp_world *world, const bp_ball_def *def);
/* BP_NULL_BALL_ID on a bad def or when memory runs out. */
bp_ball_id bp_world_add_ball(bp_world *world, const bp_ball_def *def);
/* false when there is no such ball. Sleepers it touched wake. */
bool bp_world_remove_ball(bp_world *world, bp_ball_id id);
bool bp_world_has_ball(const bp_world *world, bp_ball_id id);
/* All zero when there is no such ball. */
bp_ball_state bp_world_get_ball(const bp_world *world, bp_ball_id id);
/* Sets a ball's velocity and spin and wakes it; false when there is no such
 * ball or the values are out of range (speed 1e7 px/s, spin 1e9 rad/s). */
bool bp_world_set_ball_velocity(bp_world *world, bp_ball_id id, double vx, double vy, double w);
/* Holds a ball (it becomes kinematic: it moves at the velocity you set,
 * shoves the others, feels no gravity) or lets it go. false: no such ball. */
bool bp_world_set_ball_held(bp_world *world, bp_ball_id id, bool held);
/* The topmost ball (highest id) containing (x, y), or BP_NULL_BALL_ID. */
bp_ball_id bp_world_ball_at(const bp_world *world, double x, double y);
bp_ball_view bp_world_view_balls(const bp_world *world);

/* A wall from (x1, y1) to (x2, y2), both inside the arena, of half
 * thickness radius (0 .. 10000). false on bad values or out of memory.
 * Every ball wakes: the wall may cut through sleepers. */
bool bp_world_add_wall(bp_world *world, double x1, double y1, double x2, double y2,
                       double radius);
/* The walls in the order added; *count gets how many. */
const bp_wall *bp_world_get_walls(const bp_world *world, size_t *count);

/* Advances the world by one step of 1/hz s. false only when memory runs
 * out or the stop flag was raised: the step is then unfinished. */
bool bp_world_step(bp_world *world);
/* While *flag is nonzero, a step returns early (checked between substeps
 * and inside long sweeps): for a signal handler. NULL: never. */
void bp_world_set_stop_flag(bp_world *world, const volatile int *flag);

/* The nearest ball, wall or arena side a ray from (ox, oy) along (dx, dy)
 * (any finite nonzero length) enters within max_dist px. false when it hits
 * nothing or the ray cannot be cast (origin outside the arena). */
bool bp_world_cast_ray(const bp_world *world, double ox, double oy, double dx, double dy,
                       double max_dist, bp_ray_hit *hit);
/* Every shape the ray enters, nearest first: writes at most max_hits and
 * returns how many there are, or SIZE_MAX when memory runs out or the ray
 * cannot be cast. */
size_t bp_world_cast_ray_all(const bp_world *world, double ox, double oy, double dx, double dy,
                             double max_dist, bp_ray_hit *hits, size_t max_hits);

/* How many contacts of the balls and walls there are now carry impulses
 * (none under BP_SOLVER_PASSES); the first max of them, by a, kind and b,
 * are written to out (which may be NULL when max is 0). */
size_t bp_world_get_contact_impulses(const bp_world *world, bp_contact_impulse *out, size_t max);
/* Adds these impulses to those the world carries, for the next step to
 * start from (a contact already carrying some gets the new ones; in may be
 * NULL when count is 0). NULL when done, else a message naming what is
 * wrong, and nothing changes: a ball or wall the world does not have, a
 * not below b between balls, a side past 3, a kind outside
 * bp_contact_with, an impulse that no contact could carry (the normal one
 * beyond what stops every ball at 1e7 px/s, friction or rolling beyond
 * coefficients of 1), the passes solver (which carries none), or no
 * memory. Entries are checked first, in order, then the solver: when
 * refused is not NULL it is always set, to the first entry at fault, or
 * to count when none is (done, the passes solver, no memory). */
const char *bp_world_set_contact_impulses(bp_world *world, const bp_contact_impulse *in,
                                          size_t count, size_t *refused);

bp_energy bp_world_get_energy(const bp_world *world);
bp_world_stats bp_world_get_stats(const bp_world *world);

#ifdef __cplusplus
}
#endif

#endif
