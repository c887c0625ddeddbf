/* ProcessGroupNCCL's set-up warnings (import/torch_watchdog.c, rule torch_pg_warning):
   barrier()'s guessed GPU, the group's guessed device id, no destroy_process_group() at
   exit, in their forms across PyTorch versions (tests/fixtures/real/fresh15-watchdog-*,
   README.md there names each source): read alone or with the watchdog's lines, each an
   info with node action none, never a warning; a failure's own reader keeps its text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "import/import.h"
#include "model/doc.h"

/* The first warnings[] record of the document's watchdog files. */
static const json_t *first_warning(const json_t *doc)
{
    const json_t *w = json_array_get(json_object_get(doc, "torch_watchdog"), 0);
    const json_t *o = json_array_get(json_object_get(w, "warnings"), 0);
    assert_non_null(o);
    return o;
}

static void ints_are(const json_t *list, const long long *want, size_t n)
{
    assert_int_equal(json_array_size(list), n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(json_integer_value(json_array_get(list, i)), want[i]);
}

/* The last import's "missing" (NULL when the paste was whole). */
static const char *missing(const json_t *doc)
{
    const json_t *im = json_object_get(doc, "imports");
    return ls_json_str(json_array_get(im, json_array_size(im) - 1), "missing", NULL);
}

/* DeepSpeed#7266: the 2.6 form, "[PG ID 0 PG GUID 0 Rank 0]  using GPU 0 ...". */
static void barrier_guess_alone(void **state)
{
    (void)state;
    json_t *doc = ls_import_doc_new();
    ls_test_import(doc, "real/fresh15-watchdog-deepspeed7266-barrier-best-guess-gpu.txt",
                   LS_FMT_TORCH_PG_WARNING);
    const json_t *o = first_warning(doc);
    assert_string_equal(ls_json_str(o, "kind", ""), "barrier_device_guess");
    assert_int_equal(ls_json_int(o, "count", 0), 1);
    ints_are(json_object_get(o, "ranks"), (const long long[]){0}, 1);
    ints_are(json_object_get(o, "gpus"), (const long long[]){0}, 1);
    assert_null(missing(doc));
    ls_test_quiet(doc);
    ls_test_fires(doc, "torch_pg_warning", "info", "none", "device_id in init_process_group()");
    ls_test_silent(doc, "collective_timeout");
    ls_test_silent(doc, "nccl_warn");
    json_decref(doc);
}

/* "using GPU N" names a GPU only where N can be a GPU index: a number no GPU has
   (negative, or past LS_MAX_GPUS) is left out, the warning still counted. */
static void guessed_gpu_out_of_range_left_out(void **state)
{
    (void)state;
    static const char text[] =
        "[PG ID 0 PG GUID 0 Rank 0]  using GPU -5 to perform barrier as devices used by this "
        "process are currently unknown. This can potentially cause a hang if this rank to GPU "
        "mapping is incorrect.\n"
        "[PG ID 0 PG GUID 0 Rank 1]  using GPU 4096 to perform barrier as devices used by this "
        "process are currently unknown. This can potentially cause a hang if this rank to GPU "
        "mapping is incorrect.\n"
        "[PG ID 0 PG GUID 0 Rank 2]  using GPU 3 to perform barrier as devices used by this "
        "process are currently unknown. This can potentially cause a hang if this rank to GPU "
        "mapping is incorrect.\n";
    json_t *doc = ls_import_doc_new();
    char err[256];
    enum ls_import_format fmt;
    assert_true(ls_import_text(doc, text, "pg.txt", NULL, &fmt, err, sizeof err) > 0);
    assert_int_equal(fmt, LS_FMT_TORCH_PG_WARNING);
    const json_t *o = first_warning(doc);
    assert_int_equal(ls_json_int(o, "count", 0), 3);
    ints_are(json_object_get(o, "ranks"), (const long long[]){0, 1, 2}, 3);
    ints_are(json_object_get(o, "gpus"), (const long long[]){3}, 1);
    json_decref(doc);
}

/* A vLLM log ending in the not_destroyed warning at exit: read as set-up warnings while its
   lines are quiet; with an ERROR line or a traceback in it, left to the framework log's
   reader, which names them as not judged (the warning alone would answer "a program
   setting" for a run that failed). */
static void framework_log_with_errors_is_not_taken(void **state)
{
    (void)state;
    static const char quiet[] =
        "INFO 06-22 02:54:36 [backends.py:193] Loading model\n"
        "INFO 06-22 02:54:37 [backends.py:193] Model loaded\n"
        "INFO 06-22 02:54:39 [backends.py:193] shutting down\n"
        "[rank0]:[W622 02:54:40.000000000 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process "
        "group has NOT been destroyed before we destruct ProcessGroupNCCL. On normal program "
        "exit, the application should call destroy_process_group to ensure that any pending "
        "NCCL operations have finished in this process. (function operator())\n";
    assert_int_equal(ls_import_detect(quiet), LS_FMT_TORCH_PG_WARNING);
    char failed[sizeof quiet + 128];
    snprintf(failed, sizeof failed, "%s%s",
             "ERROR 06-22 02:54:38 [engine.py:160] Engine core failed\n", quiet);
    assert_int_equal(ls_import_detect(failed), LS_FMT_FRAMEWORK_LOG);
    snprintf(failed, sizeof failed, "%s%s",
             "Traceback (most recent call last):\n  File \"x.py\", line 1\n", quiet);
    assert_int_equal(ls_import_detect(failed), LS_FMT_FRAMEWORK_LOG);
}

/* pytorch#126275: 2.4's nightly wording, one line per rank, the last cut mid-word by the
   paste: counted, its ranks kept, the import says it is cut. */
static void destroy_warning_cut(void **state)
{
    (void)state;
    json_t *doc = ls_import_doc_new();
    ls_test_import(doc, "real/fresh15-watchdog-pytorch126275-destroy-warning-wall-cut.txt",
                   LS_FMT_TORCH_PG_WARNING);
    const json_t *o = first_warning(doc);
    assert_string_equal(ls_json_str(o, "kind", ""), "not_destroyed");
    assert_int_equal(ls_json_int(o, "count", 0), 3);
    ints_are(json_object_get(o, "ranks"), (const long long[]){0, 5}, 2);
    assert_non_null(missing(doc));
    assert_non_null(strstr(missing(doc), "cut inside ProcessGroupNCCL's warning"));
    ls_test_quiet(doc);
    ls_test_fires(doc, "torch_pg_warning", "info", "none", "destroy_process_group()");
    json_decref(doc);
}

/* The release wording (2.4 on, "... before we destruct ProcessGroupNCCL ... (function
   operator())"), 2.5's guessed device id, and the form before 2.4 ("Rank 1 using GPU 1
   ..." under "[W ProcessGroupNCCL.cpp:N]"): three kinds, each once, whole lines. */
static void three_kinds_and_old_form(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text(
        "[W ProcessGroupNCCL.cpp:1569] Rank 1 using GPU 1 to perform barrier as devices used "
        "by this process are currently unknown. This can potentially cause a hang if this rank "
        "to GPU mapping is incorrect.Specify device_ids in barrier() to force use of a "
        "particular device.\n"
        "[rank3]:[W1105 13:37:10.148326282 ProcessGroupNCCL.cpp:5138] [PG ID 0 PG GUID 0 Rank "
        "3] Guessing device ID based on global rank. This can cause a hang if rank to GPU "
        "mapping is heterogeneous. You can specify device_id in init_process_group()\n"
        "[rank0]:[W530 08:34:35.154236112 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process "
        "group has NOT been destroyed before we destruct ProcessGroupNCCL. On normal program "
        "exit, the application should call destroy_process_group to ensure that any pending "
        "NCCL operations have finished in this process. In rare cases this process can exit "
        "before this point and block the progress of another member of the process group. "
        "This constraint has always been present,  but this warning has only been added since "
        "PyTorch 2.4 (function operator())\n",
        LS_FMT_TORCH_PG_WARNING);
    const json_t *w = json_array_get(json_object_get(doc, "torch_watchdog"), 0);
    const json_t *list = json_object_get(w, "warnings");
    assert_int_equal(json_array_size(list), 3);
    const json_t *old = json_array_get(list, 0);
    assert_string_equal(ls_json_str(old, "kind", ""), "barrier_device_guess");
    ints_are(json_object_get(old, "ranks"), (const long long[]){1}, 1);
    ints_are(json_object_get(old, "gpus"), (const long long[]){1}, 1);
    const json_t *guess = json_array_get(list, 1);
    assert_string_equal(ls_json_str(guess, "kind", ""), "device_id_guess");
    ints_are(json_object_get(guess, "ranks"), (const long long[]){3}, 1);
    assert_string_equal(ls_json_str(json_array_get(list, 2), "kind", ""), "not_destroyed");
    assert_null(missing(doc));
    ls_test_quiet(doc);
    json_t *f = ls_findings(doc);
    size_t i, n = 0;
    const json_t *x;
    json_array_foreach(f, i, x) {
        n += !strcmp(ls_json_str(x, "rule", ""), "torch_pg_warning");
    }
    assert_int_equal(n, 3);
    json_decref(f);
    json_decref(doc);
}

/* Output between two ranks' whole warnings is joined to the first as a terminal's wrap
   would be: the second, a prefix of that line, is whole, not cut. */
static void whole_after_joined_output(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("[rank1]:[W530 08:34:35.154236112 ProcessGroupNCCL.cpp:1250] "
                                      "Warning: WARNING: process "
                                      "group has NOT been destroyed before we destruct "
                                      "ProcessGroupNCCL. (function "
                                      "operator())\n"
                                      "Saving the model to ./out\n"
                                      "[rank0]:[W530 08:34:35.164236112 ProcessGroupNCCL.cpp:1250] "
                                      "Warning: WARNING: process "
                                      "group has NOT been destroyed before we destruct "
                                      "ProcessGroupNCCL. (function "
                                      "operator())\n",
                                      LS_FMT_TORCH_PG_WARNING);
    assert_null(missing(doc));
    assert_int_equal(ls_json_int(first_warning(doc), "count", 0), 2);
    json_decref(doc);
}

/* A timeout beside the exit warning: the watchdog's reader takes the text, the timeout is
   an error as before and the warning stays an info beside it. */
static void with_a_timeout(void **state)
{
    (void)state;
    json_t *doc =
        ls_test_import_text("[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught "
                            "collective operation "
                            "timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
                            "Timeout(ms)=600000) ran for 600010 milliseconds before timing out.\n"
                            "[rank1]:[W515 07:06:42.829549331 ProcessGroupNCCL.cpp:1117] WARNING: "
                            "process group has "
                            "NOT been destroyed before it is being destructed. On normal program "
                            "exit, the "
                            "application should call destroy_process_group to ensure that any "
                            "pending NCCL data "
                            "transfers have finished in this process.\n",
                            LS_FMT_TORCH_WATCHDOG);
    ls_test_fires(doc, "collective_timeout", "error", "", "ALLREDUCE");
    ls_test_fires(doc, "torch_pg_warning", "info", "none", "rank 1");
    json_decref(doc);
}

/* A CUDA error then the exit warning: the CUDA errors' reader keeps the text (a failure's
   reader comes first); the warning adds no finding there. */
static void cuda_error_reader_wins(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("RuntimeError: CUDA error: an illegal memory access was "
                                      "encountered\n"
                                      "[rank0]:[W530 08:34:35.154236112 ProcessGroupNCCL.cpp:1250] "
                                      "Warning: WARNING: process "
                                      "group has NOT been destroyed before we destruct "
                                      "ProcessGroupNCCL. (function "
                                      "operator())\n",
                                      LS_FMT_CUDA_ERROR);
    ls_test_silent(doc, "torch_pg_warning");
    json_decref(doc);
}

/* c10d's environment-variable deprecation warning (Utils.hpp getCvar*, 2.2 on), once a
   rank: each line one warning (not a terminal's wrap of the one before), read alone as a
   set-up warning, info with node action none; a last line cut to c10's "[W Utils.hpp:"
   before its words is a cut paste; the same words with another new name than TORCH_'s,
   or a sentence that only mentions a variable, are not c10d's. */
static void env_deprecated(void **state)
{
    (void)state;
    const char *line = "[W Utils.hpp:135] Warning: Environment variable NCCL_BLOCKING_WAIT is "
                       "deprecated; use TORCH_NCCL_BLOCKING_WAIT instead (function getCvarBool)\n";
    char text[1024];
    snprintf(text, sizeof text, "\n%s%s%s[W Utils.hpp:", line, line, line);
    assert_int_equal(ls_import_detect(text), LS_FMT_TORCH_PG_WARNING);
    json_t *doc = ls_test_import_text(text, LS_FMT_TORCH_PG_WARNING);
    const json_t *o = first_warning(doc);
    assert_string_equal(ls_json_str(o, "kind", ""), "env_deprecated");
    assert_int_equal(ls_json_int(o, "count", 0), 3);
    assert_non_null(strstr(missing(doc), "[W Utils.hpp:"));
    ls_test_quiet(doc);
    ls_test_fires(doc, "torch_pg_warning", "info", "none", "old name");
    json_decref(doc);
    doc = ls_test_import_text(line, LS_FMT_TORCH_PG_WARNING); /* whole */
    assert_null(missing(doc));
    json_decref(doc);
    assert_int_not_equal(ls_import_detect("Environment variable FOO is deprecated; use BAR "
                                          "instead\n"),
                         LS_FMT_TORCH_PG_WARNING);
    assert_int_not_equal(ls_import_detect("Environment variable NCCL_DEBUG is set\n"),
                         LS_FMT_TORCH_PG_WARNING);
}

/* The exit warning's later wording ("destroy_process_group() was not called before
   program exit"), alone and under an NCCL log of the same job (fresh60): the same
   not_destroyed kind, info with node action none, the log's own finding kept; under NCCL
   lines that hold no fact, the warning alone is read (fresh63). */
static void destroy_warning_later_wording(void **state)
{
    (void)state;
    const char *warning = "[rank0]:[W101 12:08:33.945328381 ProcessGroupNCCL.cpp:1538] Warning: "
                          "WARNING: destroy_process_group() was not called before program exit, "
                          "which can leak resources. For more info, please see "
                          "https://pytorch.org/docs/stable/distributed.html#shutdown (function "
                          "operator())\n";
    json_t *doc = ls_test_import_text(warning, LS_FMT_TORCH_PG_WARNING);
    assert_string_equal(ls_json_str(first_warning(doc), "kind", ""), "not_destroyed");
    ls_test_fires(doc, "torch_pg_warning", "info", "none", "destroy_process_group()");
    json_decref(doc);
    char text[1024];
    snprintf(text, sizeof text, "%s%s",
             "h:1:2 [0] NCCL INFO Channel 00/0 : 3[0] -> 0[0] [receive] via NET/Socket/0\n"
             "h:1:2 [0] misc/socket.cc:1 NCCL WARN socketProgress: Connection closed by remote "
             "peer\n",
             warning);
    assert_int_equal(ls_import_detect(text), LS_FMT_NCCL_LOG);
    doc = ls_test_import_text(text, LS_FMT_NCCL_LOG);
    assert_string_equal(ls_json_str(first_warning(doc), "kind", ""), "not_destroyed");
    ls_test_fires(doc, "torch_pg_warning", "info", "none", NULL);
    assert_int_equal(ls_test_count(doc, "nccl_warn"), 1);
    json_decref(doc);
    /* NCCL's teardown lines hold no fact of NCCL's (fresh63): the warning is the answer */
    snprintf(text, sizeof text, "%s%s",
             "D:1458:1553 [6] NCCL INFO [Service thread] Connection closed by localRank 6\n",
             warning);
    assert_int_equal(ls_import_detect(text), LS_FMT_NCCL_LOG);
    doc = ls_test_import_text(text, LS_FMT_NCCL_LOG);
    ls_test_fires(doc, "torch_pg_warning", "info", "none", NULL);
    ls_test_quiet(doc);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(barrier_guess_alone),
        cmocka_unit_test(destroy_warning_cut),
        cmocka_unit_test(three_kinds_and_old_form),
        cmocka_unit_test(whole_after_joined_output),
        cmocka_unit_test(with_a_timeout),
        cmocka_unit_test(cuda_error_reader_wins),
        cmocka_unit_test(guessed_gpu_out_of_range_left_out),
        cmocka_unit_test(framework_log_with_errors_is_not_taken),
        cmocka_unit_test(env_deprecated),
        cmocka_unit_test(destroy_warning_later_wording),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
