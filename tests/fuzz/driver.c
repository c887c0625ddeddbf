/* Replays files (or every file of folders) through LLVMFuzzerTestOneInput: the seed
   corpus as a regression test with any compiler, where libFuzzer is not at hand. */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

static int replay(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    if (!buf)
        return -1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            return fprintf(stderr, "%s: not found\n", argv[i]), 2;
        if (!S_ISDIR(st.st_mode)) {
            files += replay(argv[i]) == 0;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            char path[4096];
            if (e->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            files += replay(path) == 0;
        }
        if (d)
            closedir(d);
    }
    printf("%d inputs replayed\n", files);
    return files > 0 ? 0 : 1;
}
