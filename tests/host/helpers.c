#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef LS_FIXTURES
#define LS_FIXTURES "tests/fixtures"
#endif

static char *rotate(void)
{
    static char bufs[8][4096];
    static int next;
    return bufs[next++ % 8];
}

const char *ls_fixture(const char *relative)
{
    char *buf = rotate();
    const char *root = getenv("LS_FIXTURES");
    snprintf(buf, 4096, "%s/%s", root && *root ? root : LS_FIXTURES, relative);
    return buf;
}

const char *ls_tmp_path(const char *name)
{
    static char dir[256];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/linkscope-test-XXXXXX");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            exit(1);
        }
    }
    char *buf = rotate();
    snprintf(buf, 4096, "%s/%s", dir, name);
    return buf;
}
