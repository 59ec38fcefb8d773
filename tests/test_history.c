/* Snapshots and rewinds: a restored world equals the saved one bit for bit,
 * stepping on from a restore gives the bits the first run gave (with one
 * thread or two), a session's rewind lands exactly on the state it had at
 * that step, inputs included, and the history keeps to its budget. */
#include <string.h>

#include "history.h"
#include "session.h"
#include "setup.h"
#include "tap.h"

/* A pile big enough to be reordered by the step (2,048 balls on), with a
 * wall across it. */
static bp_world *make_world(int threads)
{
    bp_options opts = bp_options_default();
    opts.balls = 2500;
    opts.radius_min = opts.radius_max = 5.0;
    opts.threads = threads;
    int status = 0;
    char err[256];
    bp_world *w = bp_setup_world(&opts, &status, err, sizeof err);
    if (!w) {
        printf("# setup: %s\n", err);
        exit(1);
    }
    bp_world_insert_wall(w, (bp_wall){100, 500, 700, 650, 3});
    return w;
}

static void step_n(bp_world *w, int n)
{
    for (int k = 0; k < n; k++)
        if (!bp_world_step(w))
            exit(1);
}

/* Whether two saved states are the same, bit for bit. */
static bool same_state(const bp_world_state *a, const bp_world_state *b)
{
    return a->size == b->size && a->count == b->count && a->wall_count == b->wall_count &&
           a->next_id == b->next_id && a->steps == b->steps &&
           memcmp(&a->params, &b->params, sizeof a->params) == 0 &&
           memcmp(&a->r_min, &b->r_min, sizeof a->r_min) == 0 &&
           memcmp(&a->r_max, &b->r_max, sizeof a->r_max) == 0 &&
           memcmp(a->bytes, b->bytes, a->size) == 0;
}

static void restore_gives_back_the_saved_bits(void)
{
    bp_world *w = make_world(1);
    step_n(w, 37);
    bp_world_state saved = {0}, again = {0};
    TAP_OK(bp_world_save(w, &saved), "save");
    uint64_t stamp = w->layout_stamp;
    /* Change everything a state holds: balls, ids, walls, parameters. */
    step_n(w, 50);
    bp_world_delete_ball(w, 5);
    bp_world_insert_ball(w, 300, 100, 1, 2, 30, 0);
    bp_world_insert_wall(w, (bp_wall){0, 0, 10, 10, 1});
    w->params.gravity = -5.0;
    TAP_OK(bp_world_restore(w, &saved), "restore");
    TAP_OK(bp_world_save(w, &again) && same_state(&saved, &again),
           "the restored world saves to the same bytes");
    TAP_OK(w->layout_stamp > stamp, "the restore gives a new layout stamp");
    bool ids = true;
    for (size_t i = 0; i < w->count; i++)
        ids = ids && bp_world_index_of(w, w->id[i]) == (int64_t)i;
    TAP_OK(ids && bp_world_index_of(w, w->next_id - 1u) >= 0 &&
               bp_world_index_of(w, saved.next_id) < 0,
           "ids lead to their indices again, and the newer ball is gone");
    bp_world_state_free(&saved);
    bp_world_state_free(&again);
    bp_world_destroy(w);
}

/* Steps to `at`, saves, steps on to `to`; then restores and steps on to
 * `to` again: the two ends must match. */
static void stepping_on_from_a_restore_repeats_the_run(int threads)
{
    bp_world *w = make_world(threads);
    step_n(w, 43); /* not a multiple of the reorder period */
    bp_world_state at = {0}, first = {0}, second = {0};
    bp_world_save(w, &at);
    step_n(w, 90);
    bp_world_save(w, &first);
    bp_world_restore(w, &at);
    step_n(w, 90);
    bp_world_save(w, &second);
    char what[96];
    snprintf(what, sizeof what, "%d thread(s): 90 steps on from a restore repeat the run", threads);
    TAP_OK(same_state(&first, &second), what);
    /* And from another world that never ran those steps. */
    bp_world *other = make_world(3 - threads);
    bp_world_restore(other, &at);
    step_n(other, 90);
    bp_world_save(other, &second);
    snprintf(what, sizeof what, "a fresh world with %d thread(s) restored there does the same",
             3 - threads);
    TAP_OK(same_state(&first, &second), what);
    bp_world_state_free(&at);
    bp_world_state_free(&first);
    bp_world_state_free(&second);
    bp_world_destroy(w);
    bp_world_destroy(other);
}

static size_t asleep(const bp_world *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->count; i++)
        n += (w->flags[i] & BP_BALL_ASLEEP) != 0;
    return n;
}

/* The soft solver carries impulses from step to step, through sleep: a
 * restore must give those back too, or the steps after it start from
 * nothing and drift (a pile asleep with a ball falling onto it, and a big
 * ball dropped on it after the save, which wake parts of it, so that the
 * sleepers' impulses matter). */
static void soft_steps_on_from_a_restore_as_before(void)
{
    bp_options opts = bp_options_default();
    opts.balls = 300;
    opts.params.solver = BP_SOLVER_SOFT;
    opts.params_set |= BP_SET_SOLVER;
    int status = 0;
    char err[256];
    bp_world *w = bp_setup_world(&opts, &status, err, sizeof err);
    bp_world *other = bp_setup_world(&opts, &status, err, sizeof err);
    if (!w || !other)
        exit(1);
    /* Saved with the pile asleep and a ball still falling onto it. */
    for (int s = 0; s < 1200 && asleep(w) < w->count; s++)
        step_n(w, 1);
    bp_world_insert_ball(w, 120, 40, 0, 0, 10, 0);
    TAP_OK(asleep(w) > 0 && asleep(w) < w->count, "a soft pile partly asleep");
    bp_world_state at = {0}, first = {0}, second = {0};
    bp_world_save(w, &at);
    bp_world_insert_ball(w, 500, 300, 0, 600, 40, 0);
    step_n(w, 240);
    bp_world_save(w, &first);
    bp_world_restore(w, &at);
    bp_world_insert_ball(w, 500, 300, 0, 600, 40, 0);
    step_n(w, 240);
    bp_world_save(w, &second);
    TAP_OK(same_state(&first, &second), "soft: 240 steps on from a restore repeat the run");
    bp_world_restore(other, &at);
    bp_world_insert_ball(other, 500, 300, 0, 600, 40, 0);
    step_n(other, 240);
    bp_world_save(other, &second);
    TAP_OK(same_state(&first, &second),
           "and a fresh world whose solver never ran, restored there, does the same");
    bp_world_state_free(&at);
    bp_world_state_free(&first);
    bp_world_state_free(&second);
    bp_world_destroy(w);
    bp_world_destroy(other);
}

/* The caches the step keeps (sorted cells, start positions of sleepers)
 * must not outlive a restore: a settled pile is saved, stirred up by
 * gravity turned round, and restored; stepping on must then give what a
 * world that never saw the stir gives. */
static void a_restore_forgets_the_caches(void)
{
    bp_world *w = make_world(1);
    step_n(w, 700);
    bp_world_state settled = {0}, a = {0}, b = {0};
    bp_world_save(w, &settled);
    char what[96];
    snprintf(what, sizeof what, "most of the pile sleeps (%zu of %zu)", asleep(w), w->count);
    TAP_OK(asleep(w) > w->count / 2, what);
    w->params.gravity = -w->params.gravity;
    bp_world_wake_all(w);
    step_n(w, 30);
    bp_world_restore(w, &settled);
    step_n(w, 30);
    bp_world_save(w, &a);
    bp_world *fresh = make_world(1);
    bp_world_restore(fresh, &settled);
    step_n(fresh, 30);
    bp_world_save(fresh, &b);
    TAP_OK(same_state(&a, &b), "30 steps on from a restore after a stir: as in a fresh world");
    bp_world_state_free(&settled);
    bp_world_state_free(&a);
    bp_world_state_free(&b);
    bp_world_destroy(w);
    bp_world_destroy(fresh);
}

static int apply(bp_session *s, bp_input_kind kind, double a, double b)
{
    char err[256];
    bp_input in = {.kind = kind, .v = {a, b}};
    int status = bp_session_apply(s, &in, err, sizeof err);
    if (status)
        printf("# %s\n", err);
    return status;
}

static void session_steps(bp_session *s, int n)
{
    char err[256];
    for (int k = 0; k < n; k++)
        if (bp_session_step(s, err, sizeof err) != BP_STEP_DONE)
            exit(1);
}

/* A session throws a ball, runs on, and goes back to a step between two
 * snapshots, with a throw between the snapshot and that step: it must land
 * on the state it had then, and two sessions doing the same agree. */
static void a_rewind_lands_on_the_state_of_that_step(void)
{
    bp_options opts = bp_options_default();
    bp_world *w = make_world(1);
    bp_session s;
    bp_session_init(&s, w, &opts);
    bp_history h;
    bp_history_init(&h, 30.0, w->params.hz, BP_HISTORY_MAX_BYTES);
    TAP_OK(bp_session_keep_history(&s, &h), "history on");
    session_steps(&s, 61);
    int64_t id = (int64_t)w->id[w->count / 2];
    double gx = w->x[w->count / 2], gy = w->y[w->count / 2];
    apply(&s, BP_INPUT_GRAB, gx, gy);
    TAP_OK(s.held == id, "a ball is held");
    session_steps(&s, 5);
    apply(&s, BP_INPUT_MOVE, gx + 40, gy - 60);
    session_steps(&s, 3);
    apply(&s, BP_INPUT_RELEASE, 300, -800);
    session_steps(&s, 8); /* tick 77, between the snapshots at 60 and 90 */
    bp_world_state then = {0}, now = {0};
    bp_world_save(w, &then);
    session_steps(&s, 100);
    apply(&s, BP_INPUT_SET, -300, 0); /* gravity up, then forgotten */
    session_steps(&s, 20);
    TAP_OK(apply(&s, BP_INPUT_REWIND, 77, 0) == 0 && s.tick == 77, "rewound to step 77");
    bp_world_save(w, &now);
    TAP_OK(same_state(&then, &now), "the world is what it was at step 77, bit for bit");
    TAP_OK(s.held == -1, "the ball thrown before is not held");
    /* On from there, twice: the same bits. */
    session_steps(&s, 40);
    bp_world_state a = {0}, b = {0};
    bp_world_save(w, &a);
    TAP_OK(apply(&s, BP_INPUT_REWIND, 77, 0) == 0, "rewound to step 77 again");
    session_steps(&s, 40);
    bp_world_save(w, &b);
    TAP_OK(same_state(&a, &b), "40 steps on from the rewind repeat");
    /* Before the grab, past a snapshot: nothing held, and the throw gone. */
    TAP_OK(apply(&s, BP_INPUT_REWIND, 61, 0) == 0 && s.held == -1 && s.tick == 61,
           "back before the grab");
    char err[256];
    bp_input far = {.kind = BP_INPUT_REWIND, .v = {100}};
    TAP_OK(bp_session_apply(&s, &far, err, sizeof err) == 1,
           "a rewind forward, past the present, is refused");
    bp_input before = {.kind = BP_INPUT_REWIND, .v = {-5}};
    TAP_OK(bp_session_apply(&s, &before, err, sizeof err) == 1 && s.tick == 61,
           "so is one to a negative step, and the session stays where it was");
    bp_world_state_free(&then);
    bp_world_state_free(&now);
    bp_world_state_free(&a);
    bp_world_state_free(&b);
    bp_history_free(&h);
    bp_world_destroy(w);
}

static void the_history_keeps_to_its_budget(void)
{
    bp_world *w = make_world(1);
    bp_history h;
    bp_history_init(&h, 2.0, 120.0, BP_HISTORY_MAX_BYTES);
    TAP_OK(h.every == 30 && h.keep_steps == 240, "a snapshot every 30 steps, 240 steps kept");
    bp_history_session part = {.held = -1, .inspect = -1};
    for (uint64_t t = 0; t <= 1000; t++)
        bp_history_take(&h, t, w, &part);
    TAP_OK(bp_history_oldest(&h) == 750 && h.count == 9,
           "the last 2 s and the snapshot before them are kept");
    bp_world_state one = {0};
    bp_world_save(w, &one);
    TAP_OK(h.bytes == 9 * one.size, "bytes counts the snapshots");
    const bp_snapshot *at = bp_history_at(&h, 899);
    TAP_OK(at && at->tick == 870, "the snapshot for step 899 is the one at 870");
    bp_history_cut(&h, 870);
    TAP_OK(h.count == 5 && bp_history_at(&h, 1000)->tick == 870,
           "a cut drops the snapshots after it");
    bp_history_free(&h);
    bp_history_init(&h, 30.0, 120.0, 3 * one.size);
    for (uint64_t t = 0; t <= 300; t += 30)
        bp_history_take(&h, t, w, &part);
    TAP_OK(h.count == 3 && bp_history_oldest(&h) == 240, "the byte cap drops the oldest");
    bp_history_free(&h);
    bp_world_state_free(&one);
    bp_world_destroy(w);
}

/* The next snapshot's buffer made ready a slice at a time: the snapshot
 * then lands in it (no allocation in the step), with the same bits as a
 * save of its own; nothing is made ready where the oldest's buffer will
 * be taken, or beyond the byte budget. */
static void the_next_snapshot_is_made_ready_ahead(void)
{
    bp_world *w = make_world(1);
    bp_world_state one = {0};
    bp_world_save(w, &one);
    bp_history h;
    bp_history_init(&h, 2.0, 120.0, BP_HISTORY_MAX_BYTES);
    bp_history_session part = {.held = -1, .inspect = -1};
    bp_history_take(&h, 0, w, &part);
    size_t slice = one.size / 3 + 1;
    bp_history_prepare(&h, w, slice);
    TAP_OK(h.ready == slice, "a call writes one slice of the buffer");
    for (int k = 0; k < 4; k++)
        bp_history_prepare(&h, w, slice);
    const void *ready = h.ring[(h.start + h.count) % h.capacity].world.bytes;
    TAP_OK(h.ready == one.size && h.bytes == one.size,
           "then all of it, and no more; it counts as no snapshot");
    step_n(w, 30);
    bp_world_state now = {0};
    bp_world_save(w, &now);
    bp_history_take(&h, 30, w, &part);
    const bp_snapshot *at = bp_history_at(&h, 30);
    TAP_OK(at && at->world.bytes == ready && same_state(&at->world, &now),
           "the snapshot lands in the buffer made ready, with the bits of a save");
    for (uint64_t t = 60; t <= 270; t += 30)
        bp_history_take(&h, t, w, &part);
    size_t count = h.count;
    bp_history_prepare(&h, w, one.size);
    TAP_OK(count == 9 && h.ready == 0,
           "a full window makes nothing ready: the oldest's buffer comes next");
    bp_history_free(&h);
    bp_history_init(&h, 30.0, 120.0, 2 * one.size);
    bp_history_take(&h, 0, w, &part);
    bp_history_take(&h, 30, w, &part);
    bp_history_prepare(&h, w, one.size);
    TAP_OK(h.ready == 0, "nor a full byte budget");
    bp_history_free(&h);
    bp_world_state_free(&one);
    bp_world_state_free(&now);
    bp_world_destroy(w);
}

static void rewinds_in_recordings(void)
{
    const char *good = "ballpit-input 1\n5 grab 1 2\n90 rewind 10\n20 release 3 4\nend 50\n";
    bp_replay rp;
    char err[256] = "";
    TAP_OK(bp_replay_parse(&rp, "r", good, strlen(good), err, sizeof err) == 0 && rp.count == 3 &&
               rp.inputs[1].kind == BP_INPUT_REWIND && rp.inputs[1].v[0] == 10.0,
           "after a rewind, steps count again from its target");
    TAP_OK(bp_replay_rewinds(&rp), "a recording with a rewind says so (its replay keeps history)");
    bp_replay_free(&rp);
    const char *plain = "ballpit-input 1\n5 grab 1 2\n20 release 3 4\nend 50\n";
    TAP_OK(bp_replay_parse(&rp, "r", plain, strlen(plain), err, sizeof err) == 0 &&
               !bp_replay_rewinds(&rp),
           "one without says so too (headless, its replay takes no snapshots)");
    bp_replay_free(&rp);
    const char *bad[] = {
        "ballpit-input 1\n90 rewind 10\n9 release 3 4\nend 50\n",
        "ballpit-input 1\n90 rewind 91\nend 95\n",
        "ballpit-input 1\n90 rewind 1.5\nend 95\n",
        "ballpit-input 1\n90 rewind\nend 95\n",
    };
    const char *why[] = {"a step before the rewind's target", "a rewind forward",
                         "a fractional step", "no step"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char what[96];
        snprintf(what, sizeof what, "refused: %s", why[k]);
        TAP_OK(bp_replay_parse(&rp, "r", bad[k], strlen(bad[k]), err, sizeof err) == 2, what);
    }
}

/* Ctrl+O of a 240 Hz scene over a 120 Hz world: the history starts again,
 * reaching --history seconds back at the new rate. It was rebuilt from the
 * old step count over the new rate: half the seconds here, and a tenth
 * (3 s of 30) for a 1200 Hz scene. */
static void a_loaded_scene_keeps_history_seconds(void)
{
    bp_options opts = bp_options_default();
    opts.balls = 10;
    int status = 0;
    char err[256];
    bp_world *w = bp_setup_world(&opts, &status, err, sizeof err);
    bp_session s;
    bp_session_init(&s, w, &opts);
    bp_history h;
    bp_history_init(&h, opts.history, w->params.hz, BP_HISTORY_MAX_BYTES);
    bool kept = bp_session_keep_history(&s, &h);
    static volatile int stop_flag;
    w->stop = &stop_flag;
    for (int k = 0; k < 10; k++)
        bp_session_step(&s, err, sizeof err);
    bp_options scene = bp_setup_options_for_scene(&opts, BP_SCENES_DIR "/billiard.scene");
    bp_world *fresh = bp_setup_world(&scene, &status, err, sizeof err);
    kept = kept && fresh && bp_session_load(&s, fresh, &scene);
    TAP_OK(kept && w->params.hz == 240.0 && h.keep_steps == 30 * 240,
           "a 240 Hz scene loaded over a 120 Hz world: the history reaches 30 s back, "
           "7200 steps");
    if (kept && h.keep_steps != 30 * 240)
        printf("#   keep_steps %llu\n", (unsigned long long)h.keep_steps);
    TAP_OK(kept && bp_history_oldest(&h) == s.tick,
           "and starts at the step of the load: the past of the other scene is gone");
    /* The stop request is the run's: lost, Ctrl+C went unheard inside a step. */
    TAP_OK(w->stop == &stop_flag, "the loaded world still hears the run's stop request");
    w->stop = NULL;
    bp_world_destroy(fresh);
    bp_history_free(&h);
    bp_world_destroy(w);
}

int main(void)
{
    restore_gives_back_the_saved_bits();
    stepping_on_from_a_restore_repeats_the_run(1);
    stepping_on_from_a_restore_repeats_the_run(2);
    a_restore_forgets_the_caches();
    soft_steps_on_from_a_restore_as_before();
    a_rewind_lands_on_the_state_of_that_step();
    the_history_keeps_to_its_budget();
    the_next_snapshot_is_made_ready_ahead();
    rewinds_in_recordings();
    a_loaded_scene_keeps_history_seconds();
    return tap_done();
}
