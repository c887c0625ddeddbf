/* The report's "Acceptance (against the datasheet)" section (render/spec_render.c): on
   the real thorough run of the 1 x H200 machine (its stored spec: h200-sxm, 7 checks, the
   TP verdict), on seed 003's SXM-named H100 cards on PCIe (nvlinks 0 against 18 for each),
   left out without spec; and the words of one check, which `check --spec` prints too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/spec_tp.h"
#include "helpers.h"
#include "model/doc.h"
#include "render/format.h"
#include "render/render.h"
#include "render/spec_render.h"

static json_t *load(const char *name)
{
    char err[512];
    json_t *doc = ls_doc_read(ls_fixture(name), err, sizeof err);
    if (!doc)
        fail_msg("%s: %s", name, err);
    return doc;
}

static char *report(const ls_format_t *fmt, const json_t *doc)
{
    json_t *f = ls_findings(doc), *plan = ls_plan_with(doc, f);
    char *out = ls_report(fmt, doc, f, plan);
    json_decref(f);
    json_decref(plan);
    return out;
}

/* The terminal report's acceptance section alone (up to the next heading). Caller frees. */
static char *term_section(const json_t *doc)
{
    char *all = report(&ls_format_term, doc);
    const char *start = strstr(all, "== Acceptance (against the datasheet) ==");
    assert_non_null(start);
    const char *end = strstr(start + 1, "\n== ");
    char *s = strndup(start, end ? (size_t)(end - start) + 1 : strlen(start));
    free(all);
    return s;
}

static int max_width(const char *s)
{
    int best = 0;
    while (*s) {
        size_t n = strcspn(s, "\n");
        char *line = strndup(s, n);
        if (ls_text_width(line) > best)
            best = ls_text_width(line);
        free(line);
        s += n + (s[n] == '\n');
    }
    return best;
}

/* Row r (1-based) of t as "a|b|c|d". */
static void row_text(const ls_table_t *t, int r, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int c = 0; c < t->ncols; c++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", c ? "|" : "",
                 ls_table_cell(t, r, c));
}

static void thorough_run_shows_its_part_checks_and_verdict(void **state)
{
    (void)state;
    json_t *doc = load("analyze/h200x1-thorough-run.json");
    ls_table_t *parts = ls_table_spec_parts(doc), *checks = ls_table_spec_checks(doc);
    char row[512];
    assert_int_equal(parts->nrows, 1);
    row_text(parts, 1, row, sizeof row);
    assert_string_equal(row, "GPU 0|NVIDIA "
                             "H200|h200-sxm|https://www.nvidia.com/en-us/data-center/h200/");
    /* the 7 checks the run stored, seen against the part, in the stored order */
    static const char *const want[] = {
        "GPU 0|nvlinks|0|18",
        "GPU 0|memory_gb|150.8|141",
        "GPU 0|pcie|Gen5 x16|Gen5 x16",
        "GPU 0|power_w|700|700",
        "GPU 0|sms|132|132",
        "GPU 0|HBM bandwidth|4494 GB/s|4800 GB/s",
        "GPU 0|SM clock under load|1470 MHz|base clock unknown",
    };
    assert_int_equal(checks->nrows, 7);
    for (int r = 1; r <= 7; r++) {
        row_text(checks, r, row, sizeof row);
        assert_string_equal(row, want[r - 1]);
    }
    ls_table_free(parts);
    ls_table_free(checks);

    char *sec = term_section(doc);
    assert_true(max_width(sec) <= 100);
    assert_non_null(
        strstr(sec, "tensor parallelism (ring all-reduce, bandwidth term only; 1 GPU here):\n"
                    "  TP=2 prefill of 32k tokens (llama3.3-70b): 1.36 s of all-reduce here"));
    /* the stored line, wrapped after the terminal's 100 columns */
    assert_non_null(strstr(sec, "PCIe Gen5 x16,\n    63 GB/s) vs 0.19 s on the h200-sxm's NVLink "
                                "(450 GB/s)\n"));
    assert_non_null(strstr(sec, "TP=8 prefill of 32k tokens (llama3.3-70b): 2.39 s"));
    free(sec);

    char *md = report(&ls_format_md, doc), *html = report(&ls_format_html, doc);
    assert_non_null(strstr(md, "## Acceptance (against the datasheet)\n"));
    assert_non_null(strstr(md, "| GPU 0 | nvlinks | 0 | 18 |\n"));
    assert_non_null(strstr(html, "<section id=\"acceptance\">"));
    assert_non_null(strstr(html, "<a href=\"#acceptance\">"));
    assert_non_null(strstr(html, "<pre>tensor parallelism (ring all-reduce"));
    free(md);
    free(html);
    json_decref(doc);
}

/* The section says what the document stored, never a recomputation: a part and a TP
   line edited in the stored spec are what the report shows. */
static void section_reads_the_stored_spec_only(void **state)
{
    (void)state;
    json_t *doc = load("analyze/h200x1-thorough-run.json");
    json_t *spec = json_object_get(doc, "spec");
    json_t *g = json_array_get(json_object_get(spec, "gpus"), 0);
    json_object_set_new(g, "part", json_string("stored-part"));
    json_t *d = json_array_get(json_object_get(json_object_get(spec, "tp"), "degrees"), 0);
    json_object_set_new(d, "line", json_string("TP=2 as stored"));
    char *sec = term_section(doc);
    assert_non_null(strstr(sec, "GPU 0 NVIDIA H200 stored-part"));
    assert_non_null(strstr(sec, "\n  TP=2 as stored\n"));
    free(sec);
    /* a verdict the run could not give says why */
    json_object_set_new(spec, "tp", json_pack("{s:s}", "error", "no GPU-to-GPU bandwidth"));
    sec = term_section(doc);
    assert_non_null(strstr(sec, "\ntensor parallelism: unknown (no GPU-to-GPU bandwidth)\n"));
    assert_null(strstr(sec, "TP=2"));
    free(sec);
    json_decref(doc);
}

/* Seed 003: four "NVIDIA H100 80GB HBM3" on PCIe, no NVLink; the run's spec step stored
   (ls_spec_record), an error finding per GPU, and 0 NVLinks against 18 in the section. */
static void seed003_shows_no_nvlink_against_eighteen(void **state)
{
    (void)state;
    json_t *doc = load("analyze/seed003-h100-special.json");
    char err[256];
    assert_int_equal(ls_spec_record(doc, err, sizeof err), 0);
    json_t *f = ls_findings(doc);
    size_t i;
    const json_t *x;
    int errors = 0;
    json_array_foreach(f, i, x)
        errors += !strcmp(ls_json_str(x, "rule", ""), "spec_nvlink") &&
                  !strcmp(ls_json_str(x, "severity", ""), "error");
    assert_int_equal(errors, 4);
    json_decref(f);

    char *sec = term_section(doc);
    assert_true(max_width(sec) <= 100);
    for (int k = 0; k < 4; k++) {
        char line[128];
        snprintf(line, sizeof line, "GPU %d NVIDIA H100 80GB HBM3 h100-sxm5", k);
        assert_non_null(strstr(sec, line));
    }
    assert_non_null(strstr(sec, "4 GPUs here"));
    free(sec);
    ls_table_t *checks = ls_table_spec_checks(doc);
    int nvlink_rows = 0;
    for (int r = 1; r <= checks->nrows; r++) {
        char row[256], want[64];
        row_text(checks, r, row, sizeof row);
        snprintf(want, sizeof want, "GPU %d|nvlinks|0|18", nvlink_rows);
        if (strstr(row, "|nvlinks|")) {
            assert_string_equal(row, want);
            nvlink_rows++;
        }
    }
    assert_int_equal(nvlink_rows, 4);
    ls_table_free(checks);
    json_decref(doc);
}

static void left_out_without_spec(void **state)
{
    (void)state;
    json_t *doc = load("analyze/h200x2-anchors.json");
    assert_false(ls_spec_present(doc));
    assert_null(ls_table_spec_parts(doc));
    char *term = report(&ls_format_term, doc), *md = report(&ls_format_md, doc),
         *html = report(&ls_format_html, doc);
    assert_null(strstr(term, "Acceptance"));
    assert_null(strstr(md, "Acceptance"));
    assert_null(strstr(html, "acceptance"));
    assert_null(strstr(html, "Acceptance"));
    free(term);
    free(md);
    free(html);
    json_decref(doc);
}

/* One check in words, as both the section and check --spec say it. */
static void check_words_say_unknown(void **state)
{
    (void)state;
    static const struct {
        const char *json, *line;
    } cases[] = {
        {"{\"check\":\"nvlinks\",\"spec\":18,\"seen\":0}", "nvlinks 0 (part 18)"},
        {"{\"check\":\"nvlinks\",\"spec\":18,\"seen\":null}", "nvlinks unknown (part 18)"},
        {"{\"check\":\"memory_gib\",\"spec\":80.0,\"seen\":79.65}",
         "memory 79.65 GiB (part 80 GiB)"},
        {"{\"check\":\"memory_gbps\",\"spec\":null,\"seen\":4494.49}",
         "HBM bandwidth 4494 GB/s (part unknown)"},
        {"{\"check\":\"pcie\",\"spec_gen\":5,\"spec_width\":16,\"seen_gen\":4,\"seen_width\":8}",
         "pcie Gen4 x8 (part Gen5 x16)"},
        {"{\"check\":\"pcie\",\"spec_gen\":5,\"spec_width\":16}", "pcie unknown (part Gen5 x16)"},
        {"{\"check\":\"base_mhz\",\"spec\":null,\"seen\":1470.0}",
         "SM clock under load 1470 MHz (part's base clock unknown)"},
        {"{\"check\":\"base_mhz\",\"spec\":1125,\"seen\":1005.0}",
         "SM clock under load 1005 MHz (part's base clock 1125 MHz)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *c = json_loads(cases[i].json, 0, NULL);
        assert_non_null(c);
        char line[160];
        ls_spec_check_line(c, line, sizeof line);
        assert_string_equal(line, cases[i].line);
        json_decref(c);
    }
}

/* An unidentified GPU: named as such, its source "-", no check rows. */
static void unknown_part_is_said(void **state)
{
    (void)state;
    json_t *doc = json_pack("{s:[], s:{s:[{s:s, s:s, s:n}]}}", "gpus", "spec", "gpus", "gpu",
                            "GPU 0", "name", "NVIDIA A10G", "part");
    ls_table_t *parts = ls_table_spec_parts(doc), *checks = ls_table_spec_checks(doc);
    char row[256];
    row_text(parts, 1, row, sizeof row);
    assert_string_equal(row, "GPU 0|NVIDIA A10G|unknown part: judged against clock-derived peaks "
                             "only|-");
    assert_int_equal(checks->nrows, 0);
    ls_table_free(parts);
    ls_table_free(checks);
    /* no stored verdict at all (a hand-made document): unknown, not guessed */
    ls_buf_t b = {0};
    ls_spec_tp_text(&b, NULL, 1, 100);
    char *t = ls_buf_take(&b);
    assert_string_equal(t, "tensor parallelism: unknown (the document records no verdict)\n");
    free(t);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(thorough_run_shows_its_part_checks_and_verdict),
        cmocka_unit_test(section_reads_the_stored_spec_only),
        cmocka_unit_test(seed003_shows_no_nvlink_against_eighteen),
        cmocka_unit_test(left_out_without_spec),
        cmocka_unit_test(check_words_say_unknown),
        cmocka_unit_test(unknown_part_is_said),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
