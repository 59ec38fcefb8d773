/* The stirred pile (docs/benchmarks.md, "The stirred pile") for the stir
 * comparison program (stir.c): a stir recording read as a plain path that
 * another engine's hand can follow, and what one stir measured, in the
 * same terms for every engine. */
#ifndef BP_STIRPATH_H
#define BP_STIRPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay.h"
#include "steptime.h"

/* Most steps a hand is held: a day at 120 Hz (the path keeps each step's point). */
#define BP_STIR_MAX_HELD 10368000u

/* A hand made at (x0, y0) with radius r and held: before step s (from 0)
 * it is moved onto (x[s], y[s]), for s < moves; then it is let go at rest,
 * and the steps run on to end. */
typedef struct bp_stir_path {
    double x0, y0, r;
    double *x, *y;
    uint64_t moves;
    uint64_t end;
} bp_stir_path;

/* What a stir did to a pile. */
typedef struct bp_stir_result {
    bp_steptime steps;      /* each step of the recording, timed */
    double awake_sum;       /* balls of the pile awake after each timed step, summed */
    size_t asleep_at_start; /* balls of the pile asleep when the hand came */
    size_t moved;           /* balls of the pile that ended more than 2 radii from where
                             * the hand found them */
    size_t nudged;          /* ... more than a tenth of a radius */
    double moving_sum;      /* balls of the pile moving (bp_stir_moving) after each timed
                             * step, summed */
    size_t awake_at_end;    /* balls of the pile awake at the end */
    size_t escaped;         /* balls of the pile whose centre left the arena */
} bp_stir_result;

/* The path of a recording that spawns one ball at step 0, grabs it there,
 * moves it and lets it go at rest (what bench/stir.py writes), the whole
 * hand inside an arena of this width and height (the pit's it was written
 * for). 0, or 2 with a message naming the file for any other recording,
 * 1 when memory runs out. */
int bp_stir_path_read(const bp_replay *rp, const char *name, double width, double height,
                      bp_stir_path *path, char *err, size_t err_size);
void bp_stir_path_free(bp_stir_path *path);

/* Whether a ball of the pile at velocity (vx, vy) moves, in a world of
 * gravity g and hz steps a second: faster than a quarter of the speed
 * gravity adds in a step, the speed below which a ball may fall asleep.
 * What moves must be awake, so a stir's balls moving are the least any
 * solver that keeps only still balls asleep could keep awake. */
static inline bool bp_stir_moving(double vx, double vy, double g, double hz)
{
    double slow = 0.25 * (g < 0.0 ? -g : g) / hz;
    return vx * vx + vy * vy > slow * slow;
}

/* Fills out's moved, nudged and escaped: the pile's count balls of radius r,
 * where the hand found them (start) and at the end (end), as (x, y) pairs
 * by ball, in an arena of this width and height (a NaN centre, a ball
 * lost, counts as escaped). */
void bp_stir_measure(const double *start, const double *end, size_t count, double r,
                     double width, double height, bp_stir_result *out);

#endif
