#include "touch.h"

#include <math.h>

/* The first of the three event types finger events take on their way to
 * the queue (bp_touch_keep_fractions), in SDL's order: down, up, motion.
 * 0: they keep SDL's own. Process-wide, as SDL's event types are. */
static Uint32 fraction_type;

static int SDLCALL keep_fractions(void *userdata, SDL_Event *ev)
{
    (void)userdata;
    if (ev->type == SDL_FINGERDOWN || ev->type == SDL_FINGERUP || ev->type == SDL_FINGERMOTION)
        ev->type = fraction_type + (ev->type - SDL_FINGERDOWN);
    return 1;
}

bool bp_touch_keep_fractions(void)
{
    if (fraction_type != 0)
        return true;
    Uint32 first = SDL_RegisterEvents(3);
    if (first == (Uint32)-1)
        return false;
    fraction_type = first;
    SDL_AddEventWatch(keep_fractions, NULL);
    return true;
}

/* SDL's finger event type of ev (SDL_FINGERDOWN, _UP, _MOTION), whichever
 * type it came as; 0 for any other event. */
static Uint32 finger_type(const SDL_Event *ev)
{
    if (ev->type == SDL_FINGERDOWN || ev->type == SDL_FINGERUP || ev->type == SDL_FINGERMOTION)
        return ev->type;
    if (fraction_type != 0 && ev->type >= fraction_type && ev->type < fraction_type + 3)
        return SDL_FINGERDOWN + (ev->type - fraction_type);
    return 0;
}

void bp_touch_init(bp_touch *t, double width, double height)
{
    *t = (bp_touch){.state = BP_TOUCH_IDLE, .screen = {.w = width, .h = height, .point = 1.0}};
}

void bp_touch_map(bp_touch *t, SDL_Renderer *renderer)
{
    SDL_Window *window = SDL_RenderGetWindow(renderer);
    int win_w = 0, win_h = 0;
    if (!window)
        return;
    SDL_GetWindowSize(window, &win_w, &win_h);
    if (win_w <= 0 || win_h <= 0)
        return;
    /* Two window points through the logical size: the map is linear. */
    float x0, y0, x1, y1;
    SDL_RenderWindowToLogical(renderer, 0, 0, &x0, &y0);
    SDL_RenderWindowToLogical(renderer, 1000, 1000, &x1, &y1);
    double per_x = (x1 - x0) / 1000.0, per_y = (y1 - y0) / 1000.0;
    if (!(per_x > 0.0) || !(per_y > 0.0))
        return;
    t->screen = (bp_touch_screen){
        .ox = x0, .oy = y0, .w = win_w * per_x, .h = win_h * per_y, .point = per_x};
}

/* Whether the finger with id is down, and where in t->down. */
static int down_index(const bp_touch *t, SDL_FingerID id)
{
    for (int k = 0; k < t->down_count; k++)
        if (t->down[k] == id)
            return k;
    return -1;
}

static void finger_down_kept(bp_touch *t, SDL_FingerID id)
{
    if (down_index(t, id) >= 0)
        return;
    if (t->down_count == BP_TOUCH_FINGERS)
        t->down_count = 0; /* ups were lost (the window lost the touch): start over */
    t->down[t->down_count++] = id;
}

/* Forgets a finger; false if it was not down. */
static bool finger_up_kept(bp_touch *t, SDL_FingerID id)
{
    int k = down_index(t, id);
    if (k < 0)
        return false;
    t->down[k] = t->down[--t->down_count];
    return true;
}

/* A gesture's end: over with the last finger, or spent until then. */
static void gesture_over(bp_touch *t)
{
    t->state = t->down_count == 0 ? BP_TOUCH_IDLE : BP_TOUCH_SPENT;
}

/* The left button's event at logical (x, y), as SDL sends the mouse's. */
static int to_ui(const bp_touch_target *tg, Uint32 type, double x, double y, Uint32 ms,
                 bool *used, char *err, size_t err_size)
{
    *used = false;
    if (!tg->ui)
        return 0;
    SDL_Event ev = {.type = type};
    int ix = (int)lround(x), iy = (int)lround(y);
    if (type == SDL_MOUSEMOTION) {
        ev.motion.which = SDL_TOUCH_MOUSEID;
        ev.motion.state = SDL_BUTTON_LMASK;
        ev.motion.x = ix;
        ev.motion.y = iy;
        ev.motion.timestamp = ms;
    } else {
        ev.button.which = SDL_TOUCH_MOUSEID;
        ev.button.button = SDL_BUTTON_LEFT;
        ev.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
        ev.button.clicks = 1;
        ev.button.x = ix;
        ev.button.y = iy;
        ev.button.timestamp = ms;
    }
    return tg->ui(tg->ui_ctx, &ev, used, err, err_size);
}

/* The mouse's code for a pointer at logical (x, y), in the arena through
 * the camera. */
static int to_arena(const bp_touch_target *tg, bp_pointer_kind kind, Uint8 button, double x,
                    double y, Uint32 ms, char *err, size_t err_size)
{
    double ax, ay;
    bp_camera_to_arena(&tg->view->camera, x, y, &ax, &ay);
    return bp_input_pointer(tg->h, tg->view, tg->s, kind, button, ax, ay, ms, err, err_size);
}

/* The first finger: the panel's if it lands there, else the arena's. */
static int first_down(bp_touch *t, const bp_touch_target *tg, SDL_FingerID id, double x,
                      double y, Uint32 ms, char *err, size_t err_size)
{
    t->id[0] = id;
    t->x[0] = t->start_x = x;
    t->y[0] = t->start_y = y;
    t->down_ms = ms;
    t->strayed = false;
    bool used;
    int status = to_ui(tg, SDL_MOUSEBUTTONDOWN, x, y, ms, &used, err, err_size);
    if (status != 0 || used) {
        t->state = BP_TOUCH_UI;
        return status;
    }
    status = to_arena(tg, BP_POINTER_DOWN, SDL_BUTTON_LEFT, x, y, ms, err, err_size);
    t->state = bp_input_holding(tg->h) ? BP_TOUCH_HOLD : BP_TOUCH_PRESS;
    return status;
}

/* A second finger on the arena: what the first held is let go of where
 * it is, at rest (a throw would fling it at the pinch's start), and the
 * pinch begins. */
static int second_down(bp_touch *t, const bp_touch_target *tg, SDL_FingerID id, double x,
                       double y, char *err, size_t err_size)
{
    int status = bp_input_drop(tg->h, tg->s, err, err_size);
    t->id[1] = id;
    t->x[1] = x;
    t->y[1] = y;
    t->state = BP_TOUCH_PINCH;
    return status;
}

/* One of the pinch's fingers moved to (x, y): the camera zooms about the
 * old midpoint by the ratio of the distances, which keeps the arena point
 * under it, then pans that point to the new midpoint. */
static void pinch_move(bp_touch *t, bp_camera *cam, int which, double x, double y)
{
    double mx = (t->x[0] + t->x[1]) / 2.0, my = (t->y[0] + t->y[1]) / 2.0;
    double d = hypot(t->x[1] - t->x[0], t->y[1] - t->y[0]);
    t->x[which] = x;
    t->y[which] = y;
    double nx = (t->x[0] + t->x[1]) / 2.0, ny = (t->y[0] + t->y[1]) / 2.0;
    double nd = hypot(t->x[1] - t->x[0], t->y[1] - t->y[0]);
    /* Fingers less than a point apart give no ratio worth the name. */
    if (d >= t->screen.point && nd >= t->screen.point)
        bp_camera_zoom_at(cam, mx, my, nd / d);
    bp_camera_pan(cam, nx - mx, ny - my);
}

static int finger_down(bp_touch *t, const bp_touch_target *tg, SDL_FingerID id, double x,
                       double y, Uint32 ms, char *err, size_t err_size)
{
    finger_down_kept(t, id);
    switch (t->state) {
    case BP_TOUCH_IDLE:
        return first_down(t, tg, id, x, y, ms, err, err_size);
    case BP_TOUCH_PRESS:
    case BP_TOUCH_HOLD:
        return second_down(t, tg, id, x, y, err, err_size);
    default: /* the panel keeps its finger; a third finger is not seen */
        return 0;
    }
}

static int finger_motion(bp_touch *t, const bp_touch_target *tg, SDL_FingerID id, double x,
                         double y, Uint32 ms, char *err, size_t err_size)
{
    int which = id == t->id[0] ? 0 : t->state == BP_TOUCH_PINCH && id == t->id[1] ? 1 : -1;
    if (which < 0)
        return 0;
    switch (t->state) {
    case BP_TOUCH_UI: {
        bool used;
        return to_ui(tg, SDL_MOUSEMOTION, x, y, ms, &used, err, err_size);
    }
    case BP_TOUCH_PRESS:
    case BP_TOUCH_HOLD:
        t->x[0] = x;
        t->y[0] = y;
        if (hypot(x - t->start_x, y - t->start_y) > BP_TOUCH_SLOP * t->screen.point)
            t->strayed = true;
        return to_arena(tg, BP_POINTER_MOVE, 0, x, y, ms, err, err_size);
    case BP_TOUCH_PINCH:
        pinch_move(t, &tg->view->camera, which, x, y);
        return 0;
    default:
        return 0;
    }
}

static int finger_up(bp_touch *t, const bp_touch_target *tg, SDL_FingerID id, double x,
                     double y, Uint32 ms, char *err, size_t err_size)
{
    if (!finger_up_kept(t, id))
        return 0;
    bool mine = id == t->id[0] || (t->state == BP_TOUCH_PINCH && id == t->id[1]);
    if (t->state == BP_TOUCH_IDLE || (t->state != BP_TOUCH_SPENT && !mine))
        return 0;
    int status = 0;
    if (t->state == BP_TOUCH_UI) {
        bool used;
        status = to_ui(tg, SDL_MOUSEBUTTONUP, x, y, ms, &used, err, err_size);
    } else if (t->state == BP_TOUCH_PRESS || t->state == BP_TOUCH_HOLD) {
        status = to_arena(tg, BP_POINTER_UP, SDL_BUTTON_LEFT, x, y, ms, err, err_size);
    }
    gesture_over(t);
    return status;
}

int bp_touch_event(bp_touch *t, const bp_touch_target *tg, const SDL_Event *ev, bool *used,
                   char *err, size_t err_size)
{
    *used = false;
    if ((ev->type == SDL_MOUSEMOTION && ev->motion.which == SDL_TOUCH_MOUSEID) ||
        ((ev->type == SDL_MOUSEBUTTONDOWN || ev->type == SDL_MOUSEBUTTONUP) &&
         ev->button.which == SDL_TOUCH_MOUSEID) ||
        (ev->type == SDL_MOUSEWHEEL && ev->wheel.which == SDL_TOUCH_MOUSEID)) {
        *used = true; /* the finger it copies is handled as a finger */
        return 0;
    }
    Uint32 type = finger_type(ev);
    if (type == 0)
        return 0;
    *used = true;
    const SDL_TouchFingerEvent *f = &ev->tfinger;
    if (f->touchId == SDL_MOUSE_TOUCHID)
        return 0; /* the mouse, handled as the mouse */
    /* A trackpad's fingers (macOS reports them) are no points on the
     * window: they move the pointer, which comes as the mouse. SDL knows
     * devices only with its video on (not in the tests). */
    SDL_TouchDeviceType device = SDL_WasInit(SDL_INIT_VIDEO) ? SDL_GetTouchDeviceType(f->touchId)
                                                             : SDL_TOUCH_DEVICE_DIRECT;
    if (device == SDL_TOUCH_DEVICE_INDIRECT_ABSOLUTE ||
        device == SDL_TOUCH_DEVICE_INDIRECT_RELATIVE)
        return 0;
    double x = t->screen.ox + f->x * t->screen.w, y = t->screen.oy + f->y * t->screen.h;
    if (!isfinite(x) || !isfinite(y))
        return 0;
    if (type == SDL_FINGERDOWN)
        return finger_down(t, tg, f->fingerId, x, y, f->timestamp, err, err_size);
    if (type == SDL_FINGERMOTION)
        return finger_motion(t, tg, f->fingerId, x, y, f->timestamp, err, err_size);
    return finger_up(t, tg, f->fingerId, x, y, f->timestamp, err, err_size);
}

int bp_touch_tick(bp_touch *t, const bp_touch_target *tg, Uint32 now_ms, char *err,
                  size_t err_size)
{
    if (t->state != BP_TOUCH_PRESS || t->strayed ||
        (Sint32)(now_ms - t->down_ms) < BP_TOUCH_LONG_MS)
        return 0;
    /* The right button's click: one ball of the spawn tool, no stream. */
    t->state = BP_TOUCH_SPENT;
    int status =
        to_arena(tg, BP_POINTER_DOWN, SDL_BUTTON_RIGHT, t->x[0], t->y[0], now_ms, err, err_size);
    int up = to_arena(tg, BP_POINTER_UP, SDL_BUTTON_RIGHT, t->x[0], t->y[0], now_ms, err,
                      err_size);
    return status != 0 ? status : up;
}
