/* Impacts under the soft solver (solver/impacts.c): balls that meet
 * carrying no load are met by the pairwise law of collide.h, not by the
 * sweeps.
 *
 * An elastic gas (3,000 balls of radii 6-16 at the density of 250 in
 * 800 x 600, e = 1, no gravity, friction or drag) keeps its kinetic energy,
 * spin included, within 1e-6 for 5 s (the sweeps alone kept 0.79 of it);
 * two equal balls meeting head on with e = 1 swap their speeds bit for
 * bit, whatever the speeds and wherever in a step they meet; and a row of
 * equal balls passes a blow down to its last ball, the others left
 * standing (Newton's cradle). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "step.h"
#include "tap.h"
#include "world.h"

/* No gravity, drag, friction or rolling resistance; restitution e. */
static bp_params elastic_space(double width, double height, double e)
{
    bp_params p = bp_params_default();
    p.solver = BP_SOLVER_SOFT;
    p.gravity = 0.0;
    p.drag = 0.0;
    p.friction = 0.0;
    p.rolling = 0.0;
    p.restitution = e;
    p.hz = 120.0;
    p.width = width;
    p.height = height;
    return p;
}

static double uniform(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*seed >> 11) / 9007199254740992.0;
}

/* 3,000 balls on a grid, radii 6-16, speeds up to 200 px/s each way. */
static void elastic_gas_keeps_its_energy(void)
{
    const int n = 3000;
    double scale = sqrt(n / 250.0);
    bp_params p = elastic_space(800.0 * scale, 600.0 * scale, 1.0);
    bp_world *w = world_or_bail(&p);
    int cols = (int)ceil(sqrt(n * p.width / p.height)), rows = (n + cols - 1) / cols;
    double cw = p.width / cols, ch = p.height / rows;
    uint64_t seed = 7;
    for (int k = 0; k < n; k++) {
        double vx = 400.0 * uniform(&seed) - 200.0, vy = 400.0 * uniform(&seed) - 200.0;
        double r = fmin(6.0 + 10.0 * uniform(&seed), 0.45 * fmin(cw, ch));
        add_or_bail(w, cw * (k % cols + 0.5), ch * (k / cols + 0.5), vx, vy, r);
    }
    double ke0, ke, pe, low = 1.0, high = 1.0;
    bp_world_energy(w, &ke0, &pe);
    for (int s = 0; s < 5 * 120; s++) {
        step_or_bail(w);
        bp_world_energy(w, &ke, &pe);
        low = fmin(low, ke / ke0);
        high = fmax(high, ke / ke0);
    }
    printf("# elastic gas of %d: energy kept %.15f (lowest %.15f, highest %.15f)\n", n, ke / ke0,
           low, high);
    TAP_OK(fabs(low - 1.0) <= 1e-6 && fabs(high - 1.0) <= 1e-6,
           "an elastic gas of 3,000 keeps its energy, spin included, within 1e-6 for 5 s");
    bp_world_destroy(w);
}

/* Two equal balls head on at va and vb along x (gap: px between their
 * surfaces), 1 s: the speeds swap bit for bit, and no spin appears. */
static void head_on_swaps(double va, double vb, double gap)
{
    bp_params p = elastic_space(2000.0, 600.0, 1.0);
    bp_world *w = world_or_bail(&p);
    add_or_bail(w, 700.0, 300.0, va, 0.0, 10.0);
    add_or_bail(w, 720.0 + gap, 300.0, vb, 0.0, 10.0);
    for (int s = 0; s < 120; s++)
        step_or_bail(w);
    int64_t a = bp_world_index_of(w, 0), b = bp_world_index_of(w, 1);
    char what[160];
    snprintf(what, sizeof what,
             "equal balls at %g and %g px/s, %g px apart, e = 1: the speeds swap bit for bit", va,
             vb, gap);
    TAP_OK(w->vx[a] == vb && w->vx[b] == va && w->vy[a] == 0.0 && w->vy[b] == 0.0, what);
    if (!(w->vx[a] == vb && w->vx[b] == va))
        printf("#   got %.17g and %.17g\n", w->vx[a], w->vx[b]);
    TAP_OK(w->w[a] == 0.0 && w->w[b] == 0.0, "  and no spin appears");
    bp_world_destroy(w);
}

/* Five equal balls in a touching row, the first struck at 300 px/s (in
 * the row's first 0.5 s, before it sleeps: a sleeper is a still body to
 * this step's sweeps, and is left to them): the blow passes down the row,
 * the last ball leaves at 300 px/s and the others stand still, exactly. */
static void newtons_cradle(void)
{
    bp_params p = elastic_space(2000.0, 600.0, 1.0);
    bp_world *w = world_or_bail(&p);
    add_or_bail(w, 540.0, 300.0, 300.0, 0.0, 10.0);
    for (int k = 0; k < 5; k++)
        add_or_bail(w, 600.0 + 20.0 * k, 300.0, 0.0, 0.0, 10.0);
    for (int s = 0; s < 240; s++)
        step_or_bail(w);
    bool still = true;
    for (uint32_t id = 0; id < 5; id++) {
        int64_t i = bp_world_index_of(w, id);
        still &= w->vx[i] == 0.0 && w->vy[i] == 0.0;
    }
    int64_t last = bp_world_index_of(w, 5);

    TAP_OK(still && w->vx[last] == 300.0 && w->vy[last] == 0.0,
           "a ball at 300 px/s strikes a row of 5: the last leaves at 300 px/s, the rest stand");
    bp_world_destroy(w);
}

int main(void)
{
    elastic_gas_keeps_its_energy();
    head_on_swaps(200.0, -50.0, 180.0);
    head_on_swaps(123.456789, -98.7654321, 77.7);
    head_on_swaps(333.3, 0.0, 1.234);
    head_on_swaps(1.1 + 2.2, -1.7, 0.05);
    newtons_cradle();
    return tap_done();
}
