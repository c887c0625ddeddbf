/* `linkscope import`: recognizes a saved tool output and adds its figures to a run
   document. Formats: nccl-tests text, p2pBandwidthLatencyTest text, nvbandwidth -j
   JSON, nvidia-smi topo -m text (and topo -p2p r|w when told which). */
#ifndef LS_IMPORT_IMPORT_H
#define LS_IMPORT_IMPORT_H

#include <jansson.h>
#include <stddef.h>

enum ls_import_format {
    LS_FMT_UNKNOWN = 0,
    LS_FMT_NCCL_TESTS,
    LS_FMT_NCCL_LOG, /* NCCL_DEBUG=INFO output alone */
    LS_FMT_P2P_SAMPLE,
    LS_FMT_NVBANDWIDTH,
    LS_FMT_TOPO,
    LS_FMT_TOPO_P2P /* nvidia-smi topo -p2p r|w: the text does not say which */
};

typedef struct {
    const char *variant;    /* nccl entries' "variant" (NULL = "default") */
    const char *collective; /* nccl-tests: override the collective's name */
} ls_import_opts_t;

enum ls_import_format ls_import_detect(const char *text);
const char *ls_import_format_name(enum ls_import_format fmt);

/* A new, empty run document for imported figures ("source": "import"). */
json_t *ls_import_doc_new(void);

/* Detects text's format and adds what it holds to doc. Returns the number of entries
   added (0 for topology text, which fills gpus/links), or -1 with err = one line
   naming name. */
int ls_import_text(json_t *doc, const char *text, const char *name, const ls_import_opts_t *opts,
                   enum ls_import_format *fmt_out, char *err, size_t errlen);

/* nvidia-smi topo -p2p r (write = 0) or w (write = 1) text into the document's links;
   needs the topology (topo -m) imported first. 0 or -1 with err. */
int ls_import_topo_p2p(json_t *doc, const char *text, const char *name, int write, char *err,
                       size_t errlen);

#endif
