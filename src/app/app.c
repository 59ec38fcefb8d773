#include "app.h"

#include <SDL2/SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder.h"
#include "render.h"

/* A slow frame may catch up this many steps at most, then the simulation
 * slows down instead of spiralling. */
#define BP_MAX_STEPS_PER_FRAME 8

int bp_app_run(bp_world *world, const bp_options *opts)
{
    char err[512];
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "ballpit: cannot open a window: %s\n", SDL_GetError());
        return 1;
    }
    int w = (int)SDL_ceil(world->params.width), h = (int)SDL_ceil(world->params.height);
    SDL_Window *window = SDL_CreateWindow("ballpit", SDL_WINDOWPOS_CENTERED,
                                          SDL_WINDOWPOS_CENTERED, w, h,
                                          SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    SDL_Renderer *renderer =
        window ? SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC) : NULL;
    if (!renderer) {
        fprintf(stderr, "ballpit: cannot open a window: %s\n", SDL_GetError());
        if (window)
            SDL_DestroyWindow(window);
        SDL_Quit();
        return 1;
    }
    SDL_RenderSetLogicalSize(renderer, w, h);

    bp_recorder rec;
    if (!bp_recorder_open(&rec, opts, world, err, sizeof err)) {
        fprintf(stderr, "ballpit: %s\n", err);
        SDL_DestroyRenderer(renderer);
        SDL_DestroyWindow(window);
        SDL_Quit();
        return 1;
    }
    bool ok = bp_recorder_step(&rec, world, 0, err, sizeof err);

    double *prev_x = malloc(sizeof(double) * (world->count + 1));
    double *prev_y = malloc(sizeof(double) * (world->count + 1));
    double *draw_x = malloc(sizeof(double) * (world->count + 1));
    double *draw_y = malloc(sizeof(double) * (world->count + 1));
    if (!prev_x || !prev_y || !draw_x || !draw_y) {
        snprintf(err, sizeof err, "out of memory");
        ok = false;
    }
    double dt = 1.0 / world->params.hz;
    double accumulator = 0.0;
    Uint64 last = SDL_GetPerformanceCounter();
    double freq = (double)SDL_GetPerformanceFrequency();
    bool running = ok;
    while (running) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev)) {
            if (ev.type == SDL_QUIT ||
                (ev.type == SDL_KEYDOWN && ev.key.keysym.sym == SDLK_ESCAPE))
                running = false;
        }
        Uint64 now = SDL_GetPerformanceCounter();
        accumulator += (double)(now - last) / freq;
        last = now;
        int taken = 0;
        while (accumulator >= dt && taken < BP_MAX_STEPS_PER_FRAME && running) {
            memcpy(prev_x, world->x, sizeof(double) * world->count);
            memcpy(prev_y, world->y, sizeof(double) * world->count);
            if (!bp_world_step(world)) {
                snprintf(err, sizeof err, "out of memory");
                ok = running = false;
                break;
            }
            if (!bp_recorder_step(&rec, world, world->steps, err, sizeof err))
                ok = running = false;
            accumulator -= dt;
            taken++;
            if (opts->steps_set && world->steps >= opts->steps)
                running = false;
        }
        if (taken == BP_MAX_STEPS_PER_FRAME)
            accumulator = 0.0;
        double alpha = taken ? accumulator / dt : 1.0;
        for (size_t i = 0; i < world->count; i++) {
            double px = taken ? prev_x[i] : world->x[i], py = taken ? prev_y[i] : world->y[i];
            draw_x[i] = px + (world->x[i] - px) * alpha;
            draw_y[i] = py + (world->y[i] - py) * alpha;
        }
        bp_render_world(renderer, world, draw_x, draw_y);
        SDL_RenderPresent(renderer);
    }
    free(prev_x);
    free(prev_y);
    free(draw_x);
    free(draw_y);
    char close_err[512];
    bool closed = bp_recorder_close(&rec, close_err, sizeof close_err);
    SDL_DestroyRenderer(renderer);
    SDL_DestroyWindow(window);
    SDL_Quit();
    if (!ok || !closed) {
        fprintf(stderr, "ballpit: %s\n", ok ? close_err : err);
        return 1;
    }
    return 0;
}
