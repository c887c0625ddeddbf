#include "import.h"
#include "dcgm_diag.h"
#include "dcgm_health.h"
#include "inspector.h"
#include "nccl_ras.h"
#include "nccl_ras_json.h"
#include "nccl_tests_json.h"
#include "nvloom.h"
#include "perftest.h"
#include "import_note.h"
#include "import_util.h"
#include "line_numbers.h"
#include "nccl_log.h"
#include "nccl_tests.h"
#include "nvbandwidth.h"
#include "p2p_sample.h"
#include "smi_text.h"
#include "import_sniff.h"
#include "topo_text.h"
#include "topo_p2p_block.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>

/* topo -p2p output: its legend, or a header of GPU labels over rows of its words (a
   paste without the legend; the tail of a topo -m legend may come before it). */
static int looks_like_topo_p2p(const char *text)
{
    if (ls_topo_text_detect(text))
        return 0; /* a topo -m matrix, maybe with a -p2p block under it */
    return strstr(text, "CNS  = Chipset not supported") != NULL || ls_topo_p2p_text_detect(text);
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
    char why[256], missing[512];
    int rc = ls_topo_parse_text_partial(text, topo, missing, sizeof missing, why, sizeof why);
    if (rc == 0) {
        if (missing[0])
            ls_import_note_missing("%s", missing);
        ls_import_topo_p2p_block(topo, text); /* a topo -p2p block pasted under the matrix */
        ls_topo_to_doc(topo, doc);
        ls_import_topo_p2p_unspecified(topo, text, doc);
        ls_import_topo_numa(doc);
    } else {
        ls_seterr(err, errlen, "%s: nvidia-smi topo -m text: %s", name, why);
    }
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
        ls_doc_sanitize(doc);
        rc = 0;
    }
    free(topo);
    return rc;
}

static int read_nccl_tests(json_t *doc, const char *text, const char *name, const ls_import_opts_t *o,
                           char *err, size_t errlen)
{
    int n = ls_import_nccl_tests(doc, text, name, o ? o->variant : NULL, o ? o->collective : NULL, err,
                                 errlen);
    char ignored[8]; /* NCCL INFO lines mixed in: their facts too, when there are any */
    if (n >= 0 && ls_nccl_log_detect(text))
        ls_import_nccl_log(doc, text, name, ignored, sizeof ignored);
    return n;
}

/* topo -p2p pasted alone: the GPUs of its header with every link unknown, so that the
   P2P words are kept (issue 22); the import notes that the topology is not in it. */
static int topo_from_p2p(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    ls_topo_t *topo = calloc(1, sizeof *topo);
    if (!topo)
        return ls_seterr(err, errlen, "%s: out of memory", name);
    int rc = ls_topo_from_p2p_header(text, topo);
    if (rc == 0) /* a whole output, not a cut one: the links are simply not its subject */
        ls_topo_to_doc(topo, doc);
    else
        ls_seterr(err, errlen, "%s: nvidia-smi topo -p2p text: no header row of GPU labels", name);
    free(topo);
    return rc;
}

/* topo -p2p output as a FILE: read or write when the pasted command line says which,
   else kept as links[].p2p_status; on the topology of the document when there is one. */
static int import_topo_p2p(json_t *doc, const char *text, const char *name, char *err,
                           size_t errlen)
{
    if (json_array_size(json_object_get(doc, "links")) == 0 && topo_from_p2p(doc, text, name, err, errlen) != 0)
        return -1;
    int kind = ls_topo_p2p_kind(text);
    if (kind)
        return ls_import_topo_p2p(doc, text, name, kind == 'w', err, errlen);
    ls_topo_t *topo = calloc(1, sizeof *topo);
    if (!topo)
        return ls_seterr(err, errlen, "%s: out of memory", name);
    int rc = ls_topo_from_doc(doc, topo);
    if (rc != 0)
        ls_seterr(err, errlen, "%s: the document's topology could not be read", name);
    else
        ls_import_topo_p2p_unspecified(topo, text, doc);
    free(topo);
    return rc;
}


/* The readers, in the order they are tried: the first whose detect says yes reads the
   text (a more specific format before one whose signature it also carries). */
static const ls_importer_t readers[] = {
    {LS_FMT_NCCL_TESTS_JSON, "nccl-tests JSON", ls_nccl_tests_json_detect, NULL, ls_import_nccl_tests_json},
    {LS_FMT_DCGM_DIAG, "dcgmi diag JSON", ls_dcgm_diag_detect, NULL, ls_import_dcgm_diag},
    {LS_FMT_DCGM_HEALTH, "dcgmi health JSON", ls_dcgm_health_detect, NULL, ls_import_dcgm_health},
    {LS_FMT_INSPECTOR, "NCCL Inspector JSONL", ls_inspector_detect, NULL, ls_import_inspector},
    {LS_FMT_NCCL_RAS_JSON, "ncclras JSON", ls_nccl_ras_json_detect, NULL, ls_import_nccl_ras_json},
    {LS_FMT_NCCL_RAS, "ncclras", ls_nccl_ras_detect, NULL, ls_import_nccl_ras}, /* before the INFO log */
    {LS_FMT_PERFTEST, "perftest", ls_perftest_detect, NULL, ls_import_perftest},
    {LS_FMT_NVLOOM, "nvloom", ls_nvloom_detect, NULL, ls_import_nvloom}, /* before nvbandwidth */
    {LS_FMT_NVBANDWIDTH, "nvbandwidth", ls_nvbandwidth_detect, NULL, ls_import_nvbandwidth},
    {LS_FMT_P2P_SAMPLE, "p2pBandwidthLatencyTest", ls_p2p_sample_detect, NULL, ls_import_p2p_sample},
    {LS_FMT_NCCL_TESTS, "nccl-tests", ls_nccl_tests_detect, read_nccl_tests, NULL},
    {LS_FMT_NCCL_LOG, "NCCL INFO log", ls_nccl_log_detect, NULL, ls_import_nccl_log},
    {LS_FMT_SMI_QUERY, "nvidia-smi -q", ls_smi_query_detect, NULL, ls_import_smi_query},
    {LS_FMT_SMI_NVLINK, "nvidia-smi nvlink", ls_smi_nvlink_detect, NULL, ls_import_smi_nvlink},
    {LS_FMT_TOPO_P2P, "nvidia-smi topo -p2p", looks_like_topo_p2p, NULL, import_topo_p2p},
    {LS_FMT_TOPO, "nvidia-smi topo -m", ls_topo_text_detect, NULL, import_topo},
};

#define NREADERS (sizeof readers / sizeof readers[0])

static const ls_importer_t *find_reader(const char *text)
{
    for (size_t i = 0; i < NREADERS; i++)
        if (readers[i].detect(text))
            return &readers[i];
    return NULL;
}

enum ls_import_format ls_import_detect(const char *text)
{
    char *plain = ls_strip_line_numbers(text); /* pasted from an editor with numbers */
    const ls_importer_t *r = find_reader(plain ? plain : text);
    free(plain);
    return r ? r->fmt : LS_FMT_UNKNOWN;
}

const char *ls_import_format_name(enum ls_import_format fmt)
{
    for (size_t i = 0; i < NREADERS; i++)
        if (readers[i].fmt == fmt)
            return readers[i].name;
    return "unknown";
}

/* The import boundary: whatever a log held (GPU names, hostnames, variants), the
   document gets it without terminal escapes or control characters (docs/safety.md). */
int ls_import_text(json_t *doc, const char *text, const char *name, const ls_import_opts_t *opts,
                   enum ls_import_format *fmt_out, char *err, size_t errlen)
{
    char *plain = ls_strip_line_numbers(text); /* pasted from an editor with numbers */
    if (plain)
        text = plain;
    const ls_importer_t *r = find_reader(text);
    if (fmt_out)
        *fmt_out = r ? r->fmt : LS_FMT_UNKNOWN;
    size_t first = json_array_size(json_object_get(doc, "measurements"));
    ls_import_note_reset();
    char near[320];
    int n = r ? (r->read ? r->read(doc, text, name, opts, err, errlen)
                         : r->read_text(doc, text, name, err, errlen))
            : ls_import_sniff(text, near, sizeof near) /* a near miss: say what it looks like */
              ? ls_seterr(err, errlen, "%s: %s", name, near)
              : ls_seterr(err, errlen,
                          "%s: unknown format (expected nccl-tests output, an NCCL INFO log, "
                          "p2pBandwidthLatencyTest output, nvbandwidth text or JSON, nvidia-smi "
                          "topo -m, nvidia-smi nvlink -s/-e or nvidia-smi -q text, nccl-tests -J JSON, dcgmi diag "
                          "or health JSON, ncclras text or JSON, NCCL Inspector JSONL, perftest or nvloom "
                          "output)", name);
    free(plain);
    ls_doc_sanitize(doc); /* the import boundary (docs/safety.md) */
    if (r && n >= 0)
        ls_import_note_record(doc, name, r->name, first, n);
    return n;
}
