#include "runner.h"

#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "recorder.h"
#include "session.h"
#include "steptime.h"

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

const volatile int *bp_headless_catch_signals(void)
{
    struct sigaction action = {0};
    action.sa_handler = request_stop;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    return &stop_requested;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* What --stats adds up over the run. */
typedef struct run_stats {
    bp_steptime steps; /* wall time of each physics step */
    double awake_sum;  /* balls awake after each step, summed */
    double start_s;    /* when stepping began */
} run_stats;

static size_t count_awake(const bp_world *world)
{
    size_t n = 0;
    for (size_t i = bp_world_next_awake(world, 0); i < world->count;
         i = bp_world_next_awake(world, i + 1))
        n++;
    return n;
}

/* The --stats line: steps, wall time of the whole loop (inputs and dump
 * included) and the rate it gives, then per-step times in ms, then the mean
 * number of balls awake after a step. */
static void print_stats(const run_stats *rs, double wall_s)
{
    const bp_steptime *st = &rs->steps;
    double n = (double)st->count;
    printf("stats steps=%llu wall_s=%.6g steps_per_s=%.6g step_ms_p50=%.6g step_ms_p99=%.6g "
           "step_ms_max=%.6g step_ms_mean=%.6g awake_mean=%.6g\n",
           (unsigned long long)st->count, wall_s, wall_s > 0.0 ? n / wall_s : 0.0,
           1e3 * bp_steptime_quantile(st, 0.5), 1e3 * bp_steptime_quantile(st, 0.99),
           1e3 * st->max_s, n > 0.0 ? 1e3 * st->total_s / n : 0.0,
           n > 0.0 ? rs->awake_sum / n : 0.0);
    fflush(stdout);
}

/* The replay read and checked against the world and the options (each
 * scene input built with them: a bad one is refused here, not when it is
 * reached with frames already written), and whether the options can
 * record the world. 0, or the exit status with its message printed. */
static int load_replay(bp_replay *replay, const bp_world *world, const bp_options *opts)
{
    char err[512];
    int status = 0;
    if (opts->replay_path) {
        status = bp_replay_load(replay, opts->replay_path, err, sizeof err);
        if (status == 0)
            status = bp_replay_check_arena(replay, &world->params, opts->replay_path, err,
                                           sizeof err);
        if (status == 0)
            status = bp_recorder_check_scenes(opts, replay, err, sizeof err);
    }
    if (status == 0 && !bp_recorder_check(opts, world, err, sizeof err))
        status = 2;
    if (status) {
        bp_replay_free(replay);
        fprintf(stderr, "ballpit: %s\n", err);
    }
    return status;
}

/* The session on world, keeping its history in *history when a replayed
 * rewind or --history needs it, and recording its inputs to *writer with
 * --record-input. false (exit 1) with the message printed and the history
 * freed on failure. */
static bool start_session(bp_session *session, bp_history *history, bp_input_writer *writer,
                          bp_world *world, const bp_options *opts, const bp_replay *replay)
{
    bp_session_init(session, world, opts);
    /* Headless, only a replayed rewind reads the history: without one (and
     * unless --history asks for it) no snapshots are taken, since at
     * 100,000 balls each one writes 10 MB of fresh memory (25 ms here). */
    bool rewinds = opts->replay_path && bp_replay_rewinds(replay);
    if (opts->history > 0.0 && (opts->history_set || rewinds)) {
        bp_history_init(history, opts->history, world->params.hz, BP_HISTORY_MAX_BYTES);
        if (!bp_session_keep_history(session, history)) {
            fprintf(stderr, "ballpit: history: out of memory\n");
            bp_history_free(history);
            return false;
        }
    }
    if (opts->record_path) {
        char err[512];
        if (!bp_input_writer_open(writer, opts->record_path, err, sizeof err)) {
            fprintf(stderr, "ballpit: %s\n", err);
            bp_history_free(history);
            return false;
        }
        session->writer = writer;
    }
    return true;
}

int bp_run_headless(bp_world *world, const bp_options *opts)
{
    char err[512];
    bp_replay replay = {0};
    int loaded = load_replay(&replay, world, opts);
    if (loaded)
        return loaded;
    /* A replay runs as long as the recorded session did, unless told. */
    uint64_t steps = opts->steps_set ? opts->steps : opts->replay_path ? replay.end_step : 600;
    bp_session session;
    bp_history history = {0};
    bp_input_writer writer = {0};
    if (!start_session(&session, &history, &writer, world, opts, &replay)) {
        bp_replay_free(&replay);
        return 1;
    }
    world->stop = bp_headless_catch_signals();

    bp_recorder rec;
    if (!bp_recorder_open(&rec, opts, world, err, sizeof err)) {
        fprintf(stderr, "ballpit: %s\n", err);
        bp_replay_free(&replay);
        bp_history_free(&history);
        bp_input_writer_close(&writer, 0, err, sizeof err);
        return 1;
    }
    bp_recorder_follow(&rec, &session.inspect);
    bool ok = bp_recorder_step(&rec, world, 0, err, sizeof err);
    run_stats rs = {.start_s = now_s()};
    bp_steptime_reset(&rs.steps);
    /* A replay that was not told --steps runs until its inputs are all fed
     * and it reached the end step: a rewind may have gone back from there. */
    bool by_replay = opts->replay_path && !opts->steps_set;
    int failed = 0; /* a replayed input's status: 2 for a scene that does not build */
    while (ok && !stop_requested &&
           (session.tick < steps || (by_replay && replay.next < replay.count))) {
        if (opts->replay_path && (failed = bp_session_feed(&session, &replay, err, sizeof err))) {
            ok = false;
            break;
        }
        if (session.tick >= steps && !(by_replay && replay.next < replay.count))
            break;
        double t0 = opts->stats ? now_s() : 0.0;
        bp_step_status stepped = bp_session_step(&session, err, sizeof err);
        if (stepped == BP_STEP_STOPPED)
            break; /* the world is mid-step: the dump keeps the last whole frame */
        if (opts->stats && stepped == BP_STEP_DONE) {
            bp_steptime_add(&rs.steps, now_s() - t0);
            rs.awake_sum += (double)count_awake(world);
        }
        ok = stepped == BP_STEP_DONE && bp_recorder_step(&rec, world, session.tick, err, sizeof err);
    }
    double wall_s = now_s() - rs.start_s;
    world->stop = NULL;
    bp_replay_free(&replay);
    bp_history_free(&history);
    bp_session_free(&session);
    char close_err[512];
    bool closed = bp_recorder_close(&rec, close_err, sizeof close_err);
    char record_err[512];
    bool recorded = bp_input_writer_close(&writer, session.tick, record_err, sizeof record_err);
    if (!recorded)
        fprintf(stderr, "ballpit: %s\n", record_err);
    if (!ok || !closed) {
        fprintf(stderr, "ballpit: %s\n", ok ? close_err : err);
        return failed == 2 && closed ? 2 : 1;
    }
    if (recorded && opts->stats)
        print_stats(&rs, wall_s);
    return recorded ? 0 : 1;
}
