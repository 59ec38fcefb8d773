/* Ball-ball collisions against the 1D law worked by hand.
 *
 * Every world here has gravity 0 and drag 0, so between contacts a ball moves
 * in a straight line at constant speed (drag 0 makes the damping factor
 * exp(0) = 1 exactly), and the rest-speed threshold 2|g|dt is 0: the only
 * thing that changes a velocity is the collision under test. The arenas are
 * large enough that no wall is reached.
 *
 * Tolerances: the collision law is a handful of multiplications and additions
 * on numbers of size ~1e2..1e6, each rounded to half an ulp (1.1e-16
 * relative). A few dozen such roundings stay far below 1e-12 relative, so
 * that is the bar for conserved quantities; any real error in the law (a
 * wrong weight, a sign, a lost tangent) is of order 1e-2 or more. */
#include <math.h>
#include <string.h>

#include "collide.h"
#include "step.h"
#include "tap.h"
#include "world.h"

#define BP_TEST_PI 3.14159265358979323846

/* The solver the world-level hits run under: they hold under both. */
static int64_t solver_under_test = BP_SOLVER_PASSES;

static bp_world *free_space(double restitution)
{
    bp_params p = bp_params_default();
    p.solver = solver_under_test;
    p.gravity = 0.0;
    p.drag = 0.0;
    p.friction = 0.0;
    p.restitution = restitution;
    p.width = 100000.0;
    p.height = 100000.0;
    return bp_world_new(&p);
}

static void run_steps(bp_world *w, int steps)
{
    for (int s = 0; s < steps; s++)
        step_or_bail(w);
}

static void momentum(const bp_world *w, double *px, double *py)
{
    *px = 0.0;
    *py = 0.0;
    for (size_t i = 0; i < w->count; i++) {
        *px += w->mass[i] * w->vx[i];
        *py += w->mass[i] * w->vy[i];
    }
}

static double kinetic(const bp_world *w)
{
    double ke, pe;
    bp_world_energy(w, &ke, &pe);
    return ke;
}

static void head_on_equal_masses_swap_velocities_exactly(void)
{
    bp_world *w = free_space(1.0);
    bp_world_insert_ball(w, 400.0, 500.0, 120.0, 0.0, 10.0, 0.0);
    bp_world_insert_ball(w, 600.0, 500.0, -80.0, 0.0, 10.0, 0.0);
    run_steps(w, 240);
    TAP_OK(w->vx[0] == -80.0 && w->vx[1] == 120.0,
           "equal masses, e=1, head-on: normal velocities swap bit for bit");
    TAP_OK(w->vy[0] == 0.0 && w->vy[1] == 0.0, "head-on along x leaves vy at exactly 0");
    bp_world_destroy(w);
}

/* Masses 100 (r=10) and 400 (r=20) meeting at 120 and -80 px/s. By hand,
 * u_a' = ((m_a - e m_b) u_a + (1+e) m_b u_b) / (m_a + m_b) and symmetrically:
 * e=1 gives -200 and 0 (the heavy ball stops dead); momentum -20000 and
 * kinetic energy 2e6 before and after. */
static void head_on_unequal_masses_follow_the_1d_law(void)
{
    bp_world *w = free_space(1.0);
    bp_world_insert_ball(w, 1000.0, 500.0, 120.0, 0.0, 10.0, 0.0);
    bp_world_insert_ball(w, 1200.0, 500.0, -80.0, 0.0, 20.0, 0.0);
    double p0x, p0y;
    momentum(w, &p0x, &p0y);
    double ke0 = kinetic(w);
    TAP_NEAR(p0x, -20000.0, 1e-9, "unequal masses: momentum before is 100*120 + 400*(-80)");
    TAP_NEAR(ke0, 2e6, 1e-6, "unequal masses: kinetic energy before is 2e6");
    run_steps(w, 240);
    TAP_NEAR(w->vx[0], -200.0, 200.0 * 1e-12, "light ball bounces back at -200 px/s");
    TAP_NEAR(w->vx[1], 0.0, 200.0 * 1e-12, "heavy ball stops dead (1D law, m_b = 4 m_a)");
    double px, py;
    momentum(w, &px, &py);
    TAP_NEAR(px, p0x, fabs(p0x) * 1e-12, "unequal masses: momentum conserved to 1e-12");
    TAP_OK(py == 0.0, "unequal masses: no momentum appears across the line of centres");
    TAP_NEAR(kinetic(w), ke0, ke0 * 1e-12, "unequal masses, e=1: kinetic energy conserved");
    bp_world_destroy(w);
}

/* Same pair at e = 0.5: relative speed 200 becomes 100 the other way,
 * momentum stays -20000, and the energy lost is
 * (1 - e^2) * 1/2 * mu * v_rel^2 with mu = m_a m_b / (m_a + m_b) = 80,
 * i.e. 0.75 * 0.5 * 80 * 40000 = 1.2e6. Final speeds from
 * u_a' = u_a - (1+e) m_b/M (u_a - u_b) = 120 - 1.5*0.8*200 = -120 and
 * u_b' = u_b + (1+e) m_a/M (u_a - u_b) = -80 + 1.5*0.2*200 = -20. */
static void head_on_half_restitution_halves_the_relative_speed(void)
{
    bp_world *w = free_space(0.5);
    bp_world_insert_ball(w, 1000.0, 500.0, 120.0, 0.0, 10.0, 0.0);
    bp_world_insert_ball(w, 1200.0, 500.0, -80.0, 0.0, 20.0, 0.0);
    double p0x, p0y;
    momentum(w, &p0x, &p0y);
    double ke0 = kinetic(w);
    run_steps(w, 240);
    double rel_after = w->vx[1] - w->vx[0];
    TAP_NEAR(rel_after, 0.5 * 200.0, 200.0 * 1e-12,
             "e=0.5: separation speed is half the approach speed");
    TAP_NEAR(w->vx[0], -120.0, 200.0 * 1e-12, "e=0.5: light ball leaves at -120 px/s");
    TAP_NEAR(w->vx[1], -20.0, 200.0 * 1e-12, "e=0.5: heavy ball leaves at -20 px/s");
    double px, py;
    momentum(w, &px, &py);
    TAP_NEAR(px, p0x, fabs(p0x) * 1e-12, "e=0.5: momentum conserved to 1e-12");
    TAP_NEAR(ke0 - kinetic(w), 1.2e6, ke0 * 1e-12, "e=0.5: energy lost is (1-e^2)/2 mu v_rel^2");
    bp_world_destroy(w);
}

/* Ball a rests at the centre; ball b comes in along a diagonal of quadrant
 * (sx, sy), offset sideways by half the contact distance so the hit is
 * glancing (about 30 degrees off the line of travel). Equal masses, e = 1:
 * the struck ball must leave along the line of centres at contact, away from
 * b, with the whole normal component of b's velocity; b keeps its tangential
 * part and nothing else. A frame built from atan(dy/dx) gets two of the four
 * quadrants backwards, which every check below would see. */
static void glancing_hit_from_quadrant(int sx, int sy, const char *name)
{
    const double r = 10.0, reach = 2.0 * r, speed = 240.0, offset = 0.5 * reach;
    const double cx = 50000.0, cy = 50000.0;
    /* d: direction b travels (towards a); s: sideways unit vector. */
    double dx = -sx / sqrt(2.0), dy = -sy / sqrt(2.0);
    double sxv = -dy, syv = dx;
    bp_world *w = free_space(1.0);
    bp_world_insert_ball(w, cx, cy, 0.0, 0.0, r, 0.0);
    double bx = cx - dx * 100.0 + sxv * offset, by = cy - dy * 100.0 + syv * offset;
    double vbx = speed * dx, vby = speed * dy;
    bp_world_insert_ball(w, bx, by, vbx, vby, r, 0.0);
    double ke0 = kinetic(w), p0x, p0y;
    momentum(w, &p0x, &p0y);

    int steps = 0;
    while (w->vx[0] == 0.0 && w->vy[0] == 0.0 && steps < 1000) {
        step_or_bail(w);
        steps++;
    }
    char what[160];
    snprintf(what, sizeof what, "%s: the struck ball was hit", name);
    TAP_OK(steps < 1000, what);

    /* The normal the law used: a was at rest and took the whole impulse
     * along it, so a's velocity points along it. (The centres' line after
     * the step is no measure: a solver that meets the balls within the step
     * moves both on along their new paths before the step ends.) */
    double va = sqrt(w->vx[0] * w->vx[0] + w->vy[0] * w->vy[0]);
    double nx = w->vx[0] / va, ny = w->vy[0] / va;
    double tx = -ny, ty = nx;
    double to_a_x = w->x[0] - w->x[1], to_a_y = w->y[0] - w->y[1];
    snprintf(what, sizeof what, "%s: struck ball moves away from the striker", name);
    TAP_OK(to_a_x * nx + to_a_y * ny > 0.0, what);
    snprintf(what, sizeof what, "%s: struck ball takes the striker's normal speed", name);
    TAP_NEAR(va, vbx * nx + vby * ny, speed * 1e-12, what);
    snprintf(what, sizeof what, "%s: striker keeps its tangential velocity", name);
    TAP_NEAR(w->vx[1] * tx + w->vy[1] * ty, vbx * tx + vby * ty, speed * 1e-12, what);
    snprintf(what, sizeof what, "%s: striker loses all its normal velocity", name);
    TAP_NEAR(w->vx[1] * nx + w->vy[1] * ny, 0.0, speed * 1e-12, what);

    /* The contact normal, from geometry alone: b's track passes a at a
     * sideways distance of reach/2, so at touching distance the normal makes
     * asin(1/2) = 30 degrees with the track (along-track gap 17.32 px). The
     * discrete step lets b sink up to speed*dt = 2 px further (at 120 Hz)
     * before the overlap is seen, which tilts the normal to at most
     * atan(10 / 15.32) = 33.1 degrees: 0.054 rad (the passes); the soft
     * solver meets them when they would touch within its next substep, up to
     * 0.5 px early, which tilts it less the other way. A frame built in the
     * wrong quadrant is off by 60 degrees or more. */
    double expect_x = dx * cos(BP_TEST_PI / 6.0) - sxv * sin(BP_TEST_PI / 6.0);
    double expect_y = dy * cos(BP_TEST_PI / 6.0) - syv * sin(BP_TEST_PI / 6.0);
    double angle = acos(fmin(1.0, nx * expect_x + ny * expect_y));
    snprintf(what, sizeof what, "%s: the contact normal lies where geometry puts it", name);
    TAP_NEAR(angle, 0.0, 0.06, what);

    double px, py;
    momentum(w, &px, &py);
    double p_scale = w->mass[1] * speed;
    snprintf(what, sizeof what, "%s: momentum conserved", name);
    TAP_OK(fabs(px - p0x) <= p_scale * 1e-12 && fabs(py - p0y) <= p_scale * 1e-12, what);
    snprintf(what, sizeof what, "%s: kinetic energy conserved at e=1", name);
    TAP_NEAR(kinetic(w), ke0, ke0 * 1e-12, what);
    bp_world_destroy(w);
}

static void pure_1d_law(void)
{
    double a, b;
    bp_collide_1d(3.0, -5.0, 1.0, 1.0, 1.0, &a, &b);
    TAP_OK(a == -5.0 && b == 3.0, "bp_collide_1d: equal masses, e=1 swap exactly");
    bp_collide_1d(3.0, -5.0, 1.0, 1.0, 0.0, &a, &b);
    TAP_OK(a == -1.0 && b == -1.0, "bp_collide_1d: e=0 leaves both at the mean speed");
    /* m_a = 1, m_b = 3 (inverse 1/3), e = 0.5, u = (4, 0):
     * u_a' = (1 - 1.5)*4/4 = -0.5, u_b' = 1.5*4/4 = 1.5. */
    bp_collide_1d(4.0, 0.0, 1.0, 1.0 / 3.0, 0.5, &a, &b);
    TAP_NEAR(a, -0.5, 1e-15, "bp_collide_1d: m 1:3, e=0.5, light ball rebounds at -0.5");
    TAP_NEAR(b, 1.5, 1e-15, "bp_collide_1d: m 1:3, e=0.5, heavy ball leaves at 1.5");
    TAP_NEAR(1.0 * a + 3.0 * b, 4.0, 1e-14, "bp_collide_1d: momentum conserved");
    /* An infinite mass (inverse 0) is a wall: it keeps its speed and the
     * other bounces off it with -e times the relative speed. */
    bp_collide_1d(2.0, -10.0, 0.0, 1.0, 0.5, &a, &b);
    TAP_OK(a == 2.0, "bp_collide_1d: infinite mass keeps its speed");
    TAP_NEAR(b - a, 0.5 * 12.0, 1e-14, "bp_collide_1d: the other rebounds at e times v_rel");
    bp_collide_1d(2.0, -10.0, 0.0, 0.0, 1.0, &a, &b);
    TAP_OK(a == 2.0 && b == -10.0, "bp_collide_1d: two infinite masses are left alone");
}

static void pure_ball_response(void)
{
    /* Normal along +y; a moves down onto b with a sideways component. */
    double vxa = 7.0, vya = 10.0, vxb = -3.0, vyb = 0.0;
    double hit = bp_collide_balls(0.0, 1.0, &vxa, &vya, &vxb, &vyb, 1.0, 1.0, 1.0, 0.0);
    TAP_OK(hit == 10.0, "bp_collide_balls: approaching balls collide (impulse m * 10 px/s)");
    TAP_OK(vxa == 7.0 && vxb == -3.0, "bp_collide_balls: tangential velocities untouched");
    TAP_OK(vya == 0.0 && vyb == 10.0, "bp_collide_balls: normal velocities swap (equal, e=1)");

    vxa = 0.0, vya = -4.0, vxb = 1.0, vyb = 2.0;
    hit = bp_collide_balls(0.0, 1.0, &vxa, &vya, &vxb, &vyb, 1.0, 1.0, 1.0, 0.0);
    TAP_OK(hit == 0 && vxa == 0.0 && vya == -4.0 && vxb == 1.0 && vyb == 2.0,
           "bp_collide_balls: separating balls are left alone");

    /* Approach 3 below a rest speed of 5: restitution drops to 0. */
    vxa = 3.0, vya = 0.0, vxb = 0.0, vyb = 0.0;
    bp_collide_balls(1.0, 0.0, &vxa, &vya, &vxb, &vyb, 1.0, 1.0, 1.0, 5.0);
    TAP_OK(vxa == 1.5 && vxb == 1.5, "bp_collide_balls: slow approach does not bounce");

    /* Diagonal normal in the third quadrant (-0.6, -0.8): a moves along it
     * at speed 5, b is at rest; equal masses hand the whole speed over. */
    vxa = -3.0, vya = -4.0, vxb = 0.0, vyb = 0.0;
    bp_collide_balls(-0.6, -0.8, &vxa, &vya, &vxb, &vyb, 1.0, 1.0, 1.0, 0.0);
    TAP_NEAR(vxb, -3.0, 1e-14, "bp_collide_balls: third-quadrant normal, b takes vx");
    TAP_NEAR(vyb, -4.0, 1e-14, "bp_collide_balls: third-quadrant normal, b takes vy");
    TAP_NEAR(fabs(vxa) + fabs(vya), 0.0, 1e-14, "bp_collide_balls: third-quadrant, a stops");
}

/* A held ball is the user's hand, infinitely heavy and moving: it shoves, it
 * does not bat. Normal along +x from a (held, inverse mass 0) to b. */
static void a_held_ball_shoves_and_is_bounced_off(void)
{
    /* The hand at 300 px/s runs into b at rest: b goes with it, at 300,
     * not at (1 + e) 300 = 570 as off a bat. */
    double vxa = 300.0, vya = 0.0, vxb = 0.0, vyb = 40.0;
    bp_collide_balls(1.0, 0.0, &vxa, &vya, &vxb, &vyb, 0.0, 1.0, 0.9, 16.0);
    TAP_OK(vxa == 300.0 && vya == 0.0, "held ball (inverse mass 0) keeps its velocity");
    TAP_OK(vxb == 300.0 && vyb == 40.0,
           "a ball at rest it runs into leaves at its speed along the normal (300, not 570), "
           "sliding on at 40");
    /* b flies at 500 px/s into the hand at rest: b bounces at e 500, as off
     * a wall. */
    vxa = 0.0, vya = 0.0, vxb = -500.0, vyb = 0.0;
    bp_collide_balls(1.0, 0.0, &vxa, &vya, &vxb, &vyb, 0.0, 1.0, 0.9, 16.0);
    TAP_NEAR(vxb, 450.0, 1e-12, "a ball flying into a still held ball bounces off at e v");
    /* Both: the hand at 300 into b coming at 500: the hand's speed plus
     * e 500. Mirrored (b held, a flying), the same with signs turned. */
    vxa = 300.0, vya = 0.0, vxb = -500.0, vyb = 0.0;
    bp_collide_balls(1.0, 0.0, &vxa, &vya, &vxb, &vyb, 0.0, 1.0, 0.9, 16.0);
    TAP_NEAR(vxb, 300.0 + 450.0, 1e-12, "hand and ball meeting: the hand's speed plus e v");
    vxa = 500.0, vya = 0.0, vxb = -300.0, vyb = 0.0;
    bp_collide_balls(1.0, 0.0, &vxa, &vya, &vxb, &vyb, 1.0, 0.0, 0.9, 16.0);
    TAP_OK(vxb == -300.0, "held as b: keeps its velocity");
    TAP_NEAR(vxa, -300.0 - 450.0, 1e-12, "held as b: the same law, mirrored");
    /* The hand drawing back at 300 px/s, b chasing it at 320: b bounces off
     * the receding hand at e times the 20 px/s it closes in at, as off a
     * moving wall, not at e times its 320 over the ground. */
    vxa = -300.0, vya = 0.0, vxb = -320.0, vyb = 0.0;
    bp_collide_balls(1.0, 0.0, &vxa, &vya, &vxb, &vyb, 0.0, 1.0, 0.9, 16.0);
    TAP_NEAR(vxb, -300.0 + 0.9 * 20.0, 1e-12,
             "a ball chasing a receding held ball bounces at e times the closing speed");
    /* A sleeper is infinitely heavy and still: there the shove is the 1D
     * law exactly. */
    vxa = 0.0, vya = 0.0, vxb = -123.0, vyb = 7.0;
    double ua, ub;
    bp_collide_1d(0.0, -123.0, 0.0, 1.0, 0.9, &ua, &ub);
    bp_collide_balls(1.0, 0.0, &vxa, &vya, &vxb, &vyb, 0.0, 1.0, 0.9, 16.0);
    TAP_OK(vxb == ub && vyb == 7.0, "against a still infinite mass it is the 1D law to the bit");
}

/* A disk of radius r, mass 1 against the floor (outward normal (0, -1) in
 * y-down coordinates), with friction mu and rolling resistance rolling. */
static void hit_floor(double mu, double rolling, double e, double rest_speed, double r,
                      double *vx, double *vy, double *w)
{
    bp_contact_law law = {mu, rolling};
    bp_collide_surface(&law, 0.0, -1.0, r, 1.0, 2.0 / (r * r), vx, vy, w, e, rest_speed);
}

static void pure_static_response(void)
{
    double vx = 4.0, vy = 10.0, w = 0.0;
    hit_floor(0.0, 0.0, 0.5, 0.0, 2.0, &vx, &vy, &w);
    TAP_OK(vy == -5.0 && vx == 4.0 && w == 0.0,
           "surface: reflects with e; without friction vx and the spin stay");
    /* Normal impulse per unit mass 15, so friction 1 can take up to 15 off
     * the slip; a disk's tangential effective mass is m/3, so stopping the
     * slip of 4 takes 4/3 off vx and puts 2 * (4/3) / r on the spin: it
     * leaves rolling at 2/3 of its speed, the skidding ball's textbook
     * result. */
    vx = 4.0, vy = 10.0, w = 0.0;
    hit_floor(1.0, 0.0, 0.5, 0.0, 2.0, &vx, &vy, &w);
    TAP_NEAR(vx, 4.0 * 2.0 / 3.0, 1e-14, "surface: a skidding disk leaves at 2/3 of its speed");
    TAP_NEAR(vx - w * 2.0, 0.0, 1e-14, "surface: ... rolling (w = vx / r)");
    /* Friction 0.05: at most 0.75 of the slip's impulse, less than the
     * 4/3 it takes to roll: it still slides. */
    vx = 4.0, vy = 10.0, w = 0.0;
    hit_floor(0.05, 0.0, 0.5, 0.0, 2.0, &vx, &vy, &w);
    TAP_NEAR(vx, 4.0 - 0.75, 1e-14, "surface: friction takes at most mu times the normal impulse");
    TAP_NEAR(w, 2.0 * 0.75 / 2.0, 1e-14, "surface: ... and spins the ball up by that much");
    vx = -1.0, vy = 10.0, w = 0.0;
    hit_floor(1.0, 0.0, 0.5, 0.0, 2.0, &vx, &vy, &w);
    TAP_NEAR(vx - w * 2.0, 0.0, 1e-14, "surface: friction stops the slip but never reverses it");
    TAP_OK(vx < 0.0, "surface: ... the ball still goes the way it went");
    vx = 4.0, vy = -3.0, w = 0.0;
    hit_floor(1.0, 0.0, 0.5, 0.0, 2.0, &vx, &vy, &w);
    TAP_OK(vx == 4.0 && vy == -3.0 && w == 0.0,
           "surface: moving away from the surface is untouched");
    vx = 0.0, vy = 3.0, w = 0.0;
    hit_floor(0.0, 0.0, 0.9, 5.0, 2.0, &vx, &vy, &w);
    TAP_OK(vy == 0.0, "surface: approach below the rest speed stops dead");
    vx = -8.0, vy = 1.0, w = 0.0;
    bp_contact_law none = {0.0, 0.0};
    bp_collide_surface(&none, 1.0, 0.0, 2.0, 1.0, 0.5, &vx, &vy, &w, 1.0, 0.0);
    TAP_OK(vx == 8.0 && vy == 1.0, "surface: left wall reflects vx");
    /* Rolling resistance 0.1 pressed with 15 per unit mass: an angular
     * impulse of at most 0.1 * 15 * r, which takes 2 * 0.1 * 15 / r off w. */
    vx = 20.0, vy = 15.0, w = 10.0;
    hit_floor(0.0, 0.1, 0.0, 0.0, 2.0, &vx, &vy, &w);
    TAP_NEAR(w, 10.0 - 2.0 * 0.1 * 15.0 / 2.0, 1e-13, "surface: rolling resistance brakes the spin");
    vx = 20.0, vy = 15.0, w = 1.0;
    hit_floor(0.0, 0.1, 0.0, 0.0, 2.0, &vx, &vy, &w);
    TAP_OK(w == 0.0, "surface: rolling resistance stops the spin but never reverses it");
}

/* Linear and angular momentum (about the origin; w counts from +x toward
 * +y, as x vy - y vx does) of two disks. */
static void momenta(const double *x, const double *y, const double *vx, const double *vy,
                    const double *w, const double *m, const double *r, double *px, double *py,
                    double *l)
{
    *px = *py = *l = 0.0;
    for (int k = 0; k < 2; k++) {
        *px += m[k] * vx[k];
        *py += m[k] * vy[k];
        *l += m[k] * (x[k] * vy[k] - y[k] * vx[k]) + 0.5 * m[k] * r[k] * r[k] * w[k];
    }
}

static void a_glancing_hit_with_friction_conserves_momentum_and_sets_both_spinning(void)
{
    /* Ball a (r 10, m 100) at the origin hit off-centre by b (r 6, m 36)
     * touching it at 16 px, up and to the right, coming in from the right
     * and spinning. */
    double r[2] = {10.0, 6.0}, m[2] = {100.0, 36.0};
    double angle = 0.6, d = 16.0;
    double x[2] = {0.0, d * cos(angle)}, y[2] = {0.0, -d * sin(angle)};
    double vx[2] = {10.0, -250.0}, vy[2] = {0.0, 40.0}, w[2] = {0.0, 3.0};
    double nx = (x[1] - x[0]) / d, ny = (y[1] - y[0]) / d;
    double px0, py0, l0;
    momenta(x, y, vx, vy, w, m, r, &px0, &py0, &l0);
    double e0 = 0.0;
    for (int k = 0; k < 2; k++)
        e0 += 0.5 * m[k] * (vx[k] * vx[k] + vy[k] * vy[k]) + 0.25 * m[k] * r[k] * r[k] * w[k] * w[k];
    bp_contact_law law = {0.3, 0.0};
    double lever_a = bp_contact_lever(r[0], r[1], d);
    bp_contact_side a = {&vx[0], &vy[0], &w[0], 1.0 / m[0], 2.0 / (m[0] * r[0] * r[0]), lever_a};
    bp_contact_side b = {&vx[1], &vy[1], &w[1], 1.0 / m[1], 2.0 / (m[1] * r[1] * r[1]),
                         d - lever_a};
    bp_collide_pair(&law, 0.8, 0.0, nx, ny, &a, &b);
    double px1, py1, l1;
    momenta(x, y, vx, vy, w, m, r, &px1, &py1, &l1);
    double e1 = 0.0;
    for (int k = 0; k < 2; k++)
        e1 += 0.5 * m[k] * (vx[k] * vx[k] + vy[k] * vy[k]) + 0.25 * m[k] * r[k] * r[k] * w[k] * w[k];
    double scale = m[1] * 250.0;
    TAP_NEAR(px1, px0, 1e-12 * scale, "glancing hit with friction: x momentum kept");
    TAP_NEAR(py1, py0, 1e-12 * scale, "glancing hit with friction: y momentum kept");
    TAP_NEAR(l1, l0, 1e-12 * scale * d, "glancing hit with friction: angular momentum kept");
    TAP_OK(w[0] != 0.0 && fabs(w[1] - 3.0) > 1.0, "glancing hit with friction: both balls spin");
    TAP_OK(e1 < e0, "glancing hit with friction: kinetic energy (with rotation) only drops");
    /* Without friction no spin appears, and the normal law is unchanged. */
    double vx2[2] = {10.0, -250.0}, vy2[2] = {0.0, 40.0}, w2[2] = {0.0, 0.0};
    bp_contact_law none = {0.0, 0.0};
    bp_contact_side a2 = {&vx2[0], &vy2[0], &w2[0], 1.0 / m[0], 2.0 / (m[0] * r[0] * r[0]), lever_a};
    bp_contact_side b2 = {&vx2[1], &vy2[1], &w2[1], 1.0 / m[1], 2.0 / (m[1] * r[1] * r[1]),
                          d - lever_a};
    bp_collide_pair(&none, 0.8, 0.0, nx, ny, &a2, &b2);
    TAP_OK(w2[0] == 0.0 && w2[1] == 0.0, "glancing hit without friction: no spin appears");
}

/* The hits between free balls in a world, under solver_under_test; by
 * starts the glancing hits' names. */
static void hits_between_free_balls(const char *by)
{
    head_on_equal_masses_swap_velocities_exactly();
    head_on_unequal_masses_follow_the_1d_law();
    head_on_half_restitution_halves_the_relative_speed();
    static const struct {
        int sx, sy;
        const char *from;
    } quadrants[] = {{1, 1, "down-right"}, {-1, 1, "down-left"}, {-1, -1, "up-left"},
                     {1, -1, "up-right"}};
    for (int k = 0; k < 4; k++) {
        char name[64];
        snprintf(name, sizeof name, "%sglancing hit from %s", by, quadrants[k].from);
        glancing_hit_from_quadrant(quadrants[k].sx, quadrants[k].sy, name);
    }
}

int main(void)
{
    hits_between_free_balls("");
    printf("# the same hits under the soft solver\n");
    solver_under_test = BP_SOLVER_SOFT;
    hits_between_free_balls("soft: ");
    pure_1d_law();
    pure_ball_response();
    a_held_ball_shoves_and_is_bounced_off();
    pure_static_response();
    a_glancing_hit_with_friction_conserves_momentum_and_sets_both_spinning();
    return tap_done();
}
