/* NCCL's bare messages beside PyTorch's NCCL error line (import/nccl_log.c, gaps18): every
   line of such a paste may be one, each kept once in the order read. They are looked up in
   an index while the text is read, not along the array (docs/safety.md, session 12: 80,000
   distinct lines took 62 s of CPU in the sanitizer build before, 2.1 s after). */
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
#include "model/doc.h"

static const char torch_line[] = "torch.distributed.DistBackendError: NCCL error in: "
                                 "../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled "
                                 "system error, NCCL version 2.14.3\n";

/* PyTorch's NCCL error line, then n bare lines, each line i saying i % distinct. */
static char *paste(int n, int distinct)
{
    size_t cap = sizeof torch_line + (size_t)n * 128;
    char *text = malloc(cap), *o = text;
    assert_non_null(text);
    o += snprintf(o, cap, "%s", torch_line);
    for (int i = 0; i < n; i++)
        o += snprintf(o, cap - (size_t)(o - text),
                      "ncclSocketInit: connecting to address %d with family 0 is neither "
                      "AF_INET(2) nor AF_INET6(10)\n",
                      i % distinct);
    return text;
}

static const json_t *bare_of(const json_t *doc)
{
    const json_t *log = json_array_get(json_object_get(doc, "nccl_logs"), 0);
    assert_non_null(log);
    assert_null(json_object_get(log, "reading_index")); /* the reader's sets stay its own */
    return json_object_get(log, "bare_messages");
}

static void kept_once_in_order(void **state)
{
    (void)state;
    char *text = paste(9, 3);
    json_t *doc = ls_test_import_text(text, LS_FMT_NCCL_LOG);
    const json_t *bare = bare_of(doc);
    assert_int_equal(json_array_size(bare), 3);
    for (int i = 0; i < 3; i++) {
        char want[32];
        snprintf(want, sizeof want, "address %d ", i);
        assert_non_null(strstr(json_string_value(json_array_get(bare, (size_t)i)), want));
    }
    json_decref(doc);
    free(text);
}

/* Many lines: each distinct one kept once, repeats folded (the time this takes is
   measured in docs/safety.md, session 12, not held here: unit tests hold behaviour). */
static void many_lines_each_once(void **state)
{
    (void)state;
    static const int distinct[] = {20000, 7};
    for (size_t k = 0; k < sizeof distinct / sizeof *distinct; k++) {
        char *text = paste(20000, distinct[k]);
        json_t *doc = ls_test_import_text(text, LS_FMT_NCCL_LOG);
        assert_int_equal(json_array_size(bare_of(doc)), (size_t)distinct[k]);
        json_decref(doc);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kept_once_in_order),
        cmocka_unit_test(many_lines_each_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
