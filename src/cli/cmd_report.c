/* linkscope report RUN.json: the run document rendered for a terminal, as Markdown, as
   one self-contained HTML file, or as CSV exports. */
#include "commands.h"
#include "options.h"
#include "analyze/analyze.h"
#include "analyze/spec_tp.h"
#include "model/doc.h"
#include "model/view.h"
#include "render/format.h"
#include "render/render.h"
#include "term_colour.h"
#include "util/fileio.h"
#include "util/log.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    const ls_format_t *fmt;
    const char *out;
    int quiet, fail_on;
} report_args_t;

static int opt_format(const char *cmd, const char *v, void *args)
{
    if (!(((report_args_t *)args)->fmt = ls_format_find(v)))
        return ls_usage_error(cmd, "--format: expected %s, got '%s'",
                              ls_format_names_joined(", ", " or "), v);
    return 0;
}

static const char *format_help(const char *name)
{
    const ls_format_t *f = ls_format_find(name);
    return f ? f->help : NULL;
}

/* The synopsis names the formats of render's registry. */
static const char *head_of(const char *cmd)
{
    static char text[1024];
    (void)cmd;
    if (!text[0])
        snprintf(text, sizeof text,
                 "usage: linkscope report RUN.json [--format %s]\n"
                 "                        [-o FILE|DIR]\n"
                 "                        [--fail-on LEVEL] [--quiet]\n"
                 "\n"
                 "Renders a run document with its findings and plan (computed from the document,\n"
                 "offline).\n"
                 "\n",
                 ls_format_names_joined("|", "|"));
    return text;
}

static const ls_opt_t options[] = {
    {.name = "format",
     .short_name = 'f',
     .kind = LS_OPT_CALL,
     .arg = "F",
     .call = opt_format,
     .words = ls_format_names,
     .word_help = format_help},
    {.name = "output",
     .short_name = 'o',
     .kind = LS_OPT_STRING,
     .arg = "FILE|DIR",
     .label = "-o FILE|DIR",
     .off = offsetof(report_args_t, out),
     .help = "write there (atomically) instead of stdout; '-' is stdout"},
    LS_OPT_FAIL_ON_ROW(report_args_t),
    {.name = "quiet",
     .short_name = 'q',
     .kind = LS_OPT_FLAG,
     .off = offsetof(report_args_t, quiet),
     .column = 20,
     .help = "print only the verdict line and what failed (at --fail-on)"},
    {.kind = LS_OPT_END},
};

const ls_cmd_opts_t opts_report = {
    .head_of = head_of,
    .opts = options,
    .tail = "\n"
            "The report opens with the verdict. On a terminal (and NO_COLOR unset) the\n"
            "verdict and severities are coloured. The same document always gives the same\n"
            "bytes. Formats: docs/reports.md.\n",
    .column = 18,
    .args_size = sizeof(report_args_t),
};

/* Formats by name from render's registry; CSV (six files) is written here. */
static const ls_format_t *format_of_path(const char *path)
{
    const ls_format_t *f = ls_format_of_path(path);
    return f && f != &ls_format_csv ? f : &ls_format_term;
}

static int write_out(const char *path, const char *text)
{
    char err[512];
    if (!path || !strcmp(path, "-")) {
        fputs(text, stdout);
        return fflush(stdout) ? LS_EXIT_USAGE : LS_EXIT_OK;
    }
    if (ls_write_file_atomic(path, text, strlen(text), err, sizeof err)) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    return LS_EXIT_OK;
}

/* -o NAME.csv: one file, the six tables each after a '# NAME.csv' line (as stdout),
   never a folder of that name. */
static int write_csv_file(const json_t *doc, const json_t *findings, const char *file)
{
    json_t *plan = ls_plan_with(doc, findings);
    ls_buf_t all = {0};
    for (int i = 0; i < LS_CSV_COUNT; i++) {
        char *text = ls_report_csv(doc, plan, ls_csv_names[i]);
        ls_buf_printf(&all, "%s# %s.csv\n%s", i ? "\n" : "", ls_csv_names[i], text);
        free(text);
    }
    json_decref(plan);
    char *text = ls_buf_take(&all);
    int rc = write_out(file, text);
    free(text);
    return rc;
}

/* The six files into dir as one set (ls_outputs_add): a failure on any leaves every old
   file as it was. */
static int write_csv_dir(const json_t *plan, const json_t *doc, const char *dir)
{
    char err[512] = "";
    ls_outputs_t *set = ls_outputs_new();
    int bad = !set;
    for (int i = 0; i < LS_CSV_COUNT && !bad; i++) {
        char *text = ls_report_csv(doc, plan, ls_csv_names[i]), path[4096];
        snprintf(path, sizeof path, "%s/%s.csv", dir, ls_csv_names[i]);
        bad = ls_outputs_add(set, path, text, strlen(text), err, sizeof err) != 0;
        free(text);
    }
    if (bad)
        ls_outputs_free(set);
    else
        bad = ls_outputs_commit(set, err, sizeof err) != 0;
    if (bad)
        ls_error("%s", *err ? err : "out of memory");
    return bad ? LS_EXIT_USAGE : LS_EXIT_OK;
}

static int write_csv(const json_t *doc, const json_t *findings, const char *dir)
{
    int to_stdout = !dir || !strcmp(dir, "-");
    size_t n = dir ? strlen(dir) : 0;
    if (n > 4 && !strcmp(dir + n - 4, ".csv"))
        return write_csv_file(doc, findings, dir);
    if (!to_stdout && mkdir(dir, 0777) && errno != EEXIST) {
        ls_error("%s: cannot create the directory (%s)", dir, strerror(errno));
        return LS_EXIT_USAGE;
    }
    json_t *plan =
        ls_plan_with(doc, findings); /* the ceilings and noisy figures of the status columns */
    int rc = to_stdout ? LS_EXIT_OK : write_csv_dir(plan, doc, dir);
    for (int i = 0; i < LS_CSV_COUNT && to_stdout && !rc; i++) {
        char *text = ls_report_csv(doc, plan, ls_csv_names[i]);
        printf("%s# %s.csv\n", i ? "\n" : "", ls_csv_names[i]);
        rc = write_out(NULL, text);
        free(text);
    }
    json_decref(plan);
    return rc;
}

static int parse_args(int argc, char **argv, const char **path, report_args_t *a)
{
    char *pos[argc];
    int npos;
    if (ls_opt_parse("report", &opts_report, argc, argv, a, pos, &npos))
        return LS_EXIT_USAGE;
    if (npos > 1)
        return ls_usage_error("report", "one run document expected, got '%s' and '%s'", pos[0],
                              pos[1]);
    if (npos < 1)
        return ls_usage_error("report", "a run document (RUN.json) is required");
    *path = pos[0];
    const char *o = a->out;
    if (!a->fmt && o && strlen(o) > 4 && !strcmp(o + strlen(o) - 4, ".csv"))
        return ls_usage_error("report",
                              "-o %s: CSV is six files; give --format csv -o DIR (or -o FILE.csv)",
                              o);
    if (!a->fmt)
        a->fmt = format_of_path(o);
    /* CSV goes into a folder (created if missing), the others into a file */
    return ls_check_writable("report", "-o", o, a->fmt == &ls_format_csv);
}

/* --quiet: the verdict line and the findings that fail at --fail-on. */
static void report_quiet(const json_t *findings, int fail_on)
{
    char *verdict = ls_render_verdict(findings);
    printf("%s\n", verdict ? verdict : "");
    free(verdict);
    ls_print_failed_findings(findings, fail_on);
}

/* What the document's findings make the exit code, after a report written with rc. */
static int report_exit(const json_t *findings, int rc, int fail_on)
{
    if (rc != LS_EXIT_OK)
        return rc;
    return ls_fail_on_count(findings, fail_on) ? LS_EXIT_CHECK : LS_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
    const char *path = NULL;
    report_args_t a = {.fail_on = LS_FAIL_ON_DEFAULT};
    int rc = parse_args(argc, argv, &path, &a);
    if (rc)
        return rc;
    const char *out = a.out;
    const ls_format_t *fmt = a.fmt;
    int quiet = a.quiet, fail_on = a.fail_on;
    json_t *doc = ls_read_document(path);
    if (!doc)
        return LS_EXIT_USAGE;
    /* the acceptance check is analysis, like the findings and the plan: judged again by
       this linkscope's datasheet and rules, not shown as an older one stored it */
    char err[256];
    if (json_object_get(doc, "spec") && ls_spec_record(doc, err, sizeof err) != 0)
        ls_warn("%s: the acceptance check could not be made again (%s); the stored one is shown",
                path, err);
    ls_view_pin(doc); /* its entries decoded once for the rules, the plan and the report */
    json_t *findings = ls_findings(doc); /* once: the plan and the exit code use them */
    if (quiet) {
        report_quiet(findings, fail_on);
    } else if (fmt == &ls_format_csv) {
        rc = write_csv(doc, findings, out);
    } else {
        json_t *plan = ls_plan_with(doc, findings);
        char *text = ls_report(fmt, doc, findings, plan);
        if (fmt == &ls_format_term && (!out || !strcmp(out, "-")))
            text = ls_term_colour(text, stdout); /* a terminal only, NO_COLOR honoured */
        rc = write_out(out, text);
        free(text);
        json_decref(plan);
    }
    ls_view_unpin(doc);
    rc = report_exit(findings, rc, fail_on);
    json_decref(findings);
    ls_doc_release_at_exit(doc); /* freed by the exit (model/doc.h) */
    return rc;
}
