/* A world written out as a scene file and read back, as Ctrl+S and
 * --scene do it, for the tests that load a saved world. */
#ifndef BP_TEST_SCENEIO_H
#define BP_TEST_SCENEIO_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "scene.h"

/* Writes w to a temporary scene file and parses it into scene (to build
 * or change before building); false, with err, when either fails. */
static inline bool scene_round_trip(const bp_world *w, bp_scene *scene, char *err,
                                    size_t err_size)
{
    char path[] = "/tmp/ballpit-test-scene-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(err, err_size, "cannot make a temporary file");
        return false;
    }
    FILE *f = fdopen(fd, "w");
    bool saved = f && bp_scene_save(w, f);
    if (f)
        fclose(f);
    else
        close(fd);
    bool loaded = saved && bp_scene_load(scene, path, err, err_size) == 0;
    if (!saved)
        snprintf(err, err_size, "cannot write the scene file %s", path);
    remove(path);
    return loaded;
}

#endif
