/* The commands' shared option helpers (options.h). */
#include "options.h"
#include "commands.h"
#include "model/doc.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/parse.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ls_opt_gpus(const char *cmd, const char *text, int *gpus, int max, int *n)
{
    *n = ls_parse_index_list(text, gpus, max);
    if (*n <= 0)
        return ls_usage_error(cmd, "--gpus '%s': expected GPU indices like 0,1 or 0-3", text);
    return 0;
}

int ls_opt_gpus_exist(const char *cmd, const int *gpus, int n, int count)
{
    for (int i = 0; i < n; i++)
        if (gpus[i] >= count)
            return ls_usage_error(cmd,
                                  "--gpus: GPU %d does not exist (this machine has %d GPU%s: 0-%d)",
                                  gpus[i], count, count == 1 ? "" : "s", count - 1);
    return 0;
}

int ls_check_writable(const char *cmd, const char *opt, const char *path, int is_dir)
{
    if (!path || strcmp(path, "-") == 0)
        return 0;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (is_dir != !!S_ISDIR(st.st_mode))
            return ls_usage_error(cmd, "%s %s: expected %s", opt, path,
                                  is_dir ? "a folder" : "a file, not a folder");
        if (is_dir)
            return access(path, W_OK) == 0 ? 0
                                           : ls_usage_error(cmd, "%s %s: cannot write into it: %s",
                                                            opt, path, strerror(errno));
        if (!S_ISREG(st.st_mode)) /* a device or FIFO is written through (docs/safety.md) */
            return access(path, W_OK) == 0
                       ? 0
                       : ls_usage_error(cmd, "%s %s: cannot write: %s", opt, path, strerror(errno));
    }
    char parent[4096], err[512];
    /* A symbolic link's target is what gets replaced: its folder must be writable. */
    if (ls_resolve_output(path, parent, sizeof parent, err, sizeof err) != 0)
        return ls_usage_error(cmd, "%s %s", opt, err);
    const char *folder = dirname(parent);
    if (access(folder, W_OK) != 0)
        return ls_usage_error(cmd, "%s %s: cannot write into the folder %s: %s", opt, path, folder,
                              strerror(errno));
    return 0;
}

/* path read by reader; NULL after its one line. */
static json_t *read_with(json_t *(*reader)(const char *, char *, size_t), const char *path)
{
    char err[512];
    json_t *doc = reader(path, err, sizeof err);
    if (!doc)
        ls_error("%s", err);
    return doc;
}

int ls_opt_percent(const char *cmd, const char *opt, const char *text, double max, double *out)
{
    if (ls_parse_double(text, out) != 0 || *out < 0 || *out > max)
        return ls_usage_error(cmd, "%s '%s': expected a percentage 0-%g", opt, text, max);
    return 0;
}

json_t *ls_read_document(const char *path)
{
    return read_with(ls_doc_read, path);
}

json_t *ls_read_document_into(const char *path)
{
    return read_with(ls_doc_into_open, path);
}

int ls_opt_progress(const char *cmd, const char *text)
{
    int mode = ls_progress_mode_parse(text);
    if (mode < 0)
        return ls_usage_error(cmd, "--progress: expected auto, always or never, got '%s'",
                              text ? text : "");
    ls_progress_set_mode((enum ls_progress_mode)mode);
    return 0;
}

int ls_opt_fail_on(const char *cmd, const char *text, int *level)
{
    enum ls_severity sev;
    if (text && strcmp(text, "never") == 0) {
        *level = LS_FAIL_NEVER;
        return 0;
    }
    if (!text || ls_severity_parse(text, &sev) != 0)
        return ls_usage_error(cmd, "--fail-on: expected info, warning, error or never, got '%s'",
                              text ? text : "");
    *level = (int)sev;
    return 0;
}

int ls_fail_on_trips(int level, enum ls_severity sev)
{
    return level != LS_FAIL_NEVER && (int)sev >= level;
}

int ls_fail_on_count(const json_t *findings, int level)
{
    return level == LS_FAIL_NEVER ? 0
                                  : ls_findings_count_at_least(findings, (enum ls_severity)level);
}

int ls_print_failed_findings(const json_t *findings, int level)
{
    int n = 0;
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        if (!ls_fail_on_trips(level, ls_finding_severity(f)))
            continue;
        const char *subject = ls_json_str(f, "subject", "");
        printf("%s %s%s%s%s: %s\n", ls_json_str(f, "severity", "?"), ls_json_str(f, "rule", "?"),
               *subject ? " (" : "", subject, *subject ? ")" : "", ls_json_str(f, "message", ""));
        n++;
    }
    return n;
}
