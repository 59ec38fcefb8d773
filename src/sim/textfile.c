#include "textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BP_TEXT_CHUNK ((size_t)1 << 16)

/* Offset of the first byte no text file holds, or n. */
static size_t first_binary(const char *p, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)p[k];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return k;
    }
    return n;
}

int bp_read_text_file(const char *path, size_t max_bytes, char **text, size_t *len, char *err,
                      size_t err_size)
{
    *text = NULL;
    *len = 0;
    /* Opened without waiting: a FIFO that no one writes to would block the
     * open for ever; so opened, it reads as empty. Reads then wait again,
     * for a pipe whose writer is slow. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    int flags = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
    FILE *f = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return 2;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
        snprintf(err, err_size, "%s: cannot read: %s", path,
                 S_ISDIR(st.st_mode) ? "is a directory" : strerror(errno));
        fclose(f);
        return 2;
    }
    if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > (unsigned long long)max_bytes) {
        snprintf(err, err_size, "%s: too large (%lld bytes; at most %zu MiB)", path,
                 (long long)st.st_size, max_bytes >> 20);
        fclose(f);
        return 2;
    }
    char *buf = NULL;
    size_t size = 0, capacity = 0;
    int status = 0;
    for (;;) {
        if (size + BP_TEXT_CHUNK + 1 > capacity) {
            size_t grown = capacity ? 2 * capacity : 4 * BP_TEXT_CHUNK;
            char *p = realloc(buf, grown);
            if (!p) {
                snprintf(err, err_size, "%s: out of memory", path);
                status = 1;
                break;
            }
            buf = p;
            capacity = grown;
        }
        size_t got = fread(buf + size, 1, BP_TEXT_CHUNK, f);
        size_t bad = first_binary(buf + size, got);
        if (bad < got) {
            /* FILE:LINE, as every other fault of a scene or recording. */
            size_t line = 1;
            for (size_t k = 0; k < size + bad; k++)
                line += buf[k] == '\n';
            snprintf(err, err_size, "%s:%zu: not a text file (byte 0x%02x at offset %zu)", path,
                     line, (unsigned char)buf[size + bad], size + bad);
            status = 2;
            break;
        }
        size += got;
        if (size > max_bytes) {
            snprintf(err, err_size, "%s: too large (more than %zu MiB)", path, max_bytes >> 20);
            status = 2;
            break;
        }
        if (got < BP_TEXT_CHUNK) {
            if (ferror(f)) {
                snprintf(err, err_size, "%s: cannot read: %s", path, strerror(errno));
                status = 2;
            }
            break;
        }
    }
    fclose(f);
    if (status) {
        free(buf);
        return status;
    }
    buf[size] = '\0';
    *text = buf;
    *len = size;
    return 0;
}
