#include "bodies.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tolerances.h"


void bp_bodies_release(bp_world *world)
{
    free(world->x);
    free(world->y);
    free(world->vx);
    free(world->vy);
    free(world->r);
    free(world->angle);
    free(world->w);
    free(world->mass);
    free(world->inv_mass);
    free(world->inv_inertia);
    free(world->id);
    free(world->flags);
    free(world->calm);
    free(world->calm_vx);
    free(world->calm_vy);
    free(world->index_of_id);
    free(world->walls);
    free(world->spare_double);
    free(world->spare_id);
    free(world->spare_flags);
    free(world->spare_calm);
}

static bool grow_array(void **array, size_t element_size, size_t capacity)
{
    void *grown = realloc(*array, element_size * capacity);
    if (!grown)
        return false;
    *array = grown;
    return true;
}

static bool reserve_balls(bp_world *world, size_t wanted)
{
    if (wanted <= world->capacity)
        return true;
    size_t capacity = world->capacity ? world->capacity : 64;
    while (capacity < wanted)
        capacity *= 2;
    if (!grow_array((void **)&world->x, sizeof(double), capacity) ||
        !grow_array((void **)&world->y, sizeof(double), capacity) ||
        !grow_array((void **)&world->vx, sizeof(double), capacity) ||
        !grow_array((void **)&world->vy, sizeof(double), capacity) ||
        !grow_array((void **)&world->r, sizeof(double), capacity) ||
        !grow_array((void **)&world->angle, sizeof(double), capacity) ||
        !grow_array((void **)&world->w, sizeof(double), capacity) ||
        !grow_array((void **)&world->mass, sizeof(double), capacity) ||
        !grow_array((void **)&world->inv_mass, sizeof(double), capacity) ||
        !grow_array((void **)&world->inv_inertia, sizeof(double), capacity) ||
        !grow_array((void **)&world->id, sizeof(uint32_t), capacity) ||
        !grow_array((void **)&world->flags, sizeof(uint8_t), capacity) ||
        !grow_array((void **)&world->calm, sizeof(uint16_t), capacity) ||
        !grow_array((void **)&world->calm_vx, sizeof(double), capacity) ||
        !grow_array((void **)&world->calm_vy, sizeof(double), capacity))
        return false;
    world->capacity = capacity;
    return true;
}

static bool reserve_ids(bp_world *world, size_t wanted)
{
    if (wanted <= world->id_capacity)
        return true;
    size_t capacity = world->id_capacity ? world->id_capacity : 64;
    while (capacity < wanted)
        capacity *= 2;
    if (!grow_array((void **)&world->index_of_id, sizeof(int32_t), capacity))
        return false;
    world->id_capacity = capacity;
    return true;
}

/* Widens the world's range of radii to take in r. */
static void take_radius(bp_world *world, double r)
{
    world->r_min = r < world->r_min ? r : world->r_min;
    world->r_max = r > world->r_max ? r : world->r_max;
}

/* Puts a new ball, unturned and not spinning, in slot world->count under id
 * (whose entry in index_of_id is reserved). */
static void place_ball(bp_world *world, uint32_t id, double x, double y, double vx, double vy,
                       double r, double mass)
{
    size_t i = world->count++;
    world->x[i] = x;
    world->y[i] = y;
    world->vx[i] = vx;
    world->vy[i] = vy;
    world->r[i] = r;
    world->angle[i] = 0.0;
    world->w[i] = 0.0;
    world->mass[i] = mass > 0.0 ? mass : r * r;
    world->inv_mass[i] = 1.0 / world->mass[i];
    world->inv_inertia[i] = 2.0 * world->inv_mass[i] / (r * r);
    world->id[i] = id;
    world->flags[i] = 0;
    world->calm[i] = 0;
    world->calm_vx[i] = 0.0;
    world->calm_vy[i] = 0.0;
    world->index_of_id[id] = (int32_t)i;
    take_radius(world, r);
    world->layout_stamp++;
}

int64_t bp_world_insert_ball(bp_world *world, double x, double y, double vx, double vy, double r,
                             double mass)
{
    if (world->next_id == UINT32_MAX || world->count >= INT32_MAX)
        return -1;
    if (!reserve_balls(world, world->count + 1) || !reserve_ids(world, world->next_id + 1u))
        return -1;
    uint32_t id = world->next_id++;
    place_ball(world, id, x, y, vx, vy, r, mass);
    return id;
}

int64_t bp_world_revive_ball(bp_world *world, uint32_t id, double x, double y, double vx,
                             double vy, double r, double mass)
{
    if (id >= world->next_id || world->index_of_id[id] >= 0 || world->count >= INT32_MAX ||
        !reserve_balls(world, world->count + 1))
        return -1;
    place_ball(world, id, x, y, vx, vy, r, mass);
    return id;
}

int64_t bp_world_index_of(const bp_world *world, uint32_t id)
{
    if (id >= world->next_id)
        return -1;
    return world->index_of_id[id];
}

static void move_ball(bp_world *world, size_t to, size_t from)
{
    world->x[to] = world->x[from];
    world->y[to] = world->y[from];
    world->vx[to] = world->vx[from];
    world->vy[to] = world->vy[from];
    world->r[to] = world->r[from];
    world->angle[to] = world->angle[from];
    world->w[to] = world->w[from];
    world->mass[to] = world->mass[from];
    world->inv_mass[to] = world->inv_mass[from];
    world->inv_inertia[to] = world->inv_inertia[from];
    world->id[to] = world->id[from];
    world->flags[to] = world->flags[from];
    world->calm[to] = world->calm[from];
    world->calm_vx[to] = world->calm_vx[from];
    world->calm_vy[to] = world->calm_vy[from];
    world->index_of_id[world->id[to]] = (int32_t)to;
}

bool bp_world_delete_ball(bp_world *world, uint32_t id)
{
    int64_t index = bp_world_index_of(world, id);
    if (index < 0)
        return false;
    /* The solver only looks at sleepers next to balls awake: one resting on
     * this ball would never notice it went. */
    for (size_t i = 0; i < world->count; i++) {
        double dx = world->x[i] - world->x[index], dy = world->y[i] - world->y[index];
        double reach = world->r[i] + world->r[index] + BP_WAKE_MARGIN_OVER_R * world->r[i];
        if (dx * dx + dy * dy < reach * reach)
            bp_world_wake(world, i);
    }
    size_t last = world->count - 1;
    /* Shift rather than swap so that the relative order of the others, and
     * with it every later step, stays the same as in a world that never had
     * this ball. */
    for (size_t i = (size_t)index; i < last; i++)
        move_ball(world, i, i + 1);
    world->count = last;
    world->index_of_id[id] = -1;
    world->r_min = INFINITY;
    world->r_max = 0.0;
    for (size_t i = 0; i < world->count; i++)
        take_radius(world, world->r[i]);
    world->layout_stamp++;
    return true;
}

bool bp_world_insert_wall(bp_world *world, bp_wall wall)
{
    if (world->wall_count == world->wall_capacity) {
        size_t capacity = world->wall_capacity ? world->wall_capacity * 2 : 16;
        if (!grow_array((void **)&world->walls, sizeof(bp_wall), capacity))
            return false;
        world->wall_capacity = capacity;
    }
    world->walls[world->wall_count++] = wall;
    bp_world_wake_all(world);
    return true;
}

void bp_gather(void *dst, const void *src, size_t size, const uint32_t *order, size_t lo,
               size_t hi)
{
    /* One loop per element size, so each copies whole elements. */
    switch (size) {
    case 8:
        for (size_t k = lo; k < hi; k++)
            ((double *)dst)[k] = ((const double *)src)[order[k]];
        break;
    case 4:
        for (size_t k = lo; k < hi; k++)
            ((uint32_t *)dst)[k] = ((const uint32_t *)src)[order[k]];
        break;
    case 2:
        for (size_t k = lo; k < hi; k++)
            ((uint16_t *)dst)[k] = ((const uint16_t *)src)[order[k]];
        break;
    default:
        for (size_t k = lo; k < hi; k++)
            ((uint8_t *)dst)[k] = ((const uint8_t *)src)[order[k]];
        break;
    }
}

static void gather_alone(void *context, void *dst, const void *src, size_t size,
                         const uint32_t *order, size_t lo, size_t hi)
{
    (void)context;
    bp_gather(dst, src, size, order, lo, hi);
}

bool bp_world_reorder(bp_world *world, const uint32_t *order, size_t lo, size_t hi,
                      bp_gather_fn gather, void *context)
{
    size_t n = world->count;
    if (world->spare_capacity < world->capacity) {
        size_t capacity = world->capacity;
        if (!grow_array((void **)&world->spare_double, sizeof(double), capacity) ||
            !grow_array((void **)&world->spare_id, sizeof(uint32_t), capacity) ||
            !grow_array((void **)&world->spare_flags, sizeof(uint8_t), capacity) ||
            !grow_array((void **)&world->spare_calm, sizeof(uint16_t), capacity))
            return false;
        world->spare_capacity = capacity;
    }
    if (!gather)
        gather = gather_alone;
    /* Each array in turn is gathered into the spare of its type. Over most
     * of the arrays the two then swap (every array must keep the world's
     * capacity: the spare takes its place); a settled world keeps most balls
     * where they are, and then only the stretch that changes is copied
     * back. */
    struct {
        void **array, **spare;
        size_t size;
    } arrays[] = {
        {(void **)&world->x, (void **)&world->spare_double, sizeof(double)},
        {(void **)&world->y, (void **)&world->spare_double, sizeof(double)},
        {(void **)&world->vx, (void **)&world->spare_double, sizeof(double)},
        {(void **)&world->vy, (void **)&world->spare_double, sizeof(double)},
        {(void **)&world->r, (void **)&world->spare_double, sizeof(double)},
        {(void **)&world->angle, (void **)&world->spare_double, sizeof(double)},
        {(void **)&world->w, (void **)&world->spare_double, sizeof(double)},
        {(void **)&world->mass, (void **)&world->spare_double, sizeof(double)},
        {(void **)&world->inv_mass, (void **)&world->spare_double, sizeof(double)},
        {(void **)&world->inv_inertia, (void **)&world->spare_double, sizeof(double)},
        {(void **)&world->id, (void **)&world->spare_id, sizeof(uint32_t)},
        {(void **)&world->flags, (void **)&world->spare_flags, sizeof(uint8_t)},
        {(void **)&world->calm, (void **)&world->spare_calm, sizeof(uint16_t)},
        {(void **)&world->calm_vx, (void **)&world->spare_double, sizeof(double)},
        {(void **)&world->calm_vy, (void **)&world->spare_double, sizeof(double)},
    };
    bool swap = 2 * (hi - lo) >= n;
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
        void *array = *arrays[k].array, *spare = *arrays[k].spare;
        size_t size = arrays[k].size;
        gather(context, spare, array, size, order, lo, hi);
        if (swap) {
            /* Outside [lo, hi) each ball stays: the spare gets those too. */
            memcpy(spare, array, lo * size);
            memcpy((char *)spare + hi * size, (char *)array + hi * size, (n - hi) * size);
            *arrays[k].array = spare;
            *arrays[k].spare = array;
        } else {
            memcpy((char *)array + lo * size, (char *)spare + lo * size, (hi - lo) * size);
        }
    }
    for (size_t k = lo; k < hi; k++)
        world->index_of_id[world->id[k]] = (int32_t)k;
    world->layout_stamp++;
    return true;
}

void bp_world_set_free_mass(bp_world *world, size_t i)
{
    world->inv_mass[i] = 1.0 / world->mass[i];
    world->inv_inertia[i] = 2.0 * world->inv_mass[i] / (world->r[i] * world->r[i]);
}

void bp_world_wake(bp_world *world, size_t i)
{
    world->calm[i] = 0;
    if (!(world->flags[i] & BP_BALL_ASLEEP))
        return;
    world->flags[i] &= (uint8_t)~BP_BALL_ASLEEP;
    if (!(world->flags[i] & BP_BALL_HELD))
        bp_world_set_free_mass(world, i);
}

void bp_world_sleep(bp_world *world, size_t i)
{
    if (world->flags[i] & BP_BALL_HELD)
        return;
    world->flags[i] |= BP_BALL_ASLEEP;
    world->calm[i] = 0;
    world->vx[i] = 0.0;
    world->vy[i] = 0.0;
    world->w[i] = 0.0;
    world->inv_mass[i] = 0.0;
    world->inv_inertia[i] = 0.0;
}

void bp_world_wake_all(bp_world *world)
{
    for (size_t i = 0; i < world->count; i++)
        bp_world_wake(world, i);
}

void bp_world_set_held(bp_world *world, uint32_t id, bool held)
{
    int64_t i = bp_world_index_of(world, id);
    if (i < 0)
        return;
    bp_world_wake(world, (size_t)i);
    if (held) {
        world->flags[i] |= BP_BALL_HELD;
        world->inv_mass[i] = 0.0;
        world->inv_inertia[i] = 0.0;
    } else {
        world->flags[i] &= (uint8_t)~BP_BALL_HELD;
        bp_world_set_free_mass(world, (size_t)i);
    }
}

void bp_world_energy(const bp_world *world, double *kinetic, double *potential)
{
    double ke = 0.0, pe = 0.0;
    double g = world->params.gravity;
    double floor_y = g >= 0.0 ? world->params.height : 0.0;
    for (size_t i = 0; i < world->count; i++) {
        double m = world->mass[i];
        ke += 0.5 * m * (world->vx[i] * world->vx[i] + world->vy[i] * world->vy[i]);
        /* I w^2 / 2 with I = m r^2 / 2. */
        ke += 0.25 * m * world->r[i] * world->r[i] * world->w[i] * world->w[i];
        /* Height measured from the surface gravity pulls towards. */
        double rest_y = g >= 0.0 ? floor_y - world->r[i] : floor_y + world->r[i];
        pe += m * g * (rest_y - world->y[i]);
    }
    *kinetic = ke;
    *potential = pe;
}

/* The per-ball arrays a state holds, in order: pointers to the world's and
 * each element's size. */
#define BP_STATE_ARRAYS 15
static void state_arrays(const bp_world *w, void **arrays, size_t *sizes)
{
    void *a[BP_STATE_ARRAYS] = {w->x, w->y, w->vx, w->vy, w->r, w->angle, w->w, w->mass,
                                w->inv_mass, w->inv_inertia, w->calm_vx, w->calm_vy,
                                w->id, w->calm, w->flags};
    for (int k = 0; k < BP_STATE_ARRAYS; k++) {
        arrays[k] = a[k];
        sizes[k] = k < 12 ? sizeof(double) : k == 12 ? sizeof(uint32_t)
                                           : k == 13 ? sizeof(uint16_t) : sizeof(uint8_t);
    }
}

size_t bp_store_state_size(const bp_world *world)
{
    void *arrays[BP_STATE_ARRAYS];
    size_t sizes[BP_STATE_ARRAYS], per_ball = 0;
    state_arrays(world, arrays, sizes);
    for (int k = 0; k < BP_STATE_ARRAYS; k++)
        per_ball += sizes[k];
    return world->count * per_ball + world->wall_count * sizeof(bp_wall);
}

bool bp_store_save(const bp_world *world, bp_world_state *st, size_t tail)
{
    void *arrays[BP_STATE_ARRAYS];
    size_t sizes[BP_STATE_ARRAYS];
    state_arrays(world, arrays, sizes);
    size_t store = bp_store_state_size(world), size = store + tail;
    st->size = st->solver_at = 0;
    if (size > st->capacity) {
        unsigned char *grown = realloc(st->bytes, size);
        if (!grown)
            return false;
        st->bytes = grown;
        st->capacity = size;
    }
    unsigned char *p = st->bytes;
    /* An empty world may have no buffer at all: no pointer moves then. */
    for (int k = 0; k < BP_STATE_ARRAYS && world->count > 0; k++) {
        memcpy(p, arrays[k], world->count * sizes[k]);
        p += world->count * sizes[k];
    }
    if (world->wall_count > 0)
        memcpy(p, world->walls, world->wall_count * sizeof(bp_wall));
    st->params = world->params;
    st->count = world->count;
    st->wall_count = world->wall_count;
    st->next_id = world->next_id;
    st->r_min = world->r_min;
    st->r_max = world->r_max;
    st->steps = world->steps;
    st->size = size;
    st->solver_at = store;
    return true;
}

bool bp_store_restore(bp_world *world, const bp_world_state *st)
{
    if (!reserve_balls(world, st->count) || !reserve_ids(world, st->next_id) ||
        (st->wall_count > world->wall_capacity &&
         !grow_array((void **)&world->walls, sizeof(bp_wall), st->wall_count)))
        return false;
    if (st->wall_count > world->wall_capacity)
        world->wall_capacity = st->wall_count;
    void *arrays[BP_STATE_ARRAYS];
    size_t sizes[BP_STATE_ARRAYS];
    state_arrays(world, arrays, sizes);
    const unsigned char *p = st->bytes;
    for (int k = 0; k < BP_STATE_ARRAYS && st->count > 0; k++) {
        memcpy(arrays[k], p, st->count * sizes[k]);
        p += st->count * sizes[k];
    }
    if (st->wall_count > 0)
        memcpy(world->walls, p, st->wall_count * sizeof(bp_wall));
    /* Ids issued after the state was saved do not exist in it. */
    for (uint32_t id = 0; id < st->next_id; id++)
        world->index_of_id[id] = -1;
    for (size_t i = 0; i < st->count; i++)
        world->index_of_id[world->id[i]] = (int32_t)i;
    world->params = st->params;
    world->count = st->count;
    world->wall_count = st->wall_count;
    world->next_id = st->next_id;
    world->r_min = st->r_min;
    world->r_max = st->r_max;
    world->steps = st->steps;
    /* Caches keyed on the layout (the broad phase's sort, the step's start
     * positions) were made for another state: a new stamp drops them. */
    world->layout_stamp++;
    return true;
}

void bp_world_state_free(bp_world_state *st)
{
    free(st->bytes);
    *st = (bp_world_state){0};
}
