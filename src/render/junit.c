/* JUnit XML of a baseline check (linkscope check --junit FILE), as CI systems read it
   (Jenkins, GitLab, GitHub's test reporters): one <testsuite> for the run, one
   <testcase> per expectation of the baseline, a <failure> for each violation of it. */
#include "render.h"
#include "strbuf.h"
#include "model/doc.h"

#include <stdio.h>

static void failures(ls_buf_t *b, const json_t *violations, size_t index)
{
    size_t i;
    const json_t *v;
    json_array_foreach(violations, i, v)
    {
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

static size_t count_failed(const json_t *violations, size_t nexp)
{
    size_t failed = 0;
    for (size_t k = 0; k < nexp; k++) {
        size_t i;
        const json_t *v;
        json_array_foreach(violations, i, v)
        {
            if ((size_t)ls_json_int(v, "expectation", -1) == k) {
                failed++;
                break;
            }
        }
    }
    return failed;
}

char *ls_render_junit(const json_t *baseline, const json_t *violations, const char *run)
{
    const json_t *exps = json_object_get(baseline, "expectations");
    size_t n = json_array_size(exps), i;
    ls_buf_t b = {0};
    ls_buf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"linkscope check ");
    ls_buf_html(&b, run);
    ls_buf_printf(&b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", n, count_failed(violations, n));
    const json_t *e;
    json_array_foreach(exps, i, e)
    {
        char fallback[48];
        snprintf(fallback, sizeof fallback, "expectation %zu", i);
        ls_buf_puts(&b, "    <testcase classname=\"linkscope.check\" name=\"");
        ls_buf_html(&b, ls_json_str(e, "label", fallback));
        ls_buf_puts(&b, "\">\n");
        failures(&b, violations, i);
        ls_buf_puts(&b, "    </testcase>\n");
    }
    ls_buf_puts(&b, "  </testsuite>\n</testsuites>\n");
    return ls_buf_take(&b);
}
