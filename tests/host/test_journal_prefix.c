/* The systemd journal's prefix before a process's lines (import/journal_prefix.c): taken
   off where every line with text carries one of one host and one IDENT[PID] (journalctl
   -u's short, short-precise, short-iso and --no-hostname forms), left where the lines
   mix processes, miss it, or are the kernel's (no PID: the kernel log's reader reads
   them); Fabric Manager's journal stays its reader's; a stripped text is read by the
   reader of what the process printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "import/import.h"
#include "import/journal_prefix.h"
#include "import/line_numbers.h"
#include "model/doc.h"

static void strips(const char *text, const char *want)
{
    char *out = ls_strip_journal_prefixes(text);
    assert_non_null(out);
    assert_string_equal(out, want);
    free(out);
}

static void forms_stripped(void **state)
{
    (void)state;
    strips("Oct 04 13:19:39 llm app[394]: first\n"
           "\n"
           "Oct 04 13:19:40 llm app[394]: second\n",
           "first\n\nsecond\n");
    strips("Oct  4 13:19:39.123456 llm app[394]: a\nOct  4 13:19:39.223456 llm app[394]: b",
           "a\nb");
    strips("2025-10-04T13:19:39+0000 node-1.example app.sh[7]: a\n"
           "2025-10-04T13:19:39.5+00:00 node-1.example app.sh[7]: b\n",
           "a\nb\n");
    strips("Oct 04 13:19:39 app[394]: no host\n", "no host\n"); /* --no-hostname */
    char who[64];
    assert_int_equal(ls_journal_prefix_len("Oct 04 13:19:39 llm app[394]: x", who, sizeof who),
                     strlen("Oct 04 13:19:39 llm app[394]: "));
    assert_string_equal(who, "llm app[394]");
}

static void inconsistent_kept(void **state)
{
    (void)state;
    /* two processes, a line without the prefix, the kernel's lines, a PID-less tag */
    assert_null(ls_strip_journal_prefixes("Oct 04 13:19:39 llm app[394]: a\n"
                                          "Oct 04 13:19:40 llm app[395]: b\n"));
    assert_null(ls_strip_journal_prefixes("Oct 04 13:19:39 llm app[394]: a\nplain line\n"));
    assert_null(ls_strip_journal_prefixes("Oct 04 13:19:39 llm kernel: NVRM: Xid 79\n"));
    assert_null(ls_strip_journal_prefixes("Oct 04 13:19:39 llm a b[3]: x\n"));
    assert_null(ls_strip_journal_prefixes("13:19:39 llm app[394]: a\n"));
    assert_null(ls_strip_journal_prefixes("\n\n"));
}

/* Two hosts of 300 characters alike in all but their last: two streams, kept (they
   were compared through 256-character copies, which took them for one). */
static void long_hosts_compared_whole(void **state)
{
    (void)state;
    char a[300], b[300], text[1024];
    memset(a, 'h', sizeof a - 1);
    a[sizeof a - 1] = '\0';
    memcpy(b, a, sizeof b);
    b[sizeof b - 2] = 'x';
    snprintf(text, sizeof text, "Oct 04 13:19:39 %s app[394]: a\nOct 04 13:19:40 %s app[394]: b\n",
             a, b);
    assert_null(ls_strip_journal_prefixes(text));
    snprintf(text, sizeof text, "Oct 04 13:19:39 %s app[394]: a\nOct 04 13:19:40 %s app[394]: b\n",
             a, a);
    strips(text, "a\nb\n");
}

/* The reader of what the process printed reads it; FM's journal keeps its prefix. */
static void readers_after_strip(void **state)
{
    (void)state;
    const char *text = "Oct 04 15:02:41 llm webui[394]: RuntimeError: CUDA error: no kernel "
                       "image is available for execution on the device\n"
                       "Oct 04 15:02:41 llm webui[394]: For debugging consider passing "
                       "CUDA_LAUNCH_BLOCKING=1.\n";
    assert_int_equal(ls_import_detect(text), LS_FMT_CUDA_ERROR);
    json_t *doc = ls_test_import_text(text, LS_FMT_CUDA_ERROR);
    ls_test_fires(doc, "cuda_error", "info", "none", "209");
    json_decref(doc);
    const char *fm = "Feb 24 09:28:28 h1 nv-fabricmanager[1507]: fabric manager NVIDIA GPU "
                     "driver interface version 535.183.01 don't match with driver version "
                     "535.161.08. Please update with matching NVIDIA driver package.\n";
    char *plain = ls_import_plain_text(fm);
    assert_null(plain); /* nothing taken off: FM's reader takes the host from the journal */
    doc = ls_test_import_text(fm, LS_FMT_FABRIC_MANAGER);
    ls_test_fires(doc, "fabric_manager", "error", "isolate", "h1");
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forms_stripped),
        cmocka_unit_test(inconsistent_kept),
        cmocka_unit_test(long_hosts_compared_whole),
        cmocka_unit_test(readers_after_strip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
