/* What linkscope run writes (run_outputs.h). */
#include "run_outputs.h"
#include "commands.h"
#include "options.h"
#include "model/doc.h"
#include "render/render.h"
#include "util/fileio.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void ls_run_print_quiet(const json_t *findings, int fail_on)
{
    char *verdict = ls_render_verdict(findings);
    printf("%s\n", verdict ? verdict : "");
    free(verdict);
    ls_print_failed_findings(findings, fail_on);
}

void ls_run_default_path(char *buf, size_t len)
{
    char host[128] = "host", date[32];
    gethostname(host, sizeof host - 1);
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y%m%d-%H%M%S", &tm);
    snprintf(buf, len, "linkscope-%s-%s.json", host, date);
}

int ls_run_write_outputs(json_t *doc, const json_t *findings, const json_t *plan, const char *path,
                         int report)
{
    char err[512];
    if (ls_doc_write(doc, path, err, sizeof err) != 0) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    fprintf(stderr, "linkscope: run document written to %s\n", path);
    if (!report)
        return 0;
    size_t n = strlen(path);
    char *html = malloc(n + 6);
    if (!html)
        return LS_EXIT_USAGE;
    if (n > 5 && strcmp(path + n - 5, ".json") == 0)
        n -= 5;
    memcpy(html, path, n);
    memcpy(html + n, ".html", 6);
    char *text = ls_report_html(doc, findings, plan);
    if (!text || ls_write_file_atomic(html, text, strlen(text), err, sizeof err) != 0) {
        ls_error("%s", text ? err : "cannot render the HTML report");
        free(text);
        free(html);
        return LS_EXIT_USAGE;
    }
    free(text);
    fprintf(stderr, "linkscope: HTML report written to %s\n", html);
    free(html);
    return 0;
}
