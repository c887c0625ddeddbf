/* `linkscope import`: recognizes a saved tool output and adds its figures to a run
   document. Formats: nccl-tests text and -J JSON, NCCL INFO logs, p2pBandwidthLatencyTest
   text, nvbandwidth text and -j JSON, nvidia-smi topo -m and topo -p2p text, nvidia-smi
   nvlink -s/-e and -q text, plain nvidia-smi (its table and failure texts), dcgmi diag JSON and
   text, dcgmi health JSON, PyTorch's NCCL watchdog text, ncclras text and JSON, NCCL Inspector
   JSONL, perftest and nvloom text, cuda-samples' simpleP2P (docs/import.md). */
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
    LS_FMT_TOPO_P2P,        /* nvidia-smi topo -p2p r|w: the text does not say which */
    LS_FMT_SMI_NVLINK,      /* nvidia-smi nvlink -s / -e: gpus[].nvlinks */
    LS_FMT_SMI_QUERY,       /* nvidia-smi -q: gpus[] names, bus ids, PCIe; software */
    LS_FMT_NCCL_TESTS_JSON, /* nccl-tests -J */
    LS_FMT_DCGM_DIAG,       /* dcgmi diag --json: top-level dcgm[] */
    LS_FMT_NCCL_RAS,        /* ncclras text: top-level nccl_ras[] */
    LS_FMT_INSPECTOR,       /* NCCL Inspector JSONL: top-level inspector[] */
    LS_FMT_PERFTEST,        /* ib_write_bw, ib_read_lat ...: "net" entries */
    LS_FMT_NVLOOM,          /* nvloom_cli matrices and CSV: "mnnvl" entries, top-level nvloom[] */
    LS_FMT_DCGM_HEALTH,     /* dcgmi health -c -j: top-level dcgm_health[] */
    LS_FMT_NCCL_RAS_JSON,   /* ncclras -f json (and -m events): top-level nccl_ras[] */
    LS_FMT_TORCH_WATCHDOG,  /* PyTorch ProcessGroupNCCL watchdog text: torch_watchdog[] */
    LS_FMT_DCGM_DIAG_TEXT,  /* dcgmi diag's text table: top-level dcgm[] */
    LS_FMT_SMI_TABLE,       /* plain nvidia-smi and its failure texts: gpus[], smi[] */
    LS_FMT_KERNEL_LOG,      /* a kernel log's NVRM lines (dmesg, syslog): kernel_logs[] */
    LS_FMT_FABRIC_MANAGER,  /* Fabric Manager's log, journal, systemctl: fabric_managers[] */
    LS_FMT_CUDA_ERROR,      /* CUDA error lines (PyTorch, cuda-samples, ...): cuda_errors[] */
    LS_FMT_FRAMEWORK_LOG,   /* a framework's log with none of the above: framework_logs[] */
    LS_FMT_SIMPLE_P2P,      /* cuda-samples' simpleP2P: simple_p2p[], links' peer access */
    LS_FMT_DCGM_ERROR,      /* dcgmi's and NVVS's own error texts: dcgm[] without tests */
    LS_FMT_BUSGRIND,        /* the CUDA demo suite's busGrind: p2p and host entries */
    LS_FMT_TORCH_PG_WARNING /* ProcessGroupNCCL's set-up warnings alone: torch_watchdog[] */
};

typedef struct {
    const char *variant;    /* nccl entries' "variant" (NULL = "default") */
    const char *collective; /* nccl-tests: override the collective's name */
} ls_import_opts_t;

/* One reader per format, in import.c's table: what it is called, whether a text is in
   its format, and how it adds what the text holds to a document (the number of entries
   added, or -1 with err = one line naming name): read when it takes the options,
   read_text when it does not (the other NULL). */
typedef struct {
    enum ls_import_format fmt;
    const char *name;
    int (*detect)(const char *text);
    int (*read)(json_t *doc, const char *text, const char *name, const ls_import_opts_t *opts,
                char *err, size_t errlen);
    int (*read_text)(json_t *doc, const char *text, const char *name, char *err, size_t errlen);
    /* What the text holds, for import's usage: lines joined by \n. */
    const char *help;
} ls_importer_t;

/* The formats import reads, listed from its table: with col > 0 the usage's lines, each
   "  NAME" and its help from column col; with col 0 the names in one line, "A, B, ...
   or Z". A static buffer, valid until the next call. */
const char *ls_import_formats(int col);

/* The collectives nccl-tests has a binary for (NAME_perf), NULL-terminated: what
   import --collective takes. */
const char *const *ls_import_collectives(void);

enum ls_import_format ls_import_detect(const char *text);
const char *ls_import_format_name(enum ls_import_format fmt);

/* A new, empty run document for imported figures ("source": "import"). */
json_t *ls_import_doc_new(void);

/* Detects text's format and adds what it holds to doc. Returns the number of entries
   added (0 for topology text, which fills gpus/links), or -1 with err = one line
   naming name. */
int ls_import_text(json_t *doc, const char *text, const char *name, const ls_import_opts_t *opts,
                   enum ls_import_format *fmt_out, char *err, size_t errlen);

/* The line that says what the file name held, once imported into doc (n entries of
   format fmt, those from index before on): "NAME: nccl-tests, 2 entries", with the NCCL
   version, ranks and hosts of a log; warn gets what a partial paste lacked (the
   file's imports record, or the first note of an entry flagged incomplete), or stays
   as it was. */
void ls_import_note(const json_t *doc, size_t before, enum ls_import_format fmt, int n,
                    const char *name, char *note, size_t notelen, char *warn, size_t warnlen);

/* nvidia-smi topo -p2p r (write = 0) or w (write = 1) text into the document's links;
   needs the topology (topo -m) imported first. 0 or -1 with err. */
int ls_import_topo_p2p(json_t *doc, const char *text, const char *name, int write, char *err,
                       size_t errlen);

/* linkscope import's files: names, their texts (already read), the topo -p2p r and w
   files (NULL: none) and the options. */
typedef struct {
    const char *const *files;
    char *const *texts;
    int nfiles;
    const char *p2p_read, *p2p_write;
    ls_import_opts_t opts;
} ls_import_batch_t;

/* Imports them into doc (batch.c): every format is recognized first, the topology comes
   before the figures (P2P status and link types hang off it). notes[i] and warns[i] get
   what file i held (ls_import_note), to be said once all is written. 0, or -1 after one
   line on stderr. */
int ls_import_batch(json_t *doc, const ls_import_batch_t *b, char (*notes)[640],
                    char (*warns)[640]);

#endif
