#include "sceneout.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "scene.h"

static void release(bp_scene_out *s)
{
    if (s->out)
        fclose(s->out);
    free(s->path);
    free(s->part);
    *s = (bp_scene_out){0};
}

int bp_scene_out_open(bp_scene_out *s, const char *path, char *err, size_t err_size)
{
    *s = (bp_scene_out){0};
    size_t len = strlen(path);
    s->path = malloc(len + 1);
    s->part = malloc(len + BP_SAVE_PART_ROOM);
    if (!s->path || !s->part) {
        release(s);
        snprintf(err, err_size, "%s: out of memory", path);
        return 1;
    }
    memcpy(s->path, path, len + 1);
    /* path + ".part" (not snprintf: gcc's sanitizer build saw a NULL in it) */
    memcpy(s->part, path, len);
    memcpy(s->part + len, ".part", sizeof ".part");
    /* A directory of that name would refuse the file only at the end. */
    struct stat st;
    bool folder = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    s->out = folder ? NULL : fopen(s->part, "w");
    if (!s->out) {
        snprintf(err, err_size, "--save-scene: %s: cannot write: %s", path,
                 folder ? "it is a directory" : strerror(errno));
        release(s);
        return 2;
    }
    return 0;
}

bool bp_scene_out_finish(bp_scene_out *s, const bp_world *world, char *err, size_t err_size)
{
    if (!s->out)
        return true;
    char why_not[128];
    if (!bp_scene_fits(world, why_not, sizeof why_not)) {
        snprintf(err, err_size, "--save-scene: %s: cannot save: %s", s->path, why_not);
        bp_scene_out_drop(s);
        return false;
    }
    bool ok = bp_scene_save(world, s->out);
    int why = errno;
    if (fclose(s->out) != 0 && ok) {
        ok = false;
        why = errno;
    }
    s->out = NULL;
    if (ok && rename(s->part, s->path) != 0) {
        ok = false;
        why = errno;
    }
    if (!ok) {
        snprintf(err, err_size, "--save-scene: %s: cannot write: %s", s->path, strerror(why));
        remove(s->part);
    }
    release(s);
    return ok;
}

void bp_scene_out_drop(bp_scene_out *s)
{
    if (s->out) {
        fclose(s->out);
        s->out = NULL;
        remove(s->part);
    }
    release(s);
}
