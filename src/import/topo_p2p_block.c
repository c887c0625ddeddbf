#include "topo_p2p_block.h"
#include "topo_text.h"
#include "model/doc.h"

#include <stdlib.h>
#include <string.h>

/* The capability letter of the `-p2p X` command at p (just after "-p2p "), or 0. */
static int capability_at(const char *p)
{
    while (*p == ' ')
        p++;
    if (p[0] && (p[1] == '\0' || p[1] == ' ' || p[1] == '\n' || p[1] == '\r' || p[1] == '`'))
        return p[0];
    return 0;
}

int ls_topo_p2p_kind(const char *text)
{
    const char *p = strstr(text, "-p2p ");
    if (!p)
        return 0;
    /* "r" read, "w" write; n (NVLink), a (atomics), p (PCIe; "prop" in older help texts)
       are other capabilities */
    int k = capability_at(p + 5);
    return k == 'r' || k == 'w' ? k : 0;
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

/* One block's words onto doc's links. An OK of any capability says the pair has peer
   access (over NVLink for n, over PCIe for p) and wins over another block's word; a
   word that blocks says none only for a capability that is peer access itself (read,
   write, PCIe, or none named): a pair without NVLink P2P (n) or without atomics (a) may
   still have it over PCIe, so those words are left unknown. */
static void block_words(const ls_topo_t *topo, const char *block, int capability, json_t *doc)
{
    ls_topo_t *scratch = malloc(sizeof *scratch);
    if (!scratch)
        return;
    memcpy(scratch, topo, sizeof *scratch);
    char err[160];
    if (ls_topo_parse_p2p_text(block, 0, scratch, err, sizeof err) == 0) {
        size_t i;
        json_t *l;
        json_array_foreach(json_object_get(doc, "links"), i, l) {
            long long a = ls_json_int(l, "a", -1), b = ls_json_int(l, "b", -1);
            if (a < 0 || b < 0 || a >= LS_MAX_GPUS || b >= LS_MAX_GPUS)
                continue;
            enum ls_p2p_status s = scratch->p2p_read[a][b];
            int ok = s == LS_P2P_OK, said = json_object_get(l, "p2p_status") != NULL;
            if (ok || (!said && capability != 'n' && capability != 'a'))
                json_object_set_new(l, "p2p_status", json_string(ls_p2p_word(s)));
        }
    }
    free(scratch);
}

void ls_import_topo_p2p_unspecified(const ls_topo_t *topo, const char *text, json_t *doc)
{
    if (ls_topo_p2p_kind(text) || !has_block(topo, text))
        return;
    const char *cmd = strstr(text, "-p2p ");
    if (!cmd) {
        block_words(topo, text, 0, doc);
        return;
    }
    /* each pasted command's block (nvidia-tools' DGX-1 file: -p2p n, then -p2p p) */
    for (; cmd; cmd = strstr(cmd + 5, "-p2p "))
        block_words(topo, cmd, capability_at(cmd + 5), doc);
}
