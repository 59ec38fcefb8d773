/* The sandbox window: SDL event loop, fixed-timestep physics, drawing. */
#ifndef BP_APP_H
#define BP_APP_H

#include "options.h"
#include "world.h"

/* Runs until the window closes (or --steps). Returns the exit status. */
int bp_app_run(bp_world *world, const bp_options *opts);

#endif
