#include "scene.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "limits.h"
#include "numparse.h"
#include "options.h"
#include "textfile.h"

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

/* The world's solver= key, a name rather than a number: read, then blanked
 * out of rest for the numeric keys. */
static int take_solver(char *rest, bp_params *p, bool *seen, const char *name, int line,
                       char *err, size_t err_size)
{
    for (char *t = rest; *t;) {
        while (*t == ' ' || *t == '\t' || *t == '\r')
            t++;
        char *end = t;
        while (*end && *end != ' ' && *end != '\t' && *end != '\r')
            end++;
        if (end - t > 7 && strncmp(t, "solver=", 7) == 0) {
            char value[32];
            size_t n = (size_t)(end - t - 7);
            snprintf(value, sizeof value, "%.*s", (int)(n < sizeof value ? n : sizeof value - 1),
                     t + 7);
            int solver = n < sizeof value ? bp_solver_named(value) : -1;
            if (*seen)
                return line_error(err, err_size, name, line, "key given twice:", "solver");
            if (solver < 0)
                return line_error(err, err_size, name, line, "not a solver (passes or soft):",
                                  value);
            p->solver = solver;
            *seen = true;
            memset(t, ' ', (size_t)(end - t));
        }
        t = end;
    }
    return 0;
}

static int parse_world(bp_scene *scene, char *rest, const char *name, int line, char *err,
                       size_t err_size)
{
    bp_params p = scene->params;
    bool solver_seen = false;
    int taken = take_solver(rest, &p, &solver_seen, name, line, err, err_size);
    if (taken)
        return taken;
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
    if (solver_seen)
        scene->params_set |= BP_SET_SOLVER;
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
        {"w", &b.w, false, false},   {"angle", &b.angle, false, false},
        {"asleep", &b.asleep, false, false},
    };
    int rc = read_pairs(rest, keys, sizeof keys / sizeof keys[0], name, line, err, err_size);
    if (rc)
        return rc;
    const char *why = bp_check_radius(b.r);
    if (!why && !(b.asleep == 0.0 || b.asleep == 1.0))
        why = "asleep must be 0 or 1";
    if (!why && b.asleep == 1.0 && (b.vx != 0.0 || b.vy != 0.0 || b.w != 0.0))
        why = "a ball asleep (asleep=1) must be still: vx, vy and w 0";
    if (!why)
        why = bp_check_velocity(b.vx, b.vy);
    if (!why && keys[5].seen)
        why = bp_check_mass(b.mass);
    if (!why)
        why = bp_check_spin(b.w);
    if (!why)
        why = bp_check_angle(b.angle);
    if (why)
        return line_error(err, err_size, name, line, why, NULL);
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
    const char *why = bp_check_wall_radius(w.wall.r);
    if (why)
        return line_error(err, err_size, name, line, why, NULL);
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
    *scene = (bp_scene){.params = bp_params_default()};
    char *text;
    size_t len;
    int rc = bp_read_text_file(path, BP_TEXT_MAX_BYTES, &text, &len, err, err_size);
    if (rc)
        return rc;
    rc = bp_scene_parse(scene, path, text, err, err_size);
    free(text);
    return rc;
}

int bp_scene_build(const bp_scene *scene, const char *name, bp_world *world, char *err,
                   size_t err_size)
{
    for (size_t i = 0; i < scene->wall_count; i++) {
        const bp_wall *wall = &scene->walls[i].wall;
        const char *why = bp_check_wall_in_arena(&world->params, wall);
        if (why)
            return line_error(err, err_size, name, scene->walls[i].line, why, NULL);
        if (!bp_world_insert_wall(world, *wall)) {
            snprintf(err, err_size, "%s: out of memory", name);
            return 1;
        }
    }
    size_t base = world->count;
    for (size_t i = 0; i < scene->ball_count; i++) {
        const bp_scene_ball *b = &scene->balls[i];
        const char *why = bp_check_ball_in_arena(&world->params, b->x, b->y, b->r);
        if (why)
            return line_error(err, err_size, name, b->line, why, NULL);
        if (bp_world_insert_ball(world, b->x, b->y, b->vx, b->vy, b->r, b->mass) < 0) {
            snprintf(err, err_size, "%s: out of memory", name);
            return 1;
        }
        /* A new ball goes last in the arrays. */
        world->angle[world->count - 1] = b->angle;
        world->w[world->count - 1] = b->w;
    }
    /* Sleepers last, once every ball is in: a pile saved at rest comes
     * back at rest, the same picture, until something disturbs it. */
    for (size_t i = 0; i < scene->ball_count; i++)
        if (scene->balls[i].asleep == 1.0)
            bp_world_sleep(world, base + i);
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
    if (p->solver != BP_SOLVER_PASSES)
        fprintf(out, "world solver=%s\n", bp_solver_name(p->solver));
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
        fprintf(out, "ball x=%.17g y=%.17g r=%.17g vx=%.17g vy=%.17g m=%.17g w=%.17g angle=%.17g%s\n",
                world->x[i], world->y[i], world->r[i], world->vx[i], world->vy[i], world->mass[i],
                world->w[i], world->angle[i],
                (world->flags[i] & BP_BALL_ASLEEP) ? " asleep=1" : "");
    }
    return fflush(out) == 0 && !ferror(out);
}
