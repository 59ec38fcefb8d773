#include "undo.h"

#include <string.h>

#include "program.h"

void bp_undo_clear(bp_undo *u)
{
    u->past_count = u->future_count = 0;
}

void bp_undo_end_drag(bp_undo *u)
{
    if (u->past_count > 0)
        u->past[u->past_count - 1].merge = false;
}

static double param_value(const bp_params *p, bp_input_param param)
{
    return param == BP_PARAM_GRAVITY       ? p->gravity
           : param == BP_PARAM_RESTITUTION ? p->restitution
           : param == BP_PARAM_FRICTION    ? p->friction
           : param == BP_PARAM_ROLLING     ? p->rolling
           : param == BP_PARAM_HZ          ? p->hz
                                           : p->drag;
}

/* What is about to change, read before in is applied. */
typedef struct before {
    size_t walls;
    uint32_t next_id;
    int64_t wall;    /* the wall in picks, or -1 */
    bp_wall wall_was;
    int64_t ball;    /* index of the ball in deletes, or -1 */
    double was[9];   /* that ball as a restore takes it: id x y r m vx vy w angle */
    double value;    /* the parameter in sets */
} before;

static before look_before(const bp_session *s, const bp_input *in)
{
    const bp_world *w = s->world;
    before b = {.walls = w->wall_count, .next_id = w->next_id, .wall = -1, .ball = -1};
    if (in->kind == BP_INPUT_UNWALL)
        b.wall = bp_session_wall_at(w, in->v[0], in->v[1]);
    if ((in->kind == BP_INPUT_DELWALL || in->kind == BP_INPUT_WALL_END) &&
        in->v[0] < (double)w->wall_count)
        b.wall = (int64_t)in->v[0];
    if (b.wall >= 0)
        b.wall_was = w->walls[b.wall];
    if (in->kind == BP_INPUT_DELETE) {
        int64_t id = bp_query_point(w, in->v[0], in->v[1]);
        b.ball = id >= 0 ? bp_world_index_of(w, (uint32_t)id) : -1;
    }
    if ((in->kind == BP_INPUT_REMOVE || in->kind == BP_INPUT_RESTORE) &&
        in->v[0] < (double)w->next_id)
        b.ball = bp_world_index_of(w, (uint32_t)in->v[0]);
    if (b.ball >= 0) {
        size_t i = (size_t)b.ball;
        double was[9] = {w->id[i], w->x[i], w->y[i],  w->r[i],    w->mass[i],
                         w->vx[i], w->vy[i], w->w[i], w->angle[i]};
        memcpy(b.was, was, sizeof was);
    }
    if (in->kind == BP_INPUT_SET)
        b.value = param_value(&w->params, in->param);
    return b;
}

/* The input that takes back in, given what was there before; false when
 * in changed nothing that undo keeps. */
static bool inverse(const bp_session *s, const bp_input *in, const before *b, bp_input *out)
{
    const bp_world *w = s->world;
    switch (in->kind) {
    case BP_INPUT_WALL:
        if (w->wall_count != b->walls + 1)
            return false;
        *out = (bp_input){.kind = BP_INPUT_DELWALL, .v = {(double)b->walls}};
        return true;
    case BP_INPUT_UNWALL:
    case BP_INPUT_DELWALL:
        if (b->wall < 0 || w->wall_count + 1 != b->walls)
            return false;
        /* Back as the last drawn. */
        *out = (bp_input){.kind = BP_INPUT_WALL,
                          .v = {b->wall_was.x1, b->wall_was.y1, b->wall_was.x2, b->wall_was.y2,
                                b->wall_was.r}};
        return true;
    case BP_INPUT_WALL_END: {
        if (b->wall < 0)
            return false;
        bool far = in->v[1] == 1.0;
        *out = (bp_input){.kind = BP_INPUT_WALL_END,
                          .v = {in->v[0], in->v[1], far ? b->wall_was.x2 : b->wall_was.x1,
                                far ? b->wall_was.y2 : b->wall_was.y1}};
        return true;
    }
    case BP_INPUT_SPAWN:
        if (w->next_id != b->next_id + 1)
            return false;
        *out = (bp_input){.kind = BP_INPUT_REMOVE, .v = {(double)b->next_id}};
        return true;
    case BP_INPUT_DELETE:
    case BP_INPUT_REMOVE:
        if (b->ball < 0)
            return false;
        *out = (bp_input){.kind = BP_INPUT_RESTORE};
        memcpy(out->v, b->was, sizeof b->was);
        return true;
    case BP_INPUT_RESTORE:
        if (b->ball >= 0 || bp_world_index_of(w, (uint32_t)in->v[0]) < 0)
            return false;
        *out = (bp_input){.kind = BP_INPUT_REMOVE, .v = {in->v[0]}};
        return true;
    case BP_INPUT_SET:
        if (param_value(&w->params, in->param) == b->value)
            return false;
        *out = (bp_input){.kind = BP_INPUT_SET, .param = in->param, .v = {b->value}};
        return true;
    default:
        return false;
    }
}

static void push(bp_edit *stack, int *count, bp_edit e)
{
    if (*count == BP_UNDO_MAX) {
        memmove(stack, stack + 1, (BP_UNDO_MAX - 1) * sizeof *stack);
        (*count)--;
    }
    stack[(*count)++] = e;
}

/* Applies in; its inverse, if any, into *undo. */
static int apply(bp_session *s, bp_input in, bp_input *undo, bool *edited, char *err,
                 size_t err_size)
{
    before b = look_before(s, &in);
    int status = bp_session_apply(s, &in, err, err_size);
    *edited = status == 0 && inverse(s, &in, &b, undo);
    return status;
}

int bp_undo_apply(bp_undo *u, bp_session *s, bp_input in, bool merge, char *err,
                  size_t err_size)
{
    bp_input undo;
    bool edited;
    int status = apply(s, in, &undo, &edited, err, err_size);
    if (!edited)
        return status;
    u->changed = true;
    u->future_count = 0;
    bp_edit *last = u->past_count > 0 ? &u->past[u->past_count - 1] : NULL;
    /* A drag's later moves of the same wall end, or of the same slider (a
     * parameter): undo goes back to where the drag began. */
    if (merge && last && last->merge && last->undo.kind == BP_INPUT_WALL_END &&
        undo.kind == BP_INPUT_WALL_END && last->undo.v[0] == undo.v[0] &&
        last->undo.v[1] == undo.v[1])
        return status;
    if (merge && last && last->merge && last->undo.kind == BP_INPUT_SET &&
        undo.kind == BP_INPUT_SET && last->undo.param == undo.param)
        return status;
    push(u->past, &u->past_count, (bp_edit){undo, merge});
    return status;
}

/* Pops from one stack, applies, pushes the way back onto the other. */
static bool swap(bp_edit *from, int *from_count, bp_edit *to, int *to_count, bp_session *s,
                 int *status, char *err, size_t err_size)
{
    *status = 0;
    if (*from_count == 0)
        return false;
    bp_edit e = from[--*from_count];
    bp_input back;
    bool edited;
    *status = apply(s, e.undo, &back, &edited, err, err_size);
    if (edited)
        push(to, to_count, (bp_edit){back, false});
    return true;
}

/* bp_undo_undo and bp_undo_redo: a swap that changed the world is an edit. */
static bool swap_edit(bp_undo *u, bool redo, bp_session *s, int *status, char *err,
                      size_t err_size)
{
    bool done = redo ? swap(u->future, &u->future_count, u->past, &u->past_count, s, status, err,
                            err_size)
                     : swap(u->past, &u->past_count, u->future, &u->future_count, s, status, err,
                            err_size);
    u->changed |= done && *status == 0;
    return done;
}

bool bp_undo_undo(bp_undo *u, bp_session *s, int *status, char *err, size_t err_size)
{
    return swap_edit(u, false, s, status, err, err_size);
}

bool bp_undo_redo(bp_undo *u, bp_session *s, int *status, char *err, size_t err_size)
{
    return swap_edit(u, true, s, status, err, err_size);
}
