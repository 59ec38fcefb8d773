#include "world.h"

#include <stdlib.h>
#include <string.h>

#include "solver.h"
#include "sweep.h"
#include "walls.h"

bp_world *bp_world_create(const bp_params *params)
{
    bp_world *world = calloc(1, sizeof *world);
    if (!world)
        return NULL;
    world->params = *params;
    world->threads = 1;
    world->solver = bp_solver_create();
    if (!world->solver) {
        free(world);
        return NULL;
    }
    return world;
}

void bp_world_destroy(bp_world *world)
{
    if (!world)
        return;
    bp_solver_destroy(world->solver);
    bp_statics_destroy(world->statics);
    bp_sweep_destroy(world->sweep);
    free(world->x);
    free(world->y);
    free(world->vx);
    free(world->vy);
    free(world->r);
    free(world->mass);
    free(world->inv_mass);
    free(world->id);
    free(world->flags);
    free(world->index_of_id);
    free(world->walls);
    free(world);
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
        !grow_array((void **)&world->mass, sizeof(double), capacity) ||
        !grow_array((void **)&world->inv_mass, sizeof(double), capacity) ||
        !grow_array((void **)&world->id, sizeof(uint32_t), capacity) ||
        !grow_array((void **)&world->flags, sizeof(uint8_t), capacity))
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

int64_t bp_world_add_ball(bp_world *world, double x, double y, double vx, double vy, double r,
                          double mass)
{
    if (world->next_id == UINT32_MAX || world->count >= INT32_MAX)
        return -1;
    if (!reserve_balls(world, world->count + 1) || !reserve_ids(world, world->next_id + 1u))
        return -1;
    size_t i = world->count++;
    uint32_t id = world->next_id++;
    world->x[i] = x;
    world->y[i] = y;
    world->vx[i] = vx;
    world->vy[i] = vy;
    world->r[i] = r;
    world->mass[i] = mass > 0.0 ? mass : r * r;
    world->inv_mass[i] = 1.0 / world->mass[i];
    world->id[i] = id;
    world->flags[i] = 0;
    world->index_of_id[id] = (int32_t)i;
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
    world->mass[to] = world->mass[from];
    world->inv_mass[to] = world->inv_mass[from];
    world->id[to] = world->id[from];
    world->flags[to] = world->flags[from];
    world->index_of_id[world->id[to]] = (int32_t)to;
}

bool bp_world_remove_ball(bp_world *world, uint32_t id)
{
    int64_t index = bp_world_index_of(world, id);
    if (index < 0)
        return false;
    size_t last = world->count - 1;
    /* Shift rather than swap so that the relative order of the others, and
     * with it every later step, stays the same as in a world that never had
     * this ball. */
    for (size_t i = (size_t)index; i < last; i++)
        move_ball(world, i, i + 1);
    world->count = last;
    world->index_of_id[id] = -1;
    return true;
}

bool bp_world_add_wall(bp_world *world, bp_wall wall)
{
    if (world->wall_count == world->wall_capacity) {
        size_t capacity = world->wall_capacity ? world->wall_capacity * 2 : 16;
        if (!grow_array((void **)&world->walls, sizeof(bp_wall), capacity))
            return false;
        world->wall_capacity = capacity;
    }
    world->walls[world->wall_count++] = wall;
    return true;
}

void bp_world_set_held(bp_world *world, uint32_t id, bool held)
{
    int64_t i = bp_world_index_of(world, id);
    if (i < 0)
        return;
    if (held) {
        world->flags[i] |= BP_BALL_HELD;
        world->inv_mass[i] = 0.0;
    } else {
        world->flags[i] &= (uint8_t)~BP_BALL_HELD;
        world->inv_mass[i] = 1.0 / world->mass[i];
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
        /* Height measured from the surface gravity pulls towards. */
        double rest_y = g >= 0.0 ? floor_y - world->r[i] : floor_y + world->r[i];
        pe += m * g * (rest_y - world->y[i]);
    }
    *kinetic = ke;
    *potential = pe;
}
