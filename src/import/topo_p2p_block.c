#include "topo_p2p_block.h"
#include "topo_text.h"
#include "model/doc.h"

#include <stdlib.h>
#include <string.h>

int ls_topo_p2p_kind(const char *text)
{
    const char *p = strstr(text, "-p2p ");
    if (!p)
        return 0;
    p += 5;
    while (*p == ' ')
        p++;
    /* "r" read, "w" write; n (NVLink), a (atomics), p (prop) are other capabilities */
    if ((p[0] == 'r' || p[0] == 'w') &&
        (p[1] == '\0' || p[1] == ' ' || p[1] == '\n' || p[1] == '\r' || p[1] == '`'))
        return p[0];
    return 0;
}

/* The P2P block's text: from the first line after the topology header whose words are
   all GPU labels (the P2P header; a topo -m header carries affinity columns). */
static int has_block(const ls_topo_t *topo, const char *text)
{
    ls_topo_t *scratch = malloc(sizeof *scratch);
    if (!scratch)
        return 0;
    memcpy(scratch, topo, sizeof *scratch);
    char err[160];
    int ok = ls_topo_p2p_text_detect(text) &&
             ls_topo_parse_p2p_text(text, 0, scratch, err, sizeof err) == 0;
    free(scratch);
    return ok;
}

int ls_import_topo_p2p_block(ls_topo_t *topo, const char *text)
{
    int kind = ls_topo_p2p_kind(text);
    if (!kind || !has_block(topo, text))
        return 0;
    char err[160];
    return ls_topo_parse_p2p_text(text, kind == 'w', topo, err, sizeof err) == 0;
}

void ls_import_topo_p2p_unspecified(const ls_topo_t *topo, const char *text, json_t *doc)
{
    if (ls_topo_p2p_kind(text) || !has_block(topo, text))
        return;
    ls_topo_t *scratch = malloc(sizeof *scratch);
    if (!scratch)
        return;
    memcpy(scratch, topo, sizeof *scratch);
    char err[160];
    if (ls_topo_parse_p2p_text(text, 0, scratch, err, sizeof err) == 0) {
        size_t i;
        json_t *l;
        json_array_foreach(json_object_get(doc, "links"), i, l) {
            long long a = ls_json_int(l, "a", -1), b = ls_json_int(l, "b", -1);
            if (a >= 0 && b >= 0 && a < LS_MAX_GPUS && b < LS_MAX_GPUS)
                json_object_set_new(l, "p2p_status",
                                    json_string(ls_p2p_word(scratch->p2p_read[a][b])));
        }
    }
    free(scratch);
}
