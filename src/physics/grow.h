/* Growing arrays: the capacity doubles, so appending n items costs O(n). */
#ifndef BP_GROW_H
#define BP_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* The capacity that an array of capacity elements (64 when 0) doubles to
 * until it holds wanted, in *grown; false when its bytes (element_size
 * each) would overflow. */
static inline bool bp_grown_capacity(size_t capacity, size_t wanted, size_t element_size,
                                     size_t *grown)
{
    size_t g = capacity ? capacity : 64;
    while (g < wanted) {
        if (g > SIZE_MAX / 2)
            return false;
        g *= 2;
    }
    if (element_size != 0 && g > SIZE_MAX / element_size)
        return false;
    *grown = g;
    return true;
}

/* Makes *array (of *capacity elements of element_size bytes) hold at least
 * wanted elements. false, with the array unchanged, when memory runs out or
 * the size would overflow. */
static inline bool bp_reserve(void **array, size_t *capacity, size_t wanted,
                              size_t element_size)
{
    if (wanted <= *capacity)
        return true;
    size_t grown;
    if (!bp_grown_capacity(*capacity, wanted, element_size, &grown))
        return false;
    void *p = realloc(*array, grown * element_size);
    if (!p)
        return false;
    *array = p;
    *capacity = grown;
    return true;
}

#endif
