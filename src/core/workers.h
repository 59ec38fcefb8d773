/* A small pool of worker threads for the parts of the step that split into
 * independent pieces. Every piece is fixed by the data, never by the
 * number of threads, so results are the same with any --threads. */
#ifndef BP_WORKERS_H
#define BP_WORKERS_H

#include <stdbool.h>

typedef struct bp_workers bp_workers;

/* A job: called once on every worker (worker in [0, workers)), each doing
 * its own share, e.g. pieces worker, worker + workers, ... */
typedef void (*bp_job)(void *context, int worker, int workers);

/* Starts threads - 1 helper threads (the caller is worker 0). NULL when
 * threads cannot be had. */
bp_workers *bp_workers_create(int threads);
void bp_workers_destroy(bp_workers *workers);
int bp_workers_count(const bp_workers *workers);

/* Runs job on every worker and returns when all are done. With a NULL pool
 * the caller runs it alone as worker 0 of 1. */
void bp_workers_run(bp_workers *workers, bp_job job, void *context);

#endif
