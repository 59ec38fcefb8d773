/* The scene picker (src/app/picker.c) on a directory made for the test:
 * the examples scenepath finds and the recent saves, newest first; a pick
 * by keys, by a click or by typed text reaches the prompt as a name the
 * Ctrl+O load opens, and loads that scene's world; a thumbnail shows its
 * balls. Events are hand-made, fed as the window's loop feeds them (the
 * picker first, then the input handler). No display needed. */
#include <SDL2/SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "apprig.h"
#include "look.h"
#include "panel.h"
#include "picker.h"
#include "sdlevents.h"
#include "session.h"
#include "setup.h"
#include "tap.h"

static void write_file(const char *path, const char *text, time_t mtime)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    struct utimbuf t = {mtime, mtime};
    utime(path, &t);
}

static const char *const ONE = "world w=400 h=300\nball x=200 y=150 r=20\n";
static const char *const THREE =
    "world w=400 h=300\nball x=100 y=150 r=20\nball x=200 y=150 r=20\nball x=300 y=150 r=20\n";

static int find(const bp_picker *p, const char *name)
{
    for (size_t i = 0; i < p->count; i++)
        if (strcmp(p->entry[i].name, name) == 0)
            return (int)i;
    return -1;
}

static void feed(rig *r, SDL_Event ev)
{
    bool used = false;
    bp_picker_event(&r->picker, &r->panel, &r->view, &ev, &used);
    if (!used && bp_input_handle(&r->input, &r->view, &r->session, &ev, r->err, sizeof r->err))
        printf("#   %s\n", r->err);
}

static void key(rig *r, SDL_Keycode k, Uint16 mod)
{
    feed(r, key_down(k, mod));
}

/* Ctrl+O, and the picker lists the directory as the window does. */
static void open_picker(rig *r)
{
    key(r, SDLK_o, KMOD_LCTRL);
    bp_picker_list(&r->picker, ".");
}

/* The balls of the world the prompt's name loads, as load_scene loads it. */
static size_t balls_loaded(rig *r)
{
    bp_options o = bp_setup_options_for_scene(&r->opts, r->view.prompt);
    int status = 0;
    bp_world *w = bp_setup_world(&o, &status, r->err, sizeof r->err);
    size_t n = w ? w->count : 0;
    bp_world_destroy(w);
    return n;
}

int main(void)
{
    char dir[] = "/tmp/ballpit-picker-XXXXXX";
    if (!mkdtemp(dir) || chdir(dir) != 0 || mkdir("scenes", 0755) != 0) {
        TAP_OK(false, "a directory to work in");
        return tap_done();
    }
    time_t now = time(NULL);
    write_file("scenes/alpha.scene", ONE, now);
    write_file("scenes/beta.scene", THREE, now);
    write_file("ballpit-scene-001.scene", ONE, now - 200);
    write_file("ballpit-scene-002.scene", THREE, now - 100);
    write_file("ballpit-scene-003.scene", ONE, now - 300);
    write_file("ballpit-scene-x.scene", ONE, now);
    write_file("notes.scene", ONE, now);

    rig r = {.opts = bp_options_default()};
    int status;
    r.world = bp_setup_world(&r.opts, &status, r.err, sizeof r.err);
    bp_session_init(&r.session, r.world, &r.opts);
    bp_input_init(&r.input, &r.view, &r.opts, r.world);
    bp_panel_init(&r.panel, 1024, 768);
    open_picker(&r);
    bp_picker *p = &r.picker;

    int a = find(p, "alpha"), b = find(p, "beta");
    TAP_OK(r.view.prompting, "Ctrl+O opens the prompt the picker sits on");
    TAP_OK(a >= 0 && b >= 0 && !p->entry[a].recent && !p->entry[b].recent,
           "the examples in scenes/ are listed as examples");
    int s1 = find(p, "ballpit-scene-001.scene"), s2 = find(p, "ballpit-scene-002.scene"),
        s3 = find(p, "ballpit-scene-003.scene");
    TAP_OK(s1 >= 0 && s2 >= 0 && s3 >= 0 && p->entry[s2].recent,
           "the saves in the directory are listed as saved");
    TAP_OK(s2 >= 0 && s2 < s1 && s1 < s3, "recent saves are listed newest first");
    TAP_OK(find(p, "ballpit-scene-x.scene") < 0 && find(p, "notes.scene") < 0,
           "files not named as saves are not listed as saves");
    TAP_OK(a < s2, "the examples come before the saves");

    /* Down from the first entry to beta, then Enter. */
    for (int k = 0; k < b; k++)
        key(&r, SDLK_DOWN, 0);
    key(&r, SDLK_RETURN, 0);
    TAP_OK(!r.view.prompting && r.view.load_scene && strcmp(r.view.prompt, "beta") == 0,
           "Down to beta and Enter asks to load beta");
    TAP_OK(balls_loaded(&r) == 3, "what is picked loads that scene's world (3 balls)");

    /* Typed text filters: "002" leaves one save, Enter picks it. */
    r.view.load_scene = false;
    open_picker(&r);
    SDL_Event text = {.type = SDL_TEXTINPUT};
    snprintf(text.text.text, sizeof text.text.text, "002");
    feed(&r, text);
    key(&r, SDLK_RETURN, 0);
    TAP_OK(r.view.load_scene && strcmp(r.view.prompt, "./ballpit-scene-002.scene") == 0,
           "typed text filters the list, and Enter picks what is left");
    TAP_OK(balls_loaded(&r) == 3, "the picked save loads as it was saved");

    /* A path that no entry holds is loaded as typed. */
    r.view.load_scene = false;
    open_picker(&r);
    snprintf(text.text.text, sizeof text.text.text, "elsewhere/x.scene");
    feed(&r, text);
    key(&r, SDLK_RETURN, 0);
    TAP_OK(r.view.load_scene && strcmp(r.view.prompt, "elsewhere/x.scene") == 0,
           "Enter on a path not in the list asks to load that path");

    /* A click on the first row (the layout of picker.c: the box centred,
     * 44 units of heading, rows of 72). */
    r.view.load_scene = false;
    open_picker(&r);
    int fit = (768 - 44 - 40) / 72, rows = (int)p->count < fit ? (int)p->count : fit;
    int h = 44 + rows * 72 + 24, y = (768 - h) / 2;
    SDL_Event click = {.type = SDL_MOUSEBUTTONDOWN};
    click.button.button = SDL_BUTTON_LEFT;
    click.button.x = 512;
    click.button.y = y + 44 + 72 + 30; /* the second row */
    feed(&r, click);
    TAP_OK(r.view.load_scene && strcmp(r.view.prompt, p->entry[1].path) == 0,
           "a click on a row loads that row's scene");

    /* Esc closes without loading. */
    r.view.load_scene = false;
    open_picker(&r);
    key(&r, SDLK_ESCAPE, 0);
    TAP_OK(!r.view.prompting && !r.view.load_scene, "Esc closes the picker and loads nothing");

    /* A thumbnail shows the scene's balls on the background. */
    TAP_OK(bp_picker_thumb(&p->entry[a], &r.opts), "alpha's thumbnail is drawn");
    size_t other = 0, n = (size_t)p->entry[a].thumb_w * (size_t)p->entry[a].thumb_h;
    for (int yy = 0; yy < p->entry[a].thumb_h; yy++)
        for (int xx = 0; xx < p->entry[a].thumb_w; xx++)
            other += p->entry[a].thumb[yy * BP_PICKER_THUMB_W + xx] != BP_LOOK_BACKGROUND;
    /* A ball of radius 20 in a 400 px arena drawn 96 px wide is about
     * 4.8 px in radius: some 70 px, so 20 is a sure floor, and a thumbnail
     * all ball (nothing of the background) would be wrong too. */
    printf("# %zu of %zu pixels not background\n", other, n);
    TAP_OK(other >= 20 && other < n / 2, "the thumbnail shows the ball on the background");

    bp_world_destroy(r.world);
    return tap_done();
}
