#include "scene.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "numparse.h"
#include "options.h"

/* Longest statement line we accept; anything longer is surely not a scene. */
#define BP_SCENE_MAX_LINE 4096
#define BP_SCENE_MAX_BALLS 2000000u
#define BP_SCENE_MAX_WALLS 100000u

void bp_scene_free(bp_scene *scene)
{
    free(scene->balls);
    free(scene->walls);
    scene->balls = NULL;
    scene->walls = NULL;
    scene->ball_count = scene->ball_capacity = 0;
    scene->wall_count = scene->wall_capacity = 0;
}

typedef struct key_spec {
    const char *key;
    double *target;
    bool required;
    bool seen;
} key_spec;

static int line_error(char *err, size_t err_size, const char *name, int line, const char *what,
                      const char *detail)
{
    if (detail)
        snprintf(err, err_size, "%s:%d: %s '%s'", name, line, what, detail);
    else
        snprintf(err, err_size, "%s:%d: %s", name, line, what);
    return 2;
}

/* Reads the key=value tokens of one statement into the spec's targets. */
static int read_pairs(char *rest, key_spec *keys, size_t key_count, const char *name, int line,
                      char *err, size_t err_size)
{
    char *save = NULL;
    for (char *tok = strtok_r(rest, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            return line_error(err, err_size, name, line, "expected key=value, got", tok);
        *eq = '\0';
        key_spec *spec = NULL;
        for (size_t k = 0; k < key_count; k++)
            if (strcmp(keys[k].key, tok) == 0)
                spec = &keys[k];
        if (!spec)
            return line_error(err, err_size, name, line, "unknown key", tok);
        if (spec->seen)
            return line_error(err, err_size, name, line, "key given twice:", tok);
        if (!bp_parse_double(eq + 1, spec->target)) {
            char detail[160];
            snprintf(detail, sizeof detail, "%s=%.100s", tok, eq + 1);
            return line_error(err, err_size, name, line, "not a finite number:", detail);
        }
        spec->seen = true;
    }
    for (size_t k = 0; k < key_count; k++)
        if (keys[k].required && !keys[k].seen)
            return line_error(err, err_size, name, line, "missing key", keys[k].key);
    return 0;
}

static int parse_world(bp_scene *scene, char *rest, const char *name, int line, char *err,
                       size_t err_size)
{
    bp_params p = scene->params;
    key_spec keys[] = {
        {"w", &p.width, false, false},          {"h", &p.height, false, false},
        {"gravity", &p.gravity, false, false},  {"restitution", &p.restitution, false, false},
        {"friction", &p.friction, false, false}, {"drag", &p.drag, false, false},
        {"hz", &p.hz, false, false},            {"rolling", &p.rolling, false, false},
    };
    int rc = read_pairs(rest, keys, sizeof keys / sizeof keys[0], name, line, err, err_size);
    if (rc)
        return rc;
    const char *why = bp_params_check(&p);
    if (why)
        return line_error(err, err_size, name, line, why, NULL);
    const unsigned bits[] = {BP_SET_SIZE, BP_SET_SIZE, BP_SET_GRAVITY, BP_SET_RESTITUTION,
                             BP_SET_FRICTION, BP_SET_DRAG, BP_SET_HZ, BP_SET_ROLLING};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (keys[k].seen)
            scene->params_set |= bits[k];
    scene->params = p;
    return 0;
}

static int parse_ball(bp_scene *scene, char *rest, const char *name, int line, char *err,
                      size_t err_size)
{
    bp_scene_ball b = {.r = 16.0, .line = line};
    key_spec keys[] = {
        {"x", &b.x, true, false},   {"y", &b.y, true, false},   {"r", &b.r, false, false},
        {"vx", &b.vx, false, false}, {"vy", &b.vy, false, false}, {"m", &b.mass, false, false},
    };
    int rc = read_pairs(rest, keys, sizeof keys / sizeof keys[0], name, line, err, err_size);
    if (rc)
        return rc;
    if (!(b.r >= 0.5 && b.r <= 10000.0))
        return line_error(err, err_size, name, line, "ball radius must be 0.5..10000 px", NULL);
    if (!(b.vx * b.vx + b.vy * b.vy <= 1e14))
        return line_error(err, err_size, name, line, "ball speed must be at most 10^7 px/s",
                          NULL);
    if (keys[5].seen && !(b.mass > 0.0 && b.mass <= 1e12))
        return line_error(err, err_size, name, line, "ball mass must be in (0, 10^12]", NULL);
    if (scene->ball_count >= BP_SCENE_MAX_BALLS)
        return line_error(err, err_size, name, line, "too many balls", NULL);
    if (!bp_reserve((void **)&scene->balls, &scene->ball_capacity, scene->ball_count + 1,
                    sizeof b)) {
        snprintf(err, err_size, "%s:%d: out of memory", name, line);
        return 1;
    }
    scene->balls[scene->ball_count++] = b;
    return 0;
}

static int parse_wall(bp_scene *scene, char *rest, const char *name, int line, char *err,
                      size_t err_size)
{
    bp_scene_wall w = {.wall = {.r = 2.0}, .line = line};
    key_spec keys[] = {
        {"x1", &w.wall.x1, true, false}, {"y1", &w.wall.y1, true, false},
        {"x2", &w.wall.x2, true, false}, {"y2", &w.wall.y2, true, false},
        {"r", &w.wall.r, false, false},
    };
    int rc = read_pairs(rest, keys, sizeof keys / sizeof keys[0], name, line, err, err_size);
    if (rc)
        return rc;
    if (!(w.wall.r >= 0.0 && w.wall.r <= 10000.0))
        return line_error(err, err_size, name, line, "wall radius must be 0..10000 px", NULL);
    if (scene->wall_count >= BP_SCENE_MAX_WALLS)
        return line_error(err, err_size, name, line, "too many walls", NULL);
    if (!bp_reserve((void **)&scene->walls, &scene->wall_capacity, scene->wall_count + 1,
                    sizeof w)) {
        snprintf(err, err_size, "%s:%d: out of memory", name, line);
        return 1;
    }
    scene->walls[scene->wall_count++] = w;
    return 0;
}

int bp_scene_parse(bp_scene *scene, const char *name, const char *text, char *err,
                   size_t err_size)
{
    *scene = (bp_scene){.params = bp_params_default()};
    int line = 0;
    const char *cursor = text;
    while (*cursor) {
        line++;
        const char *end = strchr(cursor, '\n');
        size_t len = end ? (size_t)(end - cursor) : strlen(cursor);
        if (len >= BP_SCENE_MAX_LINE) {
            bp_scene_free(scene);
            return line_error(err, err_size, name, line, "line too long", NULL);
        }
        char buf[BP_SCENE_MAX_LINE];
        memcpy(buf, cursor, len);
        buf[len] = '\0';
        cursor = end ? end + 1 : cursor + len;

        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *save = NULL;
        char *keyword = strtok_r(buf, " \t\r", &save);
        if (!keyword)
            continue;
        char *rest = save ? save : "";
        int rc;
        if (strcmp(keyword, "world") == 0)
            rc = parse_world(scene, rest, name, line, err, err_size);
        else if (strcmp(keyword, "ball") == 0)
            rc = parse_ball(scene, rest, name, line, err, err_size);
        else if (strcmp(keyword, "wall") == 0)
            rc = parse_wall(scene, rest, name, line, err, err_size);
        else
            rc = line_error(err, err_size, name, line, "unknown keyword", keyword);
        if (rc) {
            bp_scene_free(scene);
            return rc;
        }
    }
    return 0;
}

int bp_scene_load(bp_scene *scene, const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "%s: cannot open scene: %s", path, strerror(errno));
        return 2;
    }
    size_t size = 0, capacity = 0;
    char *text = NULL;
    int rc = 0;
    for (;;) {
        if (size + 4096 + 1 > capacity) {
            size_t grown = capacity ? capacity * 2 : 8192;
            if (grown > (size_t)512 << 20) {
                snprintf(err, err_size, "%s: scene file larger than 512 MiB", path);
                rc = 2;
                break;
            }
            char *p = realloc(text, grown);
            if (!p) {
                snprintf(err, err_size, "%s: out of memory", path);
                rc = 1;
                break;
            }
            text = p;
            capacity = grown;
        }
        size_t got = fread(text + size, 1, 4096, f);
        size += got;
        if (got < 4096) {
            if (ferror(f)) {
                snprintf(err, err_size, "%s: cannot read scene: %s", path, strerror(errno));
                rc = 2;
            }
            break;
        }
    }
    fclose(f);
    if (rc == 0) {
        if (memchr(text, '\0', size)) {
            snprintf(err, err_size, "%s: not a text file", path);
            rc = 2;
        } else {
            text[size] = '\0';
            rc = bp_scene_parse(scene, path, text, err, err_size);
        }
    }
    free(text);
    return rc;
}

int bp_scene_build(const bp_scene *scene, const char *name, bp_world *world, char *err,
                   size_t err_size)
{
    double w = world->params.width, h = world->params.height;
    for (size_t i = 0; i < scene->wall_count; i++) {
        const bp_wall *wall = &scene->walls[i].wall;
        if (!(wall->x1 >= 0 && wall->x1 <= w && wall->x2 >= 0 && wall->x2 <= w &&
              wall->y1 >= 0 && wall->y1 <= h && wall->y2 >= 0 && wall->y2 <= h))
            return line_error(err, err_size, name, scene->walls[i].line,
                              "wall end lies outside the arena", NULL);
        if (!bp_world_add_wall(world, *wall)) {
            snprintf(err, err_size, "%s: out of memory", name);
            return 1;
        }
    }
    for (size_t i = 0; i < scene->ball_count; i++) {
        const bp_scene_ball *b = &scene->balls[i];
        if (!(b->x >= 0 && b->x <= w && b->y >= 0 && b->y <= h))
            return line_error(err, err_size, name, b->line, "ball centre lies outside the arena",
                              NULL);
        if (2.0 * b->r > w || 2.0 * b->r > h)
            return line_error(err, err_size, name, b->line, "ball is larger than the arena",
                              NULL);
        if (bp_world_add_ball(world, b->x, b->y, b->vx, b->vy, b->r, b->mass) < 0) {
            snprintf(err, err_size, "%s: out of memory", name);
            return 1;
        }
    }
    return 0;
}

bool bp_scene_save(const bp_world *world, FILE *out)
{
    const bp_params *p = &world->params;
    fprintf(out, "# ballpit scene, saved after %llu steps\n", (unsigned long long)world->steps);
    fprintf(out, "world w=%.17g h=%.17g gravity=%.17g restitution=%.17g friction=%.17g "
                 "rolling=%.17g drag=%.17g hz=%.17g\n",
            p->width, p->height, p->gravity, p->restitution, p->friction, p->rolling, p->drag,
            p->hz);
    for (size_t i = 0; i < world->wall_count; i++) {
        const bp_wall *wl = &world->walls[i];
        fprintf(out, "wall x1=%.17g y1=%.17g x2=%.17g y2=%.17g r=%.17g\n", wl->x1, wl->y1, wl->x2,
                wl->y2, wl->r);
    }
    /* Balls in id order, so that ids survive the round trip when none were
     * removed. */
    for (uint32_t id = 0; id < world->next_id; id++) {
        int64_t i = bp_world_index_of(world, id);
        if (i < 0)
            continue;
        fprintf(out, "ball x=%.17g y=%.17g r=%.17g vx=%.17g vy=%.17g m=%.17g\n", world->x[i],
                world->y[i], world->r[i], world->vx[i], world->vy[i], world->mass[i]);
    }
    return fflush(out) == 0 && !ferror(out);
}
