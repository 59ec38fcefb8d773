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

/* A comma-separated list of names, each one of the count names and at most
 * once: their indices into picked[] (room for count), *picked_count of them. */
bool bp_args_engines(const char *program, const char *list, const char *const *names,
                     size_t count, size_t *picked, size_t *picked_count);

#endif
