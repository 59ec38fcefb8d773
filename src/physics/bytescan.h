/* Finding the next flagged entry of a byte array eight bytes at a time: a
 * settled world of 100,000 balls has a handful awake, and a loop that tests
 * every ball's flag each step cost more than the balls awake did. */
#ifndef BP_BYTESCAN_H
#define BP_BYTESCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The first index from i on, below n, whose byte has bit set (want_set) or
 * clear (!want_set); n if there is none. bit is a single bit. */
static inline size_t bp_scan_bytes(const uint8_t *bytes, size_t i, size_t n, uint8_t bit,
                                   bool want_set)
{
    const uint64_t lanes = 0x0101010101010101ull * bit;
    const uint64_t none_wanted = want_set ? 0 : lanes; /* eight bytes, none of them wanted */
    if (i < n && ((bytes[i] & bit) != 0) == want_set)
        return i; /* the usual case while most balls are awake */
    for (;;) {
        for (; i < n && (i & 7) != 0; i++)
            if (((bytes[i] & bit) != 0) == want_set)
                return i;
        for (; i + 32 <= n; i += 32) {
            uint64_t w[4];
            memcpy(w, bytes + i, sizeof w);
            uint64_t all = want_set ? w[0] | w[1] | w[2] | w[3] : w[0] & w[1] & w[2] & w[3];
            if ((all & lanes) != none_wanted)
                break;
        }
        for (; i + 8 <= n; i += 8) {
            uint64_t w;
            memcpy(&w, bytes + i, sizeof w);
            if ((w & lanes) != none_wanted)
                break;
        }
        size_t end = i + 8 < n ? i + 8 : n;
        for (; i < end; i++)
            if (((bytes[i] & bit) != 0) == want_set)
                return i;
        if (i >= n)
            return n;
    }
}

#endif
