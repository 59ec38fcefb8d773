#include "raycastreport.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "program.h"

int bp_raycast_report(const bp_world *world, const double ray[4], FILE *out)
{
    /* Far enough to reach every side from anywhere the origin may be. */
    double far = 4.0 * (world->params.width + world->params.height) + fabs(ray[0]) + fabs(ray[1]);
    size_t n = bp_raycast(world, ray[0], ray[1], ray[2], ray[3], far, NULL, 0);
    if (n == SIZE_MAX)
        return 1;
    bp_ray_hit *hits = malloc((n ? n : 1) * sizeof *hits);
    if (!hits)
        return 1;
    n = bp_raycast(world, ray[0], ray[1], ray[2], ray[3], far, hits, n);
    if (n == SIZE_MAX) {
        free(hits);
        return 1;
    }
    for (size_t k = 0; k < n; k++) {
        const bp_ray_hit *h = &hits[k];
        /* -0 reads badly and means the same. */
        double nx = h->nx == 0.0 ? 0.0 : h->nx, ny = h->ny == 0.0 ? 0.0 : h->ny;
        fprintf(out, "hit kind=%s id=%u dist=%.9g x=%.9g y=%.9g nx=%.9g ny=%.9g\n",
                bp_hit_kind_name(h->kind), (unsigned)h->id, h->dist, h->x, h->y, nx, ny);
    }
    free(hits);
    return fflush(out) == 0 && !ferror(out) ? 0 : 1;
}

