#include "sysdir.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Inserts v into ids[0..n), kept ascending. */
static void insert_sorted(int *ids, int n, int v)
{
    int i = n;
    while (i > 0 && ids[i - 1] > v) {
        ids[i] = ids[i - 1];
        i--;
    }
    ids[i] = v;
}

int ls_list_numbered(const char *root, const char *path, const char *prefix, int *ids, int max,
                     long limit)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s%s", root ? root : "", path);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t plen = strlen(prefix);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        const char *num = e->d_name + plen;
        if (strncmp(e->d_name, prefix, plen) != 0 || !isdigit((unsigned char)*num))
            continue;
        char *end;
        long v = strtol(num, &end, 10);
        if (*end || v >= limit || v > INT_MAX)
            continue;
        insert_sorted(ids, n++, (int)v);
    }
    closedir(d);
    return n;
}
