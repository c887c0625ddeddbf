#include "import.h"
#include "import_util.h"
#include "nccl_log.h"
#include "nccl_tests.h"
#include "nvbandwidth.h"
#include "p2p_sample.h"
#include "topo_text.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>

static int looks_like_topo_p2p(const char *text)
{
    return strstr(text, "CNS  = Chipset not supported") != NULL &&
           strstr(text, "NV#") == NULL;
}

enum ls_import_format ls_import_detect(const char *text)
{
    if (ls_nvbandwidth_detect(text))
        return LS_FMT_NVBANDWIDTH;
    if (ls_p2p_sample_detect(text))
        return LS_FMT_P2P_SAMPLE;
    if (ls_nccl_tests_detect(text))
        return LS_FMT_NCCL_TESTS;
    if (ls_nccl_log_detect(text))
        return LS_FMT_NCCL_LOG;
    if (looks_like_topo_p2p(text))
        return LS_FMT_TOPO_P2P;
    if (ls_topo_text_detect(text))
        return LS_FMT_TOPO;
    return LS_FMT_UNKNOWN;
}

const char *ls_import_format_name(enum ls_import_format fmt)
{
    switch (fmt) {
    case LS_FMT_NCCL_TESTS: return "nccl-tests";
    case LS_FMT_NCCL_LOG: return "NCCL INFO log";
    case LS_FMT_P2P_SAMPLE: return "p2pBandwidthLatencyTest";
    case LS_FMT_NVBANDWIDTH: return "nvbandwidth";
    case LS_FMT_TOPO: return "nvidia-smi topo -m";
    case LS_FMT_TOPO_P2P: return "nvidia-smi topo -p2p";
    default: return "unknown";
    }
}

json_t *ls_import_doc_new(void)
{
    json_t *doc = ls_doc_new();
    json_object_set_new(doc, "source", json_string("import"));
    return doc;
}

static int import_topo(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    ls_topo_t *topo = calloc(1, sizeof *topo);
    if (!topo)
        return ls_seterr(err, errlen, "%s: out of memory", name);
    char why[256];
    int rc = ls_topo_parse_text(text, topo, why, sizeof why);
    if (rc == 0)
        ls_topo_to_doc(topo, doc);
    else
        ls_seterr(err, errlen, "%s: nvidia-smi topo -m text: %s", name, why);
    free(topo);
    return rc;
}

int ls_import_topo_p2p(json_t *doc, const char *text, const char *name, int write, char *err,
                       size_t errlen)
{
    ls_topo_t *topo = calloc(1, sizeof *topo);
    if (!topo)
        return ls_seterr(err, errlen, "%s: out of memory", name);
    char why[256];
    int rc = -1;
    if (ls_topo_from_doc(doc, topo) != 0)
        ls_seterr(err, errlen, "%s: import the nvidia-smi topo -m text first (the P2P status "
                               "needs the topology)", name);
    else if (ls_topo_parse_p2p_text(text, write, topo, why, sizeof why) != 0)
        ls_seterr(err, errlen, "%s: nvidia-smi topo -p2p %c text: %s", name, write ? 'w' : 'r', why);
    else {
        ls_topo_to_doc(topo, doc);
        rc = 0;
    }
    free(topo);
    return rc;
}

int ls_import_text(json_t *doc, const char *text, const char *name, const ls_import_opts_t *opts,
                   enum ls_import_format *fmt_out, char *err, size_t errlen)
{
    enum ls_import_format fmt = ls_import_detect(text);
    if (fmt_out)
        *fmt_out = fmt;
    switch (fmt) {
    case LS_FMT_NCCL_TESTS: {
        int n = ls_import_nccl_tests(doc, text, name, opts ? opts->variant : NULL,
                                     opts ? opts->collective : NULL, err, errlen);
        char ignored[8]; /* NCCL INFO lines mixed in: their facts too, when there are any */
        if (n >= 0 && ls_nccl_log_detect(text))
            ls_import_nccl_log(doc, text, name, ignored, sizeof ignored);
        return n;
    }
    case LS_FMT_NCCL_LOG:
        return ls_import_nccl_log(doc, text, name, err, errlen);
    case LS_FMT_P2P_SAMPLE:
        return ls_import_p2p_sample(doc, text, name, err, errlen);
    case LS_FMT_NVBANDWIDTH:
        return ls_import_nvbandwidth(doc, text, name, err, errlen);
    case LS_FMT_TOPO:
        return import_topo(doc, text, name, err, errlen);
    case LS_FMT_TOPO_P2P:
        return ls_seterr(err, errlen,
                         "%s: looks like 'nvidia-smi topo -p2p' output, which does not say "
                         "whether it is r or w; pass it with --p2p-read or --p2p-write", name);
    default:
        return ls_seterr(err, errlen,
                         "%s: unknown format (expected nccl-tests output, an NCCL INFO log, "
                         "p2pBandwidthLatencyTest output, nvbandwidth -j JSON or "
                         "nvidia-smi topo -m text)", name);
    }
}
