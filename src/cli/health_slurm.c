#define _GNU_SOURCE /* memmem */
/* Slurm's side of linkscope health (health_slurm.h). scontrol runs without a shell: the
   reason goes to it as one argument. */
#include "health_slurm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void ls_slurm_reason(const json_t *failing, char *out, size_t outlen)
{
    const json_t *f = json_array_get(failing, 0);
    if (!f) {
        snprintf(out, outlen, "%s healthy", LS_SLURM_REASON_PREFIX);
        return;
    }
    int n = snprintf(out, outlen, "%s %s (%s)", LS_SLURM_REASON_PREFIX,
                     json_string_value(json_object_get(f, "message")),
                     json_string_value(json_object_get(f, "action")));
    size_t more = json_array_size(failing) - 1;
    if (more > 0 && n > 0 && (size_t)n < outlen)
        snprintf(out + n, outlen - (size_t)n, " +%zu more", more);
}

void ls_slurm_node_name(char *out, size_t outlen)
{
    const char *env = getenv("SLURMD_NODENAME");
    if (env && *env) {
        snprintf(out, outlen, "%s", env);
        return;
    }
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    host[strcspn(host, ".")] = '\0';
    snprintf(out, outlen, "%s", host);
}

static const char *scontrol(void)
{
    const char *s = getenv("LINKSCOPE_SCONTROL");
    return s && *s ? s : "scontrol";
}

/* Runs scontrol with argv; its stdout into out (when given). Exit status, -1 when it
   could not run. */
static int run_scontrol(char *const argv[], char *out, size_t outlen)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t len = 0;
    ssize_t n;
    char sink[512];
    while ((n = read(fds[0], out && len + 1 < outlen ? out + len : sink,
                     out && len + 1 < outlen ? outlen - 1 - len : sizeof sink)) > 0)
        if (out && len + 1 < outlen)
            len += (size_t)n;
    if (out)
        out[len] = '\0';
    close(fds[0]);
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* 1 when the node is drained (or draining) with a reason linkscope wrote. */
static int drained_by_us(const char *node)
{
    char out[8192];
    char *argv[] = {(char *)scontrol(), "show", "node", (char *)node, "-o", NULL};
    if (run_scontrol(argv, out, sizeof out) != 0)
        return 0;
    const char *state = strstr(out, "State=");
    const char *reason = strstr(out, "Reason=");
    if (!state || !reason)
        return 0;
    size_t slen = strcspn(state, " \n");
    int drain = memmem(state, slen, "DRAIN", 5) != NULL;
    return drain &&
           strncmp(reason + 7, LS_SLURM_REASON_PREFIX, strlen(LS_SLURM_REASON_PREFIX)) == 0;
}

int ls_slurm_drain(const char *node, int failed, const char *reason)
{
    char name_arg[300], reason_arg[1100];
    snprintf(name_arg, sizeof name_arg, "nodename=%s", node);
    if (failed) {
        snprintf(reason_arg, sizeof reason_arg, "reason=%s", reason);
        char *argv[] = {(char *)scontrol(), "update", name_arg, "state=drain", reason_arg, NULL};
        int rc = run_scontrol(argv, NULL, 0);
        fprintf(stderr, "linkscope health: %s node %s: %s\n",
                rc == 0 ? "drained" : "could not drain", node, reason);
        return rc == 0 ? 0 : -1;
    }
    if (!drained_by_us(node))
        return 0; /* not drained, or drained by someone else: theirs to resume */
    char *argv[] = {(char *)scontrol(), "update", name_arg, "state=resume", NULL};
    int rc = run_scontrol(argv, NULL, 0);
    fprintf(stderr, "linkscope health: %s node %s (linkscope had drained it)\n",
            rc == 0 ? "resumed" : "could not resume", node);
    return rc == 0 ? 0 : -1;
}
