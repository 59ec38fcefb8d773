/* Text in SDL2_gfx's built-in 8x8 font, drawn as one batch of textured quads
 * per block of text rather than one SDL2_gfx call per glyph: under a
 * software renderer those calls made the help overlay alone cost more than
 * a frame's time. */
#ifndef BP_TEXT_H
#define BP_TEXT_H

#include <SDL2/SDL.h>
#include <stdbool.h>

typedef struct bp_text bp_text;

/* NULL when the glyph texture cannot be made (bp_text_add then draws each
 * string with SDL2_gfx right away). */
bp_text *bp_text_create(SDL_Renderer *renderer);
/* Before the renderer it was made for is destroyed. */
void bp_text_destroy(bp_text *text);

/* Queues s with its first glyph's top-left corner at (x, y), in the
 * renderer's coordinates, 8 px a glyph. */
void bp_text_add(bp_text *text, SDL_Renderer *renderer, int x, int y, const char *s,
                 SDL_Color colour);
/* Draws everything queued since the last flush, in one call. */
void bp_text_flush(bp_text *text, SDL_Renderer *renderer);

/* Output pixels per unit of the HUD's text and the panels, for an output of
 * out_w x out_h pixels in a window win_w points wide (0: unknown): whole
 * steps from 640x480 up (the 8 px font stays crisp), and 4/3 of a window
 * point in whole pixels, rounded down (1.33 points at 3x, 1 at 2x), so the
 * panel's 256 units still fit across a phone 360 points wide. A phone has
 * few points and many pixels to each: at 3x, 8 px glyphs were under a
 * millimetre tall and the panel a third of an inch across; at 4/3 a button
 * is 27 points tall, for a fingertip. */
int bp_text_scale(int out_w, int out_h, int win_w);
/* The same for the renderer's output and window; 1 when it has none. */
int bp_text_scale_of(SDL_Renderer *renderer);

#endif
