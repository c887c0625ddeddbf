/* linkscope import's order of work (import.h's ls_import_batch): every format
   recognized before anything is read, the topology before the figures, then the
   nvidia-smi topo -p2p files. */
#include "import.h"
#include "util/fileio.h"
#include "util/log.h"

#include <stdlib.h>

/* Imports one file; the line saying what it held (and one warning for a partial
   paste) is kept in note / warn and printed only once every file has been read, so
   that a failure leaves one line alone. */
static int import_one(json_t *doc, const char *text, const char *name, const ls_import_opts_t *opts,
                      char *note, size_t notelen, char *warn, size_t warnlen)
{
    char err[512];
    enum ls_import_format fmt;
    size_t before = json_array_size(json_object_get(doc, "measurements"));
    int n = ls_import_text(doc, text, name, opts, &fmt, err, sizeof err);
    if (n < 0) {
        ls_error("%s", err);
        return -1;
    }
    ls_import_note(doc, before, fmt, n, name, note, notelen, warn, warnlen);
    return 0;
}

/* Every format is recognized before anything is imported. */
static int check_formats(const ls_import_batch_t *a, char *const *texts)
{
    for (int i = 0; i < a->nfiles; i++) {
        if (ls_import_detect(texts[i]) != LS_FMT_UNKNOWN)
            continue;
        char err[512];
        json_t *scratch = ls_import_doc_new();
        ls_import_text(scratch, texts[i], a->files[i], &a->opts, NULL, err, sizeof err);
        json_decref(scratch);
        ls_error("%s", err);
        return -1;
    }
    return 0;
}

static int import_p2p_status(json_t *doc, const char *path, int write)
{
    char err[512];
    char *text = ls_read_file(path, NULL, err, sizeof err);
    if (!text) {
        ls_error("%s", err);
        return -1;
    }
    int rc = ls_import_topo_p2p(doc, text, path, write, err, sizeof err);
    free(text);
    if (rc != 0)
        ls_error("%s", err);
    return rc;
}

/* Topology first (P2P status and link types hang off it), then the figures. */
int ls_import_batch(json_t *doc, const ls_import_batch_t *a, char (*notes)[640], char (*warns)[640])
{
    char *const *texts = a->texts;
    if (check_formats(a, texts) != 0)
        return -1;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < a->nfiles; i++) {
            int is_topo = ls_import_detect(texts[i]) == LS_FMT_TOPO;
            if (is_topo == (pass == 0) &&
                import_one(doc, texts[i], a->files[i], &a->opts, notes[i], sizeof notes[i],
                           warns[i], sizeof warns[i]) != 0)
                return -1;
        }
    if (a->p2p_read && import_p2p_status(doc, a->p2p_read, 0) != 0)
        return -1;
    if (a->p2p_write && import_p2p_status(doc, a->p2p_write, 1) != 0)
        return -1;
    return 0;
}
