#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "limits.h"
#include "numparse.h"
#include "spawn.h"

enum {
    OPT_BALLS = 256,
    OPT_RADIUS,
    OPT_GRAVITY,
    OPT_RESTITUTION,
    OPT_FRICTION,
    OPT_DRAG,
    OPT_ROLLING,
    OPT_SOLVER,
    OPT_HZ,
    OPT_ARENA,
    OPT_SEED,
    OPT_SCENE,
    OPT_STEPS,
    OPT_HEADLESS,
    OPT_DUMP,
    OPT_DUMP_EVERY,
    OPT_PNG,
    OPT_THREADS,
    OPT_BENCH,
    OPT_BENCH_ASPECT,
    OPT_BENCH_CROWD,
    OPT_PIT,
    OPT_SETTLE,
    OPT_RECORD,
    OPT_REPLAY,
    OPT_SAVE_SCENE,
    OPT_RAYCAST,
    OPT_MAX_THROW,
    OPT_TRAILS,
    OPT_VECTORS,
    OPT_COLOR_BY,
    OPT_DEBUG_VIEW,
    OPT_INSPECT,
    OPT_STATS,
    OPT_HELP,
    OPT_VERSION,
    OPT_HISTORY,
};

static const struct option long_options[] = {
    {"balls", required_argument, NULL, OPT_BALLS},
    {"radius", required_argument, NULL, OPT_RADIUS},
    {"gravity", required_argument, NULL, OPT_GRAVITY},
    {"restitution", required_argument, NULL, OPT_RESTITUTION},
    {"friction", required_argument, NULL, OPT_FRICTION},
    {"drag", required_argument, NULL, OPT_DRAG},
    {"rolling", required_argument, NULL, OPT_ROLLING},
    {"solver", required_argument, NULL, OPT_SOLVER},
    {"hz", required_argument, NULL, OPT_HZ},
    {"arena", required_argument, NULL, OPT_ARENA},
    {"seed", required_argument, NULL, OPT_SEED},
    {"scene", required_argument, NULL, OPT_SCENE},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"headless", no_argument, NULL, OPT_HEADLESS},
    {"dump", required_argument, NULL, OPT_DUMP},
    {"dump-every", required_argument, NULL, OPT_DUMP_EVERY},
    {"png", no_argument, NULL, OPT_PNG},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"bench", required_argument, NULL, OPT_BENCH},
    {"bench-aspect", required_argument, NULL, OPT_BENCH_ASPECT},
    {"bench-crowd", required_argument, NULL, OPT_BENCH_CROWD},
    {"pit", required_argument, NULL, OPT_PIT},
    {"settle", required_argument, NULL, OPT_SETTLE},
    {"record-input", required_argument, NULL, OPT_RECORD},
    {"replay", required_argument, NULL, OPT_REPLAY},
    {"save-scene", required_argument, NULL, OPT_SAVE_SCENE},
    {"raycast", required_argument, NULL, OPT_RAYCAST},
    {"max-throw", required_argument, NULL, OPT_MAX_THROW},
    {"trails", required_argument, NULL, OPT_TRAILS},
    {"vectors", no_argument, NULL, OPT_VECTORS},
    {"color-by", required_argument, NULL, OPT_COLOR_BY},
    {"debug-view", no_argument, NULL, OPT_DEBUG_VIEW},
    {"inspect", required_argument, NULL, OPT_INSPECT},
    {"stats", no_argument, NULL, OPT_STATS},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {"history", required_argument, NULL, OPT_HISTORY},
    {NULL, 0, NULL, 0},
};

bp_options bp_options_default(void)
{
    return (bp_options){
        .params = bp_params_default(),
        .balls = 40,
        .radius_min = 8.0,
        .radius_max = 24.0,
        .seed = 1,
        .dump_every = 1,
        .threads = 1,
        .bench_aspect = BP_PIT_ASPECT,
        .max_throw = 5000.0,
        .inspect = -1,
        .history = 30.0,
    };
}

const char *bp_options_usage(void)
{
    return "usage: ballpit [options]\n"
           "  --balls N             random balls when no scene gives balls (40)\n"
           "  --radius R|MIN:MAX    ball radius in px (8:24)\n"
           "  --gravity G           downward gravity, px/s^2 (980)\n"
           "  --restitution E       bounciness, 0..1 (0.9)\n"
           "  --friction F          contact friction, 0..1 (0.1)\n"
           "  --rolling R           rolling resistance, 0..1 (0.01)\n"
           "  --solver NAME         contact solver: passes or soft (passes)\n"
           "  --drag D              air drag per second (0.05)\n"
           "  --hz HZ               physics steps per second (120)\n"
           "  --arena WxH           arena size in px (1024x768)\n"
           "  --seed S              random seed (1)\n"
           "  --scene FILE          load a scene file\n"
           "  --steps N             stop after N physics steps\n"
           "  --headless            no window; run --steps steps (default 600)\n"
           "  --dump DIR            write DIR/frames.csv\n"
           "  --dump-every K        dump every K-th step (1)\n"
           "  --png                 with --dump: also write DIR/frame-NNNNNN.png\n"
           "  --threads T           worker threads for the physics step (1)\n"
           "  --bench N             run the standard pit benchmark with N balls\n"
           "  --bench-aspect A      with --bench or --bench-crowd: the pit's width over height (1.6)\n"
           "  --bench-crowd N       run the all-awake crowd benchmark with N balls\n"
           "  --pit N               the world is the benchmark pit of N balls\n"
           "  --settle S            step the world S times before the run starts (0)\n"
           "  --record-input FILE   record every input that reaches the simulation\n"
           "  --replay FILE         replay a recorded input file\n"
           "  --save-scene FILE     at the end of the run, write the world as a scene file\n"
           "  --raycast X,Y,DX,DY   print every shape the ray enters, then exit\n"
           "  --max-throw V         cap on the speed of a thrown ball, px/s (5000)\n"
           "  --trails S            draw each ball's last S seconds of path (0..60)\n"
           "  --vectors             draw velocity arrows\n"
           "  --color-by WHAT       colour balls by id, speed or sleep (id)\n"
           "  --debug-view          draw the grid and the contacts\n"
           "  --inspect ID          pin the inspector panel to ball ID\n"
           "  --stats               with --headless: print step-time statistics at the end\n"
           "  --history S           keep the last S seconds for rewinding, 0: off (30)\n"
           "  --help, --version     print and exit\n";
}

static int fail(char *err, size_t err_size, const char *option, const char *value,
                const char *why)
{
    if (value)
        snprintf(err, err_size, "--%s: '%s' %s", option, value, why);
    else
        snprintf(err, err_size, "--%s: %s", option, why);
    return 2;
}

/* Longest path and name within a path that output may be written to
 * (Linux's), and what ballpit adds to a --dump directory's path at most
 * ("/frame-000000000000.png.part"). */
#define BP_PATH_MAX 4096
#define BP_NAME_MAX 255
#define BP_DUMP_NAME_ROOM 32

/* Why the system would refuse to write under path, plus room bytes, or
 * NULL: caught before any directory of it is made. */
static const char *path_trouble(const char *path, size_t room)
{
    if (strlen(path) + room >= BP_PATH_MAX)
        return "is too long a path for the system";
    for (const char *p = path; *p;) {
        size_t name = strcspn(p, "/");
        if (name > BP_NAME_MAX)
            return "holds a name longer than 255 bytes";
        p += name + (p[name] == '/');
    }
    return NULL;
}

/* The option of the first world parameter among set (BP_SET_*), or NULL. */
static const char *physics_option(unsigned set)
{
    static const struct {
        unsigned bit;
        const char *name;
    } options[] = {{BP_SET_SIZE, "--arena"},       {BP_SET_GRAVITY, "--gravity"},
                   {BP_SET_RESTITUTION, "--restitution"}, {BP_SET_FRICTION, "--friction"},
                   {BP_SET_DRAG, "--drag"},        {BP_SET_HZ, "--hz"},
                   {BP_SET_ROLLING, "--rolling"},  {BP_SET_SOLVER, "--solver"}};
    for (size_t k = 0; k < sizeof options / sizeof options[0]; k++)
        if (set & options[k].bit)
            return options[k].name;
    return NULL;
}

/* Whether arg (--na or --na=value) begins the names of more than one long
 * option, none of them whole (getopt_long refuses it as it does an unknown
 * one); if so, says which into err: "--re: ambiguous option: --restitution,
 * --record-input, --replay". */
static bool ambiguous(const char *arg, char *err, size_t err_size)
{
    if (strncmp(arg, "--", 2) != 0)
        return false;
    size_t len = strcspn(arg + 2, "="), used = 0;
    int matches = 0;
    int n = snprintf(err, err_size, "%.*s: ambiguous option:", (int)len + 2, arg);
    for (const struct option *o = long_options; o->name && n >= 0; o++) {
        if (strncmp(o->name, arg + 2, len) != 0)
            continue;
        if (strlen(o->name) == len)
            return false; /* the whole name of one */
        used += (size_t)n;
        n = used < err_size ? snprintf(err + used, err_size - used, "%s--%s",
                                       matches++ ? ", " : " ", o->name)
                            : 0;
    }
    return len > 0 && matches > 1;
}

static bool parse_pair(const char *text, char separator, double *a, double *b)
{
    const char *split = strchr(text, separator);
    if (!split || strchr(split + 1, separator))
        return false;
    char first[64];
    size_t len = (size_t)(split - text);
    if (len == 0 || len >= sizeof first)
        return false;
    memcpy(first, text, len);
    first[len] = '\0';
    return bp_parse_double(first, a) && bp_parse_double(split + 1, b);
}

static bool parse_list4(const char *text, double out[4])
{
    char copy[256];
    if (strlen(text) >= sizeof copy)
        return false;
    strcpy(copy, text);
    char *rest = copy;
    for (int k = 0; k < 4; k++) {
        char *comma = strchr(rest, ',');
        if ((k < 3) != (comma != NULL))
            return false;
        if (comma)
            *comma = '\0';
        if (!bp_parse_double(rest, &out[k]))
            return false;
        rest = comma ? comma + 1 : rest;
    }
    return true;
}

int bp_options_parse(bp_options *opts, int argc, char **argv, char *err, size_t err_size)
{
    optind = 0; /* GNU: restart scanning, so the parser can run more than once */
    opterr = 0;
    int c;
    int long_index = -1;
    while ((c = getopt_long(argc, argv, ":", long_options, &long_index)) != -1) {
        const char *name = long_index >= 0 ? long_options[long_index].name : "";
        const char *v = optarg;
        double d;
        uint64_t u;
        const char *trouble; /* why an output path cannot be written */
        switch (c) {
        case OPT_BALLS:
            if (!bp_parse_u64(v, 2000000, &u))
                return fail(err, err_size, name, v, "is not a ball count from 0 to 2000000");
            opts->balls = u;
            opts->balls_set = true;
            break;
        case OPT_RADIUS: {
            double lo, hi;
            if (strchr(v, ':')) {
                if (!parse_pair(v, ':', &lo, &hi))
                    return fail(err, err_size, name, v, "is not a radius or MIN:MAX");
            } else if (bp_parse_double(v, &lo)) {
                hi = lo;
            } else {
                return fail(err, err_size, name, v, "is not a radius or MIN:MAX");
            }
            if (bp_check_radius(lo) || bp_check_radius(hi) || !(lo <= hi))
                return fail(err, err_size, name, v, "must lie in 0.5..10000 px with MIN <= MAX");
            opts->radius_min = lo;
            opts->radius_max = hi;
            opts->radius_set = true;
            break;
        }
        case OPT_GRAVITY:
        case OPT_RESTITUTION:
        case OPT_FRICTION:
        case OPT_DRAG:
        case OPT_ROLLING:
        case OPT_HZ: {
            if (!bp_parse_double(v, &d))
                return fail(err, err_size, name, v, "is not a finite number");
            bp_params trial = opts->params;
            unsigned bit = 0;
            if (c == OPT_GRAVITY) {
                trial.gravity = d;
                bit = BP_SET_GRAVITY;
            } else if (c == OPT_RESTITUTION) {
                trial.restitution = d;
                bit = BP_SET_RESTITUTION;
            } else if (c == OPT_FRICTION) {
                trial.friction = d;
                bit = BP_SET_FRICTION;
            } else if (c == OPT_ROLLING) {
                trial.rolling = d;
                bit = BP_SET_ROLLING;
            } else if (c == OPT_DRAG) {
                trial.drag = d;
                bit = BP_SET_DRAG;
            } else {
                trial.hz = d;
                bit = BP_SET_HZ;
            }
            const char *why = bp_params_check(&trial);
            if (why)
                return fail(err, err_size, name, v, why);
            opts->params = trial;
            opts->params_set |= bit;
            break;
        }
        case OPT_SOLVER: {
            int solver = bp_solver_named(v);
            if (solver < 0)
                return fail(err, err_size, name, v, "is not a solver (passes or soft)");
            opts->params.solver = solver;
            opts->params_set |= BP_SET_SOLVER;
            break;
        }
        case OPT_ARENA: {
            double w, h;
            if (!parse_pair(v, 'x', &w, &h))
                return fail(err, err_size, name, v, "is not WxH");
            bp_params trial = opts->params;
            trial.width = w;
            trial.height = h;
            const char *why = bp_params_check(&trial);
            if (why)
                return fail(err, err_size, name, v, why);
            opts->params = trial;
            opts->params_set |= BP_SET_SIZE;
            break;
        }
        case OPT_SEED:
            if (!bp_parse_u64(v, UINT64_MAX, &u))
                return fail(err, err_size, name, v, "is not an unsigned 64-bit integer");
            opts->seed = u;
            break;
        case OPT_SCENE:
            if (!*v)
                return fail(err, err_size, name, NULL, "needs a file or scene name");
            opts->scene_path = v;
            break;
        case OPT_STEPS:
            if (!bp_parse_u64(v, BP_STEPS_MAX, &u))
                return fail(err, err_size, name, v, "is not a step count from 0 to 10^12");
            opts->steps = u;
            opts->steps_set = true;
            break;
        case OPT_HEADLESS:
            opts->headless = true;
            break;
        case OPT_DUMP:
            if (!*v)
                return fail(err, err_size, name, NULL, "needs a directory");
            if ((trouble = path_trouble(v, BP_DUMP_NAME_ROOM)))
                return fail(err, err_size, name, NULL, trouble);
            opts->dump_dir = v;
            break;
        case OPT_DUMP_EVERY:
            if (!bp_parse_u64(v, 1000000000ull, &u) || u == 0)
                return fail(err, err_size, name, v, "is not a whole number from 1 to 10^9");
            opts->dump_every = u;
            break;
        case OPT_PNG:
            opts->png = true;
            break;
        case OPT_THREADS:
            if (!bp_parse_u64(v, 64, &u) || u == 0)
                return fail(err, err_size, name, v, "is not a thread count from 1 to 64");
            opts->threads = (int)u;
            break;
        case OPT_BENCH:
            if (!bp_parse_u64(v, 2000000, &u) || u == 0)
                return fail(err, err_size, name, v, "is not a ball count from 1 to 2000000");
            opts->bench = u;
            opts->bench_set = true;
            break;
        case OPT_BENCH_CROWD:
            if (!bp_parse_u64(v, 2000000, &u) || u == 0)
                return fail(err, err_size, name, v, "is not a ball count from 1 to 2000000");
            opts->bench_crowd = u;
            opts->bench_crowd_set = true;
            break;
        case OPT_PIT:
            if (!bp_parse_u64(v, 2000000, &u) || u == 0)
                return fail(err, err_size, name, v, "is not a ball count from 1 to 2000000");
            opts->pit = u;
            opts->pit_set = true;
            break;
        case OPT_SETTLE:
            if (!bp_parse_u64(v, BP_SETTLE_MAX, &u))
                return fail(err, err_size, name, v, "is not a step count from 0 to 10^6");
            opts->settle = u;
            break;
        case OPT_BENCH_ASPECT:
            if (!bp_parse_double(v, &d) || !(d >= BP_PIT_ASPECT_MIN && d <= BP_PIT_ASPECT_MAX))
                return fail(err, err_size, name, v, "is not a width over height in 1e-5..1e5");
            opts->bench_aspect = d;
            opts->bench_aspect_set = true;
            break;
        case OPT_RECORD:
            if (!*v)
                return fail(err, err_size, name, NULL, "needs a file name");
            if ((trouble = path_trouble(v, 0)))
                return fail(err, err_size, name, NULL, trouble);
            opts->record_path = v;
            break;
        case OPT_REPLAY:
            if (!*v)
                return fail(err, err_size, name, NULL, "needs a file name");
            opts->replay_path = v;
            break;
        case OPT_SAVE_SCENE:
            if (!*v)
                return fail(err, err_size, name, NULL, "needs a file name");
            if ((trouble = path_trouble(v, BP_SAVE_PART_ROOM)))
                return fail(err, err_size, name, NULL, trouble);
            opts->save_scene_path = v;
            break;
        case OPT_RAYCAST:
            if (!parse_list4(v, opts->ray))
                return fail(err, err_size, name, v, "is not X,Y,DX,DY");
            if (opts->ray[2] == 0.0 && opts->ray[3] == 0.0)
                return fail(err, err_size, name, v, "has a zero direction");
            opts->raycast_set = true;
            break;
        case OPT_MAX_THROW:
            if (!bp_parse_double(v, &d) || !(d > 0.0 && d <= BP_SPEED_MAX))
                return fail(err, err_size, name, v, "is not a speed in (0, 10^7] px/s");
            opts->max_throw = d;
            break;
        case OPT_TRAILS:
            if (!bp_parse_double(v, &d) || !(d >= 0.0 && d <= 60.0))
                return fail(err, err_size, name, v, "is not a number of seconds from 0 to 60");
            opts->trails = d;
            break;
        case OPT_VECTORS:
            opts->vectors = true;
            break;
        case OPT_COLOR_BY: {
            static const char *const modes[BP_COLOR_BY_COUNT] = {"id", "speed", "sleep"};
            int found = -1;
            for (int k = 0; k < BP_COLOR_BY_COUNT; k++)
                if (strcmp(v, modes[k]) == 0)
                    found = k;
            if (found < 0)
                return fail(err, err_size, name, v, "is not one of id, speed, sleep");
            opts->color_by = (bp_color_by)found;
            break;
        }
        case OPT_DEBUG_VIEW:
            opts->debug_view = true;
            break;
        case OPT_INSPECT:
            if (!bp_parse_u64(v, UINT32_MAX, &u))
                return fail(err, err_size, name, v, "is not a ball id from 0 to 4294967295");
            opts->inspect = (int64_t)u;
            break;
        case OPT_STATS:
            opts->stats = true;
            break;
        case OPT_HELP:
            opts->help = true;
            break;
        case OPT_VERSION:
            opts->version = true;
            break;
        case OPT_HISTORY:
            if (!bp_parse_double(v, &d) || !(d >= 0.0 && d <= 3600.0))
                return fail(err, err_size, name, v, "is not a number of seconds from 0 to 3600");
            opts->history = d;
            opts->history_set = true;
            break;
        case ':':
            snprintf(err, err_size, "%s: needs a value", argv[optind - 1]);
            return 2;
        default:
            /* getopt names an option that got a value it does not take
             * (--stats=1) in optopt. */
            for (const struct option *o = long_options; optopt && o->name; o++)
                if (o->val == optopt)
                    return fail(err, err_size, o->name, NULL, "takes no value");
            if (ambiguous(argv[optind - 1], err, err_size))
                return 2;
            snprintf(err, err_size, "%s: unknown option", argv[optind - 1]);
            return 2;
        }
        long_index = -1;
    }
    if (optind < argc) {
        snprintf(err, err_size, "%s: unexpected argument (options start with --)", argv[optind]);
        return 2;
    }
    if (opts->png && !opts->dump_dir) {
        snprintf(err, err_size, "--png: needs --dump DIR");
        return 2;
    }
    if (opts->bench_set && opts->bench_crowd_set) {
        snprintf(err, err_size, "--bench-crowd: cannot be combined with --bench");
        return 2;
    }
    bool benching = opts->bench_set || opts->bench_crowd_set;
    if (opts->bench_aspect_set && !benching) {
        snprintf(err, err_size, "--bench-aspect: needs --bench N or --bench-crowd N");
        return 2;
    }
    if (benching) {
        char why[160];
        const char *which = opts->bench_aspect_set ? "bench-aspect"
                            : opts->bench_set      ? "bench"
                                                   : "bench-crowd";
        if (bp_pit_check(opts->bench_set ? opts->bench : opts->bench_crowd, opts->bench_aspect,
                         why, sizeof why))
            return fail(err, err_size, which, NULL, why);
        /* The benchmark builds, steps and times a fixed pit of its own (only
         * the solver, threads and seed are its to vary): what would change
         * its world or write files would be silently ignored. */
        const char *physics = physics_option(opts->params_set & ~(unsigned)BP_SET_SOLVER);
        const char *ignored = opts->scene_path    ? "--scene"
                              : opts->pit_set     ? "--pit"
                              : opts->balls_set   ? "--balls"
                              : physics           ? physics
                              : opts->settle > 0  ? "--settle"
                              : opts->steps_set   ? "--steps"
                              : opts->dump_dir    ? "--dump"
                              : opts->replay_path ? "--replay"
                              : opts->record_path ? "--record-input"
                              : opts->save_scene_path ? "--save-scene"
                                                  : NULL;
        if (ignored) {
            snprintf(err, err_size, "--%s: cannot be combined with %s (the benchmark times a "
                                    "fixed pit of its own)", which, ignored);
            return 2;
        }
    }
    if (opts->pit_set) {
        /* The pit brings its own balls and arena; its physics may be overridden. */
        const char *clash = opts->scene_path                     ? "--scene"
                            : opts->balls_set                    ? "--balls"
                            : (opts->params_set & BP_SET_SIZE)   ? "--arena"
                                                                 : NULL;
        char why[160];
        if (clash) {
            snprintf(err, err_size, "--pit: cannot be combined with %s (the pit brings its "
                                    "own balls and arena)", clash);
            return 2;
        }
        if (bp_pit_check(opts->pit, BP_PIT_ASPECT, why, sizeof why))
            return fail(err, err_size, "pit", NULL, why);
    }
    if (opts->stats && (benching || opts->raycast_set)) {
        snprintf(err, err_size, "--stats: does not apply to %s",
                 benching ? "a benchmark (it prints its own line)"
                          : "--raycast (a ray cast takes no steps)");
        return 2;
    }
    if (opts->stats && !opts->headless) {
        snprintf(err, err_size, "--stats: needs --headless (the window shows its step times in "
                                "the HUD)");
        return 2;
    }
    if (opts->save_scene_path && opts->raycast_set) {
        snprintf(err, err_size, "--save-scene: does not apply to --raycast (a ray cast takes no "
                                "steps)");
        return 2;
    }
    if (opts->record_path && opts->replay_path) {
        snprintf(err, err_size, "--record-input: cannot be combined with --replay");
        return 2;
    }
    return 0;
}
