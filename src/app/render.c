#include "render.h"

#include <SDL2/SDL2_gfxPrimitives.h>
#include <math.h>

SDL_Color bp_ball_color(uint32_t id)
{
    /* Golden-ratio hue steps keep neighbouring ids far apart in colour. */
    double hue = fmod((double)id * 0.618033988749895, 1.0) * 6.0;
    double s = 0.62, v = 0.95;
    int sector = (int)hue;
    double f = hue - sector;
    double p = v * (1.0 - s), q = v * (1.0 - s * f), t = v * (1.0 - s * (1.0 - f));
    double rgb[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
    double *c = rgb[sector % 6];
    return (SDL_Color){(Uint8)(c[0] * 255.0), (Uint8)(c[1] * 255.0), (Uint8)(c[2] * 255.0), 255};
}

/* SDL2_gfx takes 16-bit coordinates. */
static Sint16 to_screen(double v)
{
    if (v < -32000.0)
        return -32000;
    if (v > 32000.0)
        return 32000;
    return (Sint16)lround(v);
}

static void draw_wall(SDL_Renderer *renderer, const bp_wall *w)
{
    const Uint8 c = 200, a = 255;
    Sint16 x1 = to_screen(w->x1), y1 = to_screen(w->y1);
    Sint16 x2 = to_screen(w->x2), y2 = to_screen(w->y2);
    int width = (int)lround(2.0 * w->r);
    if (width <= 1) {
        aalineRGBA(renderer, x1, y1, x2, y2, c, c, c, a);
        return;
    }
    thickLineRGBA(renderer, x1, y1, x2, y2, (Uint8)(width > 255 ? 255 : width), c, c, c, a);
    Sint16 rad = to_screen(w->r);
    filledCircleRGBA(renderer, x1, y1, rad, c, c, c, a);
    filledCircleRGBA(renderer, x2, y2, rad, c, c, c, a);
}

void bp_render_world(SDL_Renderer *renderer, const bp_world *world, const double *draw_x,
                     const double *draw_y)
{
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(renderer, 22, 24, 30, 255);
    SDL_RenderClear(renderer);
    for (size_t k = 0; k < world->wall_count; k++)
        draw_wall(renderer, &world->walls[k]);
    /* In id order, so the ball drawn on top is the one bp_query_point picks,
     * however the core orders its arrays. */
    for (uint32_t id = 0; id < world->next_id; id++) {
        int64_t index = bp_world_index_of(world, id);
        if (index < 0)
            continue;
        size_t i = (size_t)index;
        double x = draw_x ? draw_x[i] : world->x[i];
        double y = draw_y ? draw_y[i] : world->y[i];
        Sint16 sx = to_screen(x), sy = to_screen(y);
        Sint16 rad = to_screen(world->r[i]);
        SDL_Color fill = bp_ball_color(world->id[i]);
        Uint8 rim_r = (Uint8)(fill.r / 3), rim_g = (Uint8)(fill.g / 3), rim_b = (Uint8)(fill.b / 3);
        /* A dark rim keeps touching balls apart to the eye; its anti-aliased
         * outer edge smooths the silhouette. */
        if (rad >= 4) {
            filledCircleRGBA(renderer, sx, sy, rad, rim_r, rim_g, rim_b, 255);
            filledCircleRGBA(renderer, sx, sy, (Sint16)(rad - 2), fill.r, fill.g, fill.b, 255);
        } else {
            filledCircleRGBA(renderer, sx, sy, rad, fill.r, fill.g, fill.b, 255);
        }
        aacircleRGBA(renderer, sx, sy, rad, rim_r, rim_g, rim_b, 255);
    }
}
