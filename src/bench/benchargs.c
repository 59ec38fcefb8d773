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

/* Entry i's name: a pointer to a struct is one to its first member. */
static const char *name_at(bp_args_table table, size_t i)
{
    return *(const char *const *)((const char *)table.first + i * table.stride);
}

int bp_args_usage(const char *text, bp_args_table table)
{
    fputs(text, stderr);
    for (size_t i = 0; i < table.count; i++)
        fprintf(stderr, "%s%s", i ? "," : " ", name_at(table, i));
    fputs(")\n", stderr);
    return 2;
}

/* The index of the name list[0..length) in the table, or its count. */
static size_t index_of(const char *name, size_t length, bp_args_table table)
{
    for (size_t i = 0; i < table.count; i++)
        if (strlen(name_at(table, i)) == length && strncmp(name_at(table, i), name, length) == 0)
            return i;
    return table.count;
}

bool bp_args_engines(const char *program, const char *list, bp_args_table table, size_t *picked,
                     size_t *picked_count)
{
    *picked_count = 0;
    for (const char *name = list;; name++) {
        size_t length = strcspn(name, ",");
        size_t i = index_of(name, length, table);
        if (i == table.count) {
            fprintf(stderr, "%s: --engines: '%.*s' is not an engine built in\n", program,
                    (int)length, name);
            return false;
        }
        for (size_t k = 0; k < *picked_count; k++)
            if (picked[k] == i) {
                fprintf(stderr, "%s: --engines: %s twice\n", program, name_at(table, i));
                return false;
            }
        picked[(*picked_count)++] = i;
        name += length;
        if (!*name)
            return true;
    }
}
