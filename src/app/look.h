/* How the picture looks: the palette and the overlays the user turned on.
 * The window and the --png frames draw from the same look. */
#ifndef BP_LOOK_H
#define BP_LOOK_H

#include <stdbool.h>
#include <stdint.h>

#include "options.h"
#include "paint.h"
#include "ballpit/ballpit.h"

typedef struct bp_look {
    bp_color_by color_by;
    double trails;  /* seconds of path behind each ball, 0: none */
    bool vectors;   /* velocity arrows */
    bool debug;     /* grid and contacts */
    int64_t inspect; /* id of the ball the inspector follows, -1: none */
} bp_look;

/* Whether two looks draw the same picture. */
bool bp_look_same(const bp_look *a, const bp_look *b);

/* The look the options ask for. */
bp_look bp_look_from_options(const bp_options *opts);

/* The palette: calm, on a dark slate that keeps small balls readable. */
#define BP_LOOK_BACKGROUND 0xff1a1f27u
#define BP_LOOK_WALL 0xff9aa4b0u
/* Brightness (out of 255) of a ball's rim and spin mark: its own colour,
 * darkened, so touching balls stay apart to the eye. */
#define BP_LOOK_RIM_LEVEL 150u
/* Speed at which --color-by speed reaches the warm end, px/s. */
#define BP_LOOK_SPEED_FULL 1000.0

/* A stable colour for the ball with this id. */
uint32_t bp_look_id_colour(uint32_t id);
/* Cool (still) to warm (BP_LOOK_SPEED_FULL px/s and faster). */
uint32_t bp_look_speed_colour(double speed);
/* Ball i's colour under look; id_colour is bp_look_id_colour of its id. */
uint32_t bp_look_ball_colour(const bp_look *look, const bp_world *world, size_t i,
                             uint32_t id_colour);

#endif
