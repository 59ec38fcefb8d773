#include "picker.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "look.h"
#include "picture.h"
#include "scenepath.h"
#include "setup.h"

#define GLYPH 8
/* A row: the thumbnail and a margin, in panel units. */
#define ROW_H (BP_PICKER_THUMB_H + 8)
#define BOX_W 420
#define HEAD_H 44

typedef struct saved {
    char name[64];
    time_t mtime;
    int number;
} saved;

/* Newest first: later modification, then the higher number (saved later
 * within the same second, as free_name counts up). */
static int newest_first(const void *a, const void *b)
{
    const saved *x = a, *y = b;
    if (x->mtime != y->mtime)
        return x->mtime < y->mtime ? 1 : -1;
    return y->number - x->number;
}

void bp_picker_list(bp_picker *p, const char *dir)
{
    p->count = 0;
    p->selected = 0;
    char names[BP_PICKER_MAX][64];
    size_t n = bp_scene_examples(names, BP_PICKER_MAX - BP_PICKER_RECENT);
    for (size_t k = 0; k < n; k++) {
        bp_picker_entry *e = &p->entry[p->count++];
        memset(e, 0, sizeof *e);
        snprintf(e->name, sizeof e->name, "%s", names[k]);
        snprintf(e->path, sizeof e->path, "%s", names[k]);
    }
    saved found[64];
    size_t count = 0;
    DIR *d = opendir(dir);
    for (struct dirent *de; d && (de = readdir(d)) != NULL;) {
        int number, end = 0;
        if (sscanf(de->d_name, "ballpit-scene-%d.scene%n", &number, &end) != 1 ||
            de->d_name[end] != '\0' || end == 0 || count == sizeof found / sizeof found[0])
            continue;
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || strlen(de->d_name) >= 64)
            continue;
        memcpy(found[count].name, de->d_name, strlen(de->d_name) + 1);
        found[count].mtime = st.st_mtime;
        found[count++].number = number;
    }
    if (d)
        closedir(d);
    qsort(found, count, sizeof found[0], newest_first);
    for (size_t k = 0; k < count && k < BP_PICKER_RECENT; k++) {
        bp_picker_entry *e = &p->entry[p->count++];
        memset(e, 0, sizeof *e);
        e->recent = true;
        memcpy(e->name, found[k].name, sizeof e->name);
        /* With a '/', the prompt takes it as a file (scenepath.h). */
        int len = snprintf(e->path, sizeof e->path, "%s/%s", dir, found[k].name);
        if (len < 0 || (size_t)len >= sizeof e->path)
            p->count--;
    }
}

bool bp_picker_thumb(bp_picker_entry *e, const bp_options *given)
{
    if (e->thumb_done)
        return e->thumb_ok;
    e->thumb_done = true;
    bp_options opts = bp_setup_options_for_scene(given, e->path);
    opts.settle = 0; /* the scene as it starts */
    int status = 0;
    char why[256];
    bp_world *w = bp_setup_world(&opts, &status, why, sizeof why);
    if (!w)
        return false;
    double scale = SDL_min(BP_PICKER_THUMB_W / w->params.width,
                           BP_PICKER_THUMB_H / w->params.height);
    e->thumb_w = SDL_max(1, SDL_min(BP_PICKER_THUMB_W, (int)(w->params.width * scale)));
    e->thumb_h = SDL_max(1, SDL_min(BP_PICKER_THUMB_H, (int)(w->params.height * scale)));
    bp_pixels out = {e->thumb, e->thumb_w, e->thumb_h, BP_PICKER_THUMB_W};
    bp_look look = bp_look_from_options(&opts);
    look.trails = 0.0;
    look.vectors = look.debug = false;
    look.inspect = -1;
    bp_picture *pic = bp_picture_create();
    e->thumb_ok = pic && bp_picture_draw(pic, &out, scale, w, NULL, NULL, &look, NULL);
    bp_picture_destroy(pic);
    bp_world_destroy(w);
    return e->thumb_ok;
}

bool bp_picker_shown(const bp_picker *p, size_t i, const char *filter)
{
    return i < p->count && strstr(p->entry[i].name, filter) != NULL;
}

static size_t shown_count(const bp_picker *p, const char *filter)
{
    size_t n = 0;
    for (size_t i = 0; i < p->count; i++)
        n += bp_picker_shown(p, i, filter);
    return n;
}

/* The entry the k-th shown row is, or -1. */
static int shown_entry(const bp_picker *p, const char *filter, int k)
{
    for (size_t i = 0; i < p->count; i++)
        if (bp_picker_shown(p, i, filter) && k-- == 0)
            return (int)i;
    return -1;
}

/* The box's top-left corner and the rows that fit, in panel units. */
static void box(const bp_panel *panel, size_t shown, int *x, int *y, int *rows)
{
    int fit = (panel->height - HEAD_H - 40) / ROW_H;
    *rows = SDL_max(1, SDL_min((int)shown, fit));
    int h = HEAD_H + *rows * ROW_H + 24;
    *x = (panel->width - BOX_W) / 2;
    *y = SDL_max(8, (panel->height - h) / 2);
}

/* The first row shown: the selection stays in view. */
static int first_row(const bp_picker *p, int rows)
{
    return p->selected >= rows ? p->selected - rows + 1 : 0;
}

void bp_picker_event(bp_picker *p, const bp_panel *panel, bp_view *view, const SDL_Event *ev,
                     bool *used)
{
    *used = false;
    if (!view->prompting)
        return;
    int shown = (int)shown_count(p, view->prompt);
    if (p->selected >= shown)
        p->selected = SDL_max(0, shown - 1);
    if (ev->type == SDL_KEYDOWN) {
        SDL_Keycode key = ev->key.keysym.sym;
        if (key == SDLK_DOWN || key == SDLK_UP) {
            *used = true;
            if (shown > 0)
                p->selected = (p->selected + (key == SDLK_DOWN ? 1 : shown - 1)) % shown;
        } else if ((key == SDLK_RETURN || key == SDLK_KP_ENTER) && shown > 0) {
            int i = shown_entry(p, view->prompt, p->selected);
            snprintf(view->prompt, sizeof view->prompt, "%s", p->entry[i].path);
        }
        return;
    }
    if (ev->type == SDL_MOUSEBUTTONDOWN || ev->type == SDL_MOUSEBUTTONUP ||
        ev->type == SDL_MOUSEMOTION) {
        *used = true; /* the arena behind the picker takes no click */
        if (ev->type != SDL_MOUSEBUTTONDOWN || ev->button.button != SDL_BUTTON_LEFT)
            return;
        double ux = ev->button.x * panel->k + panel->ox, uy = ev->button.y * panel->k + panel->oy;
        int x, y, rows;
        box(panel, (size_t)shown, &x, &y, &rows);
        int row = (int)SDL_floor((uy - (y + HEAD_H)) / ROW_H);
        if (ux < x || ux >= x + BOX_W || uy < y + HEAD_H || row < 0 || row >= rows)
            return;
        int i = shown_entry(p, view->prompt, first_row(p, rows) + row);
        if (i < 0)
            return;
        snprintf(view->prompt, sizeof view->prompt, "%s", p->entry[i].path);
        view->prompting = false;
        view->load_scene = true;
    }
}

static void fill(SDL_Renderer *r, int x, int y, int w, int h, Uint8 g, Uint8 b, Uint8 a)
{
    SDL_SetRenderDrawColor(r, g, g, b, a);
    SDL_RenderFillRect(r, &(SDL_Rect){x, y, w, h});
}

void bp_picker_draw(bp_picker *p, const bp_panel *panel, SDL_Renderer *r, bp_text *glyphs,
                    const bp_view *view, const bp_options *opts)
{
    if (!view->prompting)
        return;
    int shown = (int)shown_count(p, view->prompt);
    if (p->selected >= shown)
        p->selected = SDL_max(0, shown - 1);
    int x, y, rows;
    box(panel, (size_t)shown, &x, &y, &rows);
    int h = HEAD_H + rows * ROW_H + 24;
    SDL_RenderSetScale(r, (float)panel->scale, (float)panel->scale);
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
    fill(r, x, y, BOX_W, h, 20, 26, 235);
    SDL_Color white = {235, 238, 242, 255}, grey = {150, 158, 170, 255},
              blue = {130, 190, 255, 255};
    char line[200];
    snprintf(line, sizeof line, "load scene: %s_", view->prompt);
    bp_text_add(glyphs, r, x + 12, y + 10, line, white);
    bp_text_add(glyphs, r, x + 12, y + 24,
                shown ? "Up/Down + Enter or click: load   Esc: close"
                      : "nothing listed: Enter loads the typed path",
                grey);
    int top = first_row(p, rows);
    for (int k = 0; k < rows; k++) {
        int i = shown_entry(p, view->prompt, top + k);
        if (i < 0)
            break;
        bp_picker_entry *e = &p->entry[i];
        int ry = y + HEAD_H + k * ROW_H;
        if (top + k == p->selected)
            fill(r, x + 4, ry, BOX_W - 8, ROW_H - 2, 60, 90, 255);
        int tx = x + 10, ty = ry + 3;
        fill(r, tx, ty, BP_PICKER_THUMB_W, BP_PICKER_THUMB_H, 10, 14, 255);
        if (!e->texture && bp_picker_thumb(e, opts)) {
            e->texture = SDL_CreateTexture(r, SDL_PIXELFORMAT_ARGB8888,
                                           SDL_TEXTUREACCESS_STATIC, e->thumb_w, e->thumb_h);
            if (e->texture)
                SDL_UpdateTexture(e->texture, NULL, e->thumb,
                                  BP_PICKER_THUMB_W * (int)sizeof(uint32_t));
        }
        if (e->texture)
            SDL_RenderCopy(r, e->texture, NULL,
                           &(SDL_Rect){tx + (BP_PICKER_THUMB_W - e->thumb_w) / 2,
                                       ty + (BP_PICKER_THUMB_H - e->thumb_h) / 2, e->thumb_w,
                                       e->thumb_h});
        int lx = tx + BP_PICKER_THUMB_W + 14;
        bp_text_add(glyphs, r, lx, ry + ROW_H / 2 - GLYPH - 2, e->name, white);
        bp_text_add(glyphs, r, lx, ry + ROW_H / 2 + 4, e->recent ? "saved" : "example",
                    e->recent ? blue : grey);
    }
    if (shown > rows) {
        snprintf(line, sizeof line, "%d more (Up/Down)", shown - rows);
        bp_text_add(glyphs, r, x + 12, y + h - 16, line, grey);
    }
    bp_text_flush(glyphs, r);
    SDL_RenderSetScale(r, 1.0f, 1.0f);
}

void bp_picker_forget(bp_picker *p)
{
    for (size_t i = 0; i < p->count; i++) {
        if (p->entry[i].texture)
            SDL_DestroyTexture(p->entry[i].texture);
        p->entry[i].texture = NULL;
    }
}
