/* render's format interface: the registry finds each format by name and by file
   ending, and a format that only knows how to write a table (every other operation
   NULL) still writes the whole outline's tables, in the outline's order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "helpers.h"
#include "model/doc.h"
#include "render/format.h"

static void formats_are_found_by_name_and_ending(void **state)
{
    (void)state;
    assert_ptr_equal(ls_format_find("term"), &ls_format_term);
    assert_ptr_equal(ls_format_find("md"), &ls_format_md);
    assert_ptr_equal(ls_format_find("html"), &ls_format_html);
    assert_ptr_equal(ls_format_find("csv"), &ls_format_csv);
    assert_null(ls_format_find("pdf"));
    assert_ptr_equal(ls_format_of_path("out/report.htm"), &ls_format_html);
    assert_ptr_equal(ls_format_of_path("report.md"), &ls_format_md);
    assert_null(ls_format_of_path("report.txt"));
    assert_null(ls_format_of_path(NULL));
}

/* A format of one function: each table's title on a line. */
static void title_only(ls_out_t *o, const ls_table_t *t, int flags)
{
    (void)flags;
    ls_buf_printf(&o->b, "%s\n", t->title);
}

static void a_table_only_format_writes_every_table_in_outline_order(void **state)
{
    (void)state;
    static const ls_format_t titles = {.name = "titles", .table = title_only};
    char err[512];
    json_t *doc = ls_doc_read(ls_fixture("analyze/seed000-gv100x11.json"), err, sizeof err);
    assert_non_null(doc);
    json_t *findings = ls_findings(doc), *plan = ls_plan_with(doc, findings);
    char *text = ls_report(&titles, doc, findings, plan);
    const char *head = strstr(text, "Headline figures"), *run = strstr(text, "Run\n"),
               *fnd = strstr(text, "Findings ("), *topo = strstr(text, "Link types"),
               *inv = strstr(text, "Boards and clocks");
    assert_non_null(head);
    assert_non_null(run);
    assert_non_null(fnd);
    assert_non_null(topo);
    assert_non_null(inv);
    assert_true(head < fnd && fnd < topo && topo < inv && inv < run); /* the outline's order */
    assert_null(strchr(text, '<')); /* nothing but what the format wrote */
    free(text);
    json_decref(findings);
    json_decref(plan);
    json_decref(doc);
}

/* Fixed columns: padded left or right, cut where the column says, one space between. */
static void fixed_columns_pad_and_cut(void **state)
{
    (void)state;
    static const char *header[] = {"GPU", "Name", "MiB"};
    static const ls_column_t cols[] = {{3, 1, 0, 0}, {6, 1, 1, 0}, {5, 0, 0, 0}};
    ls_table_t *t = ls_table_new("GPUs", 3, header);
    const char *row[] = {"0", "NVIDIA H200", "143771"};
    ls_table_row(t, row);
    ls_table_columns(t, cols);
    char *text = ls_format_table(&ls_format_columns, t);
    assert_string_equal(text, "GPUs\nGPU Name     MiB\n0   NVIDIA 143771\n");
    free(text);
    ls_table_free(t);
}

/* A command's table: blanks before a column (pad), the header left out; in Markdown the
   same columns say the alignment, and an untitled table keeps its header when empty. */
static void command_tables_in_columns_and_markdown(void **state)
{
    (void)state;
    static const char *header[] = {"what", "A"};
    static const ls_column_t cols[] = {{4, 1, 0, 2}, {5, 0, 0, 1}};
    ls_table_t *t = ls_table_new("context:", 2, header);
    const char *row[] = {"GPUs", "2"};
    ls_table_row(t, row);
    ls_table_columns(t, cols);
    ls_buf_t b = {0};
    ls_format_table_to(&b, &ls_format_columns, t, LS_TABLE_NO_HEADER);
    char *text = ls_buf_take(&b);
    assert_string_equal(text, "context:\n  GPUs      2\n");
    free(text);
    ls_table_free(t);
    t = ls_table_new("", 2, header);
    ls_table_columns(t, cols);
    text = ls_format_table(&ls_format_md, t);
    assert_string_equal(text, "| what | A |\n| --- | ---: |\n\n");
    free(text);
    ls_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(formats_are_found_by_name_and_ending),
        cmocka_unit_test(a_table_only_format_writes_every_table_in_outline_order),
        cmocka_unit_test(fixed_columns_pad_and_cut),
        cmocka_unit_test(command_tables_in_columns_and_markdown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
