/* Growing arrays: the capacity doubles, so appending n items costs O(n). */
#ifndef BP_GROW_H
#define BP_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Makes *array (of *capacity elements of element_size bytes) hold at least
 * wanted elements. false, with the array unchanged, when memory runs out or
 * the size would overflow. */
static inline bool bp_reserve(void **array, size_t *capacity, size_t wanted,
                              size_t element_size)
{
    if (wanted <= *capacity)
        return true;
    size_t grown = *capacity ? *capacity : 64;
    while (grown < wanted) {
        if (grown > SIZE_MAX / 2)
            return false;
        grown *= 2;
    }
    if (grown > SIZE_MAX / element_size)
        return false;
    void *p = realloc(*array, grown * element_size);
    if (!p)
        return false;
    *array = p;
    *capacity = grown;
    return true;
}

#endif
