#include "runner.h"

#include <signal.h>
#include <stdio.h>

#include "recorder.h"
#include "session.h"

/* Set by SIGINT/SIGTERM; the world's step polls it too (world->stop), so
 * even a step that would take minutes ends within a fraction of a second. */
static volatile sig_atomic_t stop_requested;
_Static_assert(_Generic((sig_atomic_t)0, int: 1, default: 0),
               "world->stop reads the signal flag as an int");

static void request_stop(int signo)
{
    (void)signo;
    stop_requested = 1;
}

int bp_run_headless(bp_world *world, const bp_options *opts)
{
    char err[512];
    bp_replay replay = {0};
    if (opts->replay_path) {
        int status = bp_replay_load(&replay, opts->replay_path, err, sizeof err);
        if (status == 0)
            status = bp_replay_check_arena(&replay, &world->params, opts->replay_path, err,
                                           sizeof err);
        if (status) {
            bp_replay_free(&replay);
            fprintf(stderr, "ballpit: %s\n", err);
            return status;
        }
    }
    /* A replay runs as long as the recorded session did, unless told. */
    uint64_t steps = opts->steps_set ? opts->steps : opts->replay_path ? replay.end_step : 600;
    bp_session session;
    bp_session_init(&session, world, opts);
    bp_input_writer writer = {0};
    if (opts->record_path) {
        if (!bp_input_writer_open(&writer, opts->record_path, err, sizeof err)) {
            fprintf(stderr, "ballpit: %s\n", err);
            bp_replay_free(&replay);
            return 1;
        }
        session.writer = &writer;
    }
    struct sigaction action = {0};
    action.sa_handler = request_stop;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    world->stop = &stop_requested;

    bp_recorder rec;
    if (!bp_recorder_open(&rec, opts, world, err, sizeof err)) {
        fprintf(stderr, "ballpit: %s\n", err);
        bp_replay_free(&replay);
        bp_input_writer_close(&writer, 0, err, sizeof err);
        return 1;
    }
    bp_recorder_follow(&rec, &session.inspect);
    bool ok = bp_recorder_step(&rec, world, 0, err, sizeof err);
    while (ok && session.tick < steps && !stop_requested) {
        if (opts->replay_path && bp_session_feed(&session, &replay, err, sizeof err) != 0) {
            ok = false;
            break;
        }
        bp_step_status stepped = bp_session_step(&session, err, sizeof err);
        if (stepped == BP_STEP_STOPPED)
            break; /* the world is mid-step: the dump keeps the last whole frame */
        ok = stepped == BP_STEP_DONE && bp_recorder_step(&rec, world, session.tick, err, sizeof err);
    }
    world->stop = NULL;
    bp_replay_free(&replay);
    char close_err[512];
    bool closed = bp_recorder_close(&rec, close_err, sizeof close_err);
    char record_err[512];
    bool recorded = bp_input_writer_close(&writer, session.tick, record_err, sizeof record_err);
    if (!recorded)
        fprintf(stderr, "ballpit: %s\n", record_err);
    if (!ok || !closed) {
        fprintf(stderr, "ballpit: %s\n", ok ? close_err : err);
        return 1;
    }
    return recorded ? 0 : 1;
}
