/* Text in batches (src/app/text.c) must draw exactly the glyphs SDL2_gfx
 * draws one call at a time: both are rendered by SDL's software renderer
 * into memory and compared pixel for pixel. */
#include <SDL2/SDL.h>
#include <SDL2/SDL2_gfxPrimitives.h>

#include "tap.h"
#include "text.h"

#define W 420
#define H 48

typedef struct canvas {
    SDL_Surface *surface;
    SDL_Renderer *renderer;
} canvas;

static canvas canvas_make(void)
{
    canvas c = {SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888), NULL};
    if (c.surface)
        c.renderer = SDL_CreateSoftwareRenderer(c.surface);
    if (c.renderer) {
        SDL_SetRenderDrawColor(c.renderer, 10, 12, 14, 255);
        SDL_RenderClear(c.renderer);
    }
    return c;
}

static void canvas_free(canvas c)
{
    if (c.renderer)
        SDL_DestroyRenderer(c.renderer);
    SDL_FreeSurface(c.surface);
}

/* Pixels that differ, and pixels the first one lit (not background). */
static int compare(const canvas *a, const canvas *b, int *lit)
{
    const Uint32 *pa = a->surface->pixels, *pb = b->surface->pixels;
    Uint32 background = pa[0];
    int differ = 0;
    *lit = 0;
    for (int k = 0; k < W * H; k++) {
        differ += pa[k] != pb[k];
        *lit += pa[k] != background;
    }
    return differ;
}

int main(void)
{
    char printable[96];
    for (int k = 0; k < 95; k++)
        printable[k] = (char)(' ' + k);
    printable[95] = '\0';
    const SDL_Color colour = {220, 200, 150, 255}, blue = {160, 200, 255, 255};

    canvas one_by_one = canvas_make(), batched = canvas_make();
    TAP_OK(one_by_one.renderer && batched.renderer, "two software renderers in memory");
    if (!one_by_one.renderer || !batched.renderer)
        return tap_done();
    /* Two lines, two colours, the second one at an odd offset. */
    stringRGBA(one_by_one.renderer, 2, 3, printable, colour.r, colour.g, colour.b, 255);
    stringRGBA(one_by_one.renderer, 5, 30, "fps 41.7  H or F1: help", blue.r, blue.g, blue.b,
               255);
    SDL_RenderPresent(one_by_one.renderer);

    bp_text *text = bp_text_create(batched.renderer);
    TAP_OK(text != NULL, "the glyph atlas is made");
    bp_text_add(text, batched.renderer, 2, 3, printable, colour);
    bp_text_add(text, batched.renderer, 5, 30, "fps 41.7  H or F1: help", blue);
    bp_text_flush(text, batched.renderer);
    bp_text_flush(text, batched.renderer); /* nothing left: draws nothing */
    SDL_RenderPresent(batched.renderer);

    int lit = 0, differ = compare(&one_by_one, &batched, &lit);
    char line[120];
    snprintf(line, sizeof line, "every printable glyph drawn as SDL2_gfx draws it (%d px lit)",
             lit);
    TAP_OK(lit > 500 && differ == 0, line);
    if (differ)
        printf("#   %d pixels differ\n", differ);

    bp_text_destroy(text);
    canvas_free(one_by_one);
    canvas_free(batched);
    return tap_done();
}
