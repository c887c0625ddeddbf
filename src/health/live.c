/* The live node's state: NVML (discover/nvml_health.c), the real sysfs, the kernel log
   (/dev/kmsg, else dmesg) and, beside NVSwitches, Fabric Manager's process (services.c). */
#include "health.h"

#include "discover/nvml_health.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    char *text;
    size_t len, cap;
} buf_t;

static void append(buf_t *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->text = realloc(b->text, b->cap);
    }
    memcpy(b->text + b->len, s, n);
    b->len += n;
    b->text[b->len] = '\0';
}

/* /dev/kmsg gives one record a read ("PRI,SEQ,USEC,FLAGS;message"), EAGAIN at the end. */
static char *read_kmsg(void)
{
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    buf_t b = {0};
    char rec[8192];
    for (;;) {
        ssize_t n = read(fd, rec, sizeof rec - 1);
        if (n < 0 && errno == EPIPE)
            continue; /* a record overwritten while reading: go on with the next */
        if (n <= 0)
            break;
        char *msg = memchr(rec, ';', (size_t)n);
        if (msg)
            append(&b, msg + 1, (size_t)(n - (msg + 1 - rec)));
    }
    close(fd);
    if (!b.text)
        append(&b, "", 0);
    return b.text;
}

static char *read_dmesg(void)
{
    FILE *p = popen("dmesg 2>/dev/null", "r");
    if (!p)
        return NULL;
    buf_t b = {0};
    char line[4096];
    while (fgets(line, sizeof line, p))
        append(&b, line, strlen(line));
    int rc = pclose(p);
    if (rc != 0 || !b.text) {
        free(b.text);
        return NULL;
    }
    return b.text;
}

json_t *ls_health_live(double window_s)
{
    json_t *state = ls_nvml_health_snapshot(window_s);
    char *log = read_kmsg();
    if (!log)
        log = read_dmesg();
    ls_health_add_host(state, "", log);
    free(log);
    if (json_integer_value(json_object_get(state, "nvswitches")) > 0) /* else not looked at */
        json_object_set_new(state, "fabric_manager", ls_health_fm_process(""));
    return state;
}
