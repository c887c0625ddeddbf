#include "fileio.h"
#include "log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *ls_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        ls_seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 65536, used = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + used, 1, cap - used - 1, f);
        used += got;
        if (used + 1 < cap)
            break;
        cap *= 2;
        char *bigger = realloc(buf, cap);
        if (!bigger)
            free(buf);
        buf = bigger;
    }
    int failed = !buf || ferror(f);
    int read_errno = errno; /* EISDIR for a directory */
    if (f != stdin)
        fclose(f);
    if (failed) {
        ls_seterr(err, errlen, "%s: cannot read: %s", path,
                  buf ? strerror(read_errno) : "out of memory");
        free(buf);
        return NULL;
    }
    buf[used] = '\0';
    if (len)
        *len = used;
    return buf;
}

int ls_write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
    if (strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
            return ls_seterr(err, errlen, "stdout: write failed");
        return 0;
    }
    size_t tmplen = strlen(path) + 32;
    char *tmp = malloc(tmplen);
    if (!tmp)
        return ls_seterr(err, errlen, "%s: out of memory", path);
    snprintf(tmp, tmplen, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        ls_seterr(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    int bad = fwrite(data, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        ls_seterr(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

int ls_read_text(const char *root, const char *path, char *buf, size_t buflen)
{
    char full[4096];
    snprintf(full, sizeof full, "%s%s", root ? root : "", path);
    FILE *f = fopen(full, "r");
    if (!f)
        return -1;
    size_t got = fread(buf, 1, buflen - 1, f);
    fclose(f);
    buf[got] = '\0';
    while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == ' '))
        buf[--got] = '\0';
    return 0;
}

int ls_make_dir(const char *dir)
{
    return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}
