/* The frame dump (--dump; format in docs/cli.md): DIR/frames.csv, one row per ball per dumped
 * step, in id order, numbers that round-trip. Columns: frame,t,id,x,y,vx,vy,r, then the
 * rotation's angle and w, then grounded. */
#ifndef BP_DUMP_H
#define BP_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rowsfile.h"
#include "ballpit/ballpit.h"

typedef struct bp_dump {
    bp_rows_file csv;
    char *dir;
} bp_dump;

/* Creates dir (and its parents) if needed, removes the frame-NNNNNN.png
 * files an earlier run left there, and starts frames.csv with its header.
 * false with a one-line message in err on failure. */
bool bp_dump_open(bp_dump *dump, const char *dir, char *err, size_t err_size);
/* Appends every ball of the world as frame number frame. On a failed
 * write the file is cut back to its last whole frame and closed. */
bool bp_dump_frame(bp_dump *dump, const bp_world *world, unsigned long long frame, char *err,
                   size_t err_size);
/* Flushes and closes; false if anything written was lost. */
bool bp_dump_close(bp_dump *dump, char *err, size_t err_size);

/* Creates a directory and its missing parents (mkdir -p). */
bool bp_make_dirs(const char *dir, char *err, size_t err_size);

#endif
