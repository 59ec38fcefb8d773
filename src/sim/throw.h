/* Throw velocity from the cursor's recent motion.
 *
 * The cursor is sampled whenever an input event arrives, at uneven times
 * (event timestamps, not frames), so the estimate is the cursor's average
 * velocity over a fixed window of time before the release:
 *     v = (p(t_end) - p(t_end - window)) / window,
 * with p(t) rebuilt from the samples. That makes the same flick give the same
 * throw at any frame rate, and a cursor held still through the window give
 * zero (a gentle drop). No SDL here: the tests feed samples by hand. */
#ifndef BP_THROW_H
#define BP_THROW_H

#include <stddef.h>

/* Samples kept; older ones fall out (they are far outside any window). */
#define BP_THROW_CAPACITY 128
/* Default averaging window, s. */
#define BP_THROW_WINDOW 0.06
/* Longest time between two samples that still counts as one movement, s.
 * Input arrives at least this often while the cursor moves (at 20 fps and
 * up), so a longer gap means the cursor rested and then moved: it is taken
 * to be still until this long before the later sample. */
#define BP_THROW_MAX_GAP 0.05

typedef struct bp_throw_sample {
    double t;    /* s, any origin, never decreasing */
    double x, y; /* px */
} bp_throw_sample;

typedef struct bp_throw_tracker {
    bp_throw_sample s[BP_THROW_CAPACITY]; /* ring buffer */
    size_t start, count;
} bp_throw_tracker;

/* Forgets every sample (call on grab). */
void bp_throw_reset(bp_throw_tracker *tr);
/* Adds the cursor position (px) at time t (s). A time earlier than the last
 * sample's is taken as the last sample's; a sample at the same time replaces
 * the earlier one (SDL stamps a batch of events with one time). */
void bp_throw_add(bp_throw_tracker *tr, double t, double x, double y);
/* Cursor velocity (px/s) averaged over the window (s) that ends at the last
 * sample, scaled down to at most max_speed (px/s). Zero with fewer than two
 * samples. Before the first sample the cursor counts as resting there. */
void bp_throw_velocity(const bp_throw_tracker *tr, double window, double max_speed, double *vx,
                       double *vy);

#endif
