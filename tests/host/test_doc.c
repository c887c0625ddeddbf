/* The run document: lossless round trip, validation errors that name the field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/topo.h"
#include "util/fileio.h"

static json_t *sample_doc(void)
{
    json_t *doc = ls_doc_new();
    json_object_set_new(json_object_get(doc, "host"), "hostname", json_string("node1"));
    json_t *e = ls_entry_new("p2p", "bandwidth", "GB/s");
    double s[] = {391.7, 392.25, 390.1, 0.1 + 0.2};
    ls_entry_set_samples(e, s, 4);
    ls_doc_add_measurement(doc, e);
    return doc;
}

static void round_trip_is_byte_identical(void **state)
{
    (void)state;
    json_t *doc = sample_doc();
    const char *path = ls_tmp_path("rt.json");
    char err[512];
    assert_int_equal(ls_doc_write(doc, path, err, sizeof err), 0);
    char *first = ls_read_file(path, NULL, err, sizeof err);
    json_t *back = ls_doc_read(path, err, sizeof err);
    assert_non_null(back);
    char *second = ls_doc_dumps(back);
    assert_string_equal(first, second);
    assert_string_equal(ls_json_str(json_array_get(json_object_get(back, "measurements"), 0), "id",
                                    ""),
                        "p2p-0");
    free(first);
    free(second);
    json_decref(doc);
    json_decref(back);
}

static void stats_are_stored(void **state)
{
    (void)state;
    json_t *doc = sample_doc();
    json_t *e = json_array_get(json_object_get(doc, "measurements"), 0);
    json_t *stats = json_object_get(e, "stats");
    assert_int_equal(ls_json_int(stats, "n", 0), 4);
    assert_float_equal(ls_json_num(stats, "median", 0), (390.1 + 391.7) / 2, 1e-9);
    assert_float_equal(ls_json_num(e, "value", 0), (390.1 + 391.7) / 2, 1e-9);
    json_decref(doc);
}

static void expect_error(const char *text, const char *needle)
{
    char err[512] = "";
    json_t *doc = ls_doc_parse(text, "run.json", err, sizeof err);
    assert_null(doc);
    if (!strstr(err, needle))
        fail_msg("error '%s' does not mention '%s'", err, needle);
    assert_non_null(strstr(err, "run.json"));
}

static void rejects_bad_documents(void **state)
{
    (void)state;
    expect_error("{\"schema\": \"linkscope.run/1\", \"created\": \"x\", \"host\": {}", "JSON");
    expect_error("{\"hello\": 1}", "schema");
    expect_error("{\"schema\": \"other/1\"}", "schema");
    expect_error("{\"schema\": \"linkscope.run/9\"}", "newer");
    expect_error("{\"schema\": \"linkscope.run/1x\"}", "no valid version");
    json_t *dup = sample_doc();
    json_array_append_new(json_object_get(dup, "gpus"), json_pack("{s:i}", "index", 1));
    json_array_append_new(json_object_get(dup, "gpus"), json_pack("{s:i}", "index", 1));
    char *dup_text = ls_doc_dumps(dup);
    expect_error(dup_text, "gpus[1].index: 1 is also gpus[0]'s");
    free(dup_text);
    json_integer_set(json_object_get(json_array_get(json_object_get(dup, "gpus"), 1), "index"), -3);
    dup_text = ls_doc_dumps(dup);
    expect_error(dup_text, "gpus[1].index: -3 is negative");
    free(dup_text);
    json_decref(dup);
    expect_error("{\"schema\": \"linkscope.run/ 1\"}", "no valid version");
    expect_error("{\"schema\": \"linkscope.run/1\", \"created\": \"x\", \"host\": {}}", "software");
    json_t *doc = sample_doc();
    json_object_set_new(json_array_get(json_object_get(doc, "measurements"), 0), "family",
                        json_integer(3));
    char *text = ls_doc_dumps(doc);
    expect_error(text, "measurements[0].family");
    free(text);
    json_decref(doc);
}

static void missing_file_is_named(void **state)
{
    (void)state;
    char err[512];
    assert_null(ls_doc_read("/nonexistent/run.json", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/run.json"));
}

static void topo_round_trip(void **state)
{
    (void)state;
    ls_topo_t *t = calloc(1, sizeof *t), *u = calloc(1, sizeof *u);
    t->ngpus = 2;
    t->nnics = 1;
    for (int g = 0; g < 2; g++) {
        snprintf(t->gpu_label[g], 16, "GPU%d", g);
        strcpy(t->cpu_affinity[g], "0-31");
        strcpy(t->numa_affinity[g], "0");
        t->gpu_gpu[g][g].type = LS_LINK_X;
        t->gpu_nic[g][0].type = LS_LINK_PIX;
    }
    strcpy(t->nic_name[0], "mlx5_0");
    strcpy(t->nic_label[0], "NIC0");
    t->gpu_gpu[0][1] = t->gpu_gpu[1][0] = (ls_link_t){LS_LINK_NV, 18};
    json_t *doc = ls_doc_new();
    ls_topo_to_doc(t, doc);
    assert_int_equal(ls_topo_from_doc(doc, u), 0);
    assert_int_equal(u->ngpus, 2);
    assert_int_equal(u->gpu_gpu[0][1].type, LS_LINK_NV);
    assert_int_equal(u->gpu_gpu[0][1].nvlinks, 18);
    assert_int_equal(u->gpu_nic[1][0].type, LS_LINK_PIX);
    assert_string_equal(u->nic_name[0], "mlx5_0");
    ls_link_t l;
    assert_int_equal(ls_link_parse("NV4", &l), 0);
    assert_int_equal(l.nvlinks, 4);
    assert_int_equal(ls_link_parse("NVX", &l), -1);
    assert_int_equal(ls_link_parse("SYS", &l), 0);
    assert_int_equal(l.type, LS_LINK_SYS);
    /* a document that skips GPU indices (an import of a run on GPUs 2 only): the skipped
       ones keep a label, their links stay unknown */
    json_t *sparse = ls_doc_new();
    json_array_append_new(json_object_get(sparse, "gpus"),
                          json_pack("{s:i, s:s}", "index", 2, "label", "GPU2"));
    assert_int_equal(ls_topo_from_doc(sparse, u), 0);
    assert_int_equal(u->ngpus, 3);
    assert_string_equal(u->gpu_label[0], "GPU0");
    assert_string_equal(u->gpu_label[2], "GPU2");
    assert_int_equal(u->gpu_gpu[0][2].type, LS_LINK_NONE);
    json_decref(sparse);
    json_decref(doc);
    free(t);
    free(u);
}

/* Reals stand in for integers when a file was edited by hand; one too large for a long
   long has no integer value and gives the fallback (no undefined conversion). */
static void json_int_of_reals(void **state)
{
    (void)state;
    json_t *o = json_pack("{s:f, s:f, s:f, s:I}", "half", 3.5, "huge", 1e300, "neg", -1e19, "int",
                          (json_int_t)7);
    assert_int_equal(ls_json_int(o, "half", -1), 3);
    assert_int_equal(ls_json_int(o, "huge", -1), -1);
    assert_int_equal(ls_json_int(o, "neg", -1), -1);
    assert_int_equal(ls_json_int(o, "int", -1), 7);
    assert_int_equal(ls_json_int(o, "absent", -2), -2);
    json_decref(o);
}

/* A NaN or infinite sample (a zero time) cannot be written in JSON: it is left out, and
   stats and value still describe the finite samples. */
static void non_finite_samples_left_out(void **state)
{
    (void)state;
    json_t *e = ls_entry_new("p2p", "bandwidth", "GB/s");
    const double samples[] = {10.0, NAN, 30.0, INFINITY, 20.0};
    ls_entry_set_samples(e, samples, 5);
    assert_int_equal(json_array_size(json_object_get(e, "samples")), 3);
    assert_int_equal(ls_json_int(json_object_get(e, "stats"), "n", 0), 3);
    assert_float_equal(ls_json_num(json_object_get(e, "stats"), "max", 0), 30.0, 1e-12);
    assert_float_equal(ls_json_num(e, "value", 0), 20.0, 1e-12);
    json_decref(e);
}

/* A list of the document is made on first use, a member that is not one replaced; an
   object of a list is found by its integer keys or added once. */
static void json_members_made_and_found(void **state)
{
    (void)state;
    json_t *o = json_pack("{s:i}", "links", 3);
    json_t *links = ls_json_array_at(o, "links");
    assert_true(json_is_array(links));
    assert_ptr_equal(ls_json_array_at(o, "links"), links);
    assert_true(json_is_object(ls_json_object_at(o, "errors")));
    assert_null(ls_json_array_at(links, "x")); /* not an object: nothing made */
    json_t *ab = ls_json_find_or_add(links, json_pack("{s:i, s:i, s:s}", "a", 0, "b", 1, "t", "?"),
                                     "a", "b");
    json_t *ba = ls_json_find_or_add(links, json_pack("{s:i, s:i}", "a", 1, "b", 0), "a", "b");
    assert_ptr_not_equal(ab, ba);
    assert_ptr_equal(ls_json_find_or_add(links, json_pack("{s:i, s:i}", "a", 0, "b", 1), "a", "b"),
                     ab);
    assert_string_equal(ls_json_str(ab, "t", ""), "?"); /* the first one kept */
    assert_int_equal(json_array_size(links), 2);
    assert_ptr_equal(ls_json_find_int(links, "a", 1, NULL, 0), ba);
    assert_ptr_equal(ls_json_find_int(links, "a", 1, "b", 0), ba);
    assert_null(ls_json_find_int(links, "a", 1, "b", 1));
    json_t *flags = ls_json_array_at(o, "flags");
    ls_json_add_string_once(flags, "x");
    ls_json_add_string_once(flags, "x");
    assert_int_equal(json_array_size(flags), 1);
    assert_int_equal(ls_json_append_once(flags, json_pack("{s:i}", "a", 1)), 1);
    assert_int_equal(ls_json_append_once(flags, json_pack("{s:i}", "a", 1)), 0); /* equal */
    assert_int_equal(ls_json_append_once(flags, json_pack("{s:i}", "a", 2)), 1);
    assert_int_equal(json_array_size(flags), 3);
    json_decref(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_is_byte_identical),
        cmocka_unit_test(stats_are_stored),
        cmocka_unit_test(rejects_bad_documents),
        cmocka_unit_test(missing_file_is_named),
        cmocka_unit_test(topo_round_trip),
        cmocka_unit_test(json_int_of_reals),
        cmocka_unit_test(non_finite_samples_left_out),
        cmocka_unit_test(json_members_made_and_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
