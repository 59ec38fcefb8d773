#include "scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crowd.h"
#include "numparse.h"
#include "options.h"
#include "program.h"
#include "textfile.h"

/* Longest statement line we accept; anything longer is surely not a scene. */
#define BP_SCENE_MAX_LINE 4096
#define BP_SCENE_MAX_BALLS 2000000u
#define BP_SCENE_MAX_WALLS 100000u
/* A ball touches at most six others of its size: room for those, and the
 * walls and sides, of the most balls. */
#define BP_SCENE_MAX_CONTACTS (8u * BP_SCENE_MAX_BALLS)

void bp_scene_free(bp_scene *scene)
{
    free(scene->balls);
    free(scene->walls);
    free(scene->contacts);
    scene->balls = NULL;
    scene->walls = NULL;
    scene->contacts = NULL;
    scene->ball_count = scene->ball_capacity = 0;
    scene->wall_count = scene->wall_capacity = 0;
    scene->contact_count = scene->contact_capacity = 0;
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
        {"asleep", &b.asleep, false, false}, {"grounded", &b.grounded, false, false},
    };
    int rc = read_pairs(rest, keys, sizeof keys / sizeof keys[0], name, line, err, err_size);
    if (rc)
        return rc;
    const char *why = bp_check_radius(b.r);
    if (!why && !(b.asleep == 0.0 || b.asleep == 1.0))
        why = "asleep must be 0 or 1";
    if (!why && !(b.grounded == 0.0 || b.grounded == 1.0))
        why = "grounded must be 0 or 1";
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

/* A place (a ball's, a wall's or a side's): a whole number, 0 up. */
static bool place_of(double value, uint32_t *place)
{
    if (!(value >= 0.0 && value <= (double)UINT32_MAX - 1.0) || value != floor(value))
        return false;
    *place = (uint32_t)value;
    return true;
}

static int parse_contact(bp_scene *scene, char *rest, const char *name, int line, char *err,
                         size_t err_size)
{
    double a = 0.0, b = 0.0, side = 0.0, wall = 0.0;
    bp_scene_contact c = {.line = line};
    bp_contact_impulse *j = &c.impulse;
    key_spec keys[] = {
        {"a", &a, true, false},       {"b", &b, false, false},  {"side", &side, false, false},
        {"wall", &wall, false, false}, {"jn", &j->jn, true, false}, {"jt", &j->jt, false, false},
        {"jr", &j->jr, false, false},
    };
    int rc = read_pairs(rest, keys, sizeof keys / sizeof keys[0], name, line, err, err_size);
    if (rc)
        return rc;
    int others = keys[1].seen + keys[2].seen + keys[3].seen;
    const char *why = NULL;
    if (others != 1)
        why = "a contact joins ball a and one of b=, side= or wall=";
    else if (!place_of(a, &j->a))
        why = "a must be a ball's place: 0, 1, 2, ...";
    else if (keys[1].seen) {
        j->kind = BP_CONTACT_WITH_BALL;
        if (!place_of(b, &j->b) || j->b <= j->a)
            why = "b must be a ball's place after a's";
    } else if (keys[2].seen) {
        j->kind = BP_CONTACT_WITH_SIDE;
        if (!place_of(side, &j->b) || j->b > 3)
            why = "side must be 0, 1, 2 or 3";
    } else {
        j->kind = BP_CONTACT_WITH_WALL;
        if (!place_of(wall, &j->b))
            why = "wall must be a wall's place: 0, 1, 2, ...";
    }
    if (why)
        return line_error(err, err_size, name, line, why, NULL);
    if (scene->contact_count >= BP_SCENE_MAX_CONTACTS)
        return line_error(err, err_size, name, line, "too many contacts", NULL);
    if (!bp_reserve((void **)&scene->contacts, &scene->contact_capacity,
                    scene->contact_count + 1, sizeof c)) {
        snprintf(err, err_size, "%s:%d: out of memory", name, line);
        return 1;
    }
    scene->contacts[scene->contact_count++] = c;
    return 0;
}

int bp_scene_parse(bp_scene *scene, const char *name, const char *text, char *err,
                   size_t err_size)
{
    return bp_scene_parse_at(scene, name, 1, text, err, err_size);
}

int bp_scene_parse_at(bp_scene *scene, const char *name, int first_line, const char *text,
                      char *err, size_t err_size)
{
    *scene = (bp_scene){.params = bp_params_default()};
    int line = first_line - 1;
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
        else if (strcmp(keyword, "contact") == 0)
            rc = parse_contact(scene, rest, name, line, err, err_size);
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

/* The scene's contacts, their places made ids, given to the world: the
 * balls got ids from first_id on in the scene's order, the walls indices
 * from wall_base on. The world checks the impulses; a contact it refuses
 * is reported at its line. Under the passes, which keep no impulses, the
 * lines are checked and then left. */
static int build_contacts(const bp_scene *scene, const char *name, bp_world *world,
                          uint32_t first_id, size_t wall_base, char *err, size_t err_size)
{
    if (scene->contact_count == 0)
        return 0;
    bp_contact_impulse *in = malloc(scene->contact_count * sizeof *in);
    if (!in) {
        snprintf(err, err_size, "%s: out of memory", name);
        return 1;
    }
    for (size_t k = 0; k < scene->contact_count; k++) {
        const bp_scene_contact *c = &scene->contacts[k];
        bp_contact_impulse j = c->impulse;
        bool ball_b = j.kind == BP_CONTACT_WITH_BALL, wall_b = j.kind == BP_CONTACT_WITH_WALL;
        const char *why = NULL;
        if (j.a >= scene->ball_count || (ball_b && j.b >= scene->ball_count))
            why = "the contact names a ball the scene does not have";
        else if (wall_b && j.b >= scene->wall_count)
            why = "the contact names a wall the scene does not have";
        if (why) {
            free(in);
            return line_error(err, err_size, name, c->line, why, NULL);
        }
        j.a += first_id;
        j.b += ball_b ? first_id : wall_b ? (uint32_t)wall_base : 0;
        in[k] = j;
    }
    size_t refused;
    const char *why = bp_world_set_contact_impulses(world, in, scene->contact_count, &refused);
    free(in);
    if (!why || (refused == scene->contact_count && world->params.solver != BP_SOLVER_SOFT))
        return 0;
    if (refused < scene->contact_count)
        return line_error(err, err_size, name, scene->contacts[refused].line, why, NULL);
    snprintf(err, err_size, "%s: %s", name, why);
    return 1;
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
    size_t wall_base = world->wall_count - scene->wall_count;
    uint32_t first_id = world->next_id;
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
        if (b->grounded == 1.0)
            world->flags[world->count - 1] |= BP_BALL_GROUNDED;
    }
    /* Before the first pairing (bp_placed_settle, then each step), which
     * keeps every overlapping pair: balls piled on one spot by the
     * thousand are refused rather than exhausting memory. */
    size_t overlaps = bp_count_overlaps(world->x, world->y, world->r, world->count,
                                        BP_CROWD_MAX_OVERLAPS);
    if (overlaps == (size_t)-1) {
        snprintf(err, err_size, "%s: out of memory", name);
        return 1;
    }
    if (overlaps > BP_CROWD_MAX_OVERLAPS) {
        snprintf(err, err_size,
                 "%s: balls too crowded: more than %u pairs of them overlap (about 5,700 "
                 "balls at one point); spread them out",
                 name, BP_CROWD_MAX_OVERLAPS);
        return 2;
    }
    /* Sleepers last, once every ball is in: a pile saved at rest comes
     * back at rest, the same picture, until something disturbs it. */
    for (size_t i = 0; i < scene->ball_count; i++)
        if (scene->balls[i].asleep == 1.0)
            bp_world_sleep(world, base + i);
    /* ... but none that could not be at rest: pressed in, or touching nothing. */
    if (!bp_placed_settle(world)) {
        snprintf(err, err_size, "%s: out of memory", name);
        return 1;
    }
    return build_contacts(scene, name, world, first_id, wall_base, err, err_size);
}

/* The impulses the contacts carry, as contact lines naming balls by their
 * place in the file (balls go out in id order) and walls by theirs: a pile
 * loaded back, awake or woken, starts from the impulses that held it.
 * false when memory runs out. */
static bool save_contacts(const bp_world *world, FILE *out)
{
    size_t count = bp_world_get_contact_impulses(world, NULL, 0);
    if (count == 0)
        return true;
    bp_contact_impulse *list = malloc(count * sizeof *list);
    uint32_t *place = malloc(((size_t)world->next_id + 1) * sizeof *place);
    if (!list || !place) {
        free(list);
        free(place);
        return false;
    }
    bp_world_get_contact_impulses(world, list, count);
    uint32_t next = 0;
    for (uint32_t id = 0; id < world->next_id; id++)
        place[id] = bp_world_index_of(world, id) >= 0 ? next++ : UINT32_MAX;
    static const char *const other[] = {"b", "side", "wall"};
    for (size_t k = 0; k < count; k++) {
        const bp_contact_impulse *c = &list[k];
        bool ball_b = c->kind == BP_CONTACT_WITH_BALL;
        fprintf(out, "contact a=%u %s=%u jn=%.17g jt=%.17g jr=%.17g\n", place[c->a],
                other[c->kind], ball_b ? place[c->b] : c->b, c->jn, c->jt, c->jr);
    }
    free(list);
    free(place);
    return true;
}

bool bp_scene_fits(const bp_world *world, char *why, size_t why_size)
{
    size_t contacts = bp_world_get_contact_impulses(world, NULL, 0);
    if (world->count > BP_SCENE_MAX_BALLS)
        snprintf(why, why_size, "%zu balls; a scene file holds at most %u", world->count,
                 BP_SCENE_MAX_BALLS);
    else if (world->wall_count > BP_SCENE_MAX_WALLS)
        snprintf(why, why_size, "%zu walls; a scene file holds at most %u", world->wall_count,
                 BP_SCENE_MAX_WALLS);
    else if (contacts > BP_SCENE_MAX_CONTACTS)
        snprintf(why, why_size, "%zu kept contacts; a scene file holds at most %u", contacts,
                 BP_SCENE_MAX_CONTACTS);
    else
        return true;
    return false;
}

bool bp_scene_save(const bp_world *world, FILE *out)
{
    char why[128];
    if (!bp_scene_fits(world, why, sizeof why))
        return false; /* it would not load back */
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
        fprintf(out, "ball x=%.17g y=%.17g r=%.17g vx=%.17g vy=%.17g m=%.17g w=%.17g angle=%.17g%s%s\n",
                world->x[i], world->y[i], world->r[i], world->vx[i], world->vy[i], world->mass[i],
                world->w[i], world->angle[i],
                (world->flags[i] & BP_BALL_ASLEEP) ? " asleep=1" : "",
                (world->flags[i] & BP_BALL_GROUNDED) ? " grounded=1" : "");
    }
    return save_contacts(world, out) && fflush(out) == 0 && !ferror(out);
}
