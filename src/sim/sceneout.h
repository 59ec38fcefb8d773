/* --save-scene: the world written as a scene file (as Ctrl+S writes it) at
 * the end of a run. The file is made when the run starts, as FILE.part
 * beside FILE, so a path that cannot be written is bad input before any
 * step; it takes its name only once written whole, so no reader meets half
 * a scene, and a run that fails leaves no file behind. */
#ifndef BP_SCENEOUT_H
#define BP_SCENEOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ballpit/ballpit.h"

typedef struct bp_scene_out {
    char *path, *part; /* FILE, and FILE.part while the run goes on */
    FILE *out;         /* the open partial file; NULL: none */
} bp_scene_out;

/* Makes path's partial file. 0, 2 when it cannot be made (err: "FILE:
 * cannot write: why"), 1 when memory runs out. */
int bp_scene_out_open(bp_scene_out *s, const char *path, char *err, size_t err_size);
/* Writes world into the partial file and gives it its name. false (err
 * says why) when a write fails: the partial file is then removed. */
bool bp_scene_out_finish(bp_scene_out *s, const bp_world *world, char *err, size_t err_size);
/* Removes the partial file (a run that failed). */
void bp_scene_out_drop(bp_scene_out *s);

#endif
