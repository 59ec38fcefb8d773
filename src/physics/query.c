#include "query.h"

int64_t bp_query_point(const bp_world *world, double x, double y)
{
    int64_t best = -1;
    for (size_t i = 0; i < world->count; i++) {
        double dx = world->x[i] - x, dy = world->y[i] - y, r = world->r[i];
        if (dx * dx + dy * dy <= r * r && (int64_t)world->id[i] > best)
            best = world->id[i];
    }
    return best;
}
