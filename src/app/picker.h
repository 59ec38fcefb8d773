/* The scene picker (Ctrl+O, or the panel's "scenes" button): the example
 * scenes and the scenes saved lately (ballpit-scene-NNN.scene here, newest
 * first), each with a thumbnail of its starting state drawn by the
 * window's own CPU drawing code (picture.h). It sits over the Ctrl+O
 * prompt: typed text filters the list; Up/Down choose, Enter or a click
 * picks, and the pick is written into the prompt and loaded as a typed
 * name is (app.c's load_scene, with its rules). Enter with nothing in the
 * list left loads the typed text as it is. */
#ifndef BP_PICKER_H
#define BP_PICKER_H

#include <SDL2/SDL.h>
#include <stdbool.h>
#include <stdint.h>

#include "input.h"
#include "options.h"
#include "paint.h"
#include "panel.h"
#include "text.h"

/* At most this many recent saves are listed. */
#define BP_PICKER_RECENT 4
#define BP_PICKER_MAX 24
/* A thumbnail, px. */
#define BP_PICKER_THUMB_W 96
#define BP_PICKER_THUMB_H 64

typedef struct bp_picker_entry {
    char name[64];    /* shown */
    char path[128];   /* written into the prompt (a name or a file) */
    bool recent;      /* a save, not an example */
    uint32_t thumb[BP_PICKER_THUMB_W * BP_PICKER_THUMB_H];
    bool thumb_done;  /* tried (thumb_ok: and drawn) */
    bool thumb_ok;
    int thumb_w, thumb_h; /* the arena's shape inside the thumbnail */
    SDL_Texture *texture;
} bp_picker_entry;

typedef struct bp_picker {
    bp_picker_entry entry[BP_PICKER_MAX];
    size_t count;
    int selected;      /* index among the entries the filter keeps */
    bool open;
} bp_picker;

/* The entries: the examples bp_scene_examples finds, then the newest
 * BP_PICKER_RECENT saves in dir (by modification time, then number).
 * Keeps no thumbnail (bp_picker_forget first). */
void bp_picker_list(bp_picker *p, const char *dir);

/* Draws entry e's thumbnail (once; a scene that does not load has none):
 * its world as opts would load it, before any step. */
bool bp_picker_thumb(bp_picker_entry *e, const bp_options *opts);

/* Whether entry i passes the filter (the prompt's text, a substring). */
bool bp_picker_shown(const bp_picker *p, size_t i, const char *filter);

/* Offers an event while the prompt is open; *used: it took the event.
 * Enter on a listed entry writes its path into view->prompt and is left
 * for the prompt (input.c) to act on; a click on an entry loads it. */
void bp_picker_event(bp_picker *p, const bp_panel *panel, bp_view *view, const SDL_Event *ev,
                     bool *used);

/* Draws the picker over the window in the panel's units. */
void bp_picker_draw(bp_picker *p, const bp_panel *panel, SDL_Renderer *r, bp_text *glyphs,
                    const bp_view *view, const bp_options *opts);

/* Frees the textures (before the renderer goes). */
void bp_picker_forget(bp_picker *p);

#endif
