/* The headless runner: steps the world as fast as it can with no display,
 * recording as asked, and stops cleanly on SIGINT/SIGTERM. */
#ifndef BP_RUNNER_H
#define BP_RUNNER_H

#include "options.h"
#include "ballpit/ballpit.h"

/* From now on SIGINT and SIGTERM ask the headless run to stop: the flag
 * they set (for world->stop and the world's setup). */
const volatile int *bp_headless_catch_signals(void);
/* Returns the exit status: 0, or 1 after a runtime failure (message printed). */
int bp_run_headless(bp_world *world, const bp_options *opts);

#endif
