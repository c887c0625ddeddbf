/* The node's services health reads (health.h: ls_health_fm_process): whether Fabric
   Manager runs, from the process list, without starting anything (no systemctl: a hung
   D-Bus would hold the check past its budget, and a container has no systemd to ask). */
#include "health.h"

#include "util/fileio.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* /proc/PID/comm is the executable's name cut to 15 characters (TASK_COMM_LEN 16), so
   nv-fabricmanager shows as "nv-fabricmanage" (systemd's own "Killing process N
   (nv-fabricmanage)"). The same process whether systemd's nvidia-fabricmanager.service or
   the GPU Operator's driver container started it. */
#define FM_COMM "nv-fabricmanage"

/* The initial PID namespace's inode (PROC_PID_INIT_INO, include/linux/proc_ns.h): only a
   process in it sees every process of the host. */
#define HOST_PID_NS "pid:[4026531836]"

static json_t *unknown(const char *why)
{
    return json_pack("{s:n, s:s}", "running", "why", why);
}

static int all_digits(const char *s)
{
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

/* The pid of Fabric Manager's process under root's /proc: > 0, 0 when none, -1 when /proc
   cannot be read. */
static long fm_pid(const char *root)
{
    char dir[PATH_MAX], path[PATH_MAX], comm[64];
    snprintf(dir, sizeof dir, "%s/proc", root);
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    long pid = 0;
    struct dirent *e;
    while (!pid && (e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0]) || !all_digits(e->d_name))
            continue;
        snprintf(path, sizeof path, "/proc/%.32s/comm", e->d_name);
        if (ls_read_text(root, path, comm, sizeof comm) == 0 &&
            strncmp(comm, FM_COMM, strlen(FM_COMM)) == 0)
            pid = atol(e->d_name);
    }
    closedir(d);
    return pid;
}

/* Why a process list without Fabric Manager does not prove it is not running, or NULL
   when the list is the host's whole one. */
static const char *blind(const char *root)
{
    char path[PATH_MAX], ns[64], comm[64];
    snprintf(path, sizeof path, "%s/proc/self/ns/pid", root);
    ssize_t n = readlink(path, ns, sizeof ns - 1);
    if (n <= 0)
        return "this process's PID namespace cannot be read";
    ns[n] = '\0';
    if (strcmp(ns, HOST_PID_NS) != 0)
        return "linkscope runs in a PID namespace of its own (a container without the host's "
               "PIDs): the host's processes are not seen";
    if (ls_read_text(root, "/proc/1/comm", comm, sizeof comm) != 0)
        return "other users' processes are hidden (/proc mounted with hidepid)";
    return NULL;
}

json_t *ls_health_fm_process(const char *root)
{
    long pid = fm_pid(root ? root : "");
    if (pid < 0)
        return unknown("/proc cannot be read");
    if (pid > 0)
        return json_pack("{s:b, s:I}", "running", 1, "pid", (json_int_t)pid);
    const char *why = blind(root ? root : "");
    return why ? unknown(why) : json_pack("{s:b}", "running", 0);
}
