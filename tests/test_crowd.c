/* Counting a scene's overlapping balls (src/sim/crowd.c): the count is
 * every pair whose discs overlap, checked against all pairs one by one on
 * scenes of mixed radii; it stops past the bound; and a scene that piles
 * 50,000 balls on one point is refused at load with a message, not run out
 * of memory at the first step. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crowd.h"
#include "scene.h"
#include "setup.h"
#include "tap.h"

static size_t all_pairs(const double *x, const double *y, const double *r, size_t n)
{
    size_t found = 0;
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            double dx = x[a] - x[b], dy = y[a] - y[b], rr = r[a] + r[b];
            found += dx * dx + dy * dy < rr * rr;
        }
    return found;
}

static uint64_t state = 12345;
static double uniform(void)
{
    state = state * 6364136223846793005u + 1442695040888963407u;
    return (double)(state >> 11) / 9007199254740992.0;
}

/* n balls in a side x side square, radii from 0.5 to r_max spread over
 * powers of two (so every radius class meets the others). */
static void counts_match(size_t n, double side, double r_max, const char *what)
{
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *r = malloc(n * sizeof *r);
    for (size_t i = 0; i < n; i++) {
        x[i] = side * uniform();
        y[i] = side * uniform();
        r[i] = 0.5 * pow(2.0 * r_max, uniform());
    }
    size_t want = all_pairs(x, y, r, n), got = bp_count_overlaps(x, y, r, n, SIZE_MAX - 1);
    char line[160];
    snprintf(line, sizeof line, "%s: %zu overlapping pairs counted, as pair by pair (%zu)", what,
             got, want);
    TAP_OK(got == want && want > 0, line);
    size_t capped = bp_count_overlaps(x, y, r, n, want / 2);
    snprintf(line, sizeof line, "%s: with a bound of %zu it stops at one past it", what,
             want / 2);
    TAP_OK(capped == want / 2 + 1, line);
    free(x);
    free(y);
    free(r);
}

static void write_scene(const char *path, size_t balls)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "world w=1000 h=1000\n");
    for (size_t i = 0; i < balls; i++)
        fprintf(f, "ball x=500 y=500 r=10\n");
    fclose(f);
}

static bp_world *load(const char *path, int *status, char *err, size_t err_size)
{
    bp_options opts = bp_options_default();
    opts.scene_path = path;
    return bp_setup_world(&opts, status, err, err_size);
}

int main(void)
{
    counts_match(3000, 2000.0, 40.0, "sparse, radii 0.5..40");
    counts_match(3000, 300.0, 40.0, "crowded, radii 0.5..40");
    counts_match(400, 20000.0, 10000.0, "radii 0.5..10,000");
    double one[3] = {5.0, 5.0, 5.0};
    TAP_OK(bp_count_overlaps(one, one, one, 1, 10) == 0, "one ball overlaps nothing");
    double at[3] = {5.0, 5.0, 5.0}, r[3] = {1.0, 1.0, 1.0};
    TAP_OK(bp_count_overlaps(at, at, r, 3, 10) == 3, "three balls at one point: 3 pairs");
    double side_x[2] = {10.0, 12.0}, side_y[2] = {10.0, 10.0};
    TAP_OK(bp_count_overlaps(side_x, side_y, r, 2, 10) == 0,
           "two balls that just touch do not overlap");

    char path[] = "/tmp/ballpit-test-crowd-XXXXXX";
    int fd = mkstemp(path);
    TAP_OK(fd >= 0, "a temporary scene file");
    if (fd < 0)
        return tap_done();
    close(fd);
    int status = 0;
    char err[512] = "";
    write_scene(path, 50000);
    bp_world *w = load(path, &status, err, sizeof err);
    printf("# %s\n", err);
    char at_line[600];
    snprintf(at_line, sizeof at_line, "%s:", path);
    TAP_OK(!w && status == 2 && strstr(err, "too crowded") && strstr(err, "spread them out") &&
               strncmp(err, at_line, strlen(at_line)) == 0 &&
               !(err[strlen(at_line)] >= '0' && err[strlen(at_line)] <= '9'),
           "50,000 balls at one point: refused at load (exit 2), FILE: and why, no line");
    bp_world_destroy(w);
    write_scene(path, 1000);
    w = load(path, &status, err, sizeof err);
    TAP_OK(w && w->count == 1000, "1,000 balls at one point (499,500 pairs) load");
    bp_world_destroy(w);
    remove(path);
    return tap_done();
}
