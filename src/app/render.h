/* Drawing the world with an SDL_Renderer, in arena coordinates. The window
 * and the PNG frames of the dump share this code, so a frame on disk looks
 * exactly like the window. */
#ifndef BP_RENDER_H
#define BP_RENDER_H

#include <SDL2/SDL.h>

#include "world.h"

/* Stable colour of a ball, from its id. */
SDL_Color bp_ball_color(uint32_t id);

/* Clears to the background and draws walls and balls. draw_x/draw_y, when not
 * NULL, give the positions to draw each ball at (by index), e.g. interpolated
 * between two steps; otherwise the world's own positions are used. */
void bp_render_world(SDL_Renderer *renderer, const bp_world *world, const double *draw_x,
                     const double *draw_y);

#endif
