/* The sandbox window: SDL event loop, fixed-timestep physics, drawing. */
#ifndef BP_APP_H
#define BP_APP_H

#include "options.h"
#include "ballpit/ballpit.h"

/* Runs until the window closes (or --steps). Returns the exit status. */
int bp_app_run(bp_world *world, const bp_options *opts);

#ifdef __EMSCRIPTEN__
/* In the browser, bp_app_run never returns: the browser runs one frame per
 * screen refresh. This is the world it runs (NULL before and after). */
const bp_world *bp_app_browser_world(void);
#endif

#endif
