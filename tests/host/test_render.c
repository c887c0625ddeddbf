/* Renderers: deterministic number formatting, escaping, the HTML report's sections and
   SVGs, CSV quoting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "helpers.h"
#include "model/doc.h"
#include "render/format.h"
#include "render/render.h"
#include "render/status.h"
#include "render/strbuf.h"

static void numbers_are_formatted_deterministically(void **state)
{
    (void)state;
    const struct {
        double v;
        const char *s;
    } cases[] = {{0.1 + 0.2, "0.300"}, {13.2, "13.20"},   {96.846, "96.85"},
                 {96.844, "96.84"},    {193.51, "193.5"}, {4160.4, "4160"},
                 {-0.0001, "0.000"},   {NAN, "-"},        {INFINITY, "-"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[32];
        ls_fmt_num(cases[i].v, buf, sizeof buf);
        assert_string_equal(buf, cases[i].s);
    }
    char buf[32];
    ls_fmt_bytes(1073741824.0, buf, sizeof buf);
    assert_string_equal(buf, "1 GiB");
    ls_fmt_bytes(1536.0, buf, sizeof buf);
    assert_string_equal(buf, "1.5 KiB");
}

static void text_is_escaped(void **state)
{
    (void)state;
    ls_buf_t b = {0};
    ls_buf_html(&b, "<a href=\"x\">&</a>");
    ls_buf_puts(&b, "|");
    ls_buf_csv(&b, "0,1,\"2\"");
    ls_buf_puts(&b, "|");
    ls_buf_md(&b, "a|b");
    ls_buf_puts(&b, "|");
    ls_buf_prom_label(&b, "n\"o\\d\ne");
    char *s = ls_buf_take(&b);
    assert_string_equal(s, "&lt;a "
                           "href=&quot;x&quot;&gt;&amp;&lt;/"
                           "a&gt;|\"0,1,\"\"2\"\"\"|a\\|b|n\\\"o\\\\d\\ne");
    free(s);
    ls_buf_t empty = {0}; /* a buffer never written to still gives a string */
    s = ls_buf_take(&empty);
    assert_string_equal(s, "");
    free(s);
}

static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void html_has_every_section_and_no_network(void **state)
{
    (void)state;
    char err[512];
    json_t *doc = ls_doc_read(ls_fixture("analyze/seed000-gv100x11.json"), err, sizeof err);
    assert_non_null(doc);
    json_t *f = ls_findings(doc), *plan = ls_plan_with(doc, f);
    char *html = ls_report_html(doc, f, plan), *again = ls_report_html(doc, f, plan);
    assert_string_equal(html, again);
    for (int i = 0; ls_outline[i].id; i++) {
        char id[64];
        snprintf(id, sizeof id, "<section id=\"%s\">", ls_outline[i].id);
        /* a section with nothing to show here (no burn entry) is left out */
        assert_int_equal(count(html, id), ls_section_present(&ls_outline[i], doc));
    }
    /* topology, link types, 4 measured matrices; no collective chart: every all_reduce set
       of seed 000 has one size, too few to chart (issue 27), so each is a table row */
    assert_int_equal(count(html, "<svg "), 6);
    assert_int_equal(count(html, "</svg>"), 6);
    assert_non_null(strstr(html, "<meta name=\"linkscope-svg-count\" content=\"6\">"));
    assert_non_null(strstr(html, "Collective figures too few to chart"));
    /* drawn as built: two NUMA nodes, two PCIe switches, the NVLink bridge, the ceiling */
    assert_non_null(strstr(html, "NUMA node 0 (CPU, host bridge)"));
    assert_int_equal(count(html, ">PCIe switch (PIX)<"), 2);
    assert_non_null(strstr(html, ">NV4<"));
    assert_int_equal(count(html, "http"), count(html, "xmlns=\"http://www.w3.org/2000/svg\""));
    assert_null(strstr(html, "<script"));
    /* the findings are in the page */
    assert_non_null(strstr(html, "GPU7 Quadro GV100: HBM copy 590.6 of 870.4 GB/s"));
    free(html);
    free(again);
    json_decref(f);
    json_decref(plan);
    json_decref(doc);
}

static void csv_has_one_row_per_pair(void **state)
{
    (void)state;
    char err[512];
    json_t *doc = ls_doc_read(ls_fixture("analyze/h200x2-anchors.json"), err, sizeof err);
    assert_non_null(doc);
    json_t *plan = ls_plan(doc);
    char *csv = ls_report_csv(doc, plan, "p2p_paths");
    assert_int_equal(count(csv, "\n"), 3); /* header, 0->1, 1->0 */
    /* 396.2 of 478.1 GB/s recorded with the figure: 82.9% of peak; every figure ok */
    assert_non_null(strstr(csv, "\n0,1,NV18,NV,OK,OK,396.2,82.8"));
    assert_non_null(strstr(csv, ",p2p-nvbw-ce-uni-0-1,783.5,0.83,ok\n"));
    free(csv);
    assert_null(ls_report_csv(doc, plan, "nonsense"));
    json_decref(plan);
    json_decref(doc);
}

/* The status word reads the plan's noisy list: short (scanned) or long (a hash index,
   rebuilt for another list or a list of another size, even at the same address). */
static void status_word_reads_the_noisy_list(void **state)
{
    (void)state;
    for (int n = 3; n <= 40; n += 37) {
        json_t *ids = json_array(), *plan = json_pack("{s:o}", "noisy", ids);
        json_array_append_new(ids, json_integer(7)); /* not an id: never a match */
        for (int i = 0; i < n; i++)
            json_array_append_new(ids, json_sprintf("f-%d", i));
        json_t *in = json_pack("{s:s, s:s}", "id", "f-2", "status", "ok");
        json_t *out = json_pack("{s:s, s:s}", "id", "f-99", "status", "ok");
        json_t *failed = json_pack("{s:s, s:s}", "id", "f-1", "status", "failed");
        assert_string_equal(ls_status_word(plan, in), "noisy");
        assert_string_equal(ls_status_word(plan, out), "ok");
        assert_string_equal(ls_status_word(plan, failed), "failed");
        json_array_append_new(ids, json_string("f-99")); /* grown: rebuilt */
        assert_string_equal(ls_status_word(plan, out), "noisy");
        json_array_clear(ids);
        for (int i = 0; i <= n; i++) /* as long as before, other ids */
            json_array_append_new(ids, json_sprintf("g-%d", i));
        json_t *other = json_pack("{s:o}", "noisy", json_deep_copy(ids));
        assert_string_equal(ls_status_word(other, in), "ok");
        assert_string_equal(ls_status_word(other, out), "ok");
        json_decref(other);
        json_decref(in);
        json_decref(out);
        json_decref(failed);
        json_decref(plan);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers_are_formatted_deterministically),
        cmocka_unit_test(text_is_escaped),
        cmocka_unit_test(html_has_every_section_and_no_network),
        cmocka_unit_test(csv_has_one_row_per_pair),
        cmocka_unit_test(status_word_reads_the_noisy_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
