/* What the page asks of the running sandbox: the scene as it stands, as
 * text, to put in a link (Ctrl+S writes the same text to a file). */
#include <emscripten.h>
#include <stdio.h>

#include "app.h"
#include "scene.h"

/* Writes the running world as a scene file to path. Returns 1 on success,
 * 0 when nothing runs or the file cannot be written. */
EMSCRIPTEN_KEEPALIVE int bp_web_save_scene(const char *path)
{
    const bp_world *world = bp_app_browser_world();
    if (!world)
        return 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    int ok = bp_scene_save(world, f);
    return fclose(f) == 0 && ok;
}
