#include "capture.h"
#include "util/fileio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int done;
static char dir[64];
static char path[128];

static void remove_capture(void)
{
    if (path[0])
        unlink(path);
    if (dir[0])
        rmdir(dir);
}

void ls_nccl_capture_setup(void)
{
    if (done)
        return;
    done = 1;
    if (getenv("NCCL_DEBUG") || getenv("NCCL_DEBUG_FILE"))
        return; /* the user's own choice: respected, nothing captured */
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/linkscope-nccl-XXXXXX",
             tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        dir[0] = '\0';
        return;
    }
    snprintf(path, sizeof path, "%s/nccl-debug.log", dir);
    setenv("NCCL_DEBUG", "INFO", 1);
    setenv("NCCL_DEBUG_SUBSYS", "INIT,GRAPH,ENV,NET", 0);
    setenv("NCCL_DEBUG_FILE", path, 1);
    atexit(remove_capture);
}

const char *ls_nccl_capture_path(void)
{
    return path[0] ? path : NULL;
}

long ls_nccl_capture_offset(void)
{
    struct stat st;
    if (!path[0] || stat(path, &st) != 0)
        return 0;
    return (long)st.st_size;
}

char *ls_nccl_capture_read(long offset)
{
    if (!path[0])
        return NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return NULL;
    }
    long end = ftell(f);
    if (offset < 0 || offset > end)
        offset = 0;
    size_t n = (size_t)(end - offset);
    char *text = malloc(n + 1);
    if (text && (fseek(f, offset, SEEK_SET) != 0 || fread(text, 1, n, f) != n)) {
        free(text);
        text = NULL;
    }
    if (text)
        text[n] = '\0';
    fclose(f);
    return text;
}
