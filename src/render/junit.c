/* JUnit XML of a check (linkscope check --junit FILE), as CI systems read it (Jenkins,
   GitLab, GitHub's test reporters): one <testsuite> for the run; against a baseline one
   <testcase> per expectation, a <failure> for each violation of it, <skipped/> where the
   run has no such figure; against the datasheet (--spec) one <testcase> per GPU, a
   <failure> per failing finding about it. */
#include "render.h"
#include "strbuf.h"
#include "model/doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void failures(ls_buf_t *b, const json_t *violations, size_t index)
{
    size_t i;
    const json_t *v;
    json_array_foreach(violations, i, v) {
        if ((size_t)ls_json_int(v, "expectation", -1) != index)
            continue;
        ls_buf_puts(b, "      <failure type=\"");
        ls_buf_html(b, ls_json_str(v, "kind", "violation"));
        ls_buf_puts(b, "\" message=\"");
        ls_buf_html(b, ls_json_str(v, "line", ""));
        ls_buf_puts(b, "\">");
        ls_buf_html(b, ls_json_str(v, "line", ""));
        ls_buf_puts(b, "</failure>\n");
    }
}

/* <skipped message="..."/> when the expectation was skipped. */
static int skip(ls_buf_t *b, const json_t *skipped, size_t index)
{
    size_t i;
    const json_t *v;
    json_array_foreach(skipped, i, v) {
        if ((size_t)ls_json_int(v, "expectation", -1) != index)
            continue;
        ls_buf_puts(b, "      <skipped message=\"");
        ls_buf_html(b, ls_json_str(v, "line", ""));
        ls_buf_puts(b, "\"/>\n");
        return 1;
    }
    return 0;
}

static size_t count_failed(const json_t *violations, size_t nexp)
{
    size_t failed = 0;
    for (size_t k = 0; k < nexp; k++) {
        size_t i;
        const json_t *v;
        json_array_foreach(violations, i, v) {
            if ((size_t)ls_json_int(v, "expectation", -1) == k) {
                failed++;
                break;
            }
        }
    }
    return failed;
}

char *ls_render_junit(const json_t *baseline, const json_t *violations, const json_t *skipped,
                      const char *run)
{
    const json_t *exps = json_object_get(baseline, "expectations");
    size_t n = json_array_size(exps), i;
    ls_buf_t b = {0};
    ls_buf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite "
                    "name=\"linkscope check ");
    ls_buf_html(&b, run);
    ls_buf_printf(&b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", n,
                  count_failed(violations, n), json_array_size(skipped));
    const json_t *e;
    json_array_foreach(exps, i, e) {
        char fallback[48];
        snprintf(fallback, sizeof fallback, "expectation %zu", i);
        ls_buf_puts(&b, "    <testcase classname=\"linkscope.check\" name=\"");
        ls_buf_html(&b, ls_json_str(e, "label", fallback));
        ls_buf_puts(&b, "\">\n");
        if (!skip(&b, skipped, i))
            failures(&b, violations, i);
        ls_buf_puts(&b, "    </testcase>\n");
    }
    ls_buf_puts(&b, "  </testsuite>\n</testsuites>\n");
    return ls_buf_take(&b);
}

static void spec_failure(ls_buf_t *b, const json_t *f)
{
    char line[1024];
    snprintf(line, sizeof line, "%s %s: %s", ls_json_str(f, "severity", "?"),
             ls_json_str(f, "rule", "?"), ls_json_str(f, "message", ""));
    ls_buf_puts(b, "      <failure type=\"");
    ls_buf_html(b, ls_json_str(f, "rule", "finding"));
    ls_buf_puts(b, "\" message=\"");
    ls_buf_html(b, line);
    ls_buf_puts(b, "\">");
    ls_buf_html(b, line);
    ls_buf_puts(b, "</failure>\n");
}

/* 1 when finding f names the spec's GPU g alone (its "gpus" is [g's "index"]). */
static int names_gpu(const json_t *f, const json_t *g)
{
    const json_t *gpus = json_object_get(f, "gpus");
    return json_array_size(gpus) == 1 && json_is_integer(json_object_get(g, "index")) &&
           json_integer_value(json_array_get(gpus, 0)) ==
               json_integer_value(json_object_get(g, "index"));
}

/* The failures that name the spec's GPU g alone (NULL: those that name no GPU of spec). */
static size_t spec_case(ls_buf_t *b, const json_t *spec, const json_t *failing, const json_t *gpu)
{
    size_t i, j, n = 0;
    const json_t *f, *g;
    json_array_foreach(failing, i, f) {
        int mine = gpu && names_gpu(f, gpu);
        if (!gpu) {
            mine = 1;
            json_array_foreach(json_object_get(spec, "gpus"), j, g)
                mine &= !names_gpu(f, g);
        }
        if (mine) {
            spec_failure(b, f);
            n++;
        }
    }
    return n;
}

char *ls_render_junit_spec(const json_t *spec, const json_t *failing, const char *run)
{
    ls_buf_t b = {0}, cases = {0};
    size_t i, failed = 0, n = 0;
    const json_t *g;
    json_array_foreach(json_object_get(spec, "gpus"), i, g) {
        const char *part = ls_json_str(g, "part", NULL);
        ls_buf_puts(&cases, "    <testcase classname=\"linkscope.check.spec\" name=\"");
        ls_buf_html(&cases, ls_json_str(g, "gpu", "?"));
        ls_buf_puts(&cases, part ? " against " : " (part unknown)");
        ls_buf_html(&cases, part ? part : "");
        ls_buf_puts(&cases, "\">\n");
        failed += spec_case(&cases, spec, failing, g) > 0;
        ls_buf_puts(&cases, "    </testcase>\n");
        n++;
    }
    ls_buf_t rest = {0};
    if (spec_case(&rest, spec, failing, NULL) > 0) { /* findings about the node as a whole */
        ls_buf_puts(&cases, "    <testcase classname=\"linkscope.check.spec\" name=\"node\">\n");
        char *text = ls_buf_take(&rest);
        ls_buf_puts(&cases, text ? text : "");
        free(text);
        ls_buf_puts(&cases, "    </testcase>\n");
        failed++, n++;
    } else {
        free(ls_buf_take(&rest));
    }
    ls_buf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite "
                    "name=\"linkscope check --spec ");
    ls_buf_html(&b, run);
    ls_buf_printf(&b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", n, failed);
    char *text = ls_buf_take(&cases);
    ls_buf_puts(&b, text ? text : "");
    free(text);
    ls_buf_puts(&b, "  </testsuite>\n</testsuites>\n");
    return ls_buf_take(&b);
}
