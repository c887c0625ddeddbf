#define _GNU_SOURCE /* sched_getaffinity, cpu_set_t */
#include "placement.h"
#include "util/fileio.h"

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Field 39 of /proc/PID/task/TID/stat is "processor", the CPU the thread last ran on;
   the name (field 2) is in parentheses and may hold spaces, so count after the last ')'. */
static int last_cpu(const char *stat)
{
    const char *p = strrchr(stat, ')');
    if (!p)
        return -1;
    int field = 2;
    for (p++; *p; p++)
        if (*p == ' ' && ++field == 39)
            return atoi(p + 1);
    return -1;
}

static void allowed_list(const char *status, char *buf, size_t len)
{
    const char *p = strstr(status, "Cpus_allowed_list:");
    buf[0] = '\0';
    if (!p)
        return;
    p += strlen("Cpus_allowed_list:");
    p += strspn(p, " \t");
    size_t n = strcspn(p, "\n");
    snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), p);
}

static json_t *one_thread(const char *root, int tid)
{
    char path[256], stat[1024], status[4096], name[64], allowed[256];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    if (ls_read_text(root, path, stat, sizeof stat) != 0)
        return NULL;
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", tid);
    if (ls_read_text(root, path, name, sizeof name) != 0)
        name[0] = '\0';
    name[strcspn(name, "\n")] = '\0';
    snprintf(path, sizeof path, "/proc/self/task/%d/status", tid);
    if (ls_read_text(root, path, status, sizeof status) != 0)
        status[0] = '\0';
    allowed_list(status, allowed, sizeof allowed);
    return json_pack("{s:i, s:s, s:i, s:s}", "tid", tid, "name", name, "cpu", last_cpu(stat),
                     "allowed", allowed);
}

json_t *ls_thread_placement(const char *root)
{
    json_t *list = json_array();
    char dirpath[4096];
    snprintf(dirpath, sizeof dirpath, "%s/proc/self/task", root ? root : "");
    DIR *dir = opendir(dirpath);
    if (!dir)
        return list;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        json_t *t = one_thread(root, atoi(e->d_name));
        if (t)
            json_array_append_new(list, t);
    }
    closedir(dir);
    return list;
}

void ls_affinity_text(char *buf, size_t len)
{
    cpu_set_t set;
    size_t used = 0;
    buf[0] = '\0';
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE && used + 16 < len; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        int last = c;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set))
            last++;
        used += (size_t)snprintf(buf + used, len - used, used ? ",%d" : "%d", c);
        if (last > c)
            used += (size_t)snprintf(buf + used, len - used, "-%d", last);
        c = last;
    }
}

int ls_current_cpu(void)
{
    return sched_getcpu();
}

int ls_pin_self(int cpu, void **saved)
{
    *saved = NULL;
    cpu_set_t *old = malloc(sizeof *old), one;
    if (!old || cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof *old, old) != 0) {
        free(old);
        return -1;
    }
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) {
        free(old);
        return -1;
    }
    *saved = old;
    return 0;
}

void ls_unpin_self(void *saved)
{
    if (!saved)
        return;
    sched_setaffinity(0, sizeof(cpu_set_t), (cpu_set_t *)saved);
    free(saved);
}
