#include "energy.h"

#include <stdlib.h>
#include <string.h>

bp_energy bp_energy_measure(const bp_world *world)
{
    bp_energy e = {0};
    double g = world->params.gravity;
    /* Heights as bp_world_energy measures them: from the rest on the floor
     * (or on the ceiling when gravity pulls up). */
    double floor_y = g >= 0.0 ? world->params.height : 0.0;
    for (size_t i = 0; i < world->count; i++) {
        double m = world->mass[i], r = world->r[i];
        double vx = world->vx[i], vy = world->vy[i], w = world->w[i];
        e.kinetic += 0.5 * m * (vx * vx + vy * vy);
        e.rotational += 0.25 * m * r * r * w * w;
        double rest_y = g >= 0.0 ? floor_y - r : floor_y + r;
        e.potential += m * g * (rest_y - world->y[i]);
        e.px += m * vx;
        e.py += m * vy;
    }
    e.total = e.kinetic + e.rotational + e.potential;
    return e;
}

bool bp_energy_log_open(bp_energy_log *log, const char *dir, char *err, size_t err_size)
{
    size_t len = strlen(dir) + sizeof "/energy.csv";
    char *path = malloc(len);
    if (!path) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    snprintf(path, len, "%s/energy.csv", dir);
    log->csv = fopen(path, "w");
    if (!log->csv || fputs("frame,t,kinetic,rotational,potential,total,px,py\n", log->csv) < 0) {
        snprintf(err, err_size, "--dump: cannot write %s", path);
        if (log->csv)
            fclose(log->csv);
        log->csv = NULL;
        free(path);
        return false;
    }
    free(path);
    return true;
}

bool bp_energy_log_frame(bp_energy_log *log, const bp_world *world, unsigned long long frame,
                         char *err, size_t err_size)
{
    if (!log->csv)
        return true;
    bp_energy e = bp_energy_measure(world);
    if (fprintf(log->csv, "%llu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", frame,
                (double)frame / world->params.hz, e.kinetic, e.rotational, e.potential, e.total,
                e.px, e.py) < 0) {
        snprintf(err, err_size, "--dump: cannot write energy.csv");
        return false;
    }
    return true;
}

bool bp_energy_log_close(bp_energy_log *log, char *err, size_t err_size)
{
    if (!log->csv)
        return true;
    bool ok = !ferror(log->csv);
    ok = fclose(log->csv) == 0 && ok;
    log->csv = NULL;
    if (!ok)
        snprintf(err, err_size, "--dump: cannot write energy.csv");
    return ok;
}
