#include "params.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "tolerances.h"

bp_params bp_params_default(void)
{
    return (bp_params){
        .width = 1024.0,
        .height = 768.0,
        .gravity = 980.0,
        .restitution = 0.9,
        .friction = 0.1,
        .rolling = 0.01,
        .drag = 0.05,
        .hz = 120.0,
    };
}

const char *bp_params_check(const bp_params *p)
{
    if (!(isfinite(p->width) && p->width >= 16.0 && p->width <= 1e6))
        return "arena width must be between 16 and 1000000 px";
    if (!(isfinite(p->height) && p->height >= 16.0 && p->height <= 1e6))
        return "arena height must be between 16 and 1000000 px";
    if (!(isfinite(p->gravity) && fabs(p->gravity) <= 1e7))
        return "gravity must be a finite number within +-1e7 px/s^2";
    if (!(p->restitution >= 0.0 && p->restitution <= 1.0))
        return "restitution must be between 0 and 1";
    if (!(p->friction >= 0.0 && p->friction <= 1.0))
        return "friction must be between 0 and 1";
    if (!(p->rolling >= 0.0 && p->rolling <= 1.0))
        return "rolling must be between 0 and 1";
    if (!(isfinite(p->drag) && p->drag >= 0.0 && p->drag <= 1000.0))
        return "drag must be between 0 and 1000 per second";
    if (!(isfinite(p->hz) && p->hz >= 1.0 && p->hz <= 100000.0))
        return "hz must be between 1 and 100000";
    if (!bp_solver_name(p->solver))
        return "solver must be passes or soft";
    return NULL;
}

int bp_solver_named(const char *name)
{
    for (int k = BP_SOLVER_PASSES; k <= BP_SOLVER_SOFT; k++)
        if (strcmp(name, bp_solver_name(k)) == 0)
            return k;
    return -1;
}

const char *bp_solver_name(int64_t solver)
{
    return solver == BP_SOLVER_PASSES ? "passes" : solver == BP_SOLVER_SOFT ? "soft" : NULL;
}

double bp_params_rest_speed(const bp_params *p)
{
    return BP_REST_SPEED_OVER_G_STEP * fabs(p->gravity) / p->hz;
}
