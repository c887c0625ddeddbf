/* The headline figures `linkscope run` prints, on the bundled real run document and on
   an imported one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "helpers.h"
#include "model/doc.h"
#include "render/render.h"

static json_t *read_doc(const char *path)
{
    char err[512];
    json_t *doc = ls_doc_read(path, err, sizeof err);
    if (!doc)
        fail_msg("%s", err);
    return doc;
}

static void expect_line(const char *text, const char *start, const char *needle)
{
    const char *line = strstr(text, start);
    if (!line)
        fail_msg("no line '%s' in:\n%s", start, text);
    const char *end = strchr(line, '\n');
    char buf[512];
    snprintf(buf, sizeof buf, "%.*s", (int)(end ? end - line : (long)strlen(line)), line);
    if (!strstr(buf, needle))
        fail_msg("line '%s' lacks '%s'", buf, needle);
}

static void real_run(void **state)
{
    (void)state;
    json_t *doc = read_doc(ls_fixture("../../examples/h200x2-run.json")), *plan = ls_plan(doc);
    char *text = ls_render_headline(doc, plan);
    /* the figures of examples/h200x2-run.json (docs/benchmarks.md) */
    expect_line(text, "P2P one direction (copy engine)", "396.7 .. 396.8 GB/s");
    expect_line(text, "P2P one direction (copy engine)", "[2]");
    expect_line(text, "P2P both directions, summed", "783.8 GB/s");
    expect_line(text, "GPU-GPU latency, pointer chase", "0.851");
    expect_line(text, "HBM traffic (read + write), read kernel", "4492 .. 4499 GB/s  93% of 4814");
    /* every bandwidth against its hardware ceiling: 18 NVLinks x 26.562 GB/s */
    expect_line(text, "P2P one direction (copy engine)", "83% of 478.1");
    assert_null(strstr(text, "Statuses of the figures")); /* all ok */
    expect_line(text, "host to GPU, pinned", "GB/s");
    expect_line(text, "NCCL all_reduce, 2 GPUs, default", "346.0 GB/s busbw at 8 GiB");
    /* through-host figures never stand in the direct lines */
    expect_line(text, "P2P one direction via host memory", "GB/s");
    assert_null(strstr(text, "P2P one direction (copy engine)                      51"));
    free(text);
    json_decref(plan);
    json_decref(doc);
}

static void empty_document(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    char *text = ls_render_headline(doc, NULL);
    assert_non_null(strstr(text, "Headline figures"));
    assert_null(strstr(text, "GB/s"));
    free(text);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(real_run), cmocka_unit_test(empty_document)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
