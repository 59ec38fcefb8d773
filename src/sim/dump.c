#include "dump.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "program.h"

bool bp_make_dirs(const char *dir, char *err, size_t err_size)
{
    size_t len = strlen(dir);
    char *path = malloc(len + 1);
    if (!path) {
        snprintf(err, err_size, "%s: out of memory", dir);
        return false;
    }
    memcpy(path, dir, len + 1);
    for (size_t k = 1; k <= len; k++) {
        if (path[k] != '/' && path[k] != '\0')
            continue;
        char saved = path[k];
        path[k] = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            snprintf(err, err_size, "%s: cannot create directory: %s", path, strerror(errno));
            free(path);
            return false;
        }
        path[k] = saved;
    }
    struct stat st;
    bool ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    if (!ok)
        snprintf(err, err_size, "%s: not a directory", dir);
    free(path);
    return ok;
}

/* Whether name is a frame's PNG, as --png names them: frame-, six digits
 * or more (the step), .png. */
static bool frame_png_name(const char *name)
{
    if (strncmp(name, "frame-", 6) != 0)
        return false;
    size_t digits = strspn(name + 6, "0123456789");
    return digits >= 6 && strcmp(name + 6 + digits, ".png") == 0;
}

/* Removes the frame PNGs an earlier dump left in dir: a shorter run
 * overwrote only its own, and the old ones beyond them read as part of
 * it. Nothing else in dir is touched. */
static bool clear_old_frames(const char *dir, char *err, size_t err_size)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, err_size, "%s: cannot read directory: %s", dir, strerror(errno));
        return false;
    }
    bool ok = true;
    size_t len = strlen(dir);
    for (struct dirent *e = readdir(d); e && ok; e = readdir(d)) {
        if (!frame_png_name(e->d_name))
            continue;
        size_t size = len + strlen(e->d_name) + 2;
        char *path = malloc(size);
        if (!path) {
            snprintf(err, err_size, "%s: out of memory", dir);
            ok = false;
            break;
        }
        snprintf(path, size, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0 && errno != ENOENT) {
            snprintf(err, err_size, "%s: cannot remove an old frame: %s", path, strerror(errno));
            ok = false;
        }
        free(path);
    }
    closedir(d);
    return ok;
}

bool bp_dump_open(bp_dump *dump, const char *dir, char *err, size_t err_size)
{
    *dump = (bp_dump){0};
    if (!bp_make_dirs(dir, err, err_size) || !clear_old_frames(dir, err, err_size))
        return false;
    size_t len = strlen(dir) + sizeof "/frames.csv";
    char *path = malloc(len);
    dump->dir = malloc(strlen(dir) + 1);
    if (!path || !dump->dir) {
        free(path);
        free(dump->dir);
        dump->dir = NULL;
        snprintf(err, err_size, "%s: out of memory", dir);
        return false;
    }
    strcpy(dump->dir, dir);
    snprintf(path, len, "%s/frames.csv", dir);
    if (!bp_rows_open(&dump->csv, path, "frame,t,id,x,y,vx,vy,r,angle,w,grounded\n")) {
        snprintf(err, err_size, "%s: cannot write: %s", path, strerror(errno));
        free(path);
        free(dump->dir);
        *dump = (bp_dump){0};
        return false;
    }
    free(path);
    return true;
}

bool bp_dump_frame(bp_dump *dump, const bp_world *world, unsigned long long frame, char *err,
                   size_t err_size)
{
    double t = (double)frame / world->params.hz;
    for (uint32_t id = 0; dump->csv.out && id < world->next_id; id++) {
        int64_t i = bp_world_index_of(world, id);
        if (i < 0)
            continue;
        if (fprintf(dump->csv.out, "%llu,%.17g,%u,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d\n",
                    frame, t, id, world->x[i], world->y[i], world->vx[i], world->vy[i],
                    world->r[i], world->angle[i], world->w[i],
                    (world->flags[i] & BP_BALL_GROUNDED) ? 1 : 0) < 0)
            break; /* the frame's end finds the error and cuts the file back */
    }
    if (bp_rows_end_frame(&dump->csv))
        return true;
    snprintf(err, err_size, "%s/frames.csv: write failed: %s", dump->dir, strerror(errno));
    return false;
}

bool bp_dump_close(bp_dump *dump, char *err, size_t err_size)
{
    bool ok = bp_rows_close(&dump->csv);
    if (!ok)
        snprintf(err, err_size, "%s/frames.csv: write failed: %s", dump->dir, strerror(errno));
    free(dump->dir);
    *dump = (bp_dump){0};
    return ok;
}
