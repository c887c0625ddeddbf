/* nvidia-smi topo -m and topo -p2p r/w text (import/topo_text.c): the strict reader and the
   excerpt reader of import and topo --from. */
#include "fuzz.h"
#include "import/topo_text.h"
#include "model/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    ls_topo_t *topo = calloc(1, sizeof *topo);
    if (topo) {
        ls_topo_text_detect(text);
        ls_topo_p2p_text_detect(text);
        if (ls_topo_parse_text(text, topo, err, sizeof err) == 0)
            ls_topo_parse_p2p_text(text, (int)(size & 1), topo, err, sizeof err);
        char missing[512]; /* the excerpt reader: rows without a header, unread columns */
        ls_topo_parse_text_partial(text, topo, missing, sizeof missing, err, sizeof err);
        free(topo);
    }
    free(text);
    return 0;
}
