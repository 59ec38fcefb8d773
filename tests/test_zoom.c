/* Zoom and pan in the window (src/app/zoom.c, the camera in input.c and
 * render.c), driven with hand-made SDL events as the window's loop hands
 * them on (the panel first, the arena what the panel leaves): the hand
 * works in arena px whatever the zoom, the wheel and keys move the camera
 * and nothing else, and a zoomed picture is drawn afresh at its size in a
 * layer of the window's size. No display: a software renderer. */
#include <SDL2/SDL.h>
#include <math.h>
#include <stdio.h>

#include "apprig.h"
#include "render.h"
#include "sdlevents.h"
#include "session.h"
#include "tap.h"

#define WIDTH 1024
#define HEIGHT 768

/* One ball (r 20) at (300, 200) in a 1024 x 768 arena, no gravity nor
 * drag: where it goes is the hand's doing alone. */
static void rig_make(rig *r)
{
    rig_one_ball(r, 300.0, 200.0, 20.0);
    bp_panel_init(&r->panel, WIDTH, HEIGHT);
}

static SDL_Event wheel(int notches)
{
    SDL_Event ev = {.type = SDL_MOUSEWHEEL};
    ev.wheel.y = notches;
    return ev;
}

static SDL_Event middle(Uint32 type, int x, int y)
{
    SDL_Event ev = mouse_button(type, x, y, 0);
    ev.button.button = SDL_BUTTON_MIDDLE;
    return ev;
}

/* A frame's steps as the window takes them: the hand leads, then a step. */
static void frame(rig *r, int steps)
{
    for (int k = 0; k < steps; k++) {
        bp_input_lead(&r->input, &r->session, steps - k, r->err, sizeof r->err);
        bp_session_step(&r->session, r->err, sizeof r->err);
    }
}

static void the_wheel_and_keys_move_the_camera(void)
{
    rig r;
    rig_make(&r);
    bp_camera *cam = &r.view.camera;
    rig_feed(&r, mouse_motion(300, 200, 0));
    rig_feed(&r, wheel(3));
    double ax, ay;
    bp_camera_to_arena(cam, 300, 200, &ax, &ay);
    TAP_NEAR(cam->zoom, pow(BP_ZOOM_WHEEL_STEP, 3), 1e-12, "three notches in zoom x1.25^3");
    TAP_OK(fabs(ax - 300.0) < 1e-9 && fabs(ay - 200.0) < 1e-9,
           "about the cursor: the arena point under it stays");
    rig_feed(&r, wheel(-3));
    TAP_OK(fabs(cam->zoom - 1.0) < 1e-12 && fabs(cam->x) < 1e-9,
           "three notches out show the whole arena again");
    rig_feed(&r, key_down(SDLK_EQUALS, 0));
    rig_feed(&r, key_down(SDLK_EQUALS, 0));
    bp_camera_to_arena(cam, WIDTH / 2.0, HEIGHT / 2.0, &ax, &ay);
    TAP_OK(cam->zoom == 4.0 && fabs(ax - WIDTH / 2.0) < 1e-9 && fabs(ay - HEIGHT / 2.0) < 1e-9,
           "+ twice: x4 about the window's centre");
    SDL_Event held = key_down(SDLK_EQUALS, 0);
    held.key.repeat = 1;
    for (int k = 0; k < 10; k++)
        rig_feed(&r, held);
    TAP_OK(cam->zoom == BP_CAMERA_MAX_ZOOM, "held, + goes on to the largest zoom and stops");
    rig_feed(&r, key_down(SDLK_MINUS, 0));
    TAP_OK(cam->zoom == BP_CAMERA_MAX_ZOOM / 2.0, "- halves it");
    rig_feed(&r, key_down(SDLK_0, 0));
    TAP_OK(bp_camera_is_whole(cam) && cam->x == 0.0 && cam->y == 0.0, "0 shows the whole arena");
    TAP_OK(r.world->count == 1 && r.world->x[0] == 300.0 && r.input.undo.past_count == 0 &&
               !r.input.undo.changed,
           "none of it touched the world or made an edit");
    rig_feed(&r, key_down(SDLK_EQUALS, 0));
    rig_feed(&r, key_down(SDLK_r, 0));
    TAP_OK(bp_camera_is_whole(cam), "R shows the whole arena too, with everything else");
    bp_world_destroy(r.world);
}

/* Zoomed x4 about the ball, which stays where it was on screen. */
static void zoom_on_the_ball(rig *r)
{
    bp_camera_zoom_at(&r->view.camera, 300.0, 200.0, 4.0);
}

static void the_hand_works_in_arena_px(void)
{
    rig r;
    rig_make(&r);
    zoom_on_the_ball(&r);
    /* Off the ball's centre by 12 screen points: 3 arena px, inside its
     * 20 px; at zoom 1 the same point would be 12 px off, still inside. */
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 312, 200, 1000));
    TAP_OK(r.session.held == 0, "zoomed x4, a press on the ball's picture grabs it");
    TAP_NEAR(r.input.cursor_x, 303.0, 1e-9, "the cursor is at arena x 300 + 12 / 4");
    rig_feed(&r, mouse_motion(352, 200, 1010));
    frame(&r, 4);
    printf("# the ball at x %.3f after the cursor went 40 screen points\n", r.world->x[0]);
    TAP_NEAR(r.world->x[0], 310.0, 1e-9, "40 screen points of mouse move the held ball 10 px");
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONUP, 352, 200, 1020));
    bp_world_destroy(r.world);
}

static void a_flick_is_measured_in_the_arena(void)
{
    rig r;
    rig_make(&r);
    zoom_on_the_ball(&r);
    /* 40 screen points every 10 ms: 4,000 points/s, 1,000 arena px/s. */
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 300, 200, 1000));
    for (int k = 1; k <= 5; k++) {
        rig_feed(&r, mouse_motion(300 + 40 * k, 200, 1000 + 10 * k));
        frame(&r, 1);
    }
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONUP, 300 + 40 * 6, 200, 1060));
    printf("# thrown at %.1f, %.1f px/s\n", r.world->vx[0], r.world->vy[0]);
    TAP_OK(r.session.held < 0, "let go");
    TAP_NEAR(r.world->vx[0], 1000.0, 1.0,
             "a flick of 4,000 screen points/s at x4 throws at 1,000 px/s");
    TAP_NEAR(r.world->vy[0], 0.0, 1e-9, "straight along the flick");
    bp_world_destroy(r.world);
}

/* The mouse moved to (x, y) with the middle button held. */
static SDL_Event middle_held(int x, int y)
{
    SDL_Event ev = mouse_motion(x, y, 0);
    ev.motion.state = SDL_BUTTON_MMASK;
    return ev;
}

static void the_middle_button_drags_the_arena_or_inspects(void)
{
    rig r;
    rig_make(&r);
    zoom_on_the_ball(&r);
    double x0 = r.view.camera.x, y0 = r.view.camera.y;
    rig_feed(&r, middle(SDL_MOUSEBUTTONDOWN, 300, 200));
    rig_feed(&r, middle_held(280, 190));
    rig_feed(&r, middle_held(260, 180));
    rig_feed(&r, middle(SDL_MOUSEBUTTONUP, 260, 180));
    TAP_OK(fabs(r.view.camera.x - (x0 + 10.0)) < 1e-9 &&
               fabs(r.view.camera.y - (y0 + 5.0)) < 1e-9,
           "a middle drag of (-40, -20) screen points at x4 moves the view (10, 5) px on");
    double ax, ay;
    bp_camera_to_arena(&r.view.camera, 260, 180, &ax, &ay);
    TAP_OK(fabs(ax - 300.0) < 1e-9 && fabs(ay - 200.0) < 1e-9,
           "the arena point grabbed stays under the cursor");
    TAP_OK(r.session.inspect < 0 && r.session.held < 0, "a drag pins no inspector, grabs nothing");
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 260, 180, 0));
    TAP_OK(r.session.held == 0, "the ball is where the dragged picture shows it");
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONUP, 260, 180, 10));
    rig_feed(&r, middle(SDL_MOUSEBUTTONDOWN, 262, 181));
    rig_feed(&r, middle(SDL_MOUSEBUTTONUP, 262, 181));
    TAP_OK(r.session.inspect == 0, "a middle click on it pins the inspector");
    /* The release taken by something over the arena (the picker takes
     * every event): the next motion, the button up, pans nothing. */
    rig_feed(&r, middle(SDL_MOUSEBUTTONDOWN, 262, 181));
    double x1 = r.view.camera.x;
    rig_feed(&r, mouse_motion(200, 100, 0));
    rig_feed(&r, mouse_motion(100, 50, 0));
    TAP_OK(r.view.camera.x == x1, "a middle release the arena never saw ends the drag");
    bp_world_destroy(r.world);
}

static void spawns_and_walls_land_under_the_cursor(void)
{
    rig r;
    rig_make(&r);
    zoom_on_the_ball(&r);
    rig_feed(&r, mouse_motion(500, 600, 0)); /* arena (350, 300) */
    rig_feed(&r, key_down(SDLK_s, 0));
    rig_feed(&r, key_up(SDLK_s));
    TAP_OK(r.world->count == 2 && fabs(r.world->x[1] - 350.0) < 1e-9 &&
               fabs(r.world->y[1] - 300.0) < 1e-9,
           "S spawns at the arena point under the cursor");
    rig_feed(&r, key_down(SDLK_LSHIFT, KMOD_LSHIFT));
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONDOWN, 100, 700, 0));
    rig_feed(&r, mouse_motion(300, 700, 10));
    rig_feed(&r, mouse_button(SDL_MOUSEBUTTONUP, 300, 700, 20));
    rig_feed(&r, key_up(SDLK_LSHIFT));
    const bp_wall *w = r.world->wall_count ? &r.world->walls[r.world->wall_count - 1] : NULL;
    TAP_OK(w && fabs(w->x1 - 250.0) < 1e-9 && fabs(w->x2 - 300.0) < 1e-9 &&
               fabs(w->y1 - 325.0) < 1e-9,
           "a Shift-drag of 200 screen points draws a wall 50 px long where it is shown");
    bp_world_destroy(r.world);
}

static void the_wheel_over_the_panel_is_the_panels(void)
{
    rig r;
    rig_make(&r);
    bp_panel_init(&r.panel, WIDTH, 400); /* shorter than the panel: it scrolls */
    rig_feed(&r, key_down(SDLK_p, 0));
    rig_feed(&r, mouse_motion(WIDTH - 60, 200, 0));
    bool used = rig_feed(&r, wheel(-3));
    TAP_OK(used && r.panel.scroll > 0, "over the panel the wheel scrolls it");
    TAP_OK(bp_camera_is_whole(&r.view.camera), "and leaves the camera alone");
    bp_panel_init(&r.panel, WIDTH, HEIGHT); /* tall enough: nothing to scroll */
    rig_feed(&r, mouse_motion(WIDTH - 60, HEIGHT / 2, 0));
    used = rig_feed(&r, wheel(3));
    TAP_OK(used && bp_camera_is_whole(&r.view.camera),
           "with nothing to scroll it still zooms nothing behind the panel");
    rig_feed(&r, mouse_motion(300, 200, 0));
    rig_feed(&r, wheel(3));
    TAP_OK(!bp_camera_is_whole(&r.view.camera), "over the arena it zooms");
    bp_world_destroy(r.world);
}

/* A software renderer on a w x h surface showing an arena of aw x ah. */
typedef struct canvas {
    SDL_Surface *surface;
    SDL_Renderer *renderer;
    bp_render *render;
} canvas;

static bool canvas_make(canvas *c, int w, int h, int aw, int ah)
{
    c->surface = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    c->renderer = c->surface ? SDL_CreateSoftwareRenderer(c->surface) : NULL;
    c->render = bp_render_create();
    return c->renderer && c->render && SDL_RenderSetLogicalSize(c->renderer, aw, ah) == 0;
}

static void canvas_free(canvas *c)
{
    bp_render_destroy(c->render);
    if (c->renderer)
        SDL_DestroyRenderer(c->renderer);
    SDL_FreeSurface(c->surface);
}

static Uint32 pixel(const canvas *c, int x, int y)
{
    return ((const Uint32 *)c->surface->pixels)[y * (c->surface->pitch / 4) + x];
}

static void a_zoomed_ball_is_drawn_round_at_its_size(void)
{
    rig r;
    rig_make(&r);
    canvas c;
    TAP_OK(canvas_make(&c, WIDTH, HEIGHT, WIDTH, HEIGHT), "a software renderer to draw on");
    bp_camera_zoom_at(&r.view.camera, 300.0, 200.0, 2.0);
    TAP_OK(bp_render_world(c.renderer, c.render, r.world, &r.view.camera, NULL, NULL, NULL, NULL),
           "zoomed x2, the world is drawn");
    SDL_RenderFlush(c.renderer);
    Uint32 ground = pixel(&c, 5, 5);
    int count = 0, x0 = WIDTH, x1 = -1, y0 = HEIGHT, y1 = -1;
    for (int y = 100; y < 300; y++)
        for (int x = 200; x < 400; x++)
            if (pixel(&c, x, y) != ground) {
                count++;
                x0 = x < x0 ? x : x0;
                x1 = x > x1 ? x : x1;
                y0 = y < y0 ? y : y0;
                y1 = y > y1 ? y : y1;
            }
    /* r 20 at x2: 40 screen points, pi 40^2 = 5,027 pixels give or take
     * its one-pixel soft edge (2 pi 40 = 251). */
    double area = M_PI * 40.0 * 40.0;
    printf("# %d pixels of the ball, %d x %d across (pi (2r)^2 = %.0f)\n", count, x1 - x0 + 1,
           y1 - y0 + 1, area);
    TAP_OK(fabs(count - area) < 2.0 * M_PI * 40.0, "a ball of r 20 at x2 covers about pi (2r)^2");
    TAP_OK(x1 - x0 == y1 - y0 && abs((x1 - x0 + 1) - 80) <= 2,
           "round: 80 pixels across and as many down");
    TAP_OK(pixel(&c, 300 + 4, 200 + 4) == (bp_look_id_colour(0) | 0xff000000u),
           "its middle is its colour, filled afresh at the size, not a bitmap blown up");
    canvas_free(&c);
    bp_world_destroy(r.world);
}

static void the_layer_keeps_the_windows_size(void)
{
    bp_params p = bp_params_default();
    p.width = 20000.0;
    p.height = 15000.0;
    bp_world *world = bp_world_new(&p);
    bp_world_insert_ball(world, 10000.0, 7500.0, 0.0, 0.0, 10.0, 0.0);
    canvas c;
    TAP_OK(canvas_make(&c, 800, 600, 20000, 15000), "a 20,000 x 15,000 arena in 800 x 600");
    bp_camera cam = bp_camera_whole(p.width, p.height);
    bp_camera_zoom_at(&cam, 10000.0, 7500.0, BP_CAMERA_MAX_ZOOM);
    bool drawn = bp_render_world(c.renderer, c.render, world, &cam, NULL, NULL, NULL, NULL);
    SDL_RenderFlush(c.renderer);
    int w = 0, h = 0;
    bp_render_layer_size(c.render, &w, &h);
    printf("# layer %d x %d at x%g\n", w, h, cam.zoom);
    TAP_OK(drawn && w == 800 && h == 600, "zoomed x64 the layer is the window's 800 x 600");
    /* The scale is 0.04 times 64: r 10 is 25.6 pixels, at the centre. */
    TAP_OK(pixel(&c, 400, 300) == (bp_look_id_colour(0) | 0xff000000u) &&
               pixel(&c, 400 + 20, 300) != pixel(&c, 5, 5) &&
               pixel(&c, 400 + 30, 300) == pixel(&c, 5, 5),
           "and shows the ball there 25.6 pixels in radius");
    canvas_free(&c);
    bp_world_destroy(world);
}

int main(void)
{
    the_wheel_and_keys_move_the_camera();
    the_hand_works_in_arena_px();
    a_flick_is_measured_in_the_arena();
    the_middle_button_drags_the_arena_or_inspects();
    spawns_and_walls_land_under_the_cursor();
    the_wheel_over_the_panel_is_the_panels();
    a_zoomed_ball_is_drawn_round_at_its_size();
    the_layer_keeps_the_windows_size();
    return tap_done();
}
