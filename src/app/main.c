/* ballpit: parse the command line, build the world, hand it to the window,
 * the headless runner or the benchmark. */
#include <stdio.h>

#include "app.h"
#include "bench.h"
#include "options.h"
#include "raycastreport.h"
#include "runner.h"
#include "sceneout.h"
#include "setup.h"

#ifndef BALLPIT_VERSION
#define BALLPIT_VERSION "unknown"
#endif

int main(int argc, char **argv)
{
    char err[1024];
    bp_options opts = bp_options_default();
    if (bp_options_parse(&opts, argc, argv, err, sizeof err) != 0) {
        fprintf(stderr, "ballpit: %s\n", err);
        return 2;
    }
    if (opts.help) {
        fputs(bp_options_usage(), stdout);
        return 0;
    }
    if (opts.version) {
        printf("ballpit %s\n", BALLPIT_VERSION);
        return 0;
    }
    if (opts.bench_set || opts.bench_crowd_set) {
        bp_bench_result result;
        uint64_t n = opts.bench_set ? opts.bench : opts.bench_crowd;
        if (!bp_bench_run(n, opts.bench_aspect, opts.bench_crowd_set, opts.params.solver,
                          opts.threads, opts.seed, &result)) {
            fprintf(stderr, "ballpit: %s: out of memory\n",
                    opts.bench_set ? "--bench" : "--bench-crowd");
            return 1;
        }
        bp_bench_print(&result, stdout);
        return 0;
    }
    int status = 0;
    /* The scene to save is made first: a path that cannot be written is
     * bad input before any step, --settle's included. */
    bp_scene_out save = {0};
    if (opts.save_scene_path &&
        (status = bp_scene_out_open(&save, opts.save_scene_path, err, sizeof err)) != 0) {
        fprintf(stderr, "ballpit: %s\n", err);
        return status;
    }
    /* Headless, a signal during a long --settle stops the run as it would
     * stop the steps after it. */
    const volatile int *stop = opts.headless ? bp_headless_catch_signals() : NULL;
    bp_world *world = bp_setup_world_until(&opts, stop, &status, err, sizeof err);
    if (!world) {
        bp_scene_out_drop(&save);
        fprintf(stderr, "ballpit: %s\n", err);
        return status;
    }
    if (opts.raycast_set) {
        const char *why = bp_raycast_check(world, opts.ray);
        if (why) {
            fprintf(stderr, "ballpit: --raycast: %s (%gx%g)\n", why, world->params.width,
                    world->params.height);
            bp_world_destroy(world);
            return 2;
        }
        /* The ray meets the world as it starts; nothing is stepped. */
        if (opts.steps_set)
            fprintf(stderr, "ballpit: note: --steps does not apply to --raycast (the ray is "
                            "cast into the starting state)\n");
        status = bp_raycast_report(world, opts.ray, stdout);
        if (status)
            fprintf(stderr, "ballpit: --raycast: out of memory or cannot write\n");
        bp_world_destroy(world);
        return status;
    }
    if (opts.headless)
        status = bp_run_headless(world, &opts);
    else
        status = bp_app_run(world, &opts);
    /* The world as the run left it (the window's: the scene last loaded). */
    if (status == 0 && !bp_scene_out_finish(&save, world, err, sizeof err)) {
        fprintf(stderr, "ballpit: %s\n", err);
        status = 1;
    }
    bp_scene_out_drop(&save);
    bp_world_destroy(world);
    return status;
}
