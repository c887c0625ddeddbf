/* Forms the fresh12 blind measure found unread (gaps12): launcher tags before every line
   (Ray, SkyPilot, vLLM), a topo -m whose first row is cut, cuda-samples' simpleP2P, a
   topo -m with NIC rows but no NIC columns, nvidia-smi -q without its banner, NVRM lines
   quoted inside gpud's scan. Texts written here from the tools' printed formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "import/import.h"
#include "import/import_util.h"
#include "import/line_numbers.h"
#include "model/doc.h"
#include "util/log.h"

/* ---- launcher tags ---------------------------------------------------------------- */

static void test_worker_prefixes_stripped(void **state)
{
    (void)state;
    const char *text = "(pid=2918546) host:1:1 [0] NCCL INFO Bootstrap : Using eth0\n"
                       "(RayWorker pid=77, ip=10.0.0.7) second line\n"
                       "(head, rank=0, pid=17266) \n"
                       "\033[36m(worker1, rank=1, pid=16369, ip=10.164.0.58)\033[0m fourth\n"
                       "(VllmWorker rank=0 pid=123) fifth\n"
                       "untagged line (pid=5) stays\n";
    char *out = ls_strip_worker_prefixes(text);
    assert_non_null(out);
    assert_string_equal(out, "host:1:1 [0] NCCL INFO Bootstrap : Using eth0\n"
                             "second line\n"
                             "\n"
                             "fourth\n"
                             "fifth\n"
                             "untagged line (pid=5) stays\n");
    free(out);
}

static void test_worker_prefixes_need_a_pid(void **state)
{
    (void)state;
    /* parentheses that are no launcher's tag: a pid word missing, not a number, or the
       tag not followed by a blank */
    assert_null(ls_strip_worker_prefixes("(rank=0) text\n(pid=x) text\n(pid=1)text\n"));
    assert_null(ls_strip_worker_prefixes("GPU0 X NV12\n"));
    assert_null(ls_strip_worker_prefixes("(a (pid=1)) text\n"));
}

static void test_plain_text_numbers_then_tags(void **state)
{
    (void)state;
    char *out = ls_import_plain_text("1 (pid=3) a\n2 (pid=3) b\n3 (pid=3) c\n");
    assert_non_null(out);
    assert_string_equal(out, "a\nb\nc\n");
    free(out);
    assert_null(ls_import_plain_text("no tag\n"));
}

/* SkyPilot's tag before a topo -m whose first row the paste cuts: read, noted cut. */
static void test_topo_tagged_first_row_cut(void **state)
{
    (void)state;
    const char *text =
        "(head, rank=0, pid=17266) --- nvidia-smi topo -m ---\n"
        "(head, rank=0, pid=17266) \n"
        "(head, rank=0, pid=17266)       GPU0    GPU1    GPU2    GPU3    CPU Affinity    "
        "NUMA Affinity\n"
        "(head, rank=0, pid=17266) GPU0   X      NV12    NV12\n";
    json_t *doc = ls_test_import_text(text, LS_FMT_TOPO);
    assert_int_equal(json_array_size(json_object_get(doc, "gpus")), 4);
    const json_t *imp = json_array_get(json_object_get(doc, "imports"), 0);
    assert_true(json_is_true(json_object_get(imp, "incomplete")));
    json_decref(doc);
}

/* A short row that is not the paste's last line is no topo -m (the header's own check). */
static void test_topo_short_row_inside_not_detected(void **state)
{
    (void)state;
    assert_int_equal(ls_import_detect("  GPU0 GPU1 GPU2 CPU Affinity\nGPU0 X NV1\nmore text\n"),
                     LS_FMT_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worker_prefixes_stripped),
        cmocka_unit_test(test_worker_prefixes_need_a_pid),
        cmocka_unit_test(test_plain_text_numbers_then_tags),
        cmocka_unit_test(test_topo_tagged_first_row_cut),
        cmocka_unit_test(test_topo_short_row_inside_not_detected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
