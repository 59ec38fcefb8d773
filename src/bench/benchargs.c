#include "benchargs.h"

#include <stdio.h>
#include <string.h>

#include "numparse.h"

bool bp_args_number(const char *program, const char *option, const char *text, uint64_t low,
                    uint64_t high, uint64_t *out)
{
    if (text && bp_parse_u64(text, high, out) && *out >= low)
        return true;
    fprintf(stderr, "%s: %s wants a whole number from %llu to %llu\n", program, option,
            (unsigned long long)low, (unsigned long long)high);
    return false;
}

/* The index of the name list[0..length) among names, or count. */
static size_t index_of(const char *name, size_t length, const char *const *names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strlen(names[i]) == length && strncmp(names[i], name, length) == 0)
            return i;
    return count;
}

bool bp_args_engines(const char *program, const char *list, const char *const *names,
                     size_t count, size_t *picked, size_t *picked_count)
{
    *picked_count = 0;
    for (const char *name = list;; name++) {
        size_t length = strcspn(name, ",");
        size_t i = index_of(name, length, names, count);
        if (i == count) {
            fprintf(stderr, "%s: --engines: '%.*s' is not an engine built in\n", program,
                    (int)length, name);
            return false;
        }
        for (size_t k = 0; k < *picked_count; k++)
            if (picked[k] == i) {
                fprintf(stderr, "%s: --engines: %s twice\n", program, names[i]);
                return false;
            }
        picked[(*picked_count)++] = i;
        name += length;
        if (!*name)
            return true;
    }
}
