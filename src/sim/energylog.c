#include "energylog.h"

#include <stdlib.h>
#include <string.h>

#include "program.h"

bool bp_energy_log_open(bp_energy_log *log, const char *dir, char *err, size_t err_size)
{
    size_t len = strlen(dir) + sizeof "/energy.csv";
    char *path = malloc(len);
    if (!path) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    snprintf(path, len, "%s/energy.csv", dir);
    if (!bp_rows_open(&log->csv, path, "frame,t,kinetic,rotational,potential,total,px,py\n")) {
        snprintf(err, err_size, "--dump: cannot write %s", path);
        free(path);
        return false;
    }
    free(path);
    return true;
}

bool bp_energy_log_frame(bp_energy_log *log, const bp_world *world, unsigned long long frame,
                         char *err, size_t err_size)
{
    if (!log->csv.out)
        return true;
    bp_energy e = bp_world_get_energy(world);
    /* A failed row is found by the frame's end, which cuts the file back. */
    fprintf(log->csv.out, "%llu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", frame,
            (double)frame / world->params.hz, e.kinetic, e.rotational, e.potential, e.total,
            e.px, e.py);
    if (bp_rows_end_frame(&log->csv))
        return true;
    snprintf(err, err_size, "--dump: cannot write energy.csv");
    return false;
}

bool bp_energy_log_close(bp_energy_log *log, char *err, size_t err_size)
{
    if (bp_rows_close(&log->csv))
        return true;
    snprintf(err, err_size, "--dump: cannot write energy.csv");
    return false;
}
