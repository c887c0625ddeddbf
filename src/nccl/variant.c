#include "variant.h"
#include "model/doc.h"
#include "util/log.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int ls_variant_parse(const char *text, char *key, size_t keylen, const char **value)
{
    const char *eq = text ? strchr(text, '=') : NULL;
    if (!eq || eq == text || (size_t)(eq - text) >= keylen)
        return -1;
    if (!(isalpha((unsigned char)text[0]) || text[0] == '_'))
        return -1;
    for (const char *p = text; p < eq; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_'))
            return -1;
    memcpy(key, text, (size_t)(eq - text));
    key[eq - text] = '\0';
    *value = eq + 1;
    return 0;
}

char **ls_variant_argv(const char *exe, char *const *args, int nargs, const char *out_path)
{
    char **argv = calloc((size_t)nargs + 4, sizeof(char *));
    if (!argv)
        return NULL;
    int k = 0;
    argv[k++] = (char *)exe;
    for (int i = 0; i < nargs; i++)
        argv[k++] = args[i];
    argv[k++] = "--child-out";
    argv[k++] = (char *)out_path;
    argv[k] = NULL;
    return argv;
}

static void child_exec(char *const *argv, const char *setting)
{
    if (setting && strcmp(setting, "default") != 0) {
        char key[256];
        const char *value;
        if (ls_variant_parse(setting, key, sizeof key, &value) == 0)
            setenv(key, value, 1);
    }
    /* The child's report is the parent's business: its stdout goes to stderr. */
    dup2(STDERR_FILENO, STDOUT_FILENO);
    execv(argv[0], argv);
    fprintf(stderr, "linkscope: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

static int wait_child(pid_t pid, double limit_s, int *status)
{
    struct timespec pause = {0, 20 * 1000 * 1000};
    double waited = 0;
    for (;;) {
        pid_t got = waitpid(pid, status, WNOHANG);
        if (got == pid)
            return 0;
        if (got < 0 && errno != EINTR)
            return -1;
        if (limit_s > 0 && waited > limit_s) {
            kill(pid, SIGKILL);
            waitpid(pid, status, 0);
            return 1;
        }
        nanosleep(&pause, NULL);
        waited += 0.02;
    }
}

json_t *ls_variant_run(char *const *argv, const char *setting, const char *out_path, double limit_s,
                       int *exit_code, char *err, size_t errlen)
{
    unlink(out_path);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        ls_seterr(err, errlen, "fork: %s", strerror(errno));
        return NULL;
    }
    if (pid == 0)
        child_exec(argv, setting);
    int status = 0;
    int waited = wait_child(pid, limit_s, &status);
    *exit_code = WIFEXITED(status) ? WEXITSTATUS(status)
                                   : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    if (waited == 1) {
        ls_seterr(err, errlen, "%s: the child did not finish within %.0f s and was killed",
                  setting ? setting : "default", limit_s);
        return NULL;
    }
    json_t *doc = ls_doc_read(out_path, err, errlen);
    unlink(out_path);
    if (!doc && *exit_code != 0)
        ls_seterr(err, errlen, "%s: the child exited with status %d and wrote no document",
                  setting ? setting : "default", *exit_code);
    return doc;
}
