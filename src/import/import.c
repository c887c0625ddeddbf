#include "import.h"
#include "dcgm_diag.h"
#include "dcgm_health.h"
#include "dcgm_diag_text.h"
#include "dcgm_error.h"
#include "torch_watchdog.h"
#include "kernel_log.h"
#include "cuda_error.h"
#include "framework_log.h"
#include "fabric_manager.h"
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
#include "smi_table.h"
#include "import_sniff.h"
#include "simple_p2p.h"
#include "topo_text.h"
#include "topo_p2p_block.h"
#include "model/doc.h"
#include "util/log.h"

#include <stdio.h>
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
        ls_import_topo_pci_view(text, doc);
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
        ls_seterr(err, errlen,
                  "%s: import the nvidia-smi topo -m text first (the P2P status "
                  "needs the topology)",
                  name);
    else if (ls_topo_parse_p2p_text(text, write, topo, why, sizeof why) != 0)
        ls_seterr(err, errlen, "%s: nvidia-smi topo -p2p %c text: %s", name, write ? 'w' : 'r',
                  why);
    else {
        ls_topo_to_doc(topo, doc);
        ls_doc_sanitize(doc);
        rc = 0;
    }
    free(topo);
    return rc;
}

/* The CUDA error lines of a text another reader took (a traceback around NCCL's log, a
   kernel log, nccl-tests' output): theirs too (cuda_error.c skips NCCL's own lines but
   the CUDA error of a WARN "Cuda failure", and nccl-tests' "Cuda failure FILE:LINE"). */
/* The NCCL INFO / WARN lines and nvidia-smi's table or failure lines pasted beside a log
   another reader took: 1 when the table was read. */
static int also_nccl_and_smi(json_t *doc, const char *text, const char *name)
{
    char ignored[256]; /* lines of the other format that hold nothing: the log's alone */
    if (ls_nccl_log_detect(text))
        ls_import_nccl_log(doc, text, name, ignored, sizeof ignored);
    if (!ls_smi_table_detect(text))
        return 0;
    ls_import_smi_table(doc, text, name, ignored, sizeof ignored);
    return 1;
}

static int read_nccl_log(json_t *doc, const char *text, const char *name, char *err, size_t errlen);

static void also_cuda_errors(json_t *doc, const char *text, const char *name)
{
    char ignored[256]; /* a text without one: nothing to add */
    ls_import_cuda_errors(doc, text, name, ignored, sizeof ignored);
}

/* nccl-tests' header with no result row under it (the run failed or the paste stops
   before its first row), printed among NCCL_DEBUG=INFO lines: the log still holds the
   ranks, hosts and transports, so it is read as NCCL's log, the missing rows noted. */
static int nccl_tests_without_rows(json_t *doc, const char *text, const char *name, char *err,
                                   size_t errlen)
{
    if (!ls_nccl_log_detect(text))
        return -1; /* the nccl-tests refusal stands */
    int n = read_nccl_log(doc, text, name, err, errlen);
    if (n >= 0)
        ls_import_note_missing("nccl-tests' header without a result row under it: "
                               "its NCCL log lines read");
    return n;
}

static int read_nccl_tests(json_t *doc, const char *text, const char *name,
                           const ls_import_opts_t *o, char *err, size_t errlen)
{
    int n = ls_import_nccl_tests(doc, text, name, o ? o->variant : NULL, o ? o->collective : NULL,
                                 err, errlen);
    if (n < 0) {
        char why[512]; /* the nccl-tests refusal, kept when the log does not read either */
        snprintf(why, sizeof why, "%s", err);
        n = nccl_tests_without_rows(doc, text, name, err, errlen);
        if (n < 0)
            snprintf(err, errlen, "%s", why);
        return n;
    }
    char ignored[8]; /* NCCL INFO lines mixed in: their facts too, when there are any */
    if (n >= 0 && ls_nccl_log_detect(text))
        ls_import_nccl_log(doc, text, name, ignored, sizeof ignored);
    if (n >= 0)
        also_cuda_errors(doc, text, name);
    return n;
}

/* NCCL's log, and the program's lines around it: its CUDA errors, ProcessGroupNCCL's
   set-up warnings (the job's "destroy_process_group() was not called" at exit); where
   NCCL's lines hold no fact (a teardown's "[Service thread] Connection closed"), those
   warnings are the text's answer. */
static int read_nccl_log(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    int n = ls_import_nccl_log(doc, text, name, err, errlen);
    int warnings = ls_torch_pg_warning_detect(text);
    char ignored[8];       /* lines of the other format that hold nothing: the log's alone */
    if (n < 0 && warnings) /* NCCL's lines hold nothing: the warnings are the answer */
        return ls_import_torch_watchdog(doc, text, name, err, errlen);
    if (n >= 0 && warnings)
        ls_import_torch_watchdog(doc, text, name, ignored, sizeof ignored);
    if (n >= 0)
        also_cuda_errors(doc, text, name);
    return n;
}

/* CUDA error lines, and what is pasted with them that no earlier reader took: nvidia-smi's
   table or failure line ("nvidia-smi lists 8 GPUs; the job says system not yet
   initialized"). */
static int read_cuda_errors(json_t *doc, const char *text, const char *name, char *err,
                            size_t errlen)
{
    int n = ls_import_cuda_errors(doc, text, name, err, errlen);
    char ignored[256]; /* lines of the other format that hold nothing: the errors' alone */
    if (n >= 0 && ls_smi_table_detect(text))
        ls_import_smi_table(doc, text, name, ignored, sizeof ignored);
    return n;
}

/* A kernel log's NVRM lines, and what is often pasted with them: the NCCL INFO / WARN
   lines of a job log around them, and nvidia-smi's table or failure line ("nvidia-smi
   says No devices were found; meanwhile in syslog: RmInitAdapter failed"). */
static int read_kernel_log(json_t *doc, const char *text, const char *name, char *err,
                           size_t errlen)
{
    int n = ls_import_kernel_log(doc, text, name, err, errlen);
    char ignored[256]; /* lines of the other format that hold nothing: the log's alone */
    if (n < 0)
        return n;
    also_nccl_and_smi(doc, text, name);
    if (ls_fabric_manager_detect(text)) /* journalctl -u with -k, FM's own lines */
        ls_import_fabric_manager(doc, text, name, ignored, sizeof ignored);
    also_cuda_errors(doc, text, name);
    return n;
}

/* PyTorch's watchdog lines, and what is pasted with them: the NCCL INFO / WARN lines often
   printed with them, the kernel's NVRM lines of the node ("the allreduce timed out; dmesg
   says Xid 79"), nvidia-smi's table or failure line. The watchdog says the job hung; a
   dropped Xid would hide the node that made it hang. */
static int read_torch_watchdog(json_t *doc, const char *text, const char *name, char *err,
                               size_t errlen)
{
    int n = ls_import_torch_watchdog(doc, text, name, err, errlen);
    if (n < 0)
        return n;
    char ignored[256]; /* lines of the other format that hold nothing: the watchdog's alone */
    if (ls_kernel_log_detect(text)) /* its reader takes NCCL's lines and the table too */
        read_kernel_log(doc, text, name, ignored, sizeof ignored);
    else {
        also_nccl_and_smi(doc, text, name);
        also_cuda_errors(doc, text, name);
    }
    return n;
}

/* ncclras's report, and PyTorch's watchdog lines pasted with it: RAS queried while a job
   hung ("RAS shows it healthy, but PyTorch reported an NCCL timeout", nccl#1730). The
   report says what RAS saw; the watchdog's lines say what timed out: both are kept. */
static int read_nccl_ras(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    int n = ls_import_nccl_ras(doc, text, name, err, errlen);
    char ignored[8]; /* RAS's lines hold no watchdog fact: the report's alone */
    if (n >= 0 && ls_torch_watchdog_detect(text))
        ls_import_torch_watchdog(doc, text, name, ignored, sizeof ignored);
    return n;
}

/* Fabric Manager's lines, and what is pasted with them: a kernel log's NVRM / SXid lines
   (read first, by the kernel-log reader, when there are any), nvidia-smi's table, NCCL's
   lines ("nvidia-smi looks fine, CUDA says 802; systemctl status nvidia-fabricmanager"). */
static int read_fabric_manager(json_t *doc, const char *text, const char *name, char *err,
                               size_t errlen)
{
    int n = ls_import_fabric_manager(doc, text, name, err, errlen);
    if (n < 0)
        return n;
    char ignored[256], *rest = ls_fabric_manager_others(text);
    if (!also_nccl_and_smi(doc, text, name) && rest && ls_smi_query_detect(rest))
        ls_import_smi_query(doc, rest, name, ignored, sizeof ignored); /* -q's Fabric section */
    free(rest);
    also_cuda_errors(doc, text, name); /* CUDA's 802 pasted beside the service's state */
    return n;
}

/* p2pBandwidthLatencyTest's matrices, and simpleP2P's lines pasted with them: the two
   cuda-samples are run together to judge a pair's P2P, and only simpleP2P checks the data
   read over it (a pair can copy at full speed and return wrong data: cuda-samples'
   "Verification error @ element"). Both are kept. */
static int read_p2p_sample(json_t *doc, const char *text, const char *name, char *err,
                           size_t errlen)
{
    int n = ls_import_p2p_sample(doc, text, name, err, errlen);
    char ignored[512]; /* no simpleP2P line: the matrices' alone */
    if (n >= 0 && ls_simple_p2p_detect(text))
        ls_import_simple_p2p(doc, text, name, ignored, sizeof ignored);
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
    if (json_array_size(json_object_get(doc, "links")) == 0 &&
        topo_from_p2p(doc, text, name, err, errlen) != 0)
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
    {.fmt = LS_FMT_NCCL_TESTS_JSON,
     .name = "nccl-tests JSON",
     .detect = ls_nccl_tests_json_detect,
     .read_text = ls_import_nccl_tests_json,
     .help = "nccl-tests -J: the text's figures, plus -I\n"
             "per-iteration statistics"},
    {.fmt = LS_FMT_DCGM_DIAG,
     .name = "dcgmi diag JSON",
     .detect = ls_dcgm_diag_detect,
     .read_text = ls_import_dcgm_diag,
     .help = "dcgmi diag --json: each test's result per GPU,\n"
             "DCGM's error codes and text, its PCIe test's\n"
             "figures"},
    {.fmt = LS_FMT_DCGM_DIAG_TEXT,
     .name = "dcgmi diag",
     .detect = ls_dcgm_diag_text_detect,
     .read_text = ls_import_dcgm_diag_text,
     .help = "its text table: the same as its JSON (no figures)"},
    {.fmt = LS_FMT_DCGM_HEALTH,
     .name = "dcgmi health JSON",
     .detect = ls_dcgm_health_detect,
     .read_text = ls_import_dcgm_health,
     .help = "dcgmi health -c -j: the health watches' results\n"
             "per GPU and system"},
    {.fmt = LS_FMT_DCGM_ERROR,
     .name = "dcgmi error",
     .detect = ls_dcgm_error_detect,
     .read_text = ls_import_dcgm_error,
     .help = "dcgmi's or the DCGM diagnostic's own error (MIG,\n"
             "host engine, Return: code): the diagnostic did\n"
             "not run, the GPUs stay unknown"},
    {.fmt = LS_FMT_INSPECTOR,
     .name = "NCCL Inspector JSONL",
     .detect = ls_inspector_detect,
     .read_text = ls_import_inspector,
     .help = "a job's collectives (with --into RUN.json: against\n"
             "its curve)"},
    {.fmt = LS_FMT_NCCL_RAS_JSON,
     .name = "ncclras JSON",
     .detect = ls_nccl_ras_json_detect,
     .read_text = ls_import_nccl_ras_json,
     .help = "ncclras -f json: job summary, communicator\n"
             "states, ranks and processes named in errors, -m\n"
             "events"},
    {.fmt = LS_FMT_NCCL_RAS,
     .name = "ncclras",
     .detect = ls_nccl_ras_detect,
     .read_text = read_nccl_ras,
     .help = "its text: the same as its JSON"}, /* before the INFO log */
    {.fmt = LS_FMT_PERFTEST,
     .name = "perftest",
     .detect = ls_perftest_detect,
     .read_text = ls_import_perftest,
     .help = "ib_write_bw, ib_read_lat, ...: per size GB/s or us"},
    {.fmt = LS_FMT_NVLOOM,
     .name = "nvloom",
     .detect = ls_nvloom_detect,
     .read_text = ls_import_nvloom,
     .help = "nvloom_cli matrices (pairwise, gpu-to-rack, ...)\n"
             "and CSV"}, /* before nvbandwidth */
    {.fmt = LS_FMT_NVBANDWIDTH,
     .name = "nvbandwidth",
     .detect = ls_nvbandwidth_detect,
     .read_text = ls_import_nvbandwidth,
     .help = "its text output or the JSON of nvbandwidth -j"},
    {.fmt = LS_FMT_BUSGRIND,
     .name = "busGrind",
     .detect = ls_busgrind_detect,
     .read_text = ls_import_p2p_sample,
     .help = "the CUDA demo suite's busGrind: host/device\n"
             "and P2P bandwidth matrices"}, /* before p2pBandwidthLatencyTest */
    {.fmt = LS_FMT_P2P_SAMPLE,
     .name = "p2pBandwidthLatencyTest",
     .detect = ls_p2p_sample_detect,
     .read_text = read_p2p_sample,
     .help = "cuda-samples: P2P bandwidth and latency matrices,\n"
             "peer access"},
    {.fmt = LS_FMT_SIMPLE_P2P,
     .name = "simpleP2P",
     .detect = ls_simple_p2p_detect,
     .read_text = ls_import_simple_p2p,
     .help = "cuda-samples: peer access, the P2P memcpy figure,\n"
             "the verification of data read over P2P"},
    {.fmt = LS_FMT_NCCL_TESTS,
     .name = "nccl-tests",
     .detect = ls_nccl_tests_detect,
     .read = read_nccl_tests,
     .help = "all_reduce_perf, all_gather_perf, ... (any 2.x\n"
             "version, several ranks, -d all, NCCL_DEBUG=INFO\n"
             "lines mixed in, partial pastes: rows without\n"
             "header, launcher tags)"},
    {.fmt = LS_FMT_TORCH_WATCHDOG,
     .name = "PyTorch NCCL watchdog",
     .detect = ls_torch_watchdog_detect,
     .read_text = read_torch_watchdog,
     .help = "ProcessGroupNCCL's timeouts (op, SeqNum, ranks,\n"
             "last completed work), a stuck watchdog; NCCL\n"
             "lines mixed in"}, /* before the INFO log */
    {.fmt = LS_FMT_KERNEL_LOG,
     .name = "kernel log (NVRM)",
     .detect = ls_kernel_log_detect,
     .read_text = read_kernel_log,
     .help = "dmesg, dmesg -T, syslog, journalctl -k: the\n"
             "driver's Xid events and failure lines, NVSwitch\n"
             "SXid lines"}, /* before the INFO log */
    {.fmt = LS_FMT_FABRIC_MANAGER,
     .name = "Fabric Manager",
     .detect = ls_fabric_manager_detect,
     .read_text = read_fabric_manager,
     .help = "fabricmanager.log, journalctl -u / systemctl status\n"
             "nvidia-fabricmanager: version, service state,\n"
             "start failures, NVSwitch errors"}, /* before the INFO log */
    {.fmt = LS_FMT_NCCL_LOG,
     .name = "NCCL INFO log",
     .detect = ls_nccl_log_detect,
     .read_text = read_nccl_log,
     .help = "NCCL_DEBUG=INFO output alone: version, ranks,\n"
             "hosts, the transport of every connection, GPUDirect\n"
             "RDMA"},
    {.fmt = LS_FMT_CUDA_ERROR,
     .name = "CUDA errors",
     .detect = ls_cuda_error_detect,
     .read_text = read_cuda_errors,
     .help = "CUDA error lines of PyTorch, cuda-samples,\n"
             "deviceQuery, TensorFlow, JAX, CuPy: each error's\n"
             "code, name, count, call, GPU and rank"},
    {.fmt = LS_FMT_SMI_QUERY,
     .name = "nvidia-smi -q",
     .detect = ls_smi_query_detect,
     .read_text = ls_import_smi_query,
     .help = "GPU names, bus ids, PCIe generation and width"},
    {.fmt = LS_FMT_SMI_NVLINK,
     .name = "nvidia-smi nvlink",
     .detect = ls_smi_nvlink_detect,
     .read_text = ls_import_smi_nvlink,
     .help = "nvlink -s / -e: link speeds, inactive links, error\n"
             "counters"},
    {.fmt = LS_FMT_TOPO_P2P,
     .name = "nvidia-smi topo -p2p",
     .detect = looks_like_topo_p2p,
     .read_text = import_topo_p2p,
     .help = "P2P status words (r/w when the pasted command says\n"
             "so)"},
    {.fmt = LS_FMT_TOPO,
     .name = "nvidia-smi topo -m",
     .detect = ls_topo_text_detect,
     .read_text = import_topo,
     .help = "the topology matrix (and a topo -p2p block under\n"
             "it)"},
    {.fmt = LS_FMT_SMI_TABLE,
     .name = "nvidia-smi",
     .detect = ls_smi_table_detect,
     .read_text = ls_import_smi_table,
     .help = "its default table: GPUs, driver, ECC, power, MIG\n"
             "and processes; its failure texts (driver not\n"
             "reachable, version mismatch, GPU lost, no devices)"}, /* last: a table
                                                                       pasted with another
                                                                       format's text is that
                                                                       format's */
    {.fmt = LS_FMT_TORCH_PG_WARNING,
     .name = "ProcessGroupNCCL warnings",
     .detect = ls_torch_pg_warning_detect,
     .read_text = ls_import_torch_watchdog,
     .help = "its set-up warnings alone (barrier()'s guessed\n"
             "GPU, no destroy_process_group() at exit): what\n"
             "they mean, not a failure"}, /* after every reader of a failure: theirs win */
    {.fmt = LS_FMT_FRAMEWORK_LOG,
     .name = "framework log",
     .detect = ls_framework_log_detect,
     .read_text = ls_import_framework_log,
     .help = "TensorFlow, glog and vLLM log lines with none of\n"
             "the above in them: noted as read, nothing judged;\n"
             "TensorFlow's GPU list"}, /* after every reader: any of theirs wins */
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
    char *plain = ls_import_plain_text(text); /* editor's numbers, launcher's tags */
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

/* "  NAME" padded to column col (the names are shorter), then the help, its later
   lines indented to col. Returns the bytes added (at most len - 1). */
static size_t put_usage(char *buf, size_t len, const ls_importer_t *r, int col)
{
    size_t used = 0;
    int n = snprintf(buf, len, "  %-*s", col - 2, r->name);
    used = n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
    for (const char *p = r->help; *p && used + (size_t)col + 2 < len; p++) {
        buf[used++] = *p;
        if (*p == '\n')
            used += (size_t)snprintf(buf + used, len - used, "%*s", col, "");
    }
    if (used + 1 < len)
        buf[used++] = '\n';
    buf[used] = 0;
    return used;
}

const char *ls_import_formats(int col)
{
    static char text[8192];
    size_t used = 0;
    text[0] = 0;
    for (size_t i = 0; i < NREADERS && used + 1 < sizeof text; i++)
        if (col > 0)
            used += put_usage(text + used, sizeof text - used, &readers[i], col);
        else
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%s",
                                     i == 0              ? ""
                                     : i + 1 == NREADERS ? " or "
                                                         : ", ",
                                     readers[i].name);
    return text;
}

const char *const *ls_import_collectives(void)
{
    static const char *const names[] = {"all_reduce", "all_gather", "reduce_scatter",
                                        "alltoall",   "broadcast",  "reduce",
                                        "sendrecv",   "gather",     "scatter",
                                        "hypercube",  NULL};
    return names;
}

/* The kernel's NVRM lines pasted under any tool's output ("all_reduce_perf hung; dmesg:
   Xid 79"; ncclras, nvbandwidth, dcgmi diag, p2pBandwidthLatencyTest the same): read as a
   kernel log too when the reader that took the text kept none. An Xid names the node to
   act on; dropping it with the rest of a paste would hide it. */
static void also_kernel_log(json_t *doc, const char *text, const char *name, size_t before)
{
    char ignored[256]; /* no NVRM line: nothing to add */
    if (json_array_size(json_object_get(doc, "kernel_logs")) == before &&
        ls_kernel_log_detect(text))
        ls_import_kernel_log(doc, text, name, ignored, sizeof ignored);
}

/* The import boundary: whatever a log held (GPU names, hostnames, variants), the
   document gets it without terminal escapes or control characters (docs/safety.md). */
int ls_import_text(json_t *doc, const char *text, const char *name, const ls_import_opts_t *opts,
                   enum ls_import_format *fmt_out, char *err, size_t errlen)
{
    char *plain = ls_import_plain_text(text); /* editor's numbers, launcher's tags */
    if (plain)
        text = plain;
    const ls_importer_t *r = find_reader(text);
    if (fmt_out)
        *fmt_out = r ? r->fmt : LS_FMT_UNKNOWN;
    size_t first = json_array_size(json_object_get(doc, "measurements"));
    size_t klogs = json_array_size(json_object_get(doc, "kernel_logs"));
    ls_import_note_reset();
    char near[320];
    int n = r ? (r->read ? r->read(doc, text, name, opts, err, errlen)
                         : r->read_text(doc, text, name, err, errlen))
            : ls_import_sniff(text, near, sizeof near) /* a near miss: say what it looks like */
                ? ls_seterr(err, errlen, "%s: %s", name, near)
                : ls_seterr(err, errlen, "%s: unknown format (expected one of: %s)", name,
                            ls_import_formats(0));
    if (r && n >= 0)
        also_kernel_log(doc, text, name, klogs);
    free(plain);
    ls_doc_sanitize(doc); /* the import boundary (docs/safety.md) */
    if (r && n >= 0)
        ls_import_note_record(doc, name, r->name, first, n);
    return n;
}
