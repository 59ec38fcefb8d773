/* What the window draws over the world: the held ball's ring, the wall being
 * drawn, the HUD (numbers) and the help overlay (keys). Text uses SDL2_gfx's
 * built-in 8x8 font, scaled up on large or high-DPI windows. */
#ifndef BP_HUD_H
#define BP_HUD_H

#include <SDL2/SDL.h>

#include "input.h"
#include "session.h"
#include "text.h"

/* Measured over the last half second or so. */
typedef struct bp_hud_stats {
    double fps;         /* frames per real second */
    bool idle;          /* the picture did not change: frames were not drawn */
    double steps_per_s; /* physics steps per real second */
    double draw_ms;     /* drawing one frame, up to handing it to the screen */
    double step_ms;     /* one physics step, on average */
    /* Wall time of one physics step over the last second, ms: median, 99th
     * percentile, worst; NAN with no step in that second. */
    double step_p50, step_p99, step_max;
    const char *message; /* a short note to show (a file saved), or NULL */
    int corner; /* the window's corner the HUD sits in (bit 0: right, bit 1:
                 * bottom), kept from frame to frame by bp_hud_draw_text */
} bp_hud_stats;

/* In screen points (the renderer's logical size): marks on the world where
 * the camera shows it, a pixel wide at least however small the arena is
 * shown. draw_x/draw_y are the drawn positions by index, as for
 * bp_render_world. */
void bp_hud_draw_marks(SDL_Renderer *renderer, const bp_session *s, const bp_input_handler *h,
                       const bp_camera *cam, const double *draw_x, const double *draw_y);

/* In output pixels (logical size off): HUD and help, as the view asks, in
 * the glyphs' batches (NULL: glyph by glyph). The HUD (short, or full with
 * view->hud_full) goes in the corner where it covers the fewest balls, with
 * the hint under it while view->hint; the note (stats->message) is wrapped
 * to the window's width. */
void bp_hud_draw_text(SDL_Renderer *renderer, bp_text *glyphs, const bp_session *s,
                      const bp_view *view, bp_hud_stats *stats);

#endif
