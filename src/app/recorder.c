#include "recorder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"

bool bp_recorder_check(const bp_options *opts, const bp_world *world, char *err,
                       size_t err_size)
{
    /* A 100000x50000 arena would be a 20 GB image per frame: refuse before
     * anything is written rather than grind the machine into swap. */
    if (opts->dump_dir && opts->png &&
        (world->params.width > BP_PNG_MAX_SIDE || world->params.height > BP_PNG_MAX_SIDE)) {
        snprintf(err, err_size,
                 "--png: a %gx%g arena is too large to render (at most %d px a side)",
                 world->params.width, world->params.height, BP_PNG_MAX_SIDE);
        return false;
    }
    return true;
}

int bp_recorder_check_scenes(const bp_options *opts, const bp_replay *rp, char *err,
                             size_t err_size)
{
    double max_side = opts->dump_dir && opts->png ? BP_PNG_MAX_SIDE : 0.0;
    return bp_session_check_scenes(rp, opts, max_side, err, err_size);
}

bool bp_recorder_open(bp_recorder *rec, const bp_options *opts, const bp_world *world,
                      char *err, size_t err_size)
{
    *rec = (bp_recorder){.every = opts->dump_every};
    if (!opts->dump_dir)
        return true;
    if (!bp_recorder_check(opts, world, err, err_size))
        return false;
    /* The image first: if it cannot be made, nothing has been written. */
    if (opts->png) {
        bp_look look = bp_look_from_options(opts);
        rec->png = bp_png_writer_create(world, &look, err, err_size);
        if (!rec->png)
            return false;
    }
    if (!bp_dump_open(&rec->dump, opts->dump_dir, err, err_size)) {
        bp_png_writer_destroy(rec->png);
        rec->png = NULL;
        return false;
    }
    if (!bp_energy_log_open(&rec->energy, rec->dump.dir, err, err_size)) {
        char ignored[64];
        bp_dump_close(&rec->dump, ignored, sizeof ignored);
        bp_png_writer_destroy(rec->png);
        rec->png = NULL;
        return false;
    }
    rec->active = true;
    return true;
}

bool bp_recorder_follow(bp_recorder *rec, const int64_t *inspect)
{
    rec->inspect = inspect;
    return true;
}

bool bp_recorder_step(bp_recorder *rec, const bp_world *world, uint64_t step, char *err,
                      size_t err_size)
{
    if (!rec->active)
        return true;
    if (rec->png && !bp_png_writer_step(rec->png, world)) {
        snprintf(err, err_size, "--trails: out of memory");
        return false;
    }
    if (step % rec->every != 0)
        return true;
    if (!bp_dump_frame(&rec->dump, world, step, err, err_size) ||
        !bp_energy_log_frame(&rec->energy, world, step, err, err_size))
        return false;
    if (rec->png) {
        if (rec->inspect)
            bp_png_writer_inspect(rec->png, *rec->inspect);
        size_t len = strlen(rec->dump.dir) + 32;
        char *path = malloc(len);
        if (!path) {
            snprintf(err, err_size, "out of memory");
            return false;
        }
        snprintf(path, len, "%s/frame-%06llu.png", rec->dump.dir, (unsigned long long)step);
        bool ok = bp_png_write(rec->png, world, path, err, err_size);
        free(path);
        if (!ok)
            return false;
    }
    return true;
}

bool bp_recorder_close(bp_recorder *rec, char *err, size_t err_size)
{
    if (!rec->active)
        return true;
    bp_png_writer_destroy(rec->png);
    rec->png = NULL;
    rec->active = false;
    bool energy = bp_energy_log_close(&rec->energy, err, err_size);
    return bp_dump_close(&rec->dump, err, err_size) && energy;
}
