/* linkscope topo --from (topo_text.h): saved nvidia-smi topo -m text or a run document
   into a topology, with the P2P status matrices of topo -p2p r|w when given. */
#include "topo_text.h"
#include "import.h"
#include "import_note.h"
#include "topo_p2p_block.h"
#include "import_util.h"
#include "model/doc.h"
#include "util/fileio.h"
#include "util/log.h"

#include <stdlib.h>

static int is_json_text(const char *text)
{
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
        text++;
    return *text == '{';
}

/* A run document given to --from: its topology, and the document itself for --json. */
static json_t *load_doc(const char *path, const char *text, ls_topo_t *topo, char *err,
                        size_t errlen)
{
    json_t *doc = ls_doc_parse(text, path, err, errlen);
    if (doc && ls_topo_from_doc(doc, topo) != 0) {
        ls_seterr(err, errlen, "%s: gpus: empty; the run document holds no topology", path);
        json_decref(doc);
        return NULL;
    }
    return doc;
}

/* A text that is not topo -m but that import reads into a topology (nvidia-smi topo
   -p2p pasted alone: its GPUs, the links unknown): the same texts as import. Else the
   topo -m parser's reason. */
static json_t *load_other_topology(const char *path, const char *text, ls_topo_t *topo,
                                   const char *why, char *err, size_t errlen)
{
    json_t *doc = ls_import_doc_new();
    char ierr[512];
    enum ls_import_format fmt = LS_FMT_UNKNOWN;
    if (ls_import_text(doc, text, path, NULL, &fmt, ierr, sizeof ierr) >= 0 &&
        fmt == LS_FMT_TOPO_P2P && ls_topo_from_doc(doc, topo) == 0)
        return doc;
    json_decref(doc);
    ls_seterr(err, errlen, "%s: %s", path, why);
    return NULL;
}

/* The same texts as `linkscope import` (issue 22): a cut matrix keeps its whole rows,
   says what was cut in one warning line and marks the document's imports[] incomplete;
   a topo -p2p block under the matrix is read as import reads it. */
static json_t *load_topo_text(const char *path, const char *text, ls_topo_t *topo, char *err,
                              size_t errlen)
{
    char why[512], missing[512];
    if (ls_topo_parse_text_partial(text, topo, missing, sizeof missing, why, sizeof why) != 0)
        return load_other_topology(path, text, topo, why, err, errlen);
    json_t *doc = ls_import_doc_new();
    ls_import_note_reset();
    if (missing[0]) {
        ls_import_note_missing("%s", missing);
        ls_warn("%s: incomplete paste: %s", path, missing);
    }
    ls_import_topo_p2p_block(topo, text);
    ls_topo_to_doc(topo, doc);
    ls_import_topo_p2p_unspecified(topo, text, doc);
    ls_import_topo_numa(doc);
    ls_import_topo_pci_view(text, doc);
    ls_import_note_record(doc, path, "nvidia-smi topo -m", 0, 0);
    return doc;
}

static int load_p2p(const char *path, int write, ls_topo_t *topo, char *err, size_t errlen)
{
    char why[512];
    char *text = ls_read_file(path, NULL, err, errlen);
    if (!text)
        return -1;
    int rc = ls_topo_parse_p2p_text(text, write, topo, why, sizeof why);
    free(text);
    return rc != 0 ? ls_seterr(err, errlen, "%s: %s", path, why) : 0;
}

json_t *ls_topo_load_files(const char *from, const char *p2p_read, const char *p2p_write,
                           ls_topo_t *topo, char *err, size_t errlen)
{
    char *text = ls_read_file(from, NULL, err, errlen);
    if (!text)
        return NULL;
    json_t *doc = is_json_text(text) ? load_doc(from, text, topo, err, errlen)
                                     : load_topo_text(from, text, topo, err, errlen);
    free(text);
    if (doc && ((p2p_read && load_p2p(p2p_read, 0, topo, err, errlen) != 0) ||
                (p2p_write && load_p2p(p2p_write, 1, topo, err, errlen) != 0))) {
        json_decref(doc);
        return NULL;
    }
    if (doc && (p2p_read || p2p_write))
        ls_topo_to_doc(topo, doc);
    return doc;
}
