/* The world in the window: the picture (picture.h) is drawn on the CPU
 * into a texture at the renderer's scale and copied to the arena's place,
 * so the window shows what a --png frame of the same state holds: exactly
 * at scale 1, that picture shrunk below (a big arena in a small window is
 * drawn at the size it is shown). Zoomed (camera.h), the texture keeps the
 * window's size and shows the camera's part of the arena, drawn afresh at
 * the magnified scale: round balls and sharp walls, never a bitmap blown
 * up, and never a texture the arena's size times the zoom. */
#ifndef BP_RENDER_H
#define BP_RENDER_H

#include <SDL2/SDL.h>

#include "camera.h"
#include "look.h"
#include "picture.h"
#include "ballpit/ballpit.h"

/* A texture of surface (which it frees) that blends over what is below it
 * and scales with mode; NULL when the renderer cannot make it. */
SDL_Texture *bp_blended_texture(SDL_Renderer *renderer, SDL_Surface *surface,
                                SDL_ScaleMode mode);
/* The six indices of a quad's two triangles, its corners first_vertex ..
 * first_vertex + 3 clockwise from the top left. */
void bp_quad_indices(int *indices, int first_vertex);

/* The picture and the texture it is shown through. */
typedef struct bp_render bp_render;

/* NULL when memory runs out. */
bp_render *bp_render_create(void);
/* Before the renderer its texture was made for is destroyed. */
void bp_render_destroy(bp_render *render);

/* Draws the part of the world the camera shows (see bp_picture_draw) at
 * the renderer's scale times its zoom, and copies it over the whole
 * logical area (the arena's size). cam NULL: the whole arena. false when
 * the renderer would not take the texture or memory ran out. */
bool bp_render_world(SDL_Renderer *renderer, bp_render *render, const bp_world *world,
                     const bp_camera *cam, const double *draw_x, const double *draw_y,
                     const bp_look *look, const bp_picture_extras *extras);
/* The size of the layer the world was last drawn into, pixels: the
 * window's, whatever the zoom (0 x 0 before any). */
void bp_render_layer_size(const bp_render *render, int *w, int *h);

/* The picture bp_render_world drew last, copied over the arena again
 * without drawing it: for a frame that shows the same world as the last
 * (only the HUD changed). false when there is no whole picture at the
 * renderer's present scale and through this camera; then nothing was
 * copied. */
bool bp_render_again(SDL_Renderer *renderer, bp_render *render, const bp_world *world,
                     const bp_camera *cam);

#endif
