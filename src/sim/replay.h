/* Inputs that reach the simulation, and the text file that records them
 * (--record-input) and feeds them back (--replay).
 *
 * Format: a first line "ballpit-input 1", then one input per line as
 * "STEP KIND ARGS...", STEP being the number of physics steps taken when
 * the input acts (it acts before the next step), never decreasing; a last
 * line "end STEP" with the steps the recorded session ran. '#' starts a
 * comment. Kinds and arguments (px, px/s):
 *     grab X Y          pick the topmost ball under the cursor at (X, Y)
 *     move X Y          the cursor moved to (X, Y)
 *     release VX VY     let go; the ball leaves with velocity (VX, VY)
 *     pause / resume    the session paused or resumed (moves then place)
 *     reset             back to the initial state
 *     spawn X Y R [M]   a new ball of radius R (mass M, else R^2) at rest at
 *                       (X, Y), or the nearest free spot within 3 R (none:
 *                       no ball, and the line is not written)
 *     delete X Y        remove the topmost ball under (X, Y)
 *     set NAME VALUE    gravity, restitution, friction, drag, rolling or hz
 *     wall X1 Y1 X2 Y2 R  a new static wall
 *     rewind S          back to the state after step S (at most STEP); the
 *                       inputs after it are stamped from S on again; not
 *                       to before the last scene load (the history starts
 *                       again there)
 *     scene N           another scene loaded (Ctrl+O): the next N lines are
 *                       its file's text, whole, so the replay does not hang
 *                       on a file that may change or move; the world is
 *                       built from it as --scene would (with the run's other
 *                       options), and R then resets to it
 * Numbers are written with %.17g, so a replay sets the very same bits. A file
 * without its end line, or whose last line lacks its newline, was cut short
 * and is rejected. */
#ifndef BP_REPLAY_H
#define BP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "program.h"

typedef enum bp_input_kind {
    BP_INPUT_GRAB,
    BP_INPUT_MOVE,
    BP_INPUT_RELEASE,
    BP_INPUT_PAUSE,
    BP_INPUT_RESUME,
    BP_INPUT_RESET,
    BP_INPUT_SPAWN,
    BP_INPUT_DELETE,
    BP_INPUT_SET,
    BP_INPUT_WALL,
    BP_INPUT_UNWALL,   /* x y: removes the wall there (the last drawn first) */
    BP_INPUT_WALL_END, /* k e x y: moves end e (0 or 1) of wall k to (x, y) */
    BP_INPUT_INSPECT,  /* id: pins the inspector to that ball; -1 unpins */
    BP_INPUT_DELWALL,  /* k: removes wall k (undo of a wall drawn) */
    BP_INPUT_REMOVE,   /* id: removes that ball (undo of a spawn) */
    BP_INPUT_REWIND,   /* s: back to the state after step s (history.h) */
    BP_INPUT_RESTORE,  /* id x y r m vx vy w angle: ball id back as it was (undo of a delete) */
    BP_INPUT_SCENE,    /* n: the scene in text (n lines) replaces the world */
} bp_input_kind;

/* The world parameters an input may set. */
typedef enum bp_input_param {
    BP_PARAM_GRAVITY,
    BP_PARAM_RESTITUTION,
    BP_PARAM_FRICTION,
    BP_PARAM_DRAG,
    BP_PARAM_ROLLING, /* rolling resistance (the panel's slider) */
    BP_PARAM_HZ,      /* steps per second (the panel's slider) */
} bp_input_param;

typedef struct bp_input {
    bp_input_kind kind;
    uint64_t step;        /* physics steps taken when it acts */
    bp_input_param param; /* for BP_INPUT_SET */
    double v[9];          /* arguments in file order */
    int line;             /* where it was read, 0 if not from a file */
    char *text;           /* for BP_INPUT_SCENE: the scene file's text, v[0] lines
                           * (a replay's inputs: the replay owns it; else the
                           * caller's, needed only while the input is applied) */
    const char *name;     /* for BP_INPUT_SCENE: the file messages name, the text
                           * starting at its line line + 1 (line 0: its own file) */
} bp_input;

/* Name of a kind or a parameter as written in the file. */
const char *bp_input_kind_name(bp_input_kind kind);
const char *bp_input_param_name(bp_input_param param);

/* A recording being written. */
typedef struct bp_input_writer {
    FILE *out;
    char *path;
} bp_input_writer;

/* Creates path and writes the header. false with a message on failure. */
bool bp_input_writer_open(bp_input_writer *w, const char *path, char *err, size_t err_size);
/* Appends one input and flushes it, so a crash loses nothing already done. */
bool bp_input_writer_put(bp_input_writer *w, const bp_input *in, char *err, size_t err_size);
/* Writes "end STEP" and closes; false if anything was lost. */
bool bp_input_writer_close(bp_input_writer *w, uint64_t end_step, char *err, size_t err_size);

/* A parsed recording. */
typedef struct bp_replay {
    bp_input *inputs;
    size_t count, capacity;
    size_t next;       /* first input not yet fed */
    uint64_t end_step; /* steps the recorded session ran */
    uint64_t scene_step; /* step of the last scene input: no rewind goes back
                          * past it */
    char *name;        /* the recording's, owned: its scene inputs' name */
} bp_replay;

/* Lines in a scene's text as a scene input writes them (a last line
 * without its newline gets one). */
size_t bp_input_scene_lines(const char *text);

/* Parses text read from a file called name. Returns 0, 2 with
 * "NAME:LINE: message" in err, or 1 when memory runs out. */
int bp_replay_parse(bp_replay *rp, const char *name, const char *text, size_t len, char *err,
                    size_t err_size);
/* Reads and parses a file (an unreadable file is bad input: 2). */
int bp_replay_load(bp_replay *rp, const char *path, char *err, size_t err_size);
/* Checks the inputs that must fit the arena, as a scene's balls and walls
 * must: a spawned ball no larger than the arena, a wall's ends inside it
 * (drawn or moved), a scene input's balls and walls inside its own arena,
 * which the inputs after it must fit. first: the arena they start in.
 * 0, or 2 with "NAME:LINE: message" (1 when memory runs out). */
int bp_replay_check_arena(const bp_replay *rp, const bp_params *first, const char *name,
                          char *err, size_t err_size);
void bp_replay_free(bp_replay *rp);

/* Whether any input is a rewind (only those need the session's history). */
bool bp_replay_rewinds(const bp_replay *rp);

/* The next input due at step, or NULL when none is (then the caller steps). */
const bp_input *bp_replay_next(bp_replay *rp, uint64_t step);

#endif
