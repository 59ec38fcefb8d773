#include "numparse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

bool bp_parse_double(const char *text, double *out)
{
    if (!text || !*text || isspace((unsigned char)text[0]))
        return false;
    /* strtod would take hex floats and "infinity"; a user means neither. */
    for (const char *c = text; *c; c++)
        if (!(isdigit((unsigned char)*c) || *c == '.' || *c == '-' || *c == '+' || *c == 'e' ||
              *c == 'E'))
            return false;
    char *end = NULL;
    errno = 0;
    double value = strtod(text, &end);
    /* ERANGE on a tiny value is an underflow to (nearly) zero: a number all
     * the same. On a huge one, the infinity below says no. */
    if (end == text || *end != '\0' || !isfinite(value) || (errno == ERANGE && fabs(value) >= 1.0))
        return false;
    *out = value;
    return true;
}

bool bp_parse_u64(const char *text, uint64_t max, uint64_t *out)
{
    if (!text || !*text)
        return false;
    uint64_t value = 0;
    for (const char *c = text; *c; c++) {
        if (!isdigit((unsigned char)*c))
            return false;
        unsigned digit = (unsigned)(*c - '0');
        if (value > (UINT64_MAX - digit) / 10u)
            return false;
        value = value * 10u + digit;
    }
    if (value > max)
        return false;
    *out = value;
    return true;
}
