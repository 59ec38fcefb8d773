/* The nearest of a few names to a mistyped one, for "did you mean" hints on
 * the command line (options, example scenes). */
#ifndef BP_NEAREST_H
#define BP_NEAREST_H

#include <stdbool.h>
#include <stddef.h>

/* Longest text compared; longer ones are never near anything. */
#define BP_NEAREST_MAX 63

/* Edits (insert, delete, replace a character, or swap two neighbours) that
 * turn a[0..a_len) into b[0..b_len); SIZE_MAX if either is longer than
 * BP_NEAREST_MAX. */
size_t bp_edit_distance(const char *a, size_t a_len, const char *b, size_t b_len);

/* Whether a name typed with len characters, distance edits from a real
 * one, is likely a typo of it: at most 2 edits, and at most one per 3
 * characters, so that short names do not all look alike. */
bool bp_near_enough(size_t distance, size_t len);

#endif
