#include "fuzz_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double bp_fuzz_energy(const bp_world *world)
{
    const bp_params *p = &world->params;
    double e = 0.0;
    for (size_t i = 0; i < world->count; i++) {
        double m = world->mass[i], r = world->r[i];
        double v2 = world->vx[i] * world->vx[i] + world->vy[i] * world->vy[i];
        double fall = p->gravity >= 0.0 ? p->height - world->y[i] : world->y[i];
        e += 0.5 * m * v2 + 0.25 * m * r * r * world->w[i] * world->w[i] +
             m * fabs(p->gravity) * fmax(fall, 0.0);
    }
    return e;
}

double bp_fuzz_energy_bound(const bp_world *world, double e0)
{
    double slack = 0.0;
    double kick = world->params.gravity / world->params.hz;
    for (size_t i = 0; i < world->count; i++) {
        double push = 2.0 * world->r[i] * world->params.hz;
        double most = fmax(push * push, kick * kick);
        slack += 0.5 * world->mass[i] * most;
    }
    return 2.0 * e0 + slack;
}

static void fail(const bp_world *world, size_t i, const char *what, const char *why)
{
    fprintf(stderr, "fuzz invariant broken %s: %s", what, why);
    if (i < world->count)
        fprintf(stderr, " (ball id %u at index %zu: x=%.17g y=%.17g vx=%.17g vy=%.17g r=%.17g "
                        "w=%.17g angle=%.17g; arena %gx%g)",
                world->id[i], i, world->x[i], world->y[i], world->vx[i], world->vy[i],
                world->r[i], world->w[i], world->angle[i], world->params.width,
                world->params.height);
    fputc('\n', stderr);
    abort();
}

void bp_fuzz_check(const bp_world *world, double bound, const char *what)
{
    const bp_params *p = &world->params;
    for (size_t i = 0; i < world->count; i++) {
        if (!(isfinite(world->x[i]) && isfinite(world->y[i]) && isfinite(world->vx[i]) &&
              isfinite(world->vy[i]) && isfinite(world->w[i]) && isfinite(world->angle[i])))
            fail(world, i, what, "a number is not finite");
        if (!(world->x[i] >= 0.0 && world->x[i] <= p->width && world->y[i] >= 0.0 &&
              world->y[i] <= p->height))
            fail(world, i, what, "a centre lies outside the arena");
    }
    double e = bp_fuzz_energy(world);
    if (!(e <= bound)) {
        char why[96];
        snprintf(why, sizeof why, "energy %.6g exceeds its bound %.6g", e, bound);
        fail(world, world->count, what, why);
    }
}

char *bp_fuzz_text(const uint8_t *data, size_t size)
{
    if (memchr(data, '\0', size))
        return NULL;
    char *text = malloc(size + 1);
    if (!text)
        return NULL;
    if (size)
        memcpy(text, data, size);
    text[size] = '\0';
    return text;
}
