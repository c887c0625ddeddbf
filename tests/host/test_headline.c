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
    expect_line(text, "NCCL all_reduce, GPUs 0,1, default", "346.0 GB/s busbw at 8 GiB");
    /* a healthy box names no worst figure: its pairs are alike */
    assert_null(strstr(text, "worst:"));
    /* through-host figures never stand in the direct lines */
    expect_line(text, "P2P one direction via host memory", "GB/s");
    assert_null(strstr(text, "P2P one direction (copy engine)                      51"));
    free(text);
    json_decref(plan);
    json_decref(doc);
}

/* On a degraded box the share is the worst pair's of its own ceiling, and the line
   names it: the fixture's GPU4->GPU0 runs at 109.1 of 400.0 GB/s. */
static void degraded_names_worst(void **state)
{
    (void)state;
    json_t *doc = read_doc(ls_fixture("analyze/seed004-nvlink8-degraded.json")),
           *plan = ls_plan(doc);
    char *text = ls_render_headline(doc, plan);
    expect_line(text, "P2P one direction (copy engine)", "109.1 .. 373.9 GB/s  27% of 400.0");
    expect_line(text, "      worst:", "GPU4->GPU0 at 109.1 GB/s");
    json_t *h = ls_headline_json(doc, plan);
    assert_string_equal(json_string_value(json_object_get(json_array_get(h, 0), "worst_entry")),
                        "p2p-copy-uni-4-0");
    json_decref(h);
    free(text);
    json_decref(plan);
    json_decref(doc);
}

/* The 11-GPU box: each collective line names its GPU set (four 2-GPU sets). */
static void collective_sets_named(void **state)
{
    (void)state;
    json_t *doc = read_doc(ls_fixture("analyze/seed000-gv100x11.json")), *plan = ls_plan(doc);
    char *text = ls_render_headline(doc, plan);
    expect_line(text, "NCCL all_reduce, GPUs 0,5, default", "6.99 GB/s busbw");
    expect_line(text, "NCCL all_reduce, GPUs 7,9, default", "73.31 GB/s busbw");
    expect_line(text, "P2P one direction (copy engine)", "49% of 14.40");
    expect_line(text, "      worst:", "GPU4->GPU9");
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
    const struct CMUnitTest tests[] = {cmocka_unit_test(real_run),
                                       cmocka_unit_test(degraded_names_worst),
                                       cmocka_unit_test(collective_sets_named),
                                       cmocka_unit_test(empty_document)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
