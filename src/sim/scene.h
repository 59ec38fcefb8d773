/* Scene files (format in docs/cli.md): world settings, balls and walls, one statement per
 * line. Parsing only checks the text; placing the balls in a world is
 * bp_scene_build's job, so command-line overrides can come in between. */
#ifndef BP_SCENE_H
#define BP_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "program.h"

typedef struct bp_scene_ball {
    double x, y, vx, vy, r;
    double mass;     /* <= 0: the default, r^2 */
    double angle, w; /* rotation, rad, and angular velocity, rad/s (default 0) */
    double asleep;   /* 1: the ball starts asleep (as a saved pile at rest), 0: awake */
    double grounded; /* 1: it starts on a floor (the dump's flag, as the step left it) */
    int line;    /* where it was given, for later messages */
} bp_scene_ball;

typedef struct bp_scene_wall {
    bp_wall wall;
    int line;
} bp_scene_wall;

/* The impulses a contact carried (the soft solver keeps them from step
 * to step), as the file names what it joins: impulse.a is ball a's place
 * among the scene's balls (from 0), impulse.b ball b's place (after a's),
 * the side (0-3) or the wall's place among the scene's walls.
 * bp_scene_build makes them ids. */
typedef struct bp_scene_contact {
    bp_contact_impulse impulse;
    int line;
} bp_scene_contact;

typedef struct bp_scene {
    bp_params params;
    unsigned params_set; /* BP_SET_* of the keys the file gave */
    bp_scene_ball *balls;
    size_t ball_count, ball_capacity;
    bp_scene_wall *walls;
    size_t wall_count, wall_capacity;
    bp_scene_contact *contacts;
    size_t contact_count, contact_capacity;
} bp_scene;

/* Parses text read from a file called name. Returns 0, or 2 with
 * "NAME:LINE: message" in err (1 when memory runs out). */
int bp_scene_parse(bp_scene *scene, const char *name, const char *text, char *err,
                   size_t err_size);
/* The same for text that starts at line first_line of the file called
 * name (a scene embedded in an input recording): messages and the balls'
 * lines count from there. */
int bp_scene_parse_at(bp_scene *scene, const char *name, int first_line, const char *text,
                      char *err, size_t err_size);
/* Reads and parses a file: 0, 2 for bad input (and an unreadable file). */
int bp_scene_load(bp_scene *scene, const char *path, char *err, size_t err_size);
void bp_scene_free(bp_scene *scene);

/* Adds the scene's balls and walls to a world whose parameters are final,
 * and with the soft solver the contacts' impulses (other solvers carry
 * none, and ignore them). Returns 0, or 2 with "NAME:LINE: message" when a
 * ball or wall does not fit the arena or a contact names a ball or wall
 * the scene does not have, or 1 when memory runs out. */
int bp_scene_build(const bp_scene *scene, const char *name, bp_world *world, char *err,
                   size_t err_size);

/* Whether the world can be written as a scene file that loads: no more
 * balls, walls or kept contacts than a scene file may hold (a replay can
 * draw more walls than that). false with why ("100001 walls; a scene file
 * holds at most 100000"). */
bool bp_scene_fits(const bp_world *world, char *why, size_t why_size);

/* Writes the world as a scene file that loads back to the same state.
 * false on a write error, or when it would not load (bp_scene_fits). */
bool bp_scene_save(const bp_world *world, FILE *out);

#endif
