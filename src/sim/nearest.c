#include "nearest.h"

#include <stdint.h>

static size_t least(size_t a, size_t b)
{
    return a < b ? a : b;
}

size_t bp_edit_distance(const char *a, size_t a_len, const char *b, size_t b_len)
{
    if (a_len > BP_NEAREST_MAX || b_len > BP_NEAREST_MAX)
        return SIZE_MAX;
    /* d[i][j]: edits from a's first i characters to b's first j. */
    size_t d[BP_NEAREST_MAX + 1][BP_NEAREST_MAX + 1];
    for (size_t i = 0; i <= a_len; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= b_len; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= a_len; i++)
        for (size_t j = 1; j <= b_len; j++) {
            size_t best = least(d[i - 1][j], d[i][j - 1]) + 1;
            best = least(best, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]));
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                best = least(best, d[i - 2][j - 2] + 1); /* two neighbours swapped */
            d[i][j] = best;
        }
    return d[a_len][b_len];
}

bool bp_near_enough(size_t distance, size_t len)
{
    return distance <= 2 && 3 * distance <= len;
}
