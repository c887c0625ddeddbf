/* What every reader reads (import/line_numbers.c's ls_import_plain_text): an editor's line
   numbers, a launcher's rank tags, then the systemd journal's prefix of one process
   (import/journal_prefix.c) taken off. Taking off never lengthens the text: a longer copy
   is a defect (abort). The prefix's reader is also given a who too small for its host. */
#include "fuzz.h"
#include "import/journal_prefix.h"
#include "import/line_numbers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char *plain = ls_import_plain_text(text);
    if (plain && strlen(plain) > strlen(text))
        abort();
    free(plain);
    char who[8];
    for (const char *p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        ls_journal_prefix_len(p, who, sizeof who);
    free(text);
    return 0;
}
