#include "check_spec.h"
#include "options.h"
#include "analyze/spec.h"
#include "analyze/spec_tp.h"
#include "analyze/tp.h"
#include "model/doc.h"
#include "render/render.h"
#include "render/spec_render.h"
#include "util/fileio.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* " nvlinks 0 (part 18);": the words the report's acceptance section shows too */
static void print_check(ls_buf_t *b, const json_t *c)
{
    char line[160];
    ls_spec_check_line(c, line, sizeof line);
    ls_buf_printf(b, " %s;", line);
}

static void print_gpus(const json_t *spec)
{
    size_t i, j;
    const json_t *g, *c;
    json_array_foreach(json_object_get(spec, "gpus"), i, g) {
        const char *part = ls_json_str(g, "part", NULL);
        printf("%s: \"%s\" -> %s\n", ls_json_str(g, "gpu", "?"), ls_json_str(g, "name", ""),
               part ? part : LS_SPEC_UNKNOWN_PART);
        if (!part)
            continue;
        printf("  source: %s\n  checked: ", ls_json_str(g, "source", "?"));
        ls_buf_t b = {0};
        json_array_foreach(json_object_get(g, "checks"), j, c)
            print_check(&b, c);
        if (!json_array_size(json_object_get(g, "checks")))
            ls_buf_puts(&b, " nothing the document records");
        char *checks = ls_buf_take(&b), *text;
        ls_buf_wrap(&b, checks + 1, 11, 4, ls_term_width()); /* within the terminal */
        text = ls_buf_take(&b);
        fputs(text, stdout);
        free(text);
        free(checks);
    }
}

/* The verdict computed for --model, printed as the report prints the stored one. */
static void print_tp(const json_t *doc, const ls_datasheet_t *ds, const char *model, int ngpus)
{
    char err[256];
    json_t *v = ls_spec_tp_verdict(doc, ds, model, LS_SPEC_TP_TOKENS, err, sizeof err);
    if (!v)
        v = json_pack("{s:s}", "error", err);
    ls_buf_t b = {0};
    ls_spec_tp_text(&b, v, ngpus, ls_term_width());
    char *text = ls_buf_take(&b);
    fputs(text, stdout);
    free(text);
    json_decref(v);
}

/* The findings that fail at fail_on as JUnit XML into path: 0, or -1 after one error line. */
static int write_junit(const char *path, const char *run, const json_t *spec,
                       const json_t *findings, int fail_on)
{
    json_t *failing = json_array();
    size_t i;
    json_t *f;
    json_array_foreach(findings, i, f)
        if (ls_fail_on_trips(fail_on, ls_finding_severity(f)))
            json_array_append(failing, f);
    char *xml = ls_render_junit_spec(spec, failing, run), err[512];
    int rc = ls_write_file_atomic(path, xml, strlen(xml), err, sizeof err);
    if (rc)
        ls_error("%s", err);
    free(xml);
    json_decref(failing);
    return rc ? -1 : 0;
}

/* The built-in datasheet into ds and model checked as a preset: 0, or -1 after one
   error line (nothing to free then). */
static int open_datasheet(ls_datasheet_t *ds, const char *model)
{
    char err[256];
    if (ls_datasheet_builtin(ds, err, sizeof err) != 0) {
        ls_error("%s", err);
        return -1;
    }
    if (!ls_tp_preset_find(model)) {
        ls_error("--model: unknown model preset '%s' (linkscope tp --help lists them)", model);
        ls_datasheet_free(ds);
        return -1;
    }
    return 0;
}

int ls_tp_verdict_print(const json_t *doc, const char *model)
{
    ls_datasheet_t ds;
    if (open_datasheet(&ds, model) != 0)
        return -1;
    print_tp(doc, &ds, model, (int)json_array_size(json_object_get(doc, "gpus")));
    ls_datasheet_free(&ds);
    return 0;
}

int ls_check_spec(const char *run, const json_t *doc, const char *model, int fail_on, int quiet,
                  const char *junit)
{
    ls_datasheet_t ds;
    if (open_datasheet(&ds, model) != 0)
        return -1;
    json_t *findings = json_array();
    json_t *spec = ls_spec_check(doc, &ds, findings);
    int ngpus = (int)json_array_size(json_object_get(doc, "gpus"));
    if (junit && write_junit(junit, run, spec, findings, fail_on) != 0) {
        json_decref(spec);
        json_decref(findings);
        ls_datasheet_free(&ds);
        return -1;
    }
    if (quiet) { /* what failed, then the verdict line */
        ls_print_failed_findings(findings, fail_on);
    } else {
        print_gpus(spec);
        size_t i;
        const json_t *f;
        json_array_foreach(findings, i,
                           f) { /* wrapped at the terminal's width, as the report's findings */
            char head[96];
            int col = snprintf(head, sizeof head, "%s %s: ", ls_json_str(f, "severity", "?"),
                               ls_json_str(f, "rule", "?"));
            ls_buf_t b = {0};
            ls_buf_puts(&b, head);
            ls_buf_wrap(&b, ls_json_str(f, "message", ""), col, 4, ls_term_width());
            char *text = ls_buf_take(&b);
            fputs(text, stdout);
            free(text);
        }
        print_tp(doc, &ds, model, ngpus);
    }
    int over = ls_fail_on_count(findings, fail_on);
    printf("check --spec: %d GPU%s, %d finding%s at or above %s in %s\n", ngpus,
           ngpus == 1 ? "" : "s", over, over == 1 ? "" : "s",
           fail_on == LS_FAIL_NEVER ? "never" : ls_severity_name((enum ls_severity)fail_on), run);
    json_decref(spec);
    json_decref(findings);
    ls_datasheet_free(&ds);
    return over;
}
