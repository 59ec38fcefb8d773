#include "throw.h"

#include <math.h>

void bp_throw_reset(bp_throw_tracker *tr)
{
    tr->start = 0;
    tr->count = 0;
}

static const bp_throw_sample *sample_at(const bp_throw_tracker *tr, size_t k)
{
    return &tr->s[(tr->start + k) % BP_THROW_CAPACITY];
}

void bp_throw_add(bp_throw_tracker *tr, double t, double x, double y)
{
    if (tr->count > 0) {
        bp_throw_sample *last = &tr->s[(tr->start + tr->count - 1) % BP_THROW_CAPACITY];
        if (!(t > last->t)) {
            last->x = x;
            last->y = y;
            return;
        }
    }
    if (tr->count == BP_THROW_CAPACITY) {
        tr->start = (tr->start + 1) % BP_THROW_CAPACITY;
        tr->count--;
    }
    tr->s[(tr->start + tr->count) % BP_THROW_CAPACITY] = (bp_throw_sample){t, x, y};
    tr->count++;
}

/* Cursor position at time t between samples a and b: resting at a, then
 * moving in a straight line at constant speed for at most BP_THROW_MAX_GAP
 * before b. */
static void between(const bp_throw_sample *a, const bp_throw_sample *b, double t, double *x,
                    double *y)
{
    double move_start = b->t - a->t > BP_THROW_MAX_GAP ? b->t - BP_THROW_MAX_GAP : a->t;
    if (t <= move_start) {
        *x = a->x;
        *y = a->y;
        return;
    }
    double f = (t - move_start) / (b->t - move_start);
    *x = a->x + (b->x - a->x) * f;
    *y = a->y + (b->y - a->y) * f;
}

/* Position at time t, for t no later than the last sample. */
static void position_at(const bp_throw_tracker *tr, double t, double *x, double *y)
{
    const bp_throw_sample *first = sample_at(tr, 0);
    if (t <= first->t) {
        *x = first->x;
        *y = first->y;
        return;
    }
    /* The window reaches back over a handful of samples: search from the end. */
    for (size_t k = tr->count - 1; k > 0; k--) {
        const bp_throw_sample *a = sample_at(tr, k - 1), *b = sample_at(tr, k);
        if (t >= a->t) {
            between(a, b, t, x, y);
            return;
        }
    }
    *x = first->x;
    *y = first->y;
}

void bp_throw_velocity(const bp_throw_tracker *tr, double window, double max_speed, double *vx,
                       double *vy)
{
    *vx = 0.0;
    *vy = 0.0;
    if (tr->count < 2 || !(window > 0.0))
        return;
    const bp_throw_sample *last = sample_at(tr, tr->count - 1);
    double x0, y0;
    position_at(tr, last->t - window, &x0, &y0);
    double ux = (last->x - x0) / window, uy = (last->y - y0) / window;
    double speed = sqrt(ux * ux + uy * uy);
    if (speed > max_speed && speed > 0.0) {
        double k = max_speed / speed;
        ux *= k;
        uy *= k;
    }
    *vx = ux;
    *vy = uy;
}
