#include "workers.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct bp_workers {
    int count;
    int cores; /* of count, how many the machine can run at once */
    pthread_t *threads;
    pthread_mutex_t lock;
    pthread_cond_t start;
    pthread_cond_t done;
    /* Changed under lock only; atomic so that waiting can spin outside it. */
    atomic_ulong generation; /* bumped for each job */
    atomic_int busy;         /* helpers that took up the current job */
    atomic_bool quit;
    bp_job job;
    void *context;
    int pieces;
    /* Pieces taken so far: from the front (the caller) in the low half,
     * from the back (the helpers) in the high half. */
    atomic_ullong taken;
};

/* How long a thread spins for the next job, or for a helper's last piece,
 * before it sleeps: a step hands out dozens of jobs, most a few
 * microseconds apart, and waking a sleeping thread costs a system call on
 * each side and tens of microseconds before it runs. The parts of the step
 * that one thread runs alone take up to a few milliseconds while a big pit
 * lands; 50,000 idle rounds (bp_workers_idle_round, a few milliseconds)
 * cover most of them, and a helper without work still gives its core back
 * soon
 * (figures: docs/benchmarks.md, "Two threads"). */
#define BP_WORKERS_IDLE_SPINS 50000
/* A wait for a job longer than this (s) was not within a step. */
#define BP_WORKERS_LONG_WAIT_S 0.004
/* How long a helper spins for the next job after a long wait (the caller
 * was between steps) before it sleeps. */
#define BP_WORKERS_SPINS 2000

/* Takes pieces until none is left: the caller from the first piece on,
 * the helpers from the last piece back. Jobs over the same strips then
 * find each strip's balls in the cache of the core that had them last job,
 * since fetching a line another core wrote costs hundreds of nanoseconds.
 * Neighbouring pieces
 * (strips of the same parity, four cell columns apart) write bytes and
 * counters that share cache lines, and the two threads meet only once, at
 * the last piece. */
static void work_through(bp_workers *pool, bp_job job, void *context, int pieces, bool front)
{
    const unsigned long long one = front ? 1ull : 1ull << 32;
    for (;;) {
        unsigned long long seen = atomic_load(&pool->taken);
        unsigned long long from_front, from_back;
        do {
            from_front = seen & 0xffffffffull;
            from_back = seen >> 32;
            if (from_front + from_back >= (unsigned long long)pieces)
                return;
        } while (!atomic_compare_exchange_weak(&pool->taken, &seen, seen + one));
        job(context, front ? (int)from_front : pieces - 1 - (int)from_back);
    }
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *helper_main(void *arg)
{
    bp_workers *pool = arg;
    unsigned long seen = 0;
    /* The last wait for a job. One longer than BP_WORKERS_LONG_WAIT_S was
     * the caller between steps (a window waits for the next frame), and the
     * next wait spins only briefly: a pile at rest in a window stepping at
     * 120 Hz kept a third of a core busy spinning the long wait after every
     * step. */
    double last_wait = 0.0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        double wait_start = seconds_now();
        if (!pool->quit && pool->generation == seen) {
            pthread_mutex_unlock(&pool->lock);
            int spins = last_wait <= BP_WORKERS_LONG_WAIT_S ? BP_WORKERS_IDLE_SPINS
                                                             : BP_WORKERS_SPINS;
            for (int spin = 0; spin < spins && !atomic_load(&pool->quit) &&
                               atomic_load(&pool->generation) == seen;
                 spin++)
                bp_workers_idle_round(spin);
            pthread_mutex_lock(&pool->lock);
        }
        while (!pool->quit && pool->generation == seen)
            pthread_cond_wait(&pool->start, &pool->lock);
        if (pool->quit)
            break;
        last_wait = seconds_now() - wait_start;
        seen = pool->generation;
        bp_job job = pool->job;
        void *context = pool->context;
        int pieces = pool->pieces;
        /* While busy, the caller neither returns nor hands out the next
         * job, so the pieces taken below are this job's. */
        pool->busy++;
        pthread_mutex_unlock(&pool->lock);
        work_through(pool, job, context, pieces, false);
        pthread_mutex_lock(&pool->lock);
        if (--pool->busy == 0)
            pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

bp_workers *bp_workers_create(int threads)
{
    if (threads < 1)
        threads = 1;
    bp_workers *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pool->count = threads;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    pool->cores = online >= 1 && online < threads ? (int)online : threads;
    pool->threads = calloc((size_t)threads, sizeof(pthread_t));
    if (!pool->threads) {
        free(pool);
        return NULL;
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->start, NULL);
    pthread_cond_init(&pool->done, NULL);
    for (int t = 1; t < threads; t++) {
        if (pthread_create(&pool->threads[t], NULL, helper_main, pool) != 0) {
            pool->count = t; /* the helpers that did start */
            bp_workers_destroy(pool);
            return NULL;
        }
    }
    return pool;
}

void bp_workers_destroy(bp_workers *pool)
{
    if (!pool)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->quit = true;
    pthread_cond_broadcast(&pool->start);
    pthread_mutex_unlock(&pool->lock);
    for (int t = 1; t < pool->count; t++)
        pthread_join(pool->threads[t], NULL);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->start);
    pthread_cond_destroy(&pool->done);
    free(pool->threads);
    free(pool);
}

int bp_workers_count(const bp_workers *pool)
{
    return pool ? pool->count : 1;
}

int bp_workers_cores(const bp_workers *pool)
{
    return pool ? pool->cores : 1;
}

void bp_workers_run(bp_workers *pool, bp_job job, void *context, int pieces)
{
    if (!pool || pool->count == 1 || pieces <= 1) {
        for (int piece = 0; piece < pieces; piece++)
            job(context, piece);
        return;
    }
    pthread_mutex_lock(&pool->lock);
    while (pool->busy > 0) /* a helper that woke after the last job ended */
        pthread_cond_wait(&pool->done, &pool->lock);
    pool->job = job;
    pool->context = context;
    pool->pieces = pieces;
    atomic_store(&pool->taken, 0);
    pool->generation++;
    pthread_cond_broadcast(&pool->start);
    pthread_mutex_unlock(&pool->lock);
    work_through(pool, job, context, pieces, true);
    for (int spin = 0; spin < BP_WORKERS_IDLE_SPINS && atomic_load(&pool->busy) > 0; spin++)
        bp_workers_idle_round(spin);
    pthread_mutex_lock(&pool->lock);
    while (pool->busy > 0)
        pthread_cond_wait(&pool->done, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}
