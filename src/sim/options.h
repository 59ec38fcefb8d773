/* The command line (docs/cli.md), parsed with getopt_long into one struct and
 * validated once; every option is one row of the table in options.c. No SDL
 * here: the tests parse command lines too. */
#ifndef BP_OPTIONS_H
#define BP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "program.h"

/* Bytes a --save-scene path is given on top for its partial file's name
 * (sceneout.h). */
#define BP_SAVE_PART_ROOM 16

/* Most steps --settle takes. */
#define BP_SETTLE_MAX 1000000u

/* Which world parameters the user gave explicitly (they beat the scene). */
enum {
    BP_SET_SIZE = 1u << 0,
    BP_SET_GRAVITY = 1u << 1,
    BP_SET_RESTITUTION = 1u << 2,
    BP_SET_FRICTION = 1u << 3,
    BP_SET_DRAG = 1u << 4,
    BP_SET_HZ = 1u << 5,
    BP_SET_ROLLING = 1u << 6,
    BP_SET_SOLVER = 1u << 7,
};

/* What colours the balls (--color-by). */
typedef enum bp_color_by { BP_COLOR_ID, BP_COLOR_SPEED, BP_COLOR_SLEEP, BP_COLOR_BY_COUNT } bp_color_by;

typedef struct bp_options {
    bp_params params;
    unsigned params_set;     /* BP_SET_* */
    uint64_t balls;          /* random balls when no scene gives balls ... */
    bool balls_set;          /* ... if --balls was given */
    double radius_min, radius_max; /* px */
    bool radius_set;         /* --radius was given */
    uint64_t seed;
    const char *scene_path;
    const char *scene_text;  /* the scene itself, parsed instead of scene_path's
                              * file (a recording's scene input); scene_path then
                              * names it in messages ... */
    int scene_line;          /* ... whose lines count from this one (1: its own) */
    uint64_t steps;          /* stop after this many steps ... */
    bool steps_set;          /* ... if given */
    bool headless;
    const char *dump_dir;
    uint64_t dump_every;
    bool png;
    int threads;
    uint64_t bench;          /* balls in the benchmark pit ... */
    bool bench_set;          /* ... if --bench was given */
    double bench_aspect;     /* the pit's width over height ... */
    bool bench_aspect_set;   /* ... if --bench-aspect was given */
    uint64_t bench_crowd;    /* balls in the all-awake crowd benchmark ... */
    bool bench_crowd_set;    /* ... if --bench-crowd was given */
    uint64_t pit;            /* the world is the benchmark pit of this many balls ... */
    bool pit_set;            /* ... if --pit was given */
    uint64_t settle;         /* steps the world takes before the run starts */
    const char *record_path;
    const char *replay_path;
    const char *save_scene_path; /* --save-scene: where the world goes at the end */
    bool raycast_set;
    double ray[4];           /* x, y, dx, dy */
    double max_throw;        /* cap on throw speed, px/s */
    /* How the picture looks (window and --png): */
    double trails;           /* seconds of trail behind each ball, 0: none */
    bool vectors;            /* velocity arrows */
    bp_color_by color_by;
    bool debug_view;         /* the grid and the contacts */
    int64_t inspect;         /* id of the ball the inspector follows, -1: none */
    bool stats;              /* headless: print the step-time line at the end */
    bool help, version;
    double history;          /* seconds of the past kept for rewinding, 0: none */
    bool history_set;        /* ... if --history was given */
} bp_options;

/* The documented defaults (docs/cli.md). */
bp_options bp_options_default(void);

/* Fills opts from argv. Returns 0 on success, else 2 with a one-line message
 * naming the option in err. */
int bp_options_parse(bp_options *opts, int argc, char **argv, char *err, size_t err_size);

/* The text --help prints. */
const char *bp_options_usage(void);

#endif
