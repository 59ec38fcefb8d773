#include "rowsfile.h"

#include <errno.h>
#include <unistd.h>

bool bp_rows_open(bp_rows_file *f, const char *path, const char *head)
{
    *f = (bp_rows_file){fopen(path, "w"), 0};
    if (!f->out)
        return false;
    if (fputs(head, f->out) == EOF || !bp_rows_end_frame(f))
        return false;
    return true;
}

bool bp_rows_end_frame(bp_rows_file *f)
{
    long at;
    if (!f->out)
        return false;
    if (fflush(f->out) != 0 || ferror(f->out) || (at = ftell(f->out)) < 0) {
        bp_rows_abandon(f);
        return false;
    }
    f->whole = at;
    return true;
}

bool bp_rows_abandon(bp_rows_file *f)
{
    if (!f->out)
        return true;
    int saved = errno;
    /* Closing may write what the buffer still holds, at any length: cut
     * after it, through a descriptor of its own. */
    int fd = dup(fileno(f->out));
    fclose(f->out);
    f->out = NULL;
    bool cut = fd >= 0 && ftruncate(fd, f->whole) == 0;
    if (fd >= 0)
        close(fd);
    errno = saved;
    return cut;
}

bool bp_rows_close(bp_rows_file *f)
{
    if (!f->out)
        return true;
    if (!bp_rows_end_frame(f))
        return false;
    bool ok = fclose(f->out) == 0;
    f->out = NULL;
    return ok;
}
