/* Drawing the world with an SDL_Renderer, in arena coordinates. The window
 * and the PNG frames of the dump share this code, so a frame on disk looks
 * exactly like the window. */
#ifndef BP_RENDER_H
#define BP_RENDER_H

#include <SDL2/SDL.h>

#include "world.h"

/* Stable colour of a ball, from its id. */
SDL_Color bp_ball_color(uint32_t id);

/* Many balls are drawn as one batch of textured quads (one
 * SDL_RenderGeometry call) instead of one SDL2_gfx call each. The batch
 * holds the ball sprite, made for one renderer, and the vertex buffers. */
typedef struct bp_ball_batch bp_ball_batch;

/* From this many balls on, bp_render_world draws them as a batch. One by
 * one, SDL2_gfx draws each ball as dozens of lines and points, which a
 * software renderer cannot keep up with for a few hundred balls; a few
 * dozen it can (figures: docs/benchmarks.md, "Drawing"). */
#define BP_RENDER_BATCH_MIN_BALLS 100

/* A texture of surface (which it frees) that blends over what is below it
 * and scales with mode; NULL when the renderer cannot make it. */
SDL_Texture *bp_blended_texture(SDL_Renderer *renderer, SDL_Surface *surface,
                                SDL_ScaleMode mode);
/* The six indices of a quad's two triangles, its corners first_vertex ..
 * first_vertex + 3 clockwise from the top left. */
void bp_quad_indices(int *indices, int first_vertex);

/* NULL when the sprite cannot be made (balls are then drawn one by one). */
bp_ball_batch *bp_ball_batch_create(SDL_Renderer *renderer);
/* How long the last frame took to draw, ms: the batch tries the other way
 * of drawing crowds now and then and keeps the faster (see render.c). A
 * batch that gets no reports always draws the same way. */
void bp_ball_batch_frame_time(bp_ball_batch *batch, double draw_ms);
/* Before the renderer it was made for is destroyed. */
void bp_ball_batch_destroy(bp_ball_batch *batch);

/* Clears to the background and draws walls and balls. draw_x/draw_y, when not
 * NULL, give the positions to draw each ball at (by index), e.g. interpolated
 * between two steps; otherwise the world's own positions are used. batch may
 * be NULL: every ball is then drawn with SDL2_gfx. */
void bp_render_world(SDL_Renderer *renderer, bp_ball_batch *batch, const bp_world *world,
                     const double *draw_x, const double *draw_y);

#endif
