/* linkscope import: other tools' saved output into one run document. */
#include "commands.h"
#include "options.h"
#include "import/import.h"
#include "model/doc.h"
#include "util/fileio.h"
#include "util/log.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char usage_import[] =
    "usage: linkscope import FILE... [-o OUT.json] [--into DOC.json] [--variant NAME]\n"
    "                        [--collective NAME] [--p2p-read FILE] [--p2p-write FILE]\n"
    "\n"
    "Reads saved output of other tools into one run document (\"source\": \"import\"),\n"
    "so that reports, plan, compare and check work on logs people already have.\n"
    "Each FILE's format is recognized from its text:\n"
    "  nccl-tests                 all_reduce_perf, all_gather_perf, ... (any 2.x version,\n"
    "                             several ranks, -d all, NCCL_DEBUG=INFO lines mixed in,\n"
    "                             partial pastes: rows without header, launcher tags)\n"
    "  NCCL INFO log              NCCL_DEBUG=INFO output alone: version, ranks, hosts,\n"
    "                             the transport of every connection, GPUDirect RDMA\n"
    "  p2pBandwidthLatencyTest    cuda-samples: P2P bandwidth and latency matrices, peer access\n"
    "  nvbandwidth                its text output or the JSON of nvbandwidth -j\n"
    "  nvidia-smi topo -m         the topology matrix (and a topo -p2p block under it)\n"
    "  nvidia-smi topo -p2p       P2P status words (r/w when the pasted command says so)\n"
    "  nvidia-smi nvlink -s / -e  link speeds, inactive links, error counters\n"
    "  nvidia-smi -q              GPU names, bus ids, PCIe generation and width\n"
    "  nccl-tests -J JSON         the text's figures, plus -I per-iteration statistics\n"
    "  dcgmi diag --json          each test's result per GPU, DCGM's error codes and text,\n"
    "                             its PCIe test's figures\n"
    "  dcgmi health -c -j         the health watches' results per GPU and system\n"
    "  ncclras                    text or -f json: job summary, communicator states, ranks\n"
    "                             and processes named in errors, -m events\n"
    "  NCCL Inspector JSONL       a job's collectives (with --into RUN.json: against its curve)\n"
    "  perftest                   ib_write_bw, ib_read_lat, ...: per size GB/s or us\n"
    "  nvloom                     nvloom_cli matrices (pairwise, gpu-to-rack, ...) and CSV\n"
    "A partial paste keeps its whole rows and says what was cut (one warning line).\n"
    "\n"
    "Options:\n"
    "  -o FILE             write the document to FILE (default: stdout, or DOC with --into)\n"
    "  --into DOC          add to an existing run document (rewritten atomically)\n"
    "  --variant NAME      label nccl-tests results, e.g. NCCL_P2P_LEVEL=PHB (default\n"
    "                      \"default\"); compare --variants sets variants side by side\n"
    "  --collective NAME   the collective, when the log names none (all_reduce, ...)\n"
    "  --p2p-read FILE     nvidia-smi topo -p2p r output (the topology imported with it)\n"
    "  --p2p-write FILE    nvidia-smi topo -p2p w output\n"
    "\n"
    "A file that is unreadable or in no known format gives one line naming it and exit\n"
    "code 2; nothing is written then. Details: docs/import.md.\n";

#define MAX_FILES 256

typedef struct {
    const char *files[MAX_FILES];
    int nfiles;
    const char *out, *into, *p2p_read, *p2p_write;
    ls_import_opts_t opts;
} import_args_t;

/* The collectives nccl-tests has a binary for (NAME_perf): --collective takes only these. */
static const char *const collectives[] = {"all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast",
                                          "reduce",     "sendrecv",   "gather",         "scatter",  "hypercube"};

static int known_collective(const char *name)
{
    for (size_t i = 0; i < sizeof collectives / sizeof *collectives; i++)
        if (!strcmp(name, collectives[i]))
            return 1;
    return 0;
}

static int parse_args(int argc, char **argv, import_args_t *a)
{
    static const struct option opts[] = {{"output", required_argument, 0, 'o'},
                                         {"into", required_argument, 0, 'i'},
                                         {"variant", required_argument, 0, 'v'},
                                         {"collective", required_argument, 0, 'c'},
                                         {"p2p-read", required_argument, 0, 'r'},
                                         {"p2p-write", required_argument, 0, 'w'},
                                         {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    const char **slots[128] = {['o'] = &a->out, ['i'] = &a->into, ['v'] = &a->opts.variant,
                               ['c'] = &a->opts.collective, ['r'] = &a->p2p_read, ['w'] = &a->p2p_write};
    int c;
    ls_opt_begin();
    while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
        if (ls_opt_refused("import", c, argv))
            return LS_EXIT_USAGE;
        *slots[c] = optarg;
    }
    if (a->opts.collective && !known_collective(a->opts.collective))
        return ls_usage_error("import", "--collective %.64s: not one of nccl-tests' collectives (all_reduce, all_gather, "
                              "reduce_scatter, alltoall, broadcast, reduce, sendrecv, gather, scatter, hypercube)",
                              a->opts.collective);
    if (argc - optind > MAX_FILES)
        return ls_usage_error("import", "at most %d files at once", MAX_FILES);
    for (; optind < argc; optind++)
        a->files[a->nfiles++] = argv[optind];
    if (a->nfiles == 0 && !a->p2p_read && !a->p2p_write)
        return ls_usage_error("import", "no FILE given");
    return ls_check_writable("import", a->out ? "-o" : "--into", a->out ? a->out : a->into, 0);
}

/* Reads every input first, so that an unreadable file stops everything. */
static char **read_all(const import_args_t *a)
{
    char **texts = calloc((size_t)a->nfiles + 1, sizeof *texts);
    if (!texts)
        return NULL;
    char err[512];
    for (int i = 0; i < a->nfiles; i++) {
        texts[i] = ls_read_file(a->files[i], NULL, err, sizeof err);
        if (!texts[i]) {
            ls_error("%s", err);
            for (int k = 0; k < i; k++)
                free(texts[k]);
            free(texts);
            return NULL;
        }
    }
    return texts;
}

static void free_all(char **texts, int n)
{
    for (int i = 0; texts && i < n; i++)
        free(texts[i]);
    free(texts);
}

int cmd_import(int argc, char **argv)
{
    import_args_t a;
    if (parse_args(argc, argv, &a) != 0)
        return LS_EXIT_USAGE;
    char err[512];
    json_t *doc;
    if (a.into) {
        doc = ls_read_document_into(a.into);
        if (!doc)
            return LS_EXIT_USAGE;
    } else {
        doc = ls_import_doc_new();
    }
    char **texts = read_all(&a);
    char(*notes)[640] = calloc((size_t)a.nfiles + 1, sizeof *notes);
    char(*warns)[640] = calloc((size_t)a.nfiles + 1, sizeof *warns);
    int rc = LS_EXIT_USAGE;
    ls_import_batch_t batch = {a.files, texts, a.nfiles, a.p2p_read, a.p2p_write, a.opts};
    if (texts && notes && warns && ls_import_batch(doc, &batch, notes, warns) == 0) {
        const char *out = a.out ? a.out : (a.into ? a.into : "-");
        char why[256];
        /* range-checked as the reader checks: never a document report would refuse */
        int valid = ls_doc_validate(doc, why, sizeof why) == 0;
        if (!valid)
            snprintf(err, sizeof err, "%s%s: what was read makes no valid run document (%s); "
                     "nothing written", a.nfiles ? a.files[0] : a.p2p_read ? a.p2p_read : a.p2p_write,
                     a.nfiles > 1 ? " and the other files" : "", why);
        if (valid && ls_doc_into_write(doc, out, err, sizeof err) == 0) {
            rc = LS_EXIT_OK;
            for (int i = 0; i < a.nfiles; i++) {
                ls_info("%s", notes[i]);
                if (warns[i][0])
                    ls_warn("%s", warns[i]);
            }
        } else {
            ls_error("%s", err);
        }
    }
    ls_doc_unlock_into();
    free(notes);
    free(warns);
    free_all(texts, a.nfiles);
    json_decref(doc);
    return rc;
}
