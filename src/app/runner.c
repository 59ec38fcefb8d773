#include "runner.h"

#include <signal.h>
#include <stdio.h>

#include "recorder.h"

static volatile sig_atomic_t stop_requested;

static void request_stop(int signo)
{
    (void)signo;
    stop_requested = 1;
}

int bp_run_headless(bp_world *world, const bp_options *opts)
{
    char err[512];
    uint64_t steps = opts->steps_set ? opts->steps : 600;
    struct sigaction action = {0};
    action.sa_handler = request_stop;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);

    bp_recorder rec;
    if (!bp_recorder_open(&rec, opts, world, err, sizeof err)) {
        fprintf(stderr, "ballpit: %s\n", err);
        return 1;
    }
    bool ok = bp_recorder_step(&rec, world, 0, err, sizeof err);
    for (uint64_t s = 1; ok && s <= steps && !stop_requested; s++) {
        if (!bp_world_step(world)) {
            snprintf(err, sizeof err, "out of memory at step %llu", (unsigned long long)s);
            ok = false;
            break;
        }
        ok = bp_recorder_step(&rec, world, s, err, sizeof err);
    }
    char close_err[512];
    bool closed = bp_recorder_close(&rec, close_err, sizeof close_err);
    if (!ok || !closed) {
        fprintf(stderr, "ballpit: %s\n", ok ? close_err : err);
        return 1;
    }
    return 0;
}
