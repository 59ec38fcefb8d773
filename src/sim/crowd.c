#include "crowd.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Balls go into radius classes by powers of two: class L holds radii in
 * [2^(L-1), 2^L) (class 0 from 0.5), on a grid of cells 2^(L+1) px, a
 * class's largest diameter. Two balls of a class overlap only in
 * neighbouring cells; a ball meets a larger class's balls within 2 cells
 * either way. Within 3x3 cells of its own class at most about 60 balls fit
 * without overlapping, so past that every further ball adds overlaps: the
 * pairs looked at stay within a constant times the overlaps plus n. */
#define CLASSES 16
#define CELL_BITS 30

typedef struct keyed {
    uint64_t key; /* class, row, column, from the high bits down */
    uint32_t i;
} keyed;

static int radius_class(double r)
{
    int L = (int)floor(log2(r)) + 1;
    return L < 0 ? 0 : L >= CLASSES ? CLASSES - 1 : L;
}

static uint64_t cell_of(double v, int L)
{
    double c = floor(v / ldexp(1.0, L + 1));
    return c <= 0.0 ? 0 : c >= (double)((1u << CELL_BITS) - 1) ? (1u << CELL_BITS) - 1
                                                                 : (uint64_t)c;
}

static uint64_t key_of(int L, uint64_t row, uint64_t col)
{
    return (uint64_t)L << (2 * CELL_BITS) | row << CELL_BITS | col;
}

static int by_key(const void *a, const void *b)
{
    const keyed *p = a, *q = b;
    return p->key < q->key ? -1 : p->key > q->key ? 1 : (p->i > q->i) - (p->i < q->i);
}

/* The first place in s[0 .. n) whose key is key or more. */
static size_t lower_bound(const keyed *s, size_t n, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

typedef struct crowd {
    const double *x, *y, *r;
    const keyed *s;
    size_t n, found, most;
} crowd;

/* Overlaps of ball a with class L's balls in cells (col0..col1) of row,
 * from place from in s on (in its own class, the places after its own:
 * each pair once). */
static void count_row(crowd *c, uint32_t a, size_t from, int L, uint64_t row, uint64_t col0,
                      uint64_t col1)
{
    uint64_t end = key_of(L, row, col1);
    size_t j = lower_bound(c->s, c->n, key_of(L, row, col0));
    for (j = j > from ? j : from; j < c->n && c->s[j].key <= end && c->found <= c->most; j++) {
        uint32_t b = c->s[j].i;
        double dx = c->x[a] - c->x[b], dy = c->y[a] - c->y[b], rr = c->r[a] + c->r[b];
        if (dx * dx + dy * dy < rr * rr)
            c->found++;
    }
}

/* Ball s[k]'s overlaps with its own class and every larger one present. */
static void count_ball(crowd *c, size_t k, const bool *present)
{
    uint32_t a = c->s[k].i;
    int own = radius_class(c->r[a]);
    for (int L = own; L < CLASSES && c->found <= c->most; L++) {
        if (!present[L])
            continue;
        double reach = c->r[a] + ldexp(1.0, L); /* the class's largest radius */
        uint64_t col0 = cell_of(c->x[a] - reach, L), col1 = cell_of(c->x[a] + reach, L);
        uint64_t row0 = cell_of(c->y[a] - reach, L), row1 = cell_of(c->y[a] + reach, L);
        if (L == own) /* the rows above its own come before it in s */
            row0 = cell_of(c->y[a], L);
        for (uint64_t row = row0; row <= row1; row++)
            count_row(c, a, L == own ? k + 1 : 0, L, row, col0, col1);
    }
}

size_t bp_count_overlaps(const double *x, const double *y, const double *r, size_t n,
                         size_t most)
{
    if (n < 2)
        return 0;
    keyed *s = malloc(n * sizeof *s);
    if (!s)
        return (size_t)-1;
    bool present[CLASSES] = {false};
    for (size_t i = 0; i < n; i++) {
        int L = radius_class(r[i]);
        present[L] = true;
        s[i] = (keyed){key_of(L, cell_of(y[i], L), cell_of(x[i], L)), (uint32_t)i};
    }
    qsort(s, n, sizeof *s, by_key);
    crowd c = {.x = x, .y = y, .r = r, .s = s, .n = n, .most = most};
    for (size_t k = 0; k < n && c.found <= most; k++)
        count_ball(&c, k, present);
    free(s);
    return c.found;
}
