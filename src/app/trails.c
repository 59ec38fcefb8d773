#include "trails.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"

void bp_trails_clear(bp_trails *t)
{
    if (t->count)
        memset(t->count, 0, t->ids * sizeof *t->count);
    if (t->head)
        memset(t->head, 0, t->ids * sizeof *t->head);
}

void bp_trails_free(bp_trails *t)
{
    free(t->xy);
    free(t->count);
    free(t->head);
    *t = (bp_trails){0};
}

static bool room_for(bp_trails *t, size_t ids)
{
    if (ids <= t->ids)
        return true;
    size_t cap = t->capacity_ids, cap2 = t->capacity_ids, cap3 = t->capacity_ids;
    if (!bp_reserve((void **)&t->xy, &cap, ids, 2 * BP_TRAIL_POINTS * sizeof(float)) ||
        !bp_reserve((void **)&t->count, &cap2, ids, sizeof *t->count) ||
        !bp_reserve((void **)&t->head, &cap3, ids, sizeof *t->head))
        return false;
    /* The three grow alike from the same capacity. */
    t->capacity_ids = cap;
    memset(t->count + t->ids, 0, (ids - t->ids) * sizeof *t->count);
    memset(t->head + t->ids, 0, (ids - t->ids) * sizeof *t->head);
    t->ids = ids;
    return true;
}

bool bp_trails_record(bp_trails *t, const bp_world *world, double seconds)
{
    if (world->steps < t->last_step)
        bp_trails_clear(t);
    t->last_step = world->steps;
    if (!(seconds > 0.0))
        return true;
    double every_d = floor(seconds * world->params.hz / BP_TRAIL_POINTS + 0.5);
    uint64_t every = every_d < 1.0 ? 1 : (uint64_t)every_d;
    if (world->steps % every != 0)
        return true;
    if (!room_for(t, world->next_id)) {
        bp_trails_clear(t);
        return false;
    }
    for (size_t i = 0; i < world->count; i++) {
        uint32_t id = world->id[i];
        float *ring = &t->xy[(size_t)id * 2 * BP_TRAIL_POINTS];
        ring[2 * t->head[id]] = (float)world->x[i];
        ring[2 * t->head[id] + 1] = (float)world->y[i];
        t->head[id] = (uint16_t)((t->head[id] + 1) % BP_TRAIL_POINTS);
        if (t->count[id] < BP_TRAIL_POINTS)
            t->count[id]++;
    }
    return true;
}

int bp_trails_points(const bp_trails *t, uint32_t id, float *xy)
{
    if (id >= t->ids)
        return 0;
    int n = t->count[id];
    const float *ring = &t->xy[(size_t)id * 2 * BP_TRAIL_POINTS];
    for (int k = 0; k < n; k++) {
        int slot = (t->head[id] + BP_TRAIL_POINTS - n + k) % BP_TRAIL_POINTS;
        xy[2 * k] = ring[2 * slot];
        xy[2 * k + 1] = ring[2 * slot + 1];
    }
    return n;
}
