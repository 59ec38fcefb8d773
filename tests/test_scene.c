/* Scene files and the limits they share with recordings and the command
 * line: the rotation keys (w=, angle=), a saved scene that loads back to
 * the same bits, and one verdict for a value whichever way it comes in. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "replay.h"
#include "scene.h"
#include "sceneio.h"
#include "setup.h"
#include "tap.h"

/* A new world built from a parsed scene, which it frees; NULL when the
 * build fails (err says why). */
static bp_world *world_of(bp_scene *scene, char *err, size_t err_size)
{
    bp_world *w = bp_world_new(&scene->params);
    if (w && bp_scene_build(scene, "t.scene", w, err, err_size) != 0) {
        bp_world_destroy(w);
        w = NULL;
    }
    bp_scene_free(scene);
    return w;
}

static bp_world *build(const char *text, char *err, size_t err_size)
{
    bp_scene scene;
    if (bp_scene_parse(&scene, "t.scene", text, err, err_size) != 0)
        return NULL;
    return world_of(&scene, err, err_size);
}

static void rotation_keys_set_the_balls_angle_and_spin(void)
{
    char err[256] = "";
    bp_world *w = build("world w=400 h=300\n"
                        "ball x=100 y=100 r=10 w=-3.25 angle=0.1\n"
                        "ball x=200 y=100 r=10\n",
                        err, sizeof err);
    TAP_OK(w != NULL, "a scene with w= and angle= loads");
    if (!w) {
        printf("#   %s\n", err);
        return;
    }
    TAP_OK(w->w[0] == -3.25 && w->angle[0] == 0.1, "ball 0 has w -3.25 rad/s and angle 0.1 rad");
    TAP_OK(w->w[1] == 0.0 && w->angle[1] == 0.0, "without the keys both are 0");
    bp_world_destroy(w);
}

/* w saved as a scene file and loaded into a new world, or NULL (err says
 * why when loading failed). */
static bp_world *save_and_load(const bp_world *w, char *err, size_t err_size)
{
    bp_scene scene;
    return scene_round_trip(w, &scene, err, err_size) ? world_of(&scene, err, err_size) : NULL;
}

static void a_saved_scene_loads_back_to_the_same_bits(void)
{
    char err[256] = "";
    bp_world *w = build("world w=640 h=480 gravity=-120.5 restitution=0.3 friction=0.7 drag=0.01 "
                        "hz=240\n"
                        "wall x1=0 y1=400 x2=640 y2=300 r=3\n"
                        "ball x=100.1 y=100.2 r=10.3 vx=1.1 vy=-2.2 m=7.7 w=0.1 angle=-2.5\n"
                        "ball x=300 y=200 r=20 w=1e-300 angle=123456.789\n",
                        err, sizeof err);
    if (!w) {
        TAP_OK(0, "the scene to save loads");
        printf("#   %s\n", err);
        return;
    }
    /* Values the parser never sees as text: the saved form must carry them. */
    w->angle[1] = nextafter(M_PI, 4.0);
    w->w[1] = -1.0 / 3.0;
    bp_world *again = save_and_load(w, err, sizeof err);
    TAP_OK(again != NULL, "the world saves as a scene, and the scene loads back");
    if (!again) {
        printf("#   %s\n", err);
        bp_world_destroy(w);
        return;
    }
    bool same = again->count == w->count && again->wall_count == w->wall_count &&
                memcmp(&again->params, &w->params, sizeof w->params) == 0;
    for (size_t i = 0; same && i < w->count; i++)
        same = again->x[i] == w->x[i] && again->y[i] == w->y[i] && again->vx[i] == w->vx[i] &&
               again->vy[i] == w->vy[i] && again->r[i] == w->r[i] &&
               again->mass[i] == w->mass[i] && again->angle[i] == w->angle[i] &&
               again->w[i] == w->w[i];
    for (size_t k = 0; same && k < w->wall_count; k++)
        same = memcmp(&again->walls[k], &w->walls[k], sizeof(bp_wall)) == 0;
    TAP_OK(same, "every parameter, wall and ball (spin and angle included) comes back bit for bit");
    bp_world_destroy(w);
    bp_world_destroy(again);
}

static size_t asleep_count(const bp_world *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->count; i++)
        n += (w->flags[i] & BP_BALL_ASLEEP) != 0;
    return n;
}

/* Forty balls of radii 8-11 in rows above the floor of a small arena
 * (friction 0.5), to drop into a pile; world_keys go on the world line. */
static bp_world *forty_balls_to_drop(const char *world_keys, char *err, size_t err_size)
{
    char text[4096];
    snprintf(text, sizeof text, "world w=300 h=200 restitution=0.2 friction=0.5%s\n", world_keys);
    for (int k = 0; k < 40; k++) {
        char line[96];
        snprintf(line, sizeof line, "ball x=%d y=%d r=%d\n", 20 + (k % 10) * 26,
                 20 + (k / 10) * 26, 8 + k % 4);
        strncat(text, line, sizeof text - strlen(text) - 1);
    }
    return build(text, err, err_size);
}

/* Ctrl+S of a pile at rest: the scene marks its sleepers (asleep=1), and
 * it loads back to the same picture, which stays as it is. */
static void a_pile_saved_at_rest_loads_back_at_rest(void)
{
    char err[256] = "";
    bp_world *w = forty_balls_to_drop("", err, sizeof err);
    if (!w) {
        TAP_OK(0, "the pile's scene loads");
        printf("#   %s\n", err);
        return;
    }
    for (int s = 0; s < 3000 && asleep_count(w) < w->count; s++)
        if (!bp_world_step(w))
            break;
    TAP_OK(asleep_count(w) == w->count, "40 balls dropped on the floor come to rest and sleep");
    bp_world *again = save_and_load(w, err, sizeof err);
    TAP_OK(again && asleep_count(again) == again->count,
           "saved and loaded back, every ball of the pile is asleep");
    if (!again) {
        printf("#   %s\n", err);
        bp_world_destroy(w);
        return;
    }
    bool ran = true;
    for (int s = 0; s < 240 && ran; s++)
        ran = bp_world_step(again);
    bool same = ran && again->count == w->count;
    for (size_t i = 0; same && i < w->count; i++)
        same = again->x[i] == w->x[i] && again->y[i] == w->y[i] && again->angle[i] == w->angle[i];
    TAP_OK(same, "2 s later every ball is where the saved pile had it, bit for bit");
    bp_world_destroy(w);
    bp_world_destroy(again);
    const char *bad[] = {"world w=300 h=200\nball x=50 y=50 r=10 asleep=2\n",
                         "world w=300 h=200\nball x=50 y=50 r=10 vx=1 asleep=1\n"};
    for (int k = 0; k < 2; k++) {
        bp_world *b = build(bad[k], err, sizeof err);
        TAP_OK(!b && strstr(err, "asleep"), k == 0 ? "asleep=2 is refused, naming asleep"
                                                   : "a moving ball marked asleep is refused");
        bp_world_destroy(b);
    }
}

/* The solver is a world key like the others: a scene's solver=soft makes a
 * world of the soft solver, and a world saved loads back with it. */
static void the_solver_key_round_trips(void)
{
    char err[256] = "";
    bp_world *w = build("world w=300 h=200 solver=soft\nball x=50 y=50 r=10\n", err, sizeof err);
    TAP_OK(w && w->params.solver == BP_SOLVER_SOFT, "world solver=soft makes a soft world");
    bp_world *again = w ? save_and_load(w, err, sizeof err) : NULL;
    TAP_OK(again && again->params.solver == BP_SOLVER_SOFT, "saved and loaded, it is soft still");
    bp_world_destroy(w);
    bp_world_destroy(again);
}

/* Whether each source accepts a ball radius given as text. */
static bool scene_takes_radius(const char *r)
{
    char text[128], err[256];
    snprintf(text, sizeof text, "world w=30000 h=30000\nball x=15000 y=15000 r=%s\n", r);
    bp_world *w = build(text, err, sizeof err);
    bp_world_destroy(w);
    return w != NULL;
}

static bool recording_takes_radius(const char *r)
{
    char text[128], err[256];
    snprintf(text, sizeof text, "ballpit-input 1\n1 spawn 10 10 %s\nend 2\n", r);
    bp_replay rp;
    bp_params arena = bp_params_default();
    arena.width = arena.height = 30000.0;
    bool ok = bp_replay_parse(&rp, "t.rec", text, strlen(text), err, sizeof err) == 0 &&
              bp_replay_check_arena(&rp, &arena, "t.rec", err, sizeof err) == 0;
    bp_replay_free(&rp);
    return ok;
}

static bool command_line_takes_radius(const char *r)
{
    char value[64], err[256];
    snprintf(value, sizeof value, "%s", r);
    char *argv[] = {"ballpit", "--radius", value, NULL};
    bp_options opts = bp_options_default();
    return bp_options_parse(&opts, 3, argv, err, sizeof err) == 0;
}

static void a_radius_is_judged_alike_by_scene_recording_and_command_line(void)
{
    const char *radii[] = {"0.49", "0.5", "16", "10000", "10000.5", "1e-320", "1e308", "-4"};
    for (size_t k = 0; k < sizeof radii / sizeof radii[0]; k++) {
        bool scene = scene_takes_radius(radii[k]);
        bool rec = recording_takes_radius(radii[k]);
        bool cli = command_line_takes_radius(radii[k]);
        bool want = strcmp(radii[k], "0.5") == 0 || strcmp(radii[k], "16") == 0 ||
                    strcmp(radii[k], "10000") == 0;
        char what[128];
        snprintf(what, sizeof what, "radius %s: scene, recording and --radius all %s it",
                 radii[k], want ? "take" : "refuse");
        TAP_OK(scene == want && rec == want && cli == want, what);
        if (!(scene == want && rec == want && cli == want))
            printf("#   scene %d recording %d command line %d\n", scene, rec, cli);
    }
}

static void masses_whose_reciprocal_breaks_are_refused(void)
{
    const char *masses[] = {"1e-309", "1e-320", "0", "1e-10", "1e13"};
    for (size_t k = 0; k < sizeof masses / sizeof masses[0]; k++) {
        char text[96], err[256] = "", what[96];
        snprintf(text, sizeof text, "ball x=100 y=100 m=%s\n", masses[k]);
        bp_world *w = build(text, err, sizeof err);
        snprintf(what, sizeof what, "mass %s is refused at t.scene:1", masses[k]);
        TAP_OK(w == NULL && strncmp(err, "t.scene:1:", 10) == 0, what);
        bp_world_destroy(w);
    }
    char err[256];
    bp_world *w = build("world w=30000 h=30000\nball x=100 y=100 r=0.5 m=1e-9\n"
                        "ball x=15000 y=15000 r=10000 m=1e12\n", err,
                        sizeof err);
    TAP_OK(w != NULL && isfinite(w->inv_mass[0]) && isfinite(w->inv_inertia[0]) &&
               isfinite(w->inv_inertia[1]) && w->inv_inertia[1] > 0.0,
           "the extreme masses allowed keep 1/m and 1/I finite and nonzero");
    bp_world_destroy(w);
}

/* The impulses w's contacts carry (malloc'd; *count of them), or NULL. */
static bp_contact_impulse *impulses_of(const bp_world *w, size_t *count)
{
    *count = w ? bp_world_get_contact_impulses(w, NULL, 0) : 0;
    bp_contact_impulse *list = w ? malloc((*count + 1) * sizeof *list) : NULL;
    if (list)
        bp_world_get_contact_impulses(w, list, *count);
    return list;
}

/* A pile of the soft solver is held by the impulses its contacts carry:
 * the scene writes them (contact lines), and a pile loaded back starts
 * from them. Woken, the loaded pile moves exactly as the saved one woken. */
static void a_soft_pile_saved_keeps_its_impulses(void)
{
    char err[256] = "";
    bp_world *w = forty_balls_to_drop(" solver=soft", err, sizeof err);
    for (int s = 0; w && s < 3000 && asleep_count(w) < w->count; s++)
        if (!bp_world_step(w))
            break;
    bp_world *again = w ? save_and_load(w, err, sizeof err) : NULL;
    size_t kept = 0, loaded = 0;
    bp_contact_impulse *x = impulses_of(w, &kept), *y = impulses_of(again, &loaded);
    bool same = x && y && kept > 0 && loaded == kept;
    for (size_t k = 0; same && k < kept; k++)
        same = x[k].a == y[k].a && x[k].kind == y[k].kind && x[k].b == y[k].b &&
               x[k].jn == y[k].jn && x[k].jt == y[k].jt && x[k].jr == y[k].jr;
    free(x);
    free(y);
    printf("# %zu contacts kept, %zu loaded\n", kept, loaded);
    TAP_OK(same, "a soft pile at rest, saved and loaded: every contact's impulses, bit for bit");
    bool ran = same;
    if (ran) {
        bp_world_wake_all(w);
        bp_world_wake_all(again);
    }
    for (int s = 0; s < 240 && ran; s++)
        ran = bp_world_step(w) && bp_world_step(again);
    bool moved_alike = ran;
    for (size_t i = 0; moved_alike && i < w->count; i++)
        moved_alike = again->x[i] == w->x[i] && again->y[i] == w->y[i];
    TAP_OK(moved_alike, "woken, the loaded pile moves as the saved one, bit for bit, for 2 s");
    bp_world_destroy(w);
    bp_world_destroy(again);
}

/* Contact lines name balls and walls by their place in the scene. */
static void bad_contact_lines_are_refused(void)
{
    const char *head = "world w=300 h=200 solver=soft\nball x=50 y=50 r=10\nball x=70 y=50 r=10\n"
                       "wall x1=0 y1=100 x2=300 y2=100\n";
    const struct {
        const char *line, *says;
    } bad[] = {
        {"contact a=0 jn=1", "one of b=, side= or wall="},
        {"contact a=0 b=1 side=2 jn=1", "one of b=, side= or wall="},
        {"contact a=1 b=1 jn=1", "after a's"},
        {"contact a=0.5 b=1 jn=1", "a must be"},
        {"contact a=0 side=4 jn=1", "side must be"},
        {"contact a=0 b=1 jn=-1", "jn"},
        {"contact a=0 b=1 jn=nan", "not a finite number"},
        {"contact a=0 b=2 jn=1", "a ball the scene does not have"},
        {"contact a=0 wall=1 jn=1", "a wall the scene does not have"},
        {"contact a=2 wall=0 jn=1", "a ball the scene does not have"},
        {"contact a=0 b=1", "missing key"},
        /* Two balls of mass 100 at 10^7 px/s, 120 Hz, g 980: at most
         * 200 (1e7 + 980 / 120) = 2.0000016e9 px mass/s. */
        {"contact a=0 wall=0 jn=1e300", "jn, the normal impulse"},
        {"contact a=0 wall=0 jn=2.00001e9", "jn, the normal impulse"},
        /* Friction and rolling are at most 1: |jt| <= jn, |jr| <= jn r_a. */
        {"contact a=0 side=2 jn=0 jt=1e308", "jt, the friction impulse"},
        {"contact a=0 b=1 jn=2 jt=2.000001", "jt, the friction impulse"},
        {"contact a=0 b=1 jn=2 jr=-20.00001", "jr, the rolling impulse"},
    };
    size_t refused = 0, count = sizeof bad / sizeof bad[0];
    for (size_t k = 0; k < count; k++) {
        char text[512], err[256] = "";
        snprintf(text, sizeof text, "%s%s\n", head, bad[k].line);
        bp_world *w = build(text, err, sizeof err);
        bool ok = !w && strstr(err, bad[k].says) && strstr(err, "t.scene:");
        if (!ok)
            printf("#   '%s' gave '%s'\n", bad[k].line, err);
        refused += ok;
        bp_world_destroy(w);
    }
    TAP_OK(refused == count, "bad contact lines are refused, each with its line and why");
    char err[256] = "", text[512];
    /* The head is lines 1-4: the good contact line 5, the bad one 6. */
    snprintf(text, sizeof text, "%scontact a=0 b=1 jn=1\ncontact a=0 wall=0 jn=1e300\n", head);
    bp_world *bad_second = build(text, err, sizeof err);
    TAP_OK(!bad_second && strstr(err, "t.scene:6: jn"), "after a good one, the bad line is named");
    bp_world_destroy(bad_second);
    snprintf(text, sizeof text, "%scontact a=0 b=1 jn=2 jt=-0.5\ncontact a=1 wall=0 jn=3\n", head);
    bp_world *w = build(text, err, sizeof err);
    bp_contact_impulse c[3] = {{0}};
    bool read = w && bp_world_get_contact_impulses(w, c, 3) == 2;
    TAP_OK(read && c[0].kind == BP_CONTACT_WITH_BALL && c[0].a == 0 && c[0].b == 1 &&
               c[0].jn == 2.0 && c[0].jt == -0.5 && c[0].jr == 0.0 &&
               c[1].kind == BP_CONTACT_WITH_WALL && c[1].a == 1 && c[1].b == 0 && c[1].jn == 3.0,
           "good ones are kept, by the balls' ids");
    bp_world_destroy(w);
    snprintf(text, sizeof text, "%scontact a=0 b=1 jn=2e9 jt=-2e9 jr=2e10\n", head);
    w = build(text, err, sizeof err);
    TAP_OK(w != NULL, "impulses at their bounds are kept (2e9 of 2.0000016e9, |jt| = jn, "
                      "|jr| = jn r)");
    bp_world_destroy(w);
}

/* A ball at its most spinning and mass, pressed as hard as a file may say,
 * under gravity 10^7 px/s^2: every step ends, finite, with the balls
 * inside. (The bound keeps out jn = 1e300, with which a step ran for ever.) */
static void the_hardest_contact_a_file_may_give_ends_every_step(void)
{
    char err[256] = "";
    bp_world *w = build("world w=400 h=300 solver=soft gravity=1e7 friction=1 rolling=1\n"
                        "wall x1=0 y1=280 x2=400 y2=280 r=2\n"
                        "ball x=200 y=262 r=16 m=1e12 w=1e9\n"
                        "ball x=200 y=230 r=16 m=1e-9\n"
                        "contact a=0 wall=0 jn=1e19 jt=1e19 jr=1.6e20\n"
                        "contact a=0 b=1 jn=1e19 jt=-1e19\n",
                        err, sizeof err);
    bool fine = w != NULL;
    for (int s = 0; fine && s < 120; s++) {
        fine = bp_world_step(w);
        for (size_t i = 0; fine && i < w->count; i++)
            fine = isfinite(w->x[i]) && isfinite(w->y[i]) && isfinite(w->vx[i]) &&
                   isfinite(w->vy[i]) && isfinite(w->w[i]) && w->x[i] > 0.0 && w->x[i] < 400.0 &&
                   w->y[i] > 0.0 && w->y[i] < 300.0;
    }
    if (!w)
        printf("#   %s\n", err);
    TAP_OK(fine, "120 steps end, every ball finite and inside the arena");
    bp_world_destroy(w);
}

/* A file may say a ball is asleep; it stays asleep only where a ball could
 * be at rest. */
static void loaded_sleepers_are_only_balls_that_could_rest(void)
{
    char err[256] = "";
    /* 0 and 1 overlap by 12 px on the floor; 2 rests on the floor alone;
     * 3 floats; 4 sits in the wall's thickness. */
    bp_world *w = build("world w=400 h=300\n"
                        "wall x1=300 y1=0 x2=300 y2=200 r=5\n"
                        "ball x=100 y=284 r=16 asleep=1\n"
                        "ball x=120 y=284 r=16 asleep=1\n"
                        "ball x=200 y=284 r=16 asleep=1\n"
                        "ball x=200 y=100 r=16 asleep=1\n"
                        "ball x=310 y=100 r=16 asleep=1\n",
                        err, sizeof err);
    if (!w) {
        TAP_OK(0, "the scene loads");
        printf("#   %s\n", err);
        return;
    }
    uint8_t *f = w->flags;
    TAP_OK(!(f[0] & BP_BALL_ASLEEP) && !(f[1] & BP_BALL_ASLEEP),
           "two sleepers overlapping by 12 px wake");
    TAP_OK((f[2] & BP_BALL_ASLEEP) && (f[2] & BP_BALL_GROUNDED),
           "a sleeper on the floor stays asleep, grounded as one that fell asleep there");
    TAP_OK(!(f[3] & BP_BALL_ASLEEP), "a sleeper touching nothing wakes and falls");
    TAP_OK(!(f[4] & BP_BALL_ASLEEP), "a sleeper inside a wall wakes");
    for (int s = 0; s < 240; s++)
        bp_world_step(w);
    double gap = fabs(w->x[1] - w->x[0]) - 32.0;
    printf("# the two that overlapped: %.4f px apart after 2 s\n", gap);
    TAP_OK(gap > -0.32, "2 s later the two that overlapped by 12 px are within 1% of r of apart");
    bp_world_destroy(w);
}

/* Ctrl+O after --pit 50: the pit stood in for the loaded scene too, its
 * arena replacing the scene's, and the load failed. */
static void a_scene_loaded_after_the_pit_is_that_scene(void)
{
    char *argv[] = {"ballpit", "--pit", "50", NULL};
    bp_options given = bp_options_default();
    char err[512] = "";
    int status = bp_options_parse(&given, 3, argv, err, sizeof err);
    bp_options opts = bp_setup_options_for_scene(&given, BP_SCENES_DIR "/funnel.scene");
    bp_world *w = status == 0 ? bp_setup_world(&opts, &status, err, sizeof err) : NULL;
    TAP_OK(w && w->params.width == 1024.0 && w->params.height == 768.0 && w->count == 40 &&
               w->params.friction == 0.6,
           "after --pit 50, loading funnel gives funnel: its arena, its 40 balls, its friction");
    if (!w)
        printf("#   %s\n", err);
    bp_world_destroy(w);
}

/* A replay may draw more walls than a scene file holds (100,000): such a
 * world is not saved, rather than saved as a file that will not load. */
static void a_world_a_scene_cannot_hold_is_not_saved(void)
{
    bp_params p = bp_params_default();
    bp_world *w = bp_world_new(&p);
    bool built = w != NULL;
    for (int k = 0; built && k < 100000; k++)
        built = bp_world_insert_wall(w, (bp_wall){.x1 = 10.0 + k % 1000, .y1 = 10.0 + k / 200,
                                                  .x2 = 12.0 + k % 1000, .y2 = 10.0 + k / 200,
                                                  .r = 1.0});
    TAP_OK(built, "a world with 100,000 walls");
    if (!built) {
        bp_world_destroy(w);
        return;
    }
    char why[128] = "", err[512] = "";
    bp_scene scene = {0};
    TAP_OK(bp_scene_fits(w, why, sizeof why) && scene_round_trip(w, &scene, err, sizeof err) &&
               scene.wall_count == 100000,
           "100,000 walls fit a scene file, and it loads back with all of them");
    if (err[0])
        printf("#   %s\n", err);
    bp_scene_free(&scene);
    bp_world_insert_wall(w, (bp_wall){.x1 = 5.0, .y1 = 5.0, .x2 = 6.0, .y2 = 5.0, .r = 1.0});
    TAP_OK(!bp_scene_fits(w, why, sizeof why) && strstr(why, "100001 walls") &&
               strstr(why, "at most 100000"),
           "100,001 walls do not fit, and the reason says how many may");
    printf("#   %s\n", why);
    FILE *f = tmpfile();
    TAP_OK(f && !bp_scene_save(w, f) && ftell(f) == 0,
           "saving them is refused before a byte is written");
    if (f)
        fclose(f);
    bp_world_destroy(w);
}

int main(void)
{
    a_world_a_scene_cannot_hold_is_not_saved();
    rotation_keys_set_the_balls_angle_and_spin();
    a_scene_loaded_after_the_pit_is_that_scene();
    a_saved_scene_loads_back_to_the_same_bits();
    a_pile_saved_at_rest_loads_back_at_rest();
    the_solver_key_round_trips();
    a_radius_is_judged_alike_by_scene_recording_and_command_line();
    masses_whose_reciprocal_breaks_are_refused();
    a_soft_pile_saved_keeps_its_impulses();
    bad_contact_lines_are_refused();
    the_hardest_contact_a_file_may_give_ends_every_step();
    loaded_sleepers_are_only_balls_that_could_rest();
    return tap_done();
}
