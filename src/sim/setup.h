/* From options to a ready world: scene file, command-line overrides, then
 * the scene's balls or random ones. Shared by the window, the headless
 * runner and the tests. */
#ifndef BP_SETUP_H
#define BP_SETUP_H

#include <stddef.h>

#include "options.h"
#include "ballpit/ballpit.h"

/* Returns the world, or NULL with *status 2 (bad input) or 1 (out of memory)
 * and a one-line message in err. */
bp_world *bp_setup_world(const bp_options *opts, int *status, char *err, size_t err_size);
/* The same, and --settle's steps end early, with no error, once *stop is
 * not 0 (a signal: see the headless runner). */
bp_world *bp_setup_world_until(const bp_options *opts, const volatile int *stop, int *status,
                               char *err, size_t err_size);

/* The options for a scene loaded over a running world (Ctrl+O): given's,
 * with the scene's own settings instead of those given for the first world. */
bp_options bp_setup_options_for_scene(const bp_options *given, const char *scene_path);

#endif
