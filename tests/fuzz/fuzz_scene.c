/* Fuzz target: the scene parser, then a few steps of the world it builds. */
#include <math.h>
#include <stdlib.h>

#include "fuzz_check.h"
#include "scene.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = bp_fuzz_text(data, size);
    if (!text)
        return 0;
    bp_scene scene;
    char err[512];
    int status = bp_scene_parse(&scene, "fuzz.scene", text, err, sizeof err);
    free(text);
    if (status)
        return 0;
    if (scene.ball_count > BP_FUZZ_MAX_BALLS || scene.wall_count > BP_FUZZ_MAX_WALLS) {
        bp_scene_free(&scene);
        return 0;
    }
    bp_world *world = bp_world_new(&scene.params);
    if (world && bp_scene_build(&scene, "fuzz.scene", world, err, sizeof err) == 0) {
        bp_fuzz_check(world, INFINITY, "after building the scene");
        double bound = bp_fuzz_energy_bound(world, bp_fuzz_energy(world));
        for (int k = 0; k < BP_FUZZ_STEPS && bp_world_step(world); k++)
            bp_fuzz_check(world, bound, "after a step of the scene");
    }
    bp_world_destroy(world);
    bp_scene_free(&scene);
    return 0;
}
