/* Where `--scene NAME` finds its file, so that the installed examples load
 * by name (`--scene funnel`) from any directory. */
#ifndef BP_SCENEPATH_H
#define BP_SCENEPATH_H

#include <stdbool.h>
#include <stddef.h>

/* Resolves the --scene argument to a file to open. NAME is used as it is
 * when such a file (or anything else by that name) exists, or when it holds
 * a '/'. Otherwise NAME and then NAME.scene are looked for in, in order:
 *   1. scenes/ under the current directory (a source tree's examples);
 *   2. the installed scene directory relative to the running program
 *      (PREFIX/bin/ballpit -> PREFIX/share/ballpit/scenes), so a moved or
 *      staged (DESTDIR) install finds its own scenes;
 *   3. the scene directory fixed at build time (PREFIX/share/ballpit/scenes).
 * Writes the path to open to out and returns true. Returns false when a bare
 * name is found nowhere (or the path does not fit out), with a one-line
 * message naming it and the places looked in, in err. */
bool bp_scene_find(const char *name, char *out, size_t out_size, char *err, size_t err_size);

/* The example scenes' names (NAME of NAME.scene) found in those
 * directories, each once, in alphabetical order; at most max of them. */
size_t bp_scene_examples(char names[][64], size_t max);

/* The scene directory fixed at build time (step 3 above). */
const char *bp_scene_dir(void);

#endif
