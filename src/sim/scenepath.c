#include "scenepath.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nearest.h"

/* Set by the build (src/meson.build); empty when unknown. */
#ifndef BP_SCENE_DIR
#define BP_SCENE_DIR ""
#endif
#ifndef BP_SCENE_DIR_FROM_BINDIR
#define BP_SCENE_DIR_FROM_BINDIR ""
#endif
/* The examples of the source tree the program was built from: a build
 * run before it is installed finds them from any directory. */
#ifndef BP_SOURCE_SCENE_DIR
#define BP_SOURCE_SCENE_DIR ""
#endif

const char *bp_scene_dir(void)
{
    return BP_SCENE_DIR;
}

static bool exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* The directory of the running program, from /proc (Linux); false where
 * there is none. */
static bool program_dir(char *out, size_t out_size)
{
    if (out_size < 2)
        return false;
    ssize_t len = readlink("/proc/self/exe", out, out_size - 1);
    if (len <= 0 || (size_t)len >= out_size - 1)
        return false;
    out[len] = '\0';
    char *slash = strrchr(out, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return true;
}

/* Tries DIR/NAME, then DIR/NAME.scene. */
static bool try_dir(const char *dir, const char *name, char *out, size_t out_size)
{
    static const char *const suffixes[] = {"", ".scene"};
    for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++) {
        int n = snprintf(out, out_size, "%s/%s%s", dir, name, suffixes[k]);
        if (n > 0 && (size_t)n < out_size && exists(out))
            return true;
    }
    return false;
}

/* The example scenes' names (NAME of NAME.scene) found in the directories
 * searched, each once, sorted. */
#define BP_SCENE_NAMES_MAX 32
typedef struct scene_names {
    char name[BP_SCENE_NAMES_MAX][BP_NEAREST_MAX + 1];
    size_t count;
} scene_names;

static int by_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

static void add_names_in(scene_names *names, const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name), suffix = strlen(".scene");
        if (len <= suffix || len - suffix > BP_NEAREST_MAX ||
            strcmp(e->d_name + len - suffix, ".scene") != 0)
            continue;
        bool known = false;
        for (size_t k = 0; k < names->count && !known; k++)
            known = strncmp(names->name[k], e->d_name, len - suffix) == 0 &&
                    names->name[k][len - suffix] == '\0';
        if (!known && names->count < BP_SCENE_NAMES_MAX) {
            memcpy(names->name[names->count], e->d_name, len - suffix);
            names->name[names->count++][len - suffix] = '\0';
        }
    }
    if (d)
        closedir(d);
}

/* For a scene name found nowhere: " (did you mean NEAR?)" when one of the
 * example scenes is near it, else " (example scenes: A, B, ...)", into out;
 * "" when there are none. */
static void scene_hint(const char *name, char dirs[][4096], size_t count, char *out,
                       size_t out_size)
{
    scene_names names = {.count = 0};
    for (size_t k = 0; k < count; k++)
        add_names_in(&names, dirs[k]);
    qsort(names.name, names.count, sizeof names.name[0], by_name);
    size_t best = SIZE_MAX, at = 0, len = strlen(name);
    for (size_t k = 0; k < names.count; k++) {
        size_t d = bp_edit_distance(name, len, names.name[k], strlen(names.name[k]));
        if (d < best) {
            best = d;
            at = k;
        }
    }
    out[0] = '\0';
    if (names.count > 0 && bp_near_enough(best, len)) {
        snprintf(out, out_size, " (did you mean %s?)", names.name[at]);
        return;
    }
    size_t used = 0;
    for (size_t k = 0; k < names.count && used < out_size; k++)
        used += (size_t)snprintf(out + used, out_size - used, "%s%s%s",
                                 k ? ", " : " (example scenes: ", names.name[k],
                                 k + 1 == names.count ? ")" : "");
}

/* The directories examples are looked for in, in order (see scenepath.h). */
static size_t scene_dirs(char dirs[4][4096])
{
    size_t count = 0;
    snprintf(dirs[count++], sizeof dirs[0], "scenes");
    char exe_dir[4096];
    if (BP_SCENE_DIR_FROM_BINDIR[0] && program_dir(exe_dir, sizeof exe_dir)) {
        int n = snprintf(dirs[count], sizeof dirs[0], "%s/%s", exe_dir, BP_SCENE_DIR_FROM_BINDIR);
        if (n > 0 && (size_t)n < sizeof dirs[0])
            count++;
    }
    if (BP_SCENE_DIR[0])
        snprintf(dirs[count++], sizeof dirs[0], "%s", BP_SCENE_DIR);
    if (BP_SOURCE_SCENE_DIR[0])
        snprintf(dirs[count++], sizeof dirs[0], "%s", BP_SOURCE_SCENE_DIR);
    return count;
}

size_t bp_scene_examples(char names[][64], size_t max)
{
    char dirs[4][4096];
    size_t count = scene_dirs(dirs);
    scene_names found = {.count = 0};
    for (size_t k = 0; k < count; k++)
        add_names_in(&found, dirs[k]);
    qsort(found.name, found.count, sizeof found.name[0], by_name);
    size_t n = found.count < max ? found.count : max;
    memcpy(names, found.name, n * sizeof found.name[0]);
    return n;
}

bool bp_scene_find(const char *name, char *out, size_t out_size, char *err, size_t err_size)
{
    size_t len = strlen(name);
    if (exists(name) || strchr(name, '/') || len == 0 || strcmp(name, ".") == 0 ||
        strcmp(name, "..") == 0) {
        if (len >= out_size) {
            snprintf(err, err_size, "--scene: path too long");
            return false;
        }
        memcpy(out, name, len + 1);
        return true;
    }

    char dirs[4][4096];
    size_t count = scene_dirs(dirs);

    for (size_t k = 0; k < count; k++)
        if (try_dir(dirs[k], name, out, out_size))
            return true;

    char hint[512];
    scene_hint(name, dirs, count, hint, sizeof hint);
    snprintf(err, err_size, "%s: no such scene file, nor %s.scene in scenes/%s%s%s%s%s", name,
             name, BP_SCENE_DIR[0] ? ", " : "", BP_SCENE_DIR, BP_SOURCE_SCENE_DIR[0] ? " or " : "",
             BP_SOURCE_SCENE_DIR, hint);
    return false;
}
