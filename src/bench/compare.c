/* The benchmark pit (--bench N) in other engines beside ballpit, in one
 * process: the same balls (our own spawn, same seed), walls, step and
 * measures, run by turns so that the ratios compare like with like on a
 * machine whose speed drifts.
 *
 * usage: ballpit-compare [--crowd] [--threads T] [--runs R] [--engines LIST] N [SEED]
 *
 * With --crowd, every engine runs the all-awake crowd (--bench-crowd): the
 * pit without gravity, restitution 1, friction 0. Each of the R rounds (1)
 * runs every engine of LIST once, in its order (default: all built in):
 * ballpit (the default solver), ballpit-soft (the soft solver), box2d,
 * chipmunk. T threads (1) go to ballpit and Box2D; Chipmunk has one. Every
 * run prints its bench line; then come each engine's median run (when R > 1) and, for
 * each solver of ours against each other engine, the median over the
 * rounds of that round's ratio of steps per second. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "benchargs.h"
#include "engines.h"
#include "numparse.h"
#include "passes.h"
#include "spawn.h"
#include "world.h"

#define MAX_RUNS 99

typedef struct engine {
    const char *name;             /* in --engines and the ratio lines */
    int64_t solver;               /* ours: BP_SOLVER_* */
    bp_engine_run *run;           /* another engine's; NULL for ours */
    const char *(*version)(void); /* another engine's */
    bool threaded;                /* takes more than one thread */
} engine;

static const engine engines[] = {
    {"ballpit", BP_SOLVER_PASSES, NULL, NULL, true},
    {"ballpit-soft", BP_SOLVER_SOFT, NULL, NULL, true},
#ifdef BP_HAVE_BOX2D
    {"box2d", 0, bp_box2d_run, bp_box2d_version, true},
#endif
#ifdef BP_HAVE_CHIPMUNK
    {"chipmunk", 0, bp_chipmunk_run, bp_chipmunk_version, false},
#endif
};
#define ENGINE_COUNT (sizeof engines / sizeof engines[0])

typedef struct options {
    bool crowd;
    int threads;
    int runs;
    uint64_t n;
    uint64_t seed;
    const engine *chosen[ENGINE_COUNT];
    size_t chosen_count;
} options;

/* The table as benchargs reads it: each engine's name is its first member. */
#define ENGINE_TABLE ((bp_args_table){engines, sizeof engines[0], ENGINE_COUNT})

static int usage(void)
{
    return bp_args_usage(
        "usage: ballpit-compare [--crowd] [--threads T] [--runs R] [--engines LIST] N [SEED]\n"
        "  (1 <= N <= 2000000, 1 <= T <= 32, 1 <= R <= 99; LIST of:",
        ENGINE_TABLE);
}

/* A comma-separated list of engines built in, each at most once. */
static bool parse_engines(const char *list, options *o)
{
    size_t picked[ENGINE_COUNT];
    if (!bp_args_engines("ballpit-compare", list, ENGINE_TABLE, picked,
                         &o->chosen_count))
        return false;
    for (size_t k = 0; k < o->chosen_count; k++)
        o->chosen[k] = &engines[picked[k]];
    return true;
}

/* A count from 1 to max, the value of option name. */
static bool parse_count(const char *name, const char *text, uint64_t max, int *out)
{
    uint64_t u;
    if (!bp_args_number("ballpit-compare", name, text, 1, max, &u))
        return false;
    *out = (int)u;
    return true;
}

/* N, then SEED: the i-th argument that is not an option. */
static bool parse_positional(const char *text, int i, options *o)
{
    if (i == 0)
        return bp_parse_u64(text, 2000000, &o->n) && o->n > 0;
    return i == 1 && bp_parse_u64(text, UINT64_MAX, &o->seed);
}

/* The options, or false with a message. */
static bool parse_options(int argc, char **argv, options *o)
{
    *o = (options){.threads = 1, .runs = 1, .seed = 1, .chosen_count = ENGINE_COUNT};
    for (size_t i = 0; i < ENGINE_COUNT; i++)
        o->chosen[i] = &engines[i];
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok;
        if (strcmp(argv[i], "--crowd") == 0)
            ok = o->crowd = true;
        else if (strcmp(argv[i], "--threads") == 0)
            ok = parse_count(argv[i++], value, 32, &o->threads);
        else if (strcmp(argv[i], "--runs") == 0)
            ok = parse_count(argv[i++], value, MAX_RUNS, &o->runs);
        else if (strcmp(argv[i], "--engines") == 0)
            ok = value && parse_engines(argv[++i], o);
        else
            ok = parse_positional(argv[i], positional++, o);
        if (!ok)
            return false;
    }
    return positional > 0;
}

static double steps_per_s(const bp_bench_result *r)
{
    return r->wall_s > 0.0 ? BP_BENCH_STEPS / r->wall_s : 0.0;
}

/* One run of another engine on the pit we spawn, measured as ours is. */
static bool run_other(const engine *e, const options *o, bp_bench_result *out)
{
    bp_params params = bp_bench_params(o->n, BP_PIT_ASPECT, o->crowd);
    bp_world *world = bp_world_new(&params);
    double wall = world && bp_spawn_pit(world, o->n, o->seed) ? e->run(world, o->crowd, o->threads)
                                                              : -1.0;
    if (wall >= 0.0)
        *out = (bp_bench_result){
            .n = o->n,
            .aspect = BP_PIT_ASPECT,
            .crowd = o->crowd,
            .threads = e->threaded ? o->threads : 1,
            .wall_s = wall,
            .max_overlap_over_r = bp_passes_max_overlap(world) / BP_PIT_RADIUS,
            .escaped = bp_bench_count_escaped(world->x, world->y, world->count, params.width,
                                              params.height),
        };
    bp_world_destroy(world);
    return wall >= 0.0;
}

static bool run_engine(const engine *e, const options *o, bp_bench_result *out)
{
    if (e->run)
        return run_other(e, o, out);
    return bp_bench_run(o->n, BP_PIT_ASPECT, o->crowd, e->solver, o->threads, o->seed, out);
}

/* The bench line of a run: ours as ballpit prints it, another engine's
 * the same with its name. */
static void print_line(const engine *e, const bp_bench_result *r)
{
    if (!e->run) {
        bp_bench_print(r, stdout);
        return;
    }
    double rate = steps_per_s(r);
    printf("engine=%s n=%llu steps=%d threads=%d wall_s=%.6f steps_per_s=%.1f "
           "ball_steps_per_s=%.0f max_overlap_over_r=%.4f escaped=%llu%s\n",
           e->name, (unsigned long long)r->n, BP_BENCH_STEPS, r->threads, r->wall_s, rate,
           rate * (double)r->n, r->max_overlap_over_r, (unsigned long long)r->escaped,
           r->crowd ? " case=crowd" : "");
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of count values (the upper middle one for an even count); sorts them. */
static double median(double *values, int count)
{
    qsort(values, (size_t)count, sizeof(double), by_value);
    return values[count / 2];
}

/* Engine k's median run over the rounds, with the slowest and fastest. */
static void print_median(const options *o, bp_bench_result (*results)[ENGINE_COUNT], size_t k)
{
    double rates[MAX_RUNS];
    for (int r = 0; r < o->runs; r++)
        rates[r] = steps_per_s(&results[r][k]);
    double middle = median(rates, o->runs);
    for (int r = 0; r < o->runs; r++)
        if (steps_per_s(&results[r][k]) == middle) {
            printf("median runs=%d slowest_steps_per_s=%.1f fastest_steps_per_s=%.1f ", o->runs,
                   rates[0], rates[o->runs - 1]);
            print_line(o->chosen[k], &results[r][k]);
            return;
        }
}

/* name with '_' for '-', to make a key of it. */
static void underscored(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s", name);
    for (char *c = out; *c; c++)
        if (*c == '-')
            *c = '_';
}

/* Each of our solvers against each other engine: the median of the rounds' ratios. */
static void print_ratios(const options *o, bp_bench_result (*results)[ENGINE_COUNT])
{
    double ratios[MAX_RUNS];
    for (size_t a = 0; a < o->chosen_count; a++)
        for (size_t b = 0; b < o->chosen_count; b++) {
            if (o->chosen[a]->run || !o->chosen[b]->run)
                continue;
            for (int r = 0; r < o->runs; r++) {
                double theirs = steps_per_s(&results[r][b]);
                ratios[r] = theirs > 0.0 ? steps_per_s(&results[r][a]) / theirs : 0.0;
            }
            char ours[32];
            underscored(o->chosen[a]->name, ours, sizeof ours);
            printf("ratio n=%llu %s_over_%s_steps_per_s=%.2f\n", (unsigned long long)o->n, ours,
                   o->chosen[b]->name, median(ratios, o->runs));
        }
}

static void print_versions(const options *o)
{
    bool any = false;
    for (size_t k = 0; k < o->chosen_count; k++)
        if (o->chosen[k]->version) {
            printf("%s%s=%s", any ? " " : "versions ", o->chosen[k]->name,
                   o->chosen[k]->version());
            any = true;
        }
    if (any)
        putchar('\n');
}

int main(int argc, char **argv)
{
    options o;
    if (!parse_options(argc, argv, &o))
        return usage();
    print_versions(&o);
    static bp_bench_result results[MAX_RUNS][ENGINE_COUNT];
    for (int r = 0; r < o.runs; r++)
        for (size_t k = 0; k < o.chosen_count; k++) {
            if (!run_engine(o.chosen[k], &o, &results[r][k])) {
                fprintf(stderr, "ballpit-compare: out of memory\n");
                return 1;
            }
            print_line(o.chosen[k], &results[r][k]);
            fflush(stdout);
        }
    for (size_t k = 0; k < o.chosen_count && o.runs > 1; k++)
        print_median(&o, results, k);
    print_ratios(&o, results);
    return 0;
}
