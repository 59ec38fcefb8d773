/* A minimal TAP producer for meson's 'tap' protocol: each check prints one
 * "ok"/"not ok" line with a description and, on failure, the values. */
#ifndef BP_TAP_H
#define BP_TAP_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_count;
static int tap_failed;

static inline void tap_result(int ok, const char *what)
{
    tap_count++;
    if (!ok)
        tap_failed++;
    printf("%s %d - %s\n", ok ? "ok" : "not ok", tap_count, what);
}

#define TAP_OK(cond, what)                                                                     \
    do {                                                                                       \
        int tap_ok_ = (cond) ? 1 : 0;                                                          \
        tap_result(tap_ok_, what);                                                             \
        if (!tap_ok_)                                                                          \
            printf("#   failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);                    \
    } while (0)

/* |got - want| <= tol */
#define TAP_NEAR(got, want, tol, what)                                                         \
    do {                                                                                       \
        double tap_g_ = (got), tap_w_ = (want), tap_t_ = (tol);                                \
        int tap_ok_ = fabs(tap_g_ - tap_w_) <= tap_t_;                                         \
        tap_result(tap_ok_, what);                                                             \
        if (!tap_ok_)                                                                          \
            printf("#   got %.17g, want %.17g +- %.3g (%s:%d)\n", tap_g_, tap_w_, tap_t_,      \
                   __FILE__, __LINE__);                                                        \
    } while (0)

/* A check of work not yet done: TAP's TODO, reported but not failing the
 * run while it fails, and seen at once when it starts to pass. */
#define TAP_TODO(cond, what, why)                                                              \
    do {                                                                                       \
        int tap_ok_ = (cond) ? 1 : 0;                                                          \
        tap_count++;                                                                           \
        printf("%s %d - %s # TODO %s\n", tap_ok_ ? "ok" : "not ok", tap_count, what, why);     \
    } while (0)

static inline int tap_done(void)
{
    printf("1..%d\n", tap_count);
    return tap_failed ? 1 : 0;
}

#endif
