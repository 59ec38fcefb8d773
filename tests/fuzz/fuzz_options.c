/* Fuzz target: the command line, one argument per line of the input, then
 * what the run would do with it: a few steps of the world it sets up, or
 * its ray cast. Files are never touched: scene, dump and recording paths
 * are dropped after parsing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "options.h"
#include "raycast.h"
#include "session.h"
#include "setup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BP_FUZZ_MAX_ARGS 64

static void cast(const bp_world *world, const double ray[4])
{
    if (bp_raycast_check(world, ray))
        return;
    bp_ray_hit hits[64];
    double far = 4.0 * (world->params.width + world->params.height);
    size_t n = bp_raycast(world, ray[0], ray[1], ray[2], ray[3], far, hits, 64);
    if (n == SIZE_MAX)
        return;
    for (size_t k = 0; k < n && k < 64; k++) {
        const bp_ray_hit *h = &hits[k];
        double len = sqrt(h->nx * h->nx + h->ny * h->ny);
        if (!(isfinite(h->dist) && h->dist >= 0.0 && isfinite(h->x) && isfinite(h->y) &&
              fabs(len - 1.0) < 1e-9)) {
            fprintf(stderr, "fuzz invariant broken: ray hit %zu dist=%g x=%g y=%g |n|=%.17g\n",
                    k, h->dist, h->x, h->y, len);
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = bp_fuzz_text(data, size);
    if (!text)
        return 0;
    char *argv[BP_FUZZ_MAX_ARGS + 2] = {"ballpit"};
    int argc = 1;
    for (char *line = text; line && argc <= BP_FUZZ_MAX_ARGS;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        argv[argc++] = line;
        line = nl ? nl + 1 : NULL;
    }
    argv[argc] = NULL;
    bp_options opts = bp_options_default();
    char err[512];
    int status = bp_options_parse(&opts, argc, argv, err, sizeof err);
    if (status || opts.help || opts.version || opts.bench_set || opts.balls > BP_FUZZ_MAX_BALLS) {
        free(text);
        return 0;
    }
    opts.scene_path = opts.dump_dir = opts.record_path = opts.replay_path = NULL;
    opts.png = false;
    bp_world *world = bp_setup_world(&opts, &status, err, sizeof err);
    if (world) {
        bp_fuzz_check(world, INFINITY, "after setting up the world");
        if (opts.raycast_set) {
            cast(world, opts.ray);
        } else {
            bp_session s;
            bp_session_init(&s, world, &opts);
            uint64_t steps = opts.steps_set && opts.steps < BP_FUZZ_STEPS ? opts.steps
                                                                          : BP_FUZZ_STEPS;
            double bound = bp_fuzz_energy_bound(world, bp_fuzz_energy(world));
            while (s.tick < steps && bp_session_step(&s, err, sizeof err) == BP_STEP_DONE)
                bp_fuzz_check(world, bound, "after a step");
        }
    }
    bp_world_destroy(world);
    free(text);
    return 0;
}
