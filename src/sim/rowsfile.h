/* Output files that hold whole frames only (frames.csv, energy.csv): each
 * frame is flushed as it ends, and a file whose write fails (a full disk)
 * is cut back to the end of its last whole frame, so a reader never meets
 * half a row. */
#ifndef BP_ROWSFILE_H
#define BP_ROWSFILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct bp_rows_file {
    FILE *out;
    long whole; /* bytes of whole frames on disk */
} bp_rows_file;

/* Opens path for writing (truncated) and writes head, flushed; false
 * (errno set, nothing left open) on failure. */
bool bp_rows_open(bp_rows_file *f, const char *path, const char *head);
/* Ends a frame: flushes it. false if it, or any row of it, could not be
 * written (or the file was closed by an earlier failure); the file is then
 * cut back to the last whole frame and closed. */
bool bp_rows_end_frame(bp_rows_file *f);
/* After a failed write within a frame: cuts the file back to its last
 * whole frame and closes it; false if it could not be cut. errno kept. */
bool bp_rows_abandon(bp_rows_file *f);
/* Closes; false if anything written was lost (the file then cut back). */
bool bp_rows_close(bp_rows_file *f);

#endif
