/* Strict number parsing for the command line and scene files: the whole
 * text must be the number, finite, with no leading space or trailing junk. */
#ifndef BP_NUMPARSE_H
#define BP_NUMPARSE_H

#include <stdbool.h>
#include <stdint.h>

bool bp_parse_double(const char *text, double *out);
/* Decimal digits only, at most max. */
bool bp_parse_u64(const char *text, uint64_t max, uint64_t *out);

#endif
