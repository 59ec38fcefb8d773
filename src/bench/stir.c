/* The stirred pile (docs/benchmarks.md, "The stirred pile") in ballpit and
 * beside Box2D v3, in one process: every engine settles the same pit
 * (our own spawn, same seed) for the same steps, untimed, then a hand
 * follows the stir recording, each step timed. Rounds run the engines by
 * turns, so that they compare like with like on a machine whose speed
 * drifts.
 *
 * usage: ballpit-compare-stir [--threads T] [--runs R] [--settle S] [--engines LIST] N FILE
 *
 * FILE is a recording of a hand spawned and grabbed at step 0, moved and
 * let go at rest (bench/stir.py writes them). Ours replays it through the
 * session, as `ballpit --replay` does; Box2D's hand is a kinematic ball on
 * the same path. Every run prints a stir line: its step times (ms), the
 * pile's balls awake (mean over the steps, and at the end), asleep when
 * the hand came, moved more than two radii, escaped; then each engine's
 * median round by p99. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "benchargs.h"
#include "engines.h"
#include "numparse.h"
#include "options.h"
#include "session.h"
#include "setup.h"
#include "spawn.h"
#include "stirpath.h"

#define MAX_RUNS 99
#define PROGRAM "ballpit-compare-stir"

typedef struct engine {
    const char *name;
    int64_t solver; /* ours: BP_SOLVER_*; -1 for Box2D */
} engine;

static const engine engines[] = {
    {"ballpit", BP_SOLVER_PASSES},
    {"ballpit-soft", BP_SOLVER_SOFT},
#ifdef BP_HAVE_BOX2D
    {"box2d", -1},
#endif
};
#define ENGINE_COUNT (sizeof engines / sizeof engines[0])

typedef struct options {
    int threads, runs;
    uint64_t settle, n, seed;
    const char *path;
    const engine *chosen[ENGINE_COUNT];
    size_t chosen_count;
} options;

/* The table as benchargs reads it: each engine's name is its first member. */
#define ENGINE_TABLE ((bp_args_table){engines, sizeof engines[0], ENGINE_COUNT})

static int usage(void)
{
    return bp_args_usage("usage: " PROGRAM " [--threads T] [--runs R] [--settle S] [--engines "
                         "LIST] N FILE\n  (1 <= N <= 2000000, 1 <= T <= 32, 1 <= R <= 99, "
                         "S <= 100000; LIST of:",
                         ENGINE_TABLE);
}

/* A comma-separated list of engines built in, each at most once. */
static bool parse_engines(const char *list, options *o)
{
    size_t picked[ENGINE_COUNT];
    if (!bp_args_engines(PROGRAM, list, ENGINE_TABLE, picked, &o->chosen_count))
        return false;
    for (size_t k = 0; k < o->chosen_count; k++)
        o->chosen[k] = &engines[picked[k]];
    return true;
}

static bool parse_options(int argc, char **argv, options *o)
{
    *o = (options){.threads = 1, .runs = 1, .settle = 600, .seed = 1,
                   .chosen_count = ENGINE_COUNT};
    for (size_t i = 0; i < ENGINE_COUNT; i++)
        o->chosen[i] = &engines[i];
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t u = 0;
        bool ok;
        if (strcmp(argv[i], "--threads") == 0)
            ok = bp_args_number(PROGRAM, argv[i++], value, 1, 32, &u) && (o->threads = (int)u);
        else if (strcmp(argv[i], "--runs") == 0)
            ok = bp_args_number(PROGRAM, argv[i++], value, 1, MAX_RUNS, &u) && (o->runs = (int)u);
        else if (strcmp(argv[i], "--settle") == 0)
            ok = bp_args_number(PROGRAM, argv[i++], value, 0, 100000, &o->settle);
        else if (strcmp(argv[i], "--engines") == 0)
            ok = value && parse_engines(argv[++i], o);
        else if (positional == 0)
            ok = bp_parse_u64(argv[i], 2000000, &o->n) && o->n > 0 && ++positional;
        else
            ok = positional++ == 1 && (o->path = argv[i]);
        if (!ok)
            return false;
    }
    return positional == 2;
}

/* The first count balls' centres by id, as (x, y) pairs. */
static void centres_by_id(const bp_world *world, size_t count, double *xy)
{
    for (uint32_t id = 0; id < count; id++) {
        int64_t i = bp_world_index_of(world, id);
        xy[2 * id] = i >= 0 ? world->x[i] : NAN;
        xy[2 * id + 1] = i >= 0 ? world->y[i] : NAN;
    }
}

/* The first count balls by id: how many are awake, and how many move
 * (bp_stir_moving). */
typedef struct pile_count {
    size_t awake, moving;
} pile_count;

static pile_count count_pile(const bp_world *world, size_t count)
{
    pile_count c = {0, 0};
    const bp_params *p = &world->params;
    for (uint32_t id = 0; id < count; id++) {
        int64_t i = bp_world_index_of(world, id);
        if (i < 0)
            continue;
        c.awake += !(world->flags[i] & BP_BALL_ASLEEP);
        c.moving += bp_stir_moving(world->vx[i], world->vy[i], p->gravity, p->hz);
    }
    return c;
}

/* Our solver's stir: the world as `ballpit --pit N --settle S` makes it,
 * the recording replayed through a session. false with a message. */
static bool stir_ours(int64_t solver, const options *o, bp_replay *rp, bp_stir_result *out)
{
    bp_options opts = bp_options_default();
    opts.pit = o->n, opts.pit_set = true, opts.seed = o->seed, opts.settle = o->settle;
    opts.threads = o->threads, opts.headless = true;
    opts.params.solver = solver, opts.params_set |= BP_SET_SOLVER;
    char err[512];
    int status = 0;
    bp_world *world = bp_setup_world(&opts, &status, err, sizeof err);
    double *start = malloc(sizeof(double) * 2 * o->n), *end = malloc(sizeof(double) * 2 * o->n);
    bool ok = world && start && end;
    if (ok) {
        centres_by_id(world, o->n, start);
        *out = (bp_stir_result){.asleep_at_start = o->n - count_pile(world, o->n).awake};
        bp_steptime_reset(&out->steps);
        bp_session session;
        bp_session_init(&session, world, &opts);
        rp->next = 0;
        while (ok && session.tick < rp->end_step) {
            ok = bp_session_feed(&session, rp, err, sizeof err) == 0;
            double t0 = bp_bench_clock_s();
            ok = ok && bp_session_step(&session, err, sizeof err) == BP_STEP_DONE;
            if (!ok)
                break;
            bp_steptime_add(&out->steps, bp_bench_clock_s() - t0);
            pile_count now = count_pile(world, o->n);
            out->awake_sum += (double)now.awake;
            out->moving_sum += (double)now.moving;
        }
        bp_session_free(&session);
        centres_by_id(world, o->n, end);
        bp_stir_measure(start, end, o->n, BP_PIT_RADIUS, world->params.width,
                        world->params.height, out);
        out->awake_at_end = count_pile(world, o->n).awake;
    } else if (status == 0) {
        snprintf(err, sizeof err, "out of memory");
    }
    if (!ok)
        fprintf(stderr, PROGRAM ": %s\n", err);
    bp_world_destroy(world);
    free(start);
    free(end);
    return ok;
}

static bool stir(const engine *e, const options *o, bp_replay *rp, const bp_stir_path *path,
                 bp_stir_result *out)
{
    if (e->solver >= 0)
        return stir_ours(e->solver, o, rp, out);
#ifdef BP_HAVE_BOX2D
    bp_params params = bp_pit_params(o->n);
    bp_world *world = bp_world_new(&params);
    bool ok = world && bp_spawn_pit(world, o->n, o->seed) &&
              bp_box2d_stir(world, o->settle, path, o->threads, out);
    bp_world_destroy(world);
    if (!ok)
        fprintf(stderr, PROGRAM ": out of memory\n");
    return ok;
#else
    (void)path;
    return false;
#endif
}

static void print_line(const char *lead, const engine *e, const options *o,
                       const bp_stir_result *r)
{
    const bp_steptime *st = &r->steps;
    double n = st->count > 0 ? (double)st->count : 1.0;
    printf("%sstir engine=%s n=%llu threads=%d settle=%llu steps=%llu step_ms_p50=%.3f "
           "step_ms_p99=%.3f step_ms_max=%.3f step_ms_mean=%.3f awake_mean=%.0f "
           "moving_mean=%.0f asleep_at_start=%zu moved_2r=%zu moved_tenth_r=%zu awake_at_end=%zu "
           "escaped=%zu\n",
           lead, e->name, (unsigned long long)o->n, o->threads, (unsigned long long)o->settle,
           (unsigned long long)st->count, 1e3 * bp_steptime_quantile(st, 0.5),
           1e3 * bp_steptime_quantile(st, 0.99), 1e3 * st->max_s, 1e3 * st->total_s / n,
           r->awake_sum / n, r->moving_sum / n, r->asleep_at_start, r->moved, r->nudged,
           r->awake_at_end, r->escaped);
    fflush(stdout);
}

/* Engine k's round of median p99. */
static void print_median(const options *o, bp_stir_result (*results)[ENGINE_COUNT], size_t k)
{
    int order[MAX_RUNS];
    for (int r = 0; r < o->runs; r++)
        order[r] = r;
    /* Insertion sort by p99: at most 99 rounds. */
    for (int a = 1; a < o->runs; a++)
        for (int b = a; b > 0 && bp_steptime_quantile(&results[order[b]][k].steps, 0.99) <
                                     bp_steptime_quantile(&results[order[b - 1]][k].steps, 0.99);
             b--) {
            int t = order[b];
            order[b] = order[b - 1], order[b - 1] = t;
        }
    print_line("median ", o->chosen[k], o, &results[order[o->runs / 2]][k]);
}

int main(int argc, char **argv)
{
    options o;
    if (!parse_options(argc, argv, &o))
        return usage();
    bp_replay rp;
    bp_stir_path path;
    char err[512];
    bp_params pit = bp_pit_params(o.n);
    int status = bp_replay_load(&rp, o.path, err, sizeof err);
    if (status == 0 && (status = bp_stir_path_read(&rp, o.path, pit.width, pit.height, &path, err,
                                                   sizeof err)))
        bp_replay_free(&rp);
    if (status) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        return status;
    }
    static bp_stir_result results[MAX_RUNS][ENGINE_COUNT];
    int failed = 0;
    for (int r = 0; r < o.runs && !failed; r++)
        for (size_t k = 0; k < o.chosen_count && !failed; k++) {
            failed = !stir(o.chosen[k], &o, &rp, &path, &results[r][k]);
            if (!failed)
                print_line("", o.chosen[k], &o, &results[r][k]);
        }
    for (size_t k = 0; k < o.chosen_count && o.runs > 1 && !failed; k++)
        print_median(&o, results, k);
    bp_stir_path_free(&path);
    bp_replay_free(&rp);
    return failed;
}
