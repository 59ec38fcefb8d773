/* The corpus driver for builds without libFuzzer: runs the target on every
 * file named on the command line, or in a directory named there, in name
 * order. A broken invariant aborts (the test fails) after this has printed
 * which file it was running. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", path);
        return 1;
    }
    printf("running %s (%zu bytes)\n", path, len);
    fflush(stdout);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int failed = 0, count = 0;
    for (int k = 1; k < argc; k++) {
        struct stat st;
        if (stat(argv[k], &st) != 0) {
            fprintf(stderr, "%s: no such file or directory\n", argv[k]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            failed |= run_file(argv[k]);
            count++;
            continue;
        }
        struct dirent **names;
        int n = scandir(argv[k], &names, NULL, alphasort);
        if (n < 0) {
            fprintf(stderr, "%s: cannot list\n", argv[k]);
            return 1;
        }
        for (int i = 0; i < n; i++) {
            if (names[i]->d_name[0] != '.') {
                size_t len = strlen(argv[k]) + strlen(names[i]->d_name) + 2;
                char *path = malloc(len);
                if (path) {
                    snprintf(path, len, "%s/%s", argv[k], names[i]->d_name);
                    failed |= run_file(path);
                    count++;
                }
                free(path);
            }
            free(names[i]);
        }
        free(names);
    }
    /* An empty corpus proves nothing: fail rather than pass vacuously. */
    if (count == 0) {
        fprintf(stderr, "no inputs\n");
        return 1;
    }
    printf("%d inputs, every invariant held\n", count);
    return failed;
}
