/* Matrices from the run document: direction in the header, values and failures in
   their cells, heatmap colours, CSV, the P2P path table, the HBM and host tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "model/entries.h"
#include "model/doc.h"
#include "model/entry.h"
#include "render/matrix.h"
#include "render/measure_tables.h"
#include "util/fileio.h"

static void add(json_t *doc, json_t *e, double value)
{
    double s[] = {value * 0.99, value, value * 1.01};
    ls_entry_set_samples(e, s, 3);
    ls_doc_add_unique(doc, e);
}

static json_t *two_gpu_doc(void)
{
    json_t *doc = ls_doc_new();
    json_array_append_new(json_object_get(doc, "links"),
                          json_pack("{s:i, s:i, s:s}", "a", 0, "b", 1, "type", "NV18"));
    json_array_append_new(json_object_get(doc, "links"),
                          json_pack("{s:i, s:i, s:s}", "a", 1, "b", 0, "type", "NV18"));
    add(doc, ls_p2p_entry(0, 1, "uni", "ce", 1, 1 << 28), 396.25);
    add(doc, ls_p2p_entry(1, 0, "uni", "ce", 1, 1 << 28), 391.5);
    add(doc, ls_p2p_entry(0, 1, "uni", "sm_write", 1, 1 << 28), 380);
    add(doc, ls_p2p_entry(0, 1, "bidir", "ce", 1, 1 << 28), 783.5);
    add(doc, ls_p2p_entry(0, 1, "uni", "staged", 1, 1 << 28), 37.75);
    add(doc, ls_latency_entry(0, 1, "gpu_pingpong", 1, 0, 4), 0.95);
    add(doc, ls_latency_entry(0, 1, "pointer_chase", 1, 0, 8), 0.8125);
    json_t *failed = ls_p2p_entry(1, 0, "uni", "sm_write", 1, 1 << 28);
    ls_entry_fail(failed, "failed", "GPU 1 fell off the bus");
    ls_doc_add_unique(doc, failed);
    return doc;
}

static char *render(const ls_matrix_t *m, int color)
{
    return ls_matrix_text(m, color);
}

static void matrix_has_direction_values_and_failures(void **state)
{
    (void)state;
    json_t *doc = two_gpu_doc();
    ls_matrix_t *m = malloc(sizeof *m);
    assert_int_equal(ls_matrix_from_doc(doc, &ls_fam_p2p, "ce", "uni", 0, m), 2);
    assert_int_equal(m->n, 2);
    assert_float_equal(m->v[0][1], 396.25, 1e-9);
    assert_float_equal(m->v[1][0], 391.5, 1e-9);
    char *text = render(m, 0);
    assert_non_null(strstr(text, "GPU(row) -> GPU(column)"));
    assert_non_null(strstr(text, "copy engine (cudaMemcpyPeerAsync)"));
    assert_non_null(strstr(text, "GB/s"));
    assert_non_null(strstr(text, "396.25"));
    assert_non_null(strstr(text, "391.50"));
    assert_null(strstr(text, "\033[")); /* no colour when not asked */
    free(text);
    assert_int_equal(ls_matrix_from_doc(doc, &ls_fam_p2p, "sm_write", "uni", 0, m), 2);
    text = render(m, 0);
    assert_non_null(strstr(text, "failed"));
    free(text);
    /* bidir fills both cells, says <-> */
    assert_int_equal(ls_matrix_from_doc(doc, &ls_fam_p2p, "ce", "bidir", 0, m), 1);
    assert_float_equal(m->v[1][0], 783.5, 1e-9);
    text = render(m, 0);
    assert_non_null(strstr(text, "GPU(row) <-> GPU(column)"));
    assert_null(strstr(text, "*")); /* every pair has P2P */
    free(text);
    assert_int_equal(ls_matrix_from_doc(doc, &ls_fam_p2p, "sm_read", "uni", 0, m), 0);
    free(m);
    json_decref(doc);
}

static void pairs_without_p2p_are_marked(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    add(doc, ls_p2p_entry(0, 1, "uni", "ce", 0, 1 << 28),
        9.25); /* no peer access: staged by the driver */
    add(doc, ls_p2p_entry(1, 0, "uni", "ce", 0, 1 << 28), 9.5);
    ls_matrix_t *m = malloc(sizeof *m);
    assert_int_equal(ls_matrix_from_doc(doc, &ls_fam_p2p, "ce", "uni", 0, m), 2);
    char *text = render(m, 0);
    assert_non_null(strstr(text, "    9.25*"));
    assert_non_null(strstr(text, "* no P2P between the pair: measured through host memory"));
    free(text);
    text = render(m, 1);
    assert_non_null(strstr(text, "    9.50*\033[0m"));
    free(text);
    free(m);
    json_decref(doc);
}

static void heatmap_colours_best_green_worst_red(void **state)
{
    (void)state;
    assert_string_equal(ls_heat_escape(1.0), "\033[30;48;5;46m");
    assert_string_equal(ls_heat_escape(0.0), "\033[30;48;5;196m");
    assert_string_equal(ls_heat_escape(-3), ls_heat_escape(0));
    assert_string_equal(ls_heat_escape(7), ls_heat_escape(1));
    json_t *doc = two_gpu_doc();
    ls_matrix_t *m = malloc(sizeof *m);
    ls_matrix_from_doc(doc, &ls_fam_p2p, "ce", "uni", 0, m);
    char *text = render(m, 1);
    /* the best cell is green; the other (98.8% of it) is also at the green end */
    assert_non_null(strstr(text, "\033[30;48;5;46m   396.25\033[0m"));
    free(text);
    /* latency: lower is better */
    ls_matrix_from_doc(doc, &ls_fam_latency, "pointer_chase", NULL, 0, m);
    assert_true(m->lower_is_better);
    assert_string_equal(m->unit, "us");
    free(m);
    json_decref(doc);
}

static void csv_per_matrix(void **state)
{
    (void)state;
    json_t *doc = two_gpu_doc();
    ls_matrix_t *m = malloc(sizeof *m);
    ls_matrix_from_doc(doc, &ls_fam_p2p, "sm_write", "uni", 0, m);
    char *csv = ls_matrix_csv(m);
    assert_string_equal(csv, "\"GPU(row) -> GPU(column) (GB/s)\",0,1\n0,,380\n1,failed,\n");
    free(csv);
    char err[256];
    const char *dir = ls_tmp_path("csvdir");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(ls_matrix_write_csv(m, dir, err, sizeof err), 0);
    char path[600];
    snprintf(path, sizeof path, "%s/p2p-sm_write-uni.csv", dir);
    char *back = ls_read_file(path, NULL, err, sizeof err);
    assert_non_null(back);
    assert_non_null(strstr(back, "0,,380\n"));
    free(back);
    free(m);
    json_decref(doc);
}

/* The CSV grows with what it holds: 64 GPUs of 24-character numbers (more than a
   fixed 24 bytes per cell) come out whole. */
static void csv_of_a_full_matrix_with_long_numbers(void **state)
{
    (void)state;
    ls_matrix_t *m = calloc(1, sizeof *m);
    m->n = LS_MAX_GPUS;
    snprintf(m->corner, sizeof m->corner, "GPU(row) -> GPU(column)");
    snprintf(m->unit, sizeof m->unit, "us");
    for (int i = 0; i < m->n; i++) {
        m->index[i] = 1000 + i;
        for (int j = 0; j < m->n; j++) {
            m->cell[i][j] = LS_CELL_VALUE;
            m->v[i][j] = -1.2345678901234568e-300; /* needs all 17 digits: 24 characters */
        }
    }
    char *csv = ls_matrix_csv(m);
    assert_non_null(csv);
    size_t rows = 0;
    for (const char *p = csv; *p; p++)
        rows += *p == '\n';
    assert_int_equal(rows, 1 + LS_MAX_GPUS);
    /* the last row ends with its last value and the empty diagonal, intact */
    const char *last = strstr(csv, "\n1063,");
    assert_non_null(last);
    assert_non_null(strstr(last, ",-1.2345678901234568e-300,\n"));
    size_t header = strlen("\"GPU(row) -> GPU(column) (us)\"") + 64 * strlen(",1000") + 1;
    size_t row = strlen("1000") + 63 * strlen(",-1.2345678901234568e-300") + strlen(",") + 1;
    assert_int_equal(strlen(csv), header + 64 * row);
    free(csv);
    free(m);
}

/* hbm.csv / host.csv: one row per entry; a field with a comma is quoted, and a long
   field (an imported document can hold anything) does not overrun the buffer. */
static void family_csv_quotes_and_grows(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    json_t *e = ls_hbm_entry(0, "copy", 1 << 30, 4916.736);
    double s[] = {4200};
    ls_entry_set_samples(e, s, 1);
    char method[2001];
    memset(method, 'x', sizeof method - 1);
    method[sizeof method - 1] = '\0';
    method[3] = ',';
    json_object_set_new(e, "method", json_string(method));
    ls_doc_add_unique(doc, e);
    add(doc, ls_hbm_entry(1, "read", 1 << 30, 0), 4500);
    const char *dir = ls_tmp_path("csvfam");
    char cmd[600], err[256], path[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(ls_hbm_csv(doc, dir, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/hbm.csv", dir);
    char *back = ls_read_file(path, NULL, err, sizeof err);
    assert_non_null(back);
    assert_non_null(strstr(back, "0,-1,\"xxx,xxxx"));
    assert_non_null(strstr(back, "xxx\",,,ok,4200,4200,4200,0,4916.736\n"));
    assert_non_null(strstr(back, "\n1,-1,read,,,ok,4500,"));
    free(back);
    json_decref(doc);
}

static void path_table_by_link(void **state)
{
    (void)state;
    json_t *doc = two_gpu_doc();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(ls_p2p_path_table(f, doc), 1);
    fclose(f);
    assert_non_null(strstr(buf, "0 <-> 1"));
    assert_non_null(strstr(buf, "NV18"));
    assert_non_null(strstr(buf, "396.2 / 391.5")); /* best of the methods, not staged */
    assert_non_null(strstr(buf, "783.5"));
    assert_non_null(strstr(buf, "0.95"));
    assert_non_null(strstr(buf, "0.81"));
    assert_non_null(strstr(buf, "1.00x"));
    free(buf);
    json_t *empty = ls_doc_new();
    assert_int_equal(ls_p2p_path_table(stdout, empty), 0);
    json_decref(empty);
    json_decref(doc);
}

static void hbm_and_host_tables(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    json_t *c = ls_hbm_entry(0, "copy", 1 << 30, 4916.736);
    double s[] = {4200};
    ls_entry_set_samples(c, s, 1);
    ls_hbm_finish(c);
    ls_doc_add_unique(doc, c);
    add(doc, ls_host_entry(0, 0, "h2d", "pinned", 1, 1 << 28), 55.5);
    add(doc, ls_host_entry(0, 1, "h2d", "pinned", 0, 1 << 28), 41.25);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(ls_hbm_table(f, doc), 1);
    assert_int_equal(ls_host_table(f, doc), 2);
    fclose(f);
    assert_non_null(strstr(buf, "bytes read + bytes written"));
    assert_non_null(strstr(buf, "4200.0"));
    assert_non_null(strstr(buf, "2100.0")); /* copied */
    assert_non_null(strstr(buf, "85.4%"));  /* 4200 / 4916.7 */
    assert_non_null(strstr(buf, "remote"));
    assert_non_null(strstr(buf, "41.2"));
    free(buf);
    json_decref(doc);
}

/* GPU-to-host latency in fixed columns; a failed figure's status stands in the median
   column and its error under the table. */
static void latency_host_table_with_a_failure(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    add(doc, ls_latency_entry(0, -1, "pointer_chase", 0, 1, 8), 0.8);
    json_t *failed = ls_latency_entry(1, -1, "pointer_chase", 0, 1, 8);
    ls_entry_fail(failed, "failed", "the flag never came back");
    ls_doc_add_unique(doc, failed);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(ls_latency_host_table(f, doc), 2);
    fclose(f);
    assert_non_null(strstr(buf, " GPU    median       min       max  spread\n   0     0.800     "
                                "0.792     0.808   "));
    assert_non_null(strstr(buf, "\n   1    failed         -         -       -\nGPU 1: the flag "
                                "never came back\n\n"));
    free(buf);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matrix_has_direction_values_and_failures),
        cmocka_unit_test(pairs_without_p2p_are_marked),
        cmocka_unit_test(heatmap_colours_best_green_worst_red),
        cmocka_unit_test(csv_per_matrix),
        cmocka_unit_test(csv_of_a_full_matrix_with_long_numbers),
        cmocka_unit_test(family_csv_quotes_and_grows),
        cmocka_unit_test(path_table_by_link),
        cmocka_unit_test(hbm_and_host_tables),
        cmocka_unit_test(latency_host_table_with_a_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
