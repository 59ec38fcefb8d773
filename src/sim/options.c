#include "options.h"

#include <assert.h>
#include <float.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "nearest.h"
#include "numparse.h"
#include "program.h"
#include "spawn.h"

typedef struct opt_row opt_row;

/* Reads an option's value v (NULL for a flag) into opts as its row says:
 * returns 0, or 2 with a one-line message naming the option in err. */
typedef int opt_read(const opt_row *o, const char *v, bp_options *opts, char *err,
                     size_t err_size);

/* The type of the field a whole number goes into. */
typedef enum { AS_U64, AS_INT, AS_I64 } whole_type;

/* One option: everything the parser, --help and bp_options_default know of it. */
struct opt_row {
    const char *name;    /* --name */
    const char *metavar; /* its value in --help; NULL: a flag, which takes none */
    const char *help;    /* its --help line */
    const char *dflt;    /* its default as it would be typed, parsed by
                          * bp_options_default and shown by --help; NULL: none */
    opt_read *read;
    size_t at;           /* offset of the field it sets in bp_options */
    size_t given;        /* offset of the bool it sets when given; 0: none (offset
                          * 0 is params, never a flag) */
    unsigned param_bit;  /* BP_SET_* of the world parameter it sets, or 0 */
    uint64_t min, max;   /* whole numbers: the range */
    whole_type as;       /* whole numbers: the field's type */
    double lo, hi;       /* real numbers: the range */
    size_t room;         /* output paths: bytes ballpit adds to the path */
    const char *why;     /* what a refused value is told */
    char letter;         /* -letter is the option too; 0: none */
};

static_assert(offsetof(bp_options, params) == 0, "a given offset of 0 means none");

static int fail(char *err, size_t err_size, const char *option, const char *value,
                const char *why)
{
    if (value)
        snprintf(err, err_size, "--%s: '%s' %s", option, value, why);
    else
        snprintf(err, err_size, "--%s: %s", option, why);
    return 2;
}

/* The field row o sets in opts. */
static void *field(bp_options *opts, const opt_row *o)
{
    return (char *)opts + o->at;
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

/* The kinds of value, one reader each. */

static int read_flag(const opt_row *o, const char *v, bp_options *opts, char *err,
                     size_t err_size)
{
    (void)v, (void)err, (void)err_size;
    *(bool *)field(opts, o) = true;
    return 0;
}

/* A whole number in min..max. */
static int read_whole(const opt_row *o, const char *v, bp_options *opts, char *err,
                      size_t err_size)
{
    uint64_t u;
    if (!bp_parse_u64(v, o->max, &u) || u < o->min)
        return fail(err, err_size, o->name, v, o->why);
    if (o->as == AS_INT)
        *(int *)field(opts, o) = (int)u;
    else if (o->as == AS_I64)
        *(int64_t *)field(opts, o) = (int64_t)u;
    else
        *(uint64_t *)field(opts, o) = u;
    return 0;
}

/* A real number in lo..hi. */
static int read_real(const opt_row *o, const char *v, bp_options *opts, char *err,
                     size_t err_size)
{
    double d;
    if (!bp_parse_double(v, &d) || !(d >= o->lo && d <= o->hi))
        return fail(err, err_size, o->name, v, o->why);
    *(double *)field(opts, o) = d;
    return 0;
}

/* A world parameter (a double of opts->params): the physics checks it. */
static int read_param(const opt_row *o, const char *v, bp_options *opts, char *err,
                      size_t err_size)
{
    double d;
    if (!bp_parse_double(v, &d))
        return fail(err, err_size, o->name, v, "is not a finite number");
    bp_params trial = opts->params;
    *(double *)((char *)&trial + (o->at - offsetof(bp_options, params))) = d;
    const char *why = bp_params_check(&trial);
    if (why)
        return fail(err, err_size, o->name, v, why);
    opts->params = trial;
    return 0;
}

static int read_arena(const opt_row *o, const char *v, bp_options *opts, char *err,
                      size_t err_size)
{
    double w, h;
    if (!parse_pair(v, 'x', &w, &h))
        return fail(err, err_size, o->name, v, "is not WxH");
    bp_params trial = opts->params;
    trial.width = w;
    trial.height = h;
    const char *why = bp_params_check(&trial);
    if (why)
        return fail(err, err_size, o->name, v, why);
    opts->params = trial;
    return 0;
}

static int read_radius(const opt_row *o, const char *v, bp_options *opts, char *err,
                       size_t err_size)
{
    double lo, hi;
    if (strchr(v, ':') ? !parse_pair(v, ':', &lo, &hi) : !bp_parse_double(v, &lo))
        return fail(err, err_size, o->name, v, "is not a radius or MIN:MAX");
    if (!strchr(v, ':'))
        hi = lo;
    if (bp_check_radius(lo) || bp_check_radius(hi) || !(lo <= hi))
        return fail(err, err_size, o->name, v, "must lie in 0.5..10000 px with MIN <= MAX");
    opts->radius_min = lo;
    opts->radius_max = hi;
    return 0;
}

static int read_solver(const opt_row *o, const char *v, bp_options *opts, char *err,
                       size_t err_size)
{
    int solver = bp_solver_named(v);
    if (solver < 0)
        return fail(err, err_size, o->name, v, "is not a solver (passes or soft)");
    opts->params.solver = solver;
    return 0;
}

static int read_color_by(const opt_row *o, const char *v, bp_options *opts, char *err,
                         size_t err_size)
{
    static const char *const modes[BP_COLOR_BY_COUNT] = {"id", "speed", "sleep"};
    for (int k = 0; k < BP_COLOR_BY_COUNT; k++)
        if (strcmp(v, modes[k]) == 0) {
            opts->color_by = (bp_color_by)k;
            return 0;
        }
    return fail(err, err_size, o->name, v, "is not one of id, speed, sleep");
}

/* A path read from: any but the empty one. */
static int read_path_in(const opt_row *o, const char *v, bp_options *opts, char *err,
                        size_t err_size)
{
    if (!*v)
        return fail(err, err_size, o->name, NULL, o->why);
    *(const char **)field(opts, o) = v;
    return 0;
}

/* A path written to: also one the system can make, with room bytes added. */
static int read_path_out(const opt_row *o, const char *v, bp_options *opts, char *err,
                         size_t err_size)
{
    const char *trouble = *v ? path_trouble(v, o->room) : NULL;
    if (trouble)
        return fail(err, err_size, o->name, NULL, trouble);
    return read_path_in(o, v, opts, err, err_size);
}

static int read_ray(const opt_row *o, const char *v, bp_options *opts, char *err,
                    size_t err_size)
{
    if (!parse_list4(v, opts->ray))
        return fail(err, err_size, o->name, v, "is not X,Y,DX,DY");
    if (opts->ray[2] == 0.0 && opts->ray[3] == 0.0)
        return fail(err, err_size, o->name, v, "has a zero direction");
    return 0;
}

#define AT(f) offsetof(bp_options, f)
#define FLAG(f) .read = read_flag, .at = AT(f)
#define WHOLE(f, lo, hi) .read = read_whole, .at = AT(f), .min = (lo), .max = (hi)
#define REAL(f, low, high) .read = read_real, .at = AT(f), .lo = (low), .hi = (high)
#define PARAM(f, bit) .read = read_param, .at = AT(params.f), .param_bit = (bit)
#define BALLS_MAX 2000000

/* Every option, in --help's order. A new option is one row here (and its
 * field in bp_options). */
static const opt_row rows[] = {
    {"balls", "N", "random balls when no scene gives balls", "40", WHOLE(balls, 0, BALLS_MAX),
     .given = AT(balls_set), .why = "is not a ball count from 0 to 2000000"},
    {"radius", "R|MIN:MAX", "ball radius in px", "8:24", .read = read_radius,
     .given = AT(radius_set)},
    {"gravity", "G", "downward gravity, px/s^2", "980", PARAM(gravity, BP_SET_GRAVITY)},
    {"restitution", "E", "bounciness, 0..1", "0.9", PARAM(restitution, BP_SET_RESTITUTION)},
    {"friction", "F", "contact friction, 0..1", "0.1", PARAM(friction, BP_SET_FRICTION)},
    {"rolling", "R", "rolling resistance, 0..1", "0.01", PARAM(rolling, BP_SET_ROLLING)},
    {"solver", "NAME", "contact solver: passes or soft", "passes", .read = read_solver,
     .param_bit = BP_SET_SOLVER},
    {"drag", "D", "air drag per second", "0.05", PARAM(drag, BP_SET_DRAG)},
    {"hz", "HZ", "physics steps per second", "120", PARAM(hz, BP_SET_HZ)},
    {"arena", "WxH", "arena size in px", "1024x768", .read = read_arena,
     .param_bit = BP_SET_SIZE},
    {"seed", "S", "random seed", "1", WHOLE(seed, 0, UINT64_MAX),
     .why = "is not an unsigned 64-bit integer"},
    {"scene", "FILE", "load a scene file", NULL, .read = read_path_in, .at = AT(scene_path),
     .why = "needs a file or scene name"},
    {"steps", "N", "stop after N physics steps", NULL, WHOLE(steps, 0, BP_STEPS_MAX),
     .given = AT(steps_set), .why = "is not a step count from 0 to 10^12"},
    {"headless", NULL, "no window; run --steps steps (default 600)", NULL, FLAG(headless)},
    {"dump", "DIR", "write DIR/frames.csv", NULL, .read = read_path_out, .at = AT(dump_dir),
     .room = BP_DUMP_NAME_ROOM, .why = "needs a directory"},
    {"dump-every", "K", "dump every K-th step", "1", WHOLE(dump_every, 1, 1000000000),
     .why = "is not a whole number from 1 to 10^9"},
    {"png", NULL, "with --dump: also write DIR/frame-NNNNNN.png", NULL, FLAG(png)},
    {"threads", "T", "worker threads for the physics step", "1", WHOLE(threads, 1, 64),
     .as = AS_INT, .why = "is not a thread count from 1 to 64"},
    {"bench", "N", "run the standard pit benchmark with N balls", NULL,
     WHOLE(bench, 1, BALLS_MAX), .given = AT(bench_set),
     .why = "is not a ball count from 1 to 2000000"},
    {"bench-aspect", "A", "with --bench or --bench-crowd: the pit's width over height", "1.6",
     REAL(bench_aspect, BP_PIT_ASPECT_MIN, BP_PIT_ASPECT_MAX), .given = AT(bench_aspect_set),
     .why = "is not a width over height in 1e-5..1e5"},
    {"bench-crowd", "N", "run the all-awake crowd benchmark with N balls", NULL,
     WHOLE(bench_crowd, 1, BALLS_MAX), .given = AT(bench_crowd_set),
     .why = "is not a ball count from 1 to 2000000"},
    {"pit", "N", "the world is the benchmark pit of N balls", NULL, WHOLE(pit, 1, BALLS_MAX),
     .given = AT(pit_set), .why = "is not a ball count from 1 to 2000000"},
    {"settle", "S", "step the world S times before the run starts", "0",
     WHOLE(settle, 0, BP_SETTLE_MAX), .why = "is not a step count from 0 to 10^6"},
    {"record-input", "FILE", "record every input that reaches the simulation", NULL,
     .read = read_path_out, .at = AT(record_path), .why = "needs a file name"},
    {"replay", "FILE", "replay a recorded input file", NULL, .read = read_path_in,
     .at = AT(replay_path), .why = "needs a file name"},
    {"save-scene", "FILE", "at the end of the run, write the world as a scene file", NULL,
     .read = read_path_out, .at = AT(save_scene_path), .room = BP_SAVE_PART_ROOM,
     .why = "needs a file name"},
    {"raycast", "X,Y,DX,DY", "print every shape the ray enters, then exit", NULL,
     .read = read_ray, .given = AT(raycast_set)},
    {"max-throw", "V", "cap on the speed of a thrown ball, px/s", "5000",
     REAL(max_throw, DBL_TRUE_MIN, BP_SPEED_MAX), .why = "is not a speed in (0, 10^7] px/s"},
    {"trails", "S", "draw each ball's last S seconds of path, 0..60", "0", REAL(trails, 0, 60),
     .why = "is not a number of seconds from 0 to 60"},
    {"vectors", NULL, "draw velocity arrows", NULL, FLAG(vectors)},
    {"color-by", "WHAT", "colour balls by id, speed or sleep", "id", .read = read_color_by},
    {"debug-view", NULL, "draw the grid and the contacts", NULL, FLAG(debug_view)},
    {"inspect", "ID", "pin the inspector panel to ball ID", NULL, WHOLE(inspect, 0, UINT32_MAX),
     .as = AS_I64, .why = "is not a ball id from 0 to 4294967295"},
    {"stats", NULL, "with --headless: print step-time statistics at the end", NULL,
     FLAG(stats)},
    {"history", "S", "keep the last S seconds for rewinding, 0: off", "30",
     REAL(history, 0, 3600), .given = AT(history_set),
     .why = "is not a number of seconds from 0 to 3600"},
    {"help", NULL, "print this summary and exit", NULL, FLAG(help), .letter = 'h'},
    {"version", NULL, "print the version and exit", NULL, FLAG(version)},
};

#define ROWS (sizeof rows / sizeof rows[0])
/* getopt_long's value for rows[k]: above every character. */
#define OPT_ROW 256

bp_options bp_options_default(void)
{
    bp_options opts = {.params = bp_params_default(), .inspect = -1};
    char err[256];
    for (size_t k = 0; k < ROWS; k++) {
        int status = rows[k].dflt ? rows[k].read(&rows[k], rows[k].dflt, &opts, err, sizeof err)
                                  : 0;
        assert(status == 0 && "every default in the table is a value its option takes");
        (void)status;
    }
    return opts;
}

const char *bp_options_usage(void)
{
    static char text[8192];
    size_t used = (size_t)snprintf(text, sizeof text, "usage: ballpit [options]\n");
    for (size_t k = 0; k < ROWS && used < sizeof text; k++) {
        const opt_row *o = &rows[k];
        char letter[8] = "", left[64];
        if (o->letter)
            snprintf(letter, sizeof letter, "-%c, ", o->letter);
        snprintf(left, sizeof left, "%s--%s%s%s", letter, o->name, o->metavar ? " " : "",
                 o->metavar ? o->metavar : "");
        used += (size_t)snprintf(text + used, sizeof text - used, "  %-21s %s%s%s%s\n", left,
                                 o->help, o->dflt ? " (" : "", o->dflt ? o->dflt : "",
                                 o->dflt ? ")" : "");
    }
    assert(used < sizeof text && "--help fits its buffer");
    return text;
}

/* The option of the first world parameter among set (BP_SET_*), or NULL. */
static const char *physics_option(unsigned set)
{
    for (size_t k = 0; k < ROWS; k++)
        if (set & rows[k].param_bit)
            return rows[k].name;
    return NULL;
}

/* getopt_long's description of the table: its long options into
 * longs[ROWS + 1], its letters into shorts[2 * ROWS + 3]. Scanning stops at
 * the first argument that is no option ('+'), so the one being read is
 * always argv[optind] as getopt_long is called. */
static void getopt_table(struct option *longs, char *shorts)
{
    size_t n = 0;
    shorts[n++] = '+';
    shorts[n++] = ':';
    for (size_t k = 0; k < ROWS; k++) {
        longs[k] = (struct option){rows[k].name,
                                   rows[k].metavar ? required_argument : no_argument, NULL,
                                   OPT_ROW + (int)k};
        if (rows[k].letter) {
            shorts[n++] = rows[k].letter;
            if (rows[k].metavar)
                shorts[n++] = ':';
        }
    }
    longs[ROWS] = (struct option){NULL, 0, NULL, 0};
    shorts[n] = '\0';
}

/* The row getopt_long's answer c stands for, or NULL. */
static const opt_row *row_of(int c)
{
    if (c >= OPT_ROW && c < OPT_ROW + (int)ROWS)
        return &rows[c - OPT_ROW];
    for (size_t k = 0; c > 0 && c < OPT_ROW && k < ROWS; k++)
        if (rows[k].letter == c)
            return &rows[k];
    return NULL;
}

/* The option whose name is nearest to arg's (its dashes and any =value
 * left out), if near enough to be the one meant; else NULL. */
static const char *nearest_option(const char *arg)
{
    arg += strspn(arg, "-");
    size_t len = strcspn(arg, "="), best = SIZE_MAX;
    const char *found = NULL;
    for (size_t k = 0; k < ROWS; k++) {
        size_t d = bp_edit_distance(arg, len, rows[k].name, strlen(rows[k].name));
        if (d < best) {
            best = d;
            found = rows[k].name;
        }
    }
    return found && bp_near_enough(best, len) ? found : NULL;
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
    for (size_t k = 0; k < ROWS && n >= 0; k++) {
        const char *name = rows[k].name;
        if (strncmp(name, arg + 2, len) != 0)
            continue;
        if (strlen(name) == len)
            return false; /* the whole name of one */
        used += (size_t)n;
        n = used < err_size ? snprintf(err + used, err_size - used, "%s--%s",
                                       matches++ ? ", " : " ", name)
                            : 0;
    }
    return len > 0 && matches > 1;
}

/* What getopt_long refused (c is '?' or ':'), said of the argument arg. */
static int refused(int c, const char *arg, char *err, size_t err_size)
{
    if (c == ':') {
        snprintf(err, err_size, "%s: needs a value", arg);
        return 2;
    }
    /* getopt names an option that got a value it does not take (--stats=1)
     * in optopt. */
    if (optopt >= OPT_ROW && optopt < OPT_ROW + (int)ROWS)
        return fail(err, err_size, rows[optopt - OPT_ROW].name, NULL, "takes no value");
    if (ambiguous(arg, err, err_size))
        return 2;
    const char *meant = nearest_option(arg);
    snprintf(err, err_size, "%s: unknown option%s%s%s", arg, meant ? " (did you mean --" : "",
             meant ? meant : "", meant ? "?)" : "");
    return 2;
}

/* Options that make others pointless: the benchmarks. */
static int check_bench(const bp_options *opts, char *err, size_t err_size)
{
    if (opts->bench_set && opts->bench_crowd_set) {
        snprintf(err, err_size, "--bench-crowd: cannot be combined with --bench");
        return 2;
    }
    bool benching = opts->bench_set || opts->bench_crowd_set;
    if (opts->bench_aspect_set && !benching) {
        snprintf(err, err_size, "--bench-aspect: needs --bench N or --bench-crowd N");
        return 2;
    }
    if (!benching)
        return 0;
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
    const char *ignored = opts->scene_path        ? "scene"
                          : opts->raycast_set     ? "raycast"
                          : opts->pit_set         ? "pit"
                          : opts->balls_set       ? "balls"
                          : physics               ? physics
                          : opts->settle > 0      ? "settle"
                          : opts->steps_set       ? "steps"
                          : opts->dump_dir        ? "dump"
                          : opts->replay_path     ? "replay"
                          : opts->record_path     ? "record-input"
                          : opts->save_scene_path ? "save-scene"
                                                  : NULL;
    if (ignored) {
        snprintf(err, err_size, "--%s: cannot be combined with --%s (the benchmark times a "
                                "fixed pit of its own)", which, ignored);
        return 2;
    }
    return 0;
}

/* The pit brings its own balls and arena; its physics may be overridden. */
static int check_pit(const bp_options *opts, char *err, size_t err_size)
{
    const char *clash = opts->scene_path                   ? "--scene"
                        : opts->balls_set                  ? "--balls"
                        : (opts->params_set & BP_SET_SIZE) ? "--arena"
                                                           : NULL;
    if (clash) {
        snprintf(err, err_size, "--pit: cannot be combined with %s (the pit brings its "
                                "own balls and arena)", clash);
        return 2;
    }
    char why[160];
    if (bp_pit_check(opts->pit, BP_PIT_ASPECT, why, sizeof why))
        return fail(err, err_size, "pit", NULL, why);
    return 0;
}

/* A ray cast takes no steps and writes nothing but its hits: what would
 * step, record or write frames would be silently ignored. */
static int check_raycast(const bp_options *opts, char *err, size_t err_size)
{
    /* A benchmark refuses a ray cast as it does the rest. */
    bool benching = opts->bench_set || opts->bench_crowd_set;
    const char *ignored = !opts->raycast_set || benching ? NULL
                          : opts->replay_path ? "--replay"
                          : opts->record_path ? "--record-input"
                          : opts->png         ? "--png"
                          : opts->dump_dir    ? "--dump"
                                              : NULL;
    if (!ignored)
        return 0;
    snprintf(err, err_size, "--raycast: cannot be combined with %s (a ray cast takes no steps)",
             ignored);
    return 2;
}

/* Options that need, or cannot go with, others (after the benchmarks' and
 * the pit's). */
static int check_combinations(const bp_options *opts, char *err, size_t err_size)
{
    bool benching = opts->bench_set || opts->bench_crowd_set;
    const char *why = NULL;
    if (opts->stats && benching)
        why = "--stats: does not apply to a benchmark (it prints its own line)";
    else if (opts->stats && opts->raycast_set)
        why = "--stats: does not apply to --raycast (a ray cast takes no steps)";
    else if (opts->stats && !opts->headless)
        why = "--stats: needs --headless (the window shows its step times in the HUD)";
    else if (opts->save_scene_path && opts->raycast_set)
        why = "--save-scene: does not apply to --raycast (a ray cast takes no steps)";
    else if (opts->record_path && opts->replay_path)
        why = "--record-input: cannot be combined with --replay";
    if (why) {
        snprintf(err, err_size, "%s", why);
        return 2;
    }
    return 0;
}

/* Reads the value v of row o into opts and marks it given; an option given
 * before (seen) is refused: which of the two was meant is anyone's guess. */
static int take(const opt_row *o, const char *v, bool *seen, bp_options *opts, char *err,
                size_t err_size)
{
    if (seen[o - rows])
        return fail(err, err_size, o->name, NULL, "given more than once (give each option once)");
    seen[o - rows] = true;
    int status = o->read(o, v, opts, err, err_size);
    if (status)
        return status;
    if (o->given)
        *(bool *)((char *)opts + o->given) = true;
    opts->params_set |= o->param_bit;
    return 0;
}

int bp_options_parse(bp_options *opts, int argc, char **argv, char *err, size_t err_size)
{
    struct option longs[ROWS + 1];
    char shorts[2 * ROWS + 3];
    bool seen[ROWS] = {false};
    getopt_table(longs, shorts);
    optind = 0; /* GNU: restart scanning, so the parser can run more than once */
    opterr = 0;
    for (;;) {
        int at = optind > 0 ? optind : 1; /* the argument getopt_long reads */
        int c = getopt_long(argc, argv, shorts, longs, NULL);
        if (c == -1)
            break;
        const opt_row *o = row_of(c);
        int status = o ? take(o, optarg, seen, opts, err, err_size)
                       : refused(c, argv[at < argc ? at : argc - 1], err, err_size);
        if (status)
            return status;
    }
    if (optind < argc) {
        snprintf(err, err_size, "%s: unexpected argument (options start with --)", argv[optind]);
        return 2;
    }
    int status = check_raycast(opts, err, err_size);
    if (status)
        return status;
    if (opts->png && !opts->dump_dir) {
        snprintf(err, err_size, "--png: needs --dump DIR");
        return 2;
    }
    status = check_bench(opts, err, err_size);
    if (status == 0 && opts->pit_set)
        status = check_pit(opts, err, err_size);
    if (status == 0)
        status = check_combinations(opts, err, err_size);
    return status;
}
