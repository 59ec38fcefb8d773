#include "replay.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numparse.h"
#include "program.h"
#include "scene.h"
#include "textfile.h"

#define BP_INPUT_HEADER "ballpit-input 1"

static const char *const kind_names[] = {
    [BP_INPUT_GRAB] = "grab",   [BP_INPUT_MOVE] = "move",     [BP_INPUT_RELEASE] = "release",
    [BP_INPUT_PAUSE] = "pause", [BP_INPUT_RESUME] = "resume", [BP_INPUT_RESET] = "reset",
    [BP_INPUT_SPAWN] = "spawn", [BP_INPUT_DELETE] = "delete", [BP_INPUT_SET] = "set",
    [BP_INPUT_WALL] = "wall",   [BP_INPUT_UNWALL] = "unwall", [BP_INPUT_WALL_END] = "wallend",
    [BP_INPUT_INSPECT] = "inspect", [BP_INPUT_DELWALL] = "delwall", [BP_INPUT_REMOVE] = "remove",
    [BP_INPUT_REWIND] = "rewind", [BP_INPUT_RESTORE] = "restore", [BP_INPUT_SCENE] = "scene",
};
/* Numeric arguments of each kind (set has a name first, then one). */
static const int kind_args[] = {
    [BP_INPUT_GRAB] = 2,  [BP_INPUT_MOVE] = 2,   [BP_INPUT_RELEASE] = 2, [BP_INPUT_PAUSE] = 0,
    [BP_INPUT_RESUME] = 0, [BP_INPUT_RESET] = 0, [BP_INPUT_SPAWN] = 3,   [BP_INPUT_DELETE] = 2,
    [BP_INPUT_SET] = 1,   [BP_INPUT_WALL] = 5,   [BP_INPUT_UNWALL] = 2, [BP_INPUT_WALL_END] = 4,
    [BP_INPUT_INSPECT] = 1, [BP_INPUT_DELWALL] = 1, [BP_INPUT_REMOVE] = 1,
    [BP_INPUT_REWIND] = 1, [BP_INPUT_RESTORE] = 9, [BP_INPUT_SCENE] = 1,
};
/* Words a line may hold: a step, a kind and the most numbers (restore's). */
#define BP_INPUT_WORDS_MAX 11
#define BP_INPUT_KINDS (sizeof kind_names / sizeof kind_names[0])

static const char *const param_names[] = {
    [BP_PARAM_GRAVITY] = "gravity",
    [BP_PARAM_RESTITUTION] = "restitution",
    [BP_PARAM_FRICTION] = "friction",
    [BP_PARAM_DRAG] = "drag",
    [BP_PARAM_ROLLING] = "rolling",
    [BP_PARAM_HZ] = "hz",
};
#define BP_INPUT_PARAMS (sizeof param_names / sizeof param_names[0])

const char *bp_input_kind_name(bp_input_kind kind)
{
    return (size_t)kind < BP_INPUT_KINDS ? kind_names[kind] : "?";
}

const char *bp_input_param_name(bp_input_param param)
{
    return (size_t)param < BP_INPUT_PARAMS ? param_names[param] : "?";
}

bool bp_input_writer_open(bp_input_writer *w, const char *path, char *err, size_t err_size)
{
    *w = (bp_input_writer){0};
    w->path = malloc(strlen(path) + 1);
    if (!w->path) {
        snprintf(err, err_size, "%s: out of memory", path);
        return false;
    }
    strcpy(w->path, path);
    w->out = fopen(path, "w");
    if (!w->out || fprintf(w->out, "%s\n", BP_INPUT_HEADER) < 0 || fflush(w->out) != 0) {
        snprintf(err, err_size, "%s: cannot write: %s", path, strerror(errno));
        if (w->out)
            fclose(w->out);
        free(w->path);
        *w = (bp_input_writer){0};
        return false;
    }
    return true;
}

size_t bp_input_scene_lines(const char *text)
{
    size_t lines = 0, len = strlen(text);
    for (const char *p = text; (p = strchr(p, '\n')) != NULL; p++)
        lines++;
    return lines + (len > 0 && text[len - 1] != '\n');
}

/* " N", the line's end, then the scene's N lines but for the last one's
 * newline (the caller ends the line). Negative on a write error. */
static int put_scene_text(FILE *out, const char *text)
{
    size_t len = strlen(text);
    if (len > 0 && text[len - 1] == '\n')
        len--;
    size_t lines = bp_input_scene_lines(text);
    int n = fprintf(out, " %zu", lines);
    if (n >= 0 && lines > 0 && (fputc('\n', out) == EOF || fwrite(text, 1, len, out) != len))
        n = -1;
    return n;
}

bool bp_input_writer_put(bp_input_writer *w, const bp_input *in, char *err, size_t err_size)
{
    if (!w->out)
        return true;
    int n = fprintf(w->out, "%llu %s", (unsigned long long)in->step, bp_input_kind_name(in->kind));
    if (n >= 0 && in->kind == BP_INPUT_SET)
        n = fprintf(w->out, " %s", bp_input_param_name(in->param));
    /* A spawn's mass only when it is not the default (old files stay as they were). */
    int args = kind_args[in->kind] + (in->kind == BP_INPUT_SPAWN && in->v[3] != 0.0);
    if (in->kind == BP_INPUT_SCENE)
        args = 0; /* its line count comes from the text */
    for (int k = 0; n >= 0 && k < args; k++)
        n = fprintf(w->out, " %.17g", in->v[k]);
    if (n >= 0 && in->kind == BP_INPUT_SCENE)
        n = put_scene_text(w->out, in->text);
    if (n < 0 || fputc('\n', w->out) == EOF || fflush(w->out) != 0) {
        snprintf(err, err_size, "%s: write failed: %s", w->path, strerror(errno));
        return false;
    }
    return true;
}

bool bp_input_writer_close(bp_input_writer *w, uint64_t end_step, char *err, size_t err_size)
{
    if (!w->out)
        return true;
    bool ok = fprintf(w->out, "end %llu\n", (unsigned long long)end_step) >= 0;
    ok = !ferror(w->out) && ok;
    if (fclose(w->out) != 0 || !ok) {
        snprintf(err, err_size, "%s: write failed: %s", w->path, strerror(errno));
        ok = false;
    }
    free(w->path);
    *w = (bp_input_writer){0};
    return ok;
}

static int fail(char *err, size_t err_size, const char *name, int line, const char *why,
                const char *what)
{
    if (what)
        snprintf(err, err_size, "%s:%d: %s '%s'", name, line, why, what);
    else
        snprintf(err, err_size, "%s:%d: %s", name, line, why);
    return 2;
}

/* Splits a line (comment already cut) into at most max tokens; returns how
 * many there were, max + 1 meaning too many. */
static int split(char *line, char **tokens, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (!*p)
            return n;
        if (n == max)
            return max + 1;
        tokens[n++] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r')
            p++;
        if (*p)
            *p++ = '\0';
    }
}

static bool push(bp_replay *rp, const bp_input *in)
{
    if (rp->count == rp->capacity) {
        size_t capacity = rp->capacity ? rp->capacity * 2 : 256;
        bp_input *grown = realloc(rp->inputs, capacity * sizeof *grown);
        if (!grown)
            return false;
        rp->inputs = grown;
        rp->capacity = capacity;
    }
    rp->inputs[rp->count++] = *in;
    return true;
}

/* A restored ball's numbers (id x y r m vx vy w angle), held to a
 * scene's ball's limits. NULL when fine. */
static const char *check_restore(const double *v)
{
    if (!(v[0] >= 0.0 && v[0] < 4294967295.0 && v[0] == floor(v[0])))
        return "restore takes a ball id first";
    if (!(fabs(v[1]) <= BP_CURSOR_MAX && fabs(v[2]) <= BP_CURSOR_MAX))
        return "number out of range (at most 1e9 either way)";
    const char *why = bp_check_radius(v[3]);
    why = why ? why : bp_check_mass(v[4]);
    why = why ? why : bp_check_velocity(v[5], v[6]);
    why = why ? why : bp_check_spin(v[7]);
    return why ? why : bp_check_angle(v[8]);
}

/* Range checks that do not depend on the world, the same as a scene's or
 * the command line's (limits.h). NULL when fine. */
static const char *check_input(const bp_input *in)
{
    /* Positions are clamped to the arena where they act; beyond this they
     * are nothing a cursor produced (ids and wall numbers are below it too). */
    int n = kind_args[in->kind];
    if (in->kind == BP_INPUT_RESTORE)
        return check_restore(in->v);
    if (in->kind != BP_INPUT_SET)
        for (int k = 0; k < n; k++)
            if (!(fabs(in->v[k]) <= BP_CURSOR_MAX))
                return "number out of range (at most 1e9 either way)";
    if (in->kind == BP_INPUT_RELEASE)
        return bp_check_velocity(in->v[0], in->v[1]);
    if (in->kind == BP_INPUT_SPAWN && in->v[3] != 0.0 && !bp_check_radius(in->v[2]))
        return bp_check_mass(in->v[3]);
    if (in->kind == BP_INPUT_SPAWN)
        return bp_check_radius(in->v[2]);
    if (in->kind == BP_INPUT_WALL)
        return bp_check_wall_radius(in->v[4]);
    if (in->kind == BP_INPUT_WALL_END &&
        !(in->v[0] >= 0.0 && in->v[0] == floor(in->v[0]) && (in->v[1] == 0.0 || in->v[1] == 1.0)))
        return "wallend takes a wall number and an end, 0 or 1";
    if ((in->kind == BP_INPUT_DELWALL || in->kind == BP_INPUT_REMOVE) &&
        !(in->v[0] >= 0.0 && in->v[0] <= 4294967295.0 && in->v[0] == floor(in->v[0])))
        return "takes a whole number";
    if (in->kind == BP_INPUT_SCENE && !(in->v[0] >= 0.0 && in->v[0] == floor(in->v[0])))
        return "scene takes its number of lines";
    if (in->kind == BP_INPUT_INSPECT &&
        !(in->v[0] >= -1.0 && in->v[0] <= 4294967295.0 && in->v[0] == floor(in->v[0])))
        return "inspect takes a ball id or -1";
    if (in->kind == BP_INPUT_SET) {
        bp_params p = bp_params_default();
        double *field[] = {&p.gravity, &p.restitution, &p.friction, &p.drag, &p.rolling, &p.hz};
        *field[in->param] = in->v[0];
        return bp_params_check(&p);
    }
    return NULL;
}

/* Parses one statement (tokens of a non-blank line). */
static int parse_statement(bp_replay *rp, char **tok, int n, const char *name, int line,
                           bool *ended, char *err, size_t err_size)
{
    uint64_t last_step = rp->count ? rp->inputs[rp->count - 1].step : 0;
    /* After a rewind, steps count again from where it went back to. */
    if (rp->count && rp->inputs[rp->count - 1].kind == BP_INPUT_REWIND)
        last_step = (uint64_t)rp->inputs[rp->count - 1].v[0];
    if (*ended)
        return fail(err, err_size, name, line, "input after the end line", NULL);
    if (strcmp(tok[0], "end") == 0) {
        if (n != 2)
            return fail(err, err_size, name, line, "expected 'end STEP'", NULL);
        if (!bp_parse_u64(tok[1], BP_STEPS_MAX, &rp->end_step))
            return fail(err, err_size, name, line, "end step is not a count from 0 to 10^12",
                        tok[1]);
        if (rp->end_step < last_step)
            return fail(err, err_size, name, line, "end comes before the last input", NULL);
        *ended = true;
        return 0;
    }
    bp_input in = {.line = line};
    if (!bp_parse_u64(tok[0], BP_STEPS_MAX, &in.step))
        return fail(err, err_size, name, line, "expected a step number from 0 to 10^12, got",
                    tok[0]);
    if (in.step < last_step)
        return fail(err, err_size, name, line, "step goes backwards", tok[0]);
    if (n < 2)
        return fail(err, err_size, name, line, "missing the input kind", NULL);
    size_t kind = 0;
    while (kind < BP_INPUT_KINDS && strcmp(tok[1], kind_names[kind]) != 0)
        kind++;
    if (kind == BP_INPUT_KINDS)
        return fail(err, err_size, name, line, "unknown input", tok[1]);
    in.kind = (bp_input_kind)kind;
    int first = 2;
    if (in.kind == BP_INPUT_SET) {
        if (n < 3)
            return fail(err, err_size, name, line, "set needs a parameter name", NULL);
        size_t p = 0;
        while (p < BP_INPUT_PARAMS && strcmp(tok[2], param_names[p]) != 0)
            p++;
        if (p == BP_INPUT_PARAMS)
            return fail(err, err_size, name, line, "unknown parameter", tok[2]);
        in.param = (bp_input_param)p;
        first = 3;
    }
    int want = kind_args[in.kind];
    if (in.kind == BP_INPUT_SPAWN && n - first == want + 1)
        want++; /* spawn X Y R M: a mass other than the default r^2 */
    if (n - first != want) {
        char why[96];
        snprintf(why, sizeof why, "%s takes %d number%s, got %d", kind_names[in.kind], want,
                 want == 1 ? "" : "s", n - first);
        return fail(err, err_size, name, line, why, NULL);
    }
    for (int k = 0; k < want; k++)
        if (!bp_parse_double(tok[first + k], &in.v[k]))
            return fail(err, err_size, name, line, "not a finite number", tok[first + k]);
    const char *why = check_input(&in);
    if (!why && in.kind == BP_INPUT_REWIND &&
        !(in.v[0] >= 0.0 && in.v[0] == floor(in.v[0]) && in.v[0] <= (double)in.step))
        why = "rewind takes a step number no later than its own";
    if (!why && in.kind == BP_INPUT_REWIND && in.v[0] < (double)rp->scene_step)
        why = "rewind goes back past a scene load (the history starts again there)";
    if (why)
        return fail(err, err_size, name, line, why, NULL);
    if (in.kind == BP_INPUT_SCENE)
        rp->scene_step = in.step;
    return push(rp, &in) ? 0 : 1;
}

/* The text of the scene input just parsed at *line: the next v[0] lines
 * from *pos, each with its newline and no NUL, copied whole and checked as
 * a scene file (its lines numbered as the recording's). Moves *pos and
 * *line past them. 0, 2 with "NAME:LINE: message", or 1 (memory). */
static int take_scene_text(bp_replay *rp, const char *name, const char *text, size_t len,
                           size_t *pos, int *line, char *err, size_t err_size)
{
    bp_input *in = &rp->inputs[rp->count - 1];
    size_t lines = (size_t)in->v[0]; /* a whole number, at most 10^9 (check_input) */
    int first = *line + 1;
    size_t start = *pos;
    for (size_t k = 0; k < lines; k++) {
        const char *nl = *pos < len ? memchr(text + *pos, '\n', len - *pos) : NULL;
        if (!nl || *line == INT32_MAX - 1)
            return fail(err, err_size, name, *line + 1,
                        "truncated: the scene ends before its lines do", NULL);
        (*line)++;
        size_t n = (size_t)(nl - (text + *pos));
        if (memchr(text + *pos, '\0', n))
            return fail(err, err_size, name, *line, "not a text file", NULL);
        *pos += n + 1;
    }
    char *copy = malloc(*pos - start + 1);
    if (!copy)
        return 1;
    memcpy(copy, text + start, *pos - start);
    copy[*pos - start] = '\0';
    in->text = copy;
    if (!rp->name) {
        size_t n = strlen(name) + 1;
        if (!(rp->name = malloc(n)))
            return 1;
        memcpy(rp->name, name, n);
    }
    in->name = rp->name;
    bp_scene scene;
    int status = bp_scene_parse_at(&scene, name, first, copy, err, err_size);
    bp_scene_free(&scene);
    return status;
}

int bp_replay_parse(bp_replay *rp, const char *name, const char *text, size_t len, char *err,
                    size_t err_size)
{
    *rp = (bp_replay){0};
    bool ended = false;
    int line = 0;
    size_t pos = 0;
    char buf[512];
    while (pos < len) {
        line++;
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        int status = 0;
        if (!nl)
            status = fail(err, err_size, name, line, "truncated: the last line has no newline",
                          NULL);
        else if (n >= sizeof buf)
            status = fail(err, err_size, name, line, "line too long", NULL);
        else if (memchr(text + pos, '\0', n))
            status = fail(err, err_size, name, line, "not a text file", NULL);
        if (status) {
            bp_replay_free(rp);
            return status;
        }
        memcpy(buf, text + pos, n);
        buf[n] = '\0';
        pos += n + 1;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *tok[BP_INPUT_WORDS_MAX];
        int count = split(buf, tok, BP_INPUT_WORDS_MAX);
        if (line == 1) {
            if (count != 2 || strcmp(tok[0], "ballpit-input") != 0 || strcmp(tok[1], "1") != 0)
                status = fail(err, err_size, name, line,
                              "not an input recording (expected '" BP_INPUT_HEADER "')", NULL);
        } else if (count > 0) {
            size_t before = rp->count;
            status = parse_statement(rp, tok, count, name, line, &ended, err, err_size);
            if (status == 0 && rp->count > before && rp->inputs[before].kind == BP_INPUT_SCENE)
                status = take_scene_text(rp, name, text, len, &pos, &line, err, err_size);
        }
        if (status) {
            if (status == 1)
                snprintf(err, err_size, "%s:%d: out of memory", name, line);
            bp_replay_free(rp);
            return status;
        }
    }
    if (line == 0 || !ended) {
        fail(err, err_size, name, line + 1,
             line == 0 ? "empty file, not an input recording"
                       : "truncated: the recording has no 'end' line",
             NULL);
        bp_replay_free(rp);
        return 2;
    }
    return 0;
}

int bp_replay_load(bp_replay *rp, const char *path, char *err, size_t err_size)
{
    *rp = (bp_replay){0};
    char *text;
    size_t len;
    int status = bp_read_text_file(path, BP_TEXT_MAX_BYTES, &text, &len, err, err_size);
    if (status)
        return status;
    status = bp_replay_parse(rp, path, text, len, err, err_size);
    free(text);
    return status;
}

/* A scene input's scene built into a world of its own, as a load would
 * build it: 0 with its arena in *arena, or 2 with "NAME:LINE: message"
 * (a ball or a wall outside it), 1 when memory runs out. */
static int check_scene(const bp_input *in, const char *name, bp_params *arena, char *err,
                       size_t err_size)
{
    bp_scene scene;
    int status = bp_scene_parse_at(&scene, name, in->line + 1, in->text, err, err_size);
    bp_world *world = status ? NULL : bp_world_new(&scene.params);
    if (status == 0 && !world) {
        snprintf(err, err_size, "%s:%d: out of memory", name, in->line);
        status = 1;
    }
    if (world)
        status = bp_scene_build(&scene, name, world, err, err_size);
    if (status == 0)
        *arena = scene.params;
    bp_world_destroy(world);
    bp_scene_free(&scene);
    return status;
}

int bp_replay_check_arena(const bp_replay *rp, const bp_params *first, const char *name,
                          char *err, size_t err_size)
{
    bp_params now = *first;
    const bp_params *arena = &now;
    for (size_t k = 0; k < rp->count; k++) {
        const bp_input *in = &rp->inputs[k];
        const char *why = NULL;
        if (in->kind == BP_INPUT_SCENE) {
            int status = check_scene(in, name, &now, err, err_size);
            if (status)
                return status;
        } else if (in->kind == BP_INPUT_SPAWN)
            why = bp_check_ball_size(arena, in->v[2]);
        else if (in->kind == BP_INPUT_RESTORE) /* a ball as it was: where it was */
            why = bp_check_ball_in_arena(arena, in->v[1], in->v[2], in->v[3]);
        else if (in->kind == BP_INPUT_WALL)
            why = bp_check_wall_in_arena(arena,
                                         &(bp_wall){in->v[0], in->v[1], in->v[2], in->v[3], in->v[4]});
        else if (in->kind == BP_INPUT_WALL_END)
            why = bp_check_wall_in_arena(arena,
                                         &(bp_wall){in->v[2], in->v[3], in->v[2], in->v[3], 0.0});
        if (why)
            return fail(err, err_size, name, in->line, why, NULL);
    }
    return 0;
}

void bp_replay_free(bp_replay *rp)
{
    for (size_t k = 0; k < rp->count; k++)
        free(rp->inputs[k].text);
    free(rp->inputs);
    free(rp->name);
    *rp = (bp_replay){0};
}

bool bp_replay_rewinds(const bp_replay *rp)
{
    for (size_t k = 0; k < rp->count; k++)
        if (rp->inputs[k].kind == BP_INPUT_REWIND)
            return true;
    return false;
}

const bp_input *bp_replay_next(bp_replay *rp, uint64_t step)
{
    if (rp->next < rp->count && rp->inputs[rp->next].step <= step)
        return &rp->inputs[rp->next++];
    return NULL;
}
