#include "setup.h"

#include <stdio.h>
#include <string.h>

#include "program.h"
#include "scene.h"
#include "scenepath.h"
#include "spawn.h"

static bp_params merge_params(const bp_params *scene, const bp_options *opts)
{
    bp_params p = *scene;
    const bp_params *cli = &opts->params;
    if (opts->params_set & BP_SET_SIZE) {
        p.width = cli->width;
        p.height = cli->height;
    }
    if (opts->params_set & BP_SET_GRAVITY)
        p.gravity = cli->gravity;
    if (opts->params_set & BP_SET_RESTITUTION)
        p.restitution = cli->restitution;
    if (opts->params_set & BP_SET_FRICTION)
        p.friction = cli->friction;
    if (opts->params_set & BP_SET_ROLLING)
        p.rolling = cli->rolling;
    if (opts->params_set & BP_SET_DRAG)
        p.drag = cli->drag;
    if (opts->params_set & BP_SET_HZ)
        p.hz = cli->hz;
    if (opts->params_set & BP_SET_SOLVER)
        p.solver = cli->solver;
    return p;
}

/* Whether the balls of the command line's radius fit the arena of params;
 * if not, says so in err, blaming what is to blame: an explicit --radius
 * (the window spawns balls of it, scene or not), or else, when random
 * balls of the default radius are to be made, what set the arena. */
static bool radius_fits(const bp_options *opts, const bp_params *params, bool random_balls,
                        char *err, size_t err_size)
{
    if (!bp_check_ball_size(params, opts->radius_max))
        return true;
    double most = 0.5 * (params->width < params->height ? params->width : params->height);
    if (opts->radius_set)
        snprintf(err, err_size, "--radius: %g px balls do not fit a %gx%g arena",
                 opts->radius_max, params->width, params->height);
    else if (!random_balls)
        return true; /* the default radius only spawns what fits */
    else if (opts->params_set & BP_SET_SIZE)
        snprintf(err, err_size, "--arena: a %gx%g arena is too small for the default balls "
                 "(radius %g..%g px): give a --radius of at most %g px, or a larger arena",
                 params->width, params->height, opts->radius_min, opts->radius_max, most);
    else if (opts->scene_text) /* a scene input's: the caller names its line; --arena
                                * does not change its arena */
        snprintf(err, err_size, "its %gx%g arena is too small for the default balls "
                 "(radius %g..%g px): give a --radius of at most %g px",
                 params->width, params->height, opts->radius_min, opts->radius_max, most);
    else
        snprintf(err, err_size, "%s: its %gx%g arena is too small for the default balls "
                 "(radius %g..%g px): give a --radius of at most %g px, or --arena",
                 opts->scene_path ? opts->scene_path : "the arena", params->width,
                 params->height, opts->radius_min, opts->radius_max, most);
    return false;
}

bp_world *bp_setup_world(const bp_options *opts, int *status, char *err, size_t err_size)
{
    return bp_setup_world_until(opts, NULL, status, err, err_size);
}

bp_world *bp_setup_world_until(const bp_options *opts, const volatile int *stop, int *status,
                               char *err, size_t err_size)
{
    bp_scene scene = {.params = bp_params_default()};
    char scene_path[4096] = "";
    if (opts->scene_text) {
        size_t n = strlen(opts->scene_path);
        n = n < sizeof scene_path - 1 ? n : sizeof scene_path - 1;
        memcpy(scene_path, opts->scene_path, n);
        scene_path[n] = '\0';
        *status = bp_scene_parse_at(&scene, scene_path, opts->scene_line, opts->scene_text, err,
                                    err_size);
        if (*status)
            return NULL;
    } else if (opts->scene_path) {
        if (!bp_scene_find(opts->scene_path, scene_path, sizeof scene_path, err, err_size)) {
            *status = 2;
            return NULL;
        }
        *status = bp_scene_load(&scene, scene_path, err, err_size);
        if (*status)
            return NULL;
    }
    /* The benchmark pit stands in for a scene: its arena and parameters,
     * which the command line's physics options beat as a scene's. */
    if (opts->pit_set)
        scene.params = bp_pit_params(opts->pit);
    bp_params params = merge_params(&scene.params, opts);
    bp_world *world = bp_world_new(&params);
    if (!world) {
        bp_scene_free(&scene);
        snprintf(err, err_size, "out of memory");
        *status = 1;
        return NULL;
    }
    world->threads = opts->threads;
    bool random_balls = !opts->pit_set && scene.ball_count == 0 && opts->balls > 0;
    if (!radius_fits(opts, &params, random_balls, err, err_size)) {
        bp_scene_free(&scene);
        bp_world_destroy(world);
        *status = 2;
        return NULL;
    }
    *status = bp_scene_build(&scene, scene_path, world, err, err_size);
    if (*status == 0 && opts->pit_set) {
        if (!bp_spawn_pit(world, opts->pit, opts->seed)) {
            snprintf(err, err_size, "out of memory placing %llu balls",
                     (unsigned long long)opts->pit);
            *status = 1;
        }
    } else if (*status == 0 && scene.ball_count == 0) {
        *status = bp_spawn_random(world, opts->balls, opts->radius_min, opts->radius_max,
                                  opts->seed, err, err_size);
    }
    bp_scene_free(&scene);
    /* --settle: the run starts from the world these steps leave. */
    world->stop = stop;
    for (uint64_t s = 0; *status == 0 && s < opts->settle && !(stop && *stop); s++)
        if (!bp_world_step(world) && !(stop && *stop)) {
            snprintf(err, err_size, "--settle: out of memory at step %llu",
                     (unsigned long long)s + 1);
            *status = 1;
        }
    world->stop = NULL;
    /* The run counts its steps from the settled world on (the HUD, trails). */
    world->steps = 0;
    if (*status) {
        bp_world_destroy(world);
        return NULL;
    }
    return world;
}

bp_options bp_setup_options_for_scene(const bp_options *given, const char *scene_path)
{
    bp_options opts = *given;
    opts.scene_path = scene_path;
    opts.scene_text = NULL;
    opts.scene_line = 1;
    opts.params = bp_params_default();
    opts.params_set = 0;
    /* The pit stands in for a scene: not for the one loaded now. */
    opts.pit_set = false;
    opts.pit = 0;
    return opts;
}
