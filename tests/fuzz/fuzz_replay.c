/* Fuzz target: the recording parser, then the session replaying it on a
 * small world of random balls, as `--replay FILE --headless` does, with a
 * history kept so that its rewinds go back; inputs of odd length run the
 * soft solver, whose snapshots carry its contacts' memory too. A scene
 * input builds its embedded scene and goes on in it. */
#include <math.h>
#include <stdlib.h>

#include "fuzz_check.h"
#include "history.h"
#include "replay.h"
#include "session.h"
#include "setup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Steps replayed at most: inputs due later are parsed and never fed. */
#define BP_FUZZ_REPLAY_STEPS 48

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bp_replay rp;
    char err[512];
    if (bp_replay_parse(&rp, "fuzz.rec", (const char *)data, size, err, sizeof err))
        return 0;
    bp_options opts = bp_options_default();
    opts.balls = 12;
    if (size % 2)
        opts.params.solver = BP_SOLVER_SOFT;
    int status = 0;
    bp_world *world = bp_setup_world(&opts, &status, err, sizeof err);
    if (!world || bp_replay_check_arena(&rp, &world->params, "fuzz.rec", err, sizeof err)) {
        bp_world_destroy(world);
        bp_replay_free(&rp);
        return 0;
    }
    bp_session s;
    bp_session_init(&s, world, &opts);
    bp_history history;
    bp_history_init(&history, 1.0, world->params.hz, BP_HISTORY_MAX_BYTES);
    if (!bp_session_keep_history(&s, &history)) {
        bp_history_free(&history);
        bp_world_destroy(world);
        bp_replay_free(&rp);
        return 0;
    }
    uint64_t steps = rp.end_step < BP_FUZZ_REPLAY_STEPS ? rp.end_step : BP_FUZZ_REPLAY_STEPS;
    while (s.tick < steps) {
        size_t fed_from = rp.next;
        if (bp_session_feed(&s, &rp, err, sizeof err) != 0)
            break;
        /* A wall drawn over balls (or an end moved onto them) has them
         * inside it, and the step puts them out at its edge, however thick
         * it is: energy the input made, as a throw's. */
        bool walled = false;
        for (size_t k = fed_from; k < rp.next; k++)
            walled |= rp.inputs[k].kind == BP_INPUT_WALL || rp.inputs[k].kind == BP_INPUT_WALL_END ||
                      rp.inputs[k].kind == BP_INPUT_SCENE; /* a new world, its own energy */
        /* Inputs may add energy (a throw, a spawn, gravity turned up), and a
         * held ball is driven by the hand: the bound holds step by step,
         * from what the inputs left, while nothing is held. */
        bp_fuzz_check(s.world, INFINITY, "after the inputs of a step");
        double bound = s.held >= 0 || walled
                           ? INFINITY
                           : bp_fuzz_energy_bound(s.world, bp_fuzz_energy(s.world));
        if (bp_session_step(&s, err, sizeof err) != BP_STEP_DONE)
            break;
        bp_fuzz_check(s.world, bound, "after a replayed step");
    }
    bp_history_free(&history);
    bp_session_free(&s);
    bp_world_destroy(world);
    bp_replay_free(&rp);
    return 0;
}
