/* The energy strip chart (K): kinetic, rotational, potential and total
 * energy over the last 10 s of simulated time, with the momentum. */
#ifndef BP_CHART_H
#define BP_CHART_H

#include <stdbool.h>
#include <stdint.h>

#include "ballpit/ballpit.h"
#include "paint.h"

#define BP_CHART_SAMPLES 600
#define BP_CHART_SECONDS 10.0

typedef struct bp_chart {
    bp_energy e[BP_CHART_SAMPLES]; /* a ring, oldest at head - count */
    double t[BP_CHART_SAMPLES];    /* simulated time of each, s */
    int head, count;
    uint64_t last_step;
    double start_total;            /* total energy at the first sample */
    bool started;
} bp_chart;

/* After a step: samples the world every 10 s / BP_CHART_SAMPLES of
 * simulated time. A world gone back in steps (reset) starts afresh. */
void bp_chart_record(bp_chart *c, const bp_world *world);
/* Draws the chart in the top right corner of out, text at text_scale. */
void bp_chart_draw(const bp_chart *c, const bp_pixels *out, int text_scale);

#endif
