/* The command lines of the comparison programs (compare.c, stir.c): a
 * number within its range, and a list of engines picked by name. Each
 * prints its own one-line message, led by the program's name. */
#ifndef BP_BENCHARGS_H
#define BP_BENCHARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The value of option, a whole number from low to high, into *out. */
bool bp_args_number(const char *program, const char *option, const char *text, uint64_t low,
                    uint64_t high, uint64_t *out);

/* The engines to pick from: count entries of a table, stride bytes apart,
 * each a struct whose first member is its name (const char *). */
typedef struct bp_args_table {
    const void *first;
    size_t stride, count;
} bp_args_table;

/* A comma-separated list of names, each one of the table's and at most
 * once: their indices into picked[] (room for table.count), *picked_count
 * of them. */
bool bp_args_engines(const char *program, const char *list, bp_args_table table, size_t *picked,
                     size_t *picked_count);

/* Prints text, then the table's names, to stderr; returns 2 (the exit
 * status of a bad command line). */
int bp_args_usage(const char *text, bp_args_table table);

#endif
