/* Every tolerance of the physics in one place: how close is touching, how
 * deep is jammed, how fast is fast, how slow is asleep.
 *
 * None is in pixels or pixels per second: each is a fraction of a ball's
 * radius (of the smaller one, for a pair), of the speed gravity adds in one
 * step, of a step's time, or a plain number. A world scaled by any factor
 * (radii, arena, walls and gravity alike) therefore makes the same
 * decisions and moves the same, up to that factor (tests/test_scale.c).
 * Loop counts and budgets that only tune the work (passes, sweeps, grid
 * cells) stay beside the code they tune. */
#ifndef BP_TOLERANCES_H
#define BP_TOLERANCES_H

/* ---- Touching ---------------------------------------------------------- */

/* Two balls closer than their summed radii plus this fraction of the
 * smaller radius touch; a ball closer than its radius (plus a wall's) plus
 * this fraction of its own radius to a wall or side touches it. A resting
 * contact that rounding left a hair apart must still count, for the push,
 * the bounce and the grounded flag. 0.01 px for a ball of 5 px. */
#define BP_TOUCH_OVER_R 0.002

/* ... but a pair's touch margin is at most this fraction of the world's
 * smallest radius: with radii 0.5 and 5000 in one world, 0.002 of the big
 * ones is 20 small radii, and the pair list, which must be at least that
 * wide, held 28 times the pairs (the margin still spans far more than the
 * rounding of any pair's distance). */
#define BP_TOUCH_MOST_OVER_R_MIN 0.5

/* The pair list takes neighbours up to this fraction of the world's
 * smallest radius apart (never less than the touch margin of the largest
 * balls): pushes within a pass move balls into neighbours that were not
 * touching when the list was made (passes.c). */
#define BP_LIST_MARGIN_OVER_R 1.0

/* Support contacts (support.c) count this close, as a fraction of the
 * world's smallest radius: a ball just above its supporter may come down
 * onto it but not into it. Below the list margin, so every such pair is
 * listed. */
#define BP_SUPPORT_MARGIN_OVER_R 0.25

/* A sleeper this close to a deleted ball, as a fraction of the sleeper's
 * radius, counts as resting on it and wakes. */
#define BP_WAKE_MARGIN_OVER_R 0.25

/* ---- Jammed: overlaps, as fractions of the smaller radius of a pair ---- */

/* The clean-up passes stop once no overlap is deeper than this. */
#define BP_CLEANUP_OVER_R 0.01
/* ... and push a pair only to this overlap, not to exactly touching: each
 * push to exactly touching nudged a neighbour into a fresh overlap a
 * rounding error deep, which ran through a whole pile pass after pass. */
#define BP_CLEANUP_SLOP_OVER_R 0.002
/* Two balls awake overlapping deeper than this are jammed: one that is
 * ready to sleep waits for the other (sleep.c). At most the clean-up's
 * stop, which takes out deeper overlaps unless neighbours hold them. */
#define BP_SLEEP_JAM_OVER_R 0.01
/* A sleeper pressed deeper than resting contact explains (the wake overlap
 * below) by this much more wakes. */
#define BP_SLEEP_OVERLAP_OVER_R 0.02

/* ---- Fast: travel in one step or substep, in the ball's own radii ------ */

/* A ball moving more than this many radii in one step is fast and is swept
 * against the other balls (sweep.c): two slower balls close by less than
 * their summed radii per step, so their centres cannot pass each other. */
#define BP_FAST_FRACTION 1.0
/* A step in which some ball would travel more than this many radii is
 * split into substeps (step.c): a crowd landing faster drives balls deep
 * into a pile before any contact is seen. */
#define BP_SUBSTEP_TRAVEL 2.5
/* The sweep looks for partners this many of the largest radii beyond its
 * reach for a slow partner (BP_FAST_FRACTION of its radius off the cell it
 * was filed under): room for rounding in where a ball was filed. */
#define BP_SWEEP_SLACK_OVER_R 0.2

/* ---- Asleep: speeds in units of one step's gravity, g / hz ------------- */

/* Approach speeds below this bounce with restitution 0, so that a resting
 * ball does not buzz: a resting ball gathers one step's gravity a step,
 * more than twice that is a fall. */
#define BP_REST_SPEED_OVER_G_STEP 2.0
/* A supported ball slower than this is calm: a resting ball ends each step
 * with at most a part of one step's gravity left over (8 px/s at 980 px/s^2
 * and 120 Hz, a creep too slow to watch). */
#define BP_SLEEP_SPEED_OVER_G_STEP 1.0
/* A ball approaching a sleeper faster than this wakes it: resting on it
 * closes in at up to one step's gravity a step. */
#define BP_WAKE_SPEED_OVER_G_STEP 4.0
/* A ball pressed into a sleeper deeper than this many steps of gravity's
 * fall (g / hz^2) wakes it: resting on it sinks in by up to one before the
 * passes push back out. BP_SLEEP_OVERLAP_OVER_R comes on top. */
#define BP_WAKE_OVERLAP_OVER_G_FALL 2.0
/* How long (s) a ball must be calm before it sleeps: the shortest wait that
 * still lets a pile stop creeping first (docs/benchmarks.md, "Tuning"). */
#define BP_SLEEP_AFTER_S 0.05
/* The most a calm ball's velocity may change from the step its calm began,
 * as a part of the sleep speed: a ball turning back at the top of its roll
 * up a slope of 8 degrees or more changes by more within the calm steps,
 * while a ball rocking in a pocket of a pile stays within it. */
#define BP_SLEEP_TURN 0.5
/* The most a ball held in place moves in a step, as a part of the sleep
 * speed's travel in a step. */
#define BP_SLEEP_HELD 0.1

/* ---- Directions: plain numbers ------------------------------------------ */

/* Steepest floor, degrees: a contact normal within this of "up" is a floor
 * (the grounded flag), beyond it a wall or a ceiling. */
#define BP_SLOPE_LIMIT_DEG 45.0
/* A ball rests on a lower ball when the contact normal leans at least this
 * much against gravity (the sine of ~6 degrees): with ~17 degrees, balls
 * wedged between two neighbours at flatter angles counted as unsupported
 * and never came to rest. */
#define BP_SUPPORT_MIN_UP 0.1

/* ---- Rounding: far below anything visible, above rounding errors ------- */

/* A move into a wall or side shorter than this fraction of the ball's
 * radius, over the whole move, is sliding along it: after a contact the
 * normal speed is zero only up to rounding, and that contact must not be
 * found again at once. */
#define BP_APPROACH_OVER_R 2e-10
/* Two balls close along their line of centres only if the cosine between
 * their relative motion and that line is below minus this: a pair that has
 * just collided is level up to rounding and must not be found again. */
#define BP_APPROACH_COS 1e-9
/* Centres closer than this fraction of the summed radii (of a ball and a
 * wall: of the ball's radius) are one point, with no direction between
 * them: a fixed normal is used instead of dividing by almost zero. */
#define BP_COINCIDENT_OVER_R 1e-12
/* Rounding allowed in velocity tests, as a fraction of the speeds in the
 * test (the velocity, and the rest speed): a velocity projected onto a
 * surface is level with it only up to rounding. */
#define BP_SPEED_ROUNDING 1e-9
/* ... and in the supported pass's velocity bounds, which a velocity built
 * from several projections meets less exactly: this fraction of the bound
 * plus of BP_BOUND_SPEED_OVER_REST rest speeds (1 px/s at 980 px/s^2 and
 * 120 Hz, the floor it had as an absolute allowance). */
#define BP_BOUND_ROUNDING 1e-7
#define BP_BOUND_SPEED_OVER_REST 0.0625

#endif
