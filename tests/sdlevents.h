/* Synthetic SDL events for the tests that drive the window's input layer
 * (the hand, the fingers, the panel, the picker) without a window: the
 * fields the handlers read, as SDL fills them. */
#ifndef BP_TEST_SDLEVENTS_H
#define BP_TEST_SDLEVENTS_H

#include <SDL2/SDL.h>

/* A key pressed with modifiers mod held (KMOD_LSHIFT, KMOD_LCTRL or 0). */
static inline SDL_Event key_down(SDL_Keycode sym, Uint16 mod)
{
    SDL_Event ev = {.type = SDL_KEYDOWN};
    ev.key.state = SDL_PRESSED;
    ev.key.keysym.sym = sym;
    ev.key.keysym.mod = mod;
    return ev;
}

static inline SDL_Event key_up(SDL_Keycode sym)
{
    SDL_Event ev = {.type = SDL_KEYUP};
    ev.key.state = SDL_RELEASED;
    ev.key.keysym.sym = sym;
    return ev;
}

/* The left button going down or up (type) at (x, y), stamped ms. */
static inline SDL_Event mouse_button(Uint32 type, int x, int y, Uint32 ms)
{
    SDL_Event ev = {.type = type};
    ev.button.button = SDL_BUTTON_LEFT;
    ev.button.x = x;
    ev.button.y = y;
    ev.button.timestamp = ms;
    return ev;
}

static inline SDL_Event mouse_motion(int x, int y, Uint32 ms)
{
    SDL_Event ev = {.type = SDL_MOUSEMOTION};
    ev.motion.x = x;
    ev.motion.y = y;
    ev.motion.timestamp = ms;
    return ev;
}

/* A finger going down, moving or up (type) at fractions (fx, fy) of the
 * window, as SDL's touch device 1 reports it. */
static inline SDL_Event finger(Uint32 type, SDL_FingerID id, double fx, double fy, Uint32 ms)
{
    SDL_Event ev = {.type = type};
    ev.tfinger.touchId = 1;
    ev.tfinger.fingerId = id;
    ev.tfinger.x = (float)fx;
    ev.tfinger.y = (float)fy;
    ev.tfinger.pressure = 1.0f;
    ev.tfinger.timestamp = ms;
    return ev;
}

#endif
