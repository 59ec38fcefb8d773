/* Reading a text file that a user handed us (a scene, a recording) with a
 * size cap: a huge file, a device like /dev/zero or a binary file is bad
 * input, found out before much is read. */
#ifndef BP_TEXTFILE_H
#define BP_TEXTFILE_H

#include <stddef.h>

/* Largest scene or recording read, bytes: a saved scene of 2,000,000 balls
 * takes about 400 MiB. */
#define BP_TEXT_MAX_BYTES ((size_t)512 << 20)

/* Reads the whole file at path into *text (NUL-terminated, *len bytes
 * before the NUL; free() it). The file must be text: no NUL or other
 * control byte than tab, CR and LF. A regular file is measured before it is
 * read; anything else (a pipe, a device) is read in chunks and refused at
 * the first non-text byte or past max_bytes. Returns 0, 2 with "PATH: ..."
 * in err (cannot open, too large, not text), or 1 when memory runs out. */
int bp_read_text_file(const char *path, size_t max_bytes, char **text, size_t *len, char *err,
                      size_t err_size);

#endif
